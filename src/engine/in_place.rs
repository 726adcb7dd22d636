//! A note edit's card reviewed in the editor: a second view of the same
//! card, never a way around it. Its changes are placed in the note as the
//! editor holds it (only while that is the text the card was made from), the
//! user answers each, and once every change is answered the card is settled
//! on its own path: approved whole, approved for the accepted changes only
//! (the gate again, the same stale check inside the write, the journal and
//! undo, as `run_approved` does for every card), or rejected.

use super::confirm::{visible_text, Approval, NoteEditPlan, PendingConfirmation};
use super::Engine;
use crate::base::card::{EditReview, ReviewSettle};
use crate::base::diff::SpanKind;
use crate::base::error::ToolError;
use crate::base::host::Host;
use crate::base::result::ToolResult;
use crate::notes::review;

/// A note edit approved in part: how many of its changes were accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Partial {
    pub accepted: usize,
    pub of: usize,
}

impl Partial {
    /// "1 of 2 changes accepted, 1 rejected", said in the result the model
    /// reads and on the card once it folds.
    pub fn words(self) -> String {
        let rejected = self.of - self.accepted;
        format!(
            "{} of {} changes accepted, {rejected} rejected",
            self.accepted, self.of
        )
    }
}

impl<H: Host> Engine<H> {
    /// Card `id`'s changes as the editor shows them, placed in `text`, the
    /// note as the editor holds it (`None`: in the note as the card read it).
    pub fn edit_review(&self, id: &str, text: Option<&str>) -> EditReview {
        let now = self.host.now_ms();
        let mut book = self.confirmations.borrow_mut();
        review_of(id, book.get(id, now), text)
    }

    /// The user answered change `index` of card `id` in the editor (`None`:
    /// every change, Accept all or Reject all). Nothing is written here: the
    /// review says how to settle the card once every change is answered.
    pub fn answer_change(
        &self,
        id: &str,
        index: Option<usize>,
        accept: bool,
        text: Option<&str>,
    ) -> EditReview {
        let now = self.host.now_ms();
        let mut book = self.confirmations.borrow_mut();
        let shown = review_of(id, book.get(id, now), text);
        if shown.problem.is_some() {
            return shown;
        }
        match book.answer_change(id, index, accept, shown.changes.len(), now) {
            Ok(_) => review_of(id, book.get(id, now), text),
            Err(error) => EditReview {
                problem: Some(error.to_string()),
                changes: Vec::new(),
                answers: Vec::new(),
                settle: None,
                ..shown
            },
        }
    }

    /// Approves only `changes` of note edit card `id`: the card's own
    /// approval, which writes the note with just those changes made.
    pub async fn approve_changes(
        &self,
        id: &str,
        argv_hash: &str,
        changes: &[usize],
    ) -> ToolResult {
        self.approve_as(id, argv_hash, Approval::Changes(changes))
            .await
    }
}

/// The review of one card, or why there is none.
fn review_of(id: &str, entry: Option<&PendingConfirmation>, text: Option<&str>) -> EditReview {
    let problem = |path: &str, problem: String| EditReview {
        id: id.to_string(),
        path: path.to_string(),
        changes: Vec::new(),
        answers: Vec::new(),
        problem: Some(problem),
        settle: None,
    };
    let Some(entry) = entry.filter(|e| e.state.is_open()) else {
        return problem(
            "",
            "This change is no longer waiting for an answer, so there is nothing to review in the note.".into(),
        );
    };
    let Some(plan) = &entry.note_edit else {
        return problem(
            "",
            "Only an edit of a note's text can be reviewed in the editor; answer this change on its card.".into(),
        );
    };
    if text.is_some_and(|text| text != plan.before) {
        // The places of the changes are offsets in the text the card read.
        return problem(
            &plan.path,
            format!(
                "\"{}\" changed in the editor since this change was proposed, so its changes are not shown in place. Answer it on its card in the chat: Approve asks again against the note as it is now.",
                visible_text(&plan.path)
            ),
        );
    }
    let mut changes = review::changes(&plan.before, &plan.after);
    // The model's words are shown with what a person could not see written out.
    for change in &mut changes {
        change.new_text = visible_text(&change.new_text);
        for span in change
            .spans
            .iter_mut()
            .filter(|s| s.kind == SpanKind::Added)
        {
            span.text = visible_text(&span.text);
        }
    }
    let mut answers = entry.answers.clone();
    answers.resize(changes.len(), None);
    EditReview {
        id: id.to_string(),
        path: plan.path.clone(),
        settle: ReviewSettle::from_answers(&answers),
        changes,
        answers,
        problem: None,
    }
}

/// The edit with only `changes` made, and how much of it that is (`None`:
/// all of it, the card's own change). Refused before anything runs when the
/// card is no note edit, a change is not one of its own, or none is.
pub(super) fn narrowed(
    tool_id: &str,
    plan: Option<&NoteEditPlan>,
    changes: &[usize],
) -> Result<(NoteEditPlan, Option<Partial>), ToolError> {
    let refuse = |problem: String| ToolError::invalid(tool_id, problem);
    let Some(plan) = plan else {
        return Err(refuse(
            "only an edit of a note's text can be approved in part; approve or reject the whole change. Nothing ran".into(),
        ));
    };
    let count = review::count(&plan.before, &plan.after);
    let mut accepted = changes.to_vec();
    accepted.sort_unstable();
    accepted.dedup();
    if let Some(wrong) = accepted.iter().find(|&&i| i >= count) {
        return Err(refuse(format!(
            "change {} is not one of the {count} changes of this edit. Nothing ran",
            wrong.saturating_add(1)
        )));
    }
    if accepted.is_empty() {
        return Err(refuse(
            "no change of the edit was accepted; reject it instead. Nothing ran".into(),
        ));
    }
    if accepted.len() == count {
        return Ok((plan.clone(), None));
    }
    let narrowed = NoteEditPlan {
        path: plan.path.clone(),
        before: plan.before.clone(),
        after: review::with_changes(&plan.before, &plan.after, &accepted),
    };
    let partial = Partial {
        accepted: accepted.len(),
        of: count,
    };
    Ok((narrowed, Some(partial)))
}
