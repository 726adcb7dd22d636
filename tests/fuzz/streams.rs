//! Fuzz target `streams`: The stream parsers.

use super::*;

fn sse_events(chunks: &[&[u8]]) -> Vec<SseEvent> {
    let mut parser = SseParser::new();
    let mut events = Vec::new();
    for chunk in chunks {
        events.extend(parser.push(chunk));
    }
    events.extend(parser.finish());
    events
}

/// The reply, and the text as it was streamed piece by piece.
fn assemble(kind: ProviderKind, events: &[SseEvent]) -> (Result<ModelReply, ChatError>, String) {
    let mut stream = assembler(kind);
    let mut streamed = String::new();
    for event in events {
        match stream.on_event(event) {
            Ok(pieces) => {
                for piece in pieces {
                    if let StreamPiece::Text(text) = piece {
                        streamed.push_str(&text);
                    }
                }
            }
            Err(error) => return (Err(error), streamed),
        }
    }
    assert_eq!(stream.partial_text(), streamed, "partial text");
    // What the stream held back until its end (a lone `<`) is streamed too.
    for piece in stream.flush() {
        if let StreamPiece::Text(text) = piece {
            streamed.push_str(&text);
        }
    }
    assert_eq!(
        stream.partial_text(),
        streamed,
        "partial text after the end"
    );
    (Ok(stream.finish()), streamed)
}

const KINDS_OF_PROVIDER: [ProviderKind; 2] = [ProviderKind::OpenAi, ProviderKind::Anthropic];

fn check_stream(bytes: &[u8], random: &[&[u8]]) -> TestCaseResult {
    let whole = sse_events(&[bytes]);
    for event in &whole {
        prop_assert!(!event.data.contains('\r'), "{event:?}");
        let name = event.event.as_deref().unwrap_or("");
        prop_assert!(!name.contains(['\r', '\n']), "{event:?}");
    }
    prop_assert_eq!(
        &sse_events(random),
        &whole,
        "cut at {:?}",
        random.iter().map(|c| c.len()).collect::<Vec<_>>()
    );
    if !whole.is_empty() {
        reached("streams.events");
    }
    for kind in KINDS_OF_PROVIDER {
        let reply = parse_stream(kind, [bytes]);
        if reply
            .as_ref()
            .is_ok_and(|r| !r.text.is_empty() || !r.tool_calls.is_empty())
        {
            reached(if kind == ProviderKind::OpenAi {
                "streams.openai_reply"
            } else {
                "streams.anthropic_reply"
            });
        }
        prop_assert_eq!(&parse_stream(kind, random.iter().copied()), &reply);
        let (assembled, streamed) = assemble(kind, &whole);
        prop_assert_eq!(&assembled, &reply);
        if let Ok(reply) = &reply {
            prop_assert_eq!(&reply.text, &streamed);
        }
    }
    Ok(())
}

/// The worst split gives the same events and replies as the whole stream.
fn check_byte_by_byte(bytes: &[u8]) -> TestCaseResult {
    let singles = singles_with_empties(bytes);
    prop_assert_eq!(sse_events(&singles), sse_events(&[bytes]), "byte by byte");
    for kind in KINDS_OF_PROVIDER {
        prop_assert_eq!(
            parse_stream(kind, singles.iter().copied()),
            parse_stream(kind, [bytes])
        );
    }
    Ok(())
}

fn openai_event() -> impl Strategy<Value = String> {
    (0..9u8, text(), text(), prop_oneof![3 => 0u64..3, 1 => any::<u64>()]).prop_map(
        |(variant, a, b, index)| {
            match variant {
                0 => json!({"choices": [{"delta": {"content": a}}]}),
                1 => json!({"choices": [{"delta": {"tool_calls": [{"index": index, "id": a, "function": {"name": b, "arguments": "{\"comm"}}]}}]}),
                2 => json!({"choices": [{"delta": {"tool_calls": [{"function": {"arguments": {"command": a}}}]}}]}),
                3 => json!({"choices": [{"delta": {}, "finish_reason": a}]}),
                4 => json!({"error": {"message": a}}),
                5 => json!({"choices": a}),
                6 => json!({"choices": [{"delta": {"content": index}}]}),
                7 => return "[DONE]".to_string(),
                _ => json!({"choices": [{"delta": {"content": a, "tool_calls": [{"index": 0, "function": {"arguments": b}}]}}]}),
            }
            .to_string()
        },
    )
}

fn anthropic_event() -> impl Strategy<Value = String> {
    (0..10u8, text(), text(), prop_oneof![3 => 0u64..3, 1 => any::<u64>()]).prop_map(
        |(variant, a, b, index)| {
            match variant {
                0 => json!({"type": "message_start", "message": {"id": a}}),
                1 => json!({"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": a}}),
                2 => json!({"type": "content_block_start", "index": index, "content_block": {"type": "tool_use", "id": a, "name": b, "input": {}}}),
                3 => json!({"type": "content_block_delta", "index": index, "delta": {"type": "text_delta", "text": a}}),
                4 => json!({"type": "content_block_delta", "index": index, "delta": {"type": "input_json_delta", "partial_json": a}}),
                5 => json!({"type": "content_block_stop", "index": index}),
                6 => json!({"type": "message_delta", "delta": {"stop_reason": a}}),
                7 => json!({"type": "error", "error": {"type": b, "message": a}}),
                8 => json!({"type": "content_block_start", "index": a}),
                _ => json!({"type": "ping"}),
            }
            .to_string()
        },
    )
}

const SSE_TOKENS: &[&str] = &[
    "data:",
    "data: ",
    "data:  ",
    "event:",
    "event: ",
    "event: content_block_delta",
    "id: 7",
    "retry: 100",
    ":",
    ": keep-alive",
    "\n",
    "\r",
    "\r\n",
    "\n\n",
    "\r\r",
    "\r\n\r\n",
    "[DONE]",
    "{",
    "}",
    "[",
    "]",
    "\"",
    "\\",
    ",",
    "null",
    "{}",
    "DATA: x",
    "data",
    " data: x",
    "\u{FEFF}data: x",
];

/// Arbitrary bytes in the shape of a stream: fields, events, line ends,
/// garbage and broken UTF-8.
fn garbage_stream() -> impl Strategy<Value = Vec<u8>> {
    let token = prop_oneof![
        3 => (
            select(vec!["data: ", "data:", "event: content_block_delta\ndata: "]),
            prop_oneof![openai_event(), anthropic_event()],
            select(vec!["\n\n", "\r\n\r\n", "\r\r", "\n", ""]),
        )
            .prop_map(|(field, event, end)| format!("{field}{event}{end}").into_bytes()),
        3 => select(SSE_TOKENS).prop_map(|t| t.as_bytes().to_vec()),
        1 => text().prop_map(String::into_bytes),
        1 => bad_utf8(),
    ];
    vec(token, 0..24).prop_map(|tokens| tokens.concat())
}

#[derive(Clone, Debug)]
struct ValidStream {
    kind: ProviderKind,
    texts: Vec<String>,
    bytes: Vec<u8>,
}

/// A valid stream with every line end SSE allows (`\n`, `\r\n`, lone `\r`),
/// comments, `id:`/`retry:` lines and data split over several `data:` lines.
fn valid_stream() -> impl Strategy<Value = ValidStream> {
    (
        any::<bool>(),
        vec(text(), 0..6),
        vec(select(vec!["\n", "\r\n", "\r"]), 1..8),
        vec(0..6u8, 1..8),
        any::<bool>(),
    )
        .prop_map(|(anthropic, texts, ends, noise, pretty)| {
            let kind = if anthropic {
                ProviderKind::Anthropic
            } else {
                ProviderKind::OpenAi
            };
            let mut events: Vec<(Option<&str>, Value)> = Vec::new();
            if anthropic {
                events.push((Some("message_start"), json!({"type": "message_start", "message": {}})));
                events.push((Some("content_block_start"), json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}})));
            }
            for text in &texts {
                events.push(if anthropic {
                    (Some("content_block_delta"), json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}}))
                } else {
                    (None, json!({"choices": [{"delta": {"content": text}}]}))
                });
            }
            if anthropic {
                events.push((Some("message_delta"), json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}})));
            }
            let mut lines: Vec<String> = Vec::new();
            for (i, (name, data)) in events.iter().enumerate() {
                match noise[i % noise.len()] {
                    0 => lines.push(": keep-alive".into()),
                    1 => lines.push(format!("id: {i}")),
                    2 => lines.push("retry: 1000".into()),
                    _ => {}
                }
                if let Some(name) = name {
                    lines.push(format!("event: {name}"));
                }
                let data = if pretty {
                    serde_json::to_string_pretty(data).expect("JSON")
                } else {
                    data.to_string()
                };
                let bare = i % 2 == 1;
                for line in data.lines() {
                    lines.push(if bare { format!("data:{line}") } else { format!("data: {line}") });
                }
                lines.push(String::new());
            }
            if !anthropic {
                lines.push("data: [DONE]".into());
                lines.push(String::new());
            }
            let mut out = String::new();
            let mut after_cr = false;
            for (i, line) in lines.iter().enumerate() {
                let mut end = ends[i % ends.len()];
                // A `\n` right after a lone `\r` would join it into one `\r\n`.
                if after_cr && line.is_empty() && end == "\n" {
                    end = "\r";
                }
                out.push_str(line);
                out.push_str(end);
                after_cr = end == "\r";
            }
            ValidStream {
                kind,
                texts,
                bytes: out.into_bytes(),
            }
        })
}

fn check_valid_stream(stream: &ValidStream, points: &[Index]) -> TestCaseResult {
    let whole = parse_stream(stream.kind, [&stream.bytes[..]]);
    let reply = whole
        .as_ref()
        .map_err(|e| TestCaseError::fail(format!("{e}")))?;
    prop_assert_eq!(&reply.text, &stream.texts.concat());
    prop_assert!(reply.tool_calls.is_empty());
    let random = cut(&stream.bytes, points);
    prop_assert_eq!(&parse_stream(stream.kind, random.iter().copied()), &whole);
    check_byte_by_byte(&stream.bytes)?;
    check_stream(&stream.bytes, &random)
}

#[test]
fn fuzz_streams() {
    let started = Instant::now();
    let files = replay("streams", |name, bytes| {
        // Every single cut point, and the worst split.
        for at in 0..=bytes.len() {
            check_stream(bytes, &[&bytes[..at], &bytes[at..]])?;
        }
        check_byte_by_byte(bytes)?;
        for (prefix, kind) in [
            ("openai-", ProviderKind::OpenAi),
            ("anthropic-", ProviderKind::Anthropic),
        ] {
            if name.starts_with(prefix) {
                let reply = parse_stream(kind, [bytes]);
                prop_assert!(reply.is_ok(), "{name}: {reply:?}");
            }
        }
        Ok(())
    });
    let mut cases = Property {
        target: "streams",
        name: "garbage cut anywhere",
        share: 0.6,
        seeds: seeds!("streams"),
        strategy: (garbage_stream(), vec(any::<Index>(), 0..16)),
        save: |(bytes, _)| ("bin", bytes.clone()),
    }
    .run(|(bytes, points)| {
        check_byte_by_byte(&bytes)?;
        check_stream(&bytes, &cut(&bytes, &points))
    });
    cases += Property {
        target: "streams",
        name: "valid streams with every line end, cut anywhere",
        share: 0.4,
        seeds: seeds!("streams-valid"),
        strategy: (valid_stream(), vec(any::<Index>(), 0..16)),
        save: |(stream, _)| ("bin", stream.bytes.clone()),
    }
    .run(|(stream, points)| check_valid_stream(&stream, &points));
    report("streams", files, cases, started);
}
