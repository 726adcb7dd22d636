//! The undo journal's side of the core: what is read around each write so it
//! can be reversed, the entry each successful write leaves, and the undo
//! itself. Only the plugin's own buttons and commands reach `undo`,
//! `undo_last` and `undo_turn`: no tool, argument or public API call does.
//!
//! An undo goes ahead only while the target still holds what the change
//! left. Otherwise it is refused as `undo_conflict`, with the difference
//! between what the agent wrote and what is there now and the hash of the
//! latter; "Undo anyway" sends that hash back, so it overrides exactly what
//! the user was shown.

use serde_json::Value;

use crate::base::call::NoteLocator;
use crate::base::diff::NoteDiff;
use crate::base::error::ToolError;
use crate::base::host::{Host, VaultProcessed};
use crate::base::result::{JournalRef, ToolResult};
use crate::base::vault_path::{in_config_dir, normalised, PathKind};
use crate::cli::argv::CliInvocation;
use crate::engine::confirm::{text_hash, NoteEditPlan};
use crate::engine::journal::{EntryView, Journal, JournalEntry, NoteTexts, TurnChanges, UndoPlan};
use crate::engine::writes::written_path;
use crate::engine::Engine;
use crate::settings::Settings;
use crate::tools::properties::{current_value, LIST_PROPERTIES};
use crate::tools::tasks::task_status;
use crate::tools::{ToolCall, UndoKind};

/// How a value that is not set shows in a diff.
const NOT_SET: &str = "(not set)";

/// What was read before a write, for its journal entry.
pub(crate) enum Before {
    /// The note's exact text; `None` when it did not exist (a daily note the
    /// write creates).
    Text { path: String, text: Option<String> },
    /// `taken`: a note already had the name the new one is looked up by.
    NewNote {
        path: Option<String>,
        lookup: Option<String>,
        taken: bool,
    },
    Property {
        path: String,
        name: String,
        value: Option<String>,
        set_type: Option<String>,
        /// Why the value cannot be set back, when it cannot.
        refuse: Option<String>,
        /// The note's exact text, when Obsidian could read it.
        note: Option<String>,
    },
    Task {
        path: String,
        line: u32,
        text: String,
        status: char,
    },
    /// Recorded, never undone.
    Never { reason: String },
}

impl Before {
    /// The note the change is about to write, when known.
    pub(crate) fn path(&self) -> Option<&str> {
        match self {
            Before::Text { path, .. }
            | Before::Property { path, .. }
            | Before::Task { path, .. } => Some(path),
            Before::NewNote { path, .. } => path.as_deref(),
            Before::Never { .. } => None,
        }
    }
}

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

impl<H: Host> Engine<H> {
    /// Before a write runs: what its undo needs from the target as it is now.
    pub(crate) async fn capture_before(&self, call: &ToolCall<'_>, settings: &Settings) -> Before {
        let Some(kind) = call.args.undo_kind() else {
            return Before::Never {
                reason: "this change has no way to be undone.".into(),
            };
        };
        let unreadable = |what: &str, error: &ToolError| Before::Never {
            reason: format!(
                "the plugin could not read {what} before the change ({}).",
                error.code()
            ),
        };
        match kind {
            UndoKind::NoteText(locate) => {
                let path = match self.resolve_note(&locate, settings).await {
                    Ok(path) => path,
                    Err(error) => return unreadable("the note", &error),
                };
                match self.host().vault_read(&path).await {
                    Ok(text) => Before::Text {
                        path,
                        text: Some(text),
                    },
                    Err(failure) if failure.code == "not_found" => {
                        Before::Text { path, text: None }
                    }
                    Err(failure) => Before::Never {
                        reason: format!(
                            "Obsidian could not read the note before the change ({}).",
                            failure.message
                        ),
                    },
                }
            }
            UndoKind::NewNote { path, lookup } => {
                let taken = match &lookup {
                    // Anything but "no such note" leaves the name in doubt.
                    Some(name) => !matches!(
                        self.resolve_note(&NoteLocator::Name(name.clone()), settings)
                            .await,
                        Err(ToolError::NoteNotFound { .. })
                    ),
                    None => false,
                };
                Before::NewNote {
                    path,
                    lookup,
                    taken,
                }
            }
            UndoKind::Property { name, note } => {
                let path = match self.resolve_note(&note, settings).await {
                    Ok(path) => path,
                    Err(error) => return unreadable("the note", &error),
                };
                let value = match self.property_value(&name, &path, settings).await {
                    Ok(value) => value,
                    Err(error) => return unreadable("the property", &error),
                };
                let (value, set_type, refuse) =
                    self.property_type(&name, &path, value, settings).await;
                let note = self.host().vault_read(&path).await.ok();
                Before::Property {
                    path,
                    name,
                    value,
                    set_type,
                    refuse,
                    note,
                }
            }
            UndoKind::Task { note, line } => {
                let path = match self.resolve_note(&note, settings).await {
                    Ok(path) => path,
                    Err(error) => return unreadable("the note", &error),
                };
                let text = match self.host().vault_read(&path).await {
                    Ok(text) => text,
                    Err(failure) => {
                        return Before::Never {
                            reason: format!(
                                "Obsidian could not read the note before the change ({}).",
                                failure.message
                            ),
                        }
                    }
                };
                let line_text = nth_line(&text, line);
                match task_status(&line_text) {
                    Some(status) => Before::Task {
                        path,
                        line,
                        text: line_text,
                        status,
                    },
                    None => Before::Never {
                        reason: format!("line {line} was not a task before the change."),
                    },
                }
            }
            UndoKind::Never { reason } => Before::Never {
                reason: reason.to_string(),
            },
            // Never run through the CLI path: the organise step journals them.
            UndoKind::Organised => Before::Never {
                reason: "moves and deletions are recorded when they run.".into(),
            },
        }
    }

    /// After the CLI ran a write (`output` is what it printed): its journal
    /// entry, linked from the result (with the change as a diff, for the tool
    /// block). Also when the read-back then failed: the note may have changed,
    /// and its Undo checks it as usual.
    pub(crate) async fn record_write(
        &self,
        before: Before,
        call: &ToolCall<'_>,
        turn: Option<&str>,
        settings: &Settings,
        output: &str,
        result: &mut ToolResult,
    ) {
        let command = call.command.name;
        let described = call.args.write_target().unwrap_or_else(|| command.into());
        let never = |target: String, reason: String| {
            (
                target,
                UndoPlan::Never { reason },
                String::new(),
                None::<NoteDiff>,
            )
        };
        let (target, plan, written, diff) = match before {
            Before::Text { path, text } => match (self.host().vault_read(&path).await, text) {
                // Nothing changed, so there is nothing to undo.
                (Ok(after), Some(before)) if after == before => return,
                (Ok(after), Some(before)) => {
                    let diff = NoteDiff::between(&before, &after);
                    (
                        path,
                        UndoPlan::Text {
                            before,
                            after: after.clone(),
                        },
                        after,
                        Some(diff),
                    )
                }
                (Ok(after), None) => {
                    let diff = NoteDiff::between("", &after);
                    (
                        path,
                        UndoPlan::Created {
                            content: after.clone(),
                        },
                        after,
                        Some(diff),
                    )
                }
                (Err(failure), _) => never(
                    path,
                    format!(
                        "Obsidian could not read the note after the change ({}).",
                        failure.message
                    ),
                ),
            },
            Before::NewNote {
                path,
                lookup,
                taken,
            } => match self
                .created_path(path, lookup, taken, output, settings)
                .await
            {
                Err(reason) => never(described.clone(), reason),
                Ok(path) => match self.host().vault_read(&path).await {
                    Ok(content) => {
                        let diff = NoteDiff::between("", &content);
                        (
                            path,
                            UndoPlan::Created {
                                content: content.clone(),
                            },
                            content,
                            Some(diff),
                        )
                    }
                    Err(failure) => never(
                        path,
                        format!(
                            "Obsidian could not read the new note ({}).",
                            failure.message
                        ),
                    ),
                },
            },
            Before::Property {
                path,
                name,
                value,
                set_type,
                refuse,
                note,
            } => match (refuse, self.property_value(&name, &path, settings).await) {
                (Some(reason), _) => never(path, reason),
                (None, Err(error)) => never(
                    path,
                    format!(
                        "the plugin could not read the property after the change ({}).",
                        error.code()
                    ),
                ),
                (None, Ok(after)) => {
                    let diff = NoteDiff::between(&shown(&value), &shown(&after));
                    let written = shown(&after);
                    let note = match (note, self.host().vault_read(&path).await) {
                        (Some(before), Ok(after)) => Some(NoteTexts { before, after }),
                        _ => None,
                    };
                    (
                        path,
                        UndoPlan::Property {
                            name,
                            before: value,
                            after,
                            set_type,
                            note,
                        },
                        written,
                        Some(diff),
                    )
                }
            },
            Before::Task {
                path,
                line,
                text,
                status,
            } => match self.host().vault_read(&path).await {
                Ok(note) => {
                    let after = nth_line(&note, line);
                    let diff = NoteDiff::between(&text, &after);
                    (
                        path,
                        UndoPlan::Task {
                            line,
                            before: status,
                            after: after.clone(),
                        },
                        after,
                        Some(diff),
                    )
                }
                Err(failure) => never(
                    path,
                    format!(
                        "Obsidian could not read the note after the change ({}).",
                        failure.message
                    ),
                ),
            },
            Before::Never { reason } => never(described.clone(), reason),
        };
        let summary = summary(command, &target, &plan);
        let entry = JournalEntry {
            id: String::new(),
            time: self.host().now_ms(),
            tool: call.tool.id.to_string(),
            command: command.to_string(),
            target,
            turn: turn.map(str::to_string),
            vault: settings.vault().map(str::to_string),
            summary,
            undo: plan,
            written_hash: text_hash(&written),
            undone_ms: None,
        };
        self.journal_and_link(entry, diff, result).await;
    }

    /// An approved edit the vault wrote, whether or not it read back: the
    /// entry holds what was meant, and its Undo checks the note against it.
    pub(crate) async fn record_edit(
        &self,
        plan: &NoteEditPlan,
        tool_id: &str,
        turn: Option<&str>,
        settings: &Settings,
        result: &mut ToolResult,
    ) {
        let undo = UndoPlan::Text {
            before: plan.before.clone(),
            after: plan.after.clone(),
        };
        let entry = JournalEntry {
            id: String::new(),
            time: self.host().now_ms(),
            tool: tool_id.to_string(),
            command: "edit".into(),
            target: plan.path.clone(),
            turn: turn.map(str::to_string),
            vault: settings.vault().map(str::to_string),
            summary: summary("edit", &plan.path, &undo),
            undo,
            written_hash: text_hash(&plan.after),
            undone_ms: None,
        };
        let diff = NoteDiff::between(&plan.before, &plan.after);
        self.journal_and_link(entry, Some(diff), result).await;
    }

    pub(crate) async fn journal_and_link(
        &self,
        entry: JournalEntry,
        diff: Option<NoteDiff>,
        result: &mut ToolResult,
    ) {
        let (id, dropped) = self.journal.borrow_mut().add(entry);
        self.save_journal(dropped).await;
        result.diff = diff;
        result.journal = self.journal_ref(&id, None);
    }

    /// Where the note a create made lives.
    async fn created_path(
        &self,
        path: Option<String>,
        lookup: Option<String>,
        taken: bool,
        output: &str,
        settings: &Settings,
    ) -> Result<String, String> {
        let reported = written_path(output);
        let Some(name) = lookup else {
            return reported
                .or(path)
                .ok_or_else(|| "the CLI did not say where it created the note.".to_string());
        };
        if taken {
            return Err(format!(
                "another note is also named \"{name}\", so the plugin cannot tell which one is new; move the new one to the trash yourself if you want it gone."
            ));
        }
        // `base:create` reports the file name only ("Created: Garden shed.md").
        let file =
            reported.ok_or_else(|| "the CLI did not say which note it created.".to_string())?;
        let stem = file.trim_end_matches(".md").to_string();
        let found = self
            .resolve_note(&NoteLocator::Name(stem.clone()), settings)
            .await
            .map_err(|error| {
                format!(
                    "the plugin could not find the new note \"{stem}\" ({}).",
                    error.code()
                )
            })?;
        if found.rsplit('/').next() != Some(file.as_str()) {
            return Err(format!(
                "the new note \"{file}\" could not be told apart from \"{found}\"."
            ));
        }
        Ok(found)
    }

    /// A property's value as `property:read` prints it, `None` when not set.
    async fn property_value(
        &self,
        name: &str,
        path: &str,
        settings: &Settings,
    ) -> Result<Option<String>, ToolError> {
        let read = CliInvocation::new("property:read")
            .parameter("name", name)
            .parameter("path", path);
        current_value(&self.read_text(&read, settings).await)
    }

    /// The `type=` to set a value back with, from the note's properties as
    /// JSON (`property:read` prints a one-item list like text); and why it
    /// cannot be set back, for values `property:set` cannot write.
    async fn property_type(
        &self,
        name: &str,
        path: &str,
        value: Option<String>,
        settings: &Settings,
    ) -> (Option<String>, Option<String>, Option<String>) {
        let listing = CliInvocation::new("properties")
            .parameter("path", path)
            .parameter("format", "json");
        let typed = self
            .read_text(&listing, settings)
            .await
            .ok()
            .and_then(|text| serde_json::from_str::<Value>(&text).ok())
            .and_then(|all| all.get(name).cloned());
        let list = Some("list".to_string());
        match typed {
            Some(Value::Array(items)) => {
                let awkward = items.iter().any(|item| {
                    (!item.is_string() && !item.is_number())
                        || item.as_str().is_some_and(|s| s.contains(','))
                });
                let refuse = awkward.then(|| {
                    "a list item holds a comma or a nested value, which property:set cannot write back.".to_string()
                });
                (value.or(Some(String::new())), list, refuse)
            }
            Some(Value::Object(_)) => (
                value,
                None,
                Some(
                    "the property holds nested values, which property:set cannot write back."
                        .into(),
                ),
            ),
            Some(Value::Number(_)) => (value, Some("number".into()), None),
            Some(Value::Bool(_)) => (value, Some("checkbox".into()), None),
            // Present but empty: it prints nothing, like a property not set.
            Some(Value::Null) => (value.or(Some(String::new())), None, None),
            Some(Value::String(_)) => (value, None, None),
            None => {
                let looks_like_list = value.as_deref().is_some_and(|v| v.contains('\n'))
                    || LIST_PROPERTIES.contains(&name);
                (value, looks_like_list.then_some("list".into()), None)
            }
        }
    }

    async fn save_journal(&self, dropped: usize) {
        let json = self.journal.borrow().to_json();
        self.host().save_journal(&json, dropped).await;
    }

    fn journal_ref(&self, id: &str, conflict_hash: Option<String>) -> Option<JournalRef> {
        let journal = self.journal.borrow();
        let entry = journal.get(id)?;
        Some(JournalRef {
            entry: entry.id.clone(),
            turn: entry.turn.clone(),
            undoable: entry.undo.undoable(),
            reason: entry.undo.reason().map(str::to_string),
            conflict_hash,
        })
    }

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
        let done = |text: String, diff: NoteDiff| {
            let mut result = ToolResult::success(text);
            result.diff = Some(diff);
            result
        };
        match &entry.undo {
            UndoPlan::Text { before, after } => {
                let now = self.note_for_undo(&path, &target).await?;
                unchanged(after, &now, anyway)?;
                match self.host().vault_process(&path, &now, before).await {
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
                        target,
                        detail: failure.message,
                    }
                    .into()),
                }
            }
            UndoPlan::Created { content } => {
                let now = self.note_for_undo(&path, &target).await?;
                unchanged(content, &now, anyway)?;
                self.host()
                    .vault_trash(&path)
                    .await
                    .map_err(|failure| ToolError::VaultFailed {
                        target: target.clone(),
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
            UndoPlan::Property {
                name,
                before,
                after,
                set_type,
                note,
            } => {
                let now = self.property_value(name, &path, &settings).await?;
                unchanged(&shown(after), &shown(&now), anyway)?;
                let diff = NoteDiff::between(&shown(&now), &shown(before));
                // Untouched since: the exact earlier text, frontmatter order
                // and all. Otherwise only the value goes back.
                if let Some(texts) = note {
                    if self.host().vault_read(&path).await.ok().as_ref() == Some(&texts.after)
                        && self
                            .host()
                            .vault_process(&path, &texts.after, &texts.before)
                            .await
                            == Ok(VaultProcessed::Written)
                    {
                        return Ok(done(format!("Undone: {}.", entry.summary), diff));
                    }
                }
                let change = match before {
                    None => CliInvocation::new("property:remove")
                        .parameter("name", name.as_str())
                        .parameter("path", path.as_str()),
                    Some(value) => {
                        let value = match set_type.as_deref() {
                            Some("list") if value.is_empty() => "[]".to_string(),
                            Some("list") => value.lines().collect::<Vec<_>>().join(", "),
                            _ => value.clone(),
                        };
                        let mut set = CliInvocation::new("property:set")
                            .parameter("name", name.as_str())
                            .parameter("value", value);
                        if let Some(kind) = set_type {
                            set = set.parameter("type", kind.as_str());
                        }
                        set.parameter("path", path.as_str())
                    }
                };
                self.read_text(&change, &settings).await?;
                let back = self.property_value(name, &path, &settings).await?;
                if back != *before {
                    return Err(ToolError::WriteNotVerified {
                        target,
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
            UndoPlan::Task {
                line,
                before,
                after,
            } => {
                let note = self.note_for_undo(&path, &target).await?;
                let now = nth_line(&note, *line);
                unchanged(after, &now, anyway)?;
                let task = CliInvocation::new("task")
                    .parameter("path", path.as_str())
                    .parameter("line", line.to_string());
                // A space and "x" have flags of their own; the CLI may trim a
                // lone space.
                let task = match before {
                    ' ' => task.flag("todo"),
                    'x' => task.flag("done"),
                    other => task.parameter("status", other.to_string()),
                };
                self.read_text(&task, &settings).await?;
                let back = self.note_for_undo(&path, &target).await?;
                let back_line = nth_line(&back, *line);
                if task_status(&back_line) != Some(*before) {
                    return Err(ToolError::WriteNotVerified {
                        target,
                        detail: format!("line {line} reads {back_line:?} afterwards"),
                    }
                    .into());
                }
                Ok(done(
                    format!("Undone: {}.", entry.summary),
                    NoteDiff::between(&now, &back_line),
                ))
            }
            UndoPlan::Moved { moves, done } => {
                // The newest `done` moves were put back by an undo that stopped.
                let left = &moves[..moves.len() - (*done).min(moves.len())];
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
            UndoPlan::Deleted { notes, done } => {
                // The first `done` were made again by an undo that stopped.
                let left = notes.get(*done..).unwrap_or_default();
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
            UndoPlan::Never { .. } => unreachable!("refused above"),
        }
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

fn shown(value: &Option<String>) -> String {
    value.clone().unwrap_or_else(|| NOT_SET.into())
}

/// Line `n` (1 = first) without its line ending, or "" past the end.
fn nth_line(text: &str, n: u32) -> String {
    text.lines()
        .nth((n as usize).saturating_sub(1))
        .unwrap_or("")
        .to_string()
}

fn listed(items: &[&str]) -> String {
    if items.is_empty() {
        String::new()
    } else {
        format!(": {}", items.join("; "))
    }
}

/// What a change did, in words, for the journal and the notices.
fn summary(command: &str, target: &str, plan: &UndoPlan) -> String {
    let note = format!("\"{target}\"");
    match (command, plan) {
        (_, UndoPlan::Never { .. }) if command == "bookmark" => format!("Changed {target}"),
        ("append" | "daily:append", UndoPlan::Created { .. }) => {
            format!("Created {note} with text")
        }
        ("append" | "daily:append", _) => format!("Added text to the end of {note}"),
        ("prepend" | "daily:prepend", UndoPlan::Created { .. }) => {
            format!("Created {note} with text")
        }
        ("prepend" | "daily:prepend", _) => format!("Added text to the start of {note}"),
        ("edit", _) => format!("Edited {note}"),
        ("create" | "base:create", _) => format!("Created {note}"),
        ("property:set", UndoPlan::Property { name, .. }) => {
            format!("Set property \"{name}\" of {note}")
        }
        ("property:remove", UndoPlan::Property { name, .. }) => {
            format!("Removed property \"{name}\" from {note}")
        }
        ("task", UndoPlan::Task { line, .. }) => {
            format!("Changed the task on line {line} of {note}")
        }
        _ => format!("Changed {note} ({command})"),
    }
}
