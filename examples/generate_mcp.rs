// The examples' build scripts share this file (each includes it with `include!`): it
// generates their MCP types from the official schemas.

/// Generates `$OUT_DIR/mcp.rs` from the official schema of each revision in `revisions`
/// (`$MCP_SCHEMA_DIR/<revision>/schema.json`; the workspace's `.cargo/config.toml` sets the
/// folder), with the protocol extensions `extensions` enabled. One revision gives its types;
/// two give a module per revision (`v2025_11_25`, `v2026_07_28`), their shared types and the
/// conversions between them. The client trait is generated, and with `server` the server
/// trait too. A failure stops the build with the generator's error.
fn generate_mcp(revisions: &[&str], extensions: &[&str], server: bool) {
    println!("cargo:rerun-if-env-changed=MCP_SCHEMA_DIR");
    let dir = std::path::PathBuf::from(std::env::var("MCP_SCHEMA_DIR").expect(
        "MCP_SCHEMA_DIR is not set: .cargo/config.toml sets it to ../shared/mcp-schema; run cargo from the workspace",
    ));
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let schemas: Vec<_> = revisions
        .iter()
        .map(|revision| dir.join(revision).join("schema.json"))
        .collect();
    let mut builder = mcp_codegen::Builder::new();
    builder.client(true);
    builder.server(server);
    for schema in &schemas {
        builder.schema(schema);
    }
    for id in extensions {
        builder.extension(*id);
    }
    if let Err(e) = builder.generate(out.join("mcp.rs")) {
        let names: Vec<_> = schemas.iter().map(|s| s.display().to_string()).collect();
        panic!("generating from {}: {e}", names.join(" and "));
    }
}
