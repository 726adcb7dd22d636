//! Fitting a conversation into the model's context window. Small local
//! models have 4 096 tokens or so and servers cut silently, so the agent
//! decides what goes: the fixed prompt (rules and tools) always, then the
//! newest turns. Near the window (`NEAR_WINDOW_PERCENT`), the results of
//! earlier turns' tool calls are pruned first, oldest first, each to a line
//! that says what it was (`prune`); when that is not enough the chat is
//! compacted (`compact`). What still does not fit is shortened (with a
//! marker the model can read), then older turns are left out, with one line
//! saying what they were about (`fit`). The outcome of a change or a card is
//! never pruned nor shortened. Tokens are estimated on the safe side (three
//! ASCII characters or one other character per token), so an estimate is
//! never below what a tokenizer would count for ordinary text.

use serde_json::{json, Map, Value};

use super::conversation::ChatMessage;
use crate::doors::chat::model::ModelTool;
use crate::settings::{ProviderKind, ProviderSettings};
use crate::tools::ToolSpec;

/// Tokens per message for roles and separators.
const MESSAGE_OVERHEAD: usize = 8;
/// What an older tool result keeps when it is shortened, in characters.
const SHORTENED_CHARS: usize = 240;
/// At or below this window the tools are offered in their compact form.
pub const COMPACT_WINDOW: usize = 32_768;
/// Past this share of the window (in percent) the prompt is near it: older
/// tool results are pruned, and when that is not enough the chat is compacted.
pub const NEAR_WINDOW_PERCENT: usize = 80;

/// The tokens of a window past which the prompt is near it.
pub fn near_window(window: usize) -> usize {
    window * NEAR_WINDOW_PERCENT / 100
}

/// Tokens `text` may take, on the safe side.
pub fn estimate(text: &str) -> usize {
    let (ascii, other) = text.chars().fold((0usize, 0usize), |(a, o), c| {
        if c.is_ascii() {
            (a + 1, o)
        } else {
            (a, o + 1)
        }
    });
    ascii.div_ceil(3) + other
}

/// The context window to plan for: the setting when the user gave one, else
/// what the server is known to offer. Ollama's OpenAI-compatible API runs
/// with its default context (4 096 tokens unless `OLLAMA_CONTEXT_LENGTH` is
/// raised), whatever the model could do.
pub fn context_window(kind: ProviderKind, provider: &ProviderSettings) -> usize {
    if provider.context_window > 0 {
        return provider.context_window as usize;
    }
    let url = provider.base_url.to_ascii_lowercase();
    match kind {
        ProviderKind::Anthropic => 200_000,
        ProviderKind::OpenAi if url.contains("api.openai.com") => 128_000,
        ProviderKind::OpenAi if url.contains(":11434") || url.contains("ollama") => 4_096,
        ProviderKind::OpenAi => 8_192,
    }
}

/// Whether a server seems to have dropped the tools it was sent (a chat
/// template without tool support does so silently): it reports reading fewer
/// tokens than half of what the tools alone take by `estimate`, which is
/// never far below the real count. Too few tools to tell apart from noise
/// (under `MIN_TOOLS_TO_CHECK` tokens) are not judged.
pub fn tools_seem_dropped(reported_input: u64, tools_tokens: usize) -> bool {
    tools_tokens >= MIN_TOOLS_TO_CHECK && (reported_input as usize).saturating_mul(2) < tools_tokens
}

/// Whether a server seems to have cut the prompt: Ollama runs with its own
/// context length and keeps only the end of a longer prompt, silently (the
/// instructions and tools go first). It reports reading fewer than half the
/// tokens `estimate` gives the whole prompt; `estimate` counts on the safe
/// side, but never twice the real count. Short prompts are not judged.
pub fn prompt_seems_cut(reported_input: u64, prompt_tokens: usize) -> bool {
    prompt_tokens >= MIN_PROMPT_TO_CHECK
        && (reported_input as usize).saturating_mul(2) < prompt_tokens
}

/// What to tell the user when a server read less than it was sent: the
/// tools dropped (a template without tool support), or the prompt cut
/// (Ollama's smaller context); `None` when it read the whole prompt.
pub fn short_read(
    reported: u64,
    tools_tokens: usize,
    prompt_tokens: usize,
    window: usize,
) -> Option<String> {
    if tools_seem_dropped(reported, tools_tokens) {
        Some(format!(
            "This model seems to ignore the tools: its server reports reading {reported} tokens, less than the tools alone take (about {tools_tokens}), so it cannot look into the vault. Serve it with a chat template that supports tools (llama.cpp: start it with --jinja) or pick a model with tool calling; a server whose context is smaller than the window setting cuts the prompt the same way."
        ))
    } else if prompt_seems_cut(reported, prompt_tokens) {
        Some(format!(
            "The model server read only {reported} tokens of a prompt of about {prompt_tokens}: it runs with a smaller context than the profile's {window} and cut the start of the prompt (the instructions and the tools), so this answer may ignore them. Raise the server's context length (Ollama: the app's context slider or OLLAMA_CONTEXT_LENGTH, then restart it; llama.cpp: -c) or set the profile's context window to {reported}."
        ))
    } else {
        None
    }
}

/// Below this a prompt is too short for a cut to be told from noise.
pub const MIN_PROMPT_TO_CHECK: usize = 1_000;

/// Below this the tools are too small a part of a request to judge by.
pub const MIN_TOOLS_TO_CHECK: usize = 400;

/// Tokens kept free for the answer.
pub fn answer_reserve(window: usize) -> usize {
    (window / 8).clamp(512, 4_096)
}

/// What fitting did to the conversation.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted {
    pub messages: Vec<ChatMessage>,
    /// Tool results shortened.
    pub shortened: usize,
    /// Messages left out.
    pub dropped: usize,
    /// The estimate of what is sent.
    pub tokens: usize,
}

/// What one message counts in the budget.
pub fn cost(message: &ChatMessage) -> usize {
    MESSAGE_OVERHEAD
        + match message {
            ChatMessage::User { text, .. } => {
                estimate(text)
                    + super::images::of_message(message).count() * super::images::TOKENS_PER_IMAGE
                    + super::conversation::document_tokens(message)
            }
            ChatMessage::Assistant {
                text,
                tool_calls,
                thinking,
                ..
            } => {
                estimate(text)
                    + thinking
                        .iter()
                        .map(|b| estimate(b["thinking"].as_str().unwrap_or_default()))
                        .sum::<usize>()
                    + tool_calls
                        .iter()
                        .map(|c| estimate(&c.name) + estimate(&c.arguments) + MESSAGE_OVERHEAD)
                        .sum::<usize>()
            }
            ChatMessage::Tool {
                content, result, ..
            } => estimate(content) + result.images.len() * super::images::TOKENS_PER_IMAGE,
            ChatMessage::Notice { .. } => 0,
        }
}

/// What `messages` count as they are, before fitting.
pub fn messages_tokens(messages: &[ChatMessage]) -> usize {
    messages.iter().map(cost).sum()
}

/// A tool result cut to its first characters, still one `<vault-data>`
/// element (or one `<outside-data>` element: an outside tool's or the
/// web's), with a line the model can read.
fn shortened(content: &str) -> Option<String> {
    if content.chars().count() <= SHORTENED_CHARS * 2 {
        return None;
    }
    let (open, body) = content.split_once('\n').unwrap_or(("", content));
    let close = match open.starts_with("<outside-data") {
        true => "</outside-data>",
        false => "</vault-data>",
    };
    let body = body.trim_end().trim_end_matches(close);
    let kept: String = body.chars().take(SHORTENED_CHARS).collect();
    let left = body.chars().count().saturating_sub(SHORTENED_CHARS);
    Some(format!(
        "{open}\n{kept}…\n{close}\n[Shortened to fit the model's context: {left} more characters were left out. Call the tool again if you need them.]"
    ))
}

/// What pruning left of the messages.
#[derive(Clone, Debug, PartialEq)]
pub struct Pruned {
    pub messages: Vec<ChatMessage>,
    /// Tool results pruned.
    pub pruned: usize,
    /// The tokens they took.
    pub saved: usize,
    /// The estimate of what is left.
    pub tokens: usize,
}

/// The messages with the results of earlier turns' tool calls pruned,
/// oldest first, until they take at most `room` tokens (or nothing more
/// may go): each becomes one line naming the call and its size, so the
/// model can call it again. The turn being answered keeps its results, and
/// the outcome of a change or a card is never pruned.
pub fn prune(messages: &[ChatMessage], room: usize) -> Pruned {
    let mut kept = messages.to_vec();
    let mut tokens = messages_tokens(&kept);
    let (mut pruned, mut saved) = (0, 0);
    let current = *turn_starts(&kept).last().unwrap_or(&0);
    for i in 0..current {
        if tokens <= room {
            break;
        }
        if kept[i].is_change_outcome() {
            continue;
        }
        let words = match &kept[i] {
            ChatMessage::Tool { call_id, tool, .. } => {
                format!("{tool} {}", call_words(&kept[..i], call_id))
            }
            _ => continue,
        };
        let before = cost(&kept[i]);
        if let ChatMessage::Tool {
            content, result, ..
        } = &mut kept[i]
        {
            if content.starts_with(PRUNED_MARK) {
                continue;
            }
            *content = pruned_line(words.trim_end(), estimate(content));
            // Its images go with it.
            result.images.clear();
        }
        let after = cost(&kept[i]);
        if after < before {
            tokens = tokens - before + after;
            saved += before - after;
            pruned += 1;
        }
    }
    Pruned {
        messages: kept,
        pruned,
        saved,
        tokens,
    }
}

const PRUNED_MARK: &str = "[Result of ";

/// The line a pruned result becomes: `[Result of obsidianNotes read
/// Projects/X.md pruned: 3 400 tokens; call again if needed.]`
pub fn pruned_line(call: &str, tokens: usize) -> String {
    format!(
        "{PRUNED_MARK}{call} pruned: {} tokens; call again if needed.]",
        spaced(tokens)
    )
}

/// 3400 as "3 400".
pub fn spaced(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// A call as a few words: its command and what it names (a note, a
/// query, an address), from the model's call before the result. Control
/// characters and brackets go, and it is kept short: the model wrote it.
pub fn call_words(before: &[ChatMessage], call_id: &str) -> String {
    let arguments = before.iter().rev().find_map(|m| match m {
        ChatMessage::Assistant { tool_calls, .. } => tool_calls
            .iter()
            .find(|c| c.id == call_id)
            .map(|c| c.arguments.as_str()),
        _ => None,
    });
    let Some(Value::Object(args)) = arguments.and_then(|a| serde_json::from_str(a).ok()) else {
        return String::new();
    };
    let mut words: Vec<&str> = Vec::new();
    if let Some(command) = args.get("command").and_then(Value::as_str) {
        words.push(command);
    }
    if let Some(what) = ["path", "file", "query", "url", "name", "folder"]
        .iter()
        .find_map(|key| args.get(*key).and_then(Value::as_str))
    {
        words.push(what);
    }
    let line: String = words
        .join(" ")
        .chars()
        .filter(|c| !c.is_control() && !matches!(c, '[' | ']' | '<' | '>'))
        .collect();
    let mut short: String = line.chars().take(80).collect();
    if short.len() < line.len() {
        short.push('…');
    }
    short
}

/// Where each turn starts (at a user message).
fn turn_starts(messages: &[ChatMessage]) -> Vec<usize> {
    let mut starts: Vec<usize> = messages
        .iter()
        .enumerate()
        .filter(|(_, m)| matches!(m, ChatMessage::User { .. }))
        .map(|(i, _)| i)
        .collect();
    if starts.first() != Some(&0) {
        starts.insert(0, 0);
    }
    starts
}

/// The conversation as it fits into `available` tokens, or the tokens the
/// current turn alone needs when even shortened it does not fit. Costs are
/// counted once and kept up to date, so a long chat costs one pass.
pub fn fit(messages: &[ChatMessage], available: usize) -> Result<Fitted, usize> {
    let mut kept: Vec<ChatMessage> = messages
        .iter()
        .filter(|m| !matches!(m, ChatMessage::Notice { .. }))
        .cloned()
        .collect();
    let mut costs: Vec<usize> = kept.iter().map(cost).collect();
    let mut sum: usize = costs.iter().sum();
    let mut shortened_count = 0;
    let mut dropped = 0;
    let mut shorten =
        |kept: &mut Vec<ChatMessage>, costs: &mut Vec<usize>, sum: &mut usize, i: usize| {
            if kept[i].is_change_outcome() {
                return;
            }
            if let ChatMessage::Tool { content, .. } = &mut kept[i] {
                if let Some(short) = shortened(content) {
                    *content = short;
                    let new = cost(&kept[i]);
                    *sum = *sum - costs[i] + new;
                    costs[i] = new;
                    shortened_count += 1;
                }
            }
        };
    if sum <= available {
        return Ok(Fitted {
            tokens: sum,
            messages: kept,
            shortened: 0,
            dropped: 0,
        });
    }
    // 1. Older tool results, oldest first.
    let current = *turn_starts(&kept).last().unwrap_or(&0);
    for i in 0..current {
        if sum <= available {
            break;
        }
        shorten(&mut kept, &mut costs, &mut sum, i);
    }
    // 2. Older turns, oldest first, with one line about them.
    let mut asked: Vec<String> = Vec::new();
    let mut summary: Option<(ChatMessage, usize)> = None;
    while sum + summary.as_ref().map_or(0, |(_, c)| *c) > available {
        let starts = turn_starts(&kept);
        if starts.len() < 2 {
            break;
        }
        for (message, c) in kept.drain(0..starts[1]).zip(costs.drain(0..starts[1])) {
            if let ChatMessage::User { text, .. } = message {
                asked.push(text.chars().take(60).collect());
            }
            sum -= c;
            dropped += 1;
        }
        let line = ChatMessage::User {
            text: format!(
                "[Earlier in this chat, left out to fit the model's context ({dropped} messages), the user asked: {}]",
                asked
                    .iter()
                    .map(|a| format!("\"{a}\""))
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            attachments: None,
        };
        let c = cost(&line);
        summary = Some((line, c));
    }
    // 3. The current turn's own tool results, oldest first.
    for i in 0..kept.len() {
        if sum + summary.as_ref().map_or(0, |(_, c)| *c) <= available {
            break;
        }
        shorten(&mut kept, &mut costs, &mut sum, i);
    }
    // The line about left-out turns goes in only where it fits.
    if let Some((line, c)) = summary {
        if sum + c <= available {
            kept.insert(0, line);
            sum += c;
        }
    }
    if sum > available {
        return Err(sum);
    }
    Ok(Fitted {
        tokens: sum,
        messages: kept,
        shortened: shortened_count,
        dropped,
    })
}

/// Parameters the compact form leaves out: output shapes, extra columns and
/// tuning knobs that a small model does not need (the defaults read well),
/// and `offset`, which a paged answer names itself ("for the next page send
/// offset=50"). The core still accepts them when a model sends them.
const LEFT_OUT_WHEN_COMPACT: &[&str] = &[
    "offset",
    "format",
    "verbose",
    "counts",
    "sort",
    "inline",
    "case",
    "resolve",
    "maxComparisons",
];

/// The tools in a compact form for small context windows: one signature per
/// command (`tasks(file|path,status?,todo?): brief`, `?` when optional,
/// `file|path` for "name the note either way", choices as `a|b`) and a
/// schema of parameter names, types and choices only. The core still checks
/// every call strictly and says what to fix.
pub fn compact_tools(specs: &[&ToolSpec]) -> Vec<ModelTool> {
    specs
        .iter()
        .map(|tool| {
            let mut properties = Map::new();
            let mut lines = Vec::new();
            for command in &tool.commands {
                let schema = command.arguments_schema();
                let required: Vec<&str> = schema["required"]
                    .as_array()
                    .map(|r| r.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let mut params = Vec::new();
                if let Some(props) = schema["properties"].as_object() {
                    for (name, prop) in props {
                        if LEFT_OUT_WHEN_COMPACT.contains(&name.as_str()) {
                            continue;
                        }
                        let choices = choices_of(prop);
                        let optional = if required.contains(&name.as_str()) {
                            ""
                        } else {
                            "?"
                        };
                        params.push(if choices.is_empty() {
                            format!("{name}{optional}")
                        } else {
                            format!("{name}{optional}={}", choices.join("|"))
                        });
                        // Text is the default a model assumes: an empty schema
                        // says "any" in two characters; other types are named.
                        let entry = match (choices.is_empty(), type_of(prop)) {
                            (false, _) => json!({ "enum": choices }),
                            (true, "string") => json!({}),
                            (true, other) => json!({ "type": other }),
                        };
                        properties.entry(name.clone()).or_insert(entry);
                    }
                }
                let signature = format!("{}({})", command.name, params.join(","))
                    .replace("file?,path?", "file|path");
                let brief = command
                    .brief
                    .unwrap_or_else(|| first_clause(command.summary));
                lines.push(if brief.is_empty() {
                    signature
                } else {
                    format!("{signature}: {brief}")
                });
            }
            let names: Vec<&str> = tool.commands.iter().map(|c| c.name).collect();
            properties.insert("command".into(), json!({ "enum": names }));
            ModelTool {
                name: tool.id.to_string(),
                description: lines.join("; "),
                // No `required`: every call needs `command`, the description
                // is all commands, and a call without one gets an error that
                // lists them.
                input_schema: json!({ "type": "object", "properties": properties }),
            }
        })
        .collect()
}

/// A command's summary up to its first clause: the signature says the rest.
fn first_clause(summary: &str) -> &str {
    let cut = summary
        .find([':', '(', ';'])
        .map_or(summary, |i| &summary[..i]);
    cut.trim_end_matches([' ', '.', ','])
}

/// The values a property allows, whether schemars wrote them as an `enum`
/// or, for documented variants, as `oneOf` constants (inside the `anyOf`
/// that an optional field adds).
fn choices_of(prop: &Value) -> Vec<&str> {
    if let Some(values) = prop["enum"].as_array() {
        return values.iter().filter_map(Value::as_str).collect();
    }
    if let Some(constant) = prop["const"].as_str() {
        return vec![constant];
    }
    ["anyOf", "oneOf"]
        .iter()
        .filter_map(|key| prop[key].as_array())
        .flatten()
        .flat_map(choices_of)
        .collect()
}

/// A property's JSON type, without the `null` that optional fields carry.
fn type_of(prop: &Value) -> &str {
    match &prop["type"] {
        Value::String(t) => t.as_str(),
        Value::Array(types) => types
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or("string"),
        _ if prop.get("enum").is_some() => "string",
        _ => "string",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn total(messages: &[ChatMessage]) -> usize {
        messages.iter().map(cost).sum()
    }
    use crate::base::result::ToolResult;
    use crate::doors::chat::conversation::ToolCallRecord;

    fn tool_result(n: usize, size: usize) -> ChatMessage {
        ChatMessage::Tool {
            call_id: format!("c{n}"),
            tool: "obsidianNotes".into(),
            content: format!(
                "<vault-data tool=\"obsidianNotes\" command=\"read\">\n{}\n</vault-data>",
                "word ".repeat(size / 5)
            ),
            is_error: false,
            result: Box::new(ToolResult::success("x")),
            table: None,
        }
    }

    /// A chat of `turns` turns, each a question, a call, a big result and an answer.
    fn chat(turns: usize, result_size: usize) -> Vec<ChatMessage> {
        let mut messages = Vec::new();
        for n in 0..turns {
            messages.push(ChatMessage::User {
                text: format!("Question {n} about my notes"),
                attachments: None,
            });
            messages.push(ChatMessage::assistant(
                String::new(),
                vec![ToolCallRecord {
                    id: format!("c{n}"),
                    name: "obsidianNotes".into(),
                    arguments: r#"{"command":"read","file":"Plan"}"#.into(),
                    as_text: false,
                }],
            ));
            messages.push(tool_result(n, result_size));
            messages.push(ChatMessage::assistant(
                format!("Answer {n}: ").repeat(20),
                Vec::new(),
            ));
        }
        messages
    }

    #[test]
    fn never_more_than_the_budget_for_small_and_large_windows() {
        for window in [4_096usize, 8_192, 128_000] {
            let available = window - answer_reserve(window) - 1_500;
            for (turns, size) in [(1, 2_000), (5, 6_000), (30, 16_000), (200, 1_000)] {
                let messages = chat(turns, size);
                match fit(&messages, available) {
                    Ok(fitted) => {
                        assert!(
                            fitted.tokens <= available,
                            "{window} {turns}×{size}: {} > {available}",
                            fitted.tokens
                        );
                        assert_eq!(fitted.tokens, total(&fitted.messages));
                        // The question being answered is always there, whole.
                        assert!(fitted.messages.iter().any(|m| matches!(m, ChatMessage::User { text, .. } if text == &format!("Question {} about my notes", turns - 1))));
                        // Calls and results stay paired.
                        let calls = fitted.messages.iter().filter(|m| matches!(m, ChatMessage::Assistant { tool_calls, .. } if !tool_calls.is_empty())).count();
                        let results = fitted
                            .messages
                            .iter()
                            .filter(|m| matches!(m, ChatMessage::Tool { .. }))
                            .count();
                        assert_eq!(calls, results);
                    }
                    Err(needed) => assert!(needed > available, "{window} {turns}×{size}"),
                }
            }
        }
        // A big window keeps everything.
        let messages = chat(5, 2_000);
        let fitted = fit(&messages, 100_000).unwrap();
        assert_eq!((fitted.shortened, fitted.dropped), (0, 0));
        assert_eq!(fitted.messages, messages);
    }

    #[test]
    fn older_results_shorten_first_then_older_turns_go_with_a_line_about_them() {
        let messages = chat(6, 4_000);
        let all = total(&messages);
        let fitted = fit(&messages, all - 400).unwrap();
        assert!(fitted.shortened >= 1 && fitted.dropped == 0, "{fitted:?}");
        let short = fitted.messages.iter().find_map(|m| match m {
            ChatMessage::Tool { content, .. } if content.contains("[Shortened") => {
                Some(content.clone())
            }
            _ => None,
        });
        let short = short.unwrap();
        assert!(short.starts_with("<vault-data tool=\"obsidianNotes\" command=\"read\">\n"));
        assert!(short.contains("</vault-data>\n[Shortened to fit the model's context:"));
        let tight = fit(&messages, 1_000).unwrap();
        assert!(tight.dropped > 0);
        let ChatMessage::User { text, .. } = &tight.messages[0] else {
            panic!()
        };
        assert!(
            text.starts_with("[Earlier in this chat, left out to fit the model's context"),
            "{text}"
        );
        assert!(text.contains("\"Question 0 about my notes\""), "{text}");
        // A turn that cannot fit at all says how much it needs.
        assert!(fit(&chat(1, 40_000), 100).is_err());
    }

    /// The result at `at` of `messages`, as a change that was made.
    fn as_change(messages: &mut [ChatMessage], at: usize) {
        if let ChatMessage::Tool { result, .. } = &mut messages[at] {
            result.journal = Some(crate::base::result::JournalRef {
                entry: "e1".into(),
                turn: None,
                undoable: true,
                reason: None,
                conflict_hash: None,
            });
        }
    }

    #[test]
    fn near_the_window_earlier_results_are_pruned_oldest_first_to_one_line() {
        assert_eq!(
            pruned_line("obsidianNotes read Projects/X.md", 3_400),
            "[Result of obsidianNotes read Projects/X.md pruned: 3 400 tokens; call again if needed.]"
        );
        assert_eq!(
            (spaced(7), spaced(1_000), spaced(1_234_567)),
            ("7".into(), "1 000".into(), "1 234 567".into())
        );
        // Three turns; the results sit at 2, 6 and 10, the last turn (from 8) is being answered.
        let messages = chat(3, 3_000);
        let all = total(&messages);
        let ChatMessage::Tool { content, .. } = &messages[2] else {
            panic!()
        };
        let line = pruned_line("obsidianNotes read Plan", estimate(content));
        let saves = estimate(content) - estimate(&line);
        // Exactly the room the oldest result's pruning makes: it alone goes.
        let one = prune(&messages, all - saves);
        assert_eq!((one.pruned, one.saved, one.tokens), (1, saves, all - saves));
        assert!(matches!(&one.messages[2], ChatMessage::Tool { content, .. } if *content == line));
        assert_eq!(one.messages[6], messages[6]);
        assert_eq!(one.tokens, total(&one.messages));
        // One token less: the next oldest goes too.
        let two = prune(&messages, all - saves - 1);
        assert_eq!((two.pruned, two.saved), (2, 2 * saves));
        // However little room: the turn being answered keeps its result.
        let least = prune(&messages, 0);
        assert_eq!(least.pruned, 2);
        assert_eq!(least.messages[10], messages[10]);
        // Room enough: nothing is pruned.
        assert_eq!(
            prune(&messages, all),
            Pruned {
                messages: messages.clone(),
                pruned: 0,
                saved: 0,
                tokens: all
            }
        );
    }

    #[test]
    fn a_change_or_a_cards_outcome_is_never_pruned_nor_shortened() {
        let mut messages = chat(3, 3_000);
        as_change(&mut messages, 2);
        let least = prune(&messages, 0);
        assert_eq!(least.pruned, 1, "only the read of the second turn");
        assert_eq!(least.messages[2], messages[2]);
        // Shortening, when fitting, passes it by too.
        let all = total(&messages);
        let fitted = fit(&messages, all - 400).unwrap();
        assert_eq!(fitted.messages[2], messages[2]);
        assert!(
            matches!(&fitted.messages[6], ChatMessage::Tool { content, .. } if content.contains("[Shortened"))
        );
    }

    #[test]
    fn estimates_stay_on_the_safe_side() {
        assert_eq!(estimate("abcdef"), 2);
        assert_eq!(estimate("日本語"), 3);
        assert!(estimate(&"The quick brown fox. ".repeat(100)) >= 2100 / 4);
    }

    #[test]
    fn a_prompt_read_to_less_than_half_its_estimate_was_cut() {
        // Ollama at 4 096 tokens, a 12 000-token prompt: cut.
        assert!(prompt_seems_cut(4_096, 12_000));
        // The estimate is on the safe side: a real count of 70 % of it is whole.
        assert!(!prompt_seems_cut(8_400, 12_000));
        // Too short to judge.
        assert!(!prompt_seems_cut(100, 900));
    }
}
