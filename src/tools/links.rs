//! `obsidianLinks`: the link graph: backlinks, outgoing links, orphans,
//! dead ends and unresolved links.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::shared::{check_note_target, check_page_limit, default_page, page_lines, TableFormat};
use super::{CommandArgs, CommandSpec, Plan, Presented, Presents, ToolSpec};
use crate::base::call::{Access, NoteLocator};
use crate::policy::scope::{LinePath, Output, Reach, Render};

/// Arguments of `backlinks`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BacklinksArgs {
    /// The note's name, resolved like a wikilink. Omit both `file` and `path` for the note open in Obsidian.
    pub file: Option<String>,
    /// The note's exact path from the vault root.
    pub path: Option<String>,
    /// Output format: json, tsv (default) or csv.
    pub format: Option<TableFormat>,
    /// Include how many links come from each note.
    #[serde(default)]
    pub counts: bool,
    /// Return only the count.
    #[serde(default)]
    pub total: bool,
}

impl CommandArgs for BacklinksArgs {
    fn validate(&mut self) -> Result<(), String> {
        check_note_target(&mut self.file, &mut self.path)
    }

    /// The note must be readable; the notes linking to it may lie anywhere,
    /// so they are filtered.
    fn reach(&self) -> Reach {
        let mut reach = Reach::note(NoteLocator::of(&self.file, &self.path));
        reach.output = match (self.total, self.format) {
            (true, _) => Output::TOTAL,
            (false, Some(TableFormat::Json)) => Output::json(Some("file"), Render::Json),
            (false, Some(TableFormat::Csv)) => Output::Unplaceable {
                fix: "Use the default format (tab-separated) or `format=json`, which the agent can split by folder.",
            },
            // Asked of the CLI as JSON: a name in the tab-separated form may hold a tab.
            (false, _) => Output::json(Some("file"), Render::BacklinkTable),
        };
        reach
    }
}

/// Arguments of `links`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinksArgs {
    /// The note's name, resolved like a wikilink. Omit both `file` and `path` for the note open in Obsidian.
    pub file: Option<String>,
    /// The note's exact path from the vault root.
    pub path: Option<String>,
    /// Return only the count.
    #[serde(default)]
    pub total: bool,
}

impl CommandArgs for LinksArgs {
    fn validate(&mut self) -> Result<(), String> {
        check_note_target(&mut self.file, &mut self.path)
    }

    /// The targets are link names written in the note itself, but a
    /// resolved one is printed as the path of the note it leads to, which
    /// may lie outside the allowed folders: those are filtered.
    fn reach(&self) -> Reach {
        let mut reach = Reach::note(NoteLocator::of(&self.file, &self.path));
        if !self.total {
            reach.output = Output::Links;
        }
        reach
    }
}

/// Arguments of `orphans` and `deadends`. `offset` and `limit` page what
/// the CLI lists (they are not CLI parameters).
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GraphListArgs {
    /// Return only the count.
    #[serde(default)]
    pub total: bool,
    /// Skip this many files (for the next page; the listing says what to send).
    #[serde(default, skip_serializing)]
    pub offset: u32,
    /// At most this many files (default 200, at most 1000).
    #[serde(default = "default_page", skip_serializing)]
    #[schemars(range(min = 1, max = 1000))]
    pub limit: u32,
}

impl CommandArgs for GraphListArgs {
    fn reach(&self) -> Reach {
        Reach::listing(None, Output::lines_or_total(self.total))
    }

    fn validate(&mut self) -> Result<(), String> {
        check_page_limit(self.limit)
    }

    fn plan(&self) -> Plan<'_> {
        Plan::Read {
            present: Some(self),
        }
    }
}

impl Presents for GraphListArgs {
    fn present(&self, output: &str) -> Option<Presented> {
        (!self.total).then(|| page_lines(output, self.offset, self.limit, "files"))
    }
}

/// Arguments of `unresolved`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnresolvedArgs {
    /// Output format: json, tsv (default) or csv.
    pub format: Option<TableFormat>,
    /// Include how often each missing note is linked.
    #[serde(default)]
    pub counts: bool,
    /// Include the note each link comes from.
    #[serde(default)]
    pub verbose: bool,
    /// Return only the count.
    #[serde(default)]
    pub total: bool,
    /// Skip this many links (for the next page; the listing says what to send). Tab-separated form only.
    #[serde(default, skip_serializing)]
    pub offset: u32,
    /// At most this many links (default 200, at most 1000). Tab-separated form only.
    #[serde(default = "default_page", skip_serializing)]
    #[schemars(range(min = 1, max = 1000))]
    pub limit: u32,
}

impl UnresolvedArgs {
    /// The tab-separated form is a line a link, so it pages; JSON and CSV
    /// come as the CLI prints them (within the output cap).
    fn pages(&self) -> bool {
        !self.total && matches!(self.format, None | Some(TableFormat::Tsv))
    }
}

impl Presents for UnresolvedArgs {
    fn present(&self, output: &str) -> Option<Presented> {
        self.pages()
            .then(|| page_lines(output, self.offset, self.limit, "links"))
    }
}

impl CommandArgs for UnresolvedArgs {
    fn validate(&mut self) -> Result<(), String> {
        check_page_limit(self.limit)
    }

    fn plan(&self) -> Plan<'_> {
        Plan::Read {
            present: Some(self),
        }
    }

    /// Only `verbose` in the tab-separated form names the note each link is
    /// written in (`link<TAB>note`); the other forms cannot be split by folder.
    fn reach(&self) -> Reach {
        let output = match (self.total, self.verbose, self.format) {
            (false, true, None | Some(TableFormat::Tsv)) => Output::Lines {
                path: LinePath::Last,
                subpath: false,
            },
            (true, _, _) => Output::TOTAL,
            _ => Output::Unplaceable {
                fix: "Add `verbose` and keep the default format (tab-separated), which names the note each link is written in.",
            },
        };
        Reach::listing(None, output)
    }
}

pub fn tool() -> ToolSpec {
    ToolSpec {
        id: "obsidianLinks",
        display_name: "Links",
        description: "Query the link graph: what links to a note, what it links to, orphans, dead ends and links to missing notes.",
        guidance: "Use obsidianLinks for questions about connections: `backlinks` (what links TO a \
                   note), `links` (what a note links to), `orphans` (files nothing links to), \
                   `deadends` (files that link nowhere; attachments included), `unresolved` (links to notes that do not \
                   exist). To read a note use obsidianNotes.",
        commands: vec![
            CommandSpec::new::<BacklinksArgs>("backlinks", Access::Read, "List notes that link to a note.")
                .brief(""),
            CommandSpec::new::<LinksArgs>("links", Access::Read, "List the links going out of a note.")
                .brief("outgoing"),
            CommandSpec::new::<GraphListArgs>("orphans", Access::Read, "List files (notes and attachments) that nothing links to.")
                .brief("files nothing links to"),
            CommandSpec::new::<GraphListArgs>("deadends", Access::Read, "List files (notes and attachments) that link to nothing.")
                .brief("files that link nowhere"),
            CommandSpec::new::<UnresolvedArgs>(
                "unresolved",
                Access::Read,
                "List links to notes that do not exist.",
            )
                .brief("links to missing notes"),
        ],
        example: json!({"command": "backlinks", "file": "Roadmap", "counts": true}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::scope::Place;

    fn reach(args: serde_json::Value) -> Reach {
        let spec = tool();
        let call = spec.parse_call(&args).unwrap();
        call.facts().unwrap().reach
    }

    #[test]
    fn backlinks_are_asked_as_json_so_the_notes_can_be_filtered_by_folder() {
        let spec = tool();
        let call = spec
            .parse_call(&json!({"command": "backlinks", "file": "Roadmap", "counts": true}))
            .unwrap();
        let argv = call.invocation(None).unwrap().to_argv().unwrap();
        assert_eq!(argv[0], "backlinks");
        assert!(argv.contains(&"file=Roadmap".to_string()), "{argv:?}");
        assert!(argv.contains(&"counts".to_string()), "{argv:?}");
        let named = call.facts().unwrap().reach;
        assert_eq!(
            named.places,
            [Place::Note(NoteLocator::Name("Roadmap".into()))]
        );
        assert_eq!(
            named.output,
            Output::json(Some("file"), Render::BacklinkTable)
        );
        // CSV cannot be split by folder; a count would include every folder.
        let csv = reach(json!({"command": "backlinks", "file": "Roadmap", "format": "csv"}));
        assert!(matches!(csv.output, Output::Unplaceable { .. }));
        let total = reach(json!({"command": "backlinks", "file": "Roadmap", "total": true}));
        assert_eq!(total.output, Output::TOTAL);
    }

    #[test]
    fn outgoing_links_are_filtered_and_graph_lists_cover_the_whole_vault() {
        assert_eq!(
            reach(json!({"command": "links", "path": "Projects/Plan.md"})).output,
            Output::Links
        );
        for command in ["orphans", "deadends"] {
            let listed = reach(json!({"command": command}));
            assert_eq!(listed.places, [Place::Within(None)]);
            assert_eq!(listed.output, Output::PATHS);
            assert_eq!(
                reach(json!({"command": command, "total": true})).output,
                Output::TOTAL
            );
        }
    }

    #[test]
    fn unresolved_links_can_be_filtered_only_when_each_names_its_note() {
        let verbose = reach(json!({"command": "unresolved", "verbose": true}));
        assert_eq!(
            verbose.output,
            Output::Lines {
                path: LinePath::Last,
                subpath: false
            }
        );
        for unplaceable in [
            json!({"command": "unresolved"}),
            json!({"command": "unresolved", "verbose": true, "format": "json"}),
        ] {
            assert!(
                matches!(
                    reach(unplaceable.clone()).output,
                    Output::Unplaceable { .. }
                ),
                "{unplaceable}"
            );
        }
    }

    #[test]
    fn a_note_is_named_by_file_or_path_not_both() {
        let spec = tool();
        assert!(spec
            .parse_call(&json!({"command": "backlinks", "file": "A", "path": "A.md"}))
            .is_err());
        assert!(spec
            .parse_call(&json!({"command": "links", "path": "../outside.md"}))
            .is_err());
    }
}
