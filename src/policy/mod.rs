//! Policy: what a call may do, decided in one place before any process starts.
//! Tools declare facts (read or write, what a write targets); this module
//! turns them into a verdict with the user's settings.

pub mod paths;

use crate::error::ToolError;
use crate::settings::Settings;
use crate::tools::{Access, ToolCall};

/// Checks a parsed call against the settings; returns what it does.
///
/// - Reads always pass (the tool's own switch is checked by the registry).
/// - Every write needs "Allow vault changes", which only the user can turn on.
/// - Every write must name its target: without `file`/`path`/`ref`/`daily`
///   the CLI would change the note the user happens to have open.
pub fn check(call: &ToolCall<'_>, settings: &Settings) -> Result<Access, ToolError> {
    let access = call.access();
    if !access.is_write() {
        return Ok(access);
    }
    if !settings.allow_vault_changes {
        return Err(ToolError::WritesDisabled {
            tool: call.tool.id.to_string(),
            command: call.command.name.to_string(),
        });
    }
    if call.args.write_target().is_none() {
        return Err(ToolError::MissingTarget {
            command: call.command.name.to_string(),
            fix: "Name it with `file` (its name, like a wikilink) or `path` (the exact path from the vault root).".into(),
        });
    }
    Ok(access)
}
