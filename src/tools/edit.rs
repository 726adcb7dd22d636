//! `obsidianEdit`: write notes. `create` makes a NEW note, `append` and
//! `prepend` add text to one (all three through the CLI, checked before and
//! read back after), and `edit` changes part of an existing note, described
//! (exact text, or a section by its heading) and computed in the core from
//! the note as it is now, then written through Obsidian's vault in one step
//! with the stale check inside it. A tool of its own, not part of
//! `obsidianNotes`, so the user can switch writing notes off and keep reading.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::shared::{check_not_blank, check_note_target, describe_note, require_note_target};
use super::{CommandArgs, CommandSpec, NoteEditRequest, ToolSpec, UndoKind, WriteCheck};
use crate::base::call::{Access, NoteLocator, Preview, ProbeResult};
use crate::base::diff::NoteDiff;
use crate::base::error::ToolError;
use crate::base::vault_path::{check_note_name, check_vault_path, new_note_path};
use crate::cli::argv::CliInvocation;
use crate::notes::edit::{body_start, NoteEdit};
use crate::notes::headings::lines;
use crate::policy::scope::{Output, Place, Reach};
use crate::tools::Previews;
use crate::tools::{Card, CliWrite, Plan};

/// Arguments of `create`.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateArgs {
    /// The new note's name, e.g. "Q3 plan" (it goes to the vault's folder for new notes).
    pub name: Option<String>,
    /// The new note's exact path from the vault root, e.g. "Projects/Q3 plan.md" (`.md` is added when the name has no extension); missing folders are created.
    pub path: Option<String>,
    /// The new note's Markdown text.
    pub content: Option<String>,
    /// A template to start from (its name, as `obsidianTemplates` lists it).
    pub template: Option<String>,
}

impl CreateArgs {
    fn describe(&self) -> String {
        match (&self.path, &self.name) {
            (Some(path), _) => format!("new note \"{path}\""),
            (None, Some(name)) => format!("new note \"{name}\""),
            (None, None) => "a new note".into(),
        }
    }

    /// The read that finds an existing note of that name or path.
    fn existing(&self) -> CliInvocation {
        match (&self.path, &self.name) {
            (Some(path), _) => CliInvocation::new("file").parameter("path", path),
            (None, name) => {
                CliInvocation::new("file").parameter("file", name.clone().unwrap_or_default())
            }
        }
    }
}

impl CommandArgs for CreateArgs {
    fn validate(&mut self) -> Result<(), String> {
        match (&mut self.name, &mut self.path) {
            (Some(_), Some(_)) => {
                return Err("give `name` (a note name) or `path` (the exact path), not both".into())
            }
            (None, None) => {
                return Err("name the new note with `name` (e.g. \"Q3 plan\") or `path` (e.g. \"Projects/Q3 plan.md\")".into())
            }
            (Some(name), None) => {
                check_note_name("name", name)?;
                if name.contains('/') {
                    return Err("`name` is a note name only; to choose its folder give `path` (e.g. \"Projects/Q3 plan.md\")".into());
                }
            }
            (None, Some(path)) => {
                check_vault_path("path", path)?;
                // What the CLI will make, so the existence check, the card,
                // the journal and the read-back all look at that note.
                *path = new_note_path(path);
            }
        }
        if let Some(template) = &self.template {
            check_not_blank("template", template)?;
        }
        Ok(())
    }

    /// With `name` the CLI puts the note in the folder for new notes, which
    /// cannot be checked before it exists.
    fn reach(&self) -> Reach {
        Reach {
            places: vec![Place::NewNote(self.path.clone())],
            output: Output::NoNoteText,
        }
    }

    fn write_target(&self) -> Option<String> {
        Some(self.describe())
    }

    fn plan(&self) -> Plan<'_> {
        Plan::CliWrite(CliWrite {
            undo: self.undo_kind().unwrap_or(UndoKind::UNKNOWN),
            check: self.write_check(),
            new_note: self.new_note_title(),
            card: self.probe().map(|probe| Card {
                probe,
                exact_note: None,
                preview: self,
            }),
        })
    }
}

impl CreateArgs {
    pub fn new_note_title(&self) -> Option<String> {
        let named = self.path.as_deref().or(self.name.as_deref())?;
        Some(crate::hygiene::text::title_of(named).to_string())
    }

    pub fn write_check(&self) -> Option<WriteCheck> {
        Some(WriteCheck::Create {
            exists: self.existing(),
            read: match (&self.path, &self.name) {
                (Some(path), _) => CliInvocation::new("read").parameter("path", path),
                (None, name) => {
                    CliInvocation::new("read").parameter("file", name.clone().unwrap_or_default())
                }
            },
            path: self.path.clone(),
            content: self
                .template
                .is_none()
                .then(|| self.content.clone().unwrap_or_default()),
        })
    }

    pub fn probe(&self) -> Option<CliInvocation> {
        Some(self.existing())
    }

    pub fn undo_kind(&self) -> Option<UndoKind> {
        // The CLI's `Created: <path>` names the note.
        Some(UndoKind::NewNote {
            path: self.path.clone(),
            lookup: None,
        })
    }
}

impl Previews for CreateArgs {
    fn preview(&self, current: &ProbeResult) -> Result<Preview, ToolError> {
        if current.is_ok() {
            return Err(note_exists(&self.describe()));
        }
        let content = self.content.clone().unwrap_or_default();
        let shown = match &self.template {
            Some(template) => format!("(from the template \"{template}\")\n{content}"),
            None => content.clone(),
        };
        Ok(Preview {
            target: self.describe(),
            before: String::new(),
            after: shown.clone(),
            diff: Some(NoteDiff::between("", &shown)),
            warning: None,
        })
    }
}

/// Arguments of `append` and `prepend`.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddArgs {
    /// The note's name (like a wikilink).
    pub file: Option<String>,
    /// The note's exact path from the vault root.
    pub path: Option<String>,
    /// The Markdown text to add.
    pub content: String,
    /// Add to the first or last line instead of on a line of its own.
    #[serde(default)]
    pub inline: bool,
}

impl AddArgs {
    fn locator(&self) -> Option<NoteLocator> {
        match (&self.path, &self.file) {
            (Some(path), _) => Some(NoteLocator::Path(path.clone())),
            (None, Some(file)) => Some(NoteLocator::Name(file.clone())),
            (None, None) => None,
        }
    }

    fn read(&self) -> CliInvocation {
        match (&self.path, &self.file) {
            (Some(path), _) => CliInvocation::new("read").parameter("path", path),
            (None, file) => {
                CliInvocation::new("read").parameter("file", file.clone().unwrap_or_default())
            }
        }
    }

    fn target(&self) -> String {
        describe_note(&self.file, &self.path).unwrap_or_else(|| "the note".into())
    }

    /// The note with the text added the way the CLI adds it (captured from
    /// 1.12.7: `append` puts a line break before the text unless `inline`,
    /// even after a final newline; `prepend` puts one after it).
    fn added(&self, note: &str, at_start: bool) -> String {
        let eol = crate::notes::headings::line_ending(note);
        let content = self.content.replace("\r\n", "\n").replace('\n', eol);
        if at_start {
            let start = body_start(note);
            let offset: usize = note.split_inclusive('\n').take(start).map(str::len).sum();
            let (head, body) = note.split_at(offset);
            let before = if head.is_empty() || head.ends_with('\n') {
                ""
            } else {
                eol
            };
            let after = if self.inline { "" } else { eol };
            format!("{head}{before}{content}{after}{body}")
        } else {
            let joint = if self.inline || note.is_empty() {
                ""
            } else {
                eol
            };
            format!("{note}{joint}{content}")
        }
    }

    fn preview_for(&self, current: &ProbeResult, at_start: bool) -> Result<Preview, ToolError> {
        let note = current.as_ref().map_err(Clone::clone)?;
        let after = self.added(note, at_start);
        Ok(Preview {
            target: self.target(),
            before: String::new(),
            after: self.content.clone(),
            diff: Some(NoteDiff::between(note, &after)),
            warning: None,
        })
    }
}

/// `append` (`AT_START` false) and `prepend` (true, after the frontmatter,
/// as the CLI does): the same arguments, at either end of the note.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(transparent)]
pub struct AddTo<const AT_START: bool>(pub AddArgs);

pub type AppendArgs = AddTo<false>;
pub type PrependArgs = AddTo<true>;

impl<const AT_START: bool> CommandArgs for AddTo<AT_START> {
    fn validate(&mut self) -> Result<(), String> {
        check_note_target(&mut self.0.file, &mut self.0.path)?;
        check_not_blank("content", &self.0.content)
    }

    fn reach(&self) -> Reach {
        Reach::note(self.0.locator())
    }

    fn write_target(&self) -> Option<String> {
        describe_note(&self.0.file, &self.0.path)
    }

    fn plan(&self) -> Plan<'_> {
        Plan::CliWrite(CliWrite {
            undo: self.undo_kind().unwrap_or(UndoKind::UNKNOWN),
            check: self.write_check(),
            new_note: None,
            card: self.probe().map(|probe| Card {
                probe,
                exact_note: self.exact_note(),
                preview: self,
            }),
        })
    }
}

impl<const AT_START: bool> AddTo<AT_START> {
    pub fn exact_note(&self) -> Option<NoteLocator> {
        self.0.locator()
    }

    pub fn undo_kind(&self) -> Option<UndoKind> {
        self.0.locator().map(UndoKind::NoteText)
    }

    pub fn write_check(&self) -> Option<WriteCheck> {
        let (read, content) = (self.0.read(), self.0.content.clone());
        Some(if AT_START {
            WriteCheck::Prepend { read, content }
        } else {
            WriteCheck::Append { read, content }
        })
    }

    pub fn probe(&self) -> Option<CliInvocation> {
        Some(self.0.read())
    }
}

impl<const AT_START: bool> Previews for AddTo<AT_START> {
    fn preview(&self, current: &ProbeResult) -> Result<Preview, ToolError> {
        self.0.preview_for(current, AT_START)
    }
}

/// Where `edit` puts `content` under `heading`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SectionPosition {
    /// Replace the section's body (the default).
    Replace,
    /// Right after the heading line.
    Start,
    /// At the end of the section.
    End,
}

/// Arguments of `edit`.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EditArgs {
    /// The note's name (like a wikilink).
    pub file: Option<String>,
    /// The note's exact path from the vault root.
    pub path: Option<String>,
    /// Exact text to replace (copy it from the note); use with `with`.
    pub find: Option<String>,
    /// The replacement for `find` (empty to delete it).
    pub with: Option<String>,
    /// Replace every occurrence of `find`, not just the only one.
    #[serde(default)]
    pub all: bool,
    /// A section by its heading, e.g. "Risks" or "Plan::Risks" for Risks under Plan; use with `content`.
    pub heading: Option<String>,
    /// The Markdown for the section.
    pub content: Option<String>,
    /// replace (default): the section's body, subsections included; start: right after the heading; end: at the end of the section.
    pub position: Option<SectionPosition>,
    /// Not offered to the model: where the user's selection in the editor
    /// lies, which a rewrite replaces (`doors::chat::selection`): `find` is
    /// replaced exactly at these UTF-8 byte offsets, and only while the
    /// note's whole text has the SHA-256 it had when selected (`noteSha256`).
    #[schemars(skip)]
    #[serde(
        default,
        rename = "rangeStart",
        skip_serializing_if = "Option::is_none"
    )]
    pub range_start: Option<usize>,
    #[schemars(skip)]
    #[serde(
        default,
        rename = "noteSha256",
        skip_serializing_if = "Option::is_none"
    )]
    pub note_sha256: Option<String>,
}

impl CommandArgs for EditArgs {
    fn validate(&mut self) -> Result<(), String> {
        require_note_target(&mut self.file, &mut self.path, "note")?;
        match (&self.find, &self.heading) {
            (Some(find), None) => {
                if find.is_empty() {
                    return Err("`find` is empty; copy the exact text to change from the note".into());
                }
                if self.with.is_none() {
                    return Err("`with` is missing: the text that replaces `find` (\"\" deletes it)".into());
                }
                if self.content.is_some() || self.position.is_some() {
                    return Err("`content` and `position` go with `heading`, not with `find`".into());
                }
                if self.range_start.is_some() != self.note_sha256.is_some()
                    || (self.range_start.is_some() && self.all)
                {
                    return Err("`rangeStart` goes with `noteSha256`, without `all`".into());
                }
            }
            (None, Some(heading)) => {
                check_not_blank("heading", heading)?;
                if self.content.is_none() {
                    return Err("`content` is missing: the Markdown for the section".into());
                }
                if self.with.is_some() || self.all || self.range_start.is_some() {
                    return Err("`with` and `all` go with `find`, not with `heading`".into());
                }
            }
            _ => {
                return Err("say what to change: `find` + `with` (exact text), or `heading` + `content` (a section)".into())
            }
        }
        Ok(())
    }

    fn write_target(&self) -> Option<String> {
        describe_note(&self.file, &self.path)
    }

    fn reach(&self) -> Reach {
        Reach::note(NoteLocator::of(&self.file, &self.path))
    }

    fn plan(&self) -> Plan<'_> {
        self.note_edit().map_or_else(Plan::read, Plan::NoteEdit)
    }
}

impl EditArgs {
    pub fn note_edit(&self) -> Option<NoteEditRequest> {
        let locate = match (&self.path, &self.file) {
            (Some(path), _) => NoteLocator::Path(path.clone()),
            (None, Some(file)) => NoteLocator::Name(file.clone()),
            (None, None) => return None,
        };
        let edit = match (&self.find, &self.heading) {
            (Some(find), _) if self.range_start.is_some() => {
                let start = self.range_start?;
                NoteEdit::Range {
                    start,
                    end: start.checked_add(find.len())?,
                    was: find.clone(),
                    with: self.with.clone().unwrap_or_default(),
                    note_sha256: self.note_sha256.clone()?,
                }
            }
            (Some(find), _) => NoteEdit::Replace {
                find: find.clone(),
                with: self.with.clone().unwrap_or_default(),
                all: self.all,
            },
            (None, Some(heading)) => {
                let heading = heading.clone();
                let text = self.content.clone().unwrap_or_default();
                match self.position.unwrap_or(SectionPosition::Replace) {
                    SectionPosition::Replace => NoteEdit::ReplaceSection {
                        heading,
                        body: text,
                    },
                    SectionPosition::Start => NoteEdit::InsertAfterHeading { heading, text },
                    SectionPosition::End => NoteEdit::AppendToSection { heading, text },
                }
            }
            (None, None) => return None,
        };
        Some(NoteEditRequest { locate, edit })
    }
}

/// "A note is already there" with the commands that change it.
pub fn note_exists(target: &str) -> ToolError {
    ToolError::NoteExists {
        target: target.to_string(),
    }
}

/// The number of lines a text has (for summaries).
pub fn line_count(text: &str) -> usize {
    lines(text).len()
}

pub fn tool() -> ToolSpec {
    ToolSpec {
        id: "obsidianEdit",
        display_name: "Edit notes",
        description: "Create a new note, add text to a note, or change part of a note (exact text or a section by its heading).",
        guidance: "Use obsidianEdit to write notes when the user asks: `create` makes a NEW note (never \
                   over an existing one), `append`/`prepend` add text at the end/start (after the \
                   frontmatter), `edit` changes part of a note: `find` (exact text, copied from \
                   obsidianNotes `read`) + `with`, or `heading` (\"Plan::Risks\") + `content` with \
                   `position` replace/start/end. Read the note first. The user sees a diff and may \
                   have to approve it; say what you changed.",
        commands: vec![
            CommandSpec::new::<CreateArgs>("create", Access::DirectWrite, "Create a new note (refused if it exists).")
                .brief("new note")
                .confirm_as("Create"),
            CommandSpec::new::<AppendArgs>("append", Access::DirectWrite, "Add text at the end of a note.")
                .brief("add at the end")
                .confirm_as("Append to"),
            CommandSpec::new::<PrependArgs>("prepend", Access::DirectWrite, "Add text at the start of a note, after its frontmatter.")
                .brief("add at the start")
                .confirm_as("Prepend to"),
            CommandSpec::new::<EditArgs>("edit", Access::ConfirmedWrite, "Change part of a note: exact text, or a section by heading.")
                .brief("replace found text or a section")
                .confirm_as("Edit"),
        ],
        example: json!({"command": "append", "file": "Welcome", "content": "- [ ] Try Vault Agent"}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn add(content: &str, inline: bool) -> AddArgs {
        AddArgs {
            file: Some("Plan".into()),
            path: None,
            content: content.into(),
            inline,
        }
    }

    #[test]
    fn append_and_prepend_land_where_the_cli_puts_them() {
        let note = "---\ntags: [a]\n---\n# Plan\nbody\n";
        assert_eq!(add("- x", false).added(note, false), format!("{note}\n- x"));
        assert_eq!(
            add("- x", false).added("no newline", false),
            "no newline\n- x"
        );
        assert_eq!(add(" more", true).added("line", false), "line more");
        assert_eq!(
            add("Top", false).added(note, true),
            "---\ntags: [a]\n---\nTop\n# Plan\nbody\n"
        );
        assert_eq!(add("Top", false).added("# Plan\n", true), "Top\n# Plan\n");
        let crlf = "a\r\nb\r\n";
        assert_eq!(
            add("c\nd", false).added(crlf, false),
            "a\r\nb\r\n\r\nc\r\nd"
        );
        assert_eq!(add("x", false).added("", false), "x");
    }

    #[test]
    fn create_refuses_an_existing_note_in_its_preview() {
        let args = CreateArgs {
            name: Some("Plan".into()),
            path: None,
            content: Some("# Plan".into()),
            template: None,
        };
        let exists: ProbeResult = Ok("path\tPlan.md".into());
        assert_eq!(args.preview(&exists).unwrap_err().code(), "note_exists");
        let missing: ProbeResult = Err(ToolError::CliError {
            output: "File \"Plan\" not found.".into(),
            hint: None,
        });
        let preview = args.preview(&missing).unwrap();
        assert_eq!(preview.diff.unwrap().added, 1);
    }
}
