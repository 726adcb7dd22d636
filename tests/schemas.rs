//! The argument schemas are generated ahead, natively, into
//! `src/tools/schemas.json`, which the core reads at run time (the wasm then
//! carries no schemars code). These tests fail when that file is stale and
//! check that the model and MCP clients see exactly the schemas schemars
//! derives. `VAULT_AGENT_WRITE_SCHEMAS=1 cargo test --release --test schemas`
//! rewrites the file.
#![cfg(not(target_arch = "wasm32"))]

use std::path::Path;

use serde_json::{Map, Value};
use vault_agent::tools::builtin_tools;

const SCHEMAS_FILE: &str = "src/tools/schemas.json";

/// What `schemas.json` must hold: each argument type's schema, in registry order.
fn derived_schemas() -> String {
    let mut schemas = Map::new();
    for tool in builtin_tools() {
        for command in &tool.commands {
            schemas.insert(
                command.arguments_type().to_string(),
                command.generated_arguments_schema(),
            );
        }
    }
    format!(
        "{}\n",
        serde_json::to_string_pretty(&Value::Object(schemas)).unwrap()
    )
}

#[test]
fn schemas_json_is_what_schemars_derives() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(SCHEMAS_FILE);
    let derived = derived_schemas();
    if std::env::var_os("VAULT_AGENT_WRITE_SCHEMAS").is_some() {
        std::fs::write(&path, &derived).unwrap();
    }
    let checked_in = std::fs::read_to_string(&path).unwrap();
    assert!(
        checked_in == derived,
        "{SCHEMAS_FILE} is stale: regenerate it with \
         VAULT_AGENT_WRITE_SCHEMAS=1 cargo test --release --test schemas"
    );
}

#[test]
fn every_command_reads_the_schema_schemars_derives() {
    let mut commands = 0;
    for tool in builtin_tools() {
        for command in &tool.commands {
            // Compared as text: key order is part of what the model reads.
            assert_eq!(
                command.arguments_schema().to_string(),
                command.generated_arguments_schema().to_string(),
                "{} {}",
                tool.id,
                command.name
            );
            commands += 1;
        }
    }
    assert!(commands >= 40, "only {commands} commands");
}

#[test]
fn tool_schemas_are_those_schemars_gives() {
    for tool in builtin_tools() {
        let schema = tool.input_schema();
        assert_eq!(
            schema.to_string(),
            tool.input_schema_generated().to_string(),
            "{}",
            tool.id
        );
        assert!(
            schema["properties"]
                .as_object()
                .is_some_and(|p| p.len() > 1),
            "{}",
            tool.id
        );
    }
}
