//! `obsidianNotes`: read a note, its outline or file info, and list files and
//! folders. The agent's main way to look inside the vault.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::shared::check_note_target;
use super::NoteLocator;
use super::{Access, CommandArgs, CommandSpec, ToolSpec};
use crate::policy::paths::check_optional_folder;
use crate::policy::scope::{Output, Reach};

/// Arguments of `read` and `file`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoteArgs {
    /// The note's name, resolved like a wikilink (no folder or extension needed), e.g. "Project Plan". Omit both `file` and `path` for the note open in Obsidian.
    pub file: Option<String>,
    /// The exact path from the vault root, e.g. "Projects/Plan.md".
    pub path: Option<String>,
}

impl CommandArgs for NoteArgs {
    fn validate(&mut self) -> Result<(), String> {
        check_note_target(&mut self.file, &mut self.path)
    }

    fn reach(&self) -> Reach {
        Reach::note(NoteLocator::of(&self.file, &self.path))
    }
}

/// `format=` of `outline`.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum OutlineFormat {
    Tree,
    Md,
    Json,
}

/// Arguments of `outline`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OutlineArgs {
    /// The note's name, resolved like a wikilink (no folder or extension needed), e.g. "Project Plan". Omit both `file` and `path` for the note open in Obsidian.
    pub file: Option<String>,
    /// The exact path from the vault root, e.g. "Projects/Plan.md".
    pub path: Option<String>,
    /// Output format of the outline: tree (default), md or json.
    pub format: Option<OutlineFormat>,
    /// Return only the number of headings.
    #[serde(default)]
    pub total: bool,
}

impl CommandArgs for OutlineArgs {
    fn validate(&mut self) -> Result<(), String> {
        check_note_target(&mut self.file, &mut self.path)
    }

    fn reach(&self) -> Reach {
        Reach::note(NoteLocator::of(&self.file, &self.path))
    }
}

/// Arguments of `files`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FilesArgs {
    /// Only this folder (path from the vault root, e.g. "Projects").
    pub folder: Option<String>,
    /// Only files with this extension, without the dot, e.g. "md", "pdf" or "canvas".
    pub ext: Option<String>,
    /// Return only the count.
    #[serde(default)]
    pub total: bool,
}

impl CommandArgs for FilesArgs {
    fn reach(&self) -> Reach {
        Reach::listing(self.folder.as_ref(), Output::lines_or_total(self.total))
    }

    fn validate(&mut self) -> Result<(), String> {
        check_optional_folder("folder", &mut self.folder)?;
        if let Some(ext) = &self.ext {
            let ok = !ext.is_empty()
                && ext
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '-' || c == '_');
            if !ok {
                return Err(format!(
                    "`ext` must be an extension without the dot, like \"md\" or \"pdf\"; got {ext:?}"
                ));
            }
        }
        Ok(())
    }
}

/// Arguments of `folders`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FoldersArgs {
    /// Only folders inside this one (path from the vault root).
    pub folder: Option<String>,
    /// Return only the count.
    #[serde(default)]
    pub total: bool,
}

impl CommandArgs for FoldersArgs {
    fn reach(&self) -> Reach {
        Reach::listing(self.folder.as_ref(), Output::lines_or_total(self.total))
    }

    fn validate(&mut self) -> Result<(), String> {
        check_optional_folder("folder", &mut self.folder)
    }
}

pub fn tool() -> ToolSpec {
    ToolSpec {
        id: "obsidianNotes",
        display_name: "Notes (CLI)",
        description: "Read a note's text, its outline of headings or its file info; list files and folders.",
        guidance: "Use obsidianNotes to look inside the vault: `read` for a note's full text (the \
                   first thing to do before answering about a note), `outline` for its headings, \
                   `file` for size and dates, `files` / `folders` to see what exists. `file=` takes \
                   a note name and resolves it like a wikilink; `path=` needs the exact path from \
                   the vault root. To find notes by their words use obsidianSearch; for today's \
                   note use obsidianDailyNote; for tasks use obsidianTasks.",
        commands: vec![
            CommandSpec::new::<NoteArgs>("read", Access::Read, "Read a note's full text.")
                .silent_success("The note is empty."),
            CommandSpec::new::<OutlineArgs>("outline", Access::Read, "List a note's headings.")
                .silent_success("The note has no headings."),
            CommandSpec::new::<NoteArgs>(
                "file",
                Access::Read,
                "Show a file's path, name, extension, size, created and modified times.",
            ),
            CommandSpec::new::<FilesArgs>("files", Access::Read, "List files in the vault or a folder."),
            CommandSpec::new::<FoldersArgs>("folders", Access::Read, "List folders in the vault or a folder."),
        ],
        example: json!({"command": "read", "file": "Welcome"}),
    }
}
