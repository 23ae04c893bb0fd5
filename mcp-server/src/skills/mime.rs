//! The MIME type of a skill's file, from its extension.

/// The MIME type of a file named `name`, from its extension (case-insensitive);
/// `application/octet-stream` for an extension not in the table or none.
pub fn mime_type(name: &str) -> &'static str {
    let Some((_, extension)) = name.rsplit_once('.') else {
        return "application/octet-stream";
    };
    match extension.to_ascii_lowercase().as_str() {
        "md" | "markdown" => "text/markdown",
        "txt" => "text/plain",
        "py" => "text/x-python",
        "json" => "application/json",
        "sh" => "text/x-shellscript",
        "yaml" | "yml" => "application/yaml",
        "csv" => "text/csv",
        "html" | "htm" => "text/html",
        "js" => "text/javascript",
        "pdf" => "application/pdf",
        "png" => "image/png",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::mime_type;

    #[test]
    fn by_extension() {
        assert_eq!(mime_type("SKILL.md"), "text/markdown");
        assert_eq!(mime_type("notes.TXT"), "text/plain");
        assert_eq!(mime_type("extract.py"), "text/x-python");
        assert_eq!(mime_type("data.json"), "application/json");
        assert_eq!(mime_type("run.sh"), "text/x-shellscript");
        assert_eq!(mime_type("Makefile"), "application/octet-stream");
        assert_eq!(mime_type("archive.tar.zst"), "application/octet-stream");
    }
}
