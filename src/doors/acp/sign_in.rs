//! What to do when a coding agent answers `session/new` with ACP's
//! `auth_required` (-32000): sign in with an API key the user gave it, or
//! stop with what the user must do.
//!
//! Only a key-based method is ever chosen: a browser login cannot be driven
//! from Obsidian, a `terminal` method must not be passed to `authenticate`
//! (ACP), and switching an agent's method clears its cached credentials, so
//! it is done only after the agent said it has none that work. Gemini CLI
//! is the case that matters: since 18 June 2026 it refuses personal Google
//! accounts, and in ACP mode it opens no session until a method is chosen,
//! even with `GEMINI_API_KEY` set.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::settings::agents::CodingAgentProfile;

/// One method from `initialize`'s `authMethods`, as the agent sent it.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct OfferedMethod {
    #[serde(default)]
    pub id: String,
    #[serde(default, rename = "type")]
    pub kind: Option<String>,
    #[serde(default, rename = "_meta")]
    pub meta: Option<Value>,
}

/// The next step after `auth_required`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "step", rename_all = "camelCase")]
pub enum SignIn {
    /// `authenticate` with this method, then `session/new` once more.
    #[serde(rename_all = "camelCase")]
    Authenticate { method_id: String },
    /// Stop: the message says what the user must do.
    Refuse { message: String },
}

/// Built-in agents whose key method has its own id (besides the
/// `_meta["api-key"]` mark the ACP registry uses), and what to tell the user.
const KNOWN: [(&str, &str, &str); 1] = [(
    "gemini",
    "gemini-api-key",
    "Gemini CLI signs in with a Gemini API key: Google stopped serving personal Google accounts in Gemini CLI on 18 June 2026. Create a key at aistudio.google.com/apikey, keep it in Obsidian's secret storage, and name that secret for GEMINI_API_KEY in Settings → Vault Agent → Coding agents.",
)];

/// What to do after `agent` answered `auth_required`. `keys_set`: the
/// environment names of its keys that hold a value (from a secret or
/// Obsidian's own environment); `tried`: an `authenticate` with a key was
/// already answered with `failure` (the agent's words).
pub fn sign_in(
    agent: &CodingAgentProfile,
    offered: &[OfferedMethod],
    keys_set: &[String],
    tried: Option<&str>,
) -> SignIn {
    let known = KNOWN.iter().find(|(id, _, _)| *id == agent.id);
    let has_key = agent.env_secrets.keys().any(|name| keys_set.contains(name));
    if tried.is_none() && has_key {
        let key_method = offered.iter().find(|method| {
            method.kind.as_deref().is_none_or(|kind| kind == "agent")
                && (known.is_some_and(|(_, id, _)| *id == method.id)
                    || method
                        .meta
                        .as_ref()
                        .is_some_and(|meta| meta.get("api-key").is_some()))
        });
        if let Some(method) = key_method {
            return SignIn::Authenticate {
                method_id: method.id.clone(),
            };
        }
    }
    let name = &agent.name;
    let help = match known {
        Some((_, _, help)) => help.to_string(),
        None if agent.env_secrets.is_empty() => format!(
            "Sign in to it once in a terminal (run {} there), then start it again here.",
            agent.command
        ),
        None => {
            let keys: Vec<&str> = agent.env_secrets.keys().map(String::as_str).collect();
            format!(
                "Sign in to it once in a terminal (run {} there), or keep its API key in Obsidian's secret storage and name that secret for {} in Settings → Vault Agent → Coding agents.",
                agent.command,
                keys.join(" or ")
            )
        }
    };
    let message = match tried {
        Some(failure) if !failure.trim().is_empty() => format!(
            "{name} did not accept its API key ({}). {help}",
            failure.trim().chars().take(300).collect::<String>()
        ),
        Some(_) => format!("{name} did not accept its API key. {help}"),
        None if has_key => format!(
            "{name} asks for a sign-in and offers no way to use the API key it was given. {help}"
        ),
        None => format!("{name} asks for a sign-in before it opens a session. {help}"),
    };
    SignIn::Refuse { message }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::agents::CodingAgents;

    fn profile(id: &str) -> CodingAgentProfile {
        CodingAgents::default()
            .profiles()
            .into_iter()
            .find(|p| p.id == id)
            .unwrap()
    }

    /// What Gemini CLI's `initialize` offers (packages/cli/src/acp, 2026).
    fn gemini_offers() -> Vec<OfferedMethod> {
        serde_json::from_value(serde_json::json!([
            { "id": "oauth-personal", "name": "Log in with Google" },
            { "id": "gemini-api-key", "name": "Gemini API key", "_meta": { "api-key": { "provider": "google" } } },
            { "id": "vertex-ai", "name": "Vertex AI" },
            { "id": "gateway", "name": "AI API Gateway", "_meta": { "gateway": {} } }
        ]))
        .unwrap()
    }

    #[test]
    fn gemini_cli_starts_with_acp_not_the_deprecated_flag() {
        // `--experimental-acp` still works in 2026 but warns; `--acp` since 0.33.
        assert_eq!(profile("gemini").args, ["--acp"]);
    }

    #[test]
    fn gemini_with_its_key_signs_in_with_the_key_never_the_google_login() {
        let step = sign_in(
            &profile("gemini"),
            &gemini_offers(),
            &["GEMINI_API_KEY".into()],
            None,
        );
        assert_eq!(
            step,
            SignIn::Authenticate {
                method_id: "gemini-api-key".into()
            }
        );
    }

    #[test]
    fn gemini_without_a_key_says_where_to_put_one_and_why() {
        let SignIn::Refuse { message } = sign_in(&profile("gemini"), &gemini_offers(), &[], None)
        else {
            panic!("no key: nothing to sign in with");
        };
        assert!(message.contains("GEMINI_API_KEY"), "{message}");
        assert!(
            message.contains("Settings → Vault Agent → Coding agents"),
            "{message}"
        );
        assert!(message.contains("18 June 2026"), "{message}");
    }

    #[test]
    fn a_refused_key_is_not_tried_again_and_the_agents_words_are_kept() {
        let step = sign_in(
            &profile("gemini"),
            &gemini_offers(),
            &["GEMINI_API_KEY".into()],
            Some("API key not valid"),
        );
        let SignIn::Refuse { message } = step else {
            panic!("one try only");
        };
        assert!(
            message.contains("did not accept its API key (API key not valid)"),
            "{message}"
        );
    }

    #[test]
    fn a_key_method_is_found_by_the_registrys_mark_and_a_terminal_method_never() {
        let offers: Vec<OfferedMethod> = serde_json::from_value(serde_json::json!([
            { "id": "login", "type": "terminal", "_meta": { "api-key": {} } },
            { "id": "key", "_meta": { "api-key": { "provider": "openai" } } }
        ]))
        .unwrap();
        let step = sign_in(&profile("codex"), &offers, &["OPENAI_API_KEY".into()], None);
        assert_eq!(
            step,
            SignIn::Authenticate {
                method_id: "key".into()
            }
        );
        let terminal_only = &offers[..1];
        let SignIn::Refuse { message } = sign_in(
            &profile("codex"),
            terminal_only,
            &["OPENAI_API_KEY".into()],
            None,
        ) else {
            panic!("a terminal method is never passed to authenticate");
        };
        assert!(
            message.contains("offers no way to use the API key"),
            "{message}"
        );
        assert!(message.contains("OPENAI_API_KEY"), "{message}");
    }

    #[test]
    fn a_key_of_another_agent_does_not_count() {
        let step = sign_in(
            &profile("gemini"),
            &gemini_offers(),
            &["OPENAI_API_KEY".into()],
            None,
        );
        assert!(matches!(step, SignIn::Refuse { .. }));
    }
}
