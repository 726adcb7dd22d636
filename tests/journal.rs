//! The undo journal through the core, with a fake CLI and a fake vault that
//! share one set of notes (as in tests/writes.rs): every kind of change is
//! journaled and undone exactly; an undo after the user's own edit is a
//! conflict with the diff and changes nothing until "Undo anyway"; an entry
//! is undone once; a turn is undone newest first and stops at a conflict;
//! the journal is bounded and survives a restart; the model has no undo.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use serde_json::{json, Value};
use vault_agent::base::host::{Os, ProcessOutcome};
use vault_agent::doors::chat::conversation::{ChatMessage, Conversation};
use vault_agent::doors::chat::{ChatEvent, ChatEvents};
use vault_agent::engine::journal::MAX_ENTRIES;
use vault_agent::testing::{block_on, FakeHost, ScriptedHttp};
use vault_agent::tools::builtin_tools;
use vault_agent::{ToolResult, VaultAgent};

type Notes = Rc<RefCell<HashMap<String, String>>>;

const PLAN: &str = "Projects/Plan.md";
const PLAN_TEXT: &str =
    "---\r\nstatus: active\r\nrelated: [Roadmap]\r\n---\r\n# Plan\r\n- [ ] Ship\r\n- [/] Write\r\n";
const DAILY: &str = "Daily/2026-03-03.md";

fn param(args: &[String], key: &str) -> Option<String> {
    args.iter()
        .find_map(|a| a.strip_prefix(&format!("{key}=")))
        .map(unescape)
}

fn unescape(value: &str) -> String {
    value
        .replace("\\n", "\n")
        .replace("\\t", "\t")
        .replace("\\\\", "\\")
}

/// The frontmatter's lines and where the body starts (in bytes).
fn frontmatter(note: &str) -> (Vec<String>, usize) {
    let eol = if note.contains("\r\n") { "\r\n" } else { "\n" };
    let open = format!("---{eol}");
    let close = format!("{eol}---{eol}");
    if let Some(rest) = note.strip_prefix(&open) {
        if let Some(end) = rest.find(&close) {
            let lines = rest[..end].split(eol).map(str::to_string).collect();
            return (lines, open.len() + end + close.len());
        }
    }
    (Vec::new(), 0)
}

fn with_frontmatter(note: &str, lines: &[String]) -> String {
    let eol = if note.contains("\r\n") { "\r\n" } else { "\n" };
    let (_, body) = frontmatter(note);
    if lines.is_empty() {
        return note[body..].to_string();
    }
    format!("---{eol}{}{eol}---{eol}{}", lines.join(eol), &note[body..])
}

fn property_json(raw: &str) -> Value {
    let raw = raw.trim();
    if let Some(inner) = raw.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        return Value::Array(
            inner
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| json!(s))
                .collect(),
        );
    }
    if raw.is_empty() {
        return Value::Null;
    }
    if let Ok(n) = raw.parse::<f64>() {
        return json!(n);
    }
    match raw {
        "true" => json!(true),
        "false" => json!(false),
        _ => json!(raw),
    }
}

/// A fake `obsidian` over the shared notes, close to the captured formats.
fn respond(notes: &mut HashMap<String, String>, args: &[String]) -> String {
    let by_name = |notes: &HashMap<String, String>, name: &str| {
        notes
            .keys()
            .find(|p| p.trim_end_matches(".md").rsplit('/').next() == Some(name))
            .cloned()
    };
    let path = match (param(args, "path"), param(args, "file"), param(args, "ref")) {
        (Some(path), _, _) => Some(path),
        (None, Some(name), _) => by_name(notes, &name),
        (None, None, Some(reference)) => reference.rsplit_once(':').map(|(p, _)| p.to_string()),
        _ => None,
    };
    let not_found = "Error: File not found.".to_string();
    let add = |note: &str, content: &str, at_start: bool| {
        if at_start {
            let (_, body) = frontmatter(note);
            format!("{}{content}\n{}", &note[..body], &note[body..])
        } else if note.is_empty() || note.ends_with('\n') {
            format!("{note}{content}")
        } else {
            format!("{note}\n{content}")
        }
    };
    match args[0].as_str() {
        "file" => match path.filter(|p| notes.contains_key(p)) {
            Some(p) => format!("path\t{p}\nname\tx\nextension\tmd"),
            None => not_found,
        },
        "read" => path
            .and_then(|p| notes.get(&p).cloned())
            .unwrap_or(not_found),
        "daily:path" => DAILY.into(),
        "daily:read" => notes.get(DAILY).cloned().unwrap_or_default(),
        "create" => {
            let p = path.unwrap_or_else(|| format!("{}.md", param(args, "name").unwrap()));
            notes.insert(p.clone(), param(args, "content").unwrap_or_default());
            format!("Created: {p}")
        }
        "base:create" => {
            let name = param(args, "name").unwrap_or_else(|| "Untitled".into());
            let p = format!("Items/{name}.md");
            notes.insert(
                p.clone(),
                format!(
                    "---\ntype: item\n---\n{}",
                    param(args, "content").unwrap_or_default()
                ),
            );
            format!("Created: {name}.md")
        }
        "append" | "prepend" | "daily:append" | "daily:prepend" => {
            let daily = args[0].starts_with("daily:");
            let p = if daily { Some(DAILY.to_string()) } else { path };
            let Some(p) = p.filter(|p| daily || notes.contains_key(p)) else {
                return not_found;
            };
            let note = notes.entry(p.clone()).or_default();
            *note = add(
                note,
                &param(args, "content").unwrap(),
                args[0].ends_with("prepend"),
            );
            if daily {
                String::new()
            } else {
                format!("Appended to: {p}")
            }
        }
        "property:read" | "properties" | "property:set" | "property:remove" => {
            let Some(p) = path.filter(|p| notes.contains_key(p)) else {
                return not_found;
            };
            let note = notes.get(&p).unwrap().clone();
            let (mut lines, _) = frontmatter(&note);
            let name = param(args, "name").unwrap_or_default();
            let at = lines
                .iter()
                .position(|l| l.starts_with(&format!("{name}:")));
            let raw = at.map(|i| lines[i][name.len() + 1..].trim().to_string());
            match args[0].as_str() {
                "properties" => {
                    let object: serde_json::Map<String, Value> = lines
                        .iter()
                        .filter_map(|l| l.split_once(':'))
                        .map(|(k, v)| (k.to_string(), property_json(v)))
                        .collect();
                    Value::Object(object).to_string()
                }
                "property:read" => match raw.map(|r| property_json(&r)) {
                    None => format!("Error: Property \"{name}\" not found."),
                    Some(Value::Array(items)) => items
                        .iter()
                        .map(|i| i.as_str().unwrap().to_string())
                        .collect::<Vec<_>>()
                        .join("\n"),
                    Some(Value::Null) => String::new(),
                    Some(Value::String(s)) => s,
                    Some(other) => other.to_string(),
                },
                "property:set" => {
                    let value = param(args, "value").unwrap();
                    let list = param(args, "type").as_deref() == Some("list") || name == "tags";
                    let shown = if list {
                        let items: Vec<&str> = value
                            .split(',')
                            .map(str::trim)
                            .filter(|s| !s.is_empty())
                            .collect();
                        format!("[{}]", items.join(", "))
                    } else {
                        value.clone()
                    };
                    let line = format!("{name}: {shown}");
                    match at {
                        Some(i) => lines[i] = line,
                        None => lines.push(line),
                    }
                    notes.insert(p.clone(), with_frontmatter(&note, &lines));
                    format!("Set {name}: {value}")
                }
                _ => match at {
                    Some(i) => {
                        lines.remove(i);
                        notes.insert(p.clone(), with_frontmatter(&note, &lines));
                        format!("Property \"{name}\" removed from {p}")
                    }
                    None => format!("Error: Property \"{name}\" not found."),
                },
            }
        }
        "task" => {
            let (p, line) = match param(args, "ref") {
                Some(r) => {
                    let (p, l) = r.rsplit_once(':').unwrap();
                    (Some(p.to_string()), l.parse::<usize>().unwrap())
                }
                None => (path, param(args, "line").unwrap().parse().unwrap()),
            };
            let Some(note) = p.and_then(|p| notes.get_mut(&p)) else {
                return not_found;
            };
            let status = if args.iter().any(|a| a == "done") {
                'x'
            } else if args.iter().any(|a| a == "todo") {
                ' '
            } else {
                param(args, "status").unwrap().chars().next().unwrap()
            };
            let mut pieces: Vec<String> = note.split_inclusive('\n').map(str::to_string).collect();
            let target = &mut pieces[line - 1];
            let open = target.find('[').unwrap();
            target.replace_range(open + 1..open + 2, &status.to_string());
            *note = pieces.concat();
            format!("Updated line {line}")
        }
        "bookmark" => "Bookmarked.".into(),
        other => format!("Error: Command \"{other}\" not found."),
    }
}

/// A core with changes allowed over notes the CLI and the vault both see.
fn core() -> (VaultAgent<FakeHost>, Notes) {
    let mut host = FakeHost::new(Os::Linux, |_| ProcessOutcome::success(""));
    host.env.insert("PATH".into(), "/usr/bin".into());
    host.add_executable("/usr/bin/obsidian");
    let notes = host.notes.clone();
    notes.borrow_mut().insert(PLAN.into(), PLAN_TEXT.into());
    notes
        .borrow_mut()
        .insert(DAILY.into(), "# 2026-03-03\n- met Bob\n".into());
    let state = notes.clone();
    host.respond_with(move |request| {
        ProcessOutcome::success(&respond(&mut state.borrow_mut(), &request.args))
    });
    (
        // Memory on: its changes are vault changes, journalled like any other.
        VaultAgent::new(
            host,
            &json!({"allowVaultChanges": true, "chat": {"memory": true}}),
        )
        .0,
        notes,
    )
}

fn call(core: &VaultAgent<FakeHost>, tool: &str, args: Value) -> ToolResult {
    call_in(core, tool, args, None)
}

/// A call, approved at once when it waits for a click.
fn call_in(core: &VaultAgent<FakeHost>, tool: &str, args: Value, turn: Option<&str>) -> ToolResult {
    let result = block_on(core.call_tool_in_turn(tool, &args, turn));
    let Some(pending) = &result.pending else {
        return result;
    };
    let hash = core.confirmation_card(&pending.id).unwrap().argv_hash;
    block_on(core.approve(&pending.id, &hash))
}

fn entry_of(result: &ToolResult) -> String {
    assert!(result.ok, "{}", result.text);
    result
        .journal
        .as_ref()
        .expect("a journal entry")
        .entry
        .clone()
}

fn note(notes: &Notes, path: &str) -> Option<String> {
    notes.borrow().get(path).cloned()
}

fn undo(core: &VaultAgent<FakeHost>, id: &str) -> ToolResult {
    block_on(core.undo(id, None))
}

#[test]
fn every_kind_of_change_is_undone_exactly() {
    let cases: Vec<(&str, Value, &str)> = vec![
        (
            "obsidianEdit",
            json!({"command": "append", "file": "Plan", "content": "- added"}),
            PLAN,
        ),
        (
            "obsidianEdit",
            json!({"command": "prepend", "path": PLAN, "content": "> first"}),
            PLAN,
        ),
        (
            "obsidianEdit",
            json!({"command": "edit", "path": PLAN, "find": "# Plan", "with": "# The plan"}),
            PLAN,
        ),
        (
            "obsidianDailyNote",
            json!({"command": "daily:append", "content": "- [ ] Call Bob"}),
            DAILY,
        ),
        (
            "obsidianDailyNote",
            json!({"command": "daily:prepend", "content": "## Morning"}),
            DAILY,
        ),
        (
            "obsidianProperties",
            json!({"command": "property:set", "name": "status", "value": "done", "file": "Plan"}),
            PLAN,
        ),
        // A one-item list goes back as a list, not as text.
        (
            "obsidianProperties",
            json!({"command": "property:set", "name": "related", "value": "Website", "path": PLAN}),
            PLAN,
        ),
        (
            "obsidianProperties",
            json!({"command": "property:set", "name": "owner", "value": "Ada", "path": PLAN}),
            PLAN,
        ),
        (
            "obsidianProperties",
            json!({"command": "property:remove", "name": "status", "path": PLAN}),
            PLAN,
        ),
        (
            "obsidianTasks",
            json!({"command": "task", "ref": "Projects/Plan.md:6", "done": true}),
            PLAN,
        ),
        (
            "obsidianTasks",
            json!({"command": "task", "file": "Plan", "line": 7, "todo": true}),
            PLAN,
        ),
    ];
    for (tool, args, path) in cases {
        let (core, notes) = core();
        let before = note(&notes, path).unwrap();
        let result = call(&core, tool, args.clone());
        let id = entry_of(&result);
        assert_ne!(
            note(&notes, path).unwrap(),
            before,
            "{args}: the change ran"
        );
        assert!(result.diff.is_some(), "{args}: the block shows a diff");
        let undone = undo(&core, &id);
        assert!(undone.ok, "{args}: {}", undone.text);
        assert_eq!(
            note(&notes, path).unwrap(),
            before,
            "{args}: restored byte for byte"
        );
        assert!(core.journal_entry(&id).unwrap().undone);
    }
}

#[test]
fn an_addition_approved_on_a_card_is_journaled_too() {
    let (core, notes) = core();
    let mut settings = core.settings().to_json();
    settings["permissionMode"] = json!("askEveryChange");
    core.set_settings(&settings);
    for (tool, args, path) in [
        (
            "obsidianEdit",
            json!({"command": "append", "path": PLAN, "content": "- asked"}),
            PLAN,
        ),
        (
            "obsidianDailyNote",
            json!({"command": "daily:prepend", "content": "## Asked"}),
            DAILY,
        ),
    ] {
        let before = note(&notes, path).unwrap();
        let pending = block_on(core.call_tool(tool, &args));
        assert!(pending.pending.is_some(), "{args}: a card first");
        assert!(pending.journal.is_none(), "{args}: nothing ran yet");
        let done = call(&core, tool, args.clone());
        let undone = undo(&core, &entry_of(&done));
        assert!(undone.ok, "{args}: {}", undone.text);
        assert_eq!(note(&notes, path).unwrap(), before, "{args}");
    }
}

#[test]
fn created_notes_go_to_the_trash_only_while_they_hold_what_was_written() {
    let (core, notes) = core();
    let made = call(
        &core,
        "obsidianEdit",
        json!({"command": "create", "path": "Projects/Q3.md", "content": "# Q3"}),
    );
    let id = entry_of(&made);
    assert!(undo(&core, &id).ok);
    assert_eq!(note(&notes, "Projects/Q3.md"), None);
    assert_eq!(
        core.host().trash.borrow().last().unwrap(),
        &("Projects/Q3.md".to_string(), "# Q3".to_string())
    );
    // base:create names only the file; the note is found by its name.
    let item = call(
        &core,
        "obsidianBases",
        json!({"command": "base:create", "file": "Projects", "name": "Shed", "content": "Build it."}),
    );
    let id = entry_of(&item);
    assert!(core.journal_entry(&id).unwrap().undoable);
    notes
        .borrow_mut()
        .get_mut("Items/Shed.md")
        .unwrap()
        .push_str("\nmy notes");
    let refused = undo(&core, &id);
    assert_eq!(refused.code(), Some("undo_conflict"), "{}", refused.text);
    assert!(note(&notes, "Items/Shed.md").is_some(), "not trashed");
    // A daily note the append created goes to the trash too.
    notes.borrow_mut().remove(DAILY);
    let first = call(
        &core,
        "obsidianDailyNote",
        json!({"command": "daily:append", "content": "- first"}),
    );
    assert!(undo(&core, &entry_of(&first)).ok);
    assert_eq!(note(&notes, DAILY), None);
}

#[test]
fn a_base_item_whose_name_is_taken_is_recorded_but_not_undoable() {
    let (core, notes) = core();
    notes
        .borrow_mut()
        .insert("Elsewhere/Shed.md".into(), "mine".into());
    let item = call(
        &core,
        "obsidianBases",
        json!({"command": "base:create", "file": "Projects", "name": "Shed"}),
    );
    let journal = item.journal.clone().unwrap();
    assert!(!journal.undoable);
    assert!(journal.reason.unwrap().contains("also named \"Shed\""));
    assert_eq!(undo(&core, &journal.entry).code(), Some("not_undoable"));
    assert_eq!(note(&notes, "Elsewhere/Shed.md").unwrap(), "mine");
}

#[test]
fn a_bookmark_is_recorded_with_the_reason_it_cannot_be_undone() {
    let (core, _) = core();
    let result = call(
        &core,
        "obsidianBookmarks",
        json!({"command": "bookmark", "file": PLAN}),
    );
    let journal = result.journal.clone().expect("recorded");
    assert!(!journal.undoable);
    assert!(journal.reason.as_deref().unwrap().contains("Bookmarks"));
    let refused = undo(&core, &journal.entry);
    assert_eq!(refused.code(), Some("not_undoable"));
    assert!(refused.text.contains("no command that removes a bookmark"));
}

#[test]
fn an_undo_after_the_users_edit_shows_the_diff_and_changes_nothing_until_anyway() {
    let (core, notes) = core();
    let id = entry_of(&call(
        &core,
        "obsidianEdit",
        json!({"command": "append", "path": PLAN, "content": "- added"}),
    ));
    notes
        .borrow_mut()
        .get_mut(PLAN)
        .unwrap()
        .push_str("\r\ntyped by the user");
    let edited = note(&notes, PLAN).unwrap();
    let refused = undo(&core, &id);
    assert_eq!(refused.code(), Some("undo_conflict"), "{}", refused.text);
    assert!(refused.text.contains("Undo anyway"), "{}", refused.text);
    let diff = refused.diff.clone().expect("then and now");
    assert_eq!((diff.added, diff.removed), (1, 0));
    assert!(
        diff.unified().contains("+typed by the user"),
        "{}",
        diff.unified()
    );
    assert_eq!(note(&notes, PLAN).unwrap(), edited, "nothing changed");
    assert!(!core.journal_entry(&id).unwrap().undone);
    let hash = refused.journal.clone().unwrap().conflict_hash.unwrap();
    // Typed again after the dialog appeared: asked again, still nothing changed.
    notes.borrow_mut().get_mut(PLAN).unwrap().push('!');
    let again = block_on(core.undo(&id, Some(&hash)));
    assert_eq!(again.code(), Some("undo_conflict"));
    assert!(note(&notes, PLAN).unwrap().ends_with("user!"));
    let hash = again.journal.unwrap().conflict_hash.unwrap();
    let anyway = block_on(core.undo(&id, Some(&hash)));
    assert!(anyway.ok, "{}", anyway.text);
    assert_eq!(note(&notes, PLAN).unwrap(), PLAN_TEXT);
}

#[test]
fn a_property_changed_since_is_a_conflict_too() {
    let (core, notes) = core();
    let id = entry_of(&call(
        &core,
        "obsidianProperties",
        json!({"command": "property:set", "name": "status", "value": "done", "path": PLAN}),
    ));
    {
        let mut notes = notes.borrow_mut();
        let plan = notes.get_mut(PLAN).unwrap();
        *plan = plan.replace("status: done", "status: paused");
    }
    let refused = undo(&core, &id);
    assert_eq!(refused.code(), Some("undo_conflict"));
    assert!(refused.diff.unwrap().unified().contains("-done\n+paused"));
    assert!(note(&notes, PLAN).unwrap().contains("status: paused"));
}

#[test]
fn a_property_or_task_undo_keeps_the_users_other_edits() {
    let (core, notes) = core();
    let set = entry_of(&call(
        &core,
        "obsidianProperties",
        json!({"command": "property:set", "name": "status", "value": "done", "path": PLAN}),
    ));
    let task = entry_of(&call(
        &core,
        "obsidianTasks",
        json!({"command": "task", "path": PLAN, "line": 6, "done": true}),
    ));
    notes
        .borrow_mut()
        .get_mut(PLAN)
        .unwrap()
        .push_str("typed by the user\r\n");
    assert!(undo(&core, &task).ok);
    let undone = undo(&core, &set);
    assert!(undone.ok, "{}", undone.text);
    assert_eq!(
        note(&notes, PLAN).unwrap(),
        format!("{PLAN_TEXT}typed by the user\r\n"),
        "only the value and the status went back"
    );
}

#[test]
fn an_entry_is_undone_once() {
    let (core, _) = core();
    let id = entry_of(&call(
        &core,
        "obsidianEdit",
        json!({"command": "append", "path": PLAN, "content": "- added"}),
    ));
    assert!(undo(&core, &id).ok);
    let twice = undo(&core, &id);
    assert_eq!(twice.code(), Some("already_undone"), "{}", twice.text);
    assert_eq!(undo(&core, "u999").code(), Some("undo_not_found"));
    assert_eq!(block_on(core.undo_last()).code(), Some("nothing_to_undo"));
}

#[test]
fn undo_last_takes_the_newest_change_left() {
    let (core, notes) = core();
    for content in ["- one", "- two"] {
        call(
            &core,
            "obsidianEdit",
            json!({"command": "append", "path": PLAN, "content": content}),
        );
    }
    assert!(block_on(core.undo_last()).ok);
    assert!(note(&notes, PLAN).unwrap().ends_with("- one"));
    assert!(block_on(core.undo_last()).ok);
    assert_eq!(note(&notes, PLAN).unwrap(), PLAN_TEXT);
}

#[test]
fn a_turn_is_undone_newest_first() {
    let (core, notes) = core();
    let turn = Some("chat-1#1");
    // Two appends to one note: only newest first restores it.
    for content in ["- one", "- two"] {
        call_in(
            &core,
            "obsidianEdit",
            json!({"command": "append", "path": PLAN, "content": content}),
            turn,
        );
    }
    call_in(
        &core,
        "obsidianProperties",
        json!({"command": "property:set", "name": "status", "value": "done", "path": PLAN}),
        turn,
    );
    call_in(
        &core,
        "obsidianBookmarks",
        json!({"command": "bookmark", "file": PLAN}),
        turn,
    );
    // Another answer's change stays.
    call_in(
        &core,
        "obsidianDailyNote",
        json!({"command": "daily:append", "content": "- other answer"}),
        Some("chat-1#2"),
    );
    let daily = note(&notes, DAILY).unwrap();
    assert_eq!(core.turn_changes("chat-1#1").undoable, 3);
    let result = block_on(core.undo_turn("chat-1#1"));
    assert!(result.ok, "{}", result.text);
    assert!(
        result.text.starts_with("Undid 3 changes"),
        "{}",
        result.text
    );
    assert!(
        result.text.contains("Not undoable: Changed the bookmarks"),
        "{}",
        result.text
    );
    assert_eq!(note(&notes, PLAN).unwrap(), PLAN_TEXT);
    assert_eq!(note(&notes, DAILY).unwrap(), daily);
    assert_eq!(core.turn_changes("chat-1#1").undoable, 0);
    assert_eq!(core.last_turn().as_deref(), Some("chat-1#2"));
}

#[test]
fn a_turn_stops_at_the_first_conflict_and_says_what_is_left() {
    let (core, notes) = core();
    let turn = Some("t");
    call_in(
        &core,
        "obsidianDailyNote",
        json!({"command": "daily:append", "content": "- a"}),
        turn,
    );
    call_in(
        &core,
        "obsidianEdit",
        json!({"command": "append", "path": PLAN, "content": "- b"}),
        turn,
    );
    call_in(
        &core,
        "obsidianDailyNote",
        json!({"command": "daily:prepend", "content": "c"}),
        turn,
    );
    notes
        .borrow_mut()
        .get_mut(PLAN)
        .unwrap()
        .push_str("\r\nmine");
    let result = block_on(core.undo_turn("t"));
    assert_eq!(result.code(), Some("undo_conflict"), "{}", result.text);
    assert!(
        result.text.starts_with("Undid 1 of 3 changes"),
        "{}",
        result.text
    );
    assert!(result.text.contains("Not undone: Added text to the end of \"Projects/Plan.md\"; Added text to the end of \"Daily/2026-03-03.md\""), "{}", result.text);
    assert!(result.diff.is_some());
    assert_eq!(
        note(&notes, DAILY).unwrap(),
        "# 2026-03-03\n- met Bob\n- a",
        "the newest change was undone, the oldest kept"
    );
    // Undo anyway on the conflict, then the rest of the answer.
    let journal = result.journal.unwrap();
    assert!(block_on(core.undo(&journal.entry, journal.conflict_hash.as_deref())).ok);
    assert!(block_on(core.undo_turn("t")).ok);
    assert_eq!(note(&notes, DAILY).unwrap(), "# 2026-03-03\n- met Bob\n");
}

#[test]
fn the_journal_is_bounded_and_the_oldest_go_first() {
    let (core, _) = core();
    let first = entry_of(&call(
        &core,
        "obsidianEdit",
        json!({"command": "append", "path": PLAN, "content": "- 0"}),
    ));
    for i in 1..(MAX_ENTRIES + 3) {
        call(
            &core,
            "obsidianEdit",
            json!({"command": "append", "path": PLAN, "content": format!("- {i}")}),
        );
    }
    assert_eq!(core.journal().len(), MAX_ENTRIES);
    let saves = core.host().journal_saves.borrow();
    let dropped: usize = saves.iter().map(|(_, n)| n).sum();
    assert_eq!(dropped, 3, "the host was told of each drop");
    assert_eq!(undo(&core, &first).code(), Some("undo_not_found"));
}

#[test]
fn the_journal_survives_a_restart() {
    let (core, notes) = core();
    let id = entry_of(&call(
        &core,
        "obsidianEdit",
        json!({"command": "append", "path": PLAN, "content": "- kept"}),
    ));
    let saved = core.host().journal_saves.borrow().last().unwrap().0.clone();
    drop(core);
    // A new core over the same notes, with vault changes off.
    let mut host = FakeHost::new(Os::Linux, |_| ProcessOutcome::success(""));
    host.env.insert("PATH".into(), "/usr/bin".into());
    host.add_executable("/usr/bin/obsidian");
    host.notes = notes.clone();
    let state = notes.clone();
    host.respond_with(move |request| {
        ProcessOutcome::success(&respond(&mut state.borrow_mut(), &request.args))
    });
    let restarted = VaultAgent::new(host, &json!({})).0;
    let repairs = restarted.load_journal(&serde_json::from_str(&saved).unwrap());
    assert!(repairs.is_empty(), "{repairs:?}");
    // Undo is the user's own click: it works with vault changes off.
    let undone = undo(&restarted, &id);
    assert!(undone.ok, "{}", undone.text);
    assert_eq!(note(&notes, PLAN).unwrap(), PLAN_TEXT);
}

#[test]
fn a_hand_edited_journal_cannot_aim_an_undo_at_the_configuration_folder() {
    let (core, notes) = core();
    notes
        .borrow_mut()
        .insert(".obsidian/plugins/x/main.js".into(), "after".into());
    core.load_journal(&json!({"entries": [{
        "id": "u1", "time": 1, "tool": "obsidianEdit", "command": "append",
        "target": ".obsidian/plugins/x/main.js", "summary": "s", "writtenHash": "",
        "undo": {"kind": "text", "before": "evil", "after": "after"}
    }]}));
    let refused = undo(&core, "u1");
    assert_eq!(refused.code(), Some("not_undoable"), "{}", refused.text);
    assert_eq!(
        note(&notes, ".obsidian/plugins/x/main.js").unwrap(),
        "after"
    );
}

#[test]
fn every_write_command_leaves_a_journal_entry() {
    let calls: Vec<(&str, Value)> = vec![
        (
            "obsidianEdit",
            json!({"command": "create", "name": "New", "content": "x"}),
        ),
        (
            "obsidianEdit",
            json!({"command": "append", "path": PLAN, "content": "x"}),
        ),
        (
            "obsidianEdit",
            json!({"command": "prepend", "path": PLAN, "content": "x"}),
        ),
        (
            "obsidianEdit",
            json!({"command": "edit", "path": PLAN, "find": "Ship", "with": "Go"}),
        ),
        (
            "obsidianTags",
            json!({"command": "tag:add", "path": PLAN, "tag": "urgent"}),
        ),
        (
            "obsidianTags",
            json!({"command": "tag:remove", "path": PLAN, "tag": "plan"}),
        ),
        (
            "obsidianOrganise",
            json!({"command": "move", "path": PLAN, "to": "Archive"}),
        ),
        (
            "obsidianOrganise",
            json!({"command": "rename", "path": PLAN, "name": "Plan 2"}),
        ),
        (
            "obsidianOrganise",
            json!({"command": "delete", "path": PLAN}),
        ),
        (
            "obsidianDailyNote",
            json!({"command": "daily:append", "content": "x"}),
        ),
        (
            "obsidianDailyNote",
            json!({"command": "daily:prepend", "content": "x"}),
        ),
        (
            "obsidianTasks",
            json!({"command": "task", "path": PLAN, "line": 6, "status": "-"}),
        ),
        (
            "obsidianProperties",
            json!({"command": "property:set", "name": "a", "value": "b", "path": PLAN}),
        ),
        (
            "obsidianProperties",
            json!({"command": "property:remove", "name": "status", "path": PLAN}),
        ),
        (
            "obsidianBases",
            json!({"command": "base:create", "file": "Projects", "name": "Item"}),
        ),
        (
            "obsidianBookmarks",
            json!({"command": "bookmark", "url": "https://obsidian.md"}),
        ),
        (
            "obsidianMemory",
            json!({"command": "add", "fact": "Likes tea."}),
        ),
        (
            "obsidianMemory",
            json!({"command": "update", "line": "Prefers ISO dates.", "fact": "Prefers long dates."}),
        ),
        (
            "obsidianMemory",
            json!({"command": "remove", "line": "Prefers ISO dates."}),
        ),
    ];
    for tool in builtin_tools() {
        for command in tool.commands.iter().filter(|c| c.access.is_write()) {
            assert!(
                calls
                    .iter()
                    .any(|(t, a)| *t == tool.id && a["command"] == command.name),
                "no case for {} {}",
                tool.id,
                command.name
            );
        }
    }
    for (tool, args) in calls {
        let spec = builtin_tools().into_iter().find(|t| t.id == tool).unwrap();
        let parsed = spec.parse_call(&args).unwrap();
        assert!(
            parsed.args.plan().undo_kind().is_some(),
            "{args}: declares how it is undone"
        );
        let (core, notes) = core();
        if tool == "obsidianMemory" {
            notes.borrow_mut().insert(
                "Agent memory/Memory.md".into(),
                "- Prefers ISO dates. (2026-12-01, chat \"Trips\")\n".into(),
            );
        }
        if args["command"] == "tag:remove" {
            notes
                .borrow_mut()
                .insert(PLAN.into(), format!("{PLAN_TEXT}#plan\r\n"));
        }
        let result = call(&core, tool, args.clone());
        assert!(result.ok, "{args}: {}", result.text);
        let journal = result.journal.expect("a journal entry");
        assert!(core.journal_entry(&journal.entry).is_some());
        assert!(
            !core.host().journal_saves.borrow().is_empty(),
            "{args}: saved"
        );
    }
}

#[test]
fn the_model_has_no_way_to_undo() {
    for tool in builtin_tools() {
        let schema = tool.input_schema().to_string().to_lowercase();
        assert!(!schema.contains("undo"), "{}: {schema}", tool.id);
        assert!(tool.command_names().iter().all(|c| !c.contains("undo")));
    }
}

#[derive(Default)]
struct Events(RefCell<Vec<ChatEvent>>);

impl ChatEvents for Events {
    fn emit(&self, event: ChatEvent) {
        self.0.borrow_mut().push(event);
    }
}

fn sse(calls: &[(&str, Value)], text: &str) -> ScriptedHttp {
    let mut body = String::new();
    if !text.is_empty() {
        body.push_str(&format!(
            "data: {}\n\n",
            json!({"choices": [{"delta": {"content": text}}]})
        ));
    }
    for (i, (name, args)) in calls.iter().enumerate() {
        body.push_str(&format!(
            "data: {}\n\n",
            json!({"choices": [{"delta": {"tool_calls": [{"index": i, "id": format!("call_{i}"), "type": "function", "function": {"name": name, "arguments": args.to_string()}}]}}]})
        ));
    }
    body.push_str("data: [DONE]\n\n");
    ScriptedHttp::Response {
        status: 200,
        chunks: vec![body.into_bytes()],
    }
}

#[test]
fn the_chat_journals_each_answers_changes_under_its_turn() {
    let (core, notes) = core();
    let mut conversation = Conversation::new("chat-7".into(), 0.0);
    for (n, content) in ["- first", "- second"].iter().enumerate() {
        core.host().script_http(sse(
            &[(
                "obsidianDailyNote",
                json!({"command": "daily:append", "content": content}),
            )],
            "",
        ));
        core.host().script_http(sse(&[], "Added."));
        block_on(
            core.chat
                .send(&mut conversation, &format!("add {n}"), &Events::default()),
        );
    }
    let turns: Vec<String> = conversation
        .messages
        .iter()
        .filter_map(|m| match m {
            ChatMessage::Tool { result, .. } => {
                result.journal.as_ref().and_then(|j| j.turn.clone())
            }
            _ => None,
        })
        .collect();
    assert_eq!(turns, ["chat-7#1", "chat-7#2"]);
    // The model read nothing about undo: its tool message is the CLI's answer.
    let body: Value =
        serde_json::from_str(core.host().http_requests.borrow()[1].body.as_ref().unwrap()).unwrap();
    assert!(!body.to_string().contains("journal"), "{body}");
    // The first answer's append is under the second's: it waits its turn.
    let first = block_on(core.undo_turn("chat-7#1"));
    assert_eq!(first.code(), Some("undo_conflict"), "{}", first.text);
    let second = block_on(core.undo_turn("chat-7#2"));
    assert!(second.ok, "{}", second.text);
    assert_eq!(
        note(&notes, DAILY).unwrap(),
        "# 2026-03-03\n- met Bob\n- first"
    );
    assert!(block_on(core.undo_turn("chat-7#1")).ok);
    assert_eq!(note(&notes, DAILY).unwrap(), "# 2026-03-03\n- met Bob\n");
}
