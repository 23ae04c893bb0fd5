//! `mcp-codegen`: generate Rust types from an MCP schema.json on the command line.

use std::path::PathBuf;
use std::process::ExitCode;

const HELP: &str = "\
mcp-codegen: generate Rust types from a Model Context Protocol schema.json

USAGE:
    mcp-codegen --schema <schema.json> [--out <file>] [--check] [options]

OPTIONS:
    --schema <file>      The schema.json to read (required). Given twice (two revisions, e.g.
                         2025-11-25 and 2026-07-28): one module per revision, the types
                         identical in both shared, From/TryFrom between the others.
    --out <file>         Write the generated Rust here (only if it changed). Without it the
                         code goes to standard output.
    --check              Do not write: exit with status 1 if <file> (from --out) differs from
                         what would be generated, 0 if it is up to date.
    --revision <rev>     The protocol revision whose overlay to apply (e.g. 2026-07-28).
                         Default: recognised from the schema's content (its SHA-256, or a
                         fingerprint that formatting does not change), else its folder name.
    --overlay <file>     Use this overlay file instead of the built-in one.
    --extension <id>     Also generate a protocol extension's types and resultType values
                         (repeatable), e.g. io.modelcontextprotocol/tasks.
    --no-lossless        Do not keep undeclared members (skip them when reading).
    --raw-json           Keep JSON the protocol does not interpret (any JSON value, open
                         objects such as a tool's inputSchema) as mcp_runtime::RawJson text.
    --json-schema        Also derive schemars::JsonSchema (needs mcp-runtime's schemars feature).
    --server             Also write the service trait Server<C> (a method per request a
                         client sends) and serve, its dispatch (for mcp-server).
    --client             Also write the client trait Client (a method per request a client
                         sends, ending with its complete result; for mcp-client).
    --precompile         Compile the messages' JSON readers with the module
                         (mcp_runtime::Wire), for a module in a crate of its own.
    -h, --help           Print this help.

EXIT STATUS:
    0 success, 1 --check found a difference, 2 bad arguments or a generation error.
";

struct Args {
    schemas: Vec<PathBuf>,
    out: Option<PathBuf>,
    check: bool,
    builder: mcp_codegen::Builder,
}

fn parse(mut it: impl Iterator<Item = String>) -> Result<Option<Args>, String> {
    let mut args = Args {
        schemas: Vec::new(),
        out: None,
        check: false,
        builder: mcp_codegen::Builder::new(),
    };
    args.builder.cargo_metadata(false);
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
        match a.as_str() {
            "-h" | "--help" => return Ok(None),
            "--schema" => args.schemas.push(value("--schema")?.into()),
            "--out" => args.out = Some(value("--out")?.into()),
            "--check" => args.check = true,
            "--revision" => {
                args.builder.revision(value("--revision")?);
            }
            "--overlay" => {
                args.builder.overlay(value("--overlay")?);
            }
            "--extension" => {
                args.builder.extension(value("--extension")?);
            }
            "--no-lossless" => {
                args.builder.lossless(false);
            }
            "--raw-json" => {
                args.builder.raw_json(true);
            }
            "--json-schema" => {
                args.builder.json_schema(true);
            }
            "--client" => {
                args.builder.client(true);
            }
            "--server" => {
                args.builder.server(true);
            }
            "--precompile" => {
                args.builder.precompile(true);
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(Some(args))
}

fn main() -> ExitCode {
    let mut args = match parse(std::env::args().skip(1)) {
        Ok(Some(a)) => a,
        Ok(None) => {
            print!("{HELP}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("mcp-codegen: {e}\n\n{HELP}");
            return ExitCode::from(2);
        }
    };
    let Some(schema) = args.schemas.first().cloned() else {
        eprintln!("mcp-codegen: --schema is required\n\n{HELP}");
        return ExitCode::from(2);
    };
    if args.check && args.out.is_none() {
        eprintln!("mcp-codegen: --check needs --out <file> to compare with");
        return ExitCode::from(2);
    }
    for schema in &args.schemas {
        args.builder.schema(schema);
    }
    match (&args.out, args.check) {
        (Some(out), true) => {
            let generated = match args.builder.generate_string() {
                Ok(g) => g,
                Err(e) => {
                    eprintln!("mcp-codegen: {e}");
                    return ExitCode::from(2);
                }
            };
            if mcp_codegen::__internals::holds_exactly(out, generated.text.as_bytes()) {
                eprintln!("mcp-codegen: {} is up to date", out.display());
                ExitCode::SUCCESS
            } else {
                eprintln!(
                    "mcp-codegen: {} differs from what {} generates",
                    out.display(),
                    schema.display()
                );
                ExitCode::from(1)
            }
        }
        // `generate` refuses an output that is the schema or the overlay, before generating.
        (Some(out), false) => match args.builder.generate(out) {
            Ok(g) => {
                eprintln!("mcp-codegen: wrote {} types to {}", g.types, out.display());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("mcp-codegen: {e}");
                ExitCode::from(2)
            }
        },
        (None, _) => match args.builder.generate_string() {
            Ok(generated) => {
                print!("{}", generated.text);
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("mcp-codegen: {e}");
                ExitCode::from(2)
            }
        },
    }
}
