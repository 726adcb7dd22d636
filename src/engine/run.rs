//! Runs a call that passed the gate.

use std::rc::Rc;

use serde_json::Value;

use super::{Authorised, Engine};
use crate::base::call::{Access, ProbeResult};
use crate::base::error::ToolError;
use crate::base::host::Host;
use crate::base::result::{Ran, ToolResult};
use crate::cli::argv::CliInvocation;
use crate::cli::client::CliRun;
use crate::cli::outcome::EmptyOutput;
use crate::policy::{filter, scope};
use crate::settings::Settings;
use crate::tools::{CliWrite, Plan, Presents, ToolCall, WriteCheck};

impl<H: Host> Engine<H> {
    /// Runs one call: the gate, then its plan, matched once.
    pub(super) async fn run_tool(
        &self,
        tool_id: &str,
        args: &Value,
        turn: Option<&str>,
        settings: Rc<Settings>,
    ) -> Result<ToolResult, ToolError> {
        // A chat answer's processes carry its turn id: Stop in that chat
        // ends them, and no other chat's (`Host::cancel_processes`).
        let settings = match turn {
            Some(turn) if settings.process_tag.is_none() => {
                let mut tagged = Settings::clone(&settings);
                tagged.process_tag = Some(turn.to_string());
                Rc::new(tagged)
            }
            _ => settings,
        };
        let Authorised {
            call,
            access,
            invocation,
            arguments,
            filter,
            barred,
        } = self.authorise(tool_id, args, &settings).await?;
        let _forget = access.is_write().then(|| self.changing());
        let args = &arguments;
        let plan = call.args.plan();
        // What the block of a call the CLI does not run says ran it.
        let ran = |by: &'static str| {
            let words = Ran::argument_words(call.command.name, args);
            move |mut result: ToolResult| {
                result.ran = Some(Ran::new(call.tool.display_name, by, words));
                result
            }
        };
        match plan {
            Plan::NoteView(request) => self
                .view_note(request, &settings)
                .await
                .map(ran(Ran::VAULT)),
            Plan::Organise(request) => {
                self.propose_organise(&call, args, request, &settings, turn)
                    .await
            }
            // Computed from the CLI's listings and the notes' text, each
            // limited to the read scope before anything is computed.
            Plan::Computed(request) => self
                .run_hygiene(&request, &settings)
                .await
                .map(ran(Ran::COMPUTED)),
            // The core's index; every hit limited to the read scope first.
            Plan::Search(request) => self
                .run_search(&request, &settings)
                .await
                .map(ran(Ran::SEARCH)),
            // The user's provider, every hop held to Local only and logged.
            Plan::Web(request) => self.run_web(&request, &settings).await,
            Plan::NoteEdit(request) => {
                self.propose_note_edit(&call, args, request, &settings, turn)
                    .await
            }
            Plan::CliWrite(write) if access == Access::ConfirmedWrite => {
                self.propose(&call, args, invocation, &write, &settings, turn)
                    .await
            }
            Plan::CliWrite(write) if access == Access::DirectWrite => {
                let result = self
                    .run_write(&call, &invocation, &write, &settings, turn)
                    .await?;
                Ok(self.shown(&call, result, filter.as_ref(), &barred, None, &settings))
            }
            Plan::Read { present } if access == Access::Read => {
                // A listing the core pages is read whole (up to the largest
                // cap): only the page reaches the model, and a listing cut at
                // the user's cap would page and count the wrong whole.
                let settings = match present {
                    Some(_) => Rc::new(Settings {
                        output_cap_bytes: crate::settings::OUTPUT_CAP_RANGE_BYTES.1,
                        ..Settings::clone(&settings)
                    }),
                    None => settings,
                };
                let run = self.run_cli(&call, access, &invocation, &settings).await;
                let result = result_of(run);
                Ok(self.shown(&call, result, filter.as_ref(), &barred, present, &settings))
            }
            // A tool whose plan says otherwise than its access: nothing runs.
            Plan::Read { .. } | Plan::CliWrite(_) => Err(ToolError::invalid(
                call.tool.id,
                format!(
                    "{} declares no plan for what it does, so nothing ran",
                    call.command.name
                ),
            )),
        }
    }

    /// A CLI change that runs at once: refused before any read when the
    /// CLI could not receive it, checked before and read back after as its
    /// plan says, and journaled with how it is reversed.
    async fn run_write(
        &self,
        call: &ToolCall<'_>,
        invocation: &CliInvocation,
        write: &CliWrite<'_>,
        settings: &Settings,
        turn: Option<&str>,
    ) -> Result<ToolResult, ToolError> {
        self.cli
            .check_fits(&self.host, settings, invocation)
            .await?;
        if let Some(check) = &write.check {
            let target = call.args.write_target().unwrap_or_default();
            self.check_before_write(check, &target, settings).await?;
        }
        // Looked for before the note exists, so it never finds itself.
        let warning = self.new_note_warning(write, settings).await;
        let before = self.capture_before(&write.undo, settings).await;
        self.check_captured_place(&before).await?;
        let run = self
            .run_cli(call, Access::DirectWrite, invocation, settings)
            .await;
        let ran = ran_output(&run);
        let mut result = self.verified(run, write.check.as_ref(), settings).await?;
        if let Some(output) = ran {
            self.record_write(before, call, turn, settings, &output, &mut result)
                .await;
        }
        if let (Some(warning), true) = (&warning, result.ok) {
            result.text = format!("{}\n{warning}", result.text.trim_end());
        }
        Ok(result)
    }

    /// What a CLI answer shows: what lies outside the folders the agent may
    /// read goes first; then a read's own filters, counts and pages
    /// (`Presents`) see only the rest.
    fn shown(
        &self,
        call: &ToolCall<'_>,
        mut result: ToolResult,
        filter: Option<&scope::Output>,
        barred: &[String],
        present: Option<&dyn Presents>,
        settings: &Settings,
    ) -> ToolResult {
        if !result.ok || result.empty {
            return result;
        }
        if let Some(shape) = filter {
            let scope =
                scope::FolderScope::read(settings, self.host.platform().os()).barring(barred);
            let filtered = filter::filter(call.command.name, &result.text, shape, scope);
            result.text = filtered.text;
            if filtered.withheld > 0 {
                result.withheld = Some(filtered.withheld);
            }
        }
        if let Some(presented) = present.and_then(|present| present.present(&result.text)) {
            result.text = presented.text;
            if let Some(note) = presented.note {
                result.text.push_str(&note);
                result.text.push('\n');
            }
        }
        result
    }

    /// Runs the call's argv; a read whose rule allows it (`cli::cache`) is
    /// answered from the cache while nothing changed.
    async fn run_cli(
        &self,
        call: &ToolCall<'_>,
        access: Access,
        invocation: &CliInvocation,
        settings: &Settings,
    ) -> CliRun {
        use crate::cli::cache::{self, CacheRule};
        let cacheable = access == Access::Read
            && settings.read_cache_seconds > 0
            && cache::rule(call.command.name) == Some(CacheRule::VaultContent)
            // Without `file` or `path` the CLI answers for the open note.
            && !call
                .args
                .reach()
                .places
                .iter()
                .any(|place| matches!(place, scope::Place::OpenNote));
        let key = cacheable.then(|| invocation.to_argv().ok()).flatten();
        let generation = self.read_cache.borrow().generation();
        if let Some(argv) = &key {
            let max_age = f64::from(settings.read_cache_seconds) * 1000.0;
            let now = self.host.now_ms();
            if let Some(run) = self.read_cache.borrow_mut().get(argv, now, max_age) {
                return run;
            }
        }
        let run = self
            .cli
            .run(&self.host, settings, invocation, call.command.empty_output)
            .await;
        if key.is_some() {
            let now = self.host.now_ms();
            self.read_cache.borrow_mut().put(&run, now, generation);
        }
        run
    }

    /// A finished CLI write, read back when the command says how.
    pub(super) async fn verified(
        &self,
        run: CliRun,
        check: Option<&WriteCheck>,
        settings: &Settings,
    ) -> Result<ToolResult, ToolError> {
        if let (Some(check), Ok(output)) = (check, &run.output) {
            if let Err(error) = self.verify_write(check, output, settings).await {
                return Ok(result_of(CliRun {
                    output: Err(error),
                    ..run
                }));
            }
        }
        Ok(result_of(run))
    }

    /// One CLI run, its output or its error.
    pub(crate) async fn cli_run(
        &self,
        invocation: &CliInvocation,
        empty_output: EmptyOutput,
        settings: &Settings,
    ) -> Result<crate::cli::outcome::CliOutput, ToolError> {
        self.cli
            .run(&self.host, settings, invocation, empty_output)
            .await
            .output
    }

    pub(super) async fn read_probe(
        &self,
        probe: &CliInvocation,
        settings: &Settings,
    ) -> ProbeResult {
        // Empty is a real answer here (a property that is not set).
        let run = self
            .cli
            .run(&self.host, settings, probe, EmptyOutput::Success(""))
            .await;
        run.output.map(|out| {
            if out.empty && out.text.is_empty() {
                String::new()
            } else {
                out.text
            }
        })
    }
}

/// The one result of a finished CLI run.
pub(super) fn result_of(run: CliRun) -> ToolResult {
    let mut result = match run.output {
        Ok(output) => ToolResult {
            ok: true,
            text: output.text,
            error: None,
            program: None,
            argv: None,
            truncated: output.truncation.map(|_| true),
            empty: output.empty,
            pending: None,
            diff: None,
            journal: None,
            withheld: None,
            found: None,
            ran: None,
            images: Vec::new(),
            reply: None,
            duration_ms: 0.0,
        },
        Err(error) => ToolResult::failure(&error, 0.0),
    };
    result.program = run.program;
    if !run.argv.is_empty() {
        result.argv = Some(run.argv);
    }
    result
}

/// What the CLI printed for a write it ran: journaled even when the
/// read-back then fails, since the note may have changed.
pub(super) fn ran_output(run: &CliRun) -> Option<String> {
    run.output.as_ref().ok().map(|output| output.text.clone())
}
