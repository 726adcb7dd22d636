//! Notes as the hygiene checks see them: titles normalised for comparison,
//! the body after the properties, wiki links, tags and the terms text is
//! compared by (words, and character n-grams for CJK, which has no spaces).

use crate::notes::headings::lines;
use crate::notes::syntax::{line_kinds, link_targets, tags_in_line, LineKind};

/// A note's title: its file name without the folder and `.md`.
pub fn title_of(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.strip_suffix(".md").unwrap_or(name)
}

/// The form two titles are compared in: lower case, accents removed (`é` →
/// `e`, `ß` → `ss`), every run of punctuation, symbols and spaces one space.
/// "Q3 Plan", "q3-plan" and "Q3  plan!" are the same title; so are "Café"
/// and "cafe". CJK characters are letters and stay.
pub fn normalise_title(title: &str) -> String {
    let mut out = String::with_capacity(title.len());
    let mut space = false;
    for c in title.chars() {
        if c.is_alphanumeric() {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            for lower in c.to_lowercase() {
                fold_accent(lower, &mut out);
            }
        } else if !is_combining_mark(c) {
            space = true;
        }
    }
    out
}

/// Combining accents (`e` + U+0301) are dropped, so a decomposed title
/// compares like a composed one.
fn is_combining_mark(c: char) -> bool {
    matches!(c, '\u{0300}'..='\u{036F}' | '\u{1AB0}'..='\u{1AFF}' | '\u{20D0}'..='\u{20FF}')
}

/// The letter without its accent, for the Latin letters European languages
/// use (a table, not Unicode decomposition: the plugin carries no
/// normalisation tables; see Cargo.toml).
fn fold_accent(c: char, out: &mut String) {
    const FOLDS: &[(&str, &str)] = &[
        ("àáâãäåāăą", "a"),
        ("çćĉċč", "c"),
        ("ďđ", "d"),
        ("èéêëēĕėęě", "e"),
        ("ĝğġģ", "g"),
        ("ĥħ", "h"),
        ("ìíîïĩīĭįı", "i"),
        ("ĵ", "j"),
        ("ķ", "k"),
        ("ĺļľŀł", "l"),
        ("ñńņňŉ", "n"),
        ("òóôõöøōŏő", "o"),
        ("ŕŗř", "r"),
        ("śŝşšș", "s"),
        ("ţťŧț", "t"),
        ("ùúûüũūŭůűų", "u"),
        ("ŵ", "w"),
        ("ýÿŷ", "y"),
        ("źżž", "z"),
        ("ß", "ss"),
        ("æ", "ae"),
        ("œ", "oe"),
        ("þ", "th"),
        ("ð", "d"),
    ];
    if c.is_ascii() {
        out.push(c);
        return;
    }
    match FOLDS.iter().find(|(from, _)| from.contains(c)) {
        Some((_, to)) => out.push_str(to),
        None => out.push(c),
    }
}

/// The note's text after its properties (YAML frontmatter between `---`
/// lines at the very start).
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

/// The notes a note links to, as written (without heading, block or alias):
/// wiki links and embeds, in its properties too, and Markdown links to files;
/// not what is in code, math or comments (see `notes::syntax`).
pub fn links(text: &str) -> Vec<String> {
    let all = lines(text);
    let kinds = line_kinds(&all);
    all.iter()
        .zip(kinds)
        .filter(|(_, kind)| *kind != LineKind::Hidden)
        .flat_map(|(line, _)| link_targets(line))
        .collect()
}

/// Tags, lower case without `#`: the frontmatter's `tags` (`tags: [a, b]`,
/// `tags: a, b` or a list) and the inline `#tags` Obsidian sees.
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
    let all = lines(text);
    let kinds = line_kinds(&all);
    for (line, kind) in all.iter().zip(kinds) {
        if kind == LineKind::Text {
            for (start, len) in tags_in_line(line) {
                add(&line[start + 1..start + len]);
            }
        }
    }
    found
}

/// True for the scripts written without spaces between words (Han, kana,
/// Hangul), which are compared by character n-grams.
pub fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{3040}'..='\u{30FF}'   // Hiragana, Katakana
        | '\u{3400}'..='\u{4DBF}' // CJK Extension A
        | '\u{4E00}'..='\u{9FFF}' // CJK Unified Ideographs
        | '\u{AC00}'..='\u{D7AF}' // Hangul syllables
        | '\u{F900}'..='\u{FAFF}' // CJK Compatibility Ideographs
        | '\u{20000}'..='\u{2FA1F}')
}

/// Words too common to say anything about a topic.
const STOP_WORDS: &[&str] = &[
    "the", "and", "for", "are", "but", "not", "you", "all", "any", "can", "had", "her", "was",
    "one", "our", "out", "has", "have", "his", "how", "its", "may", "new", "now", "see", "way",
    "who", "did", "get", "let", "use", "with", "this", "that", "from", "they", "will", "what",
    "when", "your", "been", "into", "than", "then", "them", "there", "these", "those", "also",
    "about", "which", "their", "would", "could", "should", "some", "more", "most", "other", "such",
    "only", "over", "just", "like", "very", "here", "each", "were", "does", "done", "der", "die",
    "das", "und", "les", "des", "une", "est", "pour", "que", "qui", "dans",
];

/// The terms text is compared by: words of three or more letters (lower
/// case, accents folded, stop words left out) and, for CJK runs, every
/// character bigram and trigram. `limit` bounds how many are produced.
pub fn terms(text: &str, limit: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut cjk: Vec<char> = Vec::new();
    let flush_word = |word: &mut String, out: &mut Vec<String>| {
        if word.chars().count() >= 3 && !STOP_WORDS.contains(&word.as_str()) {
            out.push(std::mem::take(word));
        } else {
            word.clear();
        }
    };
    let flush_cjk = |run: &mut Vec<char>, out: &mut Vec<String>| {
        if run.len() == 1 {
            out.push(run[0].to_string());
        }
        for n in [2, 3] {
            for gram in run.windows(n) {
                out.push(gram.iter().collect());
            }
        }
        run.clear();
    };
    for c in text.chars() {
        if out.len() >= limit {
            break;
        }
        if is_cjk(c) {
            flush_word(&mut word, &mut out);
            cjk.push(c);
        } else if c.is_alphanumeric() {
            if !cjk.is_empty() {
                flush_cjk(&mut cjk, &mut out);
            }
            for lower in c.to_lowercase() {
                fold_accent(lower, &mut word);
            }
        } else {
            flush_word(&mut word, &mut out);
            if !cjk.is_empty() {
                flush_cjk(&mut cjk, &mut out);
            }
        }
    }
    flush_word(&mut word, &mut out);
    if !cjk.is_empty() {
        flush_cjk(&mut cjk, &mut out);
    }
    out.truncate(limit);
    out
}

/// How often `phrase` (already normalised) occurs in `text` normalised the
/// same way, on word boundaries (for CJK: anywhere).
pub fn mentions(normalised_text: &str, phrase: &str) -> usize {
    if phrase.is_empty() {
        return 0;
    }
    let cjk = phrase.chars().any(is_cjk);
    normalised_text
        .match_indices(phrase)
        .filter(|(i, _)| {
            if cjk {
                return true;
            }
            let before = normalised_text[..*i].chars().next_back();
            let after = normalised_text[i + phrase.len()..].chars().next();
            before.is_none_or(|c| c == ' ') && after.is_none_or(|c| c == ' ')
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_normalise_case_accents_and_punctuation() {
        assert_eq!(normalise_title("Q3 Plan"), "q3 plan");
        assert_eq!(normalise_title("q3-plan!"), "q3 plan");
        assert_eq!(normalise_title("  Café ☕ "), "cafe");
        assert_eq!(normalise_title("Cafe\u{301}"), "cafe");
        assert_eq!(normalise_title("Straße"), "strasse");
        assert_eq!(normalise_title("会议 记录"), "会议 记录");
        assert_eq!(title_of("Projects/Q3 plan.md"), "Q3 plan");
    }

    #[test]
    fn body_links_and_tags() {
        let note = "---\ntags: [Project, q3]\n---\n# Plan #1\nSee [[Roadmap#Q2|the roadmap]] and ![[img.png]] #launch\n";
        assert_eq!(
            body(note),
            "# Plan #1\nSee [[Roadmap#Q2|the roadmap]] and ![[img.png]] #launch\n"
        );
        assert_eq!(links(note), vec!["Roadmap", "img.png"]);
        assert_eq!(tags(note), vec!["project", "q3", "launch"]);
        assert_eq!(
            tags("---\ntags:\n  - a\n  - b\nother: x\n---\n"),
            vec!["a", "b"]
        );
        assert_eq!(body("---\nunclosed"), "---\nunclosed");
    }

    #[test]
    fn tags_and_links_in_code_callouts_and_comments_do_not_count() {
        let note = "---\nrelated: \"[[Launch plan]]\"\n---\n> [!tip]\n> ```css\n> h1 { color: #ff0000; } [[InCode]]\n> ```\n| [[Basic formatting syntax\\|Markdown]] | `#inline` |\n<!-- #hidden [[Hidden]] -->\nSee [the roadmap](Projects/Road%20map.md#Q2) and [site](https://x.y/a.md) #real\n";
        assert_eq!(tags(note), vec!["real"]);
        assert_eq!(
            links(note),
            vec![
                "Launch plan",
                "Basic formatting syntax",
                "Projects/Road map.md"
            ]
        );
    }

    #[test]
    fn frontmatter_tags_in_the_shapes_real_vaults_write() {
        // The Obsidian Hub's templates leave an empty item; kepano's use emoji.
        assert_eq!(
            tags("---\naliases:\n- Ada\ntags:\n- \npublish: true\n---\n#real\n"),
            vec!["real"]
        );
        assert_eq!(
            tags("---\ntags:\n  - evergreen\n  - 0🌲\n---\n"),
            vec!["evergreen", "0🌲"]
        );
        assert_eq!(
            tags("---\r\ntags: [\"#a\", 'b']\r\n---\r\nText #c\r\n"),
            vec!["a", "b", "c"]
        );
        assert_eq!(tags("---\ntag: one, two\n---\n"), vec!["one", "two"]);
        // Not closed: no properties, and `tags:` is text.
        assert_eq!(tags("---\ntags: [x]\n#y\n"), vec!["y"]);
    }

    #[test]
    fn cjk_text_becomes_ngrams() {
        assert_eq!(
            terms("会议记录", 100),
            vec!["会议", "议记", "记录", "会议记", "议记录"]
        );
        assert_eq!(terms("The launch budget", 100), vec!["launch", "budget"]);
        assert_eq!(mentions("see q3 plan and q3 planning", "q3 plan"), 1);
        assert_eq!(mentions("关于会议记录的", "会议记录"), 1);
    }
}
