# The steps scripts/interop-python.sh and scripts/interop-ts.sh share. Sourced, not run:
# `source scripts/lib/interop.sh` after scripts/lib/servers.sh; the scripts set ROOT, PROFILE
# (the cargo profile) and OUT (their logs). Any failed check sets FAILED=1; interop_verdict
# reads it at the end.

FAILED=0

# build_examples: the example server and client in $PROFILE (after conformance.sh, which builds
# the same two packages, there is nothing to do); BIN_DIR is where they are.
build_examples() {
  echo "== interop: build ($PROFILE)"
  cargo build --locked --profile "$PROFILE" -p mcp-conformance-server -p mcp-conformance-client
  BIN_DIR=$ROOT/target/$([[ $PROFILE == dev ]] && echo debug || echo "$PROFILE")
}

# interop_legacy_servers_on: whether to run the example client against the SDKs' legacy-only
# (2025-11-25) servers: INTEROP_LEGACY_SERVERS=1; says "skipped" when not. Off by default until
# the example client speaks the legacy era (issue 20, item 4); once it does, .ci/run sets it.
interop_legacy_servers_on() {
  if [[ ${INTEROP_LEGACY_SERVERS:-0} == 1 ]]; then
    return 0
  fi
  echo "skipped (INTEROP_LEGACY_SERVERS=1 runs it)"
  return 1
}

# run_their_clients NAME COMMAND...: the SDK's client in each era, modern then legacy, against
# one example server process (run_their_client for each).
run_their_clients() {
  start_server "$OUT/our-server.log" "$BIN_DIR/mcp-conformance-server" --listen 127.0.0.1:0
  run_their_client "$1" modern "${@:2}"
  run_their_client "$1" legacy "${@:2}"
  stop_servers
}

# run_their_stdio_clients NAME COMMAND...: the SDK's client in each era, modern then legacy,
# over stdio: `COMMAND stdio ERA <our server> --stdio`, the client spawning the example server.
run_their_stdio_clients() {
  local server=("$BIN_DIR/mcp-conformance-server" --stdio)
  TARGET=stdio run_their_client "$1" modern "${@:2}" -- "${server[@]}"
  TARGET=stdio run_their_client "$1" legacy "${@:2}" -- "${server[@]}"
}

# run_their_client NAME ERA COMMAND... [-- TAIL...]: the SDK's client,
# `COMMAND $TARGET ERA TAIL...` ($TARGET defaults to $SERVER_URL), against the example server;
# its checks shown and kept in $OUT/NAME-ERA.log, its stderr in $OUT/NAME-ERA.err. A non-zero
# exit shows the end of its stderr and sets FAILED=1.
run_their_client() {
  local log=$1-$2 era=$2 rc arg
  shift 2
  local command=() tail=()
  while (($#)); do
    arg=$1
    shift
    if [[ $arg == -- ]]; then
      tail=("$@")
      break
    fi
    command+=("$arg")
  done
  echo "-- $era era"
  set +e
  timeout 180 "${command[@]}" "${TARGET:-$SERVER_URL}" "$era" "${tail[@]}" 2>"$OUT/$log.err" |
    tee "$OUT/$log.log"
  rc=${PIPESTATUS[0]}
  set -e
  if [[ $rc -ne 0 ]]; then
    echo "their client ($era era): exit code $rc (stderr in $OUT/$log.err)" >&2
    tail -n 20 "$OUT/$log.err" >&2
    FAILED=1
  fi
}

# run_our_client NAME COMMAND...: starts the SDK's server COMMAND (its output in
# $OUT/NAME-server.log), runs the example client against it (its log in
# $OUT/our-client-NAME.log, its exit code in OUR_RC) and stops the server.
run_our_client() {
  local name=$1
  shift
  start_server "$OUT/$name-server.log" "$@"
  set +e
  timeout 120 "$BIN_DIR/mcp-conformance-client" --progress "$SERVER_URL" \
    2>"$OUT/our-client-$name.log"
  OUR_RC=$?
  set -e
  stop_servers
}

# their_answers FAIL_TEXT: sets ANSWERS to what the example client must log against either
# SDK's fixture server (python_server.py and ts_server.mjs offer the same tools, resource and
# prompts, in either era), one line per answer; FAIL_TEXT is the text of their failing tool.
their_answers() {
  ANSWERS=(
    '8 tool(s)'
    'tools/call "echo": 1 content block(s): "echo: conformance"'
    'tools/call "add": 1 content block(s): "sum: 2"'
    "tools/call \"fail\": 1 content block(s) (isError): \"$1\""
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
}

# check_our_client NAME EXPECTED...: the example client's run NAME (run_our_client) must have
# exited 0 and each EXPECTED line must appear, whole, in its log; an EXPECTED of the form
# "server: LINE" must appear in the SDK server's output instead. Prints a line per check and
# the count; on any failure shows the client's log and sets FAILED=1.
check_our_client() {
  local name=$1 passed=0 failed=0 line file
  shift
  if [[ $OUR_RC -eq 0 ]]; then
    echo "ok   our client exited 0"
    passed=$((passed + 1))
  else
    echo "FAIL our client exited $OUR_RC"
    failed=$((failed + 1))
  fi
  for line in "$@"; do
    file=$OUT/our-client-$name.log
    if [[ $line == 'server: '* ]]; then
      file=$OUT/$name-server.log
    fi
    if grep -qxF -- "${line#server: }" "$file"; then
      echo "ok   $line"
      passed=$((passed + 1))
    else
      echo "FAIL $line"
      failed=$((failed + 1))
    fi
  done
  echo "$passed passed, $failed failed"
  if [[ $failed -ne 0 ]]; then
    echo "our client's log ($OUT/our-client-$name.log):" >&2
    cat "$OUT/our-client-$name.log" >&2
    FAILED=1
  fi
}

# interop_verdict SDK: exits 1 naming SDK if any check failed, else says all passed.
interop_verdict() {
  if [[ $FAILED -ne 0 ]]; then
    echo "interop with $1: FAILED (logs in $OUT)" >&2
    exit 1
  fi
  echo "interop with $1: every check passed"
}
