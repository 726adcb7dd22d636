//! `read`, `random:read`, `outline`, `files`, `folders`, `file`.

use super::{json, read_note, target, Ctx, Out};
use crate::args::Invocation;
use crate::markdown::{self, Heading};
use crate::vault;

/// The file verbatim, plus a line ending when it has none
/// (misiekhardcore/claude-obsidian tests/spike-results/qs-read-before.out,
/// canvas-read-ok.out).
pub fn read(ctx: &Ctx, inv: &Invocation) -> Out {
    let path = target(ctx, inv, "md")?;
    read_note(ctx, &path)
}

/// Pick a note at random (deterministic with `OBSIDIAN_EMULATOR_SEED`) and
/// print its path, an empty line, then its content (guess: no capture shows
/// the layout).
pub fn random_read(ctx: &Ctx, inv: &Invocation) -> Out {
    let folder = match inv.get("folder") {
        Some(f) => match vault::safe_folder(f) {
            Some(f) => f,
            None => return Ok("No markdown files found.".to_string()),
        },
        None => String::new(),
    };
    let notes: Vec<&String> = ctx
        .vault
        .notes()
        .filter(|n| vault::in_folder(n, &folder))
        .collect();
    if notes.is_empty() {
        return Ok("No markdown files found.".to_string());
    }
    let seed = match std::env::var("OBSIDIAN_EMULATOR_SEED") {
        Ok(s) if !s.trim().is_empty() => s.trim().parse::<u64>().unwrap_or_else(|_| {
            s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
            })
        }),
        _ => crate::dates::now_millis() ^ u64::from(std::process::id()).rotate_left(32),
    };
    let pick = notes[(splitmix64(seed) % notes.len() as u64) as usize];
    let content = read_note(ctx, pick)?;
    Ok(format!("{pick}\n\n{content}"))
}

fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Render headings as a tree: each heading hangs under the nearest earlier
/// heading of a lower level; top-level ones start at the margin.
fn tree(headings: &[Heading]) -> String {
    // parent index for every heading
    let mut parents: Vec<Option<usize>> = Vec::with_capacity(headings.len());
    for (i, h) in headings.iter().enumerate() {
        let parent = (0..i).rev().find(|&j| headings[j].level < h.level);
        parents.push(parent);
    }
    let children = |p: Option<usize>| -> Vec<usize> {
        (0..headings.len()).filter(|&i| parents[i] == p).collect()
    };
    fn walk(
        i: usize,
        prefix: &str,
        headings: &[Heading],
        children: &dyn Fn(Option<usize>) -> Vec<usize>,
        out: &mut Vec<String>,
    ) {
        let kids = children(Some(i));
        for (n, k) in kids.iter().enumerate() {
            let last = n + 1 == kids.len();
            let branch = if last { "└── " } else { "├── " };
            out.push(format!("{prefix}{branch}{}", headings[*k].text));
            let next = format!("{prefix}{}", if last { "    " } else { "│   " });
            walk(*k, &next, headings, children, out);
        }
    }
    let mut out = Vec::new();
    for root in children(None) {
        out.push(headings[root].text.clone());
        walk(root, "", headings, &children, &mut out);
    }
    out.join("\n")
}

/// `outline` (marwansaab/obsidian-cli-mcp specs/023-outline/research.md,
/// Windows, 1.12.7): `format=json` is `[{"level","heading","line"}]` with a
/// numeric 1-based `line` (F1, F10); no headings → `No headings found.` in
/// every mode, `total` included (F7); `total` wins over `format` (F14); an
/// unknown format falls back to the tree (F15); a file that is not markdown →
/// `Error: File is not a markdown file.` (F9). The tree layout is a guess.
pub fn outline(ctx: &Ctx, inv: &Invocation) -> Out {
    let format = inv
        .get("format")
        .filter(|f| matches!(*f, "md" | "json"))
        .unwrap_or("tree");
    let path = target(ctx, inv, "md")?;
    if !vault::is_markdown(&path) {
        return Err("Error: File is not a markdown file.".to_string());
    }
    let content = read_note(ctx, &path)?;
    let hs = markdown::headings(&content);
    if hs.is_empty() {
        return Ok("No headings found.".to_string());
    }
    if inv.has("total") {
        return Ok(hs.len().to_string());
    }
    Ok(match format {
        "md" => hs
            .iter()
            .map(|h| format!("{} {}", "#".repeat(h.level), h.text))
            .collect::<Vec<_>>()
            .join("\n"),
        "json" => json(&serde_json::Value::Array(
            hs.iter()
                .map(|h| serde_json::json!({"level": h.level, "heading": h.text, "line": h.line}))
                .collect(),
        )),
        _ => tree(&hs),
    })
}

/// Vault paths, one per line (MatrixFounder/llm-wiki
/// evals/fixtures/obsidian-files-md.txt, macOS, 1.12.7); the empty wording
/// and the order are guesses.
pub fn files(ctx: &Ctx, inv: &Invocation) -> Out {
    let folder = match inv.get("folder").map(vault::safe_folder) {
        Some(None) => return Ok("No files found.".to_string()),
        Some(Some(f)) => f,
        None => String::new(),
    };
    let ext = inv
        .get("ext")
        .map(|e| e.trim().trim_start_matches('.').to_lowercase());
    let found: Vec<&String> = ctx
        .vault
        .files()
        .iter()
        .filter(|f| vault::in_folder(f, &folder))
        .filter(|f| {
            ext.as_deref()
                .is_none_or(|e| vault::extension(f).to_lowercase() == e)
        })
        .collect();
    if inv.has("total") {
        return Ok(found.len().to_string());
    }
    if found.is_empty() {
        return Ok("No files found.".to_string());
    }
    Ok(found
        .iter()
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join("\n"))
}

/// guess: folder paths, one per line (no capture).
pub fn folders(ctx: &Ctx, inv: &Invocation) -> Out {
    let folder = match inv.get("folder").map(vault::safe_folder) {
        Some(None) => return Ok("No folders found.".to_string()),
        Some(Some(f)) => f,
        None => String::new(),
    };
    let found: Vec<&String> = ctx
        .vault
        .folders()
        .iter()
        .filter(|f| vault::in_folder(f, &folder))
        .collect();
    if inv.has("total") {
        return Ok(found.len().to_string());
    }
    if found.is_empty() {
        return Ok("No folders found.".to_string());
    }
    Ok(found
        .iter()
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join("\n"))
}

fn millis(t: std::io::Result<std::time::SystemTime>) -> Option<u128> {
    t.ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()
        .map(|d| d.as_millis())
}

/// `key\tvalue` lines: path, name, extension, size, created, modified (times
/// in milliseconds since the epoch; `created` falls back to the modification
/// time where the file system has no birth time). As captured in
/// MatrixFounder/llm-wiki skills/obsidian-cli/evals/fixtures/obsidian-file-active.tsv
/// (macOS, 1.12.7) and marwansaab/obsidian-cli-mcp specs/018 F15 (Windows).
pub fn info(ctx: &Ctx, inv: &Invocation) -> Out {
    let path = target(ctx, inv, "md")?;
    let meta = std::fs::metadata(ctx.vault.abs(&path)).map_err(|_| super::not_found(&path))?;
    let modified = millis(meta.modified()).unwrap_or(0);
    let created = millis(meta.created()).unwrap_or(modified);
    let rows = [
        ("path", path.clone()),
        ("name", vault::stem(&path).to_string()),
        ("extension", vault::extension(&path).to_string()),
        ("size", meta.len().to_string()),
        ("created", created.to_string()),
        ("modified", modified.to_string()),
    ];
    Ok(rows
        .iter()
        .map(|(k, v)| format!("{k}\t{v}"))
        .collect::<Vec<_>>()
        .join("\n"))
}
