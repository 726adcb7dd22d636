//! What vault-wide commands print, limited to the read scope before the model
//! sees it. A path is never cut out of free text by a guess: a folder may be
//! named `Projects #old`, `Projects:x` or ` Projects`, and a root note
//! `Projects<TAB>leak.md`. So an entry is kept only when every way its path
//! could be read lies inside the scope; where the CLI has a structured form
//! (JSON) the core asks for it and writes back what is kept in the form the
//! model asked for. Whatever cannot be placed for certain is withheld, and
//! counted.

use serde_json::Value;

use crate::policy::scope::{FolderScope, LinePath, Output, Render};

/// What a filtered output kept, and how many entries it withheld.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filtered {
    pub text: String,
    pub withheld: usize,
}

impl Filtered {
    fn all(text: &str) -> Self {
        Filtered {
            text: text.to_string(),
            withheld: 0,
        }
    }
}

/// The CLI's answer for "nothing", per command, as captured or as the help
/// page and the emulator give it. Only this exact text (line endings aside)
/// passes unfiltered: a note may be named `No keys found.md`, so no pattern
/// stands for these.
const EMPTY_ANSWERS: &[(&str, &str)] = &[
    // Captured (1.12.7), with a blank line first.
    ("search", "No matches found."),
    ("search:context", "No matches found."),
    // Captured.
    ("bases", "No base files found in vault"),
    // The help page.
    ("tasks", "No tasks found."),
    ("backlinks", "No backlinks found."),
    ("links", "No links found."),
    ("random:read", "No markdown files found."),
    // Not captured: the emulator's wording; a different real one is
    // withheld, never shown.
    ("files", "No files found."),
    ("folders", "No folders found."),
    ("orphans", "No orphans found."),
    ("deadends", "No dead-ends found."),
    ("unresolved", "No unresolved links found."),
    ("bookmarks", "No bookmarks found."),
];

/// True when `text` is exactly `command`'s answer for "nothing".
pub fn is_empty_answer(command: &str, text: &str) -> bool {
    let text = text.trim_matches(['\n', '\r']);
    EMPTY_ANSWERS
        .iter()
        .any(|(c, answer)| *c == command && text == *answer)
}

/// Keeps what `command` printed in `shape` that lies in `scope`.
pub fn filter(command: &str, text: &str, shape: &Output, scope: FolderScope<'_>) -> Filtered {
    if scope.holds_everything() || is_empty_answer(command, text) {
        return Filtered::all(text);
    }
    match shape {
        Output::FromPlaces | Output::NoNoteText | Output::Computed | Output::Unplaceable { .. } => {
            Filtered::all(text)
        }
        Output::Lines { path, subpath } => filter_lines(text, |line| {
            every_reading_inside(line, *path, *subpath, scope)
        }),
        Output::TagNotes => tag_notes(text, scope),
        Output::Links => filter_lines(text, |line| link_inside(line, scope)),
        Output::Json { key, render } => filter_json(text, *key, *render, scope),
        Output::FirstLinePath => {
            // The path is the whole first line; the note follows it.
            let first = text.split('\n').next().unwrap_or("");
            if scope.contains(first) {
                Filtered::all(text)
            } else {
                Filtered {
                    text: String::new(),
                    withheld: 1,
                }
            }
        }
    }
}

/// Each way the path of `line` can be read: a name may hold a tab, so every
/// column boundary it could start or end at is one reading; with `subpath`
/// every `#` could start the heading after the path.
fn readings(line: &str, path: LinePath, subpath: bool) -> Vec<&str> {
    let tabs = || line.match_indices('\t').map(|(i, _)| i);
    let mut found: Vec<&str> = match path {
        LinePath::Whole => vec![line],
        // What follows each tab could be the path; nothing before any tab
        // is the shape this promises, so it reads as nothing.
        LinePath::Last => tabs().map(|i| &line[i + 1..]).collect(),
        LinePath::After(columns) => {
            let start = match columns {
                0 => Some(0),
                n => tabs().nth(n - 1).map(|i| i + 1),
            };
            let Some(start) = start else {
                return Vec::new();
            };
            let rest = &line[start..];
            let mut ends: Vec<&str> = rest.match_indices('\t').map(|(i, _)| &rest[..i]).collect();
            ends.push(rest);
            ends
        }
    };
    if subpath {
        let cuts: Vec<&str> = found
            .iter()
            .flat_map(|reading| reading.match_indices('#').map(|(i, _)| &reading[..i]))
            .collect();
        found.extend(cuts);
    }
    found
}

fn every_reading_inside(line: &str, path: LinePath, subpath: bool, scope: FolderScope<'_>) -> bool {
    let found = readings(line, path, subpath);
    !found.is_empty() && found.iter().all(|reading| scope.contains(reading))
}

/// `links`: a resolved link is a vault path, kept when it lies inside; an
/// unresolved one (`<target> (unresolved)`) is the note's own text, kept
/// unless its target names a folder outside (a resolved path outside whose
/// name ends in ` (unresolved)` reads the same way, so it is withheld too).
fn link_inside(line: &str, scope: FolderScope<'_>) -> bool {
    match line.strip_suffix(" (unresolved)") {
        Some(target) => !target.contains('/') || scope.contains(target),
        None => scope.contains(line),
    }
}

fn filter_lines(text: &str, keep: impl Fn(&str) -> bool) -> Filtered {
    let mut kept = Vec::new();
    let mut withheld = 0;
    for line in text.lines() {
        if keep(line) {
            kept.push(line);
        } else if !line.trim().is_empty() {
            withheld += 1;
        }
    }
    Filtered {
        text: joined(kept, text),
        withheld,
    }
}

/// `tag verbose`: `#tag<TAB>N`, then paths. N is the CLI's count over the
/// whole vault; once anything is withheld it becomes the number of notes
/// kept, so a tag used outside the scope does not say how often. A first
/// line that is not such a header is filtered as a path like the rest.
fn tag_notes(text: &str, scope: FolderScope<'_>) -> Filtered {
    let header_of = |line: &str| {
        line.rsplit_once('\t')
            .filter(|(tag, count)| {
                tag.starts_with('#')
                    && !tag.contains('\t')
                    && !count.is_empty()
                    && count.chars().all(|c| c.is_ascii_digit())
            })
            .map(|(tag, _)| tag.to_string())
    };
    let mut header = None;
    let mut notes = Vec::new();
    let mut withheld = 0;
    for (index, line) in text.lines().enumerate() {
        if index == 0 {
            if let Some(tag) = header_of(line) {
                header = Some((line, tag));
                continue;
            }
        }
        if scope.contains(line) {
            notes.push(line);
        } else if !line.trim().is_empty() {
            withheld += 1;
        }
    }
    let counted = header.as_ref().map(|(line, tag)| match withheld {
        0 => line.to_string(),
        _ => format!("{tag}\t{}", notes.len()),
    });
    let mut out: Vec<&str> = counted.iter().map(String::as_str).collect();
    out.extend(notes);
    Filtered {
        text: joined(out, text),
        withheld,
    }
}

fn filter_json(text: &str, key: Option<&str>, render: Render, scope: FolderScope<'_>) -> Filtered {
    let Ok(Value::Array(items)) = serde_json::from_str::<Value>(text) else {
        // Not the list this shape promises: nothing of it can be placed.
        return Filtered {
            text: String::new(),
            withheld: text.lines().filter(|l| !l.trim().is_empty()).count().max(1),
        };
    };
    let total = items.len();
    let kept: Vec<Value> = items
        .into_iter()
        .filter(|item| {
            let path = match key {
                None => item.as_str(),
                Some(key) => item.get(key).and_then(Value::as_str),
            };
            path.is_some_and(|p| scope.contains(p))
        })
        .collect();
    let (out, written) = match render {
        Render::Json => (json_as_printed(&kept, text), kept.len()),
        other => write_back(&kept, other),
    };
    Filtered {
        text: with_line_end(out, text),
        withheld: total - written,
    }
}

/// JSON in the CLI's layout: pretty when it printed it pretty.
fn json_as_printed(items: &[Value], original: &str) -> String {
    let kept = Value::Array(items.to_vec());
    if original.trim_start().starts_with("[\n") {
        serde_json::to_string_pretty(&kept)
    } else {
        serde_json::to_string(&kept)
    }
    .expect("JSON values serialize")
}

/// The kept items in the text form the model asked for, and how many of them
/// had what that form needs (the rest are withheld).
fn write_back(items: &[Value], render: Render) -> (String, usize) {
    let text = |item: &Value, key: &str| item.get(key).and_then(Value::as_str).map(str::to_string);
    // `line` is a number in `search:context`, text in the emulator's `tasks`.
    let number = |item: &Value, key: &str| match item.get(key) {
        Some(Value::Number(n)) => Some(n.to_string()),
        Some(Value::String(s)) if !s.is_empty() && s.chars().all(|c| c.is_ascii_digit()) => {
            Some(s.clone())
        }
        _ => None,
    };
    let task = |item: &Value| {
        Some((
            text(item, "path")?,
            number(item, "line")?,
            text(item, "status").filter(|s| s.chars().count() == 1)?,
            text(item, "text")?,
        ))
    };
    let mut lines: Vec<String> = Vec::new();
    let mut written = 0;
    let mut last_note: Option<String> = None;
    for item in items {
        let before = lines.len();
        match render {
            Render::Json => unreachable!("written as printed"),
            Render::SearchPaths => lines.extend(item.as_str().map(str::to_string)),
            Render::SearchLines => {
                let file = text(item, "file");
                let matches = item.get("matches").and_then(Value::as_array);
                if let (Some(file), Some(matches)) = (file, matches) {
                    let shown: Option<Vec<String>> = matches
                        .iter()
                        .map(|m| {
                            Some(format!(
                                "{file}:{}: {}",
                                number(m, "line")?,
                                text(m, "text")?
                            ))
                        })
                        .collect();
                    lines.extend(shown.unwrap_or_default());
                }
            }
            Render::TaskLines => {
                if let Some((_, _, status, body)) = task(item) {
                    lines.push(format!("- [{status}] {body}"));
                }
            }
            Render::TaskGroups => {
                if let Some((path, line, status, body)) = task(item) {
                    if last_note.as_deref() != Some(path.as_str()) {
                        if last_note.is_some() {
                            lines.push(String::new());
                        }
                        lines.push(path.clone());
                        last_note = Some(path);
                    }
                    lines.push(format!("  L{line}: - [{status}] {body}"));
                }
            }
            Render::TaskTable => {
                if let Some((path, line, status, body)) = task(item) {
                    lines.push(format!("{path}\t{line}\t{status}\t{body}"));
                }
            }
            Render::BacklinkTable => {
                if let Some(file) = text(item, "file") {
                    lines.push(match number(item, "count") {
                        Some(count) => format!("{file}\t{count}"),
                        None => file,
                    });
                }
            }
        }
        if lines.len() > before {
            written += 1;
        }
    }
    (lines.join("\n"), written)
}

/// Lines joined as the CLI wrote them (its final line ending kept).
fn joined(lines: Vec<&str>, original: &str) -> String {
    with_line_end(lines.join("\n"), original)
}

fn with_line_end(mut out: String, original: &str) -> String {
    if !out.is_empty() && original.ends_with('\n') {
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::names::NameRule;
    use crate::settings::NO_FOLDER;

    const ALLOWED: [&str; 1] = ["Projects"];

    fn scope(folders: &[String]) -> FolderScope<'_> {
        FolderScope::new(folders, NameRule::Exact)
    }

    fn run(command: &str, text: &str, shape: &Output) -> (String, usize) {
        let folders: Vec<String> = ALLOWED.iter().map(|f| f.to_string()).collect();
        let out = filter(command, text, shape, scope(&folders));
        (out.text, out.withheld)
    }

    /// Folders and notes outside `Projects` whose names a cut at `#`, `:`,
    /// a tab or a space, or a trim, would read as inside it.
    const LOOK_ALIKES: &[&str] = &[
        "Projects #old/A.md",
        "Projects:x/A.md",
        "Projects\tleak.md",
        "Projects^x/A.md",
        "Projects|x/A.md",
        "Projects[x]/A.md",
        " Projects/A.md",
        "Projects /A.md",
        "Projects2/A.md",
        "ProjectsA.md",
        "projects/A.md",
    ];

    #[test]
    fn look_alike_names_are_withheld_in_every_shape() {
        let paths = Output::PATHS;
        let bookmarks = Output::Lines {
            path: LinePath::After(1),
            subpath: true,
        };
        let unresolved = Output::Lines {
            path: LinePath::Last,
            subpath: false,
        };
        for name in LOOK_ALIKES {
            let cases: Vec<(&str, String, &Output)> = vec![
                ("files", format!("{name}\nProjects/B.md\n"), &paths),
                (
                    "bookmarks",
                    format!("file\t{name}\nfile\tProjects/B.md\n"),
                    &bookmarks,
                ),
                (
                    "bookmarks",
                    format!("file\t{name}#top\tTitle\nfile\tProjects/B.md\n"),
                    &bookmarks,
                ),
                (
                    "unresolved",
                    format!("Ghost\t{name}\nGhost\tProjects/B.md\n"),
                    &unresolved,
                ),
                ("links", format!("{name}\nProjects/B.md\n"), &Output::Links),
                (
                    "tag",
                    format!("#x\t9\n{name}\nProjects/B.md\n"),
                    &Output::TagNotes,
                ),
            ];
            for (command, text, shape) in cases {
                let (kept, withheld) = run(command, &text, shape);
                assert!(
                    !kept.lines().any(|l| l.contains(name)),
                    "{name:?} in {shape:?}: {kept:?}"
                );
                assert_eq!(withheld, 1, "{name:?} in {shape:?}: {kept:?}");
                assert!(kept.contains("Projects/B.md"), "{shape:?}: {kept:?}");
            }
            for (render, json) in [
                (
                    Render::SearchPaths,
                    serde_json::json!([name, "Projects/B.md"]),
                ),
                (
                    Render::SearchLines,
                    serde_json::json!([{"file": name, "matches": [{"line": 1, "text": "secret"}]}, {"file": "Projects/B.md", "matches": [{"line": 2, "text": "plan"}]}]),
                ),
                (
                    Render::TaskGroups,
                    serde_json::json!([{"path": name, "line": "1", "status": " ", "text": "secret"}, {"path": "Projects/B.md", "line": "2", "status": "x", "text": "plan"}]),
                ),
                (
                    Render::BacklinkTable,
                    serde_json::json!([{"file": name}, {"file": "Projects/B.md"}]),
                ),
            ] {
                let key = match render {
                    Render::SearchPaths => None,
                    Render::SearchLines | Render::BacklinkTable => Some("file"),
                    _ => Some("path"),
                };
                let (kept, withheld) = run("x", &json.to_string(), &Output::json(key, render));
                assert!(
                    !kept.contains(name) && !kept.contains("secret"),
                    "{name:?} {render:?}: {kept:?}"
                );
                assert_eq!(withheld, 1, "{name:?} {render:?}");
                assert!(kept.contains("Projects/B.md"), "{render:?}: {kept:?}");
            }
        }
    }

    #[test]
    fn json_answers_are_written_back_as_the_model_asked() {
        let search = r#"["Ideas/A.md","Projects/B.md","Projects/C.md"]"#;
        let as_lines = |render| run("search", search, &Output::json(None, render));
        assert_eq!(
            as_lines(Render::SearchPaths),
            ("Projects/B.md\nProjects/C.md".into(), 1)
        );
        assert_eq!(
            as_lines(Render::Json),
            (r#"["Projects/B.md","Projects/C.md"]"#.into(), 1)
        );
        let context = r#"[{"file":"Projects/B.md","matches":[{"line":3,"text":"a: b"},{"line":9,"text":"c"}]},{"file":"Ideas/A.md","matches":[{"line":1,"text":"x"}]}]"#;
        assert_eq!(
            run(
                "search:context",
                context,
                &Output::json(Some("file"), Render::SearchLines)
            ),
            ("Projects/B.md:3: a: b\nProjects/B.md:9: c".into(), 1)
        );
        let tasks = "[\n  {\n    \"path\": \"Projects/B.md\",\n    \"line\": \"3\",\n    \"status\": \" \",\n    \"text\": \"one\"\n  },\n  {\n    \"path\": \"Projects/B.md\",\n    \"line\": \"4\",\n    \"status\": \"x\",\n    \"text\": \"two\"\n  },\n  {\n    \"path\": \"Projects/C.md\",\n    \"line\": \"1\",\n    \"status\": \"/\",\n    \"text\": \"three\"\n  },\n  {\n    \"path\": \"Ideas/A.md\",\n    \"line\": \"1\",\n    \"status\": \" \",\n    \"text\": \"secret\"\n  }\n]\n";
        let task = |render| run("tasks", tasks, &Output::json(Some("path"), render));
        assert_eq!(
            task(Render::TaskGroups),
            ("Projects/B.md\n  L3: - [ ] one\n  L4: - [x] two\n\nProjects/C.md\n  L1: - [/] three\n".into(), 1)
        );
        assert_eq!(
            task(Render::TaskLines),
            ("- [ ] one\n- [x] two\n- [/] three\n".into(), 1)
        );
        assert_eq!(
            task(Render::TaskTable),
            (
                "Projects/B.md\t3\t \tone\nProjects/B.md\t4\tx\ttwo\nProjects/C.md\t1\t/\tthree\n"
                    .into(),
                1
            )
        );
        let (json, withheld) = task(Render::Json);
        assert!(
            json.starts_with("[\n  {") && json.ends_with("]\n") && !json.contains("secret"),
            "{json}"
        );
        assert_eq!(withheld, 1);
        let backlinks = r#"[{"file":"Projects/B.md","count":2},{"file":"Ideas/A.md","count":1}]"#;
        assert_eq!(
            run(
                "backlinks",
                backlinks,
                &Output::json(Some("file"), Render::BacklinkTable)
            ),
            ("Projects/B.md\t2".into(), 1)
        );
        // An item in the scope without what its form needs is withheld too.
        let odd = r#"[{"path":"Projects/B.md","line":"x","status":" ","text":"t"},{"path":"Projects/B.md","line":"2","status":"xx","text":"t"}]"#;
        assert_eq!(
            run("tasks", odd, &Output::json(Some("path"), Render::TaskLines)),
            (String::new(), 2)
        );
        // Output that is not the promised JSON list shows nothing.
        assert_eq!(
            run(
                "search",
                "Ideas/A.md secret",
                &Output::json(None, Render::SearchPaths)
            ),
            (String::new(), 1)
        );
    }

    #[test]
    fn a_tag_used_outside_the_scope_says_nothing_of_its_count() {
        let tag = |text: &str| run("tag", text, &Output::TagNotes);
        assert_eq!(
            tag("#x\t3\nIdeas/A.md\nIdeas/B.md\nIdeas/C.md\n"),
            ("#x\t0\n".into(), 3)
        );
        assert_eq!(
            tag("#x\t3\nIdeas/A.md\nProjects/B.md\nIdeas/C.md\n"),
            ("#x\t1\nProjects/B.md\n".into(), 2)
        );
        // Nothing withheld: the CLI's own line stays, its count as it was
        // (a tag written several times in one note).
        assert_eq!(
            tag("#x\t5\nProjects/A.md\nProjects/B.md\n"),
            ("#x\t5\nProjects/A.md\nProjects/B.md\n".into(), 0)
        );
        // A first line that is not a header is a path like the others.
        assert_eq!(
            tag("Ideas/A.md\nProjects/B.md\n"),
            ("Projects/B.md\n".into(), 1)
        );
        assert_eq!(
            tag("#x\tmany\nProjects/B.md\n"),
            ("Projects/B.md\n".into(), 1)
        );
    }

    #[test]
    fn every_line_shape_keeps_only_what_lies_inside() {
        let paths = run(
            "files",
            "Ideas/A.md\nProjects/B.md\nProjects2/C.md\nProjects\n",
            &Output::PATHS,
        );
        assert_eq!(paths, ("Projects/B.md\nProjects\n".into(), 2));
        // A bookmark's heading does not move it; a search or a web address has no path.
        let bookmarks = Output::Lines {
            path: LinePath::After(1),
            subpath: true,
        };
        assert_eq!(
            run("bookmarks", "file\tProjects/R.md#Q2\tQ2\nsearch\ttag:#x\n  url\thttps://x\n  file\tProjects/S.md\ngroup\tReading\n", &bookmarks),
            ("file\tProjects/R.md#Q2\tQ2\n  file\tProjects/S.md\n".into(), 3)
        );
        // A title with a tab: every split of it reads inside.
        assert_eq!(
            run("bookmarks", "file\tProjects/R.md\tA\tB\n", &bookmarks).1,
            0
        );
        let unresolved = Output::Lines {
            path: LinePath::Last,
            subpath: false,
        };
        assert_eq!(
            run(
                "unresolved",
                "Ghost\tProjects/A.md\nGhost\tIdeas/B.md\nno tab\nGh\tost\tProjects/C.md\n",
                &unresolved
            ),
            ("Ghost\tProjects/A.md\n".into(), 3)
        );
        // `links`: targets the note wrote stay unless they name a folder outside.
        assert_eq!(
            run("links", "Ideas/A.md\nMissing (unresolved)\nIdeas/Gone (unresolved)\nProjects/New (unresolved)\nProjects/B.md\nWelcome.md\n", &Output::Links),
            ("Missing (unresolved)\nProjects/New (unresolved)\nProjects/B.md\n".into(), 3)
        );
        // A random note from outside is withheld whole.
        assert_eq!(
            run(
                "random:read",
                "Ideas/A.md\n\nsecret text\n",
                &Output::FirstLinePath
            ),
            (String::new(), 1)
        );
        assert_eq!(
            run(
                "random:read",
                " Projects/A.md\n\nsecret\n",
                &Output::FirstLinePath
            ),
            (String::new(), 1)
        );
        let kept = run(
            "random:read",
            "Projects/A.md\n\nplan\n",
            &Output::FirstLinePath,
        );
        assert_eq!(kept, ("Projects/A.md\n\nplan\n".into(), 0));
    }

    #[test]
    fn only_a_command_s_own_empty_answer_passes_whole() {
        for (command, empty) in [
            ("search", "\nNo matches found.\n"),
            ("search:context", "\nNo matches found.\n"),
            ("tasks", "No tasks found."),
            ("bases", "No base files found in vault\n"),
            ("files", "No files found.\r\n"),
        ] {
            assert_eq!(
                run(command, empty, &Output::PATHS),
                (empty.to_string(), 0),
                "{command}"
            );
        }
        // A note whose name looks like one, or another command's answer,
        // or the answer with anything else around it, is filtered.
        for (command, text) in [
            ("files", "No keys found.md\n"),
            ("files", "No files found.md\n"),
            ("files", " No files found.\n"),
            ("files", "No tasks found.\n"),
            ("search", "No matches found. Ideas/A.md\n"),
            ("search:context", "No x found.md:1: secret\n"),
            ("tasks", "No tasks found.\nIdeas/A.md\n"),
        ] {
            assert!(!is_empty_answer(command, text), "{command}: {text:?}");
            assert_eq!(
                run(command, text, &Output::PATHS).0,
                "",
                "{command}: {text:?}"
            );
        }
        // Both the command and the text must match (`&&`, never `||`).
        assert!(is_empty_answer("tasks", "No tasks found."));
        assert!(!is_empty_answer("files", "No tasks found."));
        assert!(!is_empty_answer("tasks", "No files found."));
    }

    #[test]
    fn a_whole_vault_or_a_broken_list() {
        let whole = filter("files", "Ideas/A.md\n", &Output::PATHS, scope(&[]));
        assert_eq!((whole.text.as_str(), whole.withheld), ("Ideas/A.md\n", 0));
        let broken = [NO_FOLDER.to_string()];
        let none = filter(
            "files",
            "Ideas/A.md\nProjects/B.md\n",
            &Output::PATHS,
            scope(&broken),
        );
        assert_eq!((none.text.as_str(), none.withheld), ("", 2));
        // JSON that is no list: nothing of it shown, each line counted.
        let folders = [String::from("Projects")];
        let shape = Output::json(Some("path"), Render::Json);
        for (text, withheld) in [("Projects/A.md\n\nProjects/B.md\n", 2), ("{\"x\": 1}", 1)] {
            let out = filter("tasks", text, &shape, scope(&folders));
            assert_eq!(
                (out.text.as_str(), out.withheld),
                ("", withheld),
                "{text:?}"
            );
        }
    }
}
