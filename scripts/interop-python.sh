#!/usr/bin/env bash
# Interoperability with an independent MCP implementation: the official Python SDK (`mcp` on
# PyPI, the exact versions in scripts/interop/requirements.txt), both ways, over Streamable HTTP
# at protocol revision 2026-07-28:
#
#   1. their client (scripts/interop/python_client.py) against the example server: discovery
#      and version negotiation, every kind of tool result, Mcp-Param headers (plain and
#      Base64), progress and log notifications on SSE, the multi round-trip tools (elicitation,
#      sampling, roots, requestState, several rounds), the -32021 refusal, prompts, resources,
#      templates, completion and a subscriptions/listen stream. One line per check.
#   2. the example client against their server (scripts/interop/python_server.py): discovery,
#      tools with arguments, a failing tool (isError), an x-mcp-header argument, a progress
#      stream, the multi round-trip tools (elicitation, sampling, roots), a resource and
#      prompts. The client's log is checked line by line against what the server must have
#      answered.
#
# Exits non-zero on any failure. The venv lives in target/interop-python (made once, kept);
# PyPI is the only network it needs. Talks to 127.0.0.1 only; every wait is bounded; both
# servers are stopped on exit.
#
# Environment: INTEROP_PROFILE (cargo profile, default release), INTEROP_PYTHON (interpreter
# for the venv, default python3; the SDK needs 3.10 or newer).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PROFILE=${INTEROP_PROFILE:-release}
PYTHON=${INTEROP_PYTHON:-python3}
OUT=$ROOT/target/interop-python
VENV=$OUT/venv
REQUIREMENTS=$ROOT/scripts/interop/requirements.txt

source scripts/lib/servers.sh
source scripts/lib/interop.sh
trap stop_servers EXIT
trap 'exit 130' INT TERM

echo "== interop: the Python SDK (venv in $VENV)"
mkdir -p "$OUT"
if [[ ! -x $VENV/bin/python ]] || ! cmp -s "$REQUIREMENTS" "$VENV/requirements.txt"; then
  rm -rf "$VENV"
  "$PYTHON" -m venv "$VENV"
  timeout 600 "$VENV/bin/pip" install --quiet --disable-pip-version-check --no-deps \
    -r "$REQUIREMENTS"
  cp "$REQUIREMENTS" "$VENV/requirements.txt"
fi
"$VENV/bin/pip" check --disable-pip-version-check >/dev/null
echo "$("$VENV/bin/python" --version), mcp $("$VENV/bin/python" -c \
  'import importlib.metadata as m, mcp_types.version as v; print(m.version("mcp"), "(modern revisions:", *v.MODERN_PROTOCOL_VERSIONS, end=")")')"

echo "== interop: build ($PROFILE)"
cargo build --locked --profile "$PROFILE" -p mcp-conformance-server -p mcp-conformance-client
BIN_DIR=$ROOT/target/$([[ $PROFILE == dev ]] && echo debug || echo "$PROFILE")

FAILED=0

echo "== interop 1: the Python SDK's client against the example server"
start_server "$OUT/our-server.log" "$BIN_DIR/mcp-conformance-server" --listen 127.0.0.1:0
set +e
timeout 180 "$VENV/bin/python" scripts/interop/python_client.py "$SERVER_URL" \
  2>"$OUT/python-client.err" |
  tee "$OUT/python-client.log"
rc=${PIPESTATUS[0]}
set -e
check_their_client "$rc" python-client
stop_servers

echo "== interop 2: the example client against the Python SDK's server"
start_server "$OUT/python-server.log" "$VENV/bin/python" scripts/interop/python_server.py
run_our_client
stop_servers
# What the client must have logged: each answer as the Python server writes it.
EXPECTED=(
  'discovered Some("python-interop-server"), versions ["2026-07-28"]'
  '8 tool(s)'
  'tools/call "echo": 1 content block(s): "echo: conformance"'
  'tools/call "add": 1 content block(s): "sum: 2"'
  'tools/call "fail": 1 content block(s) (isError): "Error executing tool fail"'
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
interop_verdict "the Python SDK"
