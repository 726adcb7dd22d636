//! `search` (matching files) and `search:context` (matching lines).

use super::{format_param, require, Ctx, Out};

/// No match: a blank line, then `No matches found.`, whatever the format
/// (marwansaab/obsidian-cli-mcp specs/033-search-vault-content/research.md F2,
/// R4, Windows, 1.12.7: "\nNo matches found.\n"; same for `search:context`).
const NO_MATCHES: &str = "\nNo matches found.";
use crate::args::Invocation;
use crate::vault;

/// Split a query into terms; `"quoted phrases"` stay whole.
fn terms(query: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    for c in query.chars() {
        match c {
            '"' => {
                if quoted && !current.is_empty() {
                    out.push(std::mem::take(&mut current));
                }
                quoted = !quoted;
            }
            c if c.is_whitespace() && !quoted => {
                if !current.is_empty() {
                    out.push(std::mem::take(&mut current));
                }
            }
            c => current.push(c),
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// A file matches when every term occurs in its content or its name; a line
/// matches when it contains any term (guess: Obsidian's query language is not
/// emulated). Captured (marwansaab 033): case-insensitive unless `case` (F5);
/// `path=` is a case-sensitive folder, whole segments only (F3); `limit=` caps
/// the files, and 0, negative or unreadable values are ignored (F4);
/// `format=json` is compact: `["a.md","b.md"]` and
/// `[{"file":…,"matches":[{"line":2,"text":…}]}]` (F4; the latter also in
/// jackal092927/obsidian-official-cli-skills reports/raw/, 1.12.1). The text
/// layouts are guesses.
pub fn search(ctx: &Ctx, inv: &Invocation, context: bool) -> Out {
    let command = if context { "search:context" } else { "search" };
    let query = require(inv, command, "query", "text")?;
    let format = format_param(inv, &["text", "json"])?.unwrap_or("text");
    let folder = match inv.get("path").map(vault::safe_folder) {
        Some(None) => return Ok(NO_MATCHES.to_string()),
        Some(Some(f)) => f,
        None => String::new(),
    };
    let limit = inv
        .get("limit")
        .and_then(|l| l.trim().parse::<usize>().ok())
        .filter(|n| *n > 0);
    let case = inv.has("case");
    let fold = |s: &str| {
        if case {
            s.to_string()
        } else {
            s.to_lowercase()
        }
    };
    let wanted: Vec<String> = terms(query).iter().map(|t| fold(t)).collect();
    if wanted.is_empty() {
        return Err(super::missing(command, "query=<text>"));
    }
    let mut hits: Vec<(String, Vec<(usize, String)>)> = Vec::new();
    for note in ctx.vault.notes().filter(|n| vault::in_folder(n, &folder)) {
        let content = ctx.vault.read(note).unwrap_or_default();
        let hay = fold(&content);
        let name = fold(vault::stem(note));
        if !wanted.iter().all(|t| hay.contains(t) || name.contains(t)) {
            continue;
        }
        let lines: Vec<(usize, String)> = content
            .lines()
            .enumerate()
            .filter(|(_, l)| {
                let l = fold(l);
                wanted.iter().any(|t| l.contains(t))
            })
            .map(|(i, l)| (i + 1, l.to_string()))
            .collect();
        if context && lines.is_empty() {
            continue;
        }
        hits.push((note.clone(), lines));
        if limit.is_some_and(|n| hits.len() >= n) {
            break;
        }
    }
    if inv.has("total") {
        let n = if context {
            hits.iter().map(|(_, l)| l.len()).sum()
        } else {
            hits.len()
        };
        return Ok(n.to_string());
    }
    if hits.is_empty() {
        return Ok(NO_MATCHES.to_string());
    }
    let json = |v: &serde_json::Value| v.to_string();
    Ok(match (context, format) {
        (false, "json") => json(&serde_json::Value::Array(
            hits.iter().map(|(p, _)| p.clone().into()).collect(),
        )),
        (false, _) => hits
            .iter()
            .map(|(p, _)| p.as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        (true, "json") => json(&serde_json::Value::Array(
            hits.iter()
                .map(|(p, lines)| {
                    serde_json::json!({
                        "file": p,
                        "matches": lines
                            .iter()
                            .map(|(n, t)| serde_json::json!({"line": n, "text": t}))
                            .collect::<Vec<_>>(),
                    })
                })
                .collect(),
        )),
        (true, _) => hits
            .iter()
            .flat_map(|(p, lines)| lines.iter().map(move |(n, t)| format!("{p}:{n}: {t}")))
            .collect::<Vec<_>>()
            .join("\n"),
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn query_terms() {
        assert_eq!(super::terms("a  \"b c\" d"), ["a", "b c", "d"]);
    }
}
