#!/usr/bin/env bash
# Coverage-guided fuzzing with cargo-fuzz (libFuzzer), seeded with the 129 official examples.
#
#   fuzz/run-libfuzzer.sh [RUNS] [extra libFuzzer flags...]
#
# cargo-fuzz needs nightly Rust features; the machine has stable Rust only, so the build runs
# with RUSTC_BOOTSTRAP=1 (the stable compiler, its nightly features unlocked). cargo-fuzz comes
# from crates.io, installed here when missing. The seeds are copied into fuzz/corpus/messages
# (ignored by git: the examples are the specification's files, never part of this repository).
set -euo pipefail
cd "$(dirname "$0")"
runs="${1:-1000000}"
shift || true

if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi

schema_dir="${MCP_SCHEMA_DIR:-$(cd .. && pwd)/../shared/mcp-schema}"
mkdir -p corpus/messages
for f in "$schema_dir"/2026-07-28/examples/*/*.json; do
    cp "$f" "corpus/messages/seed-$(basename "$(dirname "$f")")-$(basename "$f")"
done

export RUSTC_BOOTSTRAP=1
export MCP_SCHEMA_DIR="$schema_dir"
# -rss_limit_mb: a reader that allocates without bound stops the run (libFuzzer's default is
# 2048); -max_len: the seeds are at most a few KiB, mutants may grow to 64 KiB.
cargo fuzz run --features libfuzzer messages corpus/messages -- \
    -runs="$runs" -max_len=65536 -rss_limit_mb=1024 -print_final_stats=1 "$@"
