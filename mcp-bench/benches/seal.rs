//! Sealing `requestState` (`mcp_runtime::seal`): seals and opens per second in each mode, for a
//! small state (64 bytes, a step and a few ids) and a larger one (1 KiB), and opening with a
//! ring of three keys where the token names the last (a key ring costs a lookup by key id,
//! not a verification per key).
//!
//! `cargo bench -p mcp-bench --bench seal` runs it (BENCHMARKS.md has the figures). Times are
//! this thread's CPU time (`mcp_bench::clock`), which includes the system call that draws the
//! nonce's random bytes and does not run while another process has the core.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use mcp_bench::clock::Instant;
use mcp_runtime::seal::{Binding, Mode, Sealer};
use serde_json::json;

fn binding() -> Binding {
    Binding::new(
        "user-7f3a9c",
        "tools/call",
        &json!({"name": "book", "arguments": {"seat": "4C", "class": "economy"}}),
    )
}

/// Runs `op` `iters` times on the thread's CPU clock.
fn timed(iters: u64, mut op: impl FnMut()) -> Duration {
    let start = Instant::now();
    for _ in 0..iters {
        op();
    }
    start.elapsed()
}

fn modes(c: &mut Criterion) {
    let b = binding();
    for (mode, name) in [(Mode::Hmac, "hmac"), (Mode::Aead, "aead")] {
        let sealer = Sealer::new([7; 32]).with_mode(mode);
        for size in [64usize, 1024] {
            let state = vec![b'x'; size];
            let token = sealer.seal(&b, &state);
            let id = format!("{name}/{size}B");
            let mut g = c.benchmark_group("seal");
            g.throughput(Throughput::Elements(1));
            g.bench_function(BenchmarkId::from_parameter(&id), |bench| {
                bench.iter_custom(|iters| {
                    timed(iters, || {
                        black_box(sealer.seal(black_box(&b), black_box(&state)));
                    })
                });
            });
            g.finish();
            let mut g = c.benchmark_group("open");
            g.throughput(Throughput::Elements(1));
            g.bench_function(BenchmarkId::from_parameter(&id), |bench| {
                bench.iter_custom(|iters| {
                    timed(iters, || {
                        black_box(sealer.open(black_box(&b), black_box(&token)).is_ok());
                    })
                });
            });
            g.finish();
        }
    }
}

fn ring(c: &mut Criterion) {
    let b = binding();
    let token = Sealer::new([3; 32])
        .with_mode(Mode::Aead)
        .seal(&b, &[b'x'; 64]);
    let ring = Sealer::from_keys(&[[1; 32], [2; 32], [3; 32]]).expect("three keys");
    let mut g = c.benchmark_group("open");
    g.throughput(Throughput::Elements(1));
    g.bench_function(
        BenchmarkId::from_parameter("aead/64B, 3rd key of 3"),
        |bench| {
            bench.iter_custom(|iters| {
                timed(iters, || {
                    black_box(ring.open(black_box(&b), black_box(&token)).is_ok());
                })
            });
        },
    );
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(30)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
}

criterion_group! {
    name = benches;
    config = config();
    targets = modes, ring
}
criterion_main!(benches);
