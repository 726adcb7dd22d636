//! Failed turns: Stop, server errors, a missing key or `/v1`, empty, stalled, cut and malformed streams, a busy server, Retry.

use super::*;

#[test]
fn stop_in_mid_stream_keeps_what_was_said() {
    let core = agent(Value::Null);
    let mut chunks = openai_sse("This is a long answer that", &[], 6);
    chunks.truncate(3);
    core.host().script_http(ScriptedHttp::BrokenAfter {
        chunks,
        failure: HttpFailure {
            code: "ABORTED".into(),
            message: "The user pressed Stop".into(),
        },
    });
    let events = Recorder::default();
    let mut conv = conversation();
    let end = block_on(core.chat.send(&mut conv, "explain", &events));
    assert_eq!(end, TurnEnd::Stopped);
    let said = events.text();
    assert!(!said.is_empty());
    assert!(matches!(&conv.messages[1], ChatMessage::Assistant { text, .. } if *text == said));
    assert!(
        matches!(conv.messages.last().unwrap(), ChatMessage::Notice { text } if text == "Stopped.")
    );
}

#[test]
fn server_errors_become_one_clear_message() {
    for (status, body, code, fragment) in [
        // The default server (Ollama) has no key: the answer says none was sent.
        (
            401,
            r#"{"error":{"message":"Incorrect API key"}}"#,
            "missing_api_key",
            "none was sent",
        ),
        (
            429,
            r#"{"error":{"message":"Rate limit reached"}}"#,
            "rate_limited",
            "Rate limit reached",
        ),
        (
            500,
            r#"{"error":{"message":"boom"}}"#,
            "server_error",
            "boom",
        ),
        (
            404,
            r#"{"error":{"message":"model not found"}}"#,
            "model_not_found",
            "llama3.1",
        ),
        (
            400,
            r#"{"error":"registry.ollama.ai/library/llama3.1 does not support tools"}"#,
            "no_tool_support",
            "tool calling",
        ),
    ] {
        let core = agent(Value::Null);
        // A busy server is asked again three times before the error shows.
        let times = if status == 429 { 4 } else { 1 };
        for _ in 0..times {
            core.host().script_http(ScriptedHttp::Response {
                status,
                chunks: vec![body.as_bytes().to_vec()],
            });
        }
        let events = Recorder::default();
        let end = block_on(core.chat.send(&mut conversation(), "hi", &events));
        assert_eq!(end, TurnEnd::Failed);
        let (got, message) = events
            .0
            .borrow()
            .iter()
            .find_map(|e| match e {
                ChatEvent::Error { code, message, .. } => Some((code.clone(), message.clone())),
                _ => None,
            })
            .unwrap();
        assert_eq!(got, code);
        assert!(message.contains(fragment), "{status}: {message}");
        assert!(retryable(&events), "{status}: the banner offers Retry");
    }
    let core = agent(Value::Null);
    core.host().script_http(ScriptedHttp::Failure(HttpFailure {
        code: "ECONNREFUSED".into(),
        message: "connect ECONNREFUSED 127.0.0.1:11434".into(),
    }));
    let events = Recorder::default();
    block_on(core.chat.send(&mut conversation(), "hi", &events));
    assert!(events.0.borrow().iter().any(
        |e| matches!(e, ChatEvent::Error { message, .. } if message.contains("Is Ollama running?"))
    ));
}

#[test]
fn anthropic_without_a_key_says_where_to_add_it() {
    let core = agent(json!({"chat": {"provider": "anthropic"}}));
    let events = Recorder::default();
    assert_eq!(
        block_on(core.chat.send(&mut conversation(), "hi", &events)),
        TurnEnd::Failed
    );
    assert!(events
        .0
        .borrow()
        .iter()
        .any(|e| matches!(e, ChatEvent::Error { code, .. } if code == "missing_api_key")));
    assert!(core.host().http_requests.borrow().is_empty());
}

#[test]
fn an_empty_reply_is_an_error_and_is_never_stored() {
    let core = agent(Value::Null);
    core.host().script_http(ok(openai_sse("", &[], 1)));
    let events = Recorder::default();
    let mut chat = conversation();
    assert_eq!(
        block_on(core.chat.send(&mut chat, "hi", &events)),
        TurnEnd::Failed
    );
    assert_eq!(failure(&events).0, "empty_reply");
    assert!(
        !chat
            .messages
            .iter()
            .any(|m| matches!(m, ChatMessage::Assistant { .. })),
        "no empty answer in the history"
    );
    // And an empty answer from an older chat is not sent back.
    chat.messages
        .push(ChatMessage::assistant(String::new(), Vec::new()));
    core.host().script_http(ok(openai_sse("Hello.", &[], 1)));
    block_on(core.chat.send(&mut chat, "again", &Recorder::default()));
    let sent = request_body(&core, 1);
    assert!(
        sent["messages"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["role"] != "assistant"),
        "{sent}"
    );
}

#[test]
fn a_stall_a_cut_and_a_malformed_stream_each_end_with_a_clear_error_and_a_closed_response() {
    for (failure_code, chunks, expected) in [
        (
            "STALLED",
            openai_sse("Half an ans", &[], 2)[..1].to_vec(),
            "stalled",
        ),
        (
            "ECONNRESET",
            openai_sse("Half an ans", &[], 2)[..1].to_vec(),
            "cut",
        ),
    ] {
        let core = agent(Value::Null);
        core.host().script_http(ScriptedHttp::BrokenAfter {
            chunks,
            failure: HttpFailure {
                code: failure_code.into(),
                message: "gone".into(),
            },
        });
        let events = Recorder::default();
        assert_eq!(
            block_on(core.chat.send(&mut conversation(), "hi", &events)),
            TurnEnd::Failed
        );
        let (code, message) = failure(&events);
        assert_eq!(code, expected, "{message}");
        assert_eq!(
            *core.host().http_closed.borrow(),
            [1],
            "the response was closed"
        );
    }
    let stalled = agent(Value::Null);
    stalled.host().script_http(ok(openai_sse("x", &[], 1)));
    block_on(
        stalled
            .chat
            .send(&mut conversation(), "hi", &Recorder::default()),
    );
    assert_eq!(
        stalled.host().http_requests.borrow()[0].idle_timeout_ms,
        60_000,
        "the model timeout is the idle limit"
    );
    assert_eq!(
        stalled.host().http_requests.borrow()[0].first_byte_timeout_ms,
        300_000,
        "the first token has its own, longer wait"
    );

    // Headers, then nothing: the server never began, it did not stall.
    let silent = agent(json!({"chat": {"firstTokenTimeoutMs": 120_000}}));
    silent.host().script_http(ScriptedHttp::BrokenAfter {
        chunks: Vec::new(),
        failure: HttpFailure {
            code: "STALLED".into(),
            message: "Nothing arrived for 120 s.".into(),
        },
    });
    let events = Recorder::default();
    block_on(silent.chat.send(&mut conversation(), "hi", &events));
    let (code, message) = failure(&events);
    assert_eq!(code, "no_first_token", "{message}");
    assert!(message.contains("within 120 s"), "{message}");

    let core = agent(Value::Null);
    core.host().script_http(ok(vec![
        b"data: {\"choices\": [{\"delta\": {\"content\": 12".to_vec(),
        b"}}\n\ndata: oops\n\n".to_vec(),
    ]));
    let events = Recorder::default();
    assert_eq!(
        block_on(core.chat.send(&mut conversation(), "hi", &events)),
        TurnEnd::Failed
    );
    assert_eq!(failure(&events).0, "bad_stream");
    assert_eq!(
        *core.host().http_closed.borrow(),
        [1],
        "closed after a malformed stream too"
    );
}

#[test]
fn a_base_url_without_v1_is_named_as_the_fix() {
    let core = agent(json!({"chat": {"openai": {"baseUrl": "http://localhost:11434"}}}));
    core.host().script_http(ScriptedHttp::Response {
        status: 404,
        chunks: vec![b"404 page not found".to_vec()],
    });
    core.host()
        .script_http(ok(vec![br#"{"data":[{"id":"llama3.1"}]}"#.to_vec()]));
    let events = Recorder::default();
    block_on(core.chat.send(&mut conversation(), "hi", &events));
    let (code, message) = failure(&events);
    assert_eq!(code, "missing_v1", "{message}");
    assert!(
        message.contains("\"http://localhost:11434/v1\""),
        "{message}"
    );
    assert_eq!(
        core.host().http_requests.borrow()[1].url,
        "http://localhost:11434/v1/models"
    );
}

#[test]
fn a_busy_server_is_asked_again_after_the_wait_it_names() {
    let core = agent(Value::Null);
    *core.host().retry_after.borrow_mut() = Some("2".into());
    core.host().script_http(ScriptedHttp::Response {
        status: 429,
        chunks: vec![br#"{"error":{"message":"slow down"}}"#.to_vec()],
    });
    core.host().script_http(ScriptedHttp::Response {
        status: 503,
        chunks: vec![b"busy".to_vec()],
    });
    core.host().script_http(ok(openai_sse("Here.", &[], 1)));
    let events = Recorder::default();
    assert_eq!(
        block_on(core.chat.send(&mut conversation(), "hi", &events)),
        TurnEnd::Done
    );
    assert_eq!(
        *core.host().slept.borrow(),
        [2000, 2000],
        "Retry-After, then the second backoff step"
    );
    // Passing lines (the view keeps one, until the answer), not notices.
    let retrying: Vec<String> = events
        .0
        .borrow()
        .iter()
        .filter_map(|e| match e {
            ChatEvent::Retrying { text } => Some(text.clone()),
            _ => None,
        })
        .collect();
    assert!(
        retrying[0].starts_with(
            "The model server is busy (429: slow down); trying again in 2 s (1 of 3)."
        ),
        "{retrying:?}"
    );
    assert_eq!(retrying.len(), 2, "{retrying:?}");
    assert!(notices(&events).is_empty(), "{:?}", notices(&events));
    assert_eq!(events.text(), "Here.");
}

#[test]
fn retry_runs_the_failed_turn_again_without_a_second_message() {
    let core = agent(Value::Null);
    core.host().script_http(ScriptedHttp::Response {
        status: 500,
        chunks: vec![br#"{"error":{"message":"boom"}}"#.to_vec()],
    });
    let mut chat = conversation();
    assert_eq!(
        block_on(core.chat.send(&mut chat, "hi", &Recorder::default())),
        TurnEnd::Failed
    );
    core.host()
        .script_http(ok(openai_sse("Hello again.", &[], 2)));
    let events = Recorder::default();
    assert_eq!(block_on(core.chat.retry(&mut chat, &events)), TurnEnd::Done);
    assert_eq!(events.text(), "Hello again.");
    let users = chat
        .messages
        .iter()
        .filter(|m| matches!(m, ChatMessage::User { .. }))
        .count();
    assert_eq!(users, 1, "the message is not repeated");
    let sent = request_body(&core, 1);
    assert_eq!(
        sent["messages"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["role"] == "user")
            .count(),
        1
    );
    // After an answer there is nothing to retry.
    let nothing = Recorder::default();
    assert_eq!(
        block_on(core.chat.retry(&mut chat, &nothing)),
        TurnEnd::Failed
    );
    assert_eq!(failure(&nothing).0, "nothing_to_retry");
    assert!(
        !retryable(&nothing),
        "no Retry when there is nothing to retry"
    );
}
