//! What a model server is asked and answers, whatever its kind: the tools
//! and messages to send, the pieces a stream is assembled into, the reply,
//! and what a failed request means for the user. The adapters
//! (`openai.rs`, `anthropic.rs`) speak it; `provider.rs` picks one.

use serde::Serialize;
use thiserror::Error;

use super::conversation::{ChatMessage, ToolCallRecord, Usage};
use super::events::WayOut;
use super::sse::SseEvent;
use crate::settings::ProviderSettings;

pub use crate::base::call::ModelTool;

/// Everything one request to the model needs.
pub struct ModelRequest<'a> {
    pub settings: &'a ProviderSettings,
    pub api_key: Option<String>,
    pub system: &'a str,
    pub messages: &'a [ChatMessage],
    pub tools: &'a [ModelTool],
    /// The wait for the first token (the headers, then the first byte of
    /// the body: a CPU model reads the whole prompt first).
    pub first_token_timeout_ms: u32,
    /// The silence allowed between two pieces of the answer.
    pub timeout_ms: u32,
    /// The most tokens the answer may take (the room kept for it in the
    /// window), sent as the server's answer limit.
    pub answer_tokens: u32,
    /// OpenAI-compatible: ask for the usage chunk (`stream_options`); off
    /// for a server that rejected it.
    pub stream_usage: bool,
    /// Anthropic: extended thinking with this budget; 0 is off.
    pub thinking_budget: u32,
}

/// What the stream has said so far, piece by piece.
#[derive(Clone, Debug, PartialEq)]
pub enum StreamPiece {
    Text(String),
    /// The model's reasoning (thinking), shown folded, never as answer text.
    Reasoning(String),
}

/// A complete model reply.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModelReply {
    pub text: String,
    pub tool_calls: Vec<ToolCallRecord>,
    pub stop_reason: Option<String>,
    pub reasoning: String,
    /// Anthropic thinking blocks, unchanged, to send back with tool_use.
    pub thinking: Vec<serde_json::Value>,
    /// What the server said the round cost, if it said.
    pub usage: Option<Usage>,
}

/// `usage` as OpenAI (`prompt_tokens`/`completion_tokens`) or Anthropic
/// (`input_tokens`, cache reads and writes, `output_tokens`) report it.
pub fn read_usage(usage: &serde_json::Value) -> Option<Usage> {
    let n = |key: &str| usage.get(key).and_then(|v| v.as_u64());
    let input = n("prompt_tokens").or_else(|| {
        n("input_tokens").map(|i| {
            i + n("cache_creation_input_tokens").unwrap_or(0)
                + n("cache_read_input_tokens").unwrap_or(0)
        })
    });
    let output = n("completion_tokens").or_else(|| n("output_tokens"));
    (input.is_some() || output.is_some()).then(|| Usage {
        input_tokens: input.unwrap_or(0),
        output_tokens: output.unwrap_or(0),
    })
}

/// Whether a server's error says the request is longer than its context,
/// in the words of the common servers: llama.cpp ("exceeds the available
/// context size"), Ollama and vLLM / OpenAI ("maximum context length",
/// `context_length_exceeded`), LM Studio ("context length of only …",
/// "context overflow"), Anthropic ("prompt is too long").
pub fn is_context_overflow(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    [
        "exceeds the available context size",
        "exceed_context_size",
        "maximum context length",
        "context_length_exceeded",
        "context length exceeded",
        "exceeds the context length",
        "greater than the context length",
        "context length of only",
        "context overflow",
        "overflows the context",
        "prompt is too long",
        "input is too long",
        "too many tokens in the prompt",
    ]
    .iter()
    .any(|words| lower.contains(words))
}

/// An error a server sent inside a 200 stream (or a 200 JSON body), with
/// the advice that fits what it says.
pub fn stream_error(message: &str) -> ChatError {
    // One line, short: the banner hides credentials in what it shows.
    let line = message.lines().map(str::trim).find(|l| !l.is_empty());
    let detail: String = line.unwrap_or("").chars().take(200).collect();
    let detail = if detail.is_empty() {
        "no details".to_string()
    } else {
        detail
    };
    if is_context_overflow(message) {
        ChatError::ContextOverflow {
            status: 200,
            detail,
        }
    } else {
        ChatError::StreamError { detail }
    }
}

/// Turns a provider's stream events into a reply.
pub trait StreamAssembler {
    fn on_event(&mut self, event: &SseEvent) -> Result<Vec<StreamPiece>, ChatError>;
    /// What was held back until the stream ended (a lone `<` that could
    /// have begun `<think>`), to stream before `finish`; the reply has it
    /// either way.
    fn flush(&mut self) -> Vec<StreamPiece> {
        Vec::new()
    }
    fn finish(self: Box<Self>) -> ModelReply;
    /// The reply so far, for a stream that was stopped or broke off.
    fn partial_text(&self) -> String;
}

/// Why a chat turn could not go on, with what to do about it.
#[derive(Clone, Debug, Error, PartialEq, Serialize)]
#[serde(tag = "code", content = "message", rename_all = "snake_case")]
pub enum ChatError {
    /// The fixed prompt and the tools alone leave no room for any message:
    /// a new chat cannot help, only a larger window or fewer tools.
    #[error("Raise the context window (Settings → Vault Agent → Model, and the server's own), or turn off tools you do not need (Settings → Vault Agent → Tools): the instructions and tools alone need about {needed} tokens with the answer's room, more than the model reads at once ({window}).")]
    PromptTooLarge { window: usize, needed: usize },
    /// Settings → Safety → Local only refused the destination; nothing was sent.
    #[error("{message}")]
    LocalOnly { message: String },
    /// The message has images and the profile's model is not known to read
    /// them: nothing was sent, and nothing is dropped silently.
    #[error("The model \"{model}\" is not set to accept images, so nothing was sent. If it reads images, set \"Model accepts images\" to Yes in Settings → Vault Agent → Model; else remove the images or pick another profile.")]
    ImagesNotAccepted { model: String },
    #[error("Could not reach {url}: {detail}. {fix}")]
    Connection {
        url: String,
        detail: String,
        fix: String,
    },
    /// `detail`: the server's own words (a gateway may refuse for a reason
    /// other than the key: a plan, a region, a header it wants).
    #[error("The model server refused the API key ({status}). Check the key in Settings → Vault Agent → Model. Server: {detail}")]
    Unauthorized { status: u16, detail: String },
    #[error("The model server does not know model \"{model}\" (404). Check the model name in Settings → Vault Agent → Model (\"Test connection\" lists the models){hint}.")]
    ModelNotFound { model: String, hint: String },
    #[error("The model server is rate limiting or out of credit (429: {detail}). Wait a moment and try again, or check your plan.")]
    RateLimited { detail: String },
    #[error("The model server failed ({status}): {detail}. Try again in a moment.")]
    ServerError { status: u16, detail: String },
    #[error("The model \"{model}\" cannot call tools, which Vault Agent needs. Choose a model with tool calling (for Ollama, e.g. llama3.1, qwen2.5 or mistral-nemo). {detail}")]
    NoToolSupport { model: String, detail: String },
    // The fix first: a banner is cut at 300 characters.
    #[error("The conversation does not fit the model server's context. Raise the server's context size (llama.cpp -c, OLLAMA_CONTEXT_LENGTH, LM Studio's context length, vLLM --max-model-len) or lower the context window in Settings → Vault Agent → Model. Server ({status}): {detail}")]
    ContextOverflow { status: u16, detail: String },
    #[error("The model server stopped the answer with an error: {detail}. Send the message again; if it repeats, the server's own log says why (a local model may be out of memory).")]
    StreamError { detail: String },
    #[error("The model server rejected the request ({status}): {detail}. Check the provider, base URL and model in Settings → Vault Agent → Model (\"Test connection\" checks them), then send the message again.")]
    BadRequest { status: u16, detail: String },
    #[error("The model's answer could not be read: {detail}. Send the message again; if it repeats, the server at this base URL may not speak the provider's format: check the provider and base URL in Settings → Vault Agent → Model.")]
    BadStream { detail: String },
    #[error("No API key is set for {provider}. Add one in Settings → Vault Agent → Model.")]
    MissingApiKey { provider: String },
    #[error("The model server needs an API key ({status}) and none was sent. Add the key in Settings → Vault Agent → Model.")]
    NoKeySent { status: u16 },
    #[error("The model server has no {url} (404). Check the base URL in Settings → Vault Agent → Model: OpenAI-compatible servers usually end in /v1.")]
    EndpointNotFound { url: String },
    #[error("The model server has no {url} (404), but {base}/v1 answers. Add /v1 to the base URL in Settings → Vault Agent → Model: \"{base}/v1\".")]
    MissingV1 { url: String, base: String },
    #[error("This conversation needs about {needed} tokens, more than the model reads at once ({window}). Start a new chat, or raise the context window in Settings → Vault Agent → Model (for Ollama also start it with a larger OLLAMA_CONTEXT_LENGTH).")]
    ContextFull { window: usize, needed: usize },
    #[error("The model answered with nothing: no text and no tool call. Send the message again; if it repeats, start a new chat (a small model may have run out of context) or choose another model.")]
    EmptyReply,
    #[error("The model server accepted the request but sent no answer within {seconds} s. A model on a CPU may still be reading the prompt: raise \"Wait for the first token\" in Settings → Vault Agent → Advanced, or use a smaller model; check that the server is still running.")]
    NoFirstToken { seconds: u32 },
    #[error("The model server sent nothing for {seconds} s in the middle of the answer, so the request was ended. Check that the server is still running (a local model may be out of memory), or raise \"Wait between tokens\" in Settings → Vault Agent → Advanced.")]
    Stalled { seconds: u32 },
    #[error("The model server closed the connection before the answer was complete ({detail}). Send the message again; if it repeats, the server may be out of memory or have hit its own time limit.")]
    Cut { detail: String },
}

impl ChatError {
    /// Whether Retry could help without the user changing a setting first:
    /// not when the settings themselves refuse the request.
    pub fn worth_retrying(&self) -> bool {
        !matches!(
            self,
            ChatError::LocalOnly { .. }
                | ChatError::PromptTooLarge { .. }
                | ChatError::ImagesNotAccepted { .. }
        )
    }

    /// The message as the chat shows it for profile `profile`: an
    /// unreachable server is said with the profile's name, so the user knows
    /// which setup to fix or leave.
    pub fn shown_for(&self, profile: &str) -> String {
        match self {
            ChatError::Connection { url, detail, fix } => {
                format!("The profile \"{profile}\" could not reach {url}: {detail}. {fix}")
            }
            other => other.to_string(),
        }
    }

    /// The address the message names, if it names one.
    pub fn address(&self) -> Option<&str> {
        match self {
            ChatError::Connection { url, .. }
            | ChatError::EndpointNotFound { url }
            | ChatError::MissingV1 { url, .. } => Some(url),
            _ => None,
        }
    }

    /// The buttons beside the message: Retry where sending again can help,
    /// and where the profile's own settings are the cause, its settings and
    /// (when `other_profiles`) another profile.
    pub fn way_out(&self, other_profiles: bool) -> Vec<WayOut> {
        let about_profile = matches!(
            self,
            ChatError::Connection { .. }
                | ChatError::LocalOnly { .. }
                | ChatError::PromptTooLarge { .. }
                | ChatError::ImagesNotAccepted { .. }
                | ChatError::Unauthorized { .. }
                | ChatError::ModelNotFound { .. }
                | ChatError::NoToolSupport { .. }
                | ChatError::ContextOverflow { .. }
                | ChatError::BadRequest { .. }
                | ChatError::BadStream { .. }
                | ChatError::MissingApiKey { .. }
                | ChatError::NoKeySent { .. }
                | ChatError::EndpointNotFound { .. }
                | ChatError::MissingV1 { .. }
                | ChatError::ContextFull { .. }
        );
        let mut way_out = Vec::new();
        if self.worth_retrying() {
            way_out.push(WayOut::Retry);
        }
        if about_profile {
            way_out.push(WayOut::ProfileSettings);
            if other_profiles {
                way_out.push(WayOut::SwitchProfile);
            }
        }
        way_out
    }

    pub fn code(&self) -> &'static str {
        match self {
            ChatError::Connection { .. } => "connection",
            ChatError::LocalOnly { .. } => "local_only",
            ChatError::PromptTooLarge { .. } => "prompt_too_large",
            ChatError::ImagesNotAccepted { .. } => "images_not_accepted",
            ChatError::Unauthorized { .. } => "unauthorized",
            ChatError::ModelNotFound { .. } => "model_not_found",
            ChatError::RateLimited { .. } => "rate_limited",
            ChatError::ServerError { .. } => "server_error",
            ChatError::NoToolSupport { .. } => "no_tool_support",
            ChatError::ContextOverflow { .. } => "context_overflow",
            ChatError::StreamError { .. } => "stream_error",
            ChatError::BadRequest { .. } => "bad_request",
            ChatError::BadStream { .. } => "bad_stream",
            ChatError::MissingApiKey { .. } | ChatError::NoKeySent { .. } => "missing_api_key",
            ChatError::EndpointNotFound { .. } => "endpoint_not_found",
            ChatError::MissingV1 { .. } => "missing_v1",
            ChatError::EmptyReply => "empty_reply",
            ChatError::ContextFull { .. } => "context_full",
            ChatError::NoFirstToken { .. } => "no_first_token",
            ChatError::Stalled { .. } => "stalled",
            ChatError::Cut { .. } => "cut",
        }
    }

    /// Worth sending again as it was (the server was busy or went away).
    pub fn retryable_status(status: u16) -> bool {
        matches!(status, 429 | 503 | 529)
    }
}
