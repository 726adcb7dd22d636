//! Talking to the model's server: opening the request (waiting while it is
//! busy), reading the stream or the whole reply, and errors as the user
//! sees them.

use crate::base::host::Host;
use crate::doors::chat::ask::{emit_piece, RoundError};
use crate::doors::chat::model::{ChatError, ModelReply};
use crate::doors::chat::provider::{assembler, connection_error, parse_whole_reply, retry_wait_ms};
use crate::doors::chat::sse::SseParser;
use crate::doors::chat::{ChatDoor, ChatEvent, ChatEvents};
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

/// The wait for the first byte of the body (the silence between pieces
/// when none is set).
fn first_wait(request: &crate::base::host::HttpRequest) -> u32 {
    if request.first_byte_timeout_ms > 0 {
        request.first_byte_timeout_ms
    } else {
        request.idle_timeout_ms
    }
}

/// The listing's headers, the key among them, as the chat's requests send it.
fn probe_headers(
    provider: &crate::settings::ProviderSettings,
    api_key: Option<String>,
) -> Vec<(String, String)> {
    crate::doors::chat::openai::models_request(provider, api_key).headers
}

impl<H: Host> ChatDoor<H> {
    /// Opens the model request, waiting and asking again while the server
    /// is busy (429, 503, 529).
    pub(super) async fn open_model(
        &self,
        request: &crate::base::host::HttpRequest,
        events: &dyn ChatEvents,
        purpose: &str,
    ) -> Result<crate::base::host::HttpResponseHead, RoundError> {
        let mut attempt = 0;
        loop {
            let head = match self.engine.http_open(request, purpose).await {
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
                events.emit(ChatEvent::Retrying {
                    text: format!(
                        "The model server is busy ({}{}); trying again in {} s ({attempt} of {MAX_RETRIES}).",
                        head.status,
                        brief(&body),
                        wait.div_ceil(1000)
                    ),
                });
                self.engine.host().sleep(wait).await;
                if self.stop_requested(request.tag.as_deref().unwrap_or_default()) {
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
    pub(super) async fn read_reply(
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
            let chunk = match self.engine.host().http_read(head.id).await {
                Ok(Some(chunk)) => chunk,
                Ok(None) => break,
                Err(failure) => {
                    if failure.code == "ABORTED"
                        || self.stop_requested(request.tag.as_deref().unwrap_or_default())
                    {
                        return Err(RoundError::Stopped(stream.partial_text()));
                    }
                    return Err(RoundError::Failed(match failure.code.as_str() {
                        // Nothing at all yet: the server is still reading
                        // the prompt (a CPU model), not stalled mid-answer.
                        "STALLED" if raw.is_empty() && seen_events == 0 => {
                            ChatError::NoFirstToken {
                                seconds: first_wait(request).div_ceil(1000),
                            }
                        }
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
            if self.stop_requested(request.tag.as_deref().unwrap_or_default()) {
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
    pub(super) async fn explain_not_found(
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
            // A server that guards its models with the key answers 401
            // without it, and the advice would be lost.
            headers: probe_headers(
                provider,
                self.api_key(&self.engine.settings_snapshot())
                    .ok()
                    .flatten(),
            ),
            body: None,
            timeout_ms: 5_000,
            first_byte_timeout_ms: 0,
            idle_timeout_ms: 5_000,
            connect_address: None,
            expected_host: String::new(),
            tag: None,
        };
        match self.engine.http_open(&probe, "base URL check (/v1)").await {
            Ok(head) => {
                self.engine.host().http_close(head.id);
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
    pub(super) fn shown_error(&self, error: &ChatError, settings: &Settings) -> String {
        let key = self.api_key(settings).ok().flatten().unwrap_or_default();
        let profile = &settings.chat.profile().name;
        super::provider::scrub_server_text(&error.shown_for(profile), &[key.as_str()])
    }

    /// The view's error: the message, the address it names and the buttons
    /// that lead out (Switch profile only where there is another profile).
    pub(super) fn error_event(&self, error: &ChatError, settings: &Settings) -> ChatEvent {
        let message = self.shown_error(error, settings);
        let address = error
            .address()
            .filter(|address| message.contains(address))
            .map(String::from);
        ChatEvent::Error {
            code: error.code().into(),
            retryable: error.worth_retrying(),
            way_out: error.way_out(settings.chat.profiles.len() > 1),
            address,
            message,
        }
    }

    pub(super) fn api_key(&self, settings: &Settings) -> Result<Option<String>, ChatError> {
        let provider = settings.chat.active();
        let key = (!provider.api_key_secret.is_empty())
            .then(|| self.engine.host().secret(&provider.api_key_secret))
            .flatten();
        if settings.chat.provider() == ProviderKind::Anthropic && key.is_none() {
            return Err(ChatError::MissingApiKey {
                provider: "Anthropic".into(),
            });
        }
        Ok(key)
    }

    pub(super) async fn read_error_body(&self, id: u32) -> String {
        self.read_body(id, MAX_ERROR_BODY).await
    }

    /// A whole body, read up to about `max` bytes, then closed.
    pub(super) async fn read_body(&self, id: u32, max: usize) -> String {
        let mut body = Vec::new();
        while let Ok(Some(chunk)) = self.engine.host().http_read(id).await {
            body.extend_from_slice(&chunk);
            if body.len() > max {
                break;
            }
        }
        self.engine.host().http_close(id);
        String::from_utf8_lossy(&body).into_owned()
    }
}
