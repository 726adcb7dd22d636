//! The policy matrix: every refusal has its code and starts no process.

use serde_json::{json, Value};
use vault_agent::base::host::{Os, ProcessOutcome};
use vault_agent::testing::{block_on, FakeHost};
use vault_agent::tools::{builtin_tools, EXCLUDED_COMMANDS};
use vault_agent::{ToolResult, VaultAgent};

fn core(settings: Value) -> VaultAgent<FakeHost> {
    VaultAgent::new(FakeHost::linux_with_cli("ok"), &memory_on(settings)).0
}

/// Memory and the web are off by default, which turns their tools off:
/// every matrix here has them on, so they meet the same rules as every other.
fn memory_on(settings: Value) -> Value {
    let web = json!({"enabled": true, "searxngUrl": "http://127.0.0.1:8888"});
    match settings {
        Value::Object(mut map) => {
            map.entry("chat").or_insert_with(|| json!({"memory": true}));
            map.entry("web").or_insert(web);
            Value::Object(map)
        }
        _ => json!({"chat": {"memory": true}, "web": web}),
    }
}

fn call(core: &VaultAgent<FakeHost>, tool: &str, args: Value) -> ToolResult {
    block_on(core.call_tool(tool, &args))
}

/// Refused with `code`, and nothing ran (not even discovery).
#[track_caller]
fn assert_refused(core: &VaultAgent<FakeHost>, tool: &str, args: Value, code: &str) -> ToolResult {
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

/// How a write ends up in one mode.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Outcome {
    /// `writes_disabled`, nothing started.
    Refused,
    /// A pending card; only its probe ran.
    Card,
    /// Ran at once, exactly once.
    RunsAtOnce,
}

/// One write of every write command, each naming its target, with what
/// "Ask before edits" does with it (as the switch "Allow vault changes" did).
fn writes() -> Vec<(&'static str, Value, Outcome)> {
    use Outcome::{Card, RunsAtOnce};
    vec![
        // Outside the chat's own model a memory change is always a card
        // (tests/agent/memory.rs has the chat's additions at once); `folder`
        // is what the engine fills in, given here for `parse_call` alone.
        (
            "obsidianMemory",
            json!({"command": "add", "fact": "Likes tea.", "folder": "Agent memory"}),
            Card,
        ),
        (
            "obsidianMemory",
            json!({"command": "update", "line": "Likes tea.", "fact": "Likes coffee.", "folder": "Agent memory", "exists": true}),
            Card,
        ),
        (
            "obsidianMemory",
            json!({"command": "remove", "line": "Likes tea.", "folder": "Agent memory", "exists": true}),
            Card,
        ),
        (
            "obsidianDailyNote",
            json!({"command": "daily:append", "content": "- [ ] x"}),
            RunsAtOnce,
        ),
        (
            "obsidianDailyNote",
            json!({"command": "daily:prepend", "content": "## Top"}),
            RunsAtOnce,
        ),
        (
            "obsidianProperties",
            json!({"command": "property:set", "name": "status", "value": "done", "file": "Plan"}),
            Card,
        ),
        (
            "obsidianProperties",
            json!({"command": "property:remove", "name": "status", "path": "Plan.md"}),
            Card,
        ),
        (
            "obsidianTasks",
            json!({"command": "task", "ref": "Plan.md:3", "toggle": true}),
            Card,
        ),
        (
            "obsidianBases",
            json!({"command": "base:create", "file": "Projects", "name": "New"}),
            RunsAtOnce,
        ),
        (
            "obsidianBookmarks",
            json!({"command": "bookmark", "url": "https://obsidian.md"}),
            RunsAtOnce,
        ),
        (
            "obsidianEdit",
            json!({"command": "create", "name": "Q3 plan", "content": "# Q3"}),
            RunsAtOnce,
        ),
        (
            "obsidianEdit",
            json!({"command": "append", "file": "Plan", "content": "- x"}),
            RunsAtOnce,
        ),
        (
            "obsidianEdit",
            json!({"command": "prepend", "path": "Plan.md", "content": "Top"}),
            RunsAtOnce,
        ),
        (
            "obsidianEdit",
            json!({"command": "edit", "file": "Plan", "find": "a", "with": "b"}),
            Card,
        ),
        (
            "obsidianTags",
            json!({"command": "tag:add", "file": "Plan", "tag": "urgent"}),
            Card,
        ),
        (
            "obsidianOrganise",
            json!({"command": "move", "path": "Plan.md", "to": "Archive"}),
            Card,
        ),
        (
            "obsidianOrganise",
            json!({"command": "rename", "file": "Plan", "name": "Plan 2"}),
            Card,
        ),
        (
            "obsidianOrganise",
            json!({"command": "delete", "path": "Plan.md"}),
            Card,
        ),
        (
            "obsidianTags",
            json!({"command": "tag:remove", "path": "Plan.md", "tag": "todo"}),
            Card,
        ),
    ]
}

/// A CLI whose reads answer like the real one, so every probe gives a
/// preview, over two notes (`Plan.md`, which the CLI and the vault both see,
/// and a new one `create` makes); other writes answer "ok".
fn vault_core(settings: Value) -> VaultAgent<FakeHost> {
    let mut host = FakeHost::linux_with_cli("ok");
    let notes = host.notes.clone();
    notes
        .borrow_mut()
        .insert("Plan.md".into(), "# Todo\nx a y #todo\n- [ ] Ship\n".into());
    notes.borrow_mut().insert(
        "Agent memory/Memory.md".into(),
        "# Memory\n- Likes tea.\n".into(),
    );
    host.respond_with(move |request| {
        let args = &request.args;
        let value = |key: &str| {
            args.iter()
                .find_map(|a| a.strip_prefix(key)?.strip_prefix('='))
                .map(str::to_string)
        };
        let note = value("path").or_else(|| value("file").map(|f| format!("{f}.md")));
        let mut notes = notes.borrow_mut();
        let answer = match args[0].as_str() {
            "daily:read" => "# Today\n- [ ] Ship".into(),
            "property:read" => "active".into(),
            "bookmarks" => r#"[{"type": "folder", "path": "Ideas"}]"#.into(),
            "base:views" => "Table".into(),
            "file" => match note.filter(|n| notes.contains_key(n)) {
                Some(path) => format!("path\t{path}\nname\tPlan\nextension\tmd"),
                None => "Error: File not found.".into(),
            },
            "read" => match note.or_else(|| value("name").map(|n| format!("{n}.md"))) {
                Some(path) if notes.contains_key(&path) => notes[&path].clone(),
                _ => "Error: File not found.".into(),
            },
            "create" => {
                let path = format!("{}.md", value("name").unwrap_or_default());
                notes.insert(path.clone(), value("content").unwrap_or_default());
                format!("Created: {path}")
            }
            command @ ("append" | "prepend") => {
                let path = note.unwrap_or_default();
                let content = value("content").unwrap_or_default();
                let text = notes.get(&path).cloned().unwrap_or_default();
                let (text, done) = if command == "append" {
                    (format!("{text}{content}\n"), "Appended to")
                } else {
                    (format!("{content}\n{text}"), "Prepended to")
                };
                notes.insert(path.clone(), text);
                format!("{done}: {path}")
            }
            _ => "ok".into(),
        };
        ProcessOutcome::success(&answer)
    });
    VaultAgent::new(host, &memory_on(settings)).0
}

/// Runs `args` in a fresh core with `settings` and checks it ended as `expected`.
#[track_caller]
fn assert_outcome(settings: &Value, tool: &str, args: &Value, expected: Outcome) {
    let core = vault_core(settings.clone());
    let notes_before = core.host().notes.borrow().clone();
    let label = format!("{settings} {tool} {args}");
    let ran = |core: &VaultAgent<FakeHost>| -> Vec<Vec<String>> {
        core.host()
            .requests
            .borrow()
            .iter()
            .map(|r| r.args.clone())
            .collect()
    };
    match expected {
        Outcome::Refused => {
            assert_refused(&core, tool, args.clone(), "writes_disabled");
        }
        Outcome::Card => {
            let result = call(&core, tool, args.clone());
            let pending = result
                .pending
                .unwrap_or_else(|| panic!("{label}: no card: {}", result.text));
            assert!(
                !pending.preview.after.is_empty() || pending.preview.diff.is_some(),
                "{label}: empty preview"
            );
            let ran = ran(&core);
            assert!(
                ran.iter().all(|argv| Some(argv) != result.argv.as_ref()),
                "{label}: the write itself ran: {ran:?}"
            );
            assert_eq!(
                *core.host().notes.borrow(),
                notes_before,
                "{label}: a note changed"
            );
            assert_eq!(core.open_confirmations().len(), 1, "{label}");
        }
        Outcome::RunsAtOnce => {
            let result = call(&core, tool, args.clone());
            assert!(result.ok, "{label}: {}", result.text);
            assert!(result.pending.is_none(), "{label}");
            let argv = result.argv.expect("the command line that ran");
            assert_eq!(argv[0], args["command"], "{label}");
            let ran = ran(&core);
            assert_eq!(
                ran.iter().filter(|r| **r == argv).count(),
                1,
                "{label}: the write runs once: {ran:?}"
            );
            assert!(core.open_confirmations().is_empty(), "{label}");
        }
    }
}

/// Every write command of every tool in each of the three modes.
#[test]
fn the_permission_mode_matrix() {
    for (tool, args, in_ask_before_edits) in writes() {
        for (mode, expected) in [
            ("readOnly", Outcome::Refused),
            ("askEveryChange", Outcome::Card),
            ("askBeforeEdits", in_ask_before_edits),
        ] {
            assert_outcome(&json!({ "permissionMode": mode }), tool, &args, expected);
        }
    }
}

/// A write the chat's model wrote as text is a card in every mode that
/// allows writes, Ask before edits included (the model may be echoing a call
/// it read in a note); reads are not changed by it. The rule on its own, in
/// `policy::check`: `tests/node/text-calls.test.mjs` shows it through the chat.
#[test]
fn a_write_written_as_text_is_always_a_card() {
    use vault_agent::base::call::Access;
    let tools = builtin_tools();
    let ids: Vec<&str> = tools.iter().map(|t| t.id).collect();
    for mode in ["readOnly", "askEveryChange", "askBeforeEdits"] {
        let mut settings =
            vault_agent::settings::normalise(&memory_on(json!({ "permissionMode": mode })), &ids)
                .settings;
        for (tool, args, in_ask_before_edits) in writes() {
            let spec = tools.iter().find(|t| t.id == tool).unwrap();
            let call = spec.parse_call(&args).unwrap();
            settings.written_as_text = false;
            let native = vault_agent::policy::check(&call.facts().unwrap(), &settings, ".obsidian");
            settings.written_as_text = true;
            let as_text =
                vault_agent::policy::check(&call.facts().unwrap(), &settings, ".obsidian");
            match mode {
                "readOnly" => assert!(as_text.is_err() && native.is_err(), "{tool} {args}"),
                _ => assert_eq!(
                    as_text.ok(),
                    Some(Access::ConfirmedWrite),
                    "{mode} {tool} {args}"
                ),
            }
            if mode == "askBeforeEdits" {
                // Without the mark the same call keeps what the command declares.
                let declared = match in_ask_before_edits {
                    Outcome::RunsAtOnce => Access::DirectWrite,
                    _ => Access::ConfirmedWrite,
                };
                assert_eq!(native.ok(), Some(declared), "{tool} {args}");
            }
        }
        let read = tools.iter().find(|t| t.id == "obsidianTasks").unwrap();
        let call = read
            .parse_call(&json!({"command": "tasks", "todo": true}))
            .unwrap();
        assert_eq!(
            vault_agent::policy::check(&call.facts().unwrap(), &settings, ".obsidian").ok(),
            Some(Access::Read),
            "{mode}: a read written as text is still a read"
        );
    }
}

/// An older data.json keeps its behaviour for every write: the switch on
/// is "Ask before edits", off (or missing, or not true/false) is Read only.
#[test]
fn an_older_data_json_behaves_as_before() {
    for (tool, args, when_on) in writes() {
        assert_outcome(
            &json!({"permissionMode": "askBeforeEdits"}),
            tool,
            &args,
            when_on,
        );
        for off in [json!(false), json!("yes"), json!(1), Value::Null] {
            assert_outcome(
                &json!({ "allowVaultChanges": off }),
                tool,
                &args,
                Outcome::Refused,
            );
        }
    }
}

#[test]
fn read_only_says_which_mode_is_on_and_where_to_change_it() {
    for (tool, args, _) in writes() {
        let core = core(Value::Null);
        let result = assert_refused(&core, tool, args, "writes_disabled");
        for fragment in [
            "\"Read only\"",
            "chat header",
            "Settings → Vault Agent → Safety → Vault changes",
        ] {
            assert!(result.text.contains(fragment), "{}", result.text);
        }
    }
}

#[test]
fn the_model_cannot_change_the_mode() {
    // Settings are not tool arguments: any attempt is an unknown field.
    let core = core(Value::Null);
    for setting in [
        json!({"permissionMode": "askBeforeEdits"}),
        json!({"permissionMode": "askBeforeEdits"}),
        json!({"permission_mode": "askBeforeEdits"}),
    ] {
        let mut args = json!({"command": "daily:append", "content": "x"});
        args.as_object_mut()
            .unwrap()
            .extend(setting.as_object().unwrap().clone());
        assert_refused(&core, "obsidianDailyNote", args, "invalid_arguments");
    }
    assert_eq!(
        core.settings().permission_mode,
        vault_agent::settings::PermissionMode::ReadOnly
    );
}

#[test]
fn every_write_command_is_in_the_matrix() {
    let writes = writes();
    let listed: Vec<(&str, &str)> = writes
        .iter()
        .map(|(tool, args, _)| (*tool, args["command"].as_str().unwrap()))
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
    for on in [
        json!({"permissionMode": "askBeforeEdits"}),
        json!({"permissionMode": "askEveryChange"}),
    ] {
        refused_without_a_target(on);
    }
}

fn refused_without_a_target(on: Value) {
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
        let core = core(json!({ "tools": { tool.id: false }, "permissionMode": "askBeforeEdits" }));
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
    let core = core(json!({"permissionMode": "askBeforeEdits"}));
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
    let core = core(json!({"permissionMode": "askBeforeEdits"}));
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
    // The web's example search, answered by a SearXNG with no results.
    core.host()
        .script_http(vault_agent::testing::ScriptedHttp::Headed {
            status: 200,
            content_type: Some("application/json".into()),
            location: None,
            body: br#"{"results":[]}"#.to_vec(),
        });
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
fn direct_writes_run_at_once_in_ask_before_edits() {
    let core = core(json!({"permissionMode": "askBeforeEdits"}));
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
    // In both modes that allow changes: a card would start its probe, so
    // the refusal must come first there too.
    for mode in ["askBeforeEdits", "askEveryChange"] {
        let core = core(json!({ "permissionMode": mode }));
        for (tool, args) in cases.clone() {
            let result = assert_refused(&core, tool, args, "config_folder");
            assert!(result.text.contains(".obsidian/"), "{}", result.text);
        }
    }
    // A custom configuration folder, as `app.vault.configDir` names it.
    let mut host = FakeHost::linux_with_cli("ok");
    host.facts.config_dir = Some(".config-obsidian".into());
    let custom = VaultAgent::new(host, &json!({"permissionMode": "askBeforeEdits"})).0;
    assert_refused(
        &custom,
        "obsidianBookmarks",
        json!({"command": "bookmark", "folder": ".config-obsidian/snippets"}),
        "config_folder",
    );
}

/// Nothing reads the configuration folder either: plugins' settings live
/// there, this plugin's API keys among them.
#[test]
fn the_config_folder_is_never_read() {
    let core = core(json!({}));
    for (tool, args) in [
        (
            "obsidianNotes",
            json!({"command": "read", "path": ".obsidian/plugins/vault-agent/data.json"}),
        ),
        (
            "obsidianNotes",
            json!({"command": "files", "folder": ".obsidian/plugins"}),
        ),
        (
            "obsidianNotes",
            json!({"command": "read", "file": ".Obsidian/app"}),
        ),
        (
            "obsidianSearch",
            json!({"command": "search", "query": "apiKey", "path": ".obsidian"}),
        ),
        ("obsidianRandomRead", json!({"folder": ".obsidian"})),
    ] {
        let result = assert_refused(&core, tool, args, "config_folder");
        assert!(result.text.contains("would read"), "{}", result.text);
    }
}

/// Regression (hardening #9): path tricks are refused before any process,
/// for writes that run at once as well.
#[test]
fn path_tricks_are_refused_before_anything_runs() {
    let core = core(json!({"permissionMode": "askBeforeEdits"}));
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

/// Folder scopes compare names as the platform's file system does. On
/// Windows case is ignored (one folder `projects/` is `Projects`) but the
/// Unicode form is not (an NFD `Café/` is another folder than the NFC one);
/// on Linux neither is ignored; on macOS both are. (Linux and macOS are also
/// tried through main.js: tests/node/scope-names.test.mjs.)
#[test]
fn folder_scopes_compare_names_as_the_platform_does() {
    let listing = "Caf\u{e9}/Menu.md\nCafe\u{301}/Secret.md\nprojects/Lower.md\nProjects/Plan.md\nProjects2/Other.md\n";
    let files = |os: Os| {
        let (program, path) = match os {
            Os::Windows => ("C:\\Obsidian\\Obsidian.com", "C:\\Obsidian"),
            _ => ("/usr/bin/obsidian", "/usr/bin"),
        };
        let mut host = FakeHost::new(os, move |_| ProcessOutcome::success(listing));
        host.env.insert("PATH".into(), path.into());
        host.add_executable(program);
        let core = VaultAgent::new(
            host,
            &json!({"cliPath": program, "readFolders": ["Projects", "Caf\u{e9}"]}),
        )
        .0;
        let result = call(&core, "obsidianNotes", json!({"command": "files"}));
        assert!(result.ok, "{os:?}: {}", result.text);
        let mut lines: Vec<String> = result.text.lines().map(String::from).collect();
        lines.sort();
        (lines, result.withheld)
    };
    let plain = ["Caf\u{e9}/Menu.md", "Projects/Plan.md"];
    assert_eq!(
        files(Os::Linux),
        (plain.map(String::from).to_vec(), Some(3))
    );
    assert_eq!(
        files(Os::Windows),
        (
            ["Caf\u{e9}/Menu.md", "Projects/Plan.md", "projects/Lower.md"]
                .map(String::from)
                .to_vec(),
            Some(2)
        )
    );
    assert_eq!(
        files(Os::Macos),
        (
            [
                "Cafe\u{301}/Secret.md",
                "Caf\u{e9}/Menu.md",
                "Projects/Plan.md",
                "projects/Lower.md"
            ]
            .map(String::from)
            .to_vec(),
            Some(1)
        )
    );
}

/// Found by the mutation run: only a command whose answer is filtered as
/// JSON asks the CLI for `format=json`; a listing filtered line by line gets
/// the CLI's plain lines, which its filter reads.
#[test]
fn only_answers_filtered_as_json_ask_the_cli_for_json() {
    let runs = |tool: &str, args: Value| {
        let core = core(json!({"readFolders": ["Projects"]}));
        let result = call(&core, tool, args.clone());
        assert!(result.ok, "{tool} {args}: {}", result.text);
        let requests = core.host().requests.borrow();
        let command = args["command"].as_str().unwrap().to_string();
        let run = requests
            .iter()
            .find(|r| r.args.contains(&command))
            .unwrap_or_else(|| panic!("{command} did not run"));
        run.args.iter().any(|a| a == "format=json")
    };
    assert!(!runs("obsidianNotes", json!({"command": "files"})));
    assert!(!runs(
        "obsidianNotes",
        json!({"command": "files", "folder": "Projects"})
    ));
    assert!(runs(
        "obsidianSearch",
        json!({"command": "search", "query": "launch"})
    ));
}

#[test]
fn in_a_chat_that_read_the_web_every_change_waits_for_a_card() {
    use vault_agent::policy::check;
    use vault_agent::settings::{normalise, MemoryOrigin, PermissionMode};
    let tools = builtin_tools();
    let edit = tools.iter().find(|t| t.id == "obsidianEdit").unwrap();
    let create = edit
        .parse_call(
            &json!({"command": "create", "path": "Saved/Page.md", "content": "From the web"}),
        )
        .unwrap();
    let mut settings = normalise(&json!({"permissionMode": "askBeforeEdits"}), &[]).settings;
    assert_eq!(settings.permission_mode, PermissionMode::AskBeforeEdits);
    let facts = create.facts().unwrap();
    assert_eq!(
        check(&facts, &settings, ".obsidian").unwrap(),
        vault_agent::base::call::Access::DirectWrite
    );
    settings.memory_origin = Some(MemoryOrigin {
        chat: "Research".into(),
        outside_data: true,
        web_data: true,
    });
    assert_eq!(
        check(&facts, &settings, ".obsidian").unwrap(),
        vault_agent::base::call::Access::ConfirmedWrite
    );
    // Outside data from an MCP server alone leaves the mode as it is.
    settings.memory_origin = Some(MemoryOrigin {
        chat: "Research".into(),
        outside_data: true,
        web_data: false,
    });
    assert_eq!(
        check(&facts, &settings, ".obsidian").unwrap(),
        vault_agent::base::call::Access::DirectWrite
    );
}
