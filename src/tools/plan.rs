//! The plan: what one call turns into. Every tool turns its parsed
//! arguments into one `Plan` (`CommandArgs::plan`), and the engine runs
//! plans (`engine::run`): nothing there asks a tool anything else. Whether
//! a CLI change runs at once or waits for the user's click stays the
//! policy's decision, from the command's `Access` and the user's mode.

use crate::base::call::{NoteLocator, Preview, ProbeResult};
use crate::base::error::ToolError;
use crate::cli::argv::CliInvocation;
use crate::hygiene::HygieneRequest;
use crate::notes::edit::NoteEdit;
use crate::search::SearchRequest;
use crate::tools::organise::OrganiseRequest;

/// What one call does, as the engine runs it. Made once per call and
/// matched once, so the size of its biggest variant costs nothing.
#[allow(clippy::large_enum_variant)]
pub enum Plan<'a> {
    /// A CLI read (the default). `present` trims what the CLI printed
    /// (filters and pages the CLI lacks), after the folder-scope filter.
    Read { present: Option<&'a dyn Presents> },
    /// A change the CLI makes.
    CliWrite(CliWrite<'a>),
    /// An edit the CLI cannot make: computed here, written through
    /// Obsidian's vault after a card (`engine::writes`). Undone as
    /// `UndoKind::NoteText`.
    NoteEdit(NoteEditRequest),
    /// A read the core answers from one note itself, or by opening it.
    NoteView(NoteView),
    /// Moves, renames, deletions through Obsidian's file manager after a
    /// card (`engine::organise`). Undone as `UndoKind::Organised`.
    Organise(OrganiseRequest),
    /// A check no one CLI command makes (`obsidianHygiene`), computed from
    /// the CLI's listings and the notes' text (`engine::hygiene`). A read:
    /// the command's own argv never runs.
    Computed(HygieneRequest),
    /// The ranked search over the core's index (`engine::search`), every
    /// hit limited to the read scope. A read: no argv runs.
    Search(SearchRequest),
    /// A web search or a page read (`engine::web`) through the user's
    /// provider, every hop held to Local only. A read of no note.
    Web(crate::tools::web::WebRequest),
}

/// A read whose answer the core trims (filters and pages the CLI does not
/// have): what the CLI printed becomes this, after the folder-scope filter
/// (`None`: as printed).
pub trait Presents {
    fn present(&self, output: &str) -> Option<Presented>;
}

/// How a change shows on its card: the preview from what the probe read
/// (a note, a value, an error).
pub trait Previews {
    fn preview(&self, current: &ProbeResult) -> Result<Preview, ToolError>;
}

/// A change the CLI makes, and everything around it.
pub struct CliWrite<'a> {
    /// How it is reversed: what the journal reads before and after it.
    pub undo: UndoKind,
    /// For note writes: what must hold before and what the note must show
    /// after (the CLI prints errors with exit code 0 and ignores a wrong
    /// vault name, so a write is only `ok` when reading the note back
    /// confirms it).
    pub check: Option<WriteCheck>,
    /// For a change that makes a new note: its title, checked against the
    /// titles already in the vault first. A note with the same or a very
    /// similar title is a warning on the card and in the result the model
    /// reads, never a refusal.
    pub new_note: Option<String>,
    /// What its card shows; `None`: it cannot wait for approval on a card.
    pub card: Option<Card<'a>>,
}

/// How a change is shown on its card before the user approves it.
pub struct Card<'a> {
    /// The read that shows the target as it is now. It is run for the
    /// preview and again just before the write (staleness).
    pub probe: CliInvocation,
    /// For previews that must show a note byte for byte (the CLI's `read`
    /// trims the end): the note, read through Obsidian's vault instead of
    /// `probe`, for the preview and for the stale check.
    pub exact_note: Option<NoteLocator>,
    /// The preview from what the probe read.
    pub preview: &'a dyn Previews,
}

impl<'a> Plan<'a> {
    /// A CLI read whose output stays as the CLI printed it.
    pub fn read() -> Self {
        Plan::Read { present: None }
    }

    /// How the change this plan makes is reversed; `None` for reads.
    pub fn undo_kind(&self) -> Option<UndoKind> {
        match self {
            Plan::CliWrite(write) => Some(write.undo.clone()),
            Plan::NoteEdit(edit) => Some(UndoKind::NoteText(edit.locate.clone())),
            Plan::Organise(_) => Some(UndoKind::Organised),
            Plan::Read { .. }
            | Plan::NoteView(_)
            | Plan::Computed(_)
            | Plan::Search(_)
            | Plan::Web(_) => None,
        }
    }

    /// The read a card of this plan runs, if it has one.
    pub fn probe(&self) -> Option<&CliInvocation> {
        match self {
            Plan::CliWrite(CliWrite {
                card: Some(card), ..
            }) => Some(&card.probe),
            _ => None,
        }
    }
}

/// How a change is reversed, which says what the journal reads around it.
/// Each kind is captured before the change by `engine::record::capture_*`
/// and reversed by `engine::undo::undo_*` (named after it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UndoKind {
    /// The note's exact text before and after (append, prepend, daily, and
    /// every note edit): `capture_text`, `undo_text` (or `undo_created`
    /// when the change made the note).
    NoteText(NoteLocator),
    /// A new note, trashed on undo; its path is the one the CLI reports
    /// (`Created: …`), else `path`. `lookup`: the CLI names only the file
    /// (`base:create`), so the note is found by this name, which must not
    /// name a note before the write: `capture_new_note`, `undo_created`.
    NewNote {
        path: Option<String>,
        lookup: Option<String>,
    },
    /// One property's value, set back through the CLI: `capture_property`,
    /// `undo_property`.
    Property { name: String, note: NoteLocator },
    /// One task's status character, set back through the CLI:
    /// `capture_task`, `undo_task`.
    Task { note: NoteLocator, line: u32 },
    /// Moves, renames, deletions: recorded by the step that makes them
    /// (`engine::organise`), with the paths and texts to put back:
    /// `undo_moved`, `undo_deleted`.
    Organised,
    /// Recorded so the change stays visible, but nothing can reverse it.
    Never { reason: &'static str },
}

impl UndoKind {
    /// For a change whose tool could not say how it is reversed: recorded
    /// so it stays visible, never undone.
    pub const UNKNOWN: UndoKind = UndoKind::Never {
        reason: "this change has no way to be undone.",
    };
}

/// What the core checks around a CLI write of a note.
#[derive(Clone, Debug, PartialEq)]
pub enum WriteCheck {
    /// `create`: `exists` must find nothing before; afterwards `read` shows
    /// `content` (unless a template filled the note), at `path` if one was given.
    Create {
        exists: CliInvocation,
        read: CliInvocation,
        path: Option<String>,
        content: Option<String>,
    },
    /// Afterwards the note ends with `content`.
    Append {
        read: CliInvocation,
        content: String,
    },
    /// Afterwards the note's body (after the frontmatter) starts with `content`.
    Prepend {
        read: CliInvocation,
        content: String,
    },
}

/// An edit of an existing note's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoteEditRequest {
    pub locate: NoteLocator,
    pub edit: NoteEdit,
}

/// A read of one note the core answers itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoteView {
    pub locate: NoteLocator,
    pub view: View,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum View {
    /// The headings as a tree, with the lines of each section.
    Map,
    /// One section by heading path (`Plan::Risks`).
    Section(String),
    /// Show the note in Obsidian, at a heading if given.
    Open { heading: Option<String> },
    /// Pages `first` to `last` of a PDF (1-based, both included), as
    /// Obsidian's PDF.js reads their text.
    PdfPages { first: usize, last: usize },
}

/// A CLI answer the core trimmed: the entries kept, and a line that says
/// what was left out and how to get it (added after the folder-scope filter).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Presented {
    pub text: String,
    pub note: Option<String>,
}
