//! The chat agent loop against scripted model servers (fake host): tool
//! rounds, writes off, confirmations, malformed arguments, Stop, server
//! errors and the round limit, for both providers. The shared scripting
//! (recorder, streams, the core) is here; the tests are in one module per
//! subject.

use std::cell::RefCell;

use serde_json::{json, Value};
use vault_agent::base::host::{HttpFailure, Os, ProcessOutcome};
use vault_agent::doors::chat::conversation::{Attachment, ChatMessage, Conversation};
use vault_agent::doors::chat::{ChatEvent, ChatEvents, Decision, TurnEnd};
use vault_agent::testing::{block_on, FakeHost, ScriptedHttp};
use vault_agent::VaultAgent;

mod compaction;
mod conversation;
mod failures;
mod images;
mod local_only;
mod memory;
mod outside;
mod paths;
mod prompt;
mod providers;
mod saved_prompts;
mod tools;
mod window;

#[derive(Default)]
struct Recorder(RefCell<Vec<ChatEvent>>);

impl ChatEvents for Recorder {
    fn emit(&self, event: ChatEvent) {
        self.0.borrow_mut().push(event);
    }
}

impl Recorder {
    fn kinds(&self) -> Vec<String> {
        self.0
            .borrow()
            .iter()
            .map(|e| {
                serde_json::to_value(e).unwrap()["type"]
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect()
    }
    fn text(&self) -> String {
        self.0
            .borrow()
            .iter()
            .filter_map(|e| match e {
                ChatEvent::TextDelta { text } => Some(text.clone()),
                _ => None,
            })
            .collect()
    }
}

/// An OpenAI stream (SSE) with some text and tool calls, cut into `pieces`.
fn openai_sse(text: &str, calls: &[(&str, &str)], pieces: usize) -> Vec<Vec<u8>> {
    let mut body = String::new();
    if !text.is_empty() {
        for word in text.split_inclusive(' ') {
            body.push_str(&format!(
                "data: {}\n\n",
                json!({"choices": [{"delta": {"content": word}}]})
            ));
        }
    }
    for (i, (name, args)) in calls.iter().enumerate() {
        let (a, b) = args.split_at(args.len() / 2);
        body.push_str(&format!(
            "data: {}\n\n",
            json!({"choices": [{"delta": {"tool_calls": [{"index": i, "id": format!("call_{i}"), "type": "function", "function": {"name": name, "arguments": a}}]}}]})
        ));
        body.push_str(&format!(
            "data: {}\n\n",
            json!({"choices": [{"delta": {"tool_calls": [{"index": i, "function": {"arguments": b}}]}}]})
        ));
    }
    body.push_str("data: [DONE]\n\n");
    split(body.into_bytes(), pieces)
}

fn split(bytes: Vec<u8>, pieces: usize) -> Vec<Vec<u8>> {
    let size = bytes.len().div_ceil(pieces.max(1)).max(1);
    bytes.chunks(size).map(<[u8]>::to_vec).collect()
}

fn ok(chunks: Vec<Vec<u8>>) -> ScriptedHttp {
    ScriptedHttp::Response {
        status: 200,
        chunks,
    }
}

/// A core over a fake CLI that records commands, with the given settings.
fn agent(settings: Value) -> VaultAgent<FakeHost> {
    let mut host = FakeHost::new(Os::Linux, |request| {
        ProcessOutcome::success(match request.args[0].as_str() {
            "tasks" => "- [ ] Review PR\n- [ ] Call Alice",
            "backlinks" => "Projects/Roadmap.md\t2",
            "property:read" => "active",
            "property:set" => "Property \"status\" set on Projects/Plan.md",
            _ => "ok",
        })
    });
    host.env.insert("PATH".into(), "/usr/bin".into());
    host.add_executable("/usr/bin/obsidian");
    host.secrets
        .insert("anthropic-key".into(), "sk-ant-test".into());
    VaultAgent::new(host, &settings).0
}

fn conversation() -> Conversation {
    Conversation::new("c1".into(), 0.0)
}

/// What the model's summary of earlier turns says in these tests.
const SUMMARY: &str = "The user keeps a plan in [[Plan]] and asks about tasks.";

fn body_of(request: &vault_agent::base::host::HttpRequest) -> Value {
    serde_json::from_str(request.body.as_deref().unwrap()).unwrap()
}

/// Whether a request asked for a summary of earlier turns (`compact`).
fn is_summary(body: &Value) -> bool {
    body["messages"][0]["content"]
        .as_str()
        .is_some_and(|s| s.starts_with("You summarise the earlier part of a chat"))
}

/// Every summary request is answered with `SUMMARY` (or, `failing`, with a
/// server error); the chat's own rounds take the script.
fn answer_summaries(core: &VaultAgent<FakeHost>, failing: bool) {
    *core.host().http_answerer.borrow_mut() = Some(std::rc::Rc::new(
        move |request: &vault_agent::base::host::HttpRequest| {
            is_summary(&body_of(request)).then(|| match failing {
                true => ScriptedHttp::Response {
                    status: 500,
                    chunks: vec![br#"{"error":{"message":"no summaries here"}}"#.to_vec()],
                },
                false => ok(openai_sse(SUMMARY, &[], 2)),
            })
        },
    ));
}

fn request_body(core: &VaultAgent<FakeHost>, n: usize) -> Value {
    serde_json::from_str(core.host().http_requests.borrow()[n].body.as_ref().unwrap()).unwrap()
}

/// An Anthropic stream with text and tool_use blocks, cut into `pieces`.
fn anthropic_sse(text: &str, calls: &[(&str, &str)], pieces: usize) -> Vec<Vec<u8>> {
    let mut events: Vec<(String, Value)> = vec![(
        "message_start".into(),
        json!({"type": "message_start", "message": {"id": "msg"}}),
    )];
    let mut index = 0;
    if !text.is_empty() {
        events.push(("content_block_start".into(), json!({"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}})));
        for word in text.split_inclusive(' ') {
            events.push(("content_block_delta".into(), json!({"type": "content_block_delta", "index": index, "delta": {"type": "text_delta", "text": word}})));
        }
        events.push((
            "content_block_stop".into(),
            json!({"type": "content_block_stop", "index": index}),
        ));
        index += 1;
    }
    for (i, (name, args)) in calls.iter().enumerate() {
        events.push(("content_block_start".into(), json!({"type": "content_block_start", "index": index, "content_block": {"type": "tool_use", "id": format!("toolu_{i}"), "name": name, "input": {}}})));
        let (a, b) = args.split_at(args.len() / 2);
        for part in [a, b] {
            events.push(("content_block_delta".into(), json!({"type": "content_block_delta", "index": index, "delta": {"type": "input_json_delta", "partial_json": part}})));
        }
        events.push((
            "content_block_stop".into(),
            json!({"type": "content_block_stop", "index": index}),
        ));
        index += 1;
    }
    let stop = if calls.is_empty() {
        "end_turn"
    } else {
        "tool_use"
    };
    events.push((
        "message_delta".into(),
        json!({"type": "message_delta", "delta": {"stop_reason": stop}}),
    ));
    events.push(("message_stop".into(), json!({"type": "message_stop"})));
    let body: String = events
        .iter()
        .map(|(kind, data)| format!("event: {kind}\ndata: {data}\n\n"))
        .collect();
    split(body.into_bytes(), pieces)
}

/// The error a failed turn showed: its code and message.
fn failure(events: &Recorder) -> (String, String) {
    events
        .0
        .borrow()
        .iter()
        .find_map(|e| match e {
            ChatEvent::Error { code, message, .. } => Some((code.clone(), message.clone())),
            _ => None,
        })
        .expect("an error event")
}

/// What a turn refused as `prompt_too_large` said the prompt needs, in
/// tokens (the largest number in its message).
fn tokens_needed(events: &Recorder) -> usize {
    let (code, message) = failure(events);
    assert_eq!(code, "prompt_too_large", "{message}");
    message
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse::<usize>().ok())
        .max()
        .unwrap()
}

/// Whether the core said the failed turn's banner may offer Retry.
fn retryable(events: &Recorder) -> bool {
    events
        .0
        .borrow()
        .iter()
        .find_map(|e| match e {
            ChatEvent::Error { retryable, .. } => Some(*retryable),
            _ => None,
        })
        .expect("an error event")
}

fn attached(
    path: &str,
    selection: Option<&str>,
) -> vault_agent::doors::chat::conversation::Attachment {
    vault_agent::doors::chat::conversation::Attachment {
        selection: selection.map(String::from),
        ..vault_agent::doors::chat::conversation::Attachment::note(path)
    }
}

/// SSE text from JSON events (OpenAI style: `data:` lines only).
fn sse(events: &[Value]) -> Vec<Vec<u8>> {
    let mut body: String = events.iter().map(|e| format!("data: {e}\n\n")).collect();
    body.push_str("data: [DONE]\n\n");
    split(body.into_bytes(), 3)
}

fn usage_events(events: &Recorder) -> Vec<(Value, Value)> {
    events
        .0
        .borrow()
        .iter()
        .filter_map(|e| match serde_json::to_value(e).unwrap() {
            v if v["type"] == "usage" => Some((v["usage"].clone(), v["chat"].clone())),
            _ => None,
        })
        .collect()
}

/// The notices of a turn, in order.
fn notices(events: &Recorder) -> Vec<String> {
    events
        .0
        .borrow()
        .iter()
        .filter_map(|e| match e {
            ChatEvent::Notice { text } => Some(text.clone()),
            _ => None,
        })
        .collect()
}

fn reasoning(events: &Recorder) -> String {
    events
        .0
        .borrow()
        .iter()
        .filter_map(|e| match e {
            ChatEvent::ReasoningDelta { text } => Some(text.clone()),
            _ => None,
        })
        .collect()
}

fn json_body(value: Value) -> ScriptedHttp {
    ok(vec![value.to_string().into_bytes()])
}
