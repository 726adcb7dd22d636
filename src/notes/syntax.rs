//! Which parts of a note's text Obsidian reads as tags and links: not the
//! properties block's body text, not fenced code (also inside callouts and
//! quotes), `$$` math or HTML blocks and comments, and on a line not code
//! spans, inline math or inline HTML comments. `%%comments%%` count, as Obsidian indexes
//! them. The rules follow Obsidian's help ("Basic formatting syntax",
//! "Advanced formatting syntax", "Tags"); `tests/cli-emulator` implements
//! the same rules on its own, and `scripts/real-vaults.mjs` compares the two
//! on real vaults.

use super::blocks::{fence_closes, fence_open, html_block, html_block_ends, unquote, HtmlEnd};
use super::headings::frontmatter_end;

/// What a line of a note is, for tags and links.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    /// In the properties block (its fences included).
    Properties,
    /// Code, math or an HTML comment: nothing in it counts.
    Hidden,
    /// Text whose tags and links count (outside its code spans).
    Text,
}

/// A block that hides its lines, open since an earlier line.
#[derive(Clone, Copy)]
enum Open {
    /// Fence character, run length, quote depth it was opened at.
    Fence(char, usize, usize),
    /// `$$`, at this quote depth.
    Math(usize),
    /// An HTML block (a comment among them) and how it ends.
    Html(HtmlEnd),
}

/// Each line's kind (`lines` as `headings::lines` splits a note).
pub fn line_kinds(lines: &[&str]) -> Vec<LineKind> {
    let front = frontmatter_end(lines);
    let mut open: Option<Open> = None;
    let mut kinds = Vec::with_capacity(lines.len());
    for (index, line) in lines.iter().enumerate() {
        if index < front {
            kinds.push(LineKind::Properties);
            continue;
        }
        let (depth, inner) = unquote(line);
        let t = inner.trim_start();
        // A quote or callout that ends closes what was opened inside it.
        if let Some(Open::Fence(_, _, d) | Open::Math(d)) = open {
            if depth < d {
                open = None;
            }
        }
        let hidden = match open {
            Some(Open::Fence(marker, length, _)) => {
                if fence_closes(t, marker, length) {
                    open = None;
                }
                true
            }
            Some(Open::Math(_)) => {
                if t.contains("$$") {
                    open = None;
                }
                true
            }
            Some(Open::Html(end)) => {
                let ends = html_block_ends(end, line);
                if ends {
                    open = None;
                }
                // A blank line after a block is not part of it.
                !(ends && end == HtmlEnd::BlankLine)
            }
            None => {
                if let Some((marker, run)) = fence_open(t) {
                    open = Some(Open::Fence(marker, run, depth));
                    true
                } else if let Some(rest) = t.strip_prefix("$$") {
                    if !rest.contains("$$") {
                        open = Some(Open::Math(depth));
                    }
                    true
                } else if let Some(end) = html_block(t) {
                    // The opening line may close it too (`<!-- x -->`, `<pre>x</pre>`).
                    let closed_here = matches!(end, HtmlEnd::Text(_))
                        && html_block_ends(end, t.get(4..).unwrap_or(""));
                    if !closed_here {
                        open = Some(Open::Html(end));
                    }
                    true
                } else {
                    false
                }
            }
        };
        kinds.push(if hidden {
            LineKind::Hidden
        } else {
            LineKind::Text
        });
    }
    kinds
}

/// The line with its code spans (CommonMark backtick runs), inline math and
/// inline HTML comments replaced by spaces, byte for byte, so a byte offset
/// in the result is the same offset in the line.
pub fn prose(line: &str) -> String {
    let bytes = line.as_bytes();
    let mut out = String::with_capacity(line.len());
    let mut i = 0;
    let blank = |out: &mut String, from: usize, to: usize| {
        out.extend(std::iter::repeat_n(' ', to - from));
    };
    while i < bytes.len() {
        let rest = &line[i..];
        let c = rest.chars().next().unwrap_or(' ');
        if c == '\\' && rest[1..].starts_with(|n: char| n.is_ascii_punctuation()) {
            out.push_str(&rest[..2]);
            i += 2;
        } else if c == '`' {
            let run = rest.bytes().take_while(|b| *b == b'`').count();
            match closing_run(line, i + run, run) {
                Some(end) => {
                    blank(&mut out, i, end);
                    i = end;
                }
                None => {
                    out.push_str(&rest[..run]);
                    i += run;
                }
            }
        } else if let Some(comment) = rest.strip_prefix("<!--") {
            let end = comment.find("-->").map_or(line.len(), |e| i + 4 + e + 3);
            blank(&mut out, i, end);
            i = end;
        } else if c == '$' {
            match math_end(line, i) {
                Some(end) => {
                    blank(&mut out, i, end);
                    i = end;
                }
                None => {
                    out.push('$');
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// Where the run of exactly `run` backticks after `from` ends.
fn closing_run(line: &str, from: usize, run: usize) -> Option<usize> {
    let bytes = line.as_bytes();
    let mut j = from;
    while j < bytes.len() {
        if bytes[j] == b'`' {
            let n = bytes[j..].iter().take_while(|b| **b == b'`').count();
            if n == run {
                return Some(j + n);
            }
            j += n;
        } else {
            j += 1;
        }
    }
    None
}

/// The end of inline math opened at `at`: `$$…$$`, or `$…$` with no space
/// inside either `$` and no digit right after the closing one ("$5 and $10"
/// is text).
fn math_end(line: &str, at: usize) -> Option<usize> {
    let rest = &line[at + 1..];
    if let Some(inner) = rest.strip_prefix('$') {
        return inner.find("$$").map(|e| at + 2 + e + 2);
    }
    if rest.starts_with(char::is_whitespace) || rest.is_empty() {
        return None;
    }
    let bytes = line.as_bytes();
    let mut j = at + 1;
    while j < bytes.len() {
        match bytes[j] {
            b'\\' => j += 2,
            b'$' => {
                let before_space = bytes[j - 1].is_ascii_whitespace();
                let digit_after = bytes.get(j + 1).is_some_and(u8::is_ascii_digit);
                if !before_space && !digit_after {
                    return Some(j + 1);
                }
                j += 1;
            }
            _ => j += 1,
        }
    }
    None
}

/// A character a tag may hold: not white space, not punctuation other than
/// `_`, `-` and `/` (ASCII, the Unicode punctuation blocks, CJK and
/// full-width punctuation); letters, digits, emoji and other symbols are.
pub fn is_tag_char(c: char) -> bool {
    if c.is_whitespace() {
        return false;
    }
    if c.is_ascii_punctuation() {
        return matches!(c, '_' | '-' | '/');
    }
    !matches!(c,
        '\u{2000}'..='\u{206F}'
        | '\u{2E00}'..='\u{2E7F}'
        | '\u{3000}'..='\u{303F}'
        | '\u{FF01}'..='\u{FF0F}'
        | '\u{FF1A}'..='\u{FF20}'
        | '\u{FF3B}'..='\u{FF40}'
        | '\u{FF5B}'..='\u{FF65}')
}

/// The inline `#tags` of one text line: (byte offset of `#`, byte length
/// with the `#`). A tag starts at the line's start, after white space or
/// right after another tag (`#a#b`), has a character that is not a digit,
/// and does not end in `/`.
pub fn tags_in_line(line: &str) -> Vec<(usize, usize)> {
    if !line.contains('#') {
        // Most lines: no tag can start without one.
        return Vec::new();
    }
    let text = prose(line);
    let mut out = Vec::new();
    let mut after_tag = false;
    let mut previous: Option<char> = None;
    let mut i = 0;
    while i < text.len() {
        let c = text[i..].chars().next().unwrap_or(' ');
        let starts = c == '#' && (previous.is_none_or(char::is_whitespace) || after_tag);
        after_tag = false;
        if starts {
            let name: usize = text[i + 1..]
                .chars()
                .take_while(|c| is_tag_char(*c))
                .map(char::len_utf8)
                .sum();
            let tag = text[i + 1..i + 1 + name].trim_end_matches('/');
            if !tag.is_empty() && !tag.chars().all(|c| c.is_ascii_digit() || c == '/') {
                out.push((i, tag.len() + 1));
                i += 1 + name;
                previous = text[..i].chars().next_back();
                after_tag = text[i..].starts_with('#');
                continue;
            }
        }
        previous = Some(c);
        i += c.len_utf8();
    }
    out
}

/// The notes a line links to: wiki links and embeds (`[[Target#h|alias]]`,
/// `![[x.png|100]]`, `[[Target\|alias]]` as tables write it) and Markdown
/// links to files (`[t](Some%20note.md#h)`, `[t](<a b.md>)`), as written,
/// without heading, block or alias. URLs are not notes.
pub fn link_targets(line: &str) -> Vec<String> {
    let text = prose(line);
    let mut out = Vec::new();
    let mut rest = text.as_str();
    while let Some(start) = rest.find("[[") {
        rest = &rest[start + 2..];
        let Some(end) = rest.find("]]") else { break };
        let inner = &rest[..end];
        rest = &rest[end + 2..];
        let path = inner.split('|').next().unwrap_or("");
        let path = path.strip_suffix('\\').unwrap_or(path);
        let target = path.split(['#', '^']).next().unwrap_or("").trim();
        if !target.is_empty() {
            out.push(target.to_string());
        }
    }
    let mut rest = text.as_str();
    while let Some(at) = rest.find("](") {
        let opened = rest[..at].contains('[');
        let after = &rest[at + 2..];
        let Some(close) = after.find(')') else { break };
        let mut destination = after[..close].trim();
        rest = &after[close + 1..];
        if !opened {
            continue;
        }
        if let Some(inner) = destination
            .strip_prefix('<')
            .and_then(|d| d.strip_suffix('>'))
        {
            destination = inner;
        }
        let destination = destination.split(" \"").next().unwrap_or(destination);
        let external = destination.contains("://")
            || destination.starts_with("mailto:")
            || destination.starts_with("obsidian:")
            || destination.starts_with('#');
        let decoded = percent_decoded(destination);
        let target = decoded.split('#').next().unwrap_or("").trim();
        if !external && !target.is_empty() {
            out.push(target.to_string());
        }
    }
    out
}

fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notes::headings::lines;

    /// The shapes the help vault writes: code in a callout, math, comments.
    const NOTE: &str = "---\ntags: [a]\n---\n> [!tip] Colours\n> ```css\n> h1 { color: #ff0000; }\n> [[InCode]]\n> ```\n> #shown [[Shown]]\n$$\n#inmath\n$$\n<!--\n#hidden [[Hidden]]\n-->\n%% #commented [[Commented]] %%\n````md\n```\n#nested\n```\n````\n> ```\n> #open\nOutside #after\n";

    #[test]
    fn code_math_and_comments_hide_their_lines_also_in_callouts() {
        let all = lines(NOTE);
        let kinds = line_kinds(&all);
        let hidden: Vec<usize> = (0..all.len())
            .filter(|i| kinds[*i] == LineKind::Hidden)
            .map(|i| i + 1)
            .collect();
        assert_eq!(
            hidden,
            [5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 17, 18, 19, 20, 21, 22, 23]
        );
        assert_eq!(kinds[0], LineKind::Properties);
        assert_eq!(
            kinds[23],
            LineKind::Text,
            "the quote ended, so did its fence"
        );
    }

    #[test]
    fn html_blocks_hide_their_markdown() {
        // "Obsidian does not render Markdown syntax inside HTML elements"
        // (help vault, "Obsidian Flavored Markdown"); the Obsidian Hub's
        // theme colour tables are HTML.
        let note = "Before #a\n<table>\n<tr><td>--background: #fff [[InTable]]</td>\n    <td style=\"color: #ddd\">x</td></tr>\n</table>\n\nAfter #b\n<style>\n.x { color: #f00; }\n\n.y { color: #0f0; }\n</style>\nLast #c\n";
        let all = lines(note);
        let kinds = line_kinds(&all);
        let text: Vec<usize> = (0..all.len())
            .filter(|i| kinds[*i] == LineKind::Text)
            .map(|i| i + 1)
            .collect();
        assert_eq!(text, [1, 6, 7, 13]);
    }

    #[test]
    fn code_spans_math_and_comments_are_blanked_byte_for_byte() {
        let line = "é `#x` ``c ` #y`` $#z$ <!-- [[H]] --> #t";
        let p = prose(line);
        assert_eq!(p.len(), line.len());
        assert!(
            !p.contains("#x") && !p.contains("#y") && !p.contains("#z") && !p.contains("[[H]]")
        );
        assert_eq!(&p[p.len() - 2..], "#t");
        assert_eq!(prose("costs $5 and $10"), "costs $5 and $10");
        assert_eq!(prose("`unclosed #a"), "`unclosed #a");
    }

    #[test]
    fn tags_follow_obsidians_help() {
        let names = |line: &str| -> Vec<String> {
            tags_in_line(line)
                .into_iter()
                .map(|(at, len)| line[at + 1..at + len].to_string())
                .collect()
        };
        assert_eq!(
            names("PR #2181 #a1 x#no #café (#p) #y1984 #1984"),
            ["a1", "café", "y1984"]
        );
        assert_eq!(
            names("#tag, #end. #n/ #x… #日本語。"),
            ["tag", "end", "n", "x", "日本語"]
        );
        assert_eq!(
            names("#0🌲 #☕ #Bob#Alice \\#no `#code`"),
            ["0🌲", "☕", "Bob", "Alice"]
        );
    }

    #[test]
    fn links_are_wiki_links_embeds_and_markdown_links_to_files() {
        assert_eq!(
            link_targets(
                "| [[Basic formatting syntax\\|Markdown syntax]] | ![[Engelbart.jpg\\|200]] |"
            ),
            ["Basic formatting syntax", "Engelbart.jpg"]
        );
        assert_eq!(
            link_targets("[[A#h|b]] [[#Local]] [[B#^block]] `[[Code]]` [r](Projects/Road%20map.md#Q2) [u](https://x.y/a.md) [t](<My note.md>)"),
            ["A", "B", "Projects/Road map.md", "My note.md"]
        );
    }
}
