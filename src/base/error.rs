//! The one error type every front end sees. Each variant has a stable `code`
//! (part of the public API: do not rename) and a message that says what to do next.

use thiserror::Error;

/// Where the user sets the CLI's path (said by this error and by discovery).
pub const PATH_SETTING: &str = "Settings → Vault Agent → Advanced → Path to the Obsidian CLI";

/// Why a tool call did not produce a result.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum ToolError {
    #[error("{}", cli_not_found_message(.setting_problem, .tried))]
    CliNotFound {
        /// What is wrong with the user's own path setting, said first.
        setting_problem: Option<String>,
        tried: Vec<String>,
    },

    #[error("Obsidian is not running, or the CLI cannot reach it ({detail}). Start Obsidian, wait until the vault is open, and try again.")]
    AppNotRunning { detail: String },

    #[error("{}", vault_not_found_message(.vault))]
    VaultNotFound { vault: Option<String> },

    #[error("The Obsidian CLI reported an error: {output}{}", hint_suffix(.hint))]
    CliError {
        output: String,
        hint: Option<String>,
    },

    #[error("The Obsidian CLI did not finish within {timeout_ms} ms and was stopped. If Obsidian is busy, try again, or raise the timeout in Settings → Vault Agent → Advanced → Timeout (seconds).")]
    Timeout { timeout_ms: u32 },

    #[error("The Obsidian CLI was killed by signal {signal} before it finished. Try again; if it keeps happening, run the same command in a terminal to see what goes wrong.")]
    Killed { signal: String },

    #[error("The Obsidian CLI wrote at least {} of error text and was stopped by the plugin's output guard{}. Run the same command in a terminal to see what goes wrong.", crate::base::text::human_bytes(*.bytes), detail_suffix(.first_line))]
    OutputFlood { bytes: u64, first_line: String },

    #[error("The Obsidian CLI exited with status {status}{}. Run the same command in a terminal to see what goes wrong.", detail_suffix(.detail))]
    ExitStatus { status: i32, detail: String },

    #[error("The Obsidian CLI printed nothing. Obsidian may still be opening the vault; wait a moment and try again.")]
    EmptyOutput,

    #[error("Unknown tool \"{tool}\". Available tools: {available}.")]
    UnknownTool { tool: String, available: String },

    /// `place`: where its switch is ("in Settings → Vault Agent → Tools", or
    /// the switch of its own and its page: `settings::switch_place`).
    #[error("The tool {tool} is turned off. The user can turn it on {place}. Tools that are on: {available}.")]
    ToolDisabled {
        tool: String,
        place: String,
        available: String,
    },

    #[error("Invalid arguments for {tool}: {problem}")]
    InvalidArguments { tool: String, problem: String },

    #[error("\"{command}\" is not a command of {tool}. {reason}")]
    CommandNotAllowed {
        tool: String,
        command: String,
        reason: String,
    },

    #[error("The Obsidian CLI tools need the Obsidian desktop app; they are not available on this device.")]
    UnsupportedPlatform,

    #[error("{lead} \"{mode}\", so {tool} {command} did not run and nothing changed. The user can choose another mode {place}.")]
    WritesDisabled {
        tool: String,
        command: String,
        mode: &'static str,
        /// The setting's name and where it is (`settings::ModeSetting`).
        lead: &'static str,
        place: &'static str,
    },

    #[error("{command} changes a note but does not say which one, so the CLI would change the note open in Obsidian; it was refused. {fix}")]
    MissingTarget { command: String, fix: String },

    #[error("{command} would {verb} `{key}` inside {config_dir}/, the vault's configuration folder (Obsidian's settings and plugins, this one and its keys included), so it was refused. The agent works with notes, never with {config_dir}/.")]
    ConfigFolder {
        command: String,
        verb: &'static str,
        key: String,
        config_dir: String,
    },

    #[error("{command} cannot {verb} {place}: the agent may {verb} only in {folders} (set by the user in Settings → Vault Agent → Safety). Nothing ran. {fix}")]
    OutOfScope {
        command: String,
        place: String,
        verb: &'static str,
        folders: String,
        fix: String,
    },

    #[error("{target} already exists, so nothing was created. To change it use obsidianEdit `append`, `prepend` or `edit`; to make another note choose another name.")]
    NoteExists { target: String },

    #[error("There is no note {target}. Check the name with obsidianNotes `files` or obsidianSearch, or use `path` with the exact path.")]
    NoteNotFound { target: String },

    #[error("The text to find is not in {target}, so nothing changed.{}", near_suffix(.near))]
    FindNotFound { target: String, near: Vec<usize> },

    #[error("The text to find occurs {} times in {target} (lines {}), so nothing changed. Give a longer `find` that occurs once, or `all: true` to change every one.", .lines.len(), join_numbers(.lines))]
    FindAmbiguous { target: String, lines: Vec<usize> },

    #[error("{target} has no heading \"{heading}\", so nothing changed. Its headings: {}.", list_or_none(.headings))]
    HeadingNotFound {
        target: String,
        heading: String,
        headings: Vec<String>,
    },

    #[error("\"{heading}\" names several headings in {target}: {}. Give the path with its parents, e.g. \"Parent::Heading\".", .candidates.join("; "))]
    HeadingAmbiguous {
        target: String,
        heading: String,
        candidates: Vec<String>,
    },

    #[error("{target} changed after you selected the text, so the rewrite was not proposed: the selection may no longer be the text you meant. Select the text again and ask for the rewrite again.")]
    SelectionChanged { target: String },

    #[error("This edit would leave {target} exactly as it is, so there is nothing to approve.")]
    NothingToChange { target: String },

    #[error("The text is too long for one command line: {detail}. Nothing was written.")]
    TooLargeForCli { detail: String },

    #[error("The write to {target} could not be confirmed by reading the note back: {detail}. Read the note to see what it holds now.")]
    WriteNotVerified { target: String, detail: String },

    #[error("Obsidian could not read or write {target}: {detail}.")]
    VaultFailed { target: String, detail: String },

    #[error("{target} is too large for a coding agent to read: {size}, more than the {max} it may read at once, so none of it was sent (a shortened text could be taken for the whole note). Work with a smaller note, or ask the user to split this one.")]
    NoteTooLarge {
        target: String,
        size: String,
        max: String,
    },

    #[error("{request} was refused: Vault Agent answers an agent's file requests and permission questions only while its turn runs (between the user's message and the end of the answer), where the user can see them{}. Ask again during your next turn.", if *.ended { "; this session was closed" } else { "" })]
    OutsideTurn { request: String, ended: bool },

    #[error("{target} is not UTF-8 text ({detail}), so it was not edited: writing it back as text would change bytes the edit does not touch. Edit it in the program it belongs to, or save it as UTF-8 first.")]
    NotUtf8 { target: String, detail: String },

    #[error("{target} {detail}, so nothing was changed: the agent changes only files inside the vault, never through a symbolic link that leads out of it or into the configuration folder.")]
    PathOutsideVault { target: String, detail: String },

    #[error("{target} {detail}, so it was not read: the agent reads a file only where its real place on disk, every symbolic link followed, lies inside the vault and the folders it may read. Ask the user to add that folder to the folders the agent may read (Settings → Vault Agent → Safety), or read another note.")]
    ReadThroughLink { target: String, detail: String },

    #[error("The web request was not made or did not answer: {detail}.")]
    WebFailed { detail: String },

    #[error("There is no pending confirmation \"{id}\". It may have been answered already or the plugin was reloaded; ask for the change again.")]
    ConfirmationNotFound { id: String },

    #[error("This confirmation was already answered ({state}); each one can be used once. Ask for the change again to get a new one.")]
    ConfirmationUsed { state: String },

    #[error("This confirmation expired before it was approved, so nothing changed. Ask for the change again.")]
    ConfirmationExpired,

    #[error("The user rejected this change, so nothing changed.")]
    ConfirmationRejected,

    #[error(
        "The approval was for a different command line than the pending change, so nothing ran."
    )]
    ArgvMismatch,

    #[error("{target} changed since the preview was made (now: {now}), so the change did not run{}", stale_suffix(.refused_again))]
    Stale {
        target: String,
        now: String,
        /// Why the same call, asked again against what is there now, was
        /// refused; `None` when a new preview is waiting.
        refused_again: Option<String>,
    },

    #[error("{target} changed after the agent's change ({detail}), so it was not undone. The difference shows what the agent left and what is there now: Undo anyway puts back what was there before the agent's change, replacing the later changes shown; Keep leaves it as it is.")]
    UndoConflict { target: String, detail: String },

    #[error("The agent's change to {target} was already undone; each change can be undone once.")]
    AlreadyUndone { target: String },

    #[error("The agent's change to {target} cannot be undone: {reason}")]
    NotUndoable { target: String, reason: String },

    #[error("{target} is no longer there (moved, renamed or deleted), so the agent's change to it cannot be undone.")]
    UndoTargetMissing { target: String },

    #[error("The undo journal has no change \"{id}\". It keeps the last {kept} changes; older ones were dropped.")]
    UndoNotFound {
        id: String,
        /// How many changes the journal keeps (`engine::journal::MAX_ENTRIES`).
        kept: usize,
    },

    #[error("There is no change of the agent left to undo{}.", scope_suffix(.scope))]
    NothingToUndo { scope: Option<String> },
}

impl ToolError {
    /// Whether only the user can fix this (a setting, the app, the CLI), so
    /// the chat shows it to them and not only to the model.
    pub fn user_fix(&self) -> bool {
        matches!(
            self,
            ToolError::WritesDisabled { .. }
                | ToolError::CliNotFound { .. }
                | ToolError::AppNotRunning { .. }
                | ToolError::VaultNotFound { .. }
                | ToolError::ToolDisabled { .. }
        )
    }

    /// The stable, machine-readable code of this error.
    pub fn code(&self) -> &'static str {
        match self {
            ToolError::CliNotFound { .. } => "cli_not_found",
            ToolError::AppNotRunning { .. } => "app_not_running",
            ToolError::VaultNotFound { .. } => "vault_not_found",
            ToolError::CliError { .. } => "cli_error",
            ToolError::Timeout { .. } => "timeout",
            ToolError::Killed { .. } => "killed",
            ToolError::ExitStatus { .. } => "exit_status",
            ToolError::OutputFlood { .. } => "output_flood",
            ToolError::EmptyOutput => "empty_output",
            ToolError::UnknownTool { .. } => "unknown_tool",
            ToolError::ToolDisabled { .. } => "tool_disabled",
            ToolError::InvalidArguments { .. } => "invalid_arguments",
            ToolError::CommandNotAllowed { .. } => "command_not_allowed",
            ToolError::UnsupportedPlatform => "unsupported_platform",
            ToolError::WritesDisabled { .. } => "writes_disabled",
            ToolError::MissingTarget { .. } => "missing_target",
            ToolError::ConfigFolder { .. } => "config_folder",
            ToolError::OutOfScope { .. } => "out_of_scope",
            ToolError::NoteExists { .. } => "note_exists",
            ToolError::NoteNotFound { .. } => "note_not_found",
            ToolError::FindNotFound { .. } => "find_not_found",
            ToolError::FindAmbiguous { .. } => "find_ambiguous",
            ToolError::HeadingNotFound { .. } => "heading_not_found",
            ToolError::HeadingAmbiguous { .. } => "heading_ambiguous",
            ToolError::NothingToChange { .. } => "nothing_to_change",
            ToolError::SelectionChanged { .. } => "selection_changed",
            ToolError::TooLargeForCli { .. } => "too_large_for_cli",
            ToolError::WriteNotVerified { .. } => "write_not_verified",
            ToolError::VaultFailed { .. } => "vault_failed",
            ToolError::NoteTooLarge { .. } => "note_too_large",
            ToolError::OutsideTurn { .. } => "outside_turn",
            ToolError::NotUtf8 { .. } => "not_utf8",
            ToolError::PathOutsideVault { .. } => "path_outside_vault",
            ToolError::ReadThroughLink { .. } => "read_through_link",
            ToolError::ConfirmationNotFound { .. } => "confirmation_not_found",
            ToolError::ConfirmationUsed { .. } => "confirmation_used",
            ToolError::ConfirmationExpired => "confirmation_expired",
            ToolError::ConfirmationRejected => "confirmation_rejected",
            ToolError::ArgvMismatch => "argv_mismatch",
            ToolError::Stale { .. } => "stale",
            ToolError::UndoConflict { .. } => "undo_conflict",
            ToolError::AlreadyUndone { .. } => "already_undone",
            ToolError::NotUndoable { .. } => "not_undoable",
            ToolError::UndoTargetMissing { .. } => "undo_target_missing",
            ToolError::UndoNotFound { .. } => "undo_not_found",
            ToolError::NothingToUndo { .. } => "nothing_to_undo",
            ToolError::WebFailed { .. } => "web_failed",
        }
    }

    pub fn invalid(tool: &str, problem: impl Into<String>) -> Self {
        ToolError::InvalidArguments {
            tool: tool.to_string(),
            problem: problem.into(),
        }
    }
}

fn cli_not_found_message(setting_problem: &Option<String>, tried: &[String]) -> String {
    const TURN_ON: &str = "Turn it on in Obsidian: Settings → General → Command line interface, \
         and accept the prompt to register it (needs the Obsidian 1.12.7 installer or later).";
    let mut message = match setting_problem {
        Some(problem) => format!("{problem} No Obsidian CLI was found elsewhere either. {TURN_ON}"),
        None => format!(
            "The Obsidian CLI was not found. {TURN_ON} Or set its full path in {}.",
            PATH_SETTING
        ),
    };
    if !tried.is_empty() {
        message.push_str(if setting_problem.is_some() {
            " Also looked in: "
        } else {
            " Looked in: "
        });
        message.push_str(&tried.join("; "));
        message.push('.');
    }
    message
}

fn vault_not_found_message(vault: &Option<String>) -> String {
    match vault {
        Some(name) => format!(
            "Obsidian has no vault named \"{name}\". Fix the vault name in Settings → Vault Agent → Advanced → Vault name, or leave it empty to use the open vault."
        ),
        None => "Obsidian could not tell which vault to use. Open the vault in Obsidian, or set its name in Settings → Vault Agent → Advanced → Vault name.".to_string(),
    }
}

fn near_suffix(near: &[usize]) -> String {
    if near.is_empty() {
        " Copy the exact text from the note (obsidianNotes `read`) and try again.".into()
    } else {
        format!(
            " Lines {} hold it with other letter case or spacing; copy the text exactly from there.",
            join_numbers(near)
        )
    }
}

fn join_numbers(numbers: &[usize]) -> String {
    numbers
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn list_or_none(items: &[String]) -> String {
    if items.is_empty() {
        "none".into()
    } else {
        items
            .iter()
            .map(|h| format!("\"{h}\""))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

fn scope_suffix(scope: &Option<String>) -> String {
    scope.as_ref().map(|s| format!(" {s}")).unwrap_or_default()
}

fn stale_suffix(refused_again: &Option<String>) -> String {
    match refused_again {
        None => ". A new preview is waiting for the user.".into(),
        Some(why) => format!(", and it cannot be asked again as it was: {why}"),
    }
}

fn hint_suffix(hint: &Option<String>) -> String {
    hint.as_ref().map(|h| format!(" {h}")).unwrap_or_default()
}

fn detail_suffix(detail: &str) -> String {
    if detail.is_empty() {
        String::new()
    } else {
        format!(" ({detail})")
    }
}
