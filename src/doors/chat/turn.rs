//! One turn of the chat: the tool calls the model asked for (reads side by
//! side, a change waiting for its card), then model rounds, until the model
//! answers without tools, a card waits, the round limit, Stop, or an error.

use serde_json::Value;

use crate::base::card::ConfirmationCard;
use crate::base::error::ToolError;
use crate::base::host::{join_all, Host};
use crate::base::result::ToolResult;
use crate::base::table;
use crate::base::table::Table;
use crate::doors::chat::ask::RoundError;
use crate::doors::chat::conversation::{
    AnswerUsage, ChatMessage, Conversation, PausedTurn, ToolCallRecord, Usage,
};
use crate::doors::chat::prompt::{for_model, web_for_model};
use crate::doors::chat::repeats::{self, Repeat};
use crate::doors::chat::{parse_arguments, ChatDoor, ChatEvent, ChatEvents, TurnEnd};

impl<H: Host> ChatDoor<H> {
    /// Runs queued tool calls, then model rounds, until the turn ends.
    pub(super) async fn run_turn(
        &self,
        conversation: &mut Conversation,
        mut queue: Vec<ToolCallRecord>,
        mut rounds: u32,
        events: &dyn ChatEvents,
    ) -> TurnEnd {
        // Its tool processes carry the answer's id, so its Stop ends them.
        self.open.set_turn(&conversation.id, conversation.turn_id());
        loop {
            // A call asked again after failing twice, or a read asked again
            // after it was refused, ends the turn once the round's results are in.
            let mut repeated_failure: Option<(Repeat, String)> = None;
            while !queue.is_empty() {
                let call = queue.remove(0);
                if self.stop_requested(&conversation.id) {
                    let result = ToolResult::failure(
                        &ToolError::invalid(&call.name, "not run: the user pressed Stop"),
                        0.0,
                    );
                    self.record_tool_result(conversation, &call, result, events);
                    continue;
                }
                let repeat = self.repeat_of(conversation, &call);
                if repeat != Repeat::Fresh {
                    let result = ToolResult::failure(
                        &ToolError::invalid(&call.name, repeats::refusal(repeat)),
                        0.0,
                    );
                    self.announce_tool(&call, events);
                    self.record_tool_result(conversation, &call, result, events);
                    if matches!(repeat, Repeat::FailedTwice | Repeat::ReadIgnored) {
                        repeated_failure.get_or_insert((repeat, self.display_name(&call.name)));
                    }
                    continue;
                }
                if call.name == super::plan::PROPOSE_TOOL {
                    if let Some(plan) = self.propose_plan(conversation, &call, events) {
                        conversation.paused = Some(PausedTurn {
                            confirmation_id: plan.id,
                            call,
                            remaining: queue,
                            rounds,
                        });
                        return TurnEnd::AwaitingConfirmation;
                    }
                    continue;
                }
                if let Some(refusal) =
                    self.refused_while_planning(conversation, &call, self.is_read_call(&call))
                {
                    self.announce_tool(&call, events);
                    self.record_tool_result(conversation, &call, refusal, events);
                    continue;
                }
                if let Some(offered) = self.offered_outside(&call.name) {
                    if let Some(card) = self
                        .run_outside(conversation, &call, &offered, events)
                        .await
                    {
                        events.emit(ChatEvent::ConfirmationNeeded {
                            call_id: call.id.clone(),
                            card: Box::new(card.clone()),
                        });
                        conversation.paused = Some(PausedTurn {
                            confirmation_id: card.id,
                            call,
                            remaining: queue,
                            rounds,
                        });
                        return TurnEnd::AwaitingConfirmation;
                    }
                    continue;
                }
                // Reads the model asked for together run at once (the
                // process cap still bounds them); their results keep the order asked.
                let joins = |next: &ToolCallRecord| {
                    self.is_read_call(next) && self.repeat_of(conversation, next) == Repeat::Fresh
                };
                if self.is_read_call(&call) && queue.first().is_some_and(joins) {
                    let mut batch = vec![call];
                    while queue.first().is_some_and(joins) {
                        batch.push(queue.remove(0));
                    }
                    self.run_reads_at_once(conversation, &batch, events).await;
                    continue;
                }
                if let Some(card) = self.run_tool_call(conversation, &call, events).await {
                    events.emit(ChatEvent::ConfirmationNeeded {
                        call_id: call.id.clone(),
                        card: Box::new(card.clone()),
                    });
                    conversation.paused = Some(PausedTurn {
                        confirmation_id: card.id,
                        call,
                        remaining: queue,
                        rounds,
                    });
                    return TurnEnd::AwaitingConfirmation;
                }
            }
            if self.stop_requested(&conversation.id) {
                return self.stopped(conversation, events);
            }
            let setup = super::conversation::TurnSetup::of(conversation);
            if setup.rewrite.is_some() && last_is_tool_result(conversation) {
                // The rewrite's edit was answered: the turn has done its one job.
                return TurnEnd::Done;
            }
            if let Some((repeat, tool)) = repeated_failure {
                let what = if repeat == Repeat::ReadIgnored {
                    "whose result it already had"
                } else {
                    "that had already failed twice with the same arguments"
                };
                let text = format!(
                    "Stopped: the model asked again for a {tool} call {what}. Send another message to let the agent try another way (or rephrase what you want)."
                );
                conversation
                    .messages
                    .push(ChatMessage::Notice { text: text.clone() });
                events.emit(ChatEvent::Notice { text });
                return TurnEnd::RoundLimit;
            }
            let settings = self.turn_settings(&conversation.id, setup.profile.clone());
            if rounds >= settings.chat.max_tool_rounds && last_is_tool_result(conversation) {
                let limit = settings.chat.max_tool_rounds;
                let text = format!(
                    "Stopped after {limit} tool round{}, the limit for one message (\"Tool rounds per message\", Settings → Vault Agent → Advanced). Continue, or send another message, to let the agent go on.",
                    if limit == 1 { "" } else { "s" }
                );
                conversation
                    .messages
                    .push(ChatMessage::Notice { text: text.clone() });
                events.emit(ChatEvent::RoundLimit { text });
                return TurnEnd::RoundLimit;
            }
            events.emit(ChatEvent::ModelRound { round: rounds + 1 });
            let mut asked = self.ask_model(conversation, &settings, events, true).await;
            if matches!(asked, Err(RoundError::Compact)) {
                // Near the window with old tool results pruned: the earlier
                // turns are summarised first, or, failing that, the round
                // goes on as it would have (older turns shortened or left out).
                if let Some(upto) = super::compact::compactable(conversation) {
                    match self.summarise(conversation, &settings, upto, events).await {
                        Ok(()) => {}
                        Err(RoundError::Failed(error)) => {
                            // Not asked again in this turn.
                            self.session
                                .compaction_failed
                                .borrow_mut()
                                .push(conversation.turn_id());
                            let text = format!(
                                "The chat could not be compacted, so older turns are shortened or left out of what the model reads instead: {}",
                                self.shown_error(&error, &settings)
                            );
                            events.emit(ChatEvent::Notice { text });
                        }
                        Err(_) => return self.stopped(conversation, events),
                    }
                }
                asked = self.ask_model(conversation, &settings, events, false).await;
            }
            let (reply, window) = match asked {
                Ok(reply) => reply,
                Err(RoundError::Stopped(partial)) => {
                    if !partial.is_empty() {
                        conversation
                            .messages
                            .push(ChatMessage::assistant(partial, Vec::new()));
                    }
                    return self.stopped(conversation, events);
                }
                Err(RoundError::Failed(error)) => {
                    events.emit(self.error_event(&error, &settings));
                    return TurnEnd::Failed;
                }
                // Not asked for a second time in a round.
                Err(RoundError::Compact) => return TurnEnd::Failed,
            };
            events.emit(ChatEvent::AssistantMessage {
                text: reply.text.clone(),
            });
            let mut usage = None;
            if let Some(round) = reply.usage {
                conversation.usage.add(round);
                let turn = conversation.turn_usage.get_or_insert_with(Usage::default);
                turn.add(round);
                if reply.tool_calls.is_empty() {
                    let answer = AnswerUsage {
                        input_tokens: turn.input_tokens,
                        output_tokens: turn.output_tokens,
                        context_tokens: round.input_tokens + round.output_tokens,
                        context_window: window as u64,
                    };
                    usage = Some(answer);
                    events.emit(ChatEvent::Usage {
                        usage: answer,
                        chat: conversation.usage,
                    });
                }
            }
            let mut tool_calls = reply.tool_calls;
            if let Some(rewrite) = &setup.rewrite {
                // Offered no tools, the model's answer is the new text, and
                // only it: the edit of the selection is the one call there is.
                let id = format!("rewrite-{}", conversation.messages.len());
                tool_calls = (!reply.text.trim().is_empty())
                    .then(|| super::selection::edit_call(rewrite, &reply.text, id))
                    .into_iter()
                    .collect();
            }
            let sources = if tool_calls.is_empty() {
                super::sources::of_answer(this_turn(conversation), &reply.text)
            } else {
                Vec::new()
            };
            if !sources.is_empty() {
                events.emit(ChatEvent::Sources {
                    sources: sources.clone(),
                });
            }
            conversation.messages.push(ChatMessage::Assistant {
                text: reply.text.clone(),
                tool_calls: tool_calls.clone(),
                reasoning: reply.reasoning,
                thinking: reply.thinking,
                usage,
                sources,
            });
            if tool_calls.is_empty() {
                // A plan approved "all together": its held changes on one card now.
                return self
                    .plan_changes_card(conversation, rounds, events)
                    .unwrap_or(TurnEnd::Done);
            }
            rounds += 1;
            queue = tool_calls;
        }
    }

    pub(super) fn stopped(
        &self,
        conversation: &mut Conversation,
        events: &dyn ChatEvents,
    ) -> TurnEnd {
        let text = "Stopped.".to_string();
        conversation
            .messages
            .push(ChatMessage::Notice { text: text.clone() });
        events.emit(ChatEvent::Notice { text });
        TurnEnd::Stopped
    }

    /// Whether the turn so far lets `call` run (`repeats`).
    fn repeat_of(&self, conversation: &Conversation, call: &ToolCallRecord) -> Repeat {
        repeats::check(&conversation.messages, call, !self.is_read_call(call))
    }

    /// A call that only reads (its command is a read): it may run alongside
    /// the reads next to it. Anything not understood counts as a change.
    pub(super) fn is_read_call(&self, call: &ToolCallRecord) -> bool {
        let Ok(Value::Object(args)) = serde_json::from_str::<Value>(&call.arguments) else {
            return false;
        };
        let Some(command) = args.get("command").and_then(Value::as_str) else {
            return false;
        };
        self.engine
            .tools()
            .iter()
            .find(|tool| tool.id == call.name)
            .and_then(|tool| tool.command(command))
            .is_some_and(|spec| spec.access == crate::base::call::Access::Read)
    }

    /// Runs reads together; each result is recorded in the order asked.
    async fn run_reads_at_once(
        &self,
        conversation: &mut Conversation,
        batch: &[ToolCallRecord],
        events: &dyn ChatEvents,
    ) {
        for call in batch {
            self.announce_tool(call, events);
        }
        let turn = conversation.turn_id();
        let door = outside_door(conversation);
        let origin = super::memory::origin(conversation);
        let runs = batch
            .iter()
            .map(|call| self.tool_result(call, door.as_ref(), &turn, &origin));
        let results = join_all(runs.collect()).await;
        for (call, result) in batch.iter().zip(results) {
            self.record_tool_result(conversation, call, result, events);
        }
    }

    /// The result of one call, through the chat's door or an outside one.
    async fn tool_result(
        &self,
        call: &ToolCallRecord,
        door: Option<&super::conversation::OutsideDoor>,
        turn: &str,
        origin: &crate::settings::MemoryOrigin,
    ) -> ToolResult {
        match parse_arguments(&call.arguments) {
            Ok(args) if call.as_text => {
                let door = door.map(|d| (d.name.as_str(), d.mode_cap));
                self.engine
                    .call_tool_written_as_text(&call.name, &args, door, turn, origin.clone())
                    .await
            }
            Ok(args) => match door {
                None => {
                    self.engine
                        .call_tool_in_chat(&call.name, &args, turn, origin.clone())
                        .await
                }
                Some(door) => {
                    self.engine
                        .call_tool_through(
                            &call.name,
                            &args,
                            &door.name,
                            Some(door.mode_cap),
                            Some(turn),
                        )
                        .await
                }
            },
            Err(problem) => ToolResult::failure(&ToolError::invalid(&call.name, problem), 0.0),
        }
    }

    /// Tells the view a tool call has started (its block appears).
    pub(super) fn announce_tool(&self, call: &ToolCallRecord, events: &dyn ChatEvents) {
        events.emit(ChatEvent::ToolStarted {
            call_id: call.id.clone(),
            tool: call.name.clone(),
            display_name: self.display_name(&call.name),
            arguments: call.arguments.clone(),
        });
    }

    /// Runs one tool call. Returns the card when it waits for the user.
    async fn run_tool_call(
        &self,
        conversation: &mut Conversation,
        call: &ToolCallRecord,
        events: &dyn ChatEvents,
    ) -> Option<ConfirmationCard> {
        self.announce_tool(call, events);
        let turn = conversation.turn_id();
        let door = outside_door(conversation);
        let origin = super::memory::origin(conversation);
        let off_plan = self.off_plan(conversation, call);
        // A step of a plan approved "all together" is held for its one card
        // (a call written as text keeps its own card, which says so).
        let held = !off_plan && !call.as_text && super::plan_changes::holding(conversation);
        let result = if off_plan {
            // Not a step of the approved plan: its own card, whatever the mode.
            match parse_arguments(&call.arguments) {
                Ok(args) => {
                    let door = door.as_ref().map(|d| (d.name.as_str(), d.mode_cap));
                    self.engine
                        .call_tool_off_plan(&call.name, &args, door, &turn, origin.clone())
                        .await
                }
                Err(problem) => ToolResult::failure(&ToolError::invalid(&call.name, problem), 0.0),
            }
        } else if held {
            match parse_arguments(&call.arguments) {
                Ok(args) => {
                    let door = door.as_ref().map(|d| (d.name.as_str(), d.mode_cap));
                    self.engine
                        .call_tool_held(&call.name, &args, door, &turn, origin.clone())
                        .await
                }
                Err(problem) => ToolResult::failure(&ToolError::invalid(&call.name, problem), 0.0),
            }
        } else {
            self.tool_result(call, door.as_ref(), &turn, &origin).await
        };
        if held && result.pending.is_some() {
            self.hold_change(conversation, call, &result, events);
            return None;
        }
        if let Some(pending) = &result.pending {
            self.report_tool(call, &result, events);
            return self.engine.confirmation_card(&pending.id);
        }
        self.record_tool_result(conversation, call, result, events);
        None
    }

    pub(super) fn report_tool(
        &self,
        call: &ToolCallRecord,
        result: &ToolResult,
        events: &dyn ChatEvents,
    ) -> Option<Table> {
        let format = serde_json::from_str::<Value>(&call.arguments)
            .ok()
            .and_then(|a| a.get("format").and_then(Value::as_str).map(String::from));
        let table = if result.ok {
            table::detect(&result.text, format.as_deref())
        } else {
            None
        };
        events.emit(ChatEvent::ToolFinished {
            call_id: call.id.clone(),
            tool: call.name.clone(),
            // Named by what ran it: the vault and the plugin's own reports say so.
            display_name: match &result.ran {
                Some(ran) => ran.label.clone(),
                None => self.display_name(&call.name),
            },
            result: Box::new(result.clone()),
            table: table.clone(),
        });
        table
    }

    pub(super) fn record_tool_result(
        &self,
        conversation: &mut Conversation,
        call: &ToolCallRecord,
        result: ToolResult,
        events: &dyn ChatEvents,
    ) {
        let message = self.tool_message(conversation, call, result, events);
        conversation.messages.push(message);
    }

    /// The call's result at `at` in the conversation is replaced by
    /// `result` (a held change once its card is answered): the model reads
    /// what happened, and its block shows it. The call is the one of that
    /// id in the model's reply before it (ids repeat across rounds).
    pub(super) fn rewrite_tool_result(
        &self,
        conversation: &mut Conversation,
        at: usize,
        result: ToolResult,
        events: &dyn ChatEvents,
    ) {
        let Some(ChatMessage::Tool { call_id, .. }) = conversation.messages.get(at) else {
            return;
        };
        let call = conversation.messages[..at]
            .iter()
            .rev()
            .find_map(|m| match m {
                ChatMessage::Assistant { tool_calls, .. } => {
                    tool_calls.iter().find(|c| &c.id == call_id).cloned()
                }
                _ => None,
            });
        let Some(call) = call else {
            return;
        };
        let message = self.tool_message(conversation, &call, result, events);
        conversation.messages[at] = message;
    }

    fn tool_message(
        &self,
        conversation: &Conversation,
        call: &ToolCallRecord,
        result: ToolResult,
        events: &dyn ChatEvents,
    ) -> ChatMessage {
        let table = self.report_tool(call, &result, events);
        let settings = self.engine.settings_snapshot();
        let command = serde_json::from_str::<Value>(&call.arguments)
            .ok()
            .and_then(|a| a.get("command").and_then(Value::as_str).map(String::from));
        let cap_chars = settings.chat.tool_result_cap_chars as usize;
        // What the web answered is outside data, never the vault's.
        let mut content = match call.name == crate::settings::web::WEB_TOOL {
            true => web_for_model(command.as_deref(), &result, cap_chars),
            false => for_model(&call.name, command.as_deref(), &result, cap_chars),
        };
        if !result.ok
            && repeats::outcomes(&conversation.messages, call).0 + 1 == repeats::FAILURES_ALLOWED
        {
            // The second failure: the model is told to change course
            // before the call is refused.
            content.push_str(repeats::SECOND_FAILURE);
        }
        ChatMessage::Tool {
            call_id: call.id.clone(),
            tool: call.name.clone(),
            content,
            is_error: !result.ok,
            result: Box::new(result),
            table,
        }
    }

    fn display_name(&self, tool_id: &str) -> String {
        self.engine
            .tools()
            .iter()
            .find(|t| t.id == tool_id)
            .map(|t| t.display_name.to_string())
            .unwrap_or_else(|| tool_id.to_string())
    }
}

/// Who the turn's calls come through: an outside door (`vault-agent:ask`),
/// or a saved prompt that narrows the mode, whose cards name it.
/// Both at once: the door's name, and the narrower of the two modes (a
/// prompt's mode never widens what the door allows, nor the other way).
pub(super) fn outside_door(
    conversation: &Conversation,
) -> Option<super::conversation::OutsideDoor> {
    let setup = super::conversation::TurnSetup::of(conversation);
    match (conversation.door.clone(), setup.mode_cap) {
        (Some(mut door), Some(cap)) => {
            door.mode_cap = door.mode_cap.at_most(cap);
            Some(door)
        }
        (Some(door), None) => Some(door),
        (None, cap) => Some(super::conversation::OutsideDoor {
            name: format!("Saved prompt “{}”", setup.prompt),
            mode_cap: cap?,
        }),
    }
}

/// The messages after the turn's user message (the whole chat if it has none).
fn this_turn(conversation: &Conversation) -> &[ChatMessage] {
    let messages = &conversation.messages;
    let start = messages
        .iter()
        .rposition(|m| matches!(m, ChatMessage::User { .. }))
        .map_or(0, |at| at + 1);
    &messages[start..]
}

pub(super) fn last_is_tool_result(conversation: &Conversation) -> bool {
    matches!(conversation.messages.last(), Some(ChatMessage::Tool { .. }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doors::chat::conversation::{OutsideDoor, TurnSetup};
    use crate::settings::PermissionMode;

    #[test]
    fn a_saved_prompts_mode_narrows_an_outside_doors_and_never_widens_it() {
        let with = |door: Option<PermissionMode>, prompt: Option<PermissionMode>| {
            let mut conversation = Conversation::new("chat-1".into(), 0.0);
            conversation.door = door.map(|mode_cap| OutsideDoor {
                name: "Obsidian CLI".into(),
                mode_cap,
            });
            conversation.setup = Some(
                TurnSetup {
                    prompt: "Tidy".into(),
                    mode_cap: prompt,
                    ..TurnSetup::default()
                }
                .to_value(),
            );
            outside_door(&conversation).map(|d| (d.name, d.mode_cap))
        };
        use PermissionMode::*;
        assert_eq!(
            with(Some(AskBeforeEdits), Some(ReadOnly)),
            Some(("Obsidian CLI".into(), ReadOnly))
        );
        assert_eq!(
            with(Some(ReadOnly), Some(AskBeforeEdits)),
            Some(("Obsidian CLI".into(), ReadOnly))
        );
        assert_eq!(
            with(Some(AskEveryChange), None),
            Some(("Obsidian CLI".into(), AskEveryChange))
        );
        assert_eq!(
            with(None, Some(ReadOnly)),
            Some(("Saved prompt “Tidy”".into(), ReadOnly))
        );
        assert_eq!(with(None, None), None);
    }
}
