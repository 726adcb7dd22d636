//! templates, template:read, bases, base:views, base:query, base:create.

mod common;
use common::Emu;

#[test]
fn templates_list() {
    let emu = Emu::new();
    assert_eq!(emu.lines(&["templates"]), ["Daily Note", "Meeting Notes"]);
    assert_eq!(emu.line(&["templates", "total"]), "2");
    emu.write(".obsidian/templates.json", r#"{"folder": "Nowhere"}"#);
    assert_eq!(emu.line(&["templates"]), "No templates found.");
    std::fs::remove_file(emu.vault.join(".obsidian/templates.json")).unwrap();
    for args in [
        &["templates"][..],
        &["templates", "total"],
        &["template:read", "name=Daily Note"],
    ] {
        assert_eq!(
            emu.line(args),
            "Error: No template folder configured.",
            "{args:?}"
        );
    }
}

#[test]
fn template_read_raw_and_resolved() {
    let emu = Emu::new();
    assert_eq!(
        emu.ok(&["template:read", "name=Meeting Notes"]),
        "---\ntype: meeting\ndate: {{date}}\n---\n# {{title}}\n\nStarted at {{time}}.\n\n## Attendees\n\n## Action items\n"
    );
    assert_eq!(
        emu.ok(&["template:read", "name=meeting notes", "resolve", "title=Standup"]),
        "---\ntype: meeting\ndate: 2026-03-03\n---\n# Standup\n\nStarted at 09:30.\n\n## Attendees\n\n## Action items\n"
    );
    // Without title= the {{title}} placeholder stays.
    assert!(emu
        .ok(&["template:read", "name=Daily Note", "resolve"])
        .contains("# {{title}}\n"));
    emu.write(
        ".obsidian/templates.json",
        r#"{"folder": "Templates", "dateFormat": "DD.MM.YYYY", "timeFormat": "h:mm A"}"#,
    );
    emu.write(
        "Templates/Custom.md",
        "{{date}} {{time}} {{date:YYYY}} {{unknown}}",
    );
    assert_eq!(
        emu.line(&["template:read", "name=Custom", "resolve"]),
        "03.03.2026 9:30 AM 2026 {{unknown}}"
    );
    assert_eq!(
        emu.line(&["template:read", "name=Nope"]),
        "Error: Template \"Nope\" not found."
    );
    assert!(emu
        .ok(&["template:read"])
        .starts_with("Error: Missing required parameter: name=<template>\n"));
}

#[test]
fn bases_and_views() {
    let mut emu = Emu::new();
    assert_eq!(emu.line(&["bases"]), "Databases/Projects.base");
    assert_eq!(emu.line(&["bases", "total"]), "1");
    // `<name>\t<type>` per view.
    let views = ["All Projects\ttable", "Active\ttable", "Board\tcards"];
    assert_eq!(emu.lines(&["base:views", "file=Projects"]), views);
    assert_eq!(
        emu.lines(&["base:views", "path=Databases/Projects.base"]),
        views
    );
    let out = emu.output(&["base:views", "file=Nope"]);
    assert_eq!(out.status.code(), Some(1), "a missing base exits 1");
    assert_eq!(out.stdout, b"Error: Base file not found: Nope\n");
    assert_eq!(
        emu.line(&["base:views"]),
        "Error: No active file. Use file=<name> or path=<path> to specify a file."
    );
    emu.set("OBSIDIAN_EMULATOR_ACTIVE_FILE", "Welcome.md");
    assert_eq!(
        emu.line(&["base:views"]),
        "Error: Active file is not a base file: Welcome.md"
    );
    emu.set("OBSIDIAN_EMULATOR_ACTIVE_FILE", "Databases/Projects.base");
    assert_eq!(emu.lines(&["base:views"]), views);
    std::fs::remove_file(emu.vault.join("Databases/Projects.base")).unwrap();
    assert_eq!(emu.line(&["bases"]), "No base files found in vault");
}

#[test]
fn query_default_view_json() {
    let emu = Emu::new();
    let v: serde_json::Value =
        serde_json::from_str(&emu.ok(&["base:query", "file=Projects"])).unwrap();
    assert_eq!(
        v,
        serde_json::json!([
            {"path": "Projects/Roadmap.md", "file.name": "Roadmap.md", "status": "planning", "owner": "Bob", "priority": 1},
            {"path": "Projects/Launch plan.md", "file.name": "Launch plan.md", "status": "active", "owner": "Alice", "priority": 2},
            {"path": "Projects/Website Redesign.md", "file.name": "Website Redesign.md", "status": "done", "owner": "Carol", "priority": 3}
        ])
    );
    assert_eq!(emu.line(&["base:query", "file=Projects", "total"]), "3");
}

#[test]
fn query_formats_and_views() {
    let emu = Emu::new();
    assert_eq!(
        emu.line(&[
            "base:query",
            "path=Databases/Projects.base",
            "view=Active",
            "format=csv"
        ]),
        "file.name,Owner,due\nLaunch plan.md,Alice,2026-03-15"
    );
    assert_eq!(
        emu.line(&["base:query", "file=Projects", "view=Board", "format=tsv"]),
        "file.name\tStatus\nLaunch plan.md\tactive\nRoadmap.md\tplanning\nWebsite Redesign.md\tdone"
    );
    assert_eq!(
        emu.line(&["base:query", "file=Projects", "format=md"]),
        "| file.name | Status | Owner | priority |\n| --- | --- | --- | --- |\n| Roadmap.md | planning | Bob | 1 |\n| Launch plan.md | active | Alice | 2 |\n| Website Redesign.md | done | Carol | 3 |"
    );
    assert_eq!(
        emu.lines(&["base:query", "file=Projects", "format=paths"]),
        [
            "Projects/Roadmap.md",
            "Projects/Launch plan.md",
            "Projects/Website Redesign.md"
        ]
    );
    assert_eq!(
        emu.line(&["base:query", "file=Projects", "view=Nope"]),
        "Error: View not found: Nope"
    );
    let out = emu.output(&["base:query", "path=Databases/Nope.base"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        out.stdout,
        b"Error: Base file not found: Databases/Nope.base\n"
    );
    assert!(emu
        .line(&["base:query", "file=Projects", "format=xml"])
        .starts_with("Error: Invalid format \"xml\""));
}

#[test]
fn query_follows_property_changes_and_reports_empty() {
    let emu = Emu::new();
    emu.ok(&[
        "property:set",
        "name=status",
        "value=paused",
        "file=Launch plan",
    ]);
    assert_eq!(
        emu.line(&["base:query", "file=Projects", "view=Active"]),
        "[]"
    );
    assert_eq!(
        emu.ok(&["base:query", "file=Projects", "view=Active", "format=paths"]),
        ""
    );
    assert_eq!(
        emu.line(&["base:query", "file=Projects", "view=Active", "total"]),
        "0"
    );
}

#[test]
fn more_filter_shapes() {
    let emu = Emu::new();
    emu.write(
        "Databases/Mixed.base",
        "filters:\n  or:\n    - file.hasTag(\"meeting\")\n    - 'priority >= 3 && !reviewed'\n    - file.inFolder(\"People\") && role == \"Engineer\"\n  not:\n    - file.inFolder(\"Templates\")\nviews:\n  - type: table\n    name: Everything\n    order: [file.basename, file.folder]\n    sort:\n      - property: file.basename\n        direction: DESC\n",
    );
    assert_eq!(
        emu.line(&["base:query", "file=Mixed", "format=csv"]),
        "file.basename,file.folder\nWebsite Redesign,Projects\nBob,People\n2026-03-02 Kickoff,Meetings"
    );
    emu.write(
        "Databases/Broken.base",
        // `today()` is supported now (tests/bases_functions.rs); a regular
        // expression literal still is not.
        "filters: '/x/.matches(file.name)'\nviews:\n  - type: table\n    name: X\n",
    );
    assert!(emu
        .line(&["base:query", "file=Broken"])
        .starts_with("Error: Unsupported base filter:"));
}

#[test]
fn create_matches_the_view() {
    let emu = Emu::new();
    assert_eq!(
        emu.line(&[
            "base:create",
            "file=Projects",
            "view=Active",
            "name=New Feature",
            r"content=Body\n"
        ]),
        "Created: New Feature.md",
        "the file name only"
    );
    assert_eq!(
        emu.read("Projects/New Feature.md"),
        "---\nstatus: active\ntags:\n  - project\n---\nBody\n"
    );
    assert!(emu
        .lines(&["base:query", "file=Projects", "view=Active", "format=paths"])
        .contains(&"Projects/New Feature.md".to_string()));
    // A taken name is numbered, not refused.
    assert_eq!(
        emu.line(&[
            "base:create",
            "file=Projects",
            "view=Active",
            "name=New Feature"
        ]),
        "Created: New Feature 1.md"
    );
    assert!(emu.exists("Projects/New Feature 1.md"));
    // An unknown view is not an error; a missing base is, with exit 1.
    assert_eq!(
        emu.line(&["base:create", "file=Projects", "view=Nope", "name=Other"]),
        "Created: Other.md"
    );
    let out = emu.output(&["base:create", "path=nonexistent.base", "name=x"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        out.stdout,
        b"Error: Base file not found: nonexistent.base\n"
    );
    assert!(!emu.exists("x.md"));
}

#[test]
fn create_default_name_and_guards() {
    let emu = Emu::new();
    assert_eq!(
        emu.line(&[
            "base:create",
            "path=Databases/Projects.base",
            "open",
            "newtab"
        ]),
        "Created: Untitled.md"
    );
    assert_eq!(
        emu.line(&["base:create", "file=Projects"]),
        "Created: Untitled 1.md"
    );
    assert_eq!(
        emu.read("Projects/Untitled.md"),
        "---\ntags:\n  - project\n---\n"
    );
    for bad in ["../escape", "a/b", ".hidden"] {
        assert_eq!(
            emu.line(&["base:create", "file=Projects", &format!("name={bad}")]),
            format!("Error: Invalid file name \"{bad}\".")
        );
    }
    assert!(!emu.tmp.path().join("escape.md").exists());
}
