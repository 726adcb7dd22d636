//! The permission modes, and which setting holds the mode a call runs under.

use serde::Serialize;

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

    /// What the mode lets the agent do, as the settings tab explains it.
    pub fn description(self) -> &'static str {
        match self {
            PermissionMode::ReadOnly => {
                "The agent reads your vault; every change is refused before anything runs."
            }
            PermissionMode::AskEveryChange => {
                "Every change waits for your approval on a card that shows it, additions included."
            }
            PermissionMode::AskBeforeEdits => {
                "Additions run at once (new notes, text added to a note, new base items, bookmarks); changes to what is already there (edits, properties, tasks) wait for your approval on a card."
            }
        }
    }

    /// The stored spellings as a message lists them:
    /// `readOnly, askEveryChange or askBeforeEdits`.
    pub fn keys_listed() -> String {
        let keys: Vec<&str> = Self::ALL.iter().map(|mode| mode.key()).collect();
        match keys.split_last() {
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        }
    }

    /// In the order the dropdowns offer them, the safest first.
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
                "in Settings → Vault Agent → MCP: this vault's server for other apps → \"What MCP clients may change\""
            }
        }
    }
}
