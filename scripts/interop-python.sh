#!/usr/bin/env bash
# Interoperability with an independent MCP implementation: the official Python SDK (`mcp` on
# PyPI, the exact versions in scripts/interop/requirements.txt), both ways, over Streamable HTTP.
# The pinned mcp speaks both eras, the legacy 2025-11-25 (initialize, a session) and the
# modern 2026-07-28 (server/discover, per-request envelope):
#
#   1. their client (scripts/interop/python_client.py) against the example server, in each era
#      against the same server process: mode="auto" (discovery finds 2026-07-28) and
#      mode="legacy" (initialize). Both: every kind of tool result, progress and log
#      notifications on SSE, the tools that need input (elicitation, sampling, roots,
#      requestState, several rounds, the suite's test_sampling and test_elicitation), the
#      -32021 refusal, prompts, resources, templates and completion. Modern only: Mcp-Param
#      headers (plain and Base64), subscriptions/listen; the input answered through
#      input_required rounds. Legacy only: ping, logging/setLevel, resources/subscribe, a list
#      change and a subscribed resource's update on the session's GET stream; the input answered as server-to-client requests
#      through the server's bridge. One line per check.
#   2. the example client against their server (scripts/interop/python_server.py): discovery,
#      tools with arguments, a failing tool (isError), an x-mcp-header argument, a progress
#      stream, the multi round-trip tools (elicitation, sampling, roots), a resource and
#      prompts. The client's log is checked line by line against what the server must have
#      answered. Their server serves both eras on one endpoint, so the client finds the modern
#      one.
#   3. the example client against the same fixture on the SDK's last legacy-only line, mcp 1
#      (scripts/interop/requirements-legacy.txt, a second venv): 2025-11-25 only, its input
#      tools sending server-to-client requests; the same answers. Runs only with
#      INTEROP_LEGACY_SERVERS=1 (scripts/lib/interop.sh), as CI does.
#
# Exits non-zero on any failure. The venvs live in target/interop-python (made once, kept);
# PyPI is the only network they need. Talks to 127.0.0.1 only; every wait is bounded; both
# servers are stopped on exit.
#
# Environment: INTEROP_PROFILE (cargo profile, default release), INTEROP_PYTHON (interpreter
# for the venvs, default python3; the SDK needs 3.10 or newer), INTEROP_LEGACY_SERVERS (1: run
# part 3).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PROFILE=${INTEROP_PROFILE:-release}
PYTHON=${INTEROP_PYTHON:-python3}
OUT=$ROOT/target/interop-python
VENV=$OUT/venv
LEGACY_VENV=$OUT/venv-legacy

source scripts/lib/servers.sh
source scripts/lib/interop.sh
trap stop_servers EXIT
trap 'exit 130' INT TERM

# make_venv VENV REQUIREMENTS: a venv holding exactly REQUIREMENTS, made again only when the
# list changed.
make_venv() {
  local venv=$1 requirements=$2
  if [[ ! -x $venv/bin/python ]] || ! cmp -s "$requirements" "$venv/requirements.txt"; then
    rm -rf "$venv"
    "$PYTHON" -m venv "$venv"
    timeout 600 "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps \
      -r "$requirements"
    cp "$requirements" "$venv/requirements.txt"
  fi
  "$venv/bin/pip" check --disable-pip-version-check >/dev/null
}

echo "== interop: the Python SDK (venv in $VENV)"
mkdir -p "$OUT"
make_venv "$VENV" scripts/interop/requirements.txt
echo "$("$VENV/bin/python" --version), mcp $("$VENV/bin/python" -c \
  'import importlib.metadata as m, mcp_types.version as v; print(m.version("mcp"),
    "(revisions: handshake", v.LATEST_HANDSHAKE_VERSION, "modern", v.LATEST_MODERN_VERSION, end=")")')"

build_examples

echo "== interop 1: the Python SDK's client against the example server, both eras"
run_their_clients python-client "$VENV/bin/python" scripts/interop/python_client.py

echo "== interop 2: the example client against the Python SDK's server"
run_our_client python "$VENV/bin/python" scripts/interop/python_server.py
# What the client must log: each answer as the Python server writes it.
their_answers "Error executing tool fail"
check_our_client python 'discovered Some("python-interop-server"), versions ["2026-07-28"]' "${ANSWERS[@]}"

echo "== interop 3: the example client against the Python SDK's legacy-only server (mcp 1)"
if interop_legacy_servers_on; then
  make_venv "$LEGACY_VENV" scripts/interop/requirements-legacy.txt
  echo "mcp $("$LEGACY_VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("mcp"))')"
  run_our_client python-legacy "$LEGACY_VENV/bin/python" scripts/interop/python_server.py
  # mcp 1 words a failing tool's error differently.
  their_answers "Error executing tool fail: this tool always fails"
  check_our_client python-legacy "${ANSWERS[@]}"
fi
interop_verdict "the Python SDK"
