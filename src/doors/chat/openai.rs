//! OpenAI Chat Completions, as OpenAI, Ollama, LM Studio and OpenRouter speak
//! it: the request, and the stream whose `delta.tool_calls` fragments are
//! assembled by `index`.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{json, Value};

use super::conversation::{ChatMessage, ToolCallRecord, Usage};
use super::sse::SseEvent;
use super::think_tags::ThinkTags;
use crate::base::host::{HttpRequest, ImageData};
use crate::doors::chat::model::{
    ChatError, ModelReply, ModelRequest, StreamAssembler, StreamPiece,
};
use crate::settings::ProviderSettings;

fn headers(api_key: Option<String>) -> Vec<(String, String)> {
    let mut headers = vec![("Content-Type".to_string(), "application/json".to_string())];
    if let Some(key) = api_key.filter(|k| !k.is_empty()) {
        headers.push(("Authorization".into(), format!("Bearer {key}")));
    }
    headers
}

pub fn chat_request(request: &ModelRequest) -> HttpRequest {
    let mut messages = vec![json!({"role": "system", "content": request.system})];
    // A tool message takes text only: an outside tool's images
    // (`images::for_round`) follow the run of tool messages as a user message.
    let mut tool_images: Vec<&ImageData> = Vec::new();
    for message in request.messages {
        if !matches!(message, ChatMessage::Tool { .. }) && !tool_images.is_empty() {
            messages.push(super::images::tool_images_message(&std::mem::take(
                &mut tool_images,
            )));
        }
        match message {
            ChatMessage::User { text, .. } => {
                let images = super::images::loaded(message);
                let content = match images.is_empty() {
                    true => json!(text),
                    false => super::images::openai_content(text, &images),
                };
                messages.push(json!({"role": "user", "content": content}))
            }
            // An empty answer is never sent back (older chats may hold one).
            // Reasoning is never sent back (DeepSeek refuses it; it is not answer text).
            ChatMessage::Assistant {
                text, tool_calls, ..
            } if text.trim().is_empty() && tool_calls.is_empty() => {}
            ChatMessage::Assistant {
                text, tool_calls, ..
            } => {
                let mut m = json!({"role": "assistant", "content": if text.is_empty() { Value::Null } else { json!(text) }});
                if !tool_calls.is_empty() {
                    m["tool_calls"] = tool_calls
                        .iter()
                        .map(|c| json!({"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}))
                        .collect();
                }
                messages.push(m);
            }
            ChatMessage::Tool {
                call_id,
                content,
                result,
                ..
            } => {
                tool_images.extend(result.images.iter());
                messages.push(json!({"role": "tool", "tool_call_id": call_id, "content": content}))
            }
            ChatMessage::Notice { .. } => {}
        }
    }
    if !tool_images.is_empty() {
        messages.push(super::images::tool_images_message(&tool_images));
    }
    let tools: Vec<Value> = request
        .tools
        .iter()
        .map(|t| json!({"type": "function", "function": {"name": t.name, "description": t.description, "parameters": t.input_schema}}))
        .collect();
    let mut body = json!({
        "model": request.settings.model,
        "messages": messages,
        "stream": true,
    });
    if request.answer_tokens > 0 {
        // Without a limit a small model may write until its context is
        // full. OpenAI's own API wants the newer name (its reasoning models
        // refuse `max_tokens`); the servers that copy it know the older one.
        let field = if request.settings.base_url.contains("api.openai.com") {
            "max_completion_tokens"
        } else {
            "max_tokens"
        };
        body[field] = json!(request.answer_tokens);
    }
    if request.stream_usage {
        // The last chunk then carries `usage` (servers that reject this are
        // asked again without it, see `chat::ask_model`).
        body["stream_options"] = json!({"include_usage": true});
    }
    if !tools.is_empty() {
        body["tools"] = json!(tools);
    }
    HttpRequest {
        method: "POST".into(),
        url: format!("{}/chat/completions", request.settings.base_url),
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
        url: format!("{}/models", settings.base_url),
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

#[derive(Default)]
struct PartialCall {
    id: String,
    name: String,
    arguments: String,
}

#[derive(Default)]
pub struct OpenAiStream {
    text: String,
    calls: BTreeMap<u64, PartialCall>,
    finish_reason: Option<String>,
    reasoning: String,
    usage: Option<Usage>,
    think_tags: ThinkTags,
}

/// One streamed chunk, borrowing from the event where it can: typed
/// parsing is several times faster than building a `Value` per token.
#[derive(Deserialize)]
struct Chunk<'a> {
    #[serde(default, borrow)]
    choices: Vec<Choice<'a>>,
    #[serde(default)]
    error: Option<Value>,
    #[serde(default)]
    usage: Option<Value>,
}

#[derive(Deserialize)]
struct Choice<'a> {
    #[serde(default, borrow)]
    delta: Delta<'a>,
    #[serde(default, borrow)]
    finish_reason: Option<Cow<'a, str>>,
}

#[derive(Default, Deserialize)]
struct Delta<'a> {
    #[serde(default, borrow)]
    content: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    tool_calls: Vec<ToolCallDelta<'a>>,
    /// DeepSeek, LM Studio (and older vLLM) name the reasoning this…
    #[serde(default, borrow)]
    reasoning_content: Option<Cow<'a, str>>,
    /// …OpenRouter, Ollama's /v1 and newer vLLM this.
    #[serde(default, borrow)]
    reasoning: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct ToolCallDelta<'a> {
    #[serde(default)]
    index: Option<u64>,
    #[serde(default, borrow)]
    id: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    function: Option<FunctionDelta<'a>>,
}

#[derive(Deserialize)]
struct FunctionDelta<'a> {
    #[serde(default, borrow)]
    name: Option<Cow<'a, str>>,
    /// A string fragment, or (from some servers) the whole object.
    #[serde(default)]
    arguments: Option<Value>,
}

impl OpenAiStream {
    fn keep(&mut self, piece: &StreamPiece) {
        match piece {
            StreamPiece::Text(text) => self.text.push_str(text),
            StreamPiece::Reasoning(thought) => self.reasoning.push_str(thought),
        }
    }
}

impl StreamAssembler for OpenAiStream {
    fn on_event(&mut self, event: &SseEvent) -> Result<Vec<StreamPiece>, ChatError> {
        let data = event.data.trim();
        if data.is_empty() || data == "[DONE]" {
            return Ok(Vec::new());
        }
        let chunk: Chunk = serde_json::from_str(data).map_err(|e| ChatError::BadStream {
            detail: format!("{e} in {}", data.chars().take(120).collect::<String>()),
        })?;
        if let Some(error) = chunk.error {
            let message = error
                .get("message")
                .and_then(Value::as_str)
                .map(str::to_string)
                .or_else(|| error.as_str().map(str::to_string))
                .unwrap_or_else(|| error.to_string());
            // The code (`context_length_exceeded`) tells as much as the words.
            let code = error.get("code").or_else(|| error.get("type"));
            let said = match code.and_then(Value::as_str) {
                Some(code) => format!("{message} ({code})"),
                None => message,
            };
            return Err(super::model::stream_error(&said));
        }
        if let Some(usage) = chunk.usage.as_ref().and_then(super::model::read_usage) {
            self.usage = Some(usage);
        }
        let mut pieces = Vec::new();
        for choice in chunk.choices {
            let thought = choice.delta.reasoning_content.or(choice.delta.reasoning);
            if let Some(thought) = thought.filter(|t| !t.is_empty()) {
                self.reasoning.push_str(&thought);
                pieces.push(StreamPiece::Reasoning(thought.into_owned()));
            }
            if let Some(text) = choice.delta.content.filter(|t| !t.is_empty()) {
                for piece in self.think_tags.push(&text) {
                    self.keep(&piece);
                    pieces.push(piece);
                }
            }
            for fragment in choice.delta.tool_calls {
                let index = fragment.index.unwrap_or(self.calls.len() as u64);
                let call = self.calls.entry(index).or_default();
                if let Some(id) = fragment.id {
                    call.id.push_str(&id);
                }
                if let Some(function) = fragment.function {
                    if let Some(name) = function.name {
                        call.name.push_str(&name);
                    }
                    match function.arguments {
                        Some(Value::String(arguments)) => call.arguments.push_str(&arguments),
                        Some(other @ Value::Object(_)) => {
                            call.arguments.push_str(&other.to_string())
                        }
                        _ => {}
                    }
                }
            }
            if let Some(reason) = choice.finish_reason {
                self.finish_reason = Some(reason.into_owned());
            }
        }
        Ok(pieces)
    }

    fn flush(&mut self) -> Vec<StreamPiece> {
        let pieces = self.think_tags.finish();
        for piece in &pieces {
            self.keep(piece);
        }
        pieces
    }

    fn finish(mut self: Box<Self>) -> ModelReply {
        // Nothing more when the stream's end was flushed already.
        self.flush();
        let tool_calls = self
            .calls
            .into_iter()
            .map(|(index, call)| ToolCallRecord {
                id: if call.id.is_empty() {
                    format!("call_{index}")
                } else {
                    call.id
                },
                name: call.name,
                arguments: call.arguments,
                as_text: false,
            })
            .collect();
        ModelReply {
            text: self.text,
            tool_calls,
            stop_reason: self.finish_reason,
            reasoning: self.reasoning,
            thinking: Vec::new(),
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

    fn event(data: &str) -> SseEvent {
        SseEvent {
            event: None,
            data: data.into(),
        }
    }

    #[test]
    fn text_and_tool_call_fragments_assemble_by_index() {
        let mut s = OpenAiStream::default();
        let events = [
            r#"{"choices":[{"delta":{"role":"assistant","content":"Let me "}}]}"#,
            r#"{"choices":[{"delta":{"content":"look."}}]}"#,
            r#"{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"obsidianTasks","arguments":""}}]}}]}"#,
            r#"{"choices":[{"delta":{"tool_calls":[{"index":1,"id":"call_b","function":{"name":"obsidianDailyNote","arguments":"{\"comm"}}]}}]}"#,
            r#"{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"command\":\"tasks\"}"}}]}}]}"#,
            r#"{"choices":[{"delta":{"tool_calls":[{"index":1,"function":{"arguments":"and\":\"daily:read\"}"}}]},"finish_reason":"tool_calls"}]}"#,
            "[DONE]",
        ];
        let mut text = String::new();
        for e in events {
            for piece in s.on_event(&event(e)).unwrap() {
                if let StreamPiece::Text(t) = piece {
                    text.push_str(&t);
                }
            }
        }
        assert_eq!(text, "Let me look.");
        let reply = Box::new(s).finish();
        assert_eq!(reply.tool_calls.len(), 2);
        assert_eq!(reply.tool_calls[0].arguments, r#"{"command":"tasks"}"#);
        assert_eq!(reply.tool_calls[1].name, "obsidianDailyNote");
        assert_eq!(reply.tool_calls[1].arguments, r#"{"command":"daily:read"}"#);
        assert_eq!(reply.stop_reason.as_deref(), Some("tool_calls"));
    }

    #[test]
    fn text_held_back_as_a_possible_tag_is_streamed_at_the_end() {
        for (content, reasoning) in [("<", ""), ("<thi", ""), ("<think>hm</thi", "hm</thi")] {
            let mut s = OpenAiStream::default();
            let data = json!({"choices": [{"delta": {"content": content}}]}).to_string();
            let mut pieces = s.on_event(&event(&data)).unwrap();
            pieces.extend(s.flush());
            let (mut text, mut thought) = (String::new(), String::new());
            for piece in pieces {
                match piece {
                    StreamPiece::Text(t) => text.push_str(&t),
                    StreamPiece::Reasoning(r) => thought.push_str(&r),
                }
            }
            let answer = if reasoning.is_empty() { content } else { "" };
            assert_eq!((text.as_str(), thought.as_str()), (answer, reasoning));
            assert_eq!(s.partial_text(), answer);
            // Flushed once: the reply has it once.
            let reply = Box::new(s).finish();
            assert_eq!(
                (reply.text.as_str(), reply.reasoning.as_str()),
                (answer, reasoning)
            );
        }
    }

    #[test]
    fn the_answer_limit_is_sent_under_the_name_the_server_knows() {
        let request = |base_url: &str| {
            let settings = ProviderSettings {
                base_url: base_url.into(),
                ..ProviderSettings::defaults(crate::settings::ProviderKind::OpenAi)
            };
            let http = chat_request(&ModelRequest {
                settings: &settings,
                api_key: None,
                system: "s",
                messages: &[],
                tools: &[],
                first_token_timeout_ms: 300_000,
                timeout_ms: 60_000,
                answer_tokens: 1024,
                stream_usage: false,
                thinking_budget: 0,
            });
            let body: Value = serde_json::from_str(http.body.as_deref().unwrap()).unwrap();
            (
                body,
                http.timeout_ms,
                http.first_byte_timeout_ms,
                http.idle_timeout_ms,
            )
        };
        let (local, until_headers, first, between) = request("http://localhost:8080/v1");
        assert_eq!(local["max_tokens"], 1024);
        // The first token's wait covers the headers and the first byte.
        assert_eq!((until_headers, first, between), (300_000, 300_000, 60_000));
        let (openai, ..) = request("https://api.openai.com/v1");
        assert_eq!(openai["max_completion_tokens"], 1024);
        assert!(openai.get("max_tokens").is_none(), "{openai}");
    }

    #[test]
    fn an_error_in_the_stream_is_reported() {
        let mut s = OpenAiStream::default();
        let err = s
            .on_event(&event(r#"{"error":{"message":"overloaded"}}"#))
            .unwrap_err();
        assert!(err.to_string().contains("overloaded"));
        assert_eq!(
            s.on_event(&event("{oops")).unwrap_err().code(),
            "bad_stream"
        );
    }
}
