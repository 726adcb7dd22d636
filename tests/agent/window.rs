//! The context window: asked of the server once per model, fitting to it, Stop while it is asked for.

use super::*;

/// One answer with usage, to read the window the turn was fitted to.
fn window_of_a_turn(core: &VaultAgent<FakeHost>, chat: &mut Conversation) -> Value {
    core.host().script_http(ok(sse(&[
        json!({"choices": [{"delta": {"content": "Hi."}}]}),
        json!({"choices": [], "usage": {"prompt_tokens": 10, "completion_tokens": 2}}),
    ])));
    let events = Recorder::default();
    assert_eq!(block_on(core.chat.send(chat, "hi", &events)), TurnEnd::Done);
    usage_events(&events)[0].0["contextWindow"].clone()
}

#[test]
fn the_window_comes_from_the_server_once_per_model_and_a_failed_probe_falls_back() {
    // Ollama: num_ctx in the model's parameters is what it runs with.
    let core = agent(Value::Null);
    core.host().route_http(
        "/api/show",
        json_body(json!({"parameters": "num_ctx 16384", "model_info": {"general.architecture": "llama", "llama.context_length": 131072}})),
    );
    let mut chat = conversation();
    assert_eq!(window_of_a_turn(&core, &mut chat), 16_384);
    assert_eq!(window_of_a_turn(&core, &mut chat), 16_384);
    let probes = core.host().routed_requests.borrow().clone();
    assert_eq!(probes.len(), 1, "asked once, then cached");
    assert_eq!(probes[0].url, "http://localhost:11434/api/show");
    assert_eq!(probes[0].method, "POST");
    assert_eq!(
        serde_json::from_str::<Value>(probes[0].body.as_ref().unwrap()).unwrap(),
        json!({"model": "llama3.1"})
    );
    assert_eq!(core.host().routed_closed.borrow().len(), 1, "closed");
    // Without num_ctx Ollama's OpenAI endpoint runs with its default.
    let core = agent(Value::Null);
    core.host().route_http(
        "/api/show",
        json_body(
            json!({"model_info": {"general.architecture": "qwen2", "qwen2.context_length": 32768}}),
        ),
    );
    assert_eq!(window_of_a_turn(&core, &mut conversation()), 4_096);
    // A probe that fails, or answers nonsense, never fails the chat.
    for answer in [
        ScriptedHttp::Failure(HttpFailure {
            code: "ECONNREFUSED".into(),
            message: "refused".into(),
        }),
        ScriptedHttp::Response {
            status: 500,
            chunks: vec![b"boom".to_vec()],
        },
        ok(vec![b"<html>".to_vec()]),
    ] {
        let core = agent(
            json!({"chat": {"openai": {"baseUrl": "http://localhost:1234/v1", "model": "qwen"}}}),
        );
        core.host().route_http("/api/v0/models", answer);
        assert_eq!(
            window_of_a_turn(&core, &mut conversation()),
            8_192,
            "the default"
        );
        assert_eq!(core.host().routed_requests.borrow().len(), 1);
    }
    // LM Studio: the loaded context of the model.
    let core = agent(
        json!({"chat": {"openai": {"baseUrl": "http://localhost:1234/v1", "model": "qwen"}}}),
    );
    core.host().route_http(
        "/api/v0/models",
        json_body(json!({"data": [{"id": "other", "loaded_context_length": 2048}, {"id": "qwen", "max_context_length": 32768, "loaded_context_length": 12000}]})),
    );
    assert_eq!(window_of_a_turn(&core, &mut conversation()), 12_000);
    // OpenRouter: the listing's context_length.
    let core = agent(
        json!({"chat": {"openai": {"baseUrl": "https://openrouter.ai/api/v1", "model": "x/y"}}}),
    );
    core.host().route_http(
        "/api/v1/models",
        json_body(json!({"data": [{"id": "x/y", "context_length": 65536}]})),
    );
    assert_eq!(window_of_a_turn(&core, &mut conversation()), 65_536);
    // OpenAI: known by name, nothing asked.
    let core = agent(
        json!({"chat": {"openai": {"baseUrl": "https://api.openai.com/v1", "model": "gpt-4o-mini"}}}),
    );
    assert_eq!(window_of_a_turn(&core, &mut conversation()), 128_000);
    assert!(core.host().routed_requests.borrow().is_empty());
    // An explicit setting always wins, and nothing is asked.
    let core = agent(json!({"chat": {"openai": {"contextWindow": 9000}}}));
    core.host().route_http(
        "/api/show",
        json_body(json!({"parameters": "num_ctx 16384"})),
    );
    assert_eq!(window_of_a_turn(&core, &mut conversation()), 9_000);
    assert!(core.host().routed_requests.borrow().is_empty());
}

/// Four turns of a question and a long answer; returns the requests'
/// bodies. Summaries fail, so what is fitted is the turns themselves.
fn four_turns(core: &VaultAgent<FakeHost>) -> Vec<Value> {
    answer_summaries(core, true);
    let mut chat = conversation();
    for n in 0..4 {
        core.host()
            .script_http(ok(openai_sse(&"A long answer. ".repeat(80), &[], 2)));
        let events = Recorder::default();
        let end = block_on(core.chat.send(
            &mut chat,
            &format!("Question {n}: {}", "why? ".repeat(40)),
            &events,
        ));
        assert_eq!(end, TurnEnd::Done, "{:?}", events.0.borrow());
    }
    let requests = core.host().http_requests.borrow();
    requests
        .iter()
        .map(|r| serde_json::from_str(r.body.as_ref().unwrap()).unwrap())
        .collect()
}

#[test]
fn fitting_uses_the_detected_window() {
    // Ollama says 3 800, less than the 4 096 it would be planned for.
    let core = agent(Value::Null);
    core.host().route_http(
        "/api/show",
        json_body(json!({"parameters": "num_ctx 3800"})),
    );
    let detected = four_turns(&core);
    for body in &detected {
        // A summary request too, with its answer's room.
        let sent = vault_agent::doors::chat::budget::estimate(&body["messages"].to_string())
            + vault_agent::doors::chat::budget::estimate(&body["tools"].to_string())
            + match is_summary(body) {
                true => body["max_tokens"].as_u64().unwrap() as usize,
                false => 0,
            };
        assert!(sent <= 3_800, "{sent} tokens sent to a 3 800-token model");
    }
    let turns = |bodies: Vec<Value>| {
        bodies
            .into_iter()
            .filter(|b| !is_summary(b))
            .collect::<Vec<_>>()
    };
    let detected = turns(detected);
    let default = turns(four_turns(&agent(Value::Null)));
    let kept = |bodies: &[Value]| bodies[3]["messages"].as_array().unwrap().len();
    assert!(
        kept(&detected) < kept(&default),
        "the smaller window leaves more out ({} vs {})",
        kept(&detected),
        kept(&default)
    );
}

/// Presses Stop when a model round starts (while the window is asked for).
struct StopOnRound<'a>(&'a VaultAgent<FakeHost>, Recorder);

impl ChatEvents for StopOnRound<'_> {
    fn emit(&self, event: ChatEvent) {
        if matches!(event, ChatEvent::ModelRound { .. }) {
            self.0.chat.stop(None);
        }
        self.1.emit(event);
    }
}

#[test]
fn stop_while_the_window_is_asked_for_sends_nothing_and_asks_again_next_time() {
    let core = agent(Value::Null);
    core.host().route_http(
        "/api/show",
        json_body(json!({"parameters": "num_ctx 16384"})),
    );
    let mut chat = conversation();
    let events = StopOnRound(&core, Recorder::default());
    assert_eq!(
        block_on(core.chat.send(&mut chat, "hi", &events)),
        TurnEnd::Stopped
    );
    assert!(
        core.host().http_requests.borrow().is_empty(),
        "no chat request after Stop"
    );
    assert_eq!(core.host().routed_requests.borrow().len(), 1);
    // Not cached as "the server cannot tell": the next turn asks again.
    assert_eq!(window_of_a_turn(&core, &mut chat), 16_384);
    assert_eq!(core.host().routed_requests.borrow().len(), 2);
}

#[test]
fn a_window_too_small_for_the_prompt_says_what_can_help_and_a_new_chat_is_not_it() {
    let small = |window: u32| {
        agent(json!({"chat": {"profiles": [
            {"id": "a", "provider": "openAi", "contextWindow": window}
        ]}}))
    };
    // The fixed prompt and the compact tools alone do not fit 512 tokens.
    let core = small(512);
    let events = Recorder::default();
    assert_eq!(
        block_on(core.chat.send(&mut conversation(), "hi", &events)),
        TurnEnd::Failed
    );
    let (code, message) = failure(&events);
    assert_eq!(code, "prompt_too_large", "{message}");
    assert!(!message.to_lowercase().contains("new chat"), "{message}");
    assert!(
        message.contains("Settings → Vault Agent → Tools"),
        "{message}"
    );
    assert!(
        core.host().http_requests.borrow().is_empty(),
        "nothing was sent"
    );
    assert!(
        !retryable(&events),
        "Retry cannot help before the setting changes"
    );
    // A window that holds the prompt but not the message: the conversation is the problem.
    let core = small(4096);
    let events = Recorder::default();
    block_on(core.chat.send(
        &mut conversation(),
        &"a very long question ".repeat(2_000),
        &events,
    ));
    assert_eq!(failure(&events).0, "context_full");
    assert!(retryable(&events));
}
