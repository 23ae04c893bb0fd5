//! Every implementation on every workload, measured in one run, printed as the Markdown table
//! of BENCHMARKS.md.
//!
//! `cargo bench -p mcp-bench --bench compare` runs it all. Arguments after `--`:
//!
//! - `--rounds N` (default 15): each round measures every (workload, implementation, direction)
//!   once, in a rotating order; the table shows the median round, so that a burst of load on a
//!   shared machine hits one round of every implementation alike.
//! - `--only NAME:W:DIR` (e.g. `ours:w2:de`): run just that pass, `--passes N` times, and print
//!   nothing else; for profilers (`valgrind --tool=callgrind --toggle-collect='*pass_*'`).
//! - `--skip-generate`: leave out the generator timing.

use mcp_bench::measure;
use mcp_bench::workloads::{self, Expect};
use mcp_bench::{Ignored, Impl, JsonValue, Ours, OursRaw, Rmcp, RustMcpSchema, plain};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::time::Duration;

/// Which cases to build: (workload, implementation, direction) -> wanted.
type Want<'a> = &'a dyn Fn(&str, &str, &str) -> bool;

struct Workloads {
    w1: Vec<String>,
    w2: Vec<String>,
    w2_expect: Vec<Expect>,
    w3: Vec<String>,
}

fn parse_all<T: DeserializeOwned>(texts: &[String]) -> Option<Vec<T>> {
    texts.iter().map(|t| serde_json::from_str(t).ok()).collect()
}

/// One measured thing: a closure that runs one pass and returns its duration.
struct Case {
    /// (workload, implementation, direction)
    key: (&'static str, &'static str, &'static str),
    /// Input bytes of one pass.
    bytes: usize,
    run: Box<dyn FnMut() -> Duration>,
    times: Vec<Duration>,
    /// Passes per round (W1, one message, is read several times per round).
    reps: usize,
}

/// A deserializing pass over `texts` as `T`, timed without dropping the values.
fn timed_de<T: DeserializeOwned + 'static>(texts: Vec<String>) -> Box<dyn FnMut() -> Duration> {
    Box::new(move || measure::read_timed::<T>(&texts))
}

/// W1 is one message: each round times this many passes over it.
const W1_REPEAT: usize = 20;

fn reps(workload: &str) -> usize {
    if workload == "W1" { W1_REPEAT } else { 1 }
}

fn cases_for<I: Impl + 'static>(
    id: &'static str,
    w: &Workloads,
    cases: &mut Vec<Case>,
    want: Want,
) {
    for (wl, texts) in [
        ("W1", w.w1.clone()),
        ("W2", w.w2.clone()),
        ("W3", w.w3.clone()),
    ] {
        if !want(wl, id, "de") {
            continue;
        }
        let bytes = workloads::total_len(&texts);
        let run: Box<dyn FnMut() -> Duration> = match wl {
            "W1" => timed_de::<I::W1>(texts),
            "W2" => timed_de::<I::W2>(texts),
            _ => timed_de::<I::W3>(texts),
        };
        cases.push(Case {
            key: (wl, id, "de"),
            bytes,
            run,
            times: Vec::new(),
            reps: reps(wl),
        });
    }
}

fn ser_cases<I: Impl + 'static>(id: &'static str, w: &Workloads, cases: &mut Vec<Case>, want: Want)
where
    I::W1: Serialize,
    I::W2: Serialize,
    I::W3: Serialize,
{
    fn one<T: Serialize + 'static>(
        wl: &'static str,
        id: &'static str,
        texts: &[String],
        values: impl FnOnce() -> Option<Vec<T>>,
        cases: &mut Vec<Case>,
        want: Want,
    ) {
        if !want(wl, id, "ser") {
            return;
        }
        // A workload an implementation cannot read is not written either.
        let Some(values) = values() else {
            return;
        };
        let bytes = workloads::total_len(texts);
        let mut buffer = Vec::with_capacity(1 << 20);
        cases.push(Case {
            key: (wl, id, "ser"),
            bytes,
            run: Box::new(move || measure::write_timed(&values, &mut buffer)),
            times: Vec::new(),
            reps: reps(wl),
        });
    }
    let (w1, w2, w3) = (&w.w1, &w.w2, &w.w3);
    one("W1", id, w1, || parse_all::<I::W1>(w1), cases, want);
    let values = || I::w2_values(w2, &w.w2_expect);
    one("W2", id, w2, values, cases, want);
    one("W3", id, w3, || parse_all::<I::W3>(w3), cases, want);
}

/// The implementations: (id, table name).
const IMPLS: [(&str, &str); 6] = [
    ("ours", Ours::NAME),
    ("ours-raw", OursRaw::NAME),
    ("rust-mcp-schema", RustMcpSchema::NAME),
    ("rmcp", Rmcp::NAME),
    ("value", JsonValue::NAME),
    ("ignored", Ignored::NAME),
];

fn all_cases(w: &Workloads, want: Want) -> Vec<Case> {
    let mut cases = Vec::new();
    cases_for::<Ours>("ours", w, &mut cases, want);
    ser_cases::<Ours>("ours", w, &mut cases, want);
    cases_for::<OursRaw>("ours-raw", w, &mut cases, want);
    ser_cases::<OursRaw>("ours-raw", w, &mut cases, want);
    cases_for::<RustMcpSchema>("rust-mcp-schema", w, &mut cases, want);
    ser_cases::<RustMcpSchema>("rust-mcp-schema", w, &mut cases, want);
    cases_for::<Rmcp>("rmcp", w, &mut cases, want);
    ser_cases::<Rmcp>("rmcp", w, &mut cases, want);
    cases_for::<JsonValue>("value", w, &mut cases, want);
    ser_cases::<JsonValue>("value", w, &mut cases, want);
    cases_for::<Ignored>("ignored", w, &mut cases, want);
    dispatch_cases(w, &mut cases, want);
    cases
}

/// The complete W2 results, split by key order: (tag first, tag last).
fn complete_results(w: &Workloads) -> (Vec<String>, Vec<String>) {
    let mut first = Vec::new();
    let mut last = Vec::new();
    for (i, (t, e)) in w.w2.iter().zip(&w.w2_expect).enumerate() {
        if matches!(e, Expect::Complete { .. }) {
            let r = mcp_bench::result_member(t).to_owned();
            if i % 2 == 1 { &mut last } else { &mut first }.push(r);
        }
    }
    (first, last)
}

/// The `resultType` dispatch against plain derives, on W2's complete results.
const DISPATCH: [(&str, &str); 5] = [
    (
        "outcome",
        "`CallToolOutcome` (McpResult enum: resultType dispatch)",
    ),
    (
        "result",
        "`CallToolResult` (McpResult struct: resultType checked)",
    ),
    (
        "plain",
        "plain `#[derive(Deserialize)]`, same fields (`ContentBlock` content)",
    ),
    (
        "plain-text",
        "plain `#[derive(Deserialize)]`, text blocks as a plain struct",
    ),
    ("ignored-r", "`IgnoredAny` (floor)"),
];

fn dispatch_cases(w: &Workloads, cases: &mut Vec<Case>, want: Want) {
    use mcp_bench::mcp;
    let (first, last) = complete_results(w);
    for (wl, texts) in [("W2c tag first", first), ("W2c tag last", last)] {
        let bytes = workloads::total_len(&texts);
        for (id, _) in DISPATCH {
            if !want(wl, id, "de") {
                continue;
            }
            let t = texts.clone();
            let run = match id {
                "outcome" => timed_de::<mcp::CallToolOutcome>(t),
                "result" => timed_de::<mcp::CallToolResult>(t),
                "plain" => timed_de::<plain::CallToolResult>(t),
                "plain-text" => timed_de::<plain::CallToolTextResult>(t),
                _ => timed_de::<serde::de::IgnoredAny>(t),
            };
            cases.push(Case {
                key: (wl, id, "de"),
                bytes,
                run,
                times: Vec::new(),
                reps: 1,
            });
        }
    }
}

/// The best round: load from other processes only ever adds time.
fn best(times: &mut [Duration]) -> Duration {
    times.sort();
    times[0]
}

fn mbps(bytes: usize, t: Duration) -> f64 {
    bytes as f64 / t.as_secs_f64() / 1e6
}

fn find<'c>(cases: &'c [Case], key: (&str, &str, &str)) -> Option<&'c Case> {
    cases.iter().find(|c| c.key == key)
}

fn rate(cases: &[Case], key: (&str, &str, &str)) -> Option<f64> {
    let c = find(cases, key)?;
    let mut t = c.times.clone();
    Some(mbps(c.bytes, best(&mut t)))
}

fn fmt_rate(r: Option<f64>) -> String {
    r.map_or_else(|| "—".to_owned(), |r| format!("{r:.0}"))
}

fn check_cell(c: &mcp_bench::W2Check) -> String {
    if c.is_correct() {
        "0 wrong".to_owned()
    } else {
        format!(
            "{} wrong resultType ({} errors), {} lost content; tag-first {} / sorted {}",
            c.wrong_result_type, c.errors, c.lost_content, c.wrong_natural, c.wrong_sorted
        )
    }
}

/// Whether writing every value of `values` gives back its text in `texts` as a JSON value
/// (member order and spacing aside): the implementation writes the workload without loss.
fn writes_back<T: Serialize>(texts: &[String], values: Option<Vec<T>>) -> bool {
    values.is_some_and(|values| {
        texts.iter().zip(&values).all(|(t, v)| {
            let read: Option<serde_json::Value> = serde_json::from_str(t).ok();
            read.is_some() && serde_json::to_value(v).ok() == read
        })
    })
}

/// Per workload (W1, W2, W3): whether `I` writes it without loss.
fn lossless<I: Impl>(w: &Workloads) -> [bool; 3]
where
    I::W1: Serialize,
    I::W2: Serialize,
    I::W3: Serialize,
{
    [
        writes_back(&w.w1, parse_all::<I::W1>(&w.w1)),
        writes_back(&w.w2, I::w2_values(&w.w2, &w.w2_expect)),
        writes_back(&w.w3, parse_all::<I::W3>(&w.w3)),
    ]
}

fn generation(runs: usize) -> (Duration, usize, usize, usize) {
    let schema = std::path::PathBuf::from(std::env::var("MCP_SCHEMA_DIR").unwrap())
        .join("2026-07-28")
        .join("schema.json");
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..runs {
        // The wall clock: the generator runs its stages on a thread of its own.
        let start = std::time::Instant::now();
        let g = mcp_codegen::Builder::new()
            .schema(&schema)
            .cargo_metadata(false)
            .generate_string()
            .expect("generating the 2026-07-28 schema");
        times.push(start.elapsed());
        last = Some(g);
    }
    let g = last.unwrap();
    (
        best(&mut times),
        g.text.len(),
        g.text.lines().count(),
        g.types,
    )
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let rounds: usize = arg("--rounds").map_or(15, |r| r.parse().expect("--rounds N"));
    // `cargo bench` passes `--bench`; `cargo test --benches` runs it with no such flag: then
    // only check that it works, quickly.
    let quick = !args.iter().any(|a| a == "--bench") && arg("--only").is_none();

    let (w2, w2_expect) = workloads::w2();
    if quick {
        // Built and run by `cargo test --all-targets`: check that it works, time nothing.
        let n = 2_000;
        let check = mcp_bench::observe::<Ours>(&w2[..n], &w2_expect[..n]);
        assert!(check.is_correct(), "{check:?}");
        let check = mcp_bench::observe::<OursRaw>(&w2[..n], &w2_expect[..n]);
        assert!(check.is_correct(), "raw_json: {check:?}");
        println!("compare: not timing (run it with `cargo bench -p mcp-bench`)");
        return;
    }
    let w = Workloads {
        w1: vec![workloads::w1()],
        w2,
        w2_expect,
        w3: workloads::w3(),
    };

    if let Some(only) = arg("--only") {
        let parts: Vec<&str> = only.split(':').collect();
        let [id, wl, dir] = parts[..] else {
            panic!("--only NAME:W:DIR, e.g. ours:w2:de");
        };
        let mut cases = all_cases(&w, &|w, i, d| {
            w.eq_ignore_ascii_case(wl) && i == id && d == dir
        });
        let passes: usize = arg("--passes").map_or(1, |p| p.parse().unwrap());
        let case = cases
            .first_mut()
            .unwrap_or_else(|| panic!("no case {only}"));
        let mut total = Duration::ZERO;
        for _ in 0..passes {
            total += (case.run)();
        }
        eprintln!(
            "{only}: {:.0} MB/s over {passes} passes",
            mbps(case.bytes * passes, total)
        );
        return;
    }

    let mut cases = all_cases(&w, &|_, _, _| true);
    // Warm up: one untimed pass of everything.
    for c in &mut cases {
        (c.run)();
    }
    for round in 0..rounds {
        let n = cases.len();
        for k in 0..n {
            let c = &mut cases[(k + round * 7) % n];
            for _ in 0..c.reps {
                let t = (c.run)();
                c.times.push(t);
            }
        }
    }

    let checks: Vec<(&str, mcp_bench::W2Check)> = vec![
        ("ours", mcp_bench::observe::<Ours>(&w.w2, &w.w2_expect)),
        (
            "ours-raw",
            mcp_bench::observe::<OursRaw>(&w.w2, &w.w2_expect),
        ),
        (
            "rust-mcp-schema",
            mcp_bench::observe::<RustMcpSchema>(&w.w2, &w.w2_expect),
        ),
        ("rmcp", mcp_bench::observe::<Rmcp>(&w.w2, &w.w2_expect)),
        (
            "value",
            mcp_bench::observe::<JsonValue>(&w.w2, &w.w2_expect),
        ),
    ];

    let sizes = [
        ("W1", w.w1[0].len(), 1),
        ("W2", workloads::total_len(&w.w2), w.w2.len()),
        ("W3", workloads::total_len(&w.w3), w.w3.len()),
    ];
    println!("Workloads:");
    for (wl, bytes, n) in sizes {
        println!("- {wl}: {n} message(s), {bytes} bytes");
    }
    println!(
        "- W2: {} input_required, {} written with sorted keys",
        w.w2_expect
            .iter()
            .filter(|e| matches!(e, Expect::InputRequired))
            .count(),
        w.w2.len() / 2
    );
    println!();
    println!("Deserialize and serialize, MB/s of input JSON (best of {rounds} rounds):");
    println!();
    println!(
        "| implementation | W1 de | W2 de | W3 de | W1 ser | W2 ser | W3 ser | W2 read correctly? |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
    for (id, name) in IMPLS {
        let check = checks
            .iter()
            .find(|(i, _)| *i == id)
            .map_or_else(|| "—".to_owned(), |(_, c)| check_cell(c));
        println!(
            "| {name} | {} | {} | {} | {} | {} | {} | {check} |",
            fmt_rate(rate(&cases, ("W1", id, "de"))),
            fmt_rate(rate(&cases, ("W2", id, "de"))),
            fmt_rate(rate(&cases, ("W3", id, "de"))),
            fmt_rate(rate(&cases, ("W1", id, "ser"))),
            fmt_rate(rate(&cases, ("W2", id, "ser"))),
            fmt_rate(rate(&cases, ("W3", id, "ser"))),
        );
    }

    let lossless_peers: Vec<(&str, [bool; 3])> = vec![
        ("rust-mcp-schema", lossless::<RustMcpSchema>(&w)),
        ("rmcp", lossless::<Rmcp>(&w)),
    ];
    println!();
    println!("Written without loss (every message writes back the JSON value it was read from):");
    println!();
    for (id, name) in IMPLS.iter().take(4) {
        let flags = match *id {
            "ours" => lossless::<Ours>(&w),
            "ours-raw" => lossless::<OursRaw>(&w),
            _ => lossless_peers
                .iter()
                .find(|(i, _)| i == id)
                .map_or([false; 3], |p| p.1),
        };
        let yes = |b: bool| if b { "yes" } else { "no" };
        println!(
            "- {name}: W1 {}, W2 {}, W3 {}",
            yes(flags[0]),
            yes(flags[1]),
            yes(flags[2])
        );
    }

    // Ratios against the targets.
    println!();
    println!("Ratios (ours ÷ other, same run):");
    println!();
    println!("| | W1 | W2 | W3 |");
    println!("| --- | ---: | ---: | ---: |");
    let correct = |id: &str| checks.iter().any(|(i, c)| *i == id && c.is_correct());
    let ratio_row = |label: &str, dir: &str, other: &dyn Fn(&str) -> Option<f64>| {
        for (ours, suffix) in [("ours", ""), ("ours-raw", ", raw_json")] {
            let cells: Vec<String> = ["W1", "W2", "W3"]
                .iter()
                .map(|wl| match (rate(&cases, (wl, ours, dir)), other(wl)) {
                    (Some(a), Some(b)) => format!("{:.2}×", a / b),
                    _ => "—".to_owned(),
                })
                .collect();
            println!("| {label}{suffix} | {} |", cells.join(" | "));
        }
    };
    ratio_row("de ÷ IgnoredAny floor (target ≥ 0.4)", "de", &|wl| {
        rate(&cases, (wl, "ignored", "de"))
    });
    let fastest_peer = |wl: &str, dir: &str, need_correct: bool| -> Option<(f64, &'static str)> {
        ["rust-mcp-schema", "rmcp"]
            .iter()
            .filter(|id| !need_correct || correct(id))
            .filter_map(|id| rate(&cases, (wl, id, dir)).map(|r| (r, *id)))
            .max_by(|a, b| a.0.total_cmp(&b.0))
    };
    ratio_row(
        "de ÷ fastest peer that reads W2 correctly (target ≥ 1.5)",
        "de",
        &|wl| fastest_peer(wl, "de", true).map(|p| p.0),
    );
    ratio_row("de ÷ fastest peer, correct or not", "de", &|wl| {
        fastest_peer(wl, "de", false).map(|p| p.0)
    });
    ratio_row("ser ÷ fastest peer", "ser", &|wl| {
        fastest_peer(wl, "ser", false).map(|p| p.0)
    });
    let workload_index = |wl: &str| ["W1", "W2", "W3"].iter().position(|w| *w == wl);
    ratio_row(
        "ser ÷ fastest peer that writes it without loss (target ≥ 1.0)",
        "ser",
        &|wl| {
            let i = workload_index(wl)?;
            lossless_peers
                .iter()
                .filter(|(_, flags)| flags[i])
                .filter_map(|(id, _)| rate(&cases, (wl, id, "ser")))
                .max_by(f64::total_cmp)
        },
    );

    println!();
    println!(
        "What the dispatch costs: W2's complete results (the `result` member alone), MB/s (best of {rounds} rounds):"
    );
    println!();
    println!("| type | tag first | tag last (keys sorted) |");
    println!("| --- | ---: | ---: |");
    for (id, name) in DISPATCH {
        println!(
            "| {name} | {} | {} |",
            fmt_rate(rate(&cases, ("W2c tag first", id, "de"))),
            fmt_rate(rate(&cases, ("W2c tag last", id, "de"))),
        );
    }

    if !args.iter().any(|a| a == "--skip-generate") {
        let runs = rounds.max(5);
        let (t, bytes, lines, types) = generation(runs);
        println!();
        println!(
            "Generating the full 2026-07-28 schema (in process, `Builder::generate_string`, best of {runs} runs): {:.1} ms, {types} types, {bytes} bytes, {lines} lines",
            t.as_secs_f64() * 1e3
        );
    }
}
