//! `obsidianDailyNote`: today's daily note, wherever the user's Daily notes
//! settings put it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::shared::check_not_blank;
use super::{Access, CommandArgs, CommandSpec, NoArguments, ToolSpec};

/// Arguments of `daily:append` and `daily:prepend`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DailyWriteArgs {
    /// The Markdown text to add. Newlines and tabs are kept exactly.
    pub content: String,
    /// Add the text without a separating newline (continue the last or first line).
    #[serde(default)]
    pub inline: bool,
}

impl CommandArgs for DailyWriteArgs {
    fn validate(&mut self) -> Result<(), String> {
        check_not_blank("content", &self.content)
    }

    fn write_target(&self) -> Option<String> {
        Some("today's daily note".into())
    }
}

pub fn tool() -> ToolSpec {
    ToolSpec {
        id: "obsidianDailyNote",
        display_name: "Daily note (CLI)",
        description: "Read today's daily note, find its path, or add text at its end or start.",
        guidance: "Use obsidianDailyNote for today's daily note: `daily:read` returns its text, \
                   `daily:path` where it lives (the only way to learn the user's daily note folder \
                   and date format), `daily:append` / `daily:prepend` add text (the note is created \
                   if it does not exist; prepend goes after the properties). Only add what the user \
                   asked for. For other notes use obsidianNotes `read`; for the tasks in today's \
                   note use obsidianTasks with `daily`.",
        commands: vec![
            CommandSpec::new::<NoArguments>("daily:read", Access::Read, "Read today's daily note.")
                .silent_success("Today's daily note is empty or has not been created yet."),
            CommandSpec::new::<NoArguments>(
                "daily:path",
                Access::Read,
                "Get the vault path of today's daily note (even before it exists).",
            ),
            CommandSpec::new::<DailyWriteArgs>(
                "daily:append",
                Access::DirectWrite,
                "Add text at the end of today's daily note.",
            )
            .silent_success("Added to the end of today's daily note."),
            CommandSpec::new::<DailyWriteArgs>(
                "daily:prepend",
                Access::DirectWrite,
                "Add text at the start of today's daily note, after its properties.",
            )
            .silent_success("Added to the start of today's daily note."),
        ],
        example: json!({"command": "daily:read"}),
    }
}
