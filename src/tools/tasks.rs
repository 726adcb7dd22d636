//! `obsidianTasks`: list tasks, show one, and change a task's status after the
//! user approves (the preview shows the line now and after).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::shared::{check_note_target, check_status_char, describe_note, TableFormat};
use super::{CommandArgs, CommandSpec, ToolSpec, UndoKind};
use crate::base::call::{Access, NoteLocator, Preview, ProbeResult};
use crate::base::error::ToolError;
use crate::base::vault_path::check_vault_path;
use crate::cli::argv::CliInvocation;
use crate::policy::scope::{Output, Place, Reach, Render};
use crate::tools::Previews;
use crate::tools::{Card, CliWrite, Plan};

/// Arguments of `tasks`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TasksArgs {
    /// Only tasks in this note (its name, like a wikilink).
    pub file: Option<String>,
    /// Only tasks in the note at this exact path from the vault root.
    pub path: Option<String>,
    /// Only tasks with this status character, e.g. "/" for in progress or "-" for cancelled.
    pub status: Option<String>,
    /// Output format: json, tsv or csv (default: plain text).
    pub format: Option<TableFormat>,
    /// Tasks in the whole vault. Without `all`, `file`, `path` or `daily` the CLI lists the note open in Obsidian.
    #[serde(default)]
    pub all: bool,
    /// Tasks in today's daily note.
    #[serde(default)]
    pub daily: bool,
    /// Only open tasks.
    #[serde(default)]
    pub todo: bool,
    /// Only completed tasks.
    #[serde(default)]
    pub done: bool,
    /// Group by note, with line numbers (needed to change a task).
    #[serde(default)]
    pub verbose: bool,
    /// Return only the number of tasks.
    #[serde(default)]
    pub total: bool,
}

impl CommandArgs for TasksArgs {
    fn reach(&self) -> Reach {
        if self.daily {
            return Reach::note(Some(NoteLocator::Daily));
        }
        if !self.all {
            return Reach::note(NoteLocator::of(&self.file, &self.path));
        }
        let output = match (self.total, self.format, self.verbose) {
            (true, _, _) => Output::TOTAL,
            // Asked of the CLI as JSON, which names each task's note.
            (false, Some(TableFormat::Json), _) => Output::json(Some("path"), Render::Json),
            (false, Some(TableFormat::Tsv), _) => Output::json(Some("path"), Render::TaskTable),
            (false, Some(TableFormat::Csv), _) => Output::Unplaceable {
                fix: "Use `format=tsv` or `format=json`, which the agent can split by folder.",
            },
            (false, None, true) => Output::json(Some("path"), Render::TaskGroups),
            (false, None, false) => Output::json(Some("path"), Render::TaskLines),
        };
        Reach {
            places: vec![Place::Within(None)],
            output,
        }
    }

    fn validate(&mut self) -> Result<(), String> {
        check_note_target(&mut self.file, &mut self.path)?;
        if let Some(status) = &self.status {
            check_status_char("status", status)?;
        }
        if self.todo && self.done {
            return Err(
                "`todo` and `done` exclude each other; give one, or neither for all tasks".into(),
            );
        }
        let scopes = [
            self.file.is_some() || self.path.is_some(),
            self.daily,
            self.all,
        ];
        if scopes.iter().filter(|s| **s).count() > 1 {
            return Err("choose one scope: `file`/`path` (one note), `daily` (today's note) or `all` (the vault)".into());
        }
        Ok(())
    }
}

/// Arguments of `task`.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TaskArgs {
    /// The task as "path:line", e.g. "Projects/Plan.md:12" (from `tasks verbose`).
    #[serde(rename = "ref")]
    pub reference: Option<String>,
    /// The note's name (like a wikilink); use with `line`.
    pub file: Option<String>,
    /// The note's exact path from the vault root; use with `line`.
    pub path: Option<String>,
    /// The task's line number (1 = first line); use with `file`, `path` or `daily`.
    #[schemars(range(min = 1))]
    pub line: Option<u32>,
    /// Set this status character, e.g. "/" for in progress or "-" for cancelled.
    pub status: Option<String>,
    /// The task is in today's daily note; use with `line`.
    #[serde(default)]
    pub daily: bool,
    /// Switch between done and not done.
    #[serde(default)]
    pub toggle: bool,
    /// Mark done ([x]).
    #[serde(default)]
    pub done: bool,
    /// Mark not done ([ ]).
    #[serde(default)]
    pub todo: bool,
}

/// The status a change sets, given the status now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StatusChange {
    Toggle,
    Set(char),
}

impl StatusChange {
    fn apply(self, current: char) -> char {
        match self {
            StatusChange::Toggle if current == ' ' => 'x',
            StatusChange::Toggle => ' ',
            StatusChange::Set(c) => c,
        }
    }
}

impl TaskArgs {
    fn change(&self) -> Option<StatusChange> {
        if self.toggle {
            Some(StatusChange::Toggle)
        } else if self.done {
            Some(StatusChange::Set('x'))
        } else if self.todo {
            Some(StatusChange::Set(' '))
        } else {
            self.status
                .as_deref()
                .and_then(|s| s.chars().next())
                .map(StatusChange::Set)
        }
    }

    fn describe(&self) -> String {
        if let Some(reference) = &self.reference {
            return format!("the task at {reference}");
        }
        let line = self.line.unwrap_or(0);
        match describe_note(&self.file, &self.path) {
            Some(note) => format!("the task on line {line} of {note}"),
            None => format!("the task on line {line} of today's daily note"),
        }
    }
}

impl CommandArgs for TaskArgs {
    fn reach(&self) -> Reach {
        let reference = self
            .reference
            .as_deref()
            .and_then(split_reference)
            .map(|(path, _)| NoteLocator::Path(path.to_string()));
        match (reference, self.daily) {
            (Some(note), _) => Reach::note(Some(note)),
            (None, true) => Reach::note(Some(NoteLocator::Daily)),
            (None, false) => Reach::note(NoteLocator::of(&self.file, &self.path)),
        }
    }

    fn validate(&mut self) -> Result<(), String> {
        check_note_target(&mut self.file, &mut self.path)?;
        let note = self.file.is_some() || self.path.is_some();
        match (&mut self.reference, note, self.daily, self.line) {
            (Some(reference), false, false, None) => {
                match split_reference(reference) {
                    Some((path, line)) => {
                        let mut path = path.to_string();
                        check_vault_path("ref", &mut path)?;
                        *reference = format!("{path}:{line}");
                    }
                    None => return Err(format!("`ref` must look like \"Folder/Note.md:12\" (path, colon, line number); got {reference:?}")),
                }
            }
            (None, true, false, Some(_)) | (None, false, true, Some(_)) => {}
            (None, _, _, None) if note || self.daily => {
                return Err("`line` is missing: say which line of the note holds the task (see `tasks verbose`)".into())
            }
            _ => {
                return Err("name the task one way: `ref` (\"path:line\"), or `file`/`path` with `line`, or `daily` with `line`".into())
            }
        }
        if self.line == Some(0) {
            return Err("`line` starts at 1".into());
        }
        if let Some(status) = &self.status {
            check_status_char("status", status)?;
        }
        let changes = [self.toggle, self.done, self.todo, self.status.is_some()];
        if changes.iter().filter(|c| **c).count() > 1 {
            return Err("give at most one change: `toggle`, `done`, `todo` or `status`".into());
        }
        Ok(())
    }

    fn effective_access(&self, declared: Access) -> Access {
        // Without a change, `task` only shows the task.
        if self.change().is_some() {
            declared
        } else {
            Access::Read
        }
    }

    fn write_target(&self) -> Option<String> {
        // validate() already made sure the task is named explicitly.
        Some(self.describe())
    }

    fn plan(&self) -> Plan<'_> {
        // Without a change, `task` only shows the task (`effective_access`).
        if self.change().is_none() {
            return Plan::read();
        }
        Plan::CliWrite(CliWrite {
            undo: self.undo_kind().unwrap_or(UndoKind::UNKNOWN),
            check: None,
            new_note: None,
            card: self.probe().map(|probe| Card {
                probe,
                exact_note: None,
                preview: self,
            }),
        })
    }
}

impl TaskArgs {
    /// The note itself: `read` with the same `file`/`path` (the path of a
    /// `ref`), or `daily:read`. No capture shows what `task` prints, so the
    /// preview never depends on it; the whole note is also what the stale
    /// check compares.
    pub fn probe(&self) -> Option<CliInvocation> {
        let read = CliInvocation::new("read");
        if let Some((path, _)) = self.reference.as_deref().and_then(split_reference) {
            return Some(read.parameter("path", path));
        }
        if let Some(file) = &self.file {
            return Some(read.parameter("file", file.clone()));
        }
        if let Some(path) = &self.path {
            return Some(read.parameter("path", path.clone()));
        }
        self.daily.then(|| CliInvocation::new("daily:read"))
    }

    pub fn undo_kind(&self) -> Option<UndoKind> {
        self.change()?;
        let note = match self.reference.as_deref().and_then(split_reference) {
            Some((path, _)) => NoteLocator::Path(path.to_string()),
            None if self.daily => NoteLocator::Daily,
            None => NoteLocator::of(&self.file, &self.path)?,
        };
        Some(UndoKind::Task {
            note,
            line: self.line_number()?,
        })
    }
}

impl Previews for TaskArgs {
    fn preview(&self, current: &ProbeResult) -> Result<Preview, ToolError> {
        let note = current.as_ref().map_err(Clone::clone)?;
        let change = self
            .change()
            .ok_or_else(|| ToolError::invalid("obsidianTasks", "task: nothing to change"))?;
        let number = self.line_number().ok_or_else(|| {
            ToolError::invalid("obsidianTasks", "task: the line number is missing")
        })?;
        let not_a_preview = |why: String| ToolError::CliError {
            output: format!("cannot preview {}: {why}", self.describe()),
            hint: Some("List tasks with `tasks verbose` to find the right line.".into()),
        };
        // `lines` also drops the `\r` of Windows line endings.
        let lines: Vec<&str> = note.lines().collect();
        let before = lines
            .get(number as usize - 1)
            .ok_or_else(|| {
                not_a_preview(format!(
                    "the note has {} line{}",
                    lines.len(),
                    if lines.len() == 1 { "" } else { "s" }
                ))
            })?
            .to_string();
        let after = with_status(&before, change)
            .ok_or_else(|| not_a_preview(format!("line {number} is not a task: {before:?}")))?;
        Ok(Preview {
            target: self.describe(),
            before,
            after,
            diff: None,
            warning: None,
        })
    }
}

impl TaskArgs {
    /// The task's line: from `ref` ("path:line") or `line`.
    fn line_number(&self) -> Option<u32> {
        match &self.reference {
            Some(reference) => split_reference(reference).map(|(_, line)| line),
            None => self.line,
        }
    }
}

/// "Folder/Note.md:12" → ("Folder/Note.md", 12).
fn split_reference(reference: &str) -> Option<(&str, u32)> {
    let (path, line) = reference.rsplit_once(':')?;
    let line = line.parse::<u32>().ok().filter(|n| *n > 0)?;
    (!path.is_empty()).then_some((path, line))
}

/// The status character of a task line (`- [/] Doing` → '/'), or `None`
/// when the line is not a task.
pub fn task_status(line: &str) -> Option<char> {
    parse_task(line).map(|task| task.status)
}

/// A task line in pieces: indent and marker, status, the rest after `]`.
struct TaskLine<'a> {
    head: &'a str,
    status: char,
    tail: &'a str,
}

/// `- [ ] …`, `* [x] …`, `1. [/] …`; `None` for any other line.
fn parse_task(line: &str) -> Option<TaskLine<'_>> {
    let indent = line.len() - line.trim_start().len();
    let rest = &line[indent..];
    let marker_len = if rest.starts_with(['-', '*', '+']) {
        1
    } else {
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        let after = rest[digits..].chars().next()?;
        if digits == 0 || !(after == '.' || after == ')') {
            return None;
        }
        digits + 1
    };
    let after_marker = &rest[marker_len..];
    let inner = after_marker.strip_prefix(" [")?;
    let mut chars = inner.chars();
    let status = chars.next()?;
    let tail = chars.as_str().strip_prefix(']')?;
    Some(TaskLine {
        head: &line[..indent + marker_len],
        status,
        tail,
    })
}

/// The task line with its status character changed, or `None` if the line is
/// not a task.
fn with_status(line: &str, change: StatusChange) -> Option<String> {
    let task = parse_task(line)?;
    let new_status = change.apply(task.status);
    Some(format!("{} [{new_status}]{}", task.head, task.tail))
}

pub fn tool() -> ToolSpec {
    ToolSpec {
        id: "obsidianTasks",
        display_name: "Tasks",
        description: "List tasks in the vault, a note or today's daily note; show one task; change a task's status.",
        guidance: "Use obsidianTasks for anything about tasks (not search): `tasks all todo` for open \
                   tasks in the vault, `tasks daily` for today's, `tasks file=… verbose` for one \
                   note with line numbers. To change a task, name it with `ref` (\"path:line\" \
                   from `tasks verbose`) or `file`/`path`/`daily` with `line`, and give exactly one \
                   of `toggle`, `done`, `todo` or `status`; the user approves a preview first.",
        commands: vec![
            CommandSpec::new::<TasksArgs>("tasks", Access::Read, "List tasks, filtered by note, status or state.")
                .brief(""),
            CommandSpec::new::<TaskArgs>(
                "task",
                Access::ConfirmedWrite,
                "Show one task, or change its status (the user approves a preview first).",
            )
                .brief("show one, or set its status"),
        ],
        example: json!({"command": "tasks", "all": true, "todo": true, "verbose": true}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_changes_on_every_list_marker() {
        let cases = [
            ("- [ ] Buy milk", StatusChange::Toggle, "- [x] Buy milk"),
            ("  * [x] Done", StatusChange::Toggle, "  * [ ] Done"),
            ("+ [/] Doing", StatusChange::Toggle, "+ [ ] Doing"),
            (
                "12. [ ] Numbered",
                StatusChange::Set('-'),
                "12. [-] Numbered",
            ),
            ("1) [?] Question", StatusChange::Set('x'), "1) [x] Question"),
            (
                "\t- [ ] Tab ] bracket",
                StatusChange::Set('x'),
                "\t- [x] Tab ] bracket",
            ),
        ];
        for (line, change, expected) in cases {
            assert_eq!(
                with_status(line, change).as_deref(),
                Some(expected),
                "{line}"
            );
        }
        for not_a_task in [
            "Plain text",
            "- no box",
            "-[ ] tight",
            "1 [ ] no dot",
            "- [ ]",
        ] {
            let result = with_status(not_a_task, StatusChange::Toggle);
            assert!(
                result.is_none() || not_a_task == "- [ ]",
                "{not_a_task}: {result:?}"
            );
        }
    }

    fn task(json: serde_json::Value) -> Result<TaskArgs, String> {
        let mut args: TaskArgs = serde_json::from_value(json).map_err(|e| e.to_string())?;
        args.validate()?;
        Ok(args)
    }

    #[test]
    fn target_combinations() {
        assert!(task(json!({"ref": "Plan.md:8", "toggle": true})).is_ok());
        assert!(task(json!({"file": "Plan", "line": 8, "done": true})).is_ok());
        assert!(task(json!({"daily": true, "line": 3, "status": "-"})).is_ok());
        assert!(task(json!({"ref": "Plan.md:8"})).is_ok(), "show only");
        for (bad, fragment) in [
            (json!({"toggle": true}), "name the task one way"),
            (json!({"file": "Plan", "toggle": true}), "`line` is missing"),
            (
                json!({"ref": "Plan.md", "toggle": true}),
                "path, colon, line",
            ),
            (
                json!({"ref": "Plan.md:8", "line": 8}),
                "name the task one way",
            ),
            (json!({"ref": "../x.md:1"}), "`..`"),
            (json!({"file": "Plan", "line": 0}), "starts at 1"),
            (
                json!({"file": "Plan", "line": 2, "toggle": true, "done": true}),
                "at most one change",
            ),
            (
                json!({"file": "Plan", "line": 2, "status": "xx"}),
                "one status character",
            ),
        ] {
            let err = task(bad.clone()).unwrap_err();
            assert!(err.contains(fragment), "{bad}: {err}");
        }
    }

    #[test]
    fn access_and_probe() {
        let show = task(json!({"ref": "Plan.md:8"})).unwrap();
        assert_eq!(
            CommandArgs::effective_access(&show, Access::ConfirmedWrite),
            Access::Read
        );
        let change = task(json!({"daily": true, "line": 3, "done": true})).unwrap();
        assert_eq!(
            CommandArgs::effective_access(&change, Access::ConfirmedWrite),
            Access::ConfirmedWrite
        );
        // The probe reads the note itself, never `task`'s own output.
        let probe = TaskArgs::probe(&change).unwrap().to_argv().unwrap();
        assert_eq!(probe, ["daily:read"]);
        let note = "# Today\r\n\r\n- [ ] Ship\r\n- [x] Plan";
        let preview = TaskArgs::preview(&change, &Ok(note.into())).unwrap();
        assert_eq!(preview.before, "- [ ] Ship");
        assert_eq!(preview.after, "- [x] Ship");
        assert_eq!(preview.target, "the task on line 3 of today's daily note");
        let by_ref = task(json!({"ref": "Projects/Plan.md:2", "toggle": true})).unwrap();
        assert_eq!(
            TaskArgs::probe(&by_ref).unwrap().to_argv().unwrap(),
            ["read", "path=Projects/Plan.md"]
        );
        let by_file = task(json!({"file": "Plan", "line": 4, "status": "-"})).unwrap();
        assert_eq!(
            TaskArgs::probe(&by_file).unwrap().to_argv().unwrap(),
            ["read", "file=Plan"]
        );
        assert_eq!(
            TaskArgs::preview(&by_file, &Ok(note.into())).unwrap().after,
            "- [-] Plan"
        );
        let by_path = task(json!({"path": "A/B.md", "line": 1, "done": true})).unwrap();
        assert_eq!(
            TaskArgs::probe(&by_path).unwrap().to_argv().unwrap(),
            ["read", "path=A/B.md"]
        );
    }

    #[test]
    fn a_preview_that_cannot_be_built_is_an_error() {
        let past_the_end = task(json!({"file": "Plan", "line": 9, "done": true})).unwrap();
        let err = TaskArgs::preview(&past_the_end, &Ok("- [ ] a\n- [ ] b".into())).unwrap_err();
        assert!(err.to_string().contains("the note has 2 lines"), "{err}");
        let heading = task(json!({"file": "Plan", "line": 1, "done": true})).unwrap();
        let err = TaskArgs::preview(&heading, &Ok("# Plan\n- [ ] a".into())).unwrap_err();
        assert!(err.to_string().contains("line 1 is not a task"), "{err}");
        let empty = TaskArgs::preview(&heading, &Ok(String::new())).unwrap_err();
        assert!(
            empty.to_string().contains("the note has 0 lines"),
            "{empty}"
        );
        let missing = ToolError::CliError {
            output: "File \"Plan\" not found.".into(),
            hint: None,
        };
        assert_eq!(
            TaskArgs::preview(&heading, &Err(missing.clone())).unwrap_err(),
            missing
        );
    }
}
