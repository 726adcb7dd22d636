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
        /// What the model thought before it answered: shown folded, never
        /// sent back as answer text.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        reasoning: String,
        /// Anthropic thinking blocks exactly as they came (with their
        /// signatures), sent back unchanged with the turn's `tool_use`.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        thinking: Vec<serde_json::Value>,
        /// On the answer that ends a turn: the tokens the server reported.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        usage: Option<AnswerUsage>,
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

impl ChatMessage {
    /// An answer with nothing but text and tool calls.
    pub fn assistant(text: String, tool_calls: Vec<ToolCallRecord>) -> Self {
        ChatMessage::Assistant {
            text,
            tool_calls,
            reasoning: String::new(),
            thinking: Vec::new(),
            usage: None,
        }
    }
}

/// Tokens in (read by the model) and out (written by it), as the server
/// reported them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Usage {
    pub input_tokens: u64,
    pub output_tokens: u64,
}

impl Usage {
    pub fn add(&mut self, other: Usage) {
        self.input_tokens += other.input_tokens;
        self.output_tokens += other.output_tokens;
    }
}

/// One answer's tokens (all the model rounds of its turn), and how full the
/// context window was in its last round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AnswerUsage {
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// Tokens in and out of the last round: what the window held.
    pub context_tokens: u64,
    pub context_window: u64,
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
    /// Every token the server reported in this chat.
    #[serde(default)]
    pub usage: Usage,
    /// The rounds of the turn in progress (kept across a confirmation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_usage: Option<Usage>,
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
            usage: Usage::default(),
            turn_usage: None,
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
