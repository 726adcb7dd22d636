//! A change that waits for the user: its card proposed, and run once approved.

use serde_json::Value;

use super::confirm::{Approval, Proposal};
use super::run::ran_output;
use super::{Authorised, Engine};
use crate::base::call::ProbeResult;
use crate::base::card::{ConfirmationState, PendingView};
use crate::base::error::ToolError;
use crate::base::host::Host;
use crate::base::result::ToolResult;
use crate::cli::argv::CliInvocation;
use crate::settings::Settings;
use crate::tools::{CliWrite, Plan, ToolCall, UndoKind};

impl<H: Host> Engine<H> {
    /// Reads the target, builds the preview and files a confirmation.
    pub(super) async fn propose(
        &self,
        call: &ToolCall<'_>,
        args: &Value,
        invocation: CliInvocation,
        write: &CliWrite<'_>,
        settings: &Settings,
        turn: Option<&str>,
    ) -> Result<ToolResult, ToolError> {
        let argv = invocation
            .to_argv()
            .map_err(|e| ToolError::invalid(call.tool.id, e.to_string()))?;
        // A card for a command line the OS would refuse could never run.
        self.cli
            .check_fits(&self.host, settings, &invocation)
            .await?;
        let card = write.card.as_ref().ok_or_else(|| {
            // Reachable for any write in Ask before every change: every
            // write needs a probe and a preview to be shown on a card.
            ToolError::invalid(
                call.tool.id,
                format!(
                    "{} has no preview, so it cannot wait for approval on a card; nothing ran",
                    call.command.name
                ),
            )
        })?;
        let probe = card.probe.clone().in_vault(settings.vault());
        let probe_note = match &card.exact_note {
            Some(locate) => Some(self.resolve_note(locate, settings).await?),
            None => None,
        };
        let current = match &probe_note {
            Some(path) => self.read_exact(path).await,
            None => self.read_probe(&probe, settings).await,
        };
        let mut preview = card.preview.preview(&current)?;
        preview.warning = self.new_note_warning(write, settings).await;
        let summary = format!("{} {}", call.command.confirm_verb, preview.target);
        let proposal = Proposal {
            tool_id: call.tool.id,
            command: call.command.name,
            arguments: args.clone(),
            invocation,
            argv: argv.clone(),
            probe,
            probe_snapshot: snapshot(&current),
            probe_note,
            summary,
            preview,
            empty_output: call.command.empty_output,
            note_edit: None,
            organise: None,
            turn: turn.map(str::to_string),
        };
        let now = self.host.now_ms();
        let mut book = self.confirmations.borrow_mut();
        let pending = book
            .propose(proposal, now, settings.confirmation_expiry_ms)
            .view();
        let warning = pending.preview.warning.clone();
        let mut result = ToolResult::pending(pending, argv);
        if let Some(warning) = warning {
            // The model is told too, so it can offer to add to that note instead.
            result.text = format!("{}\n{warning}", result.text);
        }
        Ok(result)
    }

    /// For a call that makes a new note: a warning when a note with the same
    /// or a very similar title exists (among the notes the agent may read).
    pub(super) async fn new_note_warning(
        &self,
        write: &CliWrite<'_>,
        settings: &Settings,
    ) -> Option<String> {
        let title = write.new_note.as_ref()?;
        let found = self.similar_titles(title, settings).await;
        crate::engine::hygiene::similar_title_warning(&found)
    }

    /// `approval`: the whole change, "Approve for this chat" (which only an
    /// outside tool's card offers; on any other card it approves nothing),
    /// or some of a note edit's changes, reviewed in the editor.
    pub(super) async fn run_approved(
        &self,
        id: &str,
        argv_hash: &str,
        settings: &Settings,
        approval: Approval<'_>,
    ) -> Result<ToolResult, ToolError> {
        let for_chat = matches!(approval, Approval::ForChat);
        let (tool_id, arguments, argv, outside, narrowed) = {
            let now = self.host.now_ms();
            let mut book = self.confirmations.borrow_mut();
            let entry = book
                .get(id, now)
                .ok_or_else(|| ToolError::ConfirmationNotFound { id: id.to_string() })?;
            // Checked before the card is used: a wrong answer leaves it waiting.
            let narrowed = match approval {
                Approval::Changes(changes) => Some(super::in_place::narrowed(
                    entry.tool_id,
                    entry.note_edit.as_ref(),
                    changes,
                )?),
                _ => None,
            };
            (
                entry.tool_id,
                entry.arguments.clone(),
                entry.argv.clone(),
                entry.outside.is_some(),
                narrowed,
            )
        };
        // An outside tool's call: no CLI, no probe; the policy decides again.
        if outside {
            return self
                .run_approved_outside(id, argv_hash, settings, for_chat)
                .await;
        }
        if for_chat {
            return Err(ToolError::invalid(
                tool_id,
                "\"Approve for this chat\" is only for an outside tool's card; nothing ran",
            ));
        }
        // The switches may have changed since the card appeared (changes
        // turned off, the tool turned off, another vault): the same gate as
        // the proposal decides again, and the argv must still be the same.
        let Authorised {
            call, invocation, ..
        } = self.authorise(tool_id, &arguments, settings).await?;
        let plan = call.args.plan();
        // A note edit or a move is bound to what it writes, not to an argv.
        let is_note_edit = matches!(plan, Plan::NoteEdit(_) | Plan::Organise(_));
        if !is_note_edit && invocation.to_argv().ok().as_ref() != Some(&argv) {
            return Err(ToolError::ArgvMismatch);
        }
        let now = self.host.now_ms();
        let entry = self
            .confirmations
            .borrow_mut()
            .approve(id, argv_hash, now)?;
        let turn = entry.turn.as_deref();
        // Obsidian's vault makes these changes: their blocks say so.
        let tool = call.tool.display_name;
        // Said in the outcome kept for the card too, which a turn answered
        // on the card (and the chat it is stored in) takes as its result.
        if let Some(plan) = &entry.organise {
            let ran = plan.ran(tool);
            return self.run_organise(&entry, plan, settings, ran).await;
        }
        if let Some(plan) = &entry.note_edit {
            let ran = plan.ran(tool, entry.command);
            // Some changes only: the same note, the same stale check, less written.
            let (plan, partial) = narrowed.unwrap_or_else(|| (plan.clone(), None));
            return self
                .run_note_edit(&entry, &plan, settings, ran, partial)
                .await;
        }
        let current = match &entry.probe_note {
            Some(path) => self.read_exact(path).await,
            None => self.read_probe(&entry.probe, settings).await,
        };
        if snapshot(&current) != entry.probe_snapshot {
            let target = entry.preview.target.clone();
            // Ask again with a fresh preview, if the call still makes sense.
            let fresh = self
                .propose_again(entry.tool_id, &entry.arguments, settings, turn)
                .await;
            // What the target holds now, as the fresh preview shows it (a
            // probe may read a whole note when the target is one line).
            let now_text = match (&fresh, &current) {
                (Ok(pending), _) => pending.preview.before.clone(),
                (Err(_), Ok(text)) => text.lines().last().unwrap_or("").to_string(),
                (Err(_), Err(error)) => error.to_string(),
            };
            let mut result = ToolResult::failure(
                &ToolError::Stale {
                    target,
                    now: now_text,
                    refused_again: fresh.as_ref().err().cloned(),
                },
                0.0,
            );
            result.pending = fresh.ok();
            self.confirmations
                .borrow_mut()
                .finish(id, ConfirmationState::Stale, &result)?;
            return Ok(result);
        }
        // What undo needs, read after the stale check so it is what the
        // write changes.
        let (undo, check) = match &plan {
            Plan::CliWrite(write) => (write.undo.clone(), write.check.as_ref()),
            _ => (UndoKind::UNKNOWN, None),
        };
        let before = self.capture_before(&undo, settings).await;
        self.confirmations
            .borrow_mut()
            .advance(id, ConfirmationState::Running)?;
        if let Err(error) = self.check_captured_place(&before).await {
            return self.finish_run(id, ToolResult::failure(&error, 0.0));
        }
        let run = self
            .cli
            .run(&self.host, settings, &entry.invocation, entry.empty_output)
            .await;
        let ran = ran_output(&run);
        let mut result = self.verified(run, check, settings).await?;
        if let Some(output) = ran {
            self.record_write(before, &call, turn, settings, &output, &mut result)
                .await;
        }
        self.finish_run(id, result)
    }

    /// A confirmation whose write ran: done or failed, with its result kept.
    pub(crate) fn finish_run(&self, id: &str, result: ToolResult) -> Result<ToolResult, ToolError> {
        let end = if result.ok {
            ConfirmationState::Done
        } else {
            ConfirmationState::Failed
        };
        self.confirmations.borrow_mut().finish(id, end, &result)?;
        Ok(result)
    }

    /// A new card for a write whose card went stale. Always a card, never a
    /// run, whatever the mode says now: the user clicked Approve on what the
    /// old card showed, not on the target as it is now. `Err` says why the
    /// call cannot be asked again (its arguments no longer fit the target).
    async fn propose_again(
        &self,
        tool_id: &str,
        args: &Value,
        settings: &Settings,
        turn: Option<&str>,
    ) -> Result<PendingView, String> {
        let Authorised {
            call,
            access,
            invocation,
            arguments,
            ..
        } = self
            .authorise(tool_id, args, settings)
            .await
            .map_err(|e| e.to_string())?;
        let (Plan::CliWrite(write), true) = (call.args.plan(), access.is_write()) else {
            return Err(format!("{tool_id} {} changes nothing", call.command.name));
        };
        let proposed = self
            .propose(&call, &arguments, invocation, &write, settings, turn)
            .await
            .map_err(|e| e.to_string())?;
        proposed.pending.ok_or(proposed.text)
    }
}

/// What a probe read, as a comparable string (errors included).
pub(super) fn snapshot(result: &ProbeResult) -> String {
    match result {
        Ok(text) => format!("ok:{text}"),
        Err(error) => format!("error:{}:{error}", error.code()),
    }
}
