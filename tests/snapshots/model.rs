//! What the chat's model is sent before the user's first word: the system
//! prompt and the tools (name and description; the argument schemas are
//! pinned by `src/tools/schemas.json`), for a model with a large context
//! window and, compact, for a small one.

use serde_json::{json, Value};
use vault_agent::doors::chat::conversation::Conversation;
use vault_agent::doors::chat::events::{ChatEvent, ChatEvents};
use vault_agent::testing::{block_on, ScriptedHttp};

use crate::vault::{core, Core};

struct Ignore;

impl ChatEvents for Ignore {
    fn emit(&self, _: ChatEvent) {}
}

/// The first request of a chat under these settings (an OpenAI-compatible
/// server: the default profile).
fn first_request(settings: Value) -> (Core, Value) {
    let core = core(settings);
    let body = format!(
        "data: {}\n\ndata: [DONE]\n\n",
        json!({"choices": [{"delta": {"content": "Hi."}}]})
    );
    core.host().script_http(ScriptedHttp::Response {
        status: 200,
        chunks: vec![body.into_bytes()],
    });
    block_on(core.chat.send(
        &mut Conversation::new("c1".into(), 0.0),
        "What is in my vault?",
        &Ignore,
    ));
    let sent: Value = serde_json::from_str(
        core.host().http_requests.borrow()[0]
            .body
            .as_deref()
            .expect("a request body"),
    )
    .unwrap();
    (core, sent)
}

fn system_prompt(sent: &Value) -> String {
    assert_eq!(sent["messages"][0]["role"], "system", "{sent}");
    sent["messages"][0]["content"].as_str().unwrap().to_string()
}

fn tool_descriptions(sent: &Value, with_parameters: bool) -> String {
    sent["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|tool| {
            let function = &tool["function"];
            let mut text = format!(
                "## {}\n{}\n",
                function["name"].as_str().unwrap(),
                function["description"].as_str().unwrap()
            );
            if with_parameters {
                text.push_str(&format!(
                    "parameters: {}\n",
                    serde_json::to_string(&function["parameters"]).unwrap()
                ));
            }
            text
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn full_system_prompt() {
    let (_, sent) = first_request(json!({"chat": {"openai": {"contextWindow": 128000}}}));
    insta::assert_snapshot!(system_prompt(&sent));
}

#[test]
fn full_tool_descriptions() {
    let (_, sent) = first_request(json!({"chat": {"openai": {"contextWindow": 128000}}}));
    insta::assert_snapshot!(tool_descriptions(&sent, false));
}

/// A 4 096-token window (Ollama's default, the default profile's server):
/// the guidance moves into short tool descriptions, whose parameters are
/// their own (not the full schemas), so they are pinned here too.
#[test]
fn compact_system_prompt() {
    let (_, sent) = first_request(Value::Null);
    insta::assert_snapshot!(system_prompt(&sent));
}

#[test]
fn compact_tool_descriptions() {
    let (_, sent) = first_request(Value::Null);
    insta::assert_snapshot!(tool_descriptions(&sent, true));
}

/// The note open in Obsidian is named only when the agent may read it; the
/// prompt of a scoped agent says nothing of it.
#[test]
fn compact_system_prompt_with_the_open_note_out_of_scope() {
    let (_, sent) = first_request(json!({"readFolders": ["Inbox"]}));
    insta::assert_snapshot!(system_prompt(&sent));
}

/// What the model reads when it repeats a call: the line added to the
/// second failure, and the refusals of a third try and of a change made again.
#[test]
fn repeated_calls() {
    use vault_agent::doors::chat::repeats::{refusal, Repeat, SECOND_FAILURE};
    insta::assert_snapshot!(format!(
        "second failure:{SECOND_FAILURE}\n\nfailed twice: {}\n\nchange done: {}",
        refusal(Repeat::FailedTwice),
        refusal(Repeat::ChangeDone)
    ));
}
