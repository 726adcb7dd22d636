//! Memory you can read (issue 41.1) through the whole loop: a fact learned
//! in one chat is in the next chat's prompt, a line the user deleted is not,
//! off means neither read nor offered, outside data in the chat makes the
//! change a card, and a memory folder the agent may not change is refused.

use super::*;

const NOTE: &str = "Agent memory/Memory.md";

/// A core whose fake CLI really writes the fake vault's notes (`create`,
/// `append`, `read`, `file`), as the emulator does.
fn memory_agent(settings: Value) -> VaultAgent<FakeHost> {
    let mut host = FakeHost::new(Os::Linux, |_| ProcessOutcome::success("ok"));
    let notes = host.notes.clone();
    host.respond_with(move |request| {
        let value = |key: &str| {
            request
                .args
                .iter()
                .find_map(|a| a.strip_prefix(&format!("{key}=")))
                // The CLI takes line breaks in a value as `\n`.
                .map(|v| v.replace("\\n", "\n"))
        };
        let path = value("path").unwrap_or_default();
        let mut notes = notes.borrow_mut();
        let command = request.args.iter().find(|a| !a.contains('=')).cloned();
        match command.as_deref() {
            Some("create") if !notes.contains_key(&path) => {
                notes.insert(path.clone(), value("content").unwrap_or_default());
                ProcessOutcome::success(&format!("Created: {path}"))
            }
            Some("append") if notes.contains_key(&path) => {
                let note = notes.get_mut(&path).unwrap();
                note.push('\n');
                note.push_str(&value("content").unwrap_or_default());
                ProcessOutcome::success("")
            }
            Some("read" | "file") if notes.contains_key(&path) => {
                ProcessOutcome::success(&notes[&path])
            }
            _ => ProcessOutcome::success(&format!("Error: File \"{path}\" not found.")),
        }
    });
    host.env.insert("PATH".into(), "/usr/bin".into());
    host.add_executable("/usr/bin/obsidian");
    VaultAgent::new(host, &settings).0
}

fn on(mode: &str) -> Value {
    json!({"permissionMode": mode, "chat": {"memory": true}})
}

fn system_of(core: &VaultAgent<FakeHost>, n: usize) -> String {
    request_body(core, n)["messages"][0]["content"]
        .as_str()
        .unwrap()
        .to_string()
}

fn tool_names(core: &VaultAgent<FakeHost>, n: usize) -> Vec<String> {
    request_body(core, n)["tools"]
        .as_array()
        .map(|tools| {
            tools
                .iter()
                .map(|t| t["function"]["name"].as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

const ADD: &str = r#"{"command":"add","fact":"Prefers ISO dates."}"#;

#[test]
fn a_fact_learned_in_one_chat_is_used_in_the_next_and_a_deleted_line_is_not() {
    let core = memory_agent(on("askBeforeEdits"));
    let mut first = conversation();
    core.host()
        .script_http(ok(openai_sse("", &[("obsidianMemory", ADD)], 1)));
    core.host().script_http(ok(openai_sse("Noted.", &[], 1)));
    let end = block_on(core.chat.send(
        &mut first,
        "I always want ISO dates.",
        &Recorder::default(),
    ));
    // An addition in Ask before edits runs at once: no card.
    assert_eq!(end, TurnEnd::Done);
    let kept = core.host().notes.borrow()[NOTE].clone();
    assert!(
        kept.contains("- Prefers ISO dates. (2026-"),
        "the line with its date: {kept}"
    );
    // The chat by its title, which follows the first message.
    assert!(
        kept.contains("chat \"I always want ISO dates.\")"),
        "and its chat: {kept}"
    );
    // Another chat: the fact is in its prompt.
    core.host()
        .script_http(ok(openai_sse("2026-12-07", &[], 1)));
    block_on(core.chat.send(
        &mut Conversation::new("c2".into(), 0.0),
        "What's the date format I like?",
        &Recorder::default(),
    ));
    let second = system_of(&core, 2);
    assert!(second.contains("<memory>"), "{second}");
    assert!(second.contains("Prefers ISO dates."), "{second}");
    // The user deletes the line by hand: the next message no longer has it.
    let edited: String = kept
        .lines()
        .filter(|l| !l.contains("ISO dates"))
        .collect::<Vec<_>>()
        .join("\n");
    core.host().notes.borrow_mut().insert(NOTE.into(), edited);
    core.host().script_http(ok(openai_sse("No idea.", &[], 1)));
    block_on(core.chat.send(
        &mut Conversation::new("c3".into(), 0.0),
        "What's the date format I like?",
        &Recorder::default(),
    ));
    assert!(!system_of(&core, 3).contains("ISO dates"));
}

#[test]
fn off_means_nothing_is_read_or_offered() {
    let core = memory_agent(json!({"permissionMode": "askBeforeEdits"}));
    core.host()
        .notes
        .borrow_mut()
        .insert(NOTE.into(), "- The user's cat is called Miso.".into());
    core.host().script_http(ok(openai_sse("Hi.", &[], 1)));
    block_on(
        core.chat
            .send(&mut conversation(), "my cat?", &Recorder::default()),
    );
    let system = system_of(&core, 0);
    assert!(
        !system.contains("Miso") && !system.contains("<memory>"),
        "{system}"
    );
    let tools = tool_names(&core, 0);
    assert!(
        !tools.is_empty() && !tools.iter().any(|t| t == "obsidianMemory"),
        "{tools:?}"
    );
    // On: offered, and read.
    let core = memory_agent(on("askBeforeEdits"));
    core.host()
        .notes
        .borrow_mut()
        .insert(NOTE.into(), "- The user's cat is called Miso.".into());
    core.host().script_http(ok(openai_sse("Hi.", &[], 1)));
    block_on(
        core.chat
            .send(&mut conversation(), "my cat?", &Recorder::default()),
    );
    assert!(system_of(&core, 0).contains("Miso"));
    assert!(tool_names(&core, 0).iter().any(|t| t == "obsidianMemory"));
}

#[test]
fn a_change_refused_because_memory_is_off_names_the_memory_switch_and_its_page() {
    // The Tools page's old switch under `tools` cannot turn it on: one switch.
    let core = memory_agent(json!({
        "permissionMode": "askBeforeEdits",
        "tools": {"obsidianMemory": true}
    }));
    let result = block_on(core.engine.call_tool(
        "obsidianMemory",
        &json!({"command": "add", "fact": "Likes tea."}),
    ));
    assert_eq!(result.code(), Some("tool_disabled"), "{}", result.text);
    assert!(
        result
            .text
            .contains("turn it on with the Memory switch in Settings → Vault Agent → Model."),
        "{}",
        result.text
    );
    assert!(result.error.as_ref().unwrap().user_fix);
    assert!(core.host().notes.borrow().is_empty(), "nothing kept");
    // Another tool turned off still names the Tools page.
    let core = memory_agent(json!({"tools": {"obsidianNotes": false}}));
    let result = block_on(
        core.engine
            .call_tool("obsidianNotes", &json!({"command": "read", "path": "A.md"})),
    );
    assert!(
        result
            .text
            .contains("turn it on in Settings → Vault Agent → Tools."),
        "{}",
        result.text
    );
}

#[test]
fn a_fact_the_model_wrote_as_text_is_stamped_with_its_chat_once_its_card_is_approved() {
    // Found by the task benchmark: a call written as text (text-form calls
    // on) came from the chat too, but its line said "not from a chat".
    let mut settings = on("askBeforeEdits");
    settings["chat"]["openai"] = json!({"textToolCalls": true});
    let core = memory_agent(settings);
    let printed = format!(
        "<tool_call>\n{{\"name\": \"obsidianMemory\", \"arguments\": {ADD}}}\n</tool_call>"
    );
    core.host().script_http(ok(openai_sse(&printed, &[], 1)));
    let mut chat = conversation();
    let events = Recorder::default();
    let end = block_on(
        core.chat
            .send(&mut chat, "I always want ISO dates.", &events),
    );
    // A change written as text always waits for its card.
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
    core.host().script_http(ok(openai_sse("Noted.", &[], 1)));
    let end = block_on(core.chat.resolve(
        &mut chat,
        &card.id,
        Decision::Approve {
            argv_hash: &card.argv_hash,
        },
        &Recorder::default(),
    ));
    assert_eq!(end, TurnEnd::Done);
    let kept = core.host().notes.borrow()[NOTE].clone();
    assert!(
        kept.contains("- Prefers ISO dates. (2026-")
            && kept.contains(", chat \"I always want ISO dates.\")"),
        "{kept}"
    );
}

#[test]
fn outside_data_in_the_chat_makes_a_memory_change_wait_for_the_card() {
    let core = memory_agent(on("askBeforeEdits"));
    let mut chat = conversation();
    chat.messages.push(ChatMessage::User {
        text: "Search the web for me.".into(),
        attachments: None,
    });
    chat.messages.push(ChatMessage::Tool {
        call_id: "w1".into(),
        tool: "mcp_web_search".into(),
        content: "<outside-data server=\"web\" tool=\"search\">\nThe user prefers US dates.\n</outside-data>".into(),
        is_error: false,
        result: Box::new(vault_agent::base::result::ToolResult::success("")),
        table: None,
    });
    chat.messages.push(ChatMessage::Assistant {
        text: "Found it.".into(),
        tool_calls: Vec::new(),
        reasoning: String::new(),
        thinking: Vec::new(),
        usage: None,
        sources: Vec::new(),
    });
    core.host()
        .script_http(ok(openai_sse("", &[("obsidianMemory", ADD)], 1)));
    let end = block_on(
        core.chat
            .send(&mut chat, "Remember that.", &Recorder::default()),
    );
    assert_eq!(end, TurnEnd::AwaitingConfirmation);
    assert!(
        !core.host().notes.borrow().contains_key(NOTE),
        "nothing written before the click"
    );
}

#[test]
fn update_and_remove_are_cards_in_every_mode_that_writes() {
    let core = memory_agent(on("askBeforeEdits"));
    core.host().notes.borrow_mut().insert(
        NOTE.into(),
        "# Memory\n- Prefers tea. (2026-12-01, chat \"A\")\n".into(),
    );
    core.host().script_http(ok(openai_sse(
        "",
        &[(
            "obsidianMemory",
            r#"{"command":"update","line":"Prefers tea.","fact":"Prefers coffee."}"#,
        )],
        1,
    )));
    let end = block_on(core.chat.send(
        &mut conversation(),
        "I switched to coffee.",
        &Recorder::default(),
    ));
    assert_eq!(end, TurnEnd::AwaitingConfirmation);
    assert!(core.host().notes.borrow()[NOTE].contains("Prefers tea."));
}

#[test]
fn a_memory_folder_outside_the_write_scope_is_refused_with_the_fix() {
    let core = memory_agent(json!({
        "permissionMode": "askBeforeEdits",
        "writeFolders": ["Projects"],
        "chat": {"memory": true}
    }));
    let result = block_on(core.engine.call_tool(
        "obsidianMemory",
        &json!({"command": "add", "fact": "Likes tea."}),
    ));
    assert_eq!(result.code(), Some("out_of_scope"), "{}", result.text);
    assert!(result.text.contains("Memory folder"), "{}", result.text);
    assert!(!core.host().notes.borrow().contains_key(NOTE));
    // Read only refuses it like any change.
    let core = memory_agent(on("readOnly"));
    let result = block_on(core.engine.call_tool(
        "obsidianMemory",
        &json!({"command": "add", "fact": "Likes tea."}),
    ));
    assert_eq!(result.code(), Some("writes_disabled"), "{}", result.text);
}
