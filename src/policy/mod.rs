//! Policy: what a call may do, decided in one place before any process starts.
//! Tools declare facts (read or write, what a write targets); this module
//! turns them into a verdict with the user's settings.

pub mod agent_questions;
pub mod paths;
pub mod scope;

use crate::error::ToolError;
use crate::policy::scope::Place;
use crate::settings::{PermissionMode, Settings};
use crate::tools::{Access, NoteLocator, ToolCall};

/// Parameters that name a place in the vault, by the CLI's own convention
/// (`ref` is `path:line`).
const PLACE_PARAMETERS: &[&str] = &["file", "path", "folder", "ref"];

/// Checks a parsed call against the settings; returns what it does: run at
/// once (`Read`, `DirectWrite`) or wait for a card (`ConfirmedWrite`).
///
/// - Nothing reads or changes the vault's configuration folder (`config_dir`),
///   where plugins, their settings (API keys among them) and this plugin live.
/// - Reads pass the mode (the tool's own switch is checked by the registry).
/// - Writes follow the user's permission mode, which only the user changes:
///   Read only refuses them all; Ask before every change makes every write a
///   card; Ask before edits keeps what the command declares (additions at
///   once, edits of what is there on a card). Only the declared access counts,
///   so a new tool gets the same treatment without a line here.
/// - Every write must name its target: without `file`/`path`/`ref`/`daily`
///   the CLI would change the note the user happens to have open.
pub fn check(
    call: &ToolCall<'_>,
    settings: &Settings,
    config_dir: &str,
) -> Result<Access, ToolError> {
    let access = call.access();
    check_config_dir(call, config_dir, access)?;
    if !access.is_write() {
        return Ok(access);
    }
    let effective = match settings.permission_mode {
        PermissionMode::ReadOnly => {
            return Err(ToolError::WritesDisabled {
                tool: call.tool.id.to_string(),
                command: call.command.name.to_string(),
                mode: settings.permission_mode.label(),
                lead: settings.mode_setting.lead(),
                place: settings.mode_setting.place(),
            })
        }
        PermissionMode::AskEveryChange => Access::ConfirmedWrite,
        PermissionMode::AskBeforeEdits => access,
    };
    if call.args.write_target().is_none() {
        return Err(ToolError::MissingTarget {
            command: call.command.name.to_string(),
            fix: "Name it with `file` (its name, like a wikilink) or `path` (the exact path from the vault root).".into(),
        });
    }
    Ok(effective)
}

/// Refuses a write whose place (`file`, `path`, `folder`, `ref`) is inside the
/// configuration folder.
fn check_config_dir(
    call: &ToolCall<'_>,
    config_dir: &str,
    access: Access,
) -> Result<(), ToolError> {
    let arguments = call
        .args
        .cli_arguments()
        .map_err(|p| ToolError::invalid(call.tool.id, p))?;
    let verb = if access.is_write() { "change" } else { "read" };
    // Every place the command declares, lists and destinations included.
    for place in call.args.reach().places {
        let named = match place {
            Place::Note(NoteLocator::Path(p)) | Place::NewNote(Some(p)) | Place::Reference(p) => p,
            Place::Within(Some(f)) | Place::PickFrom(Some(f)) => f,
            _ => continue,
        };
        if paths::in_config_dir(&named, config_dir) {
            return Err(ToolError::ConfigFolder {
                command: call.command.name.to_string(),
                verb,
                key: named,
                config_dir: config_dir.to_string(),
            });
        }
    }
    for (key, value) in &arguments.parameters {
        if !PLACE_PARAMETERS.contains(&key.as_str()) {
            continue;
        }
        let place = if key == "ref" {
            value
                .rsplit_once(':')
                .map_or(value.as_str(), |(path, _)| path)
        } else {
            value.as_str()
        };
        if paths::in_config_dir(place, config_dir) {
            return Err(ToolError::ConfigFolder {
                command: call.command.name.to_string(),
                verb,
                key: key.clone(),
                config_dir: config_dir.to_string(),
            });
        }
    }
    Ok(())
}
