# Sourced by callgrind.sh and dhat.sh (from the workspace root): builds the compare bench and
# sets BIN to it, and MCP_SCHEMA_DIR for it.
cargo bench -q -p mcp-bench --bench compare --no-run 2>/dev/null
BIN=$(ls -t target/release/deps/compare-* | grep -v '\.d$' | head -1)
export BIN
export MCP_SCHEMA_DIR=${MCP_SCHEMA_DIR:-$(cd ../shared/mcp-schema && pwd)}
