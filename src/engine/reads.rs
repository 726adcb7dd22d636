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
        if let View::PdfPages { first, last } = request.view {
            return self.pdf_pages(&path, first, last).await;
        }
        let text = self.read_exact(&path).await?;
        match request.view {
            View::Map => Ok(ToolResult::success(document_map(&path, &text))),
            View::Section(heading) => section_text(&path, &text, &heading)
                .map(ToolResult::success)
                .map_err(|problem| heading_error(problem, &quoted(&path), &heading)),
            View::PdfPages { .. } => unreachable!("answered above"),
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

impl<H: Host> Engine<H> {
    /// Pages of a PDF with their numbers; a range past its end is cut to
    /// it, and one that starts past it is refused, naming how many pages
    /// there are.
    async fn pdf_pages(
        &self,
        path: &str,
        first: usize,
        last: usize,
    ) -> Result<ToolResult, ToolError> {
        let read = self
            .host()
            .pdf_text(path, crate::tools::MAX_PDF_BYTES, first, last)
            .await
            .and_then(|read| match read.total {
                0 => Err(crate::tools::pdf::no_pages()),
                _ => Ok(read),
            })
            .map_err(|failure| match failure.code.as_str() {
                "not_found" => ToolError::NoteNotFound {
                    target: quoted(path),
                },
                _ => ToolError::VaultFailed {
                    target: quoted(path),
                    detail: crate::tools::pdf::unreadable(&failure),
                },
            })?;
        let total = read.total;
        if first > total {
            return Err(ToolError::invalid(
                "obsidianNotes",
                format!("{path} has {total} pages; ask for pages within 1-{total}"),
            ));
        }
        let last = last.min(total);
        // Only the pages asked for were read: `pages[0]` is page `first`.
        let pages = &read.pages[..read.pages.len().min(last + 1 - first)];
        let mut text = format!("{path}, pages {first}-{last} of {total}:\n");
        for (at, page) in pages.iter().enumerate() {
            text.push_str(&pdf_page(first + at, page));
        }
        if pages.iter().all(|p| p.trim().is_empty()) {
            text.push_str("[These pages have no text: the PDF may be a scan.]\n");
        }
        Ok(ToolResult::success(text))
    }
}

/// One page of a PDF as the model reads it, with its number.
pub fn pdf_page(number: usize, text: &str) -> String {
    let text = text.trim();
    let text = if text.is_empty() {
        "(no text on this page)"
    } else {
        text
    };
    format!("--- Page {number} ---\n{text}\n")
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
