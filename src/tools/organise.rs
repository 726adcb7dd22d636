//! `obsidianOrganise`: move notes to a folder, rename a note, delete notes to
//! the trash. Each is a confirmed write with a card listing what moves where
//! (or what goes, with its first lines and how many notes link to it), done
//! through Obsidian's own file manager (which updates links as the user's
//! "Automatically update internal links" setting says) and undone as a
//! whole: moved back, renamed back, or recreated with the exact text.
//! Several notes are one card, approved or rejected together.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::shared::{check_not_blank, check_note_target, describe_note};
use super::{CommandArgs, CommandSpec, ToolSpec};
use crate::base::call::{Access, NoteLocator};
use crate::base::vault_path::{check_note_name, check_vault_folder, check_vault_path};
use crate::policy::scope::{Output, Place, Reach};
use crate::tools::Plan;

/// Notes one card may move or delete.
pub const MAX_NOTES: usize = 50;

/// What an organising change does to each note.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum OrganiseKind {
    Move,
    Rename,
    Delete,
}

/// The notes of an organising change, as the model named them, and where
/// each goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrganiseRequest {
    pub kind: OrganiseKind,
    pub notes: Vec<NoteLocator>,
    pub destination: Destination,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Destination {
    /// Into this folder, keeping each note's file name.
    Folder(String),
    /// The same folder, this file name.
    Name(String),
    /// The trash Obsidian is set to use.
    Trash,
}

/// The notes a call names: `file`/`path` for one, `paths` for several.
fn notes_named(file: &Option<String>, path: &Option<String>, paths: &[String]) -> Vec<NoteLocator> {
    let mut notes: Vec<NoteLocator> = NoteLocator::of(file, path).into_iter().collect();
    notes.extend(paths.iter().cloned().map(NoteLocator::Path));
    notes
}

fn check_notes(
    file: &mut Option<String>,
    path: &mut Option<String>,
    paths: &mut [String],
    bulk: bool,
) -> Result<(), String> {
    check_note_target(file, path)?;
    let single = file.is_some() || path.is_some();
    if single && !paths.is_empty() {
        return Err("give one note (`file` or `path`) or several (`paths`), not both".into());
    }
    if !single && paths.is_empty() {
        return Err(if bulk {
            "name the notes: `file` or `path` for one, `paths` (exact paths) for several".into()
        } else {
            "name the note with `file` or `path`".into()
        });
    }
    if paths.len() > MAX_NOTES {
        return Err(format!(
            "at most {MAX_NOTES} notes at once; got {}. Split the request",
            paths.len()
        ));
    }
    for p in paths.iter_mut() {
        check_vault_path("paths", p)?;
    }
    let mut seen = std::collections::BTreeSet::new();
    if let Some(twice) = paths.iter().find(|p| !seen.insert(p.to_string())) {
        return Err(format!("`paths` names {twice:?} twice"));
    }
    Ok(())
}

fn places(notes: &[NoteLocator], destination: Option<&str>) -> Reach {
    let mut places: Vec<Place> = notes.iter().cloned().map(Place::Note).collect();
    if let Some(destination) = destination {
        places.push(Place::NewNote(Some(destination.to_string())));
    }
    Reach {
        places,
        output: Output::NoNoteText,
    }
}

/// Arguments of `move`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveArgs {
    /// The note's name, resolved like a wikilink.
    pub file: Option<String>,
    /// The note's exact path from the vault root.
    pub path: Option<String>,
    /// Several notes by exact path, moved together on one card (at most 50).
    #[serde(default, skip_serializing)]
    pub paths: Vec<String>,
    /// The folder to move them into (path from the vault root, e.g. "Archive/2026"); missing folders are created.
    pub to: String,
}

impl CommandArgs for MoveArgs {
    fn validate(&mut self) -> Result<(), String> {
        check_notes(&mut self.file, &mut self.path, &mut self.paths, true)?;
        check_vault_folder("to", &mut self.to)
    }

    /// The notes must be changeable, and so must the folder they go to.
    fn reach(&self) -> Reach {
        let notes = notes_named(&self.file, &self.path, &self.paths);
        places(&notes, Some(&format!("{}/", self.to)))
    }

    fn write_target(&self) -> Option<String> {
        Some(describe_notes(&self.file, &self.path, &self.paths))
    }

    fn plan(&self) -> Plan<'_> {
        self.organise().map_or_else(Plan::read, Plan::Organise)
    }
}

impl MoveArgs {
    pub fn organise(&self) -> Option<OrganiseRequest> {
        Some(OrganiseRequest {
            kind: OrganiseKind::Move,
            notes: notes_named(&self.file, &self.path, &self.paths),
            destination: Destination::Folder(self.to.clone()),
        })
    }
}

/// Arguments of `rename`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RenameArgs {
    /// The note's name, resolved like a wikilink.
    pub file: Option<String>,
    /// The note's exact path from the vault root.
    pub path: Option<String>,
    /// The new file name, without a folder (it stays where it is); ".md" is kept if left out.
    pub name: String,
}

impl CommandArgs for RenameArgs {
    fn validate(&mut self) -> Result<(), String> {
        check_notes(&mut self.file, &mut self.path, &mut [], false)?;
        check_not_blank("name", &self.name)?;
        check_note_name("name", &mut self.name)?;
        if self.name.contains('/') {
            return Err("`name` is the new file name only; to change the folder use `move`".into());
        }
        Ok(())
    }

    fn reach(&self) -> Reach {
        let notes = notes_named(&self.file, &self.path, &[]);
        // The new name stays in the note's folder: known once it is found.
        let destination = self.path.as_ref().map(|p| renamed(p, &self.name));
        places(&notes, destination.as_deref())
    }

    fn write_target(&self) -> Option<String> {
        describe_note(&self.file, &self.path)
    }

    fn plan(&self) -> Plan<'_> {
        self.organise().map_or_else(Plan::read, Plan::Organise)
    }
}

impl RenameArgs {
    pub fn organise(&self) -> Option<OrganiseRequest> {
        Some(OrganiseRequest {
            kind: OrganiseKind::Rename,
            notes: notes_named(&self.file, &self.path, &[]),
            destination: Destination::Name(self.name.clone()),
        })
    }
}

/// Arguments of `delete`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeleteArgs {
    /// The note's name, resolved like a wikilink.
    pub file: Option<String>,
    /// The note's exact path from the vault root.
    pub path: Option<String>,
    /// Several notes by exact path, deleted together on one card (at most 50).
    #[serde(default, skip_serializing)]
    pub paths: Vec<String>,
}

impl CommandArgs for DeleteArgs {
    fn validate(&mut self) -> Result<(), String> {
        check_notes(&mut self.file, &mut self.path, &mut self.paths, true)
    }

    fn reach(&self) -> Reach {
        places(&notes_named(&self.file, &self.path, &self.paths), None)
    }

    fn write_target(&self) -> Option<String> {
        Some(describe_notes(&self.file, &self.path, &self.paths))
    }

    fn plan(&self) -> Plan<'_> {
        self.organise().map_or_else(Plan::read, Plan::Organise)
    }
}

impl DeleteArgs {
    pub fn organise(&self) -> Option<OrganiseRequest> {
        Some(OrganiseRequest {
            kind: OrganiseKind::Delete,
            notes: notes_named(&self.file, &self.path, &self.paths),
            destination: Destination::Trash,
        })
    }
}

fn describe_notes(file: &Option<String>, path: &Option<String>, paths: &[String]) -> String {
    match describe_note(file, path) {
        Some(one) => one,
        None => format!("{} notes", paths.len()),
    }
}

/// `Projects/Plan.md` renamed to `Q3 plan` is `Projects/Q3 plan.md`: the
/// folder stays, and so does the extension when the name has none.
pub fn renamed(path: &str, name: &str) -> String {
    let (folder, file) = path.rsplit_once('/').map_or(("", path), |(f, n)| (f, n));
    let extension = file.rsplit_once('.').map(|(_, e)| e);
    let has_extension = name
        .rsplit_once('.')
        .is_some_and(|(stem, e)| !stem.is_empty() && Some(e) == extension);
    let name = match (has_extension, extension) {
        (false, Some(e)) => format!("{name}.{e}"),
        _ => name.to_string(),
    };
    if folder.is_empty() {
        name
    } else {
        format!("{folder}/{name}")
    }
}

/// `Projects/Plan.md` moved to `Archive` is `Archive/Plan.md`.
pub fn moved(path: &str, folder: &str) -> String {
    let file = path.rsplit('/').next().unwrap_or(path);
    format!("{folder}/{file}")
}

pub fn tool() -> ToolSpec {
    ToolSpec {
        id: "obsidianOrganise",
        display_name: "Organise notes",
        description: "Move notes to a folder, rename a note, or move notes to the trash.",
        guidance: "Use obsidianOrganise only when the user asks to move, rename or delete notes. \
                   `move` puts notes into a folder (`to`), `rename` gives one note a new file name \
                   in its folder, `delete` moves notes to the trash (never permanently). For \
                   several notes give `paths` (exact paths) and make one request: the user sees \
                   one card for all of them. Obsidian updates links to moved notes when the user \
                   has that setting on; the card says whether it will.",
        commands: vec![
            CommandSpec::new::<MoveArgs>(
                "move",
                Access::ConfirmedWrite,
                "Move one note or several into a folder (the user approves the list first).",
            )
            .brief("into folder `to`")
            .confirm_as("Move"),
            CommandSpec::new::<RenameArgs>(
                "rename",
                Access::ConfirmedWrite,
                "Give a note a new file name in its folder (the user approves it first).",
            )
            .brief("new file name")
            .confirm_as("Rename"),
            CommandSpec::new::<DeleteArgs>(
                "delete",
                Access::ConfirmedWrite,
                "Move one note or several to the trash (the user approves the list first).",
            )
            .brief("to the trash")
            .confirm_as("Delete"),
        ],
        example: json!({"command": "move", "path": "Ideas/Unlinked thought.md", "to": "Archive"}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_paths_keep_the_folder_and_the_extension() {
        assert_eq!(
            renamed("Projects/Plan.md", "Q3 plan"),
            "Projects/Q3 plan.md"
        );
        assert_eq!(
            renamed("Projects/Plan.md", "Q3 plan.md"),
            "Projects/Q3 plan.md"
        );
        assert_eq!(renamed("Plan.md", "v2.0"), "v2.0.md");
        assert_eq!(renamed("Canvas/Board.canvas", "Map"), "Canvas/Map.canvas");
        assert_eq!(
            moved("Projects/Plan.md", "Archive/2026"),
            "Archive/2026/Plan.md"
        );
        assert_eq!(moved("Plan.md", "Archive"), "Archive/Plan.md");
    }
}
