//! What each provider sends back: Anthropic tool use, whole JSON bodies, usage, `stream_options`, reasoning and thinking.

use super::*;

#[test]
fn anthropic_round_trip_with_tool_use() {
    let core = agent(
        json!({"chat": {"provider": "anthropic", "anthropic": {"apiKeySecret": "anthropic-key", "model": "claude-test"}}}),
    );
    core.host().script_http(ok(anthropic_sse(
        "Looking. ",
        &[(
            "obsidianLinks",
            r#"{"command":"backlinks","file":"Roadmap"}"#,
        )],
        9,
    )));
    core.host()
        .script_http(ok(anthropic_sse("Roadmap has 2 backlinks.", &[], 4)));
    let events = Recorder::default();
    let mut conv = conversation();
    assert_eq!(
        block_on(core.chat.send(&mut conv, "what links to Roadmap?", &events)),
        TurnEnd::Done
    );
    assert_eq!(events.text(), "Looking. Roadmap has 2 backlinks.");
    let first = &core.host().http_requests.borrow()[0];
    assert!(first.url.ends_with("/v1/messages"));
    assert!(first
        .headers
        .contains(&("x-api-key".into(), "sk-ant-test".into())));
    let body = request_body(&core, 1);
    assert_eq!(body["model"], "claude-test");
    assert_eq!(body["tools"][0]["input_schema"]["type"], "object");
    let last = body["messages"].as_array().unwrap().last().unwrap();
    assert_eq!(last["role"], "user");
    assert_eq!(last["content"][0]["type"], "tool_result");
    assert_eq!(last["content"][0]["tool_use_id"], "toolu_0");
}

#[test]
fn a_reply_as_one_json_body_is_read_whole_for_both_providers() {
    let core = agent(Value::Null);
    let whole = json!({"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "obsidianTasks", "arguments": "{\"command\":\"tasks\",\"all\":true,\"todo\":true}"}}
    ]}, "finish_reason": "tool_calls"}]});
    core.host()
        .script_http(ok(vec![whole.to_string().into_bytes()]));
    let answer = json!({"choices": [{"message": {"role": "assistant", "content": "You have 2 open tasks."}, "finish_reason": "stop"}]});
    core.host()
        .script_http(ok(split(answer.to_string().into_bytes(), 3)));
    let events = Recorder::default();
    let mut chat = conversation();
    assert_eq!(
        block_on(core.chat.send(&mut chat, "open tasks?", &events)),
        TurnEnd::Done
    );
    assert_eq!(events.text(), "You have 2 open tasks.");
    assert!(
        core.host()
            .requests
            .borrow()
            .iter()
            .any(|r| r.args[0] == "tasks"),
        "the tool ran"
    );

    let anthropic = agent(
        json!({"chat": {"provider": "anthropic", "anthropic": {"apiKeySecret": "anthropic-key"}}}),
    );
    let reply = json!({"content": [{"type": "text", "text": "Checking."}, {"type": "tool_use", "id": "toolu_1", "name": "obsidianTasks", "input": {"command": "tasks", "all": true}}], "stop_reason": "tool_use"});
    anthropic
        .host()
        .script_http(ok(vec![reply.to_string().into_bytes()]));
    anthropic.host().script_http(ok(vec![
        json!({"content": [{"type": "text", "text": "Done."}]})
            .to_string()
            .into_bytes(),
    ]));
    let events = Recorder::default();
    assert_eq!(
        block_on(anthropic.chat.send(&mut conversation(), "tasks", &events)),
        TurnEnd::Done
    );
    assert_eq!(events.text(), "Checking.Done.");
}

#[test]
fn usage_is_reported_per_answer_and_per_chat_only_when_the_server_says() {
    let core = agent(json!({"chat": {"openai": {"contextWindow": 8000}}}));
    let mut chat = conversation();
    // A tool round, then the answer; each round's last chunk has `usage`.
    let tool_call = json!({"choices": [{"delta": {"tool_calls": [{"index": 0, "id": "c0", "function": {"name": "obsidianTasks", "arguments": "{\"command\":\"tasks\"}"}}]}}]});
    core.host().script_http(ok(sse(&[
        tool_call,
        json!({"choices": [], "usage": {"prompt_tokens": 1200, "completion_tokens": 30, "total_tokens": 1230}}),
    ])));
    core.host().script_http(ok(sse(&[
        json!({"choices": [{"delta": {"content": "Two tasks."}}]}),
        json!({"choices": [{"delta": {}, "finish_reason": "stop"}]}),
        json!({"choices": [], "usage": {"prompt_tokens": 1400, "completion_tokens": 12}}),
    ])));
    let events = Recorder::default();
    assert_eq!(
        block_on(core.chat.send(&mut chat, "tasks?", &events)),
        TurnEnd::Done
    );
    assert_eq!(
        request_body(&core, 0)["stream_options"]["include_usage"],
        true
    );
    let expected = json!({"inputTokens": 2600, "outputTokens": 42, "contextTokens": 1412, "contextWindow": 8000});
    assert_eq!(
        usage_events(&events),
        [(
            expected.clone(),
            json!({"inputTokens": 2600, "outputTokens": 42})
        )]
    );
    let Some(ChatMessage::Assistant { usage, .. }) = chat.messages.last() else {
        panic!("the answer is last");
    };
    assert_eq!(serde_json::to_value(usage).unwrap(), expected);
    // A reply as one JSON body reports it too; the chat adds up.
    core.host().script_http(ok(vec![json!({"choices": [{"message": {"content": "Hi."}, "finish_reason": "stop"}], "usage": {"prompt_tokens": 1500, "completion_tokens": 3}}).to_string().into_bytes()]));
    let events = Recorder::default();
    block_on(core.chat.send(&mut chat, "hi", &events));
    assert_eq!(
        usage_events(&events)[0].1,
        json!({"inputTokens": 4100, "outputTokens": 45})
    );
    // Saved and loaded, the totals stay with the conversation.
    let saved: Conversation = serde_json::from_str(&serde_json::to_string(&chat).unwrap()).unwrap();
    assert_eq!(saved.usage.input_tokens, 4100);
    // A server that says nothing: no usage event, nothing guessed.
    core.host()
        .script_http(ok(openai_sse("No usage here.", &[], 2)));
    let events = Recorder::default();
    block_on(core.chat.send(&mut chat, "again", &events));
    assert!(usage_events(&events).is_empty(), "{:?}", events.kinds());
    assert!(matches!(
        chat.messages.last(),
        Some(ChatMessage::Assistant { usage: None, .. })
    ));
    assert_eq!(chat.usage.input_tokens, 4100);
}

#[test]
fn a_400_that_names_stream_options_is_asked_again_without_and_remembered() {
    let core = agent(Value::Null);
    let mut chat = conversation();
    core.host().script_http(ScriptedHttp::Response {
        status: 400,
        chunks: vec![
            br#"{"error":{"message":"Unrecognized request argument supplied: stream_options"}}"#
                .to_vec(),
        ],
    });
    core.host().script_http(ok(openai_sse("Hello.", &[], 1)));
    let events = Recorder::default();
    assert_eq!(
        block_on(core.chat.send(&mut chat, "hi", &events)),
        TurnEnd::Done
    );
    assert_eq!(events.text(), "Hello.");
    assert!(request_body(&core, 0).get("stream_options").is_some());
    assert!(request_body(&core, 1).get("stream_options").is_none());
    assert_eq!(*core.host().http_closed.borrow(), [1, 2]);
    // Remembered: the next turn does not ask with it again.
    core.host().script_http(ok(openai_sse("Again.", &[], 1)));
    block_on(core.chat.send(&mut chat, "more", &Recorder::default()));
    assert_eq!(core.host().http_requests.borrow().len(), 3);
    assert!(request_body(&core, 2).get("stream_options").is_none());
    // Another 400 is an error as before, and is not retried.
    let other = agent(Value::Null);
    other.host().script_http(ScriptedHttp::Response {
        status: 400,
        chunks: vec![br#"{"error":{"message":"max_tokens too large"}}"#.to_vec()],
    });
    other.host().script_http(ok(openai_sse("never", &[], 1)));
    let events = Recorder::default();
    assert_eq!(
        block_on(other.chat.send(&mut conversation(), "hi", &events)),
        TurnEnd::Failed
    );
    assert_eq!(failure(&events).0, "bad_request");
    assert_eq!(other.host().http_requests.borrow().len(), 1);
}

#[test]
fn openai_reasoning_is_shown_apart_and_never_sent_back() {
    let core = agent(Value::Null);
    let mut chat = conversation();
    core.host().script_http(ok(sse(&[
        json!({"choices": [{"delta": {"reasoning_content": "The user wants "}}]}),
        json!({"choices": [{"delta": {"reasoning": "their tasks."}}]}),
        json!({"choices": [{"delta": {"tool_calls": [{"index": 0, "id": "c0", "function": {"name": "obsidianTasks", "arguments": "{\"command\":\"tasks\"}"}}]}}]}),
    ])));
    core.host().script_http(ok(sse(&[
        json!({"choices": [{"delta": {"reasoning": "Two found."}}]}),
        json!({"choices": [{"delta": {"content": "You have two."}}]}),
    ])));
    let events = Recorder::default();
    block_on(core.chat.send(&mut chat, "tasks?", &events));
    assert_eq!(reasoning(&events), "The user wants their tasks.Two found.");
    assert_eq!(events.text(), "You have two.");
    let Some(ChatMessage::Assistant {
        text, reasoning, ..
    }) = chat.messages.last()
    else {
        panic!("the answer is last");
    };
    assert_eq!(
        (text.as_str(), reasoning.as_str()),
        ("You have two.", "Two found.")
    );
    core.host().script_http(ok(openai_sse("Ok.", &[], 1)));
    block_on(core.chat.send(&mut chat, "thanks", &Recorder::default()));
    let sent = request_body(&core, 2).to_string();
    assert!(
        !sent.contains("The user wants") && !sent.contains("Two found."),
        "{sent}"
    );
    assert!(!sent.contains("reasoning"), "{sent}");
}

#[test]
fn reasoning_printed_in_think_tags_is_shown_apart_and_never_sent_back() {
    // DeepSeek R1 and Qwen 3 through servers that do not separate it: the
    // reasoning comes as answer text, tags cut across chunks; a printed tool
    // call inside it must not run.
    let core = agent(Value::Null);
    let mut chat = conversation();
    core.host().script_http(ok(openai_sse(
        "<think> The user wants tasks. {\"name\": \"obsidianTasks\", \"arguments\": {\"command\": \"tasks\"}} </think> You have none.",
        &[],
        3,
    )));
    let events = Recorder::default();
    block_on(core.chat.send(&mut chat, "tasks?", &events));
    assert_eq!(
        reasoning(&events),
        " The user wants tasks. {\"name\": \"obsidianTasks\", \"arguments\": {\"command\": \"tasks\"}} "
    );
    assert_eq!(events.text(), "You have none.");
    assert!(
        core.host().requests.borrow().is_empty(),
        "a tool call inside the reasoning ran"
    );
    let Some(ChatMessage::Assistant {
        text, reasoning, ..
    }) = chat.messages.last()
    else {
        panic!("the answer is last");
    };
    assert_eq!(text, "You have none.");
    assert!(reasoning.contains("The user wants tasks."));
    core.host().script_http(ok(openai_sse("Ok.", &[], 1)));
    block_on(core.chat.send(&mut chat, "thanks", &Recorder::default()));
    let sent = request_body(&core, 1).to_string();
    assert!(
        !sent.contains("The user wants") && !sent.contains("think>"),
        "{sent}"
    );
}

/// An Anthropic stream that thinks (signed), reports usage and calls a tool.
fn anthropic_thinking_sse(signature: &str) -> Vec<Vec<u8>> {
    let events = [
        json!({"type": "message_start", "message": {"id": "m", "usage": {"input_tokens": 900, "cache_read_input_tokens": 100, "output_tokens": 1}}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": ""}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "Backlinks of "}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "Roadmap."}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": signature}}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "content_block_start", "index": 1, "content_block": {"type": "redacted_thinking", "data": "EnCrYpTeD"}}),
        json!({"type": "content_block_stop", "index": 1}),
        json!({"type": "content_block_start", "index": 2, "content_block": {"type": "tool_use", "id": "toolu_1", "name": "obsidianLinks", "input": {}}}),
        json!({"type": "content_block_delta", "index": 2, "delta": {"type": "input_json_delta", "partial_json": "{\"command\":\"backlinks\",\"file\":\"Roadmap\"}"}}),
        json!({"type": "content_block_stop", "index": 2}),
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 80}}),
        json!({"type": "message_stop"}),
    ];
    let body: String = events
        .iter()
        .map(|e| format!("event: {}\ndata: {e}\n\n", e["type"].as_str().unwrap()))
        .collect();
    split(body.into_bytes(), 7)
}

#[test]
fn anthropic_thinking_goes_back_unchanged_with_its_tool_use_and_is_never_answer_text() {
    let core = agent(
        json!({"chat": {"provider": "anthropic", "anthropicThinking": true, "anthropicThinkingBudget": 2048,
        "anthropic": {"apiKeySecret": "anthropic-key", "model": "claude-test"}}}),
    );
    let signature = "EqQBCkYIARgCIkB+sig/with=chars==";
    core.host()
        .script_http(ok(anthropic_thinking_sse(signature)));
    core.host()
        .script_http(ok(anthropic_sse("Roadmap has 2 backlinks.", &[], 3)));
    let mut chat = conversation();
    let events = Recorder::default();
    assert_eq!(
        block_on(core.chat.send(&mut chat, "backlinks of Roadmap", &events)),
        TurnEnd::Done
    );
    let first = request_body(&core, 0);
    assert_eq!(
        first["thinking"],
        json!({"type": "enabled", "budget_tokens": 2048})
    );
    assert!(first["max_tokens"].as_u64().unwrap() > 2048);
    let second = request_body(&core, 1);
    let assistant = &second["messages"][1];
    assert_eq!(assistant["role"], "assistant");
    assert_eq!(
        assistant["content"][0],
        json!({"type": "thinking", "thinking": "Backlinks of Roadmap.", "signature": signature})
    );
    assert_eq!(
        assistant["content"][1],
        json!({"type": "redacted_thinking", "data": "EnCrYpTeD"})
    );
    assert_eq!(assistant["content"][2]["type"], "tool_use");
    assert_eq!(reasoning(&events), "Backlinks of Roadmap.");
    assert_eq!(events.text(), "Roadmap has 2 backlinks.");
    // The tool round's usage counts (input with the cache read); the answer's
    // stream said nothing, so the line is not drawn for it.
    assert!(usage_events(&events).is_empty());
    assert_eq!(chat.usage.input_tokens, 1000);
    assert_eq!(chat.usage.output_tokens, 80);
    // A later turn does not send the old thinking again.
    core.host().script_http(ok(anthropic_sse("Ok.", &[], 1)));
    block_on(core.chat.send(&mut chat, "thanks", &Recorder::default()));
    assert!(!request_body(&core, 2).to_string().contains(signature));
    // Off (the default): no thinking asked for, none sent back.
    let plain = agent(
        json!({"chat": {"provider": "anthropic", "anthropic": {"apiKeySecret": "anthropic-key", "model": "claude-test"}}}),
    );
    plain
        .host()
        .script_http(ok(anthropic_thinking_sse(signature)));
    plain.host().script_http(ok(anthropic_sse("Done.", &[], 1)));
    block_on(
        plain
            .chat
            .send(&mut conversation(), "x", &Recorder::default()),
    );
    assert!(request_body(&plain, 0).get("thinking").is_none());
    assert!(!request_body(&plain, 1).to_string().contains(signature));
}

/// A llama.cpp without `--jinja`, or a template without tool support, drops
/// the tools and says nothing; the usage it reports gives it away.
#[test]
fn a_server_that_reads_less_than_the_tools_is_said_to_ignore_them_once_per_model() {
    let answer = |prompt_tokens: u64| {
        ok(sse(&[
            json!({"choices": [{"delta": {"content": "Hi."}}]}),
            json!({"choices": [], "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": 2}}),
        ]))
    };
    let said = |events: &Recorder| {
        notices(events)
            .into_iter()
            .filter(|n| n.contains("seems to ignore the tools"))
            .collect::<Vec<_>>()
    };
    let core = agent(json!({"chat": {"openai": {"contextWindow": 65536}}}));
    let mut chat = conversation();
    core.host().script_http(answer(60));
    let events = Recorder::default();
    assert_eq!(
        block_on(core.chat.send(&mut chat, "hi", &events)),
        TurnEnd::Done
    );
    let notice = said(&events);
    assert_eq!(notice.len(), 1, "{:?}", notices(&events));
    assert!(
        notice[0].contains("reports reading 60 tokens"),
        "{notice:?}"
    );
    assert!(notice[0].contains("--jinja"), "{notice:?}");
    // Once per server and model.
    core.host().script_http(answer(60));
    let events = Recorder::default();
    block_on(core.chat.send(&mut chat, "again", &events));
    assert!(said(&events).is_empty(), "{:?}", notices(&events));
    // A server that reads the tools says nothing of the kind.
    let core = agent(json!({"chat": {"openai": {"contextWindow": 65536}}}));
    core.host().script_http(answer(9000));
    let events = Recorder::default();
    block_on(core.chat.send(&mut conversation(), "hi", &events));
    assert!(said(&events).is_empty(), "{:?}", notices(&events));
    // Anthropic leaves cached tokens out of `input_tokens`: not judged.
    let anthropic = agent(
        json!({"chat": {"provider": "anthropic", "anthropic": {"model": "claude-test", "apiKeySecret": "anthropic-key"}}}),
    );
    let stream = [
        json!({"type": "message_start", "message": {"id": "m", "role": "assistant", "content": [], "usage": {"input_tokens": 12, "output_tokens": 1}}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi."}}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 2}}),
        json!({"type": "message_stop"}),
    ];
    let body: String = stream
        .iter()
        .map(|event| {
            format!(
                "event: {}\ndata: {event}\n\n",
                event["type"].as_str().unwrap()
            )
        })
        .collect();
    anthropic.host().script_http(ok(vec![body.into_bytes()]));
    let events = Recorder::default();
    assert_eq!(
        block_on(anthropic.chat.send(&mut conversation(), "hi", &events)),
        TurnEnd::Done
    );
    assert_eq!(usage_events(&events)[0].0["inputTokens"], 12);
    assert!(said(&events).is_empty(), "{:?}", notices(&events));
    // A small window's compact tools are judged too (Ollama's default 4 096).
    let small = agent(Value::Null);
    small.host().script_http(answer(60));
    let events = Recorder::default();
    block_on(small.chat.send(&mut conversation(), "hi", &events));
    assert_eq!(said(&events).len(), 1, "{:?}", notices(&events));
}
