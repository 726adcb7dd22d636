//! `tags` (list with counts) and `tag` (one tag's occurrences).

use super::{
    csv_row, format_param, json, read_note, require, target, tsv_row, wants_single_file, Ctx, Out,
};
use crate::args::Invocation;
use crate::markdown;

/// Tag occurrences grouped case-insensitively, keeping the first spelling:
/// (`#tag`, occurrences, files).
/// (`#tag`, occurrences, (file, occurrences) per file).
type TagCount = (String, usize, Vec<(String, usize)>);

fn collect(ctx: &Ctx, files: &[String]) -> Vec<TagCount> {
    let mut out: Vec<TagCount> = Vec::new();
    for f in files {
        let content = ctx.vault.read(f).unwrap_or_default();
        for (tag, _) in markdown::tags(&content) {
            let shown = format!("#{tag}");
            let idx = match out
                .iter()
                .position(|(t, ..)| t.to_lowercase() == shown.to_lowercase())
            {
                Some(i) => i,
                None => {
                    out.push((shown, 0, Vec::new()));
                    out.len() - 1
                }
            };
            let entry = &mut out[idx];
            entry.1 += 1;
            match entry.2.iter_mut().find(|(p, _)| p == f) {
                Some(e) => e.1 += 1,
                None => entry.2.push((f.clone(), 1)),
            }
        }
    }
    out
}

/// tsv (default) `#tag` lines (misiekhardcore/claude-obsidian
/// tests/spike-results/lint-tags-default.out, Linux, 1.12.7), `counts` →
/// `#tag<TAB>N` (jackal092927/obsidian-official-cli-skills reports/raw/,
/// 1.12.1). The case-insensitive sort matches the first capture; the
/// numeric order of digits in the second (`#7…` before `#27…`), json, csv and
/// the empty wording are guesses.
pub fn tags(ctx: &Ctx, inv: &Invocation) -> Out {
    let format = format_param(inv, &["json", "tsv", "csv"])?.unwrap_or("tsv");
    let files: Vec<String> = if wants_single_file(inv) {
        let p = target(ctx, inv, "md")?;
        read_note(ctx, &p)?;
        vec![p]
    } else {
        ctx.vault.notes().cloned().collect()
    };
    let mut found = collect(ctx, &files);
    if inv.has("total") {
        return Ok(found.len().to_string());
    }
    if found.is_empty() {
        return Ok("No tags found.".to_string());
    }
    found.sort_by(|a, b| {
        a.0.to_lowercase()
            .cmp(&b.0.to_lowercase())
            .then(a.0.cmp(&b.0))
    });
    if inv.get("sort") == Some("count") {
        found.sort_by_key(|t| std::cmp::Reverse(t.1));
    }
    let counts = inv.has("counts");
    Ok(match format {
        "json" => json(&serde_json::Value::Array(
            found
                .iter()
                .map(|(t, n, _)| {
                    if counts {
                        serde_json::json!({"tag": t, "count": n})
                    } else {
                        serde_json::json!({"tag": t})
                    }
                })
                .collect(),
        )),
        "csv" => {
            let mut rows = vec![if counts {
                csv_row(&["tag", "count"])
            } else {
                csv_row(&["tag"])
            }];
            for (t, n, _) in &found {
                rows.push(if counts {
                    csv_row(&[t.clone(), n.to_string()])
                } else {
                    csv_row(&[t])
                });
            }
            rows.join("\n")
        }
        _ => found
            .iter()
            .map(|(t, n, _)| {
                if counts {
                    tsv_row(&[t.clone(), n.to_string()])
                } else {
                    t.clone()
                }
            })
            .collect::<Vec<_>>()
            .join("\n"),
    })
}

/// `tag name=x` (marwansaab/obsidian-cli-mcp specs/028-list-tagged-files/
/// research.md F2, F3, 1.12.7): the paths of the notes carrying `#x`, one per
/// line; `verbose` puts `#x<TAB>N` first; the match is case-sensitive (`Alpha`
/// does not find `#alpha`); none → `Error: Tag "#x" not found.`. Guesses: N is
/// the number of notes, `total` prints N, nested tags (`#x/y`) do not count
/// (the source infers this without a capture), the paths are sorted.
pub fn tag(ctx: &Ctx, inv: &Invocation) -> Out {
    let name = require(inv, "tag", "name", "tag")?;
    let wanted = name.trim().trim_start_matches('#');
    let mut files: Vec<String> = ctx
        .vault
        .notes()
        .filter(|note| {
            let content = ctx.vault.read(note).unwrap_or_default();
            markdown::tags(&content).iter().any(|(t, _)| t == wanted)
        })
        .cloned()
        .collect();
    let shown = format!("#{wanted}");
    if files.is_empty() {
        return Err(format!("Error: Tag \"{shown}\" not found."));
    }
    if inv.has("total") {
        return Ok(files.len().to_string());
    }
    crate::vault::sort_paths(&mut files);
    let mut out = Vec::new();
    if inv.has("verbose") {
        out.push(tsv_row(&[shown, files.len().to_string()]));
    }
    out.extend(files);
    Ok(out.join("\n"))
}
