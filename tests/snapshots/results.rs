//! Tool results as the chat's model reads them (`agent::prompt::for_model`:
//! inside one `<vault-data>` element, capped, with the withheld count): one
//! per tool, among them reads, a write that ran, writes refused by the mode,
//! by the folder scopes and by the configuration folder, entries withheld by
//! the scopes, a cut answer; and the pending result another plugin gets
//! while a card waits, with what the model reads once the user answered.

use serde_json::{json, Value};
use vault_agent::doors::chat::prompt::for_model;
use vault_agent::testing::block_on;
use vault_agent::ToolResult;

use crate::vault::{call, core, Core};

/// What the model reads for this call, under these settings.
fn read_by_model(core: &Core, tool: &str, args: Value) -> String {
    let result = call(core, tool, args.clone());
    model_text(core, tool, &args, &result)
}

fn model_text(core: &Core, tool: &str, args: &Value, result: &ToolResult) -> String {
    let cap = core.settings().chat.tool_result_cap_chars as usize;
    for_model(
        tool,
        args.get("command").and_then(Value::as_str),
        result,
        cap,
    )
}

fn in_mode(mode: &str) -> Core {
    core(json!({"permissionMode": mode}))
}

#[test]
fn notes_read() {
    insta::assert_snapshot!(read_by_model(
        &in_mode("readOnly"),
        "obsidianNotes",
        json!({"command": "read", "file": "Plan"}),
    ));
}

#[test]
fn edit_append_that_ran() {
    insta::assert_snapshot!(read_by_model(
        &in_mode("askBeforeEdits"),
        "obsidianEdit",
        json!({"command": "append", "file": "Plan", "content": "- [ ] Book the venue"}),
    ));
}

#[test]
fn search_with_entries_withheld_by_the_read_folders() {
    let core = core(json!({"permissionMode": "readOnly", "readFolders": ["Projects", "Inbox"]}));
    insta::assert_snapshot!(read_by_model(
        &core,
        "obsidianSearch",
        json!({"command": "search", "query": "plan"}),
    ));
}

#[test]
fn daily_append_refused_in_read_only() {
    insta::assert_snapshot!(read_by_model(
        &in_mode("readOnly"),
        "obsidianDailyNote",
        json!({"command": "daily:append", "content": "- [ ] Call Alice"}),
    ));
}

#[test]
fn tasks_of_the_vault() {
    insta::assert_snapshot!(read_by_model(
        &in_mode("readOnly"),
        "obsidianTasks",
        json!({"command": "tasks", "all": true, "todo": true}),
    ));
}

#[test]
fn properties_of_a_note() {
    insta::assert_snapshot!(read_by_model(
        &in_mode("readOnly"),
        "obsidianProperties",
        json!({"command": "properties", "file": "Plan"}),
    ));
}

#[test]
fn links_backlinks() {
    insta::assert_snapshot!(read_by_model(
        &in_mode("readOnly"),
        "obsidianLinks",
        json!({"command": "backlinks", "file": "Plan"}),
    ));
}

#[test]
fn tags_with_counts() {
    insta::assert_snapshot!(read_by_model(
        &in_mode("readOnly"),
        "obsidianTags",
        json!({"command": "tags", "all": true, "counts": true}),
    ));
}

#[test]
fn template_read() {
    insta::assert_snapshot!(read_by_model(
        &in_mode("readOnly"),
        "obsidianTemplates",
        json!({"command": "template:read", "name": "Meeting"}),
    ));
}

#[test]
fn bases_query() {
    insta::assert_snapshot!(read_by_model(
        &in_mode("readOnly"),
        "obsidianBases",
        json!({"command": "base:query", "file": "Projects"}),
    ));
}

#[test]
fn bookmarks_list() {
    insta::assert_snapshot!(read_by_model(
        &in_mode("readOnly"),
        "obsidianBookmarks",
        json!({"command": "bookmarks"}),
    ));
}

#[test]
fn random_read() {
    insta::assert_snapshot!(read_by_model(
        &in_mode("readOnly"),
        "obsidianRandomRead",
        json!({"command": "random:read", "folder": "Inbox"}),
    ));
}

#[test]
fn organise_delete_refused_outside_the_write_folders() {
    let core = core(json!({"writeFolders": ["Projects"]}));
    insta::assert_snapshot!(read_by_model(
        &core,
        "obsidianOrganise",
        json!({"command": "delete", "path": "Inbox/Idea.md"}),
    ));
}

#[test]
fn hygiene_missing_links() {
    insta::assert_snapshot!(read_by_model(
        &in_mode("readOnly"),
        "obsidianHygiene",
        json!({"command": "missing"}),
    ));
}

#[test]
fn a_write_into_the_configuration_folder() {
    insta::assert_snapshot!(read_by_model(
        &in_mode("askBeforeEdits"),
        "obsidianEdit",
        json!({"command": "create", "path": ".obsidian/plugins/x/data.json", "content": "{}"}),
    ));
}

#[test]
fn arguments_the_model_must_fix() {
    insta::assert_snapshot!(read_by_model(
        &in_mode("readOnly"),
        "obsidianNotes",
        json!({"command": "read", "file": "Plan", "vault": "Other"}),
    ));
}

#[test]
fn a_cut_answer() {
    let core = core(json!({"permissionMode": "readOnly", "chat": {"toolResultCapChars": 1000}}));
    let args = json!({"command": "read", "file": "Diary"});
    core.host().notes.borrow_mut().insert(
        "Private/Diary.md".into(),
        (1..=40)
            .map(|n| format!("Line {n}: the quick brown fox.\n"))
            .collect(),
    );
    insta::assert_snapshot!(read_by_model(&core, "obsidianNotes", args));
}

/// A confirmed write: what another plugin (`plugin.api`) gets while the card
/// waits, then what the model reads once the user approved or rejected.
#[test]
fn a_pending_write_then_its_answers() {
    let core = in_mode("askBeforeEdits");
    let args =
        json!({"command": "property:set", "name": "status", "value": "done", "file": "Plan"});
    let pending = call(&core, "obsidianProperties", args.clone());
    let mut shown = serde_json::to_value(&pending).unwrap();
    shown.as_object_mut().unwrap().remove("durationMs");
    let card = core
        .confirmation_card(&pending.pending.as_ref().unwrap().id)
        .unwrap();
    let approved = block_on(core.approve(&card.id, &card.argv_hash));
    let again = call(&core, "obsidianProperties", args.clone());
    let rejected = core.reject(&again.pending.as_ref().unwrap().id);
    insta::assert_snapshot!(format!(
        "pending (plugin.api):\n{}\n\napproved (the model):\n{}\n\nrejected (the model):\n{}",
        serde_json::to_string_pretty(&shown).unwrap(),
        model_text(&core, "obsidianProperties", &args, &approved),
        model_text(&core, "obsidianProperties", &args, &rejected),
    ));
}
