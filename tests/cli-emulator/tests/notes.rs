//! create, append, prepend.

mod common;
use common::Emu;

#[test]
fn create_by_path_name_or_neither() {
    let emu = Emu::new();
    assert_eq!(
        emu.line(&["create", "path=Inbox/first.md", r"content=a\nb"]),
        "Created: Inbox/first.md"
    );
    assert_eq!(emu.read("Inbox/first.md"), "a\nb", "content as given");
    assert_eq!(
        emu.line(&["create", "path=Inbox/second"]),
        "Created: Inbox/second.md"
    );
    assert_eq!(emu.read("Inbox/second.md"), "");
    // name= lands at the vault root, whatever the active file.
    let emu = emu.with("OBSIDIAN_EMULATOR_ACTIVE_FILE", "People/Bob.md");
    assert_eq!(
        emu.line(&["create", "name=Scratch", "content=x"]),
        "Created: Scratch.md"
    );
    assert_eq!(emu.line(&["create", "content=y"]), "Created: Untitled.md");
    assert_eq!(emu.line(&["create"]), "Created: Untitled 1.md");
    assert_eq!(emu.read("Untitled.md"), "y");
    assert!(emu.read("People/Bob.md").starts_with("---\nrole: Engineer"));
}

#[test]
fn create_never_replaces_without_overwrite() {
    let emu = Emu::new();
    assert_eq!(
        emu.line(&["create", "path=Welcome.md", "content=new"]),
        "Created: Welcome 1.md"
    );
    assert!(emu.read("Welcome.md").starts_with("# Welcome"));
    assert_eq!(emu.read("Welcome 1.md"), "new");
    assert_eq!(
        emu.line(&["create", "path=Welcome.md", "content=newer"]),
        "Created: Welcome 2.md"
    );
    assert_eq!(
        emu.line(&["create", "path=Welcome.md", "content=replaced", "overwrite"]),
        "Overwrote: Welcome.md"
    );
    assert_eq!(emu.read("Welcome.md"), "replaced");
    // overwrite on a new name simply creates it.
    assert_eq!(
        emu.line(&["create", "path=Fresh.md", "overwrite"]),
        "Created: Fresh.md"
    );
}

#[test]
fn create_from_a_template() {
    let emu = Emu::new();
    assert_eq!(
        emu.line(&[
            "create",
            "path=Meetings/Standup.md",
            "template=Meeting Notes",
            "content=- notes"
        ]),
        "Created: Meetings/Standup.md"
    );
    assert_eq!(
        emu.read("Meetings/Standup.md"),
        "---\ntype: meeting\ndate: 2026-03-03\n---\n# Standup\n\nStarted at 09:30.\n\n## Attendees\n\n## Action items\n- notes"
    );
    assert_eq!(
        emu.line(&["create", "path=X.md", "template=Nope"]),
        "Error: Template \"Nope\" not found."
    );
    std::fs::remove_file(emu.vault.join(".obsidian/templates.json")).unwrap();
    assert_eq!(
        emu.line(&["create", "path=X.md", "template=Meeting Notes"]),
        "Error: No template folder configured."
    );
    assert!(!emu.exists("X.md"));
}

#[test]
fn create_stays_in_the_vault() {
    let emu = Emu::new();
    for bad in ["../escape.md", "/etc/x.md", "a/../../b.md"] {
        assert!(emu
            .line(&["create", &format!("path={bad}")])
            .starts_with("Error: "));
    }
    assert!(emu.line(&["create", "name=a/b"]).starts_with("Error: "));
    assert!(!emu.tmp.path().join("escape.md").exists());
}

#[test]
fn append_and_prepend() {
    let emu = Emu::new();
    emu.line(&[
        "create",
        "path=Scratch/created.md",
        "content=created by spike",
    ]);
    assert_eq!(
        emu.line(&["append", "path=Scratch/created.md", "content=appended line"]),
        "Appended to: Scratch/created.md"
    );
    assert_eq!(
        emu.line(&["prepend", "file=created", "content=prepended line"]),
        "Prepended to: Scratch/created.md"
    );
    assert_eq!(
        emu.ok(&["read", "path=Scratch/created.md"]),
        "prepended line\ncreated by spike\nappended line\n"
    );
    emu.ok(&["append", "file=created", "content=!", "inline"]);
    emu.ok(&["prepend", "file=created", "content=>> ", "inline"]);
    assert_eq!(
        emu.read("Scratch/created.md"),
        ">> prepended line\ncreated by spike\nappended line!"
    );
}

#[test]
fn prepend_goes_after_frontmatter() {
    let emu = Emu::new();
    emu.ok(&["prepend", "file=Bob", "content=Top"]);
    assert_eq!(
        emu.read("People/Bob.md"),
        "---\nrole: Engineer\n---\nTop\n# Bob\n\nWorks with [[Alice]] on the roadmap.\n"
    );
}

#[test]
fn append_errors() {
    let mut emu = Emu::new();
    assert_eq!(
        emu.line(&["append", "file=Nope", "content=x"]),
        "Error: File \"Nope\" not found."
    );
    assert_eq!(
        emu.ok(&["prepend", "file=Bob"]),
        "Error: Missing required parameter: content=<text>\nUsage: prepend [file=<name>] [path=<path>] content=<text> [inline]\n"
    );
    assert_eq!(
        emu.line(&["append", "content=x"]),
        "Error: No active file. Use file=<name> or path=<path> to specify a file."
    );
    emu.set("OBSIDIAN_EMULATOR_ACTIVE_FILE", "People/Bob.md");
    assert_eq!(
        emu.line(&["append", "content=x"]),
        "Appended to: People/Bob.md"
    );
}
