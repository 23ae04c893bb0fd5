#!/usr/bin/env bash
# Load through the balancer (issue 34, item 7): requests/s and latency of `tools/call`, and
# operations/s and latency of a task's create-then-get, with 1 and 3 instances of the example
# server behind nginx (round robin per request) sharing one Redis (`--store redis://…`), and,
# as the reference, 1 instance reached directly (no nginx, no Redis: the memory task store).
#
# The cluster is scripts/cluster.sh's, started from the same pieces (scripts/lib/cluster.sh:
# redis-server, one seal key ring, nginx from scripts/cluster/nginx.conf.template) rather than
# by `scripts/cluster.sh serve`, because the instances here need task bounds of their own:
# every task the benchmark creates stays live for its TTL, so the defaults (1,000 per
# principal, 5 minutes) would refuse creations within a second. Each instance runs with
# --task-ttl-ms TASK_TTL_MS and --max-tasks/--max-tasks-per-principal 1,000,000, the reference
# too.
#
# Each (instances, workload, concurrency) point starts everything afresh (an empty Redis),
# runs mcp-bench/load's `load` (1 s of warm-up, then SECONDS of measurement; every answer is
# checked and a failed operation fails the run), and stops everything. Workloads (`load
# --workload`): `call` is one modern `tools/call test_simple_text`; `task` is one operation of
# `tools/call slow_compute` (0 s) advertising the tasks extension, answered with a task, then
# `tasks/get` of it, again at once, until it is completed (its latency is the whole; "gets"
# is the mean number of tasks/get per operation). Prints a Markdown table; how many requests
# nginx sent to each instance goes to standard error.
#
# Before measuring it waits, every 30 s and QUIET_WAIT_S at most (default 2400), for the
# 1-minute load average to fall below QUIET_LOAD (default 1.0): on a shared machine another
# build would be measured too. It measures anyway when the time is up, and says so.
#
# Usage: mcp-bench/scripts/cluster-load.sh
#   SECONDS=10 CONCURRENCY="16 64" INSTANCES="1 3" WORKLOADS="call task" DIRECT=1
#   STORE=1 (0: instances without --store, which share no task: only a 1-instance task run
#   passes) TASK_TTL_MS=10000 QUIET_LOAD=1.0 QUIET_WAIT_S=2400 (0: do not wait)
#   OURS=path/to/mcp-conformance-server (default: the release build, built here).
# Logs per point in target/cluster-load/. Talks to 127.0.0.1 only; every wait is bounded;
# everything it starts is stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD

# From the environment, not $SECONDS: bash's own counter of seconds, never empty.
SECONDS_PER_POINT=$(printenv SECONDS || echo 10)
CONCURRENCY=${CONCURRENCY:-16 64}
INSTANCE_COUNTS=${INSTANCES:-1 3}
WORKLOADS=${WORKLOADS:-call task}
DIRECT=${DIRECT:-1}
STORE=${STORE:-1}
TASK_TTL_MS=${TASK_TTL_MS:-10000}
QUIET_LOAD=${QUIET_LOAD:-1.0}
QUIET_WAIT_S=${QUIET_WAIT_S:-2400}
WARMUP_S=1
OUT=$ROOT/target/cluster-load

if ! [[ $SECONDS_PER_POINT =~ ^[1-9][0-9]*$ && $TASK_TTL_MS =~ ^[1-9][0-9]*$ &&
  $QUIET_WAIT_S =~ ^[0-9]+$ && $STORE =~ ^[01]$ && $DIRECT =~ ^[01]$ ]]; then
  echo "cluster-load: SECONDS and TASK_TTL_MS must be positive whole numbers, QUIET_WAIT_S a" \
    "whole number, STORE and DIRECT 0 or 1" >&2
  exit 2
fi
for n in $INSTANCE_COUNTS $CONCURRENCY; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "cluster-load: INSTANCES and CONCURRENCY are lists of positive numbers" >&2; exit 2; }
done
for tool in redis-server nginx; do
  if ! command -v "$tool" >/dev/null; then
    echo "cluster-load: $tool is not installed (Debian: apt-get install redis-server nginx)" >&2
    exit 1
  fi
done

source scripts/lib/servers.sh
source scripts/lib/cluster.sh
trap stop_cluster EXIT
trap 'exit 130' INT TERM

if [[ -z ${OURS:-} ]]; then
  # The same packages as scripts/cluster.sh and conformance.sh build, so that the server's
  # dependencies get the same features and nothing is built again after them.
  cargo build --release --locked -p mcp-conformance-server -p mcp-conformance-client
  OURS=$ROOT/target/release/mcp-conformance-server
fi
if [[ $STORE == 1 ]] && ! "$OURS" --help 2>&1 | grep -q -- '--store'; then
  echo "cluster-load: $OURS has no --store option; STORE=0 runs the instances without a" \
    "shared store (a task is then found only at the instance that created it)" >&2
  exit 1
fi
LOAD_TARGET=$ROOT/target/load
cargo build --release --locked --manifest-path mcp-bench/load/Cargo.toml \
  --target-dir "$LOAD_TARGET" --bin load
LOAD=$LOAD_TARGET/release/load

rm -rf "$OUT"
mkdir -p "$OUT"
# Every instance, the reference too: tasks live TASK_TTL_MS, and the bounds never refuse one.
INSTANCE_ARGS=(--task-ttl-ms "$TASK_TTL_MS" --max-tasks 1000000
  --max-tasks-per-principal 1000000)

# wait_quiet: until the 1-minute load average is below QUIET_LOAD, QUIET_WAIT_S at most.
wait_quiet() {
  local waited=0 load
  while :; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    if awk -v l="$load" -v q="$QUIET_LOAD" 'BEGIN { exit !(l < q) }'; then
      echo "cluster-load: load average $load, below $QUIET_LOAD: measuring" >&2
      return 0
    fi
    if ((waited >= QUIET_WAIT_S)); then
      echo "cluster-load: load average still $load after $waited s: measuring anyway" >&2
      return 0
    fi
    echo "cluster-load: load average $load, waiting for it to fall below $QUIET_LOAD" >&2
    sleep 30
    waited=$((waited + 30))
  done
}

# start_point N DIR: N instances behind nginx sharing a fresh Redis (N = direct: one instance
# alone, memory store); sets URL.
start_point() {
  local n=$1 dir=$2 store_args=() upstreams=() address i
  cluster_dir
  if [[ $n == direct ]]; then
    start_server "$dir/instance-1.log" env -u MCP_SEAL_KEYS -u MCP_STORE \
      "$OURS" --listen 127.0.0.1:0 "${INSTANCE_ARGS[@]}"
    URL=$SERVER_URL
    return 0
  fi
  start_redis "$dir/redis.log"
  seal_key_ring "$CLUSTER_DIR/seal-keys.txt"
  if [[ $STORE == 1 ]]; then
    store_args=(--store "redis://127.0.0.1:$REDIS_PORT")
  fi
  for i in $(seq 1 "$n"); do
    start_server "$dir/instance-$i.log" env -u MCP_SEAL_KEYS -u MCP_STORE \
      "$OURS" --listen 127.0.0.1:0 --seal-keys "$CLUSTER_DIR/seal-keys.txt" \
      "${store_args[@]}" "${INSTANCE_ARGS[@]}"
    address=${SERVER_URL#http://}
    upstreams+=("${address%/mcp}")
  done
  start_nginx "$dir" "${upstreams[@]}"
  URL=$BALANCER_URL
}

# run_point N WORKLOAD C: sets ROW to "ops/s p50 p99 gets" of one fresh cluster under load.
# Run in this shell, not in a $(...) subshell, whose exit would not stop what it started.
run_point() {
  local n=$1 workload=$2 c=$3 dir result rc=0
  dir=$OUT/$n-$workload-c$c
  mkdir -p "$dir"
  start_point "$n" "$dir"
  # Bounded: the run, its warm-up, and an operation's deadline after the end (load's 10 s).
  result=$(timeout $((SECONDS_PER_POINT + WARMUP_S + 30)) "$LOAD" --url "$URL" --era modern \
    --workload "$workload" --concurrency "$c" --warmup "$WARMUP_S" \
    --seconds "$SECONDS_PER_POINT" 2>"$dir/load.err") || rc=$?
  stop_cluster
  echo "$result" >"$dir/load.json"
  if ((rc != 0)); then
    echo "cluster-load: $n instance(s), $workload, c = $c failed (exit $rc):" >&2
    cat "$dir/load.err" >&2
    return 1
  fi
  if [[ -f $dir/nginx-access.log ]]; then
    echo "cluster-load: $n instances, $workload, c = $c: requests per instance" >&2
    upstream_counts "$dir/nginx-access.log" >&2
  fi
  ROW=$(python3 -c 'import json,sys; r=json.loads(sys.argv[1]); print(round(r["rps"]), r["p50_us"], r["p99_us"], round(r.get("gets_per_operation", 0), 2))' "$result")
}

wait_quiet
echo "cluster-load: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')), load average $(cut -d' ' -f1-3 /proc/loadavg) at the start" >&2

POINTS=()
if [[ $DIRECT == 1 ]]; then
  POINTS+=(direct)
fi
for n in $INSTANCE_COUNTS; do
  POINTS+=("$n")
done

echo "| instances | path | workload | c | req/s (call) or operations/s (task) | p50 µs | p99 µs | tasks/get per task |"
echo "| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: |"
for n in "${POINTS[@]}"; do
  if [[ $n == direct ]]; then
    label="1"
    path="direct, memory store"
  else
    label=$n
    path="nginx, $([[ $STORE == 1 ]] && echo "Redis store" || echo "no shared store")"
  fi
  for workload in $WORKLOADS; do
    for c in $CONCURRENCY; do
      run_point "$n" "$workload" "$c"
      read -r rps p50 p99 gets <<<"$ROW"
      [[ $workload == task ]] || gets="–"
      echo "| $label | $path | $workload | $c | $rps | $p50 | $p99 | $gets |"
    done
  done
done
echo "cluster-load: load average $(cut -d' ' -f1-3 /proc/loadavg) at the end" >&2
