//! The output file: the emitted tokens formatted as Rust, and what `Builder::generate` asks
//! of the file it writes (whether it already holds the text; whether it is an input).

use std::path::Path;

use crate::error::Error;

/// Parses the emitted tokens and prints them formatted, items spaced.
pub(crate) fn format_file(tokens: proc_macro2::TokenStream) -> Result<String, Error> {
    let file = syn::parse2::<syn::File>(tokens).map_err(|e| Error::Internal(e.to_string()))?;
    Ok(space_items(&prettyplease::unparse(&file)))
}

/// Puts a blank line between top-level items (prettyplease leaves none).
fn space_items(code: &str) -> String {
    let mut out = String::with_capacity(code.len() + code.len() / 20);
    let mut prev_ended_item = false;
    for line in code.lines() {
        let top = !line.is_empty() && !line.starts_with([' ', '}', ')', ']']);
        if prev_ended_item && top {
            out.push('\n');
        }
        let code_line = !line.starts_with("//") && !line.starts_with('#');
        prev_ended_item = line == "}" || (top && code_line && line.ends_with([';', '}']));
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Whether the file `path` holds exactly `text`, reading at most one byte more than `text` (an
/// endless file such as `/dev/zero` is not read to the end).
pub fn holds_exactly(path: &Path, text: &[u8]) -> bool {
    use std::io::Read as _;
    let mut old = Vec::with_capacity(text.len() + 1);
    std::fs::File::open(path)
        .and_then(|f| f.take(text.len() as u64 + 1).read_to_end(&mut old))
        .is_ok()
        && old == text
}

/// Whether `a` and `b` name one existing file: the same canonical path, or (on Unix) the same
/// device and inode. A path that does not exist is no other file.
pub fn same_file(a: &Path, b: &Path) -> bool {
    let (Ok(ca), Ok(cb)) = (std::fs::canonicalize(a), std::fs::canonicalize(b)) else {
        return false;
    };
    if ca == cb {
        return true;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        if let (Ok(ma), Ok(mb)) = (std::fs::metadata(&ca), std::fs::metadata(&cb)) {
            return ma.dev() == mb.dev() && ma.ino() == mb.ino();
        }
    }
    false
}
