//! `precompile(true)`: reading and writing through `mcp_runtime::Wire`, whose functions are
//! compiled in the crate that holds the generated module (here `mcp-tests`, whose two-revision
//! module is generated with `precompile(true)`), against `serde_json` called on the same types
//! from this crate (the reader and writer instantiated here). The same code runs both ways; the
//! difference is one call that is not inlined per message, and where the code was optimised.
//!
//! Each group runs `serde_json`, then `wire`, then `serde_json` again: the case that runs
//! second in a group measures slower on this machine whatever it is (the heap the first one
//! left), so the repeat shows how much of a difference is the order.
//!
//! `cargo bench -p mcp-bench --bench wire` runs it (BENCHMARKS.md, section 11e, has the
//! figures). Times are this thread's CPU time (`mcp_bench::clock`).

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use mcp_bench::clock::Instant;
use mcp_bench::workloads;
use mcp_runtime::Wire;
use mcp_tests::eras::v2026_07_28::{CallToolRequest, ListToolsResultResponse};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// Runs `op` on every text, `iters` times, on the thread's CPU clock.
fn timed<T>(iters: u64, texts: &[String], op: impl Fn(&[u8]) -> T) -> Duration {
    let start = Instant::now();
    for _ in 0..iters {
        for t in texts {
            black_box(op(black_box(t.as_bytes())));
        }
    }
    start.elapsed()
}

/// Reading and writing `texts` as `T`, both ways.
fn both_ways<T>(c: &mut Criterion, workload: &str, texts: &[String])
where
    T: Wire + DeserializeOwned + Serialize,
{
    let bytes = workloads::total_len(texts) as u64;
    let mut g = c.benchmark_group(format!("wire/read {workload}"));
    g.throughput(Throughput::Bytes(bytes));
    g.bench_function(BenchmarkId::from_parameter("serde_json"), |b| {
        b.iter_custom(|iters| timed(iters, texts, |t| serde_json::from_slice::<T>(t).unwrap()));
    });
    g.bench_function(BenchmarkId::from_parameter("wire"), |b| {
        b.iter_custom(|iters| timed(iters, texts, |t| T::from_json_slice(t).unwrap()));
    });
    g.bench_function(BenchmarkId::from_parameter("serde_json, again"), |b| {
        b.iter_custom(|iters| timed(iters, texts, |t| serde_json::from_slice::<T>(t).unwrap()));
    });
    g.finish();
    let values: Vec<T> = texts.iter().map(|t| T::from_json_str(t).unwrap()).collect();
    let mut g = c.benchmark_group(format!("wire/write {workload}"));
    g.throughput(Throughput::Bytes(bytes));
    g.bench_function(BenchmarkId::from_parameter("serde_json"), |b| {
        b.iter_custom(|iters| write_timed(iters, &values, |v| serde_json::to_vec(v).unwrap()));
    });
    g.bench_function(BenchmarkId::from_parameter("wire"), |b| {
        b.iter_custom(|iters| write_timed(iters, &values, |v| v.to_json_vec().unwrap()));
    });
    g.bench_function(BenchmarkId::from_parameter("serde_json, again"), |b| {
        b.iter_custom(|iters| write_timed(iters, &values, |v| serde_json::to_vec(v).unwrap()));
    });
    g.finish();
}

/// Runs `op` on every value, `iters` times, on the thread's CPU clock.
fn write_timed<T>(iters: u64, values: &[T], op: impl Fn(&T) -> Vec<u8>) -> Duration {
    let start = Instant::now();
    for _ in 0..iters {
        for v in values {
            black_box(op(black_box(v)));
        }
    }
    start.elapsed()
}

fn wire(c: &mut Criterion) {
    both_ways::<ListToolsResultResponse>(c, "W1", &[workloads::w1()]);
    both_ways::<CallToolRequest>(c, "W3", &workloads::w3());
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(3));
    targets = wire
}
criterion_main!(benches);
