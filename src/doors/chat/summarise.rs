//! The summary request of a compaction (`compact`): made to the turn's own
//! model, under the same rules as any model request (Local only, the
//! connection log as "chat summary", Stop), its text kept out of the
//! transcript; on demand ("Compact") or near the window (`turn.rs`).

use crate::base::host::{Host, HttpRequest};
use crate::doors::chat::ask::RoundError;
use crate::doors::chat::budget;
use crate::doors::chat::compact::{
    compactable, newest, request_text, rules, summary_text, summary_words,
};
use crate::doors::chat::conversation::{ChatMessage, Compaction, Conversation};
use crate::doors::chat::model::{ChatError, ModelRequest};
use crate::doors::chat::prompt::model_messages;
use crate::doors::chat::provider::{build_request, status_error};
use crate::doors::chat::{ChatDoor, ChatEvent, ChatEvents, TurnEnd};
use crate::settings::Settings;

/// The summary request's events: a busy server's line reaches the view;
/// the summary's text does not stream into the transcript.
struct Quiet<'a>(&'a dyn ChatEvents);

impl ChatEvents for Quiet<'_> {
    fn emit(&self, event: ChatEvent) {
        if matches!(event, ChatEvent::Retrying { .. }) {
            self.0.emit(event);
        }
    }
}

impl<H: Host> ChatDoor<H> {
    /// "Compact" in the chat: the turns before the last one summarised by
    /// the profile's model; the chat changes only once the summary came.
    pub async fn compact(
        &self,
        conversation: &mut Conversation,
        events: &dyn ChatEvents,
    ) -> TurnEnd {
        let _hold = match self.hold(conversation, events) {
            Ok(hold) => hold,
            Err(end) => return end,
        };
        let end = self.compact_now(conversation, events).await;
        if end == TurnEnd::Done {
            conversation.updated_ms = self.engine.host().now_ms();
        }
        events.emit(ChatEvent::TurnEnded { end });
        end
    }

    async fn compact_now(
        &self,
        conversation: &mut Conversation,
        events: &dyn ChatEvents,
    ) -> TurnEnd {
        let say = |text: String| events.emit(ChatEvent::Notice { text });
        if conversation.agent.is_some() {
            say("A coding agent keeps its own context, which Vault Agent cannot compact: ask the agent (many take /compact).".into());
            return TurnEnd::Failed;
        }
        let Some(upto) = compactable(conversation) else {
            say("Nothing to compact yet: the last turn always stays whole, and every turn before it is summarised already (or there is none).".into());
            return TurnEnd::Failed;
        };
        let settings = self.turn_settings(&conversation.id, None);
        match self.summarise(conversation, &settings, upto, events).await {
            Ok(()) => TurnEnd::Done,
            Err(RoundError::Stopped(_)) => {
                say("Stopped: the chat was not compacted, and is as it was.".into());
                TurnEnd::Stopped
            }
            Err(RoundError::Failed(error)) => {
                say(format!(
                    "The chat was not compacted, and is as it was: {}",
                    self.shown_error(&error, &settings)
                ));
                TurnEnd::Failed
            }
            Err(RoundError::Compact) => TurnEnd::Failed,
        }
    }

    /// Summarises the messages before `upto` (a turn's start) in one
    /// request to the turn's model, with the summary before them if there
    /// is one. The conversation gains the compaction only when the model
    /// answered with a summary; any failure leaves it as it was.
    pub(super) async fn summarise(
        &self,
        conversation: &mut Conversation,
        settings: &Settings,
        upto: usize,
        events: &dyn ChatEvents,
    ) -> Result<(), RoundError> {
        let chat = &settings.chat;
        let provider = chat.active();
        let api_key = self.api_key(settings).map_err(RoundError::Failed)?;
        let window = self
            .context_window(
                chat.provider(),
                provider,
                api_key.as_deref(),
                &conversation.id,
            )
            .await;
        if self.stop_requested(&conversation.id) {
            return Err(RoundError::Stopped(String::new()));
        }
        let answer_tokens = budget::answer_reserve(window);
        let system = rules(summary_words(answer_tokens));
        let previous = newest(conversation).cloned();
        let from = previous.as_ref().map_or(0, |c| c.upto);
        let scope =
            crate::policy::scope::FolderScope::read(settings, self.engine.host().platform().os());
        let readable = |path: &str| scope.contains(path);
        let covered = model_messages(&conversation.messages[from..upto], &readable);
        let room = window.saturating_sub(answer_tokens + budget::estimate(&system) + 64);
        let message = ChatMessage::User {
            text: request_text(previous.as_ref(), &covered, room),
            attachments: None,
        };
        let request = build_request(
            chat.provider(),
            &ModelRequest {
                settings: provider,
                api_key: api_key.clone(),
                system: &system,
                messages: std::slice::from_ref(&message),
                tools: &[],
                first_token_timeout_ms: chat.first_token_timeout_ms,
                timeout_ms: chat.model_timeout_ms,
                answer_tokens: answer_tokens as u32,
                stream_usage: false,
                thinking_budget: 0,
            },
        );
        let request = HttpRequest {
            tag: Some(conversation.id.clone()),
            ..request
        };
        let quiet = Quiet(events);
        let head = self.open_model(&request, &quiet, "chat summary").await?;
        if head.status != 200 {
            let key_sent = request.headers.iter().any(|(name, _)| {
                name.eq_ignore_ascii_case("authorization") || name.eq_ignore_ascii_case("x-api-key")
            });
            let body = self.read_error_body(head.id).await;
            return Err(RoundError::Failed(status_error(
                head.status,
                &body,
                &provider.model,
                &request.url,
                key_sent,
            )));
        }
        let read = self
            .read_reply(&head, chat.provider(), &request, &quiet)
            .await;
        self.engine.host().http_close(head.id);
        let reply = read?;
        let summary = reply.text.trim();
        if summary.is_empty() {
            return Err(RoundError::Failed(ChatError::EmptyReply));
        }
        if let Some(usage) = reply.usage {
            conversation.usage.add(usage);
        }
        let covered_all = &conversation.messages[..upto];
        let mut compaction = Compaction {
            upto,
            turns: covered_all
                .iter()
                .filter(|m| matches!(m, ChatMessage::User { .. }))
                .count(),
            summary: summary.to_string(),
            saved_tokens: 0,
        };
        let whole = budget::messages_tokens(&model_messages(covered_all, &readable));
        let sent = budget::estimate(&summary_text(&compaction, covered_all, &|entry| {
            self.engine.journal_entry(entry).is_some_and(|e| e.undone)
        }));
        compaction.saved_tokens = whole.saturating_sub(sent) as u64;
        conversation.compactions.push(compaction.clone());
        events.emit(ChatEvent::Compacted {
            compaction: Box::new(compaction),
        });
        Ok(())
    }
}
