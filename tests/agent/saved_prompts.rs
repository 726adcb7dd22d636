//! Saved prompts and rewrites in the loop: a prompt's mode narrows the
//! turn's calls and never widens them, its profile answers that turn only, a
//! prompts folder the agent may not read offers nothing, and a rewrite's
//! model round gets no tools and ends with the edit of the selection.

use super::*;

fn with_prompt(settings: Value, text: &str) -> VaultAgent<FakeHost> {
    let core = agent(settings);
    core.host()
        .notes
        .borrow_mut()
        .insert("Prompts/Go.md".into(), text.into());
    core
}

fn start(path: &str) -> Value {
    json!({"prompt": path, "values": {"date": "2026-12-01", "note": "Projects/Plan.md"}})
}

#[test]
fn a_prompts_mode_narrows_the_turn_and_its_profile_answers_it() {
    let settings = json!({"permissionMode": "askBeforeEdits", "chat": {
    "promptsFolder": "Prompts",
    "activeProfile": "a",
    "profiles": [
        {"id": "a", "name": "Everyday", "provider": "openAi", "baseUrl": "http://127.0.0.1:1/v1", "model": "everyday"},
        {"id": "b", "name": "Careful", "provider": "openAi", "baseUrl": "http://127.0.0.1:1/v1", "model": "careful"}
    ]}});
    let core = with_prompt(
        settings,
        "---\nprofile: Careful\nmode: readOnly\n---\nAppend a line to {{note}}.",
    );
    core.host().script_http(ok(openai_sse(
        "",
        &[(
            "obsidianEdit",
            r#"{"command":"append","path":"Projects/Plan.md","content":"- x"}"#,
        )],
        1,
    )));
    core.host()
        .script_http(ok(openai_sse("It is read only.", &[], 1)));
    let events = Recorder::default();
    let mut chat = conversation();
    block_on(
        core.chat
            .send_started(&mut chat, "", None, &start("Prompts/Go.md"), &events),
    );
    assert_eq!(request_body(&core, 0)["model"], "careful");
    let refused = events.0.borrow().iter().find_map(|e| match e {
        ChatEvent::ToolFinished { result, .. } => result.error.clone(),
        _ => None,
    });
    assert_eq!(refused.unwrap().code, "writes_disabled");
    match &chat.messages[0] {
        ChatMessage::User { text, .. } => assert_eq!(text, "Append a line to Projects/Plan.md."),
        other => panic!("{other:?}"),
    }
    // The next plain message is the chat's own again: its profile and mode.
    core.host().script_http(ok(openai_sse(
        "",
        &[(
            "obsidianEdit",
            r#"{"command":"append","path":"Projects/Plan.md","content":"- y"}"#,
        )],
        1,
    )));
    core.host().script_http(ok(openai_sse("Added.", &[], 1)));
    let plain = Recorder::default();
    block_on(core.chat.send(&mut chat, "now append - y", &plain));
    assert_eq!(request_body(&core, 2)["model"], "everyday");
    // Ask before edits lets the append run (the fake CLI's read-back is
    // all that fails it): no longer refused as Read only.
    let ran = plain.0.borrow().iter().find_map(|e| match e {
        ChatEvent::ToolFinished { result, .. } => Some(result.error.clone().map(|e| e.code)),
        _ => None,
    });
    assert_ne!(ran.unwrap().as_deref(), Some("writes_disabled"));
}

#[test]
fn a_prompt_can_never_widen_the_chats_mode() {
    let core = with_prompt(
        json!({"chat": {"promptsFolder": "Prompts"}}),
        "---\nmode: askBeforeEdits\n---\nAppend a line.",
    );
    core.host().script_http(ok(openai_sse(
        "",
        &[(
            "obsidianEdit",
            r#"{"command":"append","path":"Projects/Plan.md","content":"- x"}"#,
        )],
        1,
    )));
    core.host()
        .script_http(ok(openai_sse("Read only.", &[], 1)));
    let events = Recorder::default();
    block_on(core.chat.send_started(
        &mut conversation(),
        "",
        None,
        &start("Prompts/Go.md"),
        &events,
    ));
    let refused = events.0.borrow().iter().find_map(|e| match e {
        ChatEvent::ToolFinished { result, .. } => result.error.clone(),
        _ => None,
    });
    assert_eq!(
        refused.unwrap().code,
        "writes_disabled",
        "the chat is Read only"
    );
}

#[test]
fn a_prompts_folder_the_agent_may_not_read_offers_nothing_and_sends_nothing() {
    for settings in [
        json!({"readFolders": ["Projects"], "chat": {"promptsFolder": "Prompts"}}),
        json!({"chat": {"promptsFolder": ".obsidian/prompts"}}),
    ] {
        let core = with_prompt(settings.clone(), "The secret word is swordfish.");
        core.host()
            .notes
            .borrow_mut()
            .insert(".obsidian/prompts/Go.md".into(), "swordfish".into());
        let settings = vault_agent::settings::normalise(&settings, &[]).settings;
        let listed = block_on(vault_agent::doors::chat::saved_prompts::list(
            core.host(),
            &settings,
        ));
        assert!(listed.prompts.is_empty(), "{settings:?}");
        assert!(listed.notice.unwrap().contains("may not read"));
        let events = Recorder::default();
        let end = block_on(core.chat.send_started(
            &mut conversation(),
            "",
            None,
            &start(&format!("{}/Go.md", settings.chat.prompts_folder)),
            &events,
        ));
        assert_eq!(end, TurnEnd::Failed);
        assert!(
            core.host().http_requests.borrow().is_empty(),
            "nothing sent"
        );
    }
}

#[test]
fn a_rewrite_offers_no_tools_and_ends_with_the_edit_of_the_selection() {
    let core = agent(json!({"permissionMode": "askEveryChange"}));
    let note = "One.\nTwo.\nTwo.\n";
    core.host()
        .notes
        .borrow_mut()
        .insert("A.md".into(), note.into());
    // The model tries a tool anyway: only the edit of the selection is made of it.
    core.host().script_http(ok(openai_sse(
        "Deux.",
        &[("obsidianNotes", r#"{"command":"read","path":"A.md"}"#)],
        1,
    )));
    let events = Recorder::default();
    let mut chat = conversation();
    let end = block_on(core.chat.send_started(
        &mut chat,
        "",
        None,
        &json!({"rewrite": {"path": "A.md", "text": note, "from": 10, "to": 14}, "instruction": "in French"}),
        &events,
    ));
    assert_eq!(end, TurnEnd::AwaitingConfirmation);
    let body = request_body(&core, 0);
    assert!(body.get("tools").is_none(), "{body}");
    let card = events
        .0
        .borrow()
        .iter()
        .find_map(|e| match e {
            ChatEvent::ConfirmationNeeded { card, .. } => Some(card.clone()),
            _ => None,
        })
        .unwrap();
    let resumed = Recorder::default();
    let end = block_on(core.chat.resolve(
        &mut chat,
        &card.id,
        Decision::Approve {
            argv_hash: &card.argv_hash,
        },
        &resumed,
    ));
    assert_eq!(end, TurnEnd::Done);
    assert_eq!(
        core.host().http_requests.borrow().len(),
        1,
        "not asked again"
    );
    assert_eq!(core.host().notes.borrow()["A.md"], "One.\nTwo.\nDeux.\n");
}

#[test]
fn a_saved_prompt_rewrites_the_selection_filled_with_it_and_under_its_mode() {
    let settings =
        json!({"permissionMode": "askBeforeEdits", "chat": {"promptsFolder": "Prompts"}});
    let core = with_prompt(
        settings,
        "---\ndescription: Plain words\nmode: askEveryChange\n---\nSay this in plain words: {{selection}} ({{date}})",
    );
    let note = "One.\nTwo.\nTwo.\n";
    core.host()
        .notes
        .borrow_mut()
        .insert("A.md".into(), note.into());
    core.host().script_http(ok(openai_sse("Deux.", &[], 1)));
    let events = Recorder::default();
    let mut chat = conversation();
    // No date from the view: the host's day, never its long date text.
    let end = block_on(core.chat.send_started(
        &mut chat,
        "",
        None,
        &json!({"rewrite": {"path": "A.md", "text": note, "from": 10, "to": 14}, "instruction": "", "prompt": "Prompts/Go.md", "values": {}}),
        &events,
    ));
    assert_eq!(end, TurnEnd::AwaitingConfirmation);
    let asked = match &chat.messages[0] {
        ChatMessage::User { text, .. } => text.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        asked,
        "Rewrite the selection: Say this in plain words: Two. (2026-11-30)"
    );
    let body = request_body(&core, 0);
    assert!(
        body.get("tools").is_none(),
        "a rewrite offers no tools: {body}"
    );
    // The prompt's mode holds: the edit waits for a card even though the chat's mode would not ask.
    assert!(events
        .0
        .borrow()
        .iter()
        .any(|e| matches!(e, ChatEvent::ConfirmationNeeded { .. })));

    // A prompt that is not there is said, and nothing is added.
    let mut other = conversation();
    let end = block_on(core.chat.send_started(
        &mut other,
        "",
        None,
        &json!({"rewrite": {"path": "A.md", "text": note, "from": 10, "to": 14}, "instruction": "", "prompt": "Prompts/Gone.md", "values": {}}),
        &Recorder::default(),
    ));
    assert_eq!(end, TurnEnd::Failed);
    assert!(other.messages.is_empty());
}
