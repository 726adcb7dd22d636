//! `templates`, `template:read`.

use super::daily::expand_template;
use super::{config_text, require, Ctx, Out};
use crate::args::Invocation;
use crate::vault;

/// No templates folder set in the Templates plugin (shared reference; the
/// same words for `create template=…` in marwansaab/obsidian-cli-mcp
/// specs/011-write-note/research.md T0.6, Windows, 1.12.7).
pub const NO_FOLDER: &str = "Error: No template folder configured.";

/// (template name, vault path) for every markdown file under the templates
/// folder. The name is the path inside that folder without `.md`.
fn all(ctx: &Ctx) -> Result<Vec<(String, String)>, String> {
    let Some(folder) = config_text(ctx, "templates.json", "folder")
        .and_then(|f| vault::safe_folder(&f))
        .filter(|f| !f.is_empty())
    else {
        return Err(NO_FOLDER.to_string());
    };
    Ok(ctx
        .vault
        .notes()
        .filter(|p| vault::in_folder(p, &folder))
        .map(|p| {
            let inner = &p[folder.len() + 1..];
            let name = inner.strip_suffix(".md").unwrap_or(inner).to_string();
            (name, p.clone())
        })
        .collect())
}

/// Template names, one per line (guess: the layout and the empty wording).
pub fn list(ctx: &Ctx, inv: &Invocation) -> Out {
    let t = all(ctx)?;
    if inv.has("total") {
        return Ok(t.len().to_string());
    }
    if t.is_empty() {
        return Ok("No templates found.".to_string());
    }
    Ok(t.into_iter().map(|(n, _)| n).collect::<Vec<_>>().join("\n"))
}

/// guess: no capture shows `template:read`. `resolve` expands `{{date}}` (templates `dateFormat`, default
/// `YYYY-MM-DD`), `{{time}}` (`timeFormat`, default `HH:mm`), `{{title}}`
/// (only when `title=` is given) and `{{date:FMT}}`/`{{time:FMT}}`.
pub fn read(ctx: &Ctx, inv: &Invocation) -> Out {
    let name = require(inv, "template:read", "name", "template")?;
    let wanted = name.strip_suffix(".md").unwrap_or(name).to_lowercase();
    let templates = all(ctx)?;
    let found = templates
        .iter()
        .find(|(n, _)| n.to_lowercase() == wanted)
        .or_else(|| {
            templates
                .iter()
                .find(|(_, p)| vault::stem(p).to_lowercase() == wanted)
        });
    let Some((_, path)) = found else {
        return Err(format!("Error: Template \"{name}\" not found."));
    };
    let text = ctx.vault.read(path).map_err(|e| format!("Error: {e}"))?;
    if !inv.has("resolve") {
        return Ok(text);
    }
    let date_format = config_text(ctx, "templates.json", "dateFormat")
        .unwrap_or_else(|| "YYYY-MM-DD".to_string());
    let time_format =
        config_text(ctx, "templates.json", "timeFormat").unwrap_or_else(|| "HH:mm".to_string());
    Ok(expand_template(
        &text,
        inv.get("title"),
        &date_format,
        &time_format,
        ctx,
    ))
}
