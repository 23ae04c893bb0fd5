#!/usr/bin/env bash
# Runs every test of the workspace: unit, integration (generated from the official schema),
# compile-fail (trybuild), the benches once each in test mode, the examples' builds, and
# doctests.
#
# `--tests --benches --examples` rather than `--all-targets`: the latter names `--lib`, which
# builds a library as a test harness even where its manifest says `test = false` (mcp-tests and
# mcp-bench, whose libraries hold generated modules and no unit test; that second build
# compiled every generated module twice).
#
# The Redis stores' tests start a redis-server of their own (Debian's package, installed here
# when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/packages.sh
ensure_commands redis-server:redis-server
cargo test --workspace --locked --tests --benches --examples
cargo test --workspace --locked --doc
