//! A plan approved "all together on one card" (issue 41.3): while it is
//! carried out, each change the model asks for is proposed as an ordinary
//! confirmation (its preview and stale check made as for any card) and held,
//! not written; when the model ends its answer, one card lists every held
//! change with its own diff. Approve runs each held confirmation through the
//! usual approval (each journalled under the answer, each with its own
//! Undo; a stale one asks again); Reject writes none. The model reads each
//! call's real outcome in place of "held" from then on.

use serde::Serialize;

use crate::base::card::ConfirmationCard;
use crate::base::host::Host;
use crate::base::result::ToolResult;
pub use crate::doors::chat::conversation::HeldChange;
use crate::doors::chat::conversation::PlanState;
use crate::doors::chat::conversation::{ChatMessage, Conversation, PausedTurn, ToolCallRecord};
use crate::doors::chat::{ChatDoor, ChatEvent, ChatEvents, Decision, TurnEnd};

/// A plan-changes card's id starts with this.
pub const CARD_PREFIX: &str = "changes-";

/// The one card of a plan's held changes, each as its own card shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct PlanChangesCard {
    pub id: String,
    /// Binds Approve to exactly these changes, each at its own hash.
    pub argv_hash: String,
    /// The plan's one line.
    pub summary: String,
    pub changes: Vec<HeldCard>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct HeldCard {
    /// The tool call whose block shows the outcome (and its Undo).
    pub call_id: String,
    pub card: ConfirmationCard,
    #[serde(skip)]
    #[cfg_attr(test, ts(skip))]
    at: usize,
}

/// Whether a change of the approved plan is held for its card now.
pub fn holding(conversation: &Conversation) -> bool {
    conversation
        .plan
        .as_ref()
        .is_some_and(|p| p.state == PlanState::Approved && p.together)
}

/// What the model reads for a held change instead of its result.
fn held_result(summary: &str) -> ToolResult {
    ToolResult::success(format!(
        "Held, not written yet: {summary}. It goes on one card with the plan's other changes, which the user approves or rejects together when you end your answer. Go on with the next step; do not ask for this change again. Make each note's changes in one call: a second change to a held note would find it unchanged."
    ))
}

/// The hash Approve must carry: every held card's id and argv hash.
fn changes_hash(changes: &[HeldCard]) -> String {
    let parts: Vec<String> = changes
        .iter()
        .map(|c| format!("{}={}", c.card.id, c.card.argv_hash))
        .collect();
    crate::engine::confirm::argv_hash(&parts)
}

impl<H: Host> ChatDoor<H> {
    /// A held change's confirmation `result` (pending) is kept for the plan's
    /// card and the model told so; nothing is written.
    pub(super) fn hold_change(
        &self,
        conversation: &mut Conversation,
        call: &ToolCallRecord,
        result: &ToolResult,
        events: &dyn ChatEvents,
    ) {
        let Some(pending) = &result.pending else {
            return;
        };
        let at = conversation.messages.len();
        if let Some(plan) = conversation.plan.as_mut() {
            plan.held.push(HeldChange {
                call_id: call.id.clone(),
                confirmation_id: pending.id.clone(),
                at,
            });
        }
        let mut held = held_result(&pending.summary);
        held.ran = result.ran.clone();
        self.record_tool_result(conversation, call, held, events);
    }

    /// The held changes still waiting, each with its card; a held change
    /// that is over (expired, answered elsewhere) gets its outcome in place.
    fn held_cards(
        &self,
        conversation: &mut Conversation,
        events: &dyn ChatEvents,
    ) -> Vec<HeldCard> {
        let held = conversation
            .plan
            .as_ref()
            .map(|p| p.held.clone())
            .unwrap_or_default();
        let mut cards = Vec::with_capacity(held.len());
        let mut waiting = Vec::with_capacity(held.len());
        for change in held {
            match self.engine.confirmation_card(&change.confirmation_id) {
                Some(card) if card.state.is_open() => {
                    cards.push(HeldCard {
                        call_id: change.call_id.clone(),
                        card,
                        at: change.at,
                    });
                    waiting.push(change);
                }
                _ => {
                    if let Some(outcome) = self.engine.confirmation_outcome(&change.confirmation_id)
                    {
                        self.rewrite_tool_result(conversation, change.at, outcome, events);
                    }
                }
            }
        }
        if let Some(plan) = conversation.plan.as_mut() {
            plan.held = waiting;
        }
        cards
    }

    /// The model ended its answer: the held changes go on one card and the
    /// turn waits for it; `None` when nothing is held.
    pub(super) fn plan_changes_card(
        &self,
        conversation: &mut Conversation,
        rounds: u32,
        events: &dyn ChatEvents,
    ) -> Option<TurnEnd> {
        if !holding(conversation) {
            return None;
        }
        let ids: Vec<String> = conversation
            .plan
            .as_ref()?
            .held
            .iter()
            .map(|h| h.confirmation_id.clone())
            .collect();
        if ids.is_empty() {
            return None;
        }
        self.engine.renew_confirmations(&ids);
        let changes = self.held_cards(conversation, events);
        if changes.is_empty() {
            return None;
        }
        let id = format!(
            "{CARD_PREFIX}{}-{}",
            conversation.id,
            conversation.messages.len()
        );
        let card = PlanChangesCard {
            id: id.clone(),
            argv_hash: changes_hash(&changes),
            summary: conversation
                .plan
                .as_ref()
                .map(|p| p.summary.clone())
                .unwrap_or_default(),
            changes,
        };
        events.emit(ChatEvent::PlanChangesNeeded {
            card: Box::new(card),
        });
        conversation.paused = Some(PausedTurn {
            confirmation_id: id.clone(),
            call: ToolCallRecord {
                id,
                name: "planChanges".into(),
                arguments: "{}".into(),
                as_text: false,
            },
            remaining: Vec::new(),
            rounds,
        });
        Some(TurnEnd::AwaitingConfirmation)
    }

    /// The user answered the plan-changes card: Approve runs every held
    /// change through its own approval, Reject writes none. A change that
    /// went stale goes on a new card with its fresh preview.
    pub(super) async fn resolve_plan_changes(
        &self,
        conversation: &mut Conversation,
        paused: PausedTurn,
        decision: Decision<'_>,
        events: &dyn ChatEvents,
    ) -> TurnEnd {
        let changes = self.held_cards(conversation, events);
        let approve = match decision {
            Decision::Approve { argv_hash } | Decision::ApproveForChat { argv_hash } => {
                if argv_hash != changes_hash(&changes) {
                    // Approve is for exactly the changes the card showed.
                    conversation.paused = Some(paused);
                    events.emit(ChatEvent::plain_error(
                        "confirmation_mismatch",
                        "The plan's changes are no longer the ones on this card; nothing was written. Reject it, or send a message to start again.".into(),
                    ));
                    return self.finish_turn(conversation, TurnEnd::Failed, events);
                }
                true
            }
            // A plan's card is not reviewed in the editor (`resolve` refuses it first).
            Decision::Reject | Decision::Answered | Decision::ApproveChanges { .. } => false,
        };
        let total = changes.len();
        let mut written = 0;
        let mut again = Vec::new();
        for change in changes {
            let result = if approve {
                self.engine
                    .approve(&change.card.id, &change.card.argv_hash)
                    .await
            } else {
                self.engine.reject(&change.card.id)
            };
            if let Some(fresh) = &result.pending {
                // Stale: the note changed since the card; asked again below.
                again.push(HeldChange {
                    call_id: change.call_id.clone(),
                    confirmation_id: fresh.id.clone(),
                    at: change.at,
                });
                let mut held = held_result(&fresh.summary);
                held.ran = result.ran.clone();
                self.rewrite_tool_result(conversation, change.at, held, events);
                continue;
            }
            written += usize::from(result.ok);
            self.rewrite_tool_result(conversation, change.at, result, events);
        }
        if let Some(plan) = conversation.plan.as_mut() {
            plan.held = again;
        }
        let text = match (approve, written) {
            (false, _) => format!("Rejected: none of the plan's {total} changes was written."),
            (true, n) if n == total => {
                format!("Approved: the plan's {total} changes were written.")
            }
            (true, n) => format!(
                "Approved: {n} of the plan's {total} changes were written; the others say why."
            ),
        };
        conversation
            .messages
            .push(ChatMessage::Notice { text: text.clone() });
        events.emit(ChatEvent::Notice { text });
        let end = self
            .plan_changes_card(conversation, paused.rounds, events)
            .unwrap_or(TurnEnd::Done);
        self.finish_turn(conversation, end, events)
    }

    /// A new message drops what is still held: nothing of it is written,
    /// and the model reads so for each call.
    pub(super) fn drop_held(&self, conversation: &mut Conversation, events: &dyn ChatEvents) {
        let held = conversation
            .plan
            .as_mut()
            .map(|p| std::mem::take(&mut p.held))
            .unwrap_or_default();
        for change in held {
            self.engine.withdraw(&change.confirmation_id);
            let result = super::plan_refused(
                "plan_changes_dropped",
                "Not written: the user sent a new message before answering the plan's card.".into(),
            );
            self.rewrite_tool_result(conversation, change.at, result, events);
        }
    }
}
