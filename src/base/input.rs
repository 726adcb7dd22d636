//! Bounds on every value that enters the core from outside (tool arguments,
//! stored settings, conversations). Values arrive as JSON text: the wasm
//! boundary turns a JS value into text with the engine's own `JSON.stringify`
//! (which refuses BigInts, cycles and throwing getters without touching the
//! core), checks its length before copying it in, and the text is parsed here
//! only after its nesting depth is known to be small. Deep nesting used to
//! overflow the wasm stack inside the JS-value deserializer and leave the core
//! unusable for the rest of the session.

use serde_json::Value;

/// How large a value may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputLimits {
    /// Objects and arrays inside each other, the outermost counting as 1.
    pub max_depth: usize,
    /// Characters of one string (keys included).
    pub max_string_chars: usize,
    /// Elements of one array, or members of one object.
    pub max_items: usize,
    /// Bytes of the whole JSON text.
    pub max_total_bytes: usize,
}

/// Tool-call arguments: from the model, the public API, later MCP clients.
/// A note's content can be large (creating a 2 MB note), but never deep.
pub const TOOL_ARGUMENTS: InputLimits = InputLimits {
    max_depth: 64,
    max_string_chars: 4 * 1024 * 1024,
    max_items: 10_000,
    max_total_bytes: 8 * 1024 * 1024,
};

/// `data.json` and the settings tab's values.
pub const SETTINGS: InputLimits = InputLimits {
    max_depth: 64,
    max_string_chars: 64 * 1024,
    max_items: 10_000,
    max_total_bytes: 4 * 1024 * 1024,
};

/// A stored conversation (tool results included) and platform facts.
pub const CONVERSATION: InputLimits = InputLimits {
    max_depth: 64,
    max_string_chars: 16 * 1024 * 1024,
    max_items: 100_000,
    max_total_bytes: 64 * 1024 * 1024,
};

/// The undo journal (`journal.json`): a note's text before and after a
/// change, within the journal's own bound (`journal::MAX_BYTES`), with room
/// for JSON escapes.
pub const JOURNAL: InputLimits = InputLimits {
    max_depth: 64,
    max_string_chars: 8 * 1024 * 1024,
    max_items: 10_000,
    max_total_bytes: 24 * 1024 * 1024,
};

/// One MCP message (a tool call's arguments inside): the body limit of the
/// MCP endpoint, and the nesting and list bounds of tool arguments.
pub const MCP_MESSAGE: InputLimits = InputLimits {
    max_depth: 64,
    max_string_chars: 4 * 1024 * 1024,
    max_items: 10_000,
    max_total_bytes: 4 * 1024 * 1024,
};

/// The longest tool id the core looks at.
pub const MAX_TOOL_ID_CHARS: usize = 200;

/// Why a value was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputProblem {
    TooLarge {
        bytes: usize,
        max: usize,
    },
    TooDeep {
        max: usize,
    },
    StringTooLong {
        chars: usize,
        max: usize,
    },
    TooManyItems {
        items: usize,
        max: usize,
    },
    NotJson(String),
    /// The host could not turn the value into JSON (BigInt, a cycle, a getter
    /// or Proxy trap that threw); the text says which.
    NotPlainData(String),
}

impl std::fmt::Display for InputProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InputProblem::TooLarge { bytes, max } => write!(
                f,
                "the value is {} long, more than the {} allowed; send less at once",
                crate::base::text::human_bytes(*bytes as u64),
                crate::base::text::human_bytes(*max as u64)
            ),
            InputProblem::TooDeep { max } => write!(
                f,
                "the value is nested more than {max} levels deep; send flat JSON (objects of text, numbers and booleans)"
            ),
            InputProblem::StringTooLong { chars, max } => write!(
                f,
                "a text value has {chars} characters, more than the {max} allowed; send less at once"
            ),
            InputProblem::TooManyItems { items, max } => write!(
                f,
                "a list or object has {items} entries, more than the {max} allowed"
            ),
            InputProblem::NotJson(detail) => write!(f, "the value is not valid JSON ({detail})"),
            InputProblem::NotPlainData(detail) => write!(
                f,
                "the value cannot be read as plain JSON data ({detail}); send only objects, arrays, text, numbers, booleans and null"
            ),
        }
    }
}

/// Parses `text` if it stays within `limits`; otherwise says which limit it broke.
pub fn parse_bounded(text: &str, limits: &InputLimits) -> Result<Value, InputProblem> {
    if text.len() > limits.max_total_bytes {
        return Err(InputProblem::TooLarge {
            bytes: text.len(),
            max: limits.max_total_bytes,
        });
    }
    if max_depth(text) > limits.max_depth {
        return Err(InputProblem::TooDeep {
            max: limits.max_depth,
        });
    }
    let value: Value =
        serde_json::from_str(text).map_err(|e| InputProblem::NotJson(e.to_string()))?;
    check_sizes(&value, limits)?;
    Ok(value)
}

/// Stored data as the lenient reader could read it.
#[derive(Clone, Debug, PartialEq)]
pub struct Lenient {
    /// What could be read; `null` where a part (or the whole) could not.
    pub value: Value,
    /// One line for the log for each part that was dropped.
    pub repairs: Vec<String>,
    /// The whole value could not be read (too large, not JSON, not plain
    /// data), which is not the same as nothing stored: a reader may have to
    /// fall back further than to its defaults (the folder scopes do).
    pub unreadable: bool,
}

impl Lenient {
    /// Nothing was stored (a first run).
    pub fn nothing() -> Self {
        Lenient {
            value: Value::Null,
            repairs: Vec::new(),
            unreadable: false,
        }
    }

    /// The whole value was unreadable, for this reason.
    pub fn unreadable(reason: String) -> Self {
        Lenient {
            value: Value::Null,
            repairs: vec![reason],
            unreadable: true,
        }
    }
}

/// For stored data that must load whatever it holds: values nested too deep,
/// strings too long and lists too long become `null` (each one reported), so
/// the reader's own defaults take their place. Unreadable text becomes `null`
/// and is marked `unreadable`.
pub fn parse_lenient(text: &str, limits: &InputLimits) -> Lenient {
    let mut repairs = Vec::new();
    if text.len() > limits.max_total_bytes {
        return Lenient::unreadable(format!(
            "the stored data is {}; it was ignored and defaults are used",
            InputProblem::TooLarge {
                bytes: text.len(),
                max: limits.max_total_bytes
            }
        ));
    }
    let pruned;
    let text = if max_depth(text) > limits.max_depth {
        let (cut, count) = prune_deep(text, limits.max_depth);
        repairs.push(format!(
            "{count} value(s) nested more than {} levels deep were dropped",
            limits.max_depth
        ));
        pruned = cut;
        pruned.as_str()
    } else {
        text
    };
    let mut value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(error) => {
            repairs.push(format!(
                "the stored data is not valid JSON ({error}); defaults are used"
            ));
            return Lenient {
                value: Value::Null,
                repairs,
                unreadable: true,
            };
        }
    };
    drop_oversized(&mut value, limits, "", &mut repairs);
    // An oversized whole is as unreadable as one too large to parse.
    let unreadable = value.is_null() && !repairs.is_empty();
    Lenient {
        value,
        repairs,
        unreadable,
    }
}

/// The deepest nesting of objects and arrays in a JSON text, without parsing
/// it (so the count itself cannot overflow a stack).
pub fn max_depth(text: &str) -> usize {
    let mut depth = 0usize;
    let mut deepest = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for byte in text.bytes() {
        if in_string {
            match (escaped, byte) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// Replaces every object or array that would sit deeper than `max_depth` with
/// `null`; returns the new text and how many values were replaced.
fn prune_deep(text: &str, max_depth: usize) -> (String, usize) {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    // While skipping a pruned value: the depth at which it started.
    let mut skipping: Option<usize> = None;
    let mut replaced = 0usize;
    for ch in text.chars() {
        if in_string {
            match (escaped, ch) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            if skipping.is_none() {
                out.push(ch);
            }
            continue;
        }
        match ch {
            '"' => in_string = true,
            '{' | '[' => {
                depth += 1;
                if depth > max_depth && skipping.is_none() {
                    skipping = Some(depth);
                    replaced += 1;
                    out.push_str("null");
                }
            }
            '}' | ']' => {
                let closing = depth;
                depth = depth.saturating_sub(1);
                if skipping == Some(closing) {
                    skipping = None;
                    continue;
                }
            }
            _ => {}
        }
        if skipping.is_none() {
            out.push(ch);
        }
    }
    (out, replaced)
}

fn check_sizes(value: &Value, limits: &InputLimits) -> Result<(), InputProblem> {
    let string = |s: &str| {
        let chars = s.chars().count();
        if chars > limits.max_string_chars {
            Err(InputProblem::StringTooLong {
                chars,
                max: limits.max_string_chars,
            })
        } else {
            Ok(())
        }
    };
    let items = |n: usize| {
        if n > limits.max_items {
            Err(InputProblem::TooManyItems {
                items: n,
                max: limits.max_items,
            })
        } else {
            Ok(())
        }
    };
    match value {
        Value::String(s) => string(s),
        Value::Array(list) => {
            items(list.len())?;
            list.iter().try_for_each(|v| check_sizes(v, limits))
        }
        Value::Object(map) => {
            items(map.len())?;
            map.iter().try_for_each(|(k, v)| {
                string(k)?;
                check_sizes(v, limits)
            })
        }
        _ => Ok(()),
    }
}

fn drop_oversized(value: &mut Value, limits: &InputLimits, at: &str, repairs: &mut Vec<String>) {
    let too_big = match &*value {
        Value::String(s) => s.chars().count() > limits.max_string_chars,
        Value::Array(list) => list.len() > limits.max_items,
        Value::Object(map) => {
            map.len() > limits.max_items
                || map
                    .keys()
                    .any(|k| k.chars().count() > limits.max_string_chars)
        }
        _ => false,
    };
    if too_big {
        repairs.push(format!(
            "`{}` was too large and was dropped",
            if at.is_empty() {
                "(the whole value)"
            } else {
                at
            }
        ));
        *value = Value::Null;
        return;
    }
    match value {
        Value::Array(list) => {
            for (i, v) in list.iter_mut().enumerate() {
                drop_oversized(v, limits, &format!("{at}[{i}]"), repairs);
            }
        }
        Value::Object(map) => {
            for (k, v) in map.iter_mut() {
                let path = if at.is_empty() {
                    k.clone()
                } else {
                    format!("{at}.{k}")
                };
                drop_oversized(v, limits, &path, repairs);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(depth: usize) -> String {
        format!("{}1{}", "[".repeat(depth), "]".repeat(depth))
    }

    #[test]
    fn depth_counts_containers_and_ignores_brackets_in_strings() {
        assert_eq!(max_depth("1"), 0);
        assert_eq!(max_depth(r#"{"a":[1,{"b":2}]}"#), 3);
        assert_eq!(max_depth(r#"{"a":"[[[[\"]]]"}"#), 1);
        assert_eq!(max_depth(&nested(3000)), 3000);
    }

    #[test]
    fn bounded_parse_refuses_each_limit_by_name() {
        let limits = InputLimits {
            max_depth: 4,
            max_string_chars: 5,
            max_items: 3,
            max_total_bytes: 100,
        };
        assert!(parse_bounded(&nested(4), &limits).is_ok());
        assert_eq!(
            parse_bounded(&nested(5), &limits),
            Err(InputProblem::TooDeep { max: 4 })
        );
        assert!(matches!(
            parse_bounded(r#""abcdef""#, &limits),
            Err(InputProblem::StringTooLong { chars: 6, .. })
        ));
        assert!(matches!(
            parse_bounded(r#"{"abcdef":1}"#, &limits),
            Err(InputProblem::StringTooLong { .. })
        ));
        assert!(matches!(
            parse_bounded("[1,2,3,4]", &limits),
            Err(InputProblem::TooManyItems { items: 4, .. })
        ));
        assert!(matches!(
            parse_bounded(&" ".repeat(101), &limits),
            Err(InputProblem::TooLarge { bytes: 101, .. })
        ));
        assert!(matches!(
            parse_bounded("{oops", &limits),
            Err(InputProblem::NotJson(_))
        ));
        let message = InputProblem::TooDeep { max: 64 }.to_string();
        assert!(message.contains("64 levels") && message.contains("flat JSON"));
    }

    #[test]
    fn a_deep_value_far_past_any_stack_is_refused_quickly() {
        let text = nested(1_000_000);
        assert_eq!(
            parse_bounded(&text, &TOOL_ARGUMENTS),
            Err(InputProblem::TooDeep { max: 64 })
        );
    }

    #[test]
    fn lenient_parse_keeps_the_rest_of_the_value() {
        let deep = nested(5000);
        let text =
            format!(r#"{{"timeoutMs": 2000, "tools": {deep}, "cliPath": "/x", "note": "a]\"[b"}}"#);
        let Lenient {
            value,
            repairs,
            unreadable,
        } = parse_lenient(&text, &SETTINGS);
        assert!(!unreadable);
        assert_eq!(value["timeoutMs"], 2000);
        assert_eq!(value["cliPath"], "/x");
        assert_eq!(value["note"], "a]\"[b");
        // The deep value is cut where it passes the limit; what is left is shallow.
        assert!(max_depth(&value.to_string()) <= SETTINGS.max_depth);
        assert_eq!(repairs.len(), 1, "{repairs:?}");
        assert!(repairs[0].contains("nested more than 64"));
    }

    #[test]
    fn lenient_parse_drops_oversized_strings_and_survives_garbage() {
        let long = "x".repeat(SETTINGS.max_string_chars + 1);
        let text = format!(r#"{{"cliPath": "{long}", "vaultName": "Work"}}"#);
        let read = parse_lenient(&text, &SETTINGS);
        assert_eq!(read.value["cliPath"], Value::Null);
        assert_eq!(read.value["vaultName"], "Work");
        assert!(read.repairs[0].contains("`cliPath`"), "{:?}", read.repairs);
        // A part dropped is not the whole unreadable.
        assert!(!read.unreadable);
        let garbage = parse_lenient("{not json", &SETTINGS);
        assert_eq!(garbage.value, Value::Null);
        assert!(garbage.repairs[0].contains("not valid JSON"));
        assert!(garbage.unreadable);
    }

    #[test]
    fn nothing_stored_is_not_unreadable_but_too_much_is() {
        assert_eq!(parse_lenient("null", &SETTINGS), Lenient::nothing());
        let big = format!("\"{}\"", "x".repeat(SETTINGS.max_total_bytes));
        assert!(parse_lenient(&big, &SETTINGS).unreadable);
        // A whole string too long to keep: nothing of it is left.
        let long = format!("\"{}\"", "x".repeat(SETTINGS.max_string_chars + 1));
        assert!(parse_lenient(&long, &SETTINGS).unreadable);
        let list = format!("[{}1]", "1,".repeat(SETTINGS.max_items));
        assert!(parse_lenient(&list, &SETTINGS).unreadable);
    }
}
