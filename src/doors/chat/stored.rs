//! A conversation file as it is found in the plugin's folder, read through
//! one checked loader (like `data.json`): a file of the wrong shape (an older
//! or newer version, a hand edit, a damaged write) must neither throw in the
//! chat or its history search nor take the other chats with it. What can be
//! read is kept; what cannot is left out or replaced, and said once.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::doors::chat::conversation::{ChatMessage, Conversation};

/// A conversation as loaded, and what had to be repaired (empty for a good
/// file). `repairs` is one sentence for the log and the chat.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct LoadedConversation {
    pub conversation: Conversation,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub repairs: Option<String>,
}

/// Reads `value` (the file's JSON) as a conversation. `file_id` is the id
/// the file's name gives, used when the file has none. `Err` says why it is
/// no conversation at all (not a JSON object); anything else loads.
pub fn load(value: Value, file_id: &str) -> Result<LoadedConversation, String> {
    let Value::Object(fields) = value else {
        return Err(format!(
            "the file holds {} instead of a chat",
            kind_of(&value)
        ));
    };
    // A good file, as the plugin writes it: as it is.
    if let Ok(conversation) = serde_json::from_value::<Conversation>(Value::Object(fields.clone()))
    {
        return Ok(LoadedConversation {
            conversation,
            repairs: None,
        });
    }
    let mut problems: Vec<String> = Vec::new();
    let id = match fields.get("id") {
        Some(Value::String(id)) if !id.is_empty() => id.clone(),
        _ => {
            problems.push("its id was missing".into());
            file_id.to_string()
        }
    };
    let number = |key: &str| fields.get(key).and_then(Value::as_f64);
    let updated = number("updatedMs").or(number("createdMs")).unwrap_or(0.0);
    let mut conversation = Conversation::new(id, number("createdMs").unwrap_or(updated));
    conversation.updated_ms = updated;

    let mut dropped = 0usize;
    match fields.get("messages") {
        Some(Value::Array(messages)) => {
            for message in messages {
                match serde_json::from_value::<ChatMessage>(message.clone()) {
                    Ok(message) => conversation.messages.push(message),
                    Err(_) => dropped += 1,
                }
            }
        }
        None | Some(Value::Null) => problems.push("it had no messages".into()),
        Some(_) => problems.push("its messages were not a list, so none could be read".into()),
    }
    if dropped > 0 {
        problems.push(format!(
            "{dropped} message{} could not be read and {} left out",
            if dropped == 1 { "" } else { "s" },
            if dropped == 1 { "was" } else { "were" }
        ));
    }
    let mut unreadable: Vec<&str> = Vec::new();
    conversation.paused = optional(&fields, "paused", &mut unreadable);
    conversation.door = optional(&fields, "door", &mut unreadable);
    conversation.agent = optional(&fields, "agent", &mut unreadable);
    conversation.turn_usage = optional(&fields, "turnUsage", &mut unreadable);
    conversation.usage = optional(&fields, "usage", &mut unreadable).unwrap_or_default();
    conversation.renamed = optional(&fields, "renamed", &mut unreadable).unwrap_or(false);
    conversation.rewinds = optional(&fields, "rewinds", &mut unreadable).unwrap_or(0);
    // A summary covers messages by their place: with any left out, it
    // would cover others, so it goes (the chat is compacted anew if needed).
    let compactions: Vec<crate::doors::chat::conversation::Compaction> =
        optional(&fields, "compactions", &mut unreadable).unwrap_or_default();
    let len = conversation.messages.len();
    if dropped == 0 && compactions.iter().all(|c| c.upto <= len) {
        conversation.compactions = compactions;
    } else if !compactions.is_empty() {
        problems.push("its summaries of earlier turns were left out".into());
    }
    if !unreadable.is_empty() {
        problems.push(format!("its {} were reset", unreadable.join(", ")));
    }
    if dropped > 0 {
        let unpaired = pair_tool_calls(&mut conversation);
        if unpaired > 0 {
            problems.push(format!(
                "{unpaired} tool call{} without {} answer went with them",
                if unpaired == 1 { "" } else { "s" },
                if unpaired == 1 { "its" } else { "their" }
            ));
        }
    }
    match fields.get("title") {
        Some(Value::String(title)) => conversation.title = title.clone(),
        _ => {
            conversation.title = "Chat".into();
            conversation.renamed = false;
            conversation.retitle();
            problems.push("its title was not text, so it is named after its first message".into());
        }
    }
    Ok(LoadedConversation {
        repairs: (!problems.is_empty()).then(|| {
            format!(
                "The saved chat \"{}\" was damaged: {}. The rest of it, and every other chat, is as it was.",
                conversation.title,
                problems.join("; ")
            )
        }),
        conversation,
    })
}

/// An optional field: its value, or `None` (named in `unreadable`) when it
/// is there but of the wrong shape.
fn optional<'k, T: DeserializeOwned>(
    fields: &serde_json::Map<String, Value>,
    key: &'k str,
    unreadable: &mut Vec<&'k str>,
) -> Option<T> {
    match fields.get(key) {
        None | Some(Value::Null) => None,
        Some(value) => serde_json::from_value(value.clone())
            .map_err(|_| unreadable.push(key))
            .ok(),
    }
}

/// Keeps each tool answer with the call it answers, once messages were left
/// out: an answer whose call is gone goes, and so does a call whose answer
/// is gone (a model server refuses either). Calls of a turn paused on a card
/// have no answer yet and stay. Returns how many went.
fn pair_tool_calls(conversation: &mut Conversation) -> usize {
    let waiting: Vec<String> = conversation
        .paused
        .iter()
        .flat_map(|p| std::iter::once(&p.call).chain(p.remaining.iter()))
        .map(|c| c.id.clone())
        .collect();
    let messages = std::mem::take(&mut conversation.messages);
    let mut removed = 0;
    // Answers of each assistant message: those that follow it, up to the next one.
    let mut answered: Vec<Vec<String>> = Vec::new();
    let mut kept: Vec<ChatMessage> = Vec::with_capacity(messages.len());
    let mut open: Vec<String> = Vec::new();
    for message in messages {
        match &message {
            ChatMessage::Assistant { tool_calls, .. } => {
                open = tool_calls.iter().map(|c| c.id.clone()).collect();
                answered.push(Vec::new());
            }
            ChatMessage::Tool { call_id, .. } => {
                let Some(at) = open.iter().position(|id| id == call_id) else {
                    removed += 1;
                    continue;
                };
                open.remove(at);
                if let Some(last) = answered.last_mut() {
                    last.push(call_id.clone());
                }
            }
            ChatMessage::User { .. } => open.clear(),
            ChatMessage::Notice { .. } => {}
        }
        kept.push(message);
    }
    let mut turn = 0;
    for message in &mut kept {
        if let ChatMessage::Assistant { tool_calls, .. } = message {
            let answers = &answered[turn];
            turn += 1;
            let before = tool_calls.len();
            tool_calls.retain(|c| answers.contains(&c.id) || waiting.contains(&c.id));
            removed += before - tool_calls.len();
        }
    }
    conversation.messages = kept;
    removed
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "true or false",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn good() -> Value {
        json!({
            "id": "chat-1", "title": "Tasks", "createdMs": 1000.0, "updatedMs": 2000.0,
            "messages": [
                {"role": "user", "text": "What is on my list?"},
                {"role": "assistant", "text": "", "toolCalls": [{"id": "c1", "name": "obsidianTasks", "arguments": "{}"}]},
                {"role": "tool", "callId": "c1", "tool": "obsidianTasks", "content": "- [ ] a", "isError": false,
                 "result": {"ok": true, "text": "- [ ] a", "durationMs": 1.0}, "table": null},
                {"role": "assistant", "text": "One task.", "toolCalls": []}
            ],
            "paused": null
        })
    }

    #[test]
    fn a_good_file_loads_as_it_is_with_nothing_to_say() {
        let loaded = load(good(), "chat-1").unwrap();
        assert_eq!(loaded.repairs, None);
        assert_eq!(loaded.conversation.messages.len(), 4);
        assert_eq!(loaded.conversation.title, "Tasks");
        assert_eq!(
            serde_json::to_value(&loaded.conversation).unwrap()["messages"],
            good()["messages"]
        );
    }

    #[test]
    fn messages_that_are_not_a_list_leave_an_empty_chat_that_still_opens() {
        let mut file = good();
        file["messages"] = json!("boom");
        let loaded = load(file, "chat-1").unwrap();
        assert!(loaded.conversation.messages.is_empty());
        assert_eq!(loaded.conversation.title, "Tasks");
        let said = loaded.repairs.unwrap();
        assert!(said.contains("\"Tasks\" was damaged"), "{said}");
        assert!(said.contains("messages were not a list"), "{said}");
        assert!(said.contains("every other chat"), "{said}");
    }

    #[test]
    fn a_message_of_the_wrong_shape_is_left_out_and_the_rest_kept() {
        let mut file = good();
        file["messages"][3]["text"] = json!(42);
        file["messages"]
            .as_array_mut()
            .unwrap()
            .push(json!({"role": "user", "text": "And now?"}));
        let loaded = load(file, "chat-1").unwrap();
        let texts: Vec<_> = loaded
            .conversation
            .messages
            .iter()
            .map(|m| match m {
                ChatMessage::User { text, .. } | ChatMessage::Assistant { text, .. } => {
                    text.as_str()
                }
                _ => "tool",
            })
            .collect();
        assert_eq!(texts, ["What is on my list?", "", "tool", "And now?"]);
        assert!(loaded
            .repairs
            .unwrap()
            .contains("1 message could not be read and was left out"));
    }

    #[test]
    fn a_lost_message_takes_its_tool_calls_partner_with_it() {
        // The tool answer is unreadable: the call it answered goes too, so
        // the model is never sent a call without its answer.
        let mut file = good();
        file["messages"][2]["isError"] = json!("no");
        let loaded = load(file.clone(), "chat-1").unwrap();
        match &loaded.conversation.messages[1] {
            ChatMessage::Assistant { tool_calls, .. } => assert!(tool_calls.is_empty()),
            other => panic!("{other:?}"),
        }
        assert!(loaded
            .repairs
            .unwrap()
            .contains("1 tool call without its answer"));
        // The call is unreadable: its answer goes.
        let mut file = good();
        file["messages"][1]["toolCalls"] = json!("x");
        let loaded = load(file, "chat-1").unwrap();
        assert!(!loaded
            .conversation
            .messages
            .iter()
            .any(|m| matches!(m, ChatMessage::Tool { .. })));
    }

    #[test]
    fn a_title_that_is_not_text_is_made_from_the_first_message() {
        let mut file = good();
        file["title"] = json!(123);
        let loaded = load(file, "chat-1").unwrap();
        assert_eq!(loaded.conversation.title, "What is on my list?");
        assert!(loaded.repairs.unwrap().contains("title was not text"));
    }

    #[test]
    fn other_fields_of_the_wrong_shape_are_reset_and_named() {
        let mut file = good();
        file["paused"] = json!(7);
        file["usage"] = json!("lots");
        file["updatedMs"] = json!("yesterday");
        let loaded = load(file, "chat-1").unwrap();
        assert_eq!(loaded.conversation.paused, None);
        assert_eq!(
            loaded.conversation.updated_ms, 1000.0,
            "falls back to createdMs"
        );
        let said = loaded.repairs.unwrap();
        assert!(said.contains("its paused, usage were reset"), "{said}");
    }

    #[test]
    fn an_id_comes_from_the_file_name_when_the_file_has_none() {
        let mut file = good();
        file["id"] = json!(5);
        let loaded = load(file, "chat-from-name").unwrap();
        assert_eq!(loaded.conversation.id, "chat-from-name");
        assert!(loaded.repairs.unwrap().contains("id was missing"));
    }

    #[test]
    fn what_is_no_chat_at_all_is_refused_with_what_it_holds() {
        assert_eq!(
            load(json!([1, 2]), "x").unwrap_err(),
            "the file holds a list instead of a chat"
        );
        assert!(load(json!("text"), "x").is_err());
        assert!(load(json!(null), "x").is_err());
    }
}

#[cfg(test)]
mod float_tests {
    /// A chat's times cross the wasm boundary as JSON on every call: read
    /// back, they must be the very numbers sent, or a chat that did not
    /// change looks changed (a failed Compact's "as it was").
    #[test]
    fn times_read_from_json_are_the_numbers_written() {
        for text in ["1796689044588.1865", "1796689043971.1653", "0.1", "1e-7"] {
            let exact: f64 = text.parse().unwrap();
            let read: f64 = serde_json::from_str(text).unwrap();
            assert_eq!(read.to_bits(), exact.to_bits(), "{text}");
        }
    }
}
