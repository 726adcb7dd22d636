//! The model's context window, from the server where it can tell: Ollama's
//! `POST /api/show`, LM Studio's `GET /api/v0/models`, OpenRouter's
//! `GET /api/v1/models`, and known sizes for OpenAI and Anthropic model
//! names. An explicit setting always wins; without an answer the defaults of
//! `budget::context_window` stay. Only the requests and their reading live
//! here; `chat` sends them once per (base URL, model) and caches the answer.

use serde_json::{json, Value};

use crate::base::host::HttpRequest;
use crate::settings::{ProviderKind, ProviderSettings};

/// A probe that takes longer is not worth the wait: the defaults do.
const PROBE_TIMEOUT_MS: u32 = 3_000;
/// What Ollama's OpenAI endpoint and LM Studio load a model with unless told
/// otherwise.
pub const LOCAL_DEFAULT_CONTEXT: u32 = 4_096;

/// Which server a base URL is, as far as its window goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Server {
    Ollama,
    LmStudio,
    OpenRouter,
}

/// The server behind an OpenAI-compatible base URL: by its default port, or
/// by name in the host or path (Open WebUI proxies Ollama under `/ollama`).
pub fn server(base_url: &str) -> Option<Server> {
    let found = crate::base::address::destination(base_url).ok()?;
    let path = found.url.to_ascii_lowercase();
    let path = path.splitn(4, '/').nth(3).unwrap_or("");
    let named = |name: &str| found.hostname.contains(name) || path.split('/').any(|s| s == name);
    if found.port == 11434 || named("ollama") {
        Some(Server::Ollama)
    } else if found.port == 1234 || named("lmstudio") || named("lm-studio") {
        Some(Server::LmStudio)
    } else if named("openrouter.ai") || named("openrouter") {
        Some(Server::OpenRouter)
    } else {
        None
    }
}

/// Known windows of hosted models, by name (OpenAI's and Anthropic's own
/// APIs do not say it).
pub fn known(kind: ProviderKind, base_url: &str, model: &str) -> Option<u32> {
    let model = model.to_ascii_lowercase();
    match kind {
        ProviderKind::Anthropic => model.starts_with("claude").then_some(200_000),
        ProviderKind::OpenAi if base_url.to_ascii_lowercase().contains("api.openai.com") => {
            let starts = |p: &str| model.starts_with(p);
            Some(if starts("gpt-4.1") {
                1_047_576
            } else if starts("gpt-5") {
                400_000
            } else if starts("o1") || starts("o3") || starts("o4") {
                200_000
            } else if starts("gpt-3.5") {
                16_385
            } else if starts("gpt-4o") || starts("gpt-4-turbo") || starts("chatgpt") {
                128_000
            } else if starts("gpt-4") {
                8_192
            } else {
                return None;
            })
        }
        ProviderKind::OpenAi => None,
    }
}

/// The request that asks `server` about `provider.model`.
pub fn probe(server: Server, provider: &ProviderSettings, api_key: Option<&str>) -> HttpRequest {
    let base = provider.base_url.trim_end_matches('/');
    // The native APIs live next to the OpenAI-compatible `/v1`.
    let root = base.strip_suffix("/v1").unwrap_or(base);
    let mut headers = vec![("Content-Type".to_string(), "application/json".to_string())];
    if let Some(key) = api_key.filter(|k| !k.is_empty()) {
        headers.push(("Authorization".into(), format!("Bearer {key}")));
    }
    let (method, url, body) = match server {
        Server::Ollama => (
            "POST",
            format!("{root}/api/show"),
            Some(json!({ "model": provider.model }).to_string()),
        ),
        Server::LmStudio => ("GET", format!("{root}/api/v0/models"), None),
        Server::OpenRouter => ("GET", format!("{base}/models"), None),
    };
    HttpRequest {
        method: method.into(),
        url,
        headers,
        body,
        timeout_ms: PROBE_TIMEOUT_MS,
        first_byte_timeout_ms: 0,
        idle_timeout_ms: PROBE_TIMEOUT_MS,
        connect_address: None,
        expected_host: String::new(),
        tag: None,
    }
}

/// The window in a probe's answer, if it names one.
///
/// - Ollama: `num_ctx` in the model's parameters is what it runs with.
///   Without it, the OpenAI endpoint runs with the server's default
///   (`OLLAMA_CONTEXT_LENGTH`, 4 096 unless raised, which no API shows), so
///   the model's own `<arch>.context_length` is only an upper bound: the
///   smaller of the two is the true number. Whoever raised the default sets
///   the window in the settings.
/// - LM Studio: `loaded_context_length` of a loaded model; a model not yet
///   loaded will be loaded with LM Studio's default (4 096 unless changed),
///   so the smaller of that and `max_context_length`.
/// - OpenRouter: `context_length`, or its top provider's when smaller.
pub fn read(server: Server, body: &str, model: &str) -> Option<u32> {
    let value: Value = serde_json::from_str(body).ok()?;
    let number = |v: Option<&Value>| {
        v.and_then(Value::as_u64)
            .filter(|n| *n > 0)
            .map(|n| n.min(u32::MAX as u64) as u32)
    };
    match server {
        Server::Ollama => {
            let num_ctx = value
                .get("parameters")
                .and_then(Value::as_str)
                .and_then(|p| {
                    p.lines().find_map(|line| {
                        let mut words = line.split_whitespace();
                        (words.next() == Some("num_ctx"))
                            .then(|| words.next()?.parse::<u32>().ok())
                            .flatten()
                    })
                });
            if num_ctx.is_some() {
                return num_ctx;
            }
            let info = value.get("model_info")?.as_object()?;
            let arch = info.get("general.architecture").and_then(Value::as_str);
            let own = arch
                .and_then(|a| number(info.get(&format!("{a}.context_length"))))
                .or_else(|| {
                    info.iter()
                        .find(|(k, _)| k.ends_with(".context_length"))
                        .and_then(|(_, v)| number(Some(v)))
                })?;
            Some(own.min(LOCAL_DEFAULT_CONTEXT))
        }
        Server::LmStudio | Server::OpenRouter => {
            let entry = value
                .get("data")?
                .as_array()?
                .iter()
                .find(|m| m.get("id").and_then(Value::as_str) == Some(model))?;
            if server == Server::LmStudio {
                return number(entry.get("loaded_context_length")).or_else(|| {
                    number(entry.get("max_context_length")).map(|n| n.min(LOCAL_DEFAULT_CONTEXT))
                });
            }
            let listed = number(entry.get("context_length"));
            let top = number(entry.pointer("/top_provider/context_length"));
            match (listed, top) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn servers_by_port_and_name() {
        assert_eq!(server("http://localhost:11434/v1"), Some(Server::Ollama));
        assert_eq!(server("http://box:3000/ollama/v1"), Some(Server::Ollama));
        assert_eq!(server("http://127.0.0.1:1234/v1"), Some(Server::LmStudio));
        assert_eq!(server("http://127.0.0.1:12345/v1"), None);
        assert_eq!(
            server("https://openrouter.ai/api/v1"),
            Some(Server::OpenRouter)
        );
        assert_eq!(server("https://api.openai.com/v1"), None);
    }

    #[test]
    fn ollama_num_ctx_wins_else_the_default_caps_the_model() {
        let show = r#"{"parameters":"stop \"<|eot|>\"\nnum_ctx                        16384","model_info":{"general.architecture":"llama","llama.context_length":131072}}"#;
        assert_eq!(read(Server::Ollama, show, "m"), Some(16_384));
        let show =
            r#"{"model_info":{"general.architecture":"llama","llama.context_length":131072}}"#;
        assert_eq!(read(Server::Ollama, show, "m"), Some(4_096));
        let show = r#"{"model_info":{"general.architecture":"phi","phi.context_length":2048}}"#;
        assert_eq!(read(Server::Ollama, show, "m"), Some(2_048));
        assert_eq!(read(Server::Ollama, "{}", "m"), None);
        assert_eq!(read(Server::Ollama, "not json", "m"), None);
    }

    #[test]
    fn listings_by_model_id() {
        let lm = r#"{"data":[{"id":"a","max_context_length":32768},{"id":"b","max_context_length":32768,"loaded_context_length":8192}]}"#;
        assert_eq!(read(Server::LmStudio, lm, "b"), Some(8_192));
        assert_eq!(read(Server::LmStudio, lm, "a"), Some(4_096));
        assert_eq!(read(Server::LmStudio, lm, "c"), None);
        let or = r#"{"data":[{"id":"x/y","context_length":200000,"top_provider":{"context_length":131072}}]}"#;
        assert_eq!(read(Server::OpenRouter, or, "x/y"), Some(131_072));
    }

    #[test]
    fn known_hosted_models() {
        let openai = "https://api.openai.com/v1";
        assert_eq!(
            known(ProviderKind::OpenAi, openai, "gpt-4.1-mini"),
            Some(1_047_576)
        );
        assert_eq!(
            known(ProviderKind::OpenAi, openai, "gpt-4o-mini"),
            Some(128_000)
        );
        assert_eq!(known(ProviderKind::OpenAi, openai, "whisper-1"), None);
        assert_eq!(
            known(ProviderKind::OpenAi, "http://x/v1", "gpt-4o"),
            None,
            "another server may cut the model's window"
        );
        assert_eq!(
            known(ProviderKind::Anthropic, "", "claude-sonnet-4-5"),
            Some(200_000)
        );
    }
}
