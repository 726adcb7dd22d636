//! What a coding agent's session (ACP) may send and ask, beside its
//! questions (`agent_questions`): how much of what it streams the chat keeps,
//! how large a note it may read whole, and that its file requests and
//! questions are served only while a turn runs.
//!
//! The numbers reach the shim as generated constants
//! (`plugin-shim/generated/limits.ts`, written by `src/ts_types.rs`), so the
//! shim applies them without a copy of its own.

use serde::Serialize;

use crate::base::error::ToolError;
use crate::base::text::human_bytes;

/// Characters (UTF-16 code units, as JavaScript counts them) of one answer's
/// text the chat keeps, and as many of one turn's thoughts. An agent that
/// streamed 100 MB made the plugin keep it twice (the session's copy and
/// the chat's); past this the stream is dropped, and the text says so.
pub const TEXT_MAX_CHARS: usize = 4 * 1024 * 1024;

/// Said in the answer where its text was cut.
pub const ANSWER_CUT_NOTE: &str =
    "\n\n[Cut here: the chat keeps the first 4 MiB of an answer; the agent's further text was left out.]";

/// Said in the thoughts where they were cut.
pub const THOUGHTS_CUT_NOTE: &str =
    "\n\n[Cut here: the chat keeps the first 4 MiB of the agent's thoughts; the rest were left out.]";

/// Plan entries shown; the last place says how many more there were.
pub const PLAN_MAX_ENTRIES: usize = 100;

/// Characters of one plan entry shown.
pub const PLAN_ENTRY_MAX_CHARS: usize = 500;

/// The plan's last entry when it has more: `{count}` is how many were left out.
pub const PLAN_MORE_NOTE: &str = "…and {count} more steps (not shown)";

/// Characters of a tool call's title, arguments and output the chat shows
/// (its block), each; the agent's tool ran with all of it.
pub const TOOL_TEXT_MAX_CHARS: usize = 64 * 1024;

/// Tool calls of one turn shown as blocks; the rest are counted in a notice.
pub const TOOL_CALLS_MAX: usize = 500;

/// Streamed text and thoughts are handed to the chat at most this often
/// (once a frame at 60 Hz): what arrives meanwhile is drawn in one go, not
/// one DOM change per chunk.
pub const DRAW_INTERVAL_MS: u32 = 16;

/// What the chat sends a coding agent images with: the limits to scale them
/// to (Anthropic's, the strictest of the models agents run), or, when the
/// agent did not advertise `image` in its `promptCapabilities`, why they are
/// not sent (then nothing is: never a message without its images).
pub fn images(agent: &str, advertised: bool) -> Result<crate::base::host::ImageLimits, String> {
    match advertised {
        true => Ok(crate::base::host::ANTHROPIC_IMAGE_LIMITS),
        false => Err(format!(
            "{agent} does not take images (it does not list them in its prompt capabilities), so nothing was sent. Remove the images, or pick a model profile whose model reads them."
        )),
    }
}

/// The largest note `fs/read_text_file` returns (bytes of UTF-8). Larger
/// notes are refused (`note_too_large`), never shortened: an agent would
/// take a cut text for the whole file and write it back so.
pub const READ_MAX_BYTES: usize = 8 * 1024 * 1024;

/// What an agent asks of the client, as ACP names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentRequest {
    ReadTextFile,
    WriteTextFile,
    RequestPermission,
}

impl AgentRequest {
    pub fn from_method(method: &str) -> Option<Self> {
        match method {
            "fs/read_text_file" => Some(AgentRequest::ReadTextFile),
            "fs/write_text_file" => Some(AgentRequest::WriteTextFile),
            "session/request_permission" => Some(AgentRequest::RequestPermission),
            _ => None,
        }
    }

    fn method(self) -> &'static str {
        match self {
            AgentRequest::ReadTextFile => "fs/read_text_file",
            AgentRequest::WriteTextFile => "fs/write_text_file",
            AgentRequest::RequestPermission => "session/request_permission",
        }
    }

    /// "read Notes/a.md", for the user's notice.
    fn described(self, subject: &str) -> String {
        let subject = shown(subject);
        match self {
            AgentRequest::ReadTextFile => format!("to read {subject}"),
            AgentRequest::WriteTextFile => format!("to write {subject}"),
            AgentRequest::RequestPermission if subject.is_empty() => "a question".to_string(),
            AgentRequest::RequestPermission => format!("\"{subject}\""),
        }
    }
}

/// A request that is not served: the error the agent gets, and what the
/// chat tells the user.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct AgentRefusal {
    pub code: String,
    /// For the agent (a JSON-RPC error message).
    pub message: String,
    /// For the user (a notice in the chat).
    pub notice: String,
}

/// Whether `request` may be served now: only while a turn of the session
/// runs (between the user's Send and the end of the answer), when the chat
/// shows what happens and the user can answer its cards and questions.
/// Between turns nothing would show a card or a tool block, so a write
/// would happen unseen, or wait on a card nobody sees: refused instead.
/// `subject` is the path or question title, `agent` its name.
pub fn check(
    request: AgentRequest,
    door_open: bool,
    in_turn: bool,
    agent: &str,
    subject: &str,
) -> Option<AgentRefusal> {
    if door_open && in_turn {
        return None;
    }
    let error = ToolError::OutsideTurn {
        request: request.method().to_string(),
        ended: !door_open,
    };
    let when = if door_open {
        "after its answer had ended"
    } else {
        "after its session was closed"
    };
    Some(AgentRefusal {
        code: error.code().to_string(),
        message: error.to_string(),
        notice: format!(
            "{agent} asked {} {when}; it was refused: Vault Agent answers an agent's file requests and questions only while its turn runs, where you can see them.",
            request.described(subject)
        ),
    })
}

/// The error for a note too large to hand to an agent whole.
pub fn too_large(path: &str, bytes: usize) -> ToolError {
    let max = human_bytes(READ_MAX_BYTES as u64);
    let size = match human_bytes(bytes as u64) {
        // Just over the limit reads as the limit itself when rounded.
        rounded if rounded == max => format!("{bytes} bytes"),
        rounded => rounded,
    };
    ToolError::NoteTooLarge {
        target: format!("\"{path}\""),
        size,
        max,
    }
}

/// ACP's `line` (1-based) and `limit` (lines) of a text, as the agent asked.
pub fn lines(text: &str, line: Option<u32>, limit: Option<u32>) -> String {
    if line.is_none() && limit.is_none() {
        return text.to_string();
    }
    let start = line.unwrap_or(1).max(1) as usize - 1;
    let lines = text.split('\n').skip(start);
    match limit {
        Some(limit) => lines.take(limit as usize).collect::<Vec<_>>().join("\n"),
        None => lines.collect::<Vec<_>>().join("\n"),
    }
}

/// A subject as the notice shows it: one line, short.
fn shown(subject: &str) -> String {
    let line: String = subject
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let line = line.trim();
    match line.char_indices().nth(120) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_agent_gets_images_only_where_it_advertises_them() {
        assert_eq!(
            images("Claude Code", true),
            Ok(crate::base::host::ANTHROPIC_IMAGE_LIMITS)
        );
        let refusal = images("Gemini CLI", false).unwrap_err();
        assert!(
            refusal.starts_with("Gemini CLI does not take images"),
            "{refusal}"
        );
        assert!(refusal.contains("nothing was sent"), "{refusal}");
    }

    #[test]
    fn requests_are_served_only_while_a_turn_runs_on_an_open_door() {
        for request in [
            AgentRequest::ReadTextFile,
            AgentRequest::WriteTextFile,
            AgentRequest::RequestPermission,
        ] {
            assert_eq!(check(request, true, true, "Codex", "a.md"), None);
            let between = check(request, true, false, "Codex", "Notes/a.md").unwrap();
            assert_eq!(between.code, "outside_turn");
            assert!(
                between.message.contains(request.method()),
                "{}",
                between.message
            );
            assert!(
                between.message.contains("only while"),
                "{}",
                between.message
            );
            assert!(
                between.notice.starts_with("Codex asked"),
                "{}",
                between.notice
            );
            assert!(between.notice.contains("after its answer had ended"));
            let closed = check(request, false, true, "Codex", "Notes/a.md").unwrap();
            assert!(closed.notice.contains("after its session was closed"));
            assert!(check(request, false, false, "Codex", "x").is_some());
        }
    }

    #[test]
    fn the_notice_names_what_was_asked_on_one_short_line() {
        let write = check(AgentRequest::WriteTextFile, true, false, "A", "Notes/x.md").unwrap();
        assert!(
            write.notice.contains("to write Notes/x.md "),
            "{}",
            write.notice
        );
        let read = check(AgentRequest::ReadTextFile, true, false, "A", "Notes/x.md").unwrap();
        assert!(read.notice.contains("to read Notes/x.md "));
        let asked = check(AgentRequest::RequestPermission, true, false, "A", "Run\nit").unwrap();
        assert!(asked.notice.contains("\"Run it\""), "{}", asked.notice);
        // A question without a title is named as one, not as empty quotes.
        let untitled = check(AgentRequest::RequestPermission, false, false, "A", " ").unwrap();
        assert!(
            untitled
                .notice
                .starts_with("A asked a question after its session was closed;"),
            "{}",
            untitled.notice
        );
        let long = check(
            AgentRequest::ReadTextFile,
            true,
            false,
            "A",
            &"é".repeat(500),
        )
        .unwrap();
        assert!(long.notice.chars().count() < 400, "{}", long.notice);
        assert!(long.notice.contains('…'));
    }

    #[test]
    fn methods_are_known_by_their_acp_names() {
        assert_eq!(
            AgentRequest::from_method("fs/write_text_file"),
            Some(AgentRequest::WriteTextFile)
        );
        assert_eq!(
            AgentRequest::from_method("fs/read_text_file"),
            Some(AgentRequest::ReadTextFile)
        );
        assert_eq!(
            AgentRequest::from_method("session/request_permission"),
            Some(AgentRequest::RequestPermission)
        );
        assert_eq!(AgentRequest::from_method("terminal/create"), None);
    }

    #[test]
    fn line_and_limit_pick_lines_as_acp_counts_them() {
        let text = "one\ntwo\nthree\nfour";
        assert_eq!(lines(text, None, None), text);
        assert_eq!(lines(text, Some(2), None), "two\nthree\nfour");
        assert_eq!(lines(text, Some(2), Some(2)), "two\nthree");
        assert_eq!(lines(text, None, Some(1)), "one");
        assert_eq!(
            lines(text, Some(0), Some(1)),
            "one",
            "line 0 reads as the first"
        );
        assert_eq!(lines(text, Some(9), None), "");
    }

    #[test]
    fn a_note_too_large_says_its_size_and_the_limit() {
        let error = too_large("Big.md", 9 * 1024 * 1024);
        assert_eq!(error.code(), "note_too_large");
        let text = error.to_string();
        assert!(text.contains("\"Big.md\""), "{text}");
        assert!(text.contains("too large"), "{text}");
        assert!(text.contains("9.0 MiB"), "{text}");
        assert!(text.contains("8.0 MiB"), "{text}");
        let just_over = too_large("Big.md", READ_MAX_BYTES + 7).to_string();
        assert!(
            just_over.contains("8388615 bytes, more than the 8.0 MiB"),
            "{just_over}"
        );
    }

    #[test]
    fn the_cut_notes_name_the_cap() {
        assert_eq!(TEXT_MAX_CHARS, 4 * 1024 * 1024);
        for note in [ANSWER_CUT_NOTE, THOUGHTS_CUT_NOTE] {
            assert!(note.contains("4 MiB"), "{note}");
            assert!(note.contains("Cut"), "{note}");
        }
        assert!(PLAN_MORE_NOTE.contains("{count}"));
    }
}
