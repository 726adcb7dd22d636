//! Anthropic Messages: the request (tool results travel in user turns), and
//! the stream of `content_block_start` / `*_delta` / `content_block_stop`.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{json, Value};

use super::conversation::{ChatMessage, ToolCallRecord, Usage};
use super::sse::SseEvent;
use crate::base::host::HttpRequest;
use crate::doors::chat::model::{
    ChatError, ModelReply, ModelRequest, StreamAssembler, StreamPiece,
};
use crate::settings::ProviderSettings;

const API_VERSION: &str = "2023-06-01";
const MAX_TOKENS: u32 = 4096;

fn headers(api_key: Option<String>) -> Vec<(String, String)> {
    let mut headers = vec![
        ("Content-Type".to_string(), "application/json".to_string()),
        ("anthropic-version".to_string(), API_VERSION.to_string()),
    ];
    if let Some(key) = api_key.filter(|k| !k.is_empty()) {
        headers.push(("x-api-key".into(), key));
    }
    headers
}

/// Anthropic wants user and assistant turns to alternate, and tool results
/// inside a user turn: consecutive blocks of one role are merged. With
/// thinking on, the thinking blocks of the turn in progress go back first in
/// their assistant turn, unchanged (their signature is checked); older ones
/// are left out (the API would drop them anyway).
fn messages(history: &[ChatMessage], thinking_on: bool) -> Vec<Value> {
    let current_turn = history
        .iter()
        .rposition(|m| matches!(m, ChatMessage::User { .. }))
        .unwrap_or(0);
    let mut out: Vec<(String, Vec<Value>)> = Vec::new();
    let mut push = |role: &str, block: Value| match out.last_mut() {
        Some((last, blocks)) if last == role => blocks.push(block),
        _ => out.push((role.to_string(), vec![block])),
    };
    for (at, message) in history.iter().enumerate() {
        match message {
            ChatMessage::User { text, .. } => {
                // Images first: Anthropic reads a question about them best after them.
                for image in super::images::loaded(message) {
                    push("user", super::images::anthropic_block(image));
                }
                for document in super::pdf::loaded(message) {
                    push("user", super::pdf::anthropic_block(document));
                }
                push("user", json!({"type": "text", "text": text}))
            }
            ChatMessage::Assistant {
                text,
                tool_calls,
                thinking,
                ..
            } => {
                if thinking_on && at > current_turn {
                    for block in thinking {
                        push("assistant", block.clone());
                    }
                }
                if !text.is_empty() {
                    push("assistant", json!({"type": "text", "text": text}));
                }
                for call in tool_calls {
                    // Invalid JSON from the model still needs an object here;
                    // the tool result already told it what was wrong.
                    let input = serde_json::from_str::<Value>(&call.arguments)
                        .ok()
                        .filter(Value::is_object)
                        .unwrap_or_else(|| json!({}));
                    push(
                        "assistant",
                        json!({"type": "tool_use", "id": call.id, "name": call.name, "input": input}),
                    );
                }
            }
            ChatMessage::Tool {
                call_id,
                content,
                is_error,
                result,
                ..
            } => {
                // An outside tool's images go inside its result (`images::for_round`).
                let content = match result.images.is_empty() {
                    true => json!(content),
                    false => std::iter::once(json!({"type": "text", "text": content}))
                        .chain(result.images.iter().map(super::images::anthropic_block))
                        .collect(),
                };
                push(
                    "user",
                    json!({"type": "tool_result", "tool_use_id": call_id, "content": content, "is_error": is_error}),
                )
            }
            ChatMessage::Notice { .. } => {}
        }
    }
    out.into_iter()
        .map(|(role, content)| json!({"role": role, "content": content}))
        .collect()
}

pub fn messages_request(request: &ModelRequest) -> HttpRequest {
    let tools: Vec<Value> = request
        .tools
        .iter()
        .map(|t| json!({"name": t.name, "description": t.description, "input_schema": t.input_schema}))
        .collect();
    let thinking = request.thinking_budget > 0;
    let mut body = json!({
        "model": request.settings.model,
        // Thinking counts against max_tokens, which must exceed its budget.
        "max_tokens": MAX_TOKENS + request.thinking_budget,
        "system": request.system,
        "messages": messages(request.messages, thinking),
        "stream": true,
    });
    if thinking {
        body["thinking"] = json!({"type": "enabled", "budget_tokens": request.thinking_budget});
    }
    if !tools.is_empty() {
        body["tools"] = json!(tools);
    }
    HttpRequest {
        method: "POST".into(),
        url: format!("{}/v1/messages", request.settings.base_url),
        headers: headers(request.api_key.clone()),
        body: Some(body.to_string()),
        timeout_ms: request.first_token_timeout_ms,
        first_byte_timeout_ms: request.first_token_timeout_ms,
        idle_timeout_ms: request.timeout_ms,
        connect_address: None,
        expected_host: String::new(),
        tag: None,
    }
}

pub fn models_request(settings: &ProviderSettings, api_key: Option<String>) -> HttpRequest {
    HttpRequest {
        method: "GET".into(),
        url: format!("{}/v1/models", settings.base_url),
        headers: headers(api_key),
        body: None,
        timeout_ms: 15_000,
        first_byte_timeout_ms: 0,
        idle_timeout_ms: 15_000,
        connect_address: None,
        expected_host: String::new(),
        tag: None,
    }
}

/// A one-token message: Test connection's proof that the address, the key
/// and the model work at an address that does not list its models (a
/// gateway in front of Anthropic's API often answers only `/v1/messages`).
pub fn ping_request(settings: &ProviderSettings, api_key: Option<String>) -> HttpRequest {
    let body = json!({
        "model": settings.model,
        "max_tokens": 1,
        "messages": [{"role": "user", "content": "ping"}],
    });
    HttpRequest {
        method: "POST".into(),
        url: format!("{}/v1/messages", settings.base_url),
        headers: headers(api_key),
        body: Some(body.to_string()),
        timeout_ms: 30_000,
        first_byte_timeout_ms: 0,
        idle_timeout_ms: 30_000,
        connect_address: None,
        expected_host: String::new(),
        tag: None,
    }
}

enum Block {
    Text,
    Thinking {
        text: String,
        signature: String,
    },
    /// Encrypted thinking: only ever sent back as it came.
    Redacted(Value),
    ToolUse {
        id: String,
        name: String,
        json: String,
    },
    Other,
}

#[derive(Default)]
pub struct AnthropicStream {
    text: String,
    blocks: BTreeMap<u64, Block>,
    stop_reason: Option<String>,
    reasoning: String,
    usage: Option<Usage>,
}

/// One stream event, typed and borrowing (see `openai::Chunk`).
#[derive(Deserialize)]
struct StreamEvent<'a> {
    #[serde(rename = "type", default, borrow)]
    kind: Option<Cow<'a, str>>,
    #[serde(default)]
    index: u64,
    #[serde(default, borrow)]
    content_block: Option<ContentBlock<'a>>,
    #[serde(default, borrow)]
    delta: Option<BlockDelta<'a>>,
    #[serde(default)]
    error: Option<Value>,
    /// `message_start`: the message, with the input's `usage`.
    #[serde(default)]
    message: Option<Value>,
    /// `message_delta`: the output tokens so far.
    #[serde(default)]
    usage: Option<Value>,
}

#[derive(Deserialize)]
struct ContentBlock<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(default, borrow)]
    text: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    id: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    name: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    thinking: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    signature: Option<Cow<'a, str>>,
    #[serde(default)]
    data: Option<Value>,
}

#[derive(Deserialize)]
struct BlockDelta<'a> {
    #[serde(rename = "type", default, borrow)]
    kind: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    text: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    partial_json: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    stop_reason: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    thinking: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    signature: Option<Cow<'a, str>>,
}

impl StreamAssembler for AnthropicStream {
    fn on_event(&mut self, event: &SseEvent) -> Result<Vec<StreamPiece>, ChatError> {
        let parsed: StreamEvent =
            serde_json::from_str(&event.data).map_err(|e| ChatError::BadStream {
                detail: format!(
                    "{e} in {}",
                    event.data.chars().take(120).collect::<String>()
                ),
            })?;
        let kind = event
            .event
            .as_deref()
            .or(parsed.kind.as_deref())
            .unwrap_or_default();
        let index = parsed.index;
        let mut pieces = Vec::new();
        match kind {
            "content_block_start" => {
                let started = match parsed.content_block {
                    Some(block) if block.kind == "text" => {
                        if let Some(text) = block.text.filter(|t| !t.is_empty()) {
                            self.text.push_str(&text);
                            pieces.push(StreamPiece::Text(text.into_owned()));
                        }
                        Block::Text
                    }
                    Some(block) if block.kind == "thinking" => {
                        let text = block.thinking.unwrap_or_default().into_owned();
                        if !text.is_empty() {
                            self.reasoning.push_str(&text);
                            pieces.push(StreamPiece::Reasoning(text.clone()));
                        }
                        Block::Thinking {
                            text,
                            signature: block.signature.unwrap_or_default().into_owned(),
                        }
                    }
                    Some(block) if block.kind == "redacted_thinking" => Block::Redacted(
                        json!({"type": "redacted_thinking", "data": block.data.unwrap_or_default()}),
                    ),
                    Some(block) if block.kind == "tool_use" => Block::ToolUse {
                        id: block.id.unwrap_or_default().into_owned(),
                        name: block.name.unwrap_or_default().into_owned(),
                        json: String::new(),
                    },
                    _ => Block::Other,
                };
                self.blocks.insert(index, started);
            }
            "content_block_delta" => {
                let Some(delta) = parsed.delta else {
                    return Ok(pieces);
                };
                match (delta.kind.as_deref(), self.blocks.get_mut(&index)) {
                    (Some("text_delta"), _) => {
                        if let Some(text) = delta.text {
                            self.text.push_str(&text);
                            pieces.push(StreamPiece::Text(text.into_owned()));
                        }
                    }
                    (Some("input_json_delta"), Some(Block::ToolUse { json, .. })) => {
                        json.push_str(delta.partial_json.as_deref().unwrap_or_default());
                    }
                    (Some("thinking_delta"), Some(Block::Thinking { text, .. })) => {
                        if let Some(thought) = delta.thinking.filter(|t| !t.is_empty()) {
                            text.push_str(&thought);
                            self.reasoning.push_str(&thought);
                            pieces.push(StreamPiece::Reasoning(thought.into_owned()));
                        }
                    }
                    (Some("signature_delta"), Some(Block::Thinking { signature, .. })) => {
                        signature.push_str(delta.signature.as_deref().unwrap_or_default());
                    }
                    _ => {}
                }
            }
            "message_start" => {
                let usage = parsed.message.as_ref().and_then(|m| m.get("usage"));
                self.usage = usage.and_then(super::model::read_usage);
            }
            "message_delta" => {
                if let Some(reason) = parsed.delta.and_then(|d| d.stop_reason) {
                    self.stop_reason = Some(reason.into_owned());
                }
                // Counts here are totals so far: they replace, not add.
                if let Some(delta) = parsed.usage.as_ref().and_then(super::model::read_usage) {
                    let usage = self.usage.get_or_insert_with(Usage::default);
                    usage.output_tokens = delta.output_tokens;
                    if delta.input_tokens > 0 {
                        usage.input_tokens = delta.input_tokens;
                    }
                }
            }
            "error" => {
                let error = parsed.error.unwrap_or_default();
                let message = error
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or("unknown error");
                let kind = error.get("type").and_then(Value::as_str).unwrap_or("");
                return Err(if kind == "overloaded_error" || kind == "api_error" {
                    ChatError::ServerError {
                        status: 529,
                        detail: message.to_string(),
                    }
                } else {
                    super::model::stream_error(message)
                });
            }
            // content_block_stop, message_stop, ping
            _ => {}
        }
        Ok(pieces)
    }

    fn finish(self: Box<Self>) -> ModelReply {
        let thinking = self
            .blocks
            .values()
            .filter_map(|block| match block {
                Block::Thinking { text, signature } => {
                    Some(json!({"type": "thinking", "thinking": text, "signature": signature}))
                }
                Block::Redacted(value) => Some(value.clone()),
                _ => None,
            })
            .collect();
        let tool_calls = self
            .blocks
            .into_values()
            .filter_map(|block| match block {
                Block::ToolUse { id, name, json } => Some(ToolCallRecord {
                    id,
                    name,
                    // A tool without parameters streams no JSON at all.
                    arguments: if json.trim().is_empty() {
                        "{}".into()
                    } else {
                        json
                    },
                    as_text: false,
                }),
                _ => None,
            })
            .collect();
        ModelReply {
            text: self.text,
            tool_calls,
            stop_reason: self.stop_reason,
            reasoning: self.reasoning,
            thinking,
            usage: self.usage,
        }
    }

    fn partial_text(&self) -> String {
        self.text.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::result::ToolResult;

    fn event(kind: &str, data: &str) -> SseEvent {
        SseEvent {
            event: Some(kind.into()),
            data: data.into(),
        }
    }

    #[test]
    fn text_and_tool_use_blocks() {
        let mut s = AnthropicStream::default();
        let events = [
            (
                "message_start",
                r#"{"type":"message_start","message":{"id":"m"}}"#,
            ),
            (
                "content_block_start",
                r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#,
            ),
            (
                "content_block_delta",
                r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Checking."}}"#,
            ),
            (
                "content_block_stop",
                r#"{"type":"content_block_stop","index":0}"#,
            ),
            (
                "content_block_start",
                r#"{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"obsidianLinks","input":{}}}"#,
            ),
            (
                "content_block_delta",
                r#"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"command\": \"back"}}"#,
            ),
            (
                "content_block_delta",
                r#"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"links\", \"file\": \"Roadmap\"}"}}"#,
            ),
            (
                "content_block_stop",
                r#"{"type":"content_block_stop","index":1}"#,
            ),
            (
                "message_delta",
                r#"{"type":"message_delta","delta":{"stop_reason":"tool_use"}}"#,
            ),
            ("message_stop", r#"{"type":"message_stop"}"#),
        ];
        for (kind, data) in events {
            s.on_event(&event(kind, data)).unwrap();
        }
        let reply = Box::new(s).finish();
        assert_eq!(reply.text, "Checking.");
        assert_eq!(reply.tool_calls[0].name, "obsidianLinks");
        assert_eq!(
            reply.tool_calls[0].arguments,
            r#"{"command": "backlinks", "file": "Roadmap"}"#
        );
        assert_eq!(reply.stop_reason.as_deref(), Some("tool_use"));
    }

    #[test]
    fn tool_results_go_in_user_turns_and_roles_alternate() {
        let call = ToolCallRecord {
            id: "t1".into(),
            name: "x".into(),
            arguments: "not json".into(),
            as_text: false,
        };
        let history = vec![
            ChatMessage::User {
                text: "hi".into(),
                attachments: None,
            },
            ChatMessage::Assistant {
                text: String::new(),
                tool_calls: vec![call],
                reasoning: String::new(),
                thinking: Vec::new(),
                usage: None,
                sources: Vec::new(),
            },
            ChatMessage::Tool {
                call_id: "t1".into(),
                tool: "x".into(),
                content: "data".into(),
                is_error: false,
                result: Box::new(ToolResult::failure(
                    &crate::base::error::ToolError::EmptyOutput,
                    0.0,
                )),
                table: None,
            },
            ChatMessage::Notice {
                text: "not sent".into(),
            },
            ChatMessage::User {
                text: "and?".into(),
                attachments: None,
            },
        ];
        let m = messages(&history, false);
        assert_eq!(m.len(), 3);
        assert_eq!(m[1]["content"][0]["input"], json!({}));
        assert_eq!(m[2]["role"], "user");
        assert_eq!(m[2]["content"][0]["type"], "tool_result");
        assert_eq!(m[2]["content"][1]["text"], "and?");
    }
}
