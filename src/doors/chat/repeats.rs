//! A model that asks for the same call again: small models repeat a failing
//! call until the round limit, or make the same change twice. Within one
//! turn (since the user's last message) the same tool with the same
//! arguments (as JSON values: key order does not matter) is counted.

use serde_json::Value;

use crate::doors::chat::conversation::{ChatMessage, ToolCallRecord};

/// Failures of one call after which it is not run again in the turn.
pub const FAILURES_ALLOWED: usize = 2;

/// What the turn so far says about a call the model asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repeat {
    /// Not asked before in this turn, or not in a way that matters.
    Fresh,
    /// The same call failed `FAILURES_ALLOWED` times already in this turn.
    FailedTwice,
    /// The same change already ran in this turn.
    ChangeDone,
    /// The same read already ran `READS_ALLOWED` times in this turn: its
    /// result is above.
    ReadDone,
    /// The same read, asked again after it was refused as `ReadDone`: the
    /// model is not reading its results, so the turn ends.
    ReadIgnored,
}

/// Times one read runs in a turn (twice: a read again after a change sees
/// the change).
pub const READS_ALLOWED: usize = 2;

/// The same call: the same tool, arguments equal as JSON (as text when they
/// do not parse).
fn same(a: &ToolCallRecord, b: &ToolCallRecord) -> bool {
    if a.name != b.name {
        return false;
    }
    match (
        serde_json::from_str::<Value>(&a.arguments),
        serde_json::from_str::<Value>(&b.arguments),
    ) {
        (Ok(x), Ok(y)) => x == y,
        _ => a.arguments.trim() == b.arguments.trim(),
    }
}

/// How often `call` failed and succeeded in the turn so far. A tool result
/// belongs to the assistant message before it (servers reuse ids such as
/// `call_0` round after round, so ids alone do not say which call it was).
pub fn outcomes(messages: &[ChatMessage], call: &ToolCallRecord) -> (usize, usize) {
    let start = messages
        .iter()
        .rposition(|m| matches!(m, ChatMessage::User { .. }))
        .map_or(0, |at| at + 1);
    let mut asked: &[ToolCallRecord] = &[];
    let (mut failed, mut done) = (0, 0);
    for message in &messages[start..] {
        match message {
            ChatMessage::Assistant { tool_calls, .. } => asked = tool_calls,
            ChatMessage::Tool {
                call_id, is_error, ..
            } => {
                let earlier = asked.iter().find(|c| &c.id == call_id);
                if earlier.is_some_and(|earlier| same(earlier, call)) {
                    if *is_error {
                        failed += 1;
                    } else {
                        done += 1;
                    }
                }
            }
            _ => {}
        }
    }
    (failed, done)
}

/// Whether `call` may run: a call that failed twice is not tried a third
/// time, a change (`is_change`) that already ran is not made again, and a
/// read that ran twice is answered from above.
pub fn check(messages: &[ChatMessage], call: &ToolCallRecord, is_change: bool) -> Repeat {
    let (failed, done) = outcomes(messages, call);
    if failed >= FAILURES_ALLOWED {
        Repeat::FailedTwice
    } else if is_change && done > 0 {
        Repeat::ChangeDone
    } else if !is_change && done >= READS_ALLOWED {
        // Its refusal counts as a failure of the call: asked once after it,
        // the model is not reading what it gets.
        if failed > 0 {
            Repeat::ReadIgnored
        } else {
            Repeat::ReadDone
        }
    } else {
        Repeat::Fresh
    }
}

/// What the model reads instead of a result when the call was not run.
pub fn refusal(repeat: Repeat) -> &'static str {
    match repeat {
        Repeat::FailedTwice => "not run: this same call (same tool, same arguments) already failed twice in this message. Do not send it again; change the arguments, use another tool, or tell the user what went wrong",
        Repeat::ChangeDone => "not run: this exact change was already made in this message, so making it again would repeat it. Do not send it again; if the user wants it twice, ask them",
        Repeat::ReadDone | Repeat::ReadIgnored => "not run: this same read (same tool, same arguments) already ran twice in this message and its result is above. Do not send it again; answer from that result, or read something else",
        Repeat::Fresh => "",
    }
}

/// Added to the second failure of a call, so the model changes course
/// before the call is refused.
pub const SECOND_FAILURE: &str = "\n\nThis same call (same tool, same arguments) has now failed twice in this message. Do not send it again: change the arguments, use another tool, or tell the user what went wrong.";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::result::ToolResult;

    fn call(id: &str, args: &str) -> ToolCallRecord {
        ToolCallRecord {
            id: id.into(),
            name: "obsidianNotes".into(),
            arguments: args.into(),
            as_text: false,
        }
    }

    fn round(id: &str, args: &str, is_error: bool) -> Vec<ChatMessage> {
        vec![
            ChatMessage::assistant(String::new(), vec![call(id, args)]),
            ChatMessage::Tool {
                call_id: id.into(),
                tool: "obsidianNotes".into(),
                content: String::new(),
                is_error,
                result: Box::new(ToolResult::success(String::new())),
                table: None,
            },
        ]
    }

    fn user(text: &str) -> ChatMessage {
        ChatMessage::User {
            text: text.into(),
            attachments: None,
        }
    }

    #[test]
    fn a_call_that_failed_twice_is_not_run_a_third_time() {
        let args = r#"{"command":"read","path":"a.md"}"#;
        // The same id each round, as some servers send.
        let mut messages = vec![user("read a")];
        messages.extend(round("call_0", args, true));
        let again = call("call_0", r#"{"path":"a.md","command":"read"}"#);
        assert_eq!(check(&messages, &again, false), Repeat::Fresh, "once");
        messages.extend(round("call_0", args, true));
        assert_eq!(check(&messages, &again, false), Repeat::FailedTwice);
        // Other arguments are another call.
        let other = call("call_0", r#"{"command":"read","path":"b.md"}"#);
        assert_eq!(check(&messages, &other, false), Repeat::Fresh);
        // A new message from the user starts the count again.
        messages.push(user("try again"));
        assert_eq!(check(&messages, &again, false), Repeat::Fresh);
    }

    /// Small models read the same note round after round until the limit
    /// (ten rounds, about 22 000 tokens for one question, measured by the
    /// task benchmark's repeating persona).
    #[test]
    fn a_read_asked_a_third_time_is_answered_from_above_then_ends_the_turn() {
        let args = r#"{"command":"read","path":"a.md"}"#;
        let mut messages = vec![user("read a")];
        messages.extend(round("call_0", args, false));
        assert_eq!(check(&messages, &call("c", args), false), Repeat::Fresh);
        messages.extend(round("call_0", args, false));
        assert_eq!(check(&messages, &call("c", args), false), Repeat::ReadDone);
        // The refusal is what the model got: asked once more, the turn ends.
        messages.extend(round("call_0", args, true));
        assert_eq!(
            check(&messages, &call("c", args), false),
            Repeat::ReadIgnored
        );
        assert!(refusal(Repeat::ReadDone).contains("its result is above"));
        // Another read is another call; a new message starts the count again.
        let other = call("c", r#"{"command":"read","path":"b.md"}"#);
        assert_eq!(check(&messages, &other, false), Repeat::Fresh);
        messages.push(user("again"));
        assert_eq!(check(&messages, &call("c", args), false), Repeat::Fresh);
    }

    #[test]
    fn a_change_that_ran_is_not_made_again_in_the_turn() {
        let args = r#"{"command":"append","path":"a.md","content":"x"}"#;
        let mut messages = vec![user("append x")];
        messages.extend(round("call_1", args, false));
        assert_eq!(
            check(&messages, &call("call_2", args), true),
            Repeat::ChangeDone
        );
        // A read that succeeded may be read again (after a change, say).
        assert_eq!(
            check(&messages, &call("call_2", args), false),
            Repeat::Fresh
        );
        messages.push(user("once more"));
        assert_eq!(check(&messages, &call("call_2", args), true), Repeat::Fresh);
    }
}
