//! The notes an answer was drawn from, shown under it as links: the notes
//! the answer cites (`[[Note#Heading]]`) among those this turn found with the
//! ranked search or read; when it cites none of them, the notes it read.
//! Found by the turn, not guessed from the answer: a link to a note the turn
//! never saw is not a source.

use serde_json::Value;

use super::conversation::ChatMessage;
use crate::base::result::NoteHeading;

pub use super::conversation::Source;

/// At most this many sources under one answer.
const MAX_SOURCES: usize = 8;

/// What the turn saw: the ranked search's passages and the notes read.
struct Consulted {
    found: Vec<NoteHeading>,
    read: Vec<NoteHeading>,
}

/// The sources of `answer`, the text that ends the turn whose messages are
/// `turn` (everything after the user's message).
pub fn of_answer(turn: &[ChatMessage], answer: &str) -> Vec<Source> {
    let consulted = consulted(turn);
    let mut sources: Vec<Source> = Vec::new();
    for (target, heading) in cited(answer) {
        let seen = consulted.found.iter().chain(&consulted.read);
        let Some(note) = seen.clone().find(|n| same_note(&n.path, &target)) else {
            continue;
        };
        let heading = if heading.is_empty() {
            seen.filter(|n| n.path == note.path)
                .map(|n| last_level(&n.heading))
                .find(|h| !h.is_empty())
                .unwrap_or_default()
                .to_string()
        } else {
            heading
        };
        push(&mut sources, &note.path, &heading);
    }
    if sources.is_empty() {
        for note in &consulted.read {
            push(&mut sources, &note.path, last_level(&note.heading));
        }
    }
    sources.truncate(MAX_SOURCES);
    sources
}

fn push(sources: &mut Vec<Source>, path: &str, heading: &str) {
    let note = path.strip_suffix(".md").unwrap_or(path);
    let link = if heading.is_empty() {
        note.to_string()
    } else {
        format!("{note}#{heading}")
    };
    if !sources.iter().any(|s| s.link == link) {
        sources.push(Source {
            path: path.to_string(),
            heading: heading.to_string(),
            link,
        });
    }
}

/// The ranked search's hits (`ToolResult::found`) and the notes that
/// obsidianNotes read whole or by section, from this turn's tool calls.
fn consulted(turn: &[ChatMessage]) -> Consulted {
    let mut found = Vec::new();
    let mut read = Vec::new();
    for message in turn {
        match message {
            ChatMessage::Tool { result, .. } if result.ok => {
                found.extend(result.found.iter().flatten().cloned());
            }
            ChatMessage::Assistant { tool_calls, .. } => {
                for call in tool_calls.iter().filter(|c| c.name == "obsidianNotes") {
                    let Ok(args) = serde_json::from_str::<Value>(&call.arguments) else {
                        continue;
                    };
                    let field = |name: &str| args.get(name).and_then(Value::as_str);
                    if !matches!(field("command"), Some("read" | "section")) {
                        continue;
                    }
                    if let Some(path) = field("path").or_else(|| field("file")) {
                        read.push(NoteHeading {
                            path: path.to_string(),
                            heading: field("heading").unwrap_or_default().to_string(),
                        });
                    }
                }
            }
            _ => {}
        }
    }
    // A read that failed is not a source: keep the reads whose call answered.
    let answered = answered_reads(turn);
    read.retain(|r| answered.iter().any(|a| a == &r.path));
    Consulted { found, read }
}

/// Paths (as asked) of the obsidianNotes reads whose result was not an error.
fn answered_reads(turn: &[ChatMessage]) -> Vec<String> {
    let mut out = Vec::new();
    for message in turn {
        let ChatMessage::Assistant { tool_calls, .. } = message else {
            continue;
        };
        for call in tool_calls {
            let ok = turn.iter().any(|m| {
                matches!(m, ChatMessage::Tool { call_id, is_error: false, .. } if *call_id == call.id)
            });
            let path = serde_json::from_str::<Value>(&call.arguments)
                .ok()
                .and_then(|a| {
                    a.get("path")
                        .or_else(|| a.get("file"))
                        .and_then(Value::as_str)
                        .map(String::from)
                });
            if let (true, Some(path)) = (ok, path) {
                out.push(path);
            }
        }
    }
    out
}

/// `[[target#heading|alias]]` links in the answer, outside code, as
/// (target, last heading level).
fn cited(answer: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for line in answer.lines() {
        let text = crate::notes::syntax::prose(line);
        let mut rest = text.as_str();
        while let Some(start) = rest.find("[[") {
            rest = &rest[start + 2..];
            let Some(end) = rest.find("]]") else { break };
            let inner = rest[..end].split('|').next().unwrap_or("");
            rest = &rest[end + 2..];
            let target = inner.split('#').next().unwrap_or("").trim();
            let heading = inner.rsplit('#').next().filter(|_| inner.contains('#'));
            let heading = heading.unwrap_or("").trim();
            if !target.is_empty() && !heading.starts_with('^') {
                out.push((target.to_string(), heading.to_string()));
            }
        }
    }
    out
}

/// Whether a link's target names the note at `path`: its path or its name,
/// with or without `.md`, in any case (as Obsidian resolves a link).
fn same_note(path: &str, target: &str) -> bool {
    let bare = |s: &str| s.strip_suffix(".md").unwrap_or(s).to_lowercase();
    let (path, target) = (bare(path), bare(target));
    path == target || path.rsplit('/').next() == Some(target.as_str())
}

/// `Parent::Child` (the section reader's heading path) as Obsidian links
/// it: the last level.
fn last_level(heading: &str) -> &str {
    heading.rsplit("::").next().unwrap_or(heading).trim()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::result::ToolResult;
    use crate::doors::chat::conversation::ToolCallRecord;

    fn call(id: &str, name: &str, args: Value) -> ToolCallRecord {
        ToolCallRecord {
            id: id.into(),
            name: name.into(),
            arguments: args.to_string(),
            as_text: false,
        }
    }

    fn tool(id: &str, ok: bool, found: Option<Vec<NoteHeading>>) -> ChatMessage {
        let mut result = ToolResult::success("page");
        result.ok = ok;
        result.found = found;
        ChatMessage::Tool {
            call_id: id.into(),
            tool: "x".into(),
            content: String::new(),
            is_error: !ok,
            result: Box::new(result),
            table: None,
        }
    }

    fn hit(path: &str, heading: &str) -> NoteHeading {
        NoteHeading {
            path: path.into(),
            heading: heading.into(),
        }
    }

    fn searched() -> Vec<ChatMessage> {
        vec![
            ChatMessage::assistant(
                String::new(),
                vec![call(
                    "1",
                    "obsidianSearch",
                    serde_json::json!({"command": "find", "query": "launch"}),
                )],
            ),
            tool(
                "1",
                true,
                Some(vec![
                    hit("Projects/Launch plan.md", "Timeline::Dates"),
                    hit("Meetings/Kickoff.md", ""),
                ]),
            ),
        ]
    }

    #[test]
    fn cited_notes_the_search_found_are_the_sources_with_their_found_heading() {
        let sources = of_answer(
            &searched(),
            "The launch is in May ([[Launch plan]]); see also [[Elsewhere]].",
        );
        assert_eq!(
            sources,
            vec![Source {
                path: "Projects/Launch plan.md".into(),
                heading: "Dates".into(),
                link: "Projects/Launch plan#Dates".into(),
            }]
        );
    }

    #[test]
    fn a_cited_heading_wins_and_links_repeat_once() {
        let sources = of_answer(
            &searched(),
            "[[projects/launch plan.md#Budget|the budget]] and [[Launch plan#Budget]], [[Kickoff]]. `[[Meetings/Kickoff]]`",
        );
        let links: Vec<&str> = sources.iter().map(|s| s.link.as_str()).collect();
        assert_eq!(links, ["Projects/Launch plan#Budget", "Meetings/Kickoff"]);
    }

    #[test]
    fn without_citations_the_notes_read_are_the_sources_and_failed_reads_are_not() {
        let mut turn = searched();
        turn.push(ChatMessage::assistant(
            String::new(),
            vec![
                call(
                    "2",
                    "obsidianNotes",
                    serde_json::json!({"command": "section", "path": "Projects/Launch plan.md", "heading": "Timeline::Dates"}),
                ),
                call(
                    "3",
                    "obsidianNotes",
                    serde_json::json!({"command": "read", "path": "Gone.md"}),
                ),
            ],
        ));
        turn.push(tool("2", true, None));
        turn.push(tool("3", false, None));
        let sources = of_answer(&turn, "It is in May.");
        let links: Vec<&str> = sources.iter().map(|s| s.link.as_str()).collect();
        assert_eq!(links, ["Projects/Launch plan#Dates"]);
        // Found but neither cited nor read: not a source.
        assert!(of_answer(&searched(), "It is in May.").is_empty());
    }

    #[test]
    fn a_failed_search_gives_no_sources() {
        let mut turn = searched();
        turn[1] = tool("1", false, Some(vec![hit("Projects/Launch plan.md", "")]));
        assert!(of_answer(&turn, "[[Launch plan]]").is_empty());
    }
}
