//! The chat agent loop: ask the model, stream its answer, run the tools it
//! calls through the same registry, policy and confirmations as every other
//! caller, and go round again until it answers without tools.

use std::cell::{Cell, RefCell};

use serde::Serialize;
use serde_json::Value;

use super::budget;
use super::conversation::{
    AnswerUsage, Attachment, ChatMessage, Conversation, PausedTurn, ToolCallRecord, Usage,
};
use super::prompt::{
    attachments_given, bound_attachments, for_model, model_messages, system_prompt,
};
use super::provider::{
    assembler, build_request, connection_error, parse_whole_reply, retry_wait_ms, status_error,
    ChatError, ModelReply, ModelRequest, ModelTool, StreamPiece,
};
use super::sse::SseParser;
use crate::base::card::ConfirmationCard;
use crate::base::error::ToolError;
use crate::base::host::{join_all, Host};
use crate::base::result::ToolResult;
use crate::base::table::{self, Table};
use crate::engine::{ToolDescriptor, VaultAgentCore};
use crate::settings::{ProviderKind, Settings};

/// Error bodies beyond this are not read (they are only for the message).
const MAX_ERROR_BODY: usize = 64 * 1024;
/// A reply that comes as one JSON body is kept up to this size.
const MAX_WHOLE_REPLY: usize = 16 * 1024 * 1024;
/// Tries after a 429, 503 or 529 before the error is shown.
const MAX_RETRIES: u32 = 3;

/// The server's own words, short, for a notice.
fn brief(body: &str) -> String {
    let text = super::provider::scrub_server_text(&super::provider::server_message(body), &[]);
    if text.trim().is_empty() {
        String::new()
    } else {
        format!(": {}", text.chars().take(80).collect::<String>())
    }
}

/// How a turn ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum TurnEnd {
    /// The model answered without calling tools.
    Done,
    /// A change waits for the user's click; `resolve_confirmation` goes on.
    AwaitingConfirmation,
    /// The tool-round limit was reached.
    RoundLimit,
    /// The user pressed Stop.
    Stopped,
    /// The model server failed; the error event says what to fix.
    Failed,
}

/// What the chat view is told while a turn runs.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum ChatEvent {
    #[serde(rename_all = "camelCase")]
    ModelRound { round: u32 },
    #[serde(rename_all = "camelCase")]
    TextDelta { text: String },
    #[serde(rename_all = "camelCase")]
    AssistantMessage { text: String },
    /// The model's reasoning, streamed (shown folded above the answer).
    #[serde(rename_all = "camelCase")]
    ReasoningDelta { text: String },
    /// What the answer cost, as the server reported it (never a guess).
    #[serde(rename_all = "camelCase")]
    Usage { usage: AnswerUsage, chat: Usage },
    #[serde(rename_all = "camelCase")]
    ToolStarted {
        call_id: String,
        tool: String,
        display_name: String,
        arguments: String,
    },
    #[serde(rename_all = "camelCase")]
    ToolFinished {
        call_id: String,
        tool: String,
        display_name: String,
        result: Box<ToolResult>,
        table: Option<Table>,
    },
    #[serde(rename_all = "camelCase")]
    ConfirmationNeeded {
        call_id: String,
        card: Box<ConfirmationCard>,
    },
    #[serde(rename_all = "camelCase")]
    Notice { text: String },
    #[serde(rename_all = "camelCase")]
    Error { code: String, message: String },
    #[serde(rename_all = "camelCase")]
    TurnEnded { end: TurnEnd },
}

/// The answer of "Test connection".
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ConnectionReport {
    pub ok: bool,
    pub models: Vec<String>,
    pub message: String,
}

/// Where events go (the chat view, through the shim; a list in tests).
pub trait ChatEvents {
    fn emit(&self, event: ChatEvent);
}

/// The user's answer to a paused turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision<'a> {
    Approve {
        argv_hash: &'a str,
    },
    Reject,
    /// Answered already on the plugin's own card (a headless turn): take
    /// that answer; one not given counts as a no.
    Answered,
}

/// What the chat learned about servers in this session (a handful of
/// entries: lists, which cost less code in wasm than hash maps).
#[derive(Default)]
pub struct ChatSession {
    /// Base URLs whose server refused `stream_options`.
    no_stream_usage: RefCell<Vec<String>>,
    /// Windows found by base URL and model; `None`: the server did not say.
    windows: RefCell<Vec<(String, String, Option<u32>)>>,
}

/// Set by Stop; checked between the steps of a turn.
#[derive(Default)]
pub struct StopSignal(Cell<bool>);

impl StopSignal {
    pub fn request(&self) {
        self.0.set(true);
    }
    fn reset(&self) {
        self.0.set(false);
    }
    fn requested(&self) -> bool {
        self.0.get()
    }
}

impl<H: Host> VaultAgentCore<H> {
    /// The user sent `text`: run a turn until the model is done, a change
    /// needs the user's click, the round limit, Stop, or an error.
    pub async fn chat_send(
        &self,
        conversation: &mut Conversation,
        text: &str,
        events: &dyn ChatEvents,
    ) -> TurnEnd {
        self.chat_send_with(conversation, text, None, events).await
    }

    /// `chat_send` with the notes attached in the chat (the chips): `None`
    /// from doors without chips, where the prompt names the note open in
    /// Obsidian instead.
    pub async fn chat_send_with(
        &self,
        conversation: &mut Conversation,
        text: &str,
        attachments: Option<Vec<Attachment>>,
        events: &dyn ChatEvents,
    ) -> TurnEnd {
        self.chat_stop.reset();
        if conversation.paused.take().is_some() {
            // A new message answers nothing that was pending: drop it.
            conversation.messages.push(ChatMessage::Notice {
                text: "The change that was waiting for approval was dropped.".into(),
            });
        }
        conversation.messages.push(ChatMessage::User {
            text: text.to_string(),
            attachments: attachments.map(bound_attachments),
        });
        conversation.turn_usage = None;
        conversation.retitle();
        let end = self.run_turn(conversation, Vec::new(), 0, events).await;
        self.finish_turn(conversation, end, events)
    }

    /// Retry on a failed turn's banner: the turn runs again from the
    /// conversation as it is (the user's message, or the tool results, are
    /// already there), so nothing is said twice.
    pub async fn chat_retry(
        &self,
        conversation: &mut Conversation,
        events: &dyn ChatEvents,
    ) -> TurnEnd {
        self.chat_stop.reset();
        let retryable = conversation.paused.is_none()
            && matches!(
                conversation.messages.last(),
                Some(ChatMessage::User { .. } | ChatMessage::Tool { .. })
            );
        if !retryable {
            events.emit(ChatEvent::Error {
                code: "nothing_to_retry".into(),
                message: "There is no failed answer to retry here; send a message instead.".into(),
            });
            return self.finish_turn(conversation, TurnEnd::Failed, events);
        }
        let end = self.run_turn(conversation, Vec::new(), 0, events).await;
        self.finish_turn(conversation, end, events)
    }

    /// The user answered the confirmation card of a paused turn.
    pub async fn chat_resolve(
        &self,
        conversation: &mut Conversation,
        confirmation_id: &str,
        decision: Decision<'_>,
        events: &dyn ChatEvents,
    ) -> TurnEnd {
        self.chat_stop.reset();
        let Some(paused) = conversation
            .paused
            .take()
            .filter(|p| p.confirmation_id == confirmation_id)
        else {
            events.emit(ChatEvent::Error {
                code: "confirmation_not_found".into(),
                message: "This conversation is not waiting for that change any more.".into(),
            });
            return self.finish_turn(conversation, TurnEnd::Failed, events);
        };
        let result = match decision {
            Decision::Approve { argv_hash } => self.approve(confirmation_id, argv_hash).await,
            Decision::Reject => self.reject(confirmation_id),
            Decision::Answered => self
                .confirmation_outcome(confirmation_id)
                .unwrap_or_else(|| self.reject(confirmation_id)),
        };
        if let Some(pending) = &result.pending {
            // Stale: the target changed; the user is asked again.
            if let Some(card) = self.confirmation_card(&pending.id) {
                self.report_tool(&paused.call, &result, events);
                events.emit(ChatEvent::ConfirmationNeeded {
                    call_id: paused.call.id.clone(),
                    card: Box::new(card),
                });
                conversation.paused = Some(PausedTurn {
                    confirmation_id: pending.id.clone(),
                    ..paused
                });
                return self.finish_turn(conversation, TurnEnd::AwaitingConfirmation, events);
            }
        }
        self.record_tool_result(conversation, &paused.call, result, events);
        let end = self
            .run_turn(conversation, paused.remaining, paused.rounds, events)
            .await;
        self.finish_turn(conversation, end, events)
    }

    /// A fresh conversation with an id no other one has.
    pub fn new_conversation(&self) -> Conversation {
        let now = self.host().now_ms();
        let n = self.conversation_count.get() + 1;
        self.conversation_count.set(n);
        Conversation::new(format!("chat-{}-{n}", now as u64), now)
    }

    /// Lists the active provider's models, which also proves the address
    /// and the key work.
    pub async fn test_connection(&self) -> ConnectionReport {
        let settings = self.settings_snapshot();
        let chat = &settings.chat;
        let failed = |error: ChatError| ConnectionReport {
            ok: false,
            models: Vec::new(),
            message: self.shown_error(&error, &settings),
        };
        let api_key = match self.api_key(&settings) {
            Ok(key) => key,
            Err(error) => return failed(error),
        };
        let request = super::provider::models_request(chat.provider(), chat.active(), api_key);
        let head = match self.host().http_open(&request).await {
            Ok(head) => head,
            Err(failure) => return failed(connection_error(&request.url, &failure)),
        };
        let body = self.read_error_body(head.id).await;
        if head.status != 200 {
            let key_sent = request.headers.iter().any(|(name, _)| {
                name.eq_ignore_ascii_case("authorization") || name.eq_ignore_ascii_case("x-api-key")
            });
            return failed(status_error(
                head.status,
                &body,
                &chat.active().model,
                &request.url,
                key_sent,
            ));
        }
        let models = super::provider::parse_models(&body);
        let message = if models.is_empty() {
            "Connected. The server did not list its models.".to_string()
        } else {
            format!("Connected. {} models available.", models.len())
        };
        ConnectionReport {
            ok: true,
            models,
            message,
        }
    }

    /// Stop: the running request is aborted by the shim; the loop ends at
    /// its next step.
    pub fn chat_stop(&self) {
        self.chat_stop.request();
    }

    fn finish_turn(
        &self,
        conversation: &mut Conversation,
        end: TurnEnd,
        events: &dyn ChatEvents,
    ) -> TurnEnd {
        conversation.updated_ms = self.host().now_ms();
        events.emit(ChatEvent::TurnEnded { end });
        end
    }

    /// Runs queued tool calls, then model rounds, until the turn ends.
    async fn run_turn(
        &self,
        conversation: &mut Conversation,
        mut queue: Vec<ToolCallRecord>,
        mut rounds: u32,
        events: &dyn ChatEvents,
    ) -> TurnEnd {
        loop {
            while !queue.is_empty() {
                let call = queue.remove(0);
                if self.chat_stop.requested() {
                    let result = ToolResult::failure(
                        &ToolError::invalid(&call.name, "not run: the user pressed Stop"),
                        0.0,
                    );
                    self.record_tool_result(conversation, &call, result, events);
                    continue;
                }
                // Reads the model asked for together run at once (the
                // process cap still bounds them); their results keep the order asked.
                if self.is_read_call(&call)
                    && queue.first().is_some_and(|next| self.is_read_call(next))
                {
                    let mut batch = vec![call];
                    while queue.first().is_some_and(|next| self.is_read_call(next)) {
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
            if self.chat_stop.requested() {
                return self.stopped(conversation, events);
            }
            let settings = self.settings_snapshot();
            if rounds >= settings.chat.max_tool_rounds && last_is_tool_result(conversation) {
                let text = format!(
                    "Stopped after {} tool rounds, the limit for one message (Settings → Vault Agent → Model). Send another message to let the agent go on.",
                    settings.chat.max_tool_rounds
                );
                conversation
                    .messages
                    .push(ChatMessage::Notice { text: text.clone() });
                events.emit(ChatEvent::Notice { text });
                return TurnEnd::RoundLimit;
            }
            events.emit(ChatEvent::ModelRound { round: rounds + 1 });
            let (reply, window) = match self.ask_model(conversation, &settings, events).await {
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
                    events.emit(ChatEvent::Error {
                        code: error.code().into(),
                        message: self.shown_error(&error, &self.settings_snapshot()),
                    });
                    return TurnEnd::Failed;
                }
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
            conversation.messages.push(ChatMessage::Assistant {
                text: reply.text.clone(),
                tool_calls: reply.tool_calls.clone(),
                reasoning: reply.reasoning,
                thinking: reply.thinking,
                usage,
            });
            if reply.tool_calls.is_empty() {
                return TurnEnd::Done;
            }
            rounds += 1;
            queue = reply.tool_calls;
        }
    }

    fn stopped(&self, conversation: &mut Conversation, events: &dyn ChatEvents) -> TurnEnd {
        let text = "Stopped.".to_string();
        conversation
            .messages
            .push(ChatMessage::Notice { text: text.clone() });
        events.emit(ChatEvent::Notice { text });
        TurnEnd::Stopped
    }

    /// A call that only reads (its command is a read): it may run alongside
    /// the reads next to it. Anything not understood counts as a change.
    fn is_read_call(&self, call: &ToolCallRecord) -> bool {
        let Ok(Value::Object(args)) = serde_json::from_str::<Value>(&call.arguments) else {
            return false;
        };
        let Some(command) = args.get("command").and_then(Value::as_str) else {
            return false;
        };
        self.tools()
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
        let door = conversation.door.clone();
        let runs = batch
            .iter()
            .map(|call| self.tool_result(call, door.as_ref(), &turn));
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
    ) -> ToolResult {
        match parse_arguments(&call.arguments) {
            Ok(args) if call.as_text => {
                let door = door.map(|d| (d.name.as_str(), d.mode_cap));
                self.call_tool_written_as_text(&call.name, &args, door, turn)
                    .await
            }
            Ok(args) => match door {
                None => self.call_tool_in_turn(&call.name, &args, Some(turn)).await,
                Some(door) => {
                    self.call_tool_through(
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
    fn announce_tool(&self, call: &ToolCallRecord, events: &dyn ChatEvents) {
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
        let result = self
            .tool_result(call, conversation.door.as_ref(), &turn)
            .await;
        if let Some(pending) = &result.pending {
            self.report_tool(call, &result, events);
            return self.confirmation_card(&pending.id);
        }
        self.record_tool_result(conversation, call, result, events);
        None
    }

    fn report_tool(
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
            display_name: self.display_name(&call.name),
            result: Box::new(result.clone()),
            table: table.clone(),
        });
        table
    }

    fn record_tool_result(
        &self,
        conversation: &mut Conversation,
        call: &ToolCallRecord,
        result: ToolResult,
        events: &dyn ChatEvents,
    ) {
        let table = self.report_tool(call, &result, events);
        let settings = self.settings_snapshot();
        let command = serde_json::from_str::<Value>(&call.arguments)
            .ok()
            .and_then(|a| a.get("command").and_then(Value::as_str).map(String::from));
        conversation.messages.push(ChatMessage::Tool {
            call_id: call.id.clone(),
            tool: call.name.clone(),
            content: for_model(
                &call.name,
                command.as_deref(),
                &result,
                settings.chat.tool_result_cap_chars as usize,
            ),
            is_error: !result.ok,
            result: Box::new(result),
            table,
        });
    }

    fn display_name(&self, tool_id: &str) -> String {
        self.tools()
            .iter()
            .find(|t| t.id == tool_id)
            .map(|t| t.display_name.to_string())
            .unwrap_or_else(|| tool_id.to_string())
    }

    /// The tools the model may call: exactly the enabled ones.
    pub fn model_tools(&self) -> Vec<ModelTool> {
        model_tools(&self.list_tools())
    }

    /// The window to plan for: the setting when the user gave one, else what
    /// the server or the model's name tells (asked once per base URL and
    /// model, and never failing the chat), else `budget::context_window`.
    pub async fn context_window(
        &self,
        kind: ProviderKind,
        provider: &crate::settings::ProviderSettings,
        api_key: Option<&str>,
    ) -> usize {
        if provider.context_window > 0 {
            return provider.context_window as usize;
        }
        let cached = self
            .chat_session
            .windows
            .borrow()
            .iter()
            .find(|(url, model, _)| *url == provider.base_url && *model == provider.model)
            .map(|(_, _, found)| *found);
        let found = match cached {
            Some(found) => found,
            None => {
                let found = match super::window::known(kind, &provider.base_url, &provider.model) {
                    Some(n) => Some(n),
                    None => match (kind, super::window::server(&provider.base_url)) {
                        (ProviderKind::OpenAi, Some(server)) => {
                            self.probe_window(server, provider, api_key).await
                        }
                        _ => None,
                    },
                };
                // A probe cut short by Stop told nothing: ask again next time.
                if self.chat_stop.requested() {
                    return budget::context_window(kind, provider);
                }
                self.chat_session.windows.borrow_mut().push((
                    provider.base_url.clone(),
                    provider.model.clone(),
                    found,
                ));
                found
            }
        };
        found.map_or_else(|| budget::context_window(kind, provider), |n| n as usize)
    }

    async fn probe_window(
        &self,
        server: super::window::Server,
        provider: &crate::settings::ProviderSettings,
        api_key: Option<&str>,
    ) -> Option<u32> {
        let request = super::window::probe(server, provider, api_key);
        let head = self.host().http_open(&request).await.ok()?;
        // OpenRouter lists hundreds of models.
        let body = self.read_body(head.id, 8 * 1024 * 1024).await;
        if head.status != 200 {
            return None;
        }
        super::window::read(server, &body, &provider.model)
    }

    /// One model round: request, stream, assemble. Returns the reply and the
    /// window it was fitted to.
    async fn ask_model(
        &self,
        conversation: &Conversation,
        settings: &Settings,
        events: &dyn ChatEvents,
    ) -> Result<(ModelReply, usize), RoundError> {
        let chat = &settings.chat;
        let provider = chat.active();
        let api_key = self.api_key(settings).map_err(RoundError::Failed)?;
        // One listing per round serves both the prompt and the tool list.
        let descriptors = self.list_tools();
        // A small window gets the compact tools, and the guidance they carry.
        let window = self
            .context_window(chat.provider(), provider, api_key.as_deref())
            .await;
        if self.chat_stop.requested() {
            // Stop while the server was asked about its window.
            return Err(RoundError::Stopped(String::new()));
        }
        let thinking_budget = match chat.provider() {
            ProviderKind::Anthropic if chat.anthropic_thinking => chat.anthropic_thinking_budget,
            _ => 0,
        };
        // Thinking is written into the answer's room.
        let reserve = budget::answer_reserve(window) + thinking_budget as usize;
        let compact = window <= budget::COMPACT_WINDOW;
        let tools = if compact {
            let enabled: Vec<&crate::tools::ToolSpec> = self
                .tools()
                .iter()
                .filter(|t| settings.tool_enabled(t.id))
                .collect();
            budget::compact_tools(&enabled)
        } else {
            model_tools(&descriptors)
        };
        let local = self.host().local_context();
        let scope = crate::policy::scope::FolderScope::read(settings, self.host().platform().os());
        // Chips, when the chat sent them, say which notes the user means.
        let open_note = local
            .open_note
            .as_deref()
            .filter(|path| scope.contains(path) && !attachments_given(&conversation.messages));
        let messages = model_messages(&conversation.messages, &|path| scope.contains(path));
        let mut system = system_prompt(
            &descriptors,
            self.host().now_ms(),
            &local,
            open_note,
            compact,
        );
        if provider.text_tool_calls {
            system.push_str(super::text_calls::PROMPT_RULE);
        }
        let fixed = budget::estimate(&system)
            + tools
                .iter()
                .map(|t| {
                    budget::estimate(&t.name)
                        + budget::estimate(&t.description)
                        + budget::estimate(&t.input_schema.to_string())
                })
                .sum::<usize>();
        let available = window.saturating_sub(reserve + fixed);
        let fitted = budget::fit(&messages, available).map_err(|needed| {
            RoundError::Failed(ChatError::ContextFull {
                window,
                needed: needed + fixed + reserve,
            })
        })?;
        if fitted.shortened + fitted.dropped > 0 {
            let count = |n: usize, one: &str, many: &str| match n {
                1 => format!("1 {one}"),
                n => format!("{n} {many}"),
            };
            let mut done = Vec::new();
            if fitted.shortened > 0 {
                done.push(format!(
                    "{} shortened",
                    count(
                        fitted.shortened,
                        "older tool result was",
                        "older tool results were"
                    )
                ));
            }
            if fitted.dropped > 0 {
                done.push(format!(
                    "{} left out of what it reads",
                    count(fitted.dropped, "older message was", "older messages were")
                ));
            }
            events.emit(ChatEvent::Notice {
                text: format!(
                    "To fit the model's context ({window} tokens), {}.",
                    done.join(" and ")
                ),
            });
        }
        let mut stream_usage = chat.provider() == ProviderKind::OpenAi
            && !self
                .chat_session
                .no_stream_usage
                .borrow()
                .contains(&provider.base_url);
        let (request, head) = loop {
            let request = build_request(
                chat.provider(),
                &ModelRequest {
                    settings: provider,
                    api_key: api_key.clone(),
                    system: &system,
                    messages: &fitted.messages,
                    tools: &tools,
                    timeout_ms: chat.model_timeout_ms,
                    stream_usage,
                    thinking_budget,
                },
            );
            let head = self.open_model(&request, events).await?;
            if head.status == 200 {
                break (request, head);
            }
            let key_sent = request.headers.iter().any(|(name, _)| {
                name.eq_ignore_ascii_case("authorization") || name.eq_ignore_ascii_case("x-api-key")
            });
            let body = self.read_error_body(head.id).await;
            if head.status == 400
                && stream_usage
                && body.to_ascii_lowercase().contains("stream_options")
            {
                // Asked once more without it, and never again this session.
                self.chat_session
                    .no_stream_usage
                    .borrow_mut()
                    .push(provider.base_url.clone());
                stream_usage = false;
                continue;
            }
            let error = status_error(head.status, &body, &provider.model, &request.url, key_sent);
            return Err(RoundError::Failed(
                self.explain_not_found(error, provider, chat.provider())
                    .await,
            ));
        };
        // Every way out of reading closes the response.
        let read = self
            .read_reply(&head, chat.provider(), &request, events)
            .await;
        self.host().http_close(head.id);
        let mut reply = read?;
        if reply.tool_calls.is_empty() {
            // Small models, or servers that drop tools, may write the call as text.
            let offered: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
            let results = super::text_calls::tool_results(&conversation.messages);
            let id_prefix = format!("text_call_{}", conversation.messages.len());
            match super::text_calls::read(
                &reply.text,
                &offered,
                provider.text_tool_calls,
                &results,
                &id_prefix,
            ) {
                super::text_calls::Reading::Calls(calls) => {
                    reply.text = String::new();
                    reply.tool_calls = calls;
                }
                super::text_calls::Reading::Text { notice } => {
                    if let Some(text) = notice {
                        events.emit(ChatEvent::Notice { text: text.into() });
                    }
                }
            }
        }
        if reply.text.trim().is_empty() && reply.tool_calls.is_empty() {
            return Err(RoundError::Failed(ChatError::EmptyReply));
        }
        Ok((reply, window))
    }

    /// Opens the model request, waiting and asking again while the server
    /// is busy (429, 503, 529).
    async fn open_model(
        &self,
        request: &crate::base::host::HttpRequest,
        events: &dyn ChatEvents,
    ) -> Result<crate::base::host::HttpResponseHead, RoundError> {
        let mut attempt = 0;
        loop {
            let head = match self.host().http_open(request).await {
                Ok(head) => head,
                Err(failure) if failure.code == "ABORTED" => {
                    return Err(RoundError::Stopped(String::new()))
                }
                Err(failure) => {
                    return Err(RoundError::Failed(connection_error(&request.url, &failure)))
                }
            };
            if ChatError::retryable_status(head.status) && attempt < MAX_RETRIES {
                let body = self.read_error_body(head.id).await;
                let wait = retry_wait_ms(head.retry_after.as_deref(), attempt);
                attempt += 1;
                events.emit(ChatEvent::Notice {
                    text: format!(
                        "The model server is busy ({}{}); trying again in {} s ({attempt} of {MAX_RETRIES}).",
                        head.status,
                        brief(&body),
                        wait.div_ceil(1000)
                    ),
                });
                self.host().sleep(wait).await;
                if self.chat_stop.requested() {
                    return Err(RoundError::Stopped(String::new()));
                }
                continue;
            }
            return Ok(head);
        }
    }

    /// The body of a 200: a stream (SSE), or one JSON reply from a server
    /// that ignored `stream: true`, told by its type or, without one, by a
    /// body that held no stream event at all.
    async fn read_reply(
        &self,
        head: &crate::base::host::HttpResponseHead,
        kind: ProviderKind,
        request: &crate::base::host::HttpRequest,
        events: &dyn ChatEvents,
    ) -> Result<ModelReply, RoundError> {
        let whole = head.content_type.as_deref().is_some_and(|t| {
            let t = t.to_ascii_lowercase();
            t.contains("json") && !t.contains("event-stream")
        });
        let mut parser = SseParser::new();
        let mut stream = assembler(kind);
        let mut raw: Vec<u8> = Vec::new();
        let mut seen_events = 0usize;
        loop {
            let chunk = match self.host().http_read(head.id).await {
                Ok(Some(chunk)) => chunk,
                Ok(None) => break,
                Err(failure) => {
                    if failure.code == "ABORTED" || self.chat_stop.requested() {
                        return Err(RoundError::Stopped(stream.partial_text()));
                    }
                    return Err(RoundError::Failed(match failure.code.as_str() {
                        "STALLED" => ChatError::Stalled {
                            seconds: request.idle_timeout_ms.div_ceil(1000),
                        },
                        _ if !raw.is_empty() || seen_events > 0 => ChatError::Cut {
                            detail: failure.code.clone(),
                        },
                        _ => connection_error(&request.url, &failure),
                    }));
                }
            };
            if raw.len() < MAX_WHOLE_REPLY {
                raw.extend_from_slice(&chunk);
            }
            if whole {
                continue;
            }
            for event in parser.push(&chunk) {
                seen_events += 1;
                for piece in stream.on_event(&event).map_err(RoundError::Failed)? {
                    emit_piece(events, piece);
                }
            }
            if self.chat_stop.requested() {
                return Err(RoundError::Stopped(stream.partial_text()));
            }
        }
        let body = String::from_utf8_lossy(&raw);
        if whole || (seen_events == 0 && body.trim_start().starts_with('{')) {
            let reply = parse_whole_reply(kind, &body).map_err(RoundError::Failed)?;
            if !reply.reasoning.is_empty() {
                events.emit(ChatEvent::ReasoningDelta {
                    text: reply.reasoning.clone(),
                });
            }
            if !reply.text.is_empty() {
                events.emit(ChatEvent::TextDelta {
                    text: reply.text.clone(),
                });
            }
            return Ok(reply);
        }
        for event in parser.finish() {
            for piece in stream.on_event(&event).map_err(RoundError::Failed)? {
                emit_piece(events, piece);
            }
        }
        for piece in stream.flush() {
            emit_piece(events, piece);
        }
        Ok(stream.finish())
    }

    /// A 404 that does not name the model: if the base URL lacks `/v1` and
    /// `<base>/v1/models` answers, the fix is to add it.
    async fn explain_not_found(
        &self,
        error: ChatError,
        provider: &crate::settings::ProviderSettings,
        kind: ProviderKind,
    ) -> ChatError {
        let ChatError::EndpointNotFound { url } = &error else {
            return error;
        };
        let base = provider.base_url.trim_end_matches('/');
        if kind != ProviderKind::OpenAi || base.ends_with("/v1") {
            return error;
        }
        let probe = crate::base::host::HttpRequest {
            method: "GET".into(),
            url: format!("{base}/v1/models"),
            headers: Vec::new(),
            body: None,
            timeout_ms: 5_000,
            idle_timeout_ms: 5_000,
        };
        match self.host().http_open(&probe).await {
            Ok(head) => {
                self.host().http_close(head.id);
                if head.status == 200 {
                    return ChatError::MissingV1 {
                        url: url.clone(),
                        base: base.to_string(),
                    };
                }
                error
            }
            Err(_) => error,
        }
    }

    /// An error as the banner shows it: never a header value we sent.
    fn shown_error(&self, error: &ChatError, settings: &Settings) -> String {
        let key = self.api_key(settings).ok().flatten().unwrap_or_default();
        super::provider::scrub_server_text(&error.to_string(), &[key.as_str()])
    }

    fn api_key(&self, settings: &Settings) -> Result<Option<String>, ChatError> {
        let provider = settings.chat.active();
        let key = (!provider.api_key_secret.is_empty())
            .then(|| self.host().secret(&provider.api_key_secret))
            .flatten();
        if settings.chat.provider() == ProviderKind::Anthropic && key.is_none() {
            return Err(ChatError::MissingApiKey {
                provider: "Anthropic".into(),
            });
        }
        Ok(key)
    }

    async fn read_error_body(&self, id: u32) -> String {
        self.read_body(id, MAX_ERROR_BODY).await
    }

    /// A whole body, read up to about `max` bytes, then closed.
    async fn read_body(&self, id: u32, max: usize) -> String {
        let mut body = Vec::new();
        while let Ok(Some(chunk)) = self.host().http_read(id).await {
            body.extend_from_slice(&chunk);
            if body.len() > max {
                break;
            }
        }
        self.host().http_close(id);
        String::from_utf8_lossy(&body).into_owned()
    }
}

enum RoundError {
    /// Stopped by the user, with the text streamed so far.
    Stopped(String),
    Failed(ChatError),
}

fn emit_piece(events: &dyn ChatEvents, piece: StreamPiece) {
    events.emit(match piece {
        StreamPiece::Text(text) => ChatEvent::TextDelta { text },
        StreamPiece::Reasoning(text) => ChatEvent::ReasoningDelta { text },
    });
}

fn model_tools(descriptors: &[ToolDescriptor]) -> Vec<ModelTool> {
    descriptors
        .iter()
        .filter(|t| t.enabled)
        .map(|t| ModelTool {
            name: t.id.to_string(),
            description: format!("{} {}", t.description, t.guidance),
            input_schema: t.input_schema.clone(),
        })
        .collect()
}

fn last_is_tool_result(conversation: &Conversation) -> bool {
    matches!(conversation.messages.last(), Some(ChatMessage::Tool { .. }))
}

/// The model's arguments, or what is wrong with them (sent back to it).
fn parse_arguments(raw: &str) -> Result<Value, String> {
    if raw.trim().is_empty() {
        return Ok(Value::Object(Default::default()));
    }
    match serde_json::from_str::<Value>(raw) {
        Ok(value @ Value::Object(_)) => Ok(value),
        Ok(other) => Err(format!("the arguments must be a JSON object, not {other}")),
        Err(e) => Err(format!("the arguments are not valid JSON ({e}); send a JSON object like {{\"command\": \"…\"}}")),
    }
}
