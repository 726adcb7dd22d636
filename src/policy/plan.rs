//! Plan first (the chat's plan mode): what a plan the model proposes may
//! contain, whether it stays inside the folder scopes before the user ever
//! sees it, what the user's edits may do to it, and whether a change made
//! while carrying it out is one the plan named. The chat door asks these;
//! the shim only draws the plan card.

use serde::{Deserialize, Serialize};

use crate::base::call::NoteLocator;
use crate::base::host::Os;
use crate::base::vault_path::{self, PathKind};
use crate::policy::scope::{FolderScope, Place};
use crate::policy::CallFacts;
use crate::settings::{PermissionMode, Settings};

/// The most steps one plan may hold: a plan longer than this is not one a
/// user reads before approving.
pub const MAX_STEPS: usize = 20;
/// The most characters of one step's `what`.
pub const MAX_WHAT_CHARS: usize = 500;

/// What a step does to its note, in the words the plan card shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum PlanAction {
    Create,
    Edit,
    Append,
    Prepend,
    Move,
    Rename,
    Delete,
}

impl PlanAction {
    pub const KEYS: &'static str = "create, edit, append, prepend, move, rename or delete";

    /// Moves and renames name where the note goes as well.
    pub fn needs_destination(self) -> bool {
        matches!(self, PlanAction::Move | PlanAction::Rename)
    }
}

/// One numbered step of a plan: which note, what happens to it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PlanStep {
    /// The note's path from the vault root.
    pub note: String,
    pub action: PlanAction,
    /// What changes, in words the user reads on the card.
    pub what: String,
    /// Where a moved or renamed note goes (its new path).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub to: Option<String>,
}

/// The user's answer on a plan card's step: keep step `index` (of the
/// proposed plan), with its text as the user left it. A step not listed is removed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KeptStep {
    pub index: usize,
    pub what: String,
}

/// Checks a proposed plan and returns it with every path in its normal
/// form, or the reason it is refused (told to the model; the user never sees
/// a plan that could not be carried out within the scopes).
pub fn check_plan(
    steps: &[PlanStep],
    settings: &Settings,
    os: Os,
    config_dir: &str,
) -> Result<Vec<PlanStep>, String> {
    if steps.is_empty() {
        return Err("the plan has no steps; give at least one {note, action, what}".into());
    }
    if steps.len() > MAX_STEPS {
        return Err(format!(
            "the plan has {} steps, more than {MAX_STEPS}; propose the first part, and the rest after it is carried out",
            steps.len()
        ));
    }
    let read = FolderScope::read(settings, os);
    let write = FolderScope::write(settings, os);
    let mut checked = Vec::with_capacity(steps.len());
    for (at, step) in steps.iter().enumerate() {
        let n = at + 1;
        let what = step.what.trim();
        if what.is_empty() {
            return Err(format!(
                "step {n} does not say what changes in {}; fill in `what`",
                step.note
            ));
        }
        if what.chars().count() > MAX_WHAT_CHARS {
            return Err(format!(
                "step {n}'s `what` is longer than {MAX_WHAT_CHARS} characters; say it in a sentence or two"
            ));
        }
        let note = placed(n, "note", &step.note, &read, &write, config_dir)?;
        let to = match (&step.to, step.action.needs_destination()) {
            (Some(to), true) => Some(placed(n, "to", to, &read, &write, config_dir)?),
            (None, true) => {
                return Err(format!(
                    "step {n} moves or renames {note} but does not say where to; give `to`, its new path"
                ))
            }
            (_, false) => None,
        };
        checked.push(PlanStep {
            note,
            action: step.action,
            what: what.to_string(),
            to,
        });
    }
    Ok(checked)
}

/// `path` in its normal form when the agent may both read and change it.
fn placed(
    n: usize,
    key: &str,
    path: &str,
    read: &FolderScope<'_>,
    write: &FolderScope<'_>,
    config_dir: &str,
) -> Result<String, String> {
    let path = vault_path::normalised(key, path, PathKind::File)
        .map_err(|why| format!("step {n}: {why}"))?;
    if vault_path::in_config_dir(&path, config_dir) {
        return Err(format!(
            "step {n} names {path}, inside the vault's configuration folder, which the agent never reads or changes"
        ));
    }
    if !read.contains(&path) {
        return Err(format!(
            "step {n} names {path}, outside the folders the agent may read (Settings → Vault Agent → Safety → Read folders); leave it out of the plan"
        ));
    }
    if !write.contains(&path) {
        return Err(format!(
            "step {n} names {path}, outside the folders the agent may change (Settings → Vault Agent → Safety → Write folders); leave it out of the plan"
        ));
    }
    Ok(path)
}

/// The plan the user approved from `proposed` and their answer on the
/// card: the steps kept, in their order, each with its text as edited.
/// Steps may be removed and their text changed, never added or moved to
/// another note (a new target would need its own scope check and a card).
pub fn edited_plan(proposed: &[PlanStep], kept: &[KeptStep]) -> Result<Vec<PlanStep>, String> {
    if kept.is_empty() {
        return Err("every step was removed: reject the plan instead, or keep a step".into());
    }
    let mut seen = Vec::with_capacity(kept.len());
    let mut plan = Vec::with_capacity(kept.len());
    for step in kept {
        let Some(original) = proposed.get(step.index) else {
            return Err(format!(
                "step {} is not in the proposed plan (it has {})",
                step.index + 1,
                proposed.len()
            ));
        };
        if seen.contains(&step.index) {
            return Err(format!("step {} is kept twice", step.index + 1));
        }
        seen.push(step.index);
        let what = step.what.trim();
        if what.is_empty() || what.chars().count() > MAX_WHAT_CHARS {
            return Err(format!(
                "step {} needs a text of 1 to {MAX_WHAT_CHARS} characters",
                step.index + 1
            ));
        }
        plan.push(PlanStep {
            what: what.to_string(),
            ..original.clone()
        });
    }
    Ok(plan)
}

/// Why a plan cannot be approved under `mode`, if it cannot: under Read only
/// every step would be refused, so the user is told before anything runs.
pub fn approval_refusal(mode: PermissionMode) -> Option<String> {
    (mode == PermissionMode::ReadOnly).then(|| {
        "Vault changes are set to \"Read only\", so no step of the plan could be carried out. Pick \"Ask before edits\" or \"Ask before every change\" in the chat header, then approve the plan again.".to_string()
    })
}

/// Whether the change `call` makes is one the approved `plan` names: every
/// note it changes (or creates, or moves to) is a step's note or a step's
/// destination. A note named only by its name (`file=`) counts when a
/// step's note has that name; anything the plan cannot place (the note open
/// in Obsidian, a new note whose folder the CLI picks) is not in the plan.
pub fn covers(plan: &[PlanStep], call: &CallFacts<'_>, os: Os) -> bool {
    let names = crate::policy::names::NameRule::of(os);
    let in_plan = |path: &str| {
        plan.iter().any(|step| {
            std::iter::once(&step.note)
                .chain(step.to.as_ref())
                .any(|p| names.key(p) == names.key(path))
        })
    };
    let named = |name: &str| {
        plan.iter().any(|step| {
            std::iter::once(&step.note)
                .chain(step.to.as_ref())
                .any(|p| {
                    let file = p.rsplit('/').next().unwrap_or(p);
                    let stem = file.strip_suffix(".md").unwrap_or(file);
                    names.key(stem) == names.key(name.trim_end_matches(".md"))
                })
        })
    };
    let places = &call.reach.places;
    !places.is_empty()
        && places.iter().all(|place| match place {
            // A move names the folder it moves into: a step must move there.
            Place::NewNote(Some(folder)) if folder.ends_with('/') => plan.iter().any(|step| {
                step.to.as_ref().is_some_and(|to| {
                    let parent = to.rsplit_once('/').map_or("", |(parent, _)| parent);
                    names.key(parent) == names.key(folder.trim_end_matches('/'))
                })
            }),
            Place::Note(NoteLocator::Path(p)) | Place::NewNote(Some(p)) => in_plan(p),
            Place::Note(NoteLocator::Name(n)) => named(n),
            Place::Reference(p) => in_plan(p) || named(p),
            _ => false,
        })
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
