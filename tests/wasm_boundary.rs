//! The wasm boundary in Node (wasm-bindgen-test): the core driven through its
//! JS class with a host whose functions are written in JavaScript, called and
//! awaited from Rust. Runs with `cargo test --target wasm32-unknown-unknown`.
#![cfg(target_arch = "wasm32")]

use serde_json::{json, Value};
use vault_agent::wasm::VaultAgent;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

/// A host written in JS. `runProcess` awaits a timer before answering, so
/// Rust really suspends on the promise. Calls are recorded in `host.calls`.
fn js_host(stdout: &str, reject: bool) -> JsValue {
    let make = js_sys::Function::new_with_args(
        "stdout, reject",
        r#"
        const calls = [];
        return {
            calls,
            runProcess: async (request) => {
                calls.push(request);
                await new Promise((resolve) => setTimeout(resolve, 10));
                if (reject) throw new Error("shim exploded");
                const bytes = new TextEncoder().encode(stdout);
                return { exitCode: 0, signal: null, timedOut: false, stdout: bytes,
                         stderr: new Uint8Array(), stdoutTotalBytes: bytes.length, stderrTotalBytes: 0 };
            },
            fileStatus: async (path) => ({ exists: path === "/bin/obsidian", isFile: true, executable: true }),
            vaultLinks: async () => ({ links: [] }),
            env: (name) => (name === "PATH" ? "/bin" : undefined),
            now: () => Date.now(),
        };
        "#,
    );
    make.call2(&JsValue::NULL, &stdout.into(), &reject.into())
        .unwrap()
}

fn facts() -> JsValue {
    plain(
        json!({"os": "linux", "isDesktopApp": true, "vaultPath": "/vault", "homeDir": "/home/ada"}),
    )
}

/// A plain JS object, as the shim passes (not a JS `Map`).
fn plain(value: Value) -> JsValue {
    js_sys::JSON::parse(&value.to_string()).unwrap()
}

fn to_json(value: JsValue) -> Value {
    let text = js_sys::JSON::stringify(&value).unwrap();
    serde_json::from_str(&String::from(text)).unwrap()
}

#[wasm_bindgen_test]
async fn call_tool_awaits_the_js_host_and_returns_a_plain_result() {
    let host = js_host("Daily/2026-03-03.md\n", false);
    let agent = VaultAgent::new(
        host.clone().unchecked_into(),
        facts(),
        plain(json!({"vaultName": "Work", "timeoutMs": 2500})),
    )
    .unwrap();
    let args = plain(json!({"command": "daily:path"}));
    let result = to_json(
        JsFuture::from(agent.call_tool("obsidianDailyNote".into(), args))
            .await
            .unwrap(),
    );
    assert_eq!(result["ok"], true, "{result}");
    assert_eq!(result["text"], "Daily/2026-03-03.md");
    assert_eq!(result["argv"], json!(["vault=Work", "daily:path"]));
    assert_eq!(result["program"], "/bin/obsidian");
    assert!(result["durationMs"].as_f64().unwrap() >= 9.0, "{result}");

    let calls = js_sys::Reflect::get(&host, &"calls".into()).unwrap();
    let calls = to_json(calls);
    assert_eq!(calls.as_array().unwrap().len(), 1);
    assert_eq!(calls[0]["program"], "/bin/obsidian");
    assert_eq!(calls[0]["args"], json!(["vault=Work", "daily:path"]));
    assert_eq!(calls[0]["cwd"], "/vault");
    assert_eq!(calls[0]["timeoutMs"], 2500);
}

#[wasm_bindgen_test]
async fn refusals_cross_the_boundary_as_results_not_exceptions() {
    let host = js_host("", false);
    let agent = VaultAgent::new(host.clone().unchecked_into(), facts(), JsValue::NULL).unwrap();
    let args = plain(json!({"command": "random:read", "folder": 3}));
    let result = to_json(
        JsFuture::from(agent.call_tool("obsidianRandomRead".into(), args))
            .await
            .unwrap(),
    );
    assert_eq!(result["ok"], false);
    assert_eq!(result["error"]["code"], "invalid_arguments");
    assert!(result["error"]["message"]
        .as_str()
        .unwrap()
        .contains("`folder`"));
    assert_eq!(
        to_json(js_sys::Reflect::get(&host, &"calls".into()).unwrap()),
        json!([])
    );
}

#[wasm_bindgen_test]
async fn a_rejecting_host_function_becomes_a_typed_error() {
    let host = js_host("", true);
    let agent = VaultAgent::new(host.unchecked_into(), facts(), JsValue::NULL).unwrap();
    let args = plain(json!({"command": "daily:read"}));
    let result = to_json(
        JsFuture::from(agent.call_tool("obsidianDailyNote".into(), args))
            .await
            .unwrap(),
    );
    assert_eq!(result["ok"], false);
    assert_eq!(result["error"]["code"], "exit_status");
    assert!(
        result["text"].as_str().unwrap().contains("shim exploded"),
        "{result}"
    );
}

#[wasm_bindgen_test]
fn list_tools_and_settings_are_plain_objects() {
    let agent = VaultAgent::new(
        js_host("", false).unchecked_into(),
        facts(),
        plain(json!({"timeoutMs": -1})),
    )
    .unwrap();
    let tools = to_json(agent.list_tools().unwrap());
    let ids: Vec<&str> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert!(
        ids.contains(&"obsidianDailyNote") && ids.contains(&"obsidianNotes"),
        "{ids:?}"
    );
    assert_eq!(tools[0]["inputSchema"]["type"], "object");
    assert_eq!(tools[0]["enabled"], true);
    assert!(
        tools[0].get("command_details").is_none(),
        "camelCase on the wire"
    );
    let current = to_json(agent.settings().unwrap());
    assert_eq!(current["timeoutMs"], 1000);
    assert_eq!(agent.startup_repairs().len(), 1);
}

/// A JS host whose HTTP functions stream a scripted OpenAI answer in small
/// chunks, and whose CLI answers `tasks`.
fn js_chat_host() -> JsValue {
    let make = js_sys::Function::new_with_args(
        "",
        r#"
        const body = [
            'data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"obsidianTasks","arguments":"{\\"command\\":\\"tasks\\",\\"all\\":true}"}}]}}]}\n\n',
            'data: [DONE]\n\n',
        ].join("");
        const answer = 'data: {"choices":[{"delta":{"content":"Two open tasks, caf\u00e9."}}]}\n\ndata: [DONE]\n\n';
        const replies = [body, answer];
        const open = new Map();
        return {
            requests: [],
            runProcess: async (request) => {
                const bytes = new TextEncoder().encode("- [ ] a\n- [ ] b");
                return { exitCode: 0, stdout: bytes, stderr: new Uint8Array(), stdoutTotalBytes: bytes.length, stderrTotalBytes: 0 };
            },
            fileStatus: async (path) => ({ exists: path === "/bin/obsidian", isFile: true, executable: true }),
            vaultLinks: async () => ({ links: [] }),
            env: (name) => (name === "PATH" ? "/bin" : undefined),
            now: () => Date.now(),
            secret: () => undefined,
            pageText: (html) => html.replace(/<[^>]*>/g, " "),
            async httpOpen(request) {
                this.requests.push(request);
                const id = this.requests.length;
                const bytes = new TextEncoder().encode(replies.shift());
                const chunks = [];
                for (let i = 0; i < bytes.length; i += 5) chunks.push(bytes.slice(i, i + 5));
                open.set(id, chunks);
                return { id, status: 200 };
            },
            async httpRead(id) {
                await new Promise((resolve) => setTimeout(resolve, 0));
                const chunks = open.get(id);
                return chunks && chunks.length ? { chunk: chunks.shift() } : { done: true };
            },
            httpClose(id) { open.delete(id); },
            sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
            localContext: () => ({ dateTime: "Monday, 30 November 2026, 15:25", timeZone: "Europe/Berlin (UTC+01:00)" }),
        };
        "#,
    );
    make.call0(&JsValue::NULL).unwrap()
}

#[wasm_bindgen_test]
async fn a_chat_turn_streams_through_js_http_and_reports_events_to_a_js_callback() {
    let host = js_chat_host();
    let agent = VaultAgent::new(
        host.clone().unchecked_into(),
        facts(),
        plain(json!({"chat": {"openai": {"baseUrl": "http://model.test/v1", "model": "m"}}})),
    )
    .unwrap();
    let conversation = agent.new_conversation().unwrap();
    let events = js_sys::Array::new();
    let sink = events.clone();
    let on_event = Closure::<dyn Fn(JsValue)>::new(move |event: JsValue| {
        sink.push(&event);
    });
    let callback: &js_sys::Function = on_event.as_ref().unchecked_ref();
    let result = JsFuture::from(agent.chat_send(
        conversation,
        "what is open?".into(),
        callback.clone(),
        JsValue::UNDEFINED,
        JsValue::UNDEFINED,
    ))
    .await
    .unwrap();
    let result = to_json(result);
    assert_eq!(result["end"], "done", "{result}");
    let kinds: Vec<String> = events
        .iter()
        .map(|e| to_json(e)["type"].as_str().unwrap().to_string())
        .collect();
    assert!(kinds.contains(&"toolFinished".to_string()), "{kinds:?}");
    let text: String = events
        .iter()
        .map(to_json)
        .filter(|e| e["type"] == "textDelta")
        .map(|e| e["text"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(text, "Two open tasks, café.");
    let requests = to_json(js_sys::Reflect::get(&host, &"requests".into()).unwrap());
    assert_eq!(requests[0]["url"], "http://model.test/v1/chat/completions");
    // The user's local time crossed the boundary into the system prompt.
    let body = requests[0]["body"].as_str().unwrap();
    assert!(
        body.contains("Now: Monday, 30 November 2026, 15:25, Europe/Berlin (UTC+01:00)"),
        "{body}"
    );
    let messages = result["conversation"]["messages"].as_array().unwrap();
    assert_eq!(
        messages.len(),
        4,
        "user, assistant with the call, tool, assistant"
    );
}
