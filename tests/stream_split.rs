//! Property: however a valid stream is cut into chunks (mid-line, mid-`\r\n`,
//! mid-character), the parsers give the same text and tool calls as for the
//! whole stream.

use proptest::prelude::*;
use serde_json::json;
use vault_agent::doors::chat::model::{ModelReply, StreamPiece};
use vault_agent::doors::chat::provider::assembler;
use vault_agent::doors::chat::sse::SseParser;
use vault_agent::settings::ProviderKind;

fn parse(kind: ProviderKind, chunks: &[&[u8]]) -> (ModelReply, String) {
    let mut parser = SseParser::new();
    let mut stream = assembler(kind);
    let mut streamed = String::new();
    let mut events = Vec::new();
    for chunk in chunks {
        events.extend(parser.push(chunk));
    }
    events.extend(parser.finish());
    for event in events {
        for piece in stream.on_event(&event).unwrap() {
            if let StreamPiece::Text(text) = piece {
                streamed.push_str(&text);
            }
        }
    }
    (stream.finish(), streamed)
}

fn openai_stream(texts: &[String], calls: &[(String, String)], crlf: bool) -> Vec<u8> {
    let nl = if crlf { "\r\n" } else { "\n" };
    let mut body = String::new();
    for text in texts {
        body.push_str(&format!(
            "data: {}{nl}{nl}",
            json!({"choices": [{"delta": {"content": text}}]})
        ));
    }
    for (i, (name, args)) in calls.iter().enumerate() {
        let cut = args
            .char_indices()
            .nth(args.chars().count() / 2)
            .map_or(0, |(b, _)| b);
        let (a, b) = args.split_at(cut);
        body.push_str(&format!(
            "data: {}{nl}{nl}",
            json!({"choices": [{"delta": {"tool_calls": [{"index": i, "id": format!("call_{i}"), "function": {"name": name, "arguments": a}}]}}]})
        ));
        body.push_str(&format!(": keep-alive{nl}{nl}"));
        body.push_str(&format!("data: {}{nl}{nl}", json!({"choices": [{"delta": {"tool_calls": [{"index": i, "function": {"arguments": b}}]}}]})));
    }
    body.push_str(&format!("data: [DONE]{nl}{nl}"));
    body.into_bytes()
}

fn anthropic_stream(texts: &[String], calls: &[(String, String)]) -> Vec<u8> {
    let mut body = String::from("event: message_start\ndata: {\"type\":\"message_start\"}\n\n");
    body.push_str(&format!("event: content_block_start\ndata: {}\n\n", json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}})));
    for text in texts {
        body.push_str(&format!(
            "event: content_block_delta\ndata: {}\n\n",
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}})
        ));
    }
    for (i, (name, args)) in calls.iter().enumerate() {
        let index = i + 1;
        body.push_str(&format!(
            "event: content_block_start\ndata: {}\n\n",
            json!({"type": "content_block_start", "index": index, "content_block": {"type": "tool_use", "id": format!("toolu_{i}"), "name": name, "input": {}}})
        ));
        for part in args.chars().collect::<Vec<_>>().chunks(3) {
            let part: String = part.iter().collect();
            body.push_str(&format!(
                "event: content_block_delta\ndata: {}\n\n",
                json!({"type": "content_block_delta", "index": index, "delta": {"type": "input_json_delta", "partial_json": part}})
            ));
        }
        body.push_str(&format!(
            "event: content_block_stop\ndata: {}\n\n",
            json!({"type": "content_block_stop", "index": index})
        ));
    }
    body.push_str("event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"}}\n\n");
    body.into_bytes()
}

/// Cuts `bytes` at the given (sorted, deduplicated) offsets.
fn cut<'a>(bytes: &'a [u8], offsets: &[usize]) -> Vec<&'a [u8]> {
    let mut points: Vec<usize> = offsets.iter().map(|o| o % (bytes.len() + 1)).collect();
    points.sort_unstable();
    points.dedup();
    let mut out = Vec::new();
    let mut start = 0;
    for p in points {
        out.push(&bytes[start..p]);
        start = p;
    }
    out.push(&bytes[start..]);
    out
}

fn texts() -> impl Strategy<Value = Vec<String>> {
    proptest::collection::vec("[a-zé日本😀 \\n\"\\\\:]{0,12}", 0..6)
}

fn calls() -> impl Strategy<Value = Vec<(String, String)>> {
    proptest::collection::vec(
        ("obsidian[A-Z][a-z]{2,8}", "[a-z0-9 é\"]{0,10}")
            .prop_map(|(name, value)| (name, json!({"command": "tasks", "q": value}).to_string())),
        0..3,
    )
}

proptest! {
    // A fixed seed: the test command draws the same cases every time.
    #![proptest_config(ProptestConfig {
        rng_seed: proptest::test_runner::RngSeed::Fixed(26),
        ..ProptestConfig::with_cases(400)
    })]

    #[test]
    fn openai_any_split_same_reply(texts in texts(), calls in calls(), crlf in any::<bool>(), offsets in proptest::collection::vec(any::<usize>(), 0..40)) {
        let bytes = openai_stream(&texts, &calls, crlf);
        let (whole, whole_text) = parse(ProviderKind::OpenAi, &[&bytes]);
        let (split, split_text) = parse(ProviderKind::OpenAi, &cut(&bytes, &offsets));
        prop_assert_eq!(&whole.text, &texts.concat());
        prop_assert_eq!(&whole_text, &whole.text);
        prop_assert_eq!(&split, &whole);
        prop_assert_eq!(split_text, whole_text);
        prop_assert_eq!(whole.tool_calls.len(), calls.len());
        for (call, (name, args)) in whole.tool_calls.iter().zip(&calls) {
            prop_assert_eq!(&call.name, name);
            prop_assert_eq!(&call.arguments, args);
        }
    }

    #[test]
    fn anthropic_any_split_same_reply(texts in texts(), calls in calls(), offsets in proptest::collection::vec(any::<usize>(), 0..40)) {
        let bytes = anthropic_stream(&texts, &calls);
        let (whole, _) = parse(ProviderKind::Anthropic, &[&bytes]);
        let (split, _) = parse(ProviderKind::Anthropic, &cut(&bytes, &offsets));
        prop_assert_eq!(&whole.text, &texts.concat());
        prop_assert_eq!(&split, &whole);
        for (call, (name, args)) in whole.tool_calls.iter().zip(&calls) {
            prop_assert_eq!(&call.name, name);
            prop_assert_eq!(&call.arguments, args);
        }
    }

    #[test]
    fn byte_by_byte_is_the_worst_split_and_still_works(texts in texts(), calls in calls()) {
        let bytes = openai_stream(&texts, &calls, true);
        let singles: Vec<&[u8]> = bytes.chunks(1).collect();
        prop_assert_eq!(parse(ProviderKind::OpenAi, &singles).0, parse(ProviderKind::OpenAi, &[&bytes]).0);
    }
}
