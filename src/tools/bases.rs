//! `obsidianBases`: Bases (`.base` database files): list them, their views,
//! query a view, and add an item (a new note that matches the base).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::shared::{check_not_blank, check_note_target, describe_note, require_note_target};
use super::{CommandArgs, CommandSpec, ToolSpec, UndoKind};
use crate::base::call::{Access, Preview, ProbeResult};
use crate::base::error::ToolError;
use crate::base::vault_path::check_note_name;
use crate::cli::argv::CliInvocation;
use crate::policy::scope::{Output, Place, Reach, Render};
use crate::tools::Previews;
use crate::tools::{Card, CliWrite, Plan};

/// A base as `file` (a name the CLI resolves) or `path` names it.
fn base_place(file: &Option<String>, path: &Option<String>) -> Place {
    match (path, file) {
        (Some(path), _) => Place::Note(crate::base::call::NoteLocator::Path(path.clone())),
        (None, Some(name)) => Place::BaseName(name.clone()),
        (None, None) => Place::OpenNote,
    }
}

/// Arguments of `bases`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BasesArgs {
    /// Return only the number of bases.
    #[serde(default)]
    pub total: bool,
}

impl CommandArgs for BasesArgs {
    fn reach(&self) -> Reach {
        Reach::listing(None, Output::lines_or_total(self.total))
    }
}

/// Arguments of `base:views`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BaseViewsArgs {
    /// The base's name without ".base", e.g. "Projects".
    pub file: Option<String>,
    /// The base's exact path from the vault root, e.g. "Databases/Projects.base".
    pub path: Option<String>,
}

impl CommandArgs for BaseViewsArgs {
    fn validate(&mut self) -> Result<(), String> {
        require_note_target(&mut self.file, &mut self.path, "base")
    }

    fn reach(&self) -> Reach {
        Reach {
            places: vec![base_place(&self.file, &self.path)],
            output: Output::FromPlaces,
        }
    }
}

/// `format=` of `base:query`.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum BaseQueryFormat {
    Json,
    Csv,
    Tsv,
    Md,
    Paths,
}

/// Arguments of `base:query`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BaseQueryArgs {
    /// The base's name without ".base", e.g. "Projects".
    pub file: Option<String>,
    /// The base's exact path from the vault root, e.g. "Databases/Projects.base".
    pub path: Option<String>,
    /// The view to query (see `base:views`); omit for the first view.
    pub view: Option<String>,
    /// Output format: json (default), csv, tsv, md (a table) or paths.
    pub format: Option<BaseQueryFormat>,
    /// Return only the number of rows.
    #[serde(default)]
    pub total: bool,
}

impl CommandArgs for BaseQueryArgs {
    fn validate(&mut self) -> Result<(), String> {
        require_note_target(&mut self.file, &mut self.path, "base")?;
        match &self.view {
            Some(view) => check_not_blank("view", view),
            None => Ok(()),
        }
    }

    /// The base must be readable; its rows are notes from anywhere, so they
    /// are filtered by their `path`.
    fn reach(&self) -> Reach {
        let output = match (self.total, self.format) {
            (true, _) => Output::TOTAL,
            (false, None | Some(BaseQueryFormat::Json)) => Output::json(Some("path"), Render::Json),
            (false, Some(BaseQueryFormat::Paths)) => Output::PATHS,
            (false, _) => Output::Unplaceable {
                fix: "Use `format=json` or `format=paths`, which name each row's note.",
            },
        };
        Reach {
            places: vec![base_place(&self.file, &self.path), Place::Within(None)],
            output,
        }
    }
}

/// Arguments of `base:create`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BaseCreateArgs {
    /// The base's name without ".base", e.g. "Projects".
    pub file: Option<String>,
    /// The base's exact path from the vault root, e.g. "Databases/Projects.base".
    pub path: Option<String>,
    /// The view to add the item to; omit for the first view.
    pub view: Option<String>,
    /// The new note's name, without ".md"; omit for a generated name.
    pub name: Option<String>,
    /// The new note's Markdown text.
    pub content: Option<String>,
}

impl CommandArgs for BaseCreateArgs {
    fn validate(&mut self) -> Result<(), String> {
        // A missing base is left to policy (missing_target), like every write.
        check_note_target(&mut self.file, &mut self.path)?;
        if let Some(name) = &mut self.name {
            check_note_name("name", name)?;
            if name.contains('/') {
                return Err(
                    "`name` is the new note's name only; the base decides its folder".into(),
                );
            }
        }
        Ok(())
    }

    fn write_target(&self) -> Option<String> {
        describe_note(&self.file, &self.path).map(|base| format!("a new item in base {base}"))
    }

    /// The base decides the new note's folder, so it cannot be checked first.
    fn reach(&self) -> Reach {
        Reach {
            places: vec![base_place(&self.file, &self.path), Place::NewNote(None)],
            output: Output::NoNoteText,
        }
    }

    fn plan(&self) -> Plan<'_> {
        Plan::CliWrite(CliWrite {
            undo: self.undo_kind().unwrap_or(UndoKind::UNKNOWN),
            check: None,
            new_note: self.new_note_title(),
            card: self.probe().map(|probe| Card {
                probe,
                exact_note: None,
                preview: self,
            }),
        })
    }
}

impl BaseCreateArgs {
    /// Only a given `name`: a generated one ("Untitled", numbered) is no
    /// title anyone chose, so a similar one is no sign of a duplicate.
    pub fn new_note_title(&self) -> Option<String> {
        let name = self.name.as_deref()?;
        Some(crate::hygiene::text::title_of(name.trim()).to_string())
    }

    /// The base's views: the read shows the base exists and which view the
    /// item goes to.
    pub fn probe(&self) -> Option<CliInvocation> {
        let mut probe = CliInvocation::new("base:views");
        if let Some(file) = &self.file {
            probe = probe.parameter("file", file.clone());
        }
        if let Some(path) = &self.path {
            probe = probe.parameter("path", path.clone());
        }
        Some(probe)
    }

    pub fn undo_kind(&self) -> Option<UndoKind> {
        // `base:create` prints only the file name; the CLI's default name
        // is "Untitled".
        Some(UndoKind::NewNote {
            path: None,
            lookup: Some(
                self.name
                    .as_deref()
                    .map(|n| n.trim().trim_end_matches(".md").to_string())
                    .unwrap_or_else(|| "Untitled".into()),
            ),
        })
    }
}

impl Previews for BaseCreateArgs {
    fn preview(&self, current: &ProbeResult) -> Result<Preview, ToolError> {
        let base = describe_note(&self.file, &self.path).unwrap_or_default();
        let text = current.as_ref().map_err(Clone::clone)?;
        // `<name>\t<type>` lines (table, cards, list): the name is the view.
        let views: Vec<&str> = text
            .lines()
            .map(|l| l.split('\t').next().unwrap_or("").trim())
            .filter(|l| !l.is_empty() && *l != "No views found.")
            .collect();
        let view = match (&self.view, views.first()) {
            (Some(view), _) if views.contains(&view.as_str()) => format!("view \"{view}\""),
            (Some(view), _) => {
                return Err(ToolError::CliError {
                    output: format!(
                        "base {base} has no view \"{view}\" (its views: {})",
                        list_or_none(&views)
                    ),
                    hint: Some("Use one of its views, or leave `view` out for the first.".into()),
                })
            }
            (None, Some(first)) => format!("its first view, \"{first}\""),
            (None, None) => "the base (it has no views)".into(),
        };
        let name = match &self.name {
            Some(name) => format!("\"{name}\""),
            None => "a generated name (\"Untitled\", numbered if taken)".into(),
        };
        let content = match self.content.as_deref() {
            Some(text) if !text.is_empty() => text.to_string(),
            _ => "(no text)".into(),
        };
        Ok(Preview {
            target: self.write_target().unwrap_or_default(),
            before: format!("Base {base}, views: {}", list_or_none(&views)),
            after: format!(
                "New note {name} in {view}, in the folder and with the properties the base's filters ask for:\n{content}"
            ),
            diff: None,
            warning: None,
        })
    }
}

fn list_or_none(items: &[&str]) -> String {
    if items.is_empty() {
        "none".into()
    } else {
        items.join(", ")
    }
}

pub fn tool() -> ToolSpec {
    ToolSpec {
        id: "obsidianBases",
        display_name: "Bases",
        description: "List Bases (database views of notes), their views, query a view, or add an item to a base.",
        guidance: "Use obsidianBases for `.base` files: `bases` lists them, `base:views` a base's \
                   views, `base:query` the rows of a view (format csv or md reads well), \
                   `base:create` adds an item (a new note that matches the base's filters) when the \
                   user asks for one. Always name the base with `file` or `path`.",
        commands: vec![
            CommandSpec::new::<BasesArgs>("bases", Access::Read, "List the vault's base files.")
                .brief(""),
            CommandSpec::new::<BaseViewsArgs>("base:views", Access::Read, "List the views of a base.")
                .brief(""),
            // An empty view prints nothing with format=paths.
            CommandSpec::new::<BaseQueryArgs>("base:query", Access::Read, "Query the rows of a base view.")
                .brief("rows of a view")
                .silent_success("The view has no rows."),
            CommandSpec::new::<BaseCreateArgs>(
                "base:create",
                Access::DirectWrite,
                "Add an item (a new note) to a base.",
            )
                .brief("add a row")
            .confirm_as("Add"),
        ],
        example: json!({"command": "base:query", "file": "Projects", "format": "csv"}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn create(view: Option<&str>, name: Option<&str>, content: Option<&str>) -> BaseCreateArgs {
        BaseCreateArgs {
            file: Some("Projects".into()),
            path: None,
            view: view.map(String::from),
            name: name.map(String::from),
            content: content.map(String::from),
        }
    }

    #[test]
    fn the_preview_names_the_base_the_view_the_note_and_its_text() {
        let views = Ok("Table\nBoard".to_string());
        let preview = create(Some("Board"), Some("Launch"), Some("# Launch\nSoon"))
            .preview(&views)
            .unwrap();
        assert_eq!(preview.target, "a new item in base note \"Projects\"");
        assert_eq!(
            preview.before,
            "Base note \"Projects\", views: Table, Board"
        );
        assert!(
            preview
                .after
                .starts_with("New note \"Launch\" in view \"Board\""),
            "{}",
            preview.after
        );
        assert!(
            preview.after.ends_with(":\n# Launch\nSoon"),
            "{}",
            preview.after
        );
        let generated = create(None, None, None).preview(&views).unwrap();
        assert!(
            generated.after.contains("a generated name"),
            "{}",
            generated.after
        );
        assert!(
            generated.after.contains("its first view, \"Table\""),
            "{}",
            generated.after
        );
        assert!(
            generated.after.ends_with("(no text)"),
            "{}",
            generated.after
        );
    }

    #[test]
    fn no_preview_for_a_missing_base_or_view() {
        let missing = ToolError::CliError {
            output: "File \"Projects.base\" not found.".into(),
            hint: None,
        };
        assert_eq!(
            create(None, None, None)
                .preview(&Err(missing.clone()))
                .unwrap_err(),
            missing
        );
        let err = create(Some("Gallery"), None, None)
            .preview(&Ok("Table".into()))
            .unwrap_err();
        assert!(
            err.to_string()
                .contains("no view \"Gallery\" (its views: Table)"),
            "{err}"
        );
        let probe = create(None, None, None).probe().unwrap();
        assert_eq!(probe.to_argv().unwrap(), ["base:views", "file=Projects"]);
    }
}
