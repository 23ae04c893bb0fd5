//! The stable smoke driver: `cargo run --release --manifest-path fuzz/Cargo.toml --bin smoke --
//! [RUNS] [SEED]`. Mutates the 129 official examples deterministically (the same seed makes
//! the same inputs), reads each mutant with every dispatching deserializer on a 2 MiB thread,
//! and fails on a panic, or on a peak allocation past `alloc::bound` for the input's size.
//! Prints the figures RELIABILITY.md records.

use std::time::Instant;

use mcp_fuzz::{alloc, mutate, target};

#[global_allocator]
static COUNTING: alloc::Counting = alloc::Counting;

fn main() {
    let mut args = std::env::args().skip(1);
    let runs: u64 = args
        .next()
        .map_or(1_000_000, |a| a.parse().expect("RUNS is a number"));
    let seed: u64 = args
        .next()
        .map_or(1, |a| a.parse().expect("SEED is a number"));
    let dir = std::env::var_os("MCP_SCHEMA_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(mcp_tests::schema_dir);
    let seeds = mutate::seeds(&dir);
    assert_eq!(seeds.len(), 129, "the 129 official examples");
    // A 2 MiB stack, as a test thread or a small server thread has: a 10,000-deep input must
    // not overflow it.
    let report = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || run(&seeds, runs, seed))
        .unwrap()
        .join();
    match report {
        Ok(()) => {}
        Err(_) => std::process::exit(1),
    }
}

fn run(seeds: &[Vec<u8>], runs: u64, seed: u64) {
    let started = Instant::now();
    let mut rng = mutate::Rng(seed);
    let (mut accepted, mut tried, mut bytes) = (0u64, 0u64, 0u64);
    let (mut max_ratio, mut max_peak, mut any_accepted) = (0f64, (0usize, 0usize), 0u64);
    let mut deep = 0u64;
    for i in 0..runs + seeds.len() as u64 {
        // The seeds themselves first, then mutants.
        let data = match usize::try_from(i).ok().and_then(|i| seeds.get(i)) {
            Some(s) => s.clone(),
            None => mutate::mutate(&mut rng, seeds),
        };
        if data
            .windows(64)
            .any(|w| w.iter().all(|b| *b == b'[') || w.starts_with(b"{\"a\":{\"a\":{\"a\":{\"a\":"))
        {
            deep += 1;
        }
        let base = alloc::start();
        let outcome = std::panic::catch_unwind(|| target::one_input(&data));
        let peak = alloc::peak_since(base);
        let Ok(outcome) = outcome else {
            let path = format!("fuzz-crash-{seed}-{i}.json");
            std::fs::write(&path, &data).unwrap();
            eprintln!("input {i} panicked; written to {path}");
            std::process::exit(1);
        };
        if peak > alloc::bound(data.len()) {
            let path = format!("fuzz-alloc-{seed}-{i}.json");
            std::fs::write(&path, &data).unwrap();
            eprintln!(
                "input {i} ({} bytes) allocated {peak} bytes at once; written to {path}",
                data.len()
            );
            std::process::exit(1);
        }
        if peak > max_peak.0 {
            max_peak = (peak, data.len());
        }
        // Per byte, for inputs large enough that the fixed allowance does not dominate.
        if data.len() >= 4096 {
            max_ratio = max_ratio.max(peak as f64 / data.len() as f64);
        }
        accepted += u64::from(outcome.accepted);
        tried += u64::from(outcome.tried);
        any_accepted += u64::from(outcome.accepted > 0);
        bytes += data.len() as u64;
    }
    let secs = started.elapsed().as_secs_f64();
    let total = runs + seeds.len() as u64;
    println!(
        "{total} inputs ({} seeds + {runs} mutants, seed {seed}, {:.1} MiB) in {secs:.1} s ({:.0} inputs/s)",
        seeds.len(),
        bytes as f64 / (1 << 20) as f64,
        total as f64 / secs
    );
    println!(
        "{tried} reads, {accepted} accepted; {any_accepted} inputs read by at least one type; {deep} with 10,000-deep nesting"
    );
    println!(
        "no panic; largest peak allocation {} bytes (an input of {} bytes); at most {max_ratio:.1} bytes per input byte for inputs of 4 KiB or more (bound: 256 KiB + 256 per byte)",
        max_peak.0, max_peak.1
    );
}
