//! Where Markdown blocks start and end, for the heading reader and the tag
//! and link reader alike: quote and callout markers, code fences, and HTML
//! blocks (CommonMark's kinds 1, 2 and 6; "Obsidian does not render Markdown
//! syntax inside HTML elements", help vault, "Obsidian Flavored Markdown").

/// The `>` markers of a quote or callout line: how many, and what follows.
pub fn unquote(line: &str) -> (usize, &str) {
    let mut depth = 0;
    let mut rest = line;
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

/// A code fence opening: three or more backticks or tildes (a backtick
/// fence's info string has no backtick). `t` starts at the fence.
pub fn fence_open(t: &str) -> Option<(char, usize)> {
    let marker = t.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let run = t.chars().take_while(|c| *c == marker).count();
    (run >= 3 && !(marker == '`' && t[run..].contains('`'))).then_some((marker, run))
}

/// Whether the fence opened with `marker` × `length` closes on `t`.
pub fn fence_closes(t: &str, marker: char, length: usize) -> bool {
    let run = t.chars().take_while(|c| *c == marker).count();
    run >= length && t[run * marker.len_utf8()..].trim().is_empty()
}

/// How an HTML block ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HtmlEnd {
    /// At the first blank line (which is not part of it).
    BlankLine,
    /// With the line that holds this text (`-->`, `</style>`), that line included.
    Text(&'static str),
}

/// Block-level HTML tags (CommonMark's kind 6).
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

/// The HTML block that starts on this line (`t` without its indentation),
/// if one does: a comment, `<script>`/`<pre>`/`<style>`/`<textarea>`, or a
/// block-level tag such as `<div>` or `<table>`.
pub fn html_block(t: &str) -> Option<HtmlEnd> {
    if t.starts_with("<!--") {
        return Some(HtmlEnd::Text("-->"));
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
    let name_ends = |self_closing: bool| {
        after.is_empty()
            || after.starts_with([' ', '\t', '>'])
            || (self_closing && after.starts_with("/>"))
    };
    const RAW: [(&str, &str); 4] = [
        ("script", "</script>"),
        ("pre", "</pre>"),
        ("style", "</style>"),
        ("textarea", "</textarea>"),
    ];
    if !closing {
        if let Some((_, end)) = RAW.iter().find(|(raw, _)| *raw == name && name_ends(false)) {
            return Some(HtmlEnd::Text(end));
        }
    }
    (name_ends(true) && BLOCK_TAGS.contains(&name)).then_some(HtmlEnd::BlankLine)
}

/// Whether `line` ends an HTML block that ends so (for `Text`, the line is
/// the block's last; for `BlankLine`, it is after it).
pub fn html_block_ends(end: HtmlEnd, line: &str) -> bool {
    match end {
        HtmlEnd::BlankLine => line.trim().is_empty(),
        HtmlEnd::Text(text) => line.to_ascii_lowercase().contains(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_blocks_start_with_the_tags_commonmark_names() {
        assert_eq!(html_block("<table>"), Some(HtmlEnd::BlankLine));
        assert_eq!(html_block("<tr><td>x</td></tr>"), Some(HtmlEnd::BlankLine));
        assert_eq!(html_block("</div>"), Some(HtmlEnd::BlankLine));
        assert_eq!(html_block("<DIV class=\"a\">"), Some(HtmlEnd::BlankLine));
        assert_eq!(html_block("<style>"), Some(HtmlEnd::Text("</style>")));
        assert_eq!(html_block("<!-- c"), Some(HtmlEnd::Text("-->")));
        for inline in [
            "<span>x</span>",
            "<br>",
            "<tablet>",
            "<p2>",
            "text <div>",
            "<https://x.y>",
        ] {
            assert_eq!(html_block(inline), None, "{inline}");
        }
        assert!(html_block_ends(HtmlEnd::Text("</style>"), "a { } </STYLE>"));
        assert_eq!(unquote("> > ```css"), (2, "```css"));
        assert_eq!(fence_open("````md"), Some(('`', 4)));
        assert!(fence_closes("`````", '`', 4) && !fence_closes("```", '`', 4));
    }
}
