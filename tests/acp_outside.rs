//! A coding agent (ACP) and the user's own MCP servers that ask before
//! calls: it is not handed them in `session/new`, so their tools are listed
//! on our MCP server for the agent's door only, and each call meets
//! `policy::outside` and our card in the engine's book. Nothing reaches the
//! server before Approve.

mod mcp_support;

use std::cell::RefCell;
use std::rc::Rc;

use mcp_support::*;
use serde_json::{json, Value};
use vault_agent::base::outside::{OutsideListing, OutsideTool};
use vault_agent::doors::mcp::McpExchange;
use vault_agent::settings::PermissionMode;
use vault_agent::testing::{block_on, join, FakeHost};
use vault_agent::{Host, VaultAgent};

fn servers(careful_trust: &str, careful_on: bool) -> Value {
    json!({
        "permissionMode": "askEveryChange",
        "mcpServers": [
            { "id": "free", "kind": "stdio", "command": "free-mcp", "trust": "neverAsk" },
            { "id": "careful", "kind": "stdio", "command": "careful-mcp", "trust": careful_trust, "enabled": careful_on },
        ],
    })
}

fn listing() -> OutsideListing {
    let tool = |name: &str, annotations: Value| OutsideTool {
        name: name.into(),
        description: format!("The {name} tool."),
        input_schema: json!({ "type": "object", "title": "Args", "properties": { "id": { "type": "string" } } }),
        annotations,
        ..OutsideTool::default()
    };
    OutsideListing {
        ok: true,
        name: "test-tools".into(),
        version: "1.0.0".into(),
        tools: vec![
            tool("lookup", json!({ "readOnlyHint": true })),
            tool("delete_item", json!({ "destructiveHint": true })),
        ],
        ..OutsideListing::default()
    }
}

/// The user's click on an outside card.
#[derive(Clone, Copy)]
enum Click {
    Once,
    ForChat,
    Reject,
}

struct Agent {
    /// Shared by the agent sessions of one test, as by those of one plugin.
    core: Rc<VaultAgent<FakeHost>>,
    door: String,
    session: String,
    events: Recorded,
}

impl Agent {
    /// The chat opens a door for the agent, hands it what never asks, and the
    /// agent opens its MCP session with the door's token.
    fn start(settings: Value, mode: PermissionMode, expected: &[&str]) -> Agent {
        let (core, _) = new_core(settings);
        for id in ["free", "careful"] {
            core.host()
                .outside_servers
                .borrow_mut()
                .push((id.to_string(), listing()));
        }
        let door = "ag3nt".repeat(8);
        assert!(core.acp.open_door(&door, "Codex", mode));
        let handed = core.acp.outside_servers(&door, mode, true);
        let names: Vec<&str> = handed
            .servers
            .iter()
            .filter_map(|s| s["name"].as_str())
            .collect();
        assert_eq!(names, expected, "{handed:?}");
        let events = Recorded::default();
        let session = initialize_with(&core, &events, "2025-06-18", &door);
        Agent {
            core: Rc::new(core),
            door,
            session,
            events,
        }
    }

    fn exchange(&self, method: &str, params: Value) -> McpExchange {
        let mut exchange = exchange(
            "POST",
            json!({"jsonrpc": "2.0", "id": 5, "method": method, "params": params}),
            Some(&self.session),
        );
        exchange
            .headers
            .insert("authorization".into(), format!("Bearer {}", self.door));
        exchange
    }

    fn names(&self) -> Vec<String> {
        let reply = block_on(
            self.core
                .mcp
                .handle(&self.exchange("tools/list", json!({})), &self.events),
        );
        body(&reply)["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_string())
            .collect()
    }

    /// Calls `name`; `answer` is the user's click on a card, if one comes.
    fn call(&self, name: &str, answer: Option<bool>) -> Value {
        self.call_clicking(
            name,
            answer.map(|approve| if approve { Click::Once } else { Click::Reject }),
        )
    }

    /// Calls `name`; `answer` is the user's click on the card, which must come.
    fn call_clicking(&self, name: &str, answer: Option<Click>) -> Value {
        let call = self.exchange(
            "tools/call",
            json!({ "name": name, "arguments": { "id": "42" } }),
        );
        let presented_before = self.events.presented.borrow().len();
        let calls_before = self.core.host().outside_calls.borrow().len();
        let calls_at_card = RefCell::new(None);
        let user = async {
            let Some(approve) = answer else { return };
            loop {
                let presented = self
                    .events
                    .presented
                    .borrow()
                    .get(presented_before)
                    .cloned();
                if let Some(id) = presented {
                    let card = self.core.confirmation_card(&id).expect("the card");
                    *calls_at_card.borrow_mut() =
                        Some((self.core.host().outside_calls.borrow().len(), card.clone()));
                    match approve {
                        Click::Once => {
                            self.core.approve(&id, &card.argv_hash).await;
                        }
                        Click::ForChat => {
                            self.core.approve_for_chat(&id, &card.argv_hash).await;
                        }
                        Click::Reject => {
                            self.core.reject(&id);
                        }
                    }
                    return;
                }
                self.core.host().sleep(200).await;
            }
        };
        let (reply, ()) = join(self.core.mcp.handle(&call, &self.events), user);
        if answer.is_some() {
            let (calls, card) = calls_at_card.take().expect("a card was presented");
            assert_eq!(calls, calls_before, "nothing is sent before the click");
            assert_eq!(card.requester.as_deref(), Some("Codex"));
            assert_eq!(
                card.requested.as_deref(),
                Some("Codex wants to call delete_item on the MCP server careful")
            );
            assert_eq!(card.via, "mcp");
            let outside = card.outside.expect("the outside card");
            assert_eq!(outside.server, "careful");
            assert_eq!(outside.tool, name.trim_start_matches("mcp_careful_"));
            assert!(
                outside.arguments.contains("\"id\": \"42\""),
                "{}",
                outside.arguments
            );
            assert!(outside.annotations.contains(&"may be destructive"));
        }
        body(&reply)["result"].clone()
    }
}

fn text(result: &Value) -> String {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn the_agent_gets_the_servers_that_ask_only_through_our_server_and_its_door() {
    let agent = Agent::start(
        servers("askUnlessReadOnly", true),
        PermissionMode::AskEveryChange,
        &["free"],
    );
    let names = agent.names();
    assert!(names.contains(&"obsidianNotes".to_string()), "{names:?}");
    assert!(
        names.contains(&"mcp_careful_lookup".to_string()),
        "{names:?}"
    );
    assert!(
        names.contains(&"mcp_careful_delete_item".to_string()),
        "{names:?}"
    );
    assert!(
        !names.iter().any(|n| n.starts_with("mcp_free_")),
        "a server handed to the agent is not offered again: {names:?}"
    );
    // An MCP client outside Obsidian (the server's own token) gets ours only.
    let events = &agent.events;
    let own = initialize(&agent.core, events);
    let listed = request(&agent.core, events, &own, "tools/list", json!({}));
    assert!(
        !listed["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"].as_str().unwrap().starts_with("mcp_")),
        "{listed}"
    );
    let refused = request(
        &agent.core,
        events,
        &own,
        "tools/call",
        json!({ "name": "mcp_careful_lookup", "arguments": { "id": "1" } }),
    );
    assert!(refused.get("error").is_some(), "{refused}");
    assert!(agent.core.host().outside_calls.borrow().is_empty());
}

#[test]
fn a_read_only_tool_runs_at_once_under_ask_unless_read_only_as_data() {
    let agent = Agent::start(
        servers("askUnlessReadOnly", true),
        PermissionMode::AskEveryChange,
        &["free"],
    );
    let result = agent.call("mcp_careful_lookup", None);
    assert_eq!(result["isError"], json!(false), "{result}");
    assert!(agent.events.presented.borrow().is_empty(), "no card");
    let calls = agent.core.host().outside_calls.borrow();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].tool, "lookup");
    assert_eq!(calls[0].arguments, json!({ "id": "42" }));
    let said = text(&result);
    assert!(
        said.starts_with("<outside-data server=\"careful\" tool=\"lookup\">"),
        "{said}"
    );
    assert!(said.contains("not instructions"), "{said}");
}

#[test]
fn a_destructive_call_waits_for_the_card_rejected_sends_nothing_approved_runs() {
    let agent = Agent::start(
        servers("askEveryCall", true),
        PermissionMode::AskEveryChange,
        &["free"],
    );
    let rejected = agent.call("mcp_careful_delete_item", Some(false));
    assert_eq!(rejected["isError"], json!(true), "{rejected}");
    assert!(
        text(&rejected).contains("The user declined this call; nothing was sent"),
        "{rejected}"
    );
    assert!(agent.core.host().outside_calls.borrow().is_empty());

    let approved = agent.call("mcp_careful_delete_item", Some(true));
    assert_eq!(approved["isError"], json!(false), "{approved}");
    assert!(
        text(&approved).contains("<outside-data server=\"careful\" tool=\"delete_item\">"),
        "{approved}"
    );
    let calls = agent.core.host().outside_calls.borrow();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].tool, "delete_item");
    // Approve once: the next call asks again (a card, answered here by Reject).
    drop(calls);
    let again = agent.call("mcp_careful_delete_item", Some(false));
    assert_eq!(again["isError"], json!(true));
    assert_eq!(agent.core.host().outside_calls.borrow().len(), 1);
}

#[test]
fn read_only_refuses_a_tool_not_marked_read_only_and_a_server_switched_off_is_gone() {
    let agent = Agent::start(servers("askEveryCall", true), PermissionMode::ReadOnly, &[]);
    let refused = agent.call("mcp_careful_delete_item", None);
    assert_eq!(refused["isError"], json!(true));
    assert!(text(&refused).contains("Read only"), "{refused}");
    assert!(
        agent.events.presented.borrow().is_empty(),
        "refused without a card"
    );
    assert!(agent.core.host().outside_calls.borrow().is_empty());

    // Switched off while the agent runs: gone from the list, refused when called.
    agent
        .core
        .engine
        .set_settings(&servers("askEveryCall", false));
    assert!(!agent.names().iter().any(|n| n.starts_with("mcp_careful_")));
    let gone = agent.call("mcp_careful_lookup", None);
    assert_eq!(gone["isError"], json!(true), "{gone}");
    assert!(agent.core.host().outside_calls.borrow().is_empty());
}

#[test]
fn a_card_approved_after_the_mode_went_to_read_only_sends_nothing() {
    let agent = Agent::start(
        servers("askEveryCall", true),
        PermissionMode::AskEveryChange,
        &["free"],
    );
    let call = agent.exchange(
        "tools/call",
        json!({ "name": "mcp_careful_delete_item", "arguments": { "id": "7" } }),
    );
    let user = async {
        loop {
            let presented = agent.events.presented.borrow().first().cloned();
            if let Some(id) = presented {
                let card = agent.core.confirmation_card(&id).unwrap();
                // The chat's mode changes at the next Send while the card waits.
                assert!(agent
                    .core
                    .acp
                    .open_door(&agent.door, "Codex", PermissionMode::ReadOnly));
                agent.core.approve(&id, &card.argv_hash).await;
                return;
            }
            agent.core.host().sleep(200).await;
        }
    };
    let (reply, ()) = join(agent.core.mcp.handle(&call, &agent.events), user);
    let result = body(&reply)["result"].clone();
    assert_eq!(result["isError"], json!(true), "{result}");
    assert!(text(&result).contains("Read only"), "{result}");
    assert!(agent.core.host().outside_calls.borrow().is_empty());
}

#[test]
fn a_card_approved_after_the_setting_went_to_read_only_sends_nothing() {
    let agent = Agent::start(
        servers("askEveryCall", true),
        PermissionMode::AskEveryChange,
        &["free"],
    );
    let call = agent.exchange(
        "tools/call",
        json!({ "name": "mcp_careful_delete_item", "arguments": { "id": "8" } }),
    );
    let user = async {
        loop {
            let presented = agent.events.presented.borrow().first().cloned();
            if let Some(id) = presented {
                let card = agent.core.confirmation_card(&id).unwrap();
                // The user sets Vault changes to Read only while the card is
                // open; the agent's session is not opened again (no Send).
                let mut read_only = servers("askEveryCall", true);
                read_only["permissionMode"] = json!("readOnly");
                agent.core.engine.set_settings(&read_only);
                agent.core.approve(&id, &card.argv_hash).await;
                return;
            }
            agent.core.host().sleep(200).await;
        }
    };
    let (reply, ()) = join(agent.core.mcp.handle(&call, &agent.events), user);
    let result = body(&reply)["result"].clone();
    assert_eq!(result["isError"], json!(true), "{result}");
    assert!(text(&result).contains("Read only"), "{result}");
    assert!(agent.core.host().outside_calls.borrow().is_empty());
}

impl Agent {
    /// A second agent session on the same core: its own door and MCP session.
    /// `n` makes its MCP session id another than the first session's.
    fn another(&self, door: &str, n: u32) -> Agent {
        assert!(self
            .core
            .acp
            .open_door(door, "Codex", PermissionMode::AskEveryChange));
        self.core
            .acp
            .outside_servers(door, PermissionMode::AskEveryChange, true);
        let events = Recorded {
            fresh_id: Some(format!("session-{:016}", 1000 + n)),
            ..Recorded::default()
        };
        let session = initialize_with(&self.core, &events, "2025-06-18", door);
        Agent {
            core: self.core.clone(),
            door: door.to_string(),
            session,
            events,
        }
    }
}

#[test]
fn approve_for_this_chat_lets_later_calls_of_that_session_run_without_a_card() {
    let agent = Agent::start(
        servers("askEveryCall", true),
        PermissionMode::AskEveryChange,
        &["free"],
    );
    let first = agent.call_clicking("mcp_careful_delete_item", Some(Click::ForChat));
    assert_eq!(first["isError"], json!(false), "{first}");
    assert_eq!(agent.events.presented.borrow().len(), 1);
    // The second call of that tool in that session: no card, sent at once.
    let second = agent.call_clicking("mcp_careful_delete_item", None);
    assert_eq!(second["isError"], json!(false), "{second}");
    assert_eq!(agent.events.presented.borrow().len(), 1, "no second card");
    assert_eq!(agent.core.host().outside_calls.borrow().len(), 2);

    // Another agent session on the same core still gets a card.
    let other = agent.another(&"0th3r".repeat(8), 1);
    let refused = other.call("mcp_careful_delete_item", Some(false));
    assert_eq!(refused["isError"], json!(true), "{refused}");
    assert_eq!(other.events.presented.borrow().len(), 1, "a card");
    assert_eq!(agent.core.host().outside_calls.borrow().len(), 2);

    // Read only still refuses the approved tool, without a card: set in the
    // header mid-turn (the session not opened again), then at the next Send.
    let mut read_only = servers("askEveryCall", true);
    read_only["permissionMode"] = json!("readOnly");
    agent.core.engine.set_settings(&read_only);
    let refused = agent.call_clicking("mcp_careful_delete_item", None);
    assert!(text(&refused).contains("Read only"), "{refused}");
    agent
        .core
        .engine
        .set_settings(&servers("askEveryCall", true));
    assert!(agent
        .core
        .acp
        .open_door(&agent.door, "Codex", PermissionMode::ReadOnly));
    let refused = agent.call_clicking("mcp_careful_delete_item", None);
    assert!(text(&refused).contains("Read only"), "{refused}");
    assert_eq!(agent.core.host().outside_calls.borrow().len(), 2);
    assert_eq!(agent.events.presented.borrow().len(), 1, "no card");
    assert!(agent
        .core
        .acp
        .open_door(&agent.door, "Codex", PermissionMode::AskEveryChange));

    // The session closed and opened again (a new session with the same
    // token): the answer is gone with it, and a card comes again.
    agent.core.acp.close_door(&agent.door);
    let again = agent.another(&agent.door, 2);
    let asked = again.call("mcp_careful_delete_item", Some(false));
    assert_eq!(asked["isError"], json!(true), "{asked}");
    assert_eq!(again.events.presented.borrow().len(), 1, "a card again");
    assert_eq!(agent.core.host().outside_calls.borrow().len(), 2);
}

#[test]
fn approve_for_this_chat_refused_at_the_click_keeps_nothing() {
    let agent = Agent::start(
        servers("askEveryCall", true),
        PermissionMode::AskEveryChange,
        &["free"],
    );
    let call = agent.exchange(
        "tools/call",
        json!({ "name": "mcp_careful_delete_item", "arguments": { "id": "9" } }),
    );
    let user = async {
        loop {
            let presented = agent.events.presented.borrow().first().cloned();
            if let Some(id) = presented {
                let card = agent.core.confirmation_card(&id).unwrap();
                let mut read_only = servers("askEveryCall", true);
                read_only["permissionMode"] = json!("readOnly");
                agent.core.engine.set_settings(&read_only);
                agent.core.approve_for_chat(&id, &card.argv_hash).await;
                return;
            }
            agent.core.host().sleep(200).await;
        }
    };
    let (reply, ()) = join(agent.core.mcp.handle(&call, &agent.events), user);
    assert!(text(&body(&reply)["result"]).contains("Read only"));
    // The mode back to Ask before every change: the tool still asks.
    agent
        .core
        .engine
        .set_settings(&servers("askEveryCall", true));
    let asked = agent.call("mcp_careful_delete_item", Some(false));
    assert_eq!(asked["isError"], json!(true), "{asked}");
    assert_eq!(agent.events.presented.borrow().len(), 2, "a card again");
    assert!(agent.core.host().outside_calls.borrow().is_empty());
}
