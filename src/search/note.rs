//! A note as the index reads it: its aliases and its tags and property
//! values (fields of the whole note), and its text cut into chunks, one per
//! section (the text under a heading, up to the next heading of any level),
//! a long section cut again at paragraphs so no chunk holds more than
//! [`CHUNK_BYTES`]. Each chunk keeps its heading path in the `Parent::Child`
//! form the section reader takes.

use std::ops::Range;

use crate::notes::frontmatter::{body, properties, tags};
use crate::notes::headings::sections;

/// The most text one chunk holds (a paragraph or line longer than this is
/// cut too). Big enough for a section's usual length, small enough that a
/// passage is found inside it and that a long section without headings does
/// not drown a short one by its length.
pub const CHUNK_BYTES: usize = 2_000;

/// One chunk: its heading path ("" before the first heading) and where its
/// text lies in the note (byte range, heading lines left out).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChunkText {
    pub heading: String,
    pub range: Range<usize>,
}

/// What the index takes from one note's text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NoteFields {
    /// The `aliases` property's values: other names of the note.
    pub aliases: Vec<String>,
    /// Tags (from the properties and inline) and the other properties' values.
    pub meta: Vec<String>,
    /// Never empty: a note without text has one empty chunk, so its title
    /// and properties are still found.
    pub chunks: Vec<ChunkText>,
    /// The `lang` (or `language`) property: the language the note says it
    /// is written in.
    pub lang: Option<String>,
}

/// Reads a note's fields and chunks.
pub fn read(text: &str) -> NoteFields {
    let mut fields = NoteFields::default();
    for (key, values) in properties(text) {
        match key.to_lowercase().as_str() {
            "aliases" | "alias" => fields.aliases.extend(values),
            // Read with the inline tags below.
            "tags" | "tag" => {}
            "lang" | "language" => {
                fields.lang = values.first().cloned();
                fields.meta.extend(values);
            }
            _ => fields.meta.extend(values),
        }
    }
    fields.meta.extend(tags(text));
    fields.chunks = chunks(text);
    fields
}

/// The note's chunks, in order.
pub fn chunks(text: &str) -> Vec<ChunkText> {
    let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let text_nb = &text[bom..];
    let starts: Vec<usize> = std::iter::once(0)
        .chain(text_nb.split_inclusive('\n').scan(0, |at, line| {
            *at += line.len();
            Some(*at)
        }))
        .collect();
    let offset_of = |line: usize| starts[line.min(starts.len() - 1)];
    let all = sections(text_nb);
    let mut out = Vec::new();
    let intro = text_nb.len() - body(text_nb).len();
    let first = all
        .first()
        .map_or(text_nb.len(), |s| offset_of(s.heading.line));
    if intro < first {
        cut(text_nb, "", intro..first, bom, &mut out);
    }
    for (i, section) in all.iter().enumerate() {
        let start = offset_of(section.heading.body_start);
        let next = all.get(i + 1);
        let end = next.map_or(text_nb.len(), |n| offset_of(n.heading.line));
        let blank = text_nb[start.min(end)..end].trim().is_empty();
        // A heading whose only content is deeper headings is read with them
        // (their paths hold it).
        if blank && next.is_some_and(|n| n.heading.level > section.heading.level) {
            continue;
        }
        if blank {
            out.push(ChunkText {
                heading: section.path.clone(),
                range: bom + start.min(end)..bom + start.min(end),
            });
        } else {
            cut(text_nb, &section.path, start..end, bom, &mut out);
        }
    }
    if out.is_empty() {
        out.push(ChunkText {
            heading: String::new(),
            range: text.len()..text.len(),
        });
    }
    out
}

/// Cuts `range` of `text` into chunks of at most [`CHUNK_BYTES`]: at the
/// last blank line that keeps a chunk at least half full, else at a line's
/// end, else (one very long line) at a space or a character boundary.
fn cut(text: &str, heading: &str, range: Range<usize>, offset: usize, out: &mut Vec<ChunkText>) {
    let mut start = range.start;
    let end = range.end;
    // Leading blank lines carry nothing.
    while start < end && text[start..end].starts_with(['\n', '\r']) {
        start += 1;
    }
    if text[start..end].trim().is_empty() {
        return;
    }
    while start < end {
        if end - start <= CHUNK_BYTES {
            out.push(ChunkText {
                heading: heading.to_string(),
                range: offset + start..offset + end,
            });
            return;
        }
        let window = &text[start..floor_char(text, start + CHUNK_BYTES)];
        let cut_at = window
            .rfind("\n\n")
            .filter(|&i| i >= CHUNK_BYTES / 2)
            .map(|i| i + 2)
            .or_else(|| window.rfind('\n').filter(|&i| i > 0).map(|i| i + 1))
            .or_else(|| window.rfind(' ').filter(|&i| i > 0).map(|i| i + 1))
            .unwrap_or(window.len().max(1));
        let stop = floor_char(text, start + cut_at).max(start + 1);
        let stop = ceil_char(text, stop);
        out.push(ChunkText {
            heading: heading.to_string(),
            range: offset + start..offset + stop,
        });
        start = stop;
    }
}

fn floor_char(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_char(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(text: &str) -> Vec<(String, String)> {
        chunks(text)
            .into_iter()
            .map(|c| (c.heading, text[c.range].to_string()))
            .collect()
    }

    #[test]
    fn sections_become_chunks_with_heading_paths() {
        let note = "---\naliases: [Q3]\ntags: [plan]\nstatus: draft\n---\nIntro line.\n# Plan\n## Goals\nShip it. #launch\n\n## Risks\nLate vendor.\n### Empty\n";
        assert_eq!(
            shown(note),
            [
                ("".to_string(), "Intro line.\n".to_string()),
                ("Plan::Goals".into(), "Ship it. #launch\n\n".into()),
                ("Plan::Risks".into(), "Late vendor.\n".into()),
                ("Plan::Risks::Empty".into(), "".into()),
            ]
        );
        let fields = read(note);
        assert_eq!(fields.aliases, ["Q3"]);
        assert_eq!(fields.meta, ["draft", "plan", "launch"]);
    }

    #[test]
    fn an_empty_note_has_one_empty_chunk_and_a_bom_is_skipped() {
        assert_eq!(shown(""), [("".to_string(), "".to_string())]);
        assert_eq!(
            shown("\u{feff}# T\nbody"),
            [("T".to_string(), "body".to_string())]
        );
    }

    #[test]
    fn long_sections_are_cut_at_paragraphs_lines_and_spaces() {
        let para = format!("{}\n\n", "word ".repeat(150));
        let note = format!("# Long\n{}", para.repeat(10));
        let parts = chunks(&note);
        assert!(parts.len() >= 4, "{}", parts.len());
        let mut joined = String::new();
        for p in &parts {
            assert!(p.range.len() <= CHUNK_BYTES, "{:?}", p.range);
            assert_eq!(p.heading, "Long");
            joined.push_str(&note[p.range.clone()]);
        }
        assert_eq!(joined, note["# Long\n".len()..]);
        // One line of 10 000 characters, with multi-byte letters.
        let line = "é".repeat(5_000);
        let parts = chunks(&line);
        assert!(parts.iter().all(|p| p.range.len() <= CHUNK_BYTES));
        assert_eq!(
            parts.iter().map(|p| p.range.len()).sum::<usize>(),
            line.len()
        );
    }
}
