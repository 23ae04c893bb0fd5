#!/usr/bin/env bash
# Runs every test of the workspace: unit, integration (generated from the official schema),
# compile-fail (trybuild) and doctests.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace --locked --all-targets
cargo test --workspace --locked --doc
