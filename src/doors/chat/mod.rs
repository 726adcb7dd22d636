//! The in-app chat door: provider adapters (OpenAI-compatible, Anthropic),
//! the stream parsers, the context budget, and the loop that runs the
//! model's tool calls through the same registry, policy and confirmations as
//! every other caller. `ChatDoor` holds what the chat keeps between turns
//! (the open chat views and running turns with their Stop, what it learned
//! about servers, the conversation count); conversations themselves travel
//! with each call.

pub mod anthropic;
mod ask;
pub mod budget;
pub mod check_probes;
pub mod check_verdict;
pub mod compact;
pub mod conversation;
pub mod events;
pub mod fork;
pub mod images;
pub mod instructions;
pub mod memory;
pub mod model;
pub mod model_check;
pub mod openai;
pub mod outside;
pub mod pdf;
pub mod plan;
pub mod plan_changes;
pub mod prompt;
pub mod prompt_notes;
pub mod provider;
pub mod repeats;
mod reply;
pub mod saved_prompts;
pub mod schedule;
pub mod scheduled_runs;
pub mod selection;
pub mod skills;
pub mod sources;
pub mod sse;
pub mod stored;
mod summarise;
pub mod text_calls;
pub mod think_tags;
mod turn;
pub mod views;
pub mod window;

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use serde_json::Value;

use crate::base::host::Host;
use crate::base::vault_path::{in_config_dir, PathKind};
use crate::doors::chat::conversation::{
    Attachment, ChatMessage, Conversation, PausedTurn, TurnSetup,
};
use crate::doors::chat::model::{ChatError, ModelTool};
use crate::doors::chat::prompt::bound_attachments;
use crate::doors::chat::provider::{connection_error, status_error};
use crate::engine::{Engine, ToolDescriptor};
use crate::policy::scope::FolderScope;
use crate::settings::Settings;

pub use self::events::{ChatEvent, ChatEvents, ConnectionReport, Decision, TurnEnd, WayOut};

/// The chat's door over the engine every door shares.
pub struct ChatDoor<H: Host> {
    pub(crate) engine: Rc<Engine<H>>,
    /// The open chat views and the running turns, each with its own Stop.
    pub(crate) open: views::OpenChats,
    session: ChatSession,
    conversations: Cell<u64>,
}

/// What the chat learned about servers in this session (a handful of
/// entries: lists, which cost less code in wasm than hash maps).
#[derive(Default)]
pub struct ChatSession {
    /// Base URLs whose server refused `stream_options`.
    no_stream_usage: RefCell<Vec<String>>,
    /// Windows found by base URL and model; `None`: the server did not say.
    windows: RefCell<Vec<(String, String, Option<u32>)>>,
    /// Whether Ollama reported vision, by base URL and model.
    vision: RefCell<Vec<(String, String, Option<bool>)>>,
    /// Base URLs and models already said to ignore the tools.
    dropped_tools: RefCell<Vec<(String, String)>>,
    /// The outside tools offered in the last round, by the model's name.
    outside: RefCell<Vec<outside::OfferedTool>>,
    /// Each enabled server's last listing, for the chat's header.
    outside_status: RefCell<Vec<(String, crate::base::outside::OutsideListing)>>,
    /// What the last turn found wrong that is about no message (a server
    /// down, the instructions note missing): said in the header's status,
    /// with its fix, not in every transcript. Outside servers', then the note's.
    outside_problems: RefCell<Vec<String>>,
    instructions_problem: RefCell<Option<String>>,
    /// Outside calls waiting on their cards.
    outside_cards: RefCell<Vec<outside::PendingOutside>>,
    outside_cards_made: Cell<u64>,
    /// The attached PDFs' pages, read once a turn.
    turn_pdfs: pdf::TurnPdfs,
    /// By conversation: the turn whose results the chat said it pruned,
    /// and how many (said again only when more are pruned).
    pruned_said: RefCell<Vec<(String, String, usize)>>,
    /// Turns whose compaction failed: not asked again in the same turn.
    compaction_failed: RefCell<Vec<String>>,
}

impl ChatSession {
    /// Whether the chat should say that `pruned` results are pruned in
    /// `turn` of `conversation`: the first time, and when more are.
    fn say_pruned(&self, conversation: &str, turn: &str, pruned: usize) -> bool {
        let mut said = self.pruned_said.borrow_mut();
        match said.iter_mut().find(|(c, _, _)| c == conversation) {
            Some(entry) if entry.1 == turn && entry.2 >= pruned => false,
            Some(entry) => {
                *entry = (conversation.into(), turn.into(), pruned);
                true
            }
            None => {
                said.push((conversation.into(), turn.into(), pruned));
                true
            }
        }
    }

    /// True the first time this session for the server and model.
    fn first_dropped_tools_notice(&self, provider: &crate::settings::ProviderSettings) -> bool {
        let key = (provider.base_url.clone(), provider.model.clone());
        let mut said = self.dropped_tools.borrow_mut();
        if said.contains(&key) {
            return false;
        }
        said.push(key);
        true
    }
}

impl<H: Host> ChatDoor<H> {
    pub fn new(engine: Rc<Engine<H>>) -> Self {
        ChatDoor {
            engine,
            open: views::OpenChats::default(),
            session: ChatSession::default(),
            conversations: Cell::new(0),
        }
    }

    /// The user sent `text`: run a turn until the model is done, a change
    /// needs the user's click, the round limit, Stop, or an error.
    pub async fn send(
        &self,
        conversation: &mut Conversation,
        text: &str,
        events: &dyn ChatEvents,
    ) -> TurnEnd {
        self.send_with(conversation, text, None, events).await
    }

    /// `send` with the notes attached in the chat (the chips): `None`
    /// from doors without chips, where the prompt names the note open in
    /// Obsidian instead.
    pub async fn send_with(
        &self,
        conversation: &mut Conversation,
        text: &str,
        attachments: Option<Vec<Attachment>>,
        events: &dyn ChatEvents,
    ) -> TurnEnd {
        self.send_started(conversation, text, attachments, &Value::Null, events)
            .await
    }

    /// `send_with`, or a message the core makes from `start` (`chatSend`'s
    /// last argument; `null` for none): `{ prompt, values }` sends the saved
    /// prompt at that path filled in (under its profile, at most its mode;
    /// with `scheduled: slot, late` as its scheduled run, at most the chat's
    /// mode too, the chat opening with a notice that says so),
    /// `{ rewrite, instruction }` asks for a rewrite of the editor's
    /// selection whose answer becomes a card editing exactly that range. The
    /// view is told the message first; one that cannot be made ends the turn
    /// with the reason, and nothing is added to the conversation.
    pub async fn send_started(
        &self,
        conversation: &mut Conversation,
        text: &str,
        attachments: Option<Vec<Attachment>>,
        start: &Value,
        events: &dyn ChatEvents,
    ) -> TurnEnd {
        let _hold = match self.hold(conversation, events) {
            Ok(hold) => hold,
            Err(end) => return end,
        };
        let (text, attachments, setup) = if start.is_null() {
            (text.to_string(), attachments, None)
        } else {
            match self.started(start, attachments).await {
                Ok(made) => {
                    events.emit(ChatEvent::UserMessage {
                        text: made.0.clone(),
                        attachments: made.1.clone().map(bound_attachments),
                    });
                    made
                }
                Err(message) => {
                    events.emit(ChatEvent::plain_error("not_sent", message));
                    return self.finish_turn(conversation, TurnEnd::Failed, events);
                }
            }
        };
        let text = text.as_str();
        // Checked, kept and read in the form the file system reads them.
        let attachments = match attachments.map(prompt::resolved_attachments).transpose() {
            Ok(attachments) => attachments.map(bound_attachments),
            Err(message) => {
                events.emit(ChatEvent::plain_error("not_sent", message));
                return self.finish_turn(conversation, TurnEnd::Failed, events);
            }
        };
        // Before anything is sent or kept: a model that does not read images
        // is told so, never sent the message without them.
        let settings = self.turn_settings(
            &conversation.id,
            setup.as_ref().and_then(|s| s.profile.clone()),
        );
        if let Err(error) = self
            .images_accepted(attachments.as_deref(), &settings)
            .await
        {
            events.emit(self.error_event(&error, &settings));
            return self.finish_turn(conversation, TurnEnd::Failed, events);
        }
        // A scanned PDF (no text) or one PDF.js cannot open is said before sending.
        if let Err(message) = self.pdfs_readable(attachments.as_deref()).await {
            events.emit(ChatEvent::plain_error("pdf_unreadable", message));
            return self.finish_turn(conversation, TurnEnd::Failed, events);
        }
        let scheduled = setup.as_ref().and_then(|s| s.scheduled.clone());
        conversation.setup = setup.map(|s| s.to_value());
        self.drop_held(conversation, events);
        plan::close(conversation, TurnEnd::Done, true);
        if conversation.paused.take().is_some() {
            // A new message answers nothing that was pending: drop it.
            conversation.messages.push(ChatMessage::Notice {
                text: "The change that was waiting for approval was dropped.".into(),
            });
        }
        if let Some(notice) = &scheduled {
            conversation.messages.push(ChatMessage::Notice {
                text: notice.clone(),
            });
        }
        conversation.messages.push(ChatMessage::User {
            text: text.to_string(),
            attachments,
        });
        conversation.turn_usage = None;
        conversation.retitle();
        if scheduled.is_some() {
            // The history tells a scheduled chat by its title.
            conversation.title = format!("Scheduled: {}", conversation.title);
            conversation.renamed = true;
        }
        let end = self.run_turn(conversation, Vec::new(), 0, events).await;
        self.finish_turn(conversation, end, events)
    }

    /// The message `start` asks for, with its attachments and set-up.
    async fn started(
        &self,
        start: &Value,
        attachments: Option<Vec<Attachment>>,
    ) -> Result<(String, Option<Vec<Attachment>>, Option<TurnSetup>), String> {
        let prompt = start.get("prompt").and_then(Value::as_str);
        if start.get("rewrite").is_none() {
            if let Some(path) = prompt {
                let (text, setup) = self.saved_prompt(path, start, None).await?;
                return Ok((text, attachments, Some(setup)));
            }
        }
        let request = start
            .get("rewrite")
            .map(selection::SelectionRequest::from_value)
            .ok_or("Nothing to send: `start` names neither a saved prompt nor a selection.")?;
        let instruction = start
            .get("instruction")
            .and_then(Value::as_str)
            .unwrap_or("")
            .trim();
        let rewrite = selection::locate(&request)?;
        // A saved prompt run on the selection as a rewrite: its text, filled
        // in with the selection, is the instruction, under its profile and mode.
        let (instruction, mut setup) = match prompt {
            Some(path) => {
                let (text, setup) = self
                    .saved_prompt(path, start, Some(&rewrite.selection))
                    .await?;
                (text, setup)
            }
            None => (instruction.to_string(), TurnSetup::default()),
        };
        if instruction.trim().is_empty() {
            return Err(
                "Say how to rewrite the selection (e.g. \"shorter\", \"in British English\")."
                    .into(),
            );
        }
        let attachments = vec![Attachment {
            selection: Some(rewrite.selection.clone()),
            ..Attachment::note(&rewrite.path)
        }];
        setup.rewrite = Some(rewrite);
        Ok((
            format!("Rewrite the selection: {}", instruction.trim()),
            Some(attachments),
            Some(setup),
        ))
    }

    /// The saved prompt at `path` filled in with `start`'s values (the
    /// selection being rewritten, when there is one), and its set-up: its
    /// profile, at most its mode, or its scheduled run.
    async fn saved_prompt(
        &self,
        path: &str,
        start: &Value,
        selection: Option<&str>,
    ) -> Result<(String, TurnSetup), String> {
        let mut values = saved_prompts::PromptValues::from_value(start.get("values"));
        if values.date.is_empty() {
            // `{{date}}` is the day as the shim writes it (2026-12-02), never the long form.
            values.date = self.engine.host().local_context().date;
        }
        let settings = self.engine.settings_snapshot();
        // A stored or scheduled prompt's path is found in the form it is read.
        let path = &crate::base::vault_path::resolved("prompt", path, PathKind::File)
            .map_err(|why| format!("The saved prompt {path} was not run: {why}."))?;
        let listed = saved_prompts::list(self.engine.host(), &settings).await;
        let Some(prompt) = listed.prompts.into_iter().find(|p| p.path == *path) else {
            return Err(listed.notice.unwrap_or_else(|| format!(
                "There is no saved prompt {path} in your prompts folder (Settings → Vault Agent → Model); it may have been moved or renamed."
            )));
        };
        let mut setup = TurnSetup {
            mode_cap: prompt.mode,
            profile: prompt.profile.clone(),
            ..TurnSetup::default()
        };
        if let Some(slot) = start.get("scheduled").and_then(Value::as_str) {
            let (Some(schedule), Some(_)) = (prompt.schedule, schedule::parse_slot(slot)) else {
                return Err(format!("The saved prompt {path} has no `schedule` now (or the slot {slot} is not one), so it was not run by itself."));
            };
            values.date = slot[..10].to_string();
            // The narrower of the prompt's mode and the chat's, the chat's
            // when the prompt names none: a run nobody started never
            // reaches further than what the user allowed the chat.
            let chat = settings.permission_mode;
            setup.mode_cap = Some(prompt.mode.map_or(chat, |mode| chat.at_most(mode)));
            let late = start.get("late").and_then(Value::as_bool).unwrap_or(false);
            setup.scheduled = Some(schedule::notice(&prompt.name, &schedule, slot, late));
        }
        if let Some(selection) = selection {
            values.selection = Some(selection.to_string());
        }
        if let Some(note) = values.note.as_deref().filter(|n| !n.trim().is_empty()) {
            if saved_prompts::uses(&prompt, "note") {
                // The note's path is checked, and sent, as it resolves.
                let readable = self.readable_note(note, &settings).await;
                values.note = Some(readable.ok_or_else(|| saved_prompts::note_withheld(&prompt))?);
            }
        }
        let text = saved_prompts::fill(&prompt, &values)?;
        setup.prompt = prompt.name;
        Ok((text, setup))
    }

    /// `path` as it resolves when the agent may read it: inside the read
    /// folders, outside the configuration folder, and led nowhere else by a
    /// symbolic link; `None` otherwise.
    async fn readable_note(&self, path: &str, settings: &Settings) -> Option<String> {
        let host = self.engine.host();
        let path = crate::base::vault_path::resolved("note", path, PathKind::File).ok()?;
        let scope = FolderScope::read(settings, host.platform().os());
        if !scope.contains(&path) || in_config_dir(&path, host.platform().config_dir()) {
            return None;
        }
        crate::engine::edge::real_read_refusal(host, &path, &scope)
            .await
            .is_none()
            .then_some(path)
    }

    /// Retry on a failed turn's banner: the turn runs again from the
    /// conversation as it is (the user's message, or the tool results, are
    /// already there), so nothing is said twice.
    pub async fn retry(&self, conversation: &mut Conversation, events: &dyn ChatEvents) -> TurnEnd {
        let _hold = match self.hold(conversation, events) {
            Ok(hold) => hold,
            Err(end) => return end,
        };
        // Notices after the last message (the round limit's) are the view's:
        // Continue after the round limit is a retry from the tool results.
        let retryable = conversation.paused.is_none()
            && matches!(
                conversation
                    .messages
                    .iter()
                    .rfind(|m| !matches!(m, ChatMessage::Notice { .. })),
                Some(ChatMessage::User { .. } | ChatMessage::Tool { .. })
            );
        if !retryable {
            events.emit(ChatEvent::plain_error(
                "nothing_to_retry",
                "There is no failed answer to retry here; send a message instead.".into(),
            ));
            return self.finish_turn(conversation, TurnEnd::Failed, events);
        }
        let end = self.run_turn(conversation, Vec::new(), 0, events).await;
        self.finish_turn(conversation, end, events)
    }

    /// The user answered the confirmation card of a paused turn.
    pub async fn resolve(
        &self,
        conversation: &mut Conversation,
        confirmation_id: &str,
        decision: Decision<'_>,
        events: &dyn ChatEvents,
    ) -> TurnEnd {
        let _hold = match self.hold(conversation, events) {
            Ok(hold) => hold,
            Err(end) => return end,
        };
        let Some(paused) = conversation
            .paused
            .take()
            .filter(|p| p.confirmation_id == confirmation_id)
        else {
            events.emit(ChatEvent::plain_error(
                "confirmation_not_found",
                "This conversation is not waiting for that change any more.".into(),
            ));
            return self.finish_turn(conversation, TurnEnd::Failed, events);
        };
        let whole_only = [
            plan_changes::CARD_PREFIX,
            plan::CARD_PREFIX,
            outside::CARD_PREFIX,
        ];
        if matches!(decision, Decision::ApproveChanges { .. })
            && whole_only.iter().any(|p| confirmation_id.starts_with(p))
        {
            // Only a note edit's card has changes to approve one by one.
            conversation.paused = Some(paused);
            events.emit(ChatEvent::plain_error(
                "confirmation_mismatch",
                "Only an edit of a note's text can be approved in part; this card waits for Approve or Reject.".into(),
            ));
            return self.finish_turn(conversation, TurnEnd::Failed, events);
        }
        if confirmation_id.starts_with(plan_changes::CARD_PREFIX) {
            return self
                .resolve_plan_changes(conversation, paused, decision, events)
                .await;
        }
        if confirmation_id.starts_with(plan::CARD_PREFIX) {
            // A plan card is answered with its steps (`answer_plan`).
            conversation.paused = Some(paused);
            drop(_hold);
            let answer = serde_json::json!({ "approve": false });
            return match decision {
                Decision::Reject => {
                    self.answer_plan(conversation, confirmation_id, &answer, events)
                        .await
                }
                _ => {
                    events.emit(ChatEvent::plain_error(
                        "plan_answer",
                        "A plan is approved on its own card, with its steps.".into(),
                    ));
                    self.finish_turn(conversation, TurnEnd::Failed, events)
                }
            };
        }
        if confirmation_id.starts_with(outside::CARD_PREFIX) {
            return self
                .resolve_outside(conversation, paused, decision, events)
                .await;
        }
        let result = match decision {
            Decision::ApproveForChat { argv_hash } => {
                // Only outside calls are approved for a chat; a change to
                // the vault is approved once.
                self.engine.approve(confirmation_id, argv_hash).await
            }
            Decision::Approve { argv_hash } => {
                self.engine.approve(confirmation_id, argv_hash).await
            }
            Decision::ApproveChanges { argv_hash, changes } => {
                self.engine
                    .approve_changes(confirmation_id, argv_hash, changes)
                    .await
            }
            Decision::Reject => self.engine.reject(confirmation_id),
            Decision::Answered => self
                .engine
                .confirmation_outcome(confirmation_id)
                .unwrap_or_else(|| self.engine.reject(confirmation_id)),
        };
        if let Some(pending) = &result.pending {
            // Stale: the target changed; the user is asked again.
            if let Some(card) = self.engine.confirmation_card(&pending.id) {
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

    /// A coding agent's turn kept in `conversation`, as of now (see
    /// `Conversation::keep_agent_turn`): one conversation type for both engines.
    pub fn keep_agent_turn(
        &self,
        conversation: &mut Conversation,
        text: &str,
        images: Vec<conversation::Attachment>,
        answers: Vec<conversation::AgentAnswerText>,
        agent: conversation::AgentChat,
    ) {
        conversation.keep_agent_turn(text, images, answers, agent, self.engine.host().now_ms());
    }

    /// "Fork from here": a new chat, with an id no other one has, holding
    /// `conversation` up to and including `at` (`fork::fork`).
    pub fn fork(
        &self,
        conversation: &Conversation,
        at: fork::ForkAt,
    ) -> Result<Conversation, &'static str> {
        let id = self.new_conversation().id;
        fork::fork(conversation, at, id, self.engine.host().now_ms())
    }

    /// A fresh conversation with an id no other one has.
    pub fn new_conversation(&self) -> Conversation {
        let now = self.engine.host().now_ms();
        let n = self.conversations.get() + 1;
        self.conversations.set(n);
        Conversation::new(format!("chat-{}-{n}", now as u64), now)
    }

    /// Lists the active provider's models, which also proves the address
    /// and the key work.
    pub async fn test_connection(&self) -> ConnectionReport {
        let settings = self.engine.settings_snapshot();
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
        let request = provider::models_request(chat.provider(), chat.active(), api_key.clone());
        let head = match self
            .engine
            .http_open(&request, "model list (Test connection)")
            .await
        {
            Ok(head) => head,
            Err(failure) => return failed(connection_error(&request.url, &failure)),
        };
        let body = self.read_error_body(head.id).await;
        if head.status != 200 {
            let key_sent = request.headers.iter().any(|(name, _)| {
                name.eq_ignore_ascii_case("authorization") || name.eq_ignore_ascii_case("x-api-key")
            });
            let listing = status_error(
                head.status,
                &body,
                &chat.active().model,
                &request.url,
                key_sent,
            );
            // An Anthropic address that refuses or lacks the listing may
            // still answer messages, as the chat would find: ask it that.
            if chat.provider() == crate::settings::ProviderKind::Anthropic
                && key_sent
                && matches!(head.status, 401 | 403 | 404 | 405)
            {
                return match self.ping(chat.active(), api_key).await {
                    Ok(()) => ConnectionReport {
                        ok: true,
                        models: Vec::new(),
                        message: format!(
                            "Connected: a one-token message to \"{}\" was answered. This address does not list its models ({} on /v1/models).",
                            chat.active().model,
                            head.status
                        ),
                    },
                    Err(error) => failed(error),
                };
            }
            return failed(listing);
        }
        let models = provider::parse_models(&body);
        let message = if models.is_empty() {
            "Connected. The server did not list its models.".to_string()
        } else {
            match models.len() {
                1 => "Connected. 1 model available.".to_string(),
                n => format!("Connected. {n} models available."),
            }
        };
        ConnectionReport {
            ok: true,
            models,
            message,
        }
    }

    /// Test connection's one-token message (`anthropic::ping_request`).
    async fn ping(
        &self,
        provider: &crate::settings::ProviderSettings,
        api_key: Option<String>,
    ) -> Result<(), ChatError> {
        let request = anthropic::ping_request(provider, api_key);
        let head = self
            .engine
            .http_open(&request, "one-token message (Test connection)")
            .await
            .map_err(|failure| connection_error(&request.url, &failure))?;
        let body = self.read_error_body(head.id).await;
        if head.status == 200 {
            return Ok(());
        }
        Err(status_error(
            head.status,
            &body,
            &provider.model,
            &request.url,
            true,
        ))
    }

    /// Stop for the turn of `conversation` (`None`: every turn): the loop
    /// ends at its next step and the turn's tool processes end; the shim
    /// aborts the requests tagged with the conversation. True while other
    /// turns still run (then only the tagged requests may be aborted).
    pub fn stop(&self, conversation: Option<&str>) -> bool {
        for turn in self.open.stop(conversation) {
            if !turn.is_empty() {
                self.engine.host().cancel_processes(&turn);
            }
        }
        self.open.running() > 0
    }

    /// The conversation is held for this turn; a second turn of it (another
    /// view, another door) is refused with the reason, and nothing changes.
    fn hold(
        &self,
        conversation: &mut Conversation,
        events: &dyn ChatEvents,
    ) -> Result<views::TurnHold<'_>, TurnEnd> {
        self.open.begin(&conversation.id).map_err(|message| {
            events.emit(ChatEvent::plain_error("chat_busy", message));
            self.finish_turn(conversation, TurnEnd::Failed, events)
        })
    }

    /// The settings a turn of `conversation` runs under: the profile of the
    /// saved prompt that started it (this turn only), else the one picked in
    /// the chat's own view (several chats, several models), else the saved one.
    pub(super) fn turn_settings(
        &self,
        conversation: &str,
        prompt_profile: Option<String>,
    ) -> Rc<crate::settings::Settings> {
        let mut settings = self.engine.settings_snapshot();
        if let Some(profile) = prompt_profile
            .or_else(|| self.open.profile_of(conversation))
            .filter(|id| settings.chat.profiles.iter().any(|p| p.id == *id))
        {
            Rc::make_mut(&mut settings).chat.active_profile = profile;
        }
        settings
    }

    /// Whether Stop was pressed for the turn of `conversation`.
    pub(super) fn stop_requested(&self, conversation: &str) -> bool {
        self.open.stopped(conversation)
    }

    pub(super) fn finish_turn(
        &self,
        conversation: &mut Conversation,
        end: TurnEnd,
        events: &dyn ChatEvents,
    ) -> TurnEnd {
        conversation.updated_ms = self.engine.host().now_ms();
        plan::close(conversation, end, false);
        self.session.turn_pdfs.forget();
        events.emit(ChatEvent::TurnEnded { end });
        end
    }

    /// The tools the model may call: exactly the enabled ones.
    pub fn model_tools(&self) -> Vec<ModelTool> {
        model_tools(&self.engine.list_tools())
    }
}

pub(super) fn model_tools(descriptors: &[ToolDescriptor]) -> Vec<ModelTool> {
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

/// The model's arguments, or what is wrong with them (sent back to it).
pub(crate) fn parse_arguments(raw: &str) -> Result<Value, String> {
    if raw.trim().is_empty() {
        return Ok(Value::Object(Default::default()));
    }
    match serde_json::from_str::<Value>(raw) {
        Ok(value @ Value::Object(_)) => Ok(value),
        Ok(other) => Err(format!("the arguments must be a JSON object, not {other}")),
        Err(e) => Err(format!("the arguments are not valid JSON ({e}); send a JSON object like {{\"command\": \"…\"}}")),
    }
}

/// A refusal the model reads and the tool block shows; nothing ran.
pub(crate) fn plan_refused(code: &str, message: String) -> crate::base::result::ToolResult {
    let mut result = crate::base::result::ToolResult::success(message.clone());
    result.ok = false;
    result.error = Some(crate::base::result::ErrorInfo {
        code: code.into(),
        message,
        user_fix: false,
        rejected: false,
    });
    result
}
