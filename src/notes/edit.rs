//! Edits to an existing note, described (never a whole new file from the
//! model) and computed from the note as it is now. Each returns the new text
//! or says precisely why it cannot, with what would help the model retry.
//! Line endings follow the note (CRLF stays CRLF).

use sha2::Digest;

use super::headings::{find_section, frontmatter_end, line_ending, lines, HeadingProblem, Section};

/// One described change to a note's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoteEdit {
    /// Exact `find` text → `with`; every occurrence only with `all`.
    Replace {
        find: String,
        with: String,
        all: bool,
    },
    /// The body under a heading (the heading line itself stays).
    ReplaceSection { heading: String, body: String },
    /// Text right after the heading line.
    InsertAfterHeading { heading: String, text: String },
    /// Text at the end of the section, before the blank lines that end it.
    AppendToSection { heading: String, text: String },
    /// A tag in the frontmatter's `tags` list or inline.
    AddTag {
        tag: String,
        place: super::tags::TagPlace,
    },
    /// A tag, from the list and from the text.
    RemoveTag { tag: String },
    /// The one line holding `find` becomes the line `with`, or is removed
    /// with its line ending when `with` is `None` (memory lines: a fact is
    /// one line, whatever the model copied of it).
    Line { find: String, with: Option<String> },
    /// Exactly the bytes `start..end` (the user's selection, `was`) become
    /// `with`, only while the whole note is still the text it was when the
    /// user selected it (its SHA-256, `note_sha256`).
    Range {
        start: usize,
        end: usize,
        was: String,
        with: String,
        note_sha256: String,
    },
}

/// Why an edit cannot be made; nothing is changed in any of these cases.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditProblem {
    /// `find` is not in the note; lines that hold it in another letter case
    /// or spacing, 1-based, if any.
    FindNotFound {
        near: Vec<usize>,
    },
    /// `find` occurs more than once; the 1-based lines of each occurrence.
    FindAmbiguous {
        lines: Vec<usize>,
    },
    Heading(HeadingProblem),
    /// `find` is empty.
    EmptyFind,
    /// The note is no longer the text the user selected from (`Range`).
    SelectionChanged,
}

/// The note after `edit`.
pub fn apply(note: &str, edit: &NoteEdit) -> Result<String, EditProblem> {
    let eol = line_ending(note);
    match edit {
        NoteEdit::AddTag { tag, place } => Ok(super::tags::add_tag(note, tag, *place)),
        NoteEdit::RemoveTag { tag } => Ok(super::tags::remove_tag(note, tag)),
        NoteEdit::Range {
            start,
            end,
            was,
            with,
            note_sha256,
        } => {
            let hash: String = sha2::Sha256::digest(note.as_bytes())
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            match note.get(*start..*end) {
                Some(text) if text == was && hash == *note_sha256 => {
                    Ok(format!("{}{with}{}", &note[..*start], &note[*end..]))
                }
                _ => Err(EditProblem::SelectionChanged),
            }
        }
        NoteEdit::Line { find, with } => {
            let find = find.trim();
            if find.is_empty() {
                return Err(EditProblem::EmptyFind);
            }
            let all = lines(note);
            let at: Vec<usize> = (0..all.len()).filter(|&i| all[i].contains(find)).collect();
            match at[..] {
                [] => Err(EditProblem::FindNotFound {
                    near: near_lines(note, find),
                }),
                [line] => {
                    let block = match with {
                        Some(text) => block_of(text, eol),
                        None => String::new(),
                    };
                    let mut after = splice(note, line, line + 1, &block);
                    // The last line had no ending: neither has its replacement.
                    if !note.ends_with('\n') && line + 1 == all.len() {
                        if let Some(kept) = after.strip_suffix(eol) {
                            after.truncate(kept.len());
                        }
                    }
                    Ok(after)
                }
                _ => Err(EditProblem::FindAmbiguous {
                    lines: at.iter().map(|i| i + 1).collect(),
                }),
            }
        }
        NoteEdit::Replace { find, with, all } => {
            if find.is_empty() {
                return Err(EditProblem::EmptyFind);
            }
            let find = with_line_ending(find, eol);
            let with = with_line_ending(with, eol);
            let at: Vec<usize> = note.match_indices(find.as_str()).map(|(i, _)| i).collect();
            match at.len() {
                0 => Err(EditProblem::FindNotFound {
                    near: near_lines(note, &find),
                }),
                1 => Ok(note.replacen(find.as_str(), &with, 1)),
                _ if *all => Ok(note.replace(find.as_str(), &with)),
                _ => Err(EditProblem::FindAmbiguous {
                    lines: at.iter().map(|i| line_of(note, *i)).collect(),
                }),
            }
        }
        NoteEdit::ReplaceSection { heading, body } => {
            let section = find_section(note, heading).map_err(EditProblem::Heading)?;
            let body_end = content_end(note, &section);
            let mut block = with_line_ending(body.trim_end_matches(['\n', '\r']), eol);
            if !block.is_empty() {
                block.push_str(eol);
            }
            Ok(splice(note, section.heading.body_start, body_end, &block))
        }
        NoteEdit::InsertAfterHeading { heading, text } => {
            let section = find_section(note, heading).map_err(EditProblem::Heading)?;
            let start = section.heading.body_start;
            Ok(splice(note, start, start, &block_of(text, eol)))
        }
        NoteEdit::AppendToSection { heading, text } => {
            let section = find_section(note, heading).map_err(EditProblem::Heading)?;
            let end = content_end(note, &section);
            Ok(splice(note, end, end, &block_of(text, eol)))
        }
    }
}

fn with_line_ending(text: &str, eol: &str) -> String {
    if eol == "\n" {
        return text.to_string();
    }
    text.replace("\r\n", "\n").replace('\n', eol)
}

/// Inserted text as whole lines.
fn block_of(text: &str, eol: &str) -> String {
    let mut block = with_line_ending(text.trim_end_matches(['\n', '\r']), eol);
    block.push_str(eol);
    block
}

/// The line after the section's last non-blank line (never before its body).
fn content_end(note: &str, section: &Section) -> usize {
    let all = lines(note);
    let mut end = section.end.min(all.len());
    while end > section.heading.body_start && all[end - 1].trim().is_empty() {
        end -= 1;
    }
    end
}

/// Replaces lines `from..to` (0-based) with `block` (whole lines, with endings).
fn splice(note: &str, from: usize, to: usize, block: &str) -> String {
    let starts: Vec<usize> = std::iter::once(0)
        .chain(note.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let offset = |line: usize| {
        starts
            .get(line)
            .copied()
            .unwrap_or(note.len())
            .min(note.len())
    };
    let (a, b) = (offset(from), offset(to));
    let mut out = String::with_capacity(note.len() + block.len());
    out.push_str(&note[..a]);
    // A note without a final newline: keep the last line whole before inserting.
    if a == note.len() && !note.is_empty() && !note.ends_with('\n') && !block.is_empty() {
        out.push_str(line_ending(note));
    }
    out.push_str(block);
    out.push_str(&note[b..]);
    out
}

fn line_of(note: &str, byte: usize) -> usize {
    note[..byte].matches('\n').count() + 1
}

/// Lines that hold `find` when case and runs of spaces are ignored.
fn near_lines(note: &str, find: &str) -> Vec<usize> {
    let squash = |s: &str| {
        s.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let first = find.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let wanted = squash(first);
    if wanted.is_empty() {
        return Vec::new();
    }
    lines(note)
        .iter()
        .enumerate()
        .filter(|(_, l)| squash(l).contains(&wanted))
        .map(|(i, _)| i + 1)
        .take(5)
        .collect()
}

/// The 0-based line where the body starts (after any frontmatter): where a
/// `prepend` lands, as the CLI's own prepend does.
pub fn body_start(note: &str) -> usize {
    frontmatter_end(&lines(note))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_line_is_replaced_or_removed_whole() {
        let line = |find: &str, with: Option<&str>| NoteEdit::Line {
            find: find.into(),
            with: with.map(str::to_string),
        };
        let note = "# Memory\n- Prefers tea. (2026-12-07)\n- Lives in Oslo.\n";
        assert_eq!(
            apply(note, &line("Prefers tea.", Some("- Prefers coffee."))).unwrap(),
            "# Memory\n- Prefers coffee.\n- Lives in Oslo.\n"
        );
        assert_eq!(
            apply(note, &line("Lives in Oslo", None)).unwrap(),
            "# Memory\n- Prefers tea. (2026-12-07)\n"
        );
        // The last line without an ending keeps none.
        assert_eq!(apply("a\r\nb", &line("b", None)).unwrap(), "a");
        assert_eq!(apply("a\r\nb", &line("b", Some("c"))).unwrap(), "a\r\nc");
        assert_eq!(
            apply(note, &line("- ", None)),
            Err(EditProblem::FindAmbiguous { lines: vec![2, 3] })
        );
        assert!(matches!(
            apply(note, &line("prefers TEA.", None)),
            Err(EditProblem::FindNotFound { near }) if near == vec![2]
        ));
        assert_eq!(apply(note, &line(" ", None)), Err(EditProblem::EmptyFind));
    }

    use super::*;

    const NOTE: &str = "---\ntags: [plan]\n---\n# Plan\nIntro\n\n## Risks\nLate vendor\nLate vendor\n\n## Goals\nShip\n";

    fn replace(find: &str, with: &str, all: bool) -> NoteEdit {
        NoteEdit::Replace {
            find: find.into(),
            with: with.into(),
            all,
        }
    }

    #[test]
    fn a_range_edit_changes_only_the_selected_bytes_of_the_selected_text() {
        let hash = |t: &str| -> String {
            sha2::Sha256::digest(t.as_bytes())
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect()
        };
        // The second "Late vendor", not the first: offsets decide, not a search.
        let start = NOTE.rfind("Late vendor").unwrap();
        let range = |note_sha256: String| NoteEdit::Range {
            start,
            end: start + "Late vendor".len(),
            was: "Late vendor".into(),
            with: "Vendor on time".into(),
            note_sha256,
        };
        let after = apply(NOTE, &range(hash(NOTE))).unwrap();
        assert_eq!(
            after,
            format!("{}Vendor on time{}", &NOTE[..start], &NOTE[start + 11..])
        );
        assert_eq!(after.matches("Late vendor").count(), 1);
        // Any change to the note since the selection refuses it, even one elsewhere.
        let typed = NOTE.replace("Ship", "Ship it");
        assert_eq!(
            apply(&typed, &range(hash(NOTE))),
            Err(EditProblem::SelectionChanged)
        );
        // Offsets that do not hold the selected text (or split a character) refuse too.
        let moved = NoteEdit::Range {
            start: 1,
            end: 12,
            was: "Late vendor".into(),
            with: "x".into(),
            note_sha256: hash(NOTE),
        };
        assert_eq!(apply(NOTE, &moved), Err(EditProblem::SelectionChanged));
        let split = NoteEdit::Range {
            start: 1,
            end: 2,
            was: "é".into(),
            with: "e".into(),
            note_sha256: hash("éa"),
        };
        assert_eq!(apply("éa", &split), Err(EditProblem::SelectionChanged));
    }

    #[test]
    fn replace_needs_exactly_one_match_unless_all() {
        assert_eq!(
            apply(NOTE, &replace("Intro", "Overview", false)).unwrap(),
            NOTE.replace("Intro", "Overview")
        );
        assert_eq!(
            apply(NOTE, &replace("Late vendor", "x", false)),
            Err(EditProblem::FindAmbiguous { lines: vec![8, 9] })
        );
        assert_eq!(
            apply(NOTE, &replace("Late vendor", "On time", true)).unwrap(),
            NOTE.replace("Late vendor", "On time")
        );
        assert_eq!(
            apply(NOTE, &replace("late  VENDOR", "x", false)),
            Err(EditProblem::FindNotFound { near: vec![8, 9] })
        );
        assert_eq!(
            apply(NOTE, &replace("", "x", false)),
            Err(EditProblem::EmptyFind)
        );
    }

    #[test]
    fn sections_are_replaced_and_extended_in_place() {
        let edit = NoteEdit::ReplaceSection {
            heading: "Plan::Risks".into(),
            body: "None left.\n".into(),
        };
        assert_eq!(
            apply(NOTE, &edit).unwrap(),
            "---\ntags: [plan]\n---\n# Plan\nIntro\n\n## Risks\nNone left.\n\n## Goals\nShip\n"
        );
        let edit = NoteEdit::AppendToSection {
            heading: "Risks".into(),
            text: "- Budget".into(),
        };
        assert_eq!(
            apply(NOTE, &edit).unwrap(),
            "---\ntags: [plan]\n---\n# Plan\nIntro\n\n## Risks\nLate vendor\nLate vendor\n- Budget\n\n## Goals\nShip\n"
        );
        let edit = NoteEdit::InsertAfterHeading {
            heading: "Goals".into(),
            text: "First:".into(),
        };
        assert!(apply(NOTE, &edit)
            .unwrap()
            .ends_with("## Goals\nFirst:\nShip\n"));
        let edit = NoteEdit::AppendToSection {
            heading: "Goals".into(),
            text: "Celebrate".into(),
        };
        assert!(apply(NOTE, &edit)
            .unwrap()
            .ends_with("## Goals\nShip\nCelebrate\n"));
    }

    #[test]
    fn missing_headings_list_the_ones_that_exist() {
        let edit = NoteEdit::ReplaceSection {
            heading: "Budget".into(),
            body: "x".into(),
        };
        match apply(NOTE, &edit) {
            Err(EditProblem::Heading(HeadingProblem::NotFound { headings })) => {
                assert_eq!(headings, ["Plan", "Plan::Risks", "Plan::Goals"])
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn crlf_notes_stay_crlf() {
        let crlf = NOTE.replace('\n', "\r\n");
        let edit = NoteEdit::AppendToSection {
            heading: "Risks".into(),
            text: "- Budget\n- Staff".into(),
        };
        let after = apply(&crlf, &edit).unwrap();
        assert!(
            after.contains("Late vendor\r\n- Budget\r\n- Staff\r\n\r\n## Goals"),
            "{after:?}"
        );
        assert!(
            !after.replace("\r\n", "").contains('\n'),
            "no bare LF: {after:?}"
        );
        let replaced = apply(&crlf, &replace("Intro\n", "Overview\n", false)).unwrap();
        assert!(replaced.contains("# Plan\r\nOverview\r\n"), "{replaced:?}");
    }

    #[test]
    fn a_last_line_without_newline_stays_whole() {
        let note = "# A\ntext";
        let edit = NoteEdit::AppendToSection {
            heading: "A".into(),
            text: "more".into(),
        };
        assert_eq!(apply(note, &edit).unwrap(), "# A\ntext\nmore\n");
        let empty_section = "# A\n# B\n";
        let edit = NoteEdit::ReplaceSection {
            heading: "A".into(),
            body: "filled".into(),
        };
        assert_eq!(apply(empty_section, &edit).unwrap(), "# A\nfilled\n# B\n");
    }

    #[test]
    fn non_ascii_and_an_empty_note() {
        let note = "# Café ☕\n日本語のメモ\n";
        let edit = replace("日本語", "英語", false);
        assert_eq!(apply(note, &edit).unwrap(), "# Café ☕\n英語のメモ\n");
        let edit = NoteEdit::AppendToSection {
            heading: "café ☕".into(),
            text: "✓".into(),
        };
        assert_eq!(apply(note, &edit).unwrap(), "# Café ☕\n日本語のメモ\n✓\n");
        assert!(matches!(
            apply("", &replace("x", "y", false)),
            Err(EditProblem::FindNotFound { .. })
        ));
        assert_eq!(body_start(NOTE), 3);
        assert_eq!(body_start("no frontmatter"), 0);
    }

    #[test]
    fn a_two_megabyte_note_is_edited_quickly_and_exactly() {
        let mut note = String::from("# Big\n");
        for i in 0..52_000 {
            note.push_str(&format!("line {i} with some words to fill it up\n"));
        }
        note.push_str("## End\nthe end\n");
        assert!(note.len() > 2_000_000);
        let after = apply(&note, &replace("line 39999 with", "last line with", false)).unwrap();
        assert_eq!(after.len(), note.len() - 1);
        assert!(after.contains("\nlast line with some words") && !after.contains("line 39999 "));
        let after = apply(
            &note,
            &NoteEdit::ReplaceSection {
                heading: "End".into(),
                body: "changed".into(),
            },
        )
        .unwrap();
        assert!(after.ends_with("## End\nchanged\n"));
    }
}
