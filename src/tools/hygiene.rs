//! `obsidianHygiene`: checks over the whole vault, computed in the core
//! (`crate::hygiene`) from the CLI's listings and, where a check needs the
//! text, the notes read through Obsidian's vault in batches: duplicate
//! titles, empty notes, links to missing notes, backlink suggestions. None
//! of them is one CLI command, so each declares itself `computed`; none
//! changes the vault.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::shared::check_note_target;
use super::{CommandArgs, CommandSpec, ToolSpec};
use crate::base::call::{Access, NoteLocator};
use crate::base::vault_path::check_optional_folder;
use crate::hygiene::page::Page;
use crate::hygiene::{HygieneRequest, DEFAULT_COMPARISONS, DEFAULT_THRESHOLD, MAX_COMPARISONS};
use crate::policy::scope::{Output, Place, Reach};
use crate::tools::Plan;

/// Entries a report shows by default, and at most.
const DEFAULT_LIMIT: u32 = 50;
const MAX_LIMIT: u32 = 500;
/// Suggestions by default, and at most.
const DEFAULT_SUGGESTIONS: u32 = 8;
const MAX_SUGGESTIONS: u32 = 50;
/// The longest topic, in characters.
const MAX_TOPIC_CHARS: usize = 500;

/// The page a report shows: `limit` entries (default [`DEFAULT_LIMIT`]) from `offset`.
fn page(offset: Option<u32>, limit: Option<u32>) -> Page {
    Page {
        offset: offset.unwrap_or(0) as usize,
        limit: limit.unwrap_or(DEFAULT_LIMIT) as usize,
    }
}

fn check_limit(limit: Option<u32>, max: u32) -> Result<(), String> {
    match limit {
        Some(n) if n == 0 || n > max => {
            Err(format!("`limit` must be between 1 and {max}; got {n}"))
        }
        _ => Ok(()),
    }
}

/// Arguments of `duplicates`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DuplicatesArgs {
    /// Only notes in this folder (path from the vault root, e.g. "Projects"); default the whole vault.
    pub folder: Option<String>,
    /// How alike two titles must be to count as similar, from 0.5 to 1 (1 = the same after normalising); default 0.85.
    pub threshold: Option<f64>,
    /// The most pairs of titles compared for similarity (1 to 5000000; default 200000); the result says `truncated` when it ran out.
    #[serde(rename = "maxComparisons")]
    pub max_comparisons: Option<u32>,
    /// The most groups and pairs listed (1 to 500; default 50).
    pub limit: Option<u32>,
    /// Skip this many groups and pairs: the next page (a report with more says what to send).
    pub offset: Option<u32>,
}

impl CommandArgs for DuplicatesArgs {
    fn validate(&mut self) -> Result<(), String> {
        check_optional_folder("folder", &mut self.folder)?;
        if let Some(t) = self.threshold {
            if !(0.5..=1.0).contains(&t) {
                return Err(format!(
                    "`threshold` must be between 0.5 and 1 (e.g. 0.85); got {t}"
                ));
            }
        }
        if let Some(n) = self.max_comparisons {
            if n == 0 || n as usize > MAX_COMPARISONS {
                return Err(format!(
                    "`maxComparisons` must be between 1 and {MAX_COMPARISONS}; got {n}"
                ));
            }
        }
        check_limit(self.limit, MAX_LIMIT)
    }

    /// Titles come from the listing, limited to the read scope first.
    fn reach(&self) -> Reach {
        Reach::listing(self.folder.as_ref(), Output::Computed)
    }

    fn plan(&self) -> Plan<'_> {
        self.computed().map_or_else(Plan::read, Plan::Computed)
    }
}

impl DuplicatesArgs {
    pub fn computed(&self) -> Option<HygieneRequest> {
        Some(HygieneRequest::Duplicates {
            folder: self.folder.clone(),
            threshold: self.threshold.unwrap_or(DEFAULT_THRESHOLD),
            budget: self
                .max_comparisons
                .map_or(DEFAULT_COMPARISONS, |n| n as usize),
            page: page(self.offset, self.limit),
        })
    }
}

/// Arguments of `empty`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EmptyArgs {
    /// Only notes in this folder (path from the vault root); default the whole vault.
    pub folder: Option<String>,
    /// The most notes listed (1 to 500; default 50).
    pub limit: Option<u32>,
    /// Skip this many notes: the next page (a report with more says what to send).
    pub offset: Option<u32>,
}

impl CommandArgs for EmptyArgs {
    fn validate(&mut self) -> Result<(), String> {
        check_optional_folder("folder", &mut self.folder)?;
        check_limit(self.limit, MAX_LIMIT)
    }

    fn reach(&self) -> Reach {
        Reach::listing(self.folder.as_ref(), Output::Computed)
    }

    fn plan(&self) -> Plan<'_> {
        self.computed().map_or_else(Plan::read, Plan::Computed)
    }
}

impl EmptyArgs {
    pub fn computed(&self) -> Option<HygieneRequest> {
        Some(HygieneRequest::Empty {
            folder: self.folder.clone(),
            page: page(self.offset, self.limit),
        })
    }
}

/// Arguments of `missing`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MissingArgs {
    /// The most missing notes listed, most linked first (1 to 500; default 50).
    pub limit: Option<u32>,
    /// Skip this many missing notes: the next page (a report with more says what to send).
    pub offset: Option<u32>,
}

impl CommandArgs for MissingArgs {
    fn validate(&mut self) -> Result<(), String> {
        check_limit(self.limit, MAX_LIMIT)
    }

    /// The notes links come from are limited to the read scope.
    fn reach(&self) -> Reach {
        Reach::listing(None, Output::Computed)
    }

    fn plan(&self) -> Plan<'_> {
        self.computed().map_or_else(Plan::read, Plan::Computed)
    }
}

impl MissingArgs {
    pub fn computed(&self) -> Option<HygieneRequest> {
        Some(HygieneRequest::Missing {
            page: page(self.offset, self.limit),
        })
    }
}

/// Arguments of `suggest`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SuggestArgs {
    /// The note to find backlinks for, by name (resolved like a wikilink), e.g. "Q3 plan".
    pub file: Option<String>,
    /// The note to find backlinks for, by its exact path from the vault root.
    pub path: Option<String>,
    /// Instead of a note: a topic in words, e.g. "garden irrigation" or "会议记录" (`#tags` in it count as tags).
    pub topic: Option<String>,
    /// Only suggest notes in this folder (path from the vault root); default the whole vault.
    pub folder: Option<String>,
    /// The most suggestions (1 to 50; default 8).
    pub limit: Option<u32>,
}

impl CommandArgs for SuggestArgs {
    fn validate(&mut self) -> Result<(), String> {
        check_note_target(&mut self.file, &mut self.path)?;
        check_optional_folder("folder", &mut self.folder)?;
        let note = self.file.is_some() || self.path.is_some();
        match &self.topic {
            Some(_) if note => {
                return Err("give a note (`file` or `path`) or a `topic`, not both".into())
            }
            Some(topic) if topic.trim().is_empty() => {
                return Err("`topic` is empty; give a few words, e.g. \"garden irrigation\"".into())
            }
            Some(topic) if topic.chars().count() > MAX_TOPIC_CHARS => {
                return Err(format!(
                    "`topic` is longer than {MAX_TOPIC_CHARS} characters; give a few words"
                ))
            }
            Some(topic) if topic.chars().any(char::is_control) => {
                return Err("`topic` holds control characters; give plain words".into())
            }
            None if !note => {
                return Err(
                    "name the note with `file` or `path`, or give a `topic` in words".into(),
                )
            }
            _ => {}
        }
        check_limit(self.limit, MAX_SUGGESTIONS)
    }

    /// The note (when one is named) must be readable; the notes suggested
    /// come from the listing, limited to the read scope first.
    fn reach(&self) -> Reach {
        let mut places = vec![Place::Within(self.folder.clone())];
        if let Some(note) = NoteLocator::of(&self.file, &self.path) {
            places.insert(0, Place::Note(note));
        }
        Reach {
            places,
            output: Output::Computed,
        }
    }

    fn plan(&self) -> Plan<'_> {
        self.computed().map_or_else(Plan::read, Plan::Computed)
    }
}

impl SuggestArgs {
    pub fn computed(&self) -> Option<HygieneRequest> {
        Some(HygieneRequest::Suggest {
            note: NoteLocator::of(&self.file, &self.path),
            topic: self.topic.clone(),
            folder: self.folder.clone(),
            limit: self.limit.unwrap_or(DEFAULT_SUGGESTIONS) as usize,
        })
    }
}

pub fn tool() -> ToolSpec {
    ToolSpec {
        id: "obsidianHygiene",
        display_name: "Vault hygiene",
        description: "Check the vault's tidiness: duplicate or very similar note titles, empty notes, links to notes that do not exist, and notes that should link to a note or topic.",
        guidance: "Use obsidianHygiene to tidy the vault: `duplicates` (same or very similar titles), \
                   `empty` (notes with no text), `missing` (wiki links to notes that do not exist, \
                   with the notes they are written in), `suggest` (notes that mention a note or a \
                   topic but do not link to it, ranked, each with why). Each result says where \
                   its facts come from and whether a bound cut it short (`truncated`). To list \
                   links of one note use obsidianLinks; to fix a note use obsidianEdit after \
                   asking the user.",
        commands: vec![
            CommandSpec::new::<DuplicatesArgs>("duplicates", Access::Read, "Find notes with the same or very similar titles.")
                .brief("similar titles"),
            CommandSpec::new::<EmptyArgs>("empty", Access::Read, "Find notes with no text (or only properties).")
                .brief("notes without text"),
            CommandSpec::new::<MissingArgs>("missing", Access::Read, "List wiki links to notes that do not exist, with where they are written.")
                .brief("links to missing notes, and where"),
            CommandSpec::new::<SuggestArgs>("suggest", Access::Read, "Suggest notes that should link to a note or a topic, ranked, with why.")
                .brief("notes that should link here"),
        ],
        example: json!({"command": "duplicates"}),
    }
}
