//! The confirmation machine through the core: previews, approval bound to the
//! exact argv, single use, expiry on a fake clock, rejection and staleness.

use std::cell::RefCell;
use std::rc::Rc;

use serde_json::{json, Value};
use vault_agent::base::card::ConfirmationState;
use vault_agent::base::host::{Os, ProcessOutcome};
use vault_agent::testing::{block_on, FakeHost};
use vault_agent::{ToolResult, VaultAgent};

/// A fake CLI over one note, `Plan.md`: its `status` and `tags` properties
/// and its third line, a task; and over today's daily note, the bookmarks
/// and one base. It prints what the real CLI prints where captures show it
/// (`Set <name>: <value>`, a list one item per line).
struct Vault {
    status: Option<String>,
    tags: Vec<String>,
    task: String,
    daily: String,
    bookmarks: Vec<Value>,
    base_notes: Vec<String>,
    writes: Vec<Vec<String>>,
}

impl Vault {
    fn note(&self) -> String {
        format!("# Plan\n\n{}\n- [x] Done already\n", self.task)
    }
}

fn value_of<'a>(args: &'a [String], key: &str) -> Option<&'a str> {
    args.iter()
        .find_map(|a| a.strip_prefix(key)?.strip_prefix('='))
}

fn core_with_vault(settings: Value) -> (VaultAgent<FakeHost>, Rc<RefCell<Vault>>) {
    let vault = Rc::new(RefCell::new(Vault {
        status: Some("active".into()),
        tags: vec!["project".into(), "launch".into()],
        task: "- [ ] Ship it".into(),
        daily: "# Tuesday\n- [ ] Standup".into(),
        bookmarks: vec![json!({"type": "folder", "path": "Ideas"})],
        base_notes: Vec::new(),
        writes: Vec::new(),
    }));
    let state = vault.clone();
    let mut host = FakeHost::new(Os::Linux, move |request| {
        let mut v = state.borrow_mut();
        let args = &request.args;
        let output = match args[0].as_str() {
            "property:read" if value_of(args, "name") == Some("tags") => v.tags.join("\n"),
            "property:read" => match &v.status {
                Some(value) => value.clone(),
                None => "Error: Property \"status\" not found.".into(),
            },
            "property:set" => {
                v.writes.push(args.clone());
                let value = value_of(args, "value").unwrap_or_default().to_string();
                if value_of(args, "name") == Some("tags") {
                    v.tags = value.split(',').map(|t| t.trim().to_string()).collect();
                } else {
                    v.status = Some(value.clone());
                }
                format!(
                    "Set {}: {value}",
                    value_of(args, "name").unwrap_or_default()
                )
            }
            "property:remove" => {
                v.writes.push(args.clone());
                v.status = None;
                "Property \"status\" removed from Plan.md".into()
            }
            "read" if value_of(args, "path") == Some("Plan.md") => v.note(),
            // What `task` prints is not known (no capture); the plugin must
            // not depend on it, so this fake prints something unhelpful.
            "task" if args.iter().any(|a| a == "done") => {
                v.writes.push(args.clone());
                v.task = v.task.replacen("[ ]", "[x]", 1);
                "OK".into()
            }
            "task" => "?".into(),
            "daily:read" => v.daily.clone(),
            "daily:append" => {
                v.writes.push(args.clone());
                let content = value_of(args, "content").unwrap_or("").to_string();
                v.daily = format!("{}\n{content}", v.daily);
                String::new()
            }
            "bookmarks" => serde_json::to_string(&v.bookmarks).unwrap(),
            "bookmark" => {
                v.writes.push(args.clone());
                let url = value_of(args, "url").unwrap_or("").to_string();
                v.bookmarks.push(json!({"type": "url", "url": url}));
                format!("Bookmarked: {url}")
            }
            // `<name>\t<type>` lines, as the captures of the real CLI show.
            "base:views" => "Table\ttable\nBoard\tcards".into(),
            "base:create" => {
                v.writes.push(args.clone());
                let name = value_of(args, "name").unwrap_or("Untitled").to_string();
                v.base_notes.push(name.clone());
                format!("Created Projects/{name}.md")
            }
            other => format!("Error: unexpected {other}"),
        };
        ProcessOutcome::success(&output)
    });
    host.env.insert("PATH".into(), "/usr/bin".into());
    host.add_executable("/usr/bin/obsidian");
    let settings = if settings.is_null() {
        json!({"permissionMode": "askBeforeEdits"})
    } else {
        settings
    };
    (VaultAgent::new(host, &settings).0, vault)
}

fn set_status(core: &VaultAgent<FakeHost>, value: &str) -> ToolResult {
    block_on(core.call_tool(
        "obsidianProperties",
        &json!({"command": "property:set", "name": "status", "value": value, "file": "Plan"}),
    ))
}

fn hash_of(core: &VaultAgent<FakeHost>, id: &str) -> String {
    core.confirmation_card(id).unwrap().argv_hash
}

#[test]
fn a_confirmed_write_waits_then_runs_once_on_approval() {
    let (core, vault) = core_with_vault(Value::Null);
    let pending = set_status(&core, "done");
    assert!(!pending.ok);
    assert_eq!(pending.error, None, "pending is not an error");
    let view = pending.pending.clone().expect("pending");
    assert_eq!(view.summary, "Set property \"status\" of note \"Plan\"");
    assert_eq!(
        (view.preview.before.as_str(), view.preview.after.as_str()),
        ("active", "done")
    );
    assert!(
        vault.borrow().writes.is_empty(),
        "nothing written before approval"
    );
    assert_eq!(
        pending.argv.as_deref().unwrap(),
        ["property:set", "name=status", "value=done", "file=Plan"]
    );

    let card = core.confirmation_card(&view.id).unwrap();
    assert_eq!(card.state, ConfirmationState::Proposed);
    assert_eq!(card.argv, pending.argv.unwrap());
    assert_eq!(core.open_confirmations().len(), 1);

    let result = block_on(core.approve(&view.id, &card.argv_hash));
    assert!(result.ok, "{}", result.text);
    assert_eq!(vault.borrow().writes.len(), 1);
    assert_eq!(vault.borrow().status.as_deref(), Some("done"));
    assert_eq!(
        core.confirmation_card(&view.id).unwrap().state,
        ConfirmationState::Done
    );
    assert!(core.open_confirmations().is_empty());

    // Replay: the same approval again is refused and writes nothing.
    let replay = block_on(core.approve(&view.id, &card.argv_hash));
    assert_eq!(replay.code(), Some("confirmation_used"));
    assert_eq!(vault.borrow().writes.len(), 1);
}

#[test]
fn approving_a_different_argv_fails_and_leaves_the_card_waiting() {
    let (core, vault) = core_with_vault(Value::Null);
    let first = set_status(&core, "done").pending.unwrap();
    let second = set_status(&core, "archived").pending.unwrap();
    let result = block_on(core.approve(&first.id, &hash_of(&core, &second.id)));
    assert_eq!(result.code(), Some("argv_mismatch"));
    assert!(vault.borrow().writes.is_empty());
    assert_eq!(
        core.confirmation_card(&first.id).unwrap().state,
        ConfirmationState::Proposed
    );
    let made_up = block_on(core.approve(&first.id, "0000"));
    assert_eq!(made_up.code(), Some("argv_mismatch"));
}

#[test]
fn an_expired_confirmation_cannot_be_approved() {
    let (core, vault) =
        core_with_vault(json!({"permissionMode": "askBeforeEdits", "confirmationExpiryMs": 60000}));
    let clock = core.host().clock();
    let view = set_status(&core, "done").pending.unwrap();
    let hash = hash_of(&core, &view.id);
    clock.set(clock.get() + 60_001.0);
    let result = block_on(core.approve(&view.id, &hash));
    assert_eq!(result.code(), Some("confirmation_expired"));
    assert!(result.text.contains("expired"));
    assert!(vault.borrow().writes.is_empty());
    assert_eq!(
        core.confirmation_card(&view.id).unwrap().state,
        ConfirmationState::Expired
    );
}

#[test]
fn a_rejected_confirmation_runs_nothing_and_tells_the_model() {
    let (core, vault) = core_with_vault(Value::Null);
    let view = set_status(&core, "done").pending.unwrap();
    let hash = hash_of(&core, &view.id);
    let rejected = core.reject(&view.id);
    assert_eq!(rejected.code(), Some("confirmation_rejected"));
    assert!(rejected.text.contains("rejected"));
    let after = block_on(core.approve(&view.id, &hash));
    assert_eq!(after.code(), Some("confirmation_rejected"));
    assert_eq!(core.reject(&view.id).code(), Some("confirmation_rejected"));
    assert!(vault.borrow().writes.is_empty());
    assert_eq!(
        core.reject("c999-nope").code(),
        Some("confirmation_not_found")
    );
}

#[test]
fn a_target_that_changed_since_the_preview_is_stale_and_asked_again() {
    let (core, vault) = core_with_vault(Value::Null);
    let view = set_status(&core, "done").pending.unwrap();
    let hash = hash_of(&core, &view.id);
    vault.borrow_mut().status = Some("paused".into()); // someone edited the note
    let result = block_on(core.approve(&view.id, &hash));
    assert_eq!(result.code(), Some("stale"), "{}", result.text);
    assert!(result.text.contains("paused"), "{}", result.text);
    assert!(vault.borrow().writes.is_empty(), "the write did not run");
    assert_eq!(
        core.confirmation_card(&view.id).unwrap().state,
        ConfirmationState::Stale
    );
    let again = result.pending.expect("a fresh preview");
    assert_ne!(again.id, view.id);
    assert_eq!(again.preview.before, "paused");
    let result = block_on(core.approve(&again.id, &hash_of(&core, &again.id)));
    assert!(result.ok, "{}", result.text);
    assert_eq!(vault.borrow().status.as_deref(), Some("done"));
}

#[test]
fn task_changes_preview_the_line_now_and_after() {
    let (core, vault) = core_with_vault(Value::Null);
    let pending = block_on(core.call_tool(
        "obsidianTasks",
        &json!({"command": "task", "ref": "Plan.md:3", "done": true}),
    ));
    let view = pending.pending.expect("pending");
    assert_eq!(view.summary, "Change the task at Plan.md:3");
    // Taken from the note itself (`read path=Plan.md`), line 3.
    assert_eq!(view.preview.before, "- [ ] Ship it");
    assert_eq!(view.preview.after, "- [x] Ship it");
    let result = block_on(core.approve(&view.id, &hash_of(&core, &view.id)));
    assert!(result.ok, "{}", result.text);
    assert_eq!(
        vault.borrow().writes,
        vec![vec![
            "task".to_string(),
            "ref=Plan.md:3".into(),
            "done".into()
        ]]
    );
}

#[test]
fn a_task_line_that_changed_makes_the_card_stale() {
    let (core, vault) = core_with_vault(Value::Null);
    let view = block_on(core.call_tool(
        "obsidianTasks",
        &json!({"command": "task", "ref": "Plan.md:3", "done": true}),
    ))
    .pending
    .expect("pending");
    vault.borrow_mut().task = "- [/] Ship it".into(); // changed in the app meanwhile
    let result = block_on(core.approve(&view.id, &hash_of(&core, &view.id)));
    assert_eq!(result.code(), Some("stale"), "{}", result.text);
    assert!(vault.borrow().writes.is_empty(), "the write did not run");
    let again = result.pending.expect("a fresh preview");
    assert_eq!(again.preview.before, "- [/] Ship it");
    assert_eq!(again.preview.after, "- [x] Ship it");
}

#[test]
fn a_task_preview_that_cannot_be_built_opens_no_card() {
    let (core, vault) = core_with_vault(Value::Null);
    for (reference, why) in [("Plan.md:1", "not a task"), ("Plan.md:9", "has 4 lines")] {
        let result = block_on(core.call_tool(
            "obsidianTasks",
            &json!({"command": "task", "ref": reference, "done": true}),
        ));
        assert_eq!(result.code(), Some("cli_error"), "{reference}");
        assert!(result.text.contains(why), "{reference}: {}", result.text);
    }
    assert!(core.open_confirmations().is_empty());
    assert!(vault.borrow().writes.is_empty());
}

#[test]
fn list_properties_preview_one_item_per_line() {
    let (core, vault) = core_with_vault(Value::Null);
    let view = block_on(core.call_tool(
        "obsidianProperties",
        &json!({"command": "property:set", "name": "tags", "value": "project, launch, q2", "file": "Plan"}),
    ))
    .pending
    .expect("pending");
    assert_eq!(view.preview.before, "project\nlaunch");
    assert_eq!(view.preview.after, "project\nlaunch\nq2");
    let result = block_on(core.approve(&view.id, &hash_of(&core, &view.id)));
    assert!(result.ok, "{}", result.text);
    assert_eq!(result.text, "Set tags: project, launch, q2");
    assert_eq!(vault.borrow().tags, ["project", "launch", "q2"]);
}

#[test]
fn removing_a_property_that_is_not_set_is_refused_without_a_card() {
    let (core, vault) = core_with_vault(Value::Null);
    vault.borrow_mut().status = None;
    let result = block_on(core.call_tool(
        "obsidianProperties",
        &json!({"command": "property:remove", "name": "status", "file": "Plan"}),
    ));
    assert_eq!(result.code(), Some("cli_error"));
    assert!(result.text.contains("nothing to remove"), "{}", result.text);
    assert!(core.open_confirmations().is_empty());
}

/// A card approved after the user switched to Read only does not run: the
/// approval passes the same gate as the proposal. Both the mode and an older
/// client's `allowVaultChanges: false` (migrated to Read only) win.
#[test]
fn switching_to_read_only_wins_over_an_open_card() {
    for read_only in [
        json!({"permissionMode": "readOnly"}),
        json!({"allowVaultChanges": false}),
    ] {
        let (core, vault) = core_with_vault(Value::Null);
        let view = set_status(&core, "done").pending.unwrap();
        let hash = hash_of(&core, &view.id);
        core.set_settings(&read_only);
        let result = block_on(core.approve(&view.id, &hash));
        assert_eq!(result.code(), Some("writes_disabled"), "{read_only}");
        assert!(result.text.contains("\"Read only\""), "{}", result.text);
        assert!(vault.borrow().writes.is_empty());
        assert_eq!(
            core.confirmation_card(&view.id).unwrap().state,
            ConfirmationState::Proposed,
            "the card is not used up: switched back, it could still be approved"
        );
    }
}

/// The same for a card that exists only because of Ask before every change.
#[test]
fn an_addition_card_approved_after_switching_to_read_only_does_not_run() {
    let (core, vault) = core_with_vault(json!({"permissionMode": "askEveryChange"}));
    let view = append_to_daily(&core, "- [ ] Call Bob").pending.unwrap();
    let hash = hash_of(&core, &view.id);
    core.set_settings(&json!({"permissionMode": "readOnly"}));
    let result = block_on(core.approve(&view.id, &hash));
    assert_eq!(result.code(), Some("writes_disabled"), "{}", result.text);
    assert!(vault.borrow().writes.is_empty());
    assert!(!vault.borrow().daily.contains("Call Bob"));
}

fn append_to_daily(core: &VaultAgent<FakeHost>, content: &str) -> ToolResult {
    block_on(core.call_tool(
        "obsidianDailyNote",
        &json!({"command": "daily:append", "content": content}),
    ))
}

/// Ask before every change: the additions that run at once in Ask before
/// edits (daily:append, bookmark, base:create) become cards with previews,
/// nothing is written before the click, and the click writes exactly once.
#[test]
fn ask_before_every_change_turns_additions_into_cards() {
    let (core, vault) = core_with_vault(json!({"permissionMode": "askEveryChange"}));

    let pending = append_to_daily(&core, "- [ ] Call Bob");
    let view = pending.pending.expect("daily:append waits for a card");
    assert_eq!(view.summary, "Add to the end of today's daily note");
    assert_eq!(view.preview.before, "# Tuesday\n- [ ] Standup");
    assert_eq!(
        view.preview.after,
        "# Tuesday\n- [ ] Standup\n- [ ] Call Bob"
    );

    let bookmark = block_on(core.call_tool(
        "obsidianBookmarks",
        &json!({"command": "bookmark", "url": "https://obsidian.md"}),
    ))
    .pending
    .expect("bookmark waits for a card");
    assert_eq!(
        bookmark.preview.target,
        "the bookmarks (adds https://obsidian.md)"
    );
    assert_eq!(
        bookmark.preview.before,
        "Not bookmarked yet (1 bookmark now)"
    );
    assert_eq!(bookmark.preview.after, "Bookmarked: https://obsidian.md");

    let item = block_on(core.call_tool(
        "obsidianBases",
        &json!({"command": "base:create", "file": "Projects", "view": "Board", "name": "Launch", "content": "Soon"}),
    ))
    .pending
    .expect("base:create waits for a card");
    assert_eq!(item.summary, "Add a new item in base note \"Projects\"");
    assert_eq!(
        item.preview.before,
        "Base note \"Projects\", views: Table, Board"
    );
    assert!(
        item.preview
            .after
            .starts_with("New note \"Launch\" in view \"Board\""),
        "{}",
        item.preview.after
    );
    assert!(
        item.preview.after.ends_with("\nSoon"),
        "{}",
        item.preview.after
    );

    assert!(vault.borrow().writes.is_empty(), "nothing before a click");
    assert_eq!(core.open_confirmations().len(), 3);

    for id in [&view.id, &bookmark.id, &item.id] {
        let result = block_on(core.approve(id, &hash_of(&core, id)));
        assert!(result.ok, "{}", result.text);
    }
    let writes: Vec<String> = vault.borrow().writes.iter().map(|w| w[0].clone()).collect();
    assert_eq!(
        writes,
        ["daily:append", "bookmark", "base:create"],
        "each once"
    );
    assert_eq!(
        vault.borrow().daily,
        "# Tuesday\n- [ ] Standup\n- [ ] Call Bob"
    );
    assert_eq!(vault.borrow().bookmarks.len(), 2);
    assert_eq!(vault.borrow().base_notes, ["Launch"]);
    // A second click writes nothing more.
    let again = block_on(core.approve(&view.id, &hash_of(&core, &view.id)));
    assert_eq!(again.code(), Some("confirmation_used"));
    assert_eq!(vault.borrow().writes.len(), 3);
}

/// The daily note changed between the card and the click: nothing is
/// appended, and a new card shows the note as it is now.
#[test]
fn an_append_card_goes_stale_when_the_daily_note_changed() {
    let (core, vault) = core_with_vault(json!({"permissionMode": "askEveryChange"}));
    let view = append_to_daily(&core, "- [ ] Call Bob").pending.unwrap();
    vault
        .borrow_mut()
        .daily
        .push_str("\n- [ ] Written in Obsidian");
    let result = block_on(core.approve(&view.id, &hash_of(&core, &view.id)));
    assert_eq!(result.code(), Some("stale"), "{}", result.text);
    assert!(vault.borrow().writes.is_empty());
    let fresh = result.pending.expect("a new card");
    assert!(fresh.preview.before.ends_with("- [ ] Written in Obsidian"));
}

/// The user switched to Ask before edits while an append card waited, and
/// the note changed: the stale card asks again with a new card. Before the
/// fix the new proposal went through the mode, so the append ran at once
/// while the answer said it had not.
#[test]
fn a_stale_card_asks_again_even_where_the_mode_would_run_it_at_once() {
    let (core, vault) = core_with_vault(json!({"permissionMode": "askEveryChange"}));
    let view = append_to_daily(&core, "- [ ] Call Bob").pending.unwrap();
    core.set_settings(&json!({"permissionMode": "askBeforeEdits"}));
    vault
        .borrow_mut()
        .daily
        .push_str("\n- [ ] Written in Obsidian");
    let result = block_on(core.approve(&view.id, &hash_of(&core, &view.id)));
    assert_eq!(result.code(), Some("stale"), "{}", result.text);
    assert!(
        vault.borrow().writes.is_empty(),
        "{:?}",
        vault.borrow().writes
    );
    let fresh = result.pending.expect("a new card");
    let again = block_on(core.approve(&fresh.id, &hash_of(&core, &fresh.id)));
    assert!(again.ok, "{}", again.text);
    assert_eq!(vault.borrow().writes.len(), 1);
}

/// Ask before every change cannot run a write whose preview fails: the
/// error says so and no card or write follows.
#[test]
fn a_preview_that_cannot_be_built_is_an_error_not_a_card() {
    let (core, vault) = core_with_vault(json!({"permissionMode": "askEveryChange"}));
    let result = block_on(core.call_tool(
        "obsidianBases",
        &json!({"command": "base:create", "file": "Projects", "view": "Gallery"}),
    ));
    assert_eq!(result.code(), Some("cli_error"), "{}", result.text);
    assert!(
        result.text.contains("no view \"Gallery\""),
        "{}",
        result.text
    );
    assert!(result.pending.is_none());
    assert!(core.open_confirmations().is_empty());
    assert!(vault.borrow().writes.is_empty());
}

#[test]
fn the_pending_result_has_the_documented_shape() {
    let (core, _) = core_with_vault(Value::Null);
    let value = serde_json::to_value(set_status(&core, "done")).unwrap();
    assert_eq!(value["ok"], false);
    assert!(value.get("error").is_none());
    let pending = &value["pending"];
    assert!(pending["id"].as_str().unwrap().starts_with('c'));
    assert_eq!(
        pending["summary"],
        "Set property \"status\" of note \"Plan\""
    );
    assert_eq!(
        pending["preview"],
        json!({"target": "property \"status\" of note \"Plan\"", "before": "active", "after": "done"})
    );
    assert!(
        pending.get("argvHash").is_none(),
        "the hash only goes to the plugin's own card"
    );
}

/// Regression (hardening #6): the tool was switched off between the card and
/// the click. Before the fix the write ran anyway.
#[test]
fn switching_the_tool_off_wins_over_an_open_card() {
    let (core, vault) = core_with_vault(Value::Null);
    let view = set_status(&core, "done").pending.unwrap();
    let hash = hash_of(&core, &view.id);
    core.set_settings(
        &json!({"permissionMode": "askBeforeEdits", "tools": {"obsidianProperties": false}}),
    );
    let result = block_on(core.approve(&view.id, &hash));
    assert_eq!(result.code(), Some("tool_disabled"), "{}", result.text);
    assert!(vault.borrow().writes.is_empty());
    // Switched on again, the same card can still be approved once.
    core.set_settings(&json!({"permissionMode": "askBeforeEdits"}));
    assert!(block_on(core.approve(&view.id, &hash)).ok);
    assert_eq!(vault.borrow().writes.len(), 1);
}

/// Another vault named since the card appeared: the argv would differ, so
/// the approved command line is not the one that would run.
#[test]
fn a_changed_vault_name_does_not_run_the_old_card() {
    let (core, vault) = core_with_vault(Value::Null);
    let view = set_status(&core, "done").pending.unwrap();
    let hash = hash_of(&core, &view.id);
    core.set_settings(&json!({"permissionMode": "askBeforeEdits", "vaultName": "Other"}));
    let result = block_on(core.approve(&view.id, &hash));
    assert_eq!(result.code(), Some("argv_mismatch"), "{}", result.text);
    assert!(vault.borrow().writes.is_empty());
}

/// Regression (hardening #5): the answer of a confirmation that is over stays
/// available, so a late `waitForConfirmation` resolves.
#[test]
fn the_answer_of_a_finished_confirmation_can_be_asked_for_later() {
    let (core, _) = core_with_vault(Value::Null);
    let view = set_status(&core, "done").pending.unwrap();
    assert_eq!(core.confirmation_outcome(&view.id), None, "still waiting");
    let hash = hash_of(&core, &view.id);
    let ran = block_on(core.approve(&view.id, &hash));
    assert!(ran.ok);
    let later = core.confirmation_outcome(&view.id).unwrap();
    assert_eq!((later.ok, later.text.as_str()), (true, ran.text.as_str()));

    let rejected = set_status(&core, "archived").pending.unwrap();
    core.reject(&rejected.id);
    assert_eq!(
        core.confirmation_outcome(&rejected.id).unwrap().code(),
        Some("confirmation_rejected")
    );
    assert_eq!(core.confirmation_outcome("c999-nope"), None);
}

/// A stale card's answer carries the new proposal, to wait on next.
#[test]
fn a_stale_answer_points_to_the_fresh_card() {
    let (core, vault) = core_with_vault(Value::Null);
    let view = set_status(&core, "done").pending.unwrap();
    let hash = hash_of(&core, &view.id);
    vault.borrow_mut().status = Some("blocked".into());
    let result = block_on(core.approve(&view.id, &hash));
    assert_eq!(result.code(), Some("stale"));
    let later = core.confirmation_outcome(&view.id).unwrap();
    assert_eq!(later.code(), Some("stale"));
    let fresh = later.pending.expect("a new card");
    assert_ne!(fresh.id, view.id);
    assert_eq!(
        core.confirmation_outcome(&fresh.id),
        None,
        "the new one waits"
    );
}

/// A card that went stale and whose call no longer makes sense against what
/// the note holds now (the text to replace is gone, the task line is no
/// task, the note was deleted) is not asked again: the answer says why,
/// instead of promising the user a fresh card that does not exist.
#[test]
fn a_stale_card_that_cannot_be_asked_again_says_why() {
    // Through the CLI: the task line stopped being a task.
    let (core, vault) = core_with_vault(Value::Null);
    let view = block_on(core.call_tool(
        "obsidianTasks",
        &json!({"command": "task", "ref": "Plan.md:3", "done": true}),
    ))
    .pending
    .expect("pending");
    vault.borrow_mut().task = "Shipped, no task any more".into();
    let task = block_on(core.approve(&view.id, &hash_of(&core, &view.id)));

    // Through the vault and the file manager: a fake vault with one note.
    let mut host = FakeHost::new(Os::Linux, |_| ProcessOutcome::success(""));
    host.env.insert("PATH".into(), "/usr/bin".into());
    host.add_executable("/usr/bin/obsidian");
    host.notes
        .borrow_mut()
        .insert("Plan.md".into(), "# Plan\nShip the beta.\n".into());
    host.respond_with(|request| {
        ProcessOutcome::success(match request.args[0].as_str() {
            "file" => "path\tPlan.md\nname\tPlan\nextension\tmd",
            _ => "0",
        })
    });
    let notes = host.notes.clone();
    let core = VaultAgent::new(host, &json!({"permissionMode": "askBeforeEdits"})).0;
    let card = |args: Value| {
        let view = block_on(core.call_tool(
            if args["command"] == "edit" {
                "obsidianEdit"
            } else {
                "obsidianOrganise"
            },
            &args,
        ))
        .pending
        .expect("pending");
        (view.id.clone(), hash_of(&core, &view.id))
    };
    let (edit, edit_hash) = card(
        json!({"command": "edit", "path": "Plan.md", "find": "Ship the beta.", "with": "Ship 1.0."}),
    );
    let (moved, moved_hash) = card(json!({"command": "move", "path": "Plan.md", "to": "Archive"}));
    notes
        .borrow_mut()
        .insert("Plan.md".into(), "# Plan\nShipped.\n".into());
    let edit = block_on(core.approve(&edit, &edit_hash));
    notes.borrow_mut().remove("Plan.md");
    let moved = block_on(core.approve(&moved, &moved_hash));

    for (result, why) in [
        (&task, "not a task"),
        (&edit, "The text to find is not in"),
        (&moved, "no note"),
    ] {
        assert_eq!(result.code(), Some("stale"), "{}", result.text);
        assert!(result.pending.is_none(), "{}", result.text);
        assert!(
            !result.text.contains("A new preview is waiting"),
            "{}",
            result.text
        );
        assert!(result.text.contains(why), "{why}: {}", result.text);
    }
    assert!(core.open_confirmations().is_empty());
    assert!(vault.borrow().writes.is_empty());
}

/// An approval is bound to the exact change its card showed, for edits
/// written through the vault and for moves through the file manager too:
/// the hash of one card does not approve another card's change of the same
/// note, and leaves both waiting.
#[test]
fn a_vault_edit_or_a_move_is_approved_only_by_its_own_cards_hash() {
    let mut host = FakeHost::new(Os::Linux, |_| ProcessOutcome::success(""));
    host.env.insert("PATH".into(), "/usr/bin".into());
    host.add_executable("/usr/bin/obsidian");
    host.notes
        .borrow_mut()
        .insert("Plan.md".into(), "# Plan\nShip the beta.\n".into());
    host.respond_with(|request| {
        ProcessOutcome::success(match request.args[0].as_str() {
            "file" => "path\tPlan.md\nname\tPlan\nextension\tmd",
            _ => "0",
        })
    });
    let notes = host.notes.clone();
    let core = VaultAgent::new(host, &json!({"permissionMode": "askBeforeEdits"})).0;
    let card = |tool: &str, args: Value| {
        let view = block_on(core.call_tool(tool, &args))
            .pending
            .expect("pending");
        (view.id.clone(), hash_of(&core, &view.id))
    };
    for (tool, one, other) in [
        (
            "obsidianEdit",
            json!({"command": "edit", "path": "Plan.md", "find": "beta", "with": "1.0"}),
            json!({"command": "edit", "path": "Plan.md", "find": "beta", "with": "2.0"}),
        ),
        (
            "obsidianOrganise",
            json!({"command": "move", "path": "Plan.md", "to": "Archive"}),
            json!({"command": "move", "path": "Plan.md", "to": "Trash can"}),
        ),
    ] {
        let (first, _) = card(tool, one);
        let (second, second_hash) = card(tool, other);
        let result = block_on(core.approve(&first, &second_hash));
        assert_eq!(
            result.code(),
            Some("argv_mismatch"),
            "{tool}: {}",
            result.text
        );
        for id in [&first, &second] {
            assert_eq!(
                core.confirmation_card(id).unwrap().state,
                ConfirmationState::Proposed
            );
        }
        assert_eq!(
            notes.borrow().get("Plan.md").map(String::as_str),
            Some("# Plan\nShip the beta.\n"),
            "{tool}: nothing changed"
        );
        for id in [first, second] {
            core.reject(&id);
        }
    }
}
