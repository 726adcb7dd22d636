//! The hygiene reports at the size of a big vault (issue 38): every report
//! is one page of at most `limit` entries that names the `offset` of the
//! next, and the pages together hold every entry once; `empty` checks every
//! note however much text the vault holds, keeping one batch at a time.
//! The CLI is a fake answering `files` and `unresolved verbose`; the notes
//! come through the vault API (`vault_read_many`).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Value};
use vault_agent::base::host::ProcessOutcome;
use vault_agent::hygiene::{MAX_READ_BYTES, READ_BATCH};
use vault_agent::testing::{block_on, FakeHost};
use vault_agent::VaultAgent;

fn core_over(notes: BTreeMap<String, String>, unresolved: String) -> VaultAgent<FakeHost> {
    let listing = notes.keys().cloned().collect::<Vec<_>>().join("\n");
    let mut host = FakeHost::linux_with_cli("");
    host.respond_with(move |request| {
        ProcessOutcome::success(&match request.args[0].as_str() {
            "files" => listing.clone(),
            "unresolved" => unresolved.clone(),
            other => panic!("unexpected CLI call {other}"),
        })
    });
    *host.notes.borrow_mut() = notes.into_iter().collect();
    VaultAgent::new(host, &json!({})).0
}

fn run(core: &VaultAgent<FakeHost>, args: Value) -> vault_agent::ToolResult {
    let result = block_on(core.call_tool("obsidianHygiene", &args));
    assert!(result.ok, "{args}: {}", result.text);
    result
}

/// Every page of `args`' report from offset 0, following the `offset` each
/// page names, as the lines `entry` picks from each.
fn every_page(
    core: &VaultAgent<FakeHost>,
    args: Value,
    limit: usize,
    entry: impl Fn(&str) -> Option<String>,
) -> Vec<Vec<String>> {
    let mut pages = Vec::new();
    let mut offset = 0;
    loop {
        let mut paged = args.clone();
        paged["limit"] = json!(limit);
        paged["offset"] = json!(offset);
        let text = run(core, paged).text;
        pages.push(text.lines().filter_map(&entry).collect());
        let next = text
            .split("send offset=")
            .nth(1)
            .map(|rest| rest.split(|c: char| !c.is_ascii_digit()).next().unwrap());
        match next {
            Some(next) => offset = next.parse().unwrap(),
            None => {
                assert!(
                    offset == 0 || text.contains("that is the last page"),
                    "{text}"
                );
                return pages;
            }
        }
        assert!(pages.len() < 100, "pages never end");
    }
}

/// Pages of at most `limit` entries that together hold `expected`, each once.
fn assert_paged(pages: &[Vec<String>], limit: usize, expected: &BTreeSet<String>) {
    assert!(pages.len() > 1, "one page: {pages:?}");
    for page in pages {
        assert!(page.len() <= limit, "{} entries: {page:?}", page.len());
    }
    let all: Vec<&String> = pages.iter().flatten().collect();
    let distinct: BTreeSet<String> = all.iter().map(|s| s.to_string()).collect();
    assert_eq!(all.len(), distinct.len(), "an entry on two pages");
    assert_eq!(&distinct, expected);
}

#[test]
fn every_report_is_a_bounded_page_that_names_the_next() {
    let mut notes = BTreeMap::new();
    let mut unresolved = Vec::new();
    let mut missing = BTreeSet::new();
    let mut empty = BTreeSet::new();
    let mut groups = BTreeSet::new();
    for i in 0..130 {
        let source = format!("Notes/Source {i:03}.md");
        notes.insert(source.clone(), format!("See [[Gone {i:03}]].\n"));
        unresolved.push(format!("Gone {i:03}\t{source}"));
        missing.insert(format!("Gone {i:03}"));
    }
    for i in 0..70 {
        let path = format!("Empty/Blank {i:03}.md");
        notes.insert(path.clone(), ["", "---\ntags: [x]\n---\n"][i % 2].into());
        empty.insert(path);
    }
    let words = [
        "amber", "birch", "cedar", "delta", "ember", "fjord", "grove",
    ];
    for (i, a) in words.iter().enumerate() {
        for b in &words[i + 1..] {
            for c in ["kiln", "loom", "mesa"] {
                let title = format!("{a} {b} {c}");
                for folder in ["Projects", "Archive"] {
                    notes.insert(format!("{folder}/{title}.md"), "Text.\n".into());
                }
                groups.insert(title);
            }
        }
    }
    let core = core_over(notes, unresolved.join("\n"));

    let pages = every_page(&core, json!({"command": "missing"}), 25, |l| {
        l.strip_prefix("- [[")
            .map(|rest| rest.split("]]").next().unwrap().to_string())
    });
    assert_paged(&pages, 25, &missing);

    let pages = every_page(&core, json!({"command": "empty"}), 20, |l| {
        l.strip_prefix("- ").map(String::from)
    });
    assert_paged(&pages, 20, &empty);

    let pages = every_page(
        &core,
        json!({"command": "duplicates", "maxComparisons": 1}),
        10,
        |l| {
            l.strip_prefix("- \"")
                .map(|rest| rest.split('"').next().unwrap().to_string())
        },
    );
    assert_paged(&pages, 10, &groups);
}

#[test]
fn empty_checks_every_note_whatever_text_the_vault_holds() {
    // A first batch holding more text than one check ever kept whole: the
    // empty notes after it, in the listing's order, were never read before.
    let big = "word ".repeat((MAX_READ_BYTES / READ_BATCH + 1024) / 5);
    let count = READ_BATCH + 10;
    let mut notes = BTreeMap::new();
    for i in 0..count {
        notes.insert(format!("Big/Note {i:04}.md"), big.clone());
    }
    let empty: BTreeSet<String> = (0..3).map(|i| format!("Zed/Blank {i}.md")).collect();
    for path in &empty {
        notes.insert(path.clone(), String::new());
    }
    let core = core_over(notes, String::new());
    let result = run(&core, json!({"command": "empty"}));
    assert_eq!(result.truncated, None, "{}", result.text);
    let listed: BTreeSet<String> = result
        .text
        .lines()
        .filter_map(|l| l.strip_prefix("- "))
        .map(String::from)
        .collect();
    assert_eq!(listed, empty, "{}", result.text);
    let batches = core.host().read_batches.borrow().clone();
    assert_eq!(batches.iter().sum::<usize>(), count + empty.len());
    assert!(batches.iter().all(|&b| b <= READ_BATCH), "{batches:?}");
}
