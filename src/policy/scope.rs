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

use crate::base::call::{Access, NoteLocator};
use crate::base::error::ToolError;
use crate::base::host::Os;
use crate::policy::names::NameRule;
use crate::settings::{Settings, NO_FOLDER};

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

/// The shape of what a command prints, which says how to filter it. A
/// path is never cut out of free text by a guess: a name may hold `#`, `:`,
/// a tab or spaces, so an entry is kept only when every way of reading its
/// path lies inside the read scope (`policy::filter`), and where the CLI has
/// a structured form the core asks for that.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// Everything comes from the places checked (a note's text, its outline).
    FromPlaces,
    /// Nothing from any note (template names, today's note's path, a
    /// write's confirmation line).
    NoNoteText,
    /// One entry per line, its path where `path` says; with `subpath` the
    /// path may be followed by `#heading` (a bookmark's target).
    Lines { path: LinePath, subpath: bool },
    /// `tag … verbose`: `#tag<TAB>N`, then the paths of the notes using it;
    /// N is counted again from the notes kept.
    TagNotes,
    /// `links`: a note's link targets, resolved ones as vault paths and the
    /// others as `<target> (unresolved)`.
    Links,
    /// A JSON array of paths (`key` None) or of objects with the path at
    /// `key`. The CLI is asked for `format=json` whatever the model asked;
    /// what is kept is then written as `render`.
    Json {
        key: Option<&'static str>,
        render: Render,
    },
    /// The first line is the path of the note printed after it (`random:read`).
    FirstLinePath,
    /// Computed in the core from inputs it has already limited to the read
    /// scope (the hygiene checks): nothing to filter afterwards.
    Computed,
    /// Cannot be split by folder (vault-wide counts, tag and property names);
    /// refused while reading is limited, with `fix` naming a form that can.
    Unplaceable { fix: &'static str },
}

/// Where a line's path lies between its tab-separated columns. A name may
/// hold a tab, so each column boundary the path could end (or start) at is
/// one reading of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinePath {
    /// The whole line is the path (`files`, `orphans`, `tag`).
    Whole,
    /// The last column, after columns that may hold tabs themselves
    /// (`unresolved verbose`: `link<TAB>source`).
    Last,
    /// After this many columns without tabs, before optional columns of
    /// its own (`bookmarks verbose`: `type<TAB>target[<TAB>title]`).
    After(usize),
}

/// How a JSON answer is written back for the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Render {
    /// As JSON, in the CLI's layout (the model asked for JSON).
    Json,
    /// `search`: one path per line.
    SearchPaths,
    /// `search:context`: `path:line: text` per matching line.
    SearchLines,
    /// `tasks`: one task per line, `- [status] text`.
    TaskLines,
    /// `tasks verbose`: the path, its tasks as `  L<line>: - [status] text`,
    /// a blank line between notes.
    TaskGroups,
    /// `tasks format=tsv`: `path<TAB>line<TAB>status<TAB>text`.
    TaskTable,
    /// `backlinks` (tab-separated): the path, with `<TAB>count` when counted.
    BacklinkTable,
}

impl Output {
    /// `total` over the vault: a count cannot be split by folder.
    pub const TOTAL: Output = Output::Unplaceable {
        fix: "Leave out `total` and count the list instead: a count over the vault would include folders the agent may not read.",
    };

    /// One path per line, the whole line.
    pub const PATHS: Output = Output::Lines {
        path: LinePath::Whole,
        subpath: false,
    };

    /// A list of paths, one per line, or its `total`.
    pub fn lines_or_total(total: bool) -> Output {
        if total {
            Output::TOTAL
        } else {
            Output::PATHS
        }
    }

    /// A JSON answer written back as `render`.
    pub fn json(key: Option<&'static str>, render: Render) -> Output {
        Output::Json { key, render }
    }

    /// True when what the command prints names notes line by line (or in
    /// JSON) and can be filtered by path.
    pub fn is_filterable(&self) -> bool {
        matches!(
            self,
            Output::Lines { .. }
                | Output::TagNotes
                | Output::Links
                | Output::Json { .. }
                | Output::FirstLinePath
        )
    }

    /// True when the CLI must be asked for `format=json` to filter this.
    pub fn asks_json(&self) -> bool {
        matches!(self, Output::Json { .. })
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
    pub fn path_of(&self, locate: &NoteLocator) -> Option<&str> {
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
    names: NameRule,
    /// Symbolic links whose real place the agent may not read
    /// (`engine::edge::links_out`): nothing under one is inside.
    barred: &'a [String],
}

impl<'a> FolderScope<'a> {
    /// `names`: how the platform's file system compares names.
    pub fn new(folders: &'a [String], names: NameRule) -> Self {
        FolderScope {
            folders,
            names,
            barred: &[],
        }
    }

    /// The same scope, with nothing under the links `barred` inside it.
    pub fn barring(self, barred: &'a [String]) -> Self {
        FolderScope { barred, ..self }
    }

    /// True when every path is inside: no folder list and no link barred.
    pub fn holds_everything(&self) -> bool {
        self.is_whole_vault() && self.barred.is_empty()
    }

    /// The folders the agent may read, on `os`.
    pub fn read(settings: &'a Settings, os: Os) -> Self {
        FolderScope::new(&settings.read_folders, NameRule::of(os))
    }

    /// The folders the agent may change, on `os`.
    pub fn write(settings: &'a Settings, os: Os) -> Self {
        FolderScope::new(&settings.write_folders, NameRule::of(os))
    }

    pub fn is_whole_vault(&self) -> bool {
        self.folders.is_empty()
    }

    /// True when the stored list could not be read: it reaches nothing.
    pub fn is_unreadable(&self) -> bool {
        self.folders.iter().any(|f| f == NO_FOLDER)
    }

    /// True when `path` (a file or folder from the vault root, exactly as
    /// the CLI prints it or the policy normalised it) lies in one of the
    /// folders, or is one, as the platform's file system compares names:
    /// byte for byte on Linux (an NFD `Café/` is not the NFC `Café`),
    /// without case on Windows, without case and Unicode form on macOS.
    /// Nothing is trimmed: `Projects /x.md` is in the folder `Projects `.
    pub fn contains(&self, path: &str) -> bool {
        if self.holds_everything() {
            return true;
        }
        let path = self.names.key(path.strip_prefix("./").unwrap_or(path));
        let place = path.trim_end_matches('/');
        if self
            .barred
            .iter()
            .any(|link| inside(place, &self.names.key(link)))
        {
            return false;
        }
        if self.is_whole_vault() {
            return true;
        }
        self.folders
            .iter()
            .any(|folder| inside(&path, &self.names.key(folder)))
    }

    /// True when a listing of `folder` can show something allowed: the folder
    /// is inside the scope, or holds one of its folders.
    pub fn overlaps(&self, folder: &str) -> bool {
        let key = self.names.key(folder);
        self.contains(folder)
            || self
                .folders
                .iter()
                .any(|allowed| inside(&self.names.key(allowed), &key))
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
    // `>=` would change nothing (an equivalent mutant, skipped in
    // .cargo/mutants.toml): of equal length, `starts_with` is `==`.
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
    os: Os,
    resolved: &Resolved,
) -> Result<ScopeCheck, ToolError> {
    let scopes = Scopes {
        read: FolderScope::read(settings, os),
        write: FolderScope::write(settings, os),
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
    // A list that could not be read reaches nothing, whatever the call names.
    for (scope, change, setting) in [
        (scopes.read, false, READ_SETTING),
        (scopes.write, true, WRITE_SETTING),
    ] {
        if scope.is_unreadable() && (writes || !change) {
            return Err(refuse("anything".into(), change, unreadable_fix(setting)));
        }
    }
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

/// The two lists as the settings tab names them.
const READ_SETTING: &str = "Folders the agent may read";
const WRITE_SETTING: &str = "Folders the agent may change";

fn unreadable_fix(setting: &str) -> String {
    format!(
        "The stored list \"{setting}\" could not be read (too large, nested too deep, or not a list of folders), so it reaches no folder at all. Ask the user to set it again in Settings → Vault Agent → Safety → {setting}: one folder per line, or empty for the whole vault."
    )
}

fn pick_another(scope: FolderScope<'_>) -> String {
    format!(
        "Work with notes in {} instead, or ask the user to allow this folder in Settings → Vault Agent → Safety.",
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
        let scope = FolderScope::new(&folders, NameRule::Exact);
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
            // Nothing is trimmed or cut: each of these is another folder.
            " Projects/Plan.md",
            "Projects /Plan.md",
            "Projects #old/Plan.md",
            "Projects:x/Plan.md",
            "Projects\tPlan.md",
        ] {
            assert!(!scope.contains(outside), "{outside}");
        }
        // A listing of a folder above an allowed one can show something.
        assert!(scope.overlaps("Areas"));
        assert!(scope.overlaps("Projects/2026"));
        assert!(!scope.overlaps("Archive"));
        assert!(FolderScope::new(&[], NameRule::Exact).contains("anything/at all.md"));
        // The stand-in for a broken list holds nothing.
        let none = [NO_FOLDER.to_string()];
        let broken = FolderScope::new(&none, NameRule::Exact);
        assert!(!broken.contains("Projects/Plan.md") && broken.is_unreadable());
        assert!(!scope.is_unreadable());
    }

    #[test]
    fn names_are_compared_as_the_platform_compares_them() {
        let folders = ["Caf\u{e9}".to_string(), "Projects".to_string()];
        let on = |os| FolderScope::new(&folders, NameRule::of(os));
        // Linux: another byte sequence is another folder.
        assert!(!on(Os::Linux).contains("Cafe\u{301}/Menu.md"));
        assert!(!on(Os::Linux).contains("projects/Plan.md"));
        assert!(on(Os::Linux).contains("Caf\u{e9}/Menu.md"));
        // Windows: case is ignored, the Unicode form is not.
        assert!(on(Os::Windows).contains("PROJECTS/Plan.md"));
        assert!(on(Os::Windows).contains("CAF\u{c9}/Menu.md"));
        assert!(!on(Os::Windows).contains("Cafe\u{301}/Menu.md"));
        // macOS: neither.
        assert!(on(Os::Macos).contains("Cafe\u{301}/Menu.md"));
        assert!(on(Os::Macos).contains("projects/Plan.md"));
        assert!(!on(Os::Macos).contains("Projects2/Plan.md"));
        assert!(on(Os::Macos).overlaps("PROJECTS"));
        assert!(!on(Os::Linux).overlaps("PROJECTS"));
    }

    fn reach(places: Vec<Place>, output: Output) -> Reach {
        Reach { places, output }
    }

    fn verdict(reach: &Reach, access: Access, s: &Settings) -> Result<ScopeCheck, String> {
        check("cmd", reach, access, s, Os::Linux, &Resolved::default()).map_err(|e| {
            assert_eq!(e.code(), "out_of_scope");
            e.to_string()
        })
    }

    #[test]
    fn a_list_that_could_not_be_read_refuses_everything_and_says_how_to_fix_it() {
        let none = NO_FOLDER;
        let anything = [
            reach(vec![Place::Within(None)], Output::PATHS),
            reach(vec![], Output::NoNoteText),
            reach(
                vec![Place::Note(NoteLocator::Path("Projects/A.md".into()))],
                Output::FromPlaces,
            ),
        ];
        let read = settings(&[none], &[]);
        for r in &anything {
            let refused = verdict(r, Access::Read, &read).unwrap_err();
            assert!(refused.contains("cannot read anything"), "{refused}");
            assert!(
                refused.contains("\"Folders the agent may read\" could not be read"),
                "{refused}"
            );
            assert!(
                refused.contains("Settings → Vault Agent → Safety"),
                "{refused}"
            );
        }
        // A broken write list stops every change, and no read.
        let write = settings(&["Projects"], &[none]);
        let note = &anything[2];
        assert!(verdict(note, Access::Read, &write).is_ok());
        let change = verdict(note, Access::DirectWrite, &write).unwrap_err();
        assert!(
            change.contains("cannot change anything")
                && change.contains("Folders the agent may change"),
            "{change}"
        );
        let only_write = settings(&[], &[none]);
        assert!(verdict(note, Access::ConfirmedWrite, &only_write).is_err());
        assert_eq!(
            verdict(note, Access::Read, &only_write),
            Ok(ScopeCheck::Allowed(None))
        );
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
        let refused = check("read", &by_name, Access::Read, &s, Os::Linux, &looked_up).unwrap_err();
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
        let list = |f: Option<&str>| reach(vec![Place::Within(f.map(String::from))], Output::PATHS);
        assert_eq!(
            verdict(&list(None), Access::Read, &s),
            Ok(ScopeCheck::Allowed(Some(Output::PATHS)))
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

    /// Found by the mutation run: a place that cannot be checked (the open
    /// note, a new note in a folder the CLI picks) is refused against the
    /// list the call needs, and the refusal names that list.
    #[test]
    fn a_place_that_cannot_be_checked_names_the_list_the_call_needs() {
        let both = settings(&["Projects", "People"], &["Projects/Drafts"]);
        let open = reach(vec![Place::OpenNote], Output::FromPlaces);
        let read = verdict(&open, Access::Read, &both).unwrap_err();
        assert!(
            read.contains("cannot read the note open in Obsidian")
                && read.contains("may read only in \"Projects\", \"People\""),
            "{read}"
        );
        let change = verdict(&open, Access::ConfirmedWrite, &both).unwrap_err();
        assert!(
            change.contains("cannot change the note open in Obsidian")
                && change.contains("may change only in \"Projects/Drafts\""),
            "{change}"
        );
        // Only the read list set: a write is refused as a read.
        let read_only = settings(&["Projects"], &[]);
        let write = verdict(&open, Access::DirectWrite, &read_only).unwrap_err();
        assert!(write.contains("cannot read the note open"), "{write}");
        let new = reach(vec![Place::NewNote(None)], Output::NoNoteText);
        let change = verdict(&new, Access::DirectWrite, &both).unwrap_err();
        assert!(
            change.contains("cannot change a new note in a folder Obsidian chooses")
                && change.contains("may change only in \"Projects/Drafts\"")
                && change.contains("a `path` inside \"Projects/Drafts\""),
            "{change}"
        );
        let read = verdict(&new, Access::DirectWrite, &read_only).unwrap_err();
        assert!(
            read.contains("cannot read a new note in a folder Obsidian chooses")
                && read.contains("a `path` inside \"Projects\""),
            "{read}"
        );
    }

    /// Found by the mutation run: once a name is replaced by its path, the
    /// refusal still says the model's name for that very note, never where
    /// it lies, and never the name of another note looked up in the call.
    #[test]
    fn a_refusal_after_a_lookup_names_the_note_by_its_own_name() {
        let s = settings(&["Projects"], &[]);
        let pinned = reach(
            vec![Place::Note(NoteLocator::Path("Private/Secret.md".into()))],
            Output::FromPlaces,
        );
        let looked_up = Resolved {
            notes: vec![
                (NoteLocator::Name("Plan".into()), "Projects/Plan.md".into()),
                (NoteLocator::Daily, "Private/Secret.md".into()),
                (
                    NoteLocator::Name("Secret".into()),
                    "Private/Secret.md".into(),
                ),
            ],
        };
        let refused = check("read", &pinned, Access::Read, &s, Os::Linux, &looked_up)
            .unwrap_err()
            .to_string();
        assert!(
            refused.contains("cannot read the note \"Secret\""),
            "{refused}"
        );
        assert!(
            !refused.contains("Private"),
            "where it lies stays unsaid: {refused}"
        );
        // A path the model gave itself is named as given.
        let given = check(
            "read",
            &pinned,
            Access::Read,
            &s,
            Os::Linux,
            &Resolved::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(
            given.contains("cannot read \"Private/Secret.md\""),
            "{given}"
        );
    }
}
