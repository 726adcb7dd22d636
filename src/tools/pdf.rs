//! obsidianNotes `pdf`: pages of a vault PDF by page range, as Obsidian's
//! PDF.js reads their text. A PDF attached in the chat whose pages did not
//! all fit in the model's context names the range this reads
//! (`doors::chat::pdf`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{CommandArgs, NoteView, View};
use crate::base::call::NoteLocator;
use crate::base::vault_path::check_vault_path;
use crate::policy::scope::Reach;
use crate::tools::Plan;

/// The largest PDF whose text is read, in bytes.
pub const MAX_PDF_BYTES: usize = 50 * 1024 * 1024;
/// The most pages one call reads: a longer range is cut to its first ones.
pub const MAX_PAGES_PER_READ: usize = 20;
/// The most pages of an attached PDF read for the chat, from the first:
/// about what the largest context windows (a million tokens) hold of dense
/// pages. A 10 000-page PDF is not read whole for the few hundred pages a
/// model can take; the model is told the pages left out, and reads them
/// with `pdf`.
pub const MAX_PDF_PAGES_READ: usize = 500;

/// Why a PDF could not be read, for "… could not be read as a PDF: …",
/// with what to do, from the host's failure (`Host::pdf_text`).
pub fn unreadable(failure: &crate::base::host::VaultFailure) -> String {
    let check =
        "Open it in a PDF reader to check it, or save or export it again, and attach the new copy";
    match failure.code.as_str() {
        "encrypted" => "it is protected by a password. Open it in a PDF reader, save a copy without the password, and attach that".into(),
        "damaged" => format!(
            "it is damaged or not a PDF (PDF.js: {}). {check}",
            failure.message.trim_end_matches('.')
        ),
        "no_pages" => format!("it has no pages (it is damaged, or was cut short). {check}"),
        _ => failure.message.trim_end_matches('.').to_string(),
    }
}

/// The failure for a PDF that opens with no pages: a damaged page tree, or
/// a file cut short (not a scan: a scan has pages without text).
pub fn no_pages() -> crate::base::host::VaultFailure {
    crate::base::host::VaultFailure {
        code: "no_pages".into(),
        message: "it has no pages".into(),
    }
}

/// Arguments of `pdf`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PdfArgs {
    /// The PDF's exact path from the vault root, e.g. "Papers/Report.pdf".
    pub path: String,
    /// The pages to read: "3-12", or one page "5"; at most 20 at once. Default: from the first.
    pub pages: Option<String>,
}

impl CommandArgs for PdfArgs {
    fn validate(&mut self) -> Result<(), String> {
        check_vault_path("path", &mut self.path)?;
        if !self.path.to_ascii_lowercase().ends_with(".pdf") {
            return Err(format!(
                "`pdf` reads PDF files; {:?} is not one (read notes with `read`)",
                self.path
            ));
        }
        page_range(self.pages.as_deref()).map(|_| ())
    }

    fn reach(&self) -> Reach {
        Reach::note(Some(NoteLocator::Path(self.path.clone())))
    }

    fn plan(&self) -> Plan<'_> {
        // Validated first: a range that does not parse never gets here.
        let (first, last) = page_range(self.pages.as_deref()).unwrap_or((1, MAX_PAGES_PER_READ));
        Plan::NoteView(NoteView {
            locate: NoteLocator::Path(self.path.clone()),
            view: View::PdfPages { first, last },
        })
    }
}

/// "3-12" or "5" as a 1-based range of at most `MAX_PAGES_PER_READ` pages
/// (a longer one is cut); none: the first pages.
pub fn page_range(pages: Option<&str>) -> Result<(usize, usize), String> {
    let Some(pages) = pages.map(str::trim) else {
        return Ok((1, MAX_PAGES_PER_READ));
    };
    let number = |s: &str| s.trim().parse::<usize>().ok().filter(|n| *n >= 1);
    let (first, last) = match pages.split_once('-') {
        Some((a, b)) => (number(a), number(b)),
        None => (number(pages), number(pages)),
    };
    match (first, last) {
        (Some(first), Some(last)) if first <= last => {
            Ok((first, last.min(first + MAX_PAGES_PER_READ - 1)))
        }
        _ => Err(format!(
            "`pages` is a page or a range of pages from 1, such as \"3-12\" or \"5\"; got {pages:?}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::notes::tool;
    use serde_json::json;

    #[test]
    fn a_range_is_parsed_and_bounded() {
        assert_eq!(page_range(None), Ok((1, 20)));
        assert_eq!(page_range(Some("3-12")), Ok((3, 12)));
        assert_eq!(page_range(Some(" 5 ")), Ok((5, 5)));
        assert_eq!(page_range(Some("10-100")), Ok((10, 29)));
        for wrong in ["0", "12-3", "a-b", "", "-4", "3-"] {
            assert!(page_range(Some(wrong)).is_err(), "{wrong:?}");
        }
    }

    #[test]
    fn pdf_reads_a_pdf_by_path_answered_by_the_core() {
        let spec = tool();
        let call = spec
            .parse_call(&json!({"command": "pdf", "path": "Papers/Report.pdf", "pages": "3-4"}))
            .unwrap();
        match call.args.plan() {
            Plan::NoteView(view) => assert_eq!(
                view,
                NoteView {
                    locate: NoteLocator::Path("Papers/Report.pdf".into()),
                    view: View::PdfPages { first: 3, last: 4 }
                }
            ),
            _ => panic!("not a view"),
        }
        assert_eq!(
            call.facts().unwrap().reach.places,
            [crate::policy::scope::Place::Note(NoteLocator::Path(
                "Papers/Report.pdf".into()
            ))]
        );
    }

    #[test]
    fn pdf_refuses_a_note_and_a_bad_range() {
        let spec = tool();
        assert!(spec
            .parse_call(&json!({"command": "pdf", "path": "Notes/Plan.md"}))
            .is_err());
        assert!(spec
            .parse_call(&json!({"command": "pdf", "path": "a.pdf", "pages": "0-2"}))
            .is_err());
        assert!(spec
            .parse_call(&json!({"command": "pdf", "path": "../a.pdf"}))
            .is_err());
    }
}
