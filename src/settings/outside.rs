//! The user's own MCP servers, whose tools the chat offers beside ours
//! ("outside tools"): how each is reached, how far it is trusted, which of
//! its tools are off. Stored in `data.json` under `mcpServers` as a list;
//! read leniently like every setting (a wrong value is repaired and said, and
//! no wrong value trusts a server more). Pasted client configurations
//! become servers in `outside_import.rs`.

use serde::Serialize;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use super::type_name;

/// The most servers kept; more are dropped and said.
pub const MAX_SERVERS: usize = 32;
/// One call's wait for its answer, by default and at most.
pub const DEFAULT_CALL_TIMEOUT_MS: u32 = 60_000;
pub const CALL_TIMEOUT_RANGE_MS: (u32, u32) = (1_000, 600_000);

/// How far a server's tools run without the user's click.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum Trust {
    /// Every call waits for a card (the default).
    #[default]
    AskEveryCall,
    /// Tools the server marks `readOnlyHint` run at once; others ask.
    AskUnlessReadOnly,
    /// Every call runs at once: the user's choice, with a warning.
    NeverAsk,
}

impl Trust {
    pub fn key(self) -> &'static str {
        match self {
            Trust::AskEveryCall => "askEveryCall",
            Trust::AskUnlessReadOnly => "askUnlessReadOnly",
            Trust::NeverAsk => "neverAsk",
        }
    }

    pub fn from_key(key: &str) -> Option<Self> {
        [
            Trust::AskEveryCall,
            Trust::AskUnlessReadOnly,
            Trust::NeverAsk,
        ]
        .into_iter()
        .find(|t| t.key() == key)
    }
}

/// A name and the secret (in Obsidian's secret storage) that holds its value.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct SecretValue {
    pub name: String,
    pub secret: String,
}

/// One server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct OutsideServer {
    /// The name the user gave: unique, letters, digits, `-` and `_`
    /// (it becomes part of the tool names the model sees).
    pub id: String,
    /// Made when the server is added and never edited: a server removed
    /// and added again under the same name is another server, so what the
    /// user approved for the old one asks again (`policy::outside`).
    pub added_id: String,
    pub enabled: bool,
    /// `stdio` (a command) or `http` (Streamable HTTP at `url`).
    pub kind: String,
    pub command: String,
    pub args: Vec<String>,
    /// Environment variables of a stdio server, each from a secret.
    pub env: Vec<SecretValue>,
    /// A stdio server's working folder; empty: the vault's folder.
    pub cwd: String,
    pub url: String,
    /// Headers of an HTTP server, each from a secret.
    pub headers: Vec<SecretValue>,
    /// The secret holding a bearer token (`Authorization: Bearer …`); empty: none.
    pub bearer_secret: String,
    pub trust: Trust,
    /// Tools the user switched off, by the server's name for them.
    pub tools_off: Vec<String>,
    pub timeout_ms: u32,
}

impl Default for OutsideServer {
    fn default() -> Self {
        OutsideServer {
            id: String::new(),
            added_id: String::new(),
            enabled: true,
            kind: "stdio".into(),
            command: String::new(),
            args: Vec::new(),
            env: Vec::new(),
            cwd: String::new(),
            url: String::new(),
            headers: Vec::new(),
            bearer_secret: String::new(),
            trust: Trust::AskEveryCall,
            tools_off: Vec::new(),
            timeout_ms: DEFAULT_CALL_TIMEOUT_MS,
        }
    }
}

impl OutsideServer {
    pub fn tool_enabled(&self, tool: &str) -> bool {
        !self.tools_off.iter().any(|t| t == tool)
    }

    pub fn is_http(&self) -> bool {
        self.kind == "http"
    }
}

/// A server id made from any name: letters, digits, `-` and `_`, at most 32.
pub fn server_id(name: &str) -> String {
    let id: String = name
        .trim()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .take(32)
        .collect();
    let id = id.trim_matches('-').to_string();
    if id.is_empty() {
        "server".into()
    } else {
        id
    }
}

/// `id`, or `id-2`, `id-3` … when `taken` has it.
pub fn unique_id(id: &str, taken: &[&str]) -> String {
    if !taken.contains(&id) {
        return id.to_string();
    }
    (2..)
        .map(|n| format!("{id}-{n}"))
        .find(|candidate| !taken.contains(&candidate.as_str()))
        .expect("some suffix is free")
}

/// The id of the `n`th server of one addition (the settings' form, a
/// paste), made from `fresh`: random bits from the platform, new for each
/// addition. Refused when they are missing, so no two additions share one.
pub fn added_id(fresh: &str, n: usize) -> Result<String, String> {
    if fresh.trim().len() < 16 {
        return Err("No fresh id was given for the server being added (at least 16 random characters); nothing was added.".into());
    }
    Ok(hex_digest(&["added", fresh.trim(), &n.to_string()]))
}

/// 16 hex digits of SHA-256 over `parts`, kept apart.
fn hex_digest(parts: &[&str]) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update(part.as_bytes());
        hasher.update([0u8]);
    }
    hasher.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Reads `mcpServers` leniently: each server on its own, a broken one
/// dropped and said, wrong fields repaired to the safe value.
pub fn read(stored: Option<&Value>, repairs: &mut Vec<String>) -> Vec<OutsideServer> {
    let items = match stored {
        None | Some(Value::Null) => return Vec::new(),
        Some(Value::Array(items)) => items,
        Some(other) => {
            repairs.push(format!(
                "`mcpServers` was {}, not a list; no MCP servers are set",
                type_name(other)
            ));
            return Vec::new();
        }
    };
    let mut servers: Vec<OutsideServer> = Vec::new();
    for (n, item) in items.iter().enumerate() {
        let Value::Object(fields) = item else {
            repairs.push(format!(
                "`mcpServers[{n}]` was {}, not an object; dropped",
                type_name(item)
            ));
            continue;
        };
        if servers.len() == MAX_SERVERS {
            repairs.push(format!(
                "`mcpServers`: only the first {MAX_SERVERS} servers are kept"
            ));
            break;
        }
        let mut said = Vec::new();
        let server = read_server(fields, &mut said);
        let taken: Vec<&str> = servers.iter().map(|s| s.id.as_str()).collect();
        let id = unique_id(&server.id, &taken);
        if id != server.id {
            said.push(format!(
                "the name `{}` was taken; renamed `{id}`",
                server.id
            ));
        }
        // A server stored before servers had this id gets one from what is
        // stored of it, the same at every start until the settings are
        // saved with it (silently: nothing is wrong).
        let added_id = match server.added_id.is_empty() {
            true => hex_digest(&["stored", &id, &item.to_string()]),
            false => server.added_id.clone(),
        };
        repairs.extend(said.into_iter().map(|r| format!("mcpServers `{id}`: {r}")));
        servers.push(OutsideServer {
            id,
            added_id,
            ..server
        });
    }
    servers
}

fn read_server(fields: &Map<String, Value>, said: &mut Vec<String>) -> OutsideServer {
    let defaults = OutsideServer::default();
    let text = |key: &str, said: &mut Vec<String>| match fields.get(key) {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) if !s.chars().any(char::is_control) => s.trim().to_string(),
        Some(other) => {
            said.push(format!("`{key}` was not plain text; cleared"));
            let _ = other;
            String::new()
        }
    };
    let stored_id = text("id", said);
    let id = server_id(&stored_id);
    if !stored_id.is_empty() && id != stored_id {
        said.push(format!("the name `{stored_id}` became `{id}`"));
    }
    let kind = match text("kind", said).as_str() {
        "" | "stdio" => "stdio",
        "http" => "http",
        other => {
            said.push(format!(
                "`kind` {other:?} is not stdio or http; using stdio"
            ));
            "stdio"
        }
    };
    let enabled = match fields.get("enabled") {
        None | Some(Value::Null) => defaults.enabled,
        Some(Value::Bool(b)) => *b,
        Some(other) => {
            // Never read "yes" or 1 as on.
            said.push(format!(
                "`enabled` was {}; the server is off",
                type_name(other)
            ));
            false
        }
    };
    let trust = match fields.get("trust") {
        None | Some(Value::Null) => Trust::default(),
        Some(Value::String(key)) => Trust::from_key(key).unwrap_or_else(|| {
            said.push(format!(
                "`trust` {key:?} is not askEveryCall, askUnlessReadOnly or neverAsk; every call asks"
            ));
            Trust::default()
        }),
        Some(other) => {
            said.push(format!("`trust` was {}; every call asks", type_name(other)));
            Trust::default()
        }
    };
    let timeout_ms = match fields.get("timeoutMs") {
        None | Some(Value::Null) => defaults.timeout_ms,
        Some(value) => {
            let (min, max) = CALL_TIMEOUT_RANGE_MS;
            match value.as_f64().filter(|f| f.is_finite()) {
                Some(f) => {
                    let clamped = f.round().clamp(min as f64, max as f64) as u32;
                    if clamped as f64 != f {
                        said.push(format!(
                            "`timeoutMs` was {f}; using {clamped} (allowed {min}–{max})"
                        ));
                    }
                    clamped
                }
                None => {
                    said.push(format!(
                        "`timeoutMs` was not a number; using {}",
                        defaults.timeout_ms
                    ));
                    defaults.timeout_ms
                }
            }
        }
    };
    let mut server = OutsideServer {
        id,
        added_id: text("addedId", said),
        enabled,
        kind: kind.into(),
        command: text("command", said),
        args: strings(fields.get("args"), "args", said),
        env: secret_values(fields.get("env"), "env", said),
        cwd: text("cwd", said),
        url: text("url", said),
        headers: secret_values(fields.get("headers"), "headers", said),
        bearer_secret: text("bearerSecret", said),
        trust,
        tools_off: strings(fields.get("toolsOff"), "toolsOff", said),
        timeout_ms,
    };
    if let Some(problem) = unusable(&server) {
        if server.enabled {
            said.push(format!("{problem}; switched off"));
            server.enabled = false;
        }
    }
    server
}

/// Why a server cannot be started or reached as set, if it cannot.
pub fn unusable(server: &OutsideServer) -> Option<String> {
    if server.is_http() {
        let url = server.url.to_ascii_lowercase();
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Some("its URL must start with http:// or https://".into());
        }
    } else if server.command.is_empty() {
        return Some("it has no command".into());
    }
    None
}

fn strings(value: Option<&Value>, key: &str, said: &mut Vec<String>) -> Vec<String> {
    match value {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => {
            let kept: Vec<String> = items
                .iter()
                .filter_map(Value::as_str)
                .filter(|s| !s.contains('\0'))
                .map(String::from)
                .collect();
            if kept.len() != items.len() {
                said.push(format!("`{key}`: dropped entries that were not text"));
            }
            kept
        }
        Some(other) => {
            said.push(format!(
                "`{key}` was {}, not a list; cleared",
                type_name(other)
            ));
            Vec::new()
        }
    }
}

fn secret_values(value: Option<&Value>, key: &str, said: &mut Vec<String>) -> Vec<SecretValue> {
    let Some(Value::Array(items)) = value else {
        if value.is_some_and(|v| !v.is_null()) {
            said.push(format!("`{key}` was not a list; cleared"));
        }
        return Vec::new();
    };
    let mut kept = Vec::new();
    for item in items {
        let name = item.get("name").and_then(Value::as_str).map(str::trim);
        let secret = item.get("secret").and_then(Value::as_str).map(str::trim);
        match (name, secret) {
            (Some(name), Some(secret))
                if !name.is_empty()
                    && !name.chars().any(|c| c.is_control() || c == '=')
                    && !secret.is_empty() =>
            {
                kept.push(SecretValue {
                    name: name.into(),
                    secret: secret.into(),
                })
            }
            _ => said.push(format!(
                "`{key}`: dropped an entry without a name and a secret"
            )),
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_stored_list_is_read_with_its_repairs() {
        let mut repairs = Vec::new();
        let servers = read(
            Some(&json!([
                { "id": "search", "command": "npx", "args": ["-y", "srv"], "trust": "neverAsk",
                  "env": [{ "name": "KEY", "secret": "mcp-search-key" }, { "name": "" }] },
                { "id": "search", "kind": "http", "url": "ftp://x", "trust": "always", "enabled": "yes" },
                "junk",
                { "id": "a b!", "kind": "http", "url": "https://example.com/mcp", "timeoutMs": 5 },
                { "id": "ftp", "kind": "http", "url": "ftp://x" }
            ])),
            &mut repairs,
        );
        assert_eq!(servers.len(), 4);
        assert!(
            !servers[3].enabled,
            "an address that cannot be reached is off"
        );
        assert_eq!(servers[0].trust, Trust::NeverAsk);
        assert_eq!(servers[0].env.len(), 1);
        assert_eq!(servers[1].id, "search-2");
        assert_eq!(
            servers[1].trust,
            Trust::AskEveryCall,
            "an unknown trust asks"
        );
        assert!(
            !servers[1].enabled,
            "\"yes\" is not on, and ftp is not reachable"
        );
        assert_eq!(servers[2].id, "a-b");
        assert_eq!(servers[2].timeout_ms, 1_000);
        let said = repairs.join("\n");
        for expected in [
            "search-2",
            "not askEveryCall",
            "dropped",
            "http://",
            "timeoutMs",
            "was text",
        ] {
            assert!(said.contains(expected), "{expected} in {said}");
        }
    }

    #[test]
    fn a_server_stored_without_its_added_id_gets_one_that_lasts_until_saved() {
        let stored = json!([
            { "id": "old", "command": "x" },
            { "id": "old-twin", "command": "x" },
            { "id": "kept", "command": "x", "addedId": "0123456789abcdef" }
        ]);
        let mut repairs = Vec::new();
        let first = read(Some(&stored), &mut repairs);
        assert!(repairs.is_empty(), "nothing is wrong: {repairs:?}");
        assert_eq!(first[0].added_id.len(), 16);
        assert_ne!(first[0].added_id, first[1].added_id, "each its own");
        assert_eq!(
            first[2].added_id, "0123456789abcdef",
            "a stored one is kept"
        );
        let again = read(Some(&stored), &mut repairs);
        assert_eq!(again, first, "the same at the next start");
        let saved = serde_json::to_value(&first).unwrap();
        assert_eq!(read(Some(&saved), &mut repairs), first, "and saved with it");
    }

    #[test]
    fn nothing_stored_is_no_servers_and_no_repair() {
        let mut repairs = Vec::new();
        assert!(read(None, &mut repairs).is_empty());
        assert!(read(Some(&json!({})), &mut repairs).is_empty());
        assert_eq!(repairs.len(), 1, "an object is said");
    }
}
