//! The user's prompt library: every note in the folder chosen in the
//! settings is a saved prompt. Its text (after the properties) is the
//! prompt; `description`, `profile` and `mode` are optional properties. A
//! prompt whose properties are wrong is listed with what to fix and is not
//! run. `{{selection}}`, `{{note}}` and `{{date}}` are filled in at send from
//! what the shim hands over; anything else in double braces is refused. A
//! `schedule` property makes it run by itself (`doors::chat::schedule`).

use serde::Serialize;
use serde_json::Value;

use crate::base::host::Host;
use crate::base::vault_path::in_config_dir;
use crate::doors::chat::schedule::Schedule;
use crate::notes::frontmatter::{body, properties};
use crate::policy::scope::FolderScope;
use crate::settings::{PermissionMode, Settings};

/// The most prompts listed from the folder.
const MAX_PROMPTS: usize = 200;
/// A prompt note is not read past this size.
const MAX_PROMPT_BYTES: usize = 64 * 1024;
const VARIABLES: &str = "{{selection}}, {{note}} and {{date}}";

/// One saved prompt as the `/` menu and the settings list it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct SavedPrompt {
    pub path: String,
    /// The note's name, which the menu shows.
    pub name: String,
    pub description: String,
    /// The model profile it runs with (its id), if it names one.
    #[cfg_attr(test, ts(optional))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    /// The mode it narrows the chat's to, if it names one.
    #[cfg_attr(test, ts(optional))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<PermissionMode>,
    /// What is wrong with the note and how to fix it; such a prompt is not run.
    #[cfg_attr(test, ts(optional))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
    /// The prompt as written after the properties (the chat's form edits it).
    pub text: String,
    /// When it runs by itself (`schedule` property, `doors::chat::schedule`).
    #[serde(skip)]
    pub schedule: Option<Schedule>,
}

/// The prompts of the folder, or why there are none to show.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SavedPrompts {
    pub prompts: Vec<SavedPrompt>,
    #[cfg_attr(test, ts(optional))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notice: Option<String>,
}

/// What the variables are filled with, as the shim found them at send
/// (read by hand: a value that is not text counts as not given).
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PromptValues {
    /// The editor's selection.
    #[cfg_attr(test, ts(optional))]
    pub selection: Option<String>,
    /// The active note's path.
    #[cfg_attr(test, ts(optional))]
    pub note: Option<String>,
    /// Today in the user's time zone, YYYY-MM-DD.
    pub date: String,
}

impl PromptValues {
    pub fn from_value(value: Option<&Value>) -> Self {
        let text = |key: &str| value?.get(key)?.as_str().map(str::to_string);
        PromptValues {
            selection: text("selection"),
            note: text("note"),
            date: text("date").unwrap_or_default(),
        }
    }
}

/// Lists and reads the folder's prompts, held to the read scope and kept
/// out of the configuration folder like every read.
pub async fn list<H: Host>(host: &H, settings: &Settings) -> SavedPrompts {
    let folder = settings.chat.prompts_folder.as_str();
    if folder.is_empty() {
        return SavedPrompts::default();
    }
    let scope = FolderScope::read(settings, host.platform().os());
    let prefix = format!("{folder}/");
    if in_config_dir(&prefix, host.platform().config_dir()) || !scope.contains(&prefix) {
        return SavedPrompts {
            prompts: Vec::new(),
            notice: Some(format!("Your prompts folder {folder} is in a folder the agent may not read, so no saved prompt is offered. Choose another folder (Settings → Vault Agent → Model), or add it to the folders the agent may read (Settings → Vault Agent → Safety).")),
        };
    }
    let mut paths: Vec<String> = host
        .vault_notes()
        .paths
        .into_iter()
        .filter(|p| p.starts_with(&prefix) && scope.contains(p))
        .collect();
    paths.sort();
    paths.truncate(MAX_PROMPTS);
    // A prompt note behind a link out of the scope is no prompt the agent may read.
    let mut readable = Vec::with_capacity(paths.len());
    for path in paths {
        if crate::engine::edge::real_read_refusal(host, &path, &scope)
            .await
            .is_none()
        {
            readable.push(path);
        }
    }
    let paths = readable;
    let texts = host.vault_read_many(&paths, MAX_PROMPT_BYTES).await;
    let prompts = paths
        .iter()
        .zip(texts)
        .map(|(path, text)| parse(path, text.as_deref(), settings))
        .collect::<Vec<_>>();
    let notice = prompts
        .is_empty()
        .then(|| format!("Your prompts folder {folder} holds no notes yet: each note in it becomes a saved prompt."));
    SavedPrompts { prompts, notice }
}

/// One prompt note: its text, its properties checked.
pub fn parse(path: &str, text: Option<&str>, settings: &Settings) -> SavedPrompt {
    let name = crate::hygiene::text::title_of(path).to_string();
    let mut prompt = SavedPrompt {
        path: path.to_string(),
        name,
        description: String::new(),
        profile: None,
        mode: None,
        problem: None,
        text: String::new(),
        schedule: None,
    };
    let Some(text) = text else {
        prompt.problem = Some(format!(
            "The saved prompt {path} could not be read (it is larger than 64 KB or not text). Shorten it."
        ));
        return prompt;
    };
    let mut problems = Vec::new();
    for (key, values) in properties(text) {
        let value = values.join(", ");
        match key.as_str() {
            "description" => prompt.description = value,
            "profile" => {
                let profiles = &settings.chat.profiles;
                match profiles
                    .iter()
                    .find(|p| p.id == value || p.name.eq_ignore_ascii_case(&value))
                {
                    Some(profile) => prompt.profile = Some(profile.id.clone()),
                    None => problems.push(format!(
                        "its profile property \"{value}\" is not one of your model profiles ({}); use one of those names or remove the property",
                        profiles.iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join(", ")
                    )),
                }
            }
            "mode" => match PermissionMode::ALL
                .into_iter()
                .find(|m| m.key().eq_ignore_ascii_case(&value) || m.label().eq_ignore_ascii_case(&value))
            {
                Some(mode) => prompt.mode = Some(mode),
                None => problems.push(format!(
                    "its mode property \"{value}\" is not a permission mode; use readOnly, askEveryChange or askBeforeEdits (it can only narrow the chat's mode) or remove the property"
                )),
            },
            "schedule" => match Schedule::parse(&value) {
                Ok(schedule) => prompt.schedule = Some(schedule),
                Err(why) => problems.push(format!(
                    "its schedule property \"{value}\" is not a schedule ({why}); write daily 08:30, weekdays 08:30 or weekly mon 09:00, or remove the property"
                )),
            },
            _ => {}
        }
    }
    prompt.text = body(text).trim().to_string();
    if prompt.schedule.is_some() {
        // A scheduled run has no selection and no note of the user's to fill in.
        for variable in ["selection", "note"] {
            if prompt.text.contains(&format!("{{{{{variable}}}}}")) {
                problems.push(format!(
                    "it has a schedule property but uses {{{{{variable}}}}}, which a scheduled run has none of; take one of the two out"
                ));
            }
        }
    }
    if prompt.text.is_empty() {
        problems.push("it has no text after its properties; write the prompt in the note".into());
    }
    if let Some(unknown) = unknown_variable(&prompt.text) {
        problems.push(format!(
            "it uses {{{{{unknown}}}}}, which is not a variable; use {VARIABLES}, or write the text itself"
        ));
    }
    if !problems.is_empty() {
        prompt.problem = Some(format!(
            "The saved prompt {path} cannot be run: {}.",
            problems.join("; ")
        ));
    }
    prompt
}

/// True when the prompt's text fills in `{{variable}}` (spaces inside allowed).
pub fn uses(prompt: &SavedPrompt, variable: &str) -> bool {
    let mut rest = prompt.text.as_str();
    while let Some(open) = rest.find("{{") {
        let after = &rest[open + 2..];
        let Some(close) = after.find("}}") else {
            return false;
        };
        if after[..close].trim() == variable {
            return true;
        }
        rest = &after[close + 2..];
    }
    false
}

/// Why the open note's path may not fill `{{note}}`: the note lies outside
/// the folders the agent may read, so even its name stays with the user.
pub fn note_withheld(prompt: &SavedPrompt) -> String {
    format!(
        "The saved prompt “{}” uses {{{{note}}}}, but the open note is outside the folders the agent may read, so its name was not sent. Add its folder to Folders the agent may read (Settings → Vault Agent → Safety), or open a note inside them, then run the prompt again.",
        prompt.name
    )
}

/// The first `{{name}}` that is not one of the variables.
fn unknown_variable(text: &str) -> Option<String> {
    let mut rest = text;
    while let Some(open) = rest.find("{{") {
        let after = &rest[open + 2..];
        let close = after.find("}}")?;
        let name = after[..close].trim();
        if !matches!(name, "selection" | "note" | "date") {
            return Some(name.to_string());
        }
        rest = &after[close + 2..];
    }
    None
}

/// The prompt with its variables filled in, or what the user must do first.
pub fn fill(prompt: &SavedPrompt, values: &PromptValues) -> Result<String, String> {
    if let Some(problem) = &prompt.problem {
        return Err(problem.clone());
    }
    let name = &prompt.name;
    let mut out = String::with_capacity(prompt.text.len());
    let mut rest = prompt.text.as_str();
    while let Some(open) = rest.find("{{") {
        out.push_str(&rest[..open]);
        let after = &rest[open + 2..];
        let Some(close) = after.find("}}") else {
            rest = &rest[open..];
            break;
        };
        let given = |value: &Option<String>| {
            value
                .as_deref()
                .filter(|v| !v.trim().is_empty())
                .map(str::to_string)
        };
        let value = match after[..close].trim() {
            "selection" => given(&values.selection).ok_or_else(|| format!(
                "The saved prompt “{name}” uses {{{{selection}}}}, but no text is selected in a note. Select the text in the note first, then run the prompt again."
            ))?,
            "note" => given(&values.note).ok_or_else(|| format!(
                "The saved prompt “{name}” uses {{{{note}}}}, but no note is open. Open the note first, then run the prompt again."
            ))?,
            "date" => values.date.clone(),
            other => {
                return Err(format!(
                    "The saved prompt “{name}” uses {{{{{other}}}}}, which is not a variable. Use {VARIABLES} in {}.",
                    prompt.path
                ))
            }
        };
        out.push_str(&value);
        rest = &after[close + 2..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::normalise;
    use serde_json::json;

    fn settings() -> Settings {
        normalise(
            &json!({"chat": {"profiles": [
                {"id": "local", "name": "Local", "provider": "openAi"},
                {"id": "claude", "name": "Claude", "provider": "anthropic"}
            ]}}),
            &[],
        )
        .settings
    }

    fn values() -> PromptValues {
        PromptValues {
            selection: Some("the chosen words".into()),
            note: Some("Projects/Plan.md".into()),
            date: "2026-12-01".into(),
        }
    }

    #[test]
    fn the_properties_and_the_text_of_a_prompt_note() {
        let prompt = parse(
            "Prompts/Summarise.md",
            Some("---\ndescription: A short summary\nprofile: claude\nmode: Read only\n---\nSummarise {{note}}.\n"),
            &settings(),
        );
        assert_eq!(prompt.name, "Summarise");
        assert_eq!(prompt.description, "A short summary");
        assert_eq!(prompt.profile.as_deref(), Some("claude"));
        assert_eq!(prompt.mode, Some(PermissionMode::ReadOnly));
        assert_eq!(prompt.problem, None);
        assert_eq!(prompt.text, "Summarise {{note}}.");
        // The profile by its name, in any case; the mode by its key.
        let by_name = parse(
            "P/A.md",
            Some("---\nprofile: LOCAL\nmode: askBeforeEdits\n---\nGo"),
            &settings(),
        );
        assert_eq!(by_name.profile.as_deref(), Some("local"));
        assert_eq!(by_name.mode, Some(PermissionMode::AskBeforeEdits));
    }

    #[test]
    fn wrong_properties_name_the_note_and_the_fix() {
        let prompt = parse(
            "Prompts/Bad.md",
            Some("---\nprofile: GPT-9\nmode: yolo\n---\nHello {{weather}}"),
            &settings(),
        );
        let problem = prompt.problem.unwrap();
        for part in [
            "Prompts/Bad.md",
            "profile property \"GPT-9\" is not one of your model profiles (Local, Claude)",
            "mode property \"yolo\" is not a permission mode",
            "{{weather}}, which is not a variable",
        ] {
            assert!(problem.contains(part), "{part}: {problem}");
        }
        let empty = parse(
            "Prompts/Empty.md",
            Some("---\ndescription: x\n---\n\n"),
            &settings(),
        );
        assert!(empty.problem.unwrap().contains("has no text"));
        assert!(parse("Prompts/Big.md", None, &settings())
            .problem
            .unwrap()
            .contains("could not be read"));
        // A prompt with a problem is never filled.
        let bad = parse(
            "Prompts/Bad.md",
            Some("---\nmode: yolo\n---\nHi"),
            &settings(),
        );
        assert!(fill(&bad, &values()).is_err());
    }

    #[test]
    fn a_schedule_is_read_and_a_wrong_one_names_the_note_and_the_fix() {
        let good = parse(
            "Prompts/Morning.md",
            Some("---\nschedule: Weekly Mon 9:00\n---\nPlan the week of {{date}}."),
            &settings(),
        );
        assert_eq!(good.problem, None);
        assert_eq!(good.schedule.unwrap().label(), "weekly mon 09:00");
        let bad = parse(
            "Prompts/Later.md",
            Some("---\nschedule: every morning\n---\nGo"),
            &settings(),
        );
        let problem = bad.problem.unwrap();
        for part in [
            "The saved prompt Prompts/Later.md cannot be run",
            "schedule property \"every morning\" is not a schedule (it must start with daily, weekdays or weekly)",
            "write daily 08:30, weekdays 08:30 or weekly mon 09:00, or remove the property",
        ] {
            assert!(problem.contains(part), "{part}: {problem}");
        }
        // A scheduled run has no selection nor open note to fill in.
        let selection = parse(
            "Prompts/Fix.md",
            Some("---\nschedule: daily 08:00\n---\nFix {{selection}} in {{note}}"),
            &settings(),
        );
        let problem = selection.problem.unwrap();
        assert!(
            problem.contains("has a schedule property but uses {{selection}}"),
            "{problem}"
        );
        assert!(problem.contains("uses {{note}}"), "{problem}");
    }

    #[test]
    fn each_variable_is_filled_and_the_rest_kept() {
        let prompt = parse(
            "P/All.md",
            Some("On {{date}}, in {{ note }}: rewrite «{{selection}}». Not a {variable} {{"),
            &settings(),
        );
        assert_eq!(
            fill(&prompt, &values()).unwrap(),
            "On 2026-12-01, in Projects/Plan.md: rewrite «the chosen words». Not a {variable} {{"
        );
    }

    #[test]
    fn a_missing_selection_or_note_is_said_not_left_blank() {
        let prompt = parse("P/Fix.md", Some("Fix {{selection}}"), &settings());
        let none = PromptValues {
            date: "2026-12-01".into(),
            ..PromptValues::default()
        };
        let error = fill(&prompt, &none).unwrap_err();
        assert!(
            error.contains("uses {{selection}}, but no text is selected"),
            "{error}"
        );
        let blank = PromptValues {
            selection: Some("  ".into()),
            ..none.clone()
        };
        assert!(fill(&prompt, &blank).is_err());
        let note = parse("P/Note.md", Some("About {{note}}"), &settings());
        assert!(fill(&note, &none).unwrap_err().contains("no note is open"));
    }
}
