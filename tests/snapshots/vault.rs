//! A small fake vault for the snapshot tests: notes the CLI and Obsidian's
//! vault both see, and a CLI that answers every command the tools use in
//! the shapes the captures of the real one show (where no capture exists,
//! a plausible shape; the plugin never depends on those).

use std::collections::{BTreeMap, HashMap};

use serde_json::{json, Value};
use vault_agent::base::host::{LocalContext, Os, ProcessOutcome};
use vault_agent::testing::{block_on, FakeHost};
use vault_agent::{ToolResult, VaultAgent};

pub type Core = VaultAgent<FakeHost>;

pub const NOTES: &[(&str, &str)] = &[
    (
        "Projects/Plan.md",
        "---\nstatus: active\ntags: [plan]\n---\n# Plan\nShip the beta.\n\n## Tasks\n- [ ] Write the release notes\n- [x] Fix the login bug\n\n## Risks\nThe vendor is late.\n",
    ),
    (
        "Projects/Roadmap.md",
        "# Roadmap\nSee [[Plan]] and [[Launch]].\n#project\n",
    ),
    ("Inbox/Idea.md", "An idea for [[Plan]]\n"),
    ("Private/Diary.md", "# Diary\nThe plan I keep to myself.\n"),
    ("Daily/2026-11-30.md", "# Monday\n- [ ] Standup\n"),
    ("Templates/Meeting.md", "# {{title}}\nDate: {{date}}\n"),
];

fn param<'a>(args: &'a [String], key: &str) -> Option<&'a str> {
    args.iter()
        .find_map(|a| a.strip_prefix(key)?.strip_prefix('='))
}

fn flag(args: &[String], name: &str) -> bool {
    args.iter().any(|a| a == name)
}

/// The CLI's `\n`, `\t`, `\\` escapes undone (what it writes).
fn unescape(value: &str) -> String {
    let mut out = String::new();
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        match (c, c == '\\') {
            (_, true) => match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => out.push('\\'),
            },
            (c, false) => out.push(c),
        }
    }
    out
}

fn name_of(path: &str) -> &str {
    let file = path.rsplit('/').next().unwrap_or(path);
    file.strip_suffix(".md").unwrap_or(file)
}

/// The note `file=` (like a wikilink) or `path=` names.
fn resolve(notes: &HashMap<String, String>, args: &[String]) -> Option<String> {
    match (param(args, "path"), param(args, "file")) {
        (Some(path), _) => notes.contains_key(path).then(|| path.to_string()),
        (None, Some(name)) => notes.keys().find(|p| name_of(p) == name).cloned(),
        _ => None,
    }
}

fn lines(items: impl IntoIterator<Item = String>, none: &str) -> String {
    let items: Vec<String> = items.into_iter().collect();
    if items.is_empty() {
        none.to_string()
    } else {
        items.join("\n") + "\n"
    }
}

fn answer(notes: &mut HashMap<String, String>, args: &[String]) -> String {
    // Listings in path order, as the CLI prints them.
    let sorted: BTreeMap<String, String> =
        notes.iter().map(|(p, t)| (p.clone(), t.clone())).collect();
    let json_format = param(args, "format") == Some("json");
    let query = param(args, "query").unwrap_or("").to_lowercase();
    let target = resolve(notes, args);
    let missing = || {
        format!(
            "Error: File \"{}\" not found.\n",
            param(args, "path").or(param(args, "file")).unwrap_or("")
        )
    };
    match args[0].as_str() {
        "version" => "1.12.7\n".into(),
        "file" => match target {
            Some(p) => format!(
                "path\t{p}\nname\t{}\nextension\tmd\nsize\t{}\n",
                name_of(&p),
                notes[&p].len()
            ),
            None => missing(),
        },
        "read" => target.map_or_else(missing, |p| notes[&p].clone()),
        "files" => {
            let folder = param(args, "folder").map(|f| format!("{f}/"));
            lines(
                sorted
                    .keys()
                    .filter(|p| folder.as_ref().is_none_or(|f| p.starts_with(f)))
                    .cloned(),
                "No files found.\n",
            )
        }
        "folders" => "Daily\nInbox\nPrivate\nProjects\nTemplates\n".into(),
        "search" => {
            let hits: Vec<String> = sorted
                .iter()
                .filter(|(_, text)| text.to_lowercase().contains(&query))
                .map(|(p, _)| p.clone())
                .collect();
            if json_format {
                json!(hits).to_string()
            } else {
                lines(hits, "No matches found.\n")
            }
        }
        "search:context" => {
            let mut found = Vec::new();
            for (path, text) in sorted.iter() {
                let matches: Vec<Value> = text
                    .lines()
                    .enumerate()
                    .filter(|(_, l)| l.to_lowercase().contains(&query))
                    .map(|(i, l)| json!({"line": i + 1, "text": l}))
                    .collect();
                if !matches.is_empty() {
                    found.push(json!({"file": path, "matches": matches}));
                }
            }
            json!(found).to_string()
        }
        "tasks" => {
            let mut rows = Vec::new();
            for (path, text) in sorted.iter() {
                for (i, l) in text.lines().enumerate() {
                    if let Some(rest) = l.strip_prefix("- [") {
                        let status = &rest[..1];
                        let body = &rest[3..];
                        if flag(args, "todo") && status != " " {
                            continue;
                        }
                        rows.push((path.clone(), i + 1, status.to_string(), body.to_string()));
                    }
                }
            }
            if json_format {
                json!(rows
                    .iter()
                    .map(|(p, l, s, t)| json!({"path": p, "line": l.to_string(), "status": s, "text": t}))
                    .collect::<Vec<_>>())
                .to_string()
            } else {
                lines(
                    rows.into_iter().map(|(_, _, s, t)| format!("- [{s}] {t}")),
                    "No tasks found.\n",
                )
            }
        }
        "task" => {
            let reference = param(args, "ref").unwrap_or("");
            let (path, line) = reference.rsplit_once(':').unwrap_or((reference, "0"));
            let line: usize = line.parse().unwrap_or(0);
            match notes.get_mut(path) {
                Some(text) if flag(args, "done") => {
                    let mut all: Vec<String> = text.lines().map(String::from).collect();
                    if let Some(l) = all.get_mut(line.wrapping_sub(1)) {
                        *l = l.replacen("- [ ]", "- [x]", 1);
                    }
                    *text = all.join("\n") + "\n";
                    format!("Updated task at {reference}\n")
                }
                Some(text) => text.lines().nth(line.wrapping_sub(1)).unwrap_or("").to_string() + "\n",
                None => missing(),
            }
        }
        "properties" if target.is_some() => "status: active\ntags:\n  - plan\n".into(),
        "properties" => "status\ntags\n".into(),
        "property:read" => match (target, param(args, "name")) {
            (Some(_), Some("status")) => "active\n".into(),
            (Some(_), Some("tags")) => "plan\n".into(),
            (Some(_), Some(name)) => format!("Error: Property \"{name}\" not found.\n"),
            _ => missing(),
        },
        "property:set" => format!(
            "Set {}: {}\n",
            param(args, "name").unwrap_or(""),
            unescape(param(args, "value").unwrap_or(""))
        ),
        "property:remove" => format!(
            "Removed {} from {}\n",
            param(args, "name").unwrap_or(""),
            target.unwrap_or_default()
        ),
        "backlinks" => {
            let Some(target) = target else {
                return missing();
            };
            let link = format!("[[{}]]", name_of(&target));
            let from: Vec<String> = sorted
                .iter()
                .filter(|(_, t)| t.contains(&link))
                .map(|(p, _)| p.clone())
                .collect();
            if flag(args, "total") {
                format!("{}\n", from.len())
            } else if json_format {
                json!(from.iter().map(|f| json!({"file": f})).collect::<Vec<_>>()).to_string()
            } else {
                lines(from, "No backlinks found.\n")
            }
        }
        "links" => "Launch (unresolved)\nPlan\n".into(),
        "orphans" => "Private/Diary.md\nTemplates/Meeting.md\n".into(),
        "deadends" => "Daily/2026-11-30.md\nPrivate/Diary.md\n".into(),
        "unresolved" if flag(args, "verbose") => "Launch\tProjects/Roadmap.md\n".into(),
        "unresolved" => "Launch\n".into(),
        "tags" if flag(args, "counts") => "#plan\t1\n#project\t1\n".into(),
        "tags" => "#plan\n#project\n".into(),
        "tag" if flag(args, "verbose") => "#project\t1\nProjects/Roadmap.md\n".into(),
        "tag" => "Projects/Roadmap.md\n".into(),
        "templates" => "Meeting\n".into(),
        "template:read" => notes["Templates/Meeting.md"].clone(),
        "bases" => "Projects/Projects.base\n".into(),
        "base:views" => "Table\tcards\nBoard\tcards\n".into(),
        "base:query" => json!([{"path": "Projects/Plan.md", "status": "active"}, {"path": "Projects/Roadmap.md", "status": "draft"}]).to_string(),
        "base:create" => format!("Created: {}.md\n", param(args, "name").unwrap_or("Untitled")),
        "bookmarks" if json_format => json!([{"type": "file", "path": "Projects/Plan.md"}, {"type": "url", "url": "https://obsidian.md", "title": "Obsidian"}]).to_string(),
        "bookmarks" => "Projects/Plan.md\nhttps://obsidian.md\n".into(),
        "bookmark" => "Bookmarked.\n".into(),
        "random:read" => format!("Inbox/Idea.md\n\n{}", notes["Inbox/Idea.md"]),
        "daily:path" => "Daily/2026-11-30.md\n".into(),
        "daily:read" => notes["Daily/2026-11-30.md"].clone(),
        "daily:append" => {
            let note = notes.get_mut("Daily/2026-11-30.md").unwrap();
            note.push_str(&unescape(param(args, "content").unwrap_or("")));
            note.push('\n');
            "Added to: Daily/2026-11-30.md\n".into()
        }
        "create" => {
            let mut path = param(args, "path")
                .map(String::from)
                .unwrap_or_else(|| format!("{}.md", param(args, "name").unwrap_or("Untitled")));
            if !path.ends_with(".md") {
                path.push_str(".md");
            }
            notes.insert(path.clone(), unescape(param(args, "content").unwrap_or("")));
            format!("Created: {path}\n")
        }
        "append" | "prepend" => {
            let Some(path) = target else {
                return missing();
            };
            let content = unescape(param(args, "content").unwrap_or(""));
            let note = notes.get_mut(&path).unwrap();
            if args[0] == "append" {
                note.push_str(&content);
                note.push('\n');
                format!("Appended to: {path}\n")
            } else {
                *note = format!("{content}\n{note}");
                format!("Prepended to: {path}\n")
            }
        }
        other => format!("Error: Command \"{other}\" not found.\n"),
    }
}

/// A core over the fake vault with these settings (the permission mode
/// defaults to Ask before every change, so every write shows its card).
pub fn core(settings: Value) -> Core {
    let mut host = FakeHost::new(Os::Linux, |_| ProcessOutcome::success(""));
    host.env.insert("PATH".into(), "/usr/bin".into());
    host.add_executable("/usr/bin/obsidian");
    host.local = LocalContext {
        date_time: "Monday, 30 November 2026 at 15:25".into(),
        date: "2026-11-30".into(),
        time_zone: "Europe/Berlin (UTC+01:00)".into(),
        open_note: Some("Projects/Plan.md".into()),
    };
    // Obsidian's vault and the CLI see the same notes.
    for (path, text) in NOTES {
        host.notes
            .borrow_mut()
            .insert(path.to_string(), text.to_string());
    }
    let notes = host.notes.clone();
    host.respond_with(move |request| {
        ProcessOutcome::success(&answer(&mut notes.borrow_mut(), &request.args))
    });
    let mut settings = match settings {
        Value::Object(map) => map,
        _ => serde_json::Map::new(),
    };
    settings
        .entry("permissionMode")
        .or_insert(json!("askEveryChange"));
    VaultAgent::new(host, &Value::Object(settings)).0
}

pub fn call(core: &Core, tool: &str, args: Value) -> ToolResult {
    block_on(core.call_tool(tool, &args))
}
