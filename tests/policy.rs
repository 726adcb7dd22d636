//! The policy matrix: every refusal has its code and starts no process.

use serde_json::{json, Value};
use vault_agent::testing::{block_on, FakeHost};
use vault_agent::tools::{builtin_tools, EXCLUDED_COMMANDS};
use vault_agent::{ToolResult, VaultAgentCore};

fn core(settings: Value) -> VaultAgentCore<FakeHost> {
    VaultAgentCore::new(FakeHost::linux_with_cli("ok"), &settings).0
}

fn call(core: &VaultAgentCore<FakeHost>, tool: &str, args: Value) -> ToolResult {
    block_on(core.call_tool(tool, &args))
}

/// Refused with `code`, and nothing ran (not even discovery).
#[track_caller]
fn assert_refused(
    core: &VaultAgentCore<FakeHost>,
    tool: &str,
    args: Value,
    code: &str,
) -> ToolResult {
    let result = call(core, tool, args.clone());
    assert!(!result.ok, "{tool} {args} should be refused");
    assert_eq!(result.code(), Some(code), "{tool} {args}: {}", result.text);
    assert!(result.pending.is_none());
    assert_eq!(
        core.host().process_count(),
        0,
        "{tool} {args} started a process"
    );
    assert!(
        core.host().looked_at.borrow().is_empty(),
        "{tool} {args} looked for the CLI"
    );
    result
}

/// One write of every write command, each naming its target.
fn writes() -> Vec<(&'static str, Value)> {
    vec![
        (
            "obsidianDailyNote",
            json!({"command": "daily:append", "content": "- [ ] x"}),
        ),
        (
            "obsidianDailyNote",
            json!({"command": "daily:prepend", "content": "## Top"}),
        ),
        (
            "obsidianProperties",
            json!({"command": "property:set", "name": "status", "value": "done", "file": "Plan"}),
        ),
        (
            "obsidianProperties",
            json!({"command": "property:remove", "name": "status", "path": "Plan.md"}),
        ),
        (
            "obsidianTasks",
            json!({"command": "task", "ref": "Plan.md:3", "toggle": true}),
        ),
        (
            "obsidianBases",
            json!({"command": "base:create", "file": "Projects", "name": "New"}),
        ),
        (
            "obsidianBookmarks",
            json!({"command": "bookmark", "url": "https://obsidian.md"}),
        ),
        (
            "obsidianEdit",
            json!({"command": "create", "name": "Q3 plan", "content": "# Q3"}),
        ),
        (
            "obsidianEdit",
            json!({"command": "append", "file": "Plan", "content": "- x"}),
        ),
        (
            "obsidianEdit",
            json!({"command": "prepend", "path": "Plan.md", "content": "Top"}),
        ),
        (
            "obsidianEdit",
            json!({"command": "edit", "file": "Plan", "find": "a", "with": "b"}),
        ),
    ]
}

#[test]
fn writes_are_refused_while_vault_changes_are_off() {
    for (tool, args) in writes() {
        let core = core(Value::Null);
        let result = assert_refused(&core, tool, args, "writes_disabled");
        assert!(
            result
                .text
                .contains("Settings → Vault Agent → Safety → Allow vault changes"),
            "{}",
            result.text
        );
    }
}

#[test]
fn the_model_cannot_turn_writes_on() {
    // Settings are not tool arguments: any attempt is an unknown field.
    let core = core(Value::Null);
    assert_refused(
        &core,
        "obsidianDailyNote",
        json!({"command": "daily:append", "content": "x", "allowVaultChanges": true}),
        "invalid_arguments",
    );
}

#[test]
fn every_write_command_is_in_the_matrix() {
    let writes = writes();
    let listed: Vec<(&str, &str)> = writes
        .iter()
        .map(|(tool, args)| (*tool, args["command"].as_str().unwrap()))
        .collect();
    for tool in builtin_tools() {
        for command in tool.commands.iter().filter(|c| c.access.is_write()) {
            assert!(
                listed.contains(&(tool.id, command.name)),
                "{} {} missing from writes()",
                tool.id,
                command.name
            );
        }
    }
}

#[test]
fn writes_that_would_fall_back_to_the_active_file_are_refused() {
    let on = json!({"allowVaultChanges": true});
    for (tool, args) in [
        (
            "obsidianProperties",
            json!({"command": "property:set", "name": "status", "value": "done"}),
        ),
        (
            "obsidianProperties",
            json!({"command": "property:remove", "name": "status"}),
        ),
        (
            "obsidianBases",
            json!({"command": "base:create", "name": "New"}),
        ),
    ] {
        let result = assert_refused(&core(on.clone()), tool, args, "missing_target");
        assert!(
            result.text.contains("the note open in Obsidian"),
            "{}",
            result.text
        );
        assert!(result.text.contains("`file`") && result.text.contains("`path`"));
    }
    // `task` and `bookmark` cannot even express a missing target.
    assert_refused(
        &core(on.clone()),
        "obsidianTasks",
        json!({"command": "task", "line": 3, "done": true}),
        "invalid_arguments",
    );
    assert_refused(
        &core(on),
        "obsidianBookmarks",
        json!({"command": "bookmark", "title": "x"}),
        "invalid_arguments",
    );
}

#[test]
fn a_disabled_tool_is_refused() {
    for tool in builtin_tools() {
        let core = core(json!({ "tools": { tool.id: false }, "allowVaultChanges": true }));
        assert_refused(&core, tool.id, tool.example.clone(), "tool_disabled");
        let listed = core.list_tools();
        assert!(!listed.iter().find(|t| t.id == tool.id).unwrap().enabled);
    }
}

#[test]
fn every_excluded_command_is_refused_by_every_tool() {
    let mut commands: Vec<String> = Vec::new();
    for excluded in EXCLUDED_COMMANDS {
        if let Some(family) = excluded.strip_suffix(':') {
            for member in [
                "enable", "disable", "install", "restore", "open", "read", "eval", "load", "x",
            ] {
                commands.push(format!("{family}:{member}"));
            }
            commands.push(family.to_string());
        } else {
            commands.push(excluded.to_string());
        }
    }
    assert!(commands.len() > 100);
    let core = core(json!({"allowVaultChanges": true}));
    for tool in builtin_tools() {
        for command in &commands {
            let result = assert_refused(
                &core,
                tool.id,
                json!({"command": command}),
                "command_not_allowed",
            );
            assert!(result.text.contains("Allowed commands"), "{}", result.text);
        }
    }
}

#[test]
fn wrong_task_change_combinations_are_refused() {
    let core = core(json!({"allowVaultChanges": true}));
    for args in [
        json!({"command": "task", "ref": "Plan.md:3", "toggle": true, "done": true}),
        json!({"command": "task", "ref": "Plan.md:3", "todo": true, "status": "x"}),
        json!({"command": "task", "ref": "Plan.md:3", "done": true, "todo": true}),
        json!({"command": "task", "ref": "Plan.md:3", "status": "xy"}),
        json!({"command": "task", "ref": "Plan.md", "toggle": true}),
        json!({"command": "task", "ref": "Plan.md:3", "file": "Plan", "line": 3, "toggle": true}),
        json!({"command": "task", "daily": true, "toggle": true}),
        json!({"command": "task", "toggle": "yes", "ref": "Plan.md:3"}),
    ] {
        assert_refused(&core, "obsidianTasks", args, "invalid_arguments");
    }
}

#[test]
fn reads_run_with_writes_off() {
    let core = core(Value::Null);
    for tool in builtin_tools() {
        let command = tool.example["command"].as_str().unwrap_or_default();
        if tool.command(command).is_some_and(|c| c.access.is_write()) {
            // obsidianEdit only writes; its example is refused here (see above).
            continue;
        }
        let result = call(&core, tool.id, tool.example.clone());
        assert!(result.ok, "{}: {}", tool.id, result.text);
    }
    // `task` without a change only shows the task: a read.
    let result = call(
        &core,
        "obsidianTasks",
        json!({"command": "task", "ref": "Plan.md:3"}),
    );
    assert!(result.ok, "{}", result.text);
    assert_eq!(result.argv.unwrap(), ["task", "ref=Plan.md:3"]);
}

#[test]
fn direct_writes_run_at_once_when_allowed() {
    let core = core(json!({"allowVaultChanges": true}));
    let result = call(
        &core,
        "obsidianDailyNote",
        json!({"command": "daily:append", "content": "- [ ] Call Bob\n- [ ] Book room"}),
    );
    assert!(result.ok, "{}", result.text);
    assert_eq!(
        result.argv.unwrap(),
        ["daily:append", "content=- [ ] Call Bob\\n- [ ] Book room"]
    );
    let result = call(
        &core,
        "obsidianBookmarks",
        json!({"command": "bookmark", "file": "Projects/Plan.md", "subpath": "#Goals", "title": "Goals"}),
    );
    assert!(result.ok, "{}", result.text);
    assert_eq!(
        result.argv.unwrap(),
        [
            "bookmark",
            "file=Projects/Plan.md",
            "subpath=#Goals",
            "title=Goals"
        ]
    );
}

/// Regression (hardening #9): nothing in the vault's configuration folder is
/// the target of a write or a bookmark, however the path is spelled.
#[test]
fn the_config_folder_is_never_a_write_target() {
    let core = core(json!({"allowVaultChanges": true}));
    let cases = [
        (
            "obsidianBookmarks",
            json!({"command": "bookmark", "file": ".obsidian/plugins/vault-agent/data.json"}),
        ),
        (
            "obsidianBookmarks",
            json!({"command": "bookmark", "folder": ".obsidian"}),
        ),
        (
            "obsidianBookmarks",
            json!({"command": "bookmark", "folder": " .Obsidian/plugins "}),
        ),
        (
            "obsidianBases",
            json!({"command": "base:create", "path": ".obsidian/x.base", "name": "n"}),
        ),
        (
            "obsidianProperties",
            json!({"command": "property:set", "name": "a", "value": "b", "path": ".obsidian/app.json"}),
        ),
        (
            "obsidianProperties",
            json!({"command": "property:remove", "name": "a", "file": ".obsidian/workspace"}),
        ),
        (
            "obsidianTasks",
            json!({"command": "task", "ref": ".obsidian/x.md:3", "done": true}),
        ),
        (
            "obsidianTasks",
            json!({"command": "task", "path": ".OBSIDIAN/x.md", "line": 3, "done": true}),
        ),
    ];
    for (tool, args) in cases {
        let result = assert_refused(&core, tool, args, "config_folder");
        assert!(result.text.contains(".obsidian/"), "{}", result.text);
    }
    // A custom configuration folder, as `app.vault.configDir` names it.
    let mut host = FakeHost::linux_with_cli("ok");
    host.facts.config_dir = Some(".config-obsidian".into());
    let custom = VaultAgentCore::new(host, &json!({"allowVaultChanges": true})).0;
    assert_refused(
        &custom,
        "obsidianBookmarks",
        json!({"command": "bookmark", "folder": ".config-obsidian/snippets"}),
        "config_folder",
    );
}

/// Regression (hardening #9): path tricks are refused before any process,
/// for writes that run at once as well.
#[test]
fn path_tricks_are_refused_before_anything_runs() {
    let core = core(json!({"allowVaultChanges": true}));
    for bad in [
        " ../x",
        ".. /x",
        "\u{FF0E}\u{FF0E}/x",
        "%2e%2e/x",
        "note.md:secret",
        "~/x",
        "C:/x",
        "\u{202E}x",
    ] {
        assert_refused(
            &core,
            "obsidianBookmarks",
            json!({"command": "bookmark", "file": bad}),
            "invalid_arguments",
        );
        assert_refused(
            &core,
            "obsidianBases",
            json!({"command": "base:create", "path": bad, "name": "n"}),
            "invalid_arguments",
        );
        assert_refused(
            &core,
            "obsidianNotes",
            json!({"command": "read", "path": bad}),
            "invalid_arguments",
        );
    }
}
