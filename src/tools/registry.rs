//! The registry's machinery, shared by every tool: a command's spec,
//! parsing `{ command, ... }` into a typed call (naming the field that is
//! wrong), and the JSON Schemas generated ahead into `schemas.json`.

use std::sync::OnceLock;

#[cfg(not(target_arch = "wasm32"))]
use schemars::generate::SchemaSettings;
#[cfg(not(target_arch = "wasm32"))]
use schemars::SchemaGenerator;
use serde_json::{json, Map, Value};

use crate::base::call::Access;
use crate::base::error::ToolError;
use crate::base::text::clipped;
use crate::cli::argv::CliInvocation;
use crate::cli::outcome::EmptyOutput;
use crate::tools::{is_excluded, CommandArgs, ParsedArgs};

type ParseFn = fn(Value) -> Result<Box<dyn ParsedArgs>, String>;
#[cfg(not(target_arch = "wasm32"))]
type SchemaFn = fn(&mut SchemaGenerator) -> schemars::Schema;

/// One command of a tool's allowlist.
pub struct CommandSpec {
    pub name: &'static str,
    pub access: Access,
    /// One line for the model and the settings tab.
    pub summary: &'static str,
    pub empty_output: EmptyOutput,
    /// For confirmed writes: the verb of the card's summary ("Set …").
    pub confirm_verb: &'static str,
    /// For the compact tool list of small models: what the command's
    /// signature does not already say ("" when its name says it all).
    pub brief: Option<&'static str>,
    /// Calling it again with the same arguments changes nothing more (every
    /// read; a write that sets or removes a value). MCP clients read it as
    /// the tool's `idempotentHint`.
    pub idempotent: bool,
    parse: ParseFn,
    /// The argument type's path, the key of its schema in `schemas.json`.
    arguments_type: &'static str,
    /// Natively only: the wasm reads the schemas generated ahead (see
    /// `generated_arguments_schema`), which keeps schemars out of main.js.
    #[cfg(not(target_arch = "wasm32"))]
    schema: SchemaFn,
}

impl CommandSpec {
    pub fn new<A: CommandArgs>(name: &'static str, access: Access, summary: &'static str) -> Self {
        CommandSpec {
            name,
            access,
            summary,
            empty_output: EmptyOutput::Error,
            confirm_verb: "Change",
            brief: None,
            idempotent: access == Access::Read,
            parse: parse_args::<A>,
            arguments_type: std::any::type_name::<A>(),
            #[cfg(not(target_arch = "wasm32"))]
            schema: |generator| generator.root_schema_for::<A>(),
        }
    }

    /// The JSON Schema of this command's own arguments, as generated ahead
    /// into `src/tools/schemas.json` (tests/schemas.rs fails when it is stale).
    pub fn arguments_schema(&self) -> Value {
        generated_schemas()
            .get(self.arguments_type)
            .cloned()
            .unwrap_or_else(|| {
                panic!(
                    "no schema for {} in src/tools/schemas.json; regenerate it: \
                     VAULT_AGENT_WRITE_SCHEMAS=1 cargo test --release --test schemas",
                    self.arguments_type
                )
            })
    }

    /// The key of this command's schema in `src/tools/schemas.json`.
    pub fn arguments_type(&self) -> &'static str {
        self.arguments_type
    }

    /// The JSON Schema schemars derives from the argument type now: what
    /// `schemas.json` must hold (native only; writing and checking it).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn generated_arguments_schema(&self) -> Value {
        let mut generator = schema_generator();
        (self.schema)(&mut generator).to_value()
    }

    /// The verb a confirmation card uses for this command ("Set", "Remove").
    pub fn confirm_as(mut self, verb: &'static str) -> Self {
        self.confirm_verb = verb;
        self
    }

    /// Declares that the same call made twice leaves the vault as once:
    /// setting a value, adding what is then there, removing what is then
    /// gone. Never for appends, creations, toggles or moves.
    pub fn idempotent(mut self) -> Self {
        self.idempotent = true;
        self
    }

    /// What the compact tool list says after the command's signature.
    pub fn brief(mut self, text: &'static str) -> Self {
        self.brief = Some(text);
        self
    }

    /// Declares that printing nothing is a normal answer of this command.
    pub fn silent_success(mut self, text: &'static str) -> Self {
        self.empty_output = EmptyOutput::Success(text);
        self
    }
}

fn parse_args<A: CommandArgs>(value: Value) -> Result<Box<dyn ParsedArgs>, String> {
    let mut args: A = serde_json::from_value(value.clone()).map_err(|error| {
        name_the_field(&value, error, &|without| {
            serde_json::from_value::<A>(without).err()
        })
    })?;
    args.validate()?;
    Ok(Box::new(args))
}

/// serde names the field for unknown and missing fields, not for a value of
/// the wrong type. Find it by leaving fields out one at a time: the one whose
/// absence changes the error is the culprit. (This replaced
/// serde_path_to_error, which cost a fifth of the wasm module.) Not generic:
/// `reparse` is the one part that knows the argument type, so the wasm holds
/// one copy of this search instead of one per command.
fn name_the_field(
    value: &Value,
    error: serde_json::Error,
    reparse: &dyn Fn(Value) -> Option<serde_json::Error>,
) -> String {
    let message = error.to_string();
    let type_error = message.starts_with("invalid type") || message.starts_with("invalid value");
    if let (true, Value::Object(fields)) = (type_error, value) {
        for key in fields.keys() {
            let mut without = fields.clone();
            without.remove(key);
            let changed = match reparse(Value::Object(without)) {
                None => true,
                Some(other) => other.to_string() != message,
            };
            if changed {
                return format!("`{key}`: {message}");
            }
        }
    }
    message
}

/// A category tool: a name the model calls, and the commands it may run.
pub struct ToolSpec {
    pub id: &'static str,
    /// The tool's one name: the settings, the chat and MCP clients show it.
    pub display_name: &'static str,
    pub description: &'static str,
    /// When to use this tool and which tool to use instead.
    pub guidance: &'static str,
    pub commands: Vec<CommandSpec>,
    /// A typical read-only call, used by the demo and the docs.
    pub example: Value,
}

/// A call that passed parsing: a known command with well-typed arguments.
pub struct ToolCall<'a> {
    pub tool: &'a ToolSpec,
    pub command: &'a CommandSpec,
    pub args: Box<dyn ParsedArgs>,
}

impl ToolCall<'_> {
    /// What this call does to the vault, given its arguments.
    pub fn access(&self) -> Access {
        self.args.effective_access(self.command.access)
    }

    /// What the policy decides from (`policy::check`).
    pub fn facts(&self) -> Result<crate::policy::CallFacts<'_>, ToolError> {
        let arguments = self
            .args
            .cli_arguments()
            .map_err(|p| ToolError::invalid(self.tool.id, p))?;
        Ok(crate::policy::CallFacts {
            tool: self.tool.id,
            command: self.command.name,
            access: self.access(),
            write_target: self.args.write_target(),
            reach: self.args.reach(),
            parameters: arguments.parameters,
            remembers: self.tool.id == crate::settings::MEMORY_TOOL,
        })
    }

    /// The CLI invocation this call stands for.
    pub fn invocation(&self, vault: Option<&str>) -> Result<CliInvocation, ToolError> {
        let arguments = self
            .args
            .cli_arguments()
            .map_err(|p| ToolError::invalid(self.tool.id, p))?;
        Ok(CliInvocation {
            vault: vault.map(str::to_string),
            command: self
                .args
                .cli_command()
                .unwrap_or(self.command.name)
                .to_string(),
            parameters: arguments.parameters,
            flags: arguments.flags,
        })
    }

    /// The typed arguments, for tool-specific logic (previews).
    pub fn args_as<A: CommandArgs>(&self) -> Option<&A> {
        self.args.as_any().downcast_ref::<A>()
    }
}

impl ToolSpec {
    pub fn command(&self, name: &str) -> Option<&CommandSpec> {
        self.commands.iter().find(|c| c.name == name)
    }

    pub fn command_names(&self) -> Vec<&'static str> {
        self.commands.iter().map(|c| c.name).collect()
    }

    /// Parses `{ command, ...parameters }` into a call, refusing anything the
    /// tool does not declare before any process could start.
    pub fn parse_call(&self, args: &Value) -> Result<ToolCall<'_>, ToolError> {
        let mut fields = match args {
            Value::Object(map) => map.clone(),
            // Some models send no arguments at all for a no-parameter command.
            Value::Null => Map::new(),
            other => {
                return Err(ToolError::invalid(
                    self.id,
                    format!(
                        "arguments must be a JSON object like {{\"command\": \"{}\"}}, not {}",
                        self.commands[0].name,
                        short_json(other)
                    ),
                ))
            }
        };
        let command = match fields.remove("command") {
            Some(Value::String(name)) => {
                self.command(&name)
                    .ok_or_else(|| ToolError::CommandNotAllowed {
                        tool: self.id.to_string(),
                        reason: not_allowed_reason(&name, &self.command_names()),
                        command: name,
                    })?
            }
            None | Some(Value::Null) if self.commands.len() == 1 => &self.commands[0],
            None | Some(Value::Null) => {
                return Err(ToolError::invalid(
                    self.id,
                    format!(
                        "missing `command`; use one of: {}",
                        self.command_names().join(", ")
                    ),
                ))
            }
            Some(other) => {
                return Err(ToolError::invalid(
                    self.id,
                    format!(
                        "`command` must be text, one of: {}; got {}",
                        self.command_names().join(", "),
                        short_json(&other)
                    ),
                ))
            }
        };
        // Models often send `null` for parameters they do not use.
        fields.retain(|_, v| !v.is_null());
        let args = (command.parse)(Value::Object(fields)).map_err(|problem| {
            ToolError::invalid(self.id, format!("{}: {problem}", command.name))
        })?;
        Ok(ToolCall {
            tool: self,
            command,
            args,
        })
    }

    /// One flat JSON Schema object for the whole tool, generated from the
    /// argument types of its commands. Providers want `type: object` at the
    /// top, so per-command rules live in the descriptions and are enforced by
    /// `parse_call`.
    pub fn input_schema(&self) -> Value {
        self.input_schema_from(&mut CommandSpec::arguments_schema)
    }

    /// `input_schema` from the schemas schemars derives now, for the test that
    /// the generated-ahead schemas give the model exactly the same tools.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn input_schema_generated(&self) -> Value {
        // One generator for all commands, as before the schemas were generated ahead.
        let mut generator = schema_generator();
        self.input_schema_from(&mut |command| (command.schema)(&mut generator).to_value())
    }

    fn input_schema_from(&self, arguments_schema: &mut dyn FnMut(&CommandSpec) -> Value) -> Value {
        let mut properties = Map::new();
        let mut users: Vec<SharedField> = Vec::new();
        let command_help: Vec<String> = self
            .commands
            .iter()
            .map(|c| format!("{}: {}", c.name, c.summary))
            .collect();
        properties.insert(
            "command".into(),
            json!({
                "type": "string",
                "enum": self.command_names(),
                "description": command_help.join(" "),
            }),
        );
        for command in &self.commands {
            let schema = arguments_schema(command);
            let object = schema.as_object().cloned().unwrap_or_default();
            let required: Vec<String> = object
                .get("required")
                .and_then(Value::as_array)
                .map(|r| {
                    r.iter()
                        .filter_map(|v| v.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default();
            let Some(Value::Object(props)) = object.get("properties") else {
                continue;
            };
            for (name, prop) in props {
                let entry = match users.iter_mut().position(|f| &f.name == name) {
                    Some(at) => &mut users[at],
                    None => {
                        properties.insert(name.clone(), prop.clone());
                        users.push(SharedField::new(name));
                        users.last_mut().expect("just pushed")
                    }
                };
                entry.add(command.name, prop, required.contains(name));
                if let Some(Value::Object(first)) = properties.get_mut(name) {
                    // Bounds that differ between commands cannot be one
                    // field's: each command's stay in its description.
                    for key in BOUNDS {
                        if first.get(key) != prop.get(key) {
                            first.remove(key);
                        }
                    }
                }
                merge_enum(properties.get_mut(name), prop);
            }
        }
        let mut top_required = Vec::new();
        if self.commands.len() > 1 {
            top_required.push(Value::from("command"));
        }
        for field in &users {
            let Some(Value::Object(prop)) = properties.get_mut(&field.name) else {
                continue;
            };
            prop.remove("title");
            let mut description = field.description();
            if field.required_by.len() == self.commands.len() {
                top_required.push(Value::from(field.name.as_str()));
            } else if self.commands.len() > 1 {
                if field.described.len() == 1 {
                    description.push_str(&format!(". For: {}", field.used_by.join(", ")));
                }
                if !field.required_by.is_empty() {
                    description
                        .push_str(&format!(" (required by {})", field.required_by.join(", ")));
                }
            }
            description.push('.');
            prop.insert("description".into(), Value::from(description));
        }
        json!({
            "type": "object",
            "properties": properties,
            "required": top_required,
            "additionalProperties": false,
        })
    }
}

/// Every command's argument schema by argument type, generated natively by
/// schemars and checked in (tests/schemas.rs writes and checks it).
fn generated_schemas() -> &'static Map<String, Value> {
    static SCHEMAS: OnceLock<Map<String, Value>> = OnceLock::new();
    SCHEMAS.get_or_init(|| {
        serde_json::from_str(include_str!("schemas.json"))
            .expect("src/tools/schemas.json is a JSON object")
    })
}

/// Schemas with every subschema inlined: model providers handle `$ref` badly.
#[cfg(not(target_arch = "wasm32"))]
fn schema_generator() -> SchemaGenerator {
    SchemaSettings::draft2020_12()
        .with(|s| {
            s.inline_subschemas = true;
            s.meta_schema = None;
        })
        .into_generator()
}

/// When two commands share a parameter with different allowed values, the
/// schema offers the union; `parse_call` still checks per command.
/// Schema keywords of a field that several commands share, kept only where
/// every command gives the same.
const BOUNDS: [&str; 5] = ["minimum", "maximum", "default", "minLength", "maxLength"];

/// A field of the tool's flat schema and the commands that take it.
struct SharedField<'a> {
    name: String,
    used_by: Vec<&'a str>,
    required_by: Vec<&'a str>,
    /// Each distinct description, with the commands that give it: a field
    /// that means another thing for another command (`limit`'s default and
    /// bound) says so per command instead of taking the first command's.
    described: Vec<(String, Vec<&'a str>)>,
}

impl<'a> SharedField<'a> {
    fn new(name: &str) -> SharedField<'a> {
        SharedField {
            name: name.to_string(),
            used_by: Vec::new(),
            required_by: Vec::new(),
            described: Vec::new(),
        }
    }

    fn add(&mut self, command: &'a str, prop: &Value, required: bool) {
        self.used_by.push(command);
        if required {
            self.required_by.push(command);
        }
        let text = prop
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or("")
            .trim_end_matches('.')
            .to_string();
        match self.described.iter_mut().find(|(d, _)| *d == text) {
            Some((_, commands)) => commands.push(command),
            None => self.described.push((text, vec![command])),
        }
    }

    /// One description, or one per group of commands when they differ.
    fn description(&self) -> String {
        match self.described.as_slice() {
            [(only, _)] => only.clone(),
            groups => groups
                .iter()
                .map(|(text, commands)| format!("For {}: {text}", commands.join(", ")))
                .collect::<Vec<_>>()
                .join(". "),
        }
    }
}

fn merge_enum(existing: Option<&mut Value>, incoming: &Value) {
    let (Some(Value::Object(existing)), Some(Value::Array(new_values))) =
        (existing, incoming.get("enum"))
    else {
        return;
    };
    if let Some(Value::Array(values)) = existing.get_mut("enum") {
        for v in new_values {
            if !values.contains(v) {
                values.push(v.clone());
            }
        }
    }
}

fn short_json(value: &Value) -> String {
    clipped(&value.to_string(), 60)
}

fn not_allowed_reason(command: &str, allowed: &[&str]) -> String {
    let allowed_text = format!("Allowed commands: {}.", allowed.join(", "));
    if is_excluded(command) {
        format!(
            "It can delete, move or overwrite notes, change Obsidian itself, or run code, so no Vault Agent tool ever runs it. {allowed_text}"
        )
    } else {
        allowed_text
    }
}
