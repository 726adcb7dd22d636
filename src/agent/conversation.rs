//! A conversation as the plugin stores it: the messages the model sees, plus
//! what the UI shows for each tool call. Saved as JSON in the plugin's folder.

use serde::{Deserialize, Serialize};

use crate::agent::table::Table;
use crate::result::ToolResult;

/// A tool call the model asked for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCallRecord {
    pub id: String,
    pub name: String,
    /// The arguments exactly as the model sent them (JSON text, maybe invalid).
    pub arguments: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "camelCase")]
pub enum ChatMessage {
    #[serde(rename_all = "camelCase")]
    User { text: String },
    #[serde(rename_all = "camelCase")]
    Assistant {
        text: String,
        #[serde(default)]
        tool_calls: Vec<ToolCallRecord>,
    },
    /// A tool's answer: `content` is what the model reads, `result` what the UI shows.
    #[serde(rename_all = "camelCase")]
    Tool {
        call_id: String,
        tool: String,
        content: String,
        is_error: bool,
        result: Box<ToolResult>,
        #[serde(default)]
        table: Option<Table>,
    },
    /// Said by the plugin, not the model (round limit, stop); never sent to the model.
    #[serde(rename_all = "camelCase")]
    Notice { text: String },
}

/// A turn paused on the user's decision about a change.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PausedTurn {
    pub confirmation_id: String,
    /// The call waiting for the decision.
    pub call: ToolCallRecord,
    /// Calls of the same model reply that come after it.
    pub remaining: Vec<ToolCallRecord>,
    /// Tool rounds used so far in this turn.
    pub rounds: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Conversation {
    pub id: String,
    pub title: String,
    pub created_ms: f64,
    pub updated_ms: f64,
    pub messages: Vec<ChatMessage>,
    #[serde(default)]
    pub paused: Option<PausedTurn>,
    /// Set for a turn asked from outside the chat view (`vault-agent:ask`):
    /// its tool calls run at most as permissive as `modeCap`, and a card
    /// names who asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub door: Option<OutsideDoor>,
}

/// Who asked for a headless turn, and the mode it may use at most.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OutsideDoor {
    pub name: String,
    pub mode_cap: crate::settings::PermissionMode,
}

impl Conversation {
    pub fn new(id: String, now_ms: f64) -> Self {
        Conversation {
            id,
            title: "New chat".into(),
            created_ms: now_ms,
            updated_ms: now_ms,
            messages: Vec::new(),
            paused: None,
            door: None,
        }
    }

    /// The answer being given: this conversation and the number of the
    /// user's message it answers ("chat-…#3"), so its changes can be undone
    /// together.
    pub fn turn_id(&self) -> String {
        let asked = self
            .messages
            .iter()
            .filter(|m| matches!(m, ChatMessage::User { .. }))
            .count();
        format!("{}#{asked}", self.id)
    }

    /// The title is the start of the first thing the user said.
    pub fn retitle(&mut self) {
        if let Some(ChatMessage::User { text }) = self
            .messages
            .iter()
            .find(|m| matches!(m, ChatMessage::User { .. }))
        {
            let line = text.lines().next().unwrap_or("").trim();
            let mut title: String = line.chars().take(60).collect();
            if title.len() < line.len() {
                title.push('…');
            }
            if !title.is_empty() {
                self.title = title;
            }
        }
    }
}
