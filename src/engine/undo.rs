//! The undo itself: the plugin's own buttons and commands reach `undo`,
//! `undo_last` and `undo_turn`; no tool, argument or public API call does.
//! Each kind of change is reversed by its own `undo_*` (named after its
//! `UndoPlan`, which `record.rs` wrote from the tool's `UndoKind`).
//!
//! An undo goes ahead only while the target still holds what the change
//! left. Otherwise it is refused as `undo_conflict`, with the difference
//! between what the agent wrote and what is there now and the hash of the
//! latter; "Undo anyway" sends that hash back, so it overrides exactly what
//! the user was shown.

use serde_json::Value;

use super::record::{nth_line, shown};
use crate::base::diff::NoteDiff;
use crate::base::error::ToolError;
use crate::base::host::{Host, VaultProcessed};
use crate::base::result::ToolResult;
use crate::base::vault_path::{in_config_dir, normalised, PathKind};
use crate::cli::argv::CliInvocation;
use crate::engine::confirm::text_hash;
use crate::engine::journal::{
    DeletedNote, EntryView, Journal, JournalEntry, MovedNote, NoteTexts, TurnChanges, UndoPlan,
};
use crate::engine::Engine;
use crate::settings::Settings;
use crate::tools::tasks::task_status;

/// Why an undo did not run.
enum Stop {
    Refused(ToolError),
    /// The target holds something else than the change left.
    Conflict {
        diff: NoteDiff,
        now_hash: String,
    },
}

impl From<ToolError> for Stop {
    fn from(error: ToolError) -> Self {
        Stop::Refused(error)
    }
}

/// A property change as the journal holds it (`UndoPlan::Property`).
struct Property<'a> {
    name: &'a str,
    before: &'a Option<String>,
    after: &'a Option<String>,
    set_type: Option<&'a str>,
    note: Option<&'a NoteTexts>,
}

impl<H: Host> Engine<H> {
    /// Replaces the journal with what `journal.json` held (at load); returns
    /// a line for the log for each part that could not be read.
    pub fn load_journal(&self, stored: &Value) -> Vec<String> {
        let (journal, repairs) = Journal::restore(stored);
        *self.journal.borrow_mut() = journal;
        repairs
    }

    /// The journal as it is (tests, and the stored form).
    pub fn journal(&self) -> std::cell::Ref<'_, Journal> {
        self.journal.borrow()
    }

    pub fn journal_entry(&self, id: &str) -> Option<EntryView> {
        self.journal.borrow().view(id)
    }

    pub fn turn_changes(&self, turn: &str) -> TurnChanges {
        self.journal.borrow().turn_changes(turn)
    }

    /// The chat answer of the newest change that can still be undone.
    pub fn last_turn(&self) -> Option<String> {
        self.journal.borrow().last_turn()
    }

    /// The user clicked Undo on a change. `anyway`: the hash an
    /// `undo_conflict` gave, when the user chose "Undo anyway".
    pub async fn undo(&self, id: &str, anyway: Option<&str>) -> ToolResult {
        let _forget = self.changing();
        self.timed(async { Ok(self.undo_entry(id, anyway).await) })
            .await
    }

    /// "Undo the agent's last change": the newest change not undone yet.
    pub async fn undo_last(&self) -> ToolResult {
        let _forget = self.changing();
        let newest = self
            .journal
            .borrow()
            .newest_undoable()
            .map(|e| e.id.clone());
        self.timed(async {
            Ok(match newest {
                Some(id) => self.undo_entry(&id, None).await,
                None => ToolResult::failure(&ToolError::NothingToUndo { scope: None }, 0.0),
            })
        })
        .await
    }

    /// "Undo this answer's changes": the answer's changes, newest first,
    /// stopping at the first one that cannot be undone as it is.
    pub async fn undo_turn(&self, turn: &str) -> ToolResult {
        let _forget = self.changing();
        self.timed(async { Ok(self.undo_turn_entries(turn).await) })
            .await
    }

    async fn undo_turn_entries(&self, turn: &str) -> ToolResult {
        let open: Vec<JournalEntry> = self
            .journal
            .borrow()
            .open_in_turn(turn)
            .into_iter()
            .cloned()
            .collect();
        let (undoable, never): (Vec<_>, Vec<_>) = open.iter().partition(|e| e.undo.undoable());
        let kept: Vec<String> = never
            .iter()
            .map(|e| format!("{} ({})", e.summary, e.undo.reason().unwrap_or_default()))
            .collect();
        if undoable.is_empty() {
            return ToolResult::failure(
                &ToolError::NothingToUndo {
                    scope: Some("in this answer".into()),
                },
                0.0,
            );
        }
        let mut undone: Vec<&str> = Vec::new();
        for (i, entry) in undoable.iter().enumerate() {
            let mut result = self.undo_entry(&entry.id, None).await;
            if !result.ok {
                let left: Vec<&str> = undoable[i..].iter().map(|e| e.summary.as_str()).collect();
                result.text = format!(
                    "Undid {} of {} changes of this answer (newest first){}, then stopped at: {} Not undone: {}.",
                    undone.len(),
                    undoable.len(),
                    listed(&undone),
                    result.text,
                    left.join("; ")
                );
                return result;
            }
            undone.push(&entry.summary);
        }
        let mut text = format!(
            "Undid {} change{} of this answer (newest first): {}.",
            undone.len(),
            if undone.len() == 1 { "" } else { "s" },
            undone.join("; ")
        );
        if !kept.is_empty() {
            text.push_str(&format!(" Not undoable: {}.", kept.join("; ")));
        }
        ToolResult::success(text)
    }

    async fn undo_entry(&self, id: &str, anyway: Option<&str>) -> ToolResult {
        let Some(entry) = self.journal.borrow().get(id).cloned() else {
            return ToolResult::failure(
                &ToolError::UndoNotFound {
                    id: id.to_string(),
                    kept: crate::engine::journal::MAX_ENTRIES,
                },
                0.0,
            );
        };
        let mut conflict_hash = None;
        let mut result = match self.reverse(&entry, anyway).await {
            Ok(done) => {
                let now = self.host().now_ms();
                self.journal.borrow_mut().mark_undone(id, now);
                self.save_journal(0).await;
                done
            }
            Err(Stop::Refused(error)) => ToolResult::failure(&error, 0.0),
            Err(Stop::Conflict { diff, now_hash }) => {
                let error = ToolError::UndoConflict {
                    target: format!("\"{}\"", entry.target),
                    detail: format!("{} since", diff.counts()),
                };
                let mut result = ToolResult::failure(&error, 0.0);
                result.diff = Some(diff);
                conflict_hash = Some(now_hash);
                result
            }
        };
        result.journal = self.journal_ref(id, conflict_hash);
        result
    }

    /// Reverses one change, if its target still holds what it left.
    async fn reverse(
        &self,
        entry: &JournalEntry,
        anyway: Option<&str>,
    ) -> Result<ToolResult, Stop> {
        let target = format!("\"{}\"", entry.target);
        if entry.undone_ms.is_some() {
            return Err(ToolError::AlreadyUndone { target }.into());
        }
        if let UndoPlan::Never { reason } = &entry.undo {
            return Err(ToolError::NotUndoable {
                target,
                reason: reason.clone(),
            }
            .into());
        }
        let path = self.undo_path(entry)?;
        if !matches!(
            entry.undo,
            UndoPlan::Moved { .. } | UndoPlan::Deleted { .. }
        ) {
            self.check_real_place(&path).await?;
        }
        // The CLI goes to the vault the change went to.
        let settings = Settings {
            vault_name: entry.vault.clone().unwrap_or_default(),
            ..Settings::clone(&self.settings_snapshot())
        };
        match &entry.undo {
            UndoPlan::Text { before, after } => {
                self.undo_text(entry, &path, &target, before, after, anyway)
                    .await
            }
            UndoPlan::Created { content } => {
                self.undo_created(entry, &path, &target, content, anyway)
                    .await
            }
            UndoPlan::Property {
                name,
                before,
                after,
                set_type,
                note,
            } => {
                let property = Property {
                    name,
                    before,
                    after,
                    set_type: set_type.as_deref(),
                    note: note.as_ref(),
                };
                self.undo_property(entry, &path, &target, property, &settings, anyway)
                    .await
            }
            UndoPlan::Task {
                line,
                before,
                after,
            } => {
                self.undo_task(
                    entry, &path, &target, *line, *before, after, &settings, anyway,
                )
                .await
            }
            UndoPlan::Moved { moves, done } => self.undo_moved(entry, moves, *done).await,
            UndoPlan::Deleted { notes, done } => self.undo_deleted(entry, notes, *done).await,
            UndoPlan::Never { .. } => unreachable!("refused above"),
        }
    }

    /// `UndoPlan::Text`: the text before, in one step, only while the note
    /// holds what the change left.
    async fn undo_text(
        &self,
        entry: &JournalEntry,
        path: &str,
        target: &str,
        before: &str,
        after: &str,
        anyway: Option<&str>,
    ) -> Result<ToolResult, Stop> {
        let now = self.note_for_undo(path, target).await?;
        unchanged(after, &now, anyway)?;
        match self.host().vault_process(path, &now, before).await {
            Ok(VaultProcessed::Written) => Ok(done(
                format!(
                    "Undone: {}. {target} holds again what it held before.",
                    entry.summary
                ),
                NoteDiff::between(&now, before),
            )),
            // Typed into between the check and the write: ask again.
            Ok(VaultProcessed::Changed { now }) => Err(conflict(after, &now)),
            Err(failure) => Err(ToolError::VaultFailed {
                target: target.to_string(),
                detail: failure.message,
            }
            .into()),
        }
    }

    /// `UndoPlan::Created`: the note the change made, to the trash while it
    /// still holds what it was made with.
    async fn undo_created(
        &self,
        entry: &JournalEntry,
        path: &str,
        target: &str,
        content: &str,
        anyway: Option<&str>,
    ) -> Result<ToolResult, Stop> {
        let now = self.note_for_undo(path, target).await?;
        unchanged(content, &now, anyway)?;
        self.host()
            .vault_trash(path)
            .await
            .map_err(|failure| ToolError::VaultFailed {
                target: target.to_string(),
                detail: failure.message,
            })?;
        Ok(done(
            format!(
                "Undone: {}. The note was moved to the trash.",
                entry.summary
            ),
            NoteDiff::between(&now, ""),
        ))
    }

    /// `UndoPlan::Property`: the note's exact earlier text while it is
    /// untouched since, else the value set back (or removed) by the CLI.
    async fn undo_property(
        &self,
        entry: &JournalEntry,
        path: &str,
        target: &str,
        property: Property<'_>,
        settings: &Settings,
        anyway: Option<&str>,
    ) -> Result<ToolResult, Stop> {
        let Property {
            name,
            before,
            after,
            set_type,
            note,
        } = property;
        let now = self.property_value(name, path, settings).await?;
        unchanged(&shown(after), &shown(&now), anyway)?;
        let diff = NoteDiff::between(&shown(&now), &shown(before));
        // Untouched since: the exact earlier text, frontmatter order
        // and all. Otherwise only the value goes back.
        if let Some(texts) = note {
            if self.host().vault_read(path).await.ok().as_ref() == Some(&texts.after)
                && self
                    .host()
                    .vault_process(path, &texts.after, &texts.before)
                    .await
                    == Ok(VaultProcessed::Written)
            {
                return Ok(done(format!("Undone: {}.", entry.summary), diff));
            }
        }
        let change = match before {
            None => CliInvocation::new("property:remove")
                .parameter("name", name)
                .parameter("path", path),
            Some(value) => {
                let value = match set_type {
                    Some("list") if value.is_empty() => "[]".to_string(),
                    Some("list") => value.lines().collect::<Vec<_>>().join(", "),
                    _ => value.clone(),
                };
                let mut set = CliInvocation::new("property:set")
                    .parameter("name", name)
                    .parameter("value", value);
                if let Some(kind) = set_type {
                    set = set.parameter("type", kind);
                }
                set.parameter("path", path)
            }
        };
        self.read_text(&change, settings).await?;
        let back = self.property_value(name, path, settings).await?;
        if back != *before {
            return Err(ToolError::WriteNotVerified {
                target: target.to_string(),
                detail: format!(
                    "the property reads {:?} afterwards, not {:?}",
                    shown(&back),
                    shown(before)
                ),
            }
            .into());
        }
        Ok(done(format!("Undone: {}.", entry.summary), diff))
    }

    /// `UndoPlan::Task`: the status character set back by the CLI.
    #[allow(clippy::too_many_arguments)]
    async fn undo_task(
        &self,
        entry: &JournalEntry,
        path: &str,
        target: &str,
        line: u32,
        before: char,
        after: &str,
        settings: &Settings,
        anyway: Option<&str>,
    ) -> Result<ToolResult, Stop> {
        let note = self.note_for_undo(path, target).await?;
        let now = nth_line(&note, line);
        unchanged(after, &now, anyway)?;
        let task = CliInvocation::new("task")
            .parameter("path", path)
            .parameter("line", line.to_string());
        // A space and "x" have flags of their own; the CLI may trim a
        // lone space.
        let task = match before {
            ' ' => task.flag("todo"),
            'x' => task.flag("done"),
            other => task.parameter("status", other.to_string()),
        };
        self.read_text(&task, settings).await?;
        let back = self.note_for_undo(path, target).await?;
        let back_line = nth_line(&back, line);
        if task_status(&back_line) != Some(before) {
            return Err(ToolError::WriteNotVerified {
                target: target.to_string(),
                detail: format!("line {line} reads {back_line:?} afterwards"),
            }
            .into());
        }
        Ok(done(
            format!("Undone: {}.", entry.summary),
            NoteDiff::between(&now, &back_line),
        ))
    }

    /// `UndoPlan::Moved`: every note moved back, newest first, once each is
    /// still where it went and its old place is free.
    async fn undo_moved(
        &self,
        entry: &JournalEntry,
        moves: &[MovedNote],
        done: usize,
    ) -> Result<ToolResult, Stop> {
        // The newest `done` moves were put back by an undo that stopped.
        let left = &moves[..moves.len() - done.min(moves.len())];
        // Every note first: where it went, and its old place free.
        for m in left {
            let (from, to) = (self.checked(entry, &m.from)?, self.checked(entry, &m.to)?);
            self.check_real_place(&from).await?;
            self.check_real_place(&to).await?;
            if self.host().vault_read(&to).await.is_err() {
                return Err(ToolError::UndoTargetMissing {
                    target: format!("\"{to}\""),
                }
                .into());
            }
            if self.host().vault_read(&from).await.is_ok() {
                return Err(ToolError::NotUndoable {
                    target: format!("\"{from}\""),
                    reason: "another note is there now; move or rename it first.".into(),
                }
                .into());
            }
        }
        for (i, m) in left.iter().enumerate().rev() {
            if let Err(failure) = self.host().vault_move(&m.to, &m.from).await {
                let back = moves.len() - i - 1;
                return Err(self
                    .stopped_half_way(entry, &m.to, failure, back, moves.len())
                    .await);
            }
        }
        let back: Vec<String> = moves
            .iter()
            .map(|m| format!("{} → {}", m.to, m.from))
            .collect();
        Ok(ToolResult::success(format!(
            "Undone: {}. Back: {}.",
            entry.summary,
            back.join("; ")
        )))
    }

    /// `UndoPlan::Deleted`: every file made again exactly as it was, where
    /// nothing else took its place.
    async fn undo_deleted(
        &self,
        entry: &JournalEntry,
        notes: &[DeletedNote],
        done: usize,
    ) -> Result<ToolResult, Stop> {
        // The first `done` were made again by an undo that stopped.
        let left = notes.get(done..).unwrap_or_default();
        let mut made_again = Vec::new();
        for note in left {
            let path = self.checked(entry, &note.path)?;
            // Made again only inside the vault, never through a link out of it.
            self.check_real_place(&path).await?;
            if self.host().vault_read(&path).await.is_ok() {
                return Err(ToolError::NotUndoable {
                    target: format!("\"{path}\""),
                    reason: "another note is there now; move or rename it first.".into(),
                }
                .into());
            }
            let bytes = note.original().ok_or_else(|| ToolError::NotUndoable {
                target: format!("\"{path}\""),
                reason: "the journal's copy of it is damaged.".into(),
            })?;
            made_again.push((path, bytes));
        }
        for (i, (path, bytes)) in made_again.iter().enumerate() {
            if let Err(failure) = self.host().vault_create(path, bytes).await {
                let back = done + i;
                return Err(self
                    .stopped_half_way(entry, path, failure, back, notes.len())
                    .await);
            }
        }
        let made: Vec<&str> = notes.iter().map(|n| n.path.as_str()).collect();
        Ok(ToolResult::success(format!(
            "Undone: {}. Made again exactly as they were: {}.",
            entry.summary,
            made.join("; ")
        )))
    }

    /// An undo of several notes failed at `path` after `back` of `total`
    /// were put back: that progress is kept, so the next Undo finishes the
    /// rest instead of finding those notes in its way.
    async fn stopped_half_way(
        &self,
        entry: &JournalEntry,
        path: &str,
        failure: crate::base::host::VaultFailure,
        back: usize,
        total: usize,
    ) -> Stop {
        self.journal.borrow_mut().set_undo_progress(&entry.id, back);
        self.save_journal(0).await;
        Stop::Refused(ToolError::VaultFailed {
            target: format!("\"{path}\""),
            detail: format!(
                "{}. {back} of the {total} notes are back where they were; Undo again puts back the rest",
                failure.message
            ),
        })
    }

    /// One path of an entry that names several, checked like `undo_path`.
    fn checked(&self, entry: &JournalEntry, path: &str) -> Result<String, Stop> {
        self.undo_path(&JournalEntry {
            target: path.to_string(),
            ..entry.clone()
        })
    }

    /// The entry's path, if it is one the plugin may change: the journal
    /// file could have been edited by hand.
    fn undo_path(&self, entry: &JournalEntry) -> Result<String, Stop> {
        let refused = || ToolError::NotUndoable {
            target: format!("\"{}\"", entry.target),
            reason: "the journal names a path the plugin does not change.".into(),
        };
        let path = normalised("path", &entry.target, PathKind::File).map_err(|_| refused())?;
        if path != entry.target || in_config_dir(&path, self.host().platform().config_dir()) {
            return Err(refused().into());
        }
        Ok(path)
    }

    async fn note_for_undo(&self, path: &str, target: &str) -> Result<String, Stop> {
        self.host().vault_read(path).await.map_err(|failure| {
            Stop::Refused(match failure.code.as_str() {
                "not_found" | "not_a_file" => ToolError::UndoTargetMissing {
                    target: target.to_string(),
                },
                _ => ToolError::VaultFailed {
                    target: target.to_string(),
                    detail: failure.message,
                },
            })
        })
    }
}

/// Goes on when `now` is what the change left, or what the user saw and
/// chose to undo anyway.
fn unchanged(written: &str, now: &str, anyway: Option<&str>) -> Result<(), Stop> {
    if written == now || anyway == Some(text_hash(now).as_str()) {
        return Ok(());
    }
    Err(conflict(written, now))
}

fn conflict(written: &str, now: &str) -> Stop {
    Stop::Conflict {
        diff: NoteDiff::between(written, now),
        now_hash: text_hash(now),
    }
}

/// A done undo, with what it did to the note.
fn done(text: String, diff: NoteDiff) -> ToolResult {
    let mut result = ToolResult::success(text);
    result.diff = Some(diff);
    result
}

fn listed(items: &[&str]) -> String {
    if items.is_empty() {
        String::new()
    } else {
        format!(": {}", items.join("; "))
    }
}
