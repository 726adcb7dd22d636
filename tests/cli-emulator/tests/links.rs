//! links, backlinks, orphans, deadends, unresolved.

mod common;
use common::Emu;

#[test]
fn outgoing_links() {
    let mut emu = Emu::new();
    // Sorted, unresolved targets marked, format= ignored.
    let launch = [
        "Attachments/diagram.png",
        "Nonexistent Note (unresolved)",
        "Old Project Reference (unresolved)",
        "People/Alice.md",
        "Projects/Roadmap.md",
    ];
    assert_eq!(emu.lines(&["links", "file=Launch plan"]), launch);
    assert_eq!(
        emu.lines(&["links", "file=Launch plan", "format=json"]),
        launch
    );
    assert_eq!(emu.line(&["links", "file=Welcome", "total"]), "6");
    // Markdown links count, external URLs do not.
    assert_eq!(
        emu.line(&["links", "path=Reading List.md"]),
        "Projects/Roadmap.md"
    );
    // Frontmatter links count.
    assert_eq!(
        emu.line(&["links", "file=Roadmap"]),
        "Nonexistent Note (unresolved)\nProjects/Launch plan.md"
    );
    assert_eq!(
        emu.line(&["links", "file=Unlinked thought"]),
        "No links found."
    );
    emu.set("OBSIDIAN_EMULATOR_ACTIVE_FILE", "People/Bob.md");
    assert_eq!(emu.line(&["links"]), "People/Alice.md");
}

#[test]
fn backlinks_formats() {
    let emu = Emu::new();
    assert_eq!(
        emu.lines(&["backlinks", "file=Launch plan"]),
        [
            "Daily/2026-03-01.md",
            "Meetings/2026-03-02 Kickoff.md",
            "Projects/Roadmap.md",
            "Welcome.md"
        ]
    );
    assert_eq!(
        emu.lines(&["backlinks", "file=Launch plan", "counts"]),
        [
            "Daily/2026-03-01.md\t1",
            "Meetings/2026-03-02 Kickoff.md\t1",
            "Projects/Roadmap.md\t2",
            "Welcome.md\t1"
        ]
    );
    assert_eq!(emu.line(&["backlinks", "file=Launch plan", "total"]), "4");
    let v: serde_json::Value =
        serde_json::from_str(&emu.ok(&["backlinks", "file=Alice", "format=json"])).unwrap();
    assert_eq!(
        v,
        serde_json::json!([
            {"file": "Meetings/2026-03-02 Kickoff.md"},
            {"file": "People/Bob.md"},
            {"file": "Projects/Launch plan.md"},
            {"file": "Welcome.md"}
        ])
    );
    assert_eq!(
        emu.line(&["backlinks", "file=Bob", "format=csv", "counts"]),
        "file,count\nMeetings/2026-03-02 Kickoff.md,2\nWelcome.md,1"
    );
    assert_eq!(
        emu.line(&["backlinks", "file=Unlinked thought"]),
        "No backlinks found."
    );
    assert_eq!(
        emu.line(&["backlinks", "path=Attachments/diagram.png"]),
        "Projects/Launch plan.md"
    );
}

#[test]
fn orphans() {
    let emu = Emu::new();
    // Files of every type, as the real CLI lists them; `all` changes nothing
    // and `format=json` is ignored.
    let expected = [
        "Archive/2025/2025 Retrospective.md",
        "Canvas/Plan.canvas",
        "Daily/2026-03-01.md",
        "Daily/2026-03-02.md",
        "Daily/2026-03-03.md",
        "Daily/2026-11-29.md",
        "Databases/Projects.base",
        "Ideas/Brainstorm.md",
        "Ideas/Unlinked thought.md",
        "Templates/Daily Note.md",
        "Templates/Meeting Notes.md",
    ];
    assert_eq!(emu.lines(&["orphans"]), expected);
    assert_eq!(emu.lines(&["orphans", "all"]), expected);
    assert_eq!(emu.lines(&["orphans", "format=json"]), expected);
    // Embedded with ![[diagram.png]], so not an orphan.
    assert!(!expected.contains(&"Attachments/diagram.png"));
    assert_eq!(emu.line(&["orphans", "total"]), "11");
    assert_eq!(emu.line(&["orphans", "all", "total"]), "11");
}

#[test]
fn deadends() {
    let emu = Emu::new();
    // Non-markdown files have no outgoing links, so they are dead ends.
    let expected = [
        "Archive/2025/2025 Retrospective.md",
        "Attachments/diagram.png",
        "Canvas/Plan.canvas",
        "Daily/2026-03-03.md",
        "Daily/2026-11-29.md",
        "Databases/Projects.base",
        "Ideas/Unlinked thought.md",
        "People/Alice.md",
        "Templates/Daily Note.md",
        "Templates/Meeting Notes.md",
    ];
    assert_eq!(emu.lines(&["deadends"]), expected);
    assert_eq!(emu.lines(&["deadends", "format=json"]), expected);
    assert_eq!(emu.line(&["deadends", "total"]), "10");
    assert_eq!(emu.line(&["deadends", "all", "total"]), "10");
}

#[test]
fn empty_orphans_message() {
    let emu = Emu::new();
    let tmp = tempfile::tempdir().unwrap();
    let v = tmp.path().join("Tiny");
    std::fs::create_dir_all(v.join(".obsidian")).unwrap();
    std::fs::write(v.join("A.md"), "[[B]]").unwrap();
    std::fs::write(v.join("B.md"), "[[A]]").unwrap();
    let emu = emu.with("OBSIDIAN_EMULATOR_VAULT", v.to_str().unwrap());
    assert_eq!(emu.line(&["orphans"]), "No orphans found.");
    assert_eq!(emu.line(&["deadends"]), "No dead-ends found.");
    assert_eq!(emu.line(&["unresolved"]), "No unresolved links found.");
    assert_eq!(emu.line(&["unresolved", "total"]), "0");
}

#[test]
fn unresolved_formats() {
    let emu = Emu::new();
    assert_eq!(
        emu.lines(&["unresolved"]),
        ["Nonexistent Note", "Old Project Reference"]
    );
    assert_eq!(emu.line(&["unresolved", "total"]), "2");
    assert_eq!(
        emu.lines(&["unresolved", "counts"]),
        ["Nonexistent Note\t4", "Old Project Reference\t1"]
    );
    assert_eq!(
        emu.lines(&["unresolved", "verbose"]),
        [
            "Nonexistent Note\tIdeas/Brainstorm.md",
            "Nonexistent Note\tProjects/Launch plan.md",
            "Nonexistent Note\tProjects/Roadmap.md",
            "Nonexistent Note\tWelcome.md",
            "Old Project Reference\tProjects/Launch plan.md"
        ]
    );
    let v: serde_json::Value =
        serde_json::from_str(&emu.ok(&["unresolved", "counts", "verbose", "format=json"])).unwrap();
    assert_eq!(
        v[1],
        serde_json::json!({"link": "Old Project Reference", "count": 1, "sources": "Projects/Launch plan.md"})
    );
    assert_eq!(
        v[0]["sources"],
        "Ideas/Brainstorm.md, Projects/Launch plan.md, Projects/Roadmap.md, Welcome.md"
    );
    assert_eq!(
        emu.line(&["unresolved", "format=csv", "counts"]),
        "link,count\nNonexistent Note,4\nOld Project Reference,1"
    );
}

#[test]
fn links_follow_vault_changes() {
    let emu = Emu::new();
    emu.write("Nonexistent Note.md", "now it exists\n");
    assert_eq!(emu.lines(&["unresolved"]), ["Old Project Reference"]);
    assert_eq!(
        emu.line(&["backlinks", "file=Nonexistent Note", "total"]),
        "4"
    );
}

#[test]
fn self_links_do_not_count_as_incoming() {
    let emu = Emu::new();
    emu.write("Loop.md", "# Loop\nSee [[Loop]] and [[#Loop]].\n");
    assert!(emu.lines(&["orphans"]).contains(&"Loop.md".to_string()));
    assert_eq!(emu.line(&["backlinks", "file=Loop"]), "No backlinks found.");
    assert_eq!(emu.line(&["links", "file=Loop"]), "Loop.md");
}
