//! `obsidianBookmarks`: list bookmarks and add one.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::shared::{check_not_blank, TableFormat};
use super::{Access, CommandArgs, CommandSpec, ToolSpec};
use crate::policy::paths::{check_vault_folder, check_vault_path};

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

impl CommandArgs for BookmarksArgs {}

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
        // validate() guarantees exactly one thing to bookmark.
        let what = [
            self.file
                .as_ref()
                .map(|f| format!("\"{f}{}\"", self.subpath.as_deref().unwrap_or(""))),
            self.folder.as_ref().map(|f| format!("folder \"{f}\"")),
            self.search.as_ref().map(|s| format!("search \"{s}\"")),
            self.url.clone(),
        ];
        what.into_iter()
            .flatten()
            .next()
            .map(|w| format!("the bookmarks (adds {w})"))
    }
}

pub fn tool() -> ToolSpec {
    ToolSpec {
        id: "obsidianBookmarks",
        display_name: "Bookmarks (CLI)",
        description:
            "List the user's bookmarks or add one (a file, heading, folder, search or web address).",
        guidance:
            "Use obsidianBookmarks to see what the user bookmarked (`bookmarks verbose`) or to \
                   add a bookmark when asked (`bookmark` with exactly one of `file`, `folder`, \
                   `search` or `url`).",
        commands: vec![
            CommandSpec::new::<BookmarksArgs>("bookmarks", Access::Read, "List bookmarks."),
            CommandSpec::new::<BookmarkArgs>("bookmark", Access::DirectWrite, "Add a bookmark."),
        ],
        example: json!({"command": "bookmarks", "verbose": true}),
    }
}
