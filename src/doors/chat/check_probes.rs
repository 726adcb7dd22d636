//! What "Check this model" sends and how it reads the answers: made-up
//! text, one made-up tool whose answer is a random word, a generated
//! one-colour picture. Nothing of the user's (no note, no path, no
//! instruction) is ever in a probe: the system prompt here is the probes'
//! own, and the requests are built from these constants alone.

use serde_json::{json, Value};

use super::model::ModelTool;
use crate::settings::ProviderKind;

/// The made-up tool.
pub const TOOL_NAME: &str = "get_secret_word";
/// The probes' own system prompt (the chat's is never sent by the check).
pub const SYSTEM: &str = "You are being checked by the Vault Agent plugin. Follow the user's instruction exactly and keep your answers short.";
pub const STREAM_QUESTION: &str = "Count from one to twenty in words, separated by spaces.";
pub const TOOL_QUESTION: &str =
    "Call the get_secret_word tool, then reply with the word it returns and nothing else.";
pub const IMAGE_QUESTION: &str = "What colour is this picture? Answer with one word.";
/// The picture's colour, and the words that count as naming it.
pub const IMAGE_COLOUR: (u8, u8, u8) = (220, 20, 20);
pub const IMAGE_WORDS: [&str; 3] = ["red", "crimson", "scarlet"];

/// Words the made-up tool may return: plain, unlikely in an answer by chance.
const WORDS: [&str; 16] = [
    "marigold",
    "tangerine",
    "pelican",
    "lantern",
    "juniper",
    "saffron",
    "walrus",
    "quartz",
    "heron",
    "paprika",
    "zeppelin",
    "cobalt",
    "tamarind",
    "otter",
    "lilac",
    "mandolin",
];

/// The made-up tool as the model is offered it.
pub fn tool() -> ModelTool {
    ModelTool {
        name: TOOL_NAME.into(),
        description: "Returns today's secret word. Takes no arguments.".into(),
        input_schema: json!({"type": "object", "properties": {}}),
    }
}

/// A word the model cannot know before the tool returns it, picked by the
/// clock (two words, so that a lucky guess is out of the question).
pub fn secret_word(now_ms: f64) -> String {
    let n = now_ms as u64;
    let first = WORDS[(n % 16) as usize];
    let second = WORDS[((n / 16 + 7) % 16) as usize];
    if first == second {
        format!("{first}-{}", WORDS[((n / 16 + 8) % 16) as usize])
    } else {
        format!("{first}-{second}")
    }
}

/// `body` asking the server to call the made-up tool (`tool_choice`).
pub fn force_tool(kind: ProviderKind, body: &str) -> String {
    let Ok(mut value) = serde_json::from_str::<Value>(body) else {
        return body.to_string();
    };
    value["tool_choice"] = match kind {
        ProviderKind::OpenAi => json!({"type": "function", "function": {"name": TOOL_NAME}}),
        ProviderKind::Anthropic => json!({"type": "tool", "name": TOOL_NAME}),
    };
    value.to_string()
}

/// The written call in an answer, by its family, and whether the chat
/// reads that shape (`text_calls`): `None` when the answer holds no call.
pub fn written_shape(text: &str) -> Option<(&'static str, bool)> {
    let t = text.trim();
    if !t.contains(TOOL_NAME) {
        return None;
    }
    Some(if t.starts_with("<tool_call>") {
        ("<tool_call> tags (Hermes, Qwen)", true)
    } else if t.starts_with("```") {
        ("JSON in a code block", true)
    } else if t.starts_with('{') {
        ("bare JSON", true)
    } else if t.contains("[TOOL_CALLS]") {
        ("[TOOL_CALLS] (Mistral)", false)
    } else if t.contains("<|python_tag|>") {
        ("<|python_tag|> (Llama 3)", false)
    } else if t.contains("[TOOL_REQUEST]") {
        ("[TOOL_REQUEST] (LM Studio)", false)
    } else {
        ("a call inside other text", false)
    })
}

/// Whether `answer` names the word (case and punctuation aside).
pub fn repeats(answer: &str, word: &str) -> bool {
    let fold = |s: &str| {
        s.to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric())
            .collect::<String>()
    };
    fold(answer).contains(&fold(word))
}

pub fn names_colour(answer: &str) -> bool {
    let answer = answer.to_lowercase();
    IMAGE_WORDS.iter().any(|w| answer.contains(w))
}

/// vLLM's `max_model_len` (or a listing's `context_length`) for `model` in
/// an OpenAI-compatible `/models` answer.
pub fn listing_window(body: &str, model: &str) -> Option<u32> {
    let value: Value = serde_json::from_str(body).ok()?;
    let entry = value
        .get("data")?
        .as_array()?
        .iter()
        .find(|m| m.get("id").and_then(Value::as_str) == Some(model))?;
    ["max_model_len", "context_length"]
        .iter()
        .find_map(|k| entry.get(*k).and_then(Value::as_u64))
        .filter(|n| *n > 0)
        .map(|n| n.min(u32::MAX as u64) as u32)
}

/// llama.cpp's `/props`: the context each slot has.
pub fn props_window(body: &str) -> Option<u32> {
    let value: Value = serde_json::from_str(body).ok()?;
    value
        .pointer("/default_generation_settings/n_ctx")
        .and_then(Value::as_u64)
        .filter(|n| *n > 0)
        .map(|n| n.min(u32::MAX as u64) as u32)
}

/// Ollama's `/api/ps`: the window actually allocated to a loaded model.
pub fn ps_window(body: &str, model: &str) -> Option<u32> {
    let value: Value = serde_json::from_str(body).ok()?;
    let bare = |name: &str| name.strip_suffix(":latest").unwrap_or(name).to_string();
    value
        .get("models")?
        .as_array()?
        .iter()
        .find(|m| {
            ["name", "model"].iter().any(|k| {
                m.get(*k)
                    .and_then(Value::as_str)
                    .is_some_and(|n| bare(n) == bare(model))
            })
        })?
        .get("context_length")
        .and_then(Value::as_u64)
        .filter(|n| *n > 0)
        .map(|n| n.min(u32::MAX as u64) as u32)
}

/// Ollama's `/api/show` says the model's template has no tools.
pub fn capabilities_lack_tools(body: &str) -> bool {
    let Ok(value) = serde_json::from_str::<Value>(body) else {
        return false;
    };
    value
        .get("capabilities")
        .and_then(Value::as_array)
        .is_some_and(|c| !c.is_empty() && !c.iter().any(|v| v.as_str() == Some("tools")))
}

/// A 16 × 16 PNG of one colour, in base64: made here, so the probe sends
/// no file of the user's.
pub fn solid_png((r, g, b): (u8, u8, u8)) -> String {
    use base64::Engine as _;
    const SIDE: u32 = 16;
    // Each row: filter 0 (none), then the pixels.
    let row: Vec<u8> = std::iter::once(0u8)
        .chain((0..SIDE).flat_map(|_| [r, g, b]))
        .collect();
    let raw: Vec<u8> = (0..SIDE).flat_map(|_| row.iter().copied()).collect();
    // zlib: one stored deflate block (the picture is 784 bytes).
    let mut zlib = vec![0x78, 0x01, 0x01];
    let len = raw.len() as u16;
    zlib.extend_from_slice(&len.to_le_bytes());
    zlib.extend_from_slice(&(!len).to_le_bytes());
    zlib.extend_from_slice(&raw);
    let (mut a, mut b2) = (1u32, 0u32);
    for byte in &raw {
        a = (a + *byte as u32) % 65_521;
        b2 = (b2 + a) % 65_521;
    }
    zlib.extend_from_slice(&((b2 << 16) | a).to_be_bytes());
    let mut png = vec![0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A];
    let mut header = Vec::new();
    header.extend_from_slice(&SIDE.to_be_bytes());
    header.extend_from_slice(&SIDE.to_be_bytes());
    header.extend_from_slice(&[8, 2, 0, 0, 0]); // 8 bits, RGB
    for (kind, data) in [(b"IHDR", header), (b"IDAT", zlib), (b"IEND", Vec::new())] {
        png.extend_from_slice(&(data.len() as u32).to_be_bytes());
        let start = png.len();
        png.extend_from_slice(kind);
        png.extend_from_slice(&data);
        let crc = crc32(&png[start..]);
        png.extend_from_slice(&crc.to_be_bytes());
    }
    base64::engine::general_purpose::STANDARD.encode(png)
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for byte in bytes {
        crc ^= *byte as u32;
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_secret_word_changes_with_the_clock_and_is_two_words() {
        let a = secret_word(1_000.0);
        let b = secret_word(1_001.0);
        assert_ne!(a, b);
        assert!(a.contains('-'));
        assert!(repeats("The word is Marigold-Heron.", "marigold-heron"));
        assert!(!repeats("The word is marigold.", "marigold-heron"));
    }

    #[test]
    fn shapes_of_written_calls() {
        let call = r#"{"name": "get_secret_word", "arguments": {}}"#;
        assert_eq!(
            written_shape(&format!("<tool_call>\n{call}\n</tool_call>")).map(|s| s.1),
            Some(true)
        );
        assert_eq!(written_shape(call).map(|s| s.0), Some("bare JSON"));
        assert_eq!(
            written_shape(&format!("[TOOL_CALLS] [{call}]")),
            Some(("[TOOL_CALLS] (Mistral)", false))
        );
        assert_eq!(written_shape("I cannot call tools."), None);
    }

    #[test]
    fn tool_choice_names_the_tool_in_each_providers_form() {
        let openai = force_tool(ProviderKind::OpenAi, r#"{"model":"m"}"#);
        assert!(openai.contains(
            r#""tool_choice":{"type":"function","function":{"name":"get_secret_word"}}"#
        ));
        let anthropic = force_tool(ProviderKind::Anthropic, r#"{"model":"m"}"#);
        assert!(anthropic.contains(r#""tool_choice":{"type":"tool","name":"get_secret_word"}"#));
    }

    #[test]
    fn windows_from_each_servers_answer() {
        assert_eq!(
            listing_window(r#"{"data":[{"id":"m","max_model_len":4096}]}"#, "m"),
            Some(4_096)
        );
        assert_eq!(listing_window(r#"{"data":[{"id":"m"}]}"#, "m"), None);
        assert_eq!(
            props_window(r#"{"default_generation_settings":{"n_ctx":8192}}"#),
            Some(8_192)
        );
        let ps =
            r#"{"models":[{"name":"qwen3:latest","model":"qwen3:latest","context_length":4096}]}"#;
        assert_eq!(ps_window(ps, "qwen3"), Some(4_096));
        assert_eq!(ps_window(ps, "llama3.1"), None);
        assert!(capabilities_lack_tools(
            r#"{"capabilities":["completion"]}"#
        ));
        assert!(!capabilities_lack_tools(
            r#"{"capabilities":["completion","tools"]}"#
        ));
        assert!(!capabilities_lack_tools("{}"));
    }

    #[test]
    fn the_picture_is_a_valid_png() {
        use base64::Engine as _;
        let png = base64::engine::general_purpose::STANDARD
            .decode(solid_png(IMAGE_COLOUR))
            .unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        // The IHDR chunk's CRC, as any decoder checks it.
        let crc = u32::from_be_bytes(png[29..33].try_into().unwrap());
        assert_eq!(crc, crc32(&png[12..29]));
        assert!(
            png.ends_with(&[0xAE, 0x42, 0x60, 0x82]),
            "IEND's well-known CRC"
        );
    }
}
