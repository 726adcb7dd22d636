//! `obsidianDailyNote`: today's daily note, wherever the user's Daily notes
//! settings put it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::shared::check_not_blank;
use super::{CommandArgs, CommandSpec, ToolSpec, UndoKind};
use crate::base::call::{Access, NoteLocator, Preview, ProbeResult};
use crate::base::error::ToolError;
use crate::cli::argv::CliInvocation;
use crate::policy::scope::Reach;
use crate::tools::Previews;
use crate::tools::{Card, CliWrite, Plan};

/// Arguments of `daily:read` (none).
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DailyReadArgs {}

impl CommandArgs for DailyReadArgs {
    fn reach(&self) -> Reach {
        Reach::note(Some(NoteLocator::Daily))
    }
}

/// Arguments of `daily:path` (none). It prints a path, nothing from a note.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DailyPathArgs {}

impl CommandArgs for DailyPathArgs {
    fn reach(&self) -> Reach {
        Reach::no_notes()
    }
}

/// Arguments of `daily:append` (`AT_START` false) and `daily:prepend`
/// (true): the same fields, at either end of the note.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DailyAdd<const AT_START: bool> {
    /// The Markdown text to add. Newlines and tabs are kept exactly.
    pub content: String,
    /// Add the text without a separating newline (continue the last or first line).
    #[serde(default)]
    pub inline: bool,
}

pub type DailyAppendArgs = DailyAdd<false>;
pub type DailyPrependArgs = DailyAdd<true>;

const TARGET: &str = "today's daily note";
/// Lines of the note shown around the added text on a card.
const CONTEXT_LINES: usize = 3;
/// Stands for the lines of the note the card leaves out.
const MORE: &str = "…";
const EMPTY_NOTE: &str = "(empty or not created yet; a new daily note starts from your daily note template, if you set one)";

fn daily_read() -> Option<CliInvocation> {
    Some(CliInvocation::new("daily:read"))
}

/// The note's text, or why there is no preview: a failed read is never taken
/// for an empty note.
fn note_text(current: &ProbeResult) -> Result<&str, ToolError> {
    current.as_deref().map_err(|error| ToolError::CliError {
        output: format!("{TARGET} could not be read to show what would change ({error})"),
        hint: Some("Nothing was changed. Try again once `daily:read` works.".into()),
    })
}

/// `daily:append`: the note's last lines now, and with the text added on a
/// new line (or at the end of the last line with `inline`), as the CLI adds it.
fn append_preview(
    current: &ProbeResult,
    content: &str,
    inline: bool,
) -> Result<Preview, ToolError> {
    let text = note_text(current)?;
    if text.is_empty() {
        return Ok(empty_note_preview(content));
    }
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.len().saturating_sub(CONTEXT_LINES);
    let mut before: Vec<&str> = Vec::new();
    if start > 0 {
        before.push(MORE);
    }
    before.extend(&lines[start..]);
    let before = before.join("\n");
    let after = if inline {
        format!("{before}{content}")
    } else {
        format!("{before}\n{content}")
    };
    Ok(Preview {
        target: TARGET.into(),
        before,
        after,
        diff: None,
        warning: None,
    })
}

/// `daily:prepend`: the note's first lines now, and with the text added at
/// the start of the body, after the properties (their closing `---` is shown
/// so the place is clear).
fn prepend_preview(
    current: &ProbeResult,
    content: &str,
    inline: bool,
) -> Result<Preview, ToolError> {
    let text = note_text(current)?;
    if text.is_empty() {
        return Ok(empty_note_preview(content));
    }
    let lines: Vec<&str> = text.lines().collect();
    let body_start = crate::notes::headings::frontmatter_end(&lines);
    let head: Vec<&str> = lines[body_start.saturating_sub(1)..body_start].to_vec();
    let body = &lines[body_start..];
    let shown = &body[..body.len().min(CONTEXT_LINES)];
    let more = body.len() > shown.len();
    let join = |parts: Vec<String>| parts.join("\n");
    let mut before: Vec<String> = head.iter().map(|l| l.to_string()).collect();
    before.extend(shown.iter().map(|l| l.to_string()));
    let mut after: Vec<String> = head.iter().map(|l| l.to_string()).collect();
    match (inline, shown.split_first()) {
        // Inline continues the first line of the body with it.
        (true, Some((first, rest))) => {
            after.push(format!("{content}{first}"));
            after.extend(rest.iter().map(|l| l.to_string()));
        }
        _ => {
            after.push(content.to_string());
            after.extend(shown.iter().map(|l| l.to_string()));
        }
    }
    if more {
        before.push(MORE.into());
        after.push(MORE.into());
    }
    Ok(Preview {
        target: TARGET.into(),
        before: join(before),
        after: join(after),
        diff: None,
        warning: None,
    })
}

fn empty_note_preview(content: &str) -> Preview {
    Preview {
        target: TARGET.into(),
        before: EMPTY_NOTE.into(),
        after: content.to_string(),
        diff: None,
        warning: None,
    }
}

impl<const AT_START: bool> CommandArgs for DailyAdd<AT_START> {
    fn validate(&mut self) -> Result<(), String> {
        check_not_blank("content", &self.content)
    }

    fn reach(&self) -> Reach {
        Reach::note(Some(NoteLocator::Daily))
    }

    fn write_target(&self) -> Option<String> {
        Some(TARGET.into())
    }

    fn plan(&self) -> Plan<'_> {
        Plan::CliWrite(CliWrite {
            undo: self.undo_kind().unwrap_or(UndoKind::UNKNOWN),
            check: None,
            new_note: None,
            card: self.probe().map(|probe| Card {
                probe,
                exact_note: None,
                preview: self,
            }),
        })
    }
}

impl<const AT_START: bool> DailyAdd<AT_START> {
    pub fn probe(&self) -> Option<CliInvocation> {
        daily_read()
    }

    pub fn undo_kind(&self) -> Option<UndoKind> {
        daily_undo()
    }
}

impl<const AT_START: bool> Previews for DailyAdd<AT_START> {
    fn preview(&self, current: &ProbeResult) -> Result<Preview, ToolError> {
        if AT_START {
            prepend_preview(current, &self.content, self.inline)
        } else {
            append_preview(current, &self.content, self.inline)
        }
    }
}

/// Resolved to its path at the write: undone tomorrow, it is still the note
/// that was changed, not the new day's.
fn daily_undo() -> Option<UndoKind> {
    Some(UndoKind::NoteText(NoteLocator::Daily))
}

pub fn tool() -> ToolSpec {
    ToolSpec {
        id: "obsidianDailyNote",
        display_name: "Daily note",
        description: "Read today's daily note, find its path, or add text at its end or start.",
        guidance: "Use obsidianDailyNote for today's daily note: `daily:read` returns its text, \
                   `daily:path` where it lives (the only way to learn the user's daily note folder \
                   and date format), `daily:append` / `daily:prepend` add text (the note is created \
                   if it does not exist; prepend goes after the properties). Only add what the user \
                   asked for. For other notes use obsidianNotes `read`; for the tasks in today's \
                   note use obsidianTasks with `daily`.",
        commands: vec![
            CommandSpec::new::<DailyReadArgs>("daily:read", Access::Read, "Read today's daily note.")
                .brief("")
                .silent_success("Today's daily note is empty or has not been created yet."),
            CommandSpec::new::<DailyPathArgs>(
                "daily:path",
                Access::Read,
                "Get the vault path of today's daily note (even before it exists).",
            )
                .brief(""),
            CommandSpec::new::<DailyAppendArgs>(
                "daily:append",
                Access::DirectWrite,
                "Add text at the end of today's daily note.",
            )
                .brief("")
            .silent_success("Added to the end of today's daily note.")
            .confirm_as("Add to the end of"),
            CommandSpec::new::<DailyPrependArgs>(
                "daily:prepend",
                Access::DirectWrite,
                "Add text at the start of today's daily note, after its properties.",
            )
                .brief("")
            .silent_success("Added to the start of today's daily note.")
            .confirm_as("Add to the start of"),
        ],
        example: json!({"command": "daily:read"}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOTE: &str = "---\ntags: [daily]\n---\n# Tuesday\n\n- [ ] Ship\n- [x] Plan";

    fn append(content: &str, inline: bool) -> DailyAppendArgs {
        DailyAppendArgs {
            content: content.into(),
            inline,
        }
    }

    fn prepend(content: &str, inline: bool) -> DailyPrependArgs {
        DailyPrependArgs {
            content: content.into(),
            inline,
        }
    }

    fn shown(preview: &Preview) -> (&str, &str) {
        (preview.before.as_str(), preview.after.as_str())
    }

    #[test]
    fn append_shows_the_last_lines_then_the_text_on_a_new_line() {
        let preview = append("- [ ] Call Bob", false)
            .preview(&Ok(NOTE.into()))
            .unwrap();
        assert_eq!(preview.target, "today's daily note");
        assert_eq!(
            shown(&preview),
            (
                "…\n\n- [ ] Ship\n- [x] Plan",
                "…\n\n- [ ] Ship\n- [x] Plan\n- [ ] Call Bob"
            )
        );
        let inline = append(" (moved)", true)
            .preview(&Ok("Short".into()))
            .unwrap();
        assert_eq!(shown(&inline), ("Short", "Short (moved)"));
    }

    #[test]
    fn prepend_goes_after_the_properties() {
        let preview = prepend("## Top", false).preview(&Ok(NOTE.into())).unwrap();
        assert_eq!(
            shown(&preview),
            (
                "---\n# Tuesday\n\n- [ ] Ship\n…",
                "---\n## Top\n# Tuesday\n\n- [ ] Ship\n…"
            )
        );
        let plain = prepend("First ", true)
            .preview(&Ok("line one\nline two".into()))
            .unwrap();
        assert_eq!(
            shown(&plain),
            ("line one\nline two", "First line one\nline two")
        );
        // An opening `---` that never closes is text, not properties.
        let open = prepend("x", false)
            .preview(&Ok("---\nnot closed".into()))
            .unwrap();
        assert_eq!(shown(&open), ("---\nnot closed", "x\n---\nnot closed"));
    }

    #[test]
    fn an_empty_note_shows_only_the_text_and_a_failed_read_is_no_preview() {
        for preview in [
            append("- [ ] a", false)
                .preview(&Ok(String::new()))
                .unwrap(),
            prepend("- [ ] a", false)
                .preview(&Ok(String::new()))
                .unwrap(),
        ] {
            assert!(
                preview.before.starts_with("(empty or not created yet"),
                "{}",
                preview.before
            );
            assert_eq!(preview.after, "- [ ] a");
        }
        let failed = Err(ToolError::AppNotRunning {
            detail: "exit 1".into(),
        });
        for error in [
            append("x", false).preview(&failed).unwrap_err(),
            prepend("x", false).preview(&failed).unwrap_err(),
        ] {
            assert_eq!(error.code(), "cli_error");
            assert!(error.to_string().contains("could not be read"), "{error}");
        }
    }

    #[test]
    fn both_probe_daily_read() {
        for probe in [append("x", false).probe(), prepend("x", false).probe()] {
            assert_eq!(probe.unwrap().to_argv().unwrap(), ["daily:read"]);
        }
    }
}
