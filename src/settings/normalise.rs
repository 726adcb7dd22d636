//! How a stored `data.json` becomes safe settings: every field read on its
//! own, wrong types falling back to the default, numbers clamped into range,
//! unknown keys dropped, each repair said.

use serde_json::{Map, Value};

use super::embeddings::EmbeddingSettings;
use super::search::SearchSettings;
use super::web::{WebProvider, WebSettings};
use super::*;
use crate::base::input::Lenient;

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
    normalised.settings.read_folders = vec![crate::settings::NO_FOLDER.to_string()];
    normalised.settings.write_folders = vec![crate::settings::NO_FOLDER.to_string()];
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
    let mut settings = Settings {
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
        embeddings: reader.section("embeddings", |r| {
            let defaults = EmbeddingSettings::default();
            let server = r.provider(&ProviderSettings {
                base_url: defaults.base_url.clone(),
                model: defaults.model.clone(),
                ..ProviderSettings::defaults(ProviderKind::OpenAi)
            });
            EmbeddingSettings {
                enabled: r.boolean("enabled", false),
                base_url: server.base_url,
                model: server.model,
                api_key_secret: server.api_key_secret,
                consented: r.string("consented", ""),
            }
        }),
        web: reader.section("web", |r| r.web()),
        search: reader.section("search", |r| r.search()),
        local_only: reader.boolean("localOnly", false),
        coding_agents: super::agents::read(object.get("acpAgents"), &mut repairs),
        mcp_servers: super::outside::read(object.get("mcpServers"), &mut repairs),
        process_tag: None,
        written_as_text: false,
        memory_origin: None,
        off_plan: false,
        always_card: false,
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
        "localOnly",
        "acpAgents",
        "mcpServers",
        "embeddings",
        "web",
        "search",
    ];
    for key in object.keys() {
        if !known_keys.contains(&key.as_str()) && !is_foreign_section(key) {
            repairs.push(format!("dropped unknown setting `{key}`"));
        }
    }
    one_switch_each(&mut settings);
    NormalisedSettings { settings, repairs }
}

/// Memory and the web are switched by their own setting alone
/// (`super::own_switch`); a switch of theirs under `tools`, from before, is
/// dropped, and one that was off keeps them off (it had them off).
fn one_switch_each(settings: &mut Settings) {
    if settings.tools.remove(super::MEMORY_TOOL) == Some(false) {
        settings.chat.memory = false;
    }
    if settings.tools.remove(super::web::WEB_TOOL) == Some(false) {
        settings.web.enabled = false;
    }
}

/// Keys of `data.json` that belong to other parts of the plugin (kept as they are
/// by the shim, not settings of the tool system).
fn is_foreign_section(key: &str) -> bool {
    // `lastConversation`: the chat the view opens with (plugin-shim/main.ts);
    // `scheduledRuns`: the last slot run per scheduled prompt (doors::chat::schedule).
    matches!(key, "lastConversation" | "scheduledRuns")
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
                first_token_timeout_ms: r.number(
                    "firstTokenTimeoutMs",
                    defaults.first_token_timeout_ms,
                    FIRST_TOKEN_TIMEOUT_RANGE_MS,
                ),
                anthropic_thinking: r.boolean("anthropicThinking", false),
                anthropic_thinking_budget: r.number(
                    "anthropicThinkingBudget",
                    DEFAULT_THINKING_BUDGET,
                    THINKING_BUDGET_RANGE,
                ),
                instructions_note: r.note_path("instructionsNote"),
                prompts_folder: r.folder("promptsFolder"),
                prompt_commands: r.note_paths("promptCommands"),
                skills_folder: r.folder("skillsFolder"),
                memory: r.boolean("memory", false),
                memory_folder: match r.folder("memoryFolder") {
                    folder if folder.is_empty() => {
                        crate::settings::DEFAULT_MEMORY_FOLDER.to_string()
                    }
                    folder => folder,
                },
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
                last_check: None,
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
        let mut server = self.provider(&ProviderSettings::defaults(provider));
        // Anthropic's paths start with /v1 (`/v1/messages`), which the
        // requests add: an address pasted with it would ask for /v1/v1/….
        let v1 = server.base_url.len().saturating_sub(3);
        if provider == ProviderKind::Anthropic
            && server.base_url.is_char_boundary(v1)
            && server.base_url[v1..].eq_ignore_ascii_case("/v1")
        {
            let kept = server.base_url[..v1].trim_end_matches('/').to_string();
            // `http://v1` is a host named v1, not a path.
            let has_host = kept.find("://").is_some_and(|at| kept.len() > at + 3);
            if has_host {
                self.repairs.push(format!(
                "`baseUrl` {:?} ends in /v1, which Vault Agent adds for Anthropic; using {kept:?}",
                server.base_url
            ));
                server.base_url = kept;
            }
        }
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
            last_check: self
                .object
                .get("lastCheck")
                .and_then(ModelCheckRecord::from_value),
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
            instructions: self.lines("instructions", MAX_PROFILE_INSTRUCTIONS_CHARS),
            // Absent or null: ask the server (`doors::chat::images::accepted`).
            images: match self.object.get("images") {
                Some(Value::Bool(_)) => Some(self.boolean("images", false)),
                _ => None,
            },
            pdf_documents: self.boolean("pdfDocuments", defaults.pdf_documents),
        }
    }

    /// A note's path from the vault root, or empty (none); a value that
    /// cannot name a note is cleared and the repair says why.
    fn note_path(&mut self, key: &str) -> String {
        let value = self.string(key, "");
        if value.is_empty() {
            return value;
        }
        match crate::base::vault_path::normalised(
            key,
            &value,
            crate::base::vault_path::PathKind::File,
        ) {
            Ok(path) if path.to_lowercase().ends_with(".md") => path,
            Ok(path) => {
                self.repairs.push(format!(
                    "`{key}` {path:?} is not a note (a path ending in .md); cleared"
                ));
                String::new()
            }
            Err(why) => {
                self.repairs.push(format!("{why}; cleared"));
                String::new()
            }
        }
    }

    /// One folder from the vault root, or empty (none); a value that cannot
    /// name a folder is cleared and the repair says why.
    fn folder(&mut self, key: &str) -> String {
        let value = self.string(key, "");
        if value.is_empty() {
            return value;
        }
        crate::base::vault_path::normalised(key, &value, crate::base::vault_path::PathKind::Folder)
            .unwrap_or_else(|why| {
                self.repairs.push(format!("{why}; cleared"));
                String::new()
            })
    }

    /// A list of notes' paths (at most 50); an entry that is not one is dropped and said.
    fn note_paths(&mut self, key: &str) -> Vec<String> {
        let items = match self.object.get(key) {
            None | Some(Value::Null) => return Vec::new(),
            Some(Value::Array(items)) => items.clone(),
            Some(other) => {
                self.repairs.push(format!(
                    "`{key}` was {}, not a list of notes; cleared",
                    type_name(other)
                ));
                return Vec::new();
            }
        };
        let mut paths: Vec<String> = Vec::new();
        for item in items.into_iter().take(50) {
            let object = Map::from_iter([(key.to_string(), item)]);
            let path = Reader {
                object: &object,
                repairs: self.repairs,
            }
            .note_path(key);
            if !path.is_empty() && !paths.contains(&path) {
                paths.push(path);
            }
        }
        paths
    }

    /// Text that may run over several lines (tabs and line breaks kept,
    /// other control characters refused), at most `max` characters.
    fn lines(&mut self, key: &str, max: usize) -> String {
        match self.object.get(key) {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(s))
                if s.chars()
                    .any(|c| c.is_control() && !matches!(c, '\n' | '\t' | '\r')) =>
            {
                self.repairs
                    .push(format!("`{key}` contained control characters; cleared"));
                String::new()
            }
            Some(Value::String(s)) => {
                let text = s.trim().replace("\r\n", "\n");
                if text.chars().count() > max {
                    self.repairs
                        .push(format!("`{key}` was longer than {max} characters; cut"));
                    return text
                        .chars()
                        .take(max)
                        .collect::<String>()
                        .trim_end()
                        .to_string();
                }
                text
            }
            Some(other) => {
                self.repairs.push(format!(
                    "`{key}` was {}, not text; cleared",
                    type_name(other)
                ));
                String::new()
            }
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

    /// Settings → Web: a provider it does not know is SearXNG, an address
    /// that is not http(s) the default one, a key name that is not a secret
    /// name cleared; never on unless it says `true`.
    fn web(&mut self) -> WebSettings {
        let defaults = WebSettings::default();
        let provider = match self.object.get("provider") {
            None | Some(Value::Null) => defaults.provider,
            Some(Value::String(name)) => WebProvider::parse(name).unwrap_or_else(|| {
                self.repairs.push(format!(
                    "`provider` was {name:?}, not searxng or brave; using searxng"
                ));
                defaults.provider
            }),
            Some(other) => {
                self.repairs.push(format!(
                    "`provider` was {}, not text; using searxng",
                    type_name(other)
                ));
                defaults.provider
            }
        };
        let secret = self.string("apiKeySecret", "");
        let api_key_secret = if secret
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        {
            secret
        } else {
            self.repairs.push(
                "`apiKeySecret` must be a secret name (lowercase letters, digits, dashes); cleared"
                    .into(),
            );
            String::new()
        };
        let mut searxng_url = self.string("searxngUrl", &defaults.searxng_url);
        let lower = searxng_url.to_ascii_lowercase();
        if !(lower.starts_with("http://") || lower.starts_with("https://")) {
            self.repairs.push(format!(
                "`searxngUrl` {searxng_url:?} is not an http(s) address; using {}",
                defaults.searxng_url
            ));
            searxng_url = defaults.searxng_url.clone();
        }
        WebSettings {
            enabled: self.boolean("enabled", false),
            provider,
            searxng_url: searxng_url.trim_end_matches('/').to_string(),
            api_key_secret,
        }
    }

    fn search(&mut self) -> SearchSettings {
        let stored: Vec<String> = match self.object.get("languages") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(items)) => items
                .iter()
                .filter_map(|item| match item {
                    Value::String(text) => Some(text.clone()),
                    other => {
                        self.repairs.push(format!(
                            "`languages` held {}, not a language code; dropped",
                            type_name(other)
                        ));
                        None
                    }
                })
                .collect(),
            Some(other) => {
                self.repairs.push(format!(
                    "`languages` was {}, not a list of language codes; automatic",
                    type_name(other)
                ));
                Vec::new()
            }
        };
        SearchSettings {
            languages: super::search::languages(&stored, self.repairs),
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
                return vec![crate::settings::NO_FOLDER.to_string()];
            }
            Some(Value::Array(items)) => items,
            Some(other) => {
                self.repairs.push(format!(
                    "`{key}` was {}, not a list of folders; the agent may reach no folder until it is set again",
                    type_name(other)
                ));
                return vec![crate::settings::NO_FOLDER.to_string()];
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
            folders.push(crate::settings::NO_FOLDER.to_string());
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
pub(super) fn valid_profile_id(id: &str) -> bool {
    (1..=40).contains(&id.len())
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// `profile-N` with the smallest N not taken.
pub(super) fn fresh_profile_id(profiles: &[ModelProfile]) -> String {
    (1..)
        .map(|n| format!("profile-{n}"))
        .find(|id| profiles.iter().all(|p| &p.id != id))
        .expect("an unused number")
}
