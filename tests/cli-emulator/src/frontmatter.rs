//! Frontmatter values: rendering them as YAML, text and JSON, and editing a
//! single property in place without disturbing the rest of the file.

use crate::markdown::frontmatter_span;
use yaml_rust2::yaml::Hash;
use yaml_rust2::Yaml;

/// A value about to be written into frontmatter.
#[derive(Debug, Clone, PartialEq)]
pub enum NewValue {
    /// A string, quoted when YAML would read it as something else.
    Text(String),
    /// A block list of strings.
    List(Vec<String>),
    /// Written verbatim (numbers, booleans, dates).
    Raw(String),
}

/// Whether a plain scalar would not round-trip as this string.
pub fn needs_quotes(s: &str) -> bool {
    if s.is_empty() || s.trim() != s || s.contains('\n') || s.contains('\t') {
        return true;
    }
    let lower = s.to_lowercase();
    if matches!(
        lower.as_str(),
        "true" | "false" | "yes" | "no" | "on" | "off" | "null" | "~"
    ) {
        return true;
    }
    if s.parse::<f64>().is_ok() {
        return true;
    }
    let first = s.chars().next().unwrap_or(' ');
    if "-?:,[]{}#&*!|>'\"%@`".contains(first) {
        // "- x" and "? x" are indicators; a lone leading '-' in "-3" was
        // handled as a number above.
        return true;
    }
    s.contains(": ") || s.contains(" #") || s.ends_with(':')
}

/// A double-quoted YAML scalar.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn scalar(s: &str) -> String {
    if needs_quotes(s) {
        quote(s)
    } else {
        s.to_string()
    }
}

fn key_text(key: &Yaml) -> String {
    match key {
        Yaml::String(s) => s.clone(),
        Yaml::Integer(i) => i.to_string(),
        Yaml::Real(r) => r.clone(),
        Yaml::Boolean(b) => b.to_string(),
        _ => String::new(),
    }
}

/// Render one scalar as YAML (no key).
fn yaml_scalar(v: &Yaml) -> String {
    match v {
        Yaml::String(s) => scalar(s),
        Yaml::Integer(i) => i.to_string(),
        Yaml::Real(r) => r.clone(),
        Yaml::Boolean(b) => b.to_string(),
        Yaml::Null | Yaml::BadValue | Yaml::Alias(_) => "null".to_string(),
        Yaml::Array(a) if a.is_empty() => "[]".to_string(),
        Yaml::Hash(h) if h.is_empty() => "{}".to_string(),
        other => to_json(other).to_string(),
    }
}

fn emit_entry(out: &mut String, indent: usize, key: &str, value: &Yaml) {
    let pad = " ".repeat(indent);
    let key = scalar(key);
    match value {
        Yaml::Array(items) if !items.is_empty() => {
            out.push_str(&format!("{pad}{key}:\n"));
            for item in items {
                match item {
                    Yaml::Hash(h) if !h.is_empty() => {
                        let mut inner = String::new();
                        for (k, v) in h {
                            emit_entry(&mut inner, indent + 4, &key_text(k), v);
                        }
                        let inner = inner.trim_start().to_string();
                        out.push_str(&format!("{pad}  - {inner}"));
                    }
                    other => out.push_str(&format!("{pad}  - {}\n", yaml_scalar(other))),
                }
            }
        }
        Yaml::Hash(h) if !h.is_empty() => {
            out.push_str(&format!("{pad}{key}:\n"));
            for (k, v) in h {
                emit_entry(out, indent + 2, &key_text(k), v);
            }
        }
        other => out.push_str(&format!("{pad}{key}: {}\n", yaml_scalar(other))),
    }
}

/// Render a frontmatter mapping as YAML, one `key: value` per line, lists as
/// block sequences.
pub fn emit_yaml(fm: &Hash) -> String {
    let mut out = String::new();
    for (k, v) in fm {
        emit_entry(&mut out, 0, &key_text(k), v);
    }
    out
}

/// The plain-text form of a value: strings as they are, lists joined with
/// ", ", null as the empty string.
pub fn display(v: &Yaml) -> String {
    match v {
        Yaml::String(s) => s.clone(),
        Yaml::Integer(i) => i.to_string(),
        Yaml::Real(r) => r.clone(),
        Yaml::Boolean(b) => b.to_string(),
        Yaml::Array(items) => items.iter().map(display).collect::<Vec<_>>().join(", "),
        Yaml::Hash(_) => to_json(v).to_string(),
        Yaml::Null | Yaml::BadValue | Yaml::Alias(_) => String::new(),
    }
}

/// What `property:read` prints: a list one item per line, a mapping
/// `[object Object]` (JavaScript's text for an object), null nothing
/// (marwansaab/obsidian-cli-mcp specs/013-read-property/research.md R2).
pub fn read_text(v: &Yaml) -> String {
    match v {
        Yaml::Array(items) => items.iter().map(read_text).collect::<Vec<_>>().join("\n"),
        Yaml::Hash(_) => "[object Object]".to_string(),
        other => display(other),
    }
}

/// The JSON form of a YAML value.
pub fn to_json(v: &Yaml) -> serde_json::Value {
    use serde_json::Value;
    match v {
        Yaml::String(s) => Value::String(s.clone()),
        Yaml::Integer(i) => Value::from(*i),
        Yaml::Real(r) => r
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map_or_else(|| Value::String(r.clone()), Value::Number),
        Yaml::Boolean(b) => Value::Bool(*b),
        Yaml::Array(items) => Value::Array(items.iter().map(to_json).collect()),
        Yaml::Hash(h) => Value::Object(h.iter().map(|(k, v)| (key_text(k), to_json(v))).collect()),
        Yaml::Null | Yaml::BadValue | Yaml::Alias(_) => Value::Null,
    }
}

/// Look a property up by name.
pub fn get<'a>(fm: &'a Hash, name: &str) -> Option<&'a Yaml> {
    fm.iter().find(|(k, _)| key_text(k) == name).map(|(_, v)| v)
}

/// The YAML lines for `name: value`.
pub fn render_property(name: &str, value: &NewValue) -> String {
    let key = scalar(name);
    match value {
        NewValue::Text(s) => format!("{key}: {}\n", scalar(s)),
        NewValue::Raw(s) => format!("{key}: {s}\n"),
        NewValue::List(items) if items.is_empty() => format!("{key}: []\n"),
        NewValue::List(items) => {
            let mut out = format!("{key}:\n");
            for item in items {
                out.push_str(&format!("  - {}\n", scalar(item)));
            }
            out
        }
    }
}

/// The key written at the start of a top-level frontmatter line, if any.
fn line_key(line: &str) -> Option<String> {
    if line.starts_with([' ', '\t', '-', '#']) || line.trim().is_empty() {
        return None;
    }
    let (key, _) = line.split_once(':')?;
    let key = key.trim();
    let unquoted = key
        .strip_prefix('"')
        .and_then(|k| k.strip_suffix('"'))
        .or_else(|| key.strip_prefix('\'').and_then(|k| k.strip_suffix('\'')))
        .unwrap_or(key);
    Some(unquoted.to_string())
}

/// Byte ranges (within the YAML text) of each top-level entry: the key line
/// and its continuation lines (indented, list items, or blank lines that are
/// followed by more continuation).
fn entries(yaml: &str) -> Vec<(String, usize, usize)> {
    let mut out: Vec<(String, usize, usize)> = Vec::new();
    let mut offset = 0;
    for line in yaml.split_inclusive('\n') {
        let bare = line.trim_end_matches(['\n', '\r']);
        if let Some(key) = line_key(bare) {
            out.push((key, offset, offset + line.len()));
        } else if let Some(last) = out.last_mut() {
            if bare.starts_with([' ', '\t', '-']) {
                last.2 = offset + line.len();
            }
        }
        offset += line.len();
    }
    out
}

/// Set (add or replace) a property. Creates the frontmatter block when the
/// note has none. Everything else in the file is kept byte for byte.
pub fn set_property(content: &str, name: &str, value: &NewValue) -> String {
    let rendered = render_property(name, value);
    let Some(span) = frontmatter_span(content) else {
        return format!("---\n{rendered}---\n{content}");
    };
    let yaml = &content[span.yaml_start..span.yaml_end];
    let mut new_yaml = String::new();
    match entries(yaml).into_iter().find(|(k, _, _)| k == name) {
        Some((_, start, end)) => {
            new_yaml.push_str(&yaml[..start]);
            new_yaml.push_str(&rendered);
            new_yaml.push_str(&yaml[end..]);
        }
        None => {
            new_yaml.push_str(yaml);
            if !new_yaml.is_empty() && !new_yaml.ends_with('\n') {
                new_yaml.push('\n');
            }
            new_yaml.push_str(&rendered);
        }
    }
    format!(
        "{}{}{}",
        &content[..span.yaml_start],
        new_yaml,
        &content[span.yaml_end..]
    )
}

/// Remove a property. Returns `None` when the note does not have it. When
/// the last property goes, the whole frontmatter block goes with it.
pub fn remove_property(content: &str, name: &str) -> Option<String> {
    let span = frontmatter_span(content)?;
    let yaml = &content[span.yaml_start..span.yaml_end];
    let (_, start, end) = entries(yaml).into_iter().find(|(k, _, _)| k == name)?;
    let new_yaml = format!("{}{}", &yaml[..start], &yaml[end..]);
    if new_yaml.trim().is_empty() {
        return Some(content[span.body_start..].to_string());
    }
    Some(format!(
        "{}{}{}",
        &content[..span.yaml_start],
        new_yaml,
        &content[span.yaml_end..]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::markdown::frontmatter;

    #[test]
    fn quoting() {
        assert!(needs_quotes(""));
        assert!(needs_quotes("true"));
        assert!(needs_quotes("3"));
        assert!(needs_quotes("[[Link]]"));
        assert!(needs_quotes("a: b"));
        assert!(!needs_quotes("2026-03-15"));
        assert!(!needs_quotes("Café ☕"));
    }

    #[test]
    fn set_replace_and_add() {
        let c = "---\ntitle: A\ntags:\n  - x\n  - y\nstatus: draft\n---\nBody\n";
        let out = set_property(c, "tags", &NewValue::List(vec!["z".into()]));
        assert_eq!(
            out,
            "---\ntitle: A\ntags:\n  - z\nstatus: draft\n---\nBody\n"
        );
        let out = set_property(c, "n", &NewValue::Raw("3".into()));
        assert!(out.ends_with("status: draft\nn: 3\n---\nBody\n"));
        let out = set_property("Body\n", "a", &NewValue::Text("b c".into()));
        assert_eq!(out, "---\na: b c\n---\nBody\n");
    }

    #[test]
    fn remove() {
        let c = "---\na: 1\nb:\n  - x\n---\nBody\n";
        assert_eq!(remove_property(c, "b").unwrap(), "---\na: 1\n---\nBody\n");
        assert_eq!(
            remove_property("---\na: 1\n---\nBody\n", "a").unwrap(),
            "Body\n"
        );
        assert!(remove_property(c, "zz").is_none());
    }

    #[test]
    fn emit() {
        let c = "---\na: \"\"\nb: [x, y]\nc: false\nd: 2.50\n---\n";
        let fm = frontmatter(c).unwrap();
        assert_eq!(
            emit_yaml(&fm),
            "a: \"\"\nb:\n  - x\n  - y\nc: false\nd: 2.50\n"
        );
        assert_eq!(display(get(&fm, "b").unwrap()), "x, y");
    }
}
