//! Reads the core answers itself from one note's exact text (its document
//! map, one section) or by showing the note in Obsidian. The note is found
//! the way every command finds it (a name or today's note resolved to its
//! path first) and read through Obsidian's vault, as the edit commands read it.

use crate::base::error::ToolError;
use crate::base::host::Host;
use crate::base::result::ToolResult;
use crate::engine::Engine;
use crate::notes::headings::HeadingProblem;
use crate::notes::map::{document_map, section_text};
use crate::settings::Settings;
use crate::tools::{NoteView, View};

impl<H: Host> Engine<H> {
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
