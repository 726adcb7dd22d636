//! A coding agent's door in the core (ACP): its requests are served only
//! while a turn runs, its file reads return whole notes through the read
//! gate or say they are too large, and its process is ended with its group.

use serde_json::{json, Value};
use vault_agent::base::host::{Os, ProcessOutcome, ProcessTree};
use vault_agent::policy::agent_session::{AgentRequest, READ_MAX_BYTES};
use vault_agent::settings::PermissionMode;
use vault_agent::testing::{block_on, FakeHost};
use vault_agent::VaultAgent;

const DOOR: &str = "0123456789abcdef0123456789abcdef";

fn core(settings: Value) -> VaultAgent<FakeHost> {
    let host = FakeHost::linux_with_cli("unused");
    for (path, text) in [
        (
            "Notes/Small.md",
            "# Small\nline two\nline three".to_string(),
        ),
        (
            "Notes/Big.md",
            format!("# Big\n{}", "word ".repeat(200_000)),
        ),
        ("Notes/Huge.md", "z".repeat(READ_MAX_BYTES + 1)),
        ("Private/Secret.md", "secret".to_string()),
    ] {
        host.notes.borrow_mut().insert(path.to_string(), text);
    }
    VaultAgent::new(host, &settings).0
}

#[test]
fn requests_are_served_while_a_turn_runs_and_refused_before_after_and_once_closed() {
    let core = core(json!({}));
    let ask = |request| core.acp.request(DOOR, request, "Notes/a.md");
    assert!(
        ask(AgentRequest::WriteTextFile).is_some(),
        "no door yet: refused"
    );
    assert!(core
        .acp
        .open_door(DOOR, "Codex", PermissionMode::AskBeforeEdits));
    let before = ask(AgentRequest::WriteTextFile).expect("refused before the first turn");
    assert_eq!(before.code, "outside_turn");
    assert!(
        before
            .notice
            .starts_with("Codex asked to write Notes/a.md after its answer had ended"),
        "{}",
        before.notice
    );
    core.acp.turn(DOOR, Some("chat-1#1".into()));
    for request in [
        AgentRequest::ReadTextFile,
        AgentRequest::WriteTextFile,
        AgentRequest::RequestPermission,
    ] {
        assert_eq!(ask(request), None, "{request:?} during the turn");
    }
    // Opened again at the next Send (the mode follows the chat's): the turn holds.
    assert!(core.acp.open_door(DOOR, "Codex", PermissionMode::ReadOnly));
    assert_eq!(ask(AgentRequest::ReadTextFile), None);
    core.acp.turn(DOOR, None);
    let after = ask(AgentRequest::RequestPermission).expect("refused after the turn");
    assert!(
        after
            .message
            .contains("session/request_permission was refused"),
        "{}",
        after.message
    );
    assert!(after.message.contains("only while its turn runs"));
    core.acp.turn(DOOR, Some("chat-1#1".into()));
    core.acp.close_door(DOOR);
    let closed = ask(AgentRequest::ReadTextFile).expect("refused once closed");
    assert!(
        closed.message.contains("this session was closed"),
        "{}",
        closed.message
    );
    // Another door's turn is its own.
    let other = "f".repeat(32);
    assert!(core
        .acp
        .open_door(&other, "Gemini", PermissionMode::AskEveryChange));
    core.acp.turn(&other, Some("chat-2#1".into()));
    assert!(ask(AgentRequest::ReadTextFile).is_some());
}

#[test]
fn a_file_read_returns_the_whole_note_whatever_the_output_cap() {
    let core = core(json!({"outputCapBytes": 4096}));
    let big = block_on(core.acp.read_file("Notes/Big.md", None, None, None));
    assert!(big.ok, "{}", big.text);
    assert_eq!(big.text, format!("# Big\n{}", "word ".repeat(200_000)));
    assert_eq!(big.truncated, None);
    assert_eq!(
        core.host().process_count(),
        0,
        "read through the vault, not the CLI"
    );
    let lines = block_on(core.acp.read_file("Notes/Small.md", None, Some(2), Some(1)));
    assert_eq!(lines.text, "line two");
}

#[test]
fn a_note_over_the_limit_is_refused_whole_never_shortened() {
    let core = core(json!({}));
    let huge = block_on(core.acp.read_file("Notes/Huge.md", None, None, None));
    assert!(!huge.ok);
    assert_eq!(huge.code(), Some("note_too_large"));
    assert!(
        huge.text.contains("\"Notes/Huge.md\" is too large"),
        "{}",
        huge.text
    );
    assert!(!huge.text.contains("zzzz"), "none of its text");
    // Asking for one line of it does not get round the limit.
    let line = block_on(core.acp.read_file("Notes/Huge.md", None, Some(1), Some(1)));
    assert_eq!(line.code(), Some("note_too_large"));
}

#[test]
fn a_file_read_passes_the_read_gate_of_obsidian_notes() {
    let scoped = core(json!({"readFolders": ["Notes"]}));
    let outside = block_on(scoped.acp.read_file("Private/Secret.md", None, None, None));
    assert_eq!(outside.code(), Some("out_of_scope"), "{}", outside.text);
    let config = block_on(
        scoped
            .acp
            .read_file(".obsidian/plugins/x/data.json", None, None, None),
    );
    assert_eq!(config.code(), Some("config_folder"), "{}", config.text);
    let off = core(json!({"tools": {"obsidianNotes": false}}));
    let disabled = block_on(off.acp.read_file("Notes/Small.md", None, None, None));
    assert_eq!(disabled.code(), Some("tool_disabled"), "{}", disabled.text);
    let missing = block_on(scoped.acp.read_file("Notes/Gone.md", None, None, None));
    assert_eq!(missing.code(), Some("note_not_found"), "{}", missing.text);
}

#[test]
fn the_agent_leads_a_process_group_on_posix_and_is_ended_by_taskkill_on_windows() {
    for (os, tree) in [
        (Os::Linux, ProcessTree::ProcessGroup),
        (Os::Macos, ProcessTree::ProcessGroup),
        (Os::Windows, ProcessTree::Taskkill),
    ] {
        let host = FakeHost::new(os, |_| ProcessOutcome::success(""));
        let core = VaultAgent::new(host, &Value::Null).0;
        assert_eq!(core.acp.process_tree(), tree, "{os:?}");
    }
}

/// The user's servers handed to an agent are its to call without us: once
/// the mode or their settings would not hand them, the core says to end it.
#[test]
fn servers_handed_to_an_agent_are_withdrawn_when_the_mode_or_their_settings_change() {
    let free = json!({"id": "free", "kind": "stdio", "command": "node", "args": ["free.mjs"], "trust": "neverAsk"});
    let web = json!({"id": "web", "kind": "stdio", "command": "node", "args": ["web.mjs"], "trust": "neverAsk"});
    let core = core(json!({ "mcpServers": [free, web] }));
    let ask = PermissionMode::AskBeforeEdits;
    // No open door: nothing is handed, since nothing could take it back.
    assert!(core
        .acp
        .outside_servers(DOOR, ask, false)
        .servers
        .is_empty());
    assert!(core.acp.open_door(DOOR, "Codex", ask));
    let handed = core.acp.outside_servers(DOOR, ask, false);
    assert_eq!(handed.servers.len(), 2, "{handed:?}");
    assert_eq!(core.acp.withdrawn(DOOR, ask), None, "nothing changed");

    let read_only = core
        .acp
        .withdrawn(DOOR, PermissionMode::ReadOnly)
        .expect("Read only takes them back");
    assert!(read_only.starts_with("Codex was ended"), "{read_only}");
    assert!(
        read_only.contains("`free` is not given to the agent in Read only"),
        "{read_only}"
    );
    assert!(read_only.contains("`web`"), "{read_only}");

    let now_asks = json!({"id": "web", "kind": "stdio", "command": "node", "args": ["web.mjs"], "trust": "askEveryCall"});
    core.engine
        .set_settings(&json!({ "mcpServers": [free, now_asks] }));
    let asks = core
        .acp
        .withdrawn(DOOR, ask)
        .expect("a server that now asks");
    assert!(asks.contains("`web` asks before calls"), "{asks}");
    assert!(!asks.contains("`free`"), "{asks}");

    let edited = json!({"id": "free", "kind": "stdio", "command": "node", "args": ["other.mjs"], "trust": "neverAsk"});
    core.engine.set_settings(&json!({ "mcpServers": [edited] }));
    let changed = core
        .acp
        .withdrawn(DOOR, ask)
        .expect("an edited and a removed server");
    assert!(
        changed.contains("`free` changed in the settings."),
        "{changed}"
    );
    assert!(changed.contains("`web` was removed."), "{changed}");

    // Handed again as the settings are now: nothing to withdraw.
    core.acp.outside_servers(DOOR, ask, false);
    assert_eq!(core.acp.withdrawn(DOOR, ask), None);
    core.acp.close_door(DOOR);
    assert_eq!(
        core.acp.withdrawn(DOOR, PermissionMode::ReadOnly),
        None,
        "a closed door has nothing to withdraw"
    );
}
