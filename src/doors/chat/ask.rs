//! One model round: the window, the prompt and the tools fitted into it,
//! the request, and what came back (a call written as text included).

use crate::base::host::Host;
use crate::doors::chat::conversation::{Attachment, ChatMessage, Conversation};
use crate::doors::chat::images;
use crate::doors::chat::model::{ChatError, ModelReply, ModelRequest, ModelTool, StreamPiece};
use crate::doors::chat::prompt::{attachments_given, model_messages, stored_path, system_prompt};
use crate::doors::chat::provider::{build_request, status_error};
use crate::doors::chat::{budget, model_tools, ChatDoor, ChatEvent, ChatEvents};
use crate::engine::ToolDescriptor;
use crate::settings::{ProviderKind, Settings};

impl<H: Host> ChatDoor<H> {
    /// The vault's tools as the model is offered them: in their compact form
    /// in a small window (`budget::COMPACT_WINDOW`), else in full.
    pub(super) fn offered_tools(
        &self,
        compact: bool,
        settings: &Settings,
        descriptors: &[ToolDescriptor],
    ) -> Vec<ModelTool> {
        if compact {
            let enabled: Vec<&crate::tools::ToolSpec> = self
                .engine
                .tools()
                .iter()
                .filter(|t| settings.tool_enabled(t.id))
                .collect();
            budget::compact_tools(&enabled)
        } else {
            model_tools(descriptors)
        }
    }

    /// The window to plan for: the setting when the user gave one, else what
    /// the server or the model's name tells (asked once per base URL and
    /// model, and never failing the chat), else `budget::context_window`.
    pub async fn context_window(
        &self,
        kind: ProviderKind,
        provider: &crate::settings::ProviderSettings,
        api_key: Option<&str>,
        conversation: &str,
    ) -> usize {
        if provider.context_window > 0 {
            return provider.context_window as usize;
        }
        let cached = self
            .session
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
                if self.stop_requested(conversation) {
                    return budget::context_window(kind, provider);
                }
                self.session.windows.borrow_mut().push((
                    provider.base_url.clone(),
                    provider.model.clone(),
                    found,
                ));
                found
            }
        };
        found.map_or_else(|| budget::context_window(kind, provider), |n| n as usize)
    }

    /// `Err` when `attachments` hold an image and the turn's profile's model
    /// is not known to read images (`images::accepted`; Ollama is asked once
    /// per base URL and model).
    pub(super) async fn images_accepted(
        &self,
        attachments: Option<&[Attachment]>,
        settings: &Settings,
    ) -> Result<(), ChatError> {
        if !attachments.unwrap_or(&[]).iter().any(images::is_image)
            || self.images_readable(settings).await
        {
            return Ok(());
        }
        Err(ChatError::ImagesNotAccepted {
            model: settings.chat.active().model.clone(),
        })
    }

    /// Whether the turn's profile's model reads images (`images::accepted`;
    /// Ollama is asked once per base URL and model).
    pub(super) async fn images_readable(&self, settings: &Settings) -> bool {
        let (kind, provider) = (settings.chat.provider(), settings.chat.active());
        let mut reported = None;
        if provider.images.is_none()
            && kind == ProviderKind::OpenAi
            && super::window::server(&provider.base_url) == Some(super::window::Server::Ollama)
        {
            let cached = self
                .session
                .vision
                .borrow()
                .iter()
                .find(|(url, model, _)| *url == provider.base_url && *model == provider.model)
                .map(|(_, _, said)| *said);
            reported = match cached {
                Some(said) => said,
                None => {
                    let api_key = self.api_key(settings).ok().flatten();
                    let request = super::window::probe(
                        super::window::Server::Ollama,
                        provider,
                        api_key.as_deref(),
                    );
                    let said = match self
                        .engine
                        .http_open(&request, "model's capabilities")
                        .await
                    {
                        Ok(head) => {
                            let body = self.read_body(head.id, 1024 * 1024).await;
                            (head.status == 200)
                                .then(|| images::vision_reported(&body))
                                .flatten()
                        }
                        Err(_) => None,
                    };
                    self.session.vision.borrow_mut().push((
                        provider.base_url.clone(),
                        provider.model.clone(),
                        said,
                    ));
                    said
                }
            };
        }
        images::accepted(provider.images, kind, &provider.model, reported)
    }

    /// `Err` with the reason when a PDF the agent may read has no text (and
    /// goes as text) or cannot be opened (`pdf::check`).
    pub(super) async fn pdfs_readable(
        &self,
        attachments: Option<&[Attachment]>,
    ) -> Result<(), String> {
        let attachments = attachments.unwrap_or(&[]);
        if !attachments.iter().any(super::pdf::is_pdf_attachment) {
            return Ok(());
        }
        let settings = self.engine.settings_snapshot();
        let scope =
            crate::policy::scope::FolderScope::read(&settings, self.engine.host().platform().os());
        let documents = settings.chat.provider() == ProviderKind::Anthropic
            && settings.chat.active().pdf_documents;
        let linked = linked_away(self.engine.host(), attachments.iter(), &scope).await;
        super::pdf::check(
            self.engine.host(),
            &self.session.turn_pdfs,
            attachments,
            &|path| scope.contains(path) && !linked.iter().any(|l| l == path),
            documents,
        )
        .await
    }

    async fn probe_window(
        &self,
        server: super::window::Server,
        provider: &crate::settings::ProviderSettings,
        api_key: Option<&str>,
    ) -> Option<u32> {
        let request = super::window::probe(server, provider, api_key);
        let head = self
            .engine
            .http_open(&request, "model's context window")
            .await
            .ok()?;
        // OpenRouter lists hundreds of models.
        let body = self.read_body(head.id, 8 * 1024 * 1024).await;
        if head.status != 200 {
            return None;
        }
        super::window::read(server, &body, &provider.model)
    }

    /// One model round: request, stream, assemble. Returns the reply and the
    /// window it was fitted to. With `may_compact`, a prompt still near the
    /// window once old tool results are pruned asks for the chat to be
    /// compacted first (`RoundError::Compact`); asked again after that
    /// (`may_compact` false), it says nothing it said already.
    pub(super) async fn ask_model(
        &self,
        conversation: &Conversation,
        settings: &Settings,
        events: &dyn ChatEvents,
        may_compact: bool,
    ) -> Result<(ModelReply, usize), RoundError> {
        let chat = &settings.chat;
        let provider = chat.active();
        let api_key = self.api_key(settings).map_err(RoundError::Failed)?;
        // One listing per round serves both the prompt and the tool list.
        let descriptors = self.engine.list_tools();
        // A small window gets the compact tools, and the guidance they carry.
        let window = self
            .context_window(
                chat.provider(),
                provider,
                api_key.as_deref(),
                &conversation.id,
            )
            .await;
        if self.stop_requested(&conversation.id) {
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
        let rewriting = super::conversation::TurnSetup::of(conversation)
            .rewrite
            .is_some();
        let mut tools = if rewriting {
            // The answer is the new text itself; nothing else may happen.
            Vec::new()
        } else {
            self.offered_tools(compact, settings, &descriptors)
        };
        // Planning: the vault's tools (changes are refused at the door until
        // a plan is approved) and proposePlan; no outside tool, which may change anything.
        let planning = super::plan::planning(conversation);
        if planning && !rewriting {
            tools.push(super::plan::propose_tool());
        }
        // The user's own MCP servers' tools, counted in the budget below
        // (none for a rewrite, whose answer is the new text).
        if !rewriting && !planning {
            tools.extend(
                self.outside_offer(conversation, settings, compact, events)
                    .await,
            );
        }
        let local = self.engine.host().local_context();
        let scope =
            crate::policy::scope::FolderScope::read(settings, self.engine.host().platform().os());
        // Chips, when the chat sent them, say which notes the user means.
        let open_note = local.open_note.as_deref().filter(|path| {
            stored_path(path).as_deref() == Some(*path)
                && scope.contains(path)
                && !attachments_given(&conversation.messages)
        });
        // Images and PDFs the host would read through a link out of the scope.
        let linked = linked_away(
            self.engine.host(),
            conversation
                .messages
                .iter()
                .flat_map(ChatMessage::attachments),
            &scope,
        )
        .await;
        // Earlier turns a summary covers are read as it (`compact`).
        let from = super::compact::summarised_upto(conversation);
        let summary = super::compact::newest(conversation).map(|c| ChatMessage::User {
            text: super::compact::summary_text(c, &conversation.messages[..c.upto], &|entry| {
                self.engine.journal_entry(entry).is_some_and(|e| e.undone)
            }),
            attachments: None,
        });
        let summary_tokens = summary.as_ref().map_or(0, budget::cost);
        let messages = model_messages(&conversation.messages[from..], &|path| {
            scope.contains(path) && !linked.iter().any(|l| l == path)
        });
        let mut system = system_prompt(
            &descriptors,
            self.engine.host().now_ms(),
            &local,
            open_note,
            compact,
        );
        if provider.text_tool_calls && !rewriting {
            system.push_str(super::text_calls::PROMPT_RULE);
        }
        if rewriting {
            system.push_str(super::selection::REWRITE_RULE);
        }
        system.push_str(&super::plan::prompt_section(conversation));
        let standing = super::instructions::standing(self.engine.host(), settings).await;
        system.push_str(&standing.section);
        // Once a turn: its first round answers the user's message (asked
        // again after a compaction, it has said what it had to say).
        let first_round =
            may_compact && matches!(conversation.messages.last(), Some(ChatMessage::User { .. }));
        if first_round {
            self.session
                .instructions_problem
                .replace(standing.notice.clone());
            if let Some(text) = standing.notice {
                events.emit(ChatEvent::Notice { text });
            }
        }
        // Skills are read with obsidianNotes: without it (or any tool) there are none to offer.
        if !rewriting && settings.tool_enabled("obsidianNotes") {
            let skills = crate::engine::skills::list(self.engine.host(), settings).await;
            let room = match compact {
                true => super::skills::MAX_SECTION_TOKENS_COMPACT,
                false => super::skills::MAX_SECTION_TOKENS,
            };
            system.push_str(&super::skills::section(&skills.skills, room));
            if first_round {
                for text in skills
                    .notice
                    .into_iter()
                    .chain(skills.skills.into_iter().filter_map(|skill| skill.problem))
                {
                    events.emit(ChatEvent::Notice { text });
                }
            }
        }
        // Memory is read afresh each round (the user's edits count at once);
        // off, or its tool off, it is neither read nor offered.
        if !rewriting && settings.tool_enabled(crate::settings::MEMORY_TOOL) {
            let remembered = super::memory::read(self.engine.host(), settings).await;
            let message = conversation
                .messages
                .iter()
                .rev()
                .find_map(|m| match m {
                    ChatMessage::User { text, .. } => Some(text.as_str()),
                    _ => None,
                })
                .unwrap_or_default();
            system.push_str(&super::memory::section(
                &remembered.facts,
                message,
                super::memory::room(window),
                self.engine.host().platform().config_dir(),
            ));
            if let (Some(text), true) = (remembered.notice, first_round) {
                events.emit(ChatEvent::Notice { text });
            }
        }
        let tools_tokens = tools
            .iter()
            .map(|t| {
                budget::estimate(&t.name)
                    + budget::estimate(&t.description)
                    + budget::estimate(&t.input_schema.to_string())
            })
            .sum::<usize>();
        let fixed = budget::estimate(&system) + tools_tokens;
        if fixed + reserve >= window {
            return Err(RoundError::Failed(ChatError::PromptTooLarge {
                window,
                needed: fixed + reserve,
            }));
        }
        let available = window - (reserve + fixed);
        // Near the window: earlier turns' tool results are pruned first, and
        // when that is not enough the chat is compacted (once a round).
        let near = (budget::near_window(window).saturating_sub(fixed))
            .min(available)
            .saturating_sub(summary_tokens);
        let pruned = budget::prune(&messages, near);
        let turn = conversation.turn_id();
        if pruned.tokens > near
            && may_compact
            && super::compact::compactable(conversation).is_some()
            && !self.session.compaction_failed.borrow().contains(&turn)
        {
            return Err(RoundError::Compact);
        }
        if pruned.pruned > 0
            && self
                .session
                .say_pruned(&conversation.id, &turn, pruned.pruned)
        {
            let results = match pruned.pruned {
                1 => "1 result of an earlier tool call was".to_string(),
                n => format!("{n} results of earlier tool calls were"),
            };
            events.emit(ChatEvent::Notice {
                text: format!(
                    "To fit the model's context ({} tokens), {results} pruned ({} tokens); the model can call them again.",
                    budget::spaced(window),
                    budget::spaced(pruned.saved)
                ),
            });
        }
        let available = available.saturating_sub(summary_tokens);
        // The PDFs' pages, as many as the room left takes, for this round only.
        let mut messages = pruned.messages;
        let pdf_room = super::pdf::round_budget(available, budget::messages_tokens(&messages));
        let documents = chat.provider() == ProviderKind::Anthropic && provider.pdf_documents;
        for text in super::pdf::load(
            self.engine.host(),
            &self.session.turn_pdfs,
            &mut messages,
            pdf_room,
            documents,
        )
        .await
        {
            events.emit(ChatEvent::Notice { text });
        }
        let mut fitted = budget::fit(&messages, available).map_err(|needed| {
            RoundError::Failed(ChatError::ContextFull {
                window,
                needed: needed + summary_tokens + fixed + reserve,
            })
        })?;
        if let Some(ChatMessage::User { text, .. }) = summary {
            super::compact::with_summary(&mut fitted.messages, text);
            fitted.tokens += summary_tokens;
        }
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
                .session
                .no_stream_usage
                .borrow()
                .contains(&provider.base_url);
        let fitted_tokens = fitted.tokens;
        // The images' bytes, scaled to what the provider takes, for this round only.
        let tool_images = fitted
            .messages
            .iter()
            .any(|m| matches!(m, ChatMessage::Tool { result, .. } if !result.images.is_empty()));
        if tool_images {
            images::for_round(&mut fitted.messages, self.images_readable(settings).await);
        }
        for text in images::load(
            self.engine.host(),
            &mut fitted.messages,
            images::limits(chat.provider()),
        )
        .await
        {
            events.emit(ChatEvent::Notice { text });
        }
        let (request, head) = loop {
            let request = build_request(
                chat.provider(),
                &ModelRequest {
                    settings: provider,
                    api_key: api_key.clone(),
                    system: &system,
                    messages: &fitted.messages,
                    tools: &tools,
                    first_token_timeout_ms: chat.first_token_timeout_ms,
                    timeout_ms: chat.model_timeout_ms,
                    answer_tokens: budget::answer_reserve(window) as u32,
                    stream_usage,
                    thinking_budget,
                },
            );
            let request = crate::base::host::HttpRequest {
                tag: Some(conversation.id.clone()),
                ..request
            };
            let head = self.open_model(&request, events, "chat answer").await?;
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
                self.session
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
        self.engine.host().http_close(head.id);
        let mut reply = read?;
        let short_read = reply.usage.and_then(|u| {
            budget::short_read(u.input_tokens, tools_tokens, fixed + fitted_tokens, window)
        });
        if let (ProviderKind::OpenAi, Some(text)) = (chat.provider(), short_read) {
            if self.session.first_dropped_tools_notice(provider) {
                events.emit(ChatEvent::Notice { text });
            }
        }
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
}

pub(super) enum RoundError {
    /// Stopped by the user, with the text streamed so far.
    Stopped(String),
    Failed(ChatError),
    /// The prompt is near the window even with old tool results pruned:
    /// compact the chat, then ask again.
    Compact,
}

pub(super) fn emit_piece(events: &dyn ChatEvents, piece: StreamPiece) {
    events.emit(match piece {
        StreamPiece::Text(text) => ChatEvent::TextDelta { text },
        StreamPiece::Reasoning(text) => ChatEvent::ReasoningDelta { text },
    });
}

/// The attached images and PDFs (the host reads those itself; a note is read
/// through the tools' gate) that the read scope allows by name but whose
/// real path, every symbolic link followed, leaves the vault or the scope:
/// they are withheld like any file the agent may not read.
async fn linked_away<'a, H: Host>(
    host: &H,
    attachments: impl Iterator<Item = &'a Attachment>,
    scope: &crate::policy::scope::FolderScope<'_>,
) -> Vec<String> {
    let mut refused: Vec<String> = Vec::new();
    for attachment in attachments {
        if attachment.pasted
            || !(images::is_image(attachment) || super::pdf::is_pdf_attachment(attachment))
        {
            continue;
        }
        let Some(path) = stored_path(&attachment.path) else {
            continue;
        };
        if refused.contains(&path) || !scope.contains(&path) {
            continue;
        }
        if crate::engine::edge::real_read_refusal(host, &path, scope)
            .await
            .is_some()
        {
            refused.push(path);
        }
    }
    refused
}
