//! The model server the settings name: its adapter picked by kind, a whole
//! reply or a stream read into one reply, the models it lists, and what a
//! failed request means for the user (`model.rs` holds what they share).

#[cfg(test)]
use super::model::stream_error;
use super::model::{
    is_context_overflow, read_usage, ChatError, ModelReply, ModelRequest, StreamAssembler,
};
use super::{anthropic, openai};
use crate::base::host::{HttpFailure, HttpRequest};
use crate::settings::{ProviderKind, ProviderSettings};

/// The text of a field that holds text (null and absent are empty).
fn text_of(v: Option<&serde_json::Value>) -> String {
    v.and_then(|v| v.as_str()).unwrap_or_default().to_string()
}

/// A reply that came as one JSON body instead of a stream (servers and
/// proxies that ignore `stream: true`): text and tool calls, as a stream
/// would have given them.
pub fn parse_whole_reply(kind: ProviderKind, body: &str) -> Result<ModelReply, ChatError> {
    let bad = |detail: String| ChatError::BadStream { detail };
    let value: serde_json::Value = serde_json::from_str(body)
        .map_err(|e| bad(format!("one JSON body that does not parse ({e})")))?;
    if let Some(error) = value.get("error").filter(|e| !e.is_null()) {
        let message = server_message(&value.to_string());
        return Err(if is_context_overflow(&error.to_string()) {
            ChatError::ContextOverflow {
                status: 200,
                detail: message,
            }
        } else {
            ChatError::StreamError { detail: message }
        });
    }
    let as_text = |v: &serde_json::Value| match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Null => String::new(),
        other => other.to_string(),
    };
    match kind {
        ProviderKind::OpenAi => {
            let choice = value
                .pointer("/choices/0")
                .ok_or_else(|| bad("a JSON body without `choices`".into()))?;
            let message = choice.get("message").cloned().unwrap_or_default();
            let tool_calls = message
                .get("tool_calls")
                .and_then(|c| c.as_array())
                .map(|calls| {
                    calls
                        .iter()
                        .enumerate()
                        .map(
                            |(i, call)| crate::doors::chat::conversation::ToolCallRecord {
                                id: call
                                    .get("id")
                                    .and_then(|v| v.as_str())
                                    .map_or_else(|| format!("call_{i}"), str::to_string),
                                name: as_text(
                                    call.pointer("/function/name")
                                        .unwrap_or(&serde_json::Value::Null),
                                ),
                                arguments: as_text(
                                    call.pointer("/function/arguments")
                                        .unwrap_or(&serde_json::Value::Null),
                                ),
                                as_text: false,
                            },
                        )
                        .collect()
                })
                .unwrap_or_default();
            // Reasoning printed as `<think>…</think>` goes with the fields'.
            let (printed_reasoning, text) = super::think_tags::ThinkTags::split(&as_text(
                message.get("content").unwrap_or(&serde_json::Value::Null),
            ));
            Ok(ModelReply {
                text,
                tool_calls,
                stop_reason: choice
                    .get("finish_reason")
                    .and_then(|v| v.as_str())
                    .map(str::to_string),
                reasoning: text_of(
                    message
                        .get("reasoning_content")
                        .filter(|v| v.is_string())
                        .or_else(|| message.get("reasoning")),
                ) + &printed_reasoning,
                thinking: Vec::new(),
                usage: value.get("usage").and_then(read_usage),
            })
        }
        ProviderKind::Anthropic => {
            let blocks = value
                .get("content")
                .and_then(|c| c.as_array())
                .ok_or_else(|| bad("a JSON body without `content`".into()))?;
            let mut text = String::new();
            let mut tool_calls = Vec::new();
            let mut reasoning = String::new();
            let mut thinking = Vec::new();
            for block in blocks {
                match block.get("type").and_then(|t| t.as_str()) {
                    Some("thinking") => {
                        reasoning.push_str(&text_of(block.get("thinking")));
                        thinking.push(block.clone());
                    }
                    Some("redacted_thinking") => thinking.push(block.clone()),
                    Some("text") => text.push_str(&as_text(
                        block.get("text").unwrap_or(&serde_json::Value::Null),
                    )),
                    Some("tool_use") => {
                        tool_calls.push(crate::doors::chat::conversation::ToolCallRecord {
                            id: as_text(block.get("id").unwrap_or(&serde_json::Value::Null)),
                            name: as_text(block.get("name").unwrap_or(&serde_json::Value::Null)),
                            arguments: block
                                .get("input")
                                .map_or_else(|| "{}".to_string(), |i| i.to_string()),
                            as_text: false,
                        })
                    }
                    _ => {}
                }
            }
            Ok(ModelReply {
                text,
                tool_calls,
                stop_reason: value
                    .get("stop_reason")
                    .and_then(|v| v.as_str())
                    .map(str::to_string),
                reasoning,
                thinking,
                usage: value.get("usage").and_then(read_usage),
            })
        }
    }
}

/// How long to wait before retry `attempt` (0-based): the server's
/// `Retry-After` in seconds when it gives one (at most a minute), else 1, 2,
/// 4 s.
pub fn retry_wait_ms(retry_after: Option<&str>, attempt: u32) -> u32 {
    retry_after
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(|s| (s.min(60.0) * 1000.0) as u32)
        .unwrap_or(1000 << attempt.min(5))
}

/// Parses a whole stream given in chunks (benchmarks and tests).
pub fn parse_stream<'a>(
    kind: ProviderKind,
    chunks: impl IntoIterator<Item = &'a [u8]>,
) -> Result<ModelReply, ChatError> {
    let mut parser = super::sse::SseParser::new();
    let mut stream = assembler(kind);
    for chunk in chunks {
        for event in parser.push(chunk) {
            stream.on_event(&event)?;
        }
    }
    for event in parser.finish() {
        stream.on_event(&event)?;
    }
    Ok(stream.finish())
}

pub fn build_request(kind: ProviderKind, request: &ModelRequest) -> HttpRequest {
    match kind {
        ProviderKind::OpenAi => openai::chat_request(request),
        ProviderKind::Anthropic => anthropic::messages_request(request),
    }
}

pub fn assembler(kind: ProviderKind) -> Box<dyn StreamAssembler> {
    match kind {
        ProviderKind::OpenAi => Box::<openai::OpenAiStream>::default(),
        ProviderKind::Anthropic => Box::<anthropic::AnthropicStream>::default(),
    }
}

/// The request that lists a server's models ("Test connection").
pub fn models_request(
    kind: ProviderKind,
    settings: &ProviderSettings,
    api_key: Option<String>,
) -> HttpRequest {
    match kind {
        ProviderKind::OpenAi => openai::models_request(settings, api_key),
        ProviderKind::Anthropic => anthropic::models_request(settings, api_key),
    }
}

/// Model ids from a models listing (both APIs answer `{"data": [{"id": …}]}`).
pub fn parse_models(body: &str) -> Vec<String> {
    let value: serde_json::Value = serde_json::from_str(body).unwrap_or_default();
    let list = value
        .get("data")
        .or_else(|| value.get("models"))
        .and_then(|d| d.as_array())
        .cloned()
        .unwrap_or_default();
    let mut ids: Vec<String> = list
        .iter()
        .filter_map(|m| {
            m.get("id")
                .or_else(|| m.get("name"))
                .and_then(|v| v.as_str())
                .map(String::from)
        })
        .collect();
    ids.sort();
    ids.dedup();
    ids
}

/// A connection that failed before any answer.
pub fn connection_error(url: &str, failure: &HttpFailure) -> ChatError {
    if failure.code == "LOCAL_ONLY" {
        return ChatError::LocalOnly {
            message: failure.message.clone(),
        };
    }
    let local = url.contains("localhost") || url.contains("127.0.0.1");
    let fix = match failure.code.as_str() {
        "ECONNREFUSED" if url.contains(":11434") => "Is Ollama running? Start it (`ollama serve`), or check the base URL.",
        "ECONNREFUSED" if url.contains(":1234") => "Is LM Studio's server running? Start it in LM Studio (Developer → Start server), or check the base URL.",
        "ECONNREFUSED" if local => "Is the model server running? Start it, or check the base URL.",
        "ENOTFOUND" | "EAI_AGAIN" => "Check the base URL and your internet connection.",
        "ETIMEDOUT" | "TIMEOUT" => "The server did not answer in time; check that it is running, or raise \"Wait for the first token\" in Settings → Vault Agent → Advanced (a model on a CPU reads the prompt before it answers).",
        _ => "Check the base URL in Settings → Vault Agent → Model.",
    };
    ChatError::Connection {
        url: url.to_string(),
        detail: connection_cause(failure),
        fix: fix.to_string(),
    }
}

/// What went wrong, said once: Node's message repeats its code and the
/// address ("connect ECONNREFUSED 127.0.0.1:9"), so a known code is said in
/// words with the code after it, and an unknown one as Node says it.
fn connection_cause(failure: &HttpFailure) -> String {
    let words = match failure.code.as_str() {
        "ECONNREFUSED" => "the connection was refused",
        "ECONNRESET" => "the connection was reset",
        "ENOTFOUND" => "no such host name",
        "EAI_AGAIN" => "the host name could not be looked up",
        "ETIMEDOUT" | "TIMEOUT" => "no answer in time",
        "EHOSTUNREACH" | "ENETUNREACH" => "the network cannot reach it",
        _ if failure.message.is_empty() => return failure.code.clone(),
        _ if failure.message.contains(&failure.code) => return failure.message.clone(),
        _ => return format!("{}: {}", failure.code, failure.message),
    };
    format!("{words} ({})", failure.code)
}

/// A response with an error status, given its body. `key_sent`: whether
/// the request carried an API key (a 401 without one is a missing key, not a
/// refused one).
pub fn status_error(status: u16, body: &str, model: &str, url: &str, key_sent: bool) -> ChatError {
    let detail = server_message(body);
    let lower = detail.to_ascii_lowercase();
    // Only when the server says it is the model: a 404 is also a wrong path.
    let unknown_model = lower.contains("model")
        && [
            "not found",
            "does not exist",
            "no such",
            "not exist",
            "pull",
            "unknown",
        ]
        .iter()
        .any(|w| lower.contains(w));
    let no_tools = lower.contains("does not support tools")
        || lower.contains("tools is not supported")
        || lower.contains("tool use is not supported")
        || (lower.contains("tool") && lower.contains("not support"));
    if matches!(status, 400 | 413 | 422 | 500..) && is_context_overflow(body) {
        return ChatError::ContextOverflow { status, detail };
    }
    match status {
        401 | 403 if !key_sent => ChatError::NoKeySent { status },
        401 | 403 => ChatError::Unauthorized { status, detail },
        404 if !unknown_model => ChatError::EndpointNotFound {
            url: url.to_string(),
        },
        404 => ChatError::ModelNotFound {
            model: model.to_string(),
            hint: if url.contains(":11434") {
                format!(", or run `ollama pull {model}`")
            } else {
                String::new()
            },
        },
        429 => ChatError::RateLimited { detail },
        400 | 422 if no_tools => ChatError::NoToolSupport {
            model: model.to_string(),
            detail,
        },
        s if s >= 500 => ChatError::ServerError { status, detail },
        _ if no_tools => ChatError::NoToolSupport {
            model: model.to_string(),
            detail,
        },
        _ => ChatError::BadRequest { status, detail },
    }
}

/// What the user sees of a model server's error: one line, at most 300
/// characters, with every secret we sent (`secrets`: the API key) and
/// anything that looks like a key or a credential replaced by `[hidden]`. A
/// server that echoes the request (headers included) must not show the key
/// in a banner or a log.
pub fn scrub_server_text(text: &str, secrets: &[&str]) -> String {
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    let mut out = line.to_string();
    for secret in secrets.iter().map(|s| s.trim()).filter(|s| s.len() >= 4) {
        out = out.replace(secret, "[hidden]");
    }
    let out = hide_credentials(&out);
    let mut cut: String = out.chars().take(300).collect();
    if cut.len() < out.len() {
        cut.push('…');
    }
    cut
}

/// Replaces credential-looking words: the value after `Authorization`,
/// `Bearer`, `x-api-key`, `api_key`, `token`, `password` …, keys with a known
/// prefix (`sk-`, `sk-ant-`, `sk-or-`, `AIza`, `ghp_`), and long runs of
/// key characters that mix letters and digits.
fn hide_credentials(text: &str) -> String {
    const LABELS: &[&str] = &[
        "authorization",
        "bearer",
        "x-api-key",
        "api-key",
        "api_key",
        "apikey",
        "token",
        "secret",
        "password",
        "cookie",
    ];
    const PREFIXES: &[&str] = &["sk-", "sk_", "rk-", "AIza", "ghp_", "xox", "pk-", "eyJ"];
    let is_key_char = |c: char| c.is_ascii_alphanumeric() || "-_.+/".contains(c);
    let mut out = String::with_capacity(text.len());
    let mut hide_next = false;
    let mut rest = text;
    while !rest.is_empty() {
        let start = rest.find(is_key_char).unwrap_or(rest.len());
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let end = rest.find(|c: char| !is_key_char(c)).unwrap_or(rest.len());
        let word = &rest[..end];
        rest = &rest[end..];
        if word.is_empty() {
            continue;
        }
        let lower = word.to_ascii_lowercase();
        // A long random part: 20+ characters mixing letters and digits
        // between separators (model names and URLs have short parts).
        let random_part = word.split(['-', '_', '.', '/', '+']).any(|part| {
            part.len() >= 20
                && part.chars().any(|c| c.is_ascii_alphabetic())
                && part.chars().any(|c| c.is_ascii_digit())
        });
        let looks_like_key = PREFIXES
            .iter()
            .any(|p| word.starts_with(p) && word.len() > p.len() + 8)
            || random_part;
        if word == "hidden" {
            // Already hidden by an earlier pass: scrubbing twice changes nothing.
            out.push_str(word);
            hide_next = false;
        } else if hide_next || looks_like_key {
            out.push_str("[hidden]");
            // "Bearer" after "Authorization:" is a label too; the key follows it.
            hide_next = lower == "bearer" || lower == "basic";
        } else {
            out.push_str(word);
            hide_next = LABELS
                .iter()
                .any(|l| lower.trim_matches(|c: char| !c.is_ascii_alphanumeric()) == *l);
        }
    }
    out
}

/// The human part of an error body (`{"error": {"message": …}}` and friends).
pub fn server_message(body: &str) -> String {
    let value: serde_json::Value = serde_json::from_str(body).unwrap_or_default();
    let message = value
        .pointer("/error/message")
        .or_else(|| value.get("error").filter(|e| e.is_string()))
        .or_else(|| value.get("message"))
        .and_then(|m| m.as_str())
        .map(String::from)
        .unwrap_or_else(|| body.to_string());
    let message = scrub_server_text(&message, &[]);
    if message.is_empty() {
        "no details".into()
    } else {
        message
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every banner says what to do next: a place to change something, or
    /// to try again. A new variant must be added here (the match is exhaustive).
    #[test]
    fn every_chat_error_names_a_fix() {
        let text = String::from;
        let all = [
            connection_error(
                "http://localhost:9/v1",
                &HttpFailure {
                    code: "EPIPE".into(),
                    message: String::new(),
                },
            ),
            connection_error(
                "http://localhost:11434/v1",
                &HttpFailure {
                    code: "ECONNREFUSED".into(),
                    message: String::new(),
                },
            ),
            connection_error(
                "http://localhost:1234/v1",
                &HttpFailure {
                    code: "ECONNREFUSED".into(),
                    message: String::new(),
                },
            ),
            connection_error(
                "http://localhost:8080/v1",
                &HttpFailure {
                    code: "ECONNREFUSED".into(),
                    message: String::new(),
                },
            ),
            connection_error(
                "https://api.example.com/v1",
                &HttpFailure {
                    code: "ENOTFOUND".into(),
                    message: String::new(),
                },
            ),
            connection_error(
                "https://api.example.com/v1",
                &HttpFailure {
                    code: "ETIMEDOUT".into(),
                    message: String::new(),
                },
            ),
            ChatError::Unauthorized {
                status: 401,
                detail: text("invalid x-api-key"),
            },
            ChatError::ModelNotFound {
                model: text("m"),
                hint: String::new(),
            },
            ChatError::RateLimited {
                detail: text("slow down"),
            },
            ChatError::ServerError {
                status: 500,
                detail: text("boom"),
            },
            ChatError::NoToolSupport {
                model: text("m"),
                detail: String::new(),
            },
            ChatError::BadRequest {
                status: 400,
                detail: text("max_tokens is too large"),
            },
            ChatError::BadStream {
                detail: text("expected value at line 1"),
            },
            ChatError::MissingApiKey {
                provider: text("OpenAI"),
            },
            ChatError::NoKeySent { status: 401 },
            ChatError::EndpointNotFound {
                url: text("http://x/chat/completions"),
            },
            ChatError::MissingV1 {
                url: text("http://x/chat/completions"),
                base: text("http://x"),
            },
            ChatError::ContextFull {
                window: 4096,
                needed: 9000,
            },
            ChatError::ContextOverflow {
                status: 400,
                detail: text("exceeds the available context size"),
            },
            ChatError::StreamError {
                detail: text("boom"),
            },
            ChatError::EmptyReply,
            ChatError::NoFirstToken { seconds: 300 },
            ChatError::Stalled { seconds: 60 },
            ChatError::Cut {
                detail: text("socket hang up"),
            },
            ChatError::PromptTooLarge {
                window: 2048,
                needed: 2600,
            },
            ChatError::ImagesNotAccepted {
                model: text("llama3.1"),
            },
            connection_error(
                "https://api.openai.com/v1",
                &HttpFailure {
                    code: "LOCAL_ONLY".into(),
                    message: crate::policy::network::local_address("api.openai.com", &[])
                        .unwrap_err(),
                },
            ),
        ];
        for error in &all {
            match error {
                ChatError::LocalOnly { .. }
                | ChatError::PromptTooLarge { .. }
                | ChatError::ImagesNotAccepted { .. }
                | ChatError::Connection { .. }
                | ChatError::Unauthorized { .. }
                | ChatError::ModelNotFound { .. }
                | ChatError::RateLimited { .. }
                | ChatError::ServerError { .. }
                | ChatError::NoToolSupport { .. }
                | ChatError::BadRequest { .. }
                | ChatError::BadStream { .. }
                | ChatError::MissingApiKey { .. }
                | ChatError::NoKeySent { .. }
                | ChatError::EndpointNotFound { .. }
                | ChatError::MissingV1 { .. }
                | ChatError::ContextFull { .. }
                | ChatError::ContextOverflow { .. }
                | ChatError::StreamError { .. }
                | ChatError::NoFirstToken { .. }
                | ChatError::EmptyReply
                | ChatError::Stalled { .. }
                | ChatError::Cut { .. } => {}
            }
            let message = error.to_string();
            let fixes = [
                "Settings → Vault Agent",
                "again",
                "Start it",
                "Choose a model",
                "Check the base URL",
            ];
            assert!(
                fixes.iter().any(|fix| message.contains(fix)),
                "{}: {message}",
                error.code()
            );
        }
    }

    #[test]
    fn a_whole_reply_keeps_printed_reasoning_apart() {
        let body = serde_json::json!({"choices": [{"message": {
            "content": "<think>Count them.</think>\n\nTwo.",
            "reasoning_content": "First. "
        }, "finish_reason": "stop"}]});
        let reply = parse_whole_reply(ProviderKind::OpenAi, &body.to_string()).unwrap();
        assert_eq!(
            (reply.text.as_str(), reply.reasoning.as_str()),
            ("Two.", "First. Count them.")
        );
    }

    /// Regression (hardening #13): a server that echoes the request showed
    /// the API key in the banner.
    #[test]
    fn server_text_is_one_line_without_secrets() {
        let key = "sk-proj-abcDEF0123456789ghiJKL";
        let echoed = format!(
            "Bad request: {{\"headers\": {{\"Authorization\": \"Bearer {key}\", \"x-api-key\": \"plainsecret\"}}}}\nsecond line {key}"
        );
        let shown = scrub_server_text(&echoed, &[key]);
        assert!(!shown.contains(key) && !shown.contains("abcDEF"), "{shown}");
        assert!(!shown.contains("plainsecret"), "{shown}");
        assert!(!shown.contains("second line"), "{shown}");
        assert!(shown.starts_with("Bad request:"), "{shown}");
        // A key we do not know is still hidden by its shape.
        let shown = scrub_server_text("invalid key sk-ant-api03-Zx9y8W7v6U5t4 given", &[]);
        assert_eq!(shown, "invalid key [hidden] given");
        let shown = scrub_server_text("token=abc123 and password: hunter2", &[]);
        assert_eq!(shown, "token=[hidden] and password: [hidden]");
        // Ordinary messages pass as they are, cut to 300 characters.
        for plain in [
            "model 'llama3.1' not found",
            "model claude-sonnet-4-5-20250929 is overloaded",
            "Could not reach https://openrouter.ai/api/v1/chat/completions (ECONNRESET)",
        ] {
            assert_eq!(scrub_server_text(plain, &[]), plain);
        }
        assert_eq!(
            scrub_server_text("key 0123456789abcdef0123456789abcdef rejected", &[]),
            "key [hidden] rejected"
        );
        assert_eq!(
            scrub_server_text(&"word ".repeat(100), &[]).chars().count(),
            301
        );
        let once = scrub_server_text(&echoed, &[key]);
        assert_eq!(scrub_server_text(&once, &[key]), once, "idempotent");
        let e = status_error(500, &echoed, "m", "u", true);
        assert!(!e.to_string().contains("abcDEF"), "{e}");
    }

    #[test]
    fn statuses_map_to_errors_with_fixes() {
        let e = status_error(
            401,
            r#"{"error":{"message":"bad key"}}"#,
            "m",
            "https://api.openai.com/v1",
            true,
        );
        assert_eq!(e.code(), "unauthorized");
        assert!(e.to_string().contains("Settings → Vault Agent → Model"));
        // The server's reason is kept: a gateway may refuse for another one.
        assert!(e.to_string().ends_with("Server: bad key"), "{e}");
        let e = status_error(401, "{}", "m", "u", false);
        assert_eq!(e.code(), "missing_api_key");
        assert!(e.to_string().contains("none was sent"), "{e}");
        let e = status_error(
            404,
            r#"{"error":"model \"llama9\" not found, try pulling it first"}"#,
            "llama9",
            "http://localhost:11434/v1",
            false,
        );
        assert!(e.to_string().contains("ollama pull llama9"), "{e}");
        // A 404 that does not name the model is a wrong address.
        let e = status_error(
            404,
            "404 page not found",
            "llama9",
            "http://localhost:11434/chat/completions",
            false,
        );
        assert_eq!(e.code(), "endpoint_not_found", "{e}");
        let e = status_error(429, r#"{"error":{"message":"slow down"}}"#, "m", "u", true);
        assert!(e.to_string().contains("slow down"));
        let e = status_error(503, "upstream gone", "m", "u", true);
        assert_eq!(
            (e.code(), e.to_string().contains("upstream gone")),
            ("server_error", true)
        );
        let e = status_error(
            400,
            r#"{"error":"registry.ollama.ai/library/gemma does not support tools"}"#,
            "gemma",
            "u",
            false,
        );
        assert_eq!(e.code(), "no_tool_support");
        let e = status_error(
            400,
            r#"{"error":{"message":"max_tokens too large"}}"#,
            "m",
            "u",
            false,
        );
        assert_eq!(e.code(), "bad_request");
    }

    /// Each common server's words for a request longer than its context,
    /// as they answer it (status, body): the fix is the context, never
    /// "check the provider" nor "try again".
    #[test]
    fn context_overflows_in_each_servers_words_say_to_raise_the_context() {
        let cases = [
            // llama.cpp's server
            (
                400,
                r#"{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":9000,"n_ctx":8192}}"#,
            ),
            // Ollama
            (
                400,
                r#"{"error":{"message":"input length exceeds maximum context length","type":"invalid_request_error"}}"#,
            ),
            (500, r#"{"error":"context length exceeded"}"#),
            // LM Studio
            (
                400,
                r#"{"error":"Trying to keep the first 9120 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input"}"#,
            ),
            // vLLM and OpenAI
            (
                400,
                r#"{"object":"error","message":"This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion).","type":"BadRequestError","code":400}"#,
            ),
            (
                400,
                r#"{"error":{"message":"Your input exceeds the context window of this model.","type":"invalid_request_error","param":"input","code":"context_length_exceeded"}}"#,
            ),
            // Anthropic
            (
                400,
                r#"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}"#,
            ),
        ];
        for (status, body) in cases {
            let e = status_error(
                status,
                body,
                "m",
                "http://localhost:8080/v1/chat/completions",
                false,
            );
            assert_eq!(e.code(), "context_overflow", "{body}: {e}");
            let text = e.to_string();
            assert!(text.contains("context window in Settings"), "{text}");
            assert!(
                !text.contains("Check the provider") && !text.contains("Try again"),
                "{text}"
            );
        }
        // Other refusals stay what they were.
        let e = status_error(
            400,
            r#"{"error":{"message":"unknown field"}}"#,
            "m",
            "u",
            false,
        );
        assert_eq!(e.code(), "bad_request");
    }

    #[test]
    fn an_error_inside_a_stream_says_what_the_server_said() {
        let e = stream_error("model runner has unexpectedly stopped");
        assert_eq!(e.code(), "stream_error");
        assert!(
            e.to_string()
                .contains("model runner has unexpectedly stopped"),
            "{e}"
        );
        assert!(!e.to_string().contains("(200)"), "{e}");
        let e = stream_error("the request exceeds the available context size, try increasing it");
        assert_eq!(e.code(), "context_overflow");
        let whole = parse_whole_reply(
            ProviderKind::OpenAi,
            r#"{"error":{"message":"This model's maximum context length is 2048 tokens"}}"#,
        )
        .unwrap_err();
        assert_eq!(whole.code(), "context_overflow", "{whole}");
    }

    #[test]
    fn a_rate_limit_reads_as_one_sentence() {
        let e = status_error(
            429,
            r#"{"error":{"message":"rate limit exceeded"}}"#,
            "m",
            "u",
            true,
        );
        let text = e.to_string();
        assert!(text.contains("(429: rate limit exceeded)"), "{text}");
        assert!(!text.contains("plan. rate"), "{text}");
    }

    #[test]
    fn refused_connections_say_what_to_start() {
        let failure = HttpFailure {
            code: "ECONNREFUSED".into(),
            message: "connect ECONNREFUSED 127.0.0.1:11434".into(),
        };
        let e = connection_error("http://localhost:11434/v1/chat/completions", &failure);
        assert!(e.to_string().contains("Is Ollama running?"), "{e}");
        // The cause once, though Node's message repeats the code.
        assert_eq!(e.to_string().matches("ECONNREFUSED").count(), 1, "{e}");
        let shown = e.shown_for("Local Ollama");
        assert!(
            shown.starts_with("The profile \"Local Ollama\" could not reach http://localhost:11434/v1/chat/completions: the connection was refused (ECONNREFUSED)."),
            "{shown}"
        );
        assert_eq!(
            e.address(),
            Some("http://localhost:11434/v1/chat/completions")
        );
        use crate::doors::chat::events::WayOut;
        assert_eq!(
            e.way_out(true),
            [
                WayOut::Retry,
                WayOut::ProfileSettings,
                WayOut::SwitchProfile
            ]
        );
        assert_eq!(e.way_out(false), [WayOut::Retry, WayOut::ProfileSettings]);
        // A busy server is no profile's fault: only Retry.
        let busy = ChatError::ServerError {
            status: 500,
            detail: "oops".into(),
        };
        assert_eq!(busy.way_out(true), [WayOut::Retry]);
        // An unknown code keeps Node's words, once.
        let odd = HttpFailure {
            code: "EPROTO".into(),
            message: "write EPROTO 1234".into(),
        };
        assert_eq!(
            connection_error("https://a.example/v1", &odd)
                .to_string()
                .matches("EPROTO")
                .count(),
            1
        );
    }

    #[test]
    fn model_listings() {
        assert_eq!(
            parse_models(r#"{"data":[{"id":"b"},{"id":"a"},{"id":"a"}]}"#),
            ["a", "b"]
        );
        assert!(parse_models("nonsense").is_empty());
    }
}
