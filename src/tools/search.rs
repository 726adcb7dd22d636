//! `obsidianSearch`: Obsidian's own full-text search.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::shared::check_not_blank;
use super::{Access, CommandArgs, CommandSpec, ToolSpec};
use crate::policy::paths::check_vault_folder;
use crate::policy::scope::{Output, Reach};

/// How many results a search returns when the model does not say.
pub const DEFAULT_LIMIT: u32 = 20;
/// More than this floods the model's context; narrow the search instead.
pub const MAX_LIMIT: u32 = 200;

fn default_limit() -> u32 {
    DEFAULT_LIMIT
}

/// `format=` of the search commands.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SearchFormat {
    Text,
    Json,
}

/// Arguments of `search` (`CONTEXT` false) and `search:context` (true):
/// the same fields, printed as paths or as matching lines.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchArgs<const CONTEXT: bool> {
    /// What to search for. Obsidian search syntax works, e.g. `tag:#project`, `"exact phrase"`, `path:Projects`.
    pub query: String,
    /// Only search this folder (path from the vault root).
    pub path: Option<String>,
    /// At most this many results (default 20, at most 200).
    #[serde(default = "default_limit")]
    #[schemars(range(min = 1, max = 200))]
    pub limit: u32,
    /// Output format: text (default) or json.
    pub format: Option<SearchFormat>,
    /// Return only the number of matches.
    #[serde(default)]
    pub total: bool,
    /// Match upper and lower case exactly.
    #[serde(default)]
    pub case: bool,
}

impl<const CONTEXT: bool> CommandArgs for SearchArgs<CONTEXT> {
    fn reach(&self) -> Reach {
        let output = match (self.total, self.format, CONTEXT) {
            (true, _, _) => Output::TOTAL,
            (false, Some(SearchFormat::Json), false) => Output::JsonItems { key: None },
            (false, Some(SearchFormat::Json), true) => Output::JsonItems { key: Some("file") },
            (false, _, false) => Output::Lines {
                column: 0,
                header: 0,
            },
            (false, _, true) => Output::PathThenColon,
        };
        Reach::listing(self.path.as_ref(), output)
    }

    fn validate(&mut self) -> Result<(), String> {
        check_not_blank("query", &self.query)?;
        if let Some(path) = &mut self.path {
            check_vault_folder("path", path)?;
        }
        if !(1..=MAX_LIMIT).contains(&self.limit) {
            return Err(format!(
                "`limit` must be between 1 and {MAX_LIMIT}; got {}. Narrow the query or the folder for fewer results",
                self.limit
            ));
        }
        Ok(())
    }
}

pub fn tool() -> ToolSpec {
    ToolSpec {
        id: "obsidianSearch",
        display_name: "Search (CLI)",
        description: "Search the vault's notes for text with Obsidian's search.",
        guidance: "Use obsidianSearch to find which notes mention something: `search` lists the \
                   matching notes, `search:context` also shows each matching line. Then read a \
                   note with obsidianNotes `read`. For tasks use obsidianTasks (not search); for \
                   tags use obsidianTags; for links use obsidianLinks.",
        commands: vec![
            CommandSpec::new::<SearchArgs<false>>(
                "search",
                Access::Read,
                "List notes that match a query.",
            ),
            CommandSpec::new::<SearchArgs<true>>(
                "search:context",
                Access::Read,
                "List matching lines with their note and line number.",
            ),
        ],
        example: json!({"command": "search:context", "query": "launch"}),
    }
}
