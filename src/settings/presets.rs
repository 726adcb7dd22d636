//! Starting points for the settings tab's provider choice.

use serde::Serialize;

use super::ProviderKind;

/// A starting point for the settings tab's provider choice.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ProviderPreset {
    pub id: &'static str,
    pub label: &'static str,
    pub kind: ProviderKind,
    pub base_url: &'static str,
    pub model: &'static str,
    pub needs_key: bool,
}

pub const PRESETS: &[ProviderPreset] = &[
    ProviderPreset {
        id: "ollama",
        label: "Ollama (local)",
        kind: ProviderKind::OpenAi,
        base_url: "http://localhost:11434/v1",
        model: "llama3.1",
        needs_key: false,
    },
    ProviderPreset {
        id: "lmstudio",
        label: "LM Studio (local)",
        kind: ProviderKind::OpenAi,
        base_url: "http://localhost:1234/v1",
        model: "qwen2.5-7b-instruct",
        needs_key: false,
    },
    ProviderPreset {
        id: "openai",
        label: "OpenAI",
        kind: ProviderKind::OpenAi,
        base_url: "https://api.openai.com/v1",
        model: "gpt-4.1-mini",
        needs_key: true,
    },
    ProviderPreset {
        id: "openrouter",
        label: "OpenRouter",
        kind: ProviderKind::OpenAi,
        base_url: "https://openrouter.ai/api/v1",
        model: "openai/gpt-4.1-mini",
        needs_key: true,
    },
    ProviderPreset {
        id: "anthropic",
        label: "Anthropic",
        kind: ProviderKind::Anthropic,
        base_url: "https://api.anthropic.com",
        model: "claude-sonnet-4-5",
        needs_key: true,
    },
];

/// The preset whose server `base_url` is (case and a final `/` aside).
pub fn preset_for(kind: ProviderKind, base_url: &str) -> Option<&'static ProviderPreset> {
    let url = base_url.trim().trim_end_matches('/');
    PRESETS
        .iter()
        .find(|p| p.kind == kind && p.base_url.eq_ignore_ascii_case(url))
}
