//! `obsidianBookmarks`: list bookmarks and add one.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::shared::{check_not_blank, TableFormat};
use super::{CommandArgs, CommandSpec, ToolSpec, UndoKind};
use crate::base::call::{Access, Preview, ProbeResult};
use crate::base::error::ToolError;
use crate::base::vault_path::{check_vault_folder, check_vault_path};
use crate::cli::argv::CliInvocation;
use crate::policy::scope::{LinePath, Output, Place, Reach, Render};
use crate::tools::Previews;
use crate::tools::{Card, CliWrite, Plan};

/// Arguments of `bookmarks`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BookmarksArgs {
    /// Output format: json, tsv or csv.
    pub format: Option<TableFormat>,
    /// Include each bookmark's type and title.
    #[serde(default)]
    pub verbose: bool,
    /// Return only the number of bookmarks.
    #[serde(default)]
    pub total: bool,
}

impl CommandArgs for BookmarksArgs {
    /// Bookmarks of files and folders are placed by their path; searches,
    /// web addresses and groups have none, so they are withheld while reading
    /// is limited (the filter fails closed).
    fn reach(&self) -> Reach {
        let output = match (self.total, self.format, self.verbose) {
            (true, _, _) => Output::TOTAL,
            (false, Some(TableFormat::Json), _) => Output::json(Some("path"), Render::Json),
            (false, Some(TableFormat::Csv), _) => Output::Unplaceable {
                fix: "Use `format=json` or `verbose`, which the agent can split by folder.",
            },
            // `type<TAB>target[<TAB>title]`; a file's target may end in `#heading`.
            (false, _, true) => Output::Lines {
                path: LinePath::After(1),
                subpath: true,
            },
            (false, _, false) => Output::Lines {
                path: LinePath::Whole,
                subpath: true,
            },
        };
        Reach::listing(None, output)
    }
}

/// Arguments of `bookmark`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BookmarkArgs {
    /// A file to bookmark: its path from the vault root, e.g. "Projects/Plan.md".
    pub file: Option<String>,
    /// A heading or block inside `file`, e.g. "#Goals" or "#^abc123".
    pub subpath: Option<String>,
    /// A folder to bookmark (path from the vault root).
    pub folder: Option<String>,
    /// A search query to bookmark.
    pub search: Option<String>,
    /// A web address to bookmark (http or https).
    pub url: Option<String>,
    /// The bookmark's title.
    pub title: Option<String>,
}

impl CommandArgs for BookmarkArgs {
    /// A bookmark changes the bookmark list, not its target: the target must
    /// be readable.
    fn reach(&self) -> Reach {
        let places = [&self.file, &self.folder]
            .into_iter()
            .flatten()
            .map(|target| Place::Reference(target.clone()))
            .collect();
        Reach {
            places,
            output: Output::NoNoteText,
        }
    }

    fn validate(&mut self) -> Result<(), String> {
        let kinds = [&self.file, &self.folder, &self.search, &self.url];
        if kinds.iter().filter(|k| k.is_some()).count() != 1 {
            return Err(
                "give exactly one of `file`, `folder`, `search` or `url` to bookmark".into(),
            );
        }
        if self.subpath.is_some() && self.file.is_none() {
            return Err("`subpath` only goes with `file`".into());
        }
        if let Some(file) = &mut self.file {
            check_vault_path("file", file)?;
        }
        if let Some(subpath) = &self.subpath {
            if !subpath.starts_with('#') {
                return Err(format!(
                    "`subpath` starts with # (a heading) or #^ (a block); got {subpath:?}"
                ));
            }
        }
        if let Some(folder) = &mut self.folder {
            check_vault_folder("folder", folder)?;
        }
        if let Some(search) = &self.search {
            check_not_blank("search", search)?;
        }
        if let Some(url) = &self.url {
            let lower = url.to_ascii_lowercase();
            if !(lower.starts_with("https://") || lower.starts_with("http://")) {
                return Err(format!(
                    "`url` must be an http or https address; got {url:?}"
                ));
            }
        }
        Ok(())
    }

    fn write_target(&self) -> Option<String> {
        Some(format!("the bookmarks (adds {})", self.what()))
    }

    fn plan(&self) -> Plan<'_> {
        Plan::CliWrite(CliWrite {
            undo: self.undo_kind().unwrap_or(UndoKind::UNKNOWN),
            check: None,
            new_note: None,
            card: self.probe().map(|probe| Card {
                probe,
                exact_note: None,
                preview: self,
            }),
        })
    }
}

impl BookmarkArgs {
    /// Every bookmark as JSON, to tell whether this one is already there.
    pub fn probe(&self) -> Option<CliInvocation> {
        Some(CliInvocation::new("bookmarks").parameter("format", "json"))
    }

    pub fn undo_kind(&self) -> Option<UndoKind> {
        Some(UndoKind::Never {
            reason: "The Obsidian CLI has no command that removes a bookmark; remove it in Obsidian's Bookmarks view.",
        })
    }
}

impl Previews for BookmarkArgs {
    fn preview(&self, current: &ProbeResult) -> Result<Preview, ToolError> {
        let text = current.as_ref().map_err(Clone::clone)?;
        let items = bookmark_items(text)?;
        let mut count = 0;
        let found = self.find(&items, None, &mut count);
        let before = match found {
            Some(None) => "Already bookmarked; this adds a second bookmark of it".to_string(),
            Some(Some(group)) => format!(
                "Already bookmarked in group \"{group}\"; this adds a second bookmark of it"
            ),
            None if count == 1 => "Not bookmarked yet (1 bookmark now)".to_string(),
            None => format!("Not bookmarked yet ({count} bookmarks now)"),
        };
        let title = self
            .title
            .as_ref()
            .map(|t| format!(", titled \"{t}\""))
            .unwrap_or_default();
        Ok(Preview {
            target: self.write_target().unwrap_or_default(),
            before,
            after: format!("Bookmarked: {}{title}", self.what()),
            diff: None,
            warning: None,
        })
    }
}

impl BookmarkArgs {
    /// What is bookmarked, in words; validate() guarantees exactly one thing.
    fn what(&self) -> String {
        [
            self.file
                .as_ref()
                .map(|f| format!("\"{f}{}\"", self.subpath.as_deref().unwrap_or(""))),
            self.folder.as_ref().map(|f| format!("folder \"{f}\"")),
            self.search.as_ref().map(|s| format!("search \"{s}\"")),
            self.url.clone(),
        ]
        .into_iter()
        .flatten()
        .next()
        .unwrap_or_default()
    }

    /// Whether a bookmark of the same thing exists: `Some(group)` when it
    /// does (`None` at the top level). Counts every bookmark on the way.
    fn find(
        &self,
        items: &[Value],
        group: Option<&str>,
        count: &mut usize,
    ) -> Option<Option<String>> {
        let mut found = None;
        for item in items {
            let field = |key: &str| item.get(key).and_then(Value::as_str);
            if field("type") == Some("group") {
                let inner = item.get("items").and_then(Value::as_array);
                let title = field("title").unwrap_or("");
                if let Some(hit) = inner.and_then(|inner| self.find(inner, Some(title), count)) {
                    found = found.or(Some(hit));
                }
                continue;
            }
            *count += 1;
            let same = match field("type") {
                Some("file") => self.file.as_deref().is_some_and(|file| {
                    let path = field("path").unwrap_or("");
                    (path == file || path.strip_suffix(".md") == Some(file))
                        && field("subpath").unwrap_or("") == self.subpath.as_deref().unwrap_or("")
                }),
                Some("folder") => self.folder.as_deref().is_some_and(|f| {
                    field("path").map(|p| p.trim_end_matches('/')) == Some(f.trim_end_matches('/'))
                }),
                Some("search") => self.search.is_some() && field("query") == self.search.as_deref(),
                Some("url") => self.url.is_some() && field("url") == self.url.as_deref(),
                _ => false,
            };
            if same && found.is_none() {
                found = Some(group.map(String::from));
            }
        }
        found
    }
}

/// The bookmarks `bookmarks format=json` printed. Output that is not that
/// list is no preview: the card must not guess whether it is there.
fn bookmark_items(text: &str) -> Result<Vec<Value>, ToolError> {
    let text = text.trim();
    if text.is_empty() || text == "No bookmarks found." {
        return Ok(Vec::new());
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Array(items)) => Ok(items),
        Ok(Value::Object(mut doc)) => match doc.remove("items") {
            Some(Value::Array(items)) => Ok(items),
            _ => Err(unreadable_bookmarks()),
        },
        _ => Err(unreadable_bookmarks()),
    }
}

fn unreadable_bookmarks() -> ToolError {
    ToolError::CliError {
        output: "the bookmarks could not be read as a list (`bookmarks format=json` printed something else), so there is no preview of this bookmark".into(),
        hint: Some("Nothing was changed. Check the bookmarks with `bookmarks verbose`.".into()),
    }
}

pub fn tool() -> ToolSpec {
    ToolSpec {
        id: "obsidianBookmarks",
        display_name: "Bookmarks",
        description:
            "List the user's bookmarks or add one (a file, heading, folder, search or web address).",
        guidance:
            "Use obsidianBookmarks to see what the user bookmarked (`bookmarks verbose`) or to \
                   add a bookmark when asked (`bookmark` with exactly one of `file`, `folder`, \
                   `search` or `url`).",
        commands: vec![
            CommandSpec::new::<BookmarksArgs>("bookmarks", Access::Read, "List bookmarks.")
                .brief(""),
            CommandSpec::new::<BookmarkArgs>("bookmark", Access::DirectWrite, "Add a bookmark.")
                .brief("add one")
                .confirm_as("Update"),
        ],
        example: json!({"command": "bookmarks", "verbose": true}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIST: &str = r##"[
        {"type": "file", "path": "Projects/Launch plan.md"},
        {"type": "file", "path": "Projects/Roadmap.md", "subpath": "#Q2", "title": "Q2 roadmap"},
        {"type": "group", "title": "Reading", "items": [
            {"type": "url", "url": "https://obsidian.md"},
            {"type": "search", "query": "tag:#meeting"}
        ]},
        {"type": "folder", "path": "Ideas"}
    ]"##;

    fn bookmark(json: Value) -> BookmarkArgs {
        let mut args: BookmarkArgs = serde_json::from_value(json).unwrap();
        args.validate().unwrap();
        args
    }

    fn before(json: Value) -> String {
        bookmark(json).preview(&Ok(LIST.into())).unwrap().before
    }

    #[test]
    fn the_preview_says_whether_it_is_already_there() {
        assert_eq!(
            before(json!({"file": "Projects/Launch plan.md"})),
            "Already bookmarked; this adds a second bookmark of it"
        );
        assert_eq!(
            before(json!({"file": "Projects/Roadmap.md", "subpath": "#Q2"})),
            "Already bookmarked; this adds a second bookmark of it"
        );
        assert_eq!(
            before(json!({"url": "https://obsidian.md"})),
            "Already bookmarked in group \"Reading\"; this adds a second bookmark of it"
        );
        assert!(before(json!({"search": "tag:#meeting"})).contains("group \"Reading\""));
        assert!(before(json!({"folder": "Ideas"})).starts_with("Already"));
        for new in [
            json!({"file": "Projects/Roadmap.md"}),
            json!({"file": "Projects/Roadmap.md", "subpath": "#Q3"}),
            json!({"search": "https://obsidian.md"}),
            json!({"folder": "Projects"}),
        ] {
            assert_eq!(
                before(new.clone()),
                "Not bookmarked yet (5 bookmarks now)",
                "{new}"
            );
        }
        let preview = bookmark(json!({"url": "https://example.com", "title": "Example"}))
            .preview(&Ok("No bookmarks found.".into()))
            .unwrap();
        assert_eq!(preview.target, "the bookmarks (adds https://example.com)");
        assert_eq!(preview.before, "Not bookmarked yet (0 bookmarks now)");
        assert_eq!(
            preview.after,
            "Bookmarked: https://example.com, titled \"Example\""
        );
    }

    #[test]
    fn output_that_is_not_a_list_is_no_preview() {
        let args = bookmark(json!({"folder": "Ideas"}));
        for text in ["Projects/Launch plan.md\nIdeas", "{\"items\": 3}", "ok"] {
            let err = args.preview(&Ok(text.into())).unwrap_err();
            assert!(
                err.to_string().contains("could not be read as a list"),
                "{text}: {err}"
            );
        }
        let failed = ToolError::Timeout { timeout_ms: 15000 };
        assert_eq!(args.preview(&Err(failed.clone())).unwrap_err(), failed);
        assert_eq!(
            args.probe().unwrap().to_argv().unwrap(),
            ["bookmarks", "format=json"]
        );
    }
}
