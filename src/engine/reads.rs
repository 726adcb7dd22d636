//! Reads the core answers itself from one note's exact text (its document
//! map, one section) or by showing the note in Obsidian. The note is found
//! the way every command finds it (a name or today's note resolved to its
//! path first) and read through Obsidian's vault, as the edit commands read it.

use serde_json::json;

use crate::base::error::ToolError;
use crate::base::host::Host;
use crate::base::result::ToolResult;
use crate::engine::VaultAgentCore;
use crate::notes::headings::HeadingProblem;
use crate::notes::map::{document_map, section_text};
use crate::policy::agent_session;
use crate::settings::Settings;
use crate::tools::{NoteView, View};

impl<H: Host> VaultAgentCore<H> {
    /// A coding agent's `fs/read_text_file` (ACP): the note's whole text, or
    /// the lines it asked for. It passes the gate of obsidianNotes `read`
    /// (the tool's switch, the configuration folder, the read scope) and is
    /// read through Obsidian's vault, not the CLI, so the output cap never
    /// cuts it; a note over `agent_session::READ_MAX_BYTES` is refused whole.
    pub async fn agent_read_file(
        &self,
        path: &str,
        cap: Option<crate::settings::PermissionMode>,
        line: Option<u32>,
        limit: Option<u32>,
    ) -> ToolResult {
        let chat = self.settings_snapshot().permission_mode;
        let settings = self.settings_under(cap.map_or(chat, |cap| chat.at_most(cap)), None);
        self.timed(async {
            let read = json!({ "command": "read", "path": path });
            self.authorise("obsidianNotes", &read, &settings).await?;
            let text = self.read_exact(path).await?;
            if text.len() > agent_session::READ_MAX_BYTES {
                return Err(agent_session::too_large(path, text.len()));
            }
            Ok(ToolResult::success(agent_session::lines(
                &text, line, limit,
            )))
        })
        .await
    }

    pub(crate) async fn view_note(
        &self,
        request: NoteView,
        settings: &Settings,
    ) -> Result<ToolResult, ToolError> {
        let path = self.resolve_note(&request.locate, settings).await?;
        let text = self.read_exact(&path).await?;
        match request.view {
            View::Map => Ok(ToolResult::success(document_map(&path, &text))),
            View::Section(heading) => section_text(&path, &text, &heading)
                .map(ToolResult::success)
                .map_err(|problem| heading_error(problem, &quoted(&path), &heading)),
            View::Open { heading } => {
                if let Some(wanted) = &heading {
                    // Say so rather than open the note at its top.
                    section_text(&path, &text, wanted)
                        .map_err(|problem| heading_error(problem, &quoted(&path), wanted))?;
                }
                self.host()
                    .open_note(&path, heading.as_deref())
                    .await
                    .map_err(|failure| ToolError::VaultFailed {
                        target: format!("\"{path}\""),
                        detail: failure.message,
                    })?;
                let at = heading.map(|h| format!(" at \"{h}\"")).unwrap_or_default();
                Ok(ToolResult::success(format!(
                    "Opened {path}{at} in Obsidian for the user."
                )))
            }
        }
    }
}

fn quoted(path: &str) -> String {
    format!("\"{path}\"")
}

/// A heading path that named no single section, as the model reads it.
pub(crate) fn heading_error(problem: HeadingProblem, target: &str, heading: &str) -> ToolError {
    let target = target.to_string();
    let heading = heading.to_string();
    match problem {
        HeadingProblem::NotFound { headings } => ToolError::HeadingNotFound {
            target,
            heading,
            headings,
        },
        HeadingProblem::Ambiguous { candidates } => ToolError::HeadingAmbiguous {
            target,
            heading,
            candidates,
        },
    }
}
