//! The registry as a whole: ids, names, schemas, and rules every tool follows.

use serde_json::{json, Value};
use vault_agent::tools::{builtin_tools, is_excluded, EXCLUDED_COMMANDS};

#[test]
fn every_tool_is_well_formed() {
    let tools = builtin_tools();
    let mut ids: Vec<&str> = tools.iter().map(|t| t.id).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), tools.len(), "tool ids are unique");
    for tool in &tools {
        assert!(tool.id.starts_with("obsidian"), "{}", tool.id);
        // One name per tool, the same in the settings and the chat: no
        // "(CLI)" that the chat's "(Obsidian's vault)" would contradict.
        assert!(
            !tool.display_name.contains('(') && !tool.display_name.is_empty(),
            "{}",
            tool.display_name
        );
        assert!(!tool.description.is_empty() && !tool.guidance.is_empty());
        // The settings describe it in the user's words, short enough for two lines.
        let summary = vault_agent::tools::user_summary(tool.id);
        assert!(
            !summary.is_empty() && summary.chars().count() <= 72,
            "{}: {summary:?}",
            tool.id
        );
        assert!(
            !summary.contains("the user") && !summary.contains("approves"),
            "{summary}"
        );
        assert!(!tool.commands.is_empty());
        for command in &tool.commands {
            assert!(
                !is_excluded(command.name),
                "{} exposes excluded {}",
                tool.id,
                command.name
            );
            assert!(command.summary.ends_with('.'), "{}", command.summary);
        }
    }
}

#[test]
fn every_example_is_a_valid_read() {
    for tool in builtin_tools() {
        let call = tool
            .parse_call(&tool.example)
            .unwrap_or_else(|e| panic!("{}: {e}", tool.id));
        // A tool that only writes (obsidianEdit) shows a write; every other
        // tool's example must be safe to run as is.
        let has_reads = tool.commands.iter().any(|c| !c.access.is_write());
        assert!(
            !has_reads || !call.command.access.is_write(),
            "{} example must not write",
            tool.id
        );
    }
}

#[test]
fn schemas_are_flat_objects_generated_from_the_types() {
    for tool in builtin_tools() {
        let schema = tool.input_schema();
        assert_eq!(schema["type"], "object", "{}", tool.id);
        assert_eq!(schema["additionalProperties"], false);
        let commands: Vec<&str> = schema["properties"]["command"]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(commands, tool.command_names(), "{}", tool.id);
        for (name, property) in schema["properties"].as_object().unwrap() {
            assert!(
                property["description"]
                    .as_str()
                    .is_some_and(|d| !d.is_empty()),
                "{}.{name}",
                tool.id
            );
            assert!(
                !serde_json::to_string(property).unwrap().contains("$ref"),
                "{}.{name} inlined",
                tool.id
            );
        }
    }
}

#[test]
fn random_read_schema_comes_from_its_doc_comments() {
    let tool = builtin_tools()
        .into_iter()
        .find(|t| t.id == "obsidianRandomRead")
        .unwrap();
    let schema = tool.input_schema();
    let folder = &schema["properties"]["folder"];
    assert!(folder["description"]
        .as_str()
        .unwrap()
        .starts_with("Only pick from this folder"));
    assert_eq!(folder["type"], json!(["string", "null"]));
    assert_eq!(
        schema["required"],
        json!([]),
        "single command: `command` may be omitted"
    );
}

/// A field several commands share but describe differently (`limit`: 8 and
/// at most 50 for `find`, 20 and at most 200 for `search`) says so per
/// command; the first command's default and bound are not given to all.
#[test]
fn a_shared_field_described_differently_says_so_per_command() {
    let tool = builtin_tools()
        .into_iter()
        .find(|t| t.id == "obsidianSearch")
        .unwrap();
    let schema = tool.input_schema();
    let limit = &schema["properties"]["limit"];
    let text = limit["description"].as_str().unwrap();
    assert!(text.starts_with("For find: "), "{text}");
    assert!(text.contains("For search, search:context: "), "{text}");
    assert!(text.contains("default 20, at most 200"), "{text}");
    assert!(!text.contains("For: "), "{text}");
    assert_eq!(limit.get("maximum"), None, "the bounds differ: {limit}");
    assert_eq!(limit.get("default"), None, "the defaults differ: {limit}");
    assert_eq!(limit["minimum"], json!(1), "the same for every command");
    // One description for all: as before, with the commands that take it.
    let cursor = schema["properties"]["cursor"]["description"]
        .as_str()
        .unwrap();
    assert!(cursor.ends_with("For: find."), "{cursor}");
}

#[test]
fn every_command_refuses_unknown_fields() {
    for tool in builtin_tools() {
        for command in &tool.commands {
            let args = json!({"command": command.name, "definitely_not_a_parameter": "x"});
            let err = tool
                .parse_call(&args)
                .err()
                .unwrap_or_else(|| panic!("{} {}", tool.id, command.name));
            assert_eq!(err.code(), "invalid_arguments");
            assert!(
                err.to_string().contains("definitely_not_a_parameter"),
                "{err}"
            );
        }
    }
}

#[test]
fn excluded_list_matches_families_and_exact_names() {
    for command in [
        "unique",
        "plugin:enable",
        "plugin",
        "plugins:restrict",
        "sync",
        "sync:restore",
        "dev:eval",
        "eval",
        "template:insert",
        "workspace:load",
        "history",
    ] {
        assert!(is_excluded(command), "{command}");
    }
    for command in [
        "daily:read",
        "tasks",
        "template:read",
        "search",
        "properties",
        "read",
        // obsidianOrganise's, through Obsidian's file manager after a card.
        "move",
        "rename",
        "delete",
    ] {
        assert!(!is_excluded(command), "{command}");
    }
    assert!(EXCLUDED_COMMANDS.len() >= 20);
}

#[test]
fn null_parameters_count_as_absent() {
    let tool = builtin_tools()
        .into_iter()
        .find(|t| t.id == "obsidianRandomRead")
        .unwrap();
    let call = tool
        .parse_call(&json!({"command": "random:read", "folder": Value::Null}))
        .unwrap();
    assert_eq!(
        call.invocation(None).unwrap().to_argv().unwrap(),
        ["random:read"]
    );
}
