//! Snapshot tests (insta) of the texts a person or the model reads: every
//! kind of confirmation card, the system prompt (full and compact) with the
//! tool descriptions the model gets, one tool result per tool as the model
//! reads it, and every error message. A change to any of them fails here
//! until the new text is reviewed and accepted (README, "Snapshot tests"):
//! the committed `.snap` files under `tests/snapshots/snapshots/` are the
//! reviewed texts.
//!
//! The vault is a fake (`vault.rs`) that answers in the shapes the real CLI
//! prints (`/work/shared/reference/obsidian-cli.md`'s captures), so what is
//! pinned is the plugin's own wording around them.

mod cards;
mod errors;
mod model;
mod results;
mod vault;

use vault_agent::base::card::ConfirmationCard;
use vault_agent::base::diff::{LineKind, NoteDiff};

/// A card as the person reads it, field by field (the ids and hashes that
/// only the approval uses are left out; the argv shows what runs).
pub fn render_card(card: &ConfirmationCard) -> String {
    let mut out = String::new();
    let mut line = |label: &str, value: &str| {
        if value.contains('\n') {
            out.push_str(&format!("{label}:\n"));
            for l in value.lines() {
                out.push_str(&format!("  | {l}\n"));
            }
        } else {
            out.push_str(&format!("{label}: {value}\n"));
        }
    };
    line("tool", &format!("{} {}", card.tool_id, card.command));
    line("summary", &card.summary);
    line("state", &format!("{:?}", card.state));
    line("via", card.via);
    line(
        "requested",
        card.requested
            .as_deref()
            .unwrap_or("(the chat or the plugin itself)"),
    );
    line(
        "written as text",
        if card.written_as_text { "yes" } else { "no" },
    );
    line("target", &card.preview.target);
    line("before", &card.preview.before);
    line("after", &card.preview.after);
    if let Some(warning) = &card.preview.warning {
        line("warning", warning);
    }
    if let Some(diff) = &card.preview.diff {
        line("diff", &render_diff(diff));
    }
    line("argv", &card.argv.join(" ⟂ "));
    out
}

/// A diff as the card draws it: one line per diff line, `+`/`-`/` `, with
/// the changed words in ⟦ ⟧.
pub fn render_diff(diff: &NoteDiff) -> String {
    let mut out = format!("+{} -{}", diff.added, diff.removed);
    for hunk in &diff.hunks {
        out.push('\n');
        out.push_str(&hunk.header);
        for line in &hunk.lines {
            let sign = match line.kind {
                LineKind::Context => ' ',
                LineKind::Added => '+',
                LineKind::Removed => '-',
            };
            let text: String = line
                .segments
                .iter()
                .map(|s| {
                    if s.changed {
                        format!("⟦{}⟧", s.text)
                    } else {
                        s.text.clone()
                    }
                })
                .collect();
            out.push_str(&format!("\n{sign}{text}"));
        }
    }
    out
}
