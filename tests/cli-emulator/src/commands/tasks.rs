//! `tasks` (list) and `task` (show or update one).

use super::{
    csv_row, daily_path, format_param, json, missing, not_found, read_note, target, tsv_row, Ctx,
    Out,
};
use crate::args::Invocation;
use crate::markdown::{self, Task};

const NONE: &str = "No tasks found.";

/// Which files `tasks` looks at. The default, with none of
/// `file`/`path`/`active`/`daily`, is the whole vault (same as `all`).
fn scope(ctx: &Ctx, inv: &Invocation) -> Result<Option<Vec<String>>, String> {
    if inv.get("file").is_some() || inv.get("path").is_some() || inv.has("active") {
        return Ok(Some(vec![target(ctx, inv, "md")?]));
    }
    if inv.has("daily") {
        let p = daily_path(ctx);
        return Ok(Some(if ctx.vault.contains(&p) {
            vec![p]
        } else {
            vec![]
        }));
    }
    Ok(None)
}

fn status_filter(inv: &Invocation) -> Result<Option<char>, String> {
    match inv.get("status") {
        None => Ok(None),
        Some(s) => {
            let mut chars = s.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => Ok(Some(c)),
                _ => Err(format!(
                    "Error: Invalid status \"{s}\". Use a single character."
                )),
            }
        }
    }
}

/// `done` means any status other than a space (as Obsidian's own checkbox
/// does), `todo` means a space.
fn keep(task: &Task, status: Option<char>, done: bool, todo: bool) -> bool {
    if let Some(c) = status {
        if task.status != c {
            return false;
        }
    }
    match (done, todo) {
        (true, false) => task.status != ' ',
        (false, true) => task.status == ' ',
        _ => true,
    }
}

/// Default: one task line per task as written (misiekhardcore/claude-obsidian
/// tests/spike-results/lint-tasks-default.out, Linux, 1.12.7); `total` a bare
/// number (jackal092927/obsidian-official-cli-skills reports/raw/, 1.12.1).
/// Guesses: `verbose` (file, then `  L<n>: <line>`), the json/tsv/csv field
/// names (json `line` as a string), the empty wording, the order.
pub fn list(ctx: &Ctx, inv: &Invocation) -> Out {
    let format = format_param(inv, &["text", "json", "tsv", "csv"])?;
    let status = status_filter(inv)?;
    let files: Vec<String> = match scope(ctx, inv)? {
        Some(f) => f,
        None => ctx.vault.notes().cloned().collect(),
    };
    let (done, todo) = (inv.has("done"), inv.has("todo"));
    let mut found: Vec<(String, Task)> = Vec::new();
    for f in files {
        let content = ctx.vault.read(&f).unwrap_or_default();
        for t in markdown::tasks(&content) {
            if keep(&t, status, done, todo) {
                found.push((f.clone(), t));
            }
        }
    }
    if inv.has("total") {
        return Ok(found.len().to_string());
    }
    if found.is_empty() {
        return Ok(NONE.to_string());
    }
    let out = match format.unwrap_or("text") {
        "json" => json(&serde_json::Value::Array(
            found
                .iter()
                .map(|(p, t)| {
                    serde_json::json!({
                        "path": p,
                        "line": t.line.to_string(),
                        "status": t.status.to_string(),
                        "text": t.text,
                    })
                })
                .collect(),
        )),
        "tsv" => found
            .iter()
            .map(|(p, t)| {
                tsv_row(&[
                    p.clone(),
                    t.line.to_string(),
                    t.status.to_string(),
                    t.text.clone(),
                ])
            })
            .collect::<Vec<_>>()
            .join("\n"),
        "csv" => {
            let mut rows = vec![csv_row(&["path", "line", "status", "text"])];
            rows.extend(found.iter().map(|(p, t)| {
                csv_row(&[
                    p.clone(),
                    t.line.to_string(),
                    t.status.to_string(),
                    t.text.clone(),
                ])
            }));
            rows.join("\n")
        }
        _ if inv.has("verbose") => {
            let mut groups: Vec<String> = Vec::new();
            let mut current: Option<&str> = None;
            for (p, t) in &found {
                if current != Some(p.as_str()) {
                    groups.push(p.clone());
                    current = Some(p);
                }
                let last = groups.last_mut().expect("group exists");
                last.push_str(&format!("\n  L{}: {}", t.line, t.raw.trim_start()));
            }
            groups.join("\n\n")
        }
        _ => found
            .iter()
            .map(|(_, t)| t.raw.trim_start().to_string())
            .collect::<Vec<_>>()
            .join("\n"),
    };
    Ok(out)
}

/// `task`: locate one line by `ref=path:line`, or `file`/`path`/`daily`
/// (else the active file) plus `line=`. Everything this prints is a guess: no
/// capture shows `task` (shared reference), so the plugin never parses it.
pub fn one(ctx: &mut Ctx, inv: &Invocation) -> Out {
    let (path, line) = if let Some(r) = inv.get("ref") {
        let Some((p, l)) = r.rsplit_once(':') else {
            return Err(format!(
                "Error: Invalid task reference \"{r}\". Expected <path>:<line>."
            ));
        };
        let path = ctx.vault.resolve_path(p).ok_or_else(|| not_found(p))?;
        (path, l.to_string())
    } else {
        let Some(l) = inv.get_nonempty("line") else {
            return Err(missing("task", "line=<n>"));
        };
        let path = if inv.get("file").is_none() && inv.get("path").is_none() && inv.has("daily") {
            let p = daily_path(ctx);
            if !ctx.vault.contains(&p) {
                return Err(not_found(&p));
            }
            p
        } else {
            target(ctx, inv, "md")?
        };
        (path, l.to_string())
    };
    let line: usize = match line.trim().parse() {
        Ok(n) if n > 0 => n,
        _ => return Err(format!("Error: Invalid line number \"{line}\".")),
    };
    let content = read_note(ctx, &path)?;
    let mut parts: Vec<&str> = content.split_inclusive('\n').collect();
    if content.is_empty() {
        parts.clear();
    }
    let not_task = || format!("Error: Line {line} in \"{path}\" is not a task.");
    let Some(raw_with_end) = parts.get(line - 1).copied() else {
        return Err(not_task());
    };
    let ending_len = raw_with_end.len() - raw_with_end.trim_end_matches(['\n', '\r']).len();
    let raw = &raw_with_end[..raw_with_end.len() - ending_len];
    let in_code_or_fm = markdown::lines(&content)
        .get(line - 1)
        .is_some_and(|l| l.in_code || l.in_frontmatter);
    let Some((current, _)) = markdown::parse_task(raw).filter(|_| !in_code_or_fm) else {
        return Err(not_task());
    };

    let new_status = if let Some(s) = inv.get("status") {
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Some(c),
            _ => {
                return Err(format!(
                    "Error: Invalid status \"{s}\". Use a single character."
                ))
            }
        }
    } else if inv.has("done") {
        Some('x')
    } else if inv.has("todo") {
        Some(' ')
    } else if inv.has("toggle") {
        Some(if current == ' ' { 'x' } else { ' ' })
    } else {
        None
    };

    let Some(status) = new_status else {
        return Ok(format!("{path}:{line}\n{raw}"));
    };
    let new_line = markdown::set_task_status(raw, status).ok_or_else(not_task)?;
    if new_line != raw {
        let mut rebuilt = String::with_capacity(content.len() + 4);
        for (i, part) in parts.iter().enumerate() {
            if i == line - 1 {
                rebuilt.push_str(&new_line);
                rebuilt.push_str(&raw_with_end[raw.len()..]);
            } else {
                rebuilt.push_str(part);
            }
        }
        ctx.vault
            .write(&path, &rebuilt)
            .map_err(|e| format!("Error: {e}"))?;
    }
    Ok(format!("{path}:{line}\n{new_line}"))
}
