//! The link graph: `links`, `backlinks`, `orphans`, `deadends`, `unresolved`.

use super::{csv_row, format_param, json, target, tsv_row, Ctx, Out};
use crate::args::Invocation;
use crate::markdown;
use crate::vault;

/// One note's outgoing links: (target as written, resolved path).
pub struct NoteLinks {
    pub source: String,
    pub links: Vec<(String, Option<String>)>,
}

/// Outgoing links of every markdown note.
pub fn graph(ctx: &Ctx) -> Vec<NoteLinks> {
    ctx.vault
        .notes()
        .map(|source| {
            let content = ctx.vault.read(source).unwrap_or_default();
            let links = markdown::links(&content)
                .into_iter()
                .map(|l| {
                    let resolved = ctx.vault.resolve_link(&l.target, source);
                    (l.target, resolved)
                })
                .collect();
            NoteLinks {
                source: source.clone(),
                links,
            }
        })
        .collect()
}

/// Outgoing links, one per line, sorted alphabetically, an unresolved one as
/// `<target> (unresolved)`; `format=` is ignored (marwansaab/obsidian-cli-mcp
/// specs/025-list-links/research.md F1, Windows, 1.12.7). Guesses: a
/// resolved link shows its vault path, duplicates are listed once, the sort
/// ignores case.
pub fn links(ctx: &Ctx, inv: &Invocation) -> Out {
    let path = target(ctx, inv, "md")?;
    let content = ctx.vault.read(&path).unwrap_or_default();
    let mut seen: Vec<String> = Vec::new();
    for l in markdown::links(&content) {
        let shown = match ctx.vault.resolve_link(&l.target, &path) {
            Some(resolved) => resolved,
            None => format!("{} (unresolved)", l.target),
        };
        if !seen.contains(&shown) {
            seen.push(shown);
        }
    }
    if inv.has("total") {
        return Ok(seen.len().to_string());
    }
    if seen.is_empty() {
        return Ok("No links found.".to_string());
    }
    vault::sort_paths(&mut seen);
    Ok(seen.join("\n"))
}

/// tsv (default) one source path per line, `format=json` `[{"file"}]`
/// pretty-printed (misiekhardcore/claude-obsidian
/// tests/spike-results/lint-backlinks-default.out, lint-backlinks-json.out).
/// `counts`, csv and the empty wording are guesses.
pub fn backlinks(ctx: &Ctx, inv: &Invocation) -> Out {
    let format = format_param(inv, &["json", "tsv", "csv"])?.unwrap_or("tsv");
    let path = target(ctx, inv, "md")?;
    let mut found: Vec<(String, usize)> = Vec::new();
    for note in graph(ctx) {
        if note.source == path {
            continue;
        }
        let n = note
            .links
            .iter()
            .filter(|(_, r)| r.as_deref() == Some(path.as_str()))
            .count();
        if n > 0 {
            found.push((note.source, n));
        }
    }
    if inv.has("total") {
        return Ok(found.len().to_string());
    }
    if found.is_empty() {
        return Ok("No backlinks found.".to_string());
    }
    let counts = inv.has("counts");
    Ok(match format {
        "json" => json(&serde_json::Value::Array(
            found
                .iter()
                .map(|(f, n)| {
                    if counts {
                        serde_json::json!({"file": f, "count": n})
                    } else {
                        serde_json::json!({"file": f})
                    }
                })
                .collect(),
        )),
        "csv" => {
            let mut rows = vec![if counts {
                csv_row(&["file", "count"])
            } else {
                csv_row(&["file"])
            }];
            for (f, n) in &found {
                rows.push(if counts {
                    csv_row(&[f.clone(), n.to_string()])
                } else {
                    csv_row(&[f])
                });
            }
            rows.join("\n")
        }
        _ => found
            .iter()
            .map(|(f, n)| {
                if counts {
                    tsv_row(&[f.clone(), n.to_string()])
                } else {
                    f.clone()
                }
            })
            .collect::<Vec<_>>()
            .join("\n"),
    })
}

/// Every file of every type, with or without `all`: `orphans` and `deadends`
/// list `.sh`, `.pdf`, `LICENSE` … by default and ignore `format=json`
/// (misiekhardcore/claude-obsidian tests/spike-results/lint-orphans-*.out,
/// lint-deadends-*.out, Linux, 1.12.7; a public emulator notes that `all` is
/// in the help but never read).
fn candidates(ctx: &Ctx) -> Vec<String> {
    ctx.vault.files().to_vec()
}

/// Files no other note links to (see `candidates` for the source).
pub fn orphans(ctx: &Ctx, inv: &Invocation) -> Out {
    let g = graph(ctx);
    let linked: Vec<&str> = g
        .iter()
        .flat_map(|n| {
            n.links
                .iter()
                .filter_map(|(_, r)| r.as_deref())
                .filter(move |r| *r != n.source)
        })
        .collect();
    let found: Vec<String> = candidates(ctx)
        .into_iter()
        .filter(|f| !linked.contains(&f.as_str()))
        .collect();
    // guess: the wording when there are none.
    list_or(found, inv, "No orphans found.")
}

/// Files that link nowhere (see `candidates` for the source).
pub fn deadends(ctx: &Ctx, inv: &Invocation) -> Out {
    let g = graph(ctx);
    let found: Vec<String> = candidates(ctx)
        .into_iter()
        .filter(|f| {
            g.iter()
                .find(|n| &n.source == f)
                .is_none_or(|n| n.links.is_empty())
        })
        .collect();
    // guess: the wording when there are none.
    list_or(found, inv, "No dead-ends found.")
}

fn list_or(found: Vec<String>, inv: &Invocation, none: &str) -> Out {
    if inv.has("total") {
        return Ok(found.len().to_string());
    }
    if found.is_empty() {
        return Ok(none.to_string());
    }
    Ok(found.join("\n"))
}

/// tsv (default) one target per line, `format=json` `[{"link"}]`
/// pretty-printed (misiekhardcore/claude-obsidian
/// tests/spike-results/lint-unresolved-default.out, lint-unresolved-json.out).
/// `counts`, `verbose`, csv, the order (case-insensitive here) and the empty
/// wording are guesses.
pub fn unresolved(ctx: &Ctx, inv: &Invocation) -> Out {
    let format = format_param(inv, &["json", "tsv", "csv"])?.unwrap_or("tsv");
    // link -> [(source, occurrences)]
    let mut table: Vec<(String, Vec<(String, usize)>)> = Vec::new();
    for note in graph(ctx) {
        for (t, r) in &note.links {
            if r.is_some() {
                continue;
            }
            let idx = match table.iter().position(|(l, _)| l == t) {
                Some(i) => i,
                None => {
                    table.push((t.clone(), Vec::new()));
                    table.len() - 1
                }
            };
            let sources = &mut table[idx].1;
            match sources.iter_mut().find(|(s, _)| *s == note.source) {
                Some(e) => e.1 += 1,
                None => sources.push((note.source.clone(), 1)),
            }
        }
    }
    table.sort_by(|a, b| {
        a.0.to_lowercase()
            .cmp(&b.0.to_lowercase())
            .then(a.0.cmp(&b.0))
    });
    if inv.has("total") {
        return Ok(table.len().to_string());
    }
    if table.is_empty() {
        return Ok("No unresolved links found.".to_string());
    }
    let counts = inv.has("counts");
    let verbose = inv.has("verbose");
    let total = |s: &[(String, usize)]| s.iter().map(|(_, n)| n).sum::<usize>();
    Ok(match format {
        "json" => json(&serde_json::Value::Array(
            table
                .iter()
                .map(|(l, s)| {
                    let mut o = serde_json::Map::new();
                    o.insert("link".into(), l.clone().into());
                    if counts {
                        o.insert("count".into(), total(s).into());
                    }
                    if verbose {
                        let names: Vec<&str> = s.iter().map(|(p, _)| p.as_str()).collect();
                        o.insert("sources".into(), names.join(", ").into());
                    }
                    serde_json::Value::Object(o)
                })
                .collect(),
        )),
        "csv" => {
            let mut header = vec!["link"];
            if verbose {
                header.push("source");
            }
            if counts {
                header.push("count");
            }
            let mut rows = vec![csv_row(&header)];
            for (l, s) in &table {
                if verbose {
                    for (p, n) in s {
                        let mut r = vec![l.clone(), p.clone()];
                        if counts {
                            r.push(n.to_string());
                        }
                        rows.push(csv_row(&r));
                    }
                } else if counts {
                    rows.push(csv_row(&[l.clone(), total(s).to_string()]));
                } else {
                    rows.push(csv_row(&[l]));
                }
            }
            rows.join("\n")
        }
        _ => {
            let mut rows = Vec::new();
            for (l, s) in &table {
                if verbose {
                    for (p, n) in s {
                        let mut r = vec![l.clone(), p.clone()];
                        if counts {
                            r.push(n.to_string());
                        }
                        rows.push(tsv_row(&r));
                    }
                } else if counts {
                    rows.push(tsv_row(&[l.clone(), total(s).to_string()]));
                } else {
                    rows.push(l.clone());
                }
            }
            rows.join("\n")
        }
    })
}
