//! What `--output=FILE` writes, told by the file's extension.

/// What `--output=FILE` writes, by the file's extension: `.csv`, `.md` or `.markdown`, `.html`
/// or `.htm`; anything else the JSON result, the only one `report` and `compare` read back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileFormat {
    Json,
    Csv,
    Markdown,
    Html,
}

impl FileFormat {
    pub fn of(path: &str) -> FileFormat {
        let ext = std::path::Path::new(path)
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("csv") => FileFormat::Csv,
            Some("md" | "markdown") => FileFormat::Markdown,
            Some("html" | "htm") => FileFormat::Html,
            _ => FileFormat::Json,
        }
    }
}
