//! A note's properties (the YAML frontmatter between `---` lines at the very
//! start), its body after them, and its tags: read the same way by the
//! hygiene checks and the search. A small reader of the YAML Obsidian's
//! properties use (`key: value`, flow lists `[a, b]`, block lists of
//! `- item`), not a YAML parser: what it cannot read it leaves out.

/// The note's text after its properties.
pub fn body(text: &str) -> &str {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Some(rest) = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
    else {
        return text;
    };
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        offset += line.len();
        if line.trim_end() == "---" || line.trim_end() == "..." {
            return &rest[offset..];
        }
    }
    // An unclosed block is not frontmatter.
    text
}

/// The frontmatter block, if any (without its `---` lines).
pub fn frontmatter(text: &str) -> Option<&str> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))?;
    let end = text.len() - body(text).len();
    (end > text.len() - rest.len()).then(|| &text[text.len() - rest.len()..end])
}

/// Each property with its values, in order: `key: value` gives one value,
/// `key: [a, b]`, `key: a, b` for `tags`, and a block list give several.
/// Quotes around a value are removed; empty values are left out.
pub fn properties(text: &str) -> Vec<(String, Vec<String>)> {
    let Some(front) = frontmatter(text) else {
        return Vec::new();
    };
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for line in front.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let indented = line.starts_with([' ', '\t']);
        if indented || trimmed.starts_with("- ") || trimmed == "-" {
            // A list item, or the continuation of a value, of the last key.
            if let Some((_, values)) = out.last_mut() {
                push_value(values, trimmed.strip_prefix('-').unwrap_or(trimmed));
            }
            continue;
        }
        let Some((key, value)) = trimmed.split_once(':') else {
            continue;
        };
        let key = key.trim().trim_matches(['"', '\'']).to_string();
        let mut values = Vec::new();
        let value = value.trim();
        if let Some(list) = value.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
            for item in list.split(',') {
                push_value(&mut values, item);
            }
        } else if matches!(key.as_str(), "tags" | "tag") {
            for item in value.split(',') {
                push_value(&mut values, item);
            }
        } else {
            push_value(&mut values, value);
        }
        out.push((key, values));
    }
    out
}

fn push_value(values: &mut Vec<String>, raw: &str) {
    let value = raw.trim().trim_matches(['"', '\'']).trim();
    if !value.is_empty() {
        values.push(value.to_string());
    }
}

/// Tags, lower case without `#`: inline `#tag` (not a heading, not `#1`)
/// and the frontmatter's `tags` (`tags: [a, b]`, `tags: a, b` or a list).
pub fn tags(text: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    let mut add = |tag: &str| {
        let tag = tag.trim().trim_matches(['"', '\'']).trim_start_matches('#');
        if !tag.is_empty() && tag.chars().any(|c| !c.is_ascii_digit()) {
            let tag = tag.to_lowercase();
            if !found.contains(&tag) {
                found.push(tag);
            }
        }
    };
    if let Some(front) = frontmatter(text) {
        let mut in_list = false;
        for line in front.lines() {
            let trimmed = line.trim();
            if let Some(value) = trimmed
                .strip_prefix("tags:")
                .or_else(|| trimmed.strip_prefix("tag:"))
            {
                let value = value.trim().trim_start_matches('[').trim_end_matches(']');
                in_list = value.is_empty();
                for tag in value.split(',') {
                    add(tag);
                }
            } else if in_list && trimmed.starts_with("- ") {
                add(&trimmed[2..]);
            } else if !line.starts_with([' ', '\t']) {
                in_list = false;
            }
        }
    }
    // Inline tags where Obsidian sees them: not in code, math or comments.
    let all = crate::notes::headings::lines(text);
    let kinds = crate::notes::syntax::line_kinds(&all);
    for (line, kind) in all.iter().zip(kinds) {
        if kind == crate::notes::syntax::LineKind::Text {
            for (start, len) in crate::notes::syntax::tags_in_line(line) {
                add(&line[start + 1..start + len]);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn properties_in_the_forms_obsidian_writes() {
        let note = "---\naliases:\n  - Sync settings\n  - \"Selective syncing\"\ntags: [a, b]\ndescription: Explains sync.\nempty:\ncssclasses: x\n---\nbody";
        assert_eq!(
            properties(note),
            vec![
                (
                    "aliases".to_string(),
                    vec!["Sync settings".to_string(), "Selective syncing".into()]
                ),
                ("tags".into(), vec!["a".into(), "b".into()]),
                ("description".into(), vec!["Explains sync.".into()]),
                ("empty".into(), vec![]),
                ("cssclasses".into(), vec!["x".into()]),
            ]
        );
        assert!(properties("no front\n---\n").is_empty());
        assert!(properties("---\nunclosed: yes\n").is_empty());
    }
}
