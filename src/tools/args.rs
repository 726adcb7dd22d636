//! What a tool declares for each command: its typed arguments, the facts
//! the policy decides from (`reach`, `write_target`, `effective_access`),
//! and the `Plan` a call turns into.

use std::any::Any;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::base::call::Access;
use crate::policy::scope::Reach;
use crate::tools::plan::Plan;

/// The typed arguments of one command (everything but `command` itself).
///
/// Implementors derive `Deserialize` with `#[serde(deny_unknown_fields)]`,
/// `Serialize` (field order = argv order; `true` booleans become flags, `false`
/// and `None` are left out) and `JsonSchema` (doc comments become the field
/// descriptions the model reads).
pub trait CommandArgs: DeserializeOwned + Serialize + JsonSchema + 'static {
    /// Rules between fields that serde cannot express. Vault paths are
    /// normalised here, in place, so the CLI gets what was checked.
    fn validate(&mut self) -> Result<(), String> {
        Ok(())
    }

    /// What this call does, when that depends on the arguments (`task`
    /// without a change only shows the task).
    fn effective_access(&self, declared: Access) -> Access {
        declared
    }

    /// Where the call reaches in the vault and the shape of what it prints,
    /// which the folder scopes check and filter (`policy::scope`). Every
    /// command declares it; nothing is assumed.
    fn reach(&self) -> Reach;

    /// For writes: what the call changes, in words ("today's daily note",
    /// "note \"Plan\""). `None` means the CLI would fall back to the note open
    /// in Obsidian, which policy refuses for every write.
    fn write_target(&self) -> Option<String> {
        None
    }

    /// What the call turns into (a CLI read unless it says otherwise).
    fn plan(&self) -> Plan<'_> {
        Plan::read()
    }

    /// The CLI command the call runs when it is not the command's own name
    /// (`obsidianMemory` `add` appends to, or creates, a memory note).
    fn cli_command(&self) -> Option<&'static str> {
        None
    }
}

/// `key=value` parameters and bare flags, in declaration order.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct CliArguments {
    pub parameters: Vec<(String, String)>,
    pub flags: Vec<String>,
}

/// Typed arguments once their concrete type no longer matters to the caller.
pub trait ParsedArgs: Any {
    fn cli_arguments(&self) -> Result<CliArguments, String>;
    fn effective_access(&self, declared: Access) -> Access;
    fn reach(&self) -> Reach;
    fn write_target(&self) -> Option<String>;
    fn plan(&self) -> Plan<'_>;
    fn cli_command(&self) -> Option<&'static str>;
    fn as_any(&self) -> &dyn Any;
}

impl<A: CommandArgs> ParsedArgs for A {
    fn effective_access(&self, declared: Access) -> Access {
        CommandArgs::effective_access(self, declared)
    }

    fn write_target(&self) -> Option<String> {
        CommandArgs::write_target(self)
    }

    fn reach(&self) -> Reach {
        CommandArgs::reach(self)
    }

    fn plan(&self) -> Plan<'_> {
        CommandArgs::plan(self)
    }

    fn cli_command(&self) -> Option<&'static str> {
        CommandArgs::cli_command(self)
    }

    fn cli_arguments(&self) -> Result<CliArguments, String> {
        cli_arguments_of(serde_json::to_value(self))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The arguments as `key=value` parameters and flags, from their JSON (one
/// function for every argument type: only `to_value` is theirs).
fn cli_arguments_of(value: Result<Value, serde_json::Error>) -> Result<CliArguments, String> {
    let value = value.map_err(|e| e.to_string())?;
    let Value::Object(fields) = value else {
        return Err("arguments must serialize to an object".into());
    };
    let mut out = CliArguments::default();
    for (key, value) in fields {
        match value {
            Value::Null | Value::Bool(false) => {}
            Value::Bool(true) => out.flags.push(key),
            Value::String(s) => out.parameters.push((key, s)),
            Value::Number(n) => out.parameters.push((key, n.to_string())),
            other => return Err(format!("`{key}` cannot be sent as {other}")),
        }
    }
    Ok(out)
}
