//! What a change does to a note, as data: the card shows it, the model reads
//! it as unified text, the journal keeps it. How it is computed is
//! `notes::diff`.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum LineKind {
    Context,
    Added,
    Removed,
}

/// A piece of a line; `changed` pieces are the words that differ.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Segment {
    pub text: String,
    pub changed: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct DiffLine {
    pub kind: LineKind,
    /// 1-based line numbers in the note before and after.
    pub old_line: Option<usize>,
    pub new_line: Option<usize>,
    pub segments: Vec<Segment>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct DiffHunk {
    /// `@@ -a,b +c,d @@`, for the model and the journal.
    pub header: String,
    /// Where the hunk starts, as a person reads it: "Line 18" (the first
    /// line shown, in the note after the change).
    #[serde(default)]
    pub label: String,
    pub lines: Vec<DiffLine>,
}

/// The change to one note.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct NoteDiff {
    pub added: usize,
    pub removed: usize,
    pub hunks: Vec<DiffHunk>,
}

/// One change of a note edit as the editor shows it in place
/// (`notes::review`): a run of changed lines, placed in the note as it is
/// now. Offsets are UTF-16 code units, as the editor counts them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct EditChange {
    /// The lines it replaces in the note now (empty where it only adds).
    pub from: usize,
    pub to: usize,
    /// The 1-based line of the note now where it starts.
    pub line: usize,
    pub old_text: String,
    pub new_text: String,
    /// Only the words that differ.
    pub spans: Vec<ChangeSpan>,
    /// Where its Accept and Reject go: after its last changed word.
    pub controls_at: usize,
}

/// Words a change removes (`from..to` of the note now) or adds (`text`,
/// shown at `from`, where `to` equals `from`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ChangeSpan {
    pub kind: SpanKind,
    pub from: usize,
    pub to: usize,
    pub text: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum SpanKind {
    Removed,
    Added,
}
