# The checks scripts/interop-python.sh and scripts/interop-ts.sh share. Sourced, not run:
# `source scripts/lib/interop.sh`; both set FAILED=0 and OUT before they call these.

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
