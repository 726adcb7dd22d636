//! Writing notes through the core with a fake CLI and a fake vault that share
//! one set of notes: create only makes new notes, every CLI write is read
//! back, edits become diff cards and are written only if the note is
//! unchanged, and every refusal is typed and writes nothing.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use serde_json::{json, Value};
use vault_agent::base::host::{Os, ProcessOutcome};
use vault_agent::testing::{block_on, FakeHost};
use vault_agent::{ToolResult, VaultAgent};

type Notes = Rc<RefCell<HashMap<String, String>>>;

/// What the fake CLI does to the notes, as the captures show the real one.
#[derive(Clone, Copy, PartialEq)]
enum Cli {
    Faithful,
    /// Prints its confirmation but writes nothing (a write that did not happen).
    Silent,
    /// Someone made the note between our check and the create: auto-rename.
    Race,
}

fn param<'a>(args: &'a [String], key: &str) -> Option<&'a str> {
    args.iter().find_map(|a| a.strip_prefix(&format!("{key}=")))
}

fn unescape(value: &str) -> String {
    let mut out = String::new();
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('\\') => out.push('\\'),
                Some(other) => {
                    out.push('\\');
                    out.push(other);
                }
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// A core with changes allowed over notes the CLI and the vault both see.
fn core(cli: Cli) -> (VaultAgent<FakeHost>, Notes) {
    let mut host = FakeHost::new(Os::Linux, |_| ProcessOutcome::success(""));
    host.env.insert("PATH".into(), "/usr/bin".into());
    host.add_executable("/usr/bin/obsidian");
    let notes = host.notes.clone();
    notes.borrow_mut().insert(
        "Projects/Plan.md".into(),
        "---\ntags: [plan]\n---\n# Plan\nIntro\n\n## Risks\nLate vendor\n\n## Goals\nShip\n".into(),
    );
    let state = notes.clone();
    host.respond_with(move |request| {
        let args = &request.args;
        let mut notes = state.borrow_mut();
        let by_name = |name: &str| {
            notes
                .keys()
                .find(|p| p.trim_end_matches(".md").rsplit('/').next() == Some(name))
                .cloned()
        };
        let path = match (param(args, "path"), param(args, "file")) {
            (Some(path), _) => Some(path.to_string()),
            (None, Some(name)) => by_name(name),
            _ => None,
        };
        let out = match args[0].as_str() {
            "file" => match path.filter(|p| notes.contains_key(p)) {
                Some(p) => format!("path\t{p}\nname\tx\nextension\tmd"),
                None => "Error: File not found.".into(),
            },
            "read" => match path.and_then(|p| notes.get(&p).cloned()) {
                Some(text) => text,
                None => "Error: File not found.".into(),
            },
            "create" => {
                let mut p = path.unwrap_or_else(|| format!("{}.md", param(args, "name").unwrap()));
                if !p.ends_with(".md") {
                    p.push_str(".md");
                }
                if cli == Cli::Race {
                    notes.insert(p.clone(), "theirs".into());
                    p = p.replace(".md", " 1.md");
                }
                if cli != Cli::Silent {
                    notes.insert(p.clone(), unescape(param(args, "content").unwrap_or("")));
                }
                format!("Created: {p}")
            }
            "append" => match path {
                Some(p) if notes.contains_key(&p) => {
                    if cli != Cli::Silent {
                        // As the captured 1.12.7 CLI: a line break first, even after one.
                        let note = notes.get_mut(&p).unwrap();
                        if !note.is_empty() {
                            note.push('\n');
                        }
                        note.push_str(&unescape(param(args, "content").unwrap()));
                    }
                    format!("Appended to: {p}")
                }
                _ => "Error: File not found.".into(),
            },
            other => format!("Error: Command \"{other}\" not found."),
        };
        ProcessOutcome::success(&out)
    });
    (
        VaultAgent::new(host, &json!({"permissionMode": "askBeforeEdits"})).0,
        notes,
    )
}

fn call(core: &VaultAgent<FakeHost>, args: Value) -> ToolResult {
    block_on(core.call_tool("obsidianEdit", &args))
}

fn commands(core: &VaultAgent<FakeHost>) -> Vec<String> {
    core.host()
        .requests
        .borrow()
        .iter()
        .map(|r| r.args[0].clone())
        .collect()
}

fn approve(core: &VaultAgent<FakeHost>, result: &ToolResult) -> ToolResult {
    let id = &result.pending.as_ref().expect("a card").id;
    let hash = core.confirmation_card(id).unwrap().argv_hash;
    block_on(core.approve(id, &hash))
}

const PLAN: &str = "Projects/Plan.md";

#[test]
fn create_makes_a_new_note_and_reads_it_back() {
    let (core, notes) = core(Cli::Faithful);
    let result = call(
        &core,
        json!({"command": "create", "path": "Projects/Q3 plan.md", "content": "# Q3 plan\n## Goals"}),
    );
    assert!(result.ok, "{}", result.text);
    assert_eq!(notes.borrow()["Projects/Q3 plan.md"], "# Q3 plan\n## Goals");
    // Is it there? Is a note with a similar title there (`files`)? Write, read back.
    assert_eq!(commands(&core), ["file", "files", "create", "read"]);
}

#[test]
fn create_over_an_existing_note_is_refused_before_anything_is_written() {
    let (core, notes) = core(Cli::Faithful);
    let before = notes.borrow().clone();
    for args in [
        json!({"command": "create", "path": PLAN, "content": "x"}),
        json!({"command": "create", "name": "Plan", "content": "x"}),
    ] {
        let result = call(&core, args);
        assert_eq!(result.code(), Some("note_exists"), "{}", result.text);
        assert!(result.text.contains("`append`, `prepend` or `edit`"));
    }
    assert_eq!(*notes.borrow(), before);
    assert!(!commands(&core).contains(&"create".to_string()));
}

/// Issue 26, item 7: the CLI adds `.md` to a path without an extension, so
/// `Projects/Plan` is checked, shown, journaled and read back as
/// `Projects/Plan.md`; it used to pass the check and make `Plan 1.md`.
#[test]
fn create_without_the_extension_is_checked_as_the_note_the_cli_makes() {
    let (core, notes) = core(Cli::Faithful);
    let result = call(
        &core,
        json!({"command": "create", "path": "Projects/Plan", "content": "x"}),
    );
    assert_eq!(result.code(), Some("note_exists"), "{}", result.text);
    assert!(result.text.contains("Projects/Plan.md"), "{}", result.text);
    assert!(!commands(&core).contains(&"create".to_string()));
    assert_eq!(notes.borrow().len(), 1);
    let made = call(
        &core,
        json!({"command": "create", "path": "Projects/Q4", "content": "# Q4"}),
    );
    assert!(made.ok, "{}", made.text);
    assert_eq!(notes.borrow()["Projects/Q4.md"], "# Q4");
    let argv = &core
        .host()
        .requests
        .borrow()
        .iter()
        .find(|r| r.args[0] == "create")
        .unwrap()
        .args
        .clone();
    assert!(
        argv.contains(&"path=Projects/Q4.md".to_string()),
        "{argv:?}"
    );
    let entry = made.journal.as_ref().expect("journaled");
    assert_eq!(
        core.journal_entry(&entry.entry).unwrap().target,
        "Projects/Q4.md"
    );
    // In Ask before every change the card names the note that will be made.
    core.set_settings(&json!({"permissionMode": "askEveryChange"}));
    let card = call(
        &core,
        json!({"command": "create", "path": "Projects/Q5", "content": "x"}),
    );
    assert!(card
        .pending
        .as_ref()
        .unwrap()
        .preview
        .target
        .contains("Projects/Q5.md"));
}

#[test]
fn a_create_that_the_cli_renamed_is_not_reported_as_done() {
    let (core, _) = core(Cli::Race);
    let result = call(
        &core,
        json!({"command": "create", "path": "New.md", "content": "mine"}),
    );
    assert_eq!(result.code(), Some("write_not_verified"), "{}", result.text);
    assert!(
        result.text.contains("\"New 1.md\" instead of \"New.md\""),
        "{}",
        result.text
    );
}

#[test]
fn a_write_the_note_does_not_show_is_write_not_verified() {
    let (core, notes) = core(Cli::Silent);
    let result = call(
        &core,
        json!({"command": "append", "path": PLAN, "content": "- added"}),
    );
    assert_eq!(result.code(), Some("write_not_verified"), "{}", result.text);
    assert!(result.text.contains("does not end with the added text"));
    assert!(!notes.borrow()[PLAN].contains("- added"));
}

#[test]
fn append_reads_back_and_is_ok() {
    let (core, notes) = core(Cli::Faithful);
    let result = call(
        &core,
        json!({"command": "append", "file": "Plan", "content": "- added"}),
    );
    assert!(result.ok, "{}", result.text);
    assert!(notes.borrow()[PLAN].ends_with("Ship\n\n- added"));
}

#[test]
fn text_too_long_for_one_argument_is_refused_before_anything_runs() {
    let (core, _) = core(Cli::Faithful);
    let result = call(
        &core,
        json!({"command": "append", "path": PLAN, "content": "x".repeat(200 * 1024)}),
    );
    assert_eq!(result.code(), Some("too_large_for_cli"), "{}", result.text);
    assert!(result.text.contains("128 KiB"), "{}", result.text);
    assert!(commands(&core).is_empty());
}

#[test]
fn a_card_is_never_shown_for_text_too_long_to_send() {
    let (core, _) = core(Cli::Faithful);
    core.set_settings(&json!({"permissionMode": "askEveryChange"}));
    let result = call(
        &core,
        json!({"command": "create", "path": "Big.md", "content": "x".repeat(200 * 1024)}),
    );
    assert_eq!(result.code(), Some("too_large_for_cli"), "{}", result.text);
    assert!(result.pending.is_none());
    assert!(commands(&core).is_empty());
}

#[test]
fn an_edit_is_a_diff_card_and_runs_only_on_approval() {
    let (core, notes) = core(Cli::Faithful);
    let result = call(
        &core,
        json!({"command": "edit", "file": "Plan", "find": "Late vendor", "with": "Vendor on time"}),
    );
    let pending = result.pending.as_ref().expect("a card");
    let diff = pending.preview.diff.as_ref().expect("a diff");
    assert_eq!((diff.added, diff.removed), (1, 1));
    assert!(
        pending
            .preview
            .after
            .contains("-Late vendor\n+Vendor on time\n"),
        "{}",
        pending.preview.after
    );
    assert!(
        pending.summary.contains("+1 −1 lines"),
        "{}",
        pending.summary
    );
    assert!(
        notes.borrow()[PLAN].contains("Late vendor"),
        "nothing before the click"
    );
    let card = core.confirmation_card(&pending.id).unwrap();
    assert_eq!(card.via, "vault");
    let done = approve(&core, &result);
    assert!(done.ok, "{}", done.text);
    assert!(notes.borrow()[PLAN].contains("## Risks\nVendor on time\n"));
    // Resolved by name through `file`, read back through `read`; never an edit command.
    assert_eq!(commands(&core), ["file", "read"]);
}

#[test]
fn a_note_that_changed_before_the_click_is_not_written_and_is_asked_again() {
    let (core, notes) = core(Cli::Faithful);
    let result = call(
        &core,
        json!({"command": "edit", "path": PLAN, "heading": "Plan::Goals", "content": "Ship in May"}),
    );
    // The user types in the note (another section) while the card waits.
    {
        let mut notes = notes.borrow_mut();
        let note = notes.get_mut(PLAN).unwrap();
        *note = note.replace("Intro\n", "Intro\ntyped by the user\n");
    }
    let typed = notes.borrow()[PLAN].clone();
    let answer = approve(&core, &result);
    assert_eq!(answer.code(), Some("stale"), "{}", answer.text);
    let fresh = answer.pending.expect("a fresh card");
    assert_eq!(notes.borrow()[PLAN], typed, "nothing written");
    // The fresh card is computed from what the note holds now.
    let fresh_diff = fresh.preview.after;
    assert!(fresh_diff.contains("+Ship in May"), "{fresh_diff}");
    assert!(
        !fresh_diff.contains("-typed by the user"),
        "the user's text is kept: {fresh_diff}"
    );
}

#[test]
fn a_change_between_the_click_and_the_write_is_caught_inside_the_write() {
    let (core, notes) = core(Cli::Faithful);
    let result = call(
        &core,
        json!({"command": "edit", "path": PLAN, "find": "Intro", "with": "Overview"}),
    );
    // A sync lands at the very moment of the write.
    *core.host().before_process.borrow_mut() =
        Some(Box::new(|notes: &mut HashMap<String, String>| {
            let note = notes.get_mut(PLAN).unwrap();
            *note = note.replace("Ship", "Ship (synced)");
        }));
    let answer = approve(&core, &result);
    assert_eq!(answer.code(), Some("stale"), "{}", answer.text);
    let note = notes.borrow()[PLAN].clone();
    assert!(
        note.contains("Intro") && note.contains("Ship (synced)"),
        "{note}"
    );
}

#[test]
fn refusals_are_typed_and_write_nothing() {
    let (core, notes) = core(Cli::Faithful);
    let before = notes.borrow().clone();
    let cases = [
        (
            json!({"find": "Nowhere", "with": "x"}),
            "find_not_found",
            "Copy the exact text",
        ),
        (
            json!({"find": "late VENDOR", "with": "x"}),
            "find_not_found",
            "Lines 8",
        ),
        (
            json!({"find": "\n\n", "with": "x"}),
            "find_ambiguous",
            "lines 5, 8",
        ),
        (
            json!({"heading": "Budget", "content": "x"}),
            "heading_not_found",
            "\"Plan::Risks\"",
        ),
        (
            json!({"find": "Intro", "with": "Intro"}),
            "nothing_to_change",
            "exactly as it is",
        ),
    ];
    for (edit, code, fragment) in cases {
        let mut args = edit.as_object().unwrap().clone();
        args.insert("command".into(), json!("edit"));
        args.insert("path".into(), json!(PLAN));
        let result = call(&core, Value::Object(args));
        assert_eq!(result.code(), Some(code), "{}", result.text);
        assert!(result.text.contains(fragment), "{code}: {}", result.text);
        assert!(result.pending.is_none());
    }
    let missing = call(
        &core,
        json!({"command": "edit", "file": "Nope", "find": "a", "with": "b"}),
    );
    assert_eq!(missing.code(), Some("note_not_found"));
    notes
        .borrow_mut()
        .insert("Twice.md".into(), "# A\n## Notes\n# B\n## Notes\n".into());
    let twice = call(
        &core,
        json!({"command": "edit", "path": "Twice.md", "heading": "Notes", "content": "x"}),
    );
    assert_eq!(twice.code(), Some("heading_ambiguous"));
    assert!(
        twice.text.contains("A::Notes (line 2); B::Notes (line 4)"),
        "{}",
        twice.text
    );
    notes.borrow_mut().remove("Twice.md");
    assert_eq!(*notes.borrow(), before);
}

#[test]
fn large_and_crlf_notes_are_edited_exactly_through_the_vault() {
    let (core, notes) = core(Cli::Faithful);
    let mut big = String::from("# Big\r\n");
    for i in 0..80_000 {
        big.push_str(&format!("line {i} of a big note\r\n"));
    }
    big.push_str("## End\r\nold ending\r\n");
    assert!(big.len() > 2_000_000);
    notes.borrow_mut().insert("Big.md".into(), big.clone());
    let result = call(
        &core,
        json!({"command": "edit", "path": "Big.md", "heading": "End", "content": "new\nending"}),
    );
    let done = approve(&core, &result);
    assert!(done.ok, "{}", done.text);
    let after = notes.borrow()["Big.md"].clone();
    assert!(after.ends_with("## End\r\nnew\r\nending\r\n"), "CRLF kept");
    assert_eq!(
        after.len(),
        big.len() - "old ending\r\n".len() + "new\r\nending\r\n".len()
    );
}

#[test]
fn an_empty_note_and_non_ascii_text() {
    let (core, notes) = core(Cli::Faithful);
    notes
        .borrow_mut()
        .insert("Café ☕.md".into(), String::new());
    let result = call(
        &core,
        json!({"command": "edit", "path": "Café ☕.md", "find": "x", "with": "y"}),
    );
    assert_eq!(result.code(), Some("find_not_found"));
    notes
        .borrow_mut()
        .insert("Café ☕.md".into(), "# Café ☕\n日本語のメモ\n".into());
    let result = call(
        &core,
        json!({"command": "edit", "path": "Café ☕.md", "find": "日本語", "with": "英語"}),
    );
    assert!(approve(&core, &result).ok);
    assert_eq!(notes.borrow()["Café ☕.md"], "# Café ☕\n英語のメモ\n");
}

#[test]
fn a_block_is_labelled_by_what_ran_the_cli_or_obsidians_vault() {
    let (core, _) = core(Cli::Faithful);
    // The CLI ran an append: its argv says so, and the tool's name says "(CLI)".
    let appended = call(
        &core,
        json!({"command": "append", "file": "Plan", "content": "- added\n- more"}),
    );
    assert!(appended.ok, "{}", appended.text);
    assert!(appended.argv.is_some() && appended.ran.is_none());
    // An edit is Obsidian's vault's: the card and the run say so, with the note's path.
    let result = call(
        &core,
        json!({"command": "edit", "file": "Plan", "find": "Late vendor", "with": "Vendor\non time"}),
    );
    let ran = result.ran.clone().expect("the vault runs it");
    assert_eq!(
        (ran.label.as_str(), ran.by.as_str()),
        ("Edit notes", "Obsidian's vault")
    );
    assert_eq!(ran.words, ["edit", PLAN]);
    assert!(result.argv.is_none(), "no made-up command line");
    let done = approve(&core, &result);
    assert!(done.ok, "{}", done.text);
    assert_eq!(done.ran, Some(ran.clone()));
    // The outcome kept for the card says so too: a turn that takes the answer
    // from the card (a headless turn), and the chat it is stored in, label the
    // block by what ran, not "(CLI)".
    let id = &result.pending.as_ref().unwrap().id;
    let kept = core.confirmation_outcome(id).expect("the kept outcome");
    assert_eq!(kept.ran, Some(ran));
}
