//! The vocabulary of one call, shared by the tools that declare it, the
//! policy that decides on it and the engine that runs it: what a command
//! does to the vault, which note it names, and what a change looks like
//! before the user approves it.

use crate::base::diff::NoteDiff;
use crate::base::error::ToolError;

/// What a command does to the vault.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "CommandAccess"))]
#[serde(rename_all = "camelCase")]
pub enum Access {
    Read,
    /// Adds (low risk): runs at once in Ask before edits, on a card in Ask
    /// before every change (`policy::check` decides).
    DirectWrite,
    /// Changes what is there: always waits for the user's click on a card.
    ConfirmedWrite,
}

impl Access {
    pub fn is_write(self) -> bool {
        self != Access::Read
    }
}

/// A note as the model named it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoteLocator {
    /// The exact path from the vault root.
    Path(String),
    /// A name resolved like a wikilink (through the CLI's `file`).
    Name(String),
    /// Today's daily note (through the CLI's `daily:path`).
    Daily,
}

impl NoteLocator {
    /// The note a `file` / `path` pair names (`path` wins, as in the CLI).
    pub fn of(file: &Option<String>, path: &Option<String>) -> Option<NoteLocator> {
        match (path, file) {
            (Some(path), _) => Some(NoteLocator::Path(path.clone())),
            (None, Some(file)) => Some(NoteLocator::Name(file.clone())),
            (None, None) => None,
        }
    }
}

/// What a probe read: the CLI's text, or the error it gave.
pub type ProbeResult = Result<String, ToolError>;

/// What the user sees before approving a write.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "ChangePreview"))]
pub struct Preview {
    /// What changes, in words.
    pub target: String,
    pub before: String,
    pub after: String,
    /// For changes to a note's text: the line diff the card shows (and the
    /// model reads as unified text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub diff: Option<NoteDiff>,
    /// Something the user and the model should know before the change (a
    /// note with the same or a very similar title exists): never a refusal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub warning: Option<String>,
}

/// A tool as the model is told about it.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelTool {
    pub name: String,
    pub description: String,
    pub input_schema: serde_json::Value,
}
