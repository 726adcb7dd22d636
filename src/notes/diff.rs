//! What a change does to a note, as the card shows it and the model reads it:
//! a unified line diff with a few lines of context, the changed words inside
//! changed lines, and counts. Computed with the `similar` crate (Myers' diff
//! with its inline refinement), built without its clock: the wasm target has
//! none, and a diff of a note is small enough not to need a deadline.

use serde::{Deserialize, Serialize};
use similar::{ChangeTag, TextDiff};

/// Lines of context around each change.
pub const CONTEXT_LINES: usize = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum LineKind {
    Context,
    Added,
    Removed,
}

/// A piece of a line; `changed` pieces are the words that differ.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Segment {
    pub text: String,
    pub changed: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DiffLine {
    pub kind: LineKind,
    /// 1-based line numbers in the note before and after.
    pub old_line: Option<usize>,
    pub new_line: Option<usize>,
    pub segments: Vec<Segment>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DiffHunk {
    /// `@@ -a,b +c,d @@`
    pub header: String,
    pub lines: Vec<DiffLine>,
}

/// The change to one note.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NoteDiff {
    pub added: usize,
    pub removed: usize,
    pub hunks: Vec<DiffHunk>,
}

impl NoteDiff {
    /// The diff between two versions of a note.
    pub fn between(before: &str, after: &str) -> NoteDiff {
        // Compare without CR so a CRLF note diffs by its lines, not its endings.
        let before = before.replace("\r\n", "\n");
        let after = after.replace("\r\n", "\n");
        let diff = TextDiff::from_lines(before.as_str(), after.as_str());
        let mut added = 0;
        let mut removed = 0;
        let mut hunks = Vec::new();
        for group in diff.grouped_ops(CONTEXT_LINES) {
            let (Some(first), Some(last)) = (group.first(), group.last()) else {
                continue;
            };
            let old = first.old_range().start..last.old_range().end;
            let new = first.new_range().start..last.new_range().end;
            let header = format!(
                "@@ -{} +{} @@",
                range_text(old.start, old.len()),
                range_text(new.start, new.len())
            );
            let mut lines = Vec::new();
            for op in &group {
                for change in diff.iter_inline_changes_deadline(op, None) {
                    let kind = match change.tag() {
                        ChangeTag::Equal => LineKind::Context,
                        ChangeTag::Insert => {
                            added += 1;
                            LineKind::Added
                        }
                        ChangeTag::Delete => {
                            removed += 1;
                            LineKind::Removed
                        }
                    };
                    let mut segments: Vec<Segment> = Vec::new();
                    for (changed, text) in change.iter_strings_lossy() {
                        let text = text.trim_end_matches('\n');
                        if text.is_empty() {
                            continue;
                        }
                        // Whole-line changes need no word emphasis.
                        let changed = changed && kind != LineKind::Context;
                        match segments.last_mut() {
                            Some(last) if last.changed == changed => last.text.push_str(text),
                            _ => segments.push(Segment {
                                text: text.to_string(),
                                changed,
                            }),
                        }
                    }
                    lines.push(DiffLine {
                        kind,
                        old_line: change.old_index().map(|i| i + 1),
                        new_line: change.new_index().map(|i| i + 1),
                        segments,
                    });
                }
            }
            hunks.push(DiffHunk { header, lines });
        }
        NoteDiff {
            added,
            removed,
            hunks,
        }
    }

    /// The diff as unified text (`+`, `-`, ` ` lines under `@@` headers),
    /// the form the model reads.
    pub fn unified(&self) -> String {
        let mut out = String::new();
        for hunk in &self.hunks {
            out.push_str(&hunk.header);
            out.push('\n');
            for line in &hunk.lines {
                out.push(match line.kind {
                    LineKind::Context => ' ',
                    LineKind::Added => '+',
                    LineKind::Removed => '-',
                });
                for segment in &line.segments {
                    out.push_str(&segment.text);
                }
                out.push('\n');
            }
        }
        out
    }

    /// "+2 −1 lines"
    pub fn counts(&self) -> String {
        format!("+{} −{} lines", self.added, self.removed)
    }

    pub fn is_empty(&self) -> bool {
        self.added == 0 && self.removed == 0
    }
}

fn range_text(start: usize, len: usize) -> String {
    if len == 1 {
        format!("{}", start + 1)
    } else if len == 0 {
        format!("{start},0")
    } else {
        format!("{},{len}", start + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_line_shows_its_changed_words_with_context() {
        let before = "a\nb\nc\nd\nThe vendor is late.\ne\nf\ng\nh\n";
        let after = "a\nb\nc\nd\nThe vendor is on time.\ne\nf\ng\nh\n";
        let diff = NoteDiff::between(before, after);
        assert_eq!((diff.added, diff.removed), (1, 1));
        assert_eq!(diff.counts(), "+1 −1 lines");
        assert_eq!(diff.hunks.len(), 1);
        let hunk = &diff.hunks[0];
        assert_eq!(hunk.header, "@@ -2,7 +2,7 @@");
        assert_eq!(hunk.lines.len(), 8, "3 context lines on each side");
        let removed = hunk
            .lines
            .iter()
            .find(|l| l.kind == LineKind::Removed)
            .unwrap();
        let changed: Vec<&str> = removed
            .segments
            .iter()
            .filter(|s| s.changed)
            .map(|s| s.text.as_str())
            .collect();
        // Words are split at spaces, so the changed word keeps its full stop.
        assert_eq!(changed.concat().trim(), "late.");
        assert_eq!(removed.old_line, Some(5));
        assert_eq!(
            diff.unified(),
            "@@ -2,7 +2,7 @@\n b\n c\n d\n-The vendor is late.\n+The vendor is on time.\n e\n f\n g\n"
        );
    }

    #[test]
    fn far_apart_changes_are_separate_hunks_and_appends_count() {
        let before: String = (1..=30).map(|i| format!("line {i}\n")).collect();
        let after = before.replace("line 2\n", "line two\n") + "added\n";
        let diff = NoteDiff::between(&before, &after);
        assert_eq!(diff.hunks.len(), 2);
        assert_eq!((diff.added, diff.removed), (2, 1));
        assert!(
            diff.hunks[1].header.starts_with("@@ -28,3 +28,4 @@"),
            "{}",
            diff.hunks[1].header
        );
        assert!(NoteDiff::between("same\n", "same\n").is_empty());
    }

    #[test]
    fn crlf_and_lf_versions_of_a_note_differ_only_where_the_text_does() {
        let diff = NoteDiff::between("a\r\nb\r\n", "a\r\nc\r\n");
        assert_eq!((diff.added, diff.removed), (1, 1));
        assert!(!diff.unified().contains('\r'));
    }

    #[test]
    fn a_new_note_is_all_added() {
        let diff = NoteDiff::between("", "# Q3 plan\n## Goals\n");
        assert_eq!((diff.added, diff.removed), (2, 0));
        assert_eq!(diff.hunks[0].header, "@@ -0,0 +1,2 @@");
    }
}
