//! Inline Markdown as Obsidian indexes it: which parts of a line are not
//! prose (code spans, inline math, HTML comments), and which characters a
//! `#tag` may hold. Sources: the help vault's "Basic formatting syntax"
//! (code spans with longer backtick runs, `\` escapes), "Advanced formatting
//! syntax" (`$…$` math) and "Tags" (letters, digits, `_`, `-`, `/`, "commonly
//! accepted Unicode characters, including emojis"; at least one non-digit).

/// The line with code spans, inline math and HTML comments blanked out (each
/// of their characters becomes one space), so that links and tags in them are
/// not seen. `%%comments%%` stay: Obsidian indexes links in them (an
/// obsidian-broken-links maintainer, ipshing/obsidian-broken-links#8: "Obsidian
/// still caches links between percent symbols", while `<!-- -->` hides them).
pub fn prose(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |out: &mut String, n: usize| out.extend(std::iter::repeat_n(' ', n));
    while i < chars.len() {
        let c = chars[i];
        if c == '\\' && chars.get(i + 1).is_some_and(char::is_ascii_punctuation) {
            out.push(c);
            out.push(chars[i + 1]);
            i += 2;
        } else if c == '`' {
            let run = run_length(&chars, i, '`');
            match closing_backticks(&chars, i + run, run) {
                Some(end) => {
                    blank(&mut out, end - i);
                    i = end;
                }
                None => {
                    // No closing run: the backticks are literal text.
                    out.extend(&chars[i..i + run]);
                    i += run;
                }
            }
        } else if chars[i..].starts_with(&['<', '!', '-', '-']) {
            let end = find(&chars, i + 4, &['-', '-', '>']).map_or(chars.len(), |e| e + 3);
            blank(&mut out, end - i);
            i = end;
        } else if c == '$' {
            match math_end(&chars, i) {
                Some(end) => {
                    blank(&mut out, end - i);
                    i = end;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn run_length(chars: &[char], at: usize, c: char) -> usize {
    chars[at..].iter().take_while(|x| **x == c).count()
}

/// The end (exclusive) of the backtick run of exactly `run` that closes a
/// code span opened before `from` (CommonMark code spans).
fn closing_backticks(chars: &[char], from: usize, run: usize) -> Option<usize> {
    let mut j = from;
    while j < chars.len() {
        if chars[j] == '`' {
            let n = run_length(chars, j, '`');
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

fn find(chars: &[char], from: usize, needle: &[char]) -> Option<usize> {
    (from..chars.len()).find(|&j| chars[j..].starts_with(needle))
}

/// The end of inline math opened by the `$` at `at`: `$$…$$`, or `$…$` whose
/// first character after the opening and last before the closing are not
/// spaces and whose closing `$` is not followed by a digit (so "$5 and $10"
/// stays text, as in Pandoc's rule, which Obsidian's MathJax input follows).
fn math_end(chars: &[char], at: usize) -> Option<usize> {
    if chars.get(at + 1) == Some(&'$') {
        return find(chars, at + 2, &['$', '$']).map(|e| e + 2);
    }
    let first = *chars.get(at + 1)?;
    if first.is_whitespace() {
        return None;
    }
    let mut j = at + 1;
    while j < chars.len() {
        if chars[j] == '\\' {
            j += 2;
            continue;
        }
        if chars[j] == '$' {
            let closes = !chars[j - 1].is_whitespace()
                && !chars.get(j + 1).is_some_and(char::is_ascii_digit);
            if closes {
                return Some(j + 1);
            }
        }
        j += 1;
    }
    None
}

/// A character a tag may hold: anything but white space and punctuation,
/// where `_`, `-` and `/` are allowed. The punctuation that ends a tag is
/// ASCII's and the Unicode punctuation blocks (General and Supplemental
/// Punctuation; CJK and full-width punctuation **(choice)**), so `#tag,`,
/// `#tag。` and `#tag…` end before the mark while emoji and other symbols
/// (`#0🌲`, `#☕`) are part of the tag, as the help page "Tags" says.
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

/// Inline `#tags` in one line (without the `#`), outside code spans, math and
/// HTML comments. A tag starts at the start of the line, after white space or
/// right after another tag (`#a#b` is two tags), must hold at least one
/// character that is not a digit, and loses a trailing `/`.
pub fn tags_in_text(text: &str) -> Vec<String> {
    let text = prose(text);
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let mut after_tag = false;
    while i < chars.len() {
        let starts = chars[i] == '#' && (i == 0 || chars[i - 1].is_whitespace() || after_tag);
        after_tag = false;
        if starts {
            let len = chars[i + 1..]
                .iter()
                .take_while(|c| is_tag_char(**c))
                .count();
            let tag: String = chars[i + 1..i + 1 + len].iter().collect();
            let tag = tag.trim_end_matches('/');
            if !tag.is_empty() && !tag.chars().all(|c| c.is_ascii_digit() || c == '/') {
                out.push(tag.to_string());
                i += 1 + len;
                after_tag = chars.get(i) == Some(&'#');
                continue;
            }
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_spans_math_and_comments_are_blanked_keeping_the_length() {
        let line = "a `#x` b ``c ` #y`` $#z$ <!-- [[Hidden]] --> %%[[Shown]]%% #t";
        let p = prose(line);
        assert_eq!(p.chars().count(), line.chars().count());
        assert!(!p.contains("#x") && !p.contains("#y") && !p.contains("#z"));
        assert!(!p.contains("Hidden") && p.contains("[[Shown]]") && p.contains("#t"));
        // An unclosed run of backticks is text; so is a price.
        assert_eq!(prose("`#a and #b"), "`#a and #b");
        assert_eq!(prose("costs $5 and $10 #c"), "costs $5 and $10 #c");
        assert_eq!(prose(r"\`#a\` #b"), r"\`#a\` #b");
    }

    #[test]
    fn tags_follow_the_help_page() {
        assert_eq!(
            tags_in_text("Review PR #2181 #a1 x#no #café (#p) #y1984 #1984"),
            ["a1", "café", "y1984"]
        );
        assert_eq!(tags_in_text("`#code` #real"), ["real"]);
        assert_eq!(
            tags_in_text("#tag, #end. #q? #n/ #x…"),
            ["tag", "end", "q", "n", "x"]
        );
        assert_eq!(tags_in_text("#0🌲 #☕ #日本語。"), ["0🌲", "☕", "日本語"]);
        assert_eq!(tags_in_text("#Bob#Alice \\#escaped"), ["Bob", "Alice"]);
        assert_eq!(tags_in_text("color: #ff0000; inline `#00ff00`"), ["ff0000"]);
    }
}
