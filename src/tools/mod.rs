//! The tool registry. Each category tool lives in its own file and declares
//! the same things: its commands (the allowlist), each command's typed
//! arguments (serde + schemars), whether the command reads or writes, and the
//! guidance the model gets. Everything else (parsing, schemas, argv) is shared
//! here, so adding a command is one `CommandSpec` line plus its argument type.

mod args;
pub mod bases;
pub mod bookmarks;
pub mod daily;
pub mod edit;
pub mod hygiene;
pub mod links;
pub mod memory;
pub mod notes;
pub mod organise;
pub mod pdf;
pub mod plan;
pub mod properties;
pub mod random;
mod registry;
pub mod search;
pub mod shared;
pub mod tags;
pub mod tasks;
pub mod templates;
pub mod web;

pub use self::args::{CliArguments, CommandArgs, ParsedArgs};
pub use self::pdf::MAX_PDF_BYTES;
pub use self::plan::{
    Card, CliWrite, NoteEditRequest, NoteView, Plan, Presented, Presents, Previews, UndoKind, View,
    WriteCheck,
};
pub use self::registry::{CommandSpec, ToolCall, ToolSpec};

/// Every tool, in the order the settings tab and the model see them.
pub fn builtin_tools() -> Vec<ToolSpec> {
    vec![
        notes::tool(),
        edit::tool(),
        search::tool(),
        daily::tool(),
        tasks::tool(),
        properties::tool(),
        links::tool(),
        tags::tool(),
        templates::tool(),
        bases::tool(),
        bookmarks::tool(),
        random::tool(),
        organise::tool(),
        hygiene::tool(),
        memory::tool(),
        web::tool(),
    ]
}

/// What a tool does, in the words of the person who turns it on and off
/// (the settings' Tools page): short, and free of the model's vocabulary
/// ("after the user approves"), which `ToolSpec::description` may need.
pub fn user_summary(tool_id: &str) -> &'static str {
    match tool_id {
        "obsidianNotes" => "Reads your notes, their sections and PDFs; lists files and folders.",
        "obsidianEdit" => "Creates notes, adds text to a note, or changes part of one.",
        "obsidianSearch" => "Finds the passages that answer a question, or notes with your words.",
        "obsidianDailyNote" => "Reads today's daily note or adds text to it.",
        "obsidianTasks" => "Lists your tasks and changes a task's status.",
        "obsidianProperties" => "Reads note properties (frontmatter); sets or removes one.",
        "obsidianLinks" => "Finds what links to a note, what it links to, and orphans.",
        "obsidianTags" => "Lists tags and where they are used; adds or removes one.",
        "obsidianTemplates" => "Lists your templates and reads one.",
        "obsidianBases" => "Lists your Bases and their views, queries a view, adds an item.",
        "obsidianBookmarks" => "Lists your bookmarks or adds one.",
        "obsidianRandomRead" => "Reads a random note, from one folder if you like.",
        "obsidianOrganise" => "Moves, renames or deletes notes (to Obsidian's trash).",
        "obsidianHygiene" => "Finds duplicate titles, empty notes and links to missing notes.",
        "obsidianMemory" => "Keeps, corrects or drops a fact about you in your memory notes.",
        "obsidianWeb" => "Searches the web through your provider and reads pages, citing links.",
        _ => "",
    }
}

/// Commands no tool may ever run: destructive, UI-only, code execution or
/// settings (seed 000, "Excluded from Tool System"). Moving, renaming and
/// deleting to the trash are `obsidianOrganise`'s, through Obsidian's file
/// manager after a card and with undo, never these CLI commands (whose
/// `permanent` flag deletes for good).
pub const EXCLUDED_COMMANDS: &[&str] = &[
    "plugin:",
    "plugins:",
    "theme:",
    "snippet:",
    "sync:",
    "history:",
    "diff",
    "publish:",
    "eval",
    "dev:",
    "devtools",
    "command",
    "web",
    "workspace:",
    "tabs",
    "tab:open",
    "reload",
    "restart",
    "vault:open",
    "unique",
    "template:insert",
];

/// True when `command` is on the excluded list (exactly, or by family prefix).
pub fn is_excluded(command: &str) -> bool {
    EXCLUDED_COMMANDS.iter().any(|excluded| {
        if excluded.ends_with(':') {
            command.starts_with(excluded) || command == excluded.trim_end_matches(':')
        } else {
            command == *excluded
        }
    })
}
