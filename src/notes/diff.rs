//! What a change does to a note, as the card shows it and the model reads it:
//! a unified line diff with a few lines of context, the changed words inside
//! changed lines, and counts. The differences come from the `similar` crate's
//! Myers algorithm, called directly on line (and word) slices: its `TextDiff`
//! layer compiles every algorithm and its inline refinement, which cost 135 KB
//! of main.js. Built without its clock (wasm32 has none).

use crate::base::diff::{DiffHunk, DiffLine, LineKind, NoteDiff, Segment};
use similar::algorithms::{myers, Capture, Replace};
use similar::{group_diff_ops, DiffOp};

/// Lines of context around each change.
pub const CONTEXT_LINES: usize = 3;

impl NoteDiff {
    /// The diff between two versions of a note.
    pub fn between(before: &str, after: &str) -> NoteDiff {
        // Compare without CR so a CRLF note diffs by its lines, not its endings.
        let before = before.replace("\r\n", "\n");
        let after = after.replace("\r\n", "\n");
        let old: Vec<&str> = before.lines().collect();
        let new: Vec<&str> = after.lines().collect();
        let mut added = 0;
        let mut removed = 0;
        let mut hunks = Vec::new();
        for group in group_diff_ops(differences(&old, &new), CONTEXT_LINES) {
            let (Some(first), Some(last)) = (group.first(), group.last()) else {
                continue;
            };
            let old_range = first.old_range().start..last.old_range().end;
            let new_range = first.new_range().start..last.new_range().end;
            let header = format!(
                "@@ -{} +{} @@",
                range_text(old_range.start, old_range.len()),
                range_text(new_range.start, new_range.len())
            );
            let mut lines = Vec::new();
            for op in &group {
                let (olds, news) = (op.old_range(), op.new_range());
                if let DiffOp::Equal { .. } = op {
                    for (o, n) in olds.zip(news) {
                        lines.push(DiffLine::plain(LineKind::Context, Some(o), Some(n), old[o]));
                    }
                    continue;
                }
                removed += olds.len();
                added += news.len();
                // A removed line and an added line that say mostly the same get
                // their changed words marked; the rest are plain lines.
                let pairs = pair_lines(&old, olds.clone(), &new, news.clone());
                let mut removed_lines = Vec::new();
                let mut added_lines = Vec::new();
                for o in olds.clone() {
                    let segments = match pairs.iter().find(|p| p.0 == o) {
                        Some((_, _, (old_segments, _))) => old_segments.clone(),
                        None => whole(old[o]),
                    };
                    removed_lines.push(DiffLine::new(LineKind::Removed, Some(o), None, segments));
                }
                for n in news.clone() {
                    let segments = match pairs.iter().find(|p| p.1 == n) {
                        Some((_, _, (_, new_segments))) => new_segments.clone(),
                        None => whole(new[n]),
                    };
                    added_lines.push(DiffLine::new(LineKind::Added, None, Some(n), segments));
                }
                lines.extend(removed_lines);
                lines.extend(added_lines);
            }
            // 1-based; a hunk that only removes the note's last lines starts after them.
            let label = format!("Line {}", new_range.start + 1);
            hunks.push(DiffHunk {
                header,
                label,
                lines,
            });
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

impl DiffLine {
    fn new(kind: LineKind, old: Option<usize>, new: Option<usize>, segments: Vec<Segment>) -> Self {
        DiffLine {
            kind,
            old_line: old.map(|i| i + 1),
            new_line: new.map(|i| i + 1),
            segments,
        }
    }

    fn plain(kind: LineKind, old: Option<usize>, new: Option<usize>, text: &str) -> Self {
        let segments = if text.is_empty() {
            Vec::new()
        } else {
            vec![Segment {
                text: text.to_string(),
                changed: false,
            }]
        };
        DiffLine::new(kind, old, new, segments)
    }
}

/// Myers' differences between two slices, runs of deletes and inserts
/// joined into replacements.
pub(super) fn differences(old: &[&str], new: &[&str]) -> Vec<DiffOp> {
    let mut hook = Replace::new(Capture::new());
    // Capture's hook cannot fail.
    let _ = myers::diff(&mut hook, old, 0..old.len(), new, 0..new.len());
    hook.into_inner().into_ops()
}

/// A whole line that was added or removed (no word emphasis needed).
fn whole(text: &str) -> Vec<Segment> {
    if text.is_empty() {
        return Vec::new();
    }
    vec![Segment {
        text: text.to_string(),
        changed: false,
    }]
}

/// Words and the spaces between them, as separate tokens.
pub(super) fn words(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut last_space: Option<bool> = None;
    for (i, c) in line.char_indices() {
        let space = c.is_whitespace();
        if last_space.is_some_and(|l| l != space) {
            out.push(&line[start..i]);
            start = i;
        }
        last_space = Some(space);
    }
    if start < line.len() {
        out.push(&line[start..]);
    }
    out
}

/// The most line pairs a replaced block is searched for (each pair is a word diff).
const MAX_PAIR_TRIES: usize = 400;

/// Which removed and added lines of a replaced block are one line changed:
/// in order, each added line with the next removed line it mostly keeps.
/// Lines at the same place are not assumed to be related.
#[allow(clippy::type_complexity)]
fn pair_lines(
    old: &[&str],
    olds: std::ops::Range<usize>,
    new: &[&str],
    news: std::ops::Range<usize>,
) -> Vec<(usize, usize, (Vec<Segment>, Vec<Segment>))> {
    let mut pairs = Vec::new();
    let mut next_old = olds.start;
    let mut tries = 0;
    for n in news {
        for (o, old_line) in old.iter().enumerate().take(olds.end).skip(next_old) {
            tries += 1;
            if tries > MAX_PAIR_TRIES {
                return pairs;
            }
            if let Some(segments) = word_segments(old_line, new[n]) {
                pairs.push((o, n, segments));
                next_old = o + 1;
                break;
            }
        }
    }
    pairs
}

/// Both lines as segments, the words that differ marked `changed`, or
/// None when the two lines are unrelated.
fn word_segments(old_line: &str, new_line: &str) -> Option<(Vec<Segment>, Vec<Segment>)> {
    let old = words(old_line);
    let new = words(new_line);
    let mut old_changed = vec![true; old.len()];
    let mut new_changed = vec![true; new.len()];
    for op in differences(&old, &new) {
        if let DiffOp::Equal {
            old_index,
            new_index,
            len,
        } = op
        {
            old_changed[old_index..old_index + len].fill(false);
            new_changed[new_index..new_index + len].fill(false);
        }
    }
    // A pair that keeps less than a third of its text is two unrelated lines
    // that happen to stand at the same place: marking "changed" words in
    // them would colour nearly everything, so they show as plain lines.
    if kept_share(&old, &old_changed, &new, &new_changed) < MIN_KEPT_SHARE {
        return None;
    }
    join_changed_runs(&old, &mut old_changed);
    join_changed_runs(&new, &mut new_changed);
    Some((segments(&old, &old_changed), segments(&new, &new_changed)))
}

/// The least share of a line pair's text (spaces aside) that must stay the
/// same for its changed words to be marked. A third: "Ship the beta." →
/// "Ship 1.0." keeps 40 % and is one line changed; lines that only stand at
/// the same place share a word or none.
pub(super) const MIN_KEPT_SHARE: f64 = 0.3;

/// The share of both lines' characters (spaces aside) in unchanged words.
pub(super) fn kept_share(
    old: &[&str],
    old_changed: &[bool],
    new: &[&str],
    new_changed: &[bool],
) -> f64 {
    let length = |tokens: &[&str], which: &dyn Fn(usize) -> bool| -> usize {
        tokens
            .iter()
            .enumerate()
            .filter(|(i, t)| which(*i) && !t.trim().is_empty())
            .map(|(_, t)| t.chars().count())
            .sum()
    };
    let total = length(old, &|_| true) + length(new, &|_| true);
    if total == 0 {
        return 1.0;
    }
    let kept = length(old, &|i| !old_changed[i]) + length(new, &|i| !new_changed[i]);
    kept as f64 / total as f64
}

/// A space between two changed words is part of the change: "on time." is
/// one highlight, not two blocks with an unmarked gap.
fn join_changed_runs(tokens: &[&str], changed: &mut [bool]) {
    for i in 1..tokens.len().saturating_sub(1) {
        if tokens[i].trim().is_empty() && changed[i - 1] && changed[i + 1] {
            changed[i] = true;
        }
    }
    // Spaces alone that differ at a line's ends are not a change worth a mark.
    for i in [0, tokens.len().saturating_sub(1)] {
        if tokens.get(i).is_some_and(|t| t.trim().is_empty()) {
            changed[i] = false;
        }
    }
}

fn segments(tokens: &[&str], changed: &[bool]) -> Vec<Segment> {
    let mut out: Vec<Segment> = Vec::new();
    for (token, &changed) in tokens.iter().zip(changed) {
        match out.last_mut() {
            Some(last) if last.changed == changed => last.text.push_str(token),
            _ => out.push(Segment {
                text: (*token).to_string(),
                changed,
            }),
        }
    }
    out
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
    fn hunks_are_labelled_by_line_and_only_changed_words_are_marked() {
        let before: String = (1..=30)
            .map(|i| format!("The vendor of item {i} is late.\n"))
            .collect();
        let after = before.replace("item 20 is late.\n", "item 20 is on time.\n");
        let diff = NoteDiff::between(&before, &after);
        assert_eq!(diff.hunks[0].label, "Line 17", "{}", diff.hunks[0].header);
        let marked = |kind: LineKind| -> Vec<String> {
            let line = diff.hunks[0].lines.iter().find(|l| l.kind == kind).unwrap();
            line.segments
                .iter()
                .filter(|s| s.changed)
                .map(|s| s.text.clone())
                .collect()
        };
        // One run for "on time.": no unmarked gap between changed words.
        assert_eq!(marked(LineKind::Added), ["on time."]);
        assert_eq!(marked(LineKind::Removed), ["late."]);
    }

    #[test]
    fn an_unrelated_line_pair_is_plain_removed_and_added_lines() {
        let before = "# Goals\n- Ship the plugin to the community directory.\n- Keep the first-run experience under two minutes.\n";
        let after = "# Goals\n- Goal 1: answer every review within a week.\n- Keep the first-run experience under three minutes.\n";
        let diff = NoteDiff::between(before, after);
        let marked: Vec<Vec<String>> = diff.hunks[0]
            .lines
            .iter()
            .filter(|l| l.kind != LineKind::Context)
            .map(|l| {
                l.segments
                    .iter()
                    .filter(|s| s.changed)
                    .map(|s| s.text.clone())
                    .collect()
            })
            .collect();
        // Lines 2 share nothing but "-": no word marked, as plain removed/added lines.
        // Lines 3 differ in one word: only that word is marked.
        // (Paired by what they say, not by where they stand: see below.)
        assert_eq!(
            marked,
            [
                vec![],
                vec!["two".to_string()],
                vec![],
                vec!["three".to_string()]
            ],
            "{marked:?}"
        );
    }

    #[test]
    fn a_changed_line_is_paired_with_its_old_self_even_a_line_further_down() {
        let before = "# Goals\n\n- Ship the plugin to the community directory.\n- Keep it fast.\n";
        let after = "# Goals\n- Ship the plugin to the community directory by May.\n- Collect feedback every week\n";
        let diff = NoteDiff::between(before, after);
        let marked = |kind: LineKind| -> Vec<Vec<String>> {
            diff.hunks[0]
                .lines
                .iter()
                .filter(|l| l.kind == kind)
                .map(|l| {
                    l.segments
                        .iter()
                        .filter(|s| s.changed)
                        .map(|s| s.text.clone())
                        .collect()
                })
                .collect()
        };
        // The blank line went; "Ship" is one line changed; "Keep" and "Collect" are unrelated.
        assert_eq!(
            marked(LineKind::Removed),
            [vec![], vec!["directory.".to_string()], vec![]]
        );
        assert_eq!(
            marked(LineKind::Added),
            [vec!["directory by May.".to_string()], vec![]]
        );
    }

    #[test]
    fn a_new_note_is_all_added() {
        let diff = NoteDiff::between("", "# Q3 plan\n## Goals\n");
        assert_eq!((diff.added, diff.removed), (2, 0));
        assert_eq!(diff.hunks[0].header, "@@ -0,0 +1,2 @@");
    }
}
