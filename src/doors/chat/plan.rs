//! Plan first in the chat (issue 41.3): with the header's Plan on, the
//! model may only read, then proposes the changes it would make with
//! `proposePlan`; the plan is checked against the scopes
//! (`policy::plan::check_plan`) before the user sees it, and the turn waits
//! on the plan card. Approved (as proposed or edited), the model carries it
//! out through the ordinary tools, each change behind its card as the mode
//! says, and a change to a note the plan does not name waits for a card of
//! its own whatever the mode (`policy::plan::covers`).

use serde::Deserialize;
use serde_json::{json, Value};

use crate::base::call::ModelTool;
use crate::base::host::Host;
use crate::base::result::ToolResult;
pub use crate::doors::chat::conversation::{ChatPlan, PlanState};
use crate::doors::chat::conversation::{Conversation, ToolCallRecord};
use crate::doors::chat::plan_refused as refused;
use crate::doors::chat::{ChatDoor, ChatEvent, ChatEvents, TurnEnd};
use crate::policy::plan::{self as rules, KeptStep, PlanStep};

/// The tool the model proposes a plan with (offered only in plan mode).
pub const PROPOSE_TOOL: &str = "proposePlan";
/// A plan card's id starts with this.
pub const CARD_PREFIX: &str = "plan-";

/// What the user answered on the plan card.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PlanAnswer {
    pub approve: bool,
    /// The steps kept, with their text as left on the card (approve only).
    #[serde(default)]
    pub steps: Vec<KeptStep>,
    /// Every change on one card at the end instead of one card each.
    #[serde(default)]
    pub together: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProposeArgs {
    #[serde(default)]
    summary: String,
    steps: Vec<PlanStep>,
}

/// `proposePlan` as the model is offered it.
pub fn propose_tool() -> ModelTool {
    ModelTool {
        name: PROPOSE_TOOL.into(),
        description: "Propose the changes you would make, as numbered steps, for the user to approve, edit or reject before anything changes. Read what you need first. One step per note; name each note by its exact path from the vault root.".into(),
        input_schema: json!({
            "type": "object",
            "properties": {
                "summary": { "type": "string", "description": "The plan in one line." },
                "steps": {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": rules::MAX_STEPS,
                    "items": {
                        "type": "object",
                        "properties": {
                            "note": { "type": "string", "description": "The note's exact path from the vault root, e.g. \"Projects/Alpha.md\"." },
                            "action": { "type": "string", "enum": ["create", "edit", "append", "prepend", "move", "rename", "delete"] },
                            "what": { "type": "string", "description": "What changes, in a sentence the user reads." },
                            "to": { "type": "string", "description": "For move and rename: the note's new path." }
                        },
                        "required": ["note", "action", "what"],
                        "additionalProperties": false
                    }
                }
            },
            "required": ["steps"],
            "additionalProperties": false
        }),
    }
}

/// Whether the model is planning: plan mode is on and no plan of this turn
/// was approved. Only reads and `proposePlan` run then.
pub fn planning(conversation: &Conversation) -> bool {
    conversation.plan_mode && approved(conversation).is_none()
}

/// The approved plan being carried out, if there is one.
pub fn approved(conversation: &Conversation) -> Option<&[PlanStep]> {
    conversation
        .plan
        .as_ref()
        .filter(|p| p.state == PlanState::Approved)
        .map(|p| p.steps.as_slice())
}

/// What the system prompt says of plan mode, or of the plan being carried out.
pub fn prompt_section(conversation: &Conversation) -> String {
    if let Some(steps) = approved(conversation) {
        let together = if super::plan_changes::holding(conversation) {
            " Each change is held, not written, until the user answers one card listing them all after your answer: make each note's changes in one call."
        } else {
            ""
        };
        return format!(
            "\n\nThe user approved this plan; carry it out now with the tools, step by step, and change nothing else (a change to any other note waits for the user's own card).{together}\n{}",
            numbered(steps)
        );
    }
    if planning(conversation) {
        return format!(
            "\n\nPlan mode is on: do not change the vault now. Read what you need, then call {PROPOSE_TOOL} once with every change you would make (which note, what); the user approves, edits or rejects it. A question that needs no change is answered without a plan."
        );
    }
    String::new()
}

fn numbered(steps: &[PlanStep]) -> String {
    steps
        .iter()
        .enumerate()
        .map(|(at, step)| {
            let to = step
                .to
                .as_ref()
                .map(|to| format!(" → {to}"))
                .unwrap_or_default();
            format!(
                "{}. {} {}{to}: {}\n",
                at + 1,
                serde_json::to_value(step.action)
                    .ok()
                    .and_then(|v| v.as_str().map(String::from))
                    .unwrap_or_default(),
                step.note,
                step.what
            )
        })
        .collect()
}

impl<H: Host> ChatDoor<H> {
    /// A change asked for while planning is refused, with what to do instead.
    pub(super) fn refused_while_planning(
        &self,
        conversation: &Conversation,
        call: &ToolCallRecord,
        is_read: bool,
    ) -> Option<ToolResult> {
        (planning(conversation) && !is_read).then(|| {
            refused(
                "plan_mode",
                format!("Not run: plan mode is on, so nothing in the vault changes before the user approves a plan. Put this change ({}) in a {PROPOSE_TOOL} step instead.", call.name),
            )
        })
    }

    /// Whether a change made while carrying out the approved plan reaches a
    /// note the plan does not name (it then waits for its own card).
    pub(super) fn off_plan(&self, conversation: &Conversation, call: &ToolCallRecord) -> bool {
        let Some(steps) = approved(conversation) else {
            return false;
        };
        if self.is_read_call(call) {
            return false;
        }
        let Ok(args) = super::parse_arguments(&call.arguments) else {
            return true;
        };
        let os = self.engine.host().platform().os();
        let tools = self.engine.tools();
        let Some(tool) = tools.iter().find(|t| t.id == call.name) else {
            return true;
        };
        match tool
            .parse_call(&args)
            .and_then(|c| c.facts().map(|facts| rules::covers(steps, &facts, os)))
        {
            Ok(covered) => !covered,
            // The gate refuses it anyway; a card costs nothing there.
            Err(_) => true,
        }
    }

    /// `proposePlan`: the plan checked, then put on its card (returned), or
    /// refused before the user sees it with the reason the model is told.
    pub(super) fn propose_plan(
        &self,
        conversation: &mut Conversation,
        call: &ToolCallRecord,
        events: &dyn ChatEvents,
    ) -> Option<ChatPlan> {
        self.announce_tool(call, events);
        let refuse = |why: String| {
            refused(
                "plan_refused",
                format!("The plan was refused before it was shown to the user: {why}. Nothing was changed; propose a plan that fits, or tell the user why it cannot."),
            )
        };
        let result = if !planning(conversation) {
            refused(
                "plan_mode",
                format!("{PROPOSE_TOOL} is for plan mode, which is off (or a plan was already approved); make the changes with the tools."),
            )
        } else {
            let parsed = super::parse_arguments(&call.arguments).and_then(|args| {
                serde_json::from_value::<ProposeArgs>(args).map_err(|e| {
                    format!("its arguments do not fit ({e}); each step is {{note, action ({}), what, to?}}", rules::PlanAction::KEYS)
                })
            });
            let settings = self.engine.settings_snapshot();
            let platform = self.engine.host().platform();
            match parsed.and_then(|args| {
                rules::check_plan(&args.steps, &settings, platform.os(), platform.config_dir())
                    .map(|steps| (args.summary, steps))
            }) {
                Err(why) => refuse(why),
                Ok((summary, steps)) => {
                    let plan = ChatPlan {
                        id: format!("{CARD_PREFIX}{}-{}", conversation.id, call.id),
                        summary: summary.trim().chars().take(300).collect(),
                        steps,
                        state: PlanState::Proposed,
                        together: false,
                        held: Vec::new(),
                    };
                    conversation.plan = Some(plan.clone());
                    events.emit(ChatEvent::PlanProposed {
                        call_id: call.id.clone(),
                        plan: Box::new(plan.clone()),
                    });
                    return Some(plan);
                }
            }
        };
        self.record_tool_result(conversation, call, result, events);
        None
    }

    /// The user answered the plan card `plan_id`: approved (maybe edited),
    /// the model is told the plan and carries it out; rejected, it is told
    /// so and nothing changes. A bad answer changes nothing and says why.
    pub async fn answer_plan(
        &self,
        conversation: &mut Conversation,
        plan_id: &str,
        answer: &Value,
        events: &dyn ChatEvents,
    ) -> TurnEnd {
        let _hold = match self.hold(conversation, events) {
            Ok(hold) => hold,
            Err(end) => return end,
        };
        let waiting = conversation
            .paused
            .as_ref()
            .is_some_and(|p| p.confirmation_id == plan_id)
            && conversation
                .plan
                .as_ref()
                .is_some_and(|p| p.id == plan_id && p.state == PlanState::Proposed);
        let fail = |this: &Self, conversation: &mut Conversation, code: &str, message: String| {
            events.emit(ChatEvent::plain_error(code, message));
            this.finish_turn(conversation, TurnEnd::Failed, events)
        };
        if !waiting {
            return fail(
                self,
                conversation,
                "confirmation_not_found",
                "This conversation is not waiting for that plan any more.".into(),
            );
        }
        let answer = match serde_json::from_value::<PlanAnswer>(answer.clone()) {
            Ok(answer) => answer,
            Err(e) => return fail(self, conversation, "plan_answer", format!("The plan's answer could not be read ({e}); answer {{ approve, steps: [{{ index, what }}] }}.")),
        };
        let settings = self.engine.settings_snapshot();
        let (Some(mut plan), Some(paused)) =
            (conversation.plan.clone(), conversation.paused.clone())
        else {
            return fail(
                self,
                conversation,
                "confirmation_not_found",
                "This conversation is not waiting for that plan any more.".into(),
            );
        };
        let result = if answer.approve {
            if let Some(why) = rules::approval_refusal(settings.permission_mode) {
                return fail(self, conversation, "plan_read_only", why);
            }
            let platform = self.engine.host().platform();
            // Edited text is checked as a proposed step's is; the notes are the proposal's.
            let edited = rules::edited_plan(&plan.steps, &answer.steps).and_then(|steps| {
                rules::check_plan(&steps, &settings, platform.os(), platform.config_dir())
            });
            let steps = match edited {
                Ok(steps) => steps,
                Err(why) => {
                    return fail(
                        self,
                        conversation,
                        "plan_answer",
                        format!("The plan was not approved: {why}."),
                    )
                }
            };
            let as_edited = if steps == plan.steps {
                ""
            } else {
                " (as the user edited it)"
            };
            plan.steps = steps;
            plan.state = PlanState::Approved;
            plan.together = answer.together;
            let together = if answer.together {
                " Each change is held, not written, until the user answers one card listing them all after you end your answer."
            } else {
                ""
            };
            ToolResult::success(format!(
                "The user approved the plan{as_edited}:\n{}Carry it out now, step by step; change nothing else.{together}",
                numbered(&plan.steps)
            ))
        } else {
            plan.state = PlanState::Rejected;
            refused(
                "plan_rejected",
                "The user rejected the plan. Nothing was changed; do not make these changes. Ask what they would like instead.".into(),
            )
        };
        conversation.paused = None;
        events.emit(ChatEvent::PlanAnswered {
            plan: Box::new(plan.clone()),
        });
        conversation.plan = Some(plan);
        self.record_tool_result(conversation, &paused.call, result, events);
        let end = self
            .run_turn(conversation, paused.remaining, paused.rounds, events)
            .await;
        self.finish_turn(conversation, end, events)
    }
}

/// The turn ended with the model's answer, or a new message came: an
/// approved plan is done, a plan still on its card is dropped unanswered
/// (`new_message`). A card, the round limit, Stop or a failure keep an
/// approved plan for Continue and Retry.
pub fn close(conversation: &mut Conversation, end: TurnEnd, new_message: bool) {
    if let Some(plan) = conversation.plan.as_mut() {
        match plan.state {
            PlanState::Approved if new_message || end == TurnEnd::Done => {
                plan.state = PlanState::Done
            }
            PlanState::Proposed if new_message => plan.state = PlanState::Rejected,
            _ => {}
        }
    }
}
