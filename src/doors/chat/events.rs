//! What the chat door says to the view while a turn runs, and what it is
//! told: the wire types of its dispatch (`mod.rs`, `turn.rs`).

use serde::Serialize;

use crate::base::card::ConfirmationCard;
use crate::base::result::ToolResult;
use crate::base::table::Table;
use crate::doors::chat::conversation::{AnswerUsage, Usage};

/// How a turn ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum TurnEnd {
    /// The model answered without calling tools.
    Done,
    /// A change waits for the user's click; `resolve_confirmation` goes on.
    AwaitingConfirmation,
    /// The tool-round limit was reached, or the model asked again for a
    /// call that had failed twice (a notice says which).
    RoundLimit,
    /// The user pressed Stop.
    Stopped,
    /// The model server failed; the error event says what to fix.
    Failed,
}

/// What the chat view is told while a turn runs.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum ChatEvent {
    /// The user's message the core made (a saved prompt filled in, a
    /// rewrite's request), for the view to show before the answer.
    #[serde(rename_all = "camelCase")]
    UserMessage {
        text: String,
        attachments: Option<Vec<crate::doors::chat::conversation::Attachment>>,
    },
    #[serde(rename_all = "camelCase")]
    ModelRound { round: u32 },
    #[serde(rename_all = "camelCase")]
    TextDelta { text: String },
    #[serde(rename_all = "camelCase")]
    AssistantMessage { text: String },
    /// The model's reasoning, streamed (shown folded above the answer).
    #[serde(rename_all = "camelCase")]
    ReasoningDelta { text: String },
    /// What the answer cost, as the server reported it (never a guess).
    #[serde(rename_all = "camelCase")]
    Usage { usage: AnswerUsage, chat: Usage },
    #[serde(rename_all = "camelCase")]
    ToolStarted {
        call_id: String,
        tool: String,
        display_name: String,
        arguments: String,
    },
    #[serde(rename_all = "camelCase")]
    ToolFinished {
        call_id: String,
        tool: String,
        display_name: String,
        result: Box<ToolResult>,
        table: Option<Table>,
    },
    #[serde(rename_all = "camelCase")]
    ConfirmationNeeded {
        call_id: String,
        card: Box<ConfirmationCard>,
    },
    /// The model proposed a plan (plan mode), checked against the scopes:
    /// the view shows the plan card; `chatAnswerPlan` goes on.
    #[serde(rename_all = "camelCase")]
    PlanProposed {
        call_id: String,
        plan: Box<crate::doors::chat::plan::ChatPlan>,
    },
    /// The user answered the plan card: approved (with the steps as
    /// approved) or rejected.
    #[serde(rename_all = "camelCase")]
    PlanAnswered {
        plan: Box<crate::doors::chat::plan::ChatPlan>,
    },
    /// The model ended its answer while carrying out a plan approved "all
    /// together": every held change on one card, answered through
    /// `chatResolve` with the card's id and hash.
    #[serde(rename_all = "camelCase")]
    PlanChangesNeeded {
        card: Box<crate::doors::chat::plan_changes::PlanChangesCard>,
    },
    /// The notes the answer that ends the turn was drawn from.
    #[serde(rename_all = "camelCase")]
    Sources {
        sources: Vec<crate::doors::chat::sources::Source>,
    },
    #[serde(rename_all = "camelCase")]
    Notice { text: String },
    /// Earlier turns were summarised (`compact`): the view draws the
    /// divider before the first turn the summary leaves whole.
    #[serde(rename_all = "camelCase")]
    Compacted {
        compaction: Box<crate::doors::chat::conversation::Compaction>,
    },
    /// A busy server is asked again: a passing line, each replacing the
    /// one before, gone once the answer (or the error) comes. Not kept.
    #[serde(rename_all = "camelCase")]
    Retrying { text: String },
    /// The tool-round limit stopped the turn (the notice kept in the
    /// conversation says so): the view offers Continue, which retries the
    /// turn from its tool results.
    #[serde(rename_all = "camelCase")]
    RoundLimit { text: String },
    #[serde(rename_all = "camelCase")]
    Error {
        code: String,
        message: String,
        /// Whether the banner offers Retry (the turn can run again as it is).
        retryable: bool,
        /// The address the message names, for the view to wrap at its `/`
        /// (never inside a word); `None`: the message names none.
        #[cfg_attr(test, ts(optional))]
        #[serde(skip_serializing_if = "Option::is_none")]
        address: Option<String>,
        /// The buttons beside the message, in this order.
        way_out: Vec<WayOut>,
    },
    #[serde(rename_all = "camelCase")]
    TurnEnded { end: TurnEnd },
}

/// A button beside an error: what the user can do about it from the chat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum WayOut {
    /// Run the turn again as it is.
    Retry,
    /// Open Settings → Vault Agent → Model on the profile that failed.
    ProfileSettings,
    /// Pick another model profile in the chat header.
    SwitchProfile,
}

impl ChatEvent {
    /// An error about the request itself (nothing the settings can fix),
    /// without buttons.
    pub fn plain_error(code: &str, message: String) -> Self {
        ChatEvent::Error {
            code: code.into(),
            message,
            retryable: false,
            address: None,
            way_out: Vec::new(),
        }
    }
}

/// The answer of "Test connection".
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ConnectionReport {
    pub ok: bool,
    pub models: Vec<String>,
    pub message: String,
}

/// Where events go (the chat view, through the shim; a list in tests).
pub trait ChatEvents {
    fn emit(&self, event: ChatEvent);
}

/// The user's answer to a paused turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision<'a> {
    Approve {
        argv_hash: &'a str,
    },
    /// An outside tool's card: approve, and let this tool of this server run
    /// without a card for the rest of this chat.
    ApproveForChat {
        argv_hash: &'a str,
    },
    /// A note edit's card reviewed in the editor: only these of its
    /// changes (as `notes::review` numbers them) are approved.
    ApproveChanges {
        argv_hash: &'a str,
        changes: &'a [usize],
    },
    Reject,
    /// Answered already on the plugin's own card (a headless turn): take
    /// that answer; one not given counts as a no.
    Answered,
}
