//! Issue 36, items 2 and 4: a path from the user or from a stored chat is
//! checked in the form it is read (`.`, `..`, `//` and `\` resolved first),
//! one that climbs out of the vault is refused, and a read that a symbolic
//! link carries out of the read scope or the vault is refused. The model is
//! never told the name of a note it may not read.

use super::*;

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n-secret-picture";

/// Reading limited to `Projects`, a model that reads images, and a secret
/// note and picture outside the scope.
fn scoped() -> VaultAgent<FakeHost> {
    let core = agent(json!({"readFolders": ["Projects"], "chat": {"profiles": [
        {"id": "p", "provider": "openAi", "baseUrl": "http://127.0.0.1:8080/v1", "model": "m", "contextWindow": 32000, "images": true}
    ]}}));
    core.host()
        .notes
        .borrow_mut()
        .insert("Secret/Diary.md".into(), "swordfish".into());
    let mut binary = core.host().binary.borrow_mut();
    binary.insert("Secret/pic.png".into(), PNG.to_vec());
    binary.insert("Projects/pic.png".into(), PNG.to_vec());
    drop(binary);
    core
}

/// The user's message of the first request, as text.
fn first_user_text(core: &VaultAgent<FakeHost>) -> String {
    let body = request_body(core, 0);
    let user = body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "user")
        .map(|m| match m["content"].as_str() {
            Some(text) => text.to_string(),
            None => m["content"].to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    user
}

fn images_asked(core: &VaultAgent<FakeHost>) -> Vec<String> {
    core.host()
        .images_asked
        .borrow()
        .iter()
        .map(|(p, ..)| p.clone())
        .collect()
}

#[test]
fn an_attachment_is_checked_and_named_in_the_form_it_is_read() {
    let core = scoped();
    core.host().script_http(ok(openai_sse("Hi.", &[], 1)));
    let mut chat = conversation();
    let events = Recorder::default();
    let end = block_on(core.chat.send_with(
        &mut chat,
        "compare",
        Some(vec![
            attached("Projects/../Secret/Diary.md", Some("a selected line")),
            Attachment::note("Projects/../Secret/pic.png"),
            attached("./Projects/Plan.md", None),
            attached("Projects//Roadmap.md", None),
            attached("Projects\\Ideas.md", None),
            Attachment::note("Projects\\.\\pic.png"),
        ]),
        &events,
    ));
    assert_eq!(end, TurnEnd::Done, "{:?}", events.0.borrow());
    let body = core.host().http_requests.borrow()[0].body.clone().unwrap();
    for secret in [
        "Secret",
        "Diary",
        "swordfish",
        "a selected line",
        "..",
        "Projects//",
    ] {
        assert!(!body.contains(secret), "{secret} reached the model: {body}");
    }
    let user = first_user_text(&core);
    for named in [
        "- Projects/Plan.md",
        "- Projects/Roadmap.md",
        "- Projects/Ideas.md",
    ] {
        assert!(user.contains(named), "{named}: {user}");
    }
    assert!(
        user.contains("1 more attached note is in a folder the agent may not read"),
        "{user}"
    );
    assert!(
        user.contains("1 attached image(s) in folders the agent may not read"),
        "{user}"
    );
    assert_eq!(images_asked(&core), ["Projects/pic.png"]);
    // Kept in the form it was checked in.
    let ChatMessage::User { attachments, .. } = &chat.messages[0] else {
        panic!("{:?}", chat.messages);
    };
    let kept: Vec<&str> = attachments
        .as_ref()
        .unwrap()
        .iter()
        .map(|a| a.path.as_str())
        .collect();
    assert_eq!(
        kept,
        [
            "Secret/Diary.md",
            "Secret/pic.png",
            "Projects/Plan.md",
            "Projects/Roadmap.md",
            "Projects/Ideas.md",
            "Projects/pic.png"
        ]
    );
}

#[test]
fn an_attachment_that_climbs_out_of_the_vault_is_refused_before_anything_is_sent() {
    for path in [
        "../Diary.md",
        "Projects/../../etc/passwd.md",
        "Projects\\..\\..\\x.png",
        "/etc/passwd",
    ] {
        let core = scoped();
        let mut chat = conversation();
        let events = Recorder::default();
        let end = block_on(core.chat.send_with(
            &mut chat,
            "read this",
            Some(vec![Attachment::note(path)]),
            &events,
        ));
        assert_eq!(end, TurnEnd::Failed, "{path}");
        let (code, message) = failure(&events);
        assert_eq!(code, "not_sent", "{path}");
        assert!(message.contains(path), "{path}: {message}");
        assert!(
            message.contains("climbs out of the vault") || message.contains("absolute"),
            "{path}: {message}"
        );
        assert!(message.contains("such as"), "the fix is said: {message}");
        assert!(core.host().http_requests.borrow().is_empty(), "{path}");
        assert!(
            !chat
                .messages
                .iter()
                .any(|m| matches!(m, ChatMessage::User { .. })),
            "{path}: nothing is kept"
        );
    }
}

#[test]
fn a_stored_chat_carrying_such_paths_names_nothing_outside_the_scope() {
    let core = scoped();
    let mut chat = conversation();
    chat.messages.push(ChatMessage::User {
        text: "earlier".into(),
        attachments: Some(vec![
            attached("Projects/../Secret/Diary.md", Some("a selected line")),
            Attachment::note("Projects\\..\\Secret\\pic.png"),
            attached("..\\..\\home\\Diary.md", None),
            Attachment::note("../Secret/pic.png"),
            attached("./Projects//Plan.md", None),
        ]),
    });
    chat.messages
        .push(ChatMessage::assistant("Noted.".into(), Vec::new()));
    core.host().script_http(ok(openai_sse("Hi.", &[], 1)));
    let events = Recorder::default();
    let end = block_on(core.chat.send(&mut chat, "and now?", &events));
    assert_eq!(end, TurnEnd::Done, "{:?}", events.0.borrow());
    let body = core.host().http_requests.borrow()[0].body.clone().unwrap();
    for secret in [
        "Secret",
        "Diary",
        "swordfish",
        "a selected line",
        "home",
        "..",
    ] {
        assert!(!body.contains(secret), "{secret} reached the model: {body}");
    }
    let user = first_user_text(&core);
    assert!(user.contains("- Projects/Plan.md"), "{user}");
    assert!(
        user.contains("2 more attached notes are in folders the agent may not read"),
        "{user}"
    );
    assert!(
        user.contains("2 attached image(s) in folders the agent may not read"),
        "{user}"
    );
    assert!(images_asked(&core).is_empty(), "{:?}", images_asked(&core));
}

/// A link at `from` (vault-relative) that leads to `to` (absolute).
fn link(core: &VaultAgent<FakeHost>, from: &str, to: &str) {
    core.host()
        .links
        .borrow_mut()
        .push((format!("/vault/{from}"), to.to_string()));
}

#[test]
fn a_read_through_a_symbolic_link_out_of_the_scope_or_the_vault_is_refused() {
    for (settings, from, to) in [
        (
            json!({"readFolders": ["Projects"]}),
            "Projects/Diary.md",
            "/vault/Secret/Diary.md",
        ),
        (
            json!({"readFolders": ["Projects"]}),
            "Projects/Elsewhere",
            "/vault/Secret",
        ),
        (json!({}), "Projects/passwd.md", "/etc/passwd.md"),
        (json!({}), "Projects/Home", "/home/ada"),
    ] {
        let core = agent(settings.clone());
        link(&core, from, to);
        let path = if from.ends_with(".md") {
            from.to_string()
        } else {
            format!("{from}/Notes.md")
        };
        let before = core.host().process_count();
        let read =
            block_on(core.call_tool("obsidianNotes", &json!({"command": "read", "path": path})));
        assert!(!read.ok, "{path} -> {to}: {:?}", read.text);
        assert_eq!(read.code(), Some("read_through_link"), "{:?}", read.error);
        let message = read.error.unwrap().message;
        assert!(message.contains("symbolic link"), "{message}");
        assert!(
            !message.contains(to),
            "where it leads stays unsaid: {message}"
        );
        assert_eq!(core.host().process_count(), before, "the CLI never ran");
        // The link's own folder is readable otherwise.
        let plain = block_on(core.call_tool(
            "obsidianNotes",
            &json!({"command": "read", "path": "Projects/Plan.md"}),
        ));
        assert!(plain.ok, "{settings}: {:?}", plain.error);
    }
    // A link that stays inside the scope is followed.
    let core = agent(json!({"readFolders": ["Projects"]}));
    link(&core, "Projects/Current.md", "/vault/Projects/2026/Plan.md");
    let read = block_on(core.call_tool(
        "obsidianNotes",
        &json!({"command": "read", "path": "Projects/Current.md"}),
    ));
    assert!(read.ok, "{:?}", read.error);
}

#[test]
fn an_attached_image_behind_a_link_out_of_the_scope_is_never_read() {
    let core = scoped();
    link(&core, "Projects/pic.png", "/vault/Secret/pic.png");
    core.host().script_http(ok(openai_sse("Hi.", &[], 1)));
    let events = Recorder::default();
    let end = block_on(core.chat.send_with(
        &mut conversation(),
        "what is this?",
        Some(vec![Attachment::note("Projects/pic.png")]),
        &events,
    ));
    assert_eq!(end, TurnEnd::Done, "{:?}", events.0.borrow());
    assert!(images_asked(&core).is_empty(), "{:?}", images_asked(&core));
    let user = first_user_text(&core);
    assert!(
        user.contains("1 attached image(s) in folders the agent may not read"),
        "{user}"
    );
}

#[test]
fn an_instructions_note_behind_a_link_out_of_the_scope_is_never_sent() {
    let core = agent(
        json!({"readFolders": ["Projects"], "chat": {"instructionsNote": "Projects/Instructions.md"}}),
    );
    core.host().notes.borrow_mut().insert(
        "Projects/Instructions.md".into(),
        "The secret word is swordfish.".into(),
    );
    link(
        &core,
        "Projects/Instructions.md",
        "/vault/Secret/Instructions.md",
    );
    core.host().script_http(ok(openai_sse("Hello.", &[], 1)));
    let events = Recorder::default();
    block_on(core.chat.send(&mut conversation(), "hi", &events));
    let body = core.host().http_requests.borrow()[0].body.clone().unwrap();
    assert!(!body.contains("swordfish"), "{body}");
    let told = notices(&events);
    assert!(told.iter().any(|t| t.contains("symbolic link")), "{told:?}");
}

#[test]
fn a_saved_or_scheduled_prompt_is_found_in_the_form_it_is_read_and_one_that_climbs_out_is_refused()
{
    let core = agent(
        json!({"readFolders": ["Projects", "Prompts"], "chat": {"promptsFolder": "Prompts"}}),
    );
    core.host()
        .notes
        .borrow_mut()
        .insert("Prompts/Go.md".into(), "Say hello.".into());
    for path in [
        "Prompts//Go.md",
        "./Prompts/Go.md",
        "Prompts\\Go.md",
        "Projects/../Prompts/Go.md",
    ] {
        core.host().script_http(ok(openai_sse("Hello.", &[], 1)));
        let events = Recorder::default();
        let end = block_on(core.chat.send_started(
            &mut conversation(),
            "",
            None,
            &json!({"prompt": path, "values": {"date": "2026-12-01"}}),
            &events,
        ));
        assert_eq!(end, TurnEnd::Done, "{path}: {:?}", events.0.borrow());
    }
    let sent = core.host().http_requests.borrow().len();
    let events = Recorder::default();
    let end = block_on(core.chat.send_started(
        &mut conversation(),
        "",
        None,
        &json!({"prompt": "Prompts/../../Go.md", "values": {"date": "2026-12-01"}}),
        &events,
    ));
    assert_eq!(end, TurnEnd::Failed);
    let (code, message) = failure(&events);
    assert_eq!(code, "not_sent");
    assert!(message.contains("climbs out of the vault"), "{message}");
    assert_eq!(
        core.host().http_requests.borrow().len(),
        sent,
        "nothing sent"
    );
}

/// Issue 36, item 2: `{{note}}` is the open note's path; a note the agent
/// may not read (outside the read folders, by `..`, or behind a link out of
/// them) is never named in the prompt: the run stops and says why.
#[test]
fn a_saved_prompt_never_names_an_open_note_outside_the_read_folders() {
    let core = agent(
        json!({"readFolders": ["Projects", "Prompts"], "chat": {"promptsFolder": "Prompts"}}),
    );
    core.host()
        .notes
        .borrow_mut()
        .insert("Prompts/Sum.md".into(), "Summarise {{ note }}.".into());
    link(&core, "Projects/Linked.md", "/vault/Secret/Linked.md");
    for open in [
        "Secret/Diary.md",
        "Projects/../Secret/Diary.md",
        "Projects/Linked.md",
        ".obsidian/app.json",
    ] {
        let sent = core.host().http_requests.borrow().len();
        let events = Recorder::default();
        let end = block_on(core.chat.send_started(
            &mut conversation(),
            "",
            None,
            &json!({"prompt": "Prompts/Sum.md", "values": {"date": "2026-12-01", "note": open}}),
            &events,
        ));
        assert_eq!(end, TurnEnd::Failed, "{open}: {:?}", events.0.borrow());
        let (_, message) = failure(&events);
        assert!(
            message.contains("outside the folders the agent may read"),
            "{message}"
        );
        assert!(message.contains("Folders the agent may read"), "{message}");
        assert!(
            !message.contains("Diary") && !message.contains("Linked"),
            "{message}"
        );
        assert_eq!(
            core.host().http_requests.borrow().len(),
            sent,
            "{open}: nothing sent"
        );
    }
    // A note inside is named as it resolves.
    core.host().script_http(ok(openai_sse("Done.", &[], 1)));
    let events = Recorder::default();
    let end = block_on(core.chat.send_started(
        &mut conversation(),
        "",
        None,
        &json!({"prompt": "Prompts/Sum.md", "values": {"date": "2026-12-01", "note": "Projects/./Plan.md"}}),
        &events,
    ));
    assert_eq!(end, TurnEnd::Done, "{:?}", events.0.borrow());
    assert!(first_user_text(&core).contains("Summarise Projects/Plan.md."));
}

/// A core over a CLI that lists and finds a note behind the link
/// `Projects/Elsewhere`, and looks the name `Diary` up there.
fn listing_agent(settings: Value) -> VaultAgent<FakeHost> {
    let mut host = FakeHost::new(Os::Linux, |request| {
        ProcessOutcome::success(match request.args[0].as_str() {
            // Searches are asked for JSON, so they can be filtered by path.
            "search:context" => {
                r#"[{"file":"Projects/Plan.md","matches":[{"line":1,"text":"the launch"}]},{"file":"Projects/Elsewhere/Diary.md","matches":[{"line":2,"text":"swordfish"}]}]"#
            }
            "search" => r#"["Projects/Plan.md","Projects/Elsewhere/Diary.md"]"#,
            "files" => "Projects/Plan.md\nProjects/Elsewhere/Diary.md",
            "file" if request.args.iter().any(|a| a == "file=Diary") => {
                "path\tProjects/Elsewhere/Diary.md\nname\tDiary"
            }
            "file" => "path\tProjects/Plan.md\nname\tPlan",
            _ => "ok",
        })
    });
    host.env.insert("PATH".into(), "/usr/bin".into());
    host.add_executable("/usr/bin/obsidian");
    let core = VaultAgent::new(host, &settings).0;
    let mut notes = core.host().notes.borrow_mut();
    notes.insert("Projects/Plan.md".into(), "The launch is in May.".into());
    notes.insert(
        "Projects/Elsewhere/Diary.md".into(),
        "The launch word is swordfish.".into(),
    );
    drop(notes);
    core
}

/// The links out: of the vault with no read folders, of the read folders
/// into the vault's `Secret`.
fn links_out() -> [(Value, &'static str); 2] {
    [
        (json!({}), "/home/ada/Private"),
        (json!({"readFolders": ["Projects"]}), "/vault/Secret"),
    ]
}

/// Issue 36, items 2 and 4: a listing or a search is filtered by where a
/// note really is, not by its path as written: nothing behind a link out
/// of the vault or of the read folders is named or quoted.
#[test]
fn listings_and_searches_withhold_what_lies_behind_a_link_out() {
    for (settings, target) in links_out() {
        let core = listing_agent(settings.clone());
        link(&core, "Projects/Elsewhere", target);
        for (tool, args) in [
            (
                "obsidianSearch",
                json!({"command": "search:context", "query": "launch"}),
            ),
            (
                "obsidianSearch",
                json!({"command": "search", "query": "launch"}),
            ),
            ("obsidianNotes", json!({"command": "files"})),
            (
                "obsidianSearch",
                json!({"command": "find", "query": "launch"}),
            ),
        ] {
            let result = block_on(core.call_tool(tool, &args));
            assert!(result.ok, "{settings} {args}: {:?}", result.error);
            assert!(
                !result.text.contains("Elsewhere") && !result.text.contains("swordfish"),
                "{settings} {args}: {}",
                result.text
            );
            assert!(
                result.text.contains("Projects/Plan.md"),
                "{settings} {args}: {}",
                result.text
            );
        }
    }
    // A link that stays inside the read folders hides nothing.
    let core = listing_agent(json!({"readFolders": ["Projects"]}));
    link(&core, "Projects/Elsewhere", "/vault/Projects/2026");
    let result = block_on(core.call_tool(
        "obsidianSearch",
        &json!({"command": "search:context", "query": "launch"}),
    ));
    assert!(
        result.text.contains("Elsewhere/Diary.md:2: swordfish"),
        "{}",
        result.text
    );
}

/// Issue 36, item 4: a note named by name, with no read folders, that the
/// CLI finds behind a link out of the vault is refused once looked up; with
/// no link out, a name is not looked up at all (the CLI resolves it).
#[test]
fn a_note_named_by_name_behind_a_link_out_of_the_vault_is_refused() {
    let core = listing_agent(json!({}));
    link(&core, "Projects/Elsewhere", "/home/ada/Private");
    let before = core.host().process_count();
    let read = block_on(core.call_tool(
        "obsidianNotes",
        &json!({"command": "read", "file": "Diary"}),
    ));
    assert_eq!(
        read.code(),
        Some("read_through_link"),
        "{:?} {}",
        read.error,
        read.text
    );
    let message = read.error.unwrap().message;
    assert!(!message.contains("/home/ada"), "{message}");
    assert_eq!(
        core.host().process_count(),
        before + 1,
        "only the lookup ran"
    );
    // A name found elsewhere is read, at the path it was checked as.
    let plain =
        block_on(core.call_tool("obsidianNotes", &json!({"command": "read", "file": "Plan"})));
    assert!(plain.ok, "{:?}", plain.error);
    let requests = core.host().requests.borrow();
    let last = &requests.last().unwrap().args;
    assert!(
        last.iter().any(|a| a == "path=Projects/Plan.md"),
        "{last:?}"
    );
    drop(requests);
    // No link out: no lookup.
    let core = listing_agent(json!({}));
    let read = block_on(core.call_tool(
        "obsidianNotes",
        &json!({"command": "read", "file": "Diary"}),
    ));
    assert!(read.ok, "{:?}", read.error);
    assert_eq!(core.host().process_count(), 1);
}
