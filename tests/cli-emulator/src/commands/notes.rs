//! Writing notes: `create`, `append`, `prepend` (none of them is on a tool's
//! allowlist; the emulator has them so tests can drive the whole CLI).

use super::daily::expand_template;
use super::{config_text, read_note, require, target, Ctx, Out};
use crate::args::Invocation;
use crate::markdown::frontmatter_span;
use crate::vault;

/// `old` with `content` added at the end: a newline first unless `inline` or
/// the note is empty. Consistent with the captured sequence create "created
/// by spike" → append "appended line" → read "created by spike\nappended
/// line" (misiekhardcore/claude-obsidian tests/spike-results/, Linux,
/// 1.12.7); what happens after a note that already ends with a newline is a
/// guess (one more newline, so a blank line).
pub fn append_text(old: &str, content: &str, inline: bool) -> String {
    let mut s = String::with_capacity(old.len() + content.len() + 1);
    s.push_str(old);
    if !inline && !s.is_empty() {
        s.push('\n');
    }
    s.push_str(content);
    s
}

/// `content` inserted right after the frontmatter (or at the top), followed
/// by a newline unless `inline`: prepend "- prepended entry\n" to "# index…"
/// gives "- prepended entry\n\n# index…" (misiekhardcore/claude-obsidian
/// tests/spike-results/qs-read-after.out, Linux, 1.12.7). After frontmatter:
/// the official help page; the exact bytes there are a guess.
pub fn prepend_text(old: &str, content: &str, inline: bool) -> String {
    let at = frontmatter_span(old).map_or(0, |s| s.body_start);
    let mut s = String::with_capacity(old.len() + content.len() + 1);
    s.push_str(&old[..at]);
    if at > 0 && !old[..at].ends_with('\n') {
        s.push('\n');
    }
    s.push_str(content);
    if !inline {
        s.push('\n');
    }
    s.push_str(&old[at..]);
    s
}

/// A path with `.md` added when its file name has no extension (guess; the
/// captures only show names with an extension or `name=`).
fn with_extension(path: &str) -> String {
    if vault::extension(path).is_empty() {
        format!("{path}.md")
    } else {
        path.to_string()
    }
}

/// `X 1.md`, `X 2.md`, … : the first name not taken. `create` on a taken
/// name prints `Created: <folder>/case1 1.md` (marwansaab/obsidian-cli-mcp
/// specs/011-write-note/research.md T0.5, Windows, 1.12.7); `base:create`
/// numbers the same way (specs/054-add-bases-surface/research.md).
pub fn free_name(ctx: &Ctx, path: &str) -> String {
    let taken = |p: &str| ctx.vault.contains(p) || ctx.vault.abs(p).exists();
    if !taken(path) {
        return path.to_string();
    }
    let folder = vault::parent_folder(path);
    let stem = vault::stem(path);
    let ext = vault::extension(path);
    (1..)
        .map(|n| {
            let name = if ext.is_empty() {
                format!("{stem} {n}")
            } else {
                format!("{stem} {n}.{ext}")
            };
            if folder.is_empty() {
                name
            } else {
                format!("{folder}/{name}")
            }
        })
        .find(|p| !taken(p))
        .expect("some number is free")
}

/// The text of `template=<name>` for a note called `title`.
fn template_text(ctx: &Ctx, name: &str, title: &str) -> Result<String, String> {
    // marwansaab/obsidian-cli-mcp specs/011-write-note/research.md T0.6.
    let Some(folder) = config_text(ctx, "templates.json", "folder")
        .and_then(|f| vault::safe_folder(&f))
        .filter(|f| !f.is_empty())
    else {
        return Err("Error: No template folder configured.".to_string());
    };
    let wanted = name.strip_suffix(".md").unwrap_or(name);
    let path = format!("{folder}/{wanted}.md");
    let found = ctx
        .vault
        .resolve_path(&path)
        .or_else(|| {
            ctx.vault
                .notes()
                .find(|p| {
                    vault::in_folder(p, &folder) && vault::stem(p).eq_ignore_ascii_case(wanted)
                })
                .cloned()
        })
        // guess: the wording of a missing template.
        .ok_or_else(|| format!("Error: Template \"{name}\" not found."))?;
    let raw = read_note(ctx, &found)?;
    let date_format = config_text(ctx, "templates.json", "dateFormat")
        .unwrap_or_else(|| "YYYY-MM-DD".to_string());
    let time_format =
        config_text(ctx, "templates.json", "timeFormat").unwrap_or_else(|| "HH:mm".to_string());
    Ok(expand_template(
        &raw,
        Some(title),
        &date_format,
        &time_format,
        ctx,
    ))
}

/// `create`: `path=` as given (`.md` added without an extension), `name=` at
/// the vault root with `.md` added (marwansaab 011 T0.2), neither → the
/// vault root's `Untitled.md` (misiekhardcore ingest-create-no_args.out; the
/// app ignores the active file, marwansaab 011 T0.8). A taken name is not
/// replaced but numbered, exit 0 (marwansaab 011 T0.5); `overwrite` replaces
/// it and prints `Overwrote: <path>` (T0.3).
pub fn create(ctx: &mut Ctx, inv: &Invocation) -> Out {
    let requested = if let Some(p) = inv.get_nonempty("path") {
        // guess: the real CLI throws a TypeError on `..` (marwansaab 011 T0.7).
        let clean = vault::safe_rel(p).ok_or_else(|| format!("Error: Invalid path \"{p}\"."))?;
        with_extension(&clean)
    } else if let Some(n) = inv.get_nonempty("name") {
        let n = n.trim();
        if n.contains(['/', '\\', ':']) || n.starts_with('.') {
            // guess: the wording for an unusable name.
            return Err(format!("Error: Invalid file name \"{n}\"."));
        }
        with_extension(n)
    } else {
        "Untitled.md".to_string()
    };
    let mut text = match inv.get_nonempty("template") {
        Some(t) => template_text(ctx, t, vault::stem(&requested))?,
        None => String::new(),
    };
    if let Some(content) = inv.get("content") {
        // guess: content follows the template's text on a new line.
        if !text.is_empty() && !content.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(content);
    }
    let exists = ctx.vault.contains(&requested) || ctx.vault.abs(&requested).exists();
    let (path, verb) = if exists && inv.has("overwrite") {
        (requested, "Overwrote")
    } else {
        (free_name(ctx, &requested), "Created")
    };
    ctx.vault
        .write(&path, &text)
        .map_err(|e| format!("Error: {e}"))?;
    Ok(format!("{verb}: {path}"))
}

/// `append` (`prepend == false`) and `prepend`: `Appended to: <path>` /
/// `Prepended to: <path>` (misiekhardcore/claude-obsidian
/// tests/spike-results/ingest-append-simple.out, ingest-prepend-simple.out).
/// Without `file`/`path` the active file.
pub fn append(ctx: &mut Ctx, inv: &Invocation, prepend: bool) -> Out {
    let command = if prepend { "prepend" } else { "append" };
    let content = require(inv, command, "content", "text")?.to_string();
    let path = target(ctx, inv, "md")?;
    let old = read_note(ctx, &path)?;
    let inline = inv.has("inline");
    let new = if prepend {
        prepend_text(&old, &content, inline)
    } else {
        append_text(&old, &content, inline)
    };
    ctx.vault
        .write(&path, &new)
        .map_err(|e| format!("Error: {e}"))?;
    Ok(if prepend {
        format!("Prepended to: {path}")
    } else {
        format!("Appended to: {path}")
    })
}
