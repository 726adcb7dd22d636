//! `obsidianTags`: tags in a note or across the vault, and adding or
//! removing one in a note (an edit with a diff card and undo).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::shared::{
    check_not_blank, check_note_target, describe_note, require_note_target, SortOrder, TableFormat,
};
use super::{CommandArgs, CommandSpec, NoteEditRequest, Presented, ToolSpec};
use crate::base::call::{Access, NoteLocator};
use crate::notes::edit::NoteEdit;
use crate::notes::tags::TagPlace;
use crate::policy::scope::{Output, Reach};
use crate::tools::Plan;
use crate::tools::Presents;

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
    /// Only tags used at least this many times (vault-wide lists; implies `counts`).
    #[serde(default, rename = "minCount", skip_serializing)]
    #[schemars(range(min = 1))]
    pub min_count: Option<u32>,
    /// At most this many tags; the answer says how many more there are.
    #[serde(default, skip_serializing)]
    #[schemars(range(min = 1))]
    pub limit: Option<u32>,
}

/// Arguments of `tag:add`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TagAddArgs {
    /// The note's name, resolved like a wikilink.
    pub file: Option<String>,
    /// The note's exact path from the vault root.
    pub path: Option<String>,
    /// The tag, with or without `#`, e.g. "project/active".
    pub tag: String,
    /// Add it as `#tag` at the end of the text instead of to the note's `tags` property.
    #[serde(default)]
    pub inline: bool,
}

/// Arguments of `tag:remove`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TagRemoveArgs {
    /// The note's name, resolved like a wikilink.
    pub file: Option<String>,
    /// The note's exact path from the vault root.
    pub path: Option<String>,
    /// The tag, with or without `#`; it leaves the `tags` property and the text (child tags like `tag/sub` stay).
    pub tag: String,
}

/// A tag as Obsidian allows it: letters, digits, `_`, `-`, `/` between parts,
/// not only digits.
fn check_tag(tag: &mut String) -> Result<(), String> {
    let trimmed = tag.trim().trim_start_matches('#').to_string();
    // The characters a tag may hold, as the notes' reader counts them
    // (emoji too: kepano's template vault tags notes `0🌲`).
    let ok = !trimmed.is_empty()
        && trimmed.chars().all(crate::notes::syntax::is_tag_char)
        && !trimmed.chars().all(|c| c.is_ascii_digit() || c == '/')
        && !trimmed.starts_with('/')
        && !trimmed.ends_with('/')
        && !trimmed.contains("//");
    if !ok {
        return Err(format!("`tag` must be a tag such as \"project\" or \"project/active\" (letters, digits, emoji, `_`, `-`, `/`; not only digits; no spaces or punctuation); got {tag:?}"));
    }
    *tag = trimmed;
    Ok(())
}

impl CommandArgs for TagAddArgs {
    fn validate(&mut self) -> Result<(), String> {
        require_note_target(&mut self.file, &mut self.path, "note")?;
        check_tag(&mut self.tag)
    }

    fn reach(&self) -> Reach {
        Reach::note(NoteLocator::of(&self.file, &self.path))
    }

    fn write_target(&self) -> Option<String> {
        describe_note(&self.file, &self.path)
    }

    fn plan(&self) -> Plan<'_> {
        self.note_edit().map_or_else(Plan::read, Plan::NoteEdit)
    }
}

impl TagAddArgs {
    pub fn note_edit(&self) -> Option<NoteEditRequest> {
        let place = if self.inline {
            TagPlace::Inline
        } else {
            TagPlace::Properties
        };
        Some(NoteEditRequest {
            locate: NoteLocator::of(&self.file, &self.path)?,
            edit: NoteEdit::AddTag {
                tag: self.tag.clone(),
                place,
            },
        })
    }
}

impl CommandArgs for TagRemoveArgs {
    fn validate(&mut self) -> Result<(), String> {
        require_note_target(&mut self.file, &mut self.path, "note")?;
        check_tag(&mut self.tag)
    }

    fn reach(&self) -> Reach {
        Reach::note(NoteLocator::of(&self.file, &self.path))
    }

    fn write_target(&self) -> Option<String> {
        describe_note(&self.file, &self.path)
    }

    fn plan(&self) -> Plan<'_> {
        self.note_edit().map_or_else(Plan::read, Plan::NoteEdit)
    }
}

impl TagRemoveArgs {
    pub fn note_edit(&self) -> Option<NoteEditRequest> {
        Some(NoteEditRequest {
            locate: NoteLocator::of(&self.file, &self.path)?,
            edit: NoteEdit::RemoveTag {
                tag: self.tag.clone(),
            },
        })
    }
}

impl TagsArgs {
    fn trims(&self) -> bool {
        self.min_count.is_some() || self.limit.is_some()
    }
}

impl CommandArgs for TagsArgs {
    fn validate(&mut self) -> Result<(), String> {
        check_note_target(&mut self.file, &mut self.path)?;
        if self.trims() {
            if self.total || matches!(self.format, Some(TableFormat::Json | TableFormat::Csv)) {
                return Err("`minCount` and `limit` work on the tag list in the default format; leave out `total` and `format`".into());
            }
            if self.min_count == Some(0) || self.limit == Some(0) {
                return Err("`minCount` and `limit` start at 1".into());
            }
            // Counting needs the counts.
            self.counts = self.counts || self.min_count.is_some();
        }
        Ok(())
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

    fn plan(&self) -> Plan<'_> {
        Plan::Read {
            present: Some(self),
        }
    }
}

impl Presents for TagsArgs {
    /// `#tag<TAB>count` lines, kept from `minCount` up and cut at `limit`.
    fn present(&self, output: &str) -> Option<Presented> {
        if !self.trims() {
            return None;
        }
        let min = self.min_count.unwrap_or(0);
        let kept: Vec<&str> = output
            .lines()
            .filter(|line| {
                let count = line
                    .rsplit('\t')
                    .next()
                    .and_then(|n| n.trim().parse::<u32>().ok());
                !line.trim().is_empty() && count.is_none_or(|n| n >= min)
            })
            .collect();
        let limit = self.limit.unwrap_or(u32::MAX) as usize;
        let shown = kept.len().min(limit);
        let mut text = kept[..shown].join("\n");
        if !text.is_empty() {
            text.push('\n');
        }
        let note = (shown < kept.len()).then(|| {
            format!(
                "[Showing {shown} of {} tags; raise `limit` or `minCount` to see others.]",
                kept.len()
            )
        });
        Some(Presented { text, note })
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
            false if self.verbose => Output::TagNotes,
            false => Output::PATHS,
        };
        Reach::listing(None, output)
    }
}

pub fn tool() -> ToolSpec {
    ToolSpec {
        id: "obsidianTags",
        display_name: "Tags",
        description: "List tags in the vault or a note, show how one tag is used, or add or remove a tag on a note.",
        guidance:
            "Use obsidianTags for tags: `tags all counts` for the vault's tags and how often \
                   each is used, `tags file=…` for one note's tags, `tag name=… verbose` for the \
                   notes that use a tag; `minCount` and `limit` shorten a long list. `tag:add` / \
                   `tag:remove` change one note's tags (the user approves a diff). To find notes \
                   by text use obsidianSearch.",
        commands: vec![
            CommandSpec::new::<TagsArgs>(
                "tags",
                Access::Read,
                "List tags, vault-wide or of one note.",
            )
                .brief(""),
            CommandSpec::new::<TagArgs>(
                "tag",
                Access::Read,
                "Show one tag: how often and where it is used.",
            )
                .brief("notes with it"),
            CommandSpec::new::<TagAddArgs>(
                "tag:add",
                Access::ConfirmedWrite,
                "Add a tag to a note's tags property (or inline), shown as a diff for the user to approve.",
            )
                .brief("")
            .confirm_as("Add a tag to")
            .idempotent(),
            CommandSpec::new::<TagRemoveArgs>(
                "tag:remove",
                Access::ConfirmedWrite,
                "Remove a tag from a note's tags property and text, shown as a diff for the user to approve.",
            )
                .brief("")
            .confirm_as("Remove a tag from")
            .idempotent(),
        ],
        example: json!({"command": "tags", "all": true, "counts": true}),
    }
}

#[cfg(test)]
mod tests {
    use super::check_tag;

    #[test]
    fn a_tag_is_what_the_notes_reader_counts_as_one() {
        for (given, kept) in [
            ("#0🌲", "0🌲"),
            ("☕", "☕"),
            (" project/active ", "project/active"),
            ("日本語", "日本語"),
        ] {
            let mut tag = given.to_string();
            assert_eq!(check_tag(&mut tag), Ok(()), "{given}");
            assert_eq!(tag, kept);
        }
        for bad in [
            "", "#", "2024", "a b", "a,b", "tag.", "/a", "a/", "a//b", "(x)",
        ] {
            assert!(check_tag(&mut bad.to_string()).is_err(), "{bad:?}");
        }
    }
}
