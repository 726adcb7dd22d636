//! `daily:path`, `daily:read`, `daily:append`, `daily:prepend`.

use super::notes::{append_text, prepend_text};
use super::{daily_path, daily_settings, require, version_at_least, Ctx, Out};
use crate::args::Invocation;
use crate::vault;

/// The path even when the note does not exist (official help page); guess
/// for the exact form (folder + formatted date + `.md`).
pub fn path(ctx: &Ctx) -> Out {
    Ok(daily_path(ctx))
}

/// The note's content. When today's note does not exist: empty output (seed
/// Appendix A); on 1.13 and later the note is created first (from the daily
/// template) and nothing is printed (shared reference, "`daily:read` on
/// 1.13.7 creates today's note if it is missing and prints nothing").
pub fn read(ctx: &mut Ctx) -> Out {
    let p = daily_path(ctx);
    if !ctx.vault.contains(&p) {
        if version_at_least(1, 13) {
            ensure_daily(ctx)?;
        }
        return Ok(String::new());
    }
    Ok(ctx.vault.read(&p).unwrap_or_default())
}

/// Expand a template for a new note: `{{date}}`/`{{title}}` use the note's
/// date format, `{{time}}` is `HH:mm`, and `{{date:FMT}}`/`{{time:FMT}}`
/// take a moment.js format.
pub fn expand_template(
    text: &str,
    title: Option<&str>,
    date_format: &str,
    time_format: &str,
    ctx: &Ctx,
) -> String {
    let fmt = |f: &str| crate::dates::format(f, ctx.today, ctx.now);
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find("}}") else {
            out.push_str(&rest[start..]);
            return out;
        };
        let inner = after[..end].trim();
        let (name, arg) = match inner.split_once(':') {
            Some((n, a)) => (n.trim(), Some(a.trim())),
            None => (inner, None),
        };
        let replacement = match (name.to_lowercase().as_str(), arg, title) {
            ("date", Some(f), _) | ("time", Some(f), _) => Some(fmt(f)),
            ("date", None, _) => Some(fmt(date_format)),
            ("time", None, _) => Some(fmt(time_format)),
            ("title", None, Some(t)) => Some(t.to_string()),
            _ => None,
        };
        match replacement {
            Some(r) => out.push_str(&r),
            None => out.push_str(&rest[start..start + 2 + end + 2]),
        }
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    out
}

/// Create today's note from the configured template (or empty) if missing.
fn ensure_daily(ctx: &mut Ctx) -> Result<(String, String), String> {
    let p = daily_path(ctx);
    if ctx.vault.contains(&p) {
        let content = ctx.vault.read(&p).map_err(|e| format!("Error: {e}"))?;
        return Ok((p, content));
    }
    let settings = daily_settings(ctx);
    let mut content = String::new();
    if let Some(t) = settings.template.as_deref() {
        let template_path = ctx
            .vault
            .resolve_path(&format!("{t}.md"))
            .or_else(|| ctx.vault.resolve_path(t))
            .or_else(|| ctx.vault.resolve_name(t, "md"));
        if let Some(tp) = template_path {
            let raw = ctx.vault.read(&tp).unwrap_or_default();
            let title = vault::stem(&p).to_string();
            content = expand_template(&raw, Some(&title), &settings.format, "HH:mm", ctx);
        }
    }
    ctx.vault
        .write(&p, &content)
        .map_err(|e| format!("Error: {e}"))?;
    Ok((p, content))
}

/// `daily:append` (`prepend == false`) and `daily:prepend`: the same text
/// changes as `append` and `prepend` (see `notes.rs`). Empty output: a guess
/// (no capture; one unverified source says `Added to: <path>`).
pub fn append(ctx: &mut Ctx, inv: &Invocation, prepend: bool) -> Out {
    let command = if prepend {
        "daily:prepend"
    } else {
        "daily:append"
    };
    let content = require(inv, command, "content", "text")?.to_string();
    let inline = inv.has("inline");
    let (p, old) = ensure_daily(ctx)?;
    let new = if prepend {
        prepend_text(&old, &content, inline)
    } else {
        append_text(&old, &content, inline)
    };
    ctx.vault
        .write(&p, &new)
        .map_err(|e| format!("Error: {e}"))?;
    Ok(String::new())
}
