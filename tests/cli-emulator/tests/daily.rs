//! daily:path, daily:read, daily:append, daily:prepend.

mod common;
use common::Emu;

const TODAY_NOTE: &str = "---\ndate: 2026-03-03\ntags:\n  - daily\n---\n# 2026-03-03\n\n## Tasks\n- [ ] Review PR #2181\n- [x] Update design doc\n\n## Notes\nMeeting with Alice about CLI integration...\n";

#[test]
fn path_and_read() {
    let emu = Emu::new();
    assert_eq!(emu.line(&["daily:path"]), "Daily/2026-03-03.md");
    assert_eq!(emu.ok(&["daily:read"]), TODAY_NOTE);
}

#[test]
fn path_for_a_day_without_note_and_format_tokens() {
    let emu = Emu::new().with("OBSIDIAN_EMULATOR_TODAY", "2026-04-10");
    assert_eq!(emu.line(&["daily:path"]), "Daily/2026-04-10.md");
    assert_eq!(emu.ok(&["daily:read"]), "");
    assert!(
        !emu.exists("Daily/2026-04-10.md"),
        "daily:path/read must not create"
    );
    emu.write(
        ".obsidian/daily-notes.json",
        r#"{"folder": "Journal/", "format": "YYYY/MM/dddd D MMMM"}"#,
    );
    assert_eq!(
        emu.line(&["daily:path"]),
        "Journal/2026/04/Friday 10 April.md"
    );
}

#[test]
fn read_creates_a_missing_note_from_1_13_on() {
    let emu = Emu::new()
        .with("OBSIDIAN_EMULATOR_TODAY", "2026-04-10")
        .with("OBSIDIAN_EMULATOR_VERSION", "1.13.7 (installer 1.13.7)");
    assert_eq!(emu.ok(&["daily:read"]), "", "prints nothing");
    assert!(
        emu.read("Daily/2026-04-10.md").contains("# 2026-04-10"),
        "created from the daily template"
    );
    assert!(emu.ok(&["daily:read"]).contains("# 2026-04-10"));
}

#[test]
fn the_other_dated_note_exists() {
    let emu = Emu::new().with("OBSIDIAN_EMULATOR_TODAY", "2026-11-29");
    assert!(emu
        .ok(&["daily:read"])
        .contains("Prepare the December retro"));
}

#[test]
fn append_adds_a_newline_before_unless_inline() {
    let emu = Emu::new();
    assert_eq!(emu.ok(&["daily:append", "content=- [ ] New task"]), "");
    assert_eq!(
        emu.read("Daily/2026-03-03.md"),
        format!("{TODAY_NOTE}\n- [ ] New task")
    );
    emu.ok(&["daily:append", "content= (later)", "inline"]);
    assert_eq!(
        emu.read("Daily/2026-03-03.md"),
        format!("{TODAY_NOTE}\n- [ ] New task (later)")
    );
}

#[test]
fn prepend_goes_after_frontmatter() {
    let emu = Emu::new();
    assert_eq!(emu.ok(&["daily:prepend", "content=## Morning"]), "");
    let text = emu.read("Daily/2026-03-03.md");
    assert!(
        text.starts_with(
            "---\ndate: 2026-03-03\ntags:\n  - daily\n---\n## Morning\n# 2026-03-03\n"
        ),
        "{text}"
    );
    emu.ok(&["daily:prepend", "content=>> ", "inline"]);
    assert!(emu
        .read("Daily/2026-03-03.md")
        .contains("---\n>> ## Morning\n"));
}

#[test]
fn prepend_without_frontmatter_goes_first() {
    let emu = Emu::new();
    emu.write("Daily/2026-03-03.md", "line one\n");
    emu.ok(&["daily:prepend", "content=zero"]);
    assert_eq!(emu.read("Daily/2026-03-03.md"), "zero\nline one\n");
}

#[test]
fn append_creates_the_note_from_the_template() {
    let emu = Emu::new().with("OBSIDIAN_EMULATOR_TODAY", "2026-04-10");
    emu.ok(&["daily:append", "content=- [ ] First"]);
    assert_eq!(
        emu.read("Daily/2026-04-10.md"),
        "---\ndate: 2026-04-10\ntags:\n  - daily\n---\n# 2026-04-10\n\n## Tasks\n\n## Notes\n\n- [ ] First"
    );
    assert_eq!(emu.line(&["tasks", "daily"]), "- [ ] First");
}

#[test]
fn prepend_creates_the_note_too() {
    let emu = Emu::new().with("OBSIDIAN_EMULATOR_TODAY", "2026-04-11");
    emu.ok(&["daily:prepend", "content=Top"]);
    assert!(emu
        .read("Daily/2026-04-11.md")
        .starts_with("---\ndate: 2026-04-11\ntags:\n  - daily\n---\nTop\n# 2026-04-11\n"));
}

#[test]
fn without_template_the_note_starts_empty() {
    let emu = Emu::new().with("OBSIDIAN_EMULATOR_TODAY", "2026-05-01");
    emu.write(".obsidian/daily-notes.json", r#"{"folder": "Daily"}"#);
    emu.ok(&["daily:append", "content=hello"]);
    assert_eq!(emu.read("Daily/2026-05-01.md"), "hello");
}

#[test]
fn content_is_required() {
    let emu = Emu::new();
    for cmd in ["daily:append", "daily:prepend"] {
        let out = emu.ok(&[cmd, "inline"]);
        let mut lines = out.lines();
        assert_eq!(
            lines.next(),
            Some("Error: Missing required parameter: content=<text>")
        );
        assert!(lines
            .next()
            .unwrap()
            .starts_with(&format!("Usage: {cmd} content=<text>")));
    }
    assert_eq!(emu.read("Daily/2026-03-03.md"), TODAY_NOTE);
}

#[test]
fn ui_only_parameters_are_ignored() {
    let emu = Emu::new();
    emu.ok(&[
        "daily:append",
        "content=x",
        "open",
        "paneType=tab",
        "silent",
    ]);
    assert!(emu.read("Daily/2026-03-03.md").ends_with("\nx"));
}
