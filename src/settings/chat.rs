//! The chat's settings: the model profiles and the server each talks to.

use serde::Serialize;

use super::{
    DEFAULT_FIRST_TOKEN_TIMEOUT_MS, DEFAULT_MAX_TOOL_ROUNDS, DEFAULT_MODEL_TIMEOUT_MS,
    DEFAULT_THINKING_BUDGET, DEFAULT_TOOL_RESULT_CAP_CHARS,
};

/// Which kind of model server the chat talks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum ProviderKind {
    /// OpenAI Chat Completions and the servers that speak it (Ollama, LM Studio, OpenRouter…).
    OpenAi,
    Anthropic,
}

/// One model server: where it is, which model, and the name of the secret
/// that holds its API key (the key itself lives in Obsidian's secret storage).
/// A provider-specific setting is one more field here and one more line in
/// `Reader::provider`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ProviderSettings {
    pub base_url: String,
    pub model: String,
    pub api_key_secret: String,
    /// Tokens the model can read at once; 0: what the server is known to
    /// offer (`agent::budget::context_window`).
    pub context_window: u32,
    /// A reply that is nothing but a tool call written as text runs as one
    /// (`agent::text_calls`), for models and servers without tool calling.
    /// Off unless the user turns it on: every preset calls tools natively,
    /// and text in a note could otherwise pose as a call.
    pub text_tool_calls: bool,
    /// The profile's own standing instructions (a small model may need
    /// other words than a large one), after the instructions note's; at
    /// most `MAX_PROFILE_INSTRUCTIONS_CHARS` characters.
    pub instructions: String,
    /// Whether the model reads images ("Model accepts images"): `None` asks
    /// the server where it tells (Ollama's capabilities; a Claude model),
    /// else no (`doors::chat::images::accepted`).
    pub images: Option<bool>,
    /// Anthropic only: an attached PDF goes as a `document` block (Claude
    /// reads its pages, scans included) instead of its text. Off: the text
    /// PDF.js reads, page by page (`doors::chat::pdf`).
    pub pdf_documents: bool,
}

impl ProviderSettings {
    /// Where a new profile of this kind starts.
    pub fn defaults(kind: ProviderKind) -> ProviderSettings {
        match kind {
            ProviderKind::OpenAi => ProviderSettings {
                base_url: "http://localhost:11434/v1".into(),
                model: "llama3.1".into(),
                api_key_secret: String::new(),
                context_window: 0,
                text_tool_calls: false,
                instructions: String::new(),
                images: None,
                pdf_documents: false,
            },
            ProviderKind::Anthropic => ProviderSettings {
                base_url: "https://api.anthropic.com".into(),
                model: "claude-sonnet-4-5".into(),
                api_key_secret: String::new(),
                context_window: 0,
                text_tool_calls: false,
                instructions: String::new(),
                images: None,
                pdf_documents: false,
            },
        }
    }
}

/// A saved model setup the user switches between (settings tab, chat header).
/// Stored flat: `{ id, name, provider, baseUrl, model, apiKeySecret, contextWindow,
/// textToolCalls, instructions, images, pdfDocuments }`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ModelProfile {
    /// Stable, lowercase letters, digits and dashes; never shown.
    pub id: String,
    pub name: String,
    pub provider: ProviderKind,
    #[serde(flatten)]
    pub server: ProviderSettings,
    /// What "Check this model" found the last time it ran on this profile
    /// (`doors::chat::check_verdict`); `None`: never checked.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub last_check: Option<ModelCheckRecord>,
}

/// The most probe names and advice characters a kept check holds (a
/// hand-edited data.json cannot make it grow).
const MAX_CHECK_NAMES: usize = 20;
const MAX_CHECK_ADVICE_CHARS: usize = 1_000;

/// A model check as the profile keeps it: when, which model, which probes
/// passed and failed, whether the model's tool calls work with the profile
/// as it was, and the advice given.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ModelCheckRecord {
    pub at_ms: f64,
    pub model: String,
    pub passed: Vec<String>,
    pub failed: Vec<String>,
    /// Tool calls worked, natively or written as text with the switch on.
    pub tools: bool,
    pub advice: String,
}

impl ModelCheckRecord {
    /// Read leniently from data.json: anything that is not a whole record
    /// is no record (the profile then reads as never checked).
    pub fn from_value(value: &serde_json::Value) -> Option<ModelCheckRecord> {
        let at_ms = value
            .get("atMs")?
            .as_f64()
            .filter(|n| n.is_finite() && *n >= 0.0)?;
        let model = value.get("model")?.as_str()?.to_string();
        let names = |key: &str| -> Option<Vec<String>> {
            let list = value.get(key)?.as_array()?;
            Some(
                list.iter()
                    .filter_map(|v| v.as_str())
                    .take(MAX_CHECK_NAMES)
                    .map(|s| s.chars().take(40).collect())
                    .collect(),
            )
        };
        Some(ModelCheckRecord {
            at_ms,
            model,
            passed: names("passed")?,
            failed: names("failed")?,
            tools: value.get("tools")?.as_bool()?,
            advice: value
                .get("advice")
                .and_then(|v| v.as_str())
                .unwrap_or("")
                .chars()
                .take(MAX_CHECK_ADVICE_CHARS)
                .collect(),
        })
    }
}

impl ModelProfile {
    /// The first profile of a fresh install: Ollama on this computer.
    pub fn first() -> ModelProfile {
        let server = ProviderSettings::defaults(ProviderKind::OpenAi);
        ModelProfile {
            id: "profile-1".into(),
            name: profile_name(ProviderKind::OpenAi, &server),
            provider: ProviderKind::OpenAi,
            server,
            last_check: None,
        }
    }

    /// The preset whose server this profile uses, if any (the settings tab
    /// shows it as the provider in use).
    pub fn preset(&self) -> Option<&'static crate::settings::presets::ProviderPreset> {
        crate::settings::presets::preset_for(self.provider, &self.server.base_url)
    }
}

/// A name for a profile nobody named: its preset's, or its server's host.
pub fn profile_name(kind: ProviderKind, server: &ProviderSettings) -> String {
    match crate::settings::presets::preset_for(kind, &server.base_url) {
        Some(preset) => preset.label.to_string(),
        None => host_of(&server.base_url),
    }
}

/// `localhost:11434` of `http://localhost:11434/v1`, read as every
/// connection reads it; an address that cannot be read is shown as written.
pub fn host_of(url: &str) -> String {
    crate::base::address::destination(url)
        .map_or_else(|_| url.trim().to_string(), |found| found.shown)
}

/// The chat agent's settings: the saved model profiles, the one in use, and
/// limits that hold for every profile.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ChatSettings {
    /// The `id` of the profile the chat uses.
    pub active_profile: String,
    /// Never empty once normalised.
    pub profiles: Vec<ModelProfile>,
    pub max_tool_rounds: u32,
    pub tool_result_cap_chars: u32,
    /// The silence allowed between two pieces of an answer once it started.
    pub model_timeout_ms: u32,
    /// The wait for the answer's first token (headers and first byte).
    pub first_token_timeout_ms: u32,
    /// Anthropic extended thinking, and the tokens it may think with.
    pub anthropic_thinking: bool,
    pub anthropic_thinking_budget: u32,
    /// A note whose text the model is given in every chat as the user's
    /// standing instructions (`doors::chat::instructions`); empty: none.
    pub instructions_note: String,
    /// A folder whose notes are the user's saved prompts
    /// (`doors::chat::saved_prompts`); empty: none.
    pub prompts_folder: String,
    /// Saved prompts (their paths) that get a command in the palette.
    pub prompt_commands: Vec<String>,
    /// A folder whose subfolders holding a `SKILL.md` are Agent Skills
    /// (`engine::skills`); empty: none.
    pub skills_folder: String,
    /// Memory you can read (`doors::chat::memory`): what the agent keeps
    /// about the user and the vault, one fact a line in the notes of
    /// `memory_folder`. Off until the user turns it on: it writes notes and
    /// sends them in every request.
    pub memory: bool,
    /// The folder of the memory notes.
    pub memory_folder: String,
}

/// Where memory is kept unless the user chose another folder.
pub const DEFAULT_MEMORY_FOLDER: &str = "Agent memory";

impl Default for ChatSettings {
    fn default() -> Self {
        let first = ModelProfile::first();
        ChatSettings {
            active_profile: first.id.clone(),
            profiles: vec![first],
            max_tool_rounds: DEFAULT_MAX_TOOL_ROUNDS,
            tool_result_cap_chars: DEFAULT_TOOL_RESULT_CAP_CHARS,
            model_timeout_ms: DEFAULT_MODEL_TIMEOUT_MS,
            first_token_timeout_ms: DEFAULT_FIRST_TOKEN_TIMEOUT_MS,
            anthropic_thinking: false,
            anthropic_thinking_budget: DEFAULT_THINKING_BUDGET,
            instructions_note: String::new(),
            prompts_folder: String::new(),
            prompt_commands: Vec::new(),
            skills_folder: String::new(),
            memory: false,
            memory_folder: DEFAULT_MEMORY_FOLDER.to_string(),
        }
    }
}

static FALLBACK_PROFILE: std::sync::LazyLock<ModelProfile> =
    std::sync::LazyLock::new(ModelProfile::first);

impl ChatSettings {
    /// The profile in use: the one `active_profile` names, else the first.
    pub fn profile(&self) -> &ModelProfile {
        self.profiles
            .iter()
            .find(|p| p.id == self.active_profile)
            .or_else(|| self.profiles.first())
            .unwrap_or(&FALLBACK_PROFILE)
    }

    /// The server of the profile in use.
    pub fn active(&self) -> &ProviderSettings {
        &self.profile().server
    }

    /// The kind of server the profile in use talks to.
    pub fn provider(&self) -> ProviderKind {
        self.profile().provider
    }
}
