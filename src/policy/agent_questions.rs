//! A coding agent's own permission questions (ACP `session/request_permission`):
//! which are answered without the user, and which go to a card.
//!
//! The agent asks before actions it runs itself (a shell command, its own
//! edit); its writes through the chat are our tools and follow `policy::check`.
//! The rules, in order:
//! - Read only: an action that may change something is rejected at once with
//!   the agent's own reject option, whatever was said "always" before (the
//!   user's mode outranks an earlier click). Reading, searching, thinking and
//!   fetching are still asked. An agent that offers no reject option gets
//!   ACP's `cancelled` outcome instead: refused all the same, never put to
//!   the user (who could only allow it).
//! - An "always" answer (allow or reject) given in this session is given again
//!   for the same action (its kind and title). It is kept on the session's door
//!   and goes when the door closes, so it never outlives the session.
//! - Everything else is asked.

use serde::{Deserialize, Serialize};

use crate::settings::PermissionMode;

/// One answer the agent offers (`allow_once`, `allow_always`, `reject_once`,
/// `reject_always`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct AgentOption {
    pub option_id: String,
    pub kind: String,
}

/// The question: the agent's kind of action (ACP `ToolKind`), its title, its options.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct AgentQuestion {
    pub kind: String,
    pub title: String,
    pub options: Vec<AgentOption>,
}

/// Why an answer was given without the user.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum AnsweredBecause {
    /// The chat is Read only and the action may change something.
    ReadOnly,
    /// The user chose "always" for this action earlier in the session.
    Always,
}

/// Ask the user, answer with one of the agent's options, or refuse where
/// it offered none to refuse with.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", tag = "decision")]
pub enum AgentAnswer {
    Ask,
    #[serde(rename_all = "camelCase")]
    Answer {
        option_id: String,
        because: AnsweredBecause,
    },
    /// Refused with ACP's `cancelled` outcome: the agent offered no reject option.
    #[serde(rename_all = "camelCase")]
    Cancel {
        because: AnsweredBecause,
    },
}

/// Kinds of action that only look: asked even in Read only. `switch_mode` is
/// the agent asking to leave a planning mode; what it does next is asked (or
/// refused) on its own.
const LOOKING_KINDS: &[&str] = &["read", "search", "think", "fetch", "switch_mode"];

/// The "always" answers given in one session, by action.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AlwaysAnswers(Vec<(String, String)>);

impl AlwaysAnswers {
    fn key(question: &AgentQuestion) -> String {
        format!("{}\u{0}{}", question.kind, question.title)
    }

    /// Keeps `option_id` for this action when it is an "always" option.
    pub fn remember(&mut self, question: &AgentQuestion, option_id: &str) {
        let Some(option) = question.options.iter().find(|o| o.option_id == option_id) else {
            return;
        };
        if !option.kind.ends_with("_always") {
            return;
        }
        let key = Self::key(question);
        self.0.retain(|(k, _)| *k != key);
        self.0.push((key, option_id.to_string()));
    }

    fn recalled(&self, question: &AgentQuestion) -> Option<&str> {
        let key = Self::key(question);
        self.0
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, id)| id.as_str())
    }
}

/// The answer to `question` under `mode`, given what was said "always".
pub fn answer(
    mode: PermissionMode,
    question: &AgentQuestion,
    always: &AlwaysAnswers,
) -> AgentAnswer {
    let option_of_kind = |kind: &str| question.options.iter().find(|o| o.kind == kind);
    if mode == PermissionMode::ReadOnly && !LOOKING_KINDS.contains(&question.kind.as_str()) {
        if let Some(reject) =
            option_of_kind("reject_once").or_else(|| option_of_kind("reject_always"))
        {
            return AgentAnswer::Answer {
                option_id: reject.option_id.clone(),
                because: AnsweredBecause::ReadOnly,
            };
        }
        return AgentAnswer::Cancel {
            because: AnsweredBecause::ReadOnly,
        };
    }
    // Still offered, and still an "always" option: an agent may reuse ids.
    let recalled = always.recalled(question).and_then(|id| {
        question
            .options
            .iter()
            .find(|o| o.option_id == id && o.kind.ends_with("_always"))
    });
    match recalled {
        Some(option) => AgentAnswer::Answer {
            option_id: option.option_id.clone(),
            because: AnsweredBecause::Always,
        },
        None => AgentAnswer::Ask,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn question(kind: &str, title: &str) -> AgentQuestion {
        let option = |id: &str, kind: &str| AgentOption {
            option_id: id.into(),
            kind: kind.into(),
        };
        AgentQuestion {
            kind: kind.into(),
            title: title.into(),
            options: vec![
                option("once", "allow_once"),
                option("always", "allow_always"),
                option("no", "reject_once"),
                option("never", "reject_always"),
            ],
        }
    }

    fn answered(option_id: &str, because: AnsweredBecause) -> AgentAnswer {
        AgentAnswer::Answer {
            option_id: option_id.into(),
            because,
        }
    }

    #[test]
    fn read_only_rejects_actions_that_may_change_something_and_asks_about_looking() {
        let none = AlwaysAnswers::default();
        for kind in ["edit", "delete", "move", "execute", "other", ""] {
            assert_eq!(
                answer(PermissionMode::ReadOnly, &question(kind, "x"), &none),
                answered("no", AnsweredBecause::ReadOnly),
                "{kind}"
            );
        }
        for kind in LOOKING_KINDS {
            assert_eq!(
                answer(PermissionMode::ReadOnly, &question(kind, "x"), &none),
                AgentAnswer::Ask
            );
        }
        for mode in [
            PermissionMode::AskEveryChange,
            PermissionMode::AskBeforeEdits,
        ] {
            assert_eq!(
                answer(mode, &question("execute", "x"), &none),
                AgentAnswer::Ask
            );
        }
    }

    #[test]
    fn read_only_without_a_reject_option_refuses_without_asking_the_user() {
        let mut q = question("execute", "Run it");
        q.options.retain(|o| o.kind.starts_with("allow"));
        assert_eq!(
            answer(PermissionMode::ReadOnly, &q, &AlwaysAnswers::default()),
            AgentAnswer::Cancel {
                because: AnsweredBecause::ReadOnly
            }
        );
        let mut always = AlwaysAnswers::default();
        always.remember(&q, "always");
        assert_eq!(
            answer(PermissionMode::ReadOnly, &q, &always),
            AgentAnswer::Cancel {
                because: AnsweredBecause::ReadOnly
            },
            "not even after an always allow"
        );
        let mut looking = q.clone();
        looking.kind = "read".into();
        assert_eq!(
            answer(
                PermissionMode::ReadOnly,
                &looking,
                &AlwaysAnswers::default()
            ),
            AgentAnswer::Ask,
            "looking is still asked"
        );
        assert_eq!(
            answer(
                PermissionMode::AskEveryChange,
                &q,
                &AlwaysAnswers::default()
            ),
            AgentAnswer::Ask,
            "outside Read only the user decides"
        );
        q.options.push(AgentOption {
            option_id: "never".into(),
            kind: "reject_always".into(),
        });
        assert_eq!(
            answer(PermissionMode::ReadOnly, &q, &AlwaysAnswers::default()),
            answered("never", AnsweredBecause::ReadOnly)
        );
    }

    #[test]
    fn an_always_answer_is_given_again_for_the_same_action_only() {
        let mut always = AlwaysAnswers::default();
        let lint = question("execute", "Run the linter");
        always.remember(&lint, "once");
        assert_eq!(
            answer(PermissionMode::AskEveryChange, &lint, &always),
            AgentAnswer::Ask,
            "once is not remembered"
        );
        always.remember(&lint, "always");
        assert_eq!(
            answer(PermissionMode::AskEveryChange, &lint, &always),
            answered("always", AnsweredBecause::Always)
        );
        assert_eq!(
            answer(
                PermissionMode::AskEveryChange,
                &question("execute", "Run the tests"),
                &always
            ),
            AgentAnswer::Ask,
            "another action is asked"
        );
        always.remember(&lint, "never");
        assert_eq!(
            answer(PermissionMode::AskBeforeEdits, &lint, &always),
            answered("never", AnsweredBecause::Always),
            "reject always is remembered too, and replaces the allow"
        );
    }

    #[test]
    fn read_only_outranks_an_earlier_always_allow() {
        let mut always = AlwaysAnswers::default();
        let lint = question("execute", "Run the linter");
        always.remember(&lint, "always");
        assert_eq!(
            answer(PermissionMode::ReadOnly, &lint, &always),
            answered("no", AnsweredBecause::ReadOnly)
        );
    }

    #[test]
    fn a_remembered_id_that_is_no_longer_an_always_option_is_asked() {
        let mut always = AlwaysAnswers::default();
        let lint = question("execute", "Run the linter");
        always.remember(&lint, "always");
        let mut changed = lint.clone();
        changed.options[1].kind = "allow_once".into();
        assert_eq!(
            answer(PermissionMode::AskEveryChange, &changed, &always),
            AgentAnswer::Ask
        );
        changed.options.remove(1);
        assert_eq!(
            answer(PermissionMode::AskEveryChange, &changed, &always),
            AgentAnswer::Ask
        );
    }
}
