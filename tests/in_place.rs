//! A note edit's card reviewed in the editor (issue 41, item 5): its changes
//! placed in the note as it is, the user's answer to each, and the approval
//! of only the accepted ones through the card's own path, with its stale
//! check, its journal entry and its undo; a second view of the same card,
//! never a way around it.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use serde_json::{json, Value};
use vault_agent::base::card::{ConfirmationState, ReviewSettle};
use vault_agent::base::diff::SpanKind;
use vault_agent::base::host::{Os, ProcessOutcome};
use vault_agent::doors::chat::conversation::Conversation;
use vault_agent::doors::chat::{ChatEvent, ChatEvents, Decision, TurnEnd};
use vault_agent::testing::{block_on, FakeHost, ScriptedHttp};
use vault_agent::{ToolResult, VaultAgent};

const DRAFT: &str = "Notes/Draft.md";
const NOTE: &str = "# Draft\nThe vendor is late.\nKeep it small.\n\nShip teh beta.\n";
/// Two changes: line 2 and line 5, with unchanged lines between them.
const EDITED: &str = "# Draft\nThe vendor is on time.\nKeep it small.\n\nShip the beta.\n";

type Notes = Rc<RefCell<HashMap<String, String>>>;

/// A core whose fake CLI reads the same notes the fake vault writes.
fn core(mode: &str) -> (VaultAgent<FakeHost>, Notes) {
    let mut host = FakeHost::new(Os::Linux, |_| ProcessOutcome::success(""));
    host.env.insert("PATH".into(), "/usr/bin".into());
    host.add_executable("/usr/bin/obsidian");
    let notes = host.notes.clone();
    notes.borrow_mut().insert(DRAFT.into(), NOTE.into());
    let state = notes.clone();
    host.respond_with(move |request| {
        let path = request
            .args
            .iter()
            .find_map(|a| a.strip_prefix("path="))
            .unwrap_or_default();
        let notes = state.borrow();
        let out = match (request.args[0].as_str(), notes.get(path)) {
            ("read", Some(text)) => text.clone(),
            ("append", Some(_)) => format!("Appended to: {path}"),
            _ => "Error: File not found.".into(),
        };
        ProcessOutcome::success(&out)
    });
    (
        VaultAgent::new(host, &json!({ "permissionMode": mode })).0,
        notes,
    )
}

fn edit_args() -> Value {
    json!({
        "command": "edit",
        "path": DRAFT,
        "find": "The vendor is late.\nKeep it small.\n\nShip teh beta.",
        "with": "The vendor is on time.\nKeep it small.\n\nShip the beta.",
    })
}

/// The edit's card, waiting: its id and hash.
fn propose(core: &VaultAgent<FakeHost>) -> (String, String) {
    let result = block_on(core.call_tool("obsidianEdit", &edit_args()));
    let id = result.pending.expect("a card").id;
    let hash = core.confirmation_card(&id).unwrap().argv_hash;
    (id, hash)
}

fn state(core: &VaultAgent<FakeHost>, id: &str) -> ConfirmationState {
    core.confirmation_card(id).unwrap().state
}

fn first_line(result: &ToolResult) -> &str {
    result.text.lines().next().unwrap_or_default()
}

#[test]
fn a_waiting_edit_lists_its_changes_placed_in_the_note_as_the_editor_holds_it() {
    let (core, _) = core("askBeforeEdits");
    let (id, _) = propose(&core);
    assert_eq!(
        core.confirmation_card(&id).unwrap().edits_note.as_deref(),
        Some(DRAFT)
    );
    let review = core.edit_review(&id, Some(NOTE));
    assert_eq!(review.problem, None);
    assert_eq!(review.path, DRAFT);
    assert_eq!(review.changes.len(), 2);
    assert_eq!(review.answers, [None, None]);
    assert_eq!(review.settle, None);
    let lines: Vec<usize> = review.changes.iter().map(|c| c.line).collect();
    assert_eq!(lines, [2, 5]);
    // Only the changed words, at their place in the note (ASCII: bytes are units).
    let first = &review.changes[0];
    let removed = first
        .spans
        .iter()
        .find(|s| s.kind == SpanKind::Removed)
        .unwrap();
    assert_eq!(&NOTE[removed.from..removed.to], "late.");
    let added: Vec<&str> = first
        .spans
        .iter()
        .filter(|s| s.kind == SpanKind::Added)
        .map(|s| s.text.as_str())
        .collect();
    assert_eq!(added, ["on time."]);
    assert_eq!(first.old_text, "The vendor is late.\n");
    assert_eq!(review.changes[1].new_text, "Ship the beta.\n");
    // Placed in the note as the card read it when the editor's text is not asked.
    assert_eq!(core.edit_review(&id, None).changes, review.changes);
}

#[test]
fn an_editor_whose_text_differs_from_the_cards_shows_no_changes_and_says_what_to_do() {
    let (core, notes) = core("askBeforeEdits");
    let (id, _) = propose(&core);
    let typed = NOTE.replace("# Draft", "# Draft (typed)");
    let review = core.edit_review(&id, Some(&typed));
    assert!(review.changes.is_empty());
    let problem = review.problem.expect("a problem");
    assert!(
        problem.contains("changed in the editor") && problem.contains("Approve asks again"),
        "{problem}"
    );
    // An answer given against other text is not kept.
    let answered = core.answer_change(&id, Some(0), true, Some(&typed));
    assert!(answered.problem.is_some());
    assert_eq!(core.edit_review(&id, None).answers, [None, None]);
    assert_eq!(notes.borrow()[DRAFT], NOTE);
}

#[test]
fn approving_some_changes_writes_only_those_and_settles_the_card_in_the_past_tense() {
    let (core, notes) = core("askBeforeEdits");
    let (id, hash) = propose(&core);
    let result = block_on(core.approve_changes(&id, &hash, &[1]));
    assert!(result.ok, "{}", result.text);
    assert_eq!(notes.borrow()[DRAFT], NOTE.replace("teh", "the"));
    assert_eq!(
        first_line(&result),
        "Edited \"Notes/Draft.md\" (+1 −1 lines; 1 of 2 changes accepted, 1 rejected):"
    );
    // The diff the model reads and the block shows is what was written.
    let diff = result.diff.as_ref().expect("a diff");
    assert_eq!((diff.added, diff.removed), (1, 1));
    assert!(result.text.contains("+Ship the beta."), "{}", result.text);
    assert!(!result.text.contains("on time"), "{}", result.text);
    assert!(result.journal.is_some(), "journaled");
    assert_eq!(state(&core, &id), ConfirmationState::Done);
    // Used once, like every card.
    let again = block_on(core.approve_changes(&id, &hash, &[0]));
    assert_eq!(again.code(), Some("confirmation_used"), "{}", again.text);
    let kept = core.confirmation_outcome(&id).expect("its answer is kept");
    assert_eq!((kept.ok, kept.text), (true, result.text));
    assert!(
        core.edit_review(&id, None).problem.is_some(),
        "nothing left to review"
    );
}

#[test]
fn accepting_every_change_is_the_cards_own_approval() {
    let (core, notes) = core("askBeforeEdits");
    let (id, hash) = propose(&core);
    let result = block_on(core.approve_changes(&id, &hash, &[1, 0, 1]));
    assert!(result.ok, "{}", result.text);
    assert_eq!(notes.borrow()[DRAFT], EDITED);
    assert_eq!(
        first_line(&result),
        "Edited \"Notes/Draft.md\" (+2 −2 lines):"
    );
}

#[test]
fn a_partial_approval_of_a_note_changed_since_the_card_is_refused_and_asked_again() {
    let (core, notes) = core("askBeforeEdits");
    let (id, hash) = propose(&core);
    let typed = NOTE.replace("# Draft", "# Draft, typed by the user");
    notes.borrow_mut().insert(DRAFT.into(), typed.clone());
    let result = block_on(core.approve_changes(&id, &hash, &[0]));
    assert_eq!(result.code(), Some("stale"), "{}", result.text);
    assert_eq!(notes.borrow()[DRAFT], typed, "nothing written");
    let fresh = result
        .pending
        .expect("asked again against the note as it is now");
    assert!(
        fresh.preview.after.contains("+Ship the beta."),
        "{}",
        fresh.preview.after
    );
    assert!(
        !fresh.preview.after.contains("-# Draft, typed"),
        "the user's text is kept: {}",
        fresh.preview.after
    );
}

#[test]
fn a_partial_approval_is_undone_like_every_edit() {
    let (core, notes) = core("askBeforeEdits");
    let (id, hash) = propose(&core);
    let result = block_on(core.approve_changes(&id, &hash, &[0]));
    assert!(result.ok, "{}", result.text);
    assert_eq!(notes.borrow()[DRAFT], NOTE.replace("late.", "on time."));
    let entry = result.journal.expect("an entry").entry;
    let undone = block_on(core.undo(&entry, None));
    assert!(undone.ok, "{}", undone.text);
    assert_eq!(notes.borrow()[DRAFT], NOTE);
}

#[test]
fn answers_settle_the_card_only_once_every_change_has_one() {
    let (core, notes) = core("askBeforeEdits");
    let (id, _) = propose(&core);
    let review = core.answer_change(&id, Some(0), true, Some(NOTE));
    assert_eq!(review.answers, [Some(true), None]);
    assert_eq!(review.settle, None);
    let review = core.answer_change(&id, Some(1), false, Some(NOTE));
    assert_eq!(
        review.settle,
        Some(ReviewSettle::ApproveChanges { changes: vec![0] })
    );
    // Changing an answer, and answering all at once.
    let review = core.answer_change(&id, Some(1), true, None);
    assert_eq!(review.settle, Some(ReviewSettle::Approve));
    let review = core.answer_change(&id, None, false, Some(NOTE));
    assert_eq!(review.answers, [Some(false), Some(false)]);
    assert_eq!(review.settle, Some(ReviewSettle::Reject));
    let wrong = core.answer_change(&id, Some(2), true, None);
    assert!(
        wrong
            .problem
            .as_deref()
            .unwrap_or_default()
            .contains("change 3 is not one of"),
        "{wrong:?}"
    );
    // Answers write nothing and leave the card waiting: the settle is the shim's to send.
    assert_eq!(notes.borrow()[DRAFT], NOTE);
    assert_eq!(state(&core, &id), ConfirmationState::Proposed);
    core.reject(&id);
    let closed = core.answer_change(&id, Some(0), true, None);
    assert!(closed.problem.unwrap().contains("no longer waiting"));
}

#[test]
fn a_wrong_partial_approval_runs_nothing_and_leaves_the_card_waiting() {
    let (core, notes) = core("askBeforeEdits");
    let (id, hash) = propose(&core);
    for (changes, says) in [
        (&[][..], "no change of the edit was accepted"),
        (&[2][..], "change 3 is not one of the 2 changes"),
        (&[0, usize::MAX][..], "is not one of the 2 changes"),
    ] {
        let result = block_on(core.approve_changes(&id, &hash, changes));
        assert_eq!(result.code(), Some("invalid_arguments"), "{}", result.text);
        assert!(result.text.contains(says), "{}", result.text);
        assert_eq!(state(&core, &id), ConfirmationState::Proposed);
    }
    let other = block_on(core.approve_changes(&id, "0000", &[0]));
    assert_eq!(other.code(), Some("argv_mismatch"), "{}", other.text);
    assert_eq!(notes.borrow()[DRAFT], NOTE);
    // The card still approves whole.
    assert!(block_on(core.approve(&id, &hash)).ok);
    assert_eq!(notes.borrow()[DRAFT], EDITED);
}

#[test]
fn a_card_that_is_no_note_edit_is_not_reviewed_in_place_nor_approved_in_part() {
    let (core, notes) = core("askEveryChange");
    let result = block_on(core.call_tool(
        "obsidianEdit",
        &json!({"command": "append", "path": DRAFT, "content": "More"}),
    ));
    let id = result.pending.expect("a card").id;
    let card = core.confirmation_card(&id).unwrap();
    assert_eq!(card.edits_note, None);
    let review = core.edit_review(&id, None);
    assert!(
        review
            .problem
            .unwrap()
            .contains("Only an edit of a note's text"),
        "not reviewable"
    );
    let partial = block_on(core.approve_changes(&id, &card.argv_hash, &[0]));
    assert_eq!(
        partial.code(),
        Some("invalid_arguments"),
        "{}",
        partial.text
    );
    assert_eq!(state(&core, &id), ConfirmationState::Proposed);
    assert_eq!(notes.borrow()[DRAFT], NOTE);
}

#[derive(Default)]
struct Recorder(RefCell<Vec<ChatEvent>>);

impl ChatEvents for Recorder {
    fn emit(&self, event: ChatEvent) {
        self.0.borrow_mut().push(event);
    }
}

/// An OpenAI stream: some text, or one tool call.
fn stream(text: &str, call: Option<(&str, &str)>) -> ScriptedHttp {
    let mut body = String::new();
    if !text.is_empty() {
        let delta = json!({"choices": [{"delta": {"content": text}}]});
        body.push_str(&format!("data: {delta}\n\n"));
    }
    if let Some((name, args)) = call {
        let delta = json!({"choices": [{"delta": {"tool_calls": [{"index": 0, "id": "call_0", "type": "function", "function": {"name": name, "arguments": args}}]}}]});
        body.push_str(&format!("data: {delta}\n\n"));
    }
    body.push_str("data: [DONE]\n\n");
    ScriptedHttp::Response {
        status: 200,
        chunks: vec![body.into_bytes()],
    }
}

#[test]
fn the_chat_goes_on_with_what_was_accepted_in_the_editor() {
    let (core, notes) = core("askBeforeEdits");
    core.host()
        .script_http(stream("", Some(("obsidianEdit", &edit_args().to_string()))));
    core.host()
        .script_http(stream("Fixed the spelling only.", None));
    let events = Recorder::default();
    let mut chat = Conversation::new("c1".into(), 0.0);
    let end = block_on(core.chat.send(&mut chat, "Fix my draft", &events));
    assert_eq!(end, TurnEnd::AwaitingConfirmation);
    let card = events
        .0
        .borrow()
        .iter()
        .find_map(|e| match e {
            ChatEvent::ConfirmationNeeded { card, .. } => Some(card.clone()),
            _ => None,
        })
        .expect("a card");
    assert_eq!(card.edits_note.as_deref(), Some(DRAFT));
    let resumed = Recorder::default();
    let end = block_on(core.chat.resolve(
        &mut chat,
        &card.id,
        Decision::ApproveChanges {
            argv_hash: &card.argv_hash,
            changes: &[1],
        },
        &resumed,
    ));
    assert_eq!(end, TurnEnd::Done);
    assert_eq!(notes.borrow()[DRAFT], NOTE.replace("teh", "the"));
    // The model is told which share of its change was kept.
    let requests = core.host().http_requests.borrow();
    let body = requests[1].body.as_deref().unwrap_or_default();
    assert!(
        body.contains("1 of 2 changes accepted, 1 rejected"),
        "{body}"
    );
}
