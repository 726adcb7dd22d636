//! `obsidianTags`: tags in a note or across the vault.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::shared::{check_not_blank, check_note_target, SortOrder, TableFormat};
use super::{Access, CommandArgs, CommandSpec, NoteLocator, ToolSpec};
use crate::policy::scope::{Output, Reach};

/// Arguments of `tags`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TagsArgs {
    /// Tags of this note (its name, like a wikilink).
    pub file: Option<String>,
    /// Tags of the note at this exact path from the vault root.
    pub path: Option<String>,
    /// "count" to sort by how often each tag is used (default: by name).
    pub sort: Option<SortOrder>,
    /// Output format: json, tsv or csv.
    pub format: Option<TableFormat>,
    /// Every tag in the vault. Without `all`, `file` or `path` the CLI lists the tags of the note open in Obsidian.
    #[serde(default)]
    pub all: bool,
    /// Include how often each tag is used.
    #[serde(default)]
    pub counts: bool,
    /// Return only the number of tags.
    #[serde(default)]
    pub total: bool,
}

impl CommandArgs for TagsArgs {
    fn validate(&mut self) -> Result<(), String> {
        check_note_target(&mut self.file, &mut self.path)
    }

    fn reach(&self) -> Reach {
        match NoteLocator::of(&self.file, &self.path) {
            // Tag names and counts over the vault cannot be split by folder.
            None if self.all => Reach::listing(
                None,
                Output::Unplaceable {
                    fix: "Ask for the tags of a note in the allowed folders (`file` or `path`), or use `tag` with `verbose` to see which notes use one tag.",
                },
            ),
            note => Reach::note(note),
        }
    }
}

/// Arguments of `tag`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TagArgs {
    /// The tag, with or without `#`, e.g. "project" or "project/active".
    pub name: String,
    /// Return only how often it is used.
    #[serde(default)]
    pub total: bool,
    /// Include the notes that use it.
    #[serde(default)]
    pub verbose: bool,
}

impl CommandArgs for TagArgs {
    fn validate(&mut self) -> Result<(), String> {
        check_not_blank("name", &self.name)
    }

    /// The notes that use the tag, one path per line (`verbose` first prints
    /// `#tag<TAB>count`).
    fn reach(&self) -> Reach {
        let output = match self.total {
            true => Output::TOTAL,
            false => Output::Lines {
                column: 0,
                header: usize::from(self.verbose),
            },
        };
        Reach::listing(None, output)
    }
}

pub fn tool() -> ToolSpec {
    ToolSpec {
        id: "obsidianTags",
        display_name: "Tags (CLI)",
        description: "List tags in the vault or a note, or show how one tag is used.",
        guidance:
            "Use obsidianTags for tags: `tags all counts` for the vault's tags and how often \
                   each is used, `tags file=…` for one note's tags, `tag name=… verbose` for the \
                   notes that use a tag. To find notes by text use obsidianSearch.",
        commands: vec![
            CommandSpec::new::<TagsArgs>(
                "tags",
                Access::Read,
                "List tags, vault-wide or of one note.",
            ),
            CommandSpec::new::<TagArgs>(
                "tag",
                Access::Read,
                "Show one tag: how often and where it is used.",
            ),
        ],
        example: json!({"command": "tags", "all": true, "counts": true}),
    }
}
