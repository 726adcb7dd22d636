//! Guards on the committed sample vault: the files the other tests rely on,
//! and proof that no test wrote into it.

mod common;

fn committed_files() -> Vec<String> {
    fn walk(dir: &std::path::Path, rel: &str, out: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            let r = if rel.is_empty() {
                name.clone()
            } else {
                format!("{rel}/{name}")
            };
            if e.file_type().unwrap().is_dir() {
                walk(&e.path(), &r, out);
            } else {
                out.push(r);
            }
        }
    }
    let mut out = Vec::new();
    walk(&common::sample_vault(), "", &mut out);
    out.sort();
    out
}

#[test]
fn committed_sample_vault_is_exactly_as_expected() {
    let expected = [
        ".obsidian/app.json",
        ".obsidian/bookmarks.json",
        ".obsidian/daily-notes.json",
        ".obsidian/templates.json",
        "Archive/2025/2025 Retrospective.md",
        "Attachments/diagram.png",
        "Canvas/Plan.canvas",
        "Daily/2026-03-01.md",
        "Daily/2026-03-02.md",
        "Daily/2026-03-03.md",
        "Daily/2026-11-29.md",
        "Databases/Projects.base",
        "Ideas/Brainstorm.md",
        "Ideas/Café ☕.md",
        "Ideas/Unlinked thought.md",
        "Meetings/2026-03-02 Kickoff.md",
        "People/Alice.md",
        "People/Bob.md",
        "Projects/Launch plan.md",
        "Projects/Roadmap.md",
        "Projects/Website Redesign.md",
        "Reading List.md",
        "Templates/Daily Note.md",
        "Templates/Meeting Notes.md",
        "Welcome.md",
    ];
    assert_eq!(committed_files(), expected);
}

#[test]
fn committed_notes_are_pristine() {
    let v = common::sample_vault();
    let read = |p: &str| std::fs::read_to_string(v.join(p)).unwrap();
    assert!(read("Projects/Launch plan.md").contains("status: active\n"));
    assert!(read("Projects/Launch plan.md").contains("- [ ] Draft press release\n"));
    assert!(read("Daily/2026-03-03.md").ends_with("Meeting with Alice about CLI integration...\n"));
    assert!(read("People/Bob.md").starts_with("---\nrole: Engineer\n---\n"));
    let bookmarks: serde_json::Value =
        serde_json::from_str(&read(".obsidian/bookmarks.json")).unwrap();
    assert_eq!(bookmarks["items"].as_array().unwrap().len(), 5);
}
