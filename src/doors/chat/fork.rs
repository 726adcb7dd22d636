//! "Fork from here" (issue 41.6): a new chat with the messages of another
//! up to and including one of them, to go another way from there; the
//! original is not changed. A change still waiting for the user's click is
//! not copied (its card belongs to the original), and the fork's first line
//! says so.

use super::conversation::{ChatMessage, Conversation, MAX_TITLE_CHARS};

/// The message a fork ends with, numbered as the transcript shows them:
/// the user's messages, and the model's messages with text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForkAt {
    User(usize),
    Answer(usize),
}

impl ForkAt {
    /// `role` as the shim names it: "user" or "assistant".
    pub fn new(role: &str, index: usize) -> Option<ForkAt> {
        match role {
            "user" => Some(ForkAt::User(index)),
            "assistant" => Some(ForkAt::Answer(index)),
            _ => None,
        }
    }

    /// Where the message is in `messages`.
    fn position(self, messages: &[ChatMessage]) -> Option<usize> {
        let (wanted, n) = match self {
            ForkAt::User(n) => (true, n),
            ForkAt::Answer(n) => (false, n),
        };
        messages
            .iter()
            .enumerate()
            .filter(|(_, m)| match m {
                ChatMessage::User { .. } => wanted,
                ChatMessage::Assistant { text, .. } => !wanted && !text.trim().is_empty(),
                _ => false,
            })
            .nth(n)
            .map(|(i, _)| i)
    }
}

/// The suffix a fork's title gets.
const FORK_SUFFIX: &str = " (fork)";

/// A new chat `id` with `conversation`'s messages up to and including `at`:
/// titled "<title> (fork)", its summaries kept where they cover only what
/// it holds, without the original's pending card, approvals for outside
/// tools, usage or plan. Calls whose answers were not copied go with them.
pub fn fork(
    conversation: &Conversation,
    at: ForkAt,
    id: String,
    now_ms: f64,
) -> Result<Conversation, &'static str> {
    if conversation.agent.is_some() {
        return Err("A coding agent keeps its own history, which cannot be forked: start a new chat instead.");
    }
    let end = at
        .position(&conversation.messages)
        .ok_or("That message is not in this chat any more.")?;
    let copied = &conversation.messages[..=end];
    // The paused call is in the newest message with calls: copied, it would
    // be a card without its chat.
    let mut pending = conversation.paused.as_ref().is_some_and(|paused| {
        copied.iter().any(|m| match m {
            ChatMessage::Assistant { tool_calls, .. } => {
                tool_calls.iter().any(|c| c.id == paused.call.id)
            }
            _ => false,
        }) && !answered_later(copied, &paused.call.id)
    });
    // Results held for a card (a plan's changes) wait too.
    let mut kept: Vec<Option<ChatMessage>> = copied
        .iter()
        .map(|m| match m {
            ChatMessage::Tool { result, .. } if result.pending.is_some() => {
                pending = true;
                None
            }
            other => Some(other.clone()),
        })
        .collect();
    // Each call keeps only answers that were copied (a server refuses a call
    // without its answer), and a message left with nothing goes.
    for a in 0..kept.len() {
        let answers: Vec<String> = kept[a + 1..]
            .iter()
            .flatten()
            .take_while(|m| matches!(m, ChatMessage::Tool { .. }))
            .filter_map(|m| match m {
                ChatMessage::Tool { call_id, .. } => Some(call_id.clone()),
                _ => None,
            })
            .collect();
        if let Some(ChatMessage::Assistant {
            text,
            tool_calls,
            reasoning,
            ..
        }) = &mut kept[a]
        {
            tool_calls.retain(|c| answers.contains(&c.id));
            if text.trim().is_empty() && tool_calls.is_empty() && reasoning.trim().is_empty() {
                kept[a] = None;
            }
        }
    }
    let mut title: String = conversation
        .title
        .chars()
        .take(MAX_TITLE_CHARS - FORK_SUFFIX.len())
        .collect();
    title.push_str(FORK_SUFFIX);
    let mut first = format!("Forked from “{}”.", conversation.title);
    if pending {
        first.push_str(
            " The change that was waiting for approval there was not copied: ask again here if you still want it.",
        );
    }
    let mut forked = Conversation::new(id, now_ms);
    forked.title = title;
    forked.renamed = true;
    forked.plan_mode = conversation.plan_mode;
    // A summary covers the copied messages before its end (one more: the first line).
    forked.compactions = conversation
        .compactions
        .iter()
        .filter(|c| c.upto <= copied.len())
        .map(|c| super::conversation::Compaction {
            upto: 1 + kept[..c.upto].iter().flatten().count(),
            ..c.clone()
        })
        .collect();
    forked.messages = std::iter::once(ChatMessage::Notice { text: first })
        .chain(kept.into_iter().flatten())
        .collect();
    Ok(forked)
}

/// Whether a result for call `id` follows its call in `messages`.
fn answered_later(messages: &[ChatMessage], id: &str) -> bool {
    let Some(at) = messages.iter().rposition(|m| match m {
        ChatMessage::Assistant { tool_calls, .. } => tool_calls.iter().any(|c| c.id == id),
        _ => false,
    }) else {
        return false;
    };
    messages[at + 1..]
        .iter()
        .any(|m| matches!(m, ChatMessage::Tool { call_id, .. } if call_id == id))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::card::PendingView;
    use crate::base::result::ToolResult;
    use crate::doors::chat::conversation::{Compaction, PausedTurn, ToolCallRecord};

    fn user(text: &str) -> ChatMessage {
        ChatMessage::User {
            text: text.into(),
            attachments: None,
        }
    }

    fn answer(text: &str) -> ChatMessage {
        ChatMessage::assistant(text.into(), Vec::new())
    }

    fn call(id: &str) -> ToolCallRecord {
        ToolCallRecord {
            id: id.into(),
            name: "obsidianNotes".into(),
            arguments: r#"{"command":"read","file":"Plan"}"#.into(),
            as_text: false,
        }
    }

    fn result(id: &str) -> ChatMessage {
        ChatMessage::Tool {
            call_id: id.into(),
            tool: "obsidianNotes".into(),
            content: "plan".into(),
            is_error: false,
            result: Box::new(ToolResult::success("plan")),
            table: None,
        }
    }

    fn chat() -> Conversation {
        let mut c = Conversation::new("chat-1".into(), 0.0);
        c.title = "My plan".into();
        c.messages = vec![
            user("What is my plan?"),
            ChatMessage::assistant("Let me look.".into(), vec![call("c1")]),
            result("c1"),
            answer("Ship it."),
            user("Add a line"),
            ChatMessage::assistant(String::new(), vec![call("c2")]),
        ];
        c.paused = Some(PausedTurn {
            confirmation_id: "conf-1".into(),
            call: call("c2"),
            remaining: Vec::new(),
            rounds: 1,
        });
        c.usage.input_tokens = 900;
        c.approved_outside = vec!["server/tool".into()];
        c
    }

    #[test]
    fn a_fork_holds_the_messages_up_to_the_one_picked_and_the_original_is_unchanged() {
        let original = chat();
        let before = original.clone();
        let forked = fork(&original, ForkAt::Answer(1), "chat-2".into(), 5.0).unwrap();
        assert_eq!(original, before);
        assert_eq!(forked.id, "chat-2");
        assert_eq!(forked.title, "My plan (fork)");
        assert!(
            forked.renamed,
            "its title does not follow its first message"
        );
        assert_eq!(
            forked.messages,
            [
                vec![ChatMessage::Notice {
                    text: "Forked from “My plan”.".into()
                }],
                original.messages[..4].to_vec()
            ]
            .concat()
        );
        assert_eq!(
            (forked.paused.clone(), forked.usage.input_tokens),
            (None, 0)
        );
        assert!(forked.approved_outside.is_empty());
        // The first answer is the lead-in "Let me look.": its call's answer follows it.
        let early = fork(&original, ForkAt::Answer(0), "chat-3".into(), 5.0).unwrap();
        assert_eq!(
            early.messages[1..],
            [user("What is my plan?"), answer("Let me look.")],
            "a call whose answer was not copied goes with it"
        );
    }

    #[test]
    fn a_pending_card_is_not_copied_and_the_first_line_says_so() {
        let forked = fork(&chat(), ForkAt::User(1), "chat-2".into(), 5.0).unwrap();
        assert_eq!(forked.messages.last(), Some(&user("Add a line")));
        let ChatMessage::Notice { text } = &forked.messages[0] else {
            panic!()
        };
        assert_eq!(text, "Forked from “My plan”.");
        // Forked after the call that waits: it is dropped, and said.
        let mut waiting = chat();
        waiting.messages.push(answer("Approve it above."));
        let forked = fork(&waiting, ForkAt::Answer(2), "chat-2".into(), 5.0).unwrap();
        let ChatMessage::Notice { text } = &forked.messages[0] else {
            panic!()
        };
        assert!(
            text.contains("was waiting for approval there was not copied"),
            "{text}"
        );
        assert!(forked.paused.is_none());
        assert!(!forked.messages.iter().any(|m| matches!(m, ChatMessage::Assistant { tool_calls, .. } if tool_calls.iter().any(|c| c.id == "c2"))));
        // A held result (a plan's change waiting for its card) is not copied either.
        let mut held = chat();
        held.paused = None;
        let mut pending = ToolResult::success("held");
        pending.pending = Some(PendingView {
            id: "conf-2".into(),
            summary: "Add a line".into(),
            preview: crate::base::call::Preview {
                target: "Plan".into(),
                before: String::new(),
                after: String::new(),
                diff: None,
                warning: None,
            },
        });
        held.messages.push(ChatMessage::Tool {
            call_id: "c2".into(),
            tool: "obsidianNotes".into(),
            content: "held".into(),
            is_error: false,
            result: Box::new(pending),
            table: None,
        });
        held.messages.push(answer("Both changes are on one card."));
        let forked = fork(&held, ForkAt::Answer(2), "chat-2".into(), 5.0).unwrap();
        assert_eq!(forked.messages.len(), 7, "{:?}", forked.messages);
        assert!(
            matches!(&forked.messages[0], ChatMessage::Notice { text } if text.contains("not copied"))
        );
    }

    #[test]
    fn summaries_come_along_where_they_cover_only_what_was_copied() {
        let mut c = chat();
        c.compactions = vec![Compaction {
            upto: 4,
            turns: 1,
            summary: "s".into(),
            saved_tokens: 9,
        }];
        let forked = fork(&c, ForkAt::User(1), "chat-2".into(), 5.0).unwrap();
        assert_eq!(forked.compactions.len(), 1);
        assert_eq!(
            forked.compactions[0].upto, 5,
            "the first line comes before it"
        );
        assert!(matches!(forked.messages[5], ChatMessage::User { .. }));
        let forked = fork(&c, ForkAt::Answer(1), "chat-2".into(), 5.0).unwrap();
        assert_eq!(forked.compactions[0].upto, 5);
        let forked = fork(&c, ForkAt::User(0), "chat-2".into(), 5.0).unwrap();
        assert!(forked.compactions.is_empty());
    }

    #[test]
    fn what_cannot_be_forked_says_why() {
        let c = chat();
        assert!(fork(&c, ForkAt::Answer(7), "x".into(), 0.0).is_err());
        let mut agent = chat();
        agent.agent = Some(crate::doors::chat::conversation::AgentChat {
            profile: "claude".into(),
            name: "Claude Code".into(),
            session_id: None,
        });
        assert!(fork(&agent, ForkAt::User(0), "x".into(), 0.0)
            .unwrap_err()
            .contains("coding agent"));
        assert_eq!(ForkAt::new("tool", 0), None);
    }
}
