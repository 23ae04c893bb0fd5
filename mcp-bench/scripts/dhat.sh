#!/usr/bin/env bash
# Heap allocations per message (valgrind --tool=dhat) of each measured case: one pass's
# allocations are the run with two passes minus the run with one (the same workloads and
# setup), divided by the workload's messages (W1: 1, W2 and W3: 20,000).
#
# Usage (from the workspace root): mcp-bench/scripts/dhat.sh [CASE...]
# A CASE is NAME:WORKLOAD:DIR as the compare bench's --only takes it (e.g. ours-raw:w1:de); by
# default every implementation's reading and writing of W1, W2 and W3.
set -euo pipefail

source "$(dirname "$0")/bench-bin.sh"

if [ $# -eq 0 ]; then
    set --
    for w in w1 w2 w3; do
        for i in ours ours-raw rust-mcp-schema rmcp value; do
            set -- "$@" "$i:$w:de" "$i:$w:ser"
        done
    done
fi

OUT=$(mktemp -d)
# "bytes blocks" allocated by a run of CASE with PASSES passes.
totals() {
    valgrind --tool=dhat --dhat-out-file="$OUT/dhat.out" "$BIN" --only "$1" --passes "$2" \
        >/dev/null 2>"$OUT/log"
    grep -E "Total:" "$OUT/log" | tr -d ',' | awk '{print $3, $6}'
}

echo "| case | bytes per message | blocks per message |"
echo "| --- | ---: | ---: |"
for case in "$@"; do
    read -r b1 k1 <<<"$(totals "$case" 1)"
    read -r b2 k2 <<<"$(totals "$case" 2)"
    case "$case" in
        *:w1:*) n=1 ;;
        *) n=20000 ;;
    esac
    awk -v c="$case" -v b=$((b2 - b1)) -v k=$((k2 - k1)) -v n="$n" \
        'BEGIN { printf "| %s | %.0f | %.1f |\n", c, b / n, k / n }'
done
rm -rf "$OUT"
