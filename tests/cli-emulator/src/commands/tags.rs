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

/// `tag name=x`: occurrences of `#x` and of its nested tags (`#x/...`).
/// Default output `#x<TAB>occurrences`; `total` the number alone; `verbose`
/// adds one `path<TAB>occurrences` line per file.
pub fn tag(ctx: &Ctx, inv: &Invocation) -> Out {
    let name = require(inv, "tag", "name", "tag")?;
    let wanted = name.trim().trim_start_matches('#').to_lowercase();
    let files: Vec<String> = ctx.vault.notes().cloned().collect();
    let mut total = 0;
    let mut per_file: Vec<(String, usize)> = Vec::new();
    for (t, n, fs) in collect(ctx, &files) {
        let bare = t.trim_start_matches('#').to_lowercase();
        if bare == wanted || bare.starts_with(&format!("{wanted}/")) {
            total += n;
            for (p, c) in fs {
                match per_file.iter_mut().find(|(q, _)| *q == p) {
                    Some(e) => e.1 += c,
                    None => per_file.push((p, c)),
                }
            }
        }
    }
    if inv.has("total") {
        return Ok(total.to_string());
    }
    let shown = format!("#{}", name.trim().trim_start_matches('#'));
    if total == 0 {
        return Ok(format!("No occurrences of {shown} found."));
    }
    let mut out = vec![tsv_row(&[shown, total.to_string()])];
    if inv.has("verbose") {
        per_file.sort_by_key(|f| f.0.to_lowercase());
        out.extend(
            per_file
                .iter()
                .map(|(p, c)| tsv_row(&[p.clone(), c.to_string()])),
        );
    }
    Ok(out.join("\n"))
}
