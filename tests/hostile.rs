//! Hostile argument values through every string parameter of every command.
//! Whatever the value, the process the host is asked to run gets exactly the
//! declared command, one element per declared parameter, no extra element,
//! and the value reads back literally; or the call is refused with a clear
//! error that names the parameter.

use std::collections::BTreeSet;

use serde_json::{json, Map, Value};
use vault_agent::base::host::ProcessOutcome;
use vault_agent::base::vault_path::{normalised, PathKind};
use vault_agent::cli::argv::{escape_value, normalise_line_endings};
use vault_agent::testing::{block_on, FakeHost};
use vault_agent::tools::builtin_tools;
use vault_agent::VaultAgent;

/// A core with writes allowed over a CLI that answers every call sensibly.
fn core() -> VaultAgent<FakeHost> {
    let mut host = FakeHost::linux_with_cli("");
    host.respond_with(|request| {
        ProcessOutcome::success(match request.args[0].as_str() {
            // A task change is previewed from the note itself (line 3).
            "read" | "daily:read" => "# Plan\n\n- [ ] Ship",
            // `create` checks first that nothing is at its path.
            "file" if request.args.iter().any(|a| a.starts_with("path=")) => {
                "Error: File not found."
            }
            _ => "ok",
        })
    });
    host.notes
        .borrow_mut()
        .insert("Plan.md".into(), "# Plan\nok\n".into());
    host.pdfs
        .borrow_mut()
        .insert("Papers/Report.pdf".into(), vec!["Page one".into()]);
    host.notes.borrow_mut().insert(
        "Agent memory/Memory.md".into(),
        "- Prefers ISO dates. (2026-12-01, chat \"Trips\")\n".into(),
    );
    // Memory on: its tool takes hostile values like every other.
    VaultAgent::new(
        host,
        &json!({
            "permissionMode": "askBeforeEdits",
            "chat": {"memory": true},
            "web": {"enabled": true, "provider": "searxng", "searxngUrl": "http://127.0.0.1:8888"}
        }),
    )
    .0
}

/// Valid arguments for every command, the base each hostile value goes into.
fn base_arguments(tool: &str, command: &str) -> Value {
    match (tool, command) {
        ("obsidianNotes", "read" | "file" | "outline" | "map" | "open") => {
            json!({"file": "Welcome"})
        }
        ("obsidianNotes", "section") => json!({"file": "Welcome", "heading": "Start"}),
        ("obsidianNotes", "pdf") => json!({"path": "Papers/Report.pdf"}),
        ("obsidianNotes", "files" | "folders") => json!({"folder": "Projects"}),
        ("obsidianSearch", "find") => json!({"query": "launch"}),
        ("obsidianSearch", _) => json!({"query": "launch", "path": "Projects"}),
        ("obsidianDailyNote", "daily:append" | "daily:prepend") => json!({"content": "- [ ] x"}),
        ("obsidianDailyNote", _) => json!({}),
        ("obsidianTasks", "tasks") => json!({"file": "Plan", "status": "x"}),
        ("obsidianTasks", "task") => json!({"ref": "Plan.md:3", "status": "x"}),
        ("obsidianProperties", "properties") => json!({"file": "Plan", "name": "status"}),
        ("obsidianProperties", "property:set") => {
            json!({"name": "status", "value": "done", "file": "Plan"})
        }
        ("obsidianProperties", _) => json!({"name": "status", "file": "Plan"}),
        ("obsidianLinks", "backlinks" | "links") => json!({"file": "Plan"}),
        ("obsidianLinks", _) => json!({}),
        ("obsidianTags", "tags") => json!({"file": "Plan"}),
        ("obsidianTags", "tag") => json!({"name": "project"}),
        ("obsidianTags", "tag:add" | "tag:remove") => json!({"path": "Plan.md", "tag": "ok"}),
        ("obsidianTemplates", "template:read") => json!({"name": "Daily Note", "title": "T"}),
        ("obsidianTemplates", _) => json!({}),
        ("obsidianBases", "bases") => json!({}),
        ("obsidianBases", "base:views") => json!({"file": "Projects"}),
        ("obsidianBases", "base:query") => json!({"file": "Projects", "view": "All"}),
        ("obsidianBases", _) => {
            json!({"file": "Projects", "view": "All", "name": "New", "content": "x"})
        }
        ("obsidianBookmarks", "bookmark") => {
            json!({"file": "Plan.md", "subpath": "#Goals", "title": "T"})
        }
        ("obsidianBookmarks", _) => json!({}),
        ("obsidianRandomRead", _) => json!({"folder": "Ideas"}),
        // Contents the fake `read` then shows, so the read-back confirms them.
        ("obsidianEdit", "create") => {
            json!({"path": "New/Note.md", "content": "# Plan\n\n- [ ] Ship"})
        }
        ("obsidianEdit", "append") => json!({"file": "Plan", "content": "- [ ] Ship"}),
        ("obsidianEdit", "prepend") => json!({"file": "Plan", "content": "# Plan"}),
        ("obsidianEdit", "edit") => json!({"path": "Plan.md", "find": "ok", "with": "done"}),
        ("obsidianOrganise", "move") => json!({"path": "Plan.md", "to": "Archive"}),
        ("obsidianOrganise", "rename") => json!({"path": "Plan.md", "name": "Plan 2"}),
        ("obsidianOrganise", "delete") => json!({"path": "Plan.md"}),
        ("obsidianHygiene", "duplicates" | "empty") => json!({"folder": "Projects"}),
        ("obsidianHygiene", "missing") => json!({}),
        ("obsidianHygiene", "suggest") => json!({"path": "Plan.md", "folder": "Projects"}),
        ("obsidianMemory", "add") => json!({"fact": "Prefers ISO dates."}),
        ("obsidianMemory", "update") => json!({"line": "Prefers ISO dates.", "fact": "x"}),
        ("obsidianMemory", "remove") => json!({"line": "Prefers ISO dates."}),
        ("obsidianWeb", "search") => json!({"query": "bases"}),
        ("obsidianWeb", "read") => json!({"url": "http://127.0.0.1:8888/page"}),
        _ => panic!("no base arguments for {tool} {command}: add them here"),
    }
}

/// At least 300 values that have broken command lines somewhere.
fn hostile_values() -> Vec<String> {
    let mut values: Vec<String> = [
        "",
        " ",
        "\t",
        "\n",
        "\r\n",
        "\r",
        "a\nb",
        "a\r\nb",
        "trailing\n",
        "\n\nleading",
        "=",
        "==",
        "a=b",
        "key=value other=thing",
        "vault=Evil",
        "vault=Evil daily:read",
        " vault=Evil",
        "vault=\"My Vault\" delete",
        "path=../../etc/passwd",
        "file=x",
        "--copy",
        "-",
        "--",
        "-rf",
        "--vault=x",
        "-- delete",
        "delete",
        "eval",
        "plugin:enable",
        "open",
        "command id=app:reload",
        "..",
        "../x",
        "a/../../b",
        "./x",
        "/etc/passwd",
        "C:\\Windows\\system32",
        "\\\\server\\share",
        "~/.ssh/id_rsa",
        "%APPDATA%",
        "$HOME",
        "$(reboot)",
        "`id`",
        "; rm -rf /",
        "| cat",
        "&& echo hi",
        "' \"",
        "\"quoted\"",
        "'single'",
        "!!",
        "%s%s%n",
        "{{date}}",
        "${x}",
        "\\",
        "\\\\",
        "\\n",
        "\\t",
        "\\times",
        "C:\\temp\\new",
        "a\\nb\nc",
        "\u{202E}evil",
        "\u{202D}",
        "\u{2066}x\u{2069}",
        "\u{200B}",
        "\u{200C}\u{200D}",
        "\u{200E}\u{200F}",
        "\u{FEFF}bom",
        "\u{2028}",
        "\u{2029}",
        "\u{3000}",
        "Café ☕",
        "日本語のノート",
        "🦀🚀",
        "e\u{301}",
        "\u{10FFFF}",
        "\u{FFFD}",
        "عربي",
        "עברית",
        "{\"a\":1}",
        "[1,2]",
        "null",
        "true",
        "0",
        "-1",
        "1e309",
        "NaN",
        "<script>alert(1)</script>",
        "[[Link]]",
        "![[Embed]]",
        "#tag",
        "^block",
        "# Heading",
        "- [ ] task",
        "---\nfoo: bar\n---",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    // The nastiest ones again inside ordinary-looking names and paths.
    let nasty = [
        "\n",
        "=",
        "vault=Evil",
        "--copy",
        "..",
        "\u{202E}",
        "\u{200B}",
        "\\",
        "\t",
        "; rm -rf /",
        "\r",
        "$(x)",
        "\"",
        "#",
        "%n",
        "../../etc",
        "delete",
        "\u{0}",
        "\u{1b}[31m",
        "\u{7f}",
    ];
    for piece in nasty {
        for shape in ["note {}", "{}.md", "Folder/{}", "{} {}", "a{}b"] {
            values.push(shape.replace("{}", piece));
        }
    }
    // Every C0 control, DEL and every C1 control, alone and embedded.
    for code in (0u32..0x20).chain([0x7F]).chain(0x80..0xA0) {
        let c = char::from_u32(code).unwrap();
        values.push(c.to_string());
        values.push(format!("before{c}after"));
    }
    // Long values: around the limits and far past them.
    values.push("a".repeat(1024 * 1024));
    values.push("é".repeat(512 * 1024));
    values.push("\n".repeat(70_000));
    values.push("x".repeat(120_000));
    values.push("\\".repeat(70_000));
    values
}

/// Hostile JSON where a string is expected: refused by type, never sent.
fn hostile_json() -> Vec<Value> {
    vec![
        json!(1),
        json!(-1.5),
        json!(true),
        json!([]),
        json!(["a", "b"]),
        json!({}),
        json!({"command": "delete"}),
        json!({"$ne": ""}),
    ]
}

fn string_parameters(schema: &Value) -> Vec<String> {
    let Some(properties) = schema["properties"].as_object() else {
        return Vec::new();
    };
    properties
        .iter()
        .filter(|(_, p)| p.get("enum").is_none() && p.get("oneOf").is_none())
        .filter(|(_, p)| match &p["type"] {
            Value::String(t) => t == "string",
            Value::Array(ts) => ts.iter().any(|t| t == "string"),
            _ => false,
        })
        .map(|(name, _)| name.clone())
        .collect()
}

/// Commands whose values the core applies to a note's text and writes
/// through Obsidian's vault after a card, never through argv.
const NOTE_EDITS: &[(&str, &str)] = &[
    ("obsidianEdit", "edit"),
    ("obsidianTags", "tag:add"),
    ("obsidianTags", "tag:remove"),
    ("obsidianOrganise", "move"),
    ("obsidianOrganise", "rename"),
    ("obsidianOrganise", "delete"),
];

/// Parameters the core applies itself and never sends to the CLI (a
/// `files` name pattern is matched in Rust: `tools::shared::glob_matches`).
const CORE_SIDE: &[(&str, &str, &str)] = &[("obsidianNotes", "files", "name")];

#[test]
fn a_remembered_fact_is_one_line_or_refused_by_name() {
    let mut lines = 0;
    for value in hostile_values() {
        let core = core();
        let args = json!({"command": "add", "fact": value});
        let result = block_on(core.call_tool("obsidianMemory", &args));
        let Some(argv) = result.argv.clone().filter(|_| result.pending.is_some()) else {
            assert_eq!(
                result.code(),
                Some("invalid_arguments"),
                "{value:?}: {}",
                result.text
            );
            assert!(result.text.contains("`fact`"), "{value:?}: {}", result.text);
            continue;
        };
        assert!(
            core.host().requests.borrow().is_empty(),
            "nothing runs before the click"
        );
        let keys: Vec<&str> = argv[1..]
            .iter()
            .map(|e| e.split_once('=').map_or(e.as_str(), |(k, _)| k))
            .collect();
        assert_eq!(keys, ["path", "content"], "{value:?}: {argv:?}");
        assert_eq!(argv[1], "path=Agent memory/Memory.md", "{value:?}");
        let content = &argv[2]["content=".len()..];
        assert!(content.starts_with("- "), "{value:?}: {content:?}");
        assert!(
            !content.chars().any(|c| c == '\n' || c == '\r'),
            "{value:?} made more than one line: {content:?}"
        );
        lines += 1;
    }
    assert!(lines > 100, "{lines}");
}

#[test]
fn core_side_parameters_never_reach_argv() {
    for value in hostile_values() {
        let core = core();
        let args = json!({"command": "files", "folder": "Projects", "name": value});
        let result = block_on(core.call_tool("obsidianNotes", &args));
        for request in core.host().requests.borrow().iter() {
            assert!(
                request.args.iter().all(|a| !a.starts_with("name=")),
                "{value:?} reached argv: {:?}",
                request.args
            );
        }
        assert!(
            result.ok || result.code() == Some("invalid_arguments"),
            "{value:?}: {}",
            result.text
        );
    }
}

#[test]
fn the_corpus_is_big_enough() {
    assert!(hostile_values().len() >= 300, "{}", hostile_values().len());
}

#[test]
fn hostile_strings_run_literally_or_are_refused_by_name() {
    let values = hostile_values();
    let mut ran = 0usize;
    let mut refused = 0usize;
    for tool in builtin_tools() {
        for command in &tool.commands {
            let schema = command.arguments_schema();
            let declared: BTreeSet<String> = schema["properties"]
                .as_object()
                .map(|p| p.keys().cloned().collect())
                .unwrap_or_default();
            if NOTE_EDITS.contains(&(tool.id, command.name))
                || tool.id == "obsidianHygiene"
                || (tool.id, command.name) == ("obsidianSearch", "find")
            {
                // Their values never become the command's argv: see
                // edit_values_never_reach_the_cli, hygiene_values_reach_only_listings,
                // find_values_never_reach_the_cli.
                continue;
            }
            if tool.id == "obsidianWeb" {
                // No CLI: its values go to the provider as a URL's query
                // (tests/web.rs), never to argv.
                continue;
            }
            if tool.id == "obsidianMemory" {
                // The core composes a memory line (`- fact (date, chat)`) or
                // edits one line of a memory note: a_remembered_fact_is_one_line_or_refused_by_name.
                continue;
            }
            if matches!(command.name, "map" | "section" | "open" | "pdf") {
                // Answered by the core from the note's text (a PDF's from
                // the host's PDF.js, by its checked `path`): a `file` name
                // reaches argv only in the `file` lookup, the same
                // serializer and checks `read file=` goes through here.
                continue;
            }
            let base = base_arguments(tool.id, command.name);
            let base_argv_len = {
                let core = core();
                let mut args = base.as_object().unwrap().clone();
                args.insert("command".into(), json!(command.name));
                let result = block_on(core.call_tool(tool.id, &Value::Object(args)));
                assert!(
                    result.ok || result.pending.is_some(),
                    "base arguments of {} {} must work: {}",
                    tool.id,
                    command.name,
                    result.text
                );
                let len = command_argv(&result, &core.host().requests.borrow(), command.name).len();
                len
            };
            for parameter in string_parameters(&schema) {
                if CORE_SIDE.contains(&(tool.id, command.name, parameter.as_str())) {
                    continue;
                }
                for value in &values {
                    let core = core();
                    let mut args: Map<String, Value> = base.as_object().unwrap().clone();
                    args.insert("command".into(), json!(command.name));
                    args.insert(parameter.clone(), json!(value));
                    let result = block_on(core.call_tool(tool.id, &Value::Object(args)));
                    let requests = core.host().requests.borrow();
                    // A card whose check needs no CLI (a memory note's is the
                    // core's) waits with nothing run: its argv is checked below.
                    if requests.is_empty() && result.pending.is_none() {
                        // Refused before anything ran: say which parameter.
                        refused += 1;
                        assert!(!result.ok);
                        let code = result.code().unwrap_or("none");
                        assert!(
                            matches!(
                                code,
                                "invalid_arguments" | "missing_target" | "too_large_for_cli"
                            ),
                            "{} {} {parameter}={value:?}: {code}",
                            tool.id,
                            command.name
                        );
                        assert!(
                            result.text.contains(&format!("`{parameter}`"))
                                || result.text.contains("`file`")
                                || result.text.contains("`ref`"),
                            "{} {} {parameter}={:?}: error does not name it: {}",
                            tool.id,
                            command.name,
                            value.chars().take(40).collect::<String>(),
                            result.text
                        );
                        continue;
                    }
                    ran += 1;
                    for request in requests.iter() {
                        let argv = &request.args;
                        // The command is the declared one (or its probe or
                        // read-back), at the front.
                        assert!(
                            argv[0] == command.name
                                || (command.name.starts_with("property:")
                                    && argv[0] == "property:read")
                                || (tool.id == "obsidianEdit"
                                    && matches!(argv[0].as_str(), "file" | "read" | "files"))
                                || (command.name == "task"
                                    && matches!(argv[0].as_str(), "read" | "daily:read"))
                                // The undo journal finds the note a write changes.
                                || (command.name.starts_with("daily:")
                                    && argv[0] == "daily:path")
                                // base:create: that lookup (`file`) and, for a
                                // named item, the listing its title is checked
                                // against for a similar one (`files ext=md`).
                                || (command.name == "base:create"
                                    && matches!(argv[0].as_str(), "file" | "files")),
                            "{argv:?}"
                        );
                        if argv[0] != command.name {
                            continue;
                        }
                        for element in &argv[1..] {
                            let key = element.split_once('=').map_or(element.as_str(), |(k, _)| k);
                            assert!(
                                declared.contains(key),
                                "{} {}: undeclared `{key}` in {argv:?}",
                                tool.id,
                                command.name
                            );
                        }
                        let keys: Vec<&str> = argv[1..]
                            .iter()
                            .map(|e| e.split_once('=').map_or(e.as_str(), |(k, _)| k))
                            .collect();
                        let unique: BTreeSet<&str> = keys.iter().copied().collect();
                        assert_eq!(
                            keys.len(),
                            unique.len(),
                            "a parameter appears twice: {argv:?}"
                        );
                    }
                    // The command itself (run, or waiting for approval) carries the value literally.
                    let main_args = command_argv(&result, &requests, command.name);
                    let element = main_args
                        .iter()
                        .find(|e| e.starts_with(&format!("{parameter}=")))
                        .unwrap_or_else(|| {
                            panic!(
                                "{} {} {parameter}={value:?} not sent: {:?}",
                                tool.id, command.name, main_args
                            )
                        });
                    let sent = &element[parameter.len() + 1..];
                    let expected_value = as_normalised(tool.id, command.name, &parameter, value);
                    assert_eq!(sent, escape_value(&parameter, &expected_value).unwrap());
                    let expected = base_argv_len
                        + usize::from(!base.as_object().unwrap().contains_key(&parameter));
                    assert_eq!(main_args.len(), expected, "no extra element: {main_args:?}");
                    assert!(!normalise_line_endings(value).is_empty() || value.is_empty());
                }
            }
        }
    }
    assert!(ran > 1000 && refused > 1000, "ran {ran}, refused {refused}");
}

/// What a value becomes before it is sent: places in the vault are
/// normalised (NFC, trimmed; see `policy::paths`), everything else is sent as given.
fn as_normalised(tool: &str, command: &str, parameter: &str, value: &str) -> String {
    let kind = match (tool, command, parameter) {
        ("obsidianSearch", _, "path") => PathKind::Folder,
        (_, _, "path" | "ref") => PathKind::File,
        ("obsidianBookmarks", _, "file") => PathKind::File,
        (_, _, "file") => PathKind::NoteName,
        (_, _, "folder") => PathKind::Folder,
        ("obsidianBases", "base:create", "name") => PathKind::NoteName,
        _ => return value.to_string(),
    };
    if parameter == "ref" {
        let (path, line) = value.rsplit_once(':').expect("a ref that ran has a line");
        return format!(
            "{}:{}",
            normalised(parameter, path, kind).unwrap(),
            line.trim()
        );
    }
    let sent = normalised(parameter, value, kind).expect("a value that ran was accepted");
    // A new note's path gets the `.md` the CLI would add (issue 26, item 7).
    if (tool, command, parameter) == ("obsidianEdit", "create", "path") {
        return vault_agent::base::vault_path::new_note_path(&sent);
    }
    sent
}

/// The argv of the command itself: what ran, or what waits for approval (a
/// confirmed write only runs its read-only probe until the user approves).
fn command_argv(
    result: &vault_agent::ToolResult,
    requests: &[vault_agent::base::host::ProcessRequest],
    command: &str,
) -> Vec<String> {
    if result.pending.is_some() {
        return result
            .argv
            .clone()
            .expect("a pending result carries its argv");
    }
    requests
        .iter()
        .find(|r| r.args[0] == command)
        .map(|r| r.args.clone())
        .unwrap_or_else(|| {
            panic!(
                "{command} did not run: {} {:?}",
                result.text,
                requests.iter().map(|r| &r.args).collect::<Vec<_>>()
            )
        })
}

#[test]
fn hostile_json_types_are_refused_by_name() {
    for tool in builtin_tools() {
        for command in &tool.commands {
            let schema = command.arguments_schema();
            let base = base_arguments(tool.id, command.name);
            for parameter in string_parameters(&schema) {
                for value in hostile_json() {
                    let core = core();
                    let mut args = base.as_object().unwrap().clone();
                    args.insert("command".into(), json!(command.name));
                    args.insert(parameter.clone(), value.clone());
                    let result = block_on(core.call_tool(tool.id, &Value::Object(args)));
                    assert_eq!(
                        result.code(),
                        Some("invalid_arguments"),
                        "{} {} {parameter}={value}",
                        tool.id,
                        command.name
                    );
                    assert!(
                        result
                            .text
                            .contains(&format!("`{parameter}`: invalid type")),
                        "{}",
                        result.text
                    );
                    assert_eq!(core.host().process_count(), 0);
                }
            }
        }
    }
}

#[test]
fn undeclared_parameters_and_smuggled_commands_never_reach_argv() {
    for tool in builtin_tools() {
        for command in &tool.commands {
            let base = base_arguments(tool.id, command.name);
            for (key, value) in [
                ("vault", json!("Evil")),
                ("open", json!(true)),
                ("newtab", json!(true)),
                ("--copy", json!(true)),
                ("silent", json!(true)),
                ("paneType", json!("tab")),
                ("overwrite", json!(true)),
                ("permanent", json!(true)),
                ("code", json!("app.vault")),
                ("delete", json!(true)),
                ("command2", json!("delete")),
            ] {
                let core = core();
                let mut args = base.as_object().unwrap().clone();
                args.insert("command".into(), json!(command.name));
                args.insert(key.into(), value);
                let result = block_on(core.call_tool(tool.id, &Value::Object(args)));
                assert_eq!(
                    result.code(),
                    Some("invalid_arguments"),
                    "{} {} {key}",
                    tool.id,
                    command.name
                );
                assert!(
                    result.text.contains(&format!("unknown field `{key}`")),
                    "{}",
                    result.text
                );
                assert_eq!(core.host().process_count(), 0);
            }
        }
    }
}

/// `find` is answered from the core's index: a hostile query or cursor is
/// searched for or refused by name, and no process runs.
#[test]
fn find_values_never_reach_the_cli() {
    let (mut searched, mut refused) = (0, 0);
    for parameter in ["query", "cursor"] {
        for value in hostile_values() {
            let core = core();
            core.host().notes.borrow_mut().insert(
                "Plan.md".into(),
                "# Plan\n\nThe launch is in March.\n".into(),
            );
            let mut args = json!({"command": "find", "query": "launch"});
            args[parameter] = json!(value);
            let result = block_on(core.call_tool("obsidianSearch", &args));
            if result.ok {
                searched += 1;
            } else {
                assert_eq!(
                    result.code(),
                    Some("invalid_arguments"),
                    "{parameter}={value:?}: {}",
                    result.text
                );
                refused += 1;
            }
            assert_eq!(core.host().process_count(), 0, "{parameter}={value:?}");
        }
    }
    assert!(
        searched > 0 && refused > 0,
        "{searched} searched, {refused} refused"
    );
}

/// `edit` is computed in the core and written through the vault: hostile
/// values are refused by name, or they become a card (or a typed error)
/// without any process but the read that finds the note.
#[test]
fn edit_values_never_reach_the_cli() {
    let mut cards = 0;
    for (tool_id, command) in NOTE_EDITS {
        let tool = builtin_tools()
            .into_iter()
            .find(|t| t.id == *tool_id)
            .unwrap();
        let schema = tool.command(command).unwrap().arguments_schema();
        for parameter in string_parameters(&schema) {
            for value in hostile_values() {
                let core = core();
                let mut args = base_arguments(tool_id, command)
                    .as_object()
                    .unwrap()
                    .clone();
                args.insert("command".into(), json!(command));
                if parameter == "heading" || parameter == "content" {
                    args.remove("find");
                    args.remove("with");
                    args.insert("heading".into(), json!("Plan"));
                    args.insert("content".into(), json!("x"));
                }
                args.insert(parameter.clone(), json!(value));
                let result = block_on(core.call_tool(tool_id, &Value::Object(args)));
                for request in core.host().requests.borrow().iter() {
                    assert!(
                        matches!(request.args[0].as_str(), "file" | "read" | "backlinks"),
                        "{command} ran {:?}",
                        request.args
                    );
                }
                assert_eq!(
                    core.host().notes.borrow()["Plan.md"],
                    "# Plan\nok\n",
                    "nothing is written before a click"
                );
                if result.pending.is_some() {
                    cards += 1;
                } else {
                    assert!(!result.ok);
                    assert!(result.code().is_some(), "{}", result.text);
                }
            }
        }
    }
    assert!(cards > 100, "{cards}");
}

/// The hygiene checks are computed in the core: their own argv never runs.
/// A hostile value is refused by name, or it reaches the CLI only as the
/// listing's `folder=` (one element, literal after normalising), or it
/// stays in the core (`topic`, a note read through the vault).
#[test]
fn hygiene_values_reach_only_listings() {
    let tool = builtin_tools()
        .into_iter()
        .find(|t| t.id == "obsidianHygiene")
        .unwrap();
    let mut ran = 0;
    for command in &tool.commands {
        let schema = command.arguments_schema();
        for parameter in string_parameters(&schema) {
            for value in hostile_values() {
                let core = core();
                let mut args = base_arguments(tool.id, command.name)
                    .as_object()
                    .unwrap()
                    .clone();
                args.insert("command".into(), json!(command.name));
                if parameter == "file" || parameter == "topic" {
                    args.remove("path");
                }
                args.insert(parameter.clone(), json!(value));
                let result = block_on(core.call_tool(tool.id, &Value::Object(args)));
                let requests = core.host().requests.borrow();
                if requests.is_empty() && !result.ok {
                    let code = result.code().unwrap_or("none");
                    let shown: String = value.chars().take(40).collect();
                    if code == "invalid_arguments" {
                        assert!(
                            result.text.contains(&format!("`{parameter}`")),
                            "{} {parameter}={shown:?}: {}",
                            command.name,
                            result.text
                        );
                    } else {
                        // The configuration folder, or a listing the OS could not take;
                        // or (`suggest`, which asks the search index, not a listing) a
                        // note the vault does not have.
                        assert!(
                            matches!(
                                code,
                                "config_folder" | "too_large_for_cli" | "note_not_found"
                            ),
                            "{} {parameter}={shown:?}: {code}",
                            command.name
                        );
                    }
                    continue;
                }
                ran += 1;
                for request in requests.iter() {
                    let argv = &request.args;
                    match argv[0].as_str() {
                        "files" => {
                            let folder = argv.iter().find(|a| a.starts_with("folder="));
                            let expected = 2 + usize::from(folder.is_some());
                            assert_eq!(argv.len(), expected, "{argv:?}");
                            assert_eq!(argv.last().map(String::as_str), Some("ext=md"));
                            if parameter == "folder" {
                                let sent =
                                    &folder.expect("the folder is listed")["folder=".len()..];
                                let expected =
                                    as_normalised(tool.id, command.name, "folder", &value);
                                assert_eq!(sent, escape_value("folder", &expected).unwrap());
                            }
                        }
                        "unresolved" => assert_eq!(argv, &["unresolved", "verbose"]),
                        // A note named by name is looked up first.
                        "file" => assert_eq!(argv.len(), 2, "{argv:?}"),
                        other => panic!("{} ran {other}: {argv:?}", command.name),
                    }
                }
            }
        }
    }
    assert!(ran > 300, "{ran}");
}
