//! Adding and removing a tag in a note's text: in the frontmatter's `tags`
//! list (whatever form it has: a block list, a flow list, one value, commas)
//! or inline as `#tag`. Tags compare without case, as Obsidian's do; the
//! rest of the note is left byte for byte, line endings included.

use super::headings::{frontmatter_end, lines};
use super::syntax::{line_kinds, tags_in_line, LineKind};

/// Where `add` puts a tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TagPlace {
    /// The frontmatter's `tags` list (made if missing).
    Properties,
    /// `#tag` on a line of its own at the end of the note.
    Inline,
}

/// `#Project/Active` → `project/active`, the form tags compare in.
fn key(tag: &str) -> String {
    tag.trim().trim_start_matches('#').to_lowercase()
}

/// The note with `tag` added, or the note as it was when it already has it
/// there.
pub fn add_tag(note: &str, tag: &str, place: TagPlace) -> String {
    let eol = super::headings::line_ending(note);
    let tag = tag.trim().trim_start_matches('#');
    let mut out: Vec<String> = lines(note).iter().map(|l| l.to_string()).collect();
    let ends_with_eol = note.ends_with('\n');
    match place {
        TagPlace::Inline => {
            if inline_positions(&out, tag).is_empty() {
                out.push(format!("#{tag}"));
            }
        }
        TagPlace::Properties => {
            let end = frontmatter_end(&lines(note));
            if end == 0 {
                let mut front = vec![
                    "---".to_string(),
                    "tags:".into(),
                    format!("  - {tag}"),
                    "---".into(),
                ];
                front.append(&mut out);
                out = front;
            } else if let Some(list) = find_tags_key(&out[..end]) {
                if !list.values(&out).iter().any(|v| key(v) == key(tag)) {
                    list.add(&mut out, tag);
                }
            } else {
                // Before the closing `---`.
                out.insert(end - 1, "tags:".into());
                out.insert(end, format!("  - {tag}"));
            }
        }
    }
    join(&out, eol, ends_with_eol || note.is_empty())
}

/// The note without `tag`: from the frontmatter list and as `#tag` in the text
/// (not in code, not `#tag/child`). A list left empty loses its key.
pub fn remove_tag(note: &str, tag: &str) -> String {
    let eol = super::headings::line_ending(note);
    let mut out: Vec<String> = lines(note).iter().map(|l| l.to_string()).collect();
    let end = frontmatter_end(&lines(note));
    if end > 0 {
        if let Some(list) = find_tags_key(&out[..end]) {
            list.remove(&mut out, tag);
        }
    }
    let positions = inline_positions(&out, tag);
    let mut emptied = Vec::new();
    for (line, start, len) in positions.into_iter().rev() {
        let text = &mut out[line];
        let mut from = start;
        let mut to = start + len;
        // Take one space with it, so no double space is left.
        if text[to..].starts_with(' ') {
            to += 1;
        } else if from > 0 && text[..from].ends_with(' ') {
            from -= 1;
        }
        text.replace_range(from..to, "");
        if text.trim().is_empty() {
            emptied.push(line);
        }
    }
    emptied.sort_unstable();
    emptied.dedup();
    for line in emptied.into_iter().rev() {
        out.remove(line);
    }
    join(&out, eol, note.ends_with('\n'))
}

/// Every tag a note has: its frontmatter list and its inline `#tags`, in
/// order, as written.
pub fn tags_of(note: &str) -> Vec<String> {
    let all: Vec<String> = lines(note).iter().map(|l| l.to_string()).collect();
    let end = frontmatter_end(&lines(note));
    let mut found: Vec<String> = match find_tags_key(&all[..end.min(all.len())]) {
        Some(list) => list.values(&all),
        None => Vec::new(),
    };
    for (line, start, len) in inline_tags(&all) {
        found.push(all[line][start + 1..start + len].to_string());
    }
    found
}

fn join(lines: &[String], eol: &str, trailing: bool) -> String {
    let mut text = lines.join(eol);
    if trailing && !lines.is_empty() {
        text.push_str(eol);
    }
    text
}

/// The `tags:` key of a frontmatter and the form of its value.
struct TagsKey {
    line: usize,
    form: Form,
}

enum Form {
    /// `tags:` then `  - a` lines, `items` of them.
    Block { items: Vec<usize>, indent: String },
    /// `tags: [a, b]`.
    Flow,
    /// `tags: a` or `tags: a, b`.
    Scalar,
}

fn find_tags_key(front: &[String]) -> Option<TagsKey> {
    let line = front.iter().position(|l| {
        let t = l.trim_end();
        t.starts_with("tags:") || t.starts_with("tag:")
    })?;
    let value = value_of(&front[line]);
    let form = if value.is_empty() {
        let mut items = Vec::new();
        let mut indent = "  ".to_string();
        for (i, l) in front.iter().enumerate().skip(line + 1) {
            let t = l.trim_start();
            if t.starts_with("- ") || t == "-" {
                if items.is_empty() {
                    indent = l[..l.len() - t.len()].to_string();
                }
                items.push(i);
            } else {
                break;
            }
        }
        Form::Block { items, indent }
    } else if value.starts_with('[') {
        Form::Flow
    } else {
        Form::Scalar
    };
    Some(TagsKey { line, form })
}

fn value_of(line: &str) -> &str {
    line.split_once(':').map_or("", |(_, v)| v.trim())
}

fn unquote(value: &str) -> &str {
    value.trim().trim_matches(|c| c == '"' || c == '\'').trim()
}

impl TagsKey {
    fn values(&self, lines: &[String]) -> Vec<String> {
        match &self.form {
            Form::Block { items, .. } => items
                .iter()
                .map(|i| unquote(lines[*i].trim_start().trim_start_matches('-')).to_string())
                .filter(|v| !v.is_empty())
                .collect(),
            Form::Flow => flow_items(value_of(&lines[self.line])),
            Form::Scalar => value_of(&lines[self.line])
                .split([',', ' '])
                .map(unquote)
                .filter(|v| !v.is_empty())
                .map(str::to_string)
                .collect(),
        }
    }

    fn add(&self, lines: &mut Vec<String>, tag: &str) {
        match &self.form {
            Form::Block { items, indent } => {
                let at = items.last().map_or(self.line + 1, |i| i + 1);
                lines.insert(at, format!("{indent}- {tag}"));
            }
            Form::Flow => {
                let mut items = flow_items(value_of(&lines[self.line]));
                items.push(tag.to_string());
                lines[self.line] = format!("{}: [{}]", self.name(lines), items.join(", "));
            }
            Form::Scalar => {
                let mut items = self.values(lines);
                items.push(tag.to_string());
                let name = self.name(lines);
                lines[self.line] = format!("{name}:");
                for (offset, item) in items.iter().enumerate() {
                    lines.insert(self.line + 1 + offset, format!("  - {item}"));
                }
            }
        }
    }

    fn remove(&self, lines: &mut Vec<String>, tag: &str) {
        let kept: Vec<String> = self
            .values(lines)
            .into_iter()
            .filter(|v| key(v) != key(tag))
            .collect();
        match &self.form {
            Form::Block { items, .. } => {
                for i in items.iter().rev() {
                    let value = unquote(lines[*i].trim_start().trim_start_matches('-'));
                    if key(value) == key(tag) {
                        lines.remove(*i);
                    }
                }
                if kept.is_empty() {
                    lines.remove(self.line);
                }
            }
            Form::Flow | Form::Scalar if kept.is_empty() => {
                lines.remove(self.line);
            }
            Form::Flow => {
                lines[self.line] = format!("{}: [{}]", self.name(lines), kept.join(", "));
            }
            Form::Scalar => {
                lines[self.line] = format!("{}: {}", self.name(lines), kept.join(", "));
            }
        }
    }

    fn name(&self, lines: &[String]) -> String {
        lines[self.line]
            .split_once(':')
            .map_or("tags", |(k, _)| k)
            .to_string()
    }
}

fn flow_items(value: &str) -> Vec<String> {
    value
        .trim()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .split(',')
        .map(unquote)
        .filter(|v| !v.is_empty())
        .map(str::to_string)
        .collect()
}

/// Every inline `#tag` Obsidian sees (outside the frontmatter, code, math
/// and comments; see `syntax`): (line, byte start of `#`, byte length with
/// the `#`).
fn inline_tags(lines: &[String]) -> Vec<(usize, usize, usize)> {
    let borrowed: Vec<&str> = lines.iter().map(String::as_str).collect();
    let kinds = line_kinds(&borrowed);
    let mut out = Vec::new();
    for (index, line) in borrowed.iter().enumerate() {
        if kinds[index] == LineKind::Text {
            out.extend(
                tags_in_line(line)
                    .into_iter()
                    .map(|(start, len)| (index, start, len)),
            );
        }
    }
    out
}

fn inline_positions(lines: &[String], tag: &str) -> Vec<(usize, usize, usize)> {
    inline_tags(lines)
        .into_iter()
        .filter(|(line, start, len)| key(&lines[*line][start + 1..start + len]) == key(tag))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adding_to_each_form_of_tags_keeps_the_rest_of_the_note() {
        let cases = [
            (
                "---\ntags:\n  - plan\n---\nBody\n",
                "---\ntags:\n  - plan\n  - urgent\n---\nBody\n",
            ),
            (
                "---\ntags: [plan, web]\ntitle: X\n---\nBody\n",
                "---\ntags: [plan, web, urgent]\ntitle: X\n---\nBody\n",
            ),
            (
                "---\ntags: plan\n---\n",
                "---\ntags:\n  - plan\n  - urgent\n---\n",
            ),
            (
                "---\ntitle: X\n---\nBody\n",
                "---\ntitle: X\ntags:\n  - urgent\n---\nBody\n",
            ),
            ("Body\n", "---\ntags:\n  - urgent\n---\nBody\n"),
            ("", "---\ntags:\n  - urgent\n---\n"),
        ];
        for (before, after) in cases {
            assert_eq!(
                add_tag(before, "#urgent", TagPlace::Properties),
                after,
                "{before:?}"
            );
            // And it is there once, however often it is added.
            assert_eq!(add_tag(after, "Urgent", TagPlace::Properties), after);
        }
        let crlf = "---\r\ntags:\r\n  - plan\r\n---\r\nBody\r\n";
        assert_eq!(
            add_tag(crlf, "urgent", TagPlace::Properties),
            "---\r\ntags:\r\n  - plan\r\n  - urgent\r\n---\r\nBody\r\n"
        );
    }

    #[test]
    fn inline_tags_go_at_the_end_and_are_found_outside_code_only() {
        assert_eq!(add_tag("Body\n", "idea", TagPlace::Inline), "Body\n#idea\n");
        assert_eq!(
            add_tag("Body #idea\n", "idea", TagPlace::Inline),
            "Body #idea\n"
        );
        let note = "---\ntags: [a]\n---\nText #idea and #idea/sub, `#idea` in code\n```\n#idea\n```\n#2026 is not a tag\n";
        assert_eq!(tags_of(note), ["a", "idea", "idea/sub"]);
    }

    #[test]
    fn tags_in_code_in_callouts_nested_fences_and_comments_are_not_tags() {
        // Shapes from Obsidian's help vault: a CSS colour in a callout's code
        // block, a fence of four backticks around one of three, a comment.
        let note = "> [!example]\n> ```css\n> .x { color: #ff0000; }\n> ```\n````md\n```\n#inner\n```\n#stillcode\n````\n<!--\n#commented\n-->\nText #real, #0🌲 and `` #a ` b ``\n";
        assert_eq!(tags_of(note), ["real", "0🌲"]);
        for tag in ["ff0000", "inner", "stillcode", "commented"] {
            assert_eq!(remove_tag(note, tag), note, "{tag} is code, not a tag");
        }
        assert_eq!(
            remove_tag(note, "real"),
            note.replace(" #real,", ","),
            "only the text tag goes"
        );
    }

    #[test]
    fn removing_takes_it_from_the_list_and_the_text_and_nothing_else() {
        assert_eq!(
            remove_tag(
                "---\ntags:\n  - plan\n  - Urgent\n---\nBody #urgent here\n#urgent\n",
                "urgent"
            ),
            "---\ntags:\n  - plan\n---\nBody here\n"
        );
        assert_eq!(
            remove_tag("---\ntags: [a, urgent]\n---\n", "#urgent"),
            "---\ntags: [a]\n---\n"
        );
        assert_eq!(
            remove_tag("---\ntags: urgent\nx: 1\n---\n", "urgent"),
            "---\nx: 1\n---\n"
        );
        assert_eq!(
            remove_tag("---\ntags:\n  - urgent\n---\nB\n", "urgent"),
            "---\n---\nB\n"
        );
        let kept = "Text #urgent/later and `#urgent`\n```\n#urgent\n```\n";
        assert_eq!(
            remove_tag(kept, "urgent"),
            kept,
            "a child tag and code stay"
        );
        let crlf = "A #x b\r\n";
        assert_eq!(remove_tag(crlf, "x"), "A b\r\n");
    }
}
