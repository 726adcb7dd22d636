//! Which scheduled saved prompts run now: the prompts folder's schedules
//! (`saved_prompts::list`) against the last slot run per prompt, kept in
//! the plugin's data. The schedule grammar and the slot rules are
//! `schedule.rs`'s; this file only joins them to the folder.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::base::host::Host;
use crate::doors::chat::saved_prompts;
use crate::doors::chat::schedule::{decide, parse_slot, slot_text, Due};
use crate::settings::Settings;

/// The most prompts whose last slot is kept.
const MAX_KEPT: usize = 200;

/// One scheduled run the shim starts now.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScheduledRun {
    pub path: String,
    pub name: String,
    /// `YYYY-MM-DD HH:MM`, local.
    pub slot: String,
    pub late: bool,
}

/// The runs due now and the last slot per prompt to keep in the plugin's
/// data (written before the runs start); `changed`: whether it must be.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DuePrompts {
    pub runs: Vec<ScheduledRun>,
    pub last_slots: Map<String, Value>,
    pub changed: bool,
}

/// The prompts of the folder whose schedule has a slot due at `now`, after
/// the last slots the plugin's data holds (`stored`, read leniently: a value
/// that is not a slot counts as none). A prompt with a problem never runs.
pub async fn due<H: Host>(host: &H, settings: &Settings, now: i64, stored: &Value) -> DuePrompts {
    let mut last_slots = stored.as_object().cloned().unwrap_or_default();
    last_slots.retain(|_, v| v.as_str().and_then(parse_slot).is_some());
    // Nothing stored and nothing to store is no change (no write to data.json).
    let mut changed = stored
        .as_object()
        .map_or(!last_slots.is_empty(), |kept| kept != &last_slots);
    let mut runs = Vec::new();
    let listed = saved_prompts::list(host, settings).await;
    for prompt in listed.prompts {
        let Some(schedule) = prompt.schedule.filter(|_| prompt.problem.is_none()) else {
            continue;
        };
        let last = last_slots
            .get(&prompt.path)
            .and_then(Value::as_str)
            .and_then(parse_slot);
        let (slot, late) = match decide(&schedule, now, last) {
            Due::Nothing => continue,
            Due::Start(slot) => (slot, None),
            Due::Run { slot, late } => (slot, Some(late)),
        };
        last_slots.insert(prompt.path.clone(), slot_text(slot).into());
        changed = true;
        if let Some(late) = late {
            runs.push(ScheduledRun {
                path: prompt.path,
                name: prompt.name,
                slot: slot_text(slot),
                late,
            });
        }
    }
    while last_slots.len() > MAX_KEPT {
        let first = last_slots.keys().next().cloned().unwrap_or_default();
        last_slots.remove(&first);
    }
    DuePrompts {
        runs,
        last_slots,
        changed,
    }
}
