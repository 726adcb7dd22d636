//! A note edit as separate changes, for review in the editor: each run of
//! changed lines between the note as it is and as the edit leaves it, with
//! its place in the note now, its old and new text and only the words that
//! differ; and the note with only the changes the user accepted. A change is
//! a whole run of lines with unchanged lines around it, so any subset of the
//! changes applies cleanly and all of them give exactly the edit.

use std::ops::Range;

use similar::DiffOp;

use super::diff::{differences, kept_share, words, MIN_KEPT_SHARE};
use crate::base::diff::{ChangeSpan, EditChange, SpanKind};

/// The most words on either side of a change that are compared word by
/// word; a longer change shows as its whole old and new text (Myers' cost
/// grows with the size of the difference).
const MAX_WORD_TOKENS: usize = 3000;

/// One run of changed lines: its bytes in the note now and after the edit,
/// and the 0-based line it starts at now.
struct Block {
    old: Range<usize>,
    new: Range<usize>,
    line: usize,
}

/// A piece of a change: the bytes of the note now it removes, and the bytes
/// of the edited note it puts at their end.
struct Piece {
    old: Range<usize>,
    new: Range<usize>,
}

/// How many changes take `before` to `after`.
pub fn count(before: &str, after: &str) -> usize {
    blocks(before, after).len()
}

/// The changes that take `before` to `after`, in order.
pub fn changes(before: &str, after: &str) -> Vec<EditChange> {
    let mut units = Utf16::new(before);
    blocks(before, after)
        .iter()
        .map(|block| {
            let pieces = pieces(before, after, block);
            // Lines only added stand where their first piece is shown.
            let start = match (block.old.is_empty(), pieces.first()) {
                (true, Some(piece)) => piece.old.start,
                _ => block.old.start,
            };
            let from = units.at(start);
            let mut spans = Vec::new();
            for piece in &pieces {
                if !piece.old.is_empty() {
                    spans.push(ChangeSpan {
                        kind: SpanKind::Removed,
                        from: units.at(piece.old.start),
                        to: units.at(piece.old.end),
                        text: before[piece.old.clone()].to_string(),
                    });
                }
                if !piece.new.is_empty() {
                    let at = units.at(piece.old.end);
                    spans.push(ChangeSpan {
                        kind: SpanKind::Added,
                        from: at,
                        to: at,
                        text: after[piece.new.clone()].to_string(),
                    });
                }
            }
            let controls_at = units.at(controls_at(before, &pieces, block));
            EditChange {
                from,
                to: units.at(if block.old.is_empty() {
                    start
                } else {
                    block.old.end
                }),
                line: block.line + 1,
                old_text: before[block.old.clone()].to_string(),
                new_text: after[block.new.clone()].to_string(),
                spans,
                controls_at,
            }
        })
        .collect()
}

/// `before` with only the changes numbered in `accepted` made (numbers as
/// `changes` gives them; others are ignored).
pub fn with_changes(before: &str, after: &str, accepted: &[usize]) -> String {
    let mut out = String::with_capacity(before.len().max(after.len()));
    let mut at = 0;
    for (i, block) in blocks(before, after).iter().enumerate() {
        out.push_str(&before[at..block.old.start]);
        out.push_str(if accepted.contains(&i) {
            &after[block.new.clone()]
        } else {
            &before[block.old.clone()]
        });
        at = block.old.end;
    }
    out.push_str(&before[at..]);
    out
}

/// The runs of changed lines, each line with its own line break (a CRLF
/// note keeps its endings; a last line without one is a line too).
fn blocks(before: &str, after: &str) -> Vec<Block> {
    let old: Vec<&str> = before.split_inclusive('\n').collect();
    let new: Vec<&str> = after.split_inclusive('\n').collect();
    let (old_at, new_at) = (starts(&old, 0), starts(&new, 0));
    let mut out: Vec<Block> = Vec::new();
    for op in differences(&old, &new) {
        if matches!(op, DiffOp::Equal { .. }) {
            continue;
        }
        let (o, n) = (op.old_range(), op.new_range());
        let block = Block {
            old: old_at[o.start]..old_at[o.end],
            new: new_at[n.start]..new_at[n.end],
            line: o.start,
        };
        match out.last_mut() {
            // No unchanged line between them: one change.
            Some(last) if last.old.end == block.old.start && last.new.end == block.new.start => {
                last.old.end = block.old.end;
                last.new.end = block.new.end;
            }
            _ => out.push(block),
        }
    }
    out
}

/// Where each piece starts, from `base`, and where the last one ends.
fn starts(pieces: &[&str], base: usize) -> Vec<usize> {
    let mut at = Vec::with_capacity(pieces.len() + 1);
    let mut next = base;
    at.push(next);
    for piece in pieces {
        next += piece.len();
        at.push(next);
    }
    at
}

/// A change's words that differ, as pieces: changed words next to each
/// other (or with only white space between them) are one piece, and a
/// change that keeps less than a third of its words is one piece, its whole
/// old text and its whole new text, as the card shows such lines.
fn pieces(before: &str, after: &str, block: &Block) -> Vec<Piece> {
    let whole = || {
        let piece = Piece {
            old: block.old.clone(),
            new: block.new.clone(),
        };
        vec![shown_at_line_end(
            before,
            after,
            trimmed(before, after, piece),
        )]
    };
    let old = words(&before[block.old.clone()]);
    let new = words(&after[block.new.clone()]);
    if old.is_empty() || new.is_empty() || old.len().max(new.len()) > MAX_WORD_TOKENS {
        return whole();
    }
    let ops = differences(&old, &new);
    let mut old_changed = vec![true; old.len()];
    let mut new_changed = vec![true; new.len()];
    for op in &ops {
        if let DiffOp::Equal {
            old_index,
            new_index,
            len,
        } = *op
        {
            old_changed[old_index..old_index + len].fill(false);
            new_changed[new_index..new_index + len].fill(false);
        }
    }
    if kept_share(&old, &old_changed, &new, &new_changed) < MIN_KEPT_SHARE {
        return whole();
    }
    let (old_at, new_at) = (starts(&old, block.old.start), starts(&new, block.new.start));
    let mut out: Vec<Piece> = Vec::new();
    // Whether the next piece joins the last: nothing, or only white space, between them.
    let mut join = true;
    for op in ops {
        let (o, n) = (op.old_range(), op.new_range());
        if matches!(op, DiffOp::Equal { .. }) {
            join = old[o].iter().all(|t| t.trim().is_empty());
            continue;
        }
        let piece = Piece {
            old: old_at[o.start]..old_at[o.end],
            new: new_at[n.start]..new_at[n.end],
        };
        match out.last_mut() {
            Some(last) if join => {
                last.old.end = piece.old.end;
                last.new.end = piece.new.end;
            }
            _ => out.push(piece),
        }
        join = true;
    }
    out.into_iter()
        .map(|piece| shown_at_line_end(before, after, trimmed(before, after, piece)))
        .filter(|piece| !(piece.old.is_empty() && piece.new.is_empty()))
        .collect()
}

/// Whole lines added at the start of a line are shown at the end of the
/// line before, their line break first ("…before⏎new line", then the line
/// break already there): the note reads on, and the buttons after them stand
/// at a line's end, not in front of the next line's text.
fn shown_at_line_end(before: &str, after: &str, mut piece: Piece) -> Piece {
    let (old, new) = (before.as_bytes(), after.as_bytes());
    let at = piece.old.start;
    let moves = piece.old.is_empty()
        && at > 0
        && old[at - 1] == b'\n'
        && (at < 2 || old[at - 2] != b'\r')
        && piece.new.start > 0
        && !piece.new.is_empty()
        && new[piece.new.start - 1] == b'\n'
        && new[piece.new.end - 1] == b'\n';
    if moves {
        piece.old = at - 1..at - 1;
        piece.new = piece.new.start - 1..piece.new.end - 1;
    }
    piece
}

/// A piece without the white space its old and new text both start or end
/// with: "Old line⏎" → "New line⏎" strikes "Old line" and shows "New line"
/// before the line break they share.
fn trimmed(before: &str, after: &str, mut piece: Piece) -> Piece {
    let shared = |old: &mut dyn Iterator<Item = char>, new: &mut dyn Iterator<Item = char>| {
        old.zip(new)
            .take_while(|(a, b)| a == b && a.is_whitespace())
            .map(|(a, _)| a.len_utf8())
            .sum::<usize>()
    };
    let lead = shared(
        &mut before[piece.old.clone()].chars(),
        &mut after[piece.new.clone()].chars(),
    );
    piece.old.start += lead;
    piece.new.start += lead;
    let trail = shared(
        &mut before[piece.old.clone()].chars().rev(),
        &mut after[piece.new.clone()].chars().rev(),
    );
    piece.old.end -= trail;
    piece.new.end -= trail;
    piece
}

/// Where a change's Accept and Reject go: at the end of its last line
/// (before its line break), or after the lines it only adds.
fn controls_at(before: &str, pieces: &[Piece], block: &Block) -> usize {
    if block.old.is_empty() {
        return pieces.last().map_or(block.old.end, |piece| piece.old.end);
    }
    let text = &before[block.old.clone()];
    let line = match text.strip_suffix('\n') {
        Some(rest) => rest.strip_suffix('\r').unwrap_or(rest),
        None => text,
    };
    block.old.start + line.len()
}

/// Byte offsets of one text as UTF-16 code units, counted forward from the
/// last offset asked (offsets come in order), or from the start.
struct Utf16<'a> {
    text: &'a str,
    byte: usize,
    units: usize,
}

impl<'a> Utf16<'a> {
    fn new(text: &'a str) -> Self {
        Utf16 {
            text,
            byte: 0,
            units: 0,
        }
    }

    fn at(&mut self, byte: usize) -> usize {
        if byte < self.byte {
            self.byte = 0;
            self.units = 0;
        }
        self.units += self.text[self.byte..byte].encode_utf16().count();
        self.byte = byte;
        self.units
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(change: &EditChange, kind: SpanKind) -> Vec<&str> {
        change
            .spans
            .iter()
            .filter(|s| s.kind == kind)
            .map(|s| s.text.as_str())
            .collect()
    }

    const BEFORE: &str =
        "# Goals\nThe vendor is late.\nKeep it small.\nSome notes\nmore notes\nShip teh beta.\n";
    const AFTER: &str =
        "# Goals\nThe vendor is on time.\nKeep it small.\nSome notes\nmore notes\nShip the beta.\n";

    #[test]
    fn two_changed_lines_apart_are_two_changes_with_only_their_changed_words() {
        let changes = changes(BEFORE, AFTER);
        assert_eq!(changes.len(), 2);
        assert_eq!(count(BEFORE, AFTER), 2);
        let first = &changes[0];
        assert_eq!(first.line, 2);
        assert_eq!(&BEFORE[first.from..first.to], "The vendor is late.\n");
        assert_eq!(first.old_text, "The vendor is late.\n");
        assert_eq!(first.new_text, "The vendor is on time.\n");
        assert_eq!(spans(first, SpanKind::Removed), ["late."]);
        assert_eq!(spans(first, SpanKind::Added), ["on time."]);
        // The new words stand where the old ones end, the buttons after them.
        let removed = &first.spans[0];
        assert_eq!(&BEFORE[removed.from..removed.to], "late.");
        assert_eq!(first.spans[1].from, removed.to);
        // "late." ends its line: the buttons come right after it.
        assert_eq!(first.controls_at, removed.to);
        let second = &changes[1];
        assert_eq!(second.line, 6);
        assert_eq!(spans(second, SpanKind::Removed), ["teh"]);
        assert_eq!(spans(second, SpanKind::Added), ["the"]);
    }

    #[test]
    fn any_subset_of_the_changes_applies_and_all_of_them_give_the_edit() {
        assert_eq!(with_changes(BEFORE, AFTER, &[]), BEFORE);
        assert_eq!(with_changes(BEFORE, AFTER, &[0, 1]), AFTER);
        assert_eq!(
            with_changes(BEFORE, AFTER, &[1]),
            BEFORE.replace("teh", "the")
        );
        assert_eq!(
            with_changes(BEFORE, AFTER, &[0]),
            BEFORE.replace("late.", "on time.")
        );
        // A number that is not a change is no change.
        assert_eq!(with_changes(BEFORE, AFTER, &[7]), BEFORE);
    }

    #[test]
    fn every_shape_of_edit_gives_itself_back_whole_and_nothing_with_none() {
        let cases = [
            ("a\nb\nc\n", "a\nB\nc\nd\n"),
            ("a\nb", "a\nb\nc\n"),
            ("a\r\nold\r\nc\r\n", "a\r\nnew words\r\nc\r\n"),
            ("", "new note\n"),
            ("only line", ""),
            ("x\ny\nz\n", "z\ny\nx\n"),
            ("keep\n\n\nkeep\n", "keep\nkeep\n"),
            ("é😀 one two\n", "é😀 one three\n"),
        ];
        for (before, after) in cases {
            let n = count(before, after);
            assert!(n > 0, "{before:?} → {after:?}");
            let all: Vec<usize> = (0..n).collect();
            assert_eq!(with_changes(before, after, &all), after, "{before:?}");
            assert_eq!(with_changes(before, after, &[]), before, "{before:?}");
            for change in changes(before, after) {
                assert!(change.from <= change.to);
                for span in &change.spans {
                    assert!(
                        span.from >= change.from && span.to <= change.to,
                        "{change:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn offsets_are_utf16_code_units() {
        let before = "é😀\nold word here\n";
        let after = "é😀\nnew word here\n";
        let change = &changes(before, after)[0];
        // "é" is 1 unit, "😀" 2, "\n" 1.
        assert_eq!(change.from, 4);
        assert_eq!(change.spans[0].from, 4);
        assert_eq!(change.spans[0].to, 7);
        assert_eq!(change.spans[0].text, "old");
        let units: Vec<u16> = before.encode_utf16().collect();
        assert_eq!(
            String::from_utf16(&units[change.from..change.to]).unwrap(),
            "old word here\n"
        );
    }

    #[test]
    fn an_unrelated_line_is_struck_whole_and_its_new_text_stands_before_the_line_break() {
        let before = "# Plan\nShip the plugin to the community directory.\nEnd\n";
        let after = "# Plan\nAnswer every review within a week.\nEnd\n";
        let change = &changes(before, after)[0];
        assert_eq!(
            spans(change, SpanKind::Removed),
            ["Ship the plugin to the community directory."]
        );
        assert_eq!(
            spans(change, SpanKind::Added),
            ["Answer every review within a week."]
        );
    }

    #[test]
    fn added_and_removed_lines_have_their_place_and_their_buttons_at_a_line_end() {
        let before = "a\nold line\nb\n";
        let removed = &changes(before, "a\nb\n")[0];
        assert_eq!(spans(removed, SpanKind::Removed), ["old line\n"]);
        assert_eq!(removed.controls_at, "a\nold line".len());
        // Added lines show at the end of the line before, their line break first.
        let added = &changes("a\nb\n", "a\nnew line\nb\n")[0];
        assert_eq!((added.from, added.to), (1, 1));
        assert_eq!(spans(added, SpanKind::Added), ["\nnew line"]);
        assert_eq!(added.spans[0].from, 1);
        assert_eq!(added.controls_at, 1);
        assert_eq!(
            with_changes("a\nb\n", "a\nnew line\nb\n", &[0]),
            "a\nnew line\nb\n"
        );
        // A changed line's buttons stand at its end, not after its changed word.
        let changed = &changes("x\none two three\ny\n", "x\none 2 three\ny\n")[0];
        assert_eq!(changed.controls_at, "x\none two three".len());
    }
}
