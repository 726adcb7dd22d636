//! Argument pieces several tools share: how a note is named, output formats,
//! and the checks that go with them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::base::vault_path::{check_note_name, check_vault_path};

/// `format=json|tsv|csv`, for list commands that offer it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum TableFormat {
    Json,
    Tsv,
    Csv,
}

/// `sort=count`: most used first instead of by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SortOrder {
    Count,
}

/// Checks a `file` / `path` pair: at most one of them, each well formed.
/// Both are normalised in place (see `policy::paths`).
pub fn check_note_target(
    file: &mut Option<String>,
    path: &mut Option<String>,
) -> Result<(), String> {
    match (file, path) {
        (Some(_), Some(_)) => Err(
            "give `file` (a note name, resolved like a wikilink) or `path` (the exact path), not both"
                .into(),
        ),
        (Some(file), None) => check_note_name("file", file),
        (None, Some(path)) => check_vault_path("path", path),
        (None, None) => Ok(()),
    }
}

/// Like `check_note_target`, but one of them is required.
pub fn require_note_target(
    file: &mut Option<String>,
    path: &mut Option<String>,
    what: &str,
) -> Result<(), String> {
    if file.is_none() && path.is_none() {
        return Err(format!(
            "name the {what} with `file` (its name, like a wikilink) or `path` (the exact path from the vault root)"
        ));
    }
    check_note_target(file, path)
}

/// The note a `file` / `path` pair names, in words; `None` when neither is set
/// (the CLI would use the note open in Obsidian).
pub fn describe_note(file: &Option<String>, path: &Option<String>) -> Option<String> {
    match (file, path) {
        (_, Some(path)) => Some(format!("\"{path}\"")),
        (Some(file), None) => Some(format!("note \"{file}\"")),
        (None, None) => None,
    }
}

/// Required text must carry something besides whitespace.
pub fn check_not_blank(key: &str, value: &str) -> Result<(), String> {
    if value.trim().is_empty() {
        Err(format!("`{key}` is empty; give the text to use"))
    } else {
        Ok(())
    }
}

/// A task status is exactly one character, as in `- [x]`.
pub fn check_status_char(key: &str, value: &str) -> Result<char, String> {
    let mut chars = value.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if !c.is_control() && c != ']' && c != '[' => Ok(c),
        _ => Err(format!(
            "`{key}` must be one status character such as \"x\", \" \", \"/\" or \"-\"; got {value:?}"
        )),
    }
}

/// True when `name` matches `pattern`, ignoring case: `*` any run of
/// characters, `?` one character. Greedy with one backtrack point, so it
/// takes at most (pattern × name) steps whatever the pattern.
pub fn glob_matches(pattern: &str, name: &str) -> bool {
    let pattern: Vec<char> = pattern.to_lowercase().chars().collect();
    let name: Vec<char> = name.to_lowercase().chars().collect();
    let (mut p, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        match pattern.get(p) {
            Some('*') => {
                star = Some((p, n));
                p += 1;
            }
            Some(&c) if c == '?' || c == name[n] => {
                p += 1;
                n += 1;
            }
            _ => match star {
                Some((star_p, star_n)) => {
                    p = star_p + 1;
                    n = star_n + 1;
                    star = Some((star_p, star_n + 1));
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|c| *c == '*')
}

/// Entries a paged listing shows by default, and at most: the CLI lists a
/// vault of 100 000 notes whole, the model reads it a page at a time.
pub const PAGE_DEFAULT: u32 = 200;
pub const PAGE_MAX: u32 = 1000;

pub fn default_page() -> u32 {
    PAGE_DEFAULT
}

/// `limit` of a paged listing: 1 to [`PAGE_MAX`].
pub fn check_page_limit(limit: u32) -> Result<(), String> {
    if (1..=PAGE_MAX).contains(&limit) {
        Ok(())
    } else {
        Err(format!(
            "`limit` must be between 1 and {PAGE_MAX}; got {limit}"
        ))
    }
}

/// One page of the CLI's listing, a line an entry (blank lines dropped).
pub fn page_lines(output: &str, offset: u32, limit: u32, what: &str) -> super::Presented {
    let lines: Vec<&str> = output
        .lines()
        .filter(|line| !line.trim().is_empty())
        .collect();
    page_note(&lines, offset, limit, what)
}

/// One page of `entries` and the line that says where it lies in the whole
/// and what to send for the next one (no line when it is all there is).
pub fn page_note(entries: &[&str], offset: u32, limit: u32, what: &str) -> super::Presented {
    let total = entries.len();
    let start = (offset as usize).min(total);
    let end = start.saturating_add(limit as usize).min(total);
    let mut text = entries[start..end].join("\n");
    if !text.is_empty() {
        text.push('\n');
    }
    let note = if start == 0 && end == total {
        None
    } else if start == end {
        Some(format!(
            "[No {what} from offset {offset}: there are {total}.]"
        ))
    } else if end < total {
        Some(format!(
            "[{what} {}-{end} of {total}; for the next page send offset={end}.]",
            start + 1
        ))
    } else {
        Some(format!(
            "[{what} {}-{end} of {total}; that is the last page.]",
            start + 1
        ))
    };
    super::Presented { text, note }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn note_targets() {
        let s = |v: &str| Some(v.to_string());
        assert!(check_note_target(&mut None, &mut None).is_ok());
        assert!(check_note_target(&mut s("Plan"), &mut None).is_ok());
        let mut path = s(" Projects/Plan.md ");
        assert!(check_note_target(&mut None, &mut path).is_ok());
        assert_eq!(
            path.as_deref(),
            Some("Projects/Plan.md"),
            "normalised in place"
        );
        assert!(check_note_target(&mut s("Plan"), &mut s("Plan.md"))
            .unwrap_err()
            .contains("not both"));
        assert!(check_note_target(&mut None, &mut s("../x.md")).is_err());
        assert!(require_note_target(&mut None, &mut None, "base")
            .unwrap_err()
            .contains("name the base"));
        assert_eq!(describe_note(&s("Plan"), &None).unwrap(), "note \"Plan\"");
        assert_eq!(describe_note(&None, &None), None);
    }

    #[test]
    fn name_patterns() {
        for (pattern, name, expected) in [
            ("*meeting*", "2026 Team Meeting.md", true),
            ("2026-??-*", "2026-03-01.md", true),
            ("2026-??-*", "2026-3-01.md", false),
            ("*.md", "Plan.canvas", false),
            ("Plan", "plan", true),
            ("a*b*c", "axxbyyc", true),
            ("a*b*c", "axxbyy", false),
            ("*", "", true),
            ("Café*", "CAFÉ ☕.md", true),
        ] {
            assert_eq!(glob_matches(pattern, name), expected, "{pattern} {name}");
        }
        // A pattern that backtracks badly in naive matchers stays quick.
        let name = "a".repeat(5000);
        assert!(!glob_matches(&format!("{}b", "a*".repeat(100)), &name));
    }

    #[test]
    fn pages_say_where_they_are_and_what_comes_next() {
        let entries = ["a", "b", "c", "d", "e"];
        let page = page_note(&entries, 0, 2, "files");
        assert_eq!(page.text, "a\nb\n");
        assert_eq!(
            page.note.as_deref(),
            Some("[files 1-2 of 5; for the next page send offset=2.]")
        );
        let last = page_note(&entries, 4, 2, "files");
        assert_eq!(
            (last.text.as_str(), last.note.as_deref()),
            ("e\n", Some("[files 5-5 of 5; that is the last page.]"))
        );
        assert_eq!(page_note(&entries, 0, 10, "files").note, None);
        let past = page_note(&entries, 9, 2, "files");
        assert_eq!(
            (past.text.as_str(), past.note.as_deref()),
            ("", Some("[No files from offset 9: there are 5.]"))
        );
    }

    #[test]
    fn status_characters() {
        assert_eq!(check_status_char("status", "x"), Ok('x'));
        assert_eq!(check_status_char("status", " "), Ok(' '));
        assert_eq!(check_status_char("status", "é"), Ok('é'));
        for bad in ["", "xx", "]", "\n"] {
            assert!(check_status_char("status", bad).is_err(), "{bad:?}");
        }
    }
}
