//! `obsidianBases`: Bases (`.base` database files): list them, their views,
//! query a view, and add an item (a new note that matches the base).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::shared::{check_not_blank, check_note_target, describe_note, require_note_target};
use super::{Access, CommandArgs, CommandSpec, ToolSpec};
use crate::policy::paths::check_note_name;

/// Arguments of `bases`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BasesArgs {
    /// Return only the number of bases.
    #[serde(default)]
    pub total: bool,
}

impl CommandArgs for BasesArgs {}

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
}

pub fn tool() -> ToolSpec {
    ToolSpec {
        id: "obsidianBases",
        display_name: "Bases (CLI)",
        description: "List Bases (database views of notes), their views, query a view, or add an item to a base.",
        guidance: "Use obsidianBases for `.base` files: `bases` lists them, `base:views` a base's \
                   views, `base:query` the rows of a view (format csv or md reads well), \
                   `base:create` adds an item (a new note that matches the base's filters) when the \
                   user asks for one. Always name the base with `file` or `path`.",
        commands: vec![
            CommandSpec::new::<BasesArgs>("bases", Access::Read, "List the vault's base files."),
            CommandSpec::new::<BaseViewsArgs>("base:views", Access::Read, "List the views of a base."),
            // An empty view prints nothing with format=paths.
            CommandSpec::new::<BaseQueryArgs>("base:query", Access::Read, "Query the rows of a base view.")
                .silent_success("The view has no rows."),
            CommandSpec::new::<BaseCreateArgs>(
                "base:create",
                Access::DirectWrite,
                "Add an item (a new note) to a base.",
            ),
        ],
        example: json!({"command": "base:query", "file": "Projects", "format": "csv"}),
    }
}
