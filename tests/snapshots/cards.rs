//! Every kind of confirmation card: each tool's confirmed write, a note
//! edit, the organise moves, renames and deletions (`via: files`: Obsidian
//! acts only on notes that still read as the card showed them), a card that
//! went stale and asks again, a call the model wrote as text, and a card an
//! outside agent raised.

use serde_json::{json, Value};
use vault_agent::base::card::ConfirmationCard;
use vault_agent::doors::chat::conversation::Conversation;
use vault_agent::doors::chat::events::{ChatEvent, ChatEvents, TurnEnd};
use vault_agent::settings::PermissionMode;
use vault_agent::testing::{block_on, ScriptedHttp};
use vault_agent::ToolResult;

use crate::render_card;
use crate::vault::{call, core, Core};

fn card_of(core: &Core, result: &ToolResult) -> ConfirmationCard {
    let pending = result
        .pending
        .as_ref()
        .unwrap_or_else(|| panic!("no card: {}", result.text));
    core.confirmation_card(&pending.id).expect("the card")
}

/// The card `args` raises under Ask before every change.
fn card(tool: &str, args: Value) -> String {
    let core = core(Value::Null);
    render_card(&card_of(&core, &call(&core, tool, args)))
}

#[test]
fn edit_create() {
    insta::assert_snapshot!(card(
        "obsidianEdit",
        json!({"command": "create", "path": "Projects/Launch", "content": "# Launch\nOn 1 December."}),
    ));
}

#[test]
fn edit_create_next_to_a_similar_title() {
    insta::assert_snapshot!(card(
        "obsidianEdit",
        json!({"command": "create", "path": "Inbox/Roadmaps.md", "content": "# Roadmaps"}),
    ));
}

#[test]
fn edit_append() {
    insta::assert_snapshot!(card(
        "obsidianEdit",
        json!({"command": "append", "file": "Plan", "content": "- [ ] Book the venue"}),
    ));
}

#[test]
fn edit_prepend() {
    insta::assert_snapshot!(card(
        "obsidianEdit",
        json!({"command": "prepend", "path": "Inbox/Idea.md", "content": "Status: new"}),
    ));
}

#[test]
fn note_edit_find_and_replace() {
    insta::assert_snapshot!(card(
        "obsidianEdit",
        json!({"command": "edit", "file": "Plan", "find": "The vendor is late.", "with": "The vendor shipped on time."}),
    ));
}

#[test]
fn note_edit_of_a_section() {
    insta::assert_snapshot!(card(
        "obsidianEdit",
        json!({"command": "edit", "path": "Projects/Plan.md", "heading": "Risks", "content": "None left."}),
    ));
}

#[test]
fn daily_append() {
    insta::assert_snapshot!(card(
        "obsidianDailyNote",
        json!({"command": "daily:append", "content": "- [ ] Call Alice"}),
    ));
}

#[test]
fn task_done() {
    insta::assert_snapshot!(card(
        "obsidianTasks",
        json!({"command": "task", "ref": "Projects/Plan.md:9", "done": true}),
    ));
}

#[test]
fn property_set() {
    insta::assert_snapshot!(card(
        "obsidianProperties",
        json!({"command": "property:set", "name": "status", "value": "done", "file": "Plan"}),
    ));
}

#[test]
fn property_remove() {
    insta::assert_snapshot!(card(
        "obsidianProperties",
        json!({"command": "property:remove", "name": "status", "file": "Plan"}),
    ));
}

#[test]
fn tag_add() {
    insta::assert_snapshot!(card(
        "obsidianTags",
        json!({"command": "tag:add", "tag": "launch", "file": "Plan"}),
    ));
}

#[test]
fn tag_remove() {
    insta::assert_snapshot!(card(
        "obsidianTags",
        json!({"command": "tag:remove", "tag": "project", "path": "Projects/Roadmap.md"}),
    ));
}

#[test]
fn bookmark() {
    insta::assert_snapshot!(card(
        "obsidianBookmarks",
        json!({"command": "bookmark", "url": "https://example.com/launch", "title": "Launch page"}),
    ));
}

#[test]
fn base_create() {
    insta::assert_snapshot!(card(
        "obsidianBases",
        json!({"command": "base:create", "file": "Projects", "name": "Launch", "content": "status: draft"}),
    ));
}

#[test]
fn organise_move() {
    insta::assert_snapshot!(card(
        "obsidianOrganise",
        json!({"command": "move", "paths": ["Inbox/Idea.md", "Projects/Roadmap.md"], "to": "Archive/2026"}),
    ));
}

#[test]
fn organise_rename() {
    insta::assert_snapshot!(card(
        "obsidianOrganise",
        json!({"command": "rename", "file": "Plan", "name": "Q3 plan"}),
    ));
}

#[test]
fn organise_delete() {
    insta::assert_snapshot!(card(
        "obsidianOrganise",
        json!({"command": "delete", "path": "Inbox/Idea.md"}),
    ));
}

/// The note changed between the card and the click: the approval runs
/// nothing, the model reads why, and a fresh card asks again (when the call
/// still fits the note).
fn stale(tool: &str, args: Value, path: &str, now: &str) -> String {
    let core = core(Value::Null);
    let first = card_of(&core, &call(&core, tool, args));
    core.host()
        .notes
        .borrow_mut()
        .insert(path.to_string(), now.to_string());
    let result = block_on(core.approve(&first.id, &first.argv_hash));
    assert_eq!(result.code(), Some("stale"), "{}", result.text);
    match result.pending {
        Some(_) => format!(
            "result: {}\n\nthe fresh card:\n{}",
            result.text,
            render_card(&card_of(&core, &result))
        ),
        None => format!("result: {}\n\n(no fresh card)", result.text),
    }
}

#[test]
fn stale_note_edit_asks_again() {
    insta::assert_snapshot!(stale(
        "obsidianEdit",
        json!({"command": "edit", "file": "Plan", "find": "Ship the beta.", "with": "Ship 1.0."}),
        "Projects/Plan.md",
        &crate::vault::NOTES[0]
            .1
            .replace("status: active", "status: paused"),
    ));
}

#[test]
fn stale_note_edit_that_no_longer_fits() {
    insta::assert_snapshot!(stale(
        "obsidianEdit",
        json!({"command": "edit", "file": "Plan", "find": "Ship the beta.", "with": "Ship 1.0."}),
        "Projects/Plan.md",
        "---\nstatus: active\ntags: [plan]\n---\n# Plan\nShip the beta soon.\n",
    ));
}

#[test]
fn stale_move_asks_again() {
    insta::assert_snapshot!(stale(
        "obsidianOrganise",
        json!({"command": "move", "path": "Inbox/Idea.md", "to": "Archive"}),
        "Inbox/Idea.md",
        "An idea for [[Plan]], rewritten\n",
    ));
}

#[derive(Default)]
struct Cards(std::cell::RefCell<Vec<ConfirmationCard>>);

impl ChatEvents for Cards {
    fn emit(&self, event: ChatEvent) {
        if let ChatEvent::ConfirmationNeeded { card, .. } = event {
            self.0.borrow_mut().push(*card);
        }
    }
}

/// The chat's model printed the call as text (a profile that takes text
/// calls): even in Ask before edits, where a plain append runs at once, the
/// write waits for a card, and the card says it came as text.
#[test]
fn a_call_written_as_text() {
    let core = core(json!({
        "permissionMode": "askBeforeEdits",
        "chat": {"openai": {"textToolCalls": true}}
    }));
    let printed = r#"{"name": "obsidianEdit", "arguments": {"command": "append", "file": "Plan", "content": "- [ ] Book the venue"}}"#;
    let body = format!(
        "data: {}\n\ndata: [DONE]\n\n",
        json!({"choices": [{"delta": {"content": printed}}]})
    );
    core.host().script_http(ScriptedHttp::Response {
        status: 200,
        chunks: vec![body.into_bytes()],
    });
    let cards = Cards::default();
    let mut chat = Conversation::new("c1".into(), 0.0);
    assert_eq!(
        block_on(core.chat.send(&mut chat, "add the venue task", &cards)),
        TurnEnd::AwaitingConfirmation
    );
    let card = cards.0.borrow().first().cloned().expect("a card");
    insta::assert_snapshot!(render_card(&card));
}

/// An agent outside Obsidian (the plugin's CLI commands, MCP) asked: the
/// card names it.
#[test]
fn an_outside_requester() {
    let core = core(json!({"permissionMode": "askBeforeEdits"}));
    let result = block_on(core.call_tool_through(
        "obsidianOrganise",
        &json!({"command": "delete", "paths": ["Inbox/Idea.md", "Private/Diary.md"]}),
        "Claude Code",
        Some(PermissionMode::AskBeforeEdits),
        None,
    ));
    insta::assert_snapshot!(render_card(&card_of(&core, &result)));
}

/// An outside agent asked for a new note: the card says it makes one, not
/// that it changes a "new note".
#[test]
fn an_outside_requester_making_a_note() {
    let core = core(json!({"permissionMode": "askEveryChange"}));
    let result = block_on(core.call_tool_through(
        "obsidianEdit",
        &json!({"command": "create", "path": "Inbox/Ideas.md", "content": "- first idea"}),
        "Claude Code",
        Some(PermissionMode::AskEveryChange),
        None,
    ));
    insta::assert_snapshot!(render_card(&card_of(&core, &result)));
}
