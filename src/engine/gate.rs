//! The one gate every call passes, and every approval passes again.

use serde_json::Value;

use super::{edge, Engine};
use crate::base::call::{Access, NoteLocator};
use crate::base::error::ToolError;
use crate::base::host::Host;
use crate::cli::argv::CliInvocation;
use crate::policy;
use crate::policy::scope;
use crate::policy::scope::{Output, Place, Reach, Resolved, ScopeCheck};
use crate::settings::Settings;
use crate::tools::{ToolCall, ToolSpec};

/// A call that passed the gate, and what the gate decided about it.
pub(crate) struct Authorised<'t> {
    pub call: ToolCall<'t>,
    pub access: Access,
    pub invocation: CliInvocation,
    /// The arguments that run: a note name the folder scopes had to look up
    /// is replaced by the exact path that was checked.
    pub arguments: Value,
    /// How to filter what the command prints to the folders the agent may read.
    pub filter: Option<Output>,
    /// Symbolic links whose real place the agent may not read: what the
    /// command prints under one is withheld too (`edge::links_out`).
    pub barred: Vec<String>,
}

/// Lookups one call may need before its places are known (a name, today's note).
const MAX_LOOKUPS: usize = 4;

impl<H: Host> Engine<H> {
    fn find_tool(&self, tool_id: &str, settings: &Settings) -> Result<&ToolSpec, ToolError> {
        let tool =
            self.tools
                .iter()
                .find(|t| t.id == tool_id)
                .ok_or_else(|| ToolError::UnknownTool {
                    tool: tool_id.to_string(),
                    available: self.enabled_ids(settings).join(", "),
                })?;
        if !settings.tool_enabled(tool.id) {
            return Err(ToolError::ToolDisabled {
                tool: tool.id.to_string(),
                place: crate::settings::switch_place(tool.id),
                available: self.enabled_ids(settings).join(", "),
            });
        }
        Ok(tool)
    }

    /// The one gate every call passes, and every approval passes again: the
    /// platform, the tool's switch, the arguments, the policy, the folder
    /// scopes, the argv. While a scope is set, a note the call names by name
    /// (or today's note) is looked up first, a read of its path only, after
    /// the policy has let the call through; a name is then replaced by the
    /// path that was checked, so the CLI acts on exactly that note.
    pub(crate) async fn authorise<'t>(
        &'t self,
        tool_id: &str,
        args: &Value,
        settings: &Settings,
    ) -> Result<Authorised<'t>, ToolError> {
        if !self.host.platform().is_desktop_app {
            return Err(ToolError::UnsupportedPlatform);
        }
        let tool = self.find_tool(tool_id, settings)?;
        let mut arguments = args.clone();
        // The memory folder is the user's, never the model's.
        if tool.id == crate::settings::MEMORY_TOOL {
            let notes = self.host.vault_notes().paths;
            crate::tools::memory::fill(
                &mut arguments,
                settings,
                self.host.platform().os(),
                &self.host.local_context().date,
                &|path| notes.iter().any(|p| p == path),
            )?;
        }
        let mut resolved = Resolved::default();
        for _ in 0..=MAX_LOOKUPS {
            let call = tool.parse_call(&arguments)?;
            let facts = call.facts()?;
            let access = policy::check(&facts, settings, self.host.platform().config_dir())?;
            let reach = facts.reach;
            match scope::check(
                call.command.name,
                &reach,
                call.access(),
                settings,
                self.host.platform().os(),
                &resolved,
            )? {
                ScopeCheck::Allowed(filter) => {
                    let read = scope::FolderScope::read(settings, self.host.platform().os());
                    let unresolved = unresolved_note(&reach, &resolved);
                    let barred = if filter.is_some()
                        || (read.is_whole_vault()
                            && (reach.output.is_filterable() || unresolved.is_some()))
                    {
                        edge::links_out(self.host(), &read).await
                    } else {
                        Vec::new()
                    };
                    if let (Some(locate), false) = (unresolved, barred.is_empty()) {
                        // A link leads out: a name is looked up, so the note
                        // it stands for is checked on disk like a path.
                        let path = self.resolve_note(&locate, settings).await?;
                        if let NoteLocator::Name(name) = &locate {
                            pin_to_path(&mut arguments, name, &path);
                        }
                        resolved.notes.push((locate, path));
                        continue;
                    }
                    // With no read folders, only the links filter what it prints.
                    let filter = match filter {
                        None if !barred.is_empty() && reach.output.is_filterable() => {
                            Some(reach.output.clone())
                        }
                        other => other,
                    };
                    if access.is_write() {
                        // No write follows a symbolic link out of the vault.
                        self.check_write_places(&call).await?;
                    }
                    // No read follows one out of the vault or the read scope.
                    self.check_read_places(&reach, &resolved, &read).await?;
                    let mut invocation = call.invocation(settings.vault())?;
                    // Filtered from the CLI's JSON, whatever the model asked
                    // for; written back in its form after (`policy::filter`).
                    if filter.as_ref().is_some_and(scope::Output::asks_json) {
                        invocation.set_parameter("format", "json");
                    }
                    return Ok(Authorised {
                        call,
                        access,
                        invocation,
                        arguments,
                        filter,
                        barred,
                    });
                }
                ScopeCheck::Resolve(locate) => {
                    let path = self.resolve_note(&locate, settings).await?;
                    if let NoteLocator::Name(name) = &locate {
                        pin_to_path(&mut arguments, name, &path);
                    }
                    resolved.notes.push((locate, path));
                }
            }
        }
        Err(ToolError::invalid(
            tool_id,
            "the call names more notes than can be checked against the allowed folders; name each with `path`",
        ))
    }

    fn enabled_ids(&self, settings: &Settings) -> Vec<&'static str> {
        self.tools
            .iter()
            .filter(|t| settings.tool_enabled(t.id))
            .map(|t| t.id)
            .collect()
    }
}

/// A note the call names (by name, or today's) that was not looked up.
fn unresolved_note(reach: &Reach, resolved: &Resolved) -> Option<NoteLocator> {
    reach.places.iter().find_map(|place| match place {
        Place::Note(locate @ (NoteLocator::Name(_) | NoteLocator::Daily))
            if resolved.path_of(locate).is_none() =>
        {
            Some(locate.clone())
        }
        _ => None,
    })
}

/// Puts the path a name was checked as in place of the name, so the CLI
/// does not resolve the name again (to another note, if one appeared).
fn pin_to_path(arguments: &mut Value, name: &str, path: &str) {
    let Some(fields) = arguments.as_object_mut() else {
        return;
    };
    if fields.get("file").and_then(Value::as_str) == Some(name) {
        fields.remove("file");
        fields.insert("path".into(), Value::from(path));
    }
}
