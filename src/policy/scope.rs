//! Folder scopes: which folders the agent may read and which it may change.
//!
//! Every command declares its [`Reach`]: the places it reads or changes
//! (a note, a folder it lists, a new note's path) and the shape of what it
//! prints. [`check`] decides from those facts and the user's two folder lists
//! before any process starts. Names the CLI resolves (`file=`, today's daily
//! note) cannot be placed from the text alone: the check asks the core to look
//! them up first ([`ScopeCheck::Resolve`]), and the core then runs the command
//! on the exact path it checked. What vault-wide commands print is filtered
//! line by line ([`filter`]); a line that cannot be placed in an allowed folder
//! is withheld, never shown.

use serde_json::Value;

use crate::error::ToolError;
use crate::policy::paths;
use crate::settings::Settings;
use crate::tools::{Access, NoteLocator};

/// Stands in a folder list whose stored value was unusable: no path can lie
/// inside it (paths never hold `:`), so a broken list reaches nothing rather
/// than the whole vault.
pub const NO_FOLDER: &str = "(no folder: fix this list)";

/// Where one call reaches, as its command declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reach {
    pub places: Vec<Place>,
    pub output: Output,
}

impl Reach {
    /// Reads or changes one note and prints only what comes from it.
    pub fn note(locate: Option<NoteLocator>) -> Self {
        Reach {
            places: vec![locate.map_or(Place::OpenNote, Place::Note)],
            output: Output::FromPlaces,
        }
    }

    /// Lists across the vault, or one folder of it, in this shape.
    pub fn listing(folder: Option<&String>, output: Output) -> Self {
        Reach {
            places: vec![Place::Within(folder.cloned())],
            output,
        }
    }

    /// Touches no note and prints nothing from one (template names, a path).
    pub fn no_notes() -> Self {
        Reach {
            places: Vec::new(),
            output: Output::NoNoteText,
        }
    }
}

/// One place a call names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// A note the call reads or changes.
    Note(NoteLocator),
    /// No note named: the CLI would use the one open in Obsidian, which may be
    /// anywhere.
    OpenNote,
    /// A folder the call lists (`None`: the whole vault); what it prints is
    /// filtered.
    Within(Option<String>),
    /// A folder the call picks one note from and prints it whole
    /// (`random:read`): it must lie inside the read scope.
    PickFrom(Option<String>),
    /// A note the call creates at this path; `None`: the CLI chooses the folder
    /// (`create name=`, `base:create`).
    NewNote(Option<String>),
    /// A base named like a wikilink, which the CLI resolves.
    BaseName(String),
    /// A file or folder the call names without reading or changing it (a
    /// bookmark's target): it must be readable.
    Reference(String),
}

/// The shape of what a command prints, which says how to filter it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// Everything comes from the places checked (a note's text, its outline).
    FromPlaces,
    /// Nothing from any note (template names, today's note's path, a
    /// write's confirmation line).
    NoNoteText,
    /// One entry per line, placed by the path in tab-separated `column`
    /// (a `#heading` after the path is ignored); the first `header` lines are
    /// kept as they are (`tag verbose`'s `#tag\tN`).
    Lines { column: usize, header: usize },
    /// `path:line: text` lines (`search:context`).
    PathThenColon,
    /// A path line, its indented lines, a blank line (`tasks verbose`).
    Grouped,
    /// A JSON array of paths (`key` None) or of objects with the path at `key`.
    JsonItems { key: Option<&'static str> },
    /// The first line is the path of the note printed after it (`random:read`).
    FirstLinePath,
    /// Computed in the core from inputs it has already limited to the read
    /// scope (the hygiene checks): nothing to filter afterwards.
    Computed,
    /// Cannot be split by folder (vault-wide counts, tag and property names);
    /// refused while reading is limited, with `fix` naming a form that can.
    Unplaceable { fix: &'static str },
}

impl Output {
    /// `total` over the vault: a count cannot be split by folder.
    pub const TOTAL: Output = Output::Unplaceable {
        fix: "Leave out `total` and count the list instead: a count over the vault would include folders the agent may not read.",
    };

    /// A list of paths, one per line, or its `total`.
    pub fn lines_or_total(total: bool) -> Output {
        if total {
            Output::TOTAL
        } else {
            Output::Lines {
                column: 0,
                header: 0,
            }
        }
    }
}

/// The outcome of a scope check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScopeCheck {
    /// The call may run; filter what it prints with this shape, if any.
    Allowed(Option<Output>),
    /// This note must be looked up first (its path is not in the call).
    Resolve(NoteLocator),
}

/// Notes the core looked up for a check: what each name or today's note
/// stands for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resolved {
    pub notes: Vec<(NoteLocator, String)>,
}

impl Resolved {
    fn path_of(&self, locate: &NoteLocator) -> Option<&str> {
        self.notes
            .iter()
            .find(|(l, _)| l == locate)
            .map(|(_, path)| path.as_str())
    }
}

/// A list of folders; empty means the whole vault.
#[derive(Clone, Copy, Debug)]
pub struct FolderScope<'a> {
    folders: &'a [String],
}

impl<'a> FolderScope<'a> {
    pub fn new(folders: &'a [String]) -> Self {
        FolderScope { folders }
    }

    pub fn is_whole_vault(&self) -> bool {
        self.folders.is_empty()
    }

    /// True when `path` (a file or folder from the vault root) lies in one of
    /// the folders, or is one. Compared exactly, case included: on a file
    /// system that ignores case a differently cased path is refused though it
    /// would be the same file, which is the safe way to be wrong.
    pub fn contains(&self, path: &str) -> bool {
        if self.is_whole_vault() {
            return true;
        }
        let path = paths::nfc(path.trim_start_matches("./"));
        self.folders.iter().any(|folder| inside(&path, folder))
    }

    /// True when a listing of `folder` can show something allowed: the folder
    /// is inside the scope, or holds one of its folders.
    pub fn overlaps(&self, folder: &str) -> bool {
        self.contains(folder) || self.folders.iter().any(|allowed| inside(allowed, folder))
    }

    /// The folders, as the user wrote them, for messages.
    pub fn describe(&self) -> String {
        self.folders
            .iter()
            .map(|f| format!("\"{f}\""))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// True when `path` is `folder` or lies under it.
fn inside(path: &str, folder: &str) -> bool {
    path == folder
        || (path.len() > folder.len()
            && path.starts_with(folder)
            && path.as_bytes()[folder.len()] == b'/')
}

/// The read scope and the write scope of the settings.
struct Scopes<'a> {
    read: FolderScope<'a>,
    write: FolderScope<'a>,
}

/// Decides whether a call's reach fits the user's folder scopes. `access` is
/// what the call does (a write's places must be readable and changeable).
pub fn check(
    command: &str,
    reach: &Reach,
    access: Access,
    settings: &Settings,
    resolved: &Resolved,
) -> Result<ScopeCheck, ToolError> {
    let scopes = Scopes {
        read: FolderScope::new(&settings.read_folders),
        write: FolderScope::new(&settings.write_folders),
    };
    let writes = access.is_write();
    // What a place must satisfy: readable, and changeable for writes.
    let limited = !scopes.read.is_whole_vault() || (writes && !scopes.write.is_whole_vault());
    if !limited {
        return Ok(ScopeCheck::Allowed(None));
    }
    let refuse = |place: String, change: bool, fix: String| {
        let scope = if change { scopes.write } else { scopes.read };
        ToolError::OutOfScope {
            command: command.to_string(),
            place,
            verb: if change { "change" } else { "read" },
            folders: scope.describe(),
            fix,
        }
    };
    let place_path = |path: &str, shown: String| -> Result<(), ToolError> {
        if !scopes.read.contains(path) {
            return Err(refuse(shown, false, pick_another(scopes.read)));
        }
        if writes && !scopes.write.contains(path) {
            return Err(refuse(shown, true, pick_another(scopes.write)));
        }
        Ok(())
    };
    for place in &reach.places {
        match place {
            Place::Note(locate) => {
                let path = match locate {
                    NoteLocator::Path(path) => path.as_str(),
                    other => match resolved.path_of(other) {
                        Some(path) => path,
                        None => return Ok(ScopeCheck::Resolve(other.clone())),
                    },
                };
                place_path(path, shown_note(locate, path, resolved))?;
            }
            Place::OpenNote => {
                return Err(refuse(
                    "the note open in Obsidian".into(),
                    writes && !scopes.write.is_whole_vault(),
                    "Name the note with `path` (its exact path from the vault root) or `file`, so it can be checked against the allowed folders.".into(),
                ))
            }
            Place::Within(None) => {}
            Place::Within(Some(folder)) => {
                if !scopes.read.overlaps(folder) {
                    return Err(refuse(
                        format!("the folder \"{folder}\""),
                        false,
                        pick_another(scopes.read),
                    ));
                }
            }
            Place::PickFrom(folder) => {
                let inside = folder.as_deref().is_some_and(|f| scopes.read.contains(f));
                if !inside {
                    let shown = folder.as_ref().map_or_else(
                        || "the whole vault".to_string(),
                        |f| format!("the folder \"{f}\""),
                    );
                    return Err(refuse(
                        shown,
                        false,
                        format!(
                            "Give `folder`: one of {} or a folder inside them.",
                            scopes.read.describe()
                        ),
                    ));
                }
            }
            Place::NewNote(Some(path)) => place_path(path, format!("\"{path}\""))?,
            Place::NewNote(None) => {
                let change = !scopes.write.is_whole_vault();
                let scope = if change { scopes.write } else { scopes.read };
                return Err(refuse(
                    "a new note in a folder Obsidian chooses".into(),
                    change,
                    format!(
                        "Create it with obsidianEdit `create` and a `path` inside {}.",
                        scope.describe()
                    ),
                ));
            }
            Place::BaseName(name) => {
                return Err(refuse(
                    format!("the base \"{name}\""),
                    false,
                    "Name the base with `path` (obsidianBases `bases` lists their paths), so it can be checked against the allowed folders.".into(),
                ))
            }
            Place::Reference(path) => {
                if !scopes.read.contains(path) {
                    return Err(refuse(format!("\"{path}\""), false, pick_another(scopes.read)));
                }
            }
        }
    }
    if scopes.read.is_whole_vault() {
        return Ok(ScopeCheck::Allowed(None));
    }
    match &reach.output {
        Output::FromPlaces | Output::NoNoteText | Output::Computed => Ok(ScopeCheck::Allowed(None)),
        Output::Unplaceable { fix } => Err(refuse(
            "the whole vault (this form of the command cannot be split by folder)".into(),
            false,
            (*fix).to_string(),
        )),
        shape => Ok(ScopeCheck::Allowed(Some(shape.clone()))),
    }
}

fn pick_another(scope: FolderScope<'_>) -> String {
    format!(
        "Work with notes in {} instead, or ask the user to allow this folder in Settings → Vault Agent → Folders.",
        scope.describe()
    )
}

/// A note as the refusal names it: the model's own words for a name (also
/// once the name was replaced by its path), so a refusal does not tell where
/// a note outside the scope lies.
fn shown_note(locate: &NoteLocator, path: &str, resolved: &Resolved) -> String {
    let named = resolved.notes.iter().find_map(|(l, p)| match l {
        NoteLocator::Name(name) if p == path => Some(name),
        _ => None,
    });
    match (locate, named) {
        (NoteLocator::Path(_), Some(name)) => format!("the note \"{name}\""),
        (NoteLocator::Path(_), None) => format!("\"{path}\""),
        (NoteLocator::Name(name), _) => format!("the note \"{name}\""),
        (NoteLocator::Daily, _) => "today's daily note".into(),
    }
}

/// What a filtered output kept, and how many entries it withheld.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filtered {
    pub text: String,
    pub withheld: usize,
}

/// Keeps what lies in the read scope. Entries that cannot be placed are
/// withheld too: the filter fails closed. The CLI's own "No … found"
/// answers carry nothing from notes and stay.
pub fn filter(text: &str, shape: &Output, settings: &Settings) -> Filtered {
    let scope = FolderScope::new(&settings.read_folders);
    if scope.is_whole_vault() {
        return Filtered {
            text: text.to_string(),
            withheld: 0,
        };
    }
    if is_empty_answer(text) {
        return Filtered {
            text: text.to_string(),
            withheld: 0,
        };
    }
    match shape {
        Output::FromPlaces | Output::NoNoteText | Output::Computed | Output::Unplaceable { .. } => {
            Filtered {
                text: text.to_string(),
                withheld: 0,
            }
        }
        Output::Lines { column, header } => filter_lines(text, *header, |line| {
            line.split('\t')
                .nth(*column)
                .is_some_and(|path| scope.contains(without_subpath(path)))
        }),
        Output::PathThenColon => filter_lines(text, 0, |line| {
            line.split_once(':')
                .is_some_and(|(path, _)| scope.contains(path))
        }),
        Output::Grouped => filter_groups(text, scope),
        Output::JsonItems { key } => filter_json(text, *key, scope),
        Output::FirstLinePath => {
            let first = text.lines().next().unwrap_or("").trim();
            if scope.contains(first) {
                Filtered {
                    text: text.to_string(),
                    withheld: 0,
                }
            } else {
                Filtered {
                    text: String::new(),
                    withheld: 1,
                }
            }
        }
    }
}

/// The CLI's answers for "nothing": `No matches found.`, `No tasks found.`,
/// `No base files found in vault`, an empty JSON list.
fn is_empty_answer(text: &str) -> bool {
    let text = text.trim();
    text == "[]" || (text.starts_with("No ") && !text.contains('\n') && text.contains(" found"))
}

/// `Projects/Roadmap.md#Q2` is placed as `Projects/Roadmap.md`.
fn without_subpath(path: &str) -> &str {
    path.split_once('#').map_or(path, |(p, _)| p).trim()
}

fn filter_lines(text: &str, header: usize, keep: impl Fn(&str) -> bool) -> Filtered {
    let mut kept = Vec::new();
    let mut withheld = 0;
    for (index, line) in text.lines().enumerate() {
        if index < header || keep(line) {
            kept.push(line);
        } else if !line.trim().is_empty() {
            withheld += 1;
        }
    }
    Filtered {
        text: joined(kept, text),
        withheld,
    }
}

/// `tasks verbose`: a group is its path line and the indented lines under it.
fn filter_groups(text: &str, scope: FolderScope<'_>) -> Filtered {
    let mut kept = Vec::new();
    let mut withheld = 0;
    let mut keeping = false;
    for line in text.lines() {
        let indented = line.starts_with(' ') || line.starts_with('\t');
        if line.trim().is_empty() {
            if keeping {
                kept.push(line);
            }
        } else if !indented {
            keeping = scope.contains(line.trim());
            if keeping {
                kept.push(line);
            } else {
                withheld += 1;
            }
        } else if keeping {
            kept.push(line);
        }
    }
    Filtered {
        text: joined(kept, text),
        withheld,
    }
}

fn filter_json(text: &str, key: Option<&str>, scope: FolderScope<'_>) -> Filtered {
    let Ok(Value::Array(items)) = serde_json::from_str::<Value>(text) else {
        // Not the list this shape promises: nothing of it can be placed.
        return Filtered {
            text: String::new(),
            withheld: text.lines().filter(|l| !l.trim().is_empty()).count().max(1),
        };
    };
    let total = items.len();
    let kept: Vec<Value> = items
        .into_iter()
        .filter(|item| {
            let path = match key {
                None => item.as_str(),
                Some(key) => item.get(key).and_then(Value::as_str),
            };
            path.is_some_and(|p| scope.contains(without_subpath(p)))
        })
        .collect();
    let withheld = total - kept.len();
    let kept = Value::Array(kept);
    let mut out = if text.trim_start().starts_with("[\n") {
        serde_json::to_string_pretty(&kept)
    } else {
        serde_json::to_string(&kept)
    }
    .expect("JSON values serialize");
    if text.ends_with('\n') {
        out.push('\n');
    }
    Filtered {
        text: out,
        withheld,
    }
}

/// Lines joined as the CLI wrote them (its final line ending kept).
fn joined(lines: Vec<&str>, original: &str) -> String {
    let mut out = lines.join("\n");
    if !out.is_empty() && original.ends_with('\n') {
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(read: &[&str], write: &[&str]) -> Settings {
        Settings {
            read_folders: read.iter().map(|f| f.to_string()).collect(),
            write_folders: write.iter().map(|f| f.to_string()).collect(),
            ..Settings::default()
        }
    }

    #[test]
    fn a_folder_holds_what_lies_under_it_and_nothing_that_only_starts_like_it() {
        let folders = ["Projects".to_string(), "Areas/Work".to_string()];
        let scope = FolderScope::new(&folders);
        for inside in [
            "Projects",
            "Projects/Plan.md",
            "Projects/2026/Q1.md",
            "./Projects/Plan.md",
            "Areas/Work/Notes.md",
        ] {
            assert!(scope.contains(inside), "{inside}");
        }
        for outside in [
            "Projects2/Plan.md",
            "Projects Archive/Plan.md",
            "projects/Plan.md",
            "Areas/Workshop.md",
            "Areas",
            "Plan.md",
            "",
        ] {
            assert!(!scope.contains(outside), "{outside}");
        }
        // A listing of a folder above an allowed one can show something.
        assert!(scope.overlaps("Areas"));
        assert!(scope.overlaps("Projects/2026"));
        assert!(!scope.overlaps("Archive"));
        assert!(FolderScope::new(&[]).contains("anything/at all.md"));
        // The stand-in for a broken list holds nothing.
        let none = [NO_FOLDER.to_string()];
        assert!(!FolderScope::new(&none).contains("Projects/Plan.md"));
    }

    #[test]
    fn decomposed_paths_are_placed_as_composed_ones() {
        let folders = ["Caf\u{e9}".to_string()];
        assert!(FolderScope::new(&folders).contains("Cafe\u{301}/Menu.md"));
    }

    #[test]
    fn every_output_shape_keeps_only_what_lies_inside() {
        let s = settings(&["Projects"], &[]);
        let cases: [(Output, &str, &str, usize); 8] = [
            (
                Output::Lines { column: 0, header: 0 },
                "Ideas/A.md\nProjects/B.md\nProjects2/C.md\n",
                "Projects/B.md\n",
                2,
            ),
            (
                Output::Lines { column: 1, header: 0 },
                "Missing\tIdeas/A.md\nMissing\tProjects/B.md\n",
                "Missing\tProjects/B.md\n",
                1,
            ),
            (
                Output::Lines { column: 0, header: 1 },
                "#project\t3\nProjects/A.md\nIdeas/B.md\n",
                "#project\t3\nProjects/A.md\n",
                1,
            ),
            (
                // A bookmark's heading does not move it.
                Output::Lines { column: 1, header: 0 },
                "file\tProjects/R.md#Q2\tQ2\nsearch\ttag:#x\n  url\thttps://x\n",
                "file\tProjects/R.md#Q2\tQ2\n",
                2,
            ),
            (
                Output::PathThenColon,
                "Ideas/A.md:3: secret\nProjects/B.md:9: plan: yes\n",
                "Projects/B.md:9: plan: yes\n",
                1,
            ),
            (
                Output::Grouped,
                "Ideas/A.md\n  L3: - [ ] secret\n\nProjects/B.md\n  L9: - [ ] plan\n\n",
                "Projects/B.md\n  L9: - [ ] plan\n\n",
                1,
            ),
            (
                Output::JsonItems { key: None },
                "[\"Ideas/A.md\",\"Projects/B.md\"]",
                "[\"Projects/B.md\"]",
                1,
            ),
            (
                Output::JsonItems { key: Some("path") },
                "[\n  {\n    \"path\": \"Ideas/A.md\"\n  },\n  {\n    \"path\": \"Projects/B.md\"\n  },\n  {\n    \"text\": \"no path\"\n  }\n]\n",
                "[\n  {\n    \"path\": \"Projects/B.md\"\n  }\n]\n",
                2,
            ),
        ];
        for (shape, text, kept, withheld) in cases {
            let out = filter(text, &shape, &s);
            assert_eq!(out.text, kept, "{shape:?}");
            assert_eq!(out.withheld, withheld, "{shape:?}");
        }
        // A random note from outside is withheld whole.
        let out = filter("Ideas/A.md\n\nsecret text\n", &Output::FirstLinePath, &s);
        assert_eq!((out.text.as_str(), out.withheld), ("", 1));
        let kept = filter("Projects/A.md\n\nplan\n", &Output::FirstLinePath, &s);
        assert_eq!(kept.text, "Projects/A.md\n\nplan\n");
        // Output that is not the promised JSON list shows nothing.
        let out = filter("Ideas/A.md secret", &Output::JsonItems { key: None }, &s);
        assert_eq!((out.text.as_str(), out.withheld), ("", 1));
        // "Nothing found" answers carry nothing from notes.
        for empty in [
            "No matches found.\n",
            "No tasks found.",
            "[]\n",
            "No base files found in vault",
        ] {
            let out = filter(
                empty,
                &Output::Lines {
                    column: 0,
                    header: 0,
                },
                &s,
            );
            assert_eq!((out.text.as_str(), out.withheld), (empty, 0));
        }
        // Without a read scope nothing is filtered.
        let all = filter(
            "Ideas/A.md\n",
            &Output::Lines {
                column: 0,
                header: 0,
            },
            &settings(&[], &["Projects"]),
        );
        assert_eq!((all.text.as_str(), all.withheld), ("Ideas/A.md\n", 0));
    }

    fn reach(places: Vec<Place>, output: Output) -> Reach {
        Reach { places, output }
    }

    fn verdict(reach: &Reach, access: Access, s: &Settings) -> Result<ScopeCheck, String> {
        check("cmd", reach, access, s, &Resolved::default()).map_err(|e| {
            assert_eq!(e.code(), "out_of_scope");
            e.to_string()
        })
    }

    #[test]
    fn places_are_checked_against_the_scope_their_access_needs() {
        let s = settings(&["Projects", "People"], &["Projects"]);
        let path = |p: &str| Place::Note(NoteLocator::Path(p.into()));
        let note = |p: &str| reach(vec![path(p)], Output::FromPlaces);
        assert_eq!(
            verdict(&note("People/Alice.md"), Access::Read, &s),
            Ok(ScopeCheck::Allowed(None))
        );
        let change = verdict(&note("People/Alice.md"), Access::ConfirmedWrite, &s).unwrap_err();
        assert!(
            change.contains("cannot change \"People/Alice.md\""),
            "{change}"
        );
        assert!(change.contains("\"Projects\""), "{change}");
        let read = verdict(&note("Ideas/A.md"), Access::Read, &s).unwrap_err();
        assert!(
            read.contains("may read only in \"Projects\", \"People\""),
            "{read}"
        );
        // Names and today's note are looked up first; the open note never can be.
        let by_name = reach(
            vec![Place::Note(NoteLocator::Name("Plan".into()))],
            Output::FromPlaces,
        );
        assert_eq!(
            verdict(&by_name, Access::Read, &s),
            Ok(ScopeCheck::Resolve(NoteLocator::Name("Plan".into())))
        );
        let looked_up = Resolved {
            notes: vec![(NoteLocator::Name("Plan".into()), "Ideas/Plan.md".into())],
        };
        let refused = check("read", &by_name, Access::Read, &s, &looked_up).unwrap_err();
        assert!(
            refused.to_string().contains("the note \"Plan\""),
            "{refused}"
        );
        assert!(
            !refused.to_string().contains("Ideas/Plan.md"),
            "where it lies stays unsaid"
        );
        assert!(verdict(
            &reach(vec![Place::OpenNote], Output::FromPlaces),
            Access::Read,
            &s
        )
        .is_err());
        // Listings: a folder must overlap; the output is filtered.
        let list = |f: Option<&str>| {
            reach(
                vec![Place::Within(f.map(String::from))],
                Output::Lines {
                    column: 0,
                    header: 0,
                },
            )
        };
        assert_eq!(
            verdict(&list(None), Access::Read, &s),
            Ok(ScopeCheck::Allowed(Some(Output::Lines {
                column: 0,
                header: 0
            })))
        );
        assert!(verdict(&list(Some("Projects/2026")), Access::Read, &s).is_ok());
        assert!(verdict(&list(Some("Ideas")), Access::Read, &s).is_err());
        let unplaceable = reach(vec![Place::Within(None)], Output::TOTAL);
        assert!(verdict(&unplaceable, Access::Read, &s)
            .unwrap_err()
            .contains("Leave out `total`"));
        // Picking a random note needs a folder inside.
        let pick = |f: Option<&str>| {
            reach(
                vec![Place::PickFrom(f.map(String::from))],
                Output::FirstLinePath,
            )
        };
        assert!(verdict(&pick(None), Access::Read, &s).is_err());
        assert!(verdict(&pick(Some("People")), Access::Read, &s).is_ok());
        // New notes: the path must be changeable; a folder the CLI picks cannot be checked.
        let new = |p: Option<&str>| {
            reach(
                vec![Place::NewNote(p.map(String::from))],
                Output::NoNoteText,
            )
        };
        assert!(verdict(&new(Some("Projects/New.md")), Access::DirectWrite, &s).is_ok());
        assert!(verdict(&new(Some("People/New.md")), Access::DirectWrite, &s).is_err());
        assert!(verdict(&new(None), Access::DirectWrite, &s).is_err());
        assert!(verdict(
            &reach(vec![Place::BaseName("B".into())], Output::FromPlaces),
            Access::Read,
            &s
        )
        .is_err());
        // A bookmark's target must be readable, not changeable.
        let bookmark = reach(
            vec![Place::Reference("People/Alice.md".into())],
            Output::NoNoteText,
        );
        assert!(verdict(&bookmark, Access::DirectWrite, &s).is_ok());
        // Whole-vault scopes decide nothing.
        let open = settings(&[], &[]);
        assert_eq!(
            verdict(&new(None), Access::DirectWrite, &open),
            Ok(ScopeCheck::Allowed(None))
        );
        assert_eq!(
            verdict(&unplaceable, Access::Read, &open),
            Ok(ScopeCheck::Allowed(None))
        );
        // Only a write scope: reads go anywhere, writes only there.
        let write_only = settings(&[], &["Projects"]);
        assert_eq!(
            verdict(&unplaceable, Access::Read, &write_only),
            Ok(ScopeCheck::Allowed(None))
        );
        assert!(verdict(&note("Ideas/A.md"), Access::DirectWrite, &write_only).is_err());
    }
}
