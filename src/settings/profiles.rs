//! What the settings tab and the chat header may do to the model profiles.
//! Each edit returns the new chat settings (the shim saves them through the
//! usual normalising path) or says why it cannot be done.

use serde::Serialize;
use serde_json::Value;

use super::normalise::fresh_profile_id;
use super::{
    host_of, ChatSettings, ModelProfile, ProviderKind, ProviderSettings, MAX_PROFILE_NAME_CHARS,
};
use crate::settings::presets::PRESETS;

/// One user action on the profiles (JSON: `{ "action": "add", ... }`).
#[derive(Clone, Debug, PartialEq)]
pub enum ProfileEdit {
    /// A new profile filled from a preset (by id), in use at once.
    Add {
        preset: String,
    },
    /// The profile `id` talks to another provider from now on: the preset's
    /// server and model, a fresh key and window; no profile is added (issue
    /// 40: picking a provider never quietly adds one).
    Provider {
        id: String,
        preset: String,
    },
    /// A copy of a profile, named "… copy", in use at once.
    Duplicate {
        id: String,
    },
    Rename {
        id: String,
        name: String,
    },
    /// Refused for the last profile; deleting the one in use selects its neighbour.
    Delete {
        id: String,
    },
    /// The chat uses this profile from now on.
    Select {
        id: String,
    },
}

impl ProfileEdit {
    /// Reads `{ "action": "add", "preset": … }` and the like; anything else
    /// (another action, a missing or extra field, a wrong type) is refused.
    /// Read by hand: serde's tagged enums cost the wasm more than this does.
    pub fn from_json(value: &Value) -> Result<ProfileEdit, String> {
        let Value::Object(map) = value else {
            return Err("a profile edit must be an object".into());
        };
        let action = map.get("action").and_then(Value::as_str).unwrap_or("");
        let fields: &[&str] = match action {
            "add" => &["preset"],
            "rename" => &["id", "name"],
            "provider" => &["id", "preset"],
            "duplicate" | "delete" | "select" => &["id"],
            other => return Err(format!("unknown profile action {other:?}")),
        };
        if let Some(extra) = map
            .keys()
            .find(|k| *k != "action" && !fields.contains(&k.as_str()))
        {
            return Err(format!("unknown field `{extra}` in a profile {action}"));
        }
        let text = |key: &str| -> Result<String, String> {
            match map.get(key) {
                Some(Value::String(s)) => Ok(s.clone()),
                _ => Err(format!("a profile {action} needs `{key}` as text")),
            }
        };
        Ok(match action {
            "add" => ProfileEdit::Add {
                preset: text("preset")?,
            },
            "rename" => ProfileEdit::Rename {
                id: text("id")?,
                name: text("name")?,
            },
            "provider" => ProfileEdit::Provider {
                id: text("id")?,
                preset: text("preset")?,
            },
            "duplicate" => ProfileEdit::Duplicate { id: text("id")? },
            "delete" => ProfileEdit::Delete { id: text("id")? },
            _ => ProfileEdit::Select { id: text("id")? },
        })
    }
}

/// What the settings tab's switcher and the chat header show of a profile.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ProfileSummary {
    pub id: String,
    pub name: String,
    pub provider: ProviderKind,
    /// The preset whose server it uses, if any.
    pub preset: Option<&'static str>,
    /// `model · host`, for a tooltip.
    pub detail: String,
    pub active: bool,
}

impl ChatSettings {
    pub fn summaries(&self) -> Vec<ProfileSummary> {
        let active = self.profile().id.clone();
        self.profiles
            .iter()
            .map(|p| ProfileSummary {
                id: p.id.clone(),
                name: p.name.clone(),
                provider: p.provider,
                preset: p.preset().map(|preset| preset.id),
                detail: format!(
                    "{} · {}",
                    if p.server.model.is_empty() {
                        "(no model)"
                    } else {
                        &p.server.model
                    },
                    host_of(&p.server.base_url)
                ),
                active: p.id == active,
            })
            .collect()
    }

    /// The settings after `edit`, or why it cannot be done.
    pub fn edited(&self, edit: &ProfileEdit) -> Result<ChatSettings, String> {
        let mut chat = self.clone();
        match edit {
            ProfileEdit::Add { preset } => {
                let preset = preset_by_id(preset)?;
                let server = ProviderSettings {
                    base_url: preset.base_url.into(),
                    model: preset.model.into(),
                    ..ProviderSettings::defaults(preset.kind)
                };
                chat.push_selected(preset.label, preset.kind, server);
            }
            ProfileEdit::Provider { id, preset } => {
                let preset = preset_by_id(preset)?;
                let index = chat.index(id)?;
                let old = chat.profiles[index].clone();
                // The user's own words stay; what belonged to the old server
                // (its key, window, image answer, last check) does not.
                let server = ProviderSettings {
                    base_url: preset.base_url.into(),
                    model: preset.model.into(),
                    instructions: old.server.instructions.clone(),
                    ..ProviderSettings::defaults(preset.kind)
                };
                // A name that only repeated the old preset's follows the new one.
                let named_by_preset = old.preset().is_some_and(|p| old.name.starts_with(p.label));
                let profile = &mut chat.profiles[index];
                profile.provider = preset.kind;
                profile.server = server;
                profile.last_check = None;
                if named_by_preset {
                    let others: Vec<String> = chat
                        .profiles
                        .iter()
                        .filter(|p| p.id != *id)
                        .map(|p| p.name.clone())
                        .collect();
                    chat.profiles[index].name = unused_name(preset.label, &others);
                }
            }
            ProfileEdit::Duplicate { id } => {
                let source = chat.find(id)?.clone();
                let name = format!("{} copy", source.name);
                chat.push_selected(&name, source.provider, source.server);
            }
            ProfileEdit::Rename { id, name } => {
                let name: String = name.trim().chars().take(MAX_PROFILE_NAME_CHARS).collect();
                if name.is_empty() {
                    return Err("A profile needs a name.".into());
                }
                let index = chat.index(id)?;
                chat.profiles[index].name = name;
            }
            ProfileEdit::Delete { id } => {
                let index = chat.index(id)?;
                if chat.profiles.len() == 1 {
                    return Err("The last profile cannot be deleted: the chat needs one.".into());
                }
                let was_active = chat.profile().id == *id;
                chat.profiles.remove(index);
                if was_active {
                    let neighbour = index.saturating_sub(1).min(chat.profiles.len() - 1);
                    chat.active_profile = chat.profiles[neighbour].id.clone();
                }
            }
            ProfileEdit::Select { id } => {
                chat.find(id)?;
                chat.active_profile = id.clone();
            }
        }
        Ok(chat)
    }

    fn index(&self, id: &str) -> Result<usize, String> {
        self.profiles
            .iter()
            .position(|p| p.id == id)
            .ok_or_else(|| "That profile no longer exists.".to_string())
    }

    fn find(&self, id: &str) -> Result<&ModelProfile, String> {
        Ok(&self.profiles[self.index(id)?])
    }

    /// Appends a profile with a name no other profile has, and uses it.
    fn push_selected(&mut self, name: &str, provider: ProviderKind, server: ProviderSettings) {
        let taken: Vec<String> = self.profiles.iter().map(|p| p.name.clone()).collect();
        let name = unused_name(name, &taken);
        let id = fresh_profile_id(&self.profiles);
        self.active_profile = id.clone();
        self.profiles.push(ModelProfile {
            id,
            name,
            provider,
            server,
            last_check: None,
        });
    }
}

fn preset_by_id(id: &str) -> Result<&'static crate::settings::presets::ProviderPreset, String> {
    PRESETS
        .iter()
        .find(|p| p.id == id)
        .ok_or_else(|| format!("There is no preset {id:?}."))
}

/// `name`, or `name 2`, `name 3`…: the first that no name in `taken` is.
fn unused_name(name: &str, taken: &[String]) -> String {
    let base: String = name.chars().take(MAX_PROFILE_NAME_CHARS - 4).collect();
    (1..)
        .map(|n| {
            if n == 1 {
                base.clone()
            } else {
                format!("{base} {n}")
            }
        })
        .find(|candidate| taken.iter().all(|t| t != candidate))
        .expect("an unused name")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn edit(chat: &ChatSettings, edit: Value) -> Result<ChatSettings, String> {
        chat.edited(&ProfileEdit::from_json(&edit).expect("an edit"))
    }

    use serde_json::Value;

    fn names(chat: &ChatSettings) -> Vec<&str> {
        chat.profiles.iter().map(|p| p.name.as_str()).collect()
    }

    #[test]
    fn a_preset_fills_a_new_profile_in_use_and_the_others_stay() {
        let start = ChatSettings::default();
        let chat = edit(&start, json!({"action": "add", "preset": "anthropic"})).unwrap();
        assert_eq!(names(&chat), ["Ollama (local)", "Anthropic"]);
        assert_eq!(chat.profiles[0], start.profiles[0]);
        assert_eq!(chat.provider(), ProviderKind::Anthropic);
        assert_eq!(chat.active().base_url, "https://api.anthropic.com");
        assert_eq!(chat.profile().preset().map(|p| p.id), Some("anthropic"));
        // The same preset again gets a name of its own and an id of its own.
        let again = edit(&chat, json!({"action": "add", "preset": "anthropic"})).unwrap();
        assert_eq!(
            names(&again),
            ["Ollama (local)", "Anthropic", "Anthropic 2"]
        );
        assert_eq!(again.active_profile, "profile-3");
        assert!(edit(&chat, json!({"action": "add", "preset": "nope"})).is_err());
    }

    #[test]
    fn picking_a_provider_changes_the_profile_and_adds_none() {
        let start = ChatSettings::default();
        let id = start.profile().id.clone();
        let mut chat = start.clone();
        chat.profiles[0].server.instructions = "Be brief.".into();
        chat.profiles[0].server.api_key_secret = "ollama-key".into();
        let chat = edit(
            &chat,
            json!({"action": "provider", "id": id, "preset": "anthropic"}),
        )
        .unwrap();
        assert_eq!(chat.profiles.len(), 1, "no profile added");
        let profile = chat.profile();
        assert_eq!(profile.id, id);
        assert_eq!(profile.provider, ProviderKind::Anthropic);
        assert_eq!(profile.server.base_url, "https://api.anthropic.com");
        assert_eq!(
            profile.name, "Anthropic",
            "a preset's name follows the preset"
        );
        assert_eq!(
            profile.server.instructions, "Be brief.",
            "the user's words stay"
        );
        assert_eq!(
            profile.server.api_key_secret, "",
            "the old server's key does not"
        );
        // A name the user gave is kept.
        let renamed = edit(&chat, json!({"action": "rename", "id": id, "name": "Work"})).unwrap();
        let back = edit(
            &renamed,
            json!({"action": "provider", "id": id, "preset": "ollama"}),
        )
        .unwrap();
        assert_eq!(back.profile().name, "Work");
        assert!(edit(
            &back,
            json!({"action": "provider", "id": id, "preset": "nope"})
        )
        .is_err());
        assert!(edit(
            &back,
            json!({"action": "provider", "id": "gone", "preset": "ollama"})
        )
        .is_err());
    }

    #[test]
    fn duplicate_rename_select_and_delete() {
        let mut chat = ChatSettings::default();
        chat.profiles[0].server.api_key_secret = "ollama-key".into();
        let chat = edit(&chat, json!({"action": "duplicate", "id": "profile-1"})).unwrap();
        assert_eq!(names(&chat), ["Ollama (local)", "Ollama (local) copy"]);
        assert_eq!(chat.profiles[1].server, chat.profiles[0].server);
        assert_eq!(chat.active_profile, "profile-2");
        let chat = edit(
            &chat,
            json!({"action": "rename", "id": "profile-2", "name": "  Big model "}),
        )
        .unwrap();
        assert_eq!(names(&chat), ["Ollama (local)", "Big model"]);
        assert!(edit(
            &chat,
            json!({"action": "rename", "id": "profile-2", "name": "  "})
        )
        .is_err());
        let chat = edit(&chat, json!({"action": "select", "id": "profile-1"})).unwrap();
        assert_eq!(chat.profile().name, "Ollama (local)");
        assert!(edit(&chat, json!({"action": "select", "id": "profile-9"})).is_err());
        // Deleting the one in use moves to its neighbour; the last one stays.
        let chat = edit(&chat, json!({"action": "delete", "id": "profile-1"})).unwrap();
        assert_eq!(names(&chat), ["Big model"]);
        assert_eq!(chat.active_profile, "profile-2");
        let last = edit(&chat, json!({"action": "delete", "id": "profile-2"}));
        assert!(last.unwrap_err().contains("last profile"));
        // Deleting another one leaves the one in use alone.
        let three = edit(&chat, json!({"action": "add", "preset": "openai"})).unwrap();
        let three = edit(&three, json!({"action": "add", "preset": "ollama"})).unwrap();
        let two = edit(&three, json!({"action": "delete", "id": "profile-2"})).unwrap();
        assert_eq!(two.profile().name, "Ollama (local)");
        for wrong in [
            json!({"action": "drop", "id": "x"}),
            json!({"action": "delete"}),
            json!({"action": "delete", "id": 3}),
            json!({"action": "select", "id": "x", "extra": 1}),
            json!(["select", "x"]),
        ] {
            assert!(ProfileEdit::from_json(&wrong).is_err(), "{wrong}");
        }
    }

    #[test]
    fn summaries_show_the_preset_in_use() {
        let chat = edit(
            &ChatSettings::default(),
            json!({"action": "add", "preset": "openrouter"}),
        )
        .unwrap();
        let mut custom = chat.clone();
        custom.profiles[0].server.base_url = "http://gpu.lan:8000/v1".into();
        let summaries = custom.summaries();
        assert_eq!(summaries[0].preset, None);
        assert_eq!(summaries[0].detail, "llama3.1 · gpu.lan:8000");
        assert_eq!(summaries[1].preset, Some("openrouter"));
        assert_eq!(
            summaries.iter().map(|s| s.active).collect::<Vec<_>>(),
            [false, true]
        );
    }

    #[test]
    fn text_tool_calls_are_off_unless_the_profile_turns_them_on() {
        use crate::settings::normalise;
        // A data.json from before the switch, in both of its older shapes.
        for old in [
            json!({"chat": {"openai": {"baseUrl": "http://localhost:1234/v1", "model": "qwen"}}}),
            json!({"chat": {"activeProfile": "p", "profiles": [{"id": "p", "name": "Mine", "provider": "openAi", "baseUrl": "http://gpu.lan:8000/v1", "model": "m"}]}}),
        ] {
            let n = normalise(&old, &[]);
            assert!(n.repairs.is_empty(), "{:?}", n.repairs);
            assert!(!n.settings.chat.active().text_tool_calls, "{old}");
            // Saved with the switch, and read back the same.
            let saved = n.settings.to_json();
            assert_eq!(saved["chat"]["profiles"][0]["textToolCalls"], false);
            assert_eq!(normalise(&saved, &[]).settings, n.settings);
        }
        // Every preset calls tools natively: a profile made from one starts off.
        let mut chat = ChatSettings::default();
        for preset in PRESETS {
            chat = edit(&chat, json!({"action": "add", "preset": preset.id})).unwrap();
            assert!(!chat.active().text_tool_calls, "{}", preset.id);
        }
        // Turned on for one profile: only that one, kept by a save and a duplicate.
        let on = normalise(
            &json!({"chat": {"profiles": [
                {"id": "a", "provider": "openAi", "textToolCalls": true},
                {"id": "b", "provider": "anthropic"}
            ]}}),
            &[],
        );
        let chat = &on.settings.chat;
        assert!(chat.profiles[0].server.text_tool_calls);
        assert!(!chat.profiles[1].server.text_tool_calls);
        assert_eq!(normalise(&on.settings.to_json(), &[]).settings, on.settings);
        let copy = edit(chat, json!({"action": "duplicate", "id": "a"})).unwrap();
        assert!(copy.active().text_tool_calls);
        // Anything but `true` is off, and said so.
        for wrong in [json!("yes"), json!(1), json!({})] {
            let n = normalise(
                &json!({"chat": {"profiles": [{"id": "a", "textToolCalls": wrong}]}}),
                &[],
            );
            assert!(!n.settings.chat.active().text_tool_calls, "{wrong}");
            assert!(
                n.repairs.iter().any(|r| r.contains("textToolCalls")),
                "{:?}",
                n.repairs
            );
        }
    }
    #[test]
    fn a_model_check_is_kept_with_its_profile_and_read_leniently() {
        use crate::settings::normalise;
        let record = json!({"atMs": 1.5e12, "model": "m", "passed": ["reachable"], "failed": ["toolCall"], "tools": false, "advice": "Turn it on."});
        let n = normalise(
            &json!({"chat": {"profiles": [{"id": "a", "provider": "openAi", "model": "m", "lastCheck": record}]}}),
            &[],
        );
        let kept = n.settings.chat.profile().last_check.clone().unwrap();
        assert_eq!(
            (kept.model.as_str(), kept.tools, kept.failed.clone()),
            ("m", false, vec!["toolCall".to_string()])
        );
        // Saved and read back the same.
        assert_eq!(
            n.settings.to_json()["chat"]["profiles"][0]["lastCheck"],
            record
        );
        assert_eq!(normalise(&n.settings.to_json(), &[]).settings, n.settings);
        // Anything but a whole record is no record: the profile reads as never checked.
        for wrong in [
            json!("yes"),
            json!({"atMs": 1, "model": "m"}),
            json!({"atMs": -1, "model": "m", "passed": [], "failed": [], "tools": true}),
        ] {
            let n = normalise(
                &json!({"chat": {"profiles": [{"id": "a", "lastCheck": wrong}]}}),
                &[],
            );
            assert_eq!(n.settings.chat.profile().last_check, None, "{wrong}");
        }
        // A new profile starts unchecked.
        let chat = edit(&n.settings.chat, json!({"action": "duplicate", "id": "a"})).unwrap();
        assert_eq!(chat.profile().last_check, None);
    }
}
