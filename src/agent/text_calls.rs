//! Tool calls that small models print as text instead of sending them as
//! tool calls: a JSON object with `name` and `arguments` (or `parameters`),
//! bare or in a code fence, or inside `<tool_call>` tags (the Hermes / Qwen
//! form). Only names of tools the model was offered count, so a JSON example
//! in an answer is never taken for a call.

use serde_json::Value;

use super::conversation::ToolCallRecord;

/// The calls found in `text` and the text without them, or `None` when the
/// text holds no call to an offered tool.
pub fn extract(text: &str, offered: &[&str]) -> Option<(String, Vec<ToolCallRecord>)> {
    let mut calls = Vec::new();
    let mut rest = text.to_string();
    // <tool_call> … </tool_call>, as many as there are.
    while let Some(start) = rest.find("<tool_call>") {
        let body_start = start + "<tool_call>".len();
        let end = rest[body_start..]
            .find("</tool_call>")
            .map(|e| body_start + e);
        let body = match end {
            Some(end) => &rest[body_start..end],
            None => &rest[body_start..],
        };
        let call = parse_call(strip_fence(body.trim()), offered, calls.len())?;
        calls.push(call);
        let cut_end = end.map_or(rest.len(), |e| e + "</tool_call>".len());
        rest.replace_range(start..cut_end, "");
    }
    if !calls.is_empty() {
        return Some((rest.trim().to_string(), calls));
    }
    // A fenced or bare JSON object, possibly after some words.
    for (start, end) in json_objects(text) {
        let candidate = &text[start..end];
        if let Some(call) = parse_call(candidate, offered, calls.len()) {
            calls.push(call);
            rest = rest.replacen(candidate, "", 1);
        }
    }
    if calls.is_empty() {
        return None;
    }
    Some((clean_fences(&rest), calls))
}

fn strip_fence(body: &str) -> &str {
    let body = body.trim();
    let Some(inner) = body.strip_prefix("```") else {
        return body;
    };
    let inner = inner.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    inner.strip_suffix("```").unwrap_or(inner).trim()
}

/// Empty code fences left where a call was taken out.
fn clean_fences(text: &str) -> String {
    let mut out = text.to_string();
    for fence in ["```json", "```JSON", "```"] {
        while let Some(at) = out.find(&format!("{fence}\n\n```")) {
            out.replace_range(at..at + fence.len() + 5, "");
        }
        while let Some(at) = out.find(&format!("{fence}\n```")) {
            out.replace_range(at..at + fence.len() + 4, "");
        }
    }
    out.trim().to_string()
}

/// Byte ranges of top-level `{ … }` objects in `text` (strings respected).
fn json_objects(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = None;
    let mut in_string = false;
    let mut escaped = false;
    for (i, &b) in bytes.iter().enumerate() {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' if depth > 0 => in_string = true,
            b'{' => {
                if depth == 0 {
                    start = Some(i);
                }
                depth += 1;
            }
            b'}' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    if let Some(s) = start.take() {
                        out.push((s, i + 1));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

fn parse_call(candidate: &str, offered: &[&str], index: usize) -> Option<ToolCallRecord> {
    let value: Value = serde_json::from_str(candidate).ok()?;
    let object = value.as_object()?;
    let name = object
        .get("name")
        .or_else(|| object.get("tool"))
        .and_then(Value::as_str)?;
    if !offered.contains(&name) {
        return None;
    }
    let arguments = match object.get("arguments").or_else(|| object.get("parameters")) {
        Some(Value::String(text)) => text.clone(),
        Some(other @ Value::Object(_)) => other.to_string(),
        None => "{}".to_string(),
        Some(_) => return None,
    };
    Some(ToolCallRecord {
        id: format!("text_call_{index}"),
        name: name.to_string(),
        arguments,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOOLS: &[&str] = &["obsidianTasks", "obsidianNotes"];

    fn one(text: &str) -> (String, ToolCallRecord) {
        let (rest, mut calls) =
            extract(text, TOOLS).unwrap_or_else(|| panic!("no call in {text:?}"));
        assert_eq!(calls.len(), 1, "{text:?}");
        (rest, calls.remove(0))
    }

    #[test]
    fn every_printed_form_becomes_a_call() {
        let args = r#"{"command":"tasks","todo":true}"#;
        for text in [
            format!(r#"{{"name": "obsidianTasks", "arguments": {args}}}"#),
            format!("```json\n{{\"name\": \"obsidianTasks\", \"arguments\": {args}}}\n```"),
            format!(
                "Let me check.\n```\n{{\"name\": \"obsidianTasks\", \"parameters\": {args}}}\n```"
            ),
            format!(
                "<tool_call>\n{{\"name\": \"obsidianTasks\", \"arguments\": {args}}}\n</tool_call>"
            ),
            format!(
                "<tool_call>{{\"name\": \"obsidianTasks\", \"arguments\": \"{}\"}}</tool_call>",
                args.replace('"', "\\\"")
            ),
        ] {
            let (rest, call) = one(&text);
            assert_eq!(call.name, "obsidianTasks");
            let parsed: Value = serde_json::from_str(&call.arguments).unwrap();
            assert_eq!(
                parsed,
                serde_json::json!({"command": "tasks", "todo": true}),
                "{text}"
            );
            assert!(rest.is_empty() || rest == "Let me check.", "{rest:?}");
        }
        let (_, calls) = extract(
            "<tool_call>{\"name\":\"obsidianTasks\",\"arguments\":{}}</tool_call>\n<tool_call>{\"name\":\"obsidianNotes\",\"arguments\":{\"command\":\"files\"}}</tool_call>",
            TOOLS,
        )
        .unwrap();
        assert_eq!(
            calls.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
            ["obsidianTasks", "obsidianNotes"]
        );
        assert_ne!(calls[0].id, calls[1].id);
    }

    #[test]
    fn json_that_is_not_a_call_to_an_offered_tool_stays_text() {
        for text in [
            "Here is an example: {\"name\": \"Alice\", \"arguments\": {}}",
            "{\"name\": \"deleteEverything\", \"arguments\": {}}",
            "No JSON at all {",
            "A set {a, b} and {\"name\": \"obsidianTasks\"",
        ] {
            assert!(extract(text, TOOLS).is_none(), "{text}");
        }
    }
}
