//! The one result type every caller gets back: the model, the UI, other plugins.

use serde::{Deserialize, Serialize};

use crate::base::card::PendingView;
use crate::base::diff::NoteDiff;
use crate::base::error::ToolError;
use crate::base::host::ImageData;

/// A stable error code and a message that says what to do next.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ErrorInfo {
    pub code: String,
    pub message: String,
    /// True when the user, not the model, has to act (a setting, the app,
    /// the CLI): the chat shows the message as a banner too.
    #[serde(
        rename = "userFix",
        default,
        skip_serializing_if = "std::ops::Not::not"
    )]
    pub user_fix: bool,
}

/// The outcome of one tool call.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ToolResult {
    pub ok: bool,
    /// What to show: the CLI's output, or the error message.
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub error: Option<ErrorInfo>,
    /// The resolved CLI binary, when the call got that far.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub program: Option<String>,
    /// The exact arguments given to the process after the program.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub argv: Option<Vec<String>>,
    /// True when the output cap cut the text (the text ends with a notice).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub truncated: Option<bool>,
    /// True for the CLI's "No … found." answers and silent successes.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub empty: bool,
    /// Set when the write waits for the user's click; nothing has run yet.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub pending: Option<PendingView>,
    /// What a change did to the note (or the value), for the tool block to
    /// show folded. On `undo_conflict`: what the agent wrote against what the
    /// note holds now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub diff: Option<NoteDiff>,
    /// The undo journal's entry of a change that ran (only the plugin's own
    /// buttons undo it; neither the model nor the API can).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub journal: Option<JournalRef>,
    /// Entries the folder scopes left out of a vault-wide answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub withheld: Option<usize>,
    /// Images an outside tool returned (checked by the core: a known type,
    /// base64, capped), shown in the tool block and, when the profile's
    /// model reads images, sent to it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(test, ts(as = "Option<Vec<ImageData>>", optional))]
    pub images: Vec<ImageData>,
    pub duration_ms: f64,
}

/// A result's link to its entry in the undo journal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct JournalRef {
    pub entry: String,
    /// The chat answer the change belongs to, if it came from the chat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub turn: Option<String>,
    pub undoable: bool,
    /// Why it cannot be undone (the button's tooltip).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub reason: Option<String>,
    /// On `undo_conflict`: the hash of the text the user was shown, which
    /// "Undo anyway" must send back (if the note changed again, it asks again).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub conflict_hash: Option<String>,
}

impl ToolResult {
    pub fn failure(error: &ToolError, duration_ms: f64) -> Self {
        let message = error.to_string();
        ToolResult {
            ok: false,
            text: message.clone(),
            error: Some(ErrorInfo {
                code: error.code().to_string(),
                message,
                user_fix: error.user_fix(),
            }),
            program: None,
            argv: None,
            truncated: None,
            empty: false,
            pending: None,
            diff: None,
            journal: None,
            withheld: None,
            images: Vec::new(),
            duration_ms,
        }
    }

    /// A write waiting for the user's click: not a failure, not done yet.
    pub fn pending(pending: PendingView, argv: Vec<String>) -> Self {
        ToolResult {
            ok: false,
            text: format!(
                "Waiting for the user to approve: {}. Nothing has changed yet; the user sees the change and decides.",
                pending.summary
            ),
            error: None,
            program: None,
            argv: Some(argv),
            truncated: None,
            empty: false,
            pending: Some(pending),
            diff: None,
            journal: None,
            withheld: None,
            images: Vec::new(),
            duration_ms: 0.0,
        }
    }

    /// A success with `text` (for results the core makes itself).
    pub fn success(text: impl Into<String>) -> Self {
        ToolResult {
            ok: true,
            text: text.into(),
            error: None,
            ..ToolResult::failure(&ToolError::EmptyOutput, 0.0)
        }
    }

    /// The error code, if any (handy in tests and logs).
    pub fn code(&self) -> Option<&str> {
        self.error.as_ref().map(|e| e.code.as_str())
    }
}
