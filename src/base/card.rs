//! What a card shows, as data: the pending change the model and other
//! plugins see, the card the plugin draws, and where a confirmation stands.
//! The book that keeps confirmations and moves them along is
//! `engine::confirm`.

use serde::Serialize;

use crate::base::call::Preview;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum ConfirmationState {
    Proposed,
    Approved,
    Running,
    Done,
    Failed,
    Rejected,
    Expired,
    Stale,
}

impl ConfirmationState {
    /// The edges of the state machine; everything else is refused.
    pub fn can_become(self, next: ConfirmationState) -> bool {
        use ConfirmationState::*;
        matches!(
            (self, next),
            (Proposed, Approved | Rejected | Expired)
                | (Approved, Running | Stale)
                | (Running, Done | Failed)
        )
    }

    pub fn is_open(self) -> bool {
        self == ConfirmationState::Proposed
    }

    pub(crate) fn words(self) -> &'static str {
        use ConfirmationState::*;
        match self {
            Proposed => "waiting",
            Approved => "approved",
            Running => "running",
            Done => "done",
            Failed => "failed",
            Rejected => "rejected",
            Expired => "expired",
            Stale => "stale",
        }
    }
}

/// What the model and other plugins see of a pending confirmation.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "PendingConfirmation"))]
pub struct PendingView {
    pub id: String,
    pub summary: String,
    pub preview: Preview,
}

/// What the plugin's confirmation card shows (and needs to approve).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ConfirmationCard {
    pub id: String,
    pub tool_id: &'static str,
    pub command: &'static str,
    pub summary: String,
    pub preview: Preview,
    pub argv: Vec<String>,
    pub argv_hash: String,
    pub expires_ms: f64,
    pub state: ConfirmationState,
    /// The outside agent that asked ("Claude Code").
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub requester: Option<String>,
    /// The card's first line when an outside agent asked: "Claude Code
    /// wants to change \"Plan.md\"", "… wants to make a new note \"Ideas\"".
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub requested: Option<String>,
    /// The model wrote this call as text, not as a tool call: it may be
    /// echoing a call it read in a note (the card says so).
    pub written_as_text: bool,
    /// Asked for while carrying out an approved plan, on a note the plan
    /// does not name (the card says so).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(test, ts(as = "Option<bool>", optional))]
    pub off_plan: bool,
    /// `cli` (the argv runs), `vault` (Obsidian writes the note in one
    /// step, only if it is unchanged) or `files` (Obsidian's file manager
    /// moves or trashes notes, only those still as the card showed them).
    pub via: &'static str,
    /// A call of one of the user's own MCP servers (`via` is `mcp`): what
    /// the card shows instead of a change to the vault.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub outside: Option<Box<OutsideCard>>,
    /// The note an edit of its text changes (`via` is `vault`): the editor
    /// can show the edit's changes in place, to accept or reject each
    /// (`EditReview`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub edits_note: Option<String>,
}

/// A note edit's card as the editor reviews it in place (`engine::in_place`):
/// its changes, the user's answer to each so far, and, once every change is
/// answered, how the card is settled. The same card as in the chat: settling
/// it here settles it there.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct EditReview {
    pub id: String,
    /// The note edited, "" when the card is not a note edit.
    pub path: String,
    pub changes: Vec<crate::base::diff::EditChange>,
    /// The user's answer to each change so far: accepted, rejected, or not yet.
    pub answers: Vec<Option<bool>>,
    /// Why the card cannot be reviewed in this editor, and what to do
    /// instead (no changes are given then).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub problem: Option<String>,
    /// Every change answered: how the card is settled now.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub settle: Option<ReviewSettle>,
}

/// How a card reviewed in place is settled once every change is answered:
/// approved whole (every change accepted), approved for some changes only,
/// or rejected (none accepted).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "answer", rename_all = "camelCase")]
pub enum ReviewSettle {
    Approve,
    ApproveChanges { changes: Vec<usize> },
    Reject,
}

impl ReviewSettle {
    /// What the answers so far settle, once there is one for every change.
    pub fn from_answers(answers: &[Option<bool>]) -> Option<ReviewSettle> {
        let answers: Option<Vec<bool>> = answers.iter().copied().collect();
        let answers = answers.filter(|a| !a.is_empty())?;
        let accepted: Vec<usize> = (0..answers.len()).filter(|&i| answers[i]).collect();
        Some(if accepted.len() == answers.len() {
            ReviewSettle::Approve
        } else if accepted.is_empty() {
            ReviewSettle::Reject
        } else {
            ReviewSettle::ApproveChanges { changes: accepted }
        })
    }
}

/// What the card of an outside tool's call shows: exactly what will be sent.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct OutsideCard {
    /// The server's name in the settings, and the name it gives itself.
    pub server: String,
    pub server_name: String,
    pub tool: String,
    pub description: String,
    /// The server's annotations in words (`read-only`, `may be destructive` …).
    pub annotations: Vec<&'static str>,
    /// The arguments as they will be sent, as indented JSON with long
    /// strings folded (`folded` says whether any was).
    pub arguments: String,
    pub folded: bool,
    /// The whole arguments, unfolded, for "Show the full arguments".
    pub full_arguments: String,
}
