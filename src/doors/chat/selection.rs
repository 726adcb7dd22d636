//! A rewrite of the text selected in a note: the shim hands over the note's
//! text as the editor held it and the selection's offsets; the core checks
//! them, keeps where the selection lies (bytes, and a hash of the whole
//! note), and turns the model's answer into an `obsidianEdit` `edit` of
//! exactly that range, so the card, the stale check and undo are the ones
//! every edit has.

use serde_json::{json, Value};

use crate::doors::chat::conversation::{Rewrite, ToolCallRecord};
use crate::doors::chat::prompt::MAX_SELECTION_CHARS;

/// What the model is told in a rewrite's one round (it gets no tools).
pub const REWRITE_RULE: &str = "\n\nThis message asks you to rewrite the text the user selected in a note (given in the message). Answer with the rewritten text only, exactly as it should stand in the note: no introduction, no explanation, no quotation marks or code fence around it.";

/// The editor's selection as the shim found it (read by hand, leniently:
/// anything missing makes a selection `locate` refuses).
#[derive(Clone, Debug)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SelectionRequest {
    /// The note's path.
    pub path: String,
    /// The note's whole text when the user selected (`editor.getValue()`).
    pub text: String,
    /// The selection's start and end in `text`, in UTF-16 code units
    /// (`editor.posToOffset`).
    pub from: u32,
    pub to: u32,
}

impl SelectionRequest {
    pub fn from_value(value: &Value) -> Self {
        let text = |key: &str| {
            value
                .get(key)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        };
        let offset = |key: &str| {
            value
                .get(key)
                .and_then(Value::as_u64)
                .map_or(u32::MAX, |n| n.min(u32::MAX as u64) as u32)
        };
        SelectionRequest {
            path: text("path"),
            text: text("text"),
            from: offset("from"),
            to: offset("to"),
        }
    }
}

/// Where the selection lies, or why it cannot be rewritten.
pub fn locate(request: &SelectionRequest) -> Result<Rewrite, String> {
    let (Some(start), Some(end)) = (
        byte_offset(&request.text, request.from),
        byte_offset(&request.text, request.to),
    ) else {
        return Err(
            "The selection does not lie inside its note's text; select the text again.".into(),
        );
    };
    let (start, end) = (start.min(end), start.max(end));
    let selection = &request.text[start..end];
    if selection.trim().is_empty() {
        return Err("Select the text to rewrite in the note first.".into());
    }
    let chars = selection.chars().count();
    if chars > MAX_SELECTION_CHARS {
        return Err(format!(
            "The selection has {chars} characters; a rewrite takes at most {MAX_SELECTION_CHARS}. Select less, or ask about the note in the chat instead."
        ));
    }
    Ok(Rewrite {
        path: request.path.clone(),
        selection: selection.to_string(),
        start,
        end,
        note_sha256: crate::engine::confirm::text_hash(&request.text),
    })
}

/// The byte offset of UTF-16 offset `units` in `text`, if it falls between
/// two characters.
fn byte_offset(text: &str, units: u32) -> Option<usize> {
    let mut seen = 0u32;
    for (at, c) in text.char_indices() {
        if seen == units {
            return Some(at);
        }
        seen += c.len_utf16() as u32;
    }
    (seen == units).then_some(text.len())
}

/// The model's answer as the edit of the selection: the answer without a
/// fence or quotes around it, and the selection's own leading and trailing
/// white space kept (a selected line keeps its line break).
pub fn edit_call(rewrite: &Rewrite, answer: &str, id: String) -> ToolCallRecord {
    let mut text = answer.trim();
    if let Some(inner) = text.strip_prefix("```").and_then(|t| t.strip_suffix("```")) {
        // ```markdown\n…\n``` : drop the info string's line.
        text = inner
            .split_once('\n')
            .map_or(inner, |(_, body)| body)
            .trim();
    }
    let selection = rewrite.selection.as_str();
    let lead = &selection[..selection.len() - selection.trim_start().len()];
    let trail = &selection[selection.trim_end().len()..];
    let with = format!("{lead}{text}{trail}");
    ToolCallRecord {
        id,
        name: "obsidianEdit".into(),
        arguments: json!({
            "command": "edit",
            "path": rewrite.path,
            "find": selection,
            "with": with,
            "rangeStart": rewrite.start,
            "noteSha256": rewrite.note_sha256,
        })
        .to_string(),
        as_text: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(text: &str, from: u32, to: u32) -> SelectionRequest {
        SelectionRequest {
            path: "A.md".into(),
            text: text.into(),
            from,
            to,
        }
    }

    #[test]
    fn utf16_offsets_become_byte_offsets() {
        // "é" is 2 bytes and 1 unit, "😀" 4 bytes and 2 units.
        let text = "é😀 pick me, rest";
        let rewrite = locate(&request(text, 4, 11)).unwrap();
        assert_eq!(rewrite.selection, "pick me");
        assert_eq!(&text[rewrite.start..rewrite.end], "pick me");
        assert_eq!(rewrite.note_sha256, crate::engine::confirm::text_hash(text));
        // Backwards (the caret before the anchor) is the same range.
        assert_eq!(locate(&request(text, 11, 4)).unwrap().start, rewrite.start);
    }

    #[test]
    fn a_selection_that_cannot_be_rewritten_says_why() {
        // Inside the emoji's surrogate pair, past the end, blank, too long.
        assert!(locate(&request("😀 x", 1, 3))
            .unwrap_err()
            .contains("select the text again"));
        assert!(locate(&request("abc", 0, 9)).is_err());
        assert!(locate(&request("a   b", 1, 4))
            .unwrap_err()
            .contains("Select the text"));
        let long = "x".repeat(MAX_SELECTION_CHARS + 1);
        assert!(locate(&request(&long, 0, long.len() as u32))
            .unwrap_err()
            .contains("at most 2000"));
    }

    #[test]
    fn the_answer_replaces_the_selection_keeping_its_edges() {
        let rewrite = locate(&request("Intro\n  old line\nEnd", 6, 17)).unwrap();
        assert_eq!(rewrite.selection, "  old line\n");
        let call = edit_call(&rewrite, "```markdown\nnew line\n```\n", "r1".into());
        let args: serde_json::Value = serde_json::from_str(&call.arguments).unwrap();
        assert_eq!(args["with"], "  new line\n");
        assert_eq!(args["find"], "  old line\n");
        assert_eq!(args["rangeStart"], 6);
    }
}
