//! A conversation over time: an old stored one, Regenerate, editing a message.

use super::*;

#[test]
fn a_conversation_stored_before_attachments_loads_and_keeps_its_format() {
    let stored = json!({
        "id": "chat-1", "title": "Old chat", "createdMs": 1.0, "updatedMs": 2.0,
        "messages": [{"role": "user", "text": "hello"}, {"role": "assistant", "text": "hi", "toolCalls": []}],
        "paused": null
    });
    let c: Conversation = serde_json::from_value(stored.clone()).unwrap();
    assert!(!c.renamed);
    assert_eq!(
        serde_json::to_value(&c).unwrap(),
        stored,
        "nothing new is written for it"
    );
}

#[test]
fn regenerate_drops_the_last_answer_and_answers_the_same_message_again() {
    use vault_agent::doors::chat::conversation::Rewind;
    let core = agent(Value::Null);
    let mut c = conversation();
    core.host()
        .script_http(ok(openai_sse("First answer.", &[], 2)));
    block_on(core.chat.send(&mut c, "one", &Recorder::default()));
    core.host().script_http(ok(openai_sse(
        "Looking. ",
        &[("obsidianTasks", r#"{"command":"tasks","todo":true}"#)],
        2,
    )));
    core.host()
        .script_http(ok(openai_sse("Two tasks.", &[], 2)));
    block_on(core.chat.send(&mut c, "two", &Recorder::default()));
    assert_eq!(c.messages.len(), 6);
    let dropped_turn = c.turn_id();
    assert_eq!(c.rewind(Rewind::LastAnswer), Ok(None));
    assert_ne!(
        c.turn_id(),
        dropped_turn,
        "the new answer's changes are undone apart from the dropped one's"
    );
    assert_eq!(c.messages.len(), 3, "{:?}", c.messages);
    assert!(matches!(c.messages.last(), Some(ChatMessage::User { text, .. }) if text == "two"));
    core.host()
        .script_http(ok(openai_sse("Again: two tasks.", &[], 2)));
    let events = Recorder::default();
    assert_eq!(block_on(core.chat.retry(&mut c, &events)), TurnEnd::Done);
    assert_eq!(events.text(), "Again: two tasks.");
    let users = c
        .messages
        .iter()
        .filter(|m| matches!(m, ChatMessage::User { .. }))
        .count();
    assert_eq!(users, 2, "the message is not sent twice");
    let last = request_body(&core, 3);
    let sent: Vec<&str> = last["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["content"].as_str())
        .collect();
    assert!(
        !sent.iter().any(|t| t.contains("Two tasks")),
        "the dropped answer is not sent: {sent:?}"
    );
    assert!(Conversation::new("e".into(), 0.0)
        .rewind(Rewind::LastAnswer)
        .is_err());
}

#[test]
fn an_edit_drops_the_message_and_everything_after_it_and_keeps_its_attachments() {
    use vault_agent::doors::chat::conversation::Rewind;
    let core = agent(Value::Null);
    let mut c = conversation();
    for (text, answer) in [("one", "A1."), ("two", "A2."), ("three", "A3.")] {
        core.host().script_http(ok(openai_sse(answer, &[], 1)));
        block_on(core.chat.send_with(
            &mut c,
            text,
            Some(vec![attached(&format!("{text}.md"), None)]),
            &Recorder::default(),
        ));
    }
    assert_eq!(c.title, "one");
    let dropped = c.rewind(Rewind::FromUserMessage(1)).unwrap();
    let Some(ChatMessage::User { text, attachments }) = dropped else {
        panic!("{dropped:?}")
    };
    assert_eq!(text, "two");
    assert_eq!(attachments.unwrap()[0].path, "two.md");
    assert_eq!(
        c.messages.len(),
        2,
        "only the first exchange stays: {:?}",
        c.messages
    );
    assert!(c.rewind(Rewind::FromUserMessage(5)).is_err());
    assert_eq!(c.messages.len(), 2, "a failed rewind changes nothing");
    // Editing the first message retitles the chat, unless the user renamed it.
    let mut first = c.clone();
    first.rewind(Rewind::FromUserMessage(0)).unwrap();
    core.host().script_http(ok(openai_sse("B.", &[], 1)));
    block_on(
        core.chat
            .send(&mut first, "edited first", &Recorder::default()),
    );
    assert_eq!(first.title, "edited first");
    c.rename("  My   chat ");
    assert_eq!((c.title.as_str(), c.renamed), ("My chat", true));
    c.rewind(Rewind::FromUserMessage(0)).unwrap();
    core.host().script_http(ok(openai_sse("C.", &[], 1)));
    block_on(core.chat.send(&mut c, "other words", &Recorder::default()));
    assert_eq!(c.title, "My chat");
    c.rename("");
    assert_eq!((c.title.as_str(), c.renamed), ("other words", false));
    assert!(serde_json::to_value(&c).unwrap().get("renamed").is_none());
}

#[test]
fn a_coding_agents_turn_is_kept_in_the_same_conversation_type_titled_by_the_core() {
    use vault_agent::doors::chat::conversation::{AgentAnswerText, AgentChat};
    let core = agent(Value::Null);
    let mut chat = core.chat.new_conversation();
    let agent_chat = || AgentChat {
        profile: "custom".into(),
        name: "Test agent".into(),
        session_id: Some("s-1".into()),
    };
    let question = format!("Please tidy my project notes {}", "and more ".repeat(10));
    core.chat.keep_agent_turn(
        &mut chat,
        &question,
        Vec::new(),
        vec![
            AgentAnswerText {
                text: "Looking.".into(),
                reasoning: String::new(),
            },
            AgentAnswerText {
                text: "Done.".into(),
                reasoning: "Read three notes.".into(),
            },
        ],
        agent_chat(),
    );
    assert_eq!(chat.messages.len(), 3);
    assert!(
        matches!(&chat.messages[0], ChatMessage::User { text, attachments: None } if *text == question),
        "a turn without images stores none"
    );
    assert!(
        matches!(&chat.messages[2], ChatMessage::Assistant { text, reasoning, .. } if text == "Done." && reasoning == "Read three notes.")
    );
    assert_eq!(chat.agent, Some(agent_chat()));
    // The chat's own rule: the first line, 60 characters, an ellipsis when cut.
    assert_eq!(chat.title.chars().count(), 61, "{}", chat.title);
    assert!(chat.title.starts_with("Please tidy my project notes") && chat.title.ends_with('…'));
    assert!(chat.updated_ms >= chat.created_ms);

    // A renamed chat keeps its name; a later turn does not retitle it.
    chat.rename("Tidying");
    // The images the agent was sent stay with its message, by reference.
    let pasted: Attachment =
        serde_json::from_value(json!({ "path": "chat-1-1-x0.png", "pasted": true })).unwrap();
    core.chat.keep_agent_turn(
        &mut chat,
        "next",
        vec![pasted.clone()],
        Vec::new(),
        agent_chat(),
    );
    assert_eq!(chat.title, "Tidying");
    assert_eq!(chat.messages.len(), 4);
    assert_eq!(chat.messages[3].attachments(), [pasted]);
}
