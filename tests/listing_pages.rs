//! The listing tools at the size of a big vault (issue 38): what the CLI
//! lists whole comes to the model as one page of at most `limit` entries
//! that names the `offset` of the next, and the pages together hold every
//! entry once, even when the whole listing is larger than the output cap
//! the user set. The CLI is a fake that prints a 100 000-note vault.

use std::collections::BTreeSet;

use serde_json::{json, Value};
use vault_agent::base::host::ProcessOutcome;
use vault_agent::testing::{block_on, FakeHost};
use vault_agent::VaultAgent;

const NOTES: usize = 100_000;

fn path(i: usize) -> String {
    format!("Notes/Note {i:06}.md")
}

fn core() -> VaultAgent<FakeHost> {
    let listing: String = (0..NOTES).map(|i| path(i) + "\n").collect();
    let folders: String = (0..2_500).map(|i| format!("Folder {i:04}\n")).collect();
    let unresolved: String = (0..3_000).map(|i| format!("Gone {i:04}\n")).collect();
    let mut host = FakeHost::linux_with_cli("");
    host.respond_with(move |request| {
        ProcessOutcome::success(match request.args[0].as_str() {
            "files" | "orphans" | "deadends" => &listing,
            "folders" => &folders,
            "unresolved" if request.args.iter().any(|a| a == "format=json") => "[]",
            "unresolved" => &unresolved,
            other => panic!("unexpected CLI call {other}"),
        })
    });
    // The default output cap: the listing (2 MB) is larger.
    VaultAgent::new(host, &json!({})).0
}

fn call(core: &VaultAgent<FakeHost>, tool: &str, args: Value) -> String {
    let result = block_on(core.call_tool(tool, &args));
    assert!(result.ok, "{args}: {}", result.text);
    assert_eq!(result.truncated, None, "{args}: read whole");
    result.text
}

/// The entries and the next offset of one page.
fn page(text: &str) -> (Vec<String>, Option<usize>) {
    let entries = text
        .lines()
        .filter(|l| !l.starts_with('['))
        .map(String::from)
        .collect();
    let next = text
        .split("send offset=")
        .nth(1)
        .map(|rest| rest.split(|c: char| !c.is_ascii_digit()).next().unwrap())
        .map(|n| n.parse().unwrap());
    (entries, next)
}

#[test]
fn a_page_past_the_output_cap_is_the_right_page_of_the_whole_listing() {
    let core = core();
    let text = call(
        &core,
        "obsidianNotes",
        json!({"command": "files", "offset": NOTES - 100, "limit": 100}),
    );
    let (entries, next) = page(&text);
    assert_eq!(entries, (NOTES - 100..NOTES).map(path).collect::<Vec<_>>());
    assert_eq!(next, None);
    assert!(
        text.contains("[files 99901-100000 of 100000; that is the last page.]"),
        "{text}"
    );
}

#[test]
fn graph_lists_and_folders_come_a_bounded_page_at_a_time() {
    let core = core();
    for (tool, command, limit, expected) in [
        ("obsidianLinks", "orphans", 1000, NOTES),
        ("obsidianLinks", "deadends", 1000, NOTES),
        ("obsidianLinks", "unresolved", 400, 3_000),
        ("obsidianNotes", "folders", 300, 2_500),
    ] {
        let mut seen = BTreeSet::new();
        let mut pages = 0;
        let mut offset = Some(0);
        while let Some(from) = offset {
            let text = call(
                &core,
                tool,
                json!({"command": command, "offset": from, "limit": limit}),
            );
            let (entries, next) = page(&text);
            assert!(
                entries.len() <= limit,
                "{command}: {} entries",
                entries.len()
            );
            for entry in entries {
                assert!(seen.insert(entry), "{command}: an entry on two pages");
            }
            offset = next;
            pages += 1;
        }
        assert_eq!(seen.len(), expected, "{command}");
        assert_eq!(pages, expected.div_ceil(limit), "{command}");
        // Without `limit`, the default page: 200 entries.
        let (first, next) = page(&call(&core, tool, json!({"command": command})));
        assert_eq!((first.len(), next), (200, Some(200)), "{command}");
    }
}

#[test]
fn a_page_limit_out_of_range_is_refused_and_names_the_range() {
    let core = core();
    for (tool, command) in [
        ("obsidianLinks", "orphans"),
        ("obsidianLinks", "unresolved"),
        ("obsidianNotes", "folders"),
    ] {
        let result = block_on(core.call_tool(tool, &json!({"command": command, "limit": 0})));
        assert!(!result.ok);
        assert!(
            result.text.contains("between 1 and 1000"),
            "{}",
            result.text
        );
    }
    // JSON is not split into pages: it comes as the CLI printed it.
    let json = call(
        &core,
        "obsidianLinks",
        json!({"command": "unresolved", "format": "json"}),
    );
    assert_eq!(json.trim(), "[]");
}
