//! A saved prompt the user writes or edits in the chat's own form: where its
//! note goes and the text it gets. The user types every word of it, so it is
//! their own edit (as typing in a note is), not a change the agent proposes:
//! no card, no journal; the shim writes what this returns through Obsidian's
//! vault. What this decides: a name that makes a good note name, a folder the
//! prompts are listed from, no clash with another note, and the note's other
//! properties (profile, mode, schedule) kept as they were.

use serde::{Deserialize, Serialize};

use crate::base::host::Host;
use crate::base::vault_path::in_config_dir;
use crate::notes::frontmatter::frontmatter;
use crate::policy::scope::FolderScope;
use crate::settings::Settings;

/// The longest name a prompt may have (its note's name, without `.md`).
const MAX_NAME_CHARS: usize = 100;
/// Characters a note's name may not hold in Obsidian, or that break a link to it.
const FORBIDDEN: &[char] = &[
    '/', '\\', ':', '*', '?', '"', '<', '>', '|', '#', '^', '[', ']',
];

/// What the user filled in: the prompt's name, description and text, and
/// for an edit the note it was and the text that note holds now.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PromptDraft {
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub text: String,
    /// The prompt's note, when an existing prompt is edited.
    #[cfg_attr(test, ts(optional))]
    #[serde(default)]
    pub path: Option<String>,
    /// That note's text as it is now (its other properties are kept).
    #[cfg_attr(test, ts(optional))]
    #[serde(default)]
    pub current: Option<String>,
}

/// Where the prompt's note goes and what it holds, or why not.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum PromptNote {
    /// Write `text` to `path`; an edit whose name changed moves `from` there first.
    Write {
        path: String,
        text: String,
        #[cfg_attr(test, ts(optional))]
        #[serde(skip_serializing_if = "Option::is_none")]
        from: Option<String>,
    },
    /// Nothing is written: what is wrong and how to fix it.
    Refused { message: String },
}

/// The note for `draft` in the prompts folder.
pub fn prompt_note<H: Host>(host: &H, settings: &Settings, draft: &PromptDraft) -> PromptNote {
    match place(host, settings, draft) {
        Ok(path) => {
            let from = draft.path.clone().filter(|old| *old != path);
            PromptNote::Write {
                text: note_text(draft),
                path,
                from,
            }
        }
        Err(message) => PromptNote::Refused { message },
    }
}

/// The note's path, checked.
fn place<H: Host>(host: &H, settings: &Settings, draft: &PromptDraft) -> Result<String, String> {
    let folder = settings.chat.prompts_folder.trim_end_matches('/');
    if folder.is_empty() {
        return Err("No prompts folder is set, so the prompt has nowhere to go. Choose one in Settings → Vault Agent → Model (Prompts folder), then try again.".into());
    }
    let prefix = format!("{folder}/");
    let scope = FolderScope::read(settings, host.platform().os());
    if in_config_dir(&prefix, host.platform().config_dir()) || !scope.contains(&prefix) {
        return Err(format!("Your prompts folder {folder} is in a folder the agent may not read, so a prompt saved there would not be offered. Choose another folder (Settings → Vault Agent → Model), or add it to the folders the agent may read (Settings → Vault Agent → Safety)."));
    }
    let name = draft.name.trim();
    if name.is_empty() {
        return Err("The prompt has no name. Give it one: it is the name the / menu shows.".into());
    }
    if let Some(bad) = name
        .chars()
        .find(|c| FORBIDDEN.contains(c) || c.is_control())
    {
        return Err(format!("The name “{name}” holds “{bad}”, which a note's name cannot hold. Leave out / \\ : * ? \" < > | # ^ [ and ]."));
    }
    if name.starts_with('.') {
        return Err(format!("The name “{name}” starts with a dot, which hides a note. Start it with a letter or a digit."));
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(format!(
            "The name has {} characters; shorten it to at most {MAX_NAME_CHARS}.",
            name.chars().count()
        ));
    }
    if draft.text.trim().is_empty() {
        return Err("The prompt has no text. Write what the agent should be asked.".into());
    }
    let path = format!("{prefix}{name}.md");
    let same = |p: &str| p.eq_ignore_ascii_case(&path);
    let editing = draft.path.as_deref().is_some_and(same);
    if !editing && host.vault_notes().paths.iter().any(|p| same(p)) {
        return Err(format!(
            "A note {path} is there already. Choose another name, or edit that prompt instead."
        ));
    }
    Ok(path)
}

/// The note: the properties it had (its description replaced), then the prompt.
fn note_text(draft: &PromptDraft) -> String {
    let current = draft.current.as_deref().unwrap_or("");
    let mut lines: Vec<&str> = Vec::new();
    let mut in_description = false;
    // `frontmatter` ends with its closing line, which is written anew below.
    let block = frontmatter(current).unwrap_or("");
    let closing = |line: &str| matches!(line.trim_end(), "---" | "...");
    for line in block.lines().filter(|line| !closing(line)) {
        // The old description and any lines that continue it (indented or a list) go.
        if line.starts_with("description:") {
            in_description = true;
            continue;
        }
        if in_description
            && (line.starts_with(' ') || line.starts_with('\t') || line.starts_with('-'))
        {
            continue;
        }
        in_description = false;
        lines.push(line);
    }
    let description = draft
        .description
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    // Quoted as JSON, which YAML reads as the same string (a colon or # stays text).
    let quoted = serde_json::to_string(&description).unwrap_or_default();
    let described = format!("description: {quoted}");
    if !description.is_empty() {
        lines.insert(0, &described);
    }
    let text = draft.text.trim();
    if lines.is_empty() {
        format!("{text}\n")
    } else {
        format!("---\n{}\n---\n{text}\n", lines.join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::FakeHost;

    fn settings() -> Settings {
        let mut settings = Settings::default();
        settings.chat.prompts_folder = "Prompts".into();
        settings
    }

    fn draft(name: &str, text: &str) -> PromptDraft {
        PromptDraft {
            name: name.into(),
            text: text.into(),
            ..PromptDraft::default()
        }
    }

    #[test]
    fn a_new_prompt_becomes_a_note_in_the_prompts_folder() {
        let host = FakeHost::linux_with_cli("");
        let mut new = draft("Plan my day", "Make a plan for {{date}}.\n\n");
        new.description = "Today's plan: from\nmy tasks".into();
        assert_eq!(
            prompt_note(&host, &settings(), &new),
            PromptNote::Write {
                path: "Prompts/Plan my day.md".into(),
                text: "---\ndescription: \"Today's plan: from my tasks\"\n---\nMake a plan for {{date}}.\n".into(),
                from: None,
            }
        );
        let plain = prompt_note(&host, &settings(), &draft("Plain", "Just this."));
        assert!(
            matches!(plain, PromptNote::Write { ref text, .. } if text == "Just this.\n"),
            "{plain:?}"
        );
    }

    #[test]
    fn an_edit_keeps_the_other_properties_and_moves_a_renamed_note() {
        let host = FakeHost::linux_with_cli("");
        let mut edit = draft("Proofread carefully", "Proofread: {{selection}}");
        edit.path = Some("Prompts/Proofread.md".into());
        edit.current = Some(
            "---\ndescription: >\n  old words\n  more\nmode: askEveryChange\n---\nOld text\n"
                .into(),
        );
        let PromptNote::Write { path, text, from } = prompt_note(&host, &settings(), &edit) else {
            panic!("refused");
        };
        assert_eq!(path, "Prompts/Proofread carefully.md");
        assert_eq!(from.as_deref(), Some("Prompts/Proofread.md"));
        assert_eq!(
            text,
            "---\nmode: askEveryChange\n---\nProofread: {{selection}}\n"
        );
    }

    #[test]
    fn bad_names_a_clash_and_no_folder_are_refused_with_the_fix() {
        let host = FakeHost::linux_with_cli("");
        host.notes
            .borrow_mut()
            .insert("Prompts/Taken.md".into(), "x".into());
        let refused =
            |settings: &Settings, draft: &PromptDraft| match prompt_note(&host, settings, draft) {
                PromptNote::Refused { message } => message,
                other => panic!("{other:?}"),
            };
        assert!(refused(&settings(), &draft("a/b", "x")).contains("holds “/”"));
        assert!(refused(&settings(), &draft("  ", "x")).contains("has no name"));
        assert!(refused(&settings(), &draft(".hidden", "x")).contains("starts with a dot"));
        assert!(refused(&settings(), &draft("Empty", " \n")).contains("has no text"));
        assert!(refused(&settings(), &draft("taken", "x"))
            .contains("Prompts/taken.md is there already"));
        assert!(
            refused(&Settings::default(), &draft("A", "x")).contains("No prompts folder is set")
        );
        let mut config = settings();
        config.chat.prompts_folder = ".obsidian/prompts".into();
        assert!(refused(&config, &draft("A", "x")).contains("may not read"));
        // Editing a prompt under its own name is no clash.
        let mut same = draft("Taken", "y");
        same.path = Some("Prompts/Taken.md".into());
        assert!(matches!(
            prompt_note(&host, &settings(), &same),
            PromptNote::Write { from: None, .. }
        ));
    }
}
