# Starting and stopping what scripts/cluster.sh runs besides the example servers: one Redis and
# one nginx in front of the instances, all on loopback. Sourced, not run, after
# scripts/lib/servers.sh (the instances are its start_server's): `source scripts/lib/cluster.sh`,
# then `trap stop_cluster EXIT`. The caller sets ROOT (the repository) and OUT (the logs, kept
# after the run); everything else of a run (key ring, Redis's folder, nginx's pid file and
# temporary files) lives in CLUSTER_DIR, a temporary folder removed on exit.

CLUSTER_DIR=
REDIS_PID=
REDIS_PORT=
NGINX_PID=
NGINX_PORT=
BALANCER_URL=

# cluster_dir: makes CLUSTER_DIR, private to this user (it holds the key ring).
cluster_dir() {
  CLUSTER_DIR=$(mktemp -d "${TMPDIR:-/tmp}/mcp-cluster.XXXXXX")
  chmod 700 "$CLUSTER_DIR"
}

# stop_pid PID: TERM, then KILL after 5 s (the same as stop_servers).
stop_pid() {
  local pid=$1
  [[ -n $pid ]] || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 50); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

# stop_cluster: the balancer first (no new request reaches an instance that is stopping), then
# the instances, then Redis; removes CLUSTER_DIR.
stop_cluster() {
  stop_pid "$NGINX_PID"
  NGINX_PID=
  stop_servers
  stop_pid "$REDIS_PID"
  REDIS_PID=
  if [[ -n $CLUSTER_DIR ]]; then
    rm -rf "$CLUSTER_DIR"
    CLUSTER_DIR=
  fi
}

# candidate_port: a loopback port nothing listens on now. Taken below 32768, out of the
# kernel's ephemeral range (32768-60999 on Linux), so that it cannot be the port 0 an instance
# was given nor the source port of a connection; another process may still take it before us,
# which the callers retry.
candidate_port() {
  local listening port
  listening=$(ss -Htln 2>/dev/null | awk '{print $4}' | sed 's/.*://' || true)
  for _ in $(seq 1 100); do
    port=$((20000 + RANDOM % 12000))
    if ! grep -qx "$port" <<<"$listening"; then
      echo "$port"
      return 0
    fi
  done
  echo "no free loopback port found in 20000-31999" >&2
  return 1
}

# seal_key_ring FILE: one fresh key (64 hex digits) in FILE, readable by this user only. Every
# instance gets the same ring, so that each opens the requestState another sealed (README,
# "Several instances behind one address").
seal_key_ring() {
  local file=$1 key
  key=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
  [[ ${#key} -eq 64 ]] || { echo "could not read a key from /dev/urandom" >&2; return 1; }
  (umask 077; printf '# current (scripts/cluster.sh, this run only)\n%s\n' "$key" >"$file")
}

# start_redis LOG: redis-server on a free loopback port, in the foreground of a background job
# (no daemon to lose track of), nothing saved to disk (--save '', --appendonly no: a run starts
# empty and leaves nothing), its folder in CLUSTER_DIR. Waits (10 s at most per try) for "Ready
# to accept connections"; tries another port when the one chosen was taken meanwhile (5 tries).
# Sets REDIS_PID and REDIS_PORT.
start_redis() {
  local log=$1 dir=$CLUSTER_DIR/redis
  mkdir -p "$dir"
  for _ in 1 2 3 4 5; do
    REDIS_PORT=$(candidate_port)
    : >"$log"
    redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no \
      --dir "$dir" --daemonize no --protected-mode yes --logfile '' >"$log" 2>&1 &
    REDIS_PID=$!
    for _ in $(seq 1 100); do
      if grep -q 'Ready to accept connections' "$log"; then
        return 0
      fi
      kill -0 "$REDIS_PID" 2>/dev/null || break
      sleep 0.1
    done
    stop_pid "$REDIS_PID"
    REDIS_PID=
    grep -q 'Address already in use' "$log" || break
  done
  echo "redis-server did not start:" >&2
  cat "$log" >&2
  return 1
}

# start_nginx LOG_DIR UPSTREAM...: nginx on a free loopback port in front of the UPSTREAM
# addresses (host:port), from scripts/cluster/nginx.conf.template; error and access logs in
# LOG_DIR, pid file and temporary files in CLUSTER_DIR. `daemon off` and the master's pid kept
# here, so that stop_cluster stops it. Ready when its port accepts a connection (10 s at most
# per try; 5 tries, as for Redis). Sets NGINX_PID, NGINX_PORT and BALANCER_URL.
start_nginx() {
  local logs=$1 dir=$CLUSTER_DIR/nginx servers='' address user=''
  shift
  for address in "$@"; do
    servers+="        server $address;"$'\n'
  done
  # As root, the workers would run as nobody, who cannot enter CLUSTER_DIR (mode 700) for its
  # temporary files; they run as the user that runs the script instead, as they do unasked
  # when that user is not root.
  if [[ $EUID -eq 0 ]]; then
    user="user $(id -un) $(id -gn);"
  fi
  mkdir -p "$dir"
  for _ in 1 2 3 4 5; do
    NGINX_PORT=$(candidate_port)
    # awk, not sed: the upstream list spans lines.
    awk -v port="$NGINX_PORT" -v run="$dir" -v logs="$logs" -v user="$user" \
      -v servers="$servers" '{
        gsub(/@PORT@/, port); gsub(/@RUN_DIR@/, run); gsub(/@LOG_DIR@/, logs);
        gsub(/@USER@/, user);
        if ($0 ~ /@SERVERS@/) { printf "%s", servers; next }
        print }' "$ROOT/scripts/cluster/nginx.conf.template" >"$dir/nginx.conf"
    : >"$logs/nginx-error.log"
    # -e: the error log from the start (before the configuration is read nginx would open
    # /var/log/nginx/error.log); -p: relative paths under CLUSTER_DIR.
    nginx -p "$dir" -c "$dir/nginx.conf" -e "$logs/nginx-error.log" \
      >>"$logs/nginx-error.log" 2>&1 &
    NGINX_PID=$!
    for _ in $(seq 1 100); do
      kill -0 "$NGINX_PID" 2>/dev/null || break
      if (exec 3<>"/dev/tcp/127.0.0.1/$NGINX_PORT") 2>/dev/null; then
        BALANCER_URL=http://127.0.0.1:$NGINX_PORT/mcp
        return 0
      fi
      sleep 0.1
    done
    stop_pid "$NGINX_PID"
    NGINX_PID=
    grep -q 'Address already in use' "$logs/nginx-error.log" || break
  done
  echo "nginx did not start:" >&2
  cat "$logs/nginx-error.log" >&2
  return 1
}

# upstream_counts ACCESS_LOG: how many requests nginx sent to each instance (the access log's
# upstream field), one line per instance; shows that requests were spread, not pinned.
upstream_counts() {
  awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^upstream=/) { sub(/^upstream=/, "", $i); n[$i]++ } }
    END { for (u in n) printf "  %s: %d requests\n", u, n[u] }' "$1" | sort
}
