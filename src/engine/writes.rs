//! Writing notes, around the registry's usual path: the check before a CLI
//! write (`create` only makes a new note), the read-back after it (a write is
//! `ok` only when the note shows it), and edits the CLI cannot make, computed
//! here and written through Obsidian's vault with the stale check inside the
//! same step.

use serde_json::Value;

use crate::base::call::NoteLocator;
use crate::base::card::ConfirmationState;
use crate::base::diff::NoteDiff;
use crate::base::error::ToolError;
use crate::base::host::{Host, VaultProcessed};
use crate::base::result::{Ran, ToolResult};
use crate::base::vault_path::PathKind;
use crate::cli::argv::CliInvocation;
use crate::cli::outcome::{CliOutput, EmptyOutput};
use crate::engine::confirm::{NoteEditPlan, PendingConfirmation, Proposal};
use crate::engine::in_place::Partial;
use crate::engine::Engine;
use crate::notes::edit::{apply, body_start, EditProblem, NoteEdit};
use crate::settings::Settings;
use crate::tools::{NoteEditRequest, ToolCall, WriteCheck};

impl<H: Host> Engine<H> {
    /// Before a CLI write: `create` is refused when the note exists (the CLI
    /// would quietly make "Name 1.md" instead).
    pub(crate) async fn check_before_write(
        &self,
        check: &WriteCheck,
        target: &str,
        settings: &Settings,
    ) -> Result<(), ToolError> {
        let WriteCheck::Create { exists, .. } = check else {
            return Ok(());
        };
        match self.read_text(exists, settings).await {
            Ok(_) => Err(crate::tools::edit::note_exists(target)),
            Err(ToolError::CliError { .. }) => Ok(()),
            Err(other) => Err(other),
        }
    }

    /// After a CLI write: read the note back and check the change is there.
    pub(crate) async fn verify_write(
        &self,
        check: &WriteCheck,
        output: &CliOutput,
        settings: &Settings,
    ) -> Result<(), ToolError> {
        let written = written_path(&output.text);
        let read = match (&written, check) {
            (Some(path), _) => CliInvocation::new("read").parameter("path", path.as_str()),
            (None, WriteCheck::Create { read, .. })
            | (None, WriteCheck::Append { read, .. })
            | (None, WriteCheck::Prepend { read, .. }) => read.clone(),
        };
        let target = written.clone().unwrap_or_else(|| describe(&read));
        let not_verified = |detail: String| ToolError::WriteNotVerified {
            target: target.clone(),
            detail,
        };
        if let (
            WriteCheck::Create {
                path: Some(wanted), ..
            },
            Some(made),
        ) = (check, &written)
        {
            if !same_note_path(wanted, made) {
                return Err(not_verified(format!(
                    "the CLI created \"{made}\" instead of \"{wanted}\", which means a note was already there"
                )));
            }
        }
        let note = self
            .read_text(&read, settings)
            .await
            .map_err(|e| not_verified(format!("reading it back failed ({})", e.code())))?;
        let note = note.replace("\r\n", "\n");
        let found = |what: &str| not_verified(format!("{what}; it now begins {:?}", short(&note)));
        match check {
            WriteCheck::Create {
                content: Some(content),
                ..
            } => {
                if note.trim() != content.replace("\r\n", "\n").trim() {
                    return Err(found("the new note does not hold the text that was sent"));
                }
            }
            WriteCheck::Create { content: None, .. } => {}
            WriteCheck::Append { content, .. } => {
                if !note
                    .trim_end()
                    .ends_with(content.replace("\r\n", "\n").trim_end())
                {
                    return Err(found("the note does not end with the added text"));
                }
            }
            WriteCheck::Prepend { content, .. } => {
                let lines: Vec<&str> = note.split_inclusive('\n').collect();
                let body: String = lines[body_start(&note).min(lines.len())..].concat();
                if !body
                    .trim_start()
                    .starts_with(content.replace("\r\n", "\n").trim())
                {
                    return Err(found("the note's body does not start with the added text"));
                }
            }
        }
        Ok(())
    }

    /// An edit of an existing note: read it exactly, compute the new text,
    /// and file a confirmation whose card shows the diff.
    pub(crate) async fn propose_note_edit(
        &self,
        call: &ToolCall<'_>,
        args: &Value,
        request: NoteEditRequest,
        settings: &Settings,
        turn: Option<&str>,
    ) -> Result<ToolResult, ToolError> {
        let path = self.resolve_note(&request.locate, settings).await?;
        self.check_real_place(&path).await?;
        let target = format!("\"{path}\"");
        let before =
            self.host()
                .vault_read(&path)
                .await
                .map_err(|failure| match failure.code.as_str() {
                    "not_found" | "not_a_file" => ToolError::NoteNotFound {
                        target: target.clone(),
                    },
                    _ => ToolError::VaultFailed {
                        target: target.clone(),
                        detail: failure.message,
                    },
                })?;
        self.check_utf8(&path, &target).await?;
        let after = apply(&before, &request.edit)
            .map_err(|problem| edit_error(problem, &target, &request.edit))?;
        if after == before {
            return Err(ToolError::NothingToChange { target });
        }
        let diff = NoteDiff::between(&before, &after);
        let plan = NoteEditPlan {
            path: path.clone(),
            before,
            after,
        };
        let argv = plan.argv();
        let ran = plan.ran(call.tool.display_name, call.command.name);
        let preview = crate::base::call::Preview {
            target: target.clone(),
            before: String::new(),
            // The model reads the change as a unified diff.
            after: diff.unified(),
            diff: Some(diff.clone()),
            warning: None,
        };
        let proposal = Proposal {
            tool_id: call.tool.id,
            command: call.command.name,
            arguments: args.clone(),
            invocation: CliInvocation::new("edit").parameter("path", path.as_str()),
            argv: argv.clone(),
            probe: CliInvocation::new("read").parameter("path", path.as_str()),
            probe_snapshot: String::new(),
            probe_note: None,
            summary: format!("{} {target} ({})", call.command.confirm_verb, diff.counts()),
            preview,
            empty_output: EmptyOutput::Error,
            note_edit: Some(plan),
            organise: None,
            turn: turn.map(str::to_string),
        };
        Ok(self.file_vault_card(proposal, settings, ran))
    }

    /// Refuses to edit a file that is not UTF-8 (a Latin-1 note, an image):
    /// Obsidian reads it with replacement characters, and writing that back
    /// would change every byte the edit does not touch.
    async fn check_utf8(&self, path: &str, target: &str) -> Result<(), ToolError> {
        let bytes = self
            .host()
            .vault_read_bytes(path, crate::engine::journal::MAX_BYTES)
            .await
            .map_err(|failure| ToolError::VaultFailed {
                target: target.to_string(),
                detail: failure.message,
            })?;
        match std::str::from_utf8(&bytes) {
            Ok(_) => Ok(()),
            Err(error) => Err(ToolError::NotUtf8 {
                target: target.to_string(),
                detail: format!(
                    "byte {} is 0x{:02x}",
                    error.valid_up_to() + 1,
                    bytes[error.valid_up_to()]
                ),
            }),
        }
    }

    /// Files a card whose change Obsidian makes (an edit, a move), not the
    /// CLI: the pending result carries no command line.
    pub(crate) fn file_vault_card(
        &self,
        proposal: Proposal,
        settings: &Settings,
        ran: Ran,
    ) -> ToolResult {
        let argv = proposal.argv.clone();
        let now = self.host().now_ms();
        let pending = self
            .confirmations
            .borrow_mut()
            .propose(proposal, now, settings.confirmation_expiry_ms)
            .view();
        let mut result = ToolResult::pending(pending, argv);
        result.argv = None;
        result.ran = Some(ran);
        result
    }

    /// The approved edit: written only if the note is unchanged, in the same
    /// step as the check; then read back through the CLI.
    pub(crate) async fn run_note_edit(
        &self,
        entry: &PendingConfirmation,
        plan: &NoteEditPlan,
        settings: &Settings,
        ran: Ran,
        partial: Option<Partial>,
    ) -> Result<ToolResult, ToolError> {
        let (id, tool_id, arguments) = (entry.id.as_str(), entry.tool_id, &entry.arguments);
        let turn = entry.turn.as_deref();
        let target = format!("\"{}\"", plan.path);
        self.confirmations
            .borrow_mut()
            .advance(id, ConfirmationState::Running)?;
        if let Err(error) = self.check_real_place(&plan.path).await {
            return self.finish_run(id, ToolResult::failure(&error, 0.0).ran_by(ran));
        }
        let written = self
            .host()
            .vault_process(&plan.path, &plan.before, &plan.after)
            .await;
        let result = match written {
            Ok(VaultProcessed::Written) => {
                let read = CliInvocation::new("read").parameter("path", plan.path.as_str());
                let mut result = match self.read_text(&read, settings).await {
                    Ok(text) if same_text(&text, &plan.after) => {
                        let diff = NoteDiff::between(&plan.before, &plan.after);
                        // Accepted in part: the model (and the card, in the
                        // past tense) says which share of the change was kept.
                        let counts = match partial {
                            Some(part) => format!("{}; {}", diff.counts(), part.words()),
                            None => diff.counts(),
                        };
                        // The model reads what changed, to say it in words.
                        ToolResult::success(format!(
                            "Edited {target} ({counts}):\n{}",
                            diff.unified()
                        ))
                    }
                    Ok(text) => ToolResult::failure(
                        &ToolError::WriteNotVerified {
                            target: target.clone(),
                            detail: format!(
                                "the note does not hold the new text; it now begins {:?}",
                                short(&text)
                            ),
                        },
                        0.0,
                    ),
                    Err(error) => ToolResult::failure(
                        &ToolError::WriteNotVerified {
                            target: target.clone(),
                            detail: format!("reading it back failed ({})", error.code()),
                        },
                        0.0,
                    ),
                };
                // The vault wrote it: journaled whatever the read-back said.
                self.record_edit(plan, tool_id, turn, settings, &mut result)
                    .await;
                result
            }
            Ok(VaultProcessed::Changed { now }) => {
                // Someone typed, or a sync arrived: nothing was written. Ask
                // again against what the note holds now.
                let changed = NoteDiff::between(&plan.before, &now);
                let fresh = self
                    .propose_again_as_card(tool_id, arguments, settings, turn)
                    .await;
                let mut result = ToolResult::failure(
                    &ToolError::Stale {
                        target: target.clone(),
                        now: format!("{} since the preview", changed.counts()),
                        refused_again: fresh.pending.is_none().then(|| fresh.text.clone()),
                    },
                    0.0,
                );
                result.pending = fresh.pending;
                let result = result.ran_by(ran);
                self.confirmations
                    .borrow_mut()
                    .finish(id, ConfirmationState::Failed, &result)?;
                return Ok(result);
            }
            Err(failure) => ToolResult::failure(
                &ToolError::VaultFailed {
                    target: target.clone(),
                    detail: failure.message,
                },
                0.0,
            ),
        };
        self.finish_run(id, result.ran_by(ran))
    }

    /// A note's exact text through the vault, as a probe reads it.
    pub(crate) async fn read_exact(&self, path: &str) -> crate::base::call::ProbeResult {
        self.host()
            .vault_read(path)
            .await
            .map_err(|failure| match failure.code.as_str() {
                "not_found" | "not_a_file" => ToolError::NoteNotFound {
                    target: format!("\"{path}\""),
                },
                _ => ToolError::VaultFailed {
                    target: format!("\"{path}\""),
                    detail: failure.message,
                },
            })
    }

    /// The vault path of a note named by path, by name, or as today's
    /// daily note.
    pub(crate) async fn resolve_note(
        &self,
        locate: &NoteLocator,
        settings: &Settings,
    ) -> Result<String, ToolError> {
        match locate {
            NoteLocator::Path(path) => Ok(path.clone()),
            NoteLocator::Daily => {
                let text = self
                    .read_text(&CliInvocation::new("daily:path"), settings)
                    .await?;
                crate::base::vault_path::normalised("daily:path", text.trim(), PathKind::File)
                    .map_err(|problem| ToolError::NoteNotFound {
                        target: format!("for today ({problem})"),
                    })
            }
            NoteLocator::Name(name) => {
                let info = CliInvocation::new("file").parameter("file", name.as_str());
                let text = self
                    .read_text(&info, settings)
                    .await
                    .map_err(|error| match error {
                        ToolError::CliError { .. } => ToolError::NoteNotFound {
                            target: format!("named \"{name}\""),
                        },
                        other => other,
                    })?;
                file_info_path(&text).ok_or_else(|| ToolError::NoteNotFound {
                    target: format!("named \"{name}\""),
                })
            }
        }
    }

    /// A read through the CLI whose empty answer is a real answer. It is
    /// ours, not the model's: the output cap is the largest there is, so a
    /// big note is compared whole.
    pub(crate) async fn read_text(
        &self,
        read: &CliInvocation,
        settings: &Settings,
    ) -> Result<String, ToolError> {
        let read = read.clone().in_vault(settings.vault());
        let settings = Settings {
            output_cap_bytes: crate::settings::OUTPUT_CAP_RANGE_BYTES.1,
            ..settings.clone()
        };
        self.cli_run(&read, EmptyOutput::Success(""), &settings)
            .await
            .map(|out| if out.empty { String::new() } else { out.text })
    }
}

/// `Created: X`, `Overwrote: X`, `Appended to: X`, `Prepended to: X`: the
/// path the CLI says it wrote (captured from the real app, 1.12.7).
pub(crate) fn written_path(output: &str) -> Option<String> {
    output.lines().find_map(|line| {
        [
            "Created: ",
            "Overwrote: ",
            "Appended to: ",
            "Prepended to: ",
        ]
        .iter()
        .find_map(|prefix| line.trim().strip_prefix(prefix))
        .map(|path| path.trim().to_string())
        .filter(|path| !path.is_empty())
    })
}

/// The `path` line of `file`'s answer (TSV `path\t<path>`, or space-padded
/// in older builds).
pub(crate) fn file_info_path(text: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let rest = line.trim_end_matches('\r').strip_prefix("path")?;
        rest.starts_with(['\t', ' '])
            .then(|| rest.trim().to_string())
            .filter(|p| !p.is_empty())
    })
}

fn same_note_path(wanted: &str, made: &str) -> bool {
    let bare = |p: &str| p.trim().trim_end_matches(".md").to_string();
    bare(wanted) == bare(made)
}

/// The CLI's `read` is not byte-exact (trailing whitespace, CRLF): compare
/// what it can show.
fn same_text(cli: &str, written: &str) -> bool {
    cli.replace("\r\n", "\n").trim_end() == written.replace("\r\n", "\n").trim_end()
}

fn short(text: &str) -> String {
    text.chars().take(120).collect()
}

fn describe(read: &CliInvocation) -> String {
    read.parameters
        .first()
        .map(|(_, value)| format!("\"{value}\""))
        .unwrap_or_else(|| "the note".into())
}

fn edit_error(problem: EditProblem, target: &str, edit: &NoteEdit) -> ToolError {
    let heading = match edit {
        NoteEdit::ReplaceSection { heading, .. }
        | NoteEdit::InsertAfterHeading { heading, .. }
        | NoteEdit::AppendToSection { heading, .. } => heading.clone(),
        NoteEdit::Replace { .. }
        | NoteEdit::Line { .. }
        | NoteEdit::AddTag { .. }
        | NoteEdit::RemoveTag { .. }
        | NoteEdit::Range { .. } => String::new(),
    };
    match problem {
        EditProblem::FindNotFound { near } => ToolError::FindNotFound {
            target: target.to_string(),
            near,
        },
        EditProblem::FindAmbiguous { lines } => ToolError::FindAmbiguous {
            target: target.to_string(),
            lines,
        },
        EditProblem::EmptyFind => ToolError::invalid("obsidianEdit", "`find` is empty"),
        EditProblem::SelectionChanged => ToolError::SelectionChanged {
            target: target.to_string(),
        },
        EditProblem::Heading(problem) => {
            crate::engine::reads::heading_error(problem, target, &heading)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn confirmation_lines_name_the_written_path() {
        assert_eq!(
            written_path("Created: Projects/Q3 plan.md\n").as_deref(),
            Some("Projects/Q3 plan.md")
        );
        assert_eq!(
            written_path("Appended to: Daily/2026-03-03.md").as_deref(),
            Some("Daily/2026-03-03.md")
        );
        assert_eq!(
            written_path("Prepended to: A.md\r\n").as_deref(),
            Some("A.md")
        );
        assert_eq!(written_path("Overwrote: A.md").as_deref(), Some("A.md"));
        assert_eq!(written_path("Done."), None);
        assert_eq!(
            file_info_path("path\tProjects/Plan.md\nname\tPlan\n").as_deref(),
            Some("Projects/Plan.md")
        );
        assert_eq!(
            file_info_path("path      Plan.md\r\nname Plan").as_deref(),
            Some("Plan.md")
        );
        assert_eq!(file_info_path("pathological\tx"), None);
        assert!(same_note_path("Q3 plan.md", "Q3 plan.md"));
        assert!(!same_note_path("Q3 plan.md", "Q3 plan 1.md"));
    }
}
