//! Tool rounds: reads, writes off, cards approved and rejected, malformed and unknown calls, the round limit, calls printed as text, reads run together.

use super::*;

#[test]
fn a_read_tool_then_an_answer() {
    let core = agent(Value::Null);
    core.host().script_http(ok(openai_sse(
        "Let me check. ",
        &[(
            "obsidianTasks",
            r#"{"command":"tasks","all":true,"todo":true}"#,
        )],
        7,
    )));
    core.host()
        .script_http(ok(openai_sse("You have 2 open tasks.", &[], 5)));
    let events = Recorder::default();
    let mut conv = conversation();
    let end = block_on(
        core.chat
            .send(&mut conv, "What's open on my task list?", &events),
    );
    assert_eq!(end, TurnEnd::Done);
    assert_eq!(events.text(), "Let me check. You have 2 open tasks.");
    assert_eq!(
        core.host().requests.borrow()[0].args,
        ["tasks", "all", "todo"]
    );
    // The second request carries the tool result, marked as vault data.
    let body = request_body(&core, 1);
    let tool_message = body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["role"] == "tool")
        .unwrap();
    assert!(tool_message["content"]
        .as_str()
        .unwrap()
        .starts_with("<vault-data tool=\"obsidianTasks\" command=\"tasks\">"));
    assert_eq!(tool_message["tool_call_id"], "call_0");
    assert_eq!(conv.title, "What's open on my task list?");
    let kinds = events.kinds();
    assert_eq!(kinds.first().unwrap(), "modelRound");
    assert!(
        kinds.contains(&"toolStarted".to_string()) && kinds.contains(&"toolFinished".to_string())
    );
    assert_eq!(kinds.last().unwrap(), "turnEnded");
}

#[test]
fn the_request_offers_exactly_the_enabled_tools_with_their_schemas() {
    // A large window: the full schemas and the guidance in the prompt.
    let core = agent(
        json!({"tools": {"obsidianBookmarks": false, "obsidianRandomRead": false},
        "chat": {"openai": {"contextWindow": 128000}}}),
    );
    core.host().script_http(ok(openai_sse("Hi.", &[], 1)));
    block_on(
        core.chat
            .send(&mut conversation(), "hello", &Recorder::default()),
    );
    let body = request_body(&core, 0);
    let names: Vec<&str> = body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    let enabled: Vec<&str> = core
        .list_tools()
        .into_iter()
        .filter(|t| t.enabled)
        .map(|t| t.id)
        .collect();
    assert_eq!(names, enabled);
    assert!(!names.contains(&"obsidianBookmarks"));
    let daily = body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["function"]["name"] == "obsidianDailyNote")
        .unwrap();
    assert_eq!(
        daily["function"]["parameters"]["properties"]["command"]["enum"][0],
        "daily:read"
    );
    let system = body["messages"][0]["content"].as_str().unwrap();
    assert!(system.contains("- obsidianTasks: Use obsidianTasks"));
    assert!(
        !system.contains("obsidianBookmarks:"),
        "disabled tools are not described"
    );
    assert!(system.contains("<vault-data>"));
    assert_eq!(body["stream"], true);
}

#[test]
fn two_tool_calls_in_one_reply() {
    let core = agent(Value::Null);
    core.host().script_http(ok(openai_sse(
        "",
        &[
            ("obsidianTasks", r#"{"command":"tasks","daily":true}"#),
            (
                "obsidianLinks",
                r#"{"command":"backlinks","file":"Roadmap"}"#,
            ),
        ],
        3,
    )));
    core.host().script_http(ok(openai_sse("Done.", &[], 1)));
    let mut conv = conversation();
    let end = block_on(
        core.chat
            .send(&mut conv, "tasks and backlinks", &Recorder::default()),
    );
    assert_eq!(end, TurnEnd::Done);
    let commands: Vec<String> = core
        .host()
        .requests
        .borrow()
        .iter()
        .map(|r| r.args[0].clone())
        .collect();
    assert_eq!(commands, ["tasks", "backlinks"]);
    let tools = conv
        .messages
        .iter()
        .filter(|m| matches!(m, ChatMessage::Tool { .. }))
        .count();
    assert_eq!(tools, 2);
}

#[test]
fn a_write_while_writes_are_off_is_refused_and_the_model_is_told() {
    let core = agent(Value::Null);
    core.host().script_http(ok(openai_sse(
        "",
        &[(
            "obsidianDailyNote",
            r#"{"command":"daily:append","content":"- [ ] Buy milk"}"#,
        )],
        2,
    )));
    core.host()
        .script_http(ok(openai_sse("Vault changes are off.", &[], 1)));
    let events = Recorder::default();
    let end = block_on(core.chat.send(
        &mut conversation(),
        "add buy milk to today's note",
        &events,
    ));
    assert_eq!(end, TurnEnd::Done);
    assert_eq!(core.host().process_count(), 0, "nothing ran");
    let body = request_body(&core, 1);
    let tool_message = body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["role"] == "tool")
        .unwrap();
    let content = tool_message["content"].as_str().unwrap();
    assert!(
        content.contains(" error=\"writes_disabled\">\n"),
        "{content}"
    );
    assert!(content.contains("Settings → Vault Agent → Safety → Vault changes"));
    // The core tells the chat that the user has to act (its banner).
    let error = events
        .0
        .borrow()
        .iter()
        .find_map(|e| match e {
            ChatEvent::ToolFinished { result, .. } => result.error.clone(),
            _ => None,
        })
        .expect("the tool's error");
    assert_eq!(error.code, "writes_disabled");
    assert!(error.user_fix, "only the user can turn vault changes on");
}

fn property_set_turn(core: &VaultAgent<FakeHost>) -> (Conversation, String, String) {
    core.host().script_http(ok(openai_sse(
        "",
        &[(
            "obsidianProperties",
            r#"{"command":"property:set","name":"status","value":"done","file":"Plan"}"#,
        )],
        4,
    )));
    let events = Recorder::default();
    let mut conv = conversation();
    let end = block_on(core.chat.send(&mut conv, "mark Plan done", &events));
    assert_eq!(end, TurnEnd::AwaitingConfirmation);
    let card = events
        .0
        .borrow()
        .iter()
        .find_map(|e| match e {
            ChatEvent::ConfirmationNeeded { card, .. } => Some(card.as_ref().clone()),
            _ => None,
        })
        .expect("a card");
    assert_eq!(card.preview.before, "active");
    assert!(conv.paused.is_some());
    (conv, card.id, card.argv_hash)
}

#[test]
fn a_confirmed_write_pauses_then_runs_on_approval() {
    let core = agent(json!({"permissionMode": "askBeforeEdits"}));
    let (mut conv, id, hash) = property_set_turn(&core);
    assert!(
        !core
            .host()
            .requests
            .borrow()
            .iter()
            .any(|r| r.args[0] == "property:set"),
        "not before approval"
    );
    core.host()
        .script_http(ok(openai_sse("Marked as done.", &[], 2)));
    let events = Recorder::default();
    let end = block_on(core.chat.resolve(
        &mut conv,
        &id,
        Decision::Approve { argv_hash: &hash },
        &events,
    ));
    assert_eq!(end, TurnEnd::Done);
    let set = core
        .host()
        .requests
        .borrow()
        .iter()
        .filter(|r| r.args[0] == "property:set")
        .count();
    assert_eq!(set, 1);
    assert!(conv.paused.is_none());
    let body = request_body(&core, 1);
    let tool = body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["role"] == "tool")
        .unwrap();
    assert!(tool["content"]
        .as_str()
        .unwrap()
        .contains("set on Projects/Plan.md"));
}

#[test]
fn a_rejected_write_runs_nothing_and_the_model_hears_it() {
    let core = agent(json!({"permissionMode": "askBeforeEdits"}));
    let (mut conv, id, _) = property_set_turn(&core);
    core.host()
        .script_http(ok(openai_sse("Okay, left as is.", &[], 1)));
    let end = block_on(
        core.chat
            .resolve(&mut conv, &id, Decision::Reject, &Recorder::default()),
    );
    assert_eq!(end, TurnEnd::Done);
    assert!(!core
        .host()
        .requests
        .borrow()
        .iter()
        .any(|r| r.args[0] == "property:set"));
    let body = request_body(&core, 1);
    let tool = body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["role"] == "tool")
        .unwrap();
    assert!(tool["content"]
        .as_str()
        .unwrap()
        .contains(" error=\"confirmation_rejected\">\n"));
}

#[test]
fn malformed_arguments_go_back_to_the_model_which_corrects_them() {
    let core = agent(Value::Null);
    core.host().script_http(ok(openai_sse(
        "",
        &[("obsidianTasks", r#"{"command":"tasks","all":tru"#)],
        2,
    )));
    core.host().script_http(ok(openai_sse(
        "",
        &[("obsidianTasks", r#"{"command":"tasks","all":"yes"}"#)],
        2,
    )));
    core.host().script_http(ok(openai_sse(
        "",
        &[("obsidianTasks", r#"{"command":"tasks","all":true}"#)],
        2,
    )));
    core.host()
        .script_http(ok(openai_sse("Here they are.", &[], 1)));
    let mut conv = conversation();
    let end = block_on(core.chat.send(&mut conv, "tasks?", &Recorder::default()));
    assert_eq!(end, TurnEnd::Done);
    assert_eq!(
        core.host().process_count(),
        1,
        "only the corrected call ran"
    );
    let contents: Vec<String> = conv
        .messages
        .iter()
        .filter_map(|m| match m {
            ChatMessage::Tool { content, .. } => Some(content.clone()),
            _ => None,
        })
        .collect();
    assert!(contents[0].contains("not valid JSON"), "{}", contents[0]);
    assert!(
        contents[1].contains("`all`: invalid type: string \"yes\", expected a boolean"),
        "{}",
        contents[1]
    );
    assert!(contents[2].starts_with("<vault-data"));
}

#[test]
fn an_unknown_tool_is_an_error_result_not_a_crash() {
    let core = agent(Value::Null);
    core.host().script_http(ok(openai_sse(
        "",
        &[("obsidianDelete", r#"{"file":"x"}"#)],
        1,
    )));
    core.host()
        .script_http(ok(openai_sse("That tool does not exist.", &[], 1)));
    let mut conv = conversation();
    assert_eq!(
        block_on(core.chat.send(&mut conv, "delete x", &Recorder::default())),
        TurnEnd::Done
    );
    let ChatMessage::Tool { content, .. } = &conv.messages[2] else {
        panic!("{:?}", conv.messages[2])
    };
    assert!(content.contains(" error=\"unknown_tool\">\n"), "{content}");
}

#[test]
fn the_tool_round_limit_ends_the_turn_with_a_message() {
    // Without the read cache, so each round's identical read runs the CLI.
    let core = agent(json!({"chat": {"maxToolRounds": 2}, "readCacheSeconds": 0}));
    for _ in 0..3 {
        core.host().script_http(ok(openai_sse(
            "",
            &[("obsidianTasks", r#"{"command":"tasks","all":true}"#)],
            1,
        )));
    }
    let events = Recorder::default();
    let mut conv = conversation();
    let end = block_on(core.chat.send(&mut conv, "loop", &events));
    assert_eq!(end, TurnEnd::RoundLimit);
    assert_eq!(core.host().http_requests.borrow().len(), 2);
    assert_eq!(core.host().process_count(), 2);
    assert!(
        matches!(conv.messages.last().unwrap(), ChatMessage::Notice { text } if text.contains("Stopped after 2 tool rounds"))
    );
    // The view is told so it can offer Continue.
    assert!(events.0.borrow().iter().any(
        |e| matches!(e, ChatEvent::RoundLimit { text } if text.contains("Stopped after 2 tool rounds"))
    ));
    // Continue (a retry) goes on from the tool results, with the notice kept.
    core.host()
        .script_http(ok(openai_sse("Done looping.", &[], 1)));
    let more = Recorder::default();
    assert_eq!(block_on(core.chat.retry(&mut conv, &more)), TurnEnd::Done);
    assert_eq!(more.text(), "Done looping.");
    let sent = request_body(&core, 2);
    let last = sent["messages"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        last["role"], "tool",
        "the model reads on from the tool result: {last}"
    );
    assert!(conv
        .messages
        .iter()
        .any(|m| matches!(m, ChatMessage::Notice { text } if text.contains("Stopped after 2 tool rounds"))));
}

#[test]
fn a_tool_call_printed_as_text_runs_like_a_real_one_when_the_profile_takes_them() {
    for printed in [
        r#"{"name": "obsidianTasks", "arguments": {"command": "tasks", "all": true, "todo": true}}"#,
        "```json\n{\"name\": \"obsidianTasks\", \"arguments\": {\"command\": \"tasks\", \"all\": true}}\n```",
        "<tool_call>\n{\"name\": \"obsidianTasks\", \"arguments\": {\"command\": \"tasks\", \"all\": true}}\n</tool_call>",
    ] {
        // Off by default (tests/node/text-calls.test.mjs): this profile turned them on.
        let core = agent(json!({"chat": {"openai": {"textToolCalls": true}}}));
        core.host().script_http(ok(openai_sse(printed, &[], 3)));
        core.host()
            .script_http(ok(openai_sse("You have 2 open tasks.", &[], 1)));
        let events = Recorder::default();
        let mut chat = conversation();
        assert_eq!(
            block_on(core.chat.send(&mut chat, "tasks?", &events)),
            TurnEnd::Done,
            "{printed}"
        );
        assert!(
            core.host().requests.borrow().iter().any(|r| r.args[0] == "tasks"),
            "the printed call ran: {printed}"
        );
        // The history holds a real call, so the model sees its result paired.
        let sent = request_body(&core, 1);
        let assistant = sent["messages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["role"] == "assistant")
            .unwrap()
            .clone();
        assert_eq!(assistant["tool_calls"][0]["function"]["name"], "obsidianTasks");
    }
}

#[test]
fn reads_asked_together_run_at_once_and_answer_in_the_order_asked() {
    let mut host = FakeHost::new(Os::Linux, |request| {
        ProcessOutcome::success(match request.args[0].as_str() {
            "tasks" => "- [ ] Review PR",
            "backlinks" => "Projects/Roadmap.md\t2",
            _ => "note text",
        })
    });
    host.env.insert("PATH".into(), "/usr/bin".into());
    host.add_executable("/usr/bin/obsidian");
    host.yield_in_process = true;
    let core = VaultAgent::new(host, &json!({"permissionMode": "askBeforeEdits"})).0;
    core.host().script_http(ok(openai_sse(
        "",
        &[
            ("obsidianTasks", r#"{"command":"tasks","all":true}"#),
            ("obsidianNotes", r#"{"command":"read","path":"A.md"}"#),
            ("obsidianLinks", r#"{"command":"backlinks","path":"A.md"}"#),
            (
                "obsidianEdit",
                r#"{"command":"append","path":"A.md","content":"x"}"#,
            ),
            ("obsidianNotes", r#"{"command":"read","path":"B.md"}"#),
        ],
        1,
    )));
    core.host().script_http(ok(openai_sse("Done.", &[], 1)));
    let events = Recorder::default();
    let mut c = conversation();
    let end = block_on(core.chat.send(&mut c, "look around", &events));
    assert_eq!(end, TurnEnd::Done);
    let log = core.host().process_log.borrow().clone();
    // The three reads start before any of them ends.
    let first_end = log.iter().position(|l| l.starts_with("end ")).unwrap();
    let started: Vec<&String> = log[..first_end].iter().collect();
    assert_eq!(
        started,
        ["start tasks", "start read", "start backlinks"],
        "{log:?}"
    );
    // The write runs after the reads before it, and the read after the write
    // runs alone, last.
    let write = log
        .iter()
        .position(|l| l == "start append")
        .expect("the append ran through the CLI");
    assert!(
        write > log.iter().position(|l| l == "end backlinks").unwrap(),
        "{log:?}"
    );
    assert_eq!(log[log.len() - 2..], ["start read", "end read"], "{log:?}");
    assert!(log.len() - 2 > write);
    // Results go back in the order asked.
    let answered: Vec<String> = c
        .messages
        .iter()
        .filter_map(|m| match m {
            ChatMessage::Tool { call_id, .. } => Some(call_id.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(answered, ["call_0", "call_1", "call_2", "call_3", "call_4"]);
}
