//! The one result type every caller gets back: the model, the UI, other plugins.

use serde::{Deserialize, Serialize};

use crate::base::card::PendingView;
use crate::base::diff::NoteDiff;
use crate::base::error::ToolError;
use crate::base::host::ImageData;

/// A stable error code and a message that says what to do next.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ErrorInfo {
    pub code: String,
    pub message: String,
    /// True when the user, not the model, has to act (a setting, the app,
    /// the CLI): the chat shows the message as a banner too.
    #[serde(
        rename = "userFix",
        default,
        skip_serializing_if = "std::ops::Not::not"
    )]
    pub user_fix: bool,
    /// True when the user said no to the call (a card's Reject): nothing
    /// ran, by their choice, so the chat shows it as rejected, not failed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rejected: bool,
}

/// The outcome of one tool call.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ToolResult {
    pub ok: bool,
    /// What to show: the CLI's output, or the error message.
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub error: Option<ErrorInfo>,
    /// The resolved CLI binary, when the call got that far.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub program: Option<String>,
    /// The exact arguments given to the process after the program.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub argv: Option<Vec<String>>,
    /// True when the output cap cut the text (the text ends with a notice).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub truncated: Option<bool>,
    /// True for the CLI's "No … found." answers and silent successes.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub empty: bool,
    /// Set when the write waits for the user's click; nothing has run yet.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub pending: Option<PendingView>,
    /// What a change did to the note (or the value), for the tool block to
    /// show folded. On `undo_conflict`: what the agent wrote against what the
    /// note holds now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub diff: Option<NoteDiff>,
    /// The undo journal's entry of a change that ran (only the plugin's own
    /// buttons undo it; neither the model nor the API can).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub journal: Option<JournalRef>,
    /// Entries the folder scopes left out of a vault-wide answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub withheld: Option<usize>,
    /// The notes and headings a ranked search answered with: what the chat
    /// may show as an answer's sources.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub found: Option<Vec<NoteHeading>>,
    /// What carried the call out when it was not the CLI (whose `argv`
    /// says so): the tool block is labelled by it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub ran: Option<Ran>,
    /// Images an outside tool returned (checked by the core: a known type,
    /// base64, capped), shown in the tool block and, when the profile's
    /// model reads images, sent to it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(test, ts(as = "Option<Vec<ImageData>>", optional))]
    pub images: Vec<ImageData>,
    /// What an outside server answered, in its own words, for the user: the
    /// text less the lines written for the model (an image's line when the
    /// image is shown, the note on what to do after an error). The chat
    /// shows it apart from the plugin's words, since it may try to speak
    /// for the plugin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub reply: Option<String>,
    pub duration_ms: f64,
}

/// A note and one of its headings (`Parent::Child`, empty for the text
/// before the first heading).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct NoteHeading {
    pub path: String,
    pub heading: String,
}

/// A call carried out by Obsidian's vault or computed by the plugin, as
/// the chat's tool block shows it: the tool's one name (the settings show the
/// same), what ran it instead of the CLI, and the words of its line (the
/// operation and the notes it touched).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Ran {
    pub label: String,
    /// What ran it: Obsidian's vault, a computed report, the plugin's index
    /// (empty in a chat stored before it was kept apart from the label).
    #[serde(default)]
    pub by: String,
    pub words: Vec<String>,
}

impl Ran {
    pub const VAULT: &'static str = "Obsidian's vault";
    pub const COMPUTED: &'static str = "computed report";
    pub const SEARCH: &'static str = "the plugin's index";

    /// `tool` is the tool's name, kept as it is so that one tool has one
    /// name everywhere; `by` says what ran this call instead of the CLI.
    pub fn new(tool: &str, by: &str, words: Vec<String>) -> Self {
        Ran {
            label: tool.to_string(),
            by: by.to_string(),
            words,
        }
    }

    /// The model's arguments as words: `command key=value …`, each value on
    /// one line (a newline in a value would read as a literal `\n`).
    pub fn argument_words(command: &str, args: &serde_json::Value) -> Vec<String> {
        let pairs = args.as_object().into_iter().flatten();
        std::iter::once(command.to_string())
            .chain(
                pairs
                    .filter(|(key, _)| *key != "command")
                    .map(|(key, value)| match value {
                        serde_json::Value::Bool(true) => key.clone(),
                        serde_json::Value::String(text) => {
                            let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
                            if line.contains(' ') || line.is_empty() {
                                format!("{key}=\"{line}\"")
                            } else {
                                format!("{key}={line}")
                            }
                        }
                        other => format!("{key}={other}"),
                    }),
            )
            .collect()
    }
}

/// A result's link to its entry in the undo journal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct JournalRef {
    pub entry: String,
    /// The chat answer the change belongs to, if it came from the chat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub turn: Option<String>,
    pub undoable: bool,
    /// Why it cannot be undone (the button's tooltip).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub reason: Option<String>,
    /// On `undo_conflict`: the hash of the text the user was shown, which
    /// "Undo anyway" must send back (if the note changed again, it asks again).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub conflict_hash: Option<String>,
}

impl ToolResult {
    pub fn failure(error: &ToolError, duration_ms: f64) -> Self {
        let message = error.to_string();
        ToolResult {
            ok: false,
            text: message.clone(),
            error: Some(ErrorInfo {
                code: error.code().to_string(),
                message,
                user_fix: error.user_fix(),
                rejected: matches!(error, ToolError::ConfirmationRejected),
            }),
            program: None,
            argv: None,
            truncated: None,
            empty: false,
            pending: None,
            diff: None,
            journal: None,
            withheld: None,
            found: None,
            ran: None,
            images: Vec::new(),
            reply: None,
            duration_ms,
        }
    }

    /// A write waiting for the user's click: not a failure, not done yet.
    pub fn pending(pending: PendingView, argv: Vec<String>) -> Self {
        ToolResult {
            ok: false,
            text: format!(
                "Waiting for the user to approve: {}. Nothing has changed yet; the user sees the change and decides.",
                pending.summary
            ),
            error: None,
            program: None,
            argv: Some(argv),
            truncated: None,
            empty: false,
            pending: Some(pending),
            diff: None,
            journal: None,
            withheld: None,
            found: None,
            ran: None,
            images: Vec::new(),
            reply: None,
            duration_ms: 0.0,
        }
    }

    /// A success with `text` (for results the core makes itself).
    pub fn success(text: impl Into<String>) -> Self {
        ToolResult {
            ok: true,
            text: text.into(),
            error: None,
            ..ToolResult::failure(&ToolError::EmptyOutput, 0.0)
        }
    }

    /// Says what ran the call, unless the result says so already.
    pub fn ran_by(mut self, ran: Ran) -> Self {
        if self.ran.is_none() {
            self.ran = Some(ran);
        }
        self
    }

    /// The error code, if any (handy in tests and logs).
    pub fn code(&self) -> Option<&str> {
        self.error.as_ref().map(|e| e.code.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::Ran;

    #[test]
    fn a_label_is_the_tools_one_name_and_by_says_what_ran() {
        let ran = Ran::new("Vault hygiene", Ran::COMPUTED, Vec::new());
        assert_eq!(
            (ran.label.as_str(), ran.by.as_str()),
            ("Vault hygiene", "computed report")
        );
        let ran = Ran::new("Organise notes", Ran::VAULT, Vec::new());
        assert_eq!(
            (ran.label.as_str(), ran.by.as_str()),
            ("Organise notes", "Obsidian's vault")
        );
    }

    #[test]
    fn argument_words_keep_each_value_on_one_line() {
        let args = serde_json::json!({"command": "orphans", "folder": "Daily notes", "all": true, "note": "a\nb", "limit": 5});
        assert_eq!(
            Ran::argument_words("orphans", &args),
            [
                "orphans",
                "folder=\"Daily notes\"",
                "all",
                "note=\"a b\"",
                "limit=5"
            ]
        );
    }
}
