# The checks scripts/interop-python.sh and scripts/interop-ts.sh share. Sourced, not run:
# `source scripts/lib/interop.sh`; both set FAILED=0 and OUT before they call these.

# check_their_client RC NAME: the SDK's client (its stderr in $OUT/NAME.err) must have exited 0;
# else shows the end of its stderr and sets FAILED=1.
check_their_client() {
  if [[ $1 -ne 0 ]]; then
    echo "their client: exit code $1 (stderr in $OUT/$2.err)" >&2
    tail -n 20 "$OUT/$2.err" >&2
    FAILED=1
  fi
}

# run_our_client: the example client against $SERVER_URL, its log in $OUT/our-client.log; the
# exit code in OUR_RC.
run_our_client() {
  set +e
  timeout 120 "$BIN_DIR/mcp-conformance-client" --progress "$SERVER_URL" 2>"$OUT/our-client.log"
  OUR_RC=$?
  set -e
}

# check_our_client RC EXPECTED...: the example client's exit code RC must be 0 and each
# EXPECTED line must appear, whole, in its log ($OUT/our-client.log). Prints a line per check
# and the count; on any failure shows the log and sets FAILED=1.
check_our_client() {
  local rc=$1 passed=0 failed=0 line
  shift
  if [[ $rc -eq 0 ]]; then
    echo "ok   our client exited 0"
    passed=$((passed + 1))
  else
    echo "FAIL our client exited $rc"
    failed=$((failed + 1))
  fi
  for line in "$@"; do
    if grep -qxF -- "$line" "$OUT/our-client.log"; then
      echo "ok   $line"
      passed=$((passed + 1))
    else
      echo "FAIL $line"
      failed=$((failed + 1))
    fi
  done
  echo "$passed passed, $failed failed"
  if [[ $failed -ne 0 ]]; then
    echo "our client's log ($OUT/our-client.log):" >&2
    cat "$OUT/our-client.log" >&2
    FAILED=1
  fi
}

# interop_verdict SDK: exits 1 naming SDK if any check failed, else says both directions pass.
interop_verdict() {
  if [[ $FAILED -ne 0 ]]; then
    echo "interop with $1: FAILED (logs in $OUT)" >&2
    exit 1
  fi
  echo "interop with $1: both directions pass"
}
