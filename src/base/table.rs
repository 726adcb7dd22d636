//! Recognises tabular tool output (JSON arrays, CSV, TSV) so the chat can
//! show it as a table. The text the model reads is unchanged. Line endings
//! may be `\r\n` (the CLI on Windows); `file` prints `key\tvalue` lines, a
//! two-column table without a header row.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Rows beyond this are left to the collapsible raw text.
pub const MAX_ROWS: usize = 500;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Table {
    /// Column names, when the output has them.
    pub headers: Option<Vec<String>>,
    pub rows: Vec<Vec<String>>,
    /// Rows left out beyond `MAX_ROWS`.
    #[serde(default)]
    pub more_rows: usize,
}

/// The table in `text`, given the `format` the call asked for (if any).
pub fn detect(text: &str, format: Option<&str>) -> Option<Table> {
    let trimmed = text.trim();
    match format {
        Some("json") => from_json(trimmed),
        Some("csv") => from_csv(trimmed),
        Some("tsv") => from_tsv(trimmed),
        Some(_) => None,
        None if trimmed.starts_with('[') => from_json(trimmed),
        None => from_tsv(trimmed),
    }
}

fn capped(headers: Option<Vec<String>>, mut rows: Vec<Vec<String>>) -> Option<Table> {
    if rows.is_empty() {
        return None;
    }
    let more_rows = rows.len().saturating_sub(MAX_ROWS);
    rows.truncate(MAX_ROWS);
    Some(Table {
        headers,
        rows,
        more_rows,
    })
}

fn cell(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        Value::Array(items) => items.iter().map(cell).collect::<Vec<_>>().join(", "),
        other => other.to_string(),
    }
}

fn from_json(text: &str) -> Option<Table> {
    let Value::Array(items) = serde_json::from_str::<Value>(text).ok()? else {
        return None;
    };
    if items.iter().all(Value::is_object) {
        let mut headers: Vec<String> = Vec::new();
        for item in &items {
            for key in item.as_object()?.keys() {
                if !headers.contains(key) {
                    headers.push(key.clone());
                }
            }
        }
        let rows = items
            .iter()
            .map(|item| {
                headers
                    .iter()
                    .map(|h| item.get(h).map(cell).unwrap_or_default())
                    .collect()
            })
            .collect();
        capped(Some(headers), rows)
    } else {
        capped(None, items.iter().map(|v| vec![cell(v)]).collect())
    }
}

/// Tab-separated lines with the same number (≥ 2) of fields; no header row.
fn from_tsv(text: &str) -> Option<Table> {
    let rows: Vec<Vec<String>> = text
        .lines()
        .map(|l| l.split('\t').map(String::from).collect())
        .collect();
    let width = rows.first()?.len();
    if width < 2 || rows.iter().any(|r| r.len() != width) {
        return None;
    }
    capped(None, rows)
}

/// RFC 4180 CSV with a header row. Hand-written: twenty lines instead of a
/// dependency in the wasm module.
fn from_csv(text: &str) -> Option<Table> {
    let mut records: Vec<Vec<String>> = Vec::new();
    let mut record: Vec<String> = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            // A line break inside a quoted field, written `\r\n` on Windows.
            (true, '\r') if chars.peek() == Some(&'\n') => {}
            (true, c) => field.push(c),
            (false, '"') if field.is_empty() => quoted = true,
            (false, ',') => record.push(std::mem::take(&mut field)),
            (false, '\r') => {}
            (false, '\n') => {
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
            }
            (false, c) => field.push(c),
        }
    }
    if quoted {
        return None;
    }
    record.push(field);
    records.push(record);
    let width = records.first()?.len();
    if width < 2 || records.iter().any(|r| r.len() != width) {
        return None;
    }
    let mut records = records.into_iter();
    let headers = records.next()?;
    capped(Some(headers), records.collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_arrays_of_objects_and_scalars() {
        let t = detect(
            r#"[{"path":"a.md","line":"3"},{"path":"b.md","text":["x","y"]}]"#,
            None,
        )
        .unwrap();
        assert_eq!(t.headers.unwrap(), ["path", "line", "text"]);
        assert_eq!(t.rows, [vec!["a.md", "3", ""], vec!["b.md", "", "x, y"]]);
        let t = detect(r#"["a.md","b.md"]"#, Some("json")).unwrap();
        assert_eq!(t.rows, [vec!["a.md"], vec!["b.md"]]);
        assert!(detect("[not json", None).is_none());
    }

    #[test]
    fn csv_with_quotes_commas_and_newlines() {
        let t = detect(
            "Name,Status\n\"Launch, plan\",active\n\"Say \"\"hi\"\"\",\"two\nlines\"\n",
            Some("csv"),
        )
        .unwrap();
        assert_eq!(t.headers.unwrap(), ["Name", "Status"]);
        assert_eq!(
            t.rows,
            [
                vec!["Launch, plan", "active"],
                vec!["Say \"hi\"", "two\nlines"]
            ]
        );
        assert!(detect("just one column\nhere", Some("csv")).is_none());
    }

    #[test]
    fn tsv_needs_a_consistent_width() {
        let t = detect("Projects/Roadmap.md\t3\nDaily/2026-03-01.md\t1", None).unwrap();
        assert_eq!(t.headers, None);
        assert_eq!(t.rows.len(), 2);
        assert!(detect("a\tb\nc", None).is_none());
        assert!(detect("# A note\n\nplain text", None).is_none());
        assert!(detect("a\tb", Some("md")).is_none());
    }

    #[test]
    fn windows_line_endings() {
        let t = detect("Name,Status\r\n\"two\r\nlines\",x\r\nb,y\r\n", Some("csv")).unwrap();
        assert_eq!(t.headers.unwrap(), ["Name", "Status"]);
        assert_eq!(t.rows, [vec!["two\nlines", "x"], vec!["b", "y"]]);
        let t = detect("a.md\t3\r\nb.md\t1\r\n", None).unwrap();
        assert_eq!(t.rows, [vec!["a.md", "3"], vec!["b.md", "1"]]);
        let t = detect("[\r\n  {\"file\": \"a.md\"}\r\n]\r\n", None).unwrap();
        assert_eq!(t.rows, [vec!["a.md"]]);
    }

    #[test]
    fn file_info_is_a_key_value_table() {
        let text = "path\tREADME.md\r\nname\tREADME\r\nextension\tmd\r\nsize\t35932\r\ncreated\t1781934491924\r\nmodified\t1781934491924\r\n";
        let t = detect(text, None).unwrap();
        assert_eq!(t.headers, None);
        assert_eq!(t.rows.len(), 6);
        assert_eq!(t.rows[0], ["path", "README.md"]);
        assert_eq!(t.rows[5], ["modified", "1781934491924"]);
        // A file without an extension has an empty value, still two columns.
        let t = detect("path\tLICENSE\nname\tLICENSE\nextension\t\nsize\t4", None).unwrap();
        assert_eq!(t.rows[2], ["extension", ""]);
    }

    #[test]
    fn long_tables_are_capped() {
        let text: String = (0..MAX_ROWS + 7).map(|i| format!("n{i}\t{i}\n")).collect();
        let t = detect(&text, None).unwrap();
        assert_eq!((t.rows.len(), t.more_rows), (MAX_ROWS, 7));
    }
}
