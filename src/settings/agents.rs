//! The coding agents the chat can run over the Agent Client Protocol: the
//! built-in list (what to start, what to tell a user who has not installed
//! it), the user's changes to each, and the one the chat's picker chose.
//! Stored in `data.json` under `acpAgents` as it always was:
//! `{ selected?: "agent:<id>", "<id>": { command?, args?, envSecrets? } }`,
//! only the fields the user changed.

use serde::ser::Serializer;
use serde::Serialize;
use serde_json::{Map, Value};

/// The chat picker's value for a coding agent.
pub const AGENT_PREFIX: &str = "agent:";

/// One agent Vault Agent knows how to start.
struct BuiltIn {
    id: &'static str,
    name: &'static str,
    command: &'static str,
    args: &'static [&'static str],
    /// The environment variables that hold its API keys.
    keys: &'static [&'static str],
    install: &'static str,
}

const BUILT_IN: [BuiltIn; 4] = [
    BuiltIn {
        id: "claude-code",
        name: "Claude Code",
        command: "claude-agent-acp",
        args: &[],
        keys: &["ANTHROPIC_API_KEY"],
        install: "npm install -g @zed-industries/claude-agent-acp",
    },
    BuiltIn {
        id: "codex",
        name: "Codex",
        command: "codex-acp",
        args: &[],
        keys: &["OPENAI_API_KEY"],
        install: "npm install -g @zed-industries/codex-acp",
    },
    BuiltIn {
        id: "gemini",
        name: "Gemini CLI",
        command: "gemini",
        args: &["--acp"],
        keys: &["GEMINI_API_KEY"],
        install: "npm install -g @google/gemini-cli",
    },
    BuiltIn {
        id: "custom",
        name: "Custom agent",
        command: "",
        args: &[],
        keys: &[],
        install: "",
    },
];

/// What the user changed of one agent; `None`: the built-in value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AgentChange {
    pub command: Option<String>,
    pub args: Option<Vec<String>>,
    /// Environment variable → the secret (in Obsidian's secret storage)
    /// that holds it. Lists rather than maps throughout: less code in wasm.
    pub env_secrets: Option<Vec<(String, String)>>,
}

/// The coding agents' settings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CodingAgents {
    /// `agent:<id>` when the chat's picker chose a coding agent.
    pub selected: Option<String>,
    /// By built-in id, in the built-in order; only agents the user changed.
    pub changes: Vec<(String, AgentChange)>,
}

/// One agent as the shim starts and shows it: the built-in with the user's changes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "AgentProfile"))]
#[serde(rename_all = "camelCase")]
pub struct CodingAgentProfile {
    /// `agent:<id>` in the chat's model picker.
    pub id: String,
    pub name: String,
    pub command: String,
    pub args: Vec<String>,
    /// Environment names → secret names in Obsidian's secret storage (API keys).
    #[cfg_attr(test, ts(type = "Record<string, string>"))]
    pub env_secrets: Map<String, Value>,
    /// What to run to install it, shown when the command is not found.
    pub install: String,
}

impl CodingAgents {
    /// Every built-in agent with the user's changes.
    pub fn profiles(&self) -> Vec<CodingAgentProfile> {
        BUILT_IN
            .iter()
            .map(|agent| {
                let change = self.change(agent.id).cloned().unwrap_or_default();
                CodingAgentProfile {
                    id: agent.id.into(),
                    name: agent.name.into(),
                    command: change.command.unwrap_or_else(|| agent.command.into()),
                    args: change
                        .args
                        .unwrap_or_else(|| agent.args.iter().map(|a| a.to_string()).collect()),
                    env_secrets: match change.env_secrets {
                        Some(pairs) => pairs
                            .into_iter()
                            .map(|(k, v)| (k, Value::from(v)))
                            .collect(),
                        None => agent
                            .keys
                            .iter()
                            .map(|k| (k.to_string(), Value::from("")))
                            .collect(),
                    },
                    install: agent.install.into(),
                }
            })
            .collect()
    }

    fn change(&self, id: &str) -> Option<&AgentChange> {
        self.changes.iter().find(|(k, _)| k == id).map(|(_, c)| c)
    }

    /// Puts `change` in `id`'s place, keeping the built-in order.
    fn set(&mut self, id: &str, change: AgentChange) {
        self.changes.retain(|(k, _)| k != id);
        if change != AgentChange::default() {
            self.changes.push((id.to_string(), change));
        }
        let order = |k: &str| BUILT_IN.iter().position(|a| a.id == k);
        self.changes.sort_by_key(|(k, _)| order(k));
    }

    /// The settings after the user's edit (`{ action: "select", value }` or
    /// `{ action: "change", id, command?, args?, envSecrets? }`), or why it
    /// cannot be made.
    pub fn edited(&self, edit: &Value) -> Result<CodingAgents, String> {
        let mut next = self.clone();
        let mut repairs = Vec::new();
        match edit.get("action").and_then(Value::as_str) {
            Some("select") => {
                next.selected = match edit.get("value") {
                    None | Some(Value::Null) => None,
                    Some(value) => Some(selected(value).ok_or_else(|| {
                        // The values as a select takes them, prefix and all.
                        let values: Vec<String> = ids()
                            .iter()
                            .map(|id| format!("{AGENT_PREFIX}{id}"))
                            .collect();
                        format!(
                            "{} is not a coding agent; pick one of {}",
                            value,
                            values.join(", ")
                        )
                    })?),
                };
            }
            Some("change") => {
                let id = edit.get("id").and_then(Value::as_str).unwrap_or_default();
                if !ids().contains(&id) {
                    return Err(format!(
                        "{id:?} is not a coding agent; change one of {}",
                        ids().join(", ")
                    ));
                }
                let mut change = next.change(id).cloned().unwrap_or_default();
                let fields = edit.as_object().cloned().unwrap_or_default();
                let read = read_change(&fields, &mut repairs);
                change.command = read.command.or(change.command);
                change.args = read.args.or(change.args);
                change.env_secrets = read.env_secrets.or(change.env_secrets);
                if let Some(why) = repairs.first() {
                    return Err(format!("{why}; nothing was changed"));
                }
                next.set(id, change);
            }
            _ => return Err("an edit of the coding agents is a select or a change".into()),
        }
        Ok(next)
    }
}

fn ids() -> Vec<&'static str> {
    BUILT_IN.iter().map(|a| a.id).collect()
}

/// Reads the stored `acpAgents` leniently: unknown agents and fields are
/// dropped, wrong types fall back to the built-in value, each repair said.
pub fn read(stored: Option<&Value>, repairs: &mut Vec<String>) -> CodingAgents {
    let Some(Value::Object(object)) = stored else {
        if let Some(other) = stored.filter(|v| !v.is_null()) {
            repairs.push(format!(
                "`acpAgents` was {other}, not an object; using the built-in agents"
            ));
        }
        return CodingAgents::default();
    };
    let mut agents = CodingAgents::default();
    for (key, value) in object {
        if key == "selected" {
            agents.selected = match value {
                Value::Null => None,
                value => {
                    let found = selected(value);
                    if found.is_none() {
                        repairs.push(format!("`acpAgents.selected` {value} is not a coding agent; the chat uses its model profile"));
                    }
                    found
                }
            };
        } else if !ids().contains(&key.as_str()) {
            repairs.push(format!("`acpAgents`: dropped the unknown agent `{key}`"));
        } else if let Value::Object(fields) = value {
            let mut inner = Vec::new();
            let change = read_change(fields, &mut inner);
            repairs.extend(inner.into_iter().map(|r| format!("acpAgents.{key}: {r}")));
            agents.set(key, change);
        } else {
            repairs.push(format!(
                "`acpAgents.{key}` was not an object; using the built-in values"
            ));
        }
    }
    agents
}

fn selected(value: &Value) -> Option<String> {
    let id = value.as_str()?.strip_prefix(AGENT_PREFIX)?;
    ids().contains(&id).then(|| format!("{AGENT_PREFIX}{id}"))
}

/// One agent's fields: `command` (text), `args` (a list of text),
/// `envSecrets` (variable name → secret name).
fn read_change(fields: &Map<String, Value>, repairs: &mut Vec<String>) -> AgentChange {
    let text = |v: &str| !v.chars().any(char::is_control);
    let command = match fields.get("command") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if text(s) => Some(s.trim().to_string()),
        Some(_) => {
            repairs.push("`command` must be text without control characters".into());
            None
        }
    };
    let args = match fields.get("args") {
        None | Some(Value::Null) => None,
        Some(Value::Array(items)) if items.iter().all(|i| i.as_str().is_some_and(text)) => Some(
            items
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect(),
        ),
        Some(_) => {
            repairs.push("`args` must be a list of text without control characters".into());
            None
        }
    };
    let env_secrets = match fields.get("envSecrets") {
        None | Some(Value::Null) => None,
        Some(Value::Object(pairs)) => {
            let mut kept = Vec::new();
            for (name, secret) in pairs {
                let name_ok = !name.is_empty()
                    && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    && !name.starts_with(|c: char| c.is_ascii_digit());
                let secret = secret.as_str().unwrap_or("\u{0}");
                let secret_ok = secret
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
                if name_ok && secret_ok {
                    kept.push((name.clone(), secret.to_string()));
                } else {
                    repairs.push(format!("`envSecrets`: dropped `{name}` (a variable name such as ANTHROPIC_API_KEY, and a secret name of lowercase letters, digits and dashes)"));
                }
            }
            Some(kept)
        }
        Some(_) => {
            repairs.push("`envSecrets` must be an object of variable name → secret name".into());
            None
        }
    };
    AgentChange {
        command,
        args,
        env_secrets,
    }
}

/// The stored shape, as `read` reads it back.
impl Serialize for CodingAgents {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = Map::new();
        if let Some(selected) = &self.selected {
            map.insert("selected".into(), Value::from(selected.as_str()));
        }
        for (id, change) in &self.changes {
            let mut fields = Map::new();
            if let Some(command) = &change.command {
                fields.insert("command".into(), Value::from(command.as_str()));
            }
            if let Some(args) = &change.args {
                fields.insert("args".into(), Value::from(args.clone()));
            }
            if let Some(env) = &change.env_secrets {
                let pairs: Map<String, Value> = env
                    .iter()
                    .map(|(k, v)| (k.clone(), Value::from(v.as_str())))
                    .collect();
                fields.insert("envSecrets".into(), Value::Object(pairs));
            }
            map.insert(id.clone(), Value::Object(fields));
        }
        map.serialize(serializer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_old_data_json_keeps_its_agents_and_writes_them_back_the_same() {
        let stored = json!({
            "selected": "agent:custom",
            "custom": {"command": "/usr/bin/node", "args": ["agent.mjs", "--acp"]},
            "claude-code": {"envSecrets": {"ANTHROPIC_API_KEY": "anthropic-key"}},
        });
        let mut repairs = Vec::new();
        let agents = read(Some(&stored), &mut repairs);
        assert_eq!(repairs, Vec::<String>::new());
        assert_eq!(agents.selected.as_deref(), Some("agent:custom"));
        let profiles = agents.profiles();
        let custom = profiles.iter().find(|p| p.id == "custom").unwrap();
        assert_eq!(custom.command, "/usr/bin/node");
        assert_eq!(custom.args, ["agent.mjs", "--acp"]);
        let claude = profiles.iter().find(|p| p.id == "claude-code").unwrap();
        assert_eq!(
            claude.command, "claude-agent-acp",
            "unchanged fields stay built in"
        );
        assert_eq!(claude.env_secrets["ANTHROPIC_API_KEY"], "anthropic-key");
        assert_eq!(serde_json::to_value(&agents).unwrap(), stored);
    }

    #[test]
    fn unknown_agents_and_wrong_fields_are_dropped_and_said() {
        let stored = json!({
            "selected": "agent:nope",
            "nope": {"command": "x"},
            "codex": {"command": 3, "args": ["ok", 4], "envSecrets": {"OPENAI_API_KEY": "Bad Name", "GOOD": "good-key"}},
        });
        let mut repairs = Vec::new();
        let agents = read(Some(&stored), &mut repairs);
        assert_eq!(agents.selected, None);
        let codex = agents
            .profiles()
            .into_iter()
            .find(|p| p.id == "codex")
            .unwrap();
        assert_eq!(codex.command, "codex-acp");
        assert_eq!(codex.args, Vec::<String>::new());
        assert_eq!(
            Value::Object(codex.env_secrets),
            json!({"GOOD": "good-key"})
        );
        for said in [
            "selected",
            "unknown agent `nope`",
            "acpAgents.codex: `command`",
            "acpAgents.codex: `args`",
            "dropped `OPENAI_API_KEY`",
        ] {
            assert!(
                repairs.iter().any(|r| r.contains(said)),
                "{said}: {repairs:?}"
            );
        }
        let mut none = Vec::new();
        assert_eq!(read(Some(&json!([1])), &mut none), CodingAgents::default());
        assert_eq!(none.len(), 1);
    }

    #[test]
    fn edits_select_and_change_one_agent_or_say_why_not() {
        let agents = CodingAgents::default();
        let picked = agents
            .edited(&json!({"action": "select", "value": "agent:gemini"}))
            .unwrap();
        assert_eq!(picked.selected.as_deref(), Some("agent:gemini"));
        assert_eq!(
            picked
                .edited(&json!({"action": "select", "value": null}))
                .unwrap()
                .selected,
            None
        );
        let changed = picked
            .edited(&json!({"action": "change", "id": "gemini", "args": ["--acp"]}))
            .unwrap()
            .edited(&json!({"action": "change", "id": "gemini", "command": " gemini-beta "}))
            .unwrap();
        let gemini = changed
            .profiles()
            .into_iter()
            .find(|p| p.id == "gemini")
            .unwrap();
        assert_eq!(
            (gemini.command.as_str(), gemini.args.as_slice()),
            ("gemini-beta", &["--acp".to_string()][..])
        );
        assert!(agents
            .edited(&json!({"action": "change", "id": "other", "command": "x"}))
            .unwrap_err()
            .contains("not a coding agent"));
        assert!(agents
            .edited(&json!({"action": "change", "id": "codex", "command": "a\u{0}b"}))
            .unwrap_err()
            .contains("nothing was changed"));
        let refused = agents
            .edited(&json!({"action": "select", "value": "agent:other"}))
            .unwrap_err();
        // It names the values a select takes, not the bare ids.
        assert!(refused.contains("pick one of agent:"), "{refused}");
        assert!(!refused.contains(", gemini"), "{refused}");
    }
}
