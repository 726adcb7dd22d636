//! Moving, renaming and deleting notes through the core with a fake vault:
//! one card for the whole request (what goes where, first lines, links),
//! nothing before the click, each note acted on only as the card showed it,
//! one journal entry, and an undo that puts every note back exactly.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use serde_json::{json, Value};
use vault_agent::base::host::{Os, ProcessOutcome};
use vault_agent::testing::{block_on, FakeHost};
use vault_agent::{ToolResult, VaultAgent};

type Notes = Rc<RefCell<HashMap<String, String>>>;

fn param(args: &[String], key: &str) -> Option<String> {
    args.iter()
        .find_map(|a| a.strip_prefix(&format!("{key}=")))
        .map(str::to_string)
}

/// A vault of three notes; the fake CLI resolves names and counts backlinks
/// (notes whose text holds `[[Name]]`).
fn core(settings: Value) -> (VaultAgent<FakeHost>, Notes) {
    let mut host = FakeHost::new(Os::Linux, |_| ProcessOutcome::success(""));
    host.env.insert("PATH".into(), "/usr/bin".into());
    host.add_executable("/usr/bin/obsidian");
    let notes = host.notes.clone();
    for (path, text) in [
        ("Inbox/Plan.md", "# Plan\nShip it\n"),
        ("Inbox/Idea.md", "An idea\n"),
        ("Projects/Roadmap.md", "See [[Plan]] and [[Plan]]\n"),
    ] {
        notes.borrow_mut().insert(path.into(), text.into());
    }
    let shared = notes.clone();
    host.respond_with(move |request| {
        let args = &request.args;
        let notes = shared.borrow();
        let name_of = |p: &str| {
            p.rsplit('/')
                .next()
                .unwrap()
                .trim_end_matches(".md")
                .to_string()
        };
        let answer = match args[0].as_str() {
            "file" => {
                let wanted = param(args, "file");
                match notes.keys().find(|p| Some(name_of(p)) == wanted) {
                    Some(p) => format!("path\t{p}\nname\t{}\nextension\tmd", name_of(p)),
                    None => "Error: File not found.".into(),
                }
            }
            "backlinks" => {
                let target = name_of(&param(args, "path").unwrap());
                let link = format!("[[{target}]]");
                notes
                    .values()
                    .filter(|t| t.contains(&link))
                    .count()
                    .to_string()
            }
            _ => "ok".into(),
        };
        ProcessOutcome::success(&answer)
    });
    let settings = match settings {
        Value::Object(mut map) => {
            map.entry("permissionMode")
                .or_insert(json!("askBeforeEdits"));
            Value::Object(map)
        }
        _ => json!({"permissionMode": "askBeforeEdits"}),
    };
    (VaultAgent::new(host, &settings).0, notes)
}

fn call(core: &VaultAgent<FakeHost>, args: Value) -> ToolResult {
    block_on(core.call_tool("obsidianOrganise", &args))
}

fn approve(core: &VaultAgent<FakeHost>, result: &ToolResult) -> ToolResult {
    let pending = result
        .pending
        .as_ref()
        .unwrap_or_else(|| panic!("no card: {}", result.text));
    let card = core.confirmation_card(&pending.id).unwrap();
    block_on(core.approve(&card.id, &card.argv_hash))
}

fn paths(notes: &Notes) -> Vec<String> {
    let mut all: Vec<String> = notes.borrow().keys().cloned().collect();
    all.sort();
    all
}

#[test]
fn a_bulk_move_is_one_card_then_one_change_then_one_undo() {
    let (core, notes) = core(json!({}));
    let before = notes.borrow().clone();
    let card = call(
        &core,
        json!({"command": "move", "paths": ["Inbox/Plan.md", "Inbox/Idea.md"], "to": "Archive/2026"}),
    );
    let pending = card.pending.as_ref().expect("a card");
    assert_eq!(pending.summary, "Move 2 notes");
    assert_eq!(
        pending.preview.before,
        "Inbox/Plan.md (1 note links here)\nInbox/Idea.md (no note links here)"
    );
    assert!(
        pending.preview.after.starts_with(
            "Archive/2026/Plan.md\nArchive/2026/Idea.md\nObsidian will update the links"
        ),
        "{}",
        pending.preview.after
    );
    assert_eq!(*notes.borrow(), before, "nothing moves before the click");
    let done = approve(&core, &card);
    assert!(done.ok, "{}", done.text);
    assert_eq!(
        paths(&notes),
        [
            "Archive/2026/Idea.md",
            "Archive/2026/Plan.md",
            "Projects/Roadmap.md"
        ]
    );
    assert_eq!(notes.borrow()["Archive/2026/Plan.md"], "# Plan\nShip it\n");
    // Labelled by what ran it, in the result and in the outcome kept for the card.
    let ran = done.ran.clone().expect("the vault ran it");
    assert_eq!(
        (ran.label.as_str(), ran.by.as_str()),
        ("Organise notes", "Obsidian's vault")
    );
    let kept = core
        .confirmation_outcome(&pending.id)
        .expect("the kept outcome");
    assert_eq!(kept.ran, Some(ran));
    let entry = done.journal.expect("journaled");
    assert!(entry.undoable);
    let undone = block_on(core.undo(&entry.entry, None));
    assert!(undone.ok, "{}", undone.text);
    assert_eq!(*notes.borrow(), before, "every note is back, exactly");
    assert_eq!(
        block_on(core.undo(&entry.entry, None)).code(),
        Some("already_undone")
    );
}

#[test]
fn rename_keeps_the_folder_and_the_extension() {
    let (core, notes) = core(json!({}));
    let card = call(
        &core,
        json!({"command": "rename", "file": "Plan", "name": "Q3 plan"}),
    );
    let pending = card.pending.as_ref().expect("a card");
    assert!(
        pending.preview.after.starts_with("Inbox/Q3 plan.md\n"),
        "{}",
        pending.preview.after
    );
    assert!(approve(&core, &card).ok);
    assert!(notes.borrow().contains_key("Inbox/Q3 plan.md"));
    assert!(!notes.borrow().contains_key("Inbox/Plan.md"));
}

#[test]
fn the_card_warns_when_obsidian_will_not_update_links() {
    let mut host = FakeHost::linux_with_cli("1");
    host.links_update = Some(false);
    host.notes
        .borrow_mut()
        .insert("Inbox/Plan.md".into(), "# Plan\n".into());
    let core = VaultAgent::new(host, &json!({"permissionMode": "askEveryChange"})).0;
    let card = call(
        &core,
        json!({"command": "move", "path": "Inbox/Plan.md", "to": "Archive"}),
    );
    let after = &card.pending.as_ref().expect("a card").preview.after;
    assert!(after.contains("will NOT update the links"), "{after}");
}

#[test]
fn delete_goes_to_the_trash_and_undo_makes_the_note_again_with_its_exact_text() {
    let (core, notes) = core(json!({}));
    let card = call(&core, json!({"command": "delete", "path": "Inbox/Plan.md"}));
    let preview = &card.pending.as_ref().expect("a card").preview;
    assert_eq!(
        preview.before,
        "Inbox/Plan.md (1 note links here)\n  # Plan\n  Ship it"
    );
    assert!(preview.after.contains("in the trash"));
    let done = approve(&core, &card);
    assert!(done.ok, "{}", done.text);
    assert!(!notes.borrow().contains_key("Inbox/Plan.md"));
    assert_eq!(core.host().trash.borrow()[0].0, "Inbox/Plan.md");
    let undone = block_on(core.undo(&done.journal.unwrap().entry, None));
    assert!(undone.ok, "{}", undone.text);
    assert_eq!(notes.borrow()["Inbox/Plan.md"], "# Plan\nShip it\n");
}

#[test]
fn a_note_changed_after_the_card_is_not_moved_and_a_fresh_card_replaces_it() {
    let (core, notes) = core(json!({}));
    let card = call(
        &core,
        json!({"command": "move", "paths": ["Inbox/Plan.md", "Inbox/Idea.md"], "to": "Archive"}),
    );
    notes
        .borrow_mut()
        .insert("Inbox/Idea.md".into(), "An idea, typed into since\n".into());
    let result = approve(&core, &card);
    assert_eq!(result.code(), Some("stale"), "{}", result.text);
    assert!(result.pending.is_some(), "a fresh card");
    assert!(
        notes.borrow().contains_key("Inbox/Plan.md"),
        "nothing moved, not even the unchanged one"
    );
}

#[test]
fn refusals_are_typed_and_move_nothing() {
    let (core, notes) = core(json!({}));
    let before = notes.borrow().clone();
    for (args, code) in [
        (
            json!({"command": "move", "path": "Inbox/Plan.md", "to": "Projects/../.."}),
            "invalid_arguments",
        ),
        (
            json!({"command": "move", "path": "Inbox/Plan.md", "to": ".obsidian/plugins"}),
            "config_folder",
        ),
        (
            json!({"command": "move", "path": "Inbox/Plan.md", "to": "Inbox"}),
            "nothing_to_change",
        ),
        (
            json!({"command": "rename", "path": "Inbox/Plan.md", "name": "Idea"}),
            "note_exists",
        ),
        (
            json!({"command": "rename", "path": "Inbox/Plan.md", "name": "Sub/Idea"}),
            "invalid_arguments",
        ),
        (
            json!({"command": "delete", "path": "Inbox/Nothing.md"}),
            "note_not_found",
        ),
        (
            json!({"command": "delete", "paths": ["Inbox/Plan.md", "Inbox/Plan.md"]}),
            "invalid_arguments",
        ),
        (
            json!({"command": "delete", "path": "Inbox/Plan.md", "permanent": true}),
            "invalid_arguments",
        ),
        (json!({"command": "delete"}), "invalid_arguments"),
    ] {
        let result = call(&core, args.clone());
        assert_eq!(result.code(), Some(code), "{args}: {}", result.text);
    }
    assert_eq!(*notes.borrow(), before);
    // Read only refuses before anything runs; folder scopes hold.
    let (read_only, _) = self::core(json!({"permissionMode": "readOnly"}));
    let refused = call(
        &read_only,
        json!({"command": "delete", "path": "Inbox/Plan.md"}),
    );
    assert_eq!(refused.code(), Some("writes_disabled"));
    assert_eq!(read_only.host().process_count(), 0);
    let (scoped, _) = self::core(json!({"writeFolders": ["Inbox"]}));
    let out = call(
        &scoped,
        json!({"command": "move", "path": "Inbox/Plan.md", "to": "Archive"}),
    );
    assert_eq!(out.code(), Some("out_of_scope"), "{}", out.text);
    let inside = call(
        &scoped,
        json!({"command": "move", "path": "Inbox/Plan.md", "to": "Inbox/Done"}),
    );
    assert!(inside.pending.is_some(), "{}", inside.text);
}

/// The organiser's own check, on its own: a note named by name is placed
/// only once the CLI resolved it, so neither the policy's places nor its
/// parameters (`file=Secret`) can see that it lies in the configuration folder.
#[test]
fn a_name_that_resolves_into_the_config_folder_is_never_moved() {
    let (core, notes) = core(json!({}));
    notes
        .borrow_mut()
        .insert(".obsidian/Secret.md".into(), "token\n".into());
    let before = notes.borrow().clone();
    for args in [
        json!({"command": "move", "file": "Secret", "to": "Archive"}),
        json!({"command": "rename", "file": "Secret", "name": "Open"}),
        json!({"command": "delete", "file": "Secret"}),
    ] {
        let result = call(&core, args.clone());
        assert_eq!(
            result.code(),
            Some("config_folder"),
            "{args}: {}",
            result.text
        );
        assert!(result.pending.is_none());
    }
    assert_eq!(*notes.borrow(), before);
}

#[test]
fn undo_refuses_when_something_else_took_the_old_place() {
    let (core, notes) = core(json!({}));
    let done = approve(
        &core,
        &call(
            &core,
            json!({"command": "rename", "path": "Inbox/Idea.md", "name": "Thought"}),
        ),
    );
    assert!(done.ok, "{}", done.text);
    notes
        .borrow_mut()
        .insert("Inbox/Idea.md".into(), "A new note the user made\n".into());
    let refused = block_on(core.undo(&done.journal.unwrap().entry, None));
    assert_eq!(refused.code(), Some("not_undoable"), "{}", refused.text);
    assert_eq!(
        notes.borrow()["Inbox/Idea.md"],
        "A new note the user made\n"
    );
    assert!(notes.borrow().contains_key("Inbox/Thought.md"));
}

/// An image of `len` bytes (not UTF-8, so its copy is kept as base64).
fn image(len: usize) -> Vec<u8> {
    let mut bytes = b"\x89PNG\r\n\x1a\n".to_vec();
    bytes.extend((0..len - 8).map(|i| (i % 251) as u8 | 0x80));
    bytes
}

#[test]
fn a_deleted_image_is_made_again_byte_for_byte_and_one_too_large_to_keep_is_not_deleted() {
    let (core, _) = self::core(json!({}));
    let binary = core.host().binary.clone();
    let small = image(300_000);
    binary
        .borrow_mut()
        .insert("Attachments/small.png".into(), small.clone());
    let done = approve(
        &core,
        &call(
            &core,
            json!({"command": "delete", "path": "Attachments/small.png"}),
        ),
    );
    assert!(done.ok, "{}", done.text);
    assert!(!binary.borrow().contains_key("Attachments/small.png"));
    let undone = block_on(core.undo(&done.journal.unwrap().entry, None));
    assert!(undone.ok, "{}", undone.text);
    assert_eq!(
        binary.borrow()["Attachments/small.png"],
        small,
        "byte for byte"
    );

    // Under the read limit, but its copy (base64, a third larger) is not:
    // deleted, it could not be undone, so it is not deleted.
    let (core, _) = self::core(json!({}));
    let binary = core.host().binary.clone();
    let large = image(7 * 1024 * 1024);
    binary
        .borrow_mut()
        .insert("Attachments/large.png".into(), large.clone());
    let result = approve(
        &core,
        &call(
            &core,
            json!({"command": "delete", "path": "Attachments/large.png"}),
        ),
    );
    assert!(!result.ok, "{}", result.text);
    assert!(
        result
            .text
            .contains("too large to keep a copy for undo, so it was not deleted"),
        "{}",
        result.text
    );
    assert_eq!(
        binary.borrow()["Attachments/large.png"],
        large,
        "still there"
    );

    // Two that fit one by one but not together: the second stays.
    let (core, _) = self::core(json!({}));
    let binary = core.host().binary.clone();
    for name in ["a", "b"] {
        binary
            .borrow_mut()
            .insert(format!("Attachments/{name}.png"), image(4 * 1024 * 1024));
    }
    let result = approve(
        &core,
        &call(
            &core,
            json!({"command": "delete", "paths": ["Attachments/a.png", "Attachments/b.png"]}),
        ),
    );
    assert!(!result.ok, "{}", result.text);
    assert!(
        binary.borrow().contains_key("Attachments/b.png"),
        "{}",
        result.text
    );
    assert!(
        result
            .text
            .contains("with those of the files deleted before it"),
        "{}",
        result.text
    );
    let journal = result.journal.expect("the first deletion is journalled");
    assert!(journal.undoable, "and can be undone");
    assert!(block_on(core.undo(&journal.entry, None)).ok);
    assert_eq!(binary.borrow()["Attachments/a.png"], image(4 * 1024 * 1024));
}
