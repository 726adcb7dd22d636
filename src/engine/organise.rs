//! Moving, renaming and deleting notes: the card (what moves where, or what
//! goes with its first lines, how many notes link to each, and whether
//! Obsidian will update those links), the approved run through Obsidian's
//! file manager (each note only if it still holds the text the card was made
//! from), the journal entry, and the undo of the whole request.

use serde_json::Value;

use crate::base::call::Preview;
use crate::base::card::ConfirmationState;
use crate::base::error::ToolError;
use crate::base::host::Host;
use crate::base::result::{Ran, ToolResult};
use crate::base::vault_path::in_config_dir;
use crate::cli::argv::CliInvocation;
use crate::cli::outcome::EmptyOutput;
use crate::engine::confirm::{text_hash, OrganisePlan, PendingConfirmation, PlannedMove, Proposal};
use crate::engine::journal::{DeletedNote, JournalEntry, MovedNote, UndoPlan, MAX_BYTES};
use crate::engine::Engine;
use crate::settings::Settings;
use crate::tools::organise::{moved, renamed, Destination, OrganiseKind, OrganiseRequest};
use crate::tools::ToolCall;

/// Lines of a deleted note the card shows.
const FIRST_LINES: usize = 3;
/// The deleted files' copies one journal entry may keep: the journal's
/// bound, less room for the rest of the entry (its summary lists the paths).
const COPIES_MAX_BYTES: usize = MAX_BYTES - 256 * 1024;

impl<H: Host> Engine<H> {
    /// Finds every note, checks where each would go, and files one card.
    pub(crate) async fn propose_organise(
        &self,
        call: &ToolCall<'_>,
        args: &Value,
        request: OrganiseRequest,
        settings: &Settings,
        turn: Option<&str>,
    ) -> Result<ToolResult, ToolError> {
        let config_dir = self.host().platform().config_dir().to_string();
        let mut items = Vec::new();
        let mut before = Vec::new();
        let mut after = Vec::new();
        for locate in &request.notes {
            let from = self.resolve_note(locate, settings).await?;
            let text = self.read_exact(&from).await?;
            let to = match &request.destination {
                Destination::Folder(folder) => Some(moved(&from, folder)),
                Destination::Name(name) => Some(renamed(&from, name)),
                Destination::Trash => None,
            };
            for path in std::iter::once(&from).chain(to.iter()) {
                // A path that is in the configuration folder as written is
                // refused as such; only one that is not can lead there (or
                // out of the vault) through a link on disk.
                if in_config_dir(path, &config_dir) {
                    return Err(ToolError::ConfigFolder {
                        command: call.command.name.to_string(),
                        verb: "change",
                        key: path.clone(),
                        config_dir: config_dir.clone(),
                    });
                }
                self.check_real_place(path).await?;
            }
            if let Some(to) = &to {
                if *to == from {
                    return Err(ToolError::NothingToChange {
                        target: format!("\"{from}\""),
                    });
                }
                let taken = self.read_exact(to).await.is_ok()
                    || items
                        .iter()
                        .any(|i: &PlannedMove| i.to.as_ref() == Some(to));
                if taken {
                    return Err(ToolError::NoteExists {
                        target: format!("\"{to}\""),
                    });
                }
            }
            let links = self.backlink_count(&from, settings).await;
            before.push(match request.kind {
                OrganiseKind::Delete => {
                    format!("{from} ({})\n{}", linked(links), first_lines(&text))
                }
                _ => format!("{from} ({})", linked(links)),
            });
            after.push(match &to {
                Some(to) => to.clone(),
                None => format!("{from}: in the trash"),
            });
            items.push(PlannedMove {
                from,
                to,
                text_hash: text_hash(&text),
            });
        }
        let plan = OrganisePlan {
            kind: request.kind,
            items,
        };
        let links_note = match (request.kind, self.host().links_update_on_move()) {
            (OrganiseKind::Delete, _) => {
                "Links to a deleted note stop resolving; undo makes the note again.".to_string()
            }
            (_, Some(true)) => "Obsidian will update the links to them (Settings → Files and links → Automatically update internal links is on).".into(),
            (_, Some(false)) => "Obsidian will NOT update the links to them: Settings → Files and links → Automatically update internal links is off, so those links will break.".into(),
            (_, None) => "Whether Obsidian updates the links to them follows Settings → Files and links → Automatically update internal links.".into(),
        };
        after.push(links_note);
        let target = match plan.items.as_slice() {
            [one] => format!("\"{}\"", one.from),
            many => format!("{} notes", many.len()),
        };
        let argv = plan.argv();
        let ran = plan.ran(call.tool.display_name);
        let preview = Preview {
            target: target.clone(),
            before: before.join("\n"),
            after: after.join("\n"),
            diff: None,
            warning: None,
        };
        let proposal = Proposal {
            tool_id: call.tool.id,
            command: call.command.name,
            arguments: args.clone(),
            invocation: CliInvocation::new(call.command.name),
            argv: argv.clone(),
            probe: CliInvocation::new("file"),
            probe_snapshot: String::new(),
            probe_note: None,
            summary: format!("{} {target}", call.command.confirm_verb),
            preview,
            empty_output: EmptyOutput::Error,
            note_edit: None,
            organise: Some(plan),
            turn: turn.map(str::to_string),
        };
        Ok(self.file_vault_card(proposal, settings, ran))
    }

    /// The approved request: every note is checked first (still the text the
    /// card showed, its new place still free); then each moves, and what
    /// moved is journaled as one change.
    pub(crate) async fn run_organise(
        &self,
        entry: &PendingConfirmation,
        plan: &OrganisePlan,
        settings: &Settings,
        ran: Ran,
    ) -> Result<ToolResult, ToolError> {
        let (id, tool_id, command) = (entry.id.as_str(), entry.tool_id, entry.command);
        let (arguments, turn) = (&entry.arguments, entry.turn.as_deref());
        for item in &plan.items {
            let now = self.read_exact(&item.from).await.ok();
            let free = match &item.to {
                Some(to) => self.read_exact(to).await.is_err(),
                None => true,
            };
            if now.as_deref().map(text_hash).as_deref() != Some(item.text_hash.as_str()) || !free {
                let fresh = self
                    .propose_again_as_card(tool_id, arguments, settings, turn)
                    .await;
                let what = if now.is_none() {
                    "it was moved or deleted"
                } else if !free {
                    "its new place was taken"
                } else {
                    "its text changed"
                };
                let mut result = ToolResult::failure(
                    &ToolError::Stale {
                        target: format!("\"{}\"", item.from),
                        now: format!("{what} since the card was made"),
                        refused_again: fresh.pending.is_none().then(|| fresh.text.clone()),
                    },
                    0.0,
                );
                result.pending = fresh.pending;
                let result = result.ran_by(ran);
                self.confirmations
                    .borrow_mut()
                    .finish(id, ConfirmationState::Stale, &result)?;
                return Ok(result);
            }
        }
        self.confirmations
            .borrow_mut()
            .advance(id, ConfirmationState::Running)?;
        let mut moves = Vec::new();
        let mut deleted = Vec::new();
        let mut failure = None;
        let mut copies_bytes = 0usize;
        for item in &plan.items {
            // Checked again: a link may have appeared since the card.
            let places = std::iter::once(&item.from).chain(item.to.iter());
            let mut outside = None;
            for path in places {
                if let Err(error) = self.check_real_place(path).await {
                    outside = Some(error);
                    break;
                }
            }
            if let Some(error) = outside {
                failure = Some(error);
                break;
            }
            // A deletion keeps the file's exact bytes for its undo (an image,
            // a note that is not UTF-8): without them it does not run. The
            // copy is counted as the journal stores it (an image's base64 is
            // a third larger than the file), with the copies before it in
            // this change, so none is deleted that the journal cannot keep.
            let limit = crate::base::text::human_bytes(COPIES_MAX_BYTES as u64);
            let too_large = |with_others: bool| {
                ToolError::VaultFailed {
                target: format!("\"{}\"", item.from),
                detail: match with_others {
                    false => format!("it is larger than {limit}, too large to keep a copy for undo, so it was not deleted; delete it yourself in Obsidian"),
                    true => format!("its copy with those of the files deleted before it is larger than {limit}, too large to keep for undo, so it was not deleted; delete it in a change of its own"),
                },
            }
            };
            let kept = match &item.to {
                Some(_) => None,
                None => match self.host().vault_read_bytes(&item.from, MAX_BYTES).await {
                    Ok(bytes) => {
                        let copy = DeletedNote::of(item.from.clone(), bytes);
                        let stored = serde_json::to_string(&copy).map_or(usize::MAX, |s| s.len());
                        if stored > COPIES_MAX_BYTES - copies_bytes {
                            failure =
                                Some(too_large(copies_bytes > 0 && stored <= COPIES_MAX_BYTES));
                            break;
                        }
                        copies_bytes += stored;
                        Some(copy)
                    }
                    Err(error) => {
                        failure = Some(match error.code.as_str() {
                            "too_large" => too_large(false),
                            _ => ToolError::VaultFailed {
                                target: format!("\"{}\"", item.from),
                                detail: format!("{}; it was not deleted", error.message),
                            },
                        });
                        break;
                    }
                },
            };
            let done = match &item.to {
                Some(to) => self.host().vault_move(&item.from, to).await,
                None => self.host().vault_trash(&item.from).await,
            };
            if let Err(error) = done {
                failure = Some(ToolError::VaultFailed {
                    target: format!("\"{}\"", item.from),
                    detail: error.message,
                });
                break;
            }
            // Done only when the vault shows it: gone from its old place
            // (and, for a move, at the new one).
            let gone = self.read_exact(&item.from).await.is_err();
            let arrived = match &item.to {
                Some(to) => self.read_exact(to).await.is_ok(),
                None => true,
            };
            if !(gone && arrived) {
                failure = Some(ToolError::WriteNotVerified {
                    target: format!("\"{}\"", item.from),
                    detail: "the vault does not show the note where it should be now".into(),
                });
                break;
            }
            match &item.to {
                Some(to) => moves.push(MovedNote {
                    from: item.from.clone(),
                    to: to.clone(),
                }),
                None => deleted.extend(kept),
            }
        }
        let done_count = moves.len() + deleted.len();
        let mut lines: Vec<String> = moves
            .iter()
            .map(|m| format!("{} → {}", m.from, m.to))
            .chain(deleted.iter().map(|d| format!("{} → the trash", d.path)))
            .collect();
        let mut result = match &failure {
            None => ToolResult::success(format!("Done:\n{}", lines.join("\n"))),
            Some(error) => {
                lines.push(format!(
                    "Stopped: {error} The other {} were not changed.",
                    plan.items.len() - done_count
                ));
                ToolResult::failure(error, 0.0)
            }
        };
        if failure.is_some() {
            result.text = lines.join("\n");
        }
        if done_count > 0 {
            let (undo, first) = if moves.is_empty() {
                let first = deleted[0].path.clone();
                (
                    UndoPlan::Deleted {
                        notes: deleted,
                        done: 0,
                    },
                    first,
                )
            } else {
                let first = moves[0].from.clone();
                (UndoPlan::Moved { moves, done: 0 }, first)
            };
            let written = match &undo {
                UndoPlan::Moved { moves, .. } => text_hash(
                    &moves
                        .iter()
                        .map(|m| m.to.as_str())
                        .collect::<Vec<_>>()
                        .join("\n"),
                ),
                _ => String::new(),
            };
            let summary = organised_summary(plan.kind, &lines[..done_count]);
            let entry = JournalEntry {
                id: String::new(),
                time: self.host().now_ms(),
                tool: tool_id.to_string(),
                command: command.to_string(),
                target: first,
                turn: turn.map(str::to_string),
                vault: settings.vault().map(str::to_string),
                summary,
                undo,
                written_hash: written,
                undone_ms: None,
            };
            self.journal_and_link(entry, None, &mut result).await;
        }
        self.finish_run(id, result.ran_by(ran))
    }

    /// `backlinks path=… total`, a read; `None` when it cannot say.
    async fn backlink_count(&self, path: &str, settings: &Settings) -> Option<u64> {
        let count = CliInvocation::new("backlinks")
            .parameter("path", path)
            .flag("total");
        self.read_text(&count, settings)
            .await
            .ok()
            .and_then(|text| text.trim().parse().ok())
    }
}

fn linked(count: Option<u64>) -> String {
    match count {
        Some(0) => "no note links here".into(),
        Some(1) => "1 note links here".into(),
        Some(n) => format!("{n} notes link here"),
        None => "links unknown".into(),
    }
}

fn first_lines(text: &str) -> String {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let mut shown: Vec<String> = lines
        .iter()
        .take(FIRST_LINES)
        .map(|l| format!("  {l}"))
        .collect();
    if lines.len() > FIRST_LINES {
        shown.push(format!("  … {} more lines", lines.len() - FIRST_LINES));
    }
    if shown.is_empty() {
        shown.push("  (empty)".into());
    }
    shown.join("\n")
}

fn organised_summary(kind: OrganiseKind, lines: &[String]) -> String {
    let verb = match kind {
        OrganiseKind::Move => "Moved",
        OrganiseKind::Rename => "Renamed",
        OrganiseKind::Delete => "Deleted",
    };
    match lines {
        [one] => format!("{verb} {one}"),
        many => format!("{verb} {} notes: {}", many.len(), many.join("; ")),
    }
}
