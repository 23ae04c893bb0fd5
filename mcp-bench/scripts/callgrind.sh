#!/usr/bin/env bash
# Instruction counts (valgrind --tool=callgrind) of one pass of each measured case: numbers
# that do not depend on the machine's load, for the ratios. Only the pass itself is counted
# (--toggle-collect on the pass functions), not building the workloads.
#
# Usage (from the workspace root): mcp-bench/scripts/callgrind.sh [CASE...]
# A CASE is NAME:WORKLOAD:DIR as the bench's --only takes it (e.g. ours:w2:de); by default
# every deserializing case, the serializing ones, and the dispatch comparison.
set -euo pipefail

source "$(dirname "$0")/bench-bin.sh"

if [ $# -eq 0 ]; then
    set --
    for w in w1 w2 w3; do
        for i in ours ours-raw rust-mcp-schema rmcp value ignored; do set -- "$@" "$i:$w:de"; done
        for i in ours ours-raw rust-mcp-schema rmcp value; do set -- "$@" "$i:$w:ser"; done
    done
    for i in outcome result plain plain-text ignored-r; do
        set -- "$@" "$i:w2c tag first:de" "$i:w2c tag last:de"
    done
fi

OUT=$(mktemp -d)
echo "| case | instructions |"
echo "| --- | ---: |"
for case in "$@"; do
    valgrind --tool=callgrind --callgrind-out-file="$OUT/cg.out" --collect-atstart=no \
        --toggle-collect='*pass_de*' --toggle-collect='*pass_ser*' \
        "$BIN" --only "$case" --passes 1 >/dev/null 2>"$OUT/log"
    ir=$(grep -E "Collected" "$OUT/log" | awk '{print $4}')
    echo "| $case | $ir |"
done
rm -rf "$OUT"
