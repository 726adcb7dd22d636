//! The user's own MCP servers in the loop (fake host): a call waits for its
//! card and is sent only on an Approve whose hash matches, its answer reaches
//! the model as outside data, and an unreachable server's tools are not offered.

use super::*;
use vault_agent::base::outside::{OutsideListing, OutsideTool};

fn with_server(trust: &str) -> VaultAgent<FakeHost> {
    let core = agent(json!({
        "permissionMode": "askBeforeEdits",
        "mcpServers": [{ "id": "srv", "command": "srv-mcp", "trust": trust }]
    }));
    core.host().outside_servers.borrow_mut().push((
        "srv".into(),
        OutsideListing {
            ok: true,
            name: "Server".into(),
            tools: vec![OutsideTool {
                name: "wipe".into(),
                description: "Wipes a thing.".into(),
                input_schema: json!({ "type": "object", "properties": { "what": { "type": "string" } } }),
                annotations: json!({ "destructiveHint": true }),
                ..OutsideTool::default()
            }],
            ..OutsideListing::default()
        },
    ));
    core
}

fn card(events: &Recorder) -> (String, String) {
    events
        .0
        .borrow()
        .iter()
        .find_map(|e| match e {
            ChatEvent::ConfirmationNeeded { card, .. } => {
                Some((card.id.clone(), card.argv_hash.clone()))
            }
            _ => None,
        })
        .expect("a card")
}

#[test]
fn a_call_is_sent_only_after_an_approve_of_that_card() {
    let core = with_server("askEveryCall");
    core.host().script_http(ok(openai_sse(
        "",
        &[("mcp_srv_wipe", r#"{"what":"cache"}"#)],
        3,
    )));
    let events = Recorder::default();
    let mut conv = conversation();
    let end = block_on(core.chat.send(&mut conv, "wipe the cache", &events));
    assert_eq!(end, TurnEnd::AwaitingConfirmation);
    let offered = request_body(&core, 0)["tools"].to_string();
    assert!(offered.contains("mcp_srv_wipe") && offered.contains("[MCP server srv]"));
    assert!(
        core.host().outside_calls.borrow().is_empty(),
        "nothing sent yet"
    );
    let (id, hash) = card(&events);
    core.host()
        .script_http(ok(openai_sse("Could not.", &[], 1)));
    let wrong = Recorder::default();
    block_on(core.chat.resolve(
        &mut conv,
        &id,
        Decision::Approve { argv_hash: "0000" },
        &wrong,
    ));
    assert!(
        core.host().outside_calls.borrow().is_empty(),
        "another card's hash sends nothing"
    );

    core.host().script_http(ok(openai_sse(
        "",
        &[("mcp_srv_wipe", r#"{"what":"logs"}"#)],
        3,
    )));
    let events = Recorder::default();
    block_on(core.chat.send(&mut conv, "wipe the logs", &events));
    let (id, hash2) = card(&events);
    assert_ne!(hash, hash2);
    core.host().script_http(ok(openai_sse("Wiped.", &[], 1)));
    let end = block_on(core.chat.resolve(
        &mut conv,
        &id,
        Decision::Approve { argv_hash: &hash2 },
        &Recorder::default(),
    ));
    assert_eq!(end, TurnEnd::Done);
    let calls = core.host().outside_calls.borrow();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].tool, "wipe");
    assert_eq!(calls[0].arguments, json!({ "what": "logs" }));
    assert_eq!(calls[0].server.command, "srv-mcp");
    let body = request_body(&core, 3).to_string();
    assert!(
        body.contains("outside-data server=\\\"srv\\\" tool=\\\"wipe\\\""),
        "{body}"
    );
}

#[test]
fn an_unreachable_server_is_said_and_its_tools_are_not_offered() {
    let core = agent(json!({ "mcpServers": [{ "id": "gone", "command": "gone-mcp" }] }));
    core.host().script_http(ok(openai_sse("Hi.", &[], 1)));
    let events = Recorder::default();
    block_on(core.chat.send(&mut conversation(), "hi", &events));
    assert!(!request_body(&core, 0)["tools"].to_string().contains("mcp_"));
    let notices: Vec<String> = events
        .0
        .borrow()
        .iter()
        .filter_map(|e| match e {
            ChatEvent::Notice { text } => Some(text.clone()),
            _ => None,
        })
        .collect();
    assert!(
        notices
            .iter()
            .any(|n| n.contains("`gone` could not be reached")),
        "{notices:?}"
    );
}

#[test]
fn approve_for_this_chat_after_the_mode_went_to_read_only_sends_and_keeps_nothing() {
    let core = with_server("askEveryCall");
    core.host().script_http(ok(openai_sse(
        "",
        &[("mcp_srv_wipe", r#"{"what":"cache"}"#)],
        3,
    )));
    let events = Recorder::default();
    let mut conv = conversation();
    let end = block_on(core.chat.send(&mut conv, "wipe the cache", &events));
    assert_eq!(end, TurnEnd::AwaitingConfirmation);
    let (id, hash) = card(&events);
    // Switched to Read only in the header while the card waits.
    core.engine.set_settings(&json!({
        "permissionMode": "readOnly",
        "mcpServers": [{ "id": "srv", "command": "srv-mcp", "trust": "askEveryCall" }]
    }));
    core.host().script_http(ok(openai_sse("Refused.", &[], 1)));
    block_on(core.chat.resolve(
        &mut conv,
        &id,
        Decision::ApproveForChat { argv_hash: &hash },
        &Recorder::default(),
    ));
    assert!(core.host().outside_calls.borrow().is_empty());
    assert!(
        conv.approved_outside.is_empty(),
        "a refused click approves nothing for later: {:?}",
        conv.approved_outside
    );
    let body = request_body(&core, 1).to_string();
    assert!(body.contains("Read only"), "{body}");
}

#[test]
fn the_outside_tools_count_in_the_context_budget() {
    // A window too small for anything: the error says what the prompt needs.
    let needed = |tools: usize| {
        let core = agent(json!({
            "chat": {"profiles": [{"id": "a", "provider": "openAi", "contextWindow": 512}]},
            "mcpServers": [{ "id": "srv", "command": "srv-mcp", "trust": "askEveryCall" }]
        }));
        core.host().outside_servers.borrow_mut().push((
            "srv".into(),
            OutsideListing {
                ok: true,
                name: "Server".into(),
                tools: (0..tools)
                    .map(|i| OutsideTool {
                        name: format!("lookup_{i}"),
                        description: "Looks a word up in the dictionary.".into(),
                        input_schema: json!({ "type": "object", "properties": { "word": { "type": "string" } } }),
                        annotations: json!({ "readOnlyHint": true }),
                        ..OutsideTool::default()
                    })
                    .collect(),
                ..OutsideListing::default()
            },
        ));
        let events = Recorder::default();
        block_on(core.chat.send(&mut conversation(), "hi", &events));
        tokens_needed(&events)
    };
    let none = needed(0);
    let ten = needed(10);
    assert!(
        ten >= none + 100,
        "{none} tokens with no outside tool, {ten} with ten"
    );
}
