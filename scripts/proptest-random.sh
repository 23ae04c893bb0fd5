#!/usr/bin/env bash
# The property tests with a new random seed and more cases: the weekly-style run, outside CI's
# time budget (CI runs them with fixed seeds, so a CI run never finds what a new seed would).
# Prints the seed first: `MCP_PROPTEST_SEED=<seed> scripts/proptest-random.sh` makes the same
# instances again, to reproduce a failure. Record the last result in RELIABILITY.md
# ("Property tests with a random seed").
#
# Environment: MCP_PROPTEST_SEED (default: 64 random bits), MCP_PROPTEST_CASES (instances per
# `$def`, default 256), MCP_FUZZ_CASES (mutants of the official examples, default 20,000).
# Usage: scripts/proptest-random.sh
set -euo pipefail
cd "$(dirname "$0")/.."
SEED=${MCP_PROPTEST_SEED:-$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')}
export MCP_PROPTEST_SEED=$SEED
export MCP_PROPTEST_CASES=${MCP_PROPTEST_CASES:-256}
export MCP_FUZZ_CASES=${MCP_FUZZ_CASES:-20000}
echo "proptest-random: MCP_PROPTEST_SEED=$SEED MCP_PROPTEST_CASES=$MCP_PROPTEST_CASES MCP_FUZZ_CASES=$MCP_FUZZ_CASES ($(git rev-parse --short HEAD), $(date -u +%Y-%m-%d))"
# Release: the same checks, several times faster with this many cases.
cargo test --locked --release -p mcp-tests --test proptest_schema --test proptest_revisions \
  --test proptest_eras --test proptest_messages -- --nocapture
echo "proptest-random: passed with MCP_PROPTEST_SEED=$SEED"
