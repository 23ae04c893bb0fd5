#!/usr/bin/env bash
# The README's Quickstart, built as a newcomer would (run by CI): a new workspace outside this
# one (the user's crate at its root, the generated types in a crate of their own), made only of
# the README's code fences tagged `quickstart:<file>` (fences tagged with the same file are
# joined in README order), then `cargo fmt --check`, `cargo clippy --workspace --all-targets --
# -D warnings` and `cargo test --workspace` on it; then the command line, installed with `cargo
# install --path mcp-codegen`, generates from the same schema.
#
# Two things differ from a newcomer's copy, and only these: the dependencies on this
# project's crates get a `path` to this checkout (the README gives crates.io versions), and
# the `schema/` folder beside each build script is a symlink to `$MCP_SCHEMA_DIR` (default: the checkout's
# sibling `shared/mcp-schema`, as in .cargo/config.toml), which holds the official schemas in
# the specification repository's layout (`<revision>/schema.json`). Nothing of the
# specification is copied. Builds go to target/quickstart, so a rerun is incremental.
#
# Usage: scripts/quickstart.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SCHEMA_DIR=${MCP_SCHEMA_DIR:-$ROOT/../shared/mcp-schema}
SCHEMA_DIR=$(cd "$SCHEMA_DIR" && pwd)
# One folder per checkout, outside it, the same on every run.
CRATE=${TMPDIR:-/tmp}/mcp-quickstart-$(printf '%s' "$ROOT" | sha256sum | cut -c1-12)
export CARGO_TARGET_DIR=$ROOT/target/quickstart

rm -rf "$CRATE"
mkdir -p "$CRATE"

python3 - "$ROOT" "$CRATE" "$SCHEMA_DIR" <<'EOF'
import pathlib, re, sys

root, crate, schema = (pathlib.Path(a) for a in sys.argv[1:4])
readme = (root / "README.md").read_text()
files, current, fence = {}, None, None
for number, line in enumerate(readme.splitlines(), 1):
    if fence is None:
        m = re.match(r"^(`{3,})(.*)$", line)
        if m:
            fence = m.group(1)
            tag = re.search(r"\bquickstart:(\S+)", m.group(2))
            current = tag.group(1) if tag else None
            if current:
                files.setdefault(current, []).append(f"// README.md line {number}\n" if current.endswith(".rs") else "")
    elif line.startswith(fence) and line.strip() == fence:
        fence, current = None, None
    elif current:
        files[current].append(line + "\n")
if fence is not None:
    sys.exit("README.md: a code fence is not closed")
for needed in ("Cargo.toml", "src/lib.rs"):
    if needed not in files:
        sys.exit(f"README.md: no code fence tagged quickstart:{needed}")
scripts = [name for name in files if pathlib.PurePosixPath(name).name == "build.rs"]
if not scripts:
    sys.exit("README.md: no code fence tagged quickstart:<crate>/build.rs")

# This project's crates from this checkout: `name = "0.1"` or `name = { version = .. }`.
def local(m):
    name, spec = m.group(1), m.group(2).strip()
    path = f'path = "{root / name}"'
    if spec.startswith('"'):
        return f"{name} = {{ {path}, version = {spec} }}"
    return f"{name} = {{ {path}, {spec.lstrip('{').lstrip()}"
named = 0
for name in [name for name in files if pathlib.PurePosixPath(name).name == "Cargo.toml"]:
    toml, n = re.subn(r"(?m)^(mcp-codegen|mcp-runtime|mcp-derive|mcp-server|mcp-client) = (.*)$", local, "".join(files[name]))
    files[name], named = [toml], named + n
if named == 0:
    sys.exit("README.md: the quickstart's Cargo.toml files name none of this project's crates")

for name, parts in files.items():
    path = crate / name
    if pathlib.PurePosixPath(name).is_absolute() or ".." in pathlib.PurePosixPath(name).parts:
        sys.exit(f"README.md: quickstart:{name} is not a file inside the crate")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(parts))
    print(f"quickstart: {name} ({sum(p.count(chr(10)) for p in parts)} lines)")
# The folder of each build script (the package it belongs to) gets the schema folder.
for name in scripts:
    (crate / name).parent.joinpath("schema").symlink_to(schema)
EOF

# The workspace's lock file: the same dependency versions as the checkout's own builds.
cp "$ROOT/Cargo.lock" "$CRATE/Cargo.lock"

cd "$CRATE"
cargo fmt --all -- --check

# The Quickstart's size (issue 31): the server (src/bin/server.rs, and the `Seat` and `book` of
# src/lib.rs it serves) at most 60 lines, the client at most 40, counted rustfmt'd without
# blank, comment and `use` lines.
python3 - <<'EOF_COUNT'
import re, sys
def count(text):
    return sum(1 for l in text.splitlines()
               if l.strip() and not l.strip().startswith(("//", "use ")))
def item(text, start):
    m = re.search(r"(?ms)^(?:#\[[^\n]*\n)*" + re.escape(start) + r".*?^}\n", text)
    if not m:
        sys.exit(f"quickstart: no item starting {start!r} in src/lib.rs")
    return m.group(0)
lib = open("src/lib.rs").read()
server = count(open("src/bin/server.rs").read()) + count(item(lib, "pub struct Seat")) \
    + count(item(lib, "pub fn book("))
client = count(open("src/bin/client.rs").read())
print(f"quickstart: the server is {server} lines, the client {client}")
if server > 60 or client > 40:
    sys.exit("quickstart: the server must stay within 60 lines and the client within 40")
EOF_COUNT
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace

# Step 9: the server and the client against each other, over Streamable HTTP and over stdio
# (the client starts the server); the TypeScript SDK's sides are scripts/interop-ts.sh's part 5,
# which runs the two binaries copied to target/quickstart-bin.
source "$ROOT/scripts/lib/servers.sh"
trap stop_servers EXIT
bin=$CARGO_TARGET_DIR/debug
expect_booked() {
  local answer
  answer=$(timeout 60 "$bin/client" "$@")
  if [[ $answer != "Modern: Booked seat 4C." ]]; then
    echo "quickstart: client $* answered ${answer@Q}, not \"Modern: Booked seat 4C.\"" >&2
    exit 1
  fi
  echo "quickstart: client $*: $answer"
}
start_server "$CARGO_TARGET_DIR/server.log" "$bin/server" --listen 127.0.0.1:0
expect_booked "$SERVER_URL"
stop_servers
expect_booked --stdio -- "$bin/server" --stdio
mkdir -p "$ROOT/target/quickstart-bin"
cp "$bin/server" "$bin/client" "$ROOT/target/quickstart-bin/"

# Step 10: the command line, installed as the README says (a debug build, which reuses the
# dependencies built above), on the same schema: written, then found up to date by --check.
cargo install --quiet --locked --debug --path "$ROOT/mcp-codegen" --root "$CARGO_TARGET_DIR/cli"
cli=$CARGO_TARGET_DIR/cli/bin/mcp-codegen
"$cli" --schema "$SCHEMA_DIR/2026-07-28/schema.json" --out "$CRATE/mcp.rs"
"$cli" --schema "$SCHEMA_DIR/2026-07-28/schema.json" --out "$CRATE/mcp.rs" --check
echo "quickstart: the README's Quickstart builds, passes clippy -D warnings and its tests; the CLI installs and runs ($CRATE)"
