//! Runs CLI invocations through the host: finds the binary (once, then cached),
//! applies the timeout and output cap, and maps the outcome.

use std::cell::RefCell;

use serde::Serialize;

use super::argv::CliInvocation;
use super::discovery::{discover, Discovery};
use super::gate::ProcessGate;
use super::outcome::{interpret, CliOutput, EmptyOutput, OutcomeContext};
use crate::base::error::ToolError;
use crate::base::host::{Host, ProcessRequest, ProcessTree};
use crate::settings::Settings;

/// How long a process gets between SIGTERM and SIGKILL. The host settles a
/// call within the timeout plus this plus a short drain: under a second.
pub const KILL_GRACE_MS: u32 = 500;
/// `obsidian version` should answer at once; do not let the settings tab hang.
const VERSION_TIMEOUT_MS: u32 = 5_000;

/// What the settings tab shows about the CLI.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct CliStatus {
    pub discovery: Discovery,
    /// The first line `obsidian version` printed, when it could run.
    pub version: Option<String>,
    /// Why the version could not be read.
    pub version_error: Option<String>,
}

/// One finished (or refused) run.
#[derive(Clone, Debug, PartialEq)]
pub struct CliRun {
    pub program: Option<String>,
    pub argv: Vec<String>,
    pub output: Result<CliOutput, ToolError>,
}

/// The CLI as the core sees it: a cached binary location plus how to run it.
#[derive(Default)]
pub struct CliClient {
    /// The last discovery's answer: the binary, or why none was found.
    binary: RefCell<Option<Result<String, ToolError>>>,
    /// At most `settings.max_processes` CLI processes at once.
    gate: ProcessGate,
}

impl CliClient {
    /// The cached binary, discovering it first if needed.
    async fn binary<H: Host>(&self, host: &H, settings: &Settings) -> Result<String, ToolError> {
        if let Some(cached) = self.binary.borrow().as_ref() {
            return cached.clone();
        }
        let discovery = discover(host, &settings.cli_path).await;
        self.remember(&discovery);
        discovery
            .binary
            .clone()
            .ok_or_else(|| discovery.not_found())
    }

    fn remember(&self, discovery: &Discovery) {
        *self.binary.borrow_mut() = Some(
            discovery
                .binary
                .clone()
                .ok_or_else(|| discovery.not_found()),
        );
    }

    /// Refuses, before anything runs, a command line the OS would not take
    /// (the binary is found first: Windows counts it in the limit).
    pub async fn check_fits<H: Host>(
        &self,
        host: &H,
        settings: &Settings,
        invocation: &CliInvocation,
    ) -> Result<(), ToolError> {
        let argv = invocation
            .to_argv()
            .map_err(|e| ToolError::invalid(&invocation.command, e.to_string()))?;
        let program = self.binary(host, settings).await.unwrap_or_default();
        super::argv::check_size(&program, &argv, host.platform().os())
            .map_err(|detail| ToolError::TooLargeForCli { detail })
    }

    /// Processes running now and calls waiting for a slot.
    pub fn load(&self) -> (usize, usize) {
        (self.gate.running(), self.gate.waiting())
    }

    /// Forgets the cached location (the settings changed, or the binary vanished).
    pub fn forget_binary(&self) {
        *self.binary.borrow_mut() = None;
    }

    /// Runs `invocation` and maps the outcome.
    pub async fn run<H: Host>(
        &self,
        host: &H,
        settings: &Settings,
        invocation: &CliInvocation,
        empty_output: EmptyOutput,
    ) -> CliRun {
        let argv = match invocation.to_argv() {
            Ok(argv) => argv,
            Err(problem) => {
                return CliRun {
                    program: None,
                    argv: Vec::new(),
                    output: Err(ToolError::invalid(&invocation.command, problem.to_string())),
                }
            }
        };
        let mut retried = false;
        loop {
            let program = match self.binary(host, settings).await {
                Ok(program) => program,
                Err(not_found) => {
                    return CliRun {
                        program: None,
                        argv,
                        output: Err(not_found),
                    }
                }
            };
            if let Err(problem) = super::argv::check_size(&program, &argv, host.platform().os()) {
                return CliRun {
                    program: Some(program),
                    argv,
                    output: Err(ToolError::TooLargeForCli { detail: problem }),
                };
            }
            let request = ProcessRequest {
                program: program.clone(),
                args: argv.clone(),
                cwd: host.platform().vault_path.clone(),
                timeout_ms: settings.timeout_ms,
                kill_grace_ms: KILL_GRACE_MS,
                max_output_bytes: settings.output_cap_bytes,
                tree: ProcessTree::for_os(host.platform().os()),
                tag: settings.process_tag.clone(),
            };
            let outcome = {
                let _slot = self.gate.acquire(settings.max_processes as usize).await;
                host.run_process(&request).await
            };
            if let Some(failure) = &outcome.spawn_failure {
                if matches!(failure.code.as_str(), "ENOENT" | "EACCES" | "ENOTDIR") {
                    // The binary moved or lost its permission since discovery:
                    // look again once, then give up with the full list.
                    self.forget_binary();
                    if !retried {
                        retried = true;
                        continue;
                    }
                    let not_found = match self.binary(host, settings).await {
                        Ok(_) => ToolError::CliNotFound {
                            setting_problem: None,
                            tried: vec![format!("{program} ({})", failure.code)],
                        },
                        Err(not_found) => not_found,
                    };
                    return CliRun {
                        program: Some(program),
                        argv,
                        output: Err(not_found),
                    };
                }
            }
            let context = OutcomeContext {
                timeout_ms: settings.timeout_ms,
                vault: invocation.vault.as_deref(),
                empty_output,
            };
            return CliRun {
                program: Some(program),
                argv,
                output: interpret(&outcome, &context),
            };
        }
    }

    /// Discovers the binary again and asks it for its version.
    pub async fn status<H: Host>(&self, host: &H, settings: &Settings) -> CliStatus {
        let discovery = discover(host, &settings.cli_path).await;
        self.remember(&discovery);
        let (version, version_error) = match &discovery.binary {
            None => (None, Some("The Obsidian CLI was not found.".to_string())),
            Some(_) => {
                let version_settings = Settings {
                    timeout_ms: settings.timeout_ms.min(VERSION_TIMEOUT_MS),
                    ..settings.clone()
                };
                let run = self
                    .run(
                        host,
                        &version_settings,
                        &CliInvocation::new("version"),
                        EmptyOutput::Error,
                    )
                    .await;
                match run.output {
                    Ok(out) => (
                        Some(out.text.lines().next().unwrap_or("").to_string()),
                        None,
                    ),
                    Err(e) => (None, Some(e.to_string())),
                }
            }
        };
        CliStatus {
            discovery,
            version,
            version_error,
        }
    }
}
