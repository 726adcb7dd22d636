//! Argument pieces several tools share: how a note is named, output formats,
//! and the checks that go with them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::policy::paths::{check_note_name, check_vault_path};

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
    fn status_characters() {
        assert_eq!(check_status_char("status", "x"), Ok('x'));
        assert_eq!(check_status_char("status", " "), Ok(' '));
        assert_eq!(check_status_char("status", "é"), Ok('é'));
        for bad in ["", "xx", "]", "\n"] {
            assert!(check_status_char("status", bad).is_err(), "{bad:?}");
        }
    }
}
