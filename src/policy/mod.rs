//! Policy: what a call may do, decided in one place before any process starts.
//! Tools declare facts (read or write, what a write targets); this module
//! turns them into a verdict with the user's settings.

pub mod agent_files;
pub mod agent_questions;
pub mod agent_session;
pub mod filter;
pub mod names;
pub mod network;
pub mod outside;
pub mod plan;
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
    /// A change of the agent's memory (`obsidianMemory`).
    pub remembers: bool,
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
/// - A memory change is a card, whatever the mode allows, unless the chat's
///   own model asks for it with no outside data in its context
///   (`Settings::memory_without_card`): a remembered line never comes from
///   an MCP result, a web page or a coding agent without the user's click.
/// - So is a change outside the plan the user approved (`Settings::off_plan`),
///   and one that must be a card whatever the mode (`Settings::always_card`:
///   a change held for a plan's single card, a stale card asked again),
///   and any change asked in a chat that read the web
///   (`Settings::after_web_data`): saving a page is the user's click.
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
        PermissionMode::AskBeforeEdits
            if settings.written_as_text
                || settings.off_plan
                || settings.always_card
                || settings.after_web_data() =>
        {
            Access::ConfirmedWrite
        }
        PermissionMode::AskBeforeEdits if call.remembers && !settings.memory_without_card() => {
            Access::ConfirmedWrite
        }
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

/// Refuses a call whose place is inside the configuration folder, in two
/// layers that each see what the other cannot: the places the command
/// declares (lists and destinations included), and the parameters that name
/// places (`file=` is a name the policy cannot place, but its text can
/// already point into the folder).
fn check_config_dir(
    call: &CallFacts<'_>,
    config_dir: &str,
    access: Access,
) -> Result<(), ToolError> {
    let verb = if access.is_write() { "change" } else { "read" };
    check_declared_places(call, config_dir, verb)?;
    check_place_parameters(call, config_dir, verb)
}

/// Every place the command's `reach` declares.
fn check_declared_places(
    call: &CallFacts<'_>,
    config_dir: &str,
    verb: &'static str,
) -> Result<(), ToolError> {
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
    Ok(())
}

/// Every parameter that names a place (`file`, `path`, `folder`, `ref`).
fn check_place_parameters(
    call: &CallFacts<'_>,
    config_dir: &str,
    verb: &'static str,
) -> Result<(), ToolError> {
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

    type Layer = fn(&CallFacts<'_>, &str, &'static str) -> Result<(), ToolError>;

    fn config_check(layer: Layer, tool: &str, args: &Value) -> Result<(), ToolError> {
        let tools = builtin_tools();
        let spec = tools.iter().find(|t| t.id == tool).expect("tool exists");
        let call = spec.parse_call(args).expect("arguments parse");
        let facts = call.facts().expect("arguments send");
        let verb = if facts.access.is_write() {
            "change"
        } else {
            "read"
        };
        layer(&facts, ".obsidian", verb)
    }

    fn refused(layer: Layer, tool: &str, args: Value, verb: &str) {
        match config_check(layer, tool, &args) {
            Err(ToolError::ConfigFolder { verb: v, .. }) => assert_eq!(v, verb, "{args}"),
            other => panic!("{tool} {args}: {other:?}"),
        }
    }

    /// The places a command's `reach` declares, by the first layer alone:
    /// some no CLI parameter holds (organise's `paths` and `to`), and the
    /// folders of vault-wide reads (hygiene, a random note).
    #[test]
    fn places_a_command_declares_are_never_in_the_config_folder() {
        for (tool, args, verb) in [
            (
                "obsidianOrganise",
                json!({"command": "move", "path": "Inbox/Plan.md", "to": ".obsidian/plugins"}),
                "change",
            ),
            (
                "obsidianOrganise",
                json!({"command": "move", "paths": [".obsidian/app.json"], "to": "Archive"}),
                "change",
            ),
            (
                "obsidianOrganise",
                json!({"command": "delete", "paths": ["Inbox/A.md", ".Obsidian/workspace.json"]}),
                "change",
            ),
            (
                "obsidianOrganise",
                json!({"command": "move", "paths": ["Inbox/A.md"], "to": " .obsidian "}),
                "change",
            ),
            (
                "obsidianHygiene",
                json!({"command": "empty", "folder": ".obsidian/plugins"}),
                "read",
            ),
            (
                "obsidianRandomRead",
                json!({"command": "random:read", "folder": ".obsidian"}),
                "read",
            ),
            (
                "obsidianNotes",
                json!({"command": "read", "path": ".obsidian/app.json"}),
                "read",
            ),
        ] {
            refused(check_declared_places, tool, args, verb);
        }
        assert!(config_check(
            check_declared_places,
            "obsidianOrganise",
            &json!({"command": "move", "paths": ["Inbox/A.md"], "to": "Archive/.obsidian"}),
        )
        .is_ok());
        // Names are placed only once resolved: this layer cannot see them.
        assert!(config_check(
            check_declared_places,
            "obsidianNotes",
            &json!({"command": "read", "file": ".obsidian/plugins/vault-agent/data"}),
        )
        .is_ok());
    }

    /// Parameters that name a place, by the second layer alone: `file=` is
    /// a name the policy cannot place from its text, `ref` a path with a line.
    #[test]
    fn place_parameters_are_never_in_the_config_folder() {
        for (tool, args, verb) in [
            (
                "obsidianNotes",
                json!({"command": "read", "file": ".obsidian/plugins/vault-agent/data"}),
                "read",
            ),
            (
                "obsidianProperties",
                json!({"command": "property:read", "name": "x", "file": ".OBSIDIAN/app"}),
                "read",
            ),
            (
                "obsidianEdit",
                json!({"command": "append", "file": ".obsidian/snippets/x", "content": "y"}),
                "change",
            ),
            (
                "obsidianTasks",
                json!({"command": "task", "ref": ".obsidian/x.md:3", "done": true}),
                "change",
            ),
            // The line is cut off first: `.obsidian:3` is line 3 of `.obsidian`.
            (
                "obsidianTasks",
                json!({"command": "task", "ref": ".obsidian:3", "done": true}),
                "change",
            ),
            (
                "obsidianNotes",
                json!({"command": "files", "folder": ".obsidian"}),
                "read",
            ),
        ] {
            refused(check_place_parameters, tool, args, verb);
        }
        for args in [
            json!({"command": "read", "file": "Notes/.obsidian"}),
            json!({"command": "read", "file": "Plan"}),
        ] {
            assert!(config_check(check_place_parameters, "obsidianNotes", &args).is_ok());
        }
        // Organise's `paths` and `to` are no CLI parameters: only the first
        // layer sees them.
        assert!(config_check(
            check_place_parameters,
            "obsidianOrganise",
            &json!({"command": "move", "paths": ["Inbox/A.md"], "to": ".obsidian"}),
        )
        .is_ok());
    }

    /// The check runs both layers, and names the verb by the access.
    #[test]
    fn the_config_folder_check_runs_both_layers() {
        let tools = builtin_tools();
        let run = |tool: &str, args: Value| {
            let spec = tools.iter().find(|t| t.id == tool).unwrap();
            let call = spec.parse_call(&args).unwrap();
            let facts = call.facts().unwrap();
            check_config_dir(&facts, ".obsidian", facts.access)
        };
        for (tool, args, verb) in [
            (
                "obsidianOrganise",
                json!({"command": "delete", "paths": [".obsidian/app.json"]}),
                "change",
            ),
            (
                "obsidianNotes",
                json!({"command": "read", "file": ".obsidian/app"}),
                "read",
            ),
        ] {
            match run(tool, args) {
                Err(ToolError::ConfigFolder { verb: v, .. }) => assert_eq!(v, verb),
                other => panic!("{other:?}"),
            }
        }
        assert!(run("obsidianNotes", json!({"command": "read", "file": "Plan"})).is_ok());
    }
}
