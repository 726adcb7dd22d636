//! The journal's record of each change: what is read around a write so it
//! can be reversed (one `capture_*` per `UndoKind`), and the entry each
//! write leaves. The undo itself is `undo.rs`.

use serde_json::Value;

use crate::base::call::NoteLocator;
use crate::base::diff::NoteDiff;
use crate::base::error::ToolError;
use crate::base::host::Host;
use crate::base::result::{JournalRef, ToolResult};
use crate::cli::argv::CliInvocation;
use crate::engine::confirm::{text_hash, NoteEditPlan};
use crate::engine::journal::{JournalEntry, NoteTexts, UndoPlan};
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

impl<H: Host> Engine<H> {
    /// Before a write runs: what its undo needs from the target as it is now.
    /// Before a write runs: what its undo needs from the target as it is
    /// now, by how the change is reversed.
    pub(crate) async fn capture_before(&self, kind: &UndoKind, settings: &Settings) -> Before {
        match kind {
            UndoKind::NoteText(locate) => self.capture_text(locate, settings).await,
            UndoKind::NewNote { path, lookup } => {
                self.capture_new_note(path.clone(), lookup.clone(), settings)
                    .await
            }
            UndoKind::Property { name, note } => {
                self.capture_property(name.clone(), note, settings).await
            }
            UndoKind::Task { note, line } => self.capture_task(note, *line, settings).await,
            UndoKind::Never { reason } => Before::Never {
                reason: reason.to_string(),
            },
            // Never run through the CLI path: the organise step journals them.
            UndoKind::Organised => Before::Never {
                reason: "moves and deletions are recorded when they run.".into(),
            },
        }
    }

    /// `UndoKind::NoteText`: the note's exact text (none when the write makes it).
    async fn capture_text(&self, locate: &NoteLocator, settings: &Settings) -> Before {
        let unreadable = |what: &str, error: &ToolError| Before::Never {
            reason: format!(
                "the plugin could not read {what} before the change ({}).",
                error.code()
            ),
        };
        let path = match self.resolve_note(locate, settings).await {
            Ok(path) => path,
            Err(error) => return unreadable("the note", &error),
        };
        match self.host().vault_read(&path).await {
            Ok(text) => Before::Text {
                path,
                text: Some(text),
            },
            Err(failure) if failure.code == "not_found" => Before::Text { path, text: None },
            Err(failure) => Before::Never {
                reason: format!(
                    "Obsidian could not read the note before the change ({}).",
                    failure.message
                ),
            },
        }
    }

    /// `UndoKind::NewNote`: whether the name it is looked up by is taken already.
    async fn capture_new_note(
        &self,
        path: Option<String>,
        lookup: Option<String>,
        settings: &Settings,
    ) -> Before {
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

    /// `UndoKind::Property`: its value and type, and the note's exact text.
    async fn capture_property(
        &self,
        name: String,
        note: &NoteLocator,
        settings: &Settings,
    ) -> Before {
        let unreadable = |what: &str, error: &ToolError| Before::Never {
            reason: format!(
                "the plugin could not read {what} before the change ({}).",
                error.code()
            ),
        };
        let path = match self.resolve_note(note, settings).await {
            Ok(path) => path,
            Err(error) => return unreadable("the note", &error),
        };
        let value = match self.property_value(&name, &path, settings).await {
            Ok(value) => value,
            Err(error) => return unreadable("the property", &error),
        };
        let (value, set_type, refuse) = self.property_type(&name, &path, value, settings).await;
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

    /// `UndoKind::Task`: the task's line and its status character.
    async fn capture_task(&self, note: &NoteLocator, line: u32, settings: &Settings) -> Before {
        let unreadable = |what: &str, error: &ToolError| Before::Never {
            reason: format!(
                "the plugin could not read {what} before the change ({}).",
                error.code()
            ),
        };
        let path = match self.resolve_note(note, settings).await {
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
    pub(super) async fn property_value(
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

    pub(super) async fn save_journal(&self, dropped: usize) {
        let json = self.journal.borrow().to_json();
        self.host().save_journal(&json, dropped).await;
    }

    pub(super) fn journal_ref(
        &self,
        id: &str,
        conflict_hash: Option<String>,
    ) -> Option<JournalRef> {
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
}

pub(super) fn shown(value: &Option<String>) -> String {
    value.clone().unwrap_or_else(|| NOT_SET.into())
}

/// Line `n` (1 = first) without its line ending, or "" past the end.
pub(super) fn nth_line(text: &str, n: u32) -> String {
    text.lines()
        .nth((n as usize).saturating_sub(1))
        .unwrap_or("")
        .to_string()
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
