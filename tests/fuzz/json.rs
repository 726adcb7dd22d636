//! Fuzz target `json`: The bounded JSON reader.

use super::*;

fn value_depth(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(value_depth).max().unwrap_or(0),
        Value::Object(map) => 1 + map.values().map(value_depth).max().unwrap_or(0),
        _ => 0,
    }
}

/// The size limits other than depth and total length.
fn sizes_within(value: &Value, limits: &InputLimits) -> bool {
    let text_ok = |s: &str| s.chars().count() <= limits.max_string_chars;
    match value {
        Value::String(s) => text_ok(s),
        Value::Array(items) => {
            items.len() <= limits.max_items && items.iter().all(|v| sizes_within(v, limits))
        }
        Value::Object(map) => {
            map.len() <= limits.max_items
                && map
                    .iter()
                    .all(|(k, v)| text_ok(k) && sizes_within(v, limits))
        }
        _ => true,
    }
}

/// Within every limit. Depth is the text's: it is measured before parsing
/// (so parsing cannot overflow the stack), and with duplicate keys the
/// parsed value can be shallower than the text (serde_json keeps the last).
fn within(value: &Value, text: &str, limits: &InputLimits) -> bool {
    text.len() <= limits.max_total_bytes
        && max_depth(text) <= limits.max_depth
        && sizes_within(value, limits)
}

fn check_json(text: &str, limits: &InputLimits) -> TestCaseResult {
    let depth = max_depth(text);
    let reference: Result<Value, _> = serde_json::from_str(text);
    if let Ok(value) = &reference {
        prop_assert!(
            depth >= value_depth(value),
            "max_depth {depth} is below the parsed value's depth"
        );
    }
    let within_limits = reference
        .as_ref()
        .is_ok_and(|value| within(value, text, limits));
    match parse_bounded(text, limits) {
        Ok(value) => {
            reached("json.accepted");
            prop_assert!(within_limits, "accepted past the limits");
            prop_assert_eq!(reference.as_ref().ok(), Some(&value));
        }
        Err(problem) => {
            prop_assert!(
                !within_limits,
                "refused a value within the limits: {problem}"
            );
            prop_assert!(!problem.to_string().is_empty());
            match problem {
                InputProblem::TooLarge { bytes, max } => {
                    prop_assert!(bytes == text.len() && bytes > max)
                }
                InputProblem::TooDeep { max } => prop_assert!(depth > max),
                InputProblem::NotJson(_) => prop_assert!(reference.is_err()),
                InputProblem::StringTooLong { .. } | InputProblem::TooManyItems { .. } => {
                    prop_assert!(reference.as_ref().is_ok_and(|v| !sizes_within(v, limits)))
                }
                InputProblem::NotPlainData(_) => prop_assert!(false, "NotPlainData from text"),
            }
        }
    }
    let vault_agent::base::input::Lenient { value, repairs, .. } = parse_lenient(text, limits);
    if !repairs.is_empty() && value != Value::Null {
        reached("json.repaired");
    }
    prop_assert!(
        value_depth(&value) <= limits.max_depth,
        "lenient result too deep"
    );
    prop_assert!(sizes_within(&value, limits), "lenient result too large");
    if text.len() > limits.max_total_bytes {
        prop_assert_eq!(&value, &Value::Null);
    }
    if within_limits {
        prop_assert_eq!(Some(&value), reference.as_ref().ok());
        prop_assert!(repairs.is_empty(), "{repairs:?}");
    }
    if repairs.is_empty() {
        prop_assert_eq!(Some(&value), reference.as_ref().ok());
    }
    Ok(())
}

const JSON_TOKENS: &[&str] = &[
    "[",
    "]",
    "{",
    "}",
    "\"",
    "\\",
    "\\\"",
    "\\\\",
    ":",
    ",",
    "1",
    "-0.5e3",
    "1e999",
    "null",
    "true",
    "\"a\"",
    "\"[\"",
    "\"]\\\\\"",
    "\"\\u0000\"",
    "\"\\ud800\"",
    " ",
    "\n",
    "é",
    "\u{0}",
    "{\"a\":",
    "[[",
    "]]",
];

fn json_text() -> impl Strategy<Value = String> {
    let value_text = (json_any(), any::<bool>()).prop_map(|(value, pretty)| {
        if pretty {
            serde_json::to_string_pretty(&value).expect("JSON")
        } else {
            value.to_string()
        }
    });
    let deep = (
        prop_oneof![4 => 0usize..200, 1 => 0usize..100_000],
        prop_oneof![Just("["), Just("{\"a\":"), Just("[{\"k\":")],
        select(vec!["1", "\"]]]\"", "", "{}"]),
        any::<bool>(),
    )
        .prop_map(|(n, open, middle, closed)| {
            let close = match open {
                "[" => "]",
                "{\"a\":" => "}",
                _ => "}]",
            };
            let mut text = open.repeat(n);
            text.push_str(middle);
            if closed {
                text.push_str(&close.repeat(n));
            }
            text
        });
    let soup = vec(select(JSON_TOKENS), 0..64).prop_map(|t| t.concat());
    let mutated = (
        json_any(),
        any::<Index>(),
        select(JSON_TOKENS),
        any::<bool>(),
    )
        .prop_map(|(value, at, token, delete)| {
            let mut text = value.to_string();
            let mut i = at.index(text.len() + 1);
            while !text.is_char_boundary(i) {
                i -= 1;
            }
            if delete && i < text.len() {
                text.remove(i);
            } else {
                text.insert_str(i, token);
            }
            text
        });
    prop_oneof![4 => value_text, 2 => deep, 2 => soup, 2 => mutated, 1 => "(?s).{0,32}"]
}

fn json_limits() -> impl Strategy<Value = InputLimits> {
    prop_oneof![
        1 => Just(TOOL_ARGUMENTS),
        1 => Just(SETTINGS),
        1 => Just(CONVERSATION),
        3 => (0usize..10, 0usize..16, 0usize..10, 0usize..4096).prop_map(
            |(max_depth, max_string_chars, max_items, max_total_bytes)| InputLimits {
                max_depth,
                max_string_chars,
                max_items,
                max_total_bytes,
            }
        ),
    ]
}

#[test]
fn fuzz_json() {
    let started = Instant::now();
    let small = InputLimits {
        max_depth: 3,
        max_string_chars: 8,
        max_items: 4,
        max_total_bytes: 256,
    };
    let files = replay("json", |_, bytes| {
        let text = String::from_utf8_lossy(bytes);
        for limits in [TOOL_ARGUMENTS, SETTINGS, CONVERSATION, small] {
            check_json(&text, &limits)?;
        }
        Ok(())
    });
    let cases = Property {
        target: "json",
        name: "parse_bounded, parse_lenient, max_depth",
        share: 1.0,
        seeds: seeds!("json"),
        strategy: (json_text(), json_limits()),
        save: |(text, _)| ("txt", text.clone().into_bytes()),
    }
    .run(|(text, limits)| check_json(&text, &limits));
    report("json", files, cases, started);
}
