//! The read cache through the core: the rule table covers every read
//! command, a repeated read runs the CLI once, and every change (the
//! agent's own writes, a vault event, new settings, an undo) and the age
//! limit make the next read ask the CLI again. A property test interleaves
//! reads, the agent's writes, outside changes and time, and compares every
//! answer with the vault as it is.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use proptest::prelude::*;
use serde_json::{json, Value};
use vault_agent::base::call::Access;
use vault_agent::base::host::{Os, ProcessOutcome};
use vault_agent::cli::cache::{rule, CacheRule};
use vault_agent::testing::{block_on, FakeHost};
use vault_agent::VaultAgent;

type Notes = Rc<RefCell<BTreeMap<String, String>>>;

fn value<'a>(args: &'a [String], key: &str) -> Option<&'a str> {
    args.iter()
        .find_map(|a| a.strip_prefix(key)?.strip_prefix('='))
}

/// A CLI over `notes`: `read`, `files`, `create`, `tasks` (every `- [ ]`
/// line), `daily:read` and a `read` of the open note.
fn core(settings: Value) -> (VaultAgent<FakeHost>, Notes) {
    let notes: Notes = Rc::new(RefCell::new(BTreeMap::from([
        ("A.md".to_string(), "alpha\n- [ ] one".to_string()),
        ("B.md".to_string(), "beta".to_string()),
    ])));
    let vault = notes.clone();
    let mut host = FakeHost::new(Os::Linux, move |request| {
        let args = &request.args;
        let mut notes = vault.borrow_mut();
        let out = match args[0].as_str() {
            "read" => match value(args, "path") {
                Some(path) => notes
                    .get(path)
                    .cloned()
                    .unwrap_or_else(|| format!("Error: File \"{path}\" not found.")),
                None => notes["A.md"].clone(),
            },
            "files" => notes.keys().cloned().collect::<Vec<_>>().join("\n"),
            "file" => match value(args, "path") {
                Some(path) if notes.contains_key(path) => format!("path\t{path}"),
                other => format!("Error: File \"{}\" not found.", other.unwrap_or_default()),
            },
            "tasks" => notes
                .values()
                .flat_map(|text| {
                    text.lines()
                        .filter(|l| l.starts_with("- [ ]"))
                        .map(str::to_string)
                })
                .collect::<Vec<_>>()
                .join("\n"),
            "create" => {
                let path = value(args, "path").unwrap_or_default().to_string();
                let content = value(args, "content")
                    .unwrap_or_default()
                    .replace("\\n", "\n");
                notes.insert(path.clone(), content);
                format!("Created: {path}")
            }
            "daily:read" => "today".into(),
            _ => "ok".into(),
        };
        ProcessOutcome::success(&out)
    });
    host.env.insert("PATH".into(), "/usr/bin".into());
    host.add_executable("/usr/bin/obsidian");
    let (core, _) = VaultAgent::new(host, &settings);
    (core, notes)
}

fn runs(core: &VaultAgent<FakeHost>) -> usize {
    core.host().requests.borrow().len()
}

fn read(core: &VaultAgent<FakeHost>, path: &str) -> String {
    let result =
        block_on(core.call_tool("obsidianNotes", &json!({"command": "read", "path": path})));
    assert!(result.ok, "{}", result.text);
    result.text
}

#[test]
fn every_read_command_has_a_rule() {
    let (core, _) = core(json!({}));
    for tool in core.list_tools() {
        for command in tool
            .command_details
            .iter()
            .filter(|c| c.access == Access::Read)
        {
            assert!(
                rule(command.name).is_some(),
                "{}: `{}` is not in the read cache's table (src/cli/cache.rs); say whether its output depends only on the vault",
                tool.id,
                command.name
            );
        }
    }
    // Writes are never looked up.
    assert_eq!(rule("create"), None);
    assert_eq!(rule("read"), Some(CacheRule::VaultContent));
    assert!(matches!(rule("random:read"), Some(CacheRule::Never(_))));
}

#[test]
fn a_repeated_read_runs_the_cli_once() {
    let (core, _) = core(json!({}));
    assert_eq!(read(&core, "A.md"), "alpha\n- [ ] one");
    let after_first = runs(&core);
    assert_eq!(read(&core, "A.md"), "alpha\n- [ ] one");
    assert_eq!(
        runs(&core),
        after_first,
        "the second read came from the cache"
    );
    read(&core, "B.md");
    assert_eq!(runs(&core), after_first + 1, "another argv is another read");
    assert_eq!(core.read_cache_stats().1, 1);
}

#[test]
fn what_depends_on_more_than_the_vault_always_runs() {
    let (core, _) = core(json!({}));
    for args in [
        json!({"command": "read"}), // the open note
        json!({"command": "daily:read"}),
    ] {
        let tool = if args["command"] == "daily:read" {
            "obsidianDailyNote"
        } else {
            "obsidianNotes"
        };
        block_on(core.call_tool(tool, &args));
        let before = runs(&core);
        block_on(core.call_tool(tool, &args));
        assert!(runs(&core) > before, "{args} ran again");
    }
    // Switched off.
    let (off, _) = self::core(json!({"readCacheSeconds": 0}));
    read(&off, "A.md");
    let before = runs(&off);
    read(&off, "A.md");
    assert_eq!(runs(&off), before + 1);
}

#[test]
fn every_change_and_the_age_limit_make_the_next_read_run() {
    let (core, notes) = core(json!({"permissionMode": "askBeforeEdits"}));
    let files = |core: &VaultAgent<FakeHost>| {
        block_on(core.call_tool("obsidianNotes", &json!({"command": "files"})))
            .text
            .trim_end()
            .to_string()
    };
    assert_eq!(files(&core), "A.md\nB.md");
    // The agent's own write.
    let created = block_on(core.call_tool(
        "obsidianEdit",
        &json!({"command": "create", "path": "C.md", "content": "gamma"}),
    ));
    assert!(created.ok, "{}", created.text);
    assert_eq!(files(&core), "A.md\nB.md\nC.md");
    // A change outside the agent, reported by Obsidian (the shim forwards the event).
    read(&core, "B.md");
    notes
        .borrow_mut()
        .insert("B.md".into(), "beta, edited by hand".into());
    core.forget_reads();
    assert_eq!(read(&core, "B.md"), "beta, edited by hand");
    // New settings.
    read(&core, "B.md");
    let before = runs(&core);
    core.set_settings(&json!({"permissionMode": "askBeforeEdits", "readCacheSeconds": 30}));
    read(&core, "B.md");
    assert_eq!(runs(&core), before + 1);
    // The age limit (30 s now).
    let before = runs(&core);
    core.host().advance_ms(29_000.0);
    read(&core, "B.md");
    assert_eq!(runs(&core), before, "young enough");
    core.host().advance_ms(2_000.0);
    read(&core, "B.md");
    assert_eq!(runs(&core), before + 1, "too old");
}

#[derive(Clone, Debug)]
enum Step {
    Read(usize),
    Tasks,
    Files,
    Create(usize),
    Outside(usize, String),
    Wait(u32),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        (0..4usize).prop_map(Step::Read),
        Just(Step::Tasks),
        Just(Step::Files),
        (0..4usize).prop_map(Step::Create),
        (0..4usize, "[a-z ]{0,8}(\n- \\[ \\] [a-z]{1,4})?").prop_map(|(i, t)| Step::Outside(i, t)),
        (0..90_000u32).prop_map(Step::Wait),
    ]
}

proptest! {
    // A fixed seed: the test command draws the same cases every time.
    #![proptest_config(ProptestConfig {
        cases: 64,
        rng_seed: proptest::test_runner::RngSeed::Fixed(26),
        ..ProptestConfig::default()
    })]

    /// Whatever happens in between, a cached answer is what the CLI would say now.
    #[test]
    fn cached_answers_are_never_stale(steps in prop::collection::vec(step(), 1..40)) {
        let (core, notes) = core(json!({"permissionMode": "askBeforeEdits"}));
        let names = ["A.md", "B.md", "C.md", "D.md"];
        for step in steps {
            match step {
                Step::Read(i) => {
                    let result = block_on(core.call_tool("obsidianNotes", &json!({"command": "read", "path": names[i]})));
                    let expected = notes.borrow().get(names[i]).cloned();
                    match expected {
                        Some(text) if text.trim().is_empty() => prop_assert!(result.empty, "{}", result.text),
                        Some(text) => prop_assert_eq!(result.text.trim_end(), text.trim_end()),
                        None => prop_assert!(!result.ok),
                    }
                }
                Step::Tasks => {
                    let result = block_on(core.call_tool("obsidianTasks", &json!({"command": "tasks", "all": true})));
                    let expected: Vec<String> = notes.borrow().values()
                        .flat_map(|t| t.lines().filter(|l| l.starts_with("- [ ]")).map(str::to_string)).collect();
                    if expected.is_empty() { prop_assert!(result.empty || result.text.trim().is_empty() || !result.ok); }
                    else { prop_assert_eq!(result.text.trim_end(), expected.join("\n")); }
                }
                Step::Files => {
                    let result = block_on(core.call_tool("obsidianNotes", &json!({"command": "files"})));
                    prop_assert_eq!(result.text.trim_end(), notes.borrow().keys().cloned().collect::<Vec<_>>().join("\n"));
                }
                Step::Create(i) => {
                    let _ = block_on(core.call_tool("obsidianEdit", &json!({"command": "create", "path": names[i], "content": "new"})));
                }
                Step::Outside(i, text) => {
                    notes.borrow_mut().insert(names[i].to_string(), text);
                    core.forget_reads(); // Obsidian's `modify` event
                }
                Step::Wait(ms) => core.host().advance_ms(f64::from(ms)),
            }
        }
    }
}
