//! `obsidianDailyNote`: today's daily note, wherever the user's Daily notes
//! settings put it.

use serde_json::json;

use super::{Access, CommandSpec, NoArguments, ToolSpec};

pub fn tool() -> ToolSpec {
    ToolSpec {
        id: "obsidianDailyNote",
        display_name: "Daily note (CLI)",
        description: "Read today's daily note, or get its path in the vault.",
        guidance: "Use obsidianDailyNote for today's daily note: `daily:read` returns its text, \
                   `daily:path` returns where it lives (the only way to learn the user's daily note \
                   folder and date format). For other notes use obsidianNotes `read`; for the tasks \
                   in today's note use obsidianTasks with `daily`.",
        commands: vec![
            CommandSpec::new::<NoArguments>("daily:read", Access::Read, "Read today's daily note.")
                .silent_success("Today's daily note is empty or has not been created yet."),
            CommandSpec::new::<NoArguments>(
                "daily:path",
                Access::Read,
                "Get the vault path of today's daily note (even before it exists).",
            ),
        ],
        example: json!({"command": "daily:read"}),
    }
}
