//! Reading a note: frontmatter block, lines outside code, tasks, headings,
//! links and tags.

use yaml_rust2::{Yaml, YamlLoader};

/// Where the frontmatter block sits in a note.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrontmatterSpan {
    /// Byte offset where the YAML text starts (after the opening `---` line).
    pub yaml_start: usize,
    /// Byte offset where the YAML text ends (start of the closing `---` line).
    pub yaml_end: usize,
    /// Byte offset just after the closing `---` line (start of the body).
    pub body_start: usize,
    /// Number of lines the block occupies, both fences included.
    pub line_count: usize,
}

/// Locate a frontmatter block: the note must start with a `---` line and a
/// later line must be exactly `---`.
pub fn frontmatter_span(content: &str) -> Option<FrontmatterSpan> {
    let first_end = content.find('\n')?;
    if content[..first_end].trim_end_matches('\r') != "---" {
        return None;
    }
    let yaml_start = first_end + 1;
    let mut offset = yaml_start;
    for (lines, line) in (2..).zip(content[yaml_start..].split_inclusive('\n')) {
        let bare = line.trim_end_matches('\n').trim_end_matches('\r');
        if bare == "---" {
            return Some(FrontmatterSpan {
                yaml_start,
                yaml_end: offset,
                body_start: offset + line.len(),
                line_count: lines,
            });
        }
        offset += line.len();
    }
    None
}

/// The parsed frontmatter mapping (top-level keys in file order), if the
/// note has a valid one.
pub fn frontmatter(content: &str) -> Option<yaml_rust2::yaml::Hash> {
    let span = frontmatter_span(content)?;
    let text = &content[span.yaml_start..span.yaml_end];
    if text.trim().is_empty() {
        return Some(Default::default());
    }
    let docs = YamlLoader::load_from_str(text).ok()?;
    match docs.into_iter().next() {
        Some(Yaml::Hash(h)) => Some(h),
        _ => None,
    }
}

/// A line of a note with its 1-based number and whether it is part of the
/// frontmatter or of a block whose text Obsidian does not index.
pub struct Line<'a> {
    pub number: usize,
    pub text: &'a str,
    pub in_frontmatter: bool,
    /// Fenced code (also inside callouts and quotes), a `$$` math block or an
    /// HTML block or comment: no task, heading, link or tag in it counts.
    pub in_code: bool,
}

/// The `>` markers of a quote or callout line: how many, and the text after
/// them (CommonMark: up to three spaces, `>`, one optional space).
fn unquote(text: &str) -> (usize, &str) {
    let mut depth = 0;
    let mut rest = text;
    loop {
        let t = rest.trim_start_matches(' ');
        if rest.len() - t.len() > 3 {
            return (depth, rest);
        }
        match t.strip_prefix('>') {
            Some(after) => {
                depth += 1;
                rest = after.strip_prefix(' ').unwrap_or(after);
            }
            None => return (depth, rest),
        }
    }
}

/// A block that hides its text, open since an earlier line.
#[derive(Clone, Copy)]
enum Hidden {
    /// Fence character, run length and the quote depth it was opened at.
    Fence(char, usize, usize),
    /// `$$` at this quote depth.
    Math(usize),
    /// An HTML block: until a line holding this text (`-->`, `</style>`),
    /// or, for `None`, until a blank line.
    Html(Option<&'static str>),
}

/// Block-level HTML tags (CommonMark's HTML blocks of kind 6).
const BLOCK_TAGS: &[&str] = &[
    "address",
    "article",
    "aside",
    "base",
    "basefont",
    "blockquote",
    "body",
    "caption",
    "center",
    "col",
    "colgroup",
    "dd",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "frame",
    "frameset",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hr",
    "html",
    "iframe",
    "legend",
    "li",
    "link",
    "main",
    "menu",
    "menuitem",
    "nav",
    "noframes",
    "ol",
    "optgroup",
    "option",
    "p",
    "param",
    "search",
    "section",
    "summary",
    "table",
    "tbody",
    "td",
    "tfoot",
    "th",
    "thead",
    "title",
    "tr",
    "track",
    "ul",
];

/// The HTML block that starts on a line (CommonMark kinds 1, 2 and 6): a
/// comment, `<script>`, `<pre>`, `<style>` or `<textarea>` (until their
/// closing text), or a block-level tag such as `<div>` or `<table>` (until a
/// blank line). "Obsidian does not render Markdown syntax inside HTML
/// elements" (help vault, "Obsidian Flavored Markdown"), so nothing in one is
/// a link, tag, task or heading.
fn html_block(t: &str) -> Option<Option<&'static str>> {
    if t.starts_with("<!--") {
        return Some(Some("-->"));
    }
    let lower = t.to_ascii_lowercase();
    let rest = lower.strip_prefix('<')?;
    let (closing, rest) = match rest.strip_prefix('/') {
        Some(r) => (true, r),
        None => (false, rest),
    };
    let length = rest
        .find(|c: char| !c.is_ascii_alphanumeric())
        .unwrap_or(rest.len());
    let (name, after) = rest.split_at(length);
    let ends = after.is_empty() || after.starts_with([' ', '\t', '>']);
    for (raw, end) in [
        ("script", "</script>"),
        ("pre", "</pre>"),
        ("style", "</style>"),
        ("textarea", "</textarea>"),
    ] {
        if !closing && name == raw && ends {
            return Some(Some(end));
        }
    }
    ((ends || after.starts_with("/>")) && BLOCK_TAGS.contains(&name)).then_some(None)
}

/// A fence opening (three or more backticks or tildes; a backtick fence's
/// info string has no backtick).
fn fence_open(t: &str) -> Option<(char, usize)> {
    let c = t.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let run = t.chars().take_while(|x| *x == c).count();
    (run >= 3 && !(c == '`' && t[run..].contains('`'))).then_some((c, run))
}

/// Every line of a note, classified. Code fences, `$$` math and HTML comment
/// blocks are found at the top level and inside callouts and quotes (after
/// their `>` markers), as the help vault writes them ("Callouts" with code
/// blocks; "Advanced formatting syntax" for math); a quote that ends closes
/// what was opened in it.
pub fn lines(content: &str) -> Vec<Line<'_>> {
    let fm_lines = frontmatter_span(content).map_or(0, |s| s.line_count);
    let mut open: Option<Hidden> = None;
    let mut out = Vec::new();
    for (i, raw) in content.split('\n').enumerate() {
        let text = raw.strip_suffix('\r').unwrap_or(raw);
        let number = i + 1;
        let in_frontmatter = number <= fm_lines;
        let mut in_code = false;
        if !in_frontmatter {
            let (depth, inner) = unquote(text);
            let t = inner.trim_start();
            // A quote that ends takes its open block with it.
            if let Some(Hidden::Fence(_, _, d) | Hidden::Math(d)) = open {
                if depth < d {
                    open = None;
                }
            }
            match open {
                Some(Hidden::Fence(c, len, _)) => {
                    in_code = true;
                    let run = t.chars().take_while(|x| *x == c).count();
                    if run >= len && t[run..].trim().is_empty() {
                        open = None;
                    }
                }
                Some(Hidden::Math(_)) => {
                    in_code = true;
                    if t.contains("$$") {
                        open = None;
                    }
                }
                Some(Hidden::Html(Some(end))) => {
                    in_code = true;
                    if text.to_ascii_lowercase().contains(end) {
                        open = None;
                    }
                }
                Some(Hidden::Html(None)) => {
                    // The blank line that ends the block is not part of it.
                    in_code = !text.trim().is_empty();
                    if !in_code {
                        open = None;
                    }
                }
                None => {
                    if let Some((c, run)) = fence_open(t) {
                        open = Some(Hidden::Fence(c, run, depth));
                        in_code = true;
                    } else if let Some(rest) = t.strip_prefix("$$") {
                        in_code = true;
                        if !rest.contains("$$") {
                            open = Some(Hidden::Math(depth));
                        }
                    } else if let Some(end) = html_block(t) {
                        in_code = true;
                        let rest = t.get(4..).unwrap_or("").to_ascii_lowercase();
                        if !end.is_some_and(|e| rest.contains(e)) {
                            open = Some(Hidden::Html(end));
                        }
                    }
                }
            }
        }
        out.push(Line {
            number,
            text,
            in_frontmatter,
            in_code,
        });
    }
    // A trailing newline yields an empty last "line" that does not exist.
    if content.ends_with('\n') {
        out.pop();
    }
    out
}

/// A checklist item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Task {
    pub line: usize,
    pub status: char,
    /// The text after the checkbox.
    pub text: String,
    /// The whole line as written.
    pub raw: String,
}

/// Parse a task line: optional indentation, a list marker (`-`, `*`, `+` or
/// `1.`/`1)`), whitespace, `[c]` with one character, then the text.
pub fn parse_task(line: &str) -> Option<(char, String)> {
    let t = line.trim_start();
    let after_marker = if let Some(rest) = t
        .strip_prefix('-')
        .or_else(|| t.strip_prefix('*'))
        .or_else(|| t.strip_prefix('+'))
    {
        rest
    } else {
        let digits = t.chars().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 {
            return None;
        }
        let rest = &t[digits..];
        rest.strip_prefix('.').or_else(|| rest.strip_prefix(')'))?
    };
    if !after_marker.starts_with([' ', '\t']) {
        return None;
    }
    let rest = after_marker.trim_start();
    let rest = rest.strip_prefix('[')?;
    let mut chars = rest.chars();
    let status = chars.next()?;
    let rest = chars.as_str().strip_prefix(']')?;
    if !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return None;
    }
    Some((status, rest.trim_start().to_string()))
}

/// Replace the status character of a task line, keeping everything else.
pub fn set_task_status(line: &str, status: char) -> Option<String> {
    parse_task(line)?;
    let open = line.find('[')?;
    let old_len = line[open + 1..].chars().next()?.len_utf8();
    let mut out = String::with_capacity(line.len() + 4);
    out.push_str(&line[..=open]);
    out.push(status);
    out.push_str(&line[open + 1 + old_len..]);
    Some(out)
}

/// All tasks outside frontmatter and code blocks.
pub fn tasks(content: &str) -> Vec<Task> {
    lines(content)
        .into_iter()
        .filter(|l| !l.in_frontmatter && !l.in_code)
        .filter_map(|l| {
            parse_task(l.text).map(|(status, text)| Task {
                line: l.number,
                status,
                text,
                raw: l.text.to_string(),
            })
        })
        .collect()
}

/// An ATX heading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heading {
    pub level: usize,
    pub text: String,
    pub line: usize,
}

pub fn headings(content: &str) -> Vec<Heading> {
    let mut out = Vec::new();
    for l in lines(content) {
        if l.in_frontmatter || l.in_code {
            continue;
        }
        let t = l.text.trim_start_matches(' ');
        if l.text.len() - t.len() > 3 {
            continue;
        }
        let level = t.chars().take_while(|c| *c == '#').count();
        if level == 0 || level > 6 {
            continue;
        }
        let rest = &t[level..];
        if !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
            continue;
        }
        let mut text = rest.trim();
        // Closing sequence of #'s.
        let stripped = text.trim_end_matches('#');
        if stripped.len() != text.len() && (stripped.is_empty() || stripped.ends_with(' ')) {
            text = stripped.trim_end();
        }
        out.push(Heading {
            level,
            text: text.to_string(),
            line: l.number,
        });
    }
    out
}

/// A link as written in a note.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// The link path, without alias, heading or block reference.
    pub target: String,
    pub line: usize,
    pub embed: bool,
}

/// Cut `|alias`, `#heading` and `^block` from a wikilink's inner text. In a
/// table the alias is written after `\|` ("Advanced formatting syntax",
/// "Vertical bars in tables"); the backslash is not part of the target.
fn link_path(inner: &str) -> String {
    let no_alias = inner.split('|').next().unwrap_or("");
    let no_alias = no_alias.strip_suffix('\\').unwrap_or(no_alias);
    let no_heading = no_alias.split('#').next().unwrap_or("");
    no_heading
        .split('^')
        .next()
        .unwrap_or("")
        .trim()
        .to_string()
}

fn percent_decode(s: &str) -> String {
    fn hex(b: u8) -> Option<u8> {
        (b as char).to_digit(16).map(|d| d as u8)
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push(h * 16 + l);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Wikilinks (`[[x]]`, `![[x]]`) and internal markdown links (`[t](x.md)`)
/// in one line of text.
pub fn links_in_text(text: &str, line: usize, out: &mut Vec<Link>) {
    let text = crate::inline::prose(text);
    let mut rest = text.as_str();
    while let Some(start) = rest.find("[[") {
        let after = &rest[start + 2..];
        let Some(end) = after.find("]]") else { break };
        let inner = &after[..end];
        let embed = start > 0 && rest[..start].ends_with('!');
        let target = link_path(inner);
        if !target.is_empty() && !inner.contains('\n') {
            out.push(Link {
                target,
                line,
                embed,
            });
        }
        let advance = start + 2 + end + 2;
        rest = &rest[advance..];
    }
    // Markdown links: [text](destination)
    let mut rest = text.as_str();
    while let Some(pos) = rest.find("](") {
        let before = &rest[..pos];
        let after = &rest[pos + 2..];
        let Some(close) = after.find(')') else { break };
        let mut dest = after[..close].trim();
        let has_open = before.contains('[') && !before.ends_with(']');
        if has_open {
            if let Some(stripped) = dest.strip_prefix('<').and_then(|d| d.strip_suffix('>')) {
                dest = stripped;
            }
            // Drop an optional title: (dest "title")
            let dest = dest.split(" \"").next().unwrap_or(dest);
            let is_external = dest.contains("://")
                || dest.starts_with("mailto:")
                || dest.starts_with("obsidian:")
                || dest.starts_with('#')
                || dest.is_empty();
            if !is_external {
                let decoded = percent_decode(dest);
                let target = decoded.split('#').next().unwrap_or("").trim().to_string();
                if !target.is_empty() {
                    let embed = before
                        .rfind('[')
                        .is_some_and(|i| i > 0 && before[..i].ends_with('!'));
                    out.push(Link {
                        target,
                        line,
                        embed,
                    });
                }
            }
        }
        rest = &after[close + 1..];
    }
}

fn yaml_strings<'a>(value: &'a Yaml, out: &mut Vec<&'a str>) {
    match value {
        Yaml::String(s) => out.push(s),
        Yaml::Array(items) => items.iter().for_each(|v| yaml_strings(v, out)),
        Yaml::Hash(h) => h.values().for_each(|v| yaml_strings(v, out)),
        _ => {}
    }
}

/// All links of a note: in the body (outside code) and in frontmatter
/// property values (Obsidian indexes `"[[x]]"` in properties too).
pub fn links(content: &str) -> Vec<Link> {
    let mut out = Vec::new();
    if let Some(fm) = frontmatter(content) {
        let mut strings = Vec::new();
        for v in fm.values() {
            yaml_strings(v, &mut strings);
        }
        for s in strings {
            let mut found = Vec::new();
            links_in_text(s, 1, &mut found);
            out.extend(found.into_iter().filter(|l| !l.embed));
        }
    }
    for l in lines(content) {
        if l.in_frontmatter || l.in_code {
            continue;
        }
        links_in_text(l.text, l.number, &mut out);
    }
    out
}

/// Tags from the `tags`/`tag` properties (a list, or a string separated by
/// commas or spaces), without `#`.
pub fn frontmatter_tags(fm: &yaml_rust2::yaml::Hash) -> Vec<String> {
    let mut out = Vec::new();
    for key in ["tags", "tag"] {
        let Some(v) = fm.get(&Yaml::String(key.to_string())) else {
            continue;
        };
        let mut push = |s: &str| {
            for part in s.split([',', ' ']) {
                let t = part.trim().trim_start_matches('#');
                if !t.is_empty() {
                    out.push(t.to_string());
                }
            }
        };
        match v {
            Yaml::String(s) => push(s),
            Yaml::Array(items) => {
                for item in items {
                    match item {
                        Yaml::String(s) => push(s),
                        Yaml::Integer(i) => push(&i.to_string()),
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Every tag occurrence of a note (frontmatter first, then inline), without
/// `#`, with the line it appears on.
pub fn tags(content: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    if let Some(fm) = frontmatter(content) {
        out.extend(frontmatter_tags(&fm).into_iter().map(|t| (t, 1)));
    }
    for l in lines(content) {
        if l.in_frontmatter || l.in_code {
            continue;
        }
        out.extend(
            crate::inline::tags_in_text(l.text)
                .into_iter()
                .map(|t| (t, l.number)),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn task_parsing() {
        assert_eq!(parse_task("- [ ] a"), Some((' ', "a".into())));
        assert_eq!(parse_task("  * [x] b c"), Some(('x', "b c".into())));
        assert_eq!(parse_task("1. [/] d"), Some(('/', "d".into())));
        assert_eq!(parse_task("- [ ]"), Some((' ', String::new())));
        assert_eq!(parse_task("- [] nope"), None);
        assert_eq!(parse_task("-[ ] nope"), None);
        assert_eq!(parse_task("text [ ] nope"), None);
        assert_eq!(
            set_task_status("  - [ ] a [ ] b", 'x').unwrap(),
            "  - [x] a [ ] b"
        );
    }

    #[test]
    fn frontmatter_and_code() {
        let c = "---\na: 1\n---\n# T\n```\n- [ ] no\n#nottag [[NoLink]]\n```\n- [x] yes #tag/nested [[Link|alias]] ![[img.png]]\n";
        let span = frontmatter_span(c).unwrap();
        assert_eq!(span.line_count, 3);
        assert_eq!(&c[span.body_start..span.body_start + 3], "# T");
        let t = tasks(c);
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].line, 9);
        let l = links(c);
        assert_eq!(
            l.iter().map(|l| l.target.as_str()).collect::<Vec<_>>(),
            ["Link", "img.png"]
        );
        assert!(l[1].embed);
        let tg = tags(c);
        assert_eq!(tg, vec![("tag/nested".to_string(), 9)]);
    }

    #[test]
    fn code_math_and_comments_in_callouts_hide_tags_links_and_tasks() {
        let c = "> [!tip] Colours\n> ```css\n> h1 { color: #ff0000; }\n> [[InCode]]\n> ```\n> #shown [[Shown]]\n$$\n#inmath [[InMath]]\n$$\n<!--\n#hidden [[Hidden]]\n- [ ] hidden task\n-->\n> ```\n> #open\nOutside the quote #after\n";
        let tags: Vec<String> = tags(c).into_iter().map(|(t, _)| t).collect();
        assert_eq!(tags, ["shown", "after"]);
        let links: Vec<String> = links(c).into_iter().map(|l| l.target).collect();
        assert_eq!(links, ["Shown"]);
        assert!(tasks(c).is_empty());
        let code: Vec<usize> = lines(c)
            .iter()
            .filter(|l| l.in_code)
            .map(|l| l.number)
            .collect();
        assert_eq!(code, [2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    }

    #[test]
    fn html_blocks_hide_tags_and_links() {
        let c = "Before #a\n<table>\n<tr><td>--background: #fff [[InTable]]</td>\n    <td style=\"color: #ddd\">x</td></tr>\n</table>\n\nAfter #b\n<style>\n.x { color: #f00; }\n\n.y { color: #0f0; }\n</style>\nLast #c\n";
        let tags: Vec<String> = tags(c).into_iter().map(|(t, _)| t).collect();
        assert_eq!(tags, ["a", "b", "c"]);
        assert!(links(c).is_empty());
    }

    #[test]
    fn frontmatter_tags_in_the_shapes_real_vaults_write() {
        let names = |c: &str| -> Vec<String> { tags(c).into_iter().map(|(t, _)| t).collect() };
        assert_eq!(
            names("---\naliases:\n- Ada\ntags:\n- \npublish: true\n---\n#real\n"),
            ["real"]
        );
        assert_eq!(
            names("---\ntags:\n  - evergreen\n  - 0🌲\n---\n"),
            ["evergreen", "0🌲"]
        );
        assert_eq!(
            names("---\r\ntags: [\"#a\", 'b']\r\n---\r\nText #c\r\n"),
            ["a", "b", "c"]
        );
        assert_eq!(
            names("---\ntags: [x]\n#y\n"),
            ["y"],
            "an unclosed block is no frontmatter"
        );
    }

    #[test]
    fn an_escaped_table_pipe_separates_the_alias() {
        let mut out = Vec::new();
        links_in_text(
            "| [[Basic formatting syntax\\|Markdown syntax]] | ![[Engelbart.jpg\\|200]] |",
            1,
            &mut out,
        );
        let t: Vec<(&str, bool)> = out.iter().map(|l| (l.target.as_str(), l.embed)).collect();
        assert_eq!(
            t,
            [("Basic formatting syntax", false), ("Engelbart.jpg", true)]
        );
    }

    #[test]
    fn markdown_links() {
        let mut out = Vec::new();
        links_in_text(
            "[R](Projects/Road%20map.md#Q2) [w](https://x.y) [[A#h|b]]",
            3,
            &mut out,
        );
        let t: Vec<_> = out.iter().map(|l| l.target.as_str()).collect();
        assert_eq!(t, ["A", "Projects/Road map.md"]);
    }
}
