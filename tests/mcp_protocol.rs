//! The MCP server's protocol details and its bounds against hostile local
//! clients, through the core: the gate from the headers alone, the bearer
//! scheme, sessions per token, the activity log's entries, cancelled
//! requests, `Accept`, batches, tool hints, structured content, the Read
//! only refusal's words, and the grace a card gets when a client's own
//! timeout ran out. The listener and real clients are in
//! `tests/node/mcp-hardening.test.mjs`.

mod mcp_support;

use mcp_support::*;
use serde_json::{json, Value};
use vault_agent::base::call::Access;
use vault_agent::doors::mcp::activity::MAX_ARGV_CHARS;
use vault_agent::doors::mcp::{
    McpExchange, MAX_SESSIONS_PER_TOKEN, SESSION_IDLE_MS, TIMED_OUT_GRACE_MS,
};
use vault_agent::settings::PermissionMode;
use vault_agent::testing::{block_on, join};
use vault_agent::Host;

const DOOR: &str = "d00rd00rd00rd00rd00rd00rd00rd00rd00rd00rd00rd00rd00rd00rd00rd00r";

fn ping(session: &str, token: &str) -> McpExchange {
    let mut e = exchange(
        "POST",
        json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}),
        Some(session),
    );
    e.headers
        .insert("authorization".into(), format!("Bearer {token}"));
    e
}

fn text(value: &Value) -> &str {
    value["result"]["content"][0]["text"].as_str().unwrap_or("")
}

#[test]
fn the_bearer_scheme_is_case_insensitive() {
    let (core, _) = new_core(json!({}));
    let events = Recorded::default();
    for scheme in ["Bearer", "bearer", "BEARER", "bEaReR"] {
        let mut init = exchange(
            "POST",
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25"}}),
            None,
        );
        init.headers
            .insert("authorization".into(), format!("{scheme} {TOKEN}"));
        let reply = block_on(core.mcp.handle(&init, &events));
        assert_eq!(reply.status, 200, "{scheme}: {}", reply.body);
    }
}

#[test]
fn the_headers_decide_before_any_body_is_read() {
    let (core, _) = new_core(json!({}));
    let head = |change: &dyn Fn(&mut McpExchange)| {
        let mut e = exchange("POST", json!(null), None);
        e.body = String::new();
        change(&mut e);
        core.mcp.admit(&e).map(|reply| reply.status)
    };
    assert_eq!(head(&|_| {}), None, "a good head lets the body be read");
    assert_eq!(
        head(&|e| {
            e.headers.remove("authorization");
        }),
        Some(401)
    );
    assert_eq!(
        head(&|e| {
            e.headers.insert("host".into(), "evil.example:27125".into());
        }),
        Some(403)
    );
    assert_eq!(
        head(&|e| {
            e.headers
                .insert("content-length".into(), (5 * 1024 * 1024).to_string());
        }),
        Some(413),
        "a declared body over the limit is refused before it is read"
    );
    assert_eq!(
        head(&|e| {
            e.headers.remove("authorization");
            e.headers
                .insert("content-length".into(), (5 * 1024 * 1024).to_string());
        }),
        Some(401),
        "the token first"
    );
    assert!(core.host().requests.borrow().is_empty());
}

#[test]
fn sessions_are_kept_per_token_and_end_when_idle() {
    let (core, _) = new_core(json!({}));
    assert!(core.acp.open_door(DOOR, "Codex", PermissionMode::ReadOnly));
    let events = Recorded::default();
    let ids = std::cell::RefCell::new(0u32);
    let fresh = |core: &_, token: &str| {
        *ids.borrow_mut() += 1;
        let events = Recorded {
            fresh_id: Some(format!("session-{:016}", ids.borrow())),
            ..Recorded::default()
        };
        initialize_with(core, &events, "2025-11-25", token)
    };
    let mine = fresh(&core, TOKEN);
    // The agent's token opens twice its cap.
    let theirs: Vec<String> = (0..2 * MAX_SESSIONS_PER_TOKEN)
        .map(|_| {
            core.host().advance_ms(1.0);
            fresh(&core, DOOR)
        })
        .collect();
    assert_eq!(
        block_on(core.mcp.handle(&ping(&mine, TOKEN), &events)).status,
        200,
        "another token's session is never evicted"
    );
    let alive: Vec<bool> = theirs
        .iter()
        .map(|s| block_on(core.mcp.handle(&ping(s, DOOR), &events)).status == 200)
        .collect();
    assert_eq!(
        alive.iter().filter(|a| **a).count(),
        MAX_SESSIONS_PER_TOKEN,
        "{alive:?}"
    );
    assert!(
        alive[MAX_SESSIONS_PER_TOKEN..].iter().all(|a| *a),
        "its own oldest made room"
    );
    // Only the token that opened a session may end it.
    let mut end = exchange("DELETE", json!(null), Some(&mine));
    end.headers
        .insert("authorization".into(), format!("Bearer {DOOR}"));
    assert_eq!(block_on(core.mcp.handle(&end, &events)).status, 404);
    // Half an hour unused: the session is over.
    core.host().advance_ms(SESSION_IDLE_MS + 1.0);
    let reply = block_on(core.mcp.handle(&ping(&mine, TOKEN), &events));
    assert_eq!(reply.status, 404, "{}", reply.body);
    assert!(
        reply.body.contains("send `initialize` again"),
        "{}",
        reply.body
    );
}

#[test]
fn an_activity_entry_keeps_a_kilobyte_of_arguments_and_says_it_cut() {
    let (core, _) = new_core(json!({}));
    let events = Recorded::default();
    let session = initialize(&core, &events);
    let query = "q".repeat(100_000);
    request(
        &core,
        &events,
        &session,
        "tools/call",
        json!({"name": "obsidianSearch", "arguments": {"command": "search", "query": query}}),
    );
    let entry = events.activity.borrow().last().cloned().unwrap();
    let (marker, kept) = entry.argv.split_last().unwrap();
    let chars: usize = kept.iter().map(|a| a.chars().count()).sum();
    assert!(chars <= MAX_ARGV_CHARS + 1, "{chars} characters kept");
    assert!(marker.starts_with("[cut: "), "{marker}");
    assert!(kept.last().unwrap().ends_with('…'));
    assert!(serde_json::to_string(&entry).unwrap().len() < 2 * MAX_ARGV_CHARS);
}

#[test]
fn a_cancelled_request_gets_no_response_whatever_the_client_accepts() {
    for (accept, status, content_type) in [
        (
            "application/json, text/event-stream",
            200,
            Some("text/event-stream"),
        ),
        ("application/json", 202, None),
    ] {
        let (core, writes) = new_core(json!({"mcp": {"permissionMode": "askEveryChange"}}));
        let events = Recorded::default();
        let session = initialize(&core, &events);
        let mut set = call(5, "obsidianProperties", set_status("done"), &session);
        set.headers.insert("accept".into(), accept.into());
        let cancel = exchange(
            "POST",
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 5, "reason": "User pressed Esc"}}),
            Some(&session),
        );
        let client = async {
            while events.presented.borrow().is_empty() {
                core.host().sleep(50).await;
            }
            core.mcp.handle(&cancel, &events).await
        };
        let (reply, _) = join(core.mcp.handle(&set, &events), client);
        assert_eq!(reply.status, status, "{accept}");
        assert_eq!(reply.body, "", "{accept}: no JSON-RPC response");
        assert_eq!(header(&reply, "content-type"), content_type, "{accept}");
        assert!(writes.borrow().is_empty());
        assert_eq!(
            events.withdrawn.borrow().len(),
            1,
            "a deliberate cancel takes the card away"
        );
    }
}

#[test]
fn a_client_that_accepts_only_json_gets_no_stream() {
    let (core, _) = new_core(json!({"mcp": {"permissionMode": "askEveryChange"}}));
    let events = Recorded::default();
    let session = initialize(&core, &events);
    let mut set = exchange(
        "POST",
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
            "name": "obsidianProperties", "arguments": set_status("done"),
            "_meta": {"progressToken": "p"}}}),
        Some(&session),
    );
    set.headers
        .insert("accept".into(), "application/json".into());
    let user = async {
        loop {
            let presented = events.presented.borrow().first().cloned();
            if let Some(id) = presented {
                // Long enough for several progress notifications.
                core.host().sleep(20_000).await;
                let card = core.confirmation_card(&id).unwrap();
                return core.approve(&id, &card.argv_hash).await;
            }
            core.host().sleep(200).await;
        }
    };
    let (reply, approved) = join(core.mcp.handle(&set, &events), user);
    assert!(approved.ok);
    assert!(
        events.notifications.borrow().is_empty(),
        "no progress: it would open an event stream"
    );
    assert_eq!(header(&reply, "content-type"), Some("application/json"));
    assert_eq!(body(&reply)["result"]["isError"], json!(false));
}

#[test]
fn batches_are_taken_where_the_revision_has_them() {
    let (core, _) = new_core(json!({}));
    let events = Recorded::default();
    let batch = |session: &str, messages: Value| {
        let mut e = exchange("POST", json!(null), Some(session));
        e.body = messages.to_string();
        block_on(core.mcp.handle(&e, &events))
    };
    let old = initialize_with(&core, &events, "2025-03-26", TOKEN);
    let reply = batch(
        &old,
        json!([
            {"jsonrpc": "2.0", "id": 1, "method": "ping"},
            {"jsonrpc": "2.0", "id": "two", "method": "tools/list"},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            7,
            {"jsonrpc": "2.0", "id": 3, "method": "initialize", "params": {"protocolVersion": "2025-03-26"}},
            {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "obsidianNotes", "arguments": {"command": "read", "path": "Notes/Note 001.md"}}},
        ]),
    );
    assert_eq!(reply.status, 200, "{}", reply.body);
    let answers = body(&reply);
    let answers = answers.as_array().expect("an array of responses");
    let ids: Vec<Value> = answers.iter().map(|a| a["id"].clone()).collect();
    assert_eq!(
        ids,
        [json!(1), json!("two"), json!(null), json!(3), json!(4)]
    );
    assert_eq!(answers[0]["result"], json!({}));
    assert!(answers[1]["result"]["tools"].is_array());
    assert_eq!(answers[2]["error"]["code"], json!(-32600));
    assert_eq!(
        answers[3]["error"]["code"],
        json!(-32600),
        "no initialize in a batch"
    );
    assert!(text(&answers[4]).contains("Body of Notes/Note 001.md"));
    // Only notifications: nothing to answer.
    let quiet = batch(
        &old,
        json!([{"jsonrpc": "2.0", "method": "notifications/initialized"}]),
    );
    assert_eq!((quiet.status, quiet.body.as_str()), (202, ""));
    // 2025-06-18 removed batches: refused, saying so.
    let new = initialize_with(&core, &events, "2025-06-18", TOKEN);
    let refused = batch(&new, json!([{"jsonrpc": "2.0", "id": 1, "method": "ping"}]));
    assert_eq!(refused.status, 400);
    assert!(body(&refused)["error"]["message"]
        .as_str()
        .unwrap()
        .contains("batches are not part of MCP 2025-06-18"));
}

#[test]
fn tool_hints_follow_what_the_commands_declare() {
    // Memory and the web on, so that every tool is listed.
    let (core, _) = new_core(json!({"chat": {"memory": true}, "web": {"enabled": true}}));
    let events = Recorded::default();
    let session = initialize(&core, &events);
    let listed = request(&core, &events, &session, "tools/list", json!({}));
    let hints = |name: &str| {
        let tools = listed["result"]["tools"].as_array().unwrap();
        let tool = tools.iter().find(|t| t["name"] == name).unwrap();
        let a = &tool["annotations"];
        (
            a["readOnlyHint"] == json!(true),
            a["destructiveHint"] == json!(true),
            a["idempotentHint"] == json!(true),
        )
    };
    // (read only, destructive, idempotent)
    assert_eq!(hints("obsidianSearch"), (true, false, true));
    assert_eq!(
        hints("obsidianEdit"),
        (false, true, false),
        "edit overwrites"
    );
    assert_eq!(
        hints("obsidianProperties"),
        (false, true, true),
        "property:remove"
    );
    assert_eq!(hints("obsidianTags"), (false, true, true), "tag:remove");
    assert_eq!(
        hints("obsidianTasks"),
        (false, true, false),
        "status changes, toggles"
    );
    assert_eq!(hints("obsidianOrganise"), (false, true, false));
    assert_eq!(
        hints("obsidianDailyNote"),
        (false, false, false),
        "only adds"
    );
    // Every tool, from its commands' declared access.
    for spec in core.tools() {
        let (_, destructive, _) = hints(spec.id);
        let declared = spec
            .commands
            .iter()
            .any(|c| c.access == Access::ConfirmedWrite);
        assert_eq!(destructive, declared, "{}", spec.id);
    }
}

#[test]
fn structured_content_comes_with_the_same_json_as_text() {
    let (core, _) = new_core(json!({"readFolders": ["Notes"]}));
    let events = Recorded::default();
    let session = initialize(&core, &events);
    let search = request(
        &core,
        &events,
        &session,
        "tools/call",
        json!({"name": "obsidianSearch", "arguments": {"command": "search", "query": "x", "format": "json"}}),
    );
    let structured = &search["result"]["structuredContent"];
    assert!(structured.is_object(), "{search}");
    let first: Value = serde_json::from_str(text(&search)).expect("the text is JSON");
    assert_eq!(&first, structured);
}

#[test]
fn the_read_only_refusal_names_the_setting_of_the_door_it_came_through() {
    let (core, _) = new_core(json!({"permissionMode": "askEveryChange"}));
    let events = Recorded::default();
    let session = initialize(&core, &events);
    let refused = request(
        &core,
        &events,
        &session,
        "tools/call",
        json!({"name": "obsidianProperties", "arguments": set_status("done")}),
    );
    let words = text(&refused);
    assert!(words.starts_with("writes_disabled: "), "{words}");
    assert!(
        words.contains("Settings → Vault Agent → MCP: this vault's server for other apps → \"What MCP clients may change\""),
        "{words}"
    );
    assert!(!words.contains("Safety"), "not the chat's setting: {words}");
    // A coding agent in the chat runs under the chat's mode: its setting.
    assert!(core.acp.open_door(DOOR, "Codex", PermissionMode::ReadOnly));
    let agent = initialize_with(&core, &events, "2025-11-25", DOOR);
    let mut set = call(2, "obsidianProperties", set_status("done"), &agent);
    set.headers
        .insert("authorization".into(), format!("Bearer {DOOR}"));
    let reply = body(&block_on(core.mcp.handle(&set, &events)));
    assert!(
        text(&reply).contains("Settings → Vault Agent → Safety → Vault changes"),
        "{reply}"
    );
}

/// A call that times out on the client's side while its card waits, then
/// `then` (which may ask the same call again) alongside the call.
fn timed_out_then<T>(
    core: &vault_agent::VaultAgent<vault_agent::testing::FakeHost>,
    events: &Recorded,
    session: &str,
    then: impl std::future::Future<Output = T>,
) -> (vault_agent::doors::mcp::McpReply, T) {
    let original = call(1, "obsidianProperties", set_status("done"), session);
    let cancel = exchange(
        "POST",
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {
            "requestId": 1, "reason": "McpError: MCP error -32001: Request timed out"}}),
        Some(session),
    );
    let client = async {
        while events.presented.borrow().is_empty() {
            core.host().sleep(50).await;
        }
        assert_eq!(core.mcp.handle(&cancel, events).await.status, 202);
        then.await
    };
    join(core.mcp.handle(&original, events), client)
}

#[test]
fn a_call_asked_again_after_its_timeout_finds_its_card() {
    // The client may also close the stream it gave up on: it still timed out.
    for disconnects in [false, true] {
        asked_again_after_its_timeout(disconnects);
    }
}

fn asked_again_after_its_timeout(disconnects: bool) {
    let (core, writes) = new_core(json!({"mcp": {"permissionMode": "askEveryChange"}}));
    let events = Recorded::default();
    let session = initialize(&core, &events);
    let mut retry = call(2, "obsidianProperties", set_status("done"), &session);
    retry.exchange = 2;
    let user = async {
        // The retry shows the same card again; the user approves it.
        while events.presented.borrow().len() < 2 {
            core.host().sleep(200).await;
        }
        let id = events.presented.borrow()[0].clone();
        let card = core.confirmation_card(&id).unwrap();
        core.approve(&id, &card.argv_hash).await
    };
    let (original, (retried, approved)) = timed_out_then(&core, &events, &session, async {
        if disconnects {
            core.mcp.abandon(1);
        }
        both(core.mcp.handle(&retry, &events), user).await
    });
    assert!(approved.ok, "{}", approved.text);
    assert_eq!(
        original.body, "",
        "the call that timed out gets no response"
    );
    assert_eq!(
        body(&retried)["result"]["isError"],
        json!(false),
        "{}",
        retried.body
    );
    let presented = events.presented.borrow();
    assert!(
        presented.iter().all(|id| *id == presented[0]),
        "one card: {presented:?}"
    );
    assert!(events.withdrawn.borrow().is_empty());
    assert_eq!(writes.borrow().len(), 1, "the change ran once");
}

#[test]
fn a_card_answered_after_the_timeout_gives_its_answer_to_the_retry() {
    let (core, writes) = new_core(json!({"mcp": {"permissionMode": "askEveryChange"}}));
    let events = Recorded::default();
    let session = initialize(&core, &events);
    let user = async {
        core.host().sleep(5_000).await;
        let id = events.presented.borrow()[0].clone();
        let card = core.confirmation_card(&id).unwrap();
        core.approve(&id, &card.argv_hash).await
    };
    let (original, approved) = timed_out_then(&core, &events, &session, user);
    assert!(approved.ok);
    assert_eq!(original.body, "");
    assert_eq!(writes.borrow().len(), 1);
    // Asked again within the grace: the answer, and nothing runs twice.
    let again = request(
        &core,
        &events,
        &session,
        "tools/call",
        json!({"name": "obsidianProperties", "arguments": set_status("done")}),
    );
    assert_eq!(again["result"]["isError"], json!(false), "{again}");
    assert_eq!(writes.borrow().len(), 1, "not run a second time");
    assert_eq!(events.presented.borrow().len(), 1, "no second card");
}

#[test]
fn a_card_nobody_asks_for_again_is_withdrawn_after_the_grace() {
    let (core, writes) = new_core(json!({"mcp": {"permissionMode": "askEveryChange"}}));
    let events = Recorded::default();
    let session = initialize(&core, &events);
    let started = core.host().now_ms();
    let (original, ()) = timed_out_then(&core, &events, &session, async {});
    assert_eq!(original.body, "");
    assert!(core.host().now_ms() - started >= TIMED_OUT_GRACE_MS);
    let card = events.presented.borrow()[0].clone();
    assert_eq!(
        events.withdrawn.borrow().as_slice(),
        std::slice::from_ref(&card)
    );
    assert_eq!(
        core.confirmation_outcome(&card).unwrap().code(),
        Some("confirmation_rejected")
    );
    assert!(writes.borrow().is_empty());
    assert_eq!(events.activity.borrow().last().unwrap().code, "cancelled");
}

#[test]
fn another_token_never_takes_a_kept_card_over() {
    let (core, writes) = new_core(json!({
        "permissionMode": "askEveryChange",
        "mcp": {"permissionMode": "askEveryChange"},
    }));
    assert!(core
        .acp
        .open_door(DOOR, "Codex", PermissionMode::AskEveryChange));
    let events = Recorded::default();
    let session = initialize(&core, &events);
    let agent = initialize_with(&core, &events, "2025-11-25", DOOR);
    let mut same = call(2, "obsidianProperties", set_status("done"), &agent);
    same.headers
        .insert("authorization".into(), format!("Bearer {DOOR}"));
    let user = async {
        while events.presented.borrow().len() < 2 {
            core.host().sleep(200).await;
        }
        let second = events.presented.borrow()[1].clone();
        core.reject(&second)
    };
    let (_, (theirs, _)) = timed_out_then(
        &core,
        &events,
        &session,
        both(core.mcp.handle(&same, &events), user),
    );
    let presented = events.presented.borrow();
    assert_ne!(presented[0], presented[1], "a card of its own");
    assert!(text(&body(&theirs)).starts_with("confirmation_rejected: "));
    assert!(writes.borrow().is_empty());
}

/// A sessionless (2026-07-28) message: the envelope in `_meta`, the
/// revision's headers, no session.
fn sessionless(id: Option<u32>, method: &str, mut params: Value, version: &str) -> McpExchange {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientInfo": {"name": "modern", "version": "2.4.0"},
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    let mut message = json!({"jsonrpc": "2.0", "method": method, "params": params});
    if let Some(id) = id {
        message["id"] = json!(id);
    }
    let mut e = exchange("POST", message, None);
    e.headers
        .insert("mcp-protocol-version".into(), version.into());
    e.headers.insert("mcp-method".into(), method.into());
    // The methods that name a tool or a resource repeat the name in `Mcp-Name`.
    let named = match method {
        "tools/call" | "prompts/get" => params.get("name"),
        "resources/read" => params.get("uri"),
        _ => None,
    };
    if let Some(name) = named.and_then(Value::as_str) {
        e.headers.insert("mcp-name".into(), name.into());
    }
    e
}

/// Posts `e` and answers its status, error code and error message.
fn refused(
    core: &vault_agent::VaultAgent<vault_agent::testing::FakeHost>,
    e: &McpExchange,
) -> (u16, Value, String) {
    let reply = block_on(core.mcp.handle(e, &Recorded::default()));
    let answer = body(&reply);
    assert_eq!(
        answer["id"],
        e_id(e),
        "an error carries the request's id: {answer}"
    );
    let message = answer["error"]["message"]
        .as_str()
        .unwrap_or("")
        .to_string();
    (reply.status, answer["error"]["code"].clone(), message)
}

fn e_id(e: &McpExchange) -> Value {
    serde_json::from_str::<Value>(&e.body).unwrap()["id"].clone()
}

#[test]
fn a_sessionless_request_without_its_envelope_is_invalid_params() {
    let (core, _) = new_core(json!({}));
    let mut bare = sessionless(Some(1), "server/discover", json!({}), "2026-07-28");
    bare.body =
        json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {}}).to_string();
    let (status, code, message) = refused(&core, &bare);
    assert_eq!((status, code), (400, json!(-32602)), "{message}");
    assert!(message.contains("_meta"), "{message}");
    for key in [
        "io.modelcontextprotocol/protocolVersion",
        "io.modelcontextprotocol/clientCapabilities",
    ] {
        let mut e = sessionless(Some(2), "server/discover", json!({}), "2026-07-28");
        let mut message: Value = serde_json::from_str(&e.body).unwrap();
        message["params"]["_meta"]
            .as_object_mut()
            .unwrap()
            .remove(key);
        e.body = message.to_string();
        let (status, code, text) = refused(&core, &e);
        assert_eq!((status, code), (400, json!(-32602)), "{key}: {text}");
        assert!(text.contains(key), "the error names {key}: {text}");
    }
    // clientInfo may be left out.
    let mut e = sessionless(Some(3), "tools/list", json!({}), "2026-07-28");
    let mut message: Value = serde_json::from_str(&e.body).unwrap();
    message["params"]["_meta"]
        .as_object_mut()
        .unwrap()
        .remove("io.modelcontextprotocol/clientInfo");
    e.body = message.to_string();
    assert_eq!(
        block_on(core.mcp.handle(&e, &Recorded::default())).status,
        200
    );
}

#[test]
fn a_sessionless_request_must_repeat_its_revision_method_and_name_in_headers() {
    let (core, _) = new_core(json!({}));
    let call = || {
        sessionless(
            Some(7),
            "tools/call",
            json!({"name": "obsidianNotes", "arguments": {"command": "read", "file": "Welcome"}}),
            "2026-07-28",
        )
    };
    for (header, value) in [
        ("mcp-method", None),
        ("mcp-protocol-version", None),
        ("mcp-name", None),
        ("mcp-name", Some("obsidianEdit")),
    ] {
        let mut e = call();
        match value {
            Some(value) => e.headers.insert(header.into(), value.into()),
            None => e.headers.remove(header),
        };
        let (status, code, message) = refused(&core, &e);
        assert_eq!(
            (status, code),
            (400, json!(-32020)),
            "{header} {value:?}: {message}"
        );
        assert!(
            message.to_lowercase().contains(header),
            "the error names {header}: {message}"
        );
    }
    // A name that is not plain ASCII comes base64-encoded.
    let mut e = call();
    e.headers
        .insert("mcp-name".into(), "=?base64?b2JzaWRpYW5Ob3Rlcw==?=".into());
    let reply = block_on(core.mcp.handle(&e, &Recorded::default()));
    assert_eq!(reply.status, 200, "{}", reply.body);
    let mut read = sessionless(
        Some(8),
        "resources/read",
        json!({"uri": "obsidian://vault/Caf%C3%A9.md"}),
        "2026-07-28",
    );
    read.headers.insert(
        "mcp-name".into(),
        "=?base64?b2JzaWRpYW46Ly92YXVsdC9DYWYlQzMlQTkubWQ=?=".into(),
    );
    let (status, code, message) = refused(&core, &read);
    assert_ne!(code, json!(-32020), "{status} {message}");
}

#[test]
fn a_method_the_revision_does_not_have_is_not_found() {
    let (core, _) = new_core(json!({}));
    for method in [
        "initialize",
        "ping",
        "logging/setLevel",
        "resources/subscribe",
        "unknown/method",
    ] {
        let (status, code, message) = refused(
            &core,
            &sessionless(Some(9), method, json!({}), "2026-07-28"),
        );
        assert_eq!((status, code), (404, json!(-32601)), "{method}: {message}");
        assert!(message.contains(method), "{message}");
    }
    let (_, _, message) = refused(
        &core,
        &sessionless(Some(9), "initialize", json!({}), "2026-07-28"),
    );
    assert!(message.contains("no `initialize`"), "{message}");
}

#[test]
fn revision_2026_07_28_needs_no_session_and_stamps_its_results() {
    let (core, _) = new_core(json!({}));
    let events = Recorded::default();
    let discover = block_on(core.mcp.handle(
        &sessionless(Some(1), "server/discover", json!({}), "2026-07-28"),
        &events,
    ));
    assert_eq!(discover.status, 200, "{}", discover.body);
    assert_eq!(header(&discover, "mcp-session-id"), None);
    let result = &body(&discover)["result"];
    assert_eq!(result["supportedVersions"][0], "2026-07-28");
    assert!(result["supportedVersions"]
        .as_array()
        .unwrap()
        .contains(&json!("2024-11-05")));
    assert_eq!(result["resultType"], "complete");
    assert_eq!(result["cacheScope"], "private");
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "vault-agent"
    );
    assert_eq!(*events.ids_made.borrow(), 0, "no session was made");
    let listed = block_on(core.mcp.handle(
        &sessionless(Some(2), "tools/list", json!({}), "2026-07-28"),
        &events,
    ));
    let listed = body(&listed);
    assert!(!listed["result"]["tools"].as_array().unwrap().is_empty());
    assert_eq!(listed["result"]["ttlMs"], 0);
    let read = block_on(core.mcp.handle(
        &sessionless(
            Some(3),
            "tools/call",
            json!({"name": "obsidianNotes", "arguments": {"command": "read", "file": "Welcome"}}),
            "2026-07-28",
        ),
        &events,
    ));
    let read = body(&read);
    assert_eq!(read["result"]["resultType"], "complete", "{read}");
    assert_eq!(events.activity.borrow().last().unwrap().client, "modern");
    // A missing resource is invalid params in this revision.
    let missing = block_on(core.mcp.handle(
        &sessionless(
            Some(4),
            "resources/read",
            json!({"uri": "obsidian://elsewhere/Nowhere.md"}),
            "2026-07-28",
        ),
        &events,
    ));
    assert_eq!(body(&missing)["error"]["code"], -32602, "{}", missing.body);
}

#[test]
fn a_sessionless_request_is_refused_with_what_to_fix() {
    let (core, _) = new_core(json!({}));
    let events = Recorded::default();
    let status_code = |e: &McpExchange| {
        let reply = block_on(core.mcp.handle(e, &events));
        (reply.status, body(&reply)["error"].clone())
    };
    let (status, error) = status_code(&sessionless(Some(1), "tools/list", json!({}), "2099-01-01"));
    assert_eq!((status, error["code"].clone()), (400, json!(-32022)));
    assert_eq!(error["data"]["requested"], "2099-01-01");
    assert_eq!(error["data"]["supported"][0], "2026-07-28");
    // A session revision without a session: told to initialize.
    let (_, error) = status_code(&sessionless(Some(2), "tools/list", json!({}), "2025-11-25"));
    assert!(
        error["message"].as_str().unwrap().contains("initialize"),
        "{error}"
    );
    let mut wrong_method = sessionless(Some(3), "tools/list", json!({}), "2026-07-28");
    wrong_method
        .headers
        .insert("mcp-method".into(), "tools/call".into());
    assert_eq!(
        status_code(&wrong_method),
        (400, status_code(&wrong_method).1)
    );
    assert_eq!(status_code(&wrong_method).1["code"], -32020);
    let mut wrong_version = sessionless(Some(4), "tools/list", json!({}), "2026-07-28");
    wrong_version
        .headers
        .insert("mcp-protocol-version".into(), "2025-11-25".into());
    assert_eq!(status_code(&wrong_version).1["code"], -32020);
    let (status, error) = status_code(&sessionless(Some(5), "initialize", json!({}), "2026-07-28"));
    assert_eq!(status, 404);
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("no `initialize`"),
        "{error}"
    );
    // `initialize` itself agrees on a session revision only.
    let session = initialize_with(&core, &events, "2026-07-28", TOKEN);
    assert!(!session.is_empty());
}

#[test]
fn a_sessionless_call_waits_for_its_card_and_is_cancelled_by_its_token() {
    let (core, writes) = new_core(json!({"mcp": {"permissionMode": "askEveryChange"}}));
    let events = Recorded::default();
    let set = sessionless(
        Some(5),
        "tools/call",
        json!({"name": "obsidianProperties", "arguments": set_status("done")}),
        "2026-07-28",
    );
    let cancel = sessionless(
        None,
        "notifications/cancelled",
        json!({"requestId": 5, "reason": "User pressed Esc"}),
        "2026-07-28",
    );
    let client = async {
        while events.presented.borrow().is_empty() {
            core.host().sleep(50).await;
        }
        core.mcp.handle(&cancel, &events).await
    };
    let (reply, cancelled) = join(core.mcp.handle(&set, &events), client);
    assert_eq!(cancelled.status, 202);
    assert_eq!(reply.body, "", "a cancelled request gets no response");
    assert!(writes.borrow().is_empty());
    assert_eq!(
        events.withdrawn.borrow().len(),
        1,
        "the card was taken away"
    );
}
