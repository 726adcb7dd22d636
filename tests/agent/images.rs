//! Images in the chat: each provider's request parts, the limits handed to
//! the host, the refusal before anything is sent, what the budget counts,
//! and images the agent may not read.

use super::*;
use vault_agent::doors::chat::conversation::Attachment;
use vault_agent::doors::chat::images::{MAX_IMAGES_PER_MESSAGE, TOKENS_PER_IMAGE};

/// PNG's and JPEG's first bytes: enough for a request to carry.
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n-pasted";
const JPEG: &[u8] = b"\xff\xd8\xff\xe0-photo";

fn pasted(name: &str) -> Attachment {
    Attachment {
        pasted: true,
        ..Attachment::note(name)
    }
}

/// A core whose vault holds `Attachments/photo.jpg` and whose image folder
/// holds the pasted `c1-1.png`.
fn with_images(settings: Value) -> VaultAgent<FakeHost> {
    let core = agent(settings);
    let mut binary = core.host().binary.borrow_mut();
    binary.insert("Attachments/photo.jpg".into(), JPEG.to_vec());
    binary.insert("chat-images/c1-1.png".into(), PNG.to_vec());
    drop(binary);
    core
}

fn send_images(core: &VaultAgent<FakeHost>, chat: &mut Conversation) -> (TurnEnd, Recorder) {
    let events = Recorder::default();
    let end = block_on(core.chat.send_with(
        chat,
        "what is in these?",
        Some(vec![
            pasted("c1-1.png"),
            Attachment::note("Attachments/photo.jpg"),
            attached("Projects/Plan.md", None),
        ]),
        &events,
    ));
    (end, events)
}

fn b64(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

#[test]
fn openai_gets_image_url_parts_with_base64_data_urls_scaled_to_its_limits() {
    let core = with_images(json!({"chat": {"profiles": [
        {"id": "p", "provider": "openAi", "baseUrl": "http://127.0.0.1:8080/v1", "model": "gpt-4o", "contextWindow": 32000, "images": true}
    ]}}));
    core.host()
        .script_http(ok(openai_sse("A cat and a plan.", &[], 2)));
    let mut chat = conversation();
    let (end, events) = send_images(&core, &mut chat);
    assert_eq!(end, TurnEnd::Done, "{:?}", events.0.borrow());
    let body = request_body(&core, 0);
    let content = &body["messages"][1]["content"];
    assert_eq!(content[0]["type"], "text");
    let text = content[0]["text"].as_str().unwrap();
    assert!(text.starts_with("what is in these?"), "{text}");
    assert!(
        text.contains("- Projects/Plan.md"),
        "the note is still named: {text}"
    );
    assert!(
        !text.contains("photo.jpg"),
        "an image is no note to read: {text}"
    );
    assert_eq!(
        content[1],
        json!({"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{}", b64(PNG))}})
    );
    assert_eq!(
        content[2],
        json!({"type": "image_url", "image_url": {"url": format!("data:image/jpeg;base64,{}", b64(JPEG))}})
    );
    assert_eq!(
        *core.host().images_asked.borrow(),
        vec![
            ("c1-1.png".to_string(), true, 2_048, 20 * 1024 * 1024),
            (
                "Attachments/photo.jpg".to_string(),
                false,
                2_048,
                20 * 1024 * 1024
            ),
        ]
    );
    // The stored message keeps references only, never the bytes.
    let stored = serde_json::to_string(&chat).unwrap();
    assert!(
        stored.contains(r#""path":"c1-1.png","pasted":true"#),
        "{stored}"
    );
    assert!(!stored.contains(&b64(PNG)), "{stored}");
}

#[test]
fn anthropic_gets_base64_image_blocks_before_the_text_within_its_limits() {
    let core = with_images(
        json!({"chat": {"provider": "anthropic", "anthropic": {"apiKeySecret": "anthropic-key", "model": "claude-sonnet-4-5"}}}),
    );
    core.host().script_http(ok(anthropic_sse("A cat.", &[], 2)));
    let mut chat = conversation();
    let (end, events) = send_images(&core, &mut chat);
    assert_eq!(end, TurnEnd::Done, "{:?}", events.0.borrow());
    let body = request_body(&core, 0);
    let content = &body["messages"][0]["content"];
    assert_eq!(
        content[0],
        json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": b64(PNG)}})
    );
    assert_eq!(
        content[1],
        json!({"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": b64(JPEG)}})
    );
    assert_eq!(content[2]["type"], "text");
    let asked = core.host().images_asked.borrow();
    assert!(
        asked
            .iter()
            .all(|(_, _, side, bytes)| *side == 1_568 && *bytes == 3_750_000),
        "{asked:?}"
    );
}

#[test]
fn a_model_not_set_to_read_images_is_refused_before_anything_is_sent() {
    for settings in [
        // Said by the user.
        json!({"chat": {"profiles": [{"id": "p", "provider": "openAi", "baseUrl": "http://127.0.0.1:8080/v1", "model": "m", "images": false}]}}),
        // Nobody said, and the server cannot tell.
        json!({"chat": {"profiles": [{"id": "p", "provider": "openAi", "baseUrl": "http://127.0.0.1:8080/v1", "model": "m"}]}}),
        // Even a Claude model, when the user said no.
        json!({"chat": {"provider": "anthropic", "anthropic": {"apiKeySecret": "anthropic-key", "images": false}}}),
    ] {
        let core = with_images(settings.clone());
        let mut chat = conversation();
        let (end, events) = send_images(&core, &mut chat);
        assert_eq!(end, TurnEnd::Failed, "{settings}");
        let errors: Vec<(String, String, bool)> = events
            .0
            .borrow()
            .iter()
            .filter_map(|e| match e {
                ChatEvent::Error {
                    code,
                    message,
                    retryable,
                    ..
                } => Some((code.clone(), message.clone(), *retryable)),
                _ => None,
            })
            .collect();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].0, "images_not_accepted");
        assert!(errors[0].1.contains("Model accepts images"), "{errors:?}");
        assert!(!errors[0].2, "only a setting helps: no Retry");
        assert!(
            core.host().http_requests.borrow().is_empty(),
            "nothing sent"
        );
        assert!(core.host().images_asked.borrow().is_empty(), "nothing read");
        assert!(
            chat.messages.is_empty(),
            "nothing kept: {:?}",
            chat.messages
        );
    }
    // A message without images goes to the same model as always.
    let core = with_images(
        json!({"chat": {"profiles": [{"id": "p", "provider": "openAi", "baseUrl": "http://127.0.0.1:8080/v1", "model": "m", "images": false}]}}),
    );
    core.host().script_http(ok(openai_sse("Hi.", &[], 1)));
    let events = Recorder::default();
    let end = block_on(core.chat.send_with(
        &mut conversation(),
        "hi",
        Some(vec![attached("Projects/Plan.md", None)]),
        &events,
    ));
    assert_eq!(end, TurnEnd::Done);
}

#[test]
fn ollama_is_asked_once_whether_the_model_has_vision() {
    for (capabilities, accepted) in [
        (json!(["completion", "vision"]), true),
        (json!(["completion", "tools"]), false),
    ] {
        let core =
            with_images(json!({"chat": {"openai": {"contextWindow": 32000, "model": "gemma3"}}}));
        core.host().route_http(
            "/api/show",
            json_body(json!({"capabilities": capabilities})),
        );
        for _ in 0..2 {
            if accepted {
                core.host().script_http(ok(openai_sse("A cat.", &[], 1)));
            }
            let (end, _) = send_images(&core, &mut conversation());
            assert_eq!(end == TurnEnd::Done, accepted, "{capabilities}");
        }
        let probes = core.host().routed_requests.borrow();
        assert_eq!(probes.len(), 1, "asked once: {probes:?}");
        assert_eq!(probes[0].url, "http://localhost:11434/api/show");
    }
}

#[test]
fn each_image_counts_a_fixed_estimate_in_the_budget() {
    use vault_agent::doors::chat::budget::fit;
    let message = |images: usize| ChatMessage::User {
        text: "look".into(),
        attachments: Some(
            (0..images)
                .map(|n| pasted(&format!("c1-{n}.png")))
                .collect(),
        ),
    };
    let none = fit(&[message(0)], 100_000).unwrap().tokens;
    assert_eq!(
        fit(&[message(2)], 100_000).unwrap().tokens,
        none + 2 * TOKENS_PER_IMAGE
    );
    // More than a message carries count no more than what is sent.
    assert_eq!(
        fit(&[message(MAX_IMAGES_PER_MESSAGE + 3)], 100_000)
            .unwrap()
            .tokens,
        none + MAX_IMAGES_PER_MESSAGE * TOKENS_PER_IMAGE
    );
}

#[test]
fn images_the_agent_may_not_read_or_cannot_have_are_said_never_guessed() {
    let core = with_images(json!({"readFolders": ["Projects"], "chat": {"profiles": [
        {"id": "p", "provider": "openAi", "baseUrl": "http://127.0.0.1:8080/v1", "model": "m", "contextWindow": 32000, "images": true}
    ]}}));
    core.host()
        .binary
        .borrow_mut()
        .remove("chat-images/c1-1.png");
    core.host().script_http(ok(openai_sse("I see.", &[], 1)));
    let (end, events) = send_images(&core, &mut conversation());
    assert_eq!(end, TurnEnd::Done);
    let body = request_body(&core, 0);
    let content = &body["messages"][1]["content"];
    // Attachments/ is outside the read folders: never read, never sent.
    assert!(
        !core
            .host()
            .images_asked
            .borrow()
            .iter()
            .any(|(p, ..)| p.contains("photo")),
        "{:?}",
        core.host().images_asked.borrow()
    );
    let text = content
        .as_str()
        .unwrap_or_else(|| content[0]["text"].as_str().unwrap());
    assert!(
        text.contains("1 attached image(s) in folders the agent may not read"),
        "{text}"
    );
    // The pasted one is gone from the folder: the model and the user are told.
    assert!(
        text.contains("could not be sent: pasted into the chat"),
        "{text}"
    );
    assert!(
        events.0.borrow().iter().any(|e| matches!(e, ChatEvent::Notice { text } if text.starts_with("The image pasted into the chat could not be sent"))),
        "{:?}",
        events.0.borrow()
    );
    // A pasted name that could reach another folder is dropped when kept.
    let mut chat = conversation();
    core.host().script_http(ok(openai_sse("Hi.", &[], 1)));
    block_on(core.chat.send_with(
        &mut chat,
        "x",
        Some(vec![pasted("../../data.json.png")]),
        &Recorder::default(),
    ));
    let ChatMessage::User { attachments, .. } = &chat.messages[0] else {
        panic!()
    };
    assert_eq!(attachments.as_deref(), Some(&[][..]));
}

#[test]
fn a_conversation_stored_before_images_loads_and_one_with_them_keeps_its_references() {
    use vault_agent::doors::chat::stored::load;
    let old = json!({"id": "chat-1", "title": "Old", "createdMs": 1.0, "updatedMs": 2.0, "messages": [
        {"role": "user", "text": "hi", "attachments": [{"path": "Projects/Plan.md", "selection": "x"}]},
        {"role": "assistant", "text": "Hello.", "toolCalls": []}
    ]});
    let loaded = load(old, "chat-1").unwrap();
    assert_eq!(loaded.repairs, None);
    assert_eq!(loaded.conversation.messages.len(), 2);
    let with = json!({"id": "chat-2", "title": "New", "createdMs": 1.0, "updatedMs": 2.0, "messages": [
        {"role": "user", "text": "look", "attachments": [{"path": "chat-2-1.png", "pasted": true}, {"path": "Attachments/photo.jpg"}]}
    ]});
    let loaded = load(with.clone(), "chat-2").unwrap();
    assert_eq!(loaded.repairs, None);
    assert_eq!(
        serde_json::to_value(&loaded.conversation).unwrap()["messages"],
        with["messages"]
    );
}
