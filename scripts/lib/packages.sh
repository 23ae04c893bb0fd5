# ensure_commands PACKAGE:COMMAND...: installs, from Debian's packages, each package whose
# command is missing (the real services the tests start: redis-server, nginx). Needs root and
# apt-get when something is missing; fails with the list otherwise. The package lists are
# fetched first: a clean machine may have none.
ensure_commands() {
  local missing=() pair
  for pair in "$@"; do
    # nginx is in /usr/sbin, which a user's PATH may not list.
    PATH=$PATH:/usr/sbin command -v "${pair#*:}" >/dev/null 2>&1 || missing+=("${pair%%:*}")
  done
  [[ ${#missing[@]} -eq 0 ]] && return 0
  if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
    echo "missing ${missing[*]}: install them (apt-get install -y ${missing[*]}) and run again" >&2
    return 1
  fi
  echo "== installing ${missing[*]} (Debian packages)"
  timeout 600 apt-get update -qq
  DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq --no-install-recommends "${missing[@]}"
}
