#!/usr/bin/env bash
# Load through the balancer (issue 34, item 7): requests/s and latency of `tools/call`, and
# operations/s and latency of a task's create-then-get, with 1 and 3 instances of the example
# server behind nginx (round robin per request) sharing one Redis (`--store redis://…`), and,
# as the reference, 1 instance reached directly (no nginx, no Redis: the memory task store),
# and 1 instance reached directly with its store in Redis (what Redis costs without nginx).
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
# is the mean number of tasks/get per operation). Prints a Markdown table; each point's
# result and how many requests nginx sent to each instance go to standard error.
#
# Before each round it waits, every 30 s and QUIET_WAIT_S at most (default 2400), for the
# 1-minute load average to fall below QUIET_LOAD (default 1.0): on a shared machine another
# build would be measured too. It measures anyway when the time is up, and says so. ROUNDS>1
# runs every point that many times (whole rounds, one after the other) and keeps each point's
# best operations/s; the last column says whether a compiler or cargo ran while that round
# of the point was measured.
#
# Usage: mcp-bench/scripts/cluster-load.sh
#   SECONDS=10 CONCURRENCY="16 64" INSTANCES="1 3" WORKLOADS="call task" DIRECT=1 (0: no
#   direct rows)
#   STORE=1 (0: instances without --store, which share no task: only a 1-instance task run
#   passes) TASK_TTL_MS=10000 QUIET_LOAD=1.0 QUIET_WAIT_S=2400 (0: do not wait) ROUNDS=1
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
ROUNDS=${ROUNDS:-1}
WARMUP_S=1
OUT=$ROOT/target/cluster-load

if ! [[ $SECONDS_PER_POINT =~ ^[1-9][0-9]*$ && $TASK_TTL_MS =~ ^[1-9][0-9]*$ &&
  $QUIET_WAIT_S =~ ^[0-9]+$ && $ROUNDS =~ ^[1-9][0-9]*$ && $STORE =~ ^[01]$ && $DIRECT =~ ^[01]$ ]]; then
  echo "cluster-load: SECONDS and TASK_TTL_MS must be positive whole numbers, QUIET_WAIT_S a" \
    "whole number, ROUNDS a positive one, STORE and DIRECT 0 or 1" >&2
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
LOAD_PID=
# The generator too, if it runs (an interrupt), then the cluster.
cleanup() {
  if [[ -n $LOAD_PID ]]; then
    kill -TERM "$LOAD_PID" 2>/dev/null || true
    wait "$LOAD_PID" 2>/dev/null || true
  fi
  stop_cluster
}
trap cleanup EXIT
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
# A copy, so that a build of the tree during the run cannot change the server between points.
cp "$OURS" "$OUT/mcp-conformance-server"
OURS=$OUT/mcp-conformance-server
# Every instance, the reference too: tasks live TASK_TTL_MS, and the bounds never refuse one.
INSTANCE_ARGS=(--task-ttl-ms "$TASK_TTL_MS" --max-tasks 1000000
  --max-tasks-per-principal 1000000)
# One principal key for every instance (required with --store or a seal key ring, without
# --auth-issuer): a credential names the same principal everywhere.
(umask 077; od -An -tx1 -N32 /dev/urandom | tr -d ' \n' >"$OUT/principal-key.txt")
INSTANCE_ARGS+=(--principal-key "$OUT/principal-key.txt")

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

# start_point N DIR: N instances behind nginx sharing a fresh Redis; N = direct: one instance
# alone, memory store; N = direct-redis: one instance alone with its store in a fresh Redis.
# Sets URL.
start_point() {
  local n=$1 dir=$2 store_args=() upstreams=() address i
  cluster_dir
  if [[ $n == direct ]]; then
    start_server "$dir/instance-1.log" env -u MCP_SEAL_KEYS -u MCP_PRINCIPAL_KEY -u MCP_STORE \
      "$OURS" --listen 127.0.0.1:0 "${INSTANCE_ARGS[@]}"
    URL=$SERVER_URL
    return 0
  fi
  start_redis "$dir/redis.log"
  if [[ $n == direct-redis ]]; then
    start_server "$dir/instance-1.log" env -u MCP_SEAL_KEYS -u MCP_PRINCIPAL_KEY -u MCP_STORE \
      "$OURS" --listen 127.0.0.1:0 --store "redis://127.0.0.1:$REDIS_PORT" "${INSTANCE_ARGS[@]}"
    URL=$SERVER_URL
    return 0
  fi
  seal_key_ring "$CLUSTER_DIR/seal-keys.txt"
  if [[ $STORE == 1 ]]; then
    store_args=(--store "redis://127.0.0.1:$REDIS_PORT")
  fi
  for i in $(seq 1 "$n"); do
    start_server "$dir/instance-$i.log" env -u MCP_SEAL_KEYS -u MCP_PRINCIPAL_KEY -u MCP_STORE \
      "$OURS" --listen 127.0.0.1:0 --seal-keys "$CLUSTER_DIR/seal-keys.txt" \
      "${store_args[@]}" "${INSTANCE_ARGS[@]}"
    address=${SERVER_URL#http://}
    upstreams+=("${address%/mcp}")
  done
  start_nginx "$dir" "${upstreams[@]}"
  URL=$BALANCER_URL
}

# run_point ROUND N WORKLOAD C: sets ROW to "ops/s p50 p99 gets busy" of one fresh cluster under
# load; busy is 1 when a compiler (rustc, cc1, ld) or cargo ran during the measurement. Run in
# this shell, not in a $(...) subshell, whose exit would not stop what it started.
run_point() {
  local round=$1 n=$2 workload=$3 c=$4 dir rc=0 busy=0
  dir=$OUT/round-$round/$n-$workload-c$c
  mkdir -p "$dir"
  start_point "$n" "$dir"
  # Bounded: the run, its warm-up, and an operation's deadline after the end (load's 10 s).
  timeout $((SECONDS_PER_POINT + WARMUP_S + 30)) "$LOAD" --url "$URL" --era modern \
    --workload "$workload" --concurrency "$c" --warmup "$WARMUP_S" \
    --seconds "$SECONDS_PER_POINT" >"$dir/load.json" 2>"$dir/load.err" &
  LOAD_PID=$!
  # Whether another build shared the machine meanwhile (sampled each second while load runs).
  while kill -0 "$LOAD_PID" 2>/dev/null; do
    # Not pgrep (a pattern over 15 characters matches nothing) nor grep -q (its early exit
    # would fail the pipeline under pipefail).
    if ps -eo comm= | grep -xE 'rustc|cargo|cc1|cc1plus|ld|ld\.bfd|ld\.gold|ld\.lld' >/dev/null; then
      busy=1
    fi
    sleep 1
  done
  wait "$LOAD_PID" || rc=$?
  LOAD_PID=
  stop_cluster
  if ((rc != 0)); then
    echo "cluster-load: $n instance(s), $workload, c = $c failed (exit $rc):" >&2
    cat "$dir/load.err" >&2
    return 1
  fi
  if [[ -f $dir/nginx-access.log ]]; then
    echo "cluster-load: round $round, $n instances, $workload, c = $c: requests per instance" >&2
    upstream_counts "$dir/nginx-access.log" >&2
  fi
  ROW=$(python3 -c 'import json,sys; r=json.loads(open(sys.argv[1]).read()); print(round(r["rps"]), r["p50_us"], r["p99_us"], round(r.get("gets_per_operation", 0), 2), sys.argv[2])' "$dir/load.json" "$busy")
  echo "cluster-load: round $round, $n, $workload, c = $c: $ROW" >&2
}

POINTS=()
if [[ $DIRECT == 1 ]]; then
  POINTS+=(direct)
  # What Redis costs without nginx (only with a store to use).
  if [[ $STORE == 1 ]]; then
    POINTS+=(direct-redis)
  fi
fi
for n in $INSTANCE_COUNTS; do
  POINTS+=("$n")
done

# Each round runs every point once, after waiting for a quiet machine; a point keeps its best
# round by operations/s (a burst of other work hits one round of every point alike).
declare -A BEST=()
for round in $(seq 1 "$ROUNDS"); do
  wait_quiet
  echo "cluster-load: round $round: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')), load average $(cut -d' ' -f1-3 /proc/loadavg) at the start" >&2
  for n in "${POINTS[@]}"; do
    for workload in $WORKLOADS; do
      for c in $CONCURRENCY; do
        run_point "$round" "$n" "$workload" "$c"
        key="$n $workload $c"
        if [[ -z ${BEST[$key]:-} ]] || ((${ROW%% *} > ${BEST[$key]%% *})); then
          BEST[$key]=$ROW
        fi
      done
    done
  done
  echo "cluster-load: round $round: load average $(cut -d' ' -f1-3 /proc/loadavg) at the end" >&2
done

echo "| instances | path | workload | c | req/s (call) or operations/s (task) | p50 µs | p99 µs | tasks/get per task | another build ran |"
echo "| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |"
for n in "${POINTS[@]}"; do
  if [[ $n == direct ]]; then
    label="1"
    path="direct, memory store"
  elif [[ $n == direct-redis ]]; then
    label="1"
    path="direct, Redis store"
  else
    label=$n
    path="nginx, $([[ $STORE == 1 ]] && echo "Redis store" || echo "no shared store")"
  fi
  for workload in $WORKLOADS; do
    for c in $CONCURRENCY; do
      read -r rps p50 p99 gets busy <<<"${BEST["$n $workload $c"]}"
      [[ $workload == task ]] || gets="–"
      echo "| $label | $path | $workload | $c | $rps | $p50 | $p99 | $gets | $([[ $busy == 1 ]] && echo yes || echo no) |"
    done
  done
done
