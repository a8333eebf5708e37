//! The formats `--output-format` names: the renderers own their names, and the options
//! (dbpress-config) parse into them.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    Text,
    Json,
    /// One row per interval (a run) or per level (a sweep).
    Csv,
    Markdown,
}

impl OutputFormat {
    /// The names --output-format takes, for messages.
    pub const NAMES: &'static str = "text, json, csv, markdown";

    pub fn parse(s: &str) -> Option<OutputFormat> {
        Some(match s {
            "text" => OutputFormat::Text,
            "json" => OutputFormat::Json,
            "csv" => OutputFormat::Csv,
            "markdown" | "md" => OutputFormat::Markdown,
            _ => return None,
        })
    }
}
