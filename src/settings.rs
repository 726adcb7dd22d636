//! The plugin's settings and how a stored `data.json` becomes safe settings.
//!
//! `data.json` may come from an older version, be edited by hand, or be
//! corrupted: every field is read on its own, wrong types fall back to the
//! default, numbers are clamped into range and unknown keys are dropped. The
//! notes say what was repaired, so the shim can log it.

mod profiles;

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::base::input::Lenient;

pub use self::profiles::{ProfileEdit, ProfileSummary};

pub const DEFAULT_TIMEOUT_MS: u32 = 15_000;
pub const TIMEOUT_RANGE_MS: (u32, u32) = (1_000, 120_000);
pub const DEFAULT_OUTPUT_CAP_BYTES: u32 = 1024 * 1024;
pub const OUTPUT_CAP_RANGE_BYTES: (u32, u32) = (4 * 1024, 16 * 1024 * 1024);
/// CLI processes at once; more calls wait in order.
pub const DEFAULT_MAX_PROCESSES: u32 = 4;
pub const MAX_PROCESSES_RANGE: (u32, u32) = (1, 16);
pub const DEFAULT_CONFIRMATION_EXPIRY_MS: u32 = 5 * 60 * 1000;
pub const CONFIRMATION_EXPIRY_RANGE_MS: (u32, u32) = (10_000, 60 * 60 * 1000);
pub const DEFAULT_MAX_TOOL_ROUNDS: u32 = 10;
pub const MAX_TOOL_ROUNDS_RANGE: (u32, u32) = (1, 50);
pub const DEFAULT_TOOL_RESULT_CAP_CHARS: u32 = 16_000;
pub const TOOL_RESULT_CAP_RANGE_CHARS: (u32, u32) = (1_000, 200_000);
pub const DEFAULT_MODEL_TIMEOUT_MS: u32 = 60_000;
pub const MODEL_TIMEOUT_RANGE_MS: (u32, u32) = (5_000, 600_000);
/// Longer profile names are cut.
pub const MAX_PROFILE_NAME_CHARS: usize = 80;
/// Tokens; 0 means "as the server is known to offer".
pub const CONTEXT_WINDOW_RANGE: (u32, u32) = (0, 2_000_000);
pub const DEFAULT_READ_CACHE_SECONDS: u32 = 60;
/// 0 turns the read cache off.
pub const READ_CACHE_RANGE_SECONDS: (u32, u32) = (0, 3_600);
pub const DEFAULT_MCP_PORT: u32 = 27_125;
/// Ports a plugin may listen on without privileges.
pub const MCP_PORT_RANGE: (u32, u32) = (1_024, 65_535);
/// Anthropic's smallest thinking budget is 1 024 tokens.
pub const THINKING_BUDGET_RANGE: (u32, u32) = (1_024, 64_000);
pub const DEFAULT_THINKING_BUDGET: u32 = 4_096;

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
            },
            ProviderKind::Anthropic => ProviderSettings {
                base_url: "https://api.anthropic.com".into(),
                model: "claude-sonnet-4-5".into(),
                api_key_secret: String::new(),
                context_window: 0,
                text_tool_calls: false,
            },
        }
    }
}

/// A saved model setup the user switches between (settings tab, chat header).
/// Stored flat: `{ id, name, provider, baseUrl, model, apiKeySecret, contextWindow,
/// textToolCalls }`.
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
        }
    }

    /// The preset whose server this profile uses, if any (the settings tab
    /// shows it as the provider in use).
    pub fn preset(&self) -> Option<&'static crate::agent::provider::ProviderPreset> {
        crate::agent::provider::preset_for(self.provider, &self.server.base_url)
    }
}

/// A name for a profile nobody named: its preset's, or its server's host.
pub fn profile_name(kind: ProviderKind, server: &ProviderSettings) -> String {
    match crate::agent::provider::preset_for(kind, &server.base_url) {
        Some(preset) => preset.label.to_string(),
        None => host_of(&server.base_url).to_string(),
    }
}

/// `localhost:11434` of `http://localhost:11434/v1`.
pub fn host_of(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    rest.split('/').next().unwrap_or(rest)
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
    pub model_timeout_ms: u32,
    /// Anthropic extended thinking, and the tokens it may think with.
    pub anthropic_thinking: bool,
    pub anthropic_thinking_budget: u32,
}

impl Default for ChatSettings {
    fn default() -> Self {
        let first = ModelProfile::first();
        ChatSettings {
            active_profile: first.id.clone(),
            profiles: vec![first],
            max_tool_rounds: DEFAULT_MAX_TOOL_ROUNDS,
            tool_result_cap_chars: DEFAULT_TOOL_RESULT_CAP_CHARS,
            model_timeout_ms: DEFAULT_MODEL_TIMEOUT_MS,
            anthropic_thinking: false,
            anthropic_thinking_budget: DEFAULT_THINKING_BUDGET,
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

/// What the agent may do to the vault. Only the user changes it (the settings
/// tab and the chat header); no tool argument and no API call can.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum PermissionMode {
    /// Every change is refused before any process starts.
    #[default]
    ReadOnly,
    /// Every change waits for the user's click on a card.
    AskEveryChange,
    /// Additions (create, append, prepend, bookmarks, base items) run at once;
    /// edits of what is there (properties, tasks) wait for a card.
    AskBeforeEdits,
}

impl PermissionMode {
    /// The stored spelling (`permissionMode` in data.json).
    pub fn key(self) -> &'static str {
        match self {
            PermissionMode::ReadOnly => "readOnly",
            PermissionMode::AskEveryChange => "askEveryChange",
            PermissionMode::AskBeforeEdits => "askBeforeEdits",
        }
    }

    /// The name the user sees in the settings tab and the chat header.
    pub fn label(self) -> &'static str {
        match self {
            PermissionMode::ReadOnly => "Read only",
            PermissionMode::AskEveryChange => "Ask before every change",
            PermissionMode::AskBeforeEdits => "Ask before edits",
        }
    }

    pub const ALL: [PermissionMode; 3] = [
        PermissionMode::ReadOnly,
        PermissionMode::AskEveryChange,
        PermissionMode::AskBeforeEdits,
    ];

    pub fn from_key(key: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|mode| mode.key() == key)
    }

    /// How much a mode lets through without a card: Read only lets nothing
    /// change, Ask before every change lets changes through only on a card,
    /// Ask before edits lets additions run at once.
    fn reach(self) -> u8 {
        match self {
            PermissionMode::ReadOnly => 0,
            PermissionMode::AskEveryChange => 1,
            PermissionMode::AskBeforeEdits => 2,
        }
    }

    /// This mode, or `cap` if that one is stricter: a door may narrow what
    /// the user allowed, never widen it.
    pub fn at_most(self, cap: PermissionMode) -> PermissionMode {
        if cap.reach() < self.reach() {
            cap
        } else {
            self
        }
    }
}

/// Everything the user can set. The model can never change any of it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "VaultAgentSettings"))]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    /// Path to the CLI binary; empty means "discover it".
    pub cli_path: String,
    /// `vault=<name>` for every call; empty means the vault that is open.
    pub vault_name: String,
    pub timeout_ms: u32,
    pub output_cap_bytes: u32,
    /// CLI processes at once.
    pub max_processes: u32,
    /// "Vault changes": Read only until the user picks another mode.
    pub permission_mode: PermissionMode,
    pub confirmation_expiry_ms: u32,
    /// How long a read's answer may be reused when nothing changed (0: never).
    pub read_cache_seconds: u32,
    /// Folders the agent may read (paths from the vault root, normalised);
    /// empty means the whole vault.
    pub read_folders: Vec<String>,
    /// Folders the agent may change, once the mode allows changes; empty
    /// means the whole vault. A change also needs its place to be readable.
    pub write_folders: Vec<String>,
    /// Per-tool switches by tool id; a tool not listed is enabled.
    pub tools: BTreeMap<String, bool>,
    pub chat: ChatSettings,
    /// The MCP server for agents outside Obsidian (off until the user turns it on).
    pub mcp: McpSettings,
    /// Set for one call by the door it came through (never stored): tags the
    /// call's CLI processes so a cancelled MCP request stops exactly those.
    #[serde(skip)]
    pub process_tag: Option<String>,
    /// Set for one call by the chat when the model wrote the call as text
    /// (never stored): a change it asks for always waits for a card.
    #[serde(skip)]
    pub written_as_text: bool,
    /// Set for one call by the door it came through (never stored): where
    /// the user sets the mode this call runs under, which a refusal names.
    #[serde(skip)]
    #[cfg_attr(test, ts(skip))]
    pub mode_setting: ModeSetting,
}

/// Which setting holds the permission mode a call runs under.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ModeSetting {
    /// The chat's "Vault changes" (also the mode of the plugin's CLI
    /// commands and of coding agents in the chat).
    #[default]
    Chat,
    /// The MCP server's own "What MCP clients may change".
    Mcp,
}

impl ModeSetting {
    /// The setting's name, as a refusal starts: `… "Read only"`.
    pub fn lead(self) -> &'static str {
        match self {
            ModeSetting::Chat => "Vault changes are set to",
            ModeSetting::Mcp => "\"What MCP clients may change\" is set to",
        }
    }

    /// Where the user changes it.
    pub fn place(self) -> &'static str {
        match self {
            ModeSetting::Chat => {
                "in the chat header or in Settings → Vault Agent → Safety → Vault changes"
            }
            ModeSetting::Mcp => {
                "in Settings → Vault Agent → Agents → \"What MCP clients may change\""
            }
        }
    }
}

/// The MCP server's own switches: its permission mode is separate from the
/// chat's, and Read only until the user picks another.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct McpSettings {
    pub enabled: bool,
    pub port: u32,
    pub permission_mode: PermissionMode,
}

impl Default for McpSettings {
    fn default() -> Self {
        McpSettings {
            enabled: false,
            port: DEFAULT_MCP_PORT,
            permission_mode: PermissionMode::ReadOnly,
        }
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            cli_path: String::new(),
            vault_name: String::new(),
            timeout_ms: DEFAULT_TIMEOUT_MS,
            output_cap_bytes: DEFAULT_OUTPUT_CAP_BYTES,
            max_processes: DEFAULT_MAX_PROCESSES,
            permission_mode: PermissionMode::ReadOnly,
            confirmation_expiry_ms: DEFAULT_CONFIRMATION_EXPIRY_MS,
            read_cache_seconds: DEFAULT_READ_CACHE_SECONDS,
            read_folders: Vec::new(),
            write_folders: Vec::new(),
            tools: BTreeMap::new(),
            chat: ChatSettings::default(),
            mcp: McpSettings::default(),
            process_tag: None,
            written_as_text: false,
            mode_setting: ModeSetting::Chat,
        }
    }
}

impl Settings {
    pub fn tool_enabled(&self, tool_id: &str) -> bool {
        self.tools.get(tool_id).copied().unwrap_or(true)
    }

    pub fn vault(&self) -> Option<&str> {
        let name = self.vault_name.trim();
        (!name.is_empty()).then_some(name)
    }

    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).expect("settings serialize to JSON")
    }
}

/// Settings read from stored data, with what had to be repaired.
#[derive(Clone, Debug, PartialEq)]
pub struct NormalisedSettings {
    pub settings: Settings,
    pub repairs: Vec<String>,
}

/// What the bounded reader made of `data.json`, normalised. Stored settings
/// that could not be read at all (too large, not JSON) get the defaults, and
/// folder lists that reach nothing: an unreadable scope is no scope at all,
/// never the whole vault that nothing stored (a first run) means.
pub fn normalise_loaded(stored: &Lenient, known_tools: &[&str]) -> NormalisedSettings {
    if !stored.unreadable {
        return normalise(&stored.value, known_tools);
    }
    let mut normalised = normalise(&Value::Null, known_tools);
    close_scopes(&mut normalised, "stored settings could not be read");
    normalised
}

/// Both folder lists reach nothing until the user sets them again.
fn close_scopes(normalised: &mut NormalisedSettings, why: &str) {
    normalised.settings.read_folders = vec![crate::policy::scope::NO_FOLDER.to_string()];
    normalised.settings.write_folders = vec![crate::policy::scope::NO_FOLDER.to_string()];
    normalised.repairs.push(format!(
        "the {why}, so the agent may reach no folder until the folder lists are set again (Settings → Vault Agent → Safety)"
    ));
}

/// Reads stored data leniently. `known_tools` limits the per-tool switches to
/// tools that exist (old ids are dropped).
pub fn normalise(stored: &Value, known_tools: &[&str]) -> NormalisedSettings {
    let defaults = Settings::default();
    let mut repairs = Vec::new();
    let empty = Map::new();
    let object = match stored {
        Value::Object(map) => map,
        Value::Null => &empty,
        other => {
            let mut closed = normalise(&Value::Null, known_tools);
            closed.repairs.push(format!(
                "stored settings were {}, not an object; using defaults",
                type_name(other)
            ));
            close_scopes(&mut closed, "stored settings were not an object");
            return closed;
        }
    };
    let mut reader = Reader {
        object,
        repairs: &mut repairs,
    };
    let settings = Settings {
        cli_path: reader.string("cliPath", &defaults.cli_path),
        vault_name: reader.string("vaultName", &defaults.vault_name),
        timeout_ms: reader.number("timeoutMs", defaults.timeout_ms, TIMEOUT_RANGE_MS),
        output_cap_bytes: reader.number(
            "outputCapBytes",
            defaults.output_cap_bytes,
            OUTPUT_CAP_RANGE_BYTES,
        ),
        max_processes: reader.number("maxProcesses", defaults.max_processes, MAX_PROCESSES_RANGE),
        permission_mode: reader.permission_mode(),
        confirmation_expiry_ms: reader.number(
            "confirmationExpiryMs",
            defaults.confirmation_expiry_ms,
            CONFIRMATION_EXPIRY_RANGE_MS,
        ),
        read_cache_seconds: reader.number(
            "readCacheSeconds",
            defaults.read_cache_seconds,
            READ_CACHE_RANGE_SECONDS,
        ),
        read_folders: reader.folders("readFolders"),
        write_folders: reader.folders("writeFolders"),
        tools: reader.tool_switches("tools", known_tools),
        chat: reader.chat("chat"),
        mcp: reader.section("mcp", |r| McpSettings {
            enabled: r.boolean("enabled", false),
            port: r.number("port", DEFAULT_MCP_PORT, MCP_PORT_RANGE),
            // Its own mode: an MCP section never inherits the chat's.
            permission_mode: r.permission_mode(),
        }),
        process_tag: None,
        written_as_text: false,
        mode_setting: ModeSetting::Chat,
    };
    let known_keys = [
        "cliPath",
        "vaultName",
        "timeoutMs",
        "outputCapBytes",
        "maxProcesses",
        "permissionMode",
        // Read only as the migration input of `permissionMode`; never saved.
        "allowVaultChanges",
        "confirmationExpiryMs",
        "readCacheSeconds",
        "readFolders",
        "writeFolders",
        "tools",
        "chat",
        "mcp",
    ];
    for key in object.keys() {
        if !known_keys.contains(&key.as_str()) && !is_foreign_section(key) {
            repairs.push(format!("dropped unknown setting `{key}`"));
        }
    }
    NormalisedSettings { settings, repairs }
}

/// Keys of `data.json` that belong to other parts of the plugin (kept as they are
/// by the shim, not settings of the tool system).
fn is_foreign_section(key: &str) -> bool {
    // `acpAgents`: the coding agents' commands (plugin-shim/acp/profiles.ts).
    matches!(key, "lastConversation" | "acpAgents")
}

struct Reader<'a> {
    object: &'a Map<String, Value>,
    repairs: &'a mut Vec<String>,
}

impl Reader<'_> {
    /// A nested section, read with its own reader; repairs name the path.
    fn section<T>(&mut self, key: &str, read: impl FnOnce(&mut Reader) -> T) -> T {
        let empty = Map::new();
        let object = match self.object.get(key) {
            Some(Value::Object(map)) => map,
            None | Some(Value::Null) => &empty,
            Some(other) => {
                self.repairs.push(format!(
                    "`{key}` was {}, not an object; using defaults",
                    type_name(other)
                ));
                &empty
            }
        };
        let mut inner = Vec::new();
        let value = read(&mut Reader {
            object,
            repairs: &mut inner,
        });
        self.repairs
            .extend(inner.into_iter().map(|r| format!("{key}: {r}")));
        value
    }

    fn chat(&mut self, key: &str) -> ChatSettings {
        let defaults = ChatSettings::default();
        self.section(key, |r| {
            let (profiles, active_profile) = if r.object.contains_key("profiles") {
                r.profiles()
            } else {
                r.profiles_of_single_server()
            };
            ChatSettings {
                active_profile,
                profiles,
                max_tool_rounds: r.number(
                    "maxToolRounds",
                    defaults.max_tool_rounds,
                    MAX_TOOL_ROUNDS_RANGE,
                ),
                tool_result_cap_chars: r.number(
                    "toolResultCapChars",
                    defaults.tool_result_cap_chars,
                    TOOL_RESULT_CAP_RANGE_CHARS,
                ),
                model_timeout_ms: r.number(
                    "modelTimeoutMs",
                    defaults.model_timeout_ms,
                    MODEL_TIMEOUT_RANGE_MS,
                ),
                anthropic_thinking: r.boolean("anthropicThinking", false),
                anthropic_thinking_budget: r.number(
                    "anthropicThinkingBudget",
                    DEFAULT_THINKING_BUDGET,
                    THINKING_BUDGET_RANGE,
                ),
            }
        })
    }

    fn provider_kind(&mut self) -> ProviderKind {
        match self.string("provider", "openAi").as_str() {
            "anthropic" => ProviderKind::Anthropic,
            "openAi" => ProviderKind::OpenAi,
            other => {
                self.repairs
                    .push(format!("`provider` was {other:?}; using openAi"));
                ProviderKind::OpenAi
            }
        }
    }

    /// Migration: a data.json from before profiles held one server per kind
    /// (`openai`, `anthropic`) and `provider` picking one. The one in use
    /// becomes the first profile, in use; the other is kept as a second
    /// profile only if the user had changed it from its defaults.
    fn profiles_of_single_server(&mut self) -> (Vec<ModelProfile>, String) {
        let in_use = self.provider_kind();
        let mut openai = Some(self.section("openai", |p| {
            p.provider(&ProviderSettings::defaults(ProviderKind::OpenAi))
        }));
        let mut anthropic = Some(self.section("anthropic", |p| {
            p.provider(&ProviderSettings::defaults(ProviderKind::Anthropic))
        }));
        let mut take = |kind: ProviderKind| match kind {
            ProviderKind::OpenAi => openai.take(),
            ProviderKind::Anthropic => anthropic.take(),
        };
        let other = match in_use {
            ProviderKind::OpenAi => ProviderKind::Anthropic,
            ProviderKind::Anthropic => ProviderKind::OpenAi,
        };
        let mut profiles = Vec::new();
        for kind in [in_use, other] {
            let Some(server) = take(kind) else { continue };
            if kind == other && server == ProviderSettings::defaults(kind) {
                continue;
            }
            profiles.push(ModelProfile {
                id: format!("profile-{}", profiles.len() + 1),
                name: profile_name(kind, &server),
                provider: kind,
                server,
            });
        }
        let active = profiles[0].id.clone();
        (profiles, active)
    }

    /// `profiles` and `activeProfile`: every profile read on its own; ids
    /// made unique; never an empty list; the one in use always exists.
    fn profiles(&mut self) -> (Vec<ModelProfile>, String) {
        let items = match self.object.get("profiles") {
            Some(Value::Array(items)) => items.clone(),
            Some(other) => {
                self.repairs.push(format!(
                    "`profiles` was {}, not a list; using one default profile",
                    type_name(other)
                ));
                Vec::new()
            }
            None => Vec::new(),
        };
        let mut profiles: Vec<ModelProfile> = Vec::new();
        for (index, item) in items.iter().enumerate() {
            let Value::Object(map) = item else {
                self.repairs.push(format!(
                    "profile {} was {}, not an object; dropped",
                    index + 1,
                    type_name(item)
                ));
                continue;
            };
            let mut inner = Vec::new();
            let mut reader = Reader {
                object: map,
                repairs: &mut inner,
            };
            let mut profile = reader.profile();
            let taken = |id: &str| profiles.iter().any(|p: &ModelProfile| p.id == id);
            if !valid_profile_id(&profile.id) || taken(&profile.id) {
                if !profile.id.is_empty() {
                    inner.push(format!(
                        "`id` {:?} was not a unique profile id; a new one was given",
                        profile.id
                    ));
                }
                profile.id = fresh_profile_id(&profiles);
            }
            self.repairs.extend(
                inner
                    .into_iter()
                    .map(|r| format!("profile {:?}: {r}", profile.name)),
            );
            profiles.push(profile);
        }
        if profiles.is_empty() {
            if !items.is_empty() {
                self.repairs
                    .push("no profile could be read; using one default profile".into());
            }
            profiles.push(ModelProfile::first());
        }
        let wanted = self.string("activeProfile", "");
        let active = if profiles.iter().any(|p| p.id == wanted) {
            wanted
        } else {
            if !wanted.is_empty() {
                self.repairs.push(format!(
                    "`activeProfile` {wanted:?} names no profile; using {:?}",
                    profiles[0].name
                ));
            }
            profiles[0].id.clone()
        };
        (profiles, active)
    }

    fn profile(&mut self) -> ModelProfile {
        let provider = self.provider_kind();
        let server = self.provider(&ProviderSettings::defaults(provider));
        let mut name: String = self
            .string("name", "")
            .chars()
            .take(MAX_PROFILE_NAME_CHARS)
            .collect();
        if name.trim().is_empty() {
            name = profile_name(provider, &server);
        }
        ModelProfile {
            id: self.string("id", ""),
            name: name.trim().to_string(),
            provider,
            server,
        }
    }

    fn provider(&mut self, defaults: &ProviderSettings) -> ProviderSettings {
        let mut base_url = self.string("baseUrl", &defaults.base_url);
        let lower = base_url.to_ascii_lowercase();
        if !(lower.starts_with("http://") || lower.starts_with("https://")) {
            self.repairs.push(format!(
                "`baseUrl` {base_url:?} is not an http(s) address; using {}",
                defaults.base_url
            ));
            base_url = defaults.base_url.clone();
        }
        let secret = self.string("apiKeySecret", &defaults.api_key_secret);
        let secret_ok = secret
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        ProviderSettings {
            base_url: base_url.trim_end_matches('/').to_string(),
            model: self.string("model", &defaults.model),
            api_key_secret: if secret_ok {
                secret
            } else {
                self.repairs.push("`apiKeySecret` must be a secret name (lowercase letters, digits, dashes); cleared".into());
                String::new()
            },
            context_window: self.number("contextWindow", 0, CONTEXT_WINDOW_RANGE),
            // Absent in a data.json from before the switch: off.
            text_tool_calls: self.boolean("textToolCalls", defaults.text_tool_calls),
        }
    }

    fn string(&mut self, key: &str, default: &str) -> String {
        match self.object.get(key) {
            None | Some(Value::Null) => default.to_string(),
            Some(Value::String(s)) if s.chars().any(char::is_control) => {
                self.repairs
                    .push(format!("`{key}` contained control characters; cleared"));
                default.to_string()
            }
            Some(Value::String(s)) => s.trim().to_string(),
            Some(other) => {
                self.repairs.push(format!(
                    "`{key}` was {}, not text; using the default",
                    type_name(other)
                ));
                default.to_string()
            }
        }
    }

    fn number(&mut self, key: &str, default: u32, (min, max): (u32, u32)) -> u32 {
        match self.object.get(key) {
            None | Some(Value::Null) => default,
            Some(Value::Number(n)) => match n.as_f64() {
                Some(f) if f.is_finite() => {
                    let clamped = f.round().clamp(min as f64, max as f64) as u32;
                    if clamped as f64 != f {
                        self.repairs.push(format!(
                            "`{key}` was {f}; using {clamped} (allowed {min}–{max})"
                        ));
                    }
                    clamped
                }
                _ => default,
            },
            Some(other) => {
                self.repairs.push(format!(
                    "`{key}` was {}, not a number; using {default}",
                    type_name(other)
                ));
                default
            }
        }
    }

    /// `permissionMode`, or the mode that matches an older data.json's
    /// `allowVaultChanges` switch: on meant additions at once and property or
    /// task changes asked (Ask before edits); off meant Read only. Nothing
    /// but an exact value turns changes on.
    fn permission_mode(&mut self) -> PermissionMode {
        let default = PermissionMode::default();
        match self.object.get("permissionMode") {
            None | Some(Value::Null) => {}
            Some(Value::String(key)) => {
                return PermissionMode::from_key(key).unwrap_or_else(|| {
                    self.repairs.push(format!(
                        "`permissionMode` was {key:?}, not readOnly, askEveryChange or askBeforeEdits; using {}",
                        default.key()
                    ));
                    default
                })
            }
            Some(other) => {
                self.repairs.push(format!(
                    "`permissionMode` was {}, not text; using {}",
                    type_name(other),
                    default.key()
                ));
                return default;
            }
        }
        if self.boolean("allowVaultChanges", false) {
            PermissionMode::AskBeforeEdits
        } else {
            default
        }
    }

    fn boolean(&mut self, key: &str, default: bool) -> bool {
        match self.object.get(key) {
            None | Some(Value::Null) => default,
            Some(Value::Bool(b)) => *b,
            Some(other) => {
                // Never read "yes"/1 as consent: a wrong type is the default.
                self.repairs.push(format!(
                    "`{key}` was {}, not true/false; using {default}",
                    type_name(other)
                ));
                default
            }
        }
    }

    /// A folder scope: a list of folders from the vault root, each normalised
    /// as the policy normalises a `folder` argument. A folder that could not
    /// name anything in the vault is dropped and said so; dropping it narrows
    /// nothing by accident, because an empty list would mean the whole vault:
    /// if every entry was bad, the scope becomes a folder that cannot exist.
    fn folders(&mut self, key: &str) -> Vec<String> {
        let items = match self.object.get(key) {
            None => return Vec::new(),
            // Only the bounded reader stores `null` (for a list too large or
            // too long to keep); the settings never do.
            Some(Value::Null) => {
                self.repairs.push(format!(
                    "`{key}` could not be read (too large or too deep); the agent may reach no folder until it is set again"
                ));
                return vec![crate::policy::scope::NO_FOLDER.to_string()];
            }
            Some(Value::Array(items)) => items,
            Some(other) => {
                self.repairs.push(format!(
                    "`{key}` was {}, not a list of folders; the agent may reach no folder until it is set again",
                    type_name(other)
                ));
                return vec![crate::policy::scope::NO_FOLDER.to_string()];
            }
        };
        let mut folders: Vec<String> = Vec::new();
        for item in items {
            let folder = match item {
                Value::String(text) => crate::base::vault_path::normalised(
                    key,
                    text,
                    crate::base::vault_path::PathKind::Folder,
                ),
                other => Err(format!("`{key}` held {}, not a folder", type_name(other))),
            };
            match folder {
                Ok(folder) if !folders.contains(&folder) => folders.push(folder),
                Ok(_) => {}
                Err(problem) => self.repairs.push(format!("dropped a folder: {problem}")),
            }
        }
        if folders.is_empty() && !items.is_empty() {
            self.repairs.push(format!(
                "no folder in `{key}` could be used; the agent may reach no folder until it is set again"
            ));
            folders.push(crate::policy::scope::NO_FOLDER.to_string());
        }
        folders
    }

    fn tool_switches(&mut self, key: &str, known_tools: &[&str]) -> BTreeMap<String, bool> {
        let mut out = BTreeMap::new();
        match self.object.get(key) {
            None | Some(Value::Null) => {}
            Some(Value::Object(map)) => {
                for (id, value) in map {
                    match value {
                        Value::Bool(b) if known_tools.contains(&id.as_str()) => {
                            out.insert(id.clone(), *b);
                        }
                        Value::Bool(_) => self
                            .repairs
                            .push(format!("dropped the switch of unknown tool `{id}`")),
                        other => self.repairs.push(format!(
                            "the switch of `{id}` was {}, not true/false; left enabled",
                            type_name(other)
                        )),
                    }
                }
            }
            Some(other) => self.repairs.push(format!(
                "`{key}` was {}, not an object; all tools enabled",
                type_name(other)
            )),
        }
        out
    }
}

/// A profile id: 1 to 40 lowercase letters, digits and dashes.
fn valid_profile_id(id: &str) -> bool {
    (1..=40).contains(&id.len())
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// `profile-N` with the smallest N not taken.
fn fresh_profile_id(profiles: &[ModelProfile]) -> String {
    (1..)
        .map(|n| format!("profile-{n}"))
        .find(|id| profiles.iter().all(|p| &p.id != id))
        .expect("an unused number")
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "true/false",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const TOOLS: &[&str] = &["obsidianDailyNote", "obsidianRandomRead"];

    #[test]
    fn missing_data_gives_defaults_without_repairs() {
        let n = normalise(&Value::Null, TOOLS);
        assert_eq!(n.settings, Settings::default());
        assert!(n.repairs.is_empty());
        assert_eq!(n.settings.permission_mode, PermissionMode::ReadOnly);
    }

    #[test]
    fn anthropic_thinking_is_off_by_default_and_its_budget_stays_in_range() {
        let chat = normalise(&Value::Null, TOOLS).settings.chat;
        assert_eq!(
            (chat.anthropic_thinking, chat.anthropic_thinking_budget),
            (false, DEFAULT_THINKING_BUDGET)
        );
        let stored = json!({"chat": {"anthropicThinking": true, "anthropicThinkingBudget": 8000}});
        let n = normalise(&stored, TOOLS);
        assert!(n.repairs.is_empty(), "{:?}", n.repairs);
        assert!(n.settings.chat.anthropic_thinking);
        assert_eq!(n.settings.chat.anthropic_thinking_budget, 8000);
        // Anthropic refuses a budget under 1 024; "yes" is not consent.
        let stored = json!({"chat": {"anthropicThinking": "yes", "anthropicThinkingBudget": 10}});
        let n = normalise(&stored, TOOLS);
        assert!(!n.settings.chat.anthropic_thinking);
        assert_eq!(n.settings.chat.anthropic_thinking_budget, 1_024);
        assert_eq!(n.repairs.len(), 2, "{:?}", n.repairs);
    }

    #[test]
    fn good_values_are_kept() {
        let stored = json!({
            "cliPath": " /opt/obsidian-cli ", "vaultName": "Work", "timeoutMs": 3000,
            "outputCapBytes": 65536, "permissionMode": "askEveryChange",
            "confirmationExpiryMs": 60000, "tools": {"obsidianRandomRead": false}
        });
        let n = normalise(&stored, TOOLS);
        assert!(n.repairs.is_empty(), "{:?}", n.repairs);
        let s = n.settings;
        assert_eq!(s.cli_path, "/opt/obsidian-cli");
        assert_eq!(s.vault(), Some("Work"));
        assert_eq!((s.timeout_ms, s.output_cap_bytes), (3000, 65536));
        assert_eq!(s.permission_mode, PermissionMode::AskEveryChange);
        assert!(!s.tool_enabled("obsidianRandomRead"));
        assert!(s.tool_enabled("obsidianDailyNote"));
    }

    #[test]
    fn wrong_types_out_of_range_and_unknown_keys_are_repaired() {
        let stored = json!({
            "cliPath": 42, "timeoutMs": -5, "outputCapBytes": 1e12,
            "allowVaultChanges": "yes", "confirmationExpiryMs": "soon",
            "tools": {"obsidianDailyNote": "off", "oldTool": false},
            "legacyOption": 1, "vaultName": "bad\u{0}name"
        });
        let n = normalise(&stored, TOOLS);
        let s = &n.settings;
        assert_eq!(s.cli_path, "");
        assert_eq!(s.vault_name, "");
        assert_eq!(s.timeout_ms, TIMEOUT_RANGE_MS.0);
        assert_eq!(s.output_cap_bytes, OUTPUT_CAP_RANGE_BYTES.1);
        assert_eq!(
            s.permission_mode,
            PermissionMode::ReadOnly,
            "a string must never turn writes on"
        );
        assert_eq!(s.confirmation_expiry_ms, DEFAULT_CONFIRMATION_EXPIRY_MS);
        assert!(s.tools.is_empty());
        assert_eq!(n.repairs.len(), 9, "{:#?}", n.repairs);
        assert!(n.repairs.iter().any(|r| r.contains("legacyOption")));
    }

    #[test]
    fn an_older_allow_vault_changes_switch_becomes_a_mode() {
        let mode = |stored: Value| {
            let n = normalise(&stored, TOOLS);
            (n.settings.permission_mode, n.repairs.len())
        };
        // On was: additions at once, property and task changes asked.
        assert_eq!(
            mode(json!({"allowVaultChanges": true})),
            (PermissionMode::AskBeforeEdits, 0)
        );
        assert_eq!(
            mode(json!({"allowVaultChanges": false})),
            (PermissionMode::ReadOnly, 0)
        );
        assert_eq!(mode(json!({})), (PermissionMode::ReadOnly, 0));
        // A wrong type never turns changes on, and says so.
        for wrong in [json!("yes"), json!(1), json!("true"), json!([true])] {
            assert_eq!(
                mode(json!({ "allowVaultChanges": wrong })),
                (PermissionMode::ReadOnly, 1),
                "{wrong}"
            );
        }
        // A stored mode wins over the old switch, in both directions.
        assert_eq!(
            mode(json!({"allowVaultChanges": true, "permissionMode": "readOnly"})),
            (PermissionMode::ReadOnly, 0)
        );
        assert_eq!(
            mode(json!({"allowVaultChanges": false, "permissionMode": "askEveryChange"})),
            (PermissionMode::AskEveryChange, 0)
        );
        // The old switch is not saved again: the mode replaces it.
        let saved = normalise(&json!({"allowVaultChanges": true}), TOOLS)
            .settings
            .to_json();
        assert_eq!(saved["permissionMode"], "askBeforeEdits");
        assert!(saved.get("allowVaultChanges").is_none(), "{saved}");
    }

    #[test]
    fn a_wrong_permission_mode_is_read_only() {
        for (stored, fragment) in [
            (json!("AskEveryChange"), "\"AskEveryChange\""),
            (json!("yes"), "\"yes\""),
            (json!(true), "true/false"),
            (json!(2), "a number"),
            (json!({"mode": "askEveryChange"}), "an object"),
        ] {
            // Even next to an old switch that was on: a mode was given, and it was wrong.
            let n = normalise(
                &json!({"permissionMode": stored, "allowVaultChanges": true}),
                TOOLS,
            );
            assert_eq!(
                n.settings.permission_mode,
                PermissionMode::ReadOnly,
                "{stored}"
            );
            assert_eq!(n.repairs.len(), 1, "{:?}", n.repairs);
            assert!(n.repairs[0].contains(fragment), "{:?}", n.repairs);
        }
        for mode in PermissionMode::ALL {
            let n = normalise(&json!({ "permissionMode": mode.key() }), TOOLS);
            assert_eq!((n.settings.permission_mode, n.repairs.len()), (mode, 0));
            assert_eq!(serde_json::to_value(mode).unwrap(), mode.key());
        }
    }

    #[test]
    fn folder_scopes_are_normalised_and_a_broken_list_reaches_nothing() {
        // An older data.json has none: the whole vault, as before.
        let n = normalise(&json!({"permissionMode": "askBeforeEdits"}), TOOLS);
        assert!(n.settings.read_folders.is_empty() && n.settings.write_folders.is_empty());
        assert!(n.repairs.is_empty());
        let n = normalise(
            &json!({"readFolders": [" Projects/ ", "Cafe\u{301}", "Projects", "../up", 7], "writeFolders": []}),
            TOOLS,
        );
        assert_eq!(n.settings.read_folders, ["Projects", "Caf\u{e9}"]);
        assert!(n.settings.write_folders.is_empty());
        assert_eq!(n.repairs.len(), 2, "{:?}", n.repairs);
        // Never widened by a bad value: a list that names no usable folder,
        // or is not a list, reaches nothing, and still does after a save.
        for broken in [json!(["/abs", ".."]), json!("Projects"), json!({"a": 1})] {
            let n = normalise(&json!({ "writeFolders": broken }), TOOLS);
            assert_eq!(
                n.settings.write_folders,
                [crate::policy::scope::NO_FOLDER],
                "{broken}"
            );
            let again = normalise(&n.settings.to_json(), TOOLS);
            assert_eq!(
                again.settings.write_folders,
                [crate::policy::scope::NO_FOLDER]
            );
        }
    }

    #[test]
    fn a_non_object_is_replaced_by_defaults_that_reach_no_folder() {
        let n = normalise(&json!([1, 2]), TOOLS);
        let closed = Settings {
            read_folders: vec![crate::policy::scope::NO_FOLDER.into()],
            write_folders: vec![crate::policy::scope::NO_FOLDER.into()],
            ..Settings::default()
        };
        assert_eq!(n.settings, closed);
        assert_eq!(n.repairs.len(), 2, "{:?}", n.repairs);
        assert!(n.repairs[1].contains("no folder"), "{:?}", n.repairs);
    }

    /// An unreadable scope is no scope at all: whatever the bounded reader
    /// could not keep (a list too long, a text too long, a value too deep, a
    /// whole data.json too large or not JSON) reaches no folder, never the
    /// whole vault that nothing stored means.
    #[test]
    fn a_scope_the_bounded_reader_could_not_keep_reaches_no_folder() {
        use crate::base::input::{parse_lenient, SETTINGS};
        let none = [crate::policy::scope::NO_FOLDER];
        let many: Vec<String> = (0..20_000).map(|i| format!("F{i}")).collect();
        let long = "x".repeat(70 * 1024);
        let deep = format!("{}\"Projects\"{}", "[".repeat(80), "]".repeat(80));
        for (key, value) in [
            ("readFolders", json!(many).to_string()),
            ("writeFolders", json!(many).to_string()),
            ("readFolders", json!(long).to_string()),
            ("readFolders", deep.clone()),
            ("writeFolders", deep),
            ("readFolders", "null".into()),
            ("readFolders", "true".into()),
        ] {
            let text = format!(r#"{{"permissionMode": "askBeforeEdits", "{key}": {value}}}"#);
            let read = parse_lenient(&text, &SETTINGS);
            assert!(!read.unreadable, "{key}");
            let n = normalise_loaded(&read, TOOLS);
            let (broken, other) = match key {
                "readFolders" => (&n.settings.read_folders, &n.settings.write_folders),
                _ => (&n.settings.write_folders, &n.settings.read_folders),
            };
            assert_eq!(broken, &none, "{key} = {}", &value[..value.len().min(40)]);
            assert!(other.is_empty(), "the other list is as stored");
            assert!(
                n.repairs
                    .iter()
                    .any(|r| r.contains(key) && r.contains("no folder")),
                "{key}: {:?}",
                n.repairs
            );
            // Saved and read again, it still reaches nothing.
            let again = normalise(&n.settings.to_json(), TOOLS);
            assert_eq!(
                (&again.settings.read_folders, &again.settings.write_folders),
                (&n.settings.read_folders, &n.settings.write_folders)
            );
        }
        // A whole data.json too large, or not JSON: Read only, and no folder.
        let huge = format!(r#"{{"readFolders": [], "pad": "{}"}}"#, "x".repeat(5 << 20));
        for text in [huge.as_str(), "{not json"] {
            let n = normalise_loaded(&parse_lenient(text, &SETTINGS), TOOLS);
            assert_eq!(n.settings.permission_mode, PermissionMode::ReadOnly);
            assert_eq!(n.settings.read_folders, none);
            assert_eq!(n.settings.write_folders, none);
        }
        // Nothing stored (a first run) is the whole vault, as before.
        let first = normalise_loaded(&parse_lenient("null", &SETTINGS), TOOLS);
        assert!(first.settings.read_folders.is_empty() && first.repairs.is_empty());
    }

    #[test]
    fn round_trip_through_json() {
        let mut s = Settings::default();
        s.tools.insert("obsidianDailyNote".into(), false);
        s.vault_name = "V".into();
        s.permission_mode = PermissionMode::AskBeforeEdits;
        let n = normalise(&s.to_json(), TOOLS);
        assert_eq!(n.settings, s);
        assert!(n.repairs.is_empty());
    }

    /// An old data.json: one server per kind and `provider` picking one.
    fn old_chat(chat: Value) -> ChatSettings {
        let n = normalise(&json!({ "chat": chat }), TOOLS);
        assert!(n.repairs.is_empty(), "{:?}", n.repairs);
        n.settings.chat
    }

    #[test]
    fn an_old_single_server_becomes_one_profile_in_use() {
        let chat = old_chat(json!({
            "provider": "openAi",
            "openai": {"baseUrl": "http://localhost:1234/v1/", "model": "qwen", "apiKeySecret": "lm-key", "contextWindow": 32768},
            "maxToolRounds": 7
        }));
        assert_eq!(chat.profiles.len(), 1, "{:?}", chat.profiles);
        let profile = chat.profile();
        assert_eq!(profile.provider, ProviderKind::OpenAi);
        assert_eq!(profile.name, "LM Studio (local)");
        assert_eq!(
            profile.server,
            ProviderSettings {
                base_url: "http://localhost:1234/v1".into(),
                model: "qwen".into(),
                api_key_secret: "lm-key".into(),
                context_window: 32768,
                // Not in a data.json from before the switch: off.
                text_tool_calls: false,
            }
        );
        assert_eq!(chat.active_profile, profile.id);
        assert_eq!(chat.max_tool_rounds, 7);
        // What the agent reads is what it read before.
        assert_eq!(chat.provider(), ProviderKind::OpenAi);
        assert_eq!(chat.active().model, "qwen");
    }

    #[test]
    fn an_old_anthropic_choice_stays_in_use_and_a_changed_other_server_is_kept() {
        let chat = old_chat(json!({
            "provider": "anthropic",
            "anthropic": {"model": "claude-test", "apiKeySecret": "anthropic-key"},
            "openai": {"baseUrl": "http://gpu.lan:8000/v1", "model": "mixtral"}
        }));
        let names: Vec<_> = chat.profiles.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["Anthropic", "gpu.lan:8000"]);
        assert_eq!(chat.provider(), ProviderKind::Anthropic);
        assert_eq!(chat.active().api_key_secret, "anthropic-key");
        assert_eq!(chat.profiles[1].server.model, "mixtral");
        // The other side left at its defaults is not turned into a profile.
        let chat = old_chat(json!({"provider": "anthropic"}));
        assert_eq!(chat.profiles.len(), 1);
        assert_eq!(
            chat.profile().server,
            ProviderSettings::defaults(ProviderKind::Anthropic)
        );
    }

    #[test]
    fn migrated_profiles_are_saved_as_profiles_and_read_back_unchanged() {
        let first = normalise(
            &json!({"chat": {"openai": {"baseUrl": "https://openrouter.ai/api/v1", "model": "x/y"}}}),
            TOOLS,
        );
        let saved = first.settings.to_json();
        assert!(saved["chat"].get("openai").is_none(), "{saved}");
        assert!(saved["chat"].get("provider").is_none(), "{saved}");
        assert_eq!(saved["chat"]["profiles"][0]["name"], "OpenRouter");
        assert_eq!(
            saved["chat"]["profiles"][0]["baseUrl"],
            "https://openrouter.ai/api/v1"
        );
        let again = normalise(&saved, TOOLS);
        assert!(again.repairs.is_empty(), "{:?}", again.repairs);
        assert_eq!(again.settings, first.settings);
    }

    #[test]
    fn broken_profiles_are_repaired_one_by_one() {
        let n = normalise(
            &json!({"chat": {
                "activeProfile": "gone",
                "profiles": [
                    {"id": "a", "name": "  Work  ", "provider": "anthropic", "model": "c"},
                    "nonsense",
                    {"id": "a", "name": "", "baseUrl": "ftp://x", "apiKeySecret": "Bad Key"},
                    {"id": "UPPER", "provider": "martian"}
                ]
            }}),
            TOOLS,
        );
        let chat = &n.settings.chat;
        let ids: Vec<_> = chat.profiles.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["a", "profile-1", "profile-2"]);
        assert_eq!(chat.profiles[0].name, "Work");
        assert_eq!(
            chat.profiles[0].server.base_url,
            "https://api.anthropic.com"
        );
        assert_eq!(
            chat.profiles[1].name, "Ollama (local)",
            "a missing name is derived"
        );
        assert_eq!(
            chat.profiles[1].server.base_url,
            "http://localhost:11434/v1"
        );
        assert_eq!(chat.profiles[1].server.api_key_secret, "");
        assert_eq!(chat.profiles[2].provider, ProviderKind::OpenAi);
        assert_eq!(
            chat.active_profile, "a",
            "an unknown profile in use falls back to the first"
        );
        for fragment in [
            "profile 2 was text, not an object",
            "baseUrl",
            "apiKeySecret",
            "\"a\" was not a unique",
            "\"UPPER\"",
            "martian",
            "\"gone\"",
        ] {
            assert!(
                n.repairs.iter().any(|r| r.contains(fragment)),
                "{fragment}: {:#?}",
                n.repairs
            );
        }
        for empty in [json!([]), json!("x"), json!([1, 2])] {
            let n = normalise(&json!({"chat": {"profiles": empty}}), TOOLS);
            assert_eq!(n.settings.chat.profiles, [ModelProfile::first()], "{empty}");
            assert_eq!(n.settings.chat.active_profile, "profile-1");
        }
    }

    #[test]
    fn the_mcp_section_is_off_and_read_only_until_set() {
        let n = normalise(&json!({"permissionMode": "askBeforeEdits"}), TOOLS);
        assert_eq!(n.settings.mcp, McpSettings::default());
        assert!(!n.settings.mcp.enabled);
        // The chat's mode is not the MCP server's.
        assert_eq!(n.settings.mcp.permission_mode, PermissionMode::ReadOnly);
        let n = normalise(
            &json!({"mcp": {"enabled": true, "port": 80, "permissionMode": "askEveryChange"}}),
            TOOLS,
        );
        assert!(n.settings.mcp.enabled);
        assert_eq!(n.settings.mcp.port, MCP_PORT_RANGE.0, "{:?}", n.repairs);
        assert_eq!(
            n.settings.mcp.permission_mode,
            PermissionMode::AskEveryChange
        );
        for wrong in [
            json!({"enabled": "yes"}),
            json!({"permissionMode": "all"}),
            json!("on"),
        ] {
            let n = normalise(&json!({ "mcp": wrong }), TOOLS);
            assert!(!n.settings.mcp.enabled);
            assert_eq!(n.settings.mcp.permission_mode, PermissionMode::ReadOnly);
            assert!(!n.repairs.is_empty());
        }
        // Saved and read back unchanged.
        let saved = n.settings.to_json();
        assert_eq!(normalise(&saved, TOOLS).settings.mcp, n.settings.mcp);
        assert!(
            saved.get("processTag").is_none(),
            "a call's tag is never stored"
        );
    }

    #[test]
    fn a_door_can_narrow_the_mode_but_never_widen_it() {
        use PermissionMode::*;
        for (mode, cap, expected) in [
            (AskBeforeEdits, ReadOnly, ReadOnly),
            (AskBeforeEdits, AskEveryChange, AskEveryChange),
            (AskEveryChange, AskBeforeEdits, AskEveryChange),
            (ReadOnly, AskBeforeEdits, ReadOnly),
            (ReadOnly, AskEveryChange, ReadOnly),
        ] {
            assert_eq!(mode.at_most(cap), expected, "{mode:?} capped at {cap:?}");
        }
    }
}
