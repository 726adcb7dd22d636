//! `obsidianNotes`: read a note, its map or one section, its outline or file
//! info, list files and folders, and open a note in Obsidian. The agent's
//! main way to look inside the vault.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::shared::{
    check_not_blank, check_note_target, check_page_limit, default_page, glob_matches, page_lines,
    page_note,
};
use super::{CommandArgs, CommandSpec, NoteView, Presented, ToolSpec, View};
use crate::base::call::{Access, NoteLocator};
use crate::base::vault_path::check_optional_folder;
use crate::policy::scope::{Output, Reach};
use crate::tools::Plan;
use crate::tools::Presents;

/// Files a listing shows when the model does not say, and at most.
const DEFAULT_FILES: u32 = 200;
const MAX_FILES: u32 = 1000;
/// Longest `name` pattern: matching stays cheap whatever the model sends.
const MAX_PATTERN: usize = 200;

fn default_files() -> u32 {
    DEFAULT_FILES
}

/// Arguments of `map`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MapArgs {
    /// The note's name, resolved like a wikilink, e.g. "Project Plan".
    pub file: Option<String>,
    /// The exact path from the vault root, e.g. "Projects/Plan.md".
    pub path: Option<String>,
}

impl CommandArgs for MapArgs {
    fn validate(&mut self) -> Result<(), String> {
        super::shared::require_note_target(&mut self.file, &mut self.path, "note")
    }

    fn reach(&self) -> Reach {
        Reach::note(NoteLocator::of(&self.file, &self.path))
    }

    fn plan(&self) -> Plan<'_> {
        self.note_view().map_or_else(Plan::read, Plan::NoteView)
    }
}

impl MapArgs {
    pub fn note_view(&self) -> Option<NoteView> {
        Some(NoteView {
            locate: NoteLocator::of(&self.file, &self.path)?,
            view: View::Map,
        })
    }
}

/// Arguments of `section`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SectionArgs {
    /// The note's name, resolved like a wikilink, e.g. "Project Plan".
    pub file: Option<String>,
    /// The exact path from the vault root, e.g. "Projects/Plan.md".
    pub path: Option<String>,
    /// The section's heading, e.g. "Risks", or a heading path such as "Plan::Risks" (as `map` shows it).
    pub heading: String,
}

impl CommandArgs for SectionArgs {
    fn validate(&mut self) -> Result<(), String> {
        super::shared::require_note_target(&mut self.file, &mut self.path, "note")?;
        check_not_blank("heading", &self.heading)
    }

    fn reach(&self) -> Reach {
        Reach::note(NoteLocator::of(&self.file, &self.path))
    }

    fn plan(&self) -> Plan<'_> {
        self.note_view().map_or_else(Plan::read, Plan::NoteView)
    }
}

impl SectionArgs {
    pub fn note_view(&self) -> Option<NoteView> {
        Some(NoteView {
            locate: NoteLocator::of(&self.file, &self.path)?,
            view: View::Section(self.heading.clone()),
        })
    }
}

/// Arguments of `open`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OpenArgs {
    /// The note's name, resolved like a wikilink, e.g. "Project Plan".
    pub file: Option<String>,
    /// The exact path from the vault root, e.g. "Projects/Plan.md".
    pub path: Option<String>,
    /// Scroll to this heading, e.g. "Risks".
    pub heading: Option<String>,
}

impl CommandArgs for OpenArgs {
    fn validate(&mut self) -> Result<(), String> {
        super::shared::require_note_target(&mut self.file, &mut self.path, "note")?;
        if let Some(heading) = &self.heading {
            check_not_blank("heading", heading)?;
            if heading.contains(['#', '|', '[', ']']) {
                return Err(format!("`heading` is the heading's text only, without `#`, `|` or brackets; got {heading:?}"));
            }
        }
        Ok(())
    }

    fn reach(&self) -> Reach {
        Reach::note(NoteLocator::of(&self.file, &self.path))
    }

    fn plan(&self) -> Plan<'_> {
        self.note_view().map_or_else(Plan::read, Plan::NoteView)
    }
}

impl OpenArgs {
    pub fn note_view(&self) -> Option<NoteView> {
        Some(NoteView {
            locate: NoteLocator::of(&self.file, &self.path)?,
            view: View::Open {
                heading: self.heading.clone(),
            },
        })
    }
}

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

/// Arguments of `files`. `depth`, `name`, `offset` and `limit` are applied by
/// the core to what the CLI lists (they are not CLI parameters).
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
    /// How deep to list below the folder: 1 = only files directly in it.
    #[serde(default, skip_serializing)]
    #[schemars(range(min = 1))]
    pub depth: Option<u32>,
    /// Only files whose name matches this pattern, ignoring case: `*` any text, `?` one character, e.g. "*meeting*" or "2026-??-*".
    #[serde(default, skip_serializing)]
    pub name: Option<String>,
    /// Skip this many files (for the next page; the listing says what to send).
    #[serde(default, skip_serializing)]
    pub offset: u32,
    /// At most this many files (default 200, at most 1000).
    #[serde(default = "default_files", skip_serializing)]
    #[schemars(range(min = 1, max = 1000))]
    pub limit: u32,
    /// `total` with `depth` or `name`: the CLI lists, the core counts what it keeps.
    #[serde(skip)]
    count_kept: bool,
}

impl FilesArgs {
    /// True when the core filters the CLI's list (so `total` counts after it).
    fn filters(&self) -> bool {
        self.depth.is_some() || self.name.is_some()
    }

    fn keeps(&self, path: &str) -> bool {
        let below = match &self.folder {
            Some(folder) => path
                .strip_prefix(folder.as_str())
                .and_then(|rest| rest.strip_prefix('/'))
                .unwrap_or(path),
            None => path,
        };
        let depth_ok = self
            .depth
            .is_none_or(|depth| below.matches('/').count() < depth as usize);
        let name = path.rsplit('/').next().unwrap_or(path);
        let name_ok = self
            .name
            .as_deref()
            .is_none_or(|pattern| glob_matches(pattern, name));
        depth_ok && name_ok
    }
}

impl CommandArgs for FilesArgs {
    fn reach(&self) -> Reach {
        Reach::listing(self.folder.as_ref(), Output::lines_or_total(self.total))
    }

    fn validate(&mut self) -> Result<(), String> {
        check_optional_folder("folder", &mut self.folder)?;
        // With `depth` or `name`, `total` counts what the core keeps, so the
        // CLI lists (and the list is filtered like any other).
        if self.total && self.filters() {
            self.total = false;
            self.count_kept = true;
        }
        if self.depth == Some(0) {
            return Err("`depth` starts at 1 (only the files directly in the folder)".into());
        }
        if !(1..=MAX_FILES).contains(&self.limit) {
            return Err(format!(
                "`limit` must be between 1 and {MAX_FILES}; got {}",
                self.limit
            ));
        }
        if let Some(pattern) = &self.name {
            check_not_blank("name", pattern)?;
            if pattern.chars().count() > MAX_PATTERN || pattern.contains('/') {
                return Err(format!("`name` is a pattern for the file name only (no `/`), at most {MAX_PATTERN} characters, such as \"*meeting*\""));
            }
        }
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

    fn plan(&self) -> Plan<'_> {
        Plan::Read {
            present: Some(self),
        }
    }
}

impl Presents for FilesArgs {
    /// The CLI's list, filtered, counted and paged.
    fn present(&self, output: &str) -> Option<Presented> {
        if self.total {
            return None;
        }
        let kept: Vec<&str> = output
            .lines()
            .filter(|line| !line.trim().is_empty() && self.keeps(line))
            .collect();
        if self.count_kept {
            return Some(Presented {
                text: format!("{}\n", kept.len()),
                note: None,
            });
        }
        Some(page_note(&kept, self.offset, self.limit, "files"))
    }
}

/// Arguments of `folders`. `offset` and `limit` page what the CLI lists.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FoldersArgs {
    /// Only folders inside this one (path from the vault root).
    pub folder: Option<String>,
    /// Return only the count.
    #[serde(default)]
    pub total: bool,
    /// Skip this many folders (for the next page; the listing says what to send).
    #[serde(default, skip_serializing)]
    pub offset: u32,
    /// At most this many folders (default 200, at most 1000).
    #[serde(default = "default_page", skip_serializing)]
    #[schemars(range(min = 1, max = 1000))]
    pub limit: u32,
}

impl Presents for FoldersArgs {
    fn present(&self, output: &str) -> Option<Presented> {
        (!self.total).then(|| page_lines(output, self.offset, self.limit, "folders"))
    }
}

impl CommandArgs for FoldersArgs {
    fn reach(&self) -> Reach {
        Reach::listing(self.folder.as_ref(), Output::lines_or_total(self.total))
    }

    fn validate(&mut self) -> Result<(), String> {
        check_optional_folder("folder", &mut self.folder)?;
        check_page_limit(self.limit)
    }

    fn plan(&self) -> Plan<'_> {
        Plan::Read {
            present: Some(self),
        }
    }
}

pub fn tool() -> ToolSpec {
    ToolSpec {
        id: "obsidianNotes",
        display_name: "Notes",
        description: "Read a note's text, a map of its sections or one section, its outline of headings or its file info; list files and folders; open a note in Obsidian; read a PDF's pages.",
        guidance: "Use obsidianNotes to look inside the vault: `read` for a note's full text (the \
                   first thing to do before answering about a note); for a long note `map` first, \
                   then `section` with a heading path it shows; `outline` for its headings, \
                   `file` for size and dates, `files` / `folders` to see what exists (`files` \
                   pages: send the `offset` it names for more); `open` shows a note to the user; `pdf` reads a PDF's pages by range. `file=` takes \
                   a note name and resolves it like a wikilink; `path=` needs the exact path from \
                   the vault root. To find notes by their words use obsidianSearch; for today's \
                   note use obsidianDailyNote; for tasks use obsidianTasks.",
        commands: vec![
            CommandSpec::new::<NoteArgs>("read", Access::Read, "Read a note's full text.")
                .brief("")
                .silent_success("The note is empty."),
            CommandSpec::new::<MapArgs>(
                "map",
                Access::Read,
                "Show a note's document map: its headings as a tree, with the lines of each section and the heading path to read one.",
            )
                .brief("headings with line ranges"),
            CommandSpec::new::<SectionArgs>(
                "section",
                Access::Read,
                "Read one section of a note by its heading or heading path (\"Plan::Risks\"), subsections included.",
            )
                .brief("text under a heading, A::B for a subheading"),
            CommandSpec::new::<OutlineArgs>("outline", Access::Read, "List a note's headings.")
                .brief("headings")
                .silent_success("The note has no headings."),
            CommandSpec::new::<NoteArgs>(
                "file",
                Access::Read,
                "Show a file's path, name, extension, size, created and modified times.",
            )
                .brief("size and dates"),
            CommandSpec::new::<FilesArgs>("files", Access::Read, "List files in the vault or a folder.")
                .brief(""),
            CommandSpec::new::<FoldersArgs>("folders", Access::Read, "List folders in the vault or a folder.")
                .brief(""),
            CommandSpec::new::<OpenArgs>(
                "open",
                Access::Read,
                "Show a note to the user in Obsidian (in the current tab), at a heading if given.",
            )
                .brief("show the user"),
            CommandSpec::new::<super::pdf::PdfArgs>(
                "pdf",
                Access::Read,
                "Read pages of a PDF in the vault by page range (its text, with page numbers).",
            )
                .brief("a PDF's pages"),
        ],
        example: json!({"command": "read", "file": "Welcome"}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::scope::Place;

    #[test]
    fn a_read_of_a_named_note_reaches_that_note_and_without_one_the_open_note() {
        let spec = tool();
        let named = spec
            .parse_call(&json!({"command": "read", "file": "Plan"}))
            .unwrap();
        assert_eq!(
            named.invocation(None).unwrap().to_argv().unwrap(),
            ["read", "file=Plan"]
        );
        assert_eq!(
            named.facts().unwrap().reach.places,
            [Place::Note(NoteLocator::Name("Plan".into()))]
        );
        let open = spec.parse_call(&json!({"command": "read"})).unwrap();
        assert_eq!(open.facts().unwrap().reach.places, [Place::OpenNote]);
    }

    #[test]
    fn map_section_and_open_are_answered_by_the_core_from_one_named_note() {
        let spec = tool();
        let plan = |args: serde_json::Value| {
            let call = spec.parse_call(&args).unwrap();
            match call.args.plan() {
                Plan::NoteView(view) => Some(view),
                _ => None,
            }
        };
        assert_eq!(
            plan(json!({"command": "map", "path": "Projects/Plan.md"})),
            Some(NoteView {
                locate: NoteLocator::Path("Projects/Plan.md".into()),
                view: View::Map
            })
        );
        assert_eq!(
            plan(json!({"command": "section", "file": "Plan", "heading": "Plan::Risks"}))
                .map(|v| v.view),
            Some(View::Section("Plan::Risks".into()))
        );
        assert_eq!(
            plan(json!({"command": "open", "file": "Plan", "heading": "Risks"})).map(|v| v.view),
            Some(View::Open {
                heading: Some("Risks".into())
            })
        );
        // These need a note: the open one is not guessed.
        for bad in [
            json!({"command": "map"}),
            json!({"command": "section", "file": "Plan", "heading": " "}),
            json!({"command": "open", "file": "Plan", "heading": "#Risks"}),
        ] {
            assert!(spec.parse_call(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn files_are_listed_within_a_folder_and_their_bounds_are_checked() {
        let spec = tool();
        let call = spec
            .parse_call(&json!({"command": "files", "folder": "Projects"}))
            .unwrap();
        let reach = call.facts().unwrap().reach;
        assert_eq!(reach.places, [Place::Within(Some("Projects".into()))]);
        assert_eq!(reach.output, Output::PATHS);
        for bad in [
            json!({"command": "files", "depth": 0}),
            json!({"command": "files", "limit": 0}),
            json!({"command": "files", "name": "a/b"}),
            json!({"command": "files", "ext": ".md"}),
        ] {
            assert!(spec.parse_call(&bad).is_err(), "{bad}");
        }
    }
}
