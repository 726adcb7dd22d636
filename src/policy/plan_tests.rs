//! Unit tests of `policy::plan`: the scope checks, the user's edits, Read only, which changes a plan covers.

use super::*;
use crate::policy::scope::{Output, Reach};

fn settings(read: &[&str], write: &[&str]) -> Settings {
    Settings {
        read_folders: read.iter().map(|f| f.to_string()).collect(),
        write_folders: write.iter().map(|f| f.to_string()).collect(),
        ..Settings::default()
    }
}

fn step(note: &str, action: PlanAction, what: &str) -> PlanStep {
    PlanStep {
        note: note.into(),
        action,
        what: what.into(),
        to: None,
    }
}

fn facts(places: Vec<Place>) -> CallFacts<'static> {
    CallFacts {
        tool: "obsidianEdit",
        command: "append",
        access: crate::base::call::Access::DirectWrite,
        write_target: Some("x".into()),
        reach: Reach {
            places,
            output: Output::NoNoteText,
        },
        parameters: Vec::new(),
        remembers: false,
    }
}

#[test]
fn a_plan_inside_both_scopes_is_kept_with_its_paths_normalised() {
    let s = settings(&["Projects", "Inbox"], &["Projects"]);
    let plan = check_plan(
        &[step(
            " Projects/Alpha.md ",
            PlanAction::Edit,
            "  add a status line ",
        )],
        &s,
        Os::Linux,
        ".obsidian",
    )
    .unwrap();
    assert_eq!(plan[0].note, "Projects/Alpha.md");
    assert_eq!(plan[0].what, "add a status line");
}

#[test]
fn a_step_outside_the_write_or_read_scope_refuses_the_whole_plan_with_the_step() {
    let s = settings(&["Projects", "Inbox"], &["Projects"]);
    let steps = [
        step("Projects/Alpha.md", PlanAction::Edit, "status"),
        step("Inbox/Todo.md", PlanAction::Append, "a task"),
    ];
    let why = check_plan(&steps, &s, Os::Linux, ".obsidian").unwrap_err();
    assert!(why.contains("step 2 names Inbox/Todo.md"), "{why}");
    assert!(why.contains("may change"), "{why}");
    let why = check_plan(
        &[step("Private/Diary.md", PlanAction::Edit, "x")],
        &settings(&["Projects"], &[]),
        Os::Linux,
        ".obsidian",
    )
    .unwrap_err();
    assert!(why.contains("may read"), "{why}");
}

#[test]
fn a_move_is_checked_where_it_goes_too() {
    let s = settings(&[], &["Projects"]);
    let mut moved = step("Projects/Alpha.md", PlanAction::Move, "archive it");
    let why = check_plan(&[moved.clone()], &s, Os::Linux, ".obsidian").unwrap_err();
    assert!(why.contains("give `to`"), "{why}");
    moved.to = Some("Archive/Alpha.md".into());
    let why = check_plan(&[moved], &s, Os::Linux, ".obsidian").unwrap_err();
    assert!(why.contains("Archive/Alpha.md"), "{why}");
}

#[test]
fn empty_long_vague_and_configuration_plans_are_refused() {
    let s = Settings::default();
    assert!(check_plan(&[], &s, Os::Linux, ".obsidian").is_err());
    let many: Vec<_> = (0..=MAX_STEPS)
        .map(|i| step(&format!("n{i}.md"), PlanAction::Create, "x"))
        .collect();
    assert!(check_plan(&many, &s, Os::Linux, ".obsidian")
        .unwrap_err()
        .contains("more than 20"));
    assert!(check_plan(
        &[step("a.md", PlanAction::Edit, " ")],
        &s,
        Os::Linux,
        ".obsidian"
    )
    .unwrap_err()
    .contains("fill in `what`"));
    assert!(check_plan(
        &[step(".obsidian/app.json", PlanAction::Edit, "x")],
        &s,
        Os::Linux,
        ".obsidian"
    )
    .unwrap_err()
    .contains("configuration folder"));
    assert!(check_plan(
        &[step("../up.md", PlanAction::Edit, "x")],
        &s,
        Os::Linux,
        ".obsidian"
    )
    .is_err());
}

#[test]
fn an_unknown_field_or_action_in_a_step_is_refused_by_its_parse() {
    let bad = serde_json::json!({"note": "a.md", "action": "overwrite", "what": "x"});
    assert!(serde_json::from_value::<PlanStep>(bad).is_err());
    let extra = serde_json::json!({"note": "a.md", "action": "edit", "what": "x", "run": true});
    assert!(serde_json::from_value::<PlanStep>(extra).is_err());
}

#[test]
fn the_user_may_remove_steps_and_change_their_text_but_not_add_any() {
    let proposed = [
        step("a.md", PlanAction::Edit, "one"),
        step("b.md", PlanAction::Edit, "two"),
    ];
    let kept = [KeptStep {
        index: 1,
        what: "two, shorter".into(),
    }];
    let plan = edited_plan(&proposed, &kept).unwrap();
    assert_eq!(plan, vec![step("b.md", PlanAction::Edit, "two, shorter")]);
    assert!(edited_plan(&proposed, &[]).is_err());
    let beyond = [KeptStep {
        index: 2,
        what: "x".into(),
    }];
    assert!(edited_plan(&proposed, &beyond)
        .unwrap_err()
        .contains("step 3"));
    let twice = [
        KeptStep {
            index: 0,
            what: "x".into(),
        },
        KeptStep {
            index: 0,
            what: "y".into(),
        },
    ];
    assert!(edited_plan(&proposed, &twice)
        .unwrap_err()
        .contains("twice"));
}

#[test]
fn only_read_only_refuses_an_approval() {
    assert!(approval_refusal(PermissionMode::ReadOnly).is_some());
    assert!(approval_refusal(PermissionMode::AskEveryChange).is_none());
    assert!(approval_refusal(PermissionMode::AskBeforeEdits).is_none());
}

#[test]
fn a_change_is_in_the_plan_only_when_every_note_it_touches_is_a_steps() {
    let mut moved = step("Projects/Beta.md", PlanAction::Move, "archive");
    moved.to = Some("Archive/Beta.md".into());
    let plan = [step("Projects/Alpha.md", PlanAction::Edit, "status"), moved];
    let path = |p: &str| Place::Note(NoteLocator::Path(p.into()));
    assert!(covers(
        &plan,
        &facts(vec![path("Projects/Alpha.md")]),
        Os::Linux
    ));
    assert!(!covers(
        &plan,
        &facts(vec![path("Projects/Gamma.md")]),
        Os::Linux
    ));
    assert!(covers(
        &plan,
        &facts(vec![Place::Note(NoteLocator::Name("Alpha".into()))]),
        Os::Linux
    ));
    assert!(!covers(
        &plan,
        &facts(vec![Place::Note(NoteLocator::Name("Gamma".into()))]),
        Os::Linux
    ));
    // The move into the step's folder is the step; one elsewhere is not.
    let into = |folder: &str| {
        facts(vec![
            path("Projects/Beta.md"),
            Place::NewNote(Some(folder.into())),
        ])
    };
    assert!(covers(&plan, &into("Archive/"), Os::Linux));
    assert!(!covers(&plan, &into("Trash/"), Os::Linux));
    // Two notes, one outside: not in the plan. Nothing placed: not either.
    assert!(!covers(
        &plan,
        &facts(vec![path("Projects/Alpha.md"), path("Projects/Gamma.md")]),
        Os::Linux
    ));
    assert!(!covers(&plan, &facts(vec![Place::OpenNote]), Os::Linux));
    assert!(!covers(
        &plan,
        &facts(vec![Place::NewNote(None)]),
        Os::Linux
    ));
    assert!(!covers(&plan, &facts(vec![]), Os::Linux));
    // Names compare as the file system does: without case on Windows.
    assert!(covers(
        &plan,
        &facts(vec![path("projects/alpha.md")]),
        Os::Windows
    ));
    assert!(!covers(
        &plan,
        &facts(vec![path("projects/alpha.md")]),
        Os::Linux
    ));
}
