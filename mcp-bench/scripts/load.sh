#!/usr/bin/env bash
# Load benchmark (issue 29, item 8): requests/s and peak RSS of our server against rmcp 3.11's
# StreamableHttpService, both serving the tool test_simple_text over Streamable HTTP on
# loopback, in the modern era (2026-07-28, stateless) and the legacy one (2025-11-25, one
# session per worker), at each concurrency of CONCURRENCY.
#
# Each (server, era, concurrency) point starts a fresh server process, runs
# mcp-bench/load's `load` generator (a warm-up, then SECONDS of measurement; every answer is
# checked, a failed request fails the run) and reads the server's peak resident set (VmHWM in
# /proc/PID/status) before stopping it, and the peak of its anonymous part (RssAnon: heap and
# stacks, sampled every 50 ms; at low concurrency VmHWM is mostly the binary's own pages).
# Prints a Markdown table, ours against rmcp.
#
# Usage: mcp-bench/scripts/load.sh        (SECONDS=10 CONCURRENCY="1 16 64" ROUNDS=1)
#   OURS=path/to/server overrides our server binary (default: the release build of
#   mcp-conformance-server, built here). ROUNDS>1 runs every point that many times, alternating
#   servers, and keeps each point's best requests/s (and the peak RSS of that run).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
source scripts/lib/servers.sh
trap stop_servers EXIT

# From the environment, not $SECONDS: bash's own counter of seconds since the script began,
# which is 0 here (never empty), so `${SECONDS:-10}` measured nothing.
SECONDS_PER_POINT=$(printenv SECONDS || echo 10)
CONCURRENCY=${CONCURRENCY:-1 16 64}
ROUNDS=${ROUNDS:-1}
OUT=$ROOT/target/load-bench
mkdir -p "$OUT"

if [[ -z ${OURS:-} ]]; then
  cargo build --release --locked -p mcp-conformance-server
  OURS=$ROOT/target/release/mcp-conformance-server
fi
LOAD_TARGET=$ROOT/target/load
cargo build --release --manifest-path mcp-bench/load/Cargo.toml --target-dir "$LOAD_TARGET"
RMCP=$LOAD_TARGET/release/rmcp-server
LOAD=$LOAD_TARGET/release/load

# run_point NAME ERA C: prints "rps rss_kib p50 p99" of one fresh server under load.
run_point() {
  local name=$1 era=$2 c=$3
  case $name in
    ours) start_server "$OUT/$name.log" "$OURS" --listen 127.0.0.1:0 ;;
    rmcp) start_server "$OUT/$name.log" "$RMCP" 127.0.0.1:0 ;;
  esac
  local pid=${SERVER_PIDS[-1]}
  # The anonymous part of the resident set (heap, stacks), sampled every 50 ms: VmHWM is
  # mostly the binary's own pages at low concurrency.
  local anon_file=$OUT/anon.$name
  (
    max=0
    while kill -0 "$pid" 2>/dev/null; do
      a=$(awk '/^RssAnon:/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
      (( ${a:-0} > max )) && max=$a && echo "$max" >"$anon_file"
      sleep 0.05
    done
  ) &
  local sampler=$!
  local result
  result=$("$LOAD" --url "$SERVER_URL" --era "$era" --concurrency "$c" --warmup 1 \
    --seconds "$SECONDS_PER_POINT")
  local rss
  rss=$(awk '/^VmHWM:/ {print $2}' "/proc/$pid/status")
  stop_servers
  wait "$sampler" 2>/dev/null || true
  python3 -c 'import json,sys; r=json.loads(sys.argv[1]); print(round(r["rps"]), sys.argv[2], r["p50_us"], r["p99_us"], sys.argv[3])' "$result" "$rss" "$(cat "$anon_file")"
  rm -f "$anon_file"
}

echo "| era | c | ours req/s | rmcp req/s | ratio | ours peak RSS | rmcp peak RSS | ratio | ours / rmcp peak anon | ratio | ours p50/p99 µs | rmcp p50/p99 µs |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for era in modern legacy; do
  for c in $CONCURRENCY; do
    best_ours="0 0 0 0 0"
    best_rmcp="0 0 0 0 0"
    for _ in $(seq 1 "$ROUNDS"); do
      ours=$(run_point ours "$era" "$c")
      rmcp=$(run_point rmcp "$era" "$c")
      (( ${ours%% *} > ${best_ours%% *} )) && best_ours=$ours
      (( ${rmcp%% *} > ${best_rmcp%% *} )) && best_rmcp=$rmcp
    done
    read -r o_rps o_rss o_p50 o_p99 o_anon <<<"$best_ours"
    read -r r_rps r_rss r_p50 r_p99 r_anon <<<"$best_rmcp"
    python3 - "$era" "$c" "$o_rps" "$r_rps" "$o_rss" "$r_rss" "$o_anon" "$r_anon" "$o_p50/$o_p99" "$r_p50/$r_p99" <<'PY'
import sys
era, c, o, r, orss, rrss, oanon, ranon, ol, rl = sys.argv[1:]
o, r, orss, rrss, oanon, ranon = map(int, (o, r, orss, rrss, oanon, ranon))
mib = lambda kib: f"{kib / 1024:.1f} MiB"
print(f"| {era} | {c} | {o} | {r} | {o / r:.2f}x | {mib(orss)} | {mib(rrss)} | {orss / rrss:.2f}x "
      f"| {mib(oanon)} / {mib(ranon)} | {oanon / ranon:.2f}x | {ol} | {rl} |")
PY
  done
done
