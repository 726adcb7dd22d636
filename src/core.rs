//! `VaultAgentCore`: the registry, the settings and the CLI client behind one
//! object. Every front end (the public API, the chat agent, the settings tab)
//! goes through it, so no front end has a way around the policy.

use std::cell::RefCell;
use std::rc::Rc;

use serde::Serialize;
use serde_json::Value;

use crate::cli::client::{CliClient, CliStatus};
use crate::error::ToolError;
use crate::host::Host;
use crate::result::ToolResult;
use crate::settings::{normalise, NormalisedSettings, Settings};
use crate::tools::{builtin_tools, Access, ToolSpec};

/// How a tool is described to callers (`api.listTools()`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolDescriptor {
    pub id: &'static str,
    pub display_name: &'static str,
    pub description: &'static str,
    pub guidance: &'static str,
    pub input_schema: Value,
    /// The command allowlist.
    pub commands: Vec<&'static str>,
    pub command_details: Vec<CommandDescriptor>,
    /// A typical read-only call.
    pub example: Value,
    pub enabled: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CommandDescriptor {
    pub name: &'static str,
    pub access: Access,
    pub summary: &'static str,
}

pub struct VaultAgentCore<H: Host> {
    host: H,
    tools: Vec<ToolSpec>,
    /// Shared, not cloned, per call: a call keeps the snapshot it started with.
    settings: RefCell<Rc<Settings>>,
    cli: CliClient,
}

impl<H: Host> VaultAgentCore<H> {
    /// Builds the core from the host and whatever `loadData()` returned.
    pub fn new(host: H, stored_settings: &Value) -> (Self, Vec<String>) {
        let tools = builtin_tools();
        let NormalisedSettings { settings, repairs } = normalise(stored_settings, &ids(&tools));
        let core = VaultAgentCore {
            host,
            tools,
            settings: RefCell::new(Rc::new(settings)),
            cli: CliClient::default(),
        };
        (core, repairs)
    }

    pub fn host(&self) -> &H {
        &self.host
    }

    pub fn settings(&self) -> Settings {
        Settings::clone(&self.settings.borrow())
    }

    fn settings_snapshot(&self) -> Rc<Settings> {
        self.settings.borrow().clone()
    }

    /// Replaces the settings (from the settings tab, never from the model).
    pub fn set_settings(&self, stored: &Value) -> NormalisedSettings {
        let normalised = normalise(stored, &ids(&self.tools));
        let old_path = self.settings.borrow().cli_path.clone();
        if normalised.settings.cli_path != old_path {
            self.cli.forget_binary();
        }
        *self.settings.borrow_mut() = Rc::new(normalised.settings.clone());
        normalised
    }

    pub fn tools(&self) -> &[ToolSpec] {
        &self.tools
    }

    pub fn list_tools(&self) -> Vec<ToolDescriptor> {
        let settings = self.settings.borrow();
        self.tools
            .iter()
            .map(|tool| ToolDescriptor {
                id: tool.id,
                display_name: tool.display_name,
                description: tool.description,
                guidance: tool.guidance,
                input_schema: tool.input_schema(),
                commands: tool.command_names(),
                command_details: tool
                    .commands
                    .iter()
                    .map(|c| CommandDescriptor {
                        name: c.name,
                        access: c.access,
                        summary: c.summary,
                    })
                    .collect(),
                example: tool.example.clone(),
                enabled: settings.tool_enabled(tool.id),
            })
            .collect()
    }

    /// Discovers the CLI again and reads its version (the settings tab's button).
    pub async fn cli_status(&self) -> CliStatus {
        let settings = self.settings_snapshot();
        self.cli.status(&self.host, &settings).await
    }

    /// Runs one tool call end to end and reports how long it took.
    pub async fn call_tool(&self, tool_id: &str, args: &Value) -> ToolResult {
        let started = self.host.now_ms();
        let mut result = match self.run_tool(tool_id, args).await {
            Ok(result) => result,
            Err(error) => ToolResult::failure(&error, 0.0),
        };
        result.duration_ms = (self.host.now_ms() - started).max(0.0);
        result
    }

    async fn run_tool(&self, tool_id: &str, args: &Value) -> Result<ToolResult, ToolError> {
        if !self.host.platform().is_desktop_app {
            return Err(ToolError::UnsupportedPlatform);
        }
        let settings = self.settings();
        let tool =
            self.tools
                .iter()
                .find(|t| t.id == tool_id)
                .ok_or_else(|| ToolError::UnknownTool {
                    tool: tool_id.to_string(),
                    available: self.enabled_ids(&settings).join(", "),
                })?;
        if !settings.tool_enabled(tool.id) {
            return Err(ToolError::ToolDisabled {
                tool: tool.id.to_string(),
                available: self.enabled_ids(&settings).join(", "),
            });
        }
        let call = tool.parse_call(args)?;
        let invocation = call.invocation(settings.vault())?;
        let run = self
            .cli
            .run(
                &self.host,
                &settings,
                &invocation,
                call.command.empty_output,
            )
            .await;
        let mut result = match run.output {
            Ok(output) => ToolResult {
                ok: true,
                text: output.text,
                error: None,
                program: None,
                argv: None,
                truncated: output.truncation.map(|_| true),
                empty: output.empty,
                duration_ms: 0.0,
            },
            Err(error) => ToolResult::failure(&error, 0.0),
        };
        result.program = run.program;
        if !run.argv.is_empty() {
            result.argv = Some(run.argv);
        }
        Ok(result)
    }

    fn enabled_ids(&self, settings: &Settings) -> Vec<&'static str> {
        self.tools
            .iter()
            .filter(|t| settings.tool_enabled(t.id))
            .map(|t| t.id)
            .collect()
    }
}

fn ids(tools: &[ToolSpec]) -> Vec<&'static str> {
    tools.iter().map(|t| t.id).collect()
}
