//! `VaultAgent::call_tool` end to end against the fake host.

use serde_json::{json, Value};
use vault_agent::base::host::{Os, ProcessOutcome, SpawnFailure};
use vault_agent::testing::{block_on, FakeHost};
use vault_agent::{ToolResult, VaultAgent};

fn core_with(host: FakeHost, settings: Value) -> VaultAgent<FakeHost> {
    VaultAgent::new(host, &settings).0
}

fn call(core: &VaultAgent<FakeHost>, tool: &str, args: Value) -> ToolResult {
    block_on(core.call_tool(tool, &args))
}

#[test]
fn daily_read_runs_the_cli_with_settings_applied() {
    let host = FakeHost::linux_with_cli("# 2026-03-03\n\n- [ ] Review PR\n");
    let core = core_with(
        host,
        json!({"vaultName": "Work", "timeoutMs": 2000, "outputCapBytes": 8192}),
    );
    let result = call(&core, "obsidianDailyNote", json!({"command": "daily:read"}));
    assert!(result.ok, "{result:?}");
    assert_eq!(result.text, "# 2026-03-03\n\n- [ ] Review PR");
    assert_eq!(
        result.argv.as_deref(),
        Some(&["vault=Work".to_string(), "daily:read".to_string()][..])
    );
    assert_eq!(result.program.as_deref(), Some("/usr/bin/obsidian"));
    assert_eq!(result.duration_ms, 5.0);
    let requests = core.host().requests.borrow();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].program, "/usr/bin/obsidian");
    assert_eq!(requests[0].cwd.as_deref(), Some("/vault"));
    assert_eq!(requests[0].timeout_ms, 2000);
    assert_eq!(requests[0].max_output_bytes, 8192);
}

#[test]
fn single_command_tools_need_no_command() {
    let host = FakeHost::linux_with_cli("Ideas/Spark.md\n\nAn idea");
    let core = core_with(host, Value::Null);
    let result = call(&core, "obsidianRandomRead", json!({"folder": "Ideas"}));
    assert!(result.ok);
    assert_eq!(result.argv.unwrap(), ["random:read", "folder=Ideas"]);
    let result = call(&core, "obsidianRandomRead", Value::Null);
    assert_eq!(result.argv.unwrap(), ["random:read"]);
}

#[test]
fn refusals_happen_before_any_process_starts() {
    let cases = [
        ("nope", json!({}), "unknown_tool", "obsidianDailyNote"),
        (
            "obsidianDailyNote",
            json!({"command": "delete"}),
            "command_not_allowed",
            "daily:read, daily:path",
        ),
        (
            "obsidianDailyNote",
            json!({"command": "daily:write"}),
            "command_not_allowed",
            "daily:read, daily:path",
        ),
        (
            "obsidianDailyNote",
            json!({}),
            "invalid_arguments",
            "missing `command`",
        ),
        (
            "obsidianDailyNote",
            json!({"command": 7}),
            "invalid_arguments",
            "must be text",
        ),
        (
            "obsidianDailyNote",
            json!("daily:read"),
            "invalid_arguments",
            "JSON object",
        ),
        (
            "obsidianDailyNote",
            json!({"command": "daily:read", "file": "x"}),
            "invalid_arguments",
            "unknown field `file`",
        ),
        (
            "obsidianRandomRead",
            json!({"folder": 3}),
            "invalid_arguments",
            "`folder`: invalid type: integer `3`, expected a string",
        ),
        (
            "obsidianRandomRead",
            json!({"folder": "Ideas", "limit": 1}),
            "invalid_arguments",
            "unknown field `limit`, expected `folder`",
        ),
        (
            "obsidianRandomRead",
            json!({"folder": "../secrets"}),
            "invalid_arguments",
            "may not contain `..`",
        ),
        (
            "obsidianRandomRead",
            json!({"folder": "a\u{0}b"}),
            "invalid_arguments",
            "U+0000",
        ),
    ];
    for (tool, args, code, mention) in cases {
        let core = core_with(FakeHost::linux_with_cli("never"), Value::Null);
        let result = call(&core, tool, args.clone());
        assert!(!result.ok);
        assert_eq!(result.code(), Some(code), "{tool} {args}: {}", result.text);
        assert!(
            !result.error.as_ref().unwrap().user_fix,
            "the model, not the user, fixes its call: {tool} {args}"
        );
        assert!(
            result.text.contains(mention),
            "{tool} {args}: {}",
            result.text
        );
        assert_eq!(core.host().process_count(), 0, "{tool} {args}");
        assert!(
            core.host().looked_at.borrow().is_empty(),
            "no discovery for a refused call"
        );
    }
}

#[test]
fn excluded_commands_say_why() {
    let core = core_with(FakeHost::linux_with_cli("never"), Value::Null);
    let result = call(
        &core,
        "obsidianDailyNote",
        json!({"command": "eval", "code": "1"}),
    );
    assert_eq!(result.code(), Some("command_not_allowed"));
    assert!(
        result.text.contains("no Vault Agent tool ever runs it"),
        "{}",
        result.text
    );
}

#[test]
fn a_disabled_tool_is_refused_and_marked() {
    let core = core_with(
        FakeHost::linux_with_cli("x"),
        json!({"tools": {"obsidianRandomRead": false}}),
    );
    let result = call(&core, "obsidianRandomRead", json!({}));
    assert_eq!(result.code(), Some("tool_disabled"));
    assert!(result.text.contains("Settings → Vault Agent → Tools"));
    assert_eq!(core.host().process_count(), 0);
    let listed = core.list_tools();
    let random = listed
        .iter()
        .find(|t| t.id == "obsidianRandomRead")
        .unwrap();
    assert!(!random.enabled);
}

#[test]
fn mobile_never_runs_anything() {
    let mut host = FakeHost::linux_with_cli("x");
    host.facts.is_desktop_app = false;
    let core = core_with(host, Value::Null);
    let result = call(&core, "obsidianDailyNote", json!({"command": "daily:read"}));
    assert_eq!(result.code(), Some("unsupported_platform"));
    assert_eq!(core.host().process_count(), 0);
}

#[test]
fn no_cli_anywhere_lists_the_paths_tried() {
    let mut host = FakeHost::new(Os::Linux, |_| ProcessOutcome::success("x"));
    host.env.insert("PATH".into(), "/usr/bin".into());
    let core = core_with(host, json!({"cliPath": "/custom/obsidian"}));
    let result = call(&core, "obsidianDailyNote", json!({"command": "daily:path"}));
    assert_eq!(result.code(), Some("cli_not_found"));
    assert!(
        result.text.starts_with(
            "The path in Settings → Vault Agent → Advanced → Path to the Obsidian CLI, \"/custom/obsidian\", does not exist."
        ),
        "the user's own setting first: {}",
        result.text
    );
    for fragment in [
        "/usr/bin/obsidian (missing)",
        "Settings → General → Command line interface",
    ] {
        assert!(
            result.text.contains(fragment),
            "{fragment}: {}",
            result.text
        );
    }
    assert_eq!(result.argv.unwrap(), ["daily:path"]);
    assert_eq!(core.host().process_count(), 0);
}

#[test]
fn a_binary_that_vanished_is_looked_for_again() {
    let mut host = FakeHost::new(Os::Linux, |request| {
        if request.program == "/usr/bin/obsidian" {
            ProcessOutcome {
                spawn_failure: Some(SpawnFailure {
                    code: "ENOENT".into(),
                    message: "spawn ENOENT".into(),
                }),
                ..Default::default()
            }
        } else {
            ProcessOutcome::success("2026-03-03.md")
        }
    });
    host.env.insert("PATH".into(), "/usr/bin".into());
    host.add_executable("/usr/bin/obsidian");
    let core = core_with(host, Value::Null);
    let first = call(&core, "obsidianDailyNote", json!({"command": "daily:path"}));
    assert_eq!(first.code(), Some("cli_not_found"), "{}", first.text);
    assert!(
        first.text.contains("/usr/bin/obsidian (ENOENT)"),
        "{}",
        first.text
    );
    // Tried twice: once with the cached path, once after discovery ran again.
    assert_eq!(core.host().process_count(), 2);
}

#[test]
fn every_outcome_code_reaches_the_caller() {
    let cases: Vec<(ProcessOutcome, &str)> = vec![
        (ProcessOutcome::success("Error: File \"X\" not found."), "cli_error"),
        (ProcessOutcome::success("Vault not found."), "vault_not_found"),
        (ProcessOutcome::success(""), "empty_output"),
        (
            ProcessOutcome {
                exit_code: Some(1),
                stdout: b"The CLI is unable to find Obsidian. Please make sure Obsidian is running and try again.".to_vec(),
                stdout_total_bytes: 88,
                ..Default::default()
            },
            "app_not_running",
        ),
        (ProcessOutcome { timed_out: true, signal: Some("SIGKILL".into()), ..Default::default() }, "timeout"),
        (ProcessOutcome { signal: Some("SIGSEGV".into()), ..Default::default() }, "killed"),
        (ProcessOutcome { exit_code: Some(2), ..Default::default() }, "exit_status"),
    ];
    for (outcome, code) in cases {
        let mut host = FakeHost::linux_with_cli("");
        host.respond_with(move |_| outcome.clone());
        let core = core_with(host, Value::Null);
        let result = call(&core, "obsidianDailyNote", json!({"command": "daily:path"}));
        assert_eq!(result.code(), Some(code), "{}", result.text);
        assert!(!result.ok);
        assert_eq!(result.argv.as_deref().map(<[String]>::len), Some(1));
    }
}

#[test]
fn empty_results_are_successes() {
    let core = core_with(
        FakeHost::linux_with_cli("No markdown files found.\n"),
        Value::Null,
    );
    let result = call(&core, "obsidianRandomRead", json!({"folder": "Empty"}));
    assert!(result.ok);
    assert!(result.empty);
    let core = core_with(FakeHost::linux_with_cli(""), Value::Null);
    let result = call(&core, "obsidianDailyNote", json!({"command": "daily:read"}));
    assert!(
        result.ok,
        "an empty daily note is not an error: {}",
        result.text
    );
    assert!(result.text.contains("empty or has not been created"));
}

#[test]
fn output_over_the_cap_is_cut_with_a_notice() {
    let big = "é".repeat(10_000); // 20 000 bytes
    let host = FakeHost::linux_with_cli(&big);
    let core = core_with(host, json!({"outputCapBytes": 4097}));
    let result = call(&core, "obsidianDailyNote", json!({"command": "daily:read"}));
    assert!(result.ok);
    assert_eq!(result.truncated, Some(true));
    let (body, notice) = result.text.split_once("\n\n").unwrap();
    assert_eq!(
        body.len(),
        4096,
        "cut on the character boundary below the cap"
    );
    assert!(notice.contains("of 19.5 KiB"), "{notice}");
}

#[test]
fn json_shape_of_a_result() {
    let core = core_with(FakeHost::linux_with_cli("2026-03-03.md"), Value::Null);
    let result = call(&core, "obsidianDailyNote", json!({"command": "daily:path"}));
    let value = serde_json::to_value(&result).unwrap();
    assert_eq!(
        value,
        json!({"ok": true, "text": "2026-03-03.md", "program": "/usr/bin/obsidian",
               "argv": ["daily:path"], "durationMs": 5.0})
    );
    let failed = call(&core, "nope", json!({}));
    let value = serde_json::to_value(&failed).unwrap();
    assert_eq!(value["error"]["code"], "unknown_tool");
    assert_eq!(value["ok"], false);
    assert!(value.get("argv").is_none());
}
