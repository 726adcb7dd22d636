//! The undo journal: every change the agent makes to the vault, with what is
//! needed to reverse it (the earlier text or value) and the hash of what the
//! change left, so an undo can tell whether someone changed the target since.
//!
//! It is bounded (`MAX_ENTRIES` entries, `MAX_BYTES` of JSON; the oldest go
//! first and the host tells the user how many), the host keeps it as JSON in
//! the plugin's folder, and it is read back leniently: an entry that cannot
//! be read is dropped with a line saying so, never a failed load.
//!
//! Only the plugin's own buttons and commands undo: no tool, argument or
//! public API call reaches `Engine::undo`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Entries kept; older ones are dropped.
pub const MAX_ENTRIES: usize = 200;
/// Bytes of JSON kept (the texts of notes before and after a change).
pub const MAX_BYTES: usize = 8 * 1024 * 1024;
/// The stored format's version.
const VERSION: u64 = 1;

/// One change the agent made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JournalEntry {
    pub id: String,
    /// When the change ran, in milliseconds since the Unix epoch.
    pub time: f64,
    pub tool: String,
    pub command: String,
    /// The note's vault path; for a change that cannot be undone, what it
    /// changed in words.
    pub target: String,
    /// The chat answer it belongs to (conversation id and turn number).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<String>,
    /// The vault name the CLI was given (`None`: the open vault).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vault: Option<String>,
    /// What the change did, in words ("Added to Daily/2026-03-03.md").
    pub summary: String,
    pub undo: UndoPlan,
    /// SHA-256 of what the change left: the note's text, the value as
    /// `property:read` prints it, or the task's line.
    pub written_hash: String,
    /// When it was undone; an entry is undone at most once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undone_ms: Option<f64>,
}

/// How to reverse one change.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum UndoPlan {
    /// The note's exact text before and after: put `before` back, in one
    /// step, only while the note still holds `after`.
    #[serde(rename_all = "camelCase")]
    Text { before: String, after: String },
    /// A note the change made, with the text it had: moved to the trash
    /// while it still holds `content`.
    #[serde(rename_all = "camelCase")]
    Created { content: String },
    /// One property: `before` as `property:read` printed it (a list one item
    /// per line), `None` when it was not set; `after` what it printed once
    /// the change ran. Set back with `property:set` (`set_type` as its
    /// `type=`) or `property:remove`; or, while the whole note is still as
    /// the change left it, by putting `note.before` back, which keeps the
    /// frontmatter's order and formatting exactly.
    #[serde(rename_all = "camelCase")]
    Property {
        name: String,
        before: Option<String>,
        after: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        set_type: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        note: Option<NoteTexts>,
    },
    /// One task: its status character before, and its whole line after.
    #[serde(rename_all = "camelCase")]
    Task {
        line: u32,
        before: char,
        after: String,
    },
    /// Notes moved or renamed, in the order they moved: moved back, newest
    /// first, while each is still where it went and its old place is free.
    /// `done` counts the newest moves an undo put back before it stopped
    /// (the next Undo goes on from there).
    #[serde(rename_all = "camelCase")]
    Moved {
        moves: Vec<MovedNote>,
        #[serde(default, skip_serializing_if = "is_zero")]
        done: usize,
    },
    /// Files moved to the trash, with their exact bytes: made again where
    /// they were, while nothing else took their place. `done` counts those
    /// an undo made again before it stopped (the next Undo goes on from there).
    #[serde(rename_all = "camelCase")]
    Deleted {
        notes: Vec<DeletedNote>,
        #[serde(default, skip_serializing_if = "is_zero")]
        done: usize,
    },
    /// Kept so the change stays visible; `reason` says why it cannot be
    /// undone and what to do instead.
    #[serde(rename_all = "camelCase")]
    Never { reason: String },
}

/// One note a move or rename changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MovedNote {
    pub from: String,
    pub to: String,
}

/// One file a deletion sent to the trash, with what it held: `content`
/// when that was UTF-8 text (as every entry before `bytes` existed), else
/// `bytes`, its exact bytes in base64 (an image, a Latin-1 note).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeletedNote {
    pub path: String,
    #[serde(default)]
    pub content: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<String>,
}

impl DeletedNote {
    /// Keeps `bytes` as text when they are UTF-8, as base64 otherwise.
    pub fn of(path: String, bytes: Vec<u8>) -> Self {
        use base64::Engine;
        match String::from_utf8(bytes) {
            Ok(content) => DeletedNote {
                path,
                content,
                bytes: None,
            },
            Err(error) => DeletedNote {
                path,
                content: String::new(),
                bytes: Some(base64::engine::general_purpose::STANDARD.encode(error.into_bytes())),
            },
        }
    }

    /// The exact bytes to make the file again with; `None` when the stored
    /// base64 is damaged (a journal edited by hand).
    pub fn original(&self) -> Option<Vec<u8>> {
        use base64::Engine;
        match &self.bytes {
            None => Some(self.content.as_bytes().to_vec()),
            Some(encoded) => base64::engine::general_purpose::STANDARD
                .decode(encoded)
                .ok(),
        }
    }
}

/// A note's exact text before and after a change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoteTexts {
    pub before: String,
    pub after: String,
}

impl UndoPlan {
    pub fn undoable(&self) -> bool {
        !matches!(self, UndoPlan::Never { .. })
    }

    pub fn reason(&self) -> Option<&str> {
        match self {
            UndoPlan::Never { reason } => Some(reason),
            _ => None,
        }
    }
}

/// What the UI shows of an entry.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "JournalEntryView"))]
#[serde(rename_all = "camelCase")]
pub struct EntryView {
    pub id: String,
    pub summary: String,
    pub target: String,
    pub time: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub turn: Option<String>,
    pub undoable: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub reason: Option<String>,
    pub undone: bool,
}

/// A chat answer's changes: how many, and how many can still be undone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct TurnChanges {
    pub total: usize,
    /// Not undone yet, and undoable.
    pub undoable: usize,
    pub undone: usize,
}

/// The bounded list of changes, oldest first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Journal {
    entries: Vec<JournalEntry>,
    /// The number of the next entry's id (ids are never reused).
    next: u64,
}

/// The stored form (`journal.json`).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Stored<'a> {
    version: u64,
    next_id: u64,
    entries: &'a [JournalEntry],
}

impl Journal {
    /// Adds an entry (its `id` is assigned here) and drops the oldest ones
    /// past the bound. Returns the id and how many were dropped.
    pub fn add(&mut self, mut entry: JournalEntry) -> (String, usize) {
        self.next += 1;
        entry.id = format!("u{}", self.next);
        if entry_bytes(&entry) > MAX_BYTES {
            // Keeping it would push every other entry out, and still not fit.
            entry.undo = UndoPlan::Never {
                reason: format!(
                    "the note is too large to keep a copy for undo (more than {} with its earlier text).",
                    crate::base::text::human_bytes(MAX_BYTES as u64)
                ),
            };
        }
        let id = entry.id.clone();
        self.entries.push(entry);
        (id, self.bound())
    }

    pub fn get(&self, id: &str) -> Option<&JournalEntry> {
        self.entries.iter().find(|e| e.id == id)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn entries(&self) -> &[JournalEntry] {
        &self.entries
    }

    /// An undo of several notes stopped after `done` of them: kept, so the
    /// next Undo finishes it instead of finding those notes in the way.
    pub fn set_undo_progress(&mut self, id: &str, progress: usize) {
        if let Some(entry) = self.entries.iter_mut().find(|e| e.id == id) {
            if let UndoPlan::Moved { done, .. } | UndoPlan::Deleted { done, .. } = &mut entry.undo {
                *done = progress;
            }
        }
    }

    pub fn mark_undone(&mut self, id: &str, now_ms: f64) {
        if let Some(entry) = self.entries.iter_mut().find(|e| e.id == id) {
            entry.undone_ms = Some(now_ms);
        }
    }

    /// The newest change that can still be undone.
    pub fn newest_undoable(&self) -> Option<&JournalEntry> {
        self.entries
            .iter()
            .rev()
            .find(|e| e.undone_ms.is_none() && e.undo.undoable())
    }

    /// A turn's changes not undone yet, newest first.
    pub fn open_in_turn(&self, turn: &str) -> Vec<&JournalEntry> {
        self.entries
            .iter()
            .rev()
            .filter(|e| e.turn.as_deref() == Some(turn) && e.undone_ms.is_none())
            .collect()
    }

    /// The turn of the newest change that can still be undone.
    pub fn last_turn(&self) -> Option<String> {
        self.entries
            .iter()
            .rev()
            .find(|e| e.turn.is_some() && e.undone_ms.is_none() && e.undo.undoable())
            .and_then(|e| e.turn.clone())
    }

    pub fn turn_changes(&self, turn: &str) -> TurnChanges {
        let mut changes = TurnChanges::default();
        for entry in self
            .entries
            .iter()
            .filter(|e| e.turn.as_deref() == Some(turn))
        {
            changes.total += 1;
            if entry.undone_ms.is_some() {
                changes.undone += 1;
            } else if entry.undo.undoable() {
                changes.undoable += 1;
            }
        }
        changes
    }

    pub fn view(&self, id: &str) -> Option<EntryView> {
        self.get(id).map(|e| EntryView {
            id: e.id.clone(),
            summary: e.summary.clone(),
            target: e.target.clone(),
            time: e.time,
            turn: e.turn.clone(),
            undoable: e.undo.undoable(),
            reason: e.undo.reason().map(str::to_string),
            undone: e.undone_ms.is_some(),
        })
    }

    /// The stored form, as the host writes it to `journal.json`.
    pub fn to_json(&self) -> String {
        serde_json::to_string(&Stored {
            version: VERSION,
            next_id: self.next,
            entries: &self.entries,
        })
        .unwrap_or_else(|_| "{}".into())
    }

    /// The journal from what `journal.json` held (already bounded JSON; see
    /// `input::JOURNAL`). Whatever it holds, this loads: entries that cannot
    /// be read are dropped, each with a line for the log.
    pub fn restore(stored: &Value) -> (Journal, Vec<String>) {
        let mut repairs = Vec::new();
        let mut journal = Journal::default();
        let object = match stored {
            Value::Null => return (journal, repairs),
            Value::Object(object) => object,
            other => {
                repairs.push(format!(
                    "the journal is not an object but {}; it starts empty",
                    kind_of(other)
                ));
                return (journal, repairs);
            }
        };
        let list = match object.get("entries") {
            Some(Value::Array(list)) => list.as_slice(),
            None | Some(Value::Null) => {
                repairs.push("the journal has no list of entries; it starts empty".into());
                &[]
            }
            Some(other) => {
                repairs.push(format!(
                    "the journal's entries are {}, not a list; it starts empty",
                    kind_of(other)
                ));
                &[]
            }
        };
        let mut highest = object.get("nextId").and_then(Value::as_u64).unwrap_or(0);
        for (i, value) in list.iter().enumerate() {
            match serde_json::from_value::<JournalEntry>(value.clone()) {
                Ok(entry) if journal.get(&entry.id).is_some() => {
                    repairs.push(format!("entry {i} repeats the id {}; dropped", entry.id));
                }
                Ok(entry) => {
                    if let Some(n) = entry.id.strip_prefix('u').and_then(|n| n.parse().ok()) {
                        highest = highest.max(n);
                    }
                    journal.entries.push(entry);
                }
                Err(error) => {
                    repairs.push(format!("entry {i} could not be read ({error}); dropped"))
                }
            }
        }
        journal.next = highest;
        let dropped = journal.bound();
        if dropped > 0 {
            repairs.push(format!(
                "{dropped} oldest entries were dropped to stay within the journal's bound"
            ));
        }
        (journal, repairs)
    }

    /// Drops the oldest entries until at most `MAX_ENTRIES` remain and their
    /// JSON fits in `MAX_BYTES`; returns how many went.
    fn bound(&mut self) -> usize {
        let sizes: Vec<usize> = self.entries.iter().map(entry_bytes).collect();
        let mut total: usize = sizes.iter().sum();
        let mut drop = 0;
        while drop < self.entries.len()
            && (self.entries.len() - drop > MAX_ENTRIES || total > MAX_BYTES)
        {
            total -= sizes[drop];
            drop += 1;
        }
        self.entries.drain(..drop);
        drop
    }
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The size of an entry's JSON (with its separator).
fn entry_bytes(entry: &JournalEntry) -> usize {
    serde_json::to_string(entry).map_or(0, |s| s.len() + 1)
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn entry(text: &str) -> JournalEntry {
        JournalEntry {
            id: String::new(),
            time: 1.0,
            tool: "obsidianEdit".into(),
            command: "append".into(),
            target: "A.md".into(),
            turn: Some("chat-1#1".into()),
            vault: None,
            summary: "Added to A.md".into(),
            undo: UndoPlan::Text {
                before: String::new(),
                after: text.into(),
            },
            written_hash: String::new(),
            undone_ms: None,
        }
    }

    #[test]
    fn ids_are_never_reused_and_survive_a_round_trip() {
        let mut journal = Journal::default();
        assert_eq!(journal.add(entry("a")).0, "u1");
        assert_eq!(journal.add(entry("b")).0, "u2");
        let stored: Value = serde_json::from_str(&journal.to_json()).unwrap();
        assert_eq!(stored["version"], 1);
        let (mut back, repairs) = Journal::restore(&stored);
        assert!(repairs.is_empty(), "{repairs:?}");
        assert_eq!(back, journal);
        assert_eq!(back.add(entry("c")).0, "u3");
    }

    #[test]
    fn unreadable_parts_are_dropped_with_a_line_each() {
        let (journal, repairs) = Journal::restore(&json!({
            "entries": [
                {"id": "u7", "time": 1, "tool": "t", "command": "c", "target": "A.md",
                 "summary": "s", "writtenHash": "h", "undo": {"kind": "never", "reason": "r"}},
                {"id": "u8", "undo": {"kind": "teleport"}},
                42,
                {"id": "u7", "time": 1, "tool": "t", "command": "c", "target": "A.md",
                 "summary": "s", "writtenHash": "h", "undo": {"kind": "never", "reason": "r"}}
            ]
        }));
        assert_eq!(journal.len(), 1);
        assert_eq!(repairs.len(), 3, "{repairs:?}");
        assert!(repairs[2].contains("repeats the id u7"));
        let (empty, repairs) = Journal::restore(&json!([1, 2]));
        assert!(empty.is_empty());
        assert!(repairs[0].contains("not an object but a list"));
        assert_eq!(Journal::restore(&Value::Null), (Journal::default(), vec![]));
    }

    #[test]
    fn the_bound_drops_the_oldest_by_count_and_by_size() {
        let mut journal = Journal::default();
        let mut dropped = 0;
        for i in 0..(MAX_ENTRIES + 5) {
            dropped += journal.add(entry(&i.to_string())).1;
        }
        assert_eq!(dropped, 5);
        assert_eq!(journal.len(), MAX_ENTRIES);
        assert_eq!(journal.entries()[0].id, "u6");
        let big = "x".repeat(MAX_BYTES / 3);
        let mut sized = Journal::default();
        sized.add(entry("small"));
        sized.add(entry(&big));
        sized.add(entry(&big));
        let (_, dropped) = sized.add(entry(&big));
        assert_eq!(dropped, 2, "the small one and the first big one");
        assert!(sized.to_json().len() <= MAX_BYTES + 100);
        let (id, _) = sized.add(entry(&"y".repeat(MAX_BYTES + 1)));
        assert!(!sized.get(&id).unwrap().undo.undoable(), "too large alone");
    }
}
