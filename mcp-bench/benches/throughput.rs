//! The workloads under criterion: per (workload, implementation) deserialize and serialize
//! throughput with confidence intervals and change detection between runs
//! (`target/criterion/`), the `resultType` dispatch against plain derives, and generating the
//! full 2026-07-28 schema.
//!
//! `cargo bench -p mcp-bench --bench throughput` runs it; a criterion filter selects groups
//! (`-- deserialize/W2`). `benches/compare.rs` measures the same cases in one interleaved run
//! and prints the ratios of BENCHMARKS.md; this one gives each case's distribution. Both time
//! the same passes (`mcp_bench::measure`) on the same clock.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use mcp_bench::measure;
use mcp_bench::workloads::{self, Expect};
use mcp_bench::{Ignored, Impl, JsonValue, Ours, OursRaw, Rmcp, RustMcpSchema, mcp, plain};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::time::Duration;

struct Workloads {
    w1: Vec<String>,
    w2: Vec<String>,
    w2_expect: Vec<Expect>,
    w3: Vec<String>,
}

fn workloads() -> Workloads {
    let (w2, w2_expect) = workloads::w2();
    Workloads {
        w1: vec![workloads::w1()],
        w2,
        w2_expect,
        w3: workloads::w3(),
    }
}

/// Reads every text (for the serializing cases' values).
fn read_all<T: DeserializeOwned>(texts: &[String]) -> Vec<T> {
    texts
        .iter()
        .map(|t| serde_json::from_str(t).expect("every message is read"))
        .collect()
}

fn bench_de<T: DeserializeOwned>(c: &mut Criterion, group: &str, id: &str, texts: &[String]) {
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Bytes(workloads::total_len(texts) as u64));
    g.bench_function(BenchmarkId::from_parameter(id), |b| {
        b.iter_custom(|iters| (0..iters).map(|_| measure::read_timed::<T>(texts)).sum());
    });
    g.finish();
}

fn bench_ser<T: Serialize>(c: &mut Criterion, group: &str, id: &str, bytes: usize, values: &[T]) {
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Bytes(bytes as u64));
    let mut buffer = Vec::with_capacity(1 << 20);
    g.bench_function(BenchmarkId::from_parameter(id), |b| {
        b.iter_custom(|iters| {
            (0..iters)
                .map(|_| measure::write_timed(values, &mut buffer))
                .sum()
        });
    });
    g.finish();
}

/// Deserializing and serializing every workload with one implementation. A workload the
/// implementation cannot read is left out (and shows as missing in the report).
fn implementation<I: Impl>(c: &mut Criterion, w: &Workloads, id: &str)
where
    I::W1: Serialize,
    I::W2: Serialize,
    I::W3: Serialize,
{
    bench_de::<I::W1>(c, "deserialize/W1", id, &w.w1);
    bench_de::<I::W2>(c, "deserialize/W2", id, &w.w2);
    bench_de::<I::W3>(c, "deserialize/W3", id, &w.w3);
    bench_ser(
        c,
        "serialize/W1",
        id,
        w.w1[0].len(),
        &read_all::<I::W1>(&w.w1),
    );
    if let Some(values) = I::w2_values(&w.w2, &w.w2_expect) {
        bench_ser(c, "serialize/W2", id, workloads::total_len(&w.w2), &values);
    }
    let w3 = read_all::<I::W3>(&w.w3);
    bench_ser(c, "serialize/W3", id, workloads::total_len(&w.w3), &w3);
}

fn peers(c: &mut Criterion) {
    let w = workloads();
    implementation::<Ours>(c, &w, "mcp-codegen");
    implementation::<OursRaw>(c, &w, "mcp-codegen-raw_json");
    implementation::<RustMcpSchema>(c, &w, "rust-mcp-schema");
    implementation::<Rmcp>(c, &w, "rmcp");
    implementation::<JsonValue>(c, &w, "serde_json-Value");
    bench_de::<<Ignored as Impl>::W1>(c, "deserialize/W1", "IgnoredAny", &w.w1);
    bench_de::<<Ignored as Impl>::W2>(c, "deserialize/W2", "IgnoredAny", &w.w2);
    bench_de::<<Ignored as Impl>::W3>(c, "deserialize/W3", "IgnoredAny", &w.w3);
}

/// W2's complete results (the `result` member), with `resultType` first and last: the outcome
/// enum and the result struct against plain derives of the same fields.
fn dispatch(c: &mut Criterion) {
    let w = workloads();
    let (mut first, mut last) = (Vec::new(), Vec::new());
    for (i, (t, e)) in w.w2.iter().zip(&w.w2_expect).enumerate() {
        if matches!(e, Expect::Complete { .. }) {
            let r = mcp_bench::result_member(t).to_owned();
            if i % 2 == 1 { &mut last } else { &mut first }.push(r);
        }
    }
    for (group, texts) in [("dispatch/tag first", first), ("dispatch/tag last", last)] {
        bench_de::<mcp::CallToolOutcome>(c, group, "CallToolOutcome", &texts);
        bench_de::<mcp::CallToolResult>(c, group, "CallToolResult", &texts);
        bench_de::<plain::CallToolResult>(c, group, "plain derive", &texts);
        bench_de::<serde::de::IgnoredAny>(c, group, "IgnoredAny", &texts);
    }
}

/// Generating the full 2026-07-28 schema in process (load, overlay, lower, emit, format).
fn generate(c: &mut Criterion) {
    let schema = std::path::PathBuf::from(std::env::var("MCP_SCHEMA_DIR").unwrap())
        .join("2026-07-28")
        .join("schema.json");
    c.bench_function("generate/2026-07-28", |b| {
        b.iter(|| {
            mcp_codegen::Builder::new()
                .schema(&schema)
                .cargo_metadata(false)
                .generate_string()
                .expect("generating the 2026-07-28 schema")
        });
    });
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(20)
}

criterion_group! {
    name = benches;
    config = config();
    targets = peers, dispatch, generate
}
criterion_main!(benches);
