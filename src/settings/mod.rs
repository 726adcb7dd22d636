//! The plugin's settings and how a stored `data.json` becomes safe settings.
//!
//! `data.json` may come from an older version, be edited by hand, or be
//! corrupted: every field is read on its own, wrong types fall back to the
//! default, numbers are clamped into range and unknown keys are dropped. The
//! notes say what was repaired, so the shim can log it.

pub mod agents;
mod chat;
pub mod embeddings;
mod modes;
mod normalise;
pub mod outside;
pub mod outside_import;
pub mod presets;
mod profiles;
pub mod search;
pub mod web;

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

pub use self::chat::{
    host_of, profile_name, ChatSettings, ModelCheckRecord, ModelProfile, ProviderKind,
    ProviderSettings, DEFAULT_MEMORY_FOLDER,
};
pub use self::modes::{ModeSetting, PermissionMode};
pub use self::normalise::{normalise, normalise_loaded};
pub use self::profiles::{ProfileEdit, ProfileSummary};

/// Stands in a folder list whose stored value was unusable: no path can lie
/// inside it (paths never hold `:`), so a broken list reaches nothing rather
/// than the whole vault.
pub const NO_FOLDER: &str = "(no folder: fix this list)";

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
/// The silence allowed between two pieces of an answer.
pub const DEFAULT_MODEL_TIMEOUT_MS: u32 = 60_000;
/// The wait for an answer's first token: a model on a CPU reads the whole
/// prompt first (several thousand tokens at tens a second).
pub const DEFAULT_FIRST_TOKEN_TIMEOUT_MS: u32 = 300_000;
pub const FIRST_TOKEN_TIMEOUT_RANGE_MS: (u32, u32) = (5_000, 3_600_000);
pub const MODEL_TIMEOUT_RANGE_MS: (u32, u32) = (5_000, 600_000);
/// The most characters of a profile's own standing instructions
/// (`doors::chat::instructions`); longer text is cut when it is read.
pub const MAX_PROFILE_INSTRUCTIONS_CHARS: usize = 2_000;
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
    /// Safety → Local only: connections only to this computer and the
    /// private network (`policy::network`).
    pub local_only: bool,
    /// The coding agents (ACP): the user's changes and the one picked.
    #[serde(rename = "acpAgents")]
    #[cfg_attr(test, ts(type = "CodingAgentSettings"))]
    pub coding_agents: agents::CodingAgents,
    /// The user's own MCP servers, whose tools the chat offers.
    pub mcp_servers: Vec<outside::OutsideServer>,
    /// Search by meaning: the embedding model, off by default.
    pub embeddings: embeddings::EmbeddingSettings,
    /// Web search and page reading, off by default.
    pub web: web::WebSettings,
    /// The languages the ranked search reads the notes in; empty: automatic.
    pub search: search::SearchSettings,
    /// Set for one call by the door it came through (never stored): tags the
    /// call's CLI processes so a cancelled MCP request stops exactly those.
    #[serde(skip)]
    pub process_tag: Option<String>,
    /// Set for one call by the chat when the model wrote the call as text
    /// (never stored): a change it asks for always waits for a card.
    #[serde(skip)]
    pub written_as_text: bool,
    /// Set for one call by the chat door for its own model's calls (never
    /// stored): the chat a memory line comes from, and whether that chat
    /// holds outside data. `None` from every other door, so a memory change
    /// an MCP client or a coding agent asks for always waits for a card.
    #[serde(skip)]
    #[cfg_attr(test, ts(skip))]
    pub memory_origin: Option<MemoryOrigin>,
    /// Set for one call by the chat while it carries out an approved plan,
    /// when the change reaches a note the plan does not name (never
    /// stored): it waits for a card of its own, whatever the mode.
    #[serde(skip)]
    #[cfg_attr(test, ts(skip))]
    pub off_plan: bool,
    /// Set for one call (never stored): the change waits for a card whatever
    /// the mode. A step of a plan approved on one card (held for that card),
    /// and a card that went stale, asked again.
    #[serde(skip)]
    #[cfg_attr(test, ts(skip))]
    pub always_card: bool,
    /// Set for one call by the door it came through (never stored): where
    /// the user sets the mode this call runs under, which a refusal names.
    #[serde(skip)]
    #[cfg_attr(test, ts(skip))]
    pub mode_setting: ModeSetting,
}

/// The memory tool's id (`tools::memory`), switched by `chat.memory` alone.
pub const MEMORY_TOOL: &str = "obsidianMemory";

/// Where a tool with a switch of its own is turned on and off: a row on
/// another settings page than Tools. Memory and the web are opt-ins with
/// their own settings (a folder, a provider), so each has one switch, beside
/// them, and the Tools page's switches (its "All tools" among them) leave
/// them alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct OwnSwitch {
    /// The settings page, as its nav names it.
    pub page: &'static str,
    /// The row's name on that page.
    pub setting: &'static str,
}

/// The tool's own switch, if it has one (`None`: its switch is on the Tools page).
pub fn own_switch(tool_id: &str) -> Option<OwnSwitch> {
    match tool_id {
        MEMORY_TOOL => Some(OwnSwitch {
            page: "Model",
            setting: "Memory",
        }),
        web::WEB_TOOL => Some(OwnSwitch {
            page: "Web",
            setting: "Web search and pages",
        }),
        _ => None,
    }
}

/// Where the user turns a tool on, as a refusal says it.
pub fn switch_place(tool_id: &str) -> String {
    match own_switch(tool_id) {
        Some(own) => format!(
            "with the {} switch in Settings → Vault Agent → {}",
            own.setting, own.page
        ),
        None => "in Settings → Vault Agent → Tools".to_string(),
    }
}

/// Where a memory change comes from (`Settings::memory_origin`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemoryOrigin {
    /// The chat's title, written after the fact.
    pub chat: String,
    /// The chat's context holds data from outside the vault.
    pub outside_data: bool,
    /// Among it, what the web answered (`obsidianWeb`): then every change
    /// waits for a card, whatever the mode would run at once.
    pub web_data: bool,
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
            local_only: false,
            coding_agents: agents::CodingAgents::default(),
            mcp_servers: Vec::new(),
            embeddings: embeddings::EmbeddingSettings::default(),
            web: web::WebSettings::default(),
            search: search::SearchSettings::default(),
            process_tag: None,
            written_as_text: false,
            memory_origin: None,
            off_plan: false,
            always_card: false,
            mode_setting: ModeSetting::Chat,
        }
    }
}

impl Settings {
    pub fn tool_enabled(&self, tool_id: &str) -> bool {
        match tool_id {
            // One switch each (`own_switch`); off, the tool is neither offered nor run.
            MEMORY_TOOL => self.chat.memory,
            web::WEB_TOOL => self.web.enabled,
            _ => self.tools.get(tool_id).copied().unwrap_or(true),
        }
    }

    /// Whether a memory change may run without a card where the mode lets
    /// additions run: only the chat's own model, with no outside data (an
    /// MCP result, a web page, a coding agent's answer) in its context.
    pub fn memory_without_card(&self) -> bool {
        self.memory_origin.as_ref().is_some_and(|o| !o.outside_data)
    }

    /// Whether the chat this call comes from read the web: a page can ask
    /// for a change as well as the user can, so none runs without a card.
    pub fn after_web_data(&self) -> bool {
        self.memory_origin.as_ref().is_some_and(|o| o.web_data)
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

/// What a stored value was, in a repair's words.
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
mod tests;
