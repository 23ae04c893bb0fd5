//! Generates the 2026-07-28 types from the official schema at build time, and a dispatch table
//! from each official example folder (named after a `$def`) to its generated type.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-env-changed=MCP_SCHEMA_DIR");
    let dir = PathBuf::from(std::env::var("MCP_SCHEMA_DIR").expect(
        "MCP_SCHEMA_DIR is not set: .cargo/config.toml sets it to ../shared/mcp-schema; run cargo from the workspace",
    ));
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let schema = dir.join("2026-07-28").join("schema.json");
    let mut sizes = Vec::new();
    let mut keep = |module: &str, g: mcp_codegen::Generated| sizes.push((module.to_owned(), g));
    keep(
        "mcp",
        generate(&schema, &out.join("mcp.rs"), "", |b| b.client(true)),
    );
    // Every `$def` built by its constructor from its least arguments (tests/tests/minimal.rs).
    let minimal = mcp_codegen::Builder::new()
        .schema(&schema)
        .minimal_instances()
        .unwrap_or_else(|e| panic!("the minimal instances of {}: {e}", schema.display()));
    std::fs::write(out.join("mcp-minimal.rs"), minimal).unwrap();
    // The same with `schemars::JsonSchema` derived (the opt-in switch).
    generate(
        &schema,
        &out.join("mcp-schemars.rs"),
        " with json_schema",
        |b| b.json_schema(true),
    );
    // The same with raw JSON text for what the protocol does not interpret (the opt-in switch).
    let raw = generate(&schema, &out.join("mcp-raw.rs"), " with raw_json", |b| {
        b.raw_json(true)
    });
    keep("raw", raw);
    // The same with the tasks (SEP-2663) and skills (SEP-2640) extensions enabled.
    let tasks = generate(
        &schema,
        &out.join("mcp-tasks.rs"),
        " with the tasks and skills extensions",
        |b| {
            b.extension("io.modelcontextprotocol/tasks")
                .extension("io.modelcontextprotocol/skills")
        },
    );
    keep("tasks", tasks);
    // Every earlier revision too, side by side in one crate (a gateway speaks to old and new peers).
    for revision in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
        let schema = dir.join(revision).join("schema.json");
        let g = generate(&schema, &out.join(format!("mcp-{revision}.rs")), "", |b| b);
        keep(&format!("v{}", revision.replace('-', "_")), g);
    }
    std::fs::write(out.join("sizes.rs"), size_table(&sizes)).unwrap();
    let examples = dir.join("2026-07-28").join("examples");
    println!("cargo:rerun-if-changed={}", examples.display());
    let names = example_names(&examples);
    std::fs::write(out.join("examples.rs"), dispatch(&names)).unwrap();
    // 2025-11-25 and 2026-07-28 side by side (issue 19), and what the tests need of the join;
    // the messages' readers and writers compiled with it (`precompile`, tests/tests/wire.rs).
    let eras = mcp_codegen::Builder::new()
        .schema(dir.join("2025-11-25").join("schema.json"))
        .schema(dir.join("2026-07-28").join("schema.json"))
        .precompile(true)
        .server(true)
        .generate(out.join("mcp-eras.rs"))
        .unwrap_or_else(|e| panic!("generating 2025-11-25 with 2026-07-28: {e}"));
    // The same two revisions with the skills extension (SEP-2640) and the server trait: a
    // server served by mcp-server's `Served` with a skills catalog (`Served::skills`).
    mcp_codegen::Builder::new()
        .schema(dir.join("2025-11-25").join("schema.json"))
        .schema(dir.join("2026-07-28").join("schema.json"))
        .extension("io.modelcontextprotocol/skills")
        .server(true)
        .generate(out.join("mcp-eras-skills.rs"))
        .unwrap_or_else(|e| panic!("generating 2025-11-25 with 2026-07-28 and skills: {e}"));
    // The same two revisions with the tasks extension (SEP-2663) and the server trait: a
    // server served by mcp-server's `Served` with a task store (`Served::tasks`).
    mcp_codegen::Builder::new()
        .schema(dir.join("2025-11-25").join("schema.json"))
        .schema(dir.join("2026-07-28").join("schema.json"))
        .extension("io.modelcontextprotocol/tasks")
        .server(true)
        .generate(out.join("mcp-eras-tasks.rs"))
        .unwrap_or_else(|e| panic!("generating 2025-11-25 with 2026-07-28 and tasks: {e}"));
    let Some(eras) = eras.eras else {
        panic!("two schemas, and no join")
    };
    let older = defs(&dir.join("2025-11-25").join("schema.json"));
    let dispatch = era_dispatch(&eras, &names, &older);
    std::fs::write(out.join("eras-dispatch.rs"), dispatch).unwrap();
}

/// The `$defs` names of `schema`.
fn defs(schema: &Path) -> std::collections::BTreeSet<String> {
    let text =
        std::fs::read_to_string(schema).unwrap_or_else(|e| panic!("{}: {e}", schema.display()));
    let value: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", schema.display()));
    let Some(defs) = value["$defs"].as_object() else {
        panic!("{}: no $defs", schema.display())
    };
    defs.keys().cloned().collect()
}

/// `SHARED`, `CONVERTED`, `era_roundtrip_as(type_name, text)` over `crate::eras` (an arm for
/// each example folder in `examples`, no catch-all: a folder whose name 2025-11-25 also
/// defines (in `older`) must be shared or converted), the `converted_types!` macro (calls its
/// argument with every converted name) and `shared_types_are_the_same` (compiles only if each
/// shared name is one type).
fn era_dispatch(
    eras: &mcp_codegen::Eras,
    examples: &[String],
    older: &std::collections::BTreeSet<String>,
) -> String {
    let from = |k| k == mcp_codegen::ConversionKind::From;
    let mut s = String::new();
    writeln!(
        s,
        "/// The types 2025-11-25 and 2026-07-28 share.\npub const SHARED: &[&str] = &{:?};",
        eras.shared
    )
    .unwrap();
    let converted: Vec<(&str, bool, bool)> = eras
        .converted
        .iter()
        .map(|c| {
            (
                c.name.as_str(),
                from(c.older_to_newer),
                from(c.newer_to_older),
            )
        })
        .collect();
    writeln!(s, "/// The other names both define: (name, 2025-11-25 to 2026-07-28 is `From`, 2026-07-28 to 2025-11-25 is `From`).\npub const CONVERTED: &[(&str, bool, bool)] = &{converted:?};").unwrap();
    s.push_str("/// Reads `text` as the 2026-07-28 type `type_name` and converts it to 2025-11-25 and back.\npub fn era_roundtrip_as(type_name: &str, text: &str) -> ::core::result::Result<crate::EraTrip, String> {\n    match type_name {\n");
    for c in &eras.converted {
        let n = &c.name;
        writeln!(s, "        {n:?} => crate::era_roundtrip::<crate::eras::v2026_07_28::{n}, crate::eras::v2025_11_25::{n}>(text),").unwrap();
    }
    for n in &eras.shared {
        writeln!(
            s,
            "        {n:?} => crate::era_shared::<crate::eras::v2025_11_25::{n}>(text),"
        )
        .unwrap();
    }
    let joined =
        |n: &String| eras.shared.contains(n) || eras.converted.iter().any(|c| &c.name == n);
    for n in examples.iter().filter(|n| !joined(n)) {
        assert!(
            !older.contains(n),
            "{n}: both revisions define it, and the join neither shares nor converts it"
        );
        writeln!(s, "        {n:?} => Ok(crate::EraTrip::NewerOnly),").unwrap();
    }
    s.push_str(
        "        other => Err(format!(\"{other}: no example folder of that name\")),\n    }\n}\n",
    );
    let names: Vec<&str> = eras.converted.iter().map(|c| c.name.as_str()).collect();
    writeln!(s, "/// Calls `$m!` with every converted type name.\n#[macro_export]\nmacro_rules! converted_types {{\n    ($m:ident) => {{ $m!({}) }};\n}}", names.join(", ")).unwrap();
    s.push_str("/// Compiles only if each shared name of 2025-11-25 is the 2026-07-28 type.\npub fn shared_types_are_the_same() -> usize {\n    fn same<T>(_: fn(T) -> T) {}\n");
    for n in &eras.shared {
        writeln!(
            s,
            "    same::<crate::eras::v2025_11_25::{n}>(|v: crate::eras::v2026_07_28::{n}| v);"
        )
        .unwrap();
    }
    writeln!(s, "    {}\n}}", eras.shared.len()).unwrap();
    s
}

/// Generates `file` from `schema` with the options `configure` sets (`what` names them in the
/// panic message).
fn generate(
    schema: &Path,
    file: &Path,
    what: &str,
    configure: impl FnOnce(&mut mcp_codegen::Builder) -> &mut mcp_codegen::Builder,
) -> mcp_codegen::Generated {
    let mut builder = mcp_codegen::Builder::new();
    configure(builder.schema(schema))
        .generate(file)
        .unwrap_or_else(|e| panic!("generating{what} from {}: {e}", schema.display()))
}

/// `SIZES`: for every type of the modules generated from one schema, (module, type, the
/// generator's estimate of its size, its `size_of`).
fn size_table(modules: &[(String, mcp_codegen::Generated)]) -> String {
    let mut s = String::from(
        "/// (module, type, estimated size, `size_of`) of every type generated from one schema.\npub const SIZES: &[(&str, &str, usize, usize)] = &[\n",
    );
    for (module, g) in modules {
        for (name, estimate) in &g.sizes {
            writeln!(
                s,
                "    ({module:?}, {name:?}, {estimate}, ::core::mem::size_of::<mcp_tests::{module}::{name}>()),"
            )
            .unwrap();
        }
    }
    s.push_str("];\n");
    s
}

/// The example folders' names (each a `$def`), sorted.
fn example_names(examples: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(examples)
        .unwrap_or_else(|e| panic!("{}: {e}", examples.display()))
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// `fn roundtrip_as(type_name, text)` and `fn roundtrip_raw_as(type_name, text)` (through the
/// module generated with `raw_json`): one arm per example folder.
fn dispatch(names: &[String]) -> String {
    let mut s = String::new();
    for (function, module) in [("roundtrip_as", "mcp"), ("roundtrip_raw_as", "raw")] {
        s.push_str(&one_dispatch(names, function, module));
    }
    writeln!(s, "/// The example folders, each named after a `$def`.\npub const TYPES: &[&str] = &{names:?};").unwrap();
    s
}

/// `fn <function>(type_name, text)`: round-trips through `crate::<module>::<type_name>`.
fn one_dispatch(names: &[String], function: &str, module: &str) -> String {
    let mut s = format!(
        "/// Round-trips `text` through the type named `type_name` of `crate::{module}`.\n\
         pub fn {function}(type_name: &str, text: &str) -> ::core::result::Result<(), String> {{\n    match type_name {{\n",
    );
    for n in names {
        writeln!(
            s,
            "        {n:?} => crate::roundtrip::<crate::{module}::{n}>(text),"
        )
        .unwrap();
    }
    s.push_str("        other => Err(format!(\"no generated type named {other}\")),\n    }\n}\n");
    s
}
