//! Where a change could slip past the undo journal (issue 26, items 5 to 9),
//! through the core with a small fake CLI over the fake vault's notes (as in
//! tests/writes.rs): a change whose read-back fails is still journaled; a
//! deleted file comes back byte for byte; a note that is not UTF-8 is never
//! rewritten by an edit; a multi-note undo that stops half way can be
//! finished; and no write follows a link out of the vault.

use std::cell::Cell;
use std::rc::Rc;

use serde_json::{json, Value};
use vault_agent::base::host::{Os, ProcessOutcome};
use vault_agent::testing::{block_on, FakeHost};
use vault_agent::{ToolResult, VaultAgent};

const PLAN: &str = "Projects/Plan.md";
const PLAN_TEXT: &str = "# Plan\n- [ ] Ship\n";
const APP_GONE: &str =
    "The CLI is unable to find Obsidian. Please make sure Obsidian is running and try again.";

fn param<'a>(args: &'a [String], key: &str) -> Option<&'a str> {
    args.iter().find_map(|a| a.strip_prefix(&format!("{key}=")))
}

/// A core in Ask before edits over notes the fake CLI and vault share. While
/// `reads_fail` is set, every CLI `read` finds the app gone (as when Obsidian
/// quits between the write and the read-back).
fn core() -> (VaultAgent<FakeHost>, Rc<Cell<bool>>) {
    let mut host = FakeHost::new(Os::Linux, |_| ProcessOutcome::success(""));
    host.env.insert("PATH".into(), "/usr/bin".into());
    host.add_executable("/usr/bin/obsidian");
    host.notes
        .borrow_mut()
        .insert(PLAN.into(), PLAN_TEXT.into());
    let notes = host.notes.clone();
    let reads_fail = Rc::new(Cell::new(false));
    let failing = reads_fail.clone();
    host.respond_with(move |request| {
        let args = &request.args;
        let mut notes = notes.borrow_mut();
        let path = param(args, "path").map(str::to_string);
        let out = match args[0].as_str() {
            "read" if failing.get() => {
                return ProcessOutcome {
                    exit_code: Some(1),
                    stderr: APP_GONE.as_bytes().to_vec(),
                    stderr_total_bytes: APP_GONE.len() as u64,
                    ..ProcessOutcome::default()
                }
            }
            "file" => match path.filter(|p| notes.contains_key(p)) {
                Some(p) => format!("path\t{p}\nname\tx\nextension\tmd"),
                None => "Error: File not found.".into(),
            },
            "read" => match path.and_then(|p| notes.get(&p).cloned()) {
                Some(text) => text,
                None => "Error: File not found.".into(),
            },
            "create" => {
                let p = path.unwrap();
                notes.insert(p.clone(), param(args, "content").unwrap_or("").into());
                format!("Created: {p}")
            }
            "append" => match path.filter(|p| notes.contains_key(p)) {
                Some(p) => {
                    let note = notes.get_mut(&p).unwrap();
                    note.push('\n');
                    note.push_str(param(args, "content").unwrap());
                    format!("Appended to: {p}")
                }
                None => "Error: File not found.".into(),
            },
            "files" | "backlinks" => String::new(),
            other => format!("Error: Command \"{other}\" not found."),
        };
        ProcessOutcome::success(&out)
    });
    let settings = json!({"permissionMode": "askBeforeEdits"});
    (VaultAgent::new(host, &settings).0, reads_fail)
}

fn call(core: &VaultAgent<FakeHost>, tool: &str, args: Value) -> ToolResult {
    block_on(core.call_tool(tool, &args))
}

fn approve(core: &VaultAgent<FakeHost>, result: &ToolResult) -> ToolResult {
    let id = &result.pending.as_ref().expect("a card").id;
    let hash = core.confirmation_card(id).unwrap().argv_hash;
    block_on(core.approve(id, &hash))
}

fn note(core: &VaultAgent<FakeHost>, path: &str) -> Option<String> {
    core.host().notes.borrow().get(path).cloned()
}

fn entry(result: &ToolResult) -> String {
    result
        .journal
        .as_ref()
        .unwrap_or_else(|| panic!("no journal entry: {}", result.text))
        .entry
        .clone()
}

/// Item 6: the CLI wrote, then the read-back found the app gone. The
/// result says the write is not verified, and the change is journaled, so
/// Undo can put the note back (checking it first, as always).
#[test]
fn a_cli_write_whose_read_back_fails_is_journaled_and_undone() {
    let (core, reads_fail) = core();
    reads_fail.set(true);
    let result = call(
        &core,
        "obsidianEdit",
        json!({"command": "append", "path": PLAN, "content": "- again"}),
    );
    assert_eq!(result.code(), Some("write_not_verified"), "{}", result.text);
    assert!(note(&core, PLAN).unwrap().ends_with("- again"));
    let id = entry(&result);
    reads_fail.set(false);
    let undone = block_on(core.undo(&id, None));
    assert!(undone.ok, "{}", undone.text);
    assert_eq!(note(&core, PLAN).unwrap(), PLAN_TEXT);
}

/// Item 6: a note the CLI created whose read-back failed goes to the trash
/// on Undo like any other.
#[test]
fn a_create_whose_read_back_fails_is_journaled_and_undone() {
    let (core, reads_fail) = core();
    reads_fail.set(true);
    let made = call(
        &core,
        "obsidianEdit",
        json!({"command": "create", "path": "Projects/Q3.md", "content": "# Q3"}),
    );
    assert_eq!(made.code(), Some("write_not_verified"), "{}", made.text);
    assert_eq!(note(&core, "Projects/Q3.md").as_deref(), Some("# Q3"));
    let id = entry(&made);
    assert!(core.journal_entry(&id).unwrap().undoable);
    let undone = block_on(core.undo(&id, None));
    assert!(undone.ok, "{}", undone.text);
    assert_eq!(note(&core, "Projects/Q3.md"), None);
}

/// Item 6: an approved edit the vault wrote, whose read-back through the
/// CLI failed: journaled with what was meant; Undo restores it, and refuses
/// as usual once the user changed the note.
#[test]
fn an_approved_edit_whose_read_back_fails_is_journaled_and_undone() {
    let (core, reads_fail) = core();
    let card = call(
        &core,
        "obsidianEdit",
        json!({"command": "edit", "path": PLAN, "find": "Ship", "with": "Ship it"}),
    );
    reads_fail.set(true);
    let done = approve(&core, &card);
    assert_eq!(done.code(), Some("write_not_verified"), "{}", done.text);
    assert_eq!(note(&core, PLAN).unwrap(), "# Plan\n- [ ] Ship it\n");
    let id = entry(&done);
    reads_fail.set(false);
    core.host()
        .notes
        .borrow_mut()
        .get_mut(PLAN)
        .unwrap()
        .push_str("mine\n");
    let refused = block_on(core.undo(&id, None));
    assert_eq!(refused.code(), Some("undo_conflict"), "{}", refused.text);
    core.host()
        .notes
        .borrow_mut()
        .insert(PLAN.into(), "# Plan\n- [ ] Ship it\n".into());
    let undone = block_on(core.undo(&id, None));
    assert!(undone.ok, "{}", undone.text);
    assert_eq!(note(&core, PLAN).unwrap(), PLAN_TEXT);
}

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89\0\0\0\nIDATx\x9cc\0\x01\0\0\x05\0\x01\r\n-\xb4\0\0\0\0IEND\xaeB`\x82";
const LATIN1: &[u8] = b"# Caf\xe9\nCr\xe8me br\xfbl\xe9e\n";

fn with_binary(core: &VaultAgent<FakeHost>, path: &str, bytes: &[u8]) {
    core.host()
        .binary
        .borrow_mut()
        .insert(path.into(), bytes.to_vec());
}

fn bytes(core: &VaultAgent<FakeHost>, path: &str) -> Option<Vec<u8>> {
    let host = core.host();
    let binary = host.binary.borrow().get(path).cloned();
    binary.or_else(|| note(core, path).map(String::into_bytes))
}

/// Item 8: an image and a Latin-1 note come back byte for byte; they were
/// kept as decoded text (`69 → 91` bytes, `e9 → ef bf bd`).
#[test]
fn undo_of_a_delete_makes_every_file_again_byte_for_byte() {
    let (core, _) = core();
    with_binary(&core, "Attachments/dot.png", PNG);
    with_binary(&core, "Notes/Café.md", LATIN1);
    let card = call(
        &core,
        "obsidianOrganise",
        json!({"command": "delete", "paths": ["Attachments/dot.png", "Notes/Café.md", PLAN]}),
    );
    let done = approve(&core, &card);
    assert!(done.ok, "{}", done.text);
    assert_eq!(bytes(&core, "Attachments/dot.png"), None);
    let undone = block_on(core.undo(&entry(&done), None));
    assert!(undone.ok, "{}", undone.text);
    assert_eq!(bytes(&core, "Attachments/dot.png").as_deref(), Some(PNG));
    assert_eq!(bytes(&core, "Notes/Café.md").as_deref(), Some(LATIN1));
    assert_eq!(note(&core, PLAN).as_deref(), Some(PLAN_TEXT));
    assert!(
        undone.text.contains("exactly as they were"),
        "{}",
        undone.text
    );
}

/// Item 8: the journal of today's main (a deleted note's `content` only)
/// still loads and undoes; a new entry keeps text as text and other bytes
/// as base64.
#[test]
fn a_journal_written_before_bytes_were_kept_still_undoes() {
    let (core, _) = core();
    let stored = json!({"version": 1, "nextId": 3, "entries": [{
        "id": "u3", "time": 1.0, "tool": "obsidianOrganise", "command": "delete",
        "target": "Inbox/Old.md", "summary": "Deleted Inbox/Old.md → the trash",
        "undo": {"kind": "deleted", "notes": [{"path": "Inbox/Old.md", "content": "# Old\n"}]},
        "writtenHash": ""
    }]});
    let repairs = core.load_journal(&stored);
    assert!(repairs.is_empty(), "{repairs:?}");
    let undone = block_on(core.undo("u3", None));
    assert!(undone.ok, "{}", undone.text);
    assert_eq!(note(&core, "Inbox/Old.md").as_deref(), Some("# Old\n"));
    with_binary(&core, "Attachments/dot.png", PNG);
    let card = call(
        &core,
        "obsidianOrganise",
        json!({"command": "delete", "paths": ["Attachments/dot.png", PLAN]}),
    );
    approve(&core, &card);
    let saved = core.host().journal_saves.borrow().last().unwrap().0.clone();
    let saved: Value = serde_json::from_str(&saved).unwrap();
    let notes = &saved["entries"][1]["undo"]["notes"];
    assert_eq!(notes[0]["content"], "");
    assert!(
        notes[0]["bytes"]
            .as_str()
            .unwrap()
            .starts_with("iVBORw0KGgo"),
        "{notes}"
    );
    assert_eq!(notes[1]["content"], PLAN_TEXT);
    assert!(notes[1].get("bytes").is_none(), "{notes}");
}

/// Item 8: an edit of a note that is not UTF-8 is refused with a clear
/// error and changes no byte (it used to be rewritten with U+FFFD).
#[test]
fn an_edit_of_a_note_that_is_not_utf8_is_refused() {
    let (core, _) = core();
    with_binary(&core, "Notes/Café.md", LATIN1);
    let result = call(
        &core,
        "obsidianEdit",
        json!({"command": "edit", "path": "Notes/Café.md", "heading": "Caf\u{FFFD}", "content": "x"}),
    );
    assert_eq!(result.code(), Some("not_utf8"), "{}", result.text);
    assert!(result.text.contains("byte 6 is 0xe9"), "{}", result.text);
    assert!(result.pending.is_none());
    assert_eq!(bytes(&core, "Notes/Café.md").as_deref(), Some(LATIN1));
}

/// Item 9: the undo of a three-note delete fails at the second note; the
/// first is back, the next Undo finishes the rest (it used to find the
/// first note in its way, leaving the others only in the trash).
#[test]
fn a_delete_undo_that_stops_half_way_is_finished_by_the_next_undo() {
    let (core, _) = core();
    for path in ["Inbox/A.md", "Inbox/B.md"] {
        core.host()
            .notes
            .borrow_mut()
            .insert(path.into(), format!("# {path}\n"));
    }
    let card = call(
        &core,
        "obsidianOrganise",
        json!({"command": "delete", "paths": ["Inbox/A.md", "Inbox/B.md", PLAN]}),
    );
    let id = entry(&approve(&core, &card));
    core.host()
        .refuse_writes_to
        .borrow_mut()
        .push("Inbox/B.md".into());
    let stopped = block_on(core.undo(&id, None));
    assert_eq!(stopped.code(), Some("vault_failed"), "{}", stopped.text);
    assert!(
        stopped.text.contains("1 of the 3 notes are back"),
        "{}",
        stopped.text
    );
    assert!(note(&core, "Inbox/A.md").is_some());
    assert!(!core.journal_entry(&id).unwrap().undone);
    // The progress survives a restart.
    let saved = core.host().journal_saves.borrow().last().unwrap().0.clone();
    let (restarted, _) = core_after_restart(&core, &saved);
    let finished = block_on(restarted.undo(&id, None));
    assert!(finished.ok, "{}", finished.text);
    assert_eq!(
        note(&restarted, "Inbox/B.md").as_deref(),
        Some("# Inbox/B.md\n")
    );
    assert_eq!(note(&restarted, PLAN).as_deref(), Some(PLAN_TEXT));
    assert!(restarted.journal_entry(&id).unwrap().undone);
}

/// Item 9: the same for moves, put back newest first.
#[test]
fn a_move_undo_that_stops_half_way_is_finished_by_the_next_undo() {
    let (core, _) = core();
    for path in ["Inbox/A.md", "Inbox/B.md"] {
        core.host()
            .notes
            .borrow_mut()
            .insert(path.into(), format!("# {path}\n"));
    }
    let card = call(
        &core,
        "obsidianOrganise",
        json!({"command": "move", "paths": ["Inbox/A.md", "Inbox/B.md"], "to": "Archive"}),
    );
    let id = entry(&approve(&core, &card));
    assert!(note(&core, "Archive/A.md").is_some() && note(&core, "Archive/B.md").is_some());
    // B goes back first, then A's move back fails.
    core.host()
        .refuse_writes_to
        .borrow_mut()
        .push("Inbox/A.md".into());
    let stopped = block_on(core.undo(&id, None));
    assert_eq!(stopped.code(), Some("vault_failed"), "{}", stopped.text);
    assert!(
        stopped.text.contains("1 of the 2 notes are back"),
        "{}",
        stopped.text
    );
    assert!(note(&core, "Inbox/B.md").is_some());
    core.host().refuse_writes_to.borrow_mut().clear();
    let finished = block_on(core.undo(&id, None));
    assert!(finished.ok, "{}", finished.text);
    assert!(note(&core, "Inbox/A.md").is_some() && note(&core, "Inbox/B.md").is_some());
    assert!(note(&core, "Archive/A.md").is_none() && note(&core, "Archive/B.md").is_none());
}

/// The same core again, over the same notes, with the saved journal loaded.
fn core_after_restart(
    old: &VaultAgent<FakeHost>,
    journal: &str,
) -> (VaultAgent<FakeHost>, Rc<Cell<bool>>) {
    let (core, reads) = core();
    let notes = old.host().notes.borrow().clone();
    *core.host().notes.borrow_mut() = notes;
    let stored: Value = serde_json::from_str(journal).unwrap();
    assert!(core.load_journal(&stored).is_empty());
    (core, reads)
}

fn link(core: &VaultAgent<FakeHost>, from: &str, to: &str) {
    core.host()
        .links
        .borrow_mut()
        .push((from.to_string(), to.to_string()));
}

fn cli_ran(core: &VaultAgent<FakeHost>, command: &str) -> bool {
    core.host()
        .requests
        .borrow()
        .iter()
        .any(|r| r.args[0] == command)
}

/// Item 5: Obsidian follows a symbolic link inside the vault; no write
/// does when it leads out of the vault or into the config folder, whatever
/// names the note (a path, a name, a new note's folder, an edit).
#[test]
fn no_write_follows_a_link_out_of_the_vault_or_into_the_config_folder() {
    let (core, _) = core();
    for (path, text) in [("Shared/Plan.md", "# Shared\n"), ("Cfg/app.md", "{}\n")] {
        core.host()
            .notes
            .borrow_mut()
            .insert(path.into(), text.into());
    }
    link(&core, "/vault/Shared", "/home/ada/Dropbox/shared");
    link(&core, "/vault/Cfg", "/vault/.obsidian");
    for args in [
        json!({"command": "append", "path": "Shared/Plan.md", "content": "- x"}),
        json!({"command": "create", "path": "Shared/New.md", "content": "x"}),
        json!({"command": "create", "path": "Shared/Deeper/New.md", "content": "x"}),
        json!({"command": "append", "path": "Cfg/app.md", "content": "x"}),
        json!({"command": "edit", "path": "Shared/Plan.md", "find": "Shared", "with": "Mine"}),
    ] {
        let result = call(&core, "obsidianEdit", args.clone());
        assert_eq!(
            result.code(),
            Some("path_outside_vault"),
            "{args}: {}",
            result.text
        );
        assert!(result.pending.is_none(), "{args}");
    }
    assert!(!cli_ran(&core, "append") && !cli_ran(&core, "create"));
    assert_eq!(note(&core, "Shared/Plan.md").as_deref(), Some("# Shared\n"));
    let moved = call(
        &core,
        "obsidianOrganise",
        json!({"command": "move", "path": PLAN, "to": "Shared"}),
    );
    assert_eq!(moved.code(), Some("path_outside_vault"), "{}", moved.text);
    // A link that stays inside the vault is followed as Obsidian does.
    link(&core, "/vault/Alias", "/vault/Projects");
    core.host()
        .notes
        .borrow_mut()
        .insert("Alias/Plan.md".into(), PLAN_TEXT.into());
    let inside = call(
        &core,
        "obsidianEdit",
        json!({"command": "append", "path": "Alias/Plan.md", "content": "- y"}),
    );
    assert!(inside.ok, "{}", inside.text);
}

/// Item 5: a link that appears after the card is caught at the click, and
/// an undo never makes a deleted note again through one.
#[test]
fn a_link_made_after_the_card_or_before_an_undo_stops_the_write() {
    let (core, _) = core();
    let card = call(
        &core,
        "obsidianEdit",
        json!({"command": "edit", "path": PLAN, "find": "Ship", "with": "Ship it"}),
    );
    link(&core, "/vault/Projects", "/srv/elsewhere");
    let refused = approve(&core, &card);
    assert_eq!(
        refused.code(),
        Some("path_outside_vault"),
        "{}",
        refused.text
    );
    assert_eq!(note(&core, PLAN).as_deref(), Some(PLAN_TEXT));
    core.host().links.borrow_mut().clear();
    let deleted = approve(
        &core,
        &call(
            &core,
            "obsidianOrganise",
            json!({"command": "delete", "path": PLAN}),
        ),
    );
    let id = entry(&deleted);
    link(&core, "/vault/Projects", "/srv/elsewhere");
    let undo = block_on(core.undo(&id, None));
    assert_eq!(undo.code(), Some("path_outside_vault"), "{}", undo.text);
    assert_eq!(note(&core, PLAN), None);
    assert!(
        !core.journal_entry(&id).unwrap().undone,
        "still undoable once the link is gone"
    );
}
