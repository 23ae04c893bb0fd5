//! Generates the two modules the compile-fail cases use from the official 2026-07-28 schema:
//! plain, and with the tasks extension enabled.

use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-env-changed=MCP_SCHEMA_DIR");
    let Some(dir) = std::env::var_os("MCP_SCHEMA_DIR") else {
        panic!(
            "MCP_SCHEMA_DIR is not set: .cargo/config.toml sets it; run cargo from the workspace"
        )
    };
    let Some(out) = std::env::var_os("OUT_DIR") else {
        panic!("OUT_DIR is not set: run this build script through cargo")
    };
    let schema = PathBuf::from(dir).join("2026-07-28").join("schema.json");
    let out = PathBuf::from(out);
    generate(&schema, &out.join("mcp.rs"), |b| b);
    generate(&schema, &out.join("mcp-tasks.rs"), |b| {
        b.extension("io.modelcontextprotocol/tasks")
    });
}

/// Generates `file` from `schema` with the options `configure` sets; the build fails with the
/// generator's error otherwise.
fn generate(
    schema: &Path,
    file: &Path,
    configure: impl FnOnce(&mut mcp_codegen::Builder) -> &mut mcp_codegen::Builder,
) {
    let mut builder = mcp_codegen::Builder::new();
    if let Err(e) = configure(builder.schema(schema)).generate(file) {
        panic!(
            "generating {} from {}: {e}",
            file.display(),
            schema.display()
        );
    }
}
