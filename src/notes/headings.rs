//! Headings as Obsidian's outline sees them, and sections by heading path
//! (`Plan::Risks`). One implementation for every command that addresses part
//! of a note (edits now, section reads and tags later).
//!
//! A heading is an ATX line (`#` to `######`, at most three spaces in) or a
//! setext heading (a paragraph line underlined with `===` or `---`). Lines in
//! the frontmatter, in fenced code (``` or ~~~), in HTML blocks and comments,
//! in `$$` math, indented four spaces or more, or inside list items are never
//! headings.

use super::blocks::{fence_closes, fence_open, html_block, html_block_ends, HtmlEnd};

/// One heading of a note.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Heading {
    pub level: u8,
    pub text: String,
    /// 0-based line of the heading text.
    pub line: usize,
    /// 0-based line where the section body starts (after a setext underline).
    pub body_start: usize,
}

/// A heading's section: its heading line up to the next heading of the same
/// or a higher level (lines are 0-based, `end` exclusive).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    pub heading: Heading,
    /// The heading with its parents, `Plan::Risks`.
    pub path: String,
    pub end: usize,
}

/// Why a heading path named no single section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeadingProblem {
    /// Nothing matched; every heading path the note has.
    NotFound { headings: Vec<String> },
    /// Several matched; each as `path (line N)`.
    Ambiguous { candidates: Vec<String> },
}

/// The note's lines without their line endings (CRLF or LF).
pub fn lines(text: &str) -> Vec<&str> {
    text.split_inclusive('\n')
        .map(|l| l.trim_end_matches('\n').trim_end_matches('\r'))
        .collect()
}

/// Every heading, in order.
pub fn headings(text: &str) -> Vec<Heading> {
    let lines = lines(text);
    let mut out = Vec::new();
    let mut i = frontmatter_end(&lines);
    let mut fence: Option<(char, usize)> = None;
    // An HTML block (a comment among them) and how it ends; a `$$` block.
    let mut html: Option<HtmlEnd> = None;
    let mut in_math = false;
    // The first line of the paragraph the previous line belongs to.
    let mut paragraph: Option<usize> = None;
    while i < lines.len() {
        let line = lines[i];
        let indent = line.len() - line.trim_start_matches(' ').len();
        let content = line.trim_start_matches(' ');
        if let Some((marker, length)) = fence {
            if indent < 4 && fence_closes(content, marker, length) {
                fence = None;
            }
            paragraph = None;
            i += 1;
            continue;
        }
        if let Some(end) = html {
            if html_block_ends(end, line) {
                html = None;
            }
            paragraph = None;
            i += 1;
            continue;
        }
        if in_math {
            in_math = !content.contains("$$");
            paragraph = None;
            i += 1;
            continue;
        }
        if indent < 4 {
            if let Some(opened) = fence_open(content) {
                fence = Some(opened);
                paragraph = None;
                i += 1;
                continue;
            }
            if let Some(end) = html_block(content) {
                let closed_here = matches!(end, HtmlEnd::Text(_))
                    && html_block_ends(end, content.get(4..).unwrap_or(""));
                html = (!closed_here).then_some(end);
                paragraph = None;
                i += 1;
                continue;
            }
            if let Some(rest) = content.strip_prefix("$$") {
                in_math = !rest.contains("$$");
                paragraph = None;
                i += 1;
                continue;
            }
            if let Some((level, text)) = atx(content) {
                out.push(Heading {
                    level,
                    text,
                    line: i,
                    body_start: i + 1,
                });
                paragraph = None;
                i += 1;
                continue;
            }
            if let Some(start) = paragraph {
                if let Some(level) = setext_underline(content) {
                    // The whole paragraph above is the heading's text.
                    let text: Vec<&str> = lines[start..i].iter().map(|l| l.trim()).collect();
                    out.push(Heading {
                        level,
                        text: text.join(" "),
                        line: start,
                        body_start: i + 1,
                    });
                    paragraph = None;
                    i += 1;
                    continue;
                }
            }
        }
        let in_paragraph =
            indent < 4 && !line.trim().is_empty() && !is_list_item(content) && !is_rule(content);
        paragraph = if in_paragraph {
            paragraph.or(Some(i))
        } else {
            None
        };
        i += 1;
    }
    out
}

/// Every section, with its heading path.
pub fn sections(text: &str) -> Vec<Section> {
    let all = headings(text);
    let total = lines(text).len();
    let mut out = Vec::with_capacity(all.len());
    let mut parents: Vec<(u8, String)> = Vec::new();
    for (index, heading) in all.iter().enumerate() {
        while parents
            .last()
            .is_some_and(|(level, _)| *level >= heading.level)
        {
            parents.pop();
        }
        parents.push((heading.level, heading.text.clone()));
        let end = all[index + 1..]
            .iter()
            .find(|h| h.level <= heading.level)
            .map_or(total, |h| h.line);
        out.push(Section {
            heading: heading.clone(),
            path: parents
                .iter()
                .map(|(_, t)| t.as_str())
                .collect::<Vec<_>>()
                .join("::"),
            end,
        });
    }
    out
}

/// The one section that `path` names: `Risks`, or `Plan::Risks` for the
/// Risks heading somewhere under Plan. Exact text first; without an exact
/// match, case and surrounding `#`/spaces are ignored.
pub fn find_section(text: &str, path: &str) -> Result<Section, HeadingProblem> {
    let wanted: Vec<String> = path
        .split("::")
        .map(|p| p.trim().trim_start_matches('#').trim().to_string())
        .filter(|p| !p.is_empty())
        .collect();
    let all = sections(text);
    let matches = |exact: bool| -> Vec<&Section> {
        all.iter()
            .filter(|s| {
                let parts: Vec<&str> = s.path.split("::").collect();
                let same = |a: &str, b: &str| {
                    if exact {
                        a == b
                    } else {
                        a.to_lowercase() == b.to_lowercase()
                    }
                };
                // The leaf is this heading; the rest are ancestors, in order.
                match (parts.split_last(), wanted.split_last()) {
                    (Some((leaf, ancestors)), Some((want_leaf, want_ancestors))) => {
                        same(leaf, want_leaf) && is_subsequence(want_ancestors, ancestors, &same)
                    }
                    _ => false,
                }
            })
            .collect()
    };
    // The whole path as `map` shows it names one section, even when its
    // leaf recurs deeper down (`Sync settings` and `…::Sync settings`).
    let whole = |exact: bool| -> Vec<&Section> {
        all.iter()
            .filter(|s| {
                let parts: Vec<&str> = s.path.split("::").collect();
                parts.len() == wanted.len()
                    && parts.iter().zip(&wanted).all(|(a, b)| {
                        if exact {
                            a == b
                        } else {
                            a.to_lowercase() == b.to_lowercase()
                        }
                    })
            })
            .collect()
    };
    let mut found = matches(true);
    if found.is_empty() {
        found = matches(false);
    }
    if found.len() > 1 {
        for exact in [true, false] {
            if let [one] = whole(exact).as_slice() {
                return Ok((*one).clone());
            }
        }
    }
    match found.as_slice() {
        [one] => Ok((*one).clone()),
        [] => Err(HeadingProblem::NotFound {
            headings: all.iter().map(|s| s.path.clone()).collect(),
        }),
        many => Err(HeadingProblem::Ambiguous {
            candidates: many
                .iter()
                .map(|s| format!("{} (line {})", s.path, s.heading.line + 1))
                .collect(),
        }),
    }
}

fn is_subsequence(wanted: &[String], have: &[&str], same: &dyn Fn(&str, &str) -> bool) -> bool {
    let mut have = have.iter();
    wanted.iter().all(|w| have.any(|h| same(h, w)))
}

/// Where the frontmatter ends (0 when there is none).
pub fn frontmatter_end(lines: &[&str]) -> usize {
    if lines.first().map(|l| l.trim_end()) != Some("---") {
        return 0;
    }
    lines
        .iter()
        .enumerate()
        .skip(1)
        .find(|(_, l)| matches!(l.trim_end(), "---" | "..."))
        .map_or(0, |(i, _)| i + 1)
}

fn atx(content: &str) -> Option<(u8, String)> {
    let level = content.chars().take_while(|c| *c == '#').count();
    if !(1..=6).contains(&level) {
        return None;
    }
    let rest = &content[level..];
    if !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return None;
    }
    // A closing run of # after a space is not part of the text.
    let mut text = rest.trim();
    let without = text.trim_end_matches('#');
    if without.is_empty() || without.ends_with([' ', '\t']) {
        text = without.trim_end();
    }
    Some((level as u8, text.to_string()))
}

fn setext_underline(content: &str) -> Option<u8> {
    let trimmed = content.trim_end();
    if !trimmed.is_empty() && trimmed.chars().all(|c| c == '=') {
        Some(1)
    } else if !trimmed.is_empty() && trimmed.chars().all(|c| c == '-') {
        Some(2)
    } else {
        None
    }
}

fn is_list_item(content: &str) -> bool {
    let bullet = content.starts_with(['-', '*', '+']) && content[1..].starts_with([' ', '\t']);
    let digits = content.chars().take_while(char::is_ascii_digit).count();
    let ordered = digits > 0
        && content[digits..].starts_with(['.', ')'])
        && content[digits + 1..].starts_with([' ', '\t']);
    bullet || ordered
}

fn is_rule(content: &str) -> bool {
    let compact: String = content.chars().filter(|c| !c.is_whitespace()).collect();
    compact.len() >= 3
        && (compact.chars().all(|c| c == '-')
            || compact.chars().all(|c| c == '*')
            || compact.chars().all(|c| c == '_'))
}

/// `\r\n` when the note's first line ends so, else `\n`.
pub fn line_ending(note: &str) -> &'static str {
    match note.find('\n') {
        Some(i) if i > 0 && note.as_bytes()[i - 1] == b'\r' => "\r\n",
        _ => "\n",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOTE: &str = "---\ntitle: # not a heading\n---\n# Plan\nIntro\n\n## Goals\n- ship\n\n## Risks\nLate\n```md\n# In a fence\n```\n### Vendor\nSlow\n\nSetext title\n============\nbody\n  # indented three is a heading\n    # four is code\n- # in a list\n<div>\n# in html\n</div>\n\nLast\n---\n\nAfter a rule\n";

    #[test]
    fn headings_follow_the_outline_rules() {
        let texts: Vec<(u8, String, usize)> = headings(NOTE)
            .into_iter()
            .map(|h| (h.level, h.text, h.line + 1))
            .collect();
        assert_eq!(
            texts,
            [
                (1, "Plan".to_string(), 4),
                (2, "Goals".to_string(), 7),
                (2, "Risks".to_string(), 10),
                (3, "Vendor".to_string(), 15),
                (1, "Setext title".to_string(), 18),
                (1, "indented three is a heading".to_string(), 21),
                (2, "Last".to_string(), 28),
            ]
        );
    }

    #[test]
    fn sections_end_at_the_next_heading_of_the_same_level() {
        let all = sections(NOTE);
        let risks = all.iter().find(|s| s.heading.text == "Risks").unwrap();
        assert_eq!(risks.path, "Plan::Risks");
        assert_eq!(
            (risks.heading.line, risks.end),
            (9, 17),
            "up to the setext h1"
        );
        let vendor = all.iter().find(|s| s.heading.text == "Vendor").unwrap();
        assert_eq!(vendor.path, "Plan::Risks::Vendor");
        let setext = all
            .iter()
            .find(|s| s.heading.text == "Setext title")
            .unwrap();
        assert_eq!(
            setext.heading.body_start, 19,
            "the body starts after the underline"
        );
        let two_lines = headings("First line\nsecond line\n---\n");
        assert_eq!(two_lines[0].text, "First line second line");
        assert_eq!((two_lines[0].line, two_lines[0].body_start), (0, 3));
    }

    #[test]
    fn paths_find_one_section_or_say_why_not() {
        assert_eq!(find_section(NOTE, "Plan::Risks").unwrap().heading.line, 9);
        assert_eq!(
            find_section(NOTE, "Vendor").unwrap().path,
            "Plan::Risks::Vendor"
        );
        assert_eq!(
            find_section(NOTE, "Plan::Vendor").unwrap().path,
            "Plan::Risks::Vendor"
        );
        assert_eq!(find_section(NOTE, "## risks").unwrap().path, "Plan::Risks");
        match find_section(NOTE, "Budget") {
            Err(HeadingProblem::NotFound { headings }) => {
                assert!(headings.contains(&"Plan::Risks::Vendor".to_string()))
            }
            other => panic!("{other:?}"),
        }
        let twice = "# A\n## Notes\n# B\n## Notes\n";
        match find_section(twice, "Notes") {
            Err(HeadingProblem::Ambiguous { candidates }) => {
                assert_eq!(candidates, ["A::Notes (line 2)", "B::Notes (line 4)"])
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(find_section(twice, "B::Notes").unwrap().heading.line, 3);
    }

    #[test]
    fn every_path_the_map_shows_reads_its_own_section() {
        // The help vault's "Sync settings and selective syncing": a top-level
        // heading whose text recurs deeper down.
        let note = "## Sync settings\nA\n## Selective syncing\n### Always excluded\n#### Sync settings\nB\n";
        for section in sections(note) {
            let found = find_section(note, &section.path).unwrap();
            assert_eq!(found.heading.line, section.heading.line, "{}", section.path);
        }
    }

    #[test]
    fn comments_with_blank_lines_and_math_blocks_hold_no_headings() {
        // The Obsidian Hub comments out whole sections of its templates.
        let note = "# Shown\n<!--\n### Unlisted plugins\n\n## Still commented\n-->\n$$\n# x\n$$\n## After\n";
        let texts: Vec<String> = headings(note).into_iter().map(|h| h.text).collect();
        assert_eq!(texts, ["Shown", "After"]);
    }

    #[test]
    fn crlf_notes_have_the_same_headings() {
        let crlf = NOTE.replace('\n', "\r\n");
        assert_eq!(headings(&crlf), headings(NOTE));
    }

    #[test]
    fn atx_closing_hashes_and_empty_headings() {
        assert_eq!(atx("## Title ##"), Some((2, "Title".into())));
        assert_eq!(atx("# C#"), Some((1, "C#".into())));
        assert_eq!(atx("#"), Some((1, String::new())));
        assert_eq!(atx("#tag"), None);
        assert_eq!(atx("####### seven"), None);
    }
}
