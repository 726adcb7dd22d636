//! The MCP server's decisions through the core: the HTTP gate, sessions and
//! version negotiation, JSON-RPC errors, tools and resources, the MCP
//! permission mode (separate from the chat's), cards raised in a client's
//! name, the wait for the click, cancellation, and the activity log. The
//! listener and real clients are tested in `tests/node/mcp-server.test.mjs`.

mod mcp_support;

use std::cell::RefCell;

use mcp_support::*;
use serde_json::{json, Value};
use vault_agent::doors::mcp::McpExchange;
use vault_agent::settings::PermissionMode;
use vault_agent::testing::{block_on, join};
use vault_agent::Host;

#[test]
fn the_gate_refuses_before_anything_runs() {
    let (core, _) = new_core(json!({}));
    let events = Recorded::default();
    let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18"}});
    let cases: Vec<GateCase> = vec![
        (
            "no token",
            Box::new(|e| {
                e.headers.remove("authorization");
            }),
            401,
        ),
        (
            "wrong token",
            Box::new(|e| {
                e.headers.insert(
                    "authorization".into(),
                    format!("Bearer {}", TOKEN.replace('0', "1")),
                );
            }),
            401,
        ),
        (
            "not bearer",
            Box::new(|e| {
                e.headers
                    .insert("authorization".into(), format!("Basic {TOKEN}"));
            }),
            401,
        ),
        (
            "foreign origin",
            Box::new(|e| {
                e.headers
                    .insert("origin".into(), "https://evil.example".into());
            }),
            403,
        ),
        (
            "foreign host",
            Box::new(|e| {
                e.headers
                    .insert("host".into(), format!("evil.example:{PORT}"));
            }),
            403,
        ),
        (
            "another port",
            Box::new(|e| {
                e.headers.insert("host".into(), "127.0.0.1:80".into());
            }),
            403,
        ),
        ("another path", Box::new(|e| e.path = "/sse".into()), 404),
        ("too large", Box::new(|e| e.body_too_large = true), 413),
        ("get", Box::new(|e| e.method = "GET".into()), 405),
        ("put", Box::new(|e| e.method = "PUT".into()), 405),
        (
            "form body",
            Box::new(|e| {
                e.headers.insert("content-type".into(), "text/plain".into());
            }),
            415,
        ),
        (
            "invalid json",
            Box::new(|e| e.body = "{\"jsonrpc\":".into()),
            400,
        ),
        (
            "batch",
            Box::new(|e| e.body = "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]".into()),
            400,
        ),
    ];
    for (name, change, status) in cases {
        let mut e = exchange("POST", ping.clone(), None);
        change(&mut e);
        let reply = block_on(core.mcp.handle(&e, &events));
        assert_eq!(reply.status, status, "{name}: {}", reply.body);
        let text = reply.body.to_lowercase();
        assert!(
            !text.contains("note") && !text.contains("vault/"),
            "{name} says nothing about the vault: {text}"
        );
        if status == 401 {
            assert!(header(&reply, "www-authenticate").is_some(), "{name}");
        }
    }
    // No token stored at all: nothing gets in, not even with an empty bearer.
    let (open, _) = new_core_with(json!({}), None);
    let mut e = exchange("POST", ping.clone(), None);
    e.headers.insert("authorization".into(), "Bearer ".into());
    assert_eq!(block_on(open.mcp.handle(&e, &events)).status, 401);
    assert!(core.host().requests.borrow().is_empty(), "no process ran");
    assert!(events.activity.borrow().is_empty());
}

#[test]
fn initialize_negotiates_the_version_and_starts_a_session() {
    let (core, _) = new_core(json!({}));
    let events = Recorded::default();
    for (asked, answered) in [
        ("2025-11-25", "2025-11-25"),
        ("2025-06-18", "2025-06-18"),
        ("2025-03-26", "2025-03-26"),
        ("2099-01-01", "2025-11-25"),
    ] {
        let reply = block_on(core.mcp.handle(
            &exchange(
                "POST",
                json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": asked, "capabilities": {}, "clientInfo": {"name": "x", "version": "1"}}}),
                None,
            ),
            &events,
        ));
        let value = body(&reply);
        assert_eq!(value["result"]["protocolVersion"], answered, "{asked}");
        assert_eq!(value["result"]["serverInfo"]["name"], "vault-agent");
        assert!(value["result"]["capabilities"]["tools"].is_object());
        assert!(value["result"]["capabilities"]["resources"].is_object());
    }
    let session = initialize(&core, &events);
    let ids_made = *events.ids_made.borrow();
    assert_eq!(
        request(&core, &events, &session, "ping", json!({}))["result"],
        json!({})
    );
    request(&core, &events, &session, "tools/list", json!({}));
    assert_eq!(
        *events.ids_made.borrow(),
        ids_made,
        "only a session that starts asks for a random id"
    );
    // A listener whose id is unusable gets an error, not a guessable session.
    let weak = Recorded {
        fresh_id: Some("short".into()),
        ..Recorded::default()
    };
    let reply = block_on(core.mcp.handle(
        &exchange(
            "POST",
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "x", "version": "1"}}}),
            None,
        ),
        &weak,
    ));
    assert_eq!(reply.status, 500, "{}", reply.body);
    assert!(header(&reply, "mcp-session-id").is_none());
    // Without a session, or with one that is over: refused, nothing runs.
    let missing = block_on(core.mcp.handle(
        &exchange(
            "POST",
            json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}),
            None,
        ),
        &events,
    ));
    assert_eq!(missing.status, 400);
    let unknown = block_on(core.mcp.handle(
        &exchange(
            "POST",
            json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}),
            Some("nope-nope-nope-nope"),
        ),
        &events,
    ));
    assert_eq!(unknown.status, 404);
    let end = block_on(
        core.mcp
            .handle(&exchange("DELETE", json!(null), Some(&session)), &events),
    );
    assert_eq!(end.status, 200);
    let after = block_on(core.mcp.handle(
        &exchange(
            "POST",
            json!({"jsonrpc": "2.0", "id": 3, "method": "ping"}),
            Some(&session),
        ),
        &events,
    ));
    assert_eq!(after.status, 404);
    // A protocol version header the server does not speak is refused.
    let session = initialize(&core, &events);
    let mut e = exchange(
        "POST",
        json!({"jsonrpc": "2.0", "id": 4, "method": "ping"}),
        Some(&session),
    );
    e.headers
        .insert("mcp-protocol-version".into(), "1999-01-01".into());
    assert_eq!(block_on(core.mcp.handle(&e, &events)).status, 400);
    // Notifications and responses are accepted without a body.
    let note = block_on(core.mcp.handle(
        &exchange(
            "POST",
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            Some(&session),
        ),
        &events,
    ));
    assert_eq!((note.status, note.body.as_str()), (202, ""));
}

#[test]
fn json_rpc_errors_name_the_problem() {
    let (core, _) = new_core(json!({}));
    let events = Recorded::default();
    let session = initialize(&core, &events);
    let code = |method: &str, params: Value| {
        request(&core, &events, &session, method, params)["error"]["code"].clone()
    };
    assert_eq!(code("tools/unknown", json!({})), json!(-32601));
    assert_eq!(code("tools/call", json!({})), json!(-32602));
    assert_eq!(code("tools/call", json!({"name": 5})), json!(-32602));
    assert_eq!(
        code(
            "tools/call",
            json!({"name": "obsidianNotes", "arguments": "read"})
        ),
        json!(-32602)
    );
    assert_eq!(
        code("tools/call", json!({"name": "noSuchTool", "arguments": {}})),
        json!(-32602)
    );
    assert_eq!(code("resources/read", json!({})), json!(-32602));
    assert_eq!(
        code("resources/read", json!({"uri": "file:///etc/passwd"})),
        json!(-32002)
    );
    assert_eq!(
        code("resources/list", json!({"cursor": "bogus"})),
        json!(-32602)
    );
    assert!(core.host().requests.borrow().is_empty(), "no process ran");
}

#[test]
fn tools_are_the_chats_filtered_by_the_switches() {
    let (core, _) = new_core(json!({"tools": {"obsidianTasks": false}}));
    let events = Recorded::default();
    let session = initialize(&core, &events);
    let listed = request(&core, &events, &session, "tools/list", json!({}));
    let tools = listed["result"]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    let enabled: Vec<_> = core
        .list_tools()
        .into_iter()
        .filter(|t| t.enabled)
        .collect();
    assert_eq!(names, enabled.iter().map(|t| t.id).collect::<Vec<_>>());
    assert!(!names.contains(&"obsidianTasks"));
    for (listed, tool) in tools.iter().zip(&enabled) {
        assert_eq!(listed["inputSchema"], tool.input_schema, "{}", tool.id);
        assert!(listed["description"]
            .as_str()
            .unwrap()
            .starts_with(tool.description));
    }
    let edit = tools.iter().find(|t| t["name"] == "obsidianEdit").unwrap();
    assert_eq!(edit["annotations"]["readOnlyHint"], json!(false));
    let search = tools
        .iter()
        .find(|t| t["name"] == "obsidianSearch")
        .unwrap();
    assert_eq!(search["annotations"]["readOnlyHint"], json!(true));
    // A switched-off tool cannot be called either.
    let call = request(
        &core,
        &events,
        &session,
        "tools/call",
        json!({"name": "obsidianTasks", "arguments": {"command": "tasks"}}),
    );
    assert_eq!(call["error"]["code"], json!(-32602));
}

#[test]
fn a_read_runs_and_comes_back_as_content_with_structure() {
    let (core, _) = new_core(json!({}));
    let events = Recorded::default();
    let session = initialize(&core, &events);
    let read = request(
        &core,
        &events,
        &session,
        "tools/call",
        json!({"name": "obsidianNotes", "arguments": {"command": "read", "path": "Notes/Note 001.md"}}),
    );
    assert_eq!(read["result"]["isError"], json!(false));
    assert_eq!(read["result"]["content"][0]["type"], "text");
    assert!(read["result"]["content"][0]["text"]
        .as_str()
        .unwrap()
        .contains("Body of Notes/Note 001.md"));
    let search = request(
        &core,
        &events,
        &session,
        "tools/call",
        json!({"name": "obsidianSearch", "arguments": {"command": "search", "query": "x", "format": "json"}}),
    );
    assert_eq!(
        search["result"]["structuredContent"],
        json!({"items": ["Notes/Note 001.md"]})
    );
    // A failure is a result with isError and the stable code first.
    let bad = request(
        &core,
        &events,
        &session,
        "tools/call",
        json!({"name": "obsidianNotes", "arguments": {"command": "delete", "path": "x.md"}}),
    );
    assert_eq!(bad["result"]["isError"], json!(true));
    assert!(
        bad["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("command_not_allowed: "),
        "{bad}"
    );
    let log = events.activity.borrow();
    assert_eq!(log.len(), 3);
    assert_eq!(log[0].client, "Claude Code");
    assert_eq!(log[0].client_version, "2.1.0");
    assert_eq!(log[0].tool, "obsidianNotes");
    assert_eq!(log[0].code, "ok");
    assert!(log[0].argv.iter().any(|a| a == "read"), "{:?}", log[0].argv);
    assert_eq!(log[2].code, "command_not_allowed");
}

#[test]
fn the_mcp_mode_is_its_own_and_read_only_by_default() {
    // The chat may change notes; MCP clients may not, until the user says so.
    let (core, writes) = new_core(json!({"permissionMode": "askBeforeEdits"}));
    let events = Recorded::default();
    let session = initialize(&core, &events);
    let set = json!({"name": "obsidianProperties", "arguments": {"command": "property:set", "path": "Notes/Note 001.md", "name": "status", "value": "done"}});
    let answer = request(&core, &events, &session, "tools/call", set);
    assert_eq!(answer["result"]["isError"], json!(true));
    assert!(
        answer["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("writes_disabled: "),
        "{answer}"
    );
    assert!(events.presented.borrow().is_empty());
    assert!(writes.borrow().is_empty());
}

#[test]
fn a_change_waits_for_the_users_click_on_a_card_in_the_clients_name() {
    // Chat read only, MCP asks before every change: the MCP mode decides.
    let (core, writes) = new_core(
        json!({"permissionMode": "readOnly", "mcp": {"enabled": true, "permissionMode": "askEveryChange"}}),
    );
    let events = Recorded::default();
    let session = initialize(&core, &events);
    let call = exchange(
        "POST",
        json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {
            "name": "obsidianProperties",
            "arguments": {"command": "property:set", "path": "Notes/Note 001.md", "name": "status", "value": "done"},
            "_meta": {"progressToken": "p1"},
        }}),
        Some(&session),
    );
    let clicked = RefCell::new(None);
    let user = async {
        // The user reads the card for a while, then approves it.
        loop {
            let presented = events.presented.borrow().first().cloned();
            if let Some(id) = presented {
                if events.notifications.borrow().len() >= 2 {
                    let card = core.confirmation_card(&id).expect("the card");
                    assert_eq!(card.requester.as_deref(), Some("Claude Code"));
                    assert!(writes.borrow().is_empty(), "nothing ran before the click");
                    let result = core.approve(&id, &card.argv_hash).await;
                    *clicked.borrow_mut() = Some(result);
                    return;
                }
            }
            core.host().sleep(1000).await;
        }
    };
    let (reply, ()) = join(core.mcp.handle(&call, &events), user);
    let value = body(&reply);
    assert_eq!(value["result"]["isError"], json!(false), "{value}");
    assert!(clicked.borrow().as_ref().unwrap().ok);
    assert_eq!(
        writes.borrow().len(),
        1,
        "the write ran once, under the MCP mode"
    );
    let notes = events.notifications.borrow();
    assert!(notes
        .iter()
        .all(|n| n["method"] == "notifications/progress" && n["params"]["progressToken"] == "p1"));
    let progress: Vec<u64> = notes
        .iter()
        .map(|n| n["params"]["progress"].as_u64().unwrap())
        .collect();
    assert!(
        progress.windows(2).all(|w| w[0] < w[1]),
        "progress increases: {progress:?}"
    );
    assert_eq!(events.activity.borrow().last().unwrap().code, "ok");
}

#[test]
fn an_unanswered_card_expires_and_a_cancelled_one_is_withdrawn() {
    let (core, writes) = new_core(
        json!({"confirmationExpiryMs": 10000, "mcp": {"permissionMode": "askEveryChange"}}),
    );
    let events = Recorded::default();
    let session = initialize(&core, &events);
    let set = |id: u32| {
        exchange(
            "POST",
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
                "name": "obsidianProperties",
                "arguments": {"command": "property:set", "path": "Notes/Note 001.md", "name": "status", "value": "done"},
            }}),
            Some(&session),
        )
    };
    let expired = body(&block_on(core.mcp.handle(&set(1), &events)));
    assert!(
        expired["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("confirmation_expired: "),
        "{expired}"
    );
    assert!(
        events.notifications.borrow().is_empty(),
        "no progress without a progress token"
    );

    let cancel = exchange(
        "POST",
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2, "reason": "user pressed Esc"}}),
        Some(&session),
    );
    let client = async {
        while events.presented.borrow().len() < 2 {
            core.host().sleep(50).await;
        }
        core.mcp.handle(&cancel, &events).await
    };
    let (reply, cancelled) = join(core.mcp.handle(&set(2), &events), client);
    assert_eq!(cancelled.status, 202);
    // A cancelled request gets no response: its stream ends without one.
    assert_eq!(
        (reply.status, reply.body.as_str()),
        (200, ""),
        "{}",
        reply.body
    );
    let card = events.presented.borrow()[1].clone();
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
fn a_client_that_leaves_stops_its_processes() {
    let (core, _) = new_core(json!({}));
    let events = Recorded::default();
    let session = initialize(&core, &events);
    let _ = request(
        &core,
        &events,
        &session,
        "tools/call",
        json!({"name": "obsidianNotes", "arguments": {"command": "read", "path": "Notes/Note 001.md"}}),
    );
    let tags: Vec<Option<String>> = core
        .host()
        .requests
        .borrow()
        .iter()
        .map(|r| r.tag.clone())
        .collect();
    assert!(
        tags.iter()
            .all(|t| t.as_deref().is_some_and(|t| t.starts_with("mcp-"))),
        "{tags:?}"
    );
    // Nothing in flight now: abandoning an old exchange stops nothing.
    core.mcp.abandon(1);
    assert!(core.host().cancelled_tags.borrow().is_empty());
    // The chat's and the API's calls carry no tag.
    block_on(core.call_tool("obsidianNotes", &json!({"command": "read", "path": "a.md"})));
    assert_eq!(core.host().requests.borrow().last().unwrap().tag, None);
}

#[test]
fn resources_page_the_readable_notes_and_read_them() {
    let (core, _) = new_core(json!({"readFolders": ["Notes"]}));
    let events = Recorded::default();
    let session = initialize(&core, &events);
    let first = request(&core, &events, &session, "resources/list", json!({}));
    let resources = first["result"]["resources"].as_array().unwrap();
    assert_eq!(resources[0]["uri"], "obsidian://tags");
    assert_eq!(resources.len(), 101, "the tags and a page of 100 notes");
    assert_eq!(resources[1]["uri"], "obsidian://vault/Notes/Note%20001.md");
    assert_eq!(resources[1]["name"], "Notes/Note 001.md");
    let cursor = first["result"]["nextCursor"]
        .as_str()
        .expect("a next page")
        .to_string();
    let second = request(
        &core,
        &events,
        &session,
        "resources/list",
        json!({"cursor": cursor}),
    );
    let rest = second["result"]["resources"].as_array().unwrap();
    assert_eq!(rest.len(), 50, "the other 50, and nothing from Private/");
    assert!(second["result"].get("nextCursor").is_none());
    assert!(rest.iter().all(|r| r["uri"]
        .as_str()
        .unwrap()
        .starts_with("obsidian://vault/Notes/")));

    let read = request(
        &core,
        &events,
        &session,
        "resources/read",
        json!({"uri": "obsidian://vault/Notes/Note%20001.md"}),
    );
    assert_eq!(read["result"]["contents"][0]["mimeType"], "text/markdown");
    assert!(read["result"]["contents"][0]["text"]
        .as_str()
        .unwrap()
        .contains("Body of Notes/Note 001.md"));
    let outside = request(
        &core,
        &events,
        &session,
        "resources/read",
        json!({"uri": "obsidian://vault/Private/Secret.md"}),
    );
    assert_eq!(outside["error"]["code"], json!(-32002));
    assert!(outside["error"]["message"]
        .as_str()
        .unwrap()
        .starts_with("out_of_scope: "));
    let templates = request(
        &core,
        &events,
        &session,
        "resources/templates/list",
        json!({}),
    );
    assert_eq!(
        templates["result"]["resourceTemplates"][0]["uriTemplate"],
        "obsidian://vault/{path}"
    );
}

#[test]
fn the_cli_door_narrows_the_chats_mode_and_names_itself_on_the_card() {
    let set = json!({"command": "property:set", "path": "Notes/Note 001.md", "name": "status", "value": "done"});
    let code = |chat: &str, cap: Option<PermissionMode>| {
        let (core, writes) = new_core(json!({ "permissionMode": chat }));
        let result =
            block_on(core.call_tool_through("obsidianProperties", &set, "Obsidian CLI", cap, None));
        assert!(writes.borrow().is_empty());
        (
            result.code().map(str::to_string),
            result
                .pending
                .map(|p| core.confirmation_card(&p.id).unwrap().requester),
        )
    };
    assert_eq!(
        code("askBeforeEdits", Some(PermissionMode::ReadOnly))
            .0
            .as_deref(),
        Some("writes_disabled")
    );
    assert_eq!(
        code("readOnly", Some(PermissionMode::AskBeforeEdits))
            .0
            .as_deref(),
        Some("writes_disabled")
    );
    let (_, requester) = code("askEveryChange", None);
    assert_eq!(requester, Some(Some("Obsidian CLI".to_string())));
}

#[test]
fn an_agent_door_runs_under_the_chats_mode_in_the_agents_name_until_it_closes() {
    // MCP itself is read only; the door the chat opened for an ACP agent
    // carries the chat's mode (ask before every change) and the agent's name.
    let (core, writes) = new_core(
        json!({"permissionMode": "askEveryChange", "mcp": {"permissionMode": "readOnly"}}),
    );
    let door = "d00r".repeat(16);
    assert!(!core
        .acp
        .open_door("short", "Codex", PermissionMode::AskEveryChange));
    assert!(core
        .acp
        .open_door(&door, "Codex", PermissionMode::AskEveryChange));
    let events = Recorded::default();
    let with_door = |mut exchange: McpExchange| {
        exchange
            .headers
            .insert("authorization".into(), format!("Bearer {door}"));
        exchange
    };
    let init = with_door(exchange(
        "POST",
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "codex-acp", "version": "1.0"}}}),
        None,
    ));
    let reply = block_on(core.mcp.handle(&init, &events));
    assert_eq!(reply.status, 200, "{}", reply.body);
    let session = header(&reply, "mcp-session-id").unwrap().to_string();
    // The server's own token may not use the door's session.
    let stolen = exchange(
        "POST",
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
        Some(&session),
    );
    assert_eq!(block_on(core.mcp.handle(&stolen, &events)).status, 404);
    let call = with_door(exchange(
        "POST",
        json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {
            "name": "obsidianProperties",
            "arguments": {"command": "property:set", "path": "Notes/Note 001.md", "name": "status", "value": "done"}}}),
        Some(&session),
    ));
    let clicked = RefCell::new(None);
    let user = async {
        loop {
            let presented = events.presented.borrow().first().cloned();
            if let Some(id) = presented {
                let card = core.confirmation_card(&id).expect("the card");
                assert_eq!(card.requester.as_deref(), Some("Codex"));
                *clicked.borrow_mut() = Some(core.approve(&id, &card.argv_hash).await);
                return;
            }
            core.host().sleep(200).await;
        }
    };
    let (reply, ()) = join(core.mcp.handle(&call, &events), user);
    assert_eq!(
        body(&reply)["result"]["isError"],
        json!(false),
        "{}",
        reply.body
    );
    assert_eq!(
        writes.borrow().len(),
        1,
        "the write ran under the chat's mode"
    );
    // The chat went to Read only: the same session's next change is refused.
    assert!(core.acp.open_door(&door, "Codex", PermissionMode::ReadOnly));
    let again = with_door(exchange(
        "POST",
        json!({"jsonrpc": "2.0", "id": 10, "method": "tools/call", "params": {
            "name": "obsidianProperties",
            "arguments": {"command": "property:set", "path": "Notes/Note 001.md", "name": "status", "value": "open"}}}),
        Some(&session),
    ));
    let refused = body(&block_on(core.mcp.handle(&again, &events)));
    assert!(
        refused["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("writes_disabled: "),
        "{refused}"
    );
    assert_eq!(writes.borrow().len(), 1);
    core.acp.close_door(&door);
    let after = with_door(exchange(
        "POST",
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
        Some(&session),
    ));
    assert_eq!(block_on(core.mcp.handle(&after, &events)).status, 401);
}

#[test]
fn an_agents_always_answers_live_on_its_door_follow_the_doors_mode_and_go_with_it() {
    use vault_agent::policy::agent_questions::{AgentAnswer, AgentOption, AgentQuestion};
    let (core, _) = new_core(json!({"permissionMode": "askEveryChange"}));
    let door = "d00r".repeat(16);
    let question = AgentQuestion {
        kind: "execute".into(),
        title: "Run the linter".into(),
        options: [
            ("once", "allow_once"),
            ("always", "allow_always"),
            ("no", "reject_once"),
        ]
        .iter()
        .map(|(id, kind)| AgentOption {
            option_id: id.to_string(),
            kind: kind.to_string(),
        })
        .collect(),
    };
    let answered = |id: &str| match core.acp.question(&door, &question) {
        AgentAnswer::Answer { option_id, .. } => option_id == id,
        AgentAnswer::Ask | AgentAnswer::Cancel { .. } => false,
    };
    assert!(core
        .acp
        .open_door(&door, "Codex", PermissionMode::AskEveryChange));
    assert_eq!(core.acp.question(&door, &question), AgentAnswer::Ask);
    core.acp.question_answered(&door, &question, "always");
    assert!(answered("always"));
    // Opened again at the next Send, in Read only: the mode changes, the
    // answers stay, and Read only outranks them.
    assert!(core.acp.open_door(&door, "Codex", PermissionMode::ReadOnly));
    assert!(answered("no"));
    assert!(core
        .acp
        .open_door(&door, "Codex", PermissionMode::AskBeforeEdits));
    assert!(answered("always"));
    core.acp.close_door(&door);
    assert_eq!(
        core.acp.question(&door, &question),
        AgentAnswer::Ask,
        "closed: nothing kept"
    );
    assert!(core
        .acp
        .open_door(&door, "Codex", PermissionMode::AskEveryChange));
    assert_eq!(
        core.acp.question(&door, &question),
        AgentAnswer::Ask,
        "a door opened again with the same token starts without answers"
    );
}

#[test]
fn the_ranked_search_is_listed_and_keeps_to_the_read_folders() {
    let (core, _) = new_core(json!({"readFolders": ["Notes"]}));
    {
        let mut notes = core.host().notes.borrow_mut();
        notes.insert(
            "Notes/Garden.md".into(),
            "# Garden\n\nThe tomatoes need water every morning.\n".into(),
        );
        notes.insert(
            "Private/Secret.md".into(),
            "# Secret\n\nThe tomatoes are buried under the oak.\n".into(),
        );
    }
    let events = Recorded::default();
    let session = initialize(&core, &events);
    let listed = request(&core, &events, &session, "tools/list", json!({}));
    let search = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "obsidianSearch")
        .unwrap()
        .clone();
    assert!(
        search["inputSchema"].to_string().contains("\"find\""),
        "{search}"
    );
    let found = request(
        &core,
        &events,
        &session,
        "tools/call",
        json!({"name": "obsidianSearch", "arguments": {"command": "find", "query": "where are the tomatoes"}}),
    );
    assert_eq!(found["result"]["isError"], json!(false), "{found}");
    let text = found["result"]["content"].to_string();
    assert!(text.contains("Notes/Garden.md"), "{text}");
    assert!(text.contains("need water every morning"), "{text}");
    assert!(!text.contains("Private") && !text.contains("oak"), "{text}");
    assert!(
        text.contains("[Withheld: 1 more entries"),
        "the secret note is counted, never shown: {text}"
    );
    assert_eq!(core.host().process_count(), 0, "no CLI process");
}
