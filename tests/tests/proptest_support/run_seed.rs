//! The run's seed, for the property tests that take one (`proptest_support`'s walkers and
//! `proptest_messages`' mutants).

/// `MCP_PROPTEST_SEED`: the number `scripts/proptest-random.sh` sets for a run with a new
/// random seed (the same number makes the same instances again); `None` in CI's runs, whose
/// seeds are fixed.
///
/// # Panics
///
/// When it is set to something that is not a number (never a silent fixed seed).
pub fn run_seed() -> Option<u64> {
    let run = std::env::var("MCP_PROPTEST_SEED").ok()?;
    Some(run.parse().expect("MCP_PROPTEST_SEED is a number"))
}
