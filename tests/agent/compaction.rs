//! Context you can keep small (issue 41.6): earlier turns' tool results
//! pruned near the window, the chat compacted by the user's own model
//! (near the window, or on demand) with the outcome of every change and
//! card carried exactly, a failed summary changing nothing, and forks.

use std::rc::Rc;

use super::*;
use vault_agent::doors::chat::budget;

fn bodies(core: &VaultAgent<FakeHost>) -> Vec<Value> {
    core.host()
        .http_requests
        .borrow()
        .iter()
        .map(body_of)
        .collect()
}

/// One turn that sets a property behind a card, answered `approve` or not.
fn property_turn(core: &VaultAgent<FakeHost>, chat: &mut Conversation, value: &str, approve: bool) {
    core.host().script_http(ok(openai_sse(
        "",
        &[(
            "obsidianProperties",
            &format!(r#"{{"command":"property:set","name":"status","value":"{value}","path":"Projects/Plan.md"}}"#),
        )],
        3,
    )));
    let events = Recorder::default();
    assert_eq!(
        block_on(core.chat.send(chat, &format!("mark Plan {value}"), &events)),
        TurnEnd::AwaitingConfirmation
    );
    let card = events
        .0
        .borrow()
        .iter()
        .find_map(|e| match e {
            ChatEvent::ConfirmationNeeded { card, .. } => Some(card.as_ref().clone()),
            _ => None,
        })
        .unwrap();
    core.host()
        .script_http(ok(openai_sse("Done as you said.", &[], 2)));
    let decision = match approve {
        true => Decision::Approve {
            argv_hash: &card.argv_hash,
        },
        false => Decision::Reject,
    };
    let end = block_on(
        core.chat
            .resolve(chat, &card.id, decision, &Recorder::default()),
    );
    assert_eq!(end, TurnEnd::Done);
}

/// A turn of a task listing and a long answer.
fn long_turn(core: &VaultAgent<FakeHost>, chat: &mut Conversation, n: usize) -> Recorder {
    core.host().script_http(ok(openai_sse(
        "",
        &[("obsidianTasks", r#"{"command":"tasks","todo":true}"#)],
        2,
    )));
    core.host().script_http(ok(openai_sse(
        &format!("Answer {n}. {}", "Two tasks are open today. ".repeat(60)),
        &[],
        3,
    )));
    let events = Recorder::default();
    let question = format!("Question {n}: {}", "what is still open? ".repeat(20));
    assert_eq!(
        block_on(core.chat.send(chat, &question, &events)),
        TurnEnd::Done
    );
    events
}

/// The change outcomes of `chat`, as the model read them.
fn outcome_contents(chat: &Conversation) -> Vec<String> {
    chat.messages
        .iter()
        .filter(|m| m.is_change_outcome())
        .map(|m| match m {
            ChatMessage::Tool { content, .. } => content.clone(),
            _ => unreachable!(),
        })
        .collect()
}

#[test]
fn near_a_small_window_the_chat_is_compacted_and_every_change_goes_on_exactly() {
    let core = agent(
        json!({"permissionMode": "askBeforeEdits", "chat": {"openai": {"contextWindow": 8192}}}),
    );
    answer_summaries(&core, false);
    let mut chat = conversation();
    property_turn(&core, &mut chat, "done", true);
    property_turn(&core, &mut chat, "archived", false);
    let outcomes = outcome_contents(&chat);
    assert_eq!(outcomes.len(), 2, "one change made, one card rejected");
    let mut compacted_at = None;
    for n in 0..12 {
        let events = long_turn(&core, &mut chat, n);
        if events
            .0
            .borrow()
            .iter()
            .any(|e| matches!(e, ChatEvent::Compacted { .. }))
        {
            compacted_at = Some(n);
            break;
        }
    }
    let n = compacted_at.expect("compacted before the window was full");
    let bodies = bodies(&core);
    let at = bodies.iter().position(is_summary).unwrap();
    // The request: the summary rules, one message with the turns, no tools.
    let request = &bodies[at];
    assert_eq!(
        request["messages"].as_array().unwrap().len(),
        2,
        "{request}"
    );
    assert!(
        request
            .get("tools")
            .is_none_or(|t| t.as_array().is_some_and(Vec::is_empty)),
        "{request}"
    );
    assert_eq!(request["max_tokens"], budget::answer_reserve(8_192));
    let rules = request["messages"][0]["content"].as_str().unwrap();
    assert!(
        rules.contains("Leave out the changes made to the vault"),
        "{rules}"
    );
    let turns = request["messages"][1]["content"].as_str().unwrap();
    assert!(
        turns.starts_with("<chat>\nUser: mark Plan done\n\nAssistant called obsidianProperties"),
        "{turns}"
    );
    assert!(
        turns.ends_with("</chat>\n\nSummarise the chat above."),
        "{turns}"
    );
    assert!(
        !turns.contains(&format!("Question {n}:")),
        "the turn being answered stays whole"
    );
    // The chat keeps every message; the compaction covers the turns before this one.
    let compaction = chat.compactions.last().unwrap().clone();
    assert_eq!(compaction.summary, SUMMARY);
    assert_eq!(compaction.turns, n + 2);
    assert!(
        matches!(&chat.messages[compaction.upto], ChatMessage::User { text, .. } if text.starts_with(&format!("Question {n}:")))
    );
    assert!(
        matches!(&chat.messages[0], ChatMessage::User { text, .. } if text == "mark Plan done")
    );
    assert!(
        compaction.saved_tokens > 1_000,
        "{}",
        compaction.saved_tokens
    );
    // The next request: the summary and every outcome exactly, in place of those turns.
    let next = &bodies[at + 1];
    let first = next["messages"][1]["content"].as_str().unwrap();
    assert!(first.starts_with("[Earlier in this chat: "), "{first}");
    assert!(first.contains(SUMMARY), "{first}");
    for outcome in &outcomes {
        assert!(first.contains(outcome.as_str()), "{outcome} not in {first}");
    }
    assert!(
        first.contains("- obsidianProperties property:set Projects/Plan.md: made.\n"),
        "{first}"
    );
    assert!(first.contains("- obsidianProperties property:set Projects/Plan.md: rejected by the user; nothing changed.\n"), "{first}");
    let sent = next["messages"].to_string();
    assert!(
        !sent.contains("mark Plan done"),
        "the summarised turns are not sent"
    );
    assert!(!sent.contains("Question 0:"));
    // Later turns are sent after it; the first of them holds the summary.
    long_turn(&core, &mut chat, 99);
    let last = bodies_after(&core, at + 1);
    assert!(last.iter().all(|b| !is_summary(b)
        || b["messages"][1]["content"]
            .as_str()
            .unwrap()
            .contains(&format!("Summary of the turns before these:\n{SUMMARY}"))));
    let latest = core
        .host()
        .http_requests
        .borrow()
        .last()
        .map(body_of)
        .unwrap();
    assert!(latest["messages"][1]["content"]
        .as_str()
        .unwrap()
        .contains("- obsidianProperties property:set Projects/Plan.md: made.\n"));
}

fn bodies_after(core: &VaultAgent<FakeHost>, at: usize) -> Vec<Value> {
    bodies(core).split_off(at)
}

/// A core whose note Projects/Plan.md holds the `status` last set.
fn plan_agent(settings: Value) -> VaultAgent<FakeHost> {
    let status = Rc::new(std::cell::RefCell::new("active".to_string()));
    let mut host = FakeHost::new(Os::Linux, move |request| {
        let value = request
            .args
            .iter()
            .find_map(|a| a.strip_prefix("value="))
            .map(str::to_string);
        ProcessOutcome::success(&match request.args[0].as_str() {
            "property:read" => status.borrow().clone(),
            "property:set" => {
                *status.borrow_mut() = value.unwrap_or_default();
                "Property \"status\" set on Projects/Plan.md".to_string()
            }
            "tasks" => "- [ ] Review PR\n- [ ] Call Alice".to_string(),
            _ => "ok".to_string(),
        })
    });
    host.env.insert("PATH".into(), "/usr/bin".into());
    host.add_executable("/usr/bin/obsidian");
    host.notes.borrow_mut().insert(
        "Projects/Plan.md".into(),
        "---\nstatus: active\n---\n# Plan\n".into(),
    );
    VaultAgent::new(host, &settings).0
}

#[test]
fn an_undo_after_the_compaction_is_what_the_model_reads_next() {
    let core = plan_agent(
        json!({"permissionMode": "askBeforeEdits", "chat": {"openai": {"contextWindow": 32000}}}),
    );
    answer_summaries(&core, false);
    let mut chat = conversation();
    property_turn(&core, &mut chat, "done", true);
    long_turn(&core, &mut chat, 1);
    let events = Recorder::default();
    assert_eq!(
        block_on(core.chat.compact(&mut chat, &events)),
        TurnEnd::Done
    );
    assert_eq!(chat.compactions.len(), 1);
    let entry = chat
        .messages
        .iter()
        .find_map(|m| match m {
            ChatMessage::Tool { result, .. } => result.journal.clone(),
            _ => None,
        })
        .unwrap();
    core.host()
        .script_http(ok(openai_sse("It holds active again.", &[], 1)));
    block_on(core.chat.send(&mut chat, "what now?", &Recorder::default()));
    let before = core
        .host()
        .http_requests
        .borrow()
        .last()
        .map(body_of)
        .unwrap();
    assert!(
        before
            .to_string()
            .contains("property:set Projects/Plan.md: made.\\n"),
        "{before}"
    );
    let undone = block_on(core.engine.undo(&entry.entry, None));
    assert!(undone.ok, "{}", undone.text);
    core.host()
        .script_http(ok(openai_sse("Undone, yes.", &[], 1)));
    block_on(core.chat.send(&mut chat, "and now?", &Recorder::default()));
    let after = core
        .host()
        .http_requests
        .borrow()
        .last()
        .map(body_of)
        .unwrap();
    assert!(
        after
            .to_string()
            .contains("property:set Projects/Plan.md: made, then undone by the user."),
        "{after}"
    );
}

#[test]
fn earlier_results_are_pruned_before_anything_is_compacted() {
    let big = format!(
        "# Notes\n{}",
        "A line of the note that goes on. ".repeat(260)
    );
    let note = big.clone();
    let mut host = FakeHost::new(Os::Linux, move |request| {
        ProcessOutcome::success(match request.args[0].as_str() {
            "read" => note.as_str(),
            _ => "ok",
        })
    });
    host.env.insert("PATH".into(), "/usr/bin".into());
    host.add_executable("/usr/bin/obsidian");
    let core = VaultAgent::new(host, &json!({"chat": {"openai": {"contextWindow": 8192}}})).0;
    answer_summaries(&core, false);
    let mut chat = conversation();
    let mut events = Recorder::default();
    for (n, path) in ["Projects/A.md", "Projects/B.md"].iter().enumerate() {
        core.host().script_http(ok(openai_sse(
            "",
            &[(
                "obsidianNotes",
                &format!(r#"{{"command":"read","path":"{path}"}}"#),
            )],
            2,
        )));
        core.host()
            .script_http(ok(openai_sse(&format!("Read {path}."), &[], 1)));
        events = Recorder::default();
        assert_eq!(
            block_on(
                core.chat
                    .send(&mut chat, &format!("read note {n}"), &events)
            ),
            TurnEnd::Done
        );
    }
    let bodies = bodies(&core);
    assert!(!bodies.iter().any(is_summary), "pruning was enough");
    let last = bodies.last().unwrap().to_string();
    let ChatMessage::Tool { content, .. } = &chat.messages[2] else {
        panic!("{:?}", chat.messages[2])
    };
    let line = budget::pruned_line(
        "obsidianNotes read Projects/A.md",
        budget::estimate(content),
    );
    let sent: Vec<&str> = bodies.last().unwrap()["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["content"].as_str().unwrap())
        .collect();
    assert_eq!(sent[0], line, "the earlier turn's result, as one line");
    assert!(
        sent[1].contains("A line of the note that goes on."),
        "the turn's own result, whole"
    );
    assert!(last.contains("Projects/B.md"));
    let said = notices(&events);
    assert!(
        said.iter().any(|n| n.starts_with("To fit the model's context (8 192 tokens), 1 result of an earlier tool call was pruned")),
        "{said:?}"
    );
    // The transcript keeps it whole.
    assert!(content.contains("A line of the note"));
}

#[test]
fn a_failed_summary_leaves_the_chat_as_it_was_and_says_so() {
    let core = agent(json!({"chat": {"openai": {"contextWindow": 32000}}}));
    let mut chat = conversation();
    long_turn(&core, &mut chat, 0);
    // One turn: nothing to compact, nothing asked.
    let asked = core.host().http_requests.borrow().len();
    let events = Recorder::default();
    assert_eq!(
        block_on(core.chat.compact(&mut chat, &events)),
        TurnEnd::Failed
    );
    assert!(
        notices(&events)[0].starts_with("Nothing to compact yet"),
        "{:?}",
        notices(&events)
    );
    assert_eq!(core.host().http_requests.borrow().len(), asked);
    long_turn(&core, &mut chat, 1);
    let before = chat.clone();
    core.host().script_http(ScriptedHttp::Response {
        status: 500,
        chunks: vec![br#"{"error":{"message":"model crashed"}}"#.to_vec()],
    });
    let events = Recorder::default();
    assert_eq!(
        block_on(core.chat.compact(&mut chat, &events)),
        TurnEnd::Failed
    );
    assert_eq!(chat, before, "nothing changed");
    let said = notices(&events);
    assert!(
        said[0].starts_with("The chat was not compacted, and is as it was: "),
        "{said:?}"
    );
    assert!(!events.kinds().contains(&"compacted".to_string()));
    assert_eq!(events.kinds().last().unwrap(), "turnEnded");
    // A model that answers nothing leaves it as it was too.
    core.host().script_http(ok(openai_sse("", &[], 1)));
    let events = Recorder::default();
    block_on(core.chat.compact(&mut chat, &events));
    assert_eq!(chat, before);
    // Answered: the turns before the last one are summarised; the transcript keeps them.
    answer_summaries(&core, false);
    let events = Recorder::default();
    assert_eq!(
        block_on(core.chat.compact(&mut chat, &events)),
        TurnEnd::Done
    );
    assert_eq!(chat.messages, before.messages);
    let compaction = chat.compactions[0].clone();
    assert_eq!((compaction.upto, compaction.turns), (4, 1));
    assert!(events
        .0
        .borrow()
        .iter()
        .any(|e| matches!(e, ChatEvent::Compacted { compaction: c } if **c == compaction)));
    assert_eq!(
        events.text(),
        "",
        "the summary does not stream into the transcript"
    );
    // Asked again with nothing new: nothing to do.
    let events = Recorder::default();
    assert_eq!(
        block_on(core.chat.compact(&mut chat, &events)),
        TurnEnd::Failed
    );
    assert_eq!(chat.compactions.len(), 1);
}

#[test]
fn a_summary_request_follows_local_only_like_any_model_request() {
    let core = agent(json!({"localOnly": true, "chat": {"profiles": [
        {"id": "p", "provider": "openAi", "baseUrl": "https://api.example.com/v1", "model": "m", "contextWindow": 8192}
    ]}}));
    core.host()
        .dns
        .borrow_mut()
        .insert("api.example.com".into(), vec!["93.184.215.14".into()]);
    let mut chat = conversation();
    for n in 0..2 {
        chat.messages.push(ChatMessage::User {
            text: format!("question {n}"),
            attachments: None,
        });
        chat.messages
            .push(ChatMessage::assistant(format!("answer {n}"), Vec::new()));
    }
    let before = chat.clone();
    let events = Recorder::default();
    assert_eq!(
        block_on(core.chat.compact(&mut chat, &events)),
        TurnEnd::Failed
    );
    assert_eq!(chat, before);
    assert!(
        core.host().http_requests.borrow().is_empty(),
        "nothing was sent"
    );
    assert!(
        notices(&events)[0].contains("Local only"),
        "{:?}",
        notices(&events)
    );
    let log = core.engine.connection_log();
    assert!(
        log.iter().any(|e| e.refused && e.purpose == "chat summary"),
        "{log:?}"
    );
}

#[test]
fn a_fork_is_a_new_chat_up_to_the_message_picked() {
    let core = agent(Value::Null);
    let mut chat = conversation();
    long_turn(&core, &mut chat, 0);
    long_turn(&core, &mut chat, 1);
    chat.rename("Tasks");
    let before = chat.clone();
    let forked = core
        .chat
        .fork(&chat, vault_agent::doors::chat::fork::ForkAt::Answer(0))
        .unwrap();
    assert_eq!(chat, before);
    assert_ne!(forked.id, chat.id);
    assert_eq!(forked.title, "Tasks (fork)");
    assert_eq!(forked.messages[1..], chat.messages[..4]);
    let again = core
        .chat
        .fork(&chat, vault_agent::doors::chat::fork::ForkAt::Answer(0))
        .unwrap();
    assert_ne!(again.id, forked.id, "every fork is its own chat");
}
