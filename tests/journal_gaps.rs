//! Where a change could slip past the undo journal (issue 26, items 5 to 9),
//! through the core with a small fake CLI over the fake vault's notes (as in
//! tests/writes.rs): a change whose read-back fails is still journaled; a
//! deleted file comes back byte for byte; a note that is not UTF-8 is never
//! rewritten by an edit; a multi-note undo that stops half way can be
//! finished; and no write follows a link out of the vault.

use std::cell::Cell;
use std::rc::Rc;

use serde_json::{json, Value};
use vault_agent::host::{Os, ProcessOutcome};
use vault_agent::testing::{block_on, FakeHost};
use vault_agent::{ToolResult, VaultAgentCore};

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
fn core() -> (VaultAgentCore<FakeHost>, Rc<Cell<bool>>) {
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
    (VaultAgentCore::new(host, &settings).0, reads_fail)
}

fn call(core: &VaultAgentCore<FakeHost>, tool: &str, args: Value) -> ToolResult {
    block_on(core.call_tool(tool, &args))
}

fn approve(core: &VaultAgentCore<FakeHost>, result: &ToolResult) -> ToolResult {
    let id = &result.pending.as_ref().expect("a card").id;
    let hash = core.confirmation_card(id).unwrap().argv_hash;
    block_on(core.approve(id, &hash))
}

fn note(core: &VaultAgentCore<FakeHost>, path: &str) -> Option<String> {
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
