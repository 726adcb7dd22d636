//! tasks and task.

mod common;
use common::Emu;

#[test]
fn default_scope_is_the_whole_vault() {
    let emu = Emu::new();
    let all = emu.lines(&["tasks"]);
    assert_eq!(all.len(), 23);
    assert_eq!(all, emu.lines(&["tasks", "all"]));
    assert_eq!(all[0], "- [x] Call Alice about the [[Launch plan]]");
    assert!(all.contains(&"- [?] Evaluate the plugin API".to_string()));
    // Tasks in code blocks do not count.
    assert!(!all.iter().any(|t| t.contains("not a task")));
    assert_eq!(emu.line(&["tasks", "total"]), "23");
}

#[test]
fn status_filters() {
    let emu = Emu::new();
    assert_eq!(emu.line(&["tasks", "todo", "total"]), "11");
    assert_eq!(emu.line(&["tasks", "done", "total"]), "12");
    assert_eq!(
        emu.line(&["tasks", "status=/"]),
        "- [/] Prepare demo #urgent"
    );
    assert_eq!(
        emu.lines(&["tasks", "status=-"]),
        ["- [-] Cancelled standup", "- [-] Print flyers"]
    );
    assert_eq!(
        emu.line(&["tasks", "status=?", "verbose"]),
        "Projects/Roadmap.md\n  L18: - [?] Evaluate the plugin API"
    );
    assert_eq!(emu.line(&["tasks", "status=!"]), "No tasks found.");
    assert_eq!(
        emu.line(&["tasks", "status=ab"]),
        "Error: Invalid status \"ab\". Use a single character."
    );
}

#[test]
fn file_path_daily_active() {
    let mut emu = Emu::new();
    assert_eq!(
        emu.lines(&["tasks", "file=Roadmap"]),
        [
            "- [x] Ship v1",
            "- [ ] Define Q2 milestones",
            "- [?] Evaluate the plugin API"
        ]
    );
    assert_eq!(
        emu.line(&["tasks", "path=Reading List.md", "done"]),
        "- [x] Read \"How to Take Smart Notes\""
    );
    assert_eq!(
        emu.lines(&["tasks", "daily"]),
        ["- [ ] Review PR #2181", "- [x] Update design doc"]
    );
    assert_eq!(
        emu.line(&["tasks", "daily", "todo"]),
        "- [ ] Review PR #2181"
    );
    assert_eq!(emu.line(&["tasks", "daily", "total"]), "2");
    assert_eq!(
        emu.line(&["tasks", "active"]),
        "Error: No active file. Use file=<name> or path=<path> to specify a file."
    );
    emu.set("OBSIDIAN_EMULATOR_ACTIVE_FILE", "Ideas/Café ☕.md");
    assert_eq!(
        emu.line(&["tasks", "active"]),
        "- [ ] Acheter du café en grains"
    );
    assert_eq!(
        emu.line(&["tasks", "file=Nope"]),
        "Error: File \"Nope\" not found."
    );
    assert_eq!(emu.line(&["tasks", "file=Welcome"]), "No tasks found.");
    emu.set("OBSIDIAN_EMULATOR_TODAY", "2026-06-01");
    assert_eq!(emu.line(&["tasks", "daily"]), "No tasks found.");
}

#[test]
fn verbose_groups_by_file_with_line_numbers() {
    let emu = Emu::new();
    let out = emu.line(&["tasks", "path=Projects/Launch plan.md", "verbose"]);
    assert_eq!(
        out,
        "Projects/Launch plan.md\n  L31: - [ ] Draft press release\n  L32: - [x] Book venue\n  L33: - [/] Prepare demo #urgent\n  L34: - [-] Print flyers\n  L35: - [ ] Review PR #2181 with [[Alice]]"
    );
    let out = emu.ok(&["tasks", "todo", "verbose"]);
    assert!(out.starts_with("Daily/2026-03-01.md\n  L10: - [ ] Water the plants\n\nDaily/2026-03-02.md\n  L9: - [ ] Review the [[Roadmap]]\n\n"), "{out}");
}

#[test]
fn json_tsv_csv() {
    let emu = Emu::new();
    let v: serde_json::Value =
        serde_json::from_str(&emu.ok(&["tasks", "daily", "format=json"])).unwrap();
    assert_eq!(
        v,
        serde_json::json!([
            {"path": "Daily/2026-03-03.md", "line": "9", "status": " ", "text": "Review PR #2181"},
            {"path": "Daily/2026-03-03.md", "line": "10", "status": "x", "text": "Update design doc"}
        ])
    );
    assert_eq!(
        emu.line(&["tasks", "daily", "format=tsv"]),
        "Daily/2026-03-03.md\t9\t \tReview PR #2181\nDaily/2026-03-03.md\t10\tx\tUpdate design doc"
    );
    assert_eq!(
        emu.line(&["tasks", "path=Reading List.md", "format=csv"]),
        "path,line,status,text\nReading List.md,7, ,\"Read \"\"Deep Work\"\"\"\nReading List.md,8,x,\"Read \"\"How to Take Smart Notes\"\"\""
    );
    // Empty results stay a plain message, even in JSON.
    assert_eq!(
        emu.line(&["tasks", "file=Welcome", "format=json"]),
        "No tasks found."
    );
    assert_eq!(
        emu.line(&["tasks", "format=xml"]),
        "Error: Invalid format \"xml\". Expected one of: text, json, tsv, csv."
    );
}

#[test]
fn task_shows_without_changing() {
    let emu = Emu::new();
    let before = emu.read("Projects/Launch plan.md");
    assert_eq!(
        emu.line(&["task", "ref=Projects/Launch plan.md:31"]),
        "Projects/Launch plan.md:31\n- [ ] Draft press release"
    );
    assert_eq!(
        emu.line(&["task", "file=Launch plan", "line=33"]),
        "Projects/Launch plan.md:33\n- [/] Prepare demo #urgent"
    );
    assert_eq!(emu.read("Projects/Launch plan.md"), before);
}

#[test]
fn task_toggle_done_todo_status_rewrite_one_line() {
    let emu = Emu::new();
    let before = emu.read("Projects/Launch plan.md");
    assert_eq!(
        emu.line(&["task", "ref=Projects/Launch plan.md:31", "toggle"]),
        "Projects/Launch plan.md:31\n- [x] Draft press release"
    );
    let after = emu.read("Projects/Launch plan.md");
    assert_eq!(
        after,
        before.replace("- [ ] Draft press release", "- [x] Draft press release")
    );
    emu.ok(&["task", "ref=Projects/Launch plan.md:31", "toggle"]);
    assert_eq!(emu.read("Projects/Launch plan.md"), before);
    // toggle of a custom status goes back to todo
    assert!(emu
        .ok(&["task", "path=Projects/Launch plan.md", "line=33", "toggle"])
        .ends_with("- [ ] Prepare demo #urgent\n"));
    assert!(emu
        .ok(&["task", "file=Launch plan", "line=34", "done"])
        .ends_with("- [x] Print flyers\n"));
    assert!(emu
        .ok(&["task", "file=Launch plan", "line=32", "todo"])
        .ends_with("- [ ] Book venue\n"));
    assert!(emu
        .ok(&["task", "file=Launch plan", "line=35", "status=-"])
        .ends_with("- [-] Review PR #2181 with [[Alice]]\n"));
    assert_eq!(
        emu.lines(&["tasks", "path=Projects/Launch plan.md"]),
        [
            "- [ ] Draft press release",
            "- [ ] Book venue",
            "- [ ] Prepare demo #urgent",
            "- [x] Print flyers",
            "- [-] Review PR #2181 with [[Alice]]"
        ]
    );
}

#[test]
fn task_in_daily_note() {
    let emu = Emu::new();
    assert_eq!(
        emu.line(&["task", "daily", "line=9", "done"]),
        "Daily/2026-03-03.md:9\n- [x] Review PR #2181"
    );
    assert!(emu
        .read("Daily/2026-03-03.md")
        .contains("- [x] Review PR #2181\n"));
}

#[test]
fn task_errors() {
    let mut emu = Emu::new();
    assert_eq!(
        emu.line(&["task", "ref=Projects/Launch plan.md:30", "done"]),
        "Error: Line 30 in \"Projects/Launch plan.md\" is not a task."
    );
    assert_eq!(
        emu.line(&["task", "ref=Projects/Launch plan.md:999"]),
        "Error: Line 999 in \"Projects/Launch plan.md\" is not a task."
    );
    // A checkbox inside a fenced code block is not a task.
    assert_eq!(
        emu.line(&["task", "ref=Archive/2025/2025 Retrospective.md:12", "done"]),
        "Error: Line 12 in \"Archive/2025/2025 Retrospective.md\" is not a task."
    );
    assert_eq!(
        emu.line(&["task", "ref=Nope.md:3"]),
        "Error: File \"Nope.md\" not found."
    );
    assert_eq!(
        emu.line(&["task", "ref=no-line-number"]),
        "Error: Invalid task reference \"no-line-number\". Expected <path>:<line>."
    );
    assert_eq!(
        emu.line(&["task", "file=Launch plan", "line=zero"]),
        "Error: Invalid line number \"zero\"."
    );
    assert!(emu
        .ok(&["task", "file=Launch plan"])
        .starts_with("Error: Missing required parameter: line=<n>\nUsage: task "));
    assert_eq!(
        emu.line(&["task", "line=3"]),
        "Error: No active file. Use file=<name> or path=<path> to specify a file."
    );
    emu.set("OBSIDIAN_EMULATOR_ACTIVE_FILE", "Reading List.md");
    assert_eq!(
        emu.line(&["task", "line=7"]),
        "Reading List.md:7\n- [ ] Read \"Deep Work\""
    );
}

#[test]
fn crlf_files_keep_their_line_endings() {
    let emu = Emu::new();
    emu.write("Windows.md", "# W\r\n- [ ] one\r\n- [ ] two\r\n");
    assert_eq!(
        emu.line(&["task", "ref=Windows.md:3", "done"]),
        "Windows.md:3\n- [x] two"
    );
    assert_eq!(emu.read("Windows.md"), "# W\r\n- [ ] one\r\n- [x] two\r\n");
}
