# Starting and stopping the servers that scripts/conformance.sh and the interop scripts
# run on loopback ports. Sourced, not run: `source scripts/lib/servers.sh`, then
# `trap stop_servers EXIT`.

SERVER_PIDS=()
SERVER_URL=

# Stops every server start_server started: TERM, then KILL after 5 s.
stop_servers() {
  local pid
  for pid in "${SERVER_PIDS[@]}"; do
    kill -TERM "$pid" 2>/dev/null || true
  done
  for pid in "${SERVER_PIDS[@]}"; do
    for _ in $(seq 1 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  SERVER_PIDS=()
}

# start_server LOG COMMAND...: runs COMMAND in the background, its output in LOG, and waits
# (10 s at most) for the line "listening on http://127.0.0.1:<port>/mcp"; SERVER_URL is that
# URL. Fails, showing LOG, if the server exits or does not say where it listens.
start_server() {
  local log=$1
  shift
  # Created here, not by the background job's redirection, so that the first read of it below
  # cannot come before it exists (a failing sed under pipefail ended the script).
  : >"$log"
  "$@" >"$log" 2>&1 &
  local pid=$!
  SERVER_PIDS+=("$pid")
  SERVER_URL=
  for _ in $(seq 1 100); do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "the server exited at start:" >&2
      cat "$log" >&2
      return 1
    fi
    SERVER_URL=$(sed -n 's/.*listening on \(http:\/\/127\.0\.0\.1:[0-9]*\/mcp\).*/\1/p' "$log" | head -n1)
    if [[ -n $SERVER_URL ]]; then
      return 0
    fi
    sleep 0.1
  done
  echo "the server did not report its address within 10 s:" >&2
  cat "$log" >&2
  return 1
}
