//! `obsidianSearch`: Obsidian's own full-text search.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::shared::check_not_blank;
use super::{CommandArgs, CommandSpec, Presented, ToolSpec};
use crate::base::call::Access;
use crate::base::vault_path::check_vault_folder;
use crate::policy::scope::{Output, Reach, Render};
use crate::search::SearchRequest;
use crate::tools::Plan;
use crate::tools::Presents;

/// How many results a search returns when the model does not say.
pub const DEFAULT_LIMIT: u32 = 20;
/// More than this floods the model's context; narrow the search instead.
pub const MAX_LIMIT: u32 = 200;
/// How far pages reach: the CLI is asked for `offset + limit` results.
pub const MAX_PAGED: u32 = 1000;

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
    /// Skip this many results: the next page (a search that filled its `limit` says what to send).
    #[serde(default, skip_serializing)]
    #[schemars(range(max = 1000))]
    pub offset: u32,
    /// The page size the model asked for (`limit` grows by `offset` for the CLI).
    #[serde(skip)]
    page: u32,
}

impl<const CONTEXT: bool> SearchArgs<CONTEXT> {
    /// The results as entries: one per note (a note's matching lines stay together).
    fn entries(output: &str) -> Vec<String> {
        let mut entries: Vec<String> = Vec::new();
        let mut last_note: Option<&str> = None;
        for line in output.lines().filter(|l| !l.trim().is_empty()) {
            let note = if CONTEXT {
                line.split_once(':').map_or(line, |(path, _)| path)
            } else {
                line
            };
            match (last_note == Some(note), entries.last_mut()) {
                (true, Some(entry)) => {
                    entry.push('\n');
                    entry.push_str(line);
                }
                _ => entries.push(line.to_string()),
            }
            last_note = Some(note);
        }
        entries
    }
}

impl<const CONTEXT: bool> CommandArgs for SearchArgs<CONTEXT> {
    fn reach(&self) -> Reach {
        let output = match (self.total, self.format, CONTEXT) {
            (true, _, _) => Output::TOTAL,
            (false, Some(SearchFormat::Json), false) => Output::json(None, Render::Json),
            (false, Some(SearchFormat::Json), true) => Output::json(Some("file"), Render::Json),
            (false, _, false) => Output::json(None, Render::SearchPaths),
            (false, _, true) => Output::json(Some("file"), Render::SearchLines),
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
        if self.offset > 0 && self.total {
            return Err("`offset` pages results; leave it out with `total`".into());
        }
        if self.offset + self.limit > MAX_PAGED {
            return Err(format!(
                "pages reach the first {MAX_PAGED} results; narrow the query or the folder instead of `offset` {}",
                self.offset
            ));
        }
        self.page = self.limit;
        self.limit += self.offset;
        Ok(())
    }

    fn plan(&self) -> Plan<'_> {
        Plan::Read {
            present: Some(self),
        }
    }
}

impl<const CONTEXT: bool> Presents for SearchArgs<CONTEXT> {
    /// One page: the results after `offset`, and what to send for the next.
    /// JSON stays JSON (its items are the page; nothing is added).
    fn present(&self, output: &str) -> Option<Presented> {
        if self.total {
            return None;
        }
        if matches!(self.format, Some(SearchFormat::Json)) {
            if self.offset == 0 {
                return None;
            }
            let Ok(serde_json::Value::Array(items)) = serde_json::from_str(output) else {
                return None;
            };
            let page: Vec<_> = items.into_iter().skip(self.offset as usize).collect();
            return Some(Presented {
                text: serde_json::Value::Array(page).to_string(),
                note: None,
            });
        }
        let entries = Self::entries(output);
        let page: Vec<&String> = entries.iter().skip(self.offset as usize).collect();
        let first = self.offset as usize + 1;
        let last = self.offset as usize + page.len();
        let note = if page.len() as u32 >= self.page {
            Some(format!(
                "[Results {first}-{last}; more may follow: send offset={last} for the next page.]"
            ))
        } else if self.offset > 0 {
            Some(format!("[Results {first}-{last}; that is the last page.]"))
        } else {
            None
        };
        let mut text = page
            .iter()
            .map(|e| e.as_str())
            .collect::<Vec<_>>()
            .join("\n");
        if !text.is_empty() {
            text.push('\n');
        }
        Some(Presented { text, note })
    }
}

fn default_find_limit() -> u32 {
    crate::search::query::DEFAULT_LIMIT as u32
}

/// Arguments of `find`: the ranked search over the core's index.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FindArgs {
    /// A question or a few words, in the user's own words (e.g. "how do I keep my notes in sync between devices").
    pub query: String,
    /// At most this many notes on one page (default 8, at most 50).
    #[serde(default = "default_find_limit")]
    #[schemars(range(min = 1, max = 50))]
    pub limit: u32,
    /// The `cursor` a previous page gave, with the same query, for the next page.
    pub cursor: Option<String>,
    /// Characters of each passage (default 600, 80 to 4000).
    #[schemars(range(min = 80, max = 4000))]
    pub budget: Option<u32>,
}

impl CommandArgs for FindArgs {
    /// The whole vault as an index: every hit is limited to the read scope
    /// before it is ranked (`engine::search`).
    fn reach(&self) -> Reach {
        Reach::listing(None, Output::Computed)
    }

    fn validate(&mut self) -> Result<(), String> {
        use crate::search::passage::{MAX_BUDGET, MIN_BUDGET};
        use crate::search::query::MAX_LIMIT as MAX_FIND;
        check_not_blank("query", &self.query)?;
        if !(1..=MAX_FIND as u32).contains(&self.limit) {
            return Err(format!(
                "`limit` must be between 1 and {MAX_FIND}; got {}. Use `cursor` for the next page",
                self.limit
            ));
        }
        if let Some(budget) = self.budget {
            if !(MIN_BUDGET as u32..=MAX_BUDGET as u32).contains(&budget) {
                return Err(format!(
                    "`budget` must be between {MIN_BUDGET} and {MAX_BUDGET} characters; got {budget}"
                ));
            }
        }
        Ok(())
    }

    fn plan(&self) -> Plan<'_> {
        Plan::Search(SearchRequest {
            query: self.query.clone(),
            limit: self.limit as usize,
            cursor: self.cursor.clone(),
            budget: self
                .budget
                .map_or(crate::search::DEFAULT_BUDGET, |b| b as usize),
        })
    }
}

pub fn tool() -> ToolSpec {
    ToolSpec {
        id: "obsidianSearch",
        display_name: "Search notes",
        description: "Find the passages that answer a question (the plugin's ranked index), or search the notes' text with Obsidian's search.",
        guidance: "For a question about what the notes say (\"what did I write about X?\"), use \
                   obsidianSearch `find` first, with the user's own words: it ranks the notes' \
                   sections and returns the passages that answer, each with its note and heading \
                   (read more with obsidianNotes `section`, path and heading as given; cite \
                   the notes you answer from as [[path#heading]]). Use \
                   `search` or `search:context` (Obsidian's search: every word must appear) for an \
                   exact phrase, a name or Obsidian's search syntax (`tag:`, `path:`). For tasks \
                   use obsidianTasks; for tags obsidianTags; for links obsidianLinks.",
        commands: vec![
            CommandSpec::new::<FindArgs>(
                "find",
                Access::Read,
                "Ranked search in natural language: the best passages, with their note and heading.",
            )
            .brief("best passages"),
            CommandSpec::new::<SearchArgs<false>>(
                "search",
                Access::Read,
                "List notes that match a query.",
            )
            .brief("notes matching"),
            CommandSpec::new::<SearchArgs<true>>(
                "search:context",
                Access::Read,
                "List matching lines with their note and line number.",
            )
            .brief("matching lines"),
        ],
        example: json!({"command": "find", "query": "when is the launch planned"}),
    }
}
