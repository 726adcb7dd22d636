//! Policy: what a call may do, decided in one place before any process starts.
//! Tools declare facts (read or write, what a write targets); this module
//! turns them into a verdict with the user's settings.

pub mod agent_files;
pub mod agent_questions;
pub mod agent_session;
pub mod filter;
pub mod names;
pub mod scope;

use crate::base::call::{Access, NoteLocator};
use crate::base::error::ToolError;
use crate::base::vault_path;
use crate::policy::scope::{Place, Reach};
use crate::settings::{PermissionMode, Settings};

/// Parameters that name a place in the vault, by the CLI's own convention
/// (`ref` is `path:line`).
const PLACE_PARAMETERS: &[&str] = &["file", "path", "folder", "ref"];

/// What the policy knows of a call: the facts its tool declares for these
/// arguments (`tools::ToolCall::facts` gathers them). The policy decides
/// from these alone, so a new tool needs no line here.
#[derive(Clone, Debug, PartialEq)]
pub struct CallFacts<'a> {
    pub tool: &'a str,
    pub command: &'a str,
    /// What the call does, given its arguments.
    pub access: Access,
    /// What a write changes, in words; `None` means the CLI would fall back
    /// to the note open in Obsidian.
    pub write_target: Option<String>,
    /// Where it reaches in the vault.
    pub reach: Reach,
    /// The CLI's `key=value` parameters.
    pub parameters: Vec<(String, String)>,
}

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
/// - A write the model wrote as text (`Settings::written_as_text`) is always a
///   card, whatever the mode allows: the model may only be echoing a call it
///   read in a note.
/// - Every write must name its target: without `file`/`path`/`ref`/`daily`
///   the CLI would change the note the user happens to have open.
pub fn check(
    call: &CallFacts<'_>,
    settings: &Settings,
    config_dir: &str,
) -> Result<Access, ToolError> {
    let access = call.access;
    check_config_dir(call, config_dir, access)?;
    if !access.is_write() {
        return Ok(access);
    }
    let effective = match settings.permission_mode {
        PermissionMode::ReadOnly => {
            return Err(ToolError::WritesDisabled {
                tool: call.tool.to_string(),
                command: call.command.to_string(),
                mode: settings.permission_mode.label(),
                lead: settings.mode_setting.lead(),
                place: settings.mode_setting.place(),
            })
        }
        PermissionMode::AskEveryChange => Access::ConfirmedWrite,
        PermissionMode::AskBeforeEdits if settings.written_as_text => Access::ConfirmedWrite,
        PermissionMode::AskBeforeEdits => access,
    };
    if call.write_target.is_none() {
        return Err(ToolError::MissingTarget {
            command: call.command.to_string(),
            fix: "Name it with `file` (its name, like a wikilink) or `path` (the exact path from the vault root).".into(),
        });
    }
    Ok(effective)
}

/// Refuses a write whose place (`file`, `path`, `folder`, `ref`) is inside the
/// configuration folder.
fn check_config_dir(
    call: &CallFacts<'_>,
    config_dir: &str,
    access: Access,
) -> Result<(), ToolError> {
    let verb = if access.is_write() { "change" } else { "read" };
    // Every place the command declares, lists and destinations included.
    for place in &call.reach.places {
        let named = match place {
            Place::Note(NoteLocator::Path(p)) | Place::NewNote(Some(p)) | Place::Reference(p) => p,
            Place::Within(Some(f)) | Place::PickFrom(Some(f)) => f,
            _ => continue,
        };
        if vault_path::in_config_dir(named, config_dir) {
            return Err(ToolError::ConfigFolder {
                command: call.command.to_string(),
                verb,
                key: named.clone(),
                config_dir: config_dir.to_string(),
            });
        }
    }
    for (key, value) in &call.parameters {
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
        if vault_path::in_config_dir(place, config_dir) {
            return Err(ToolError::ConfigFolder {
                command: call.command.to_string(),
                verb,
                key: key.clone(),
                config_dir: config_dir.to_string(),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    //! Each layer of the configuration-folder check on its own: the places a
    //! command declares, and the parameters that name places. Either one
    //! removed lets a case through here (organise has a third layer, for the
    //! paths names resolve to: tests/organise.rs).
    use super::*;
    use crate::tools::builtin_tools;
    use serde_json::{json, Value};

    fn config_check(tool: &str, args: Value) -> Result<(), ToolError> {
        let tools = builtin_tools();
        let spec = tools.iter().find(|t| t.id == tool).expect("tool exists");
        let call = spec.parse_call(&args).expect("arguments parse");
        let facts = call.facts().expect("arguments send");
        check_config_dir(&facts, ".obsidian", facts.access)
    }

    fn refused(tool: &str, args: Value, verb: &str) {
        match config_check(tool, args.clone()) {
            Err(ToolError::ConfigFolder { verb: v, .. }) => assert_eq!(v, verb, "{args}"),
            other => panic!("{tool} {args}: {other:?}"),
        }
    }

    /// Places only the command's `reach` names: no CLI parameter holds them
    /// (organise's `paths` and `to`), so only the first layer sees them.
    #[test]
    fn places_a_command_declares_are_never_in_the_config_folder() {
        for args in [
            json!({"command": "move", "path": "Inbox/Plan.md", "to": ".obsidian/plugins"}),
            json!({"command": "move", "paths": [".obsidian/app.json"], "to": "Archive"}),
            json!({"command": "delete", "paths": ["Inbox/A.md", ".Obsidian/workspace.json"]}),
            json!({"command": "move", "paths": ["Inbox/A.md"], "to": " .obsidian "}),
        ] {
            refused("obsidianOrganise", args, "change");
        }
        assert!(config_check(
            "obsidianOrganise",
            json!({"command": "move", "paths": ["Inbox/A.md"], "to": "Archive/.obsidian"}),
        )
        .is_ok());
    }

    /// Parameters that name a place the policy cannot place from the text
    /// (`file=` is a name the CLI resolves): only the second layer sees them.
    #[test]
    fn place_parameters_are_never_in_the_config_folder() {
        refused(
            "obsidianNotes",
            json!({"command": "read", "file": ".obsidian/plugins/vault-agent/data"}),
            "read",
        );
        refused(
            "obsidianProperties",
            json!({"command": "property:read", "name": "x", "file": ".OBSIDIAN/app"}),
            "read",
        );
        refused(
            "obsidianEdit",
            json!({"command": "append", "file": ".obsidian/snippets/x", "content": "y"}),
            "change",
        );
        assert!(config_check(
            "obsidianNotes",
            json!({"command": "read", "file": "Notes/.obsidian"})
        )
        .is_ok());
    }
}
