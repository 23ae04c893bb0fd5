#!/usr/bin/env bash
# Compile time of a crate that uses the generated module against one that uses rmcp 3.11's model
# types (issue 22): clean builds and rebuilds after touching the crate's src/lib.rs, dev and
# release, every probe measured in the same run, the probes alternating so that a changing
# load weighs on all alike.
#
# Each probe is a small library with one function that reads a tools/call response from text
# and writes it back. The probes:
#   ours          includes the generated 2026-07-28 module in its own src (as the README does)
#   ours_eras     includes the two-revision module (2025-11-25 and 2026-07-28)
#   ours_raw      includes the module generated with raw_json(true) (mcp-runtime's raw_json)
#   ours_schema   includes the module generated with json_schema(true) (schemars derives)
#   ours_split    depends on a crate of its own (mcp_types) that includes the module: the
#                 rebuilds touch only the probe, as a user's edits to their own code would
#   ours_eras_split  the two-revision module in a crate of its own (issue 19's two eras)
#   ours_precompiled  the layout of the README's Quickstart: the module, generated with
#                 --precompile, in a crate of its own; the probe reads and writes through
#                 mcp_runtime::Wire (ours_eras_, ours_raw_, ours_schema_precompiled: the same
#                 with the two-revision module, with raw_json(true), with json_schema(true))
#   rmcp          rmcp =3.11.0 with default-features = false: rmcp::model is compiled without
#                 any feature (the server, client and macros features are off)
#   rmcp_schema   the same with rmcp's `schemars` feature (its model types derive JsonSchema)
#
# A clean build removes the probe's target directory and builds everything (dependencies
# included; they are fetched beforehand), CLEAN runs per profile. A rebuild touches the probe's
# src/lib.rs and builds again, RUNS times per profile. Each figure is "min / median" of wall
# seconds; CPU seconds (user + sys of cargo and everything it ran) are printed for the rebuilds
# too, as they move less on a loaded machine.
#
# Usage: mcp-bench/scripts/compile-vs-rmcp.sh [RUNS] [CLEAN]   (defaults 5 and 2)
#   PROBES="ours rmcp" limits the probes; WORK=dir puts the probes there (default
#   target/compile-vs-rmcp of the workspace; it is removed and recreated).
set -euo pipefail

RUNS=${1:-5}
CLEAN=${2:-2}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SCHEMA_DIR=$(cd "${MCP_SCHEMA_DIR:-$ROOT/../shared/mcp-schema}" && pwd)
WORK=${WORK:-$ROOT/target/compile-vs-rmcp}
PROBES=${PROBES:-ours ours_eras ours_raw ours_schema ours_split ours_eras_split ours_precompiled ours_eras_precompiled ours_raw_precompiled ours_schema_precompiled rmcp rmcp_schema}
rm -rf "$WORK"
mkdir -p "$WORK"

generate() { # out file, generator options...
    local out=$1
    shift
    cargo run -q --manifest-path "$ROOT/Cargo.toml" -p mcp-codegen -- "$@" --out "$WORK/$out" \
        >/dev/null 2>&1
}
MODERN=$SCHEMA_DIR/2026-07-28/schema.json
generate mcp.rs --schema "$MODERN"
generate mcp-eras.rs --schema "$SCHEMA_DIR/2025-11-25/schema.json" --schema "$MODERN"
generate mcp-raw.rs --schema "$MODERN" --raw-json
generate mcp-schema.rs --schema "$MODERN" --json-schema
generate mcp-precompiled.rs --schema "$MODERN" --precompile
generate mcp-eras-precompiled.rs --schema "$SCHEMA_DIR/2025-11-25/schema.json" --schema "$MODERN" \
    --precompile
generate mcp-raw-precompiled.rs --schema "$MODERN" --raw-json --precompile
generate mcp-schema-precompiled.rs --schema "$MODERN" --json-schema --precompile

crate() { # dir, name, dependencies, lib.rs body
    mkdir -p "$1/src"
    cat >"$1/Cargo.toml" <<EOF
[package]
name = "$2"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
$3
EOF
    printf '%s\n' "$4" >"$1/src/lib.rs"
}

probe() { # name, dependencies, lib.rs body: a probe crate that is its own workspace
    crate "$WORK/$1" "$1" "$2" "$3"
    printf '\n[workspace]\n' >>"$WORK/$1/Cargo.toml"
    # The workspace's lock file: the dependency versions the project builds with.
    cp "$ROOT/Cargo.lock" "$WORK/$1/Cargo.lock"
}

RUNTIME="mcp-runtime = { path = \"$ROOT/mcp-runtime\" }"
SERDE='serde = { version = "1", features = ["derive"] }
serde_json = "1"'
READ_OURS='pub fn read(text: &str) -> serde_json::Result<String> {
    let r: mcp::CallToolResultResponse = serde_json::from_str(text)?;
    serde_json::to_string(&r)
}'
included() { # file: a module that includes it
    printf '#![allow(clippy::all)]\npub mod mcp {\n    include!("%s");\n}\n' "$WORK/$1"
}

probe ours "$RUNTIME
$SERDE" "$(included mcp.rs)
$READ_OURS"
probe ours_eras "$RUNTIME
$SERDE" "$(included mcp-eras.rs)
${READ_OURS/mcp::CallToolResultResponse/mcp::v2026_07_28::CallToolResultResponse}"
probe ours_raw "mcp-runtime = { path = \"$ROOT/mcp-runtime\", features = [\"raw_json\"] }
$SERDE" "$(included mcp-raw.rs)
$READ_OURS"
probe ours_schema "mcp-runtime = { path = \"$ROOT/mcp-runtime\", features = [\"schemars\"] }
schemars = \"1\"
$SERDE" "$(included mcp-schema.rs)
$READ_OURS"
READ_WIRE='pub fn read(text: &str) -> serde_json::Result<String> {
    use mcp_runtime::Wire;
    let r = mcp::CallToolResultResponse::from_json_str(text)?;
    r.to_json_string()
}'
# A probe that depends on a crate of its own, mcp_types, which includes the module.
split() { # name, module file, mcp-runtime dependency, other dependencies, path of the types, read
    probe "$1" "mcp_types = { path = \"mcp_types\" }
$3
$SERDE" "use $5 as mcp;
$6"
    crate "$WORK/$1/mcp_types" mcp_types "$3
$4
$SERDE" "$(included "$2")
pub use mcp::*;"
}
RAW_RUNTIME="mcp-runtime = { path = \"$ROOT/mcp-runtime\", features = [\"raw_json\"] }"
SCHEMA_RUNTIME="mcp-runtime = { path = \"$ROOT/mcp-runtime\", features = [\"schemars\"] }"
split ours_split mcp.rs "$RUNTIME" "" mcp_types "$READ_OURS"
split ours_eras_split mcp-eras.rs "$RUNTIME" "" mcp_types::v2026_07_28 "$READ_OURS"
split ours_precompiled mcp-precompiled.rs "$RUNTIME" "" mcp_types "$READ_WIRE"
split ours_eras_precompiled mcp-eras-precompiled.rs "$RUNTIME" "" mcp_types::v2026_07_28 "$READ_WIRE"
split ours_raw_precompiled mcp-raw-precompiled.rs "$RAW_RUNTIME" "" mcp_types "$READ_WIRE"
split ours_schema_precompiled mcp-schema-precompiled.rs "$SCHEMA_RUNTIME" 'schemars = "1"' mcp_types "$READ_WIRE"
READ_RMCP='pub fn read(text: &str) -> serde_json::Result<String> {
    let r: rmcp::model::JsonRpcResponse<rmcp::model::CallToolResult> = serde_json::from_str(text)?;
    serde_json::to_string(&r)
}'
probe rmcp "rmcp = { version = \"=3.11.0\", default-features = false }
$SERDE" "$READ_RMCP"
probe rmcp_schema "rmcp = { version = \"=3.11.0\", default-features = false, features = [\"schemars\"] }
$SERDE" "$READ_RMCP"

# One timed cargo build of a probe: prints "wall cpu" seconds.
build() { # name, cargo args...
    local dir=$WORK/$1 wall user sys
    shift
    /usr/bin/time -o "$dir/time.txt" -f '%e %U %S' cargo build -q --manifest-path \
        "$dir/Cargo.toml" --target-dir "$dir/target" "$@" 2>"$dir/build.log" >/dev/null || {
        cat "$dir/build.log" >&2
        exit 1
    }
    read -r wall user sys <"$dir/time.txt"
    echo "$wall $(echo "$user + $sys" | bc)"
}

stats() { # seconds... -> "min / median" (an even count's median is the lower middle one)
    local sorted
    mapfile -t sorted < <(printf '%s\n' "$@" | sort -g)
    printf '%.2f / %.2f' "${sorted[0]}" "${sorted[$(((${#sorted[@]} - 1) / 2))]}"
}

for p in $PROBES; do
    (cd "$WORK/$p" && cargo fetch -q)
done

declare -A WALL CPU
record() { # key, "wall cpu"
    read -r w c <<<"$2"
    WALL[$1]="${WALL[$1]:-} $w"
    CPU[$1]="${CPU[$1]:-} $c"
}

for profile in dev release; do
    args=()
    [ "$profile" = release ] && args=(--release)
    for _ in $(seq "$CLEAN"); do
        for p in $PROBES; do
            rm -rf "$WORK/$p/target"
            record "$p clean $profile" "$(build "$p" "${args[@]}")"
        done
    done
    for _ in $(seq "$RUNS"); do
        for p in $PROBES; do
            touch "$WORK/$p/src/lib.rs"
            record "$p rebuild $profile" "$(build "$p" "${args[@]}")"
        done
    done
done

echo "Wall seconds, min / median ($CLEAN clean builds, $RUNS rebuilds per profile; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg))"
echo
echo "| probe | clean dev | clean release | dev rebuild | release rebuild | dev rebuild, CPU s | release rebuild, CPU s |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for p in $PROBES; do
    row="| $p"
    for k in "clean dev" "clean release" "rebuild dev" "rebuild release"; do
        # shellcheck disable=SC2086
        row="$row | $(stats ${WALL[$p $k]})"
    done
    for k in "rebuild dev" "rebuild release"; do
        # shellcheck disable=SC2086
        row="$row | $(stats ${CPU[$p $k]})"
    done
    echo "$row |"
done
echo
echo "Every figure, in order (wall seconds):" >&2
for p in $PROBES; do
    for k in "clean dev" "clean release" "rebuild dev" "rebuild release"; do
        echo "- $p, $k:${WALL[$p $k]}" >&2
    done
done
