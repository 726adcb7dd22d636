//! The hygiene checks on a generated 10 000-note vault with duplicates,
//! empty notes, links to missing notes and backlink candidates planted at
//! known places: every planted one is found and nothing else is reported.
//! The CLI is a fake that answers `files` and `unresolved verbose` from the
//! generated notes, which the vault API (`vault_read_many`) also serves.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Value};
use vault_agent::base::host::ProcessOutcome;
use vault_agent::engine::search::VaultEvent;
use vault_agent::hygiene::READ_BATCH;
use vault_agent::testing::{block_on, FakeHost};
use vault_agent::VaultAgent;

const PHRASES: &[&str] = &[
    "Quarterly budget review",
    "Kitchen renovation ideas",
    "Marathon training log",
    "Reading notes on Stoicism",
    "Tax return checklist",
    "Conference travel plan",
    "Café opening hours",
    "Piano practice routine",
    "Home network setup",
    "Vendor contract renewal",
    "Birthday gift ideas",
    "Podcast episode outline",
    "Sourdough starter care",
    "Team offsite agenda",
    "Car maintenance record",
    "Language learning goals",
    "Photography gear wishlist",
    "Board game collection",
    "Investment portfolio notes",
    "Wedding guest list",
    "Hiking trail journal",
    "Server migration runbook",
    "Bathroom tile options",
    "Newsletter draft topics",
];
const WORDS: &[&str] = &[
    "harbor", "meadow", "copper", "lantern", "orchid", "glacier", "velvet", "thunder", "pepper",
    "quartz", "willow", "falcon", "maple", "cobalt", "saffron", "tundra", "ember", "juniper",
    "marble", "nectar",
];
const FOLDERS: &[&str] = &[
    "Projects",
    "Areas",
    "Resources",
    "Journal",
    "People",
    "Meetings",
    "Ideas",
    "Notes",
];
const SUBJECT: &str = "Projects/Solar panel maintenance.md";

struct Planted {
    exact: BTreeSet<Vec<String>>,
    similar: BTreeSet<(String, String)>,
    empty: BTreeSet<String>,
    missing: BTreeMap<String, BTreeSet<String>>,
    mentions: BTreeSet<String>,
    linked: BTreeSet<String>,
}

/// `n` notes: background notes whose titles differ only in their numbers,
/// plus the planted ones.
fn generate(n: usize) -> (BTreeMap<String, String>, Planted) {
    let mut notes = BTreeMap::new();
    let mut planted = Planted {
        exact: BTreeSet::new(),
        similar: BTreeSet::new(),
        empty: BTreeSet::new(),
        missing: BTreeMap::new(),
        mentions: BTreeSet::new(),
        linked: BTreeSet::new(),
    };
    // Same title after case, accents and punctuation.
    for (k, phrase) in PHRASES[..12].iter().enumerate() {
        let a = format!("Projects/{phrase}.md");
        let variant = match k % 3 {
            0 => phrase.to_lowercase().replace(' ', "-"),
            1 => phrase.to_uppercase(),
            _ => phrase.replace('é', "e").replace(' ', "_") + "!",
        };
        let b = format!("Archive/{variant}.md");
        let mut group = vec![a.clone(), b.clone()];
        notes.insert(a, format!("# {phrase}\nFirst copy.\n"));
        notes.insert(b, format!("# {phrase}\nSecond copy.\n"));
        if k == 0 {
            let c = format!("Inbox/{}.md", phrase.replace(' ', "  "));
            notes.insert(c.clone(), "Third copy.\n".into());
            group.push(c);
        }
        group.sort();
        planted.exact.insert(group);
    }
    // Very similar titles: a plural or a doubled letter.
    for (k, phrase) in PHRASES[12..].iter().enumerate() {
        let a = format!("Ideas/{phrase}.md");
        let typo = if k % 2 == 0 {
            format!("{phrase}s")
        } else {
            phrase.replacen('e', "ee", 1)
        };
        let b = format!("Notes/{typo}.md");
        notes.insert(a.clone(), format!("{phrase}: the first note.\n"));
        notes.insert(b.clone(), format!("{typo}: the second note.\n"));
        planted.similar.insert((a, b));
    }
    // Empty notes: no bytes, only whitespace, only properties.
    for k in 0..30 {
        let path = format!("Empty/Blank {k:02}.md");
        let text = match k % 3 {
            0 => String::new(),
            1 => "\n  \n\t\n".to_string(),
            _ => "---\ntags: [draft]\n---\n\n".to_string(),
        };
        notes.insert(path.clone(), text);
        planted.empty.insert(path);
    }
    notes.insert(
        SUBJECT.into(),
        "# Solar panel maintenance\n#energy\nClean the inverter filters.\n".into(),
    );
    let background = n - notes.len();
    let title = |i: usize| format!("Note {i:05} {}", WORDS[i % WORDS.len()]);
    let path = |i: usize| format!("{}/{}.md", FOLDERS[i % FOLDERS.len()], title(i));
    for i in 0..background {
        let next = (i * 7 + 3) % background;
        notes.insert(
            path(i),
            format!(
                "# {}\n\nThoughts on {} and {}. #topic{}\nSee [[{}]].\n",
                title(i),
                WORDS[i % WORDS.len()],
                WORDS[(i / 3) % WORDS.len()],
                i % 10,
                title(next)
            ),
        );
    }
    // Links to notes that do not exist, from known notes.
    for k in 0..25 {
        let link = format!("Unwritten topic {k:02}");
        let count = 1 + k % 3;
        for s in 0..count {
            let source = path((k * 37 + s * 101) % background);
            notes
                .get_mut(&source)
                .unwrap()
                .push_str(&format!("Later: [[{link}]]\n"));
            planted
                .missing
                .entry(link.clone())
                .or_default()
                .insert(source);
        }
    }
    // Notes that mention the subject without linking, and notes that link.
    for k in 0..5 {
        let source = path((500 + k * 13) % background);
        notes
            .get_mut(&source)
            .unwrap()
            .push_str("Remember the solar panel maintenance before summer.\n");
        planted.mentions.insert(source);
    }
    for k in 0..3 {
        let source = path((900 + k * 17) % background);
        notes
            .get_mut(&source)
            .unwrap()
            .push_str("Done: [[Solar panel maintenance]] and solar panel maintenance again.\n");
        planted.linked.insert(source);
    }
    assert_eq!(notes.len(), n);
    (notes, planted)
}

/// What the CLI's `unresolved verbose` prints for these notes: a link whose
/// target is no note's title or path, `link<TAB>source`.
fn unresolved(notes: &BTreeMap<String, String>) -> String {
    let titles: BTreeSet<String> = notes
        .keys()
        .map(|p| {
            let name = p.rsplit('/').next().unwrap();
            name.trim_end_matches(".md").to_lowercase()
        })
        .collect();
    let mut lines = BTreeSet::new();
    for (source, text) in notes {
        for link in vault_agent::hygiene::text::links(text) {
            if !titles.contains(&link.to_lowercase()) {
                lines.insert(format!("{link}\t{source}"));
            }
        }
    }
    lines.into_iter().collect::<Vec<_>>().join("\n")
}

fn core_over(notes: &BTreeMap<String, String>, settings: Value) -> VaultAgent<FakeHost> {
    let mut listing: Vec<String> = notes.keys().cloned().collect();
    listing.push("Attachments/diagram.png".into());
    listing.push(".obsidian/snippets/secret.md".into());
    let listing = listing.join("\n");
    let missing = unresolved(notes);
    let mut host = FakeHost::linux_with_cli("");
    host.respond_with(move |request| {
        let args = &request.args;
        let path = || {
            args.iter()
                .find_map(|a| a.strip_prefix("path="))
                .unwrap_or("")
                .to_string()
        };
        ProcessOutcome::success(&match args[0].as_str() {
            "files" => listing.clone(),
            "unresolved" if args.iter().any(|a| a == "verbose") => missing.clone(),
            "file" => "Error: File not found.".to_string(),
            "create" => format!("Created: {}", path()),
            "base:views" => "Table".to_string(),
            // Like the CLI: the file name only.
            "base:create" => format!(
                "Created: {}.md",
                args.iter()
                    .find_map(|a| a.strip_prefix("name="))
                    .unwrap_or("Untitled")
            ),
            "read" => String::new(),
            other => panic!("unexpected CLI call {other}"),
        })
    });
    *host.notes.borrow_mut() = notes.clone().into_iter().collect();
    VaultAgent::new(host, &settings).0
}

fn run(core: &VaultAgent<FakeHost>, args: Value) -> vault_agent::ToolResult {
    block_on(core.call_tool("obsidianHygiene", &args))
}

/// `- "title": a | b | c` lines.
fn exact_groups(text: &str) -> BTreeSet<Vec<String>> {
    text.lines()
        .filter(|l| l.starts_with("- \""))
        .map(|l| {
            let list = l.split_once("\": ").unwrap().1;
            list.split(" | ").map(String::from).collect()
        })
        .collect()
}

/// `- 0.95: a ~ b` lines.
fn similar_pairs(text: &str) -> BTreeSet<(String, String)> {
    text.lines()
        .filter_map(|l| l.strip_prefix("- 0.").or_else(|| l.strip_prefix("- 1.")))
        .map(|l| {
            let (a, b) = l.split_once(": ").unwrap().1.split_once(" ~ ").unwrap();
            (a.to_string(), b.to_string())
        })
        .collect()
}

fn listed_paths(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix("- "))
        .map(String::from)
        .collect()
}

#[test]
fn every_planted_problem_in_10_000_notes_is_found_and_nothing_else() {
    let (notes, planted) = generate(10_000);
    let core = core_over(&notes, json!({}));

    let duplicates = run(&core, json!({"command": "duplicates", "limit": 500}));
    assert!(duplicates.ok, "{}", duplicates.text);
    assert_eq!(duplicates.truncated, None, "{}", duplicates.text);
    assert_eq!(
        exact_groups(&duplicates.text),
        planted.exact,
        "{}",
        duplicates.text
    );
    assert_eq!(
        similar_pairs(&duplicates.text),
        planted.similar,
        "{}",
        duplicates.text
    );
    assert!(duplicates.text.contains("no note was read"));
    assert_eq!(core.host().read_batches.borrow().len(), 0, "titles only");
    assert!(
        !duplicates.text.contains(".obsidian"),
        "never the configuration folder"
    );

    let empty = run(&core, json!({"command": "empty", "limit": 500}));
    assert!(empty.ok, "{}", empty.text);
    assert_eq!(listed_paths(&empty.text), planted.empty, "{}", empty.text);
    assert!(
        empty.text.contains("Only properties, no text (10)"),
        "{}",
        empty.text
    );
    // One CLI call per listing; the text came through the vault in batches.
    let batches = core.host().read_batches.borrow().clone();
    assert_eq!(batches.iter().sum::<usize>(), 10_000);
    assert!(batches.iter().all(|&b| b <= READ_BATCH), "{batches:?}");
    assert_eq!(
        core.host().process_count(),
        2,
        "`files` twice, nothing per note"
    );

    let missing = run(&core, json!({"command": "missing", "limit": 500}));
    assert!(missing.ok, "{}", missing.text);
    let mut found: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for line in missing.text.lines().filter(|l| l.starts_with("- [[")) {
        let (link, rest) = line[4..].split_once("]] ← ").unwrap();
        let sources = rest.rsplit_once(" (").unwrap().0;
        found.insert(link.into(), sources.split(", ").map(String::from).collect());
    }
    assert_eq!(found, planted.missing, "{}", missing.text);

    let suggest = run(
        &core,
        json!({"command": "suggest", "path": SUBJECT, "limit": 20}),
    );
    assert!(suggest.ok, "{}", suggest.text);
    let ranked: Vec<&str> = suggest
        .text
        .lines()
        .filter_map(|l| l.split_once(". ").filter(|(n, _)| n.parse::<u32>().is_ok()))
        .map(|(_, rest)| rest.split(" (score").next().unwrap())
        .collect();
    let top: BTreeSet<String> = ranked.iter().take(5).map(|s| s.to_string()).collect();
    assert_eq!(top, planted.mentions, "{}", suggest.text);
    for linked in &planted.linked {
        assert!(!ranked.contains(&linked.as_str()), "{linked} links already");
    }
    assert!(suggest
        .text
        .contains("mentions \"solar panel maintenance\" once without linking"));
}

#[test]
fn folder_scopes_limit_every_input_before_anything_is_computed() {
    let (notes, planted) = generate(2_000);
    let core = core_over(&notes, json!({"readFolders": ["Projects", "Empty"]}));
    let inside = |p: &str| p.starts_with("Projects/") || p.starts_with("Empty/");
    for command in ["duplicates", "empty", "missing"] {
        let result = run(&core, json!({"command": command, "limit": 500}));
        assert!(result.ok, "{}", result.text);
        assert!(
            result.withheld.unwrap_or(0) > 0,
            "{command}: {}",
            result.text
        );
        for line in result.text.lines().filter(|l| l.starts_with("- ")) {
            for word in line.split([' ', ',', '|', '~']) {
                if word.contains('/') && word.ends_with(".md") {
                    assert!(inside(word), "{command} shows {word}");
                }
            }
        }
    }
    // Exact pairs had one copy in Archive/: none is left inside the scope.
    let duplicates = run(&core, json!({"command": "duplicates"}));
    assert!(
        exact_groups(&duplicates.text).is_empty(),
        "{}",
        duplicates.text
    );
    let empty = run(&core, json!({"command": "empty", "limit": 500}));
    assert_eq!(listed_paths(&empty.text), planted.empty);
    // Only notes in the scope are read (by the two `empty` runs).
    let read: usize = core.host().read_batches.borrow().iter().sum();
    let in_scope = notes.keys().filter(|p| inside(p)).count();
    assert_eq!(read, 2 * in_scope);
    // A folder outside the scope, or the configuration folder, is refused.
    let outside = run(&core, json!({"command": "empty", "folder": "Archive"}));
    assert_eq!(outside.code(), Some("out_of_scope"), "{}", outside.text);
    let config = run(
        &core,
        json!({"command": "duplicates", "folder": ".obsidian"}),
    );
    assert_eq!(config.code(), Some("config_folder"), "{}", config.text);
    let note = run(&core, json!({"command": "suggest", "path": "Archive/x.md"}));
    assert_eq!(note.code(), Some("out_of_scope"), "{}", note.text);
}

#[test]
fn bad_arguments_are_typed_errors_that_name_the_fix() {
    let (notes, _) = generate(200);
    let core = core_over(&notes, json!({}));
    for (args, field) in [
        (
            json!({"command": "duplicates", "threshold": 2.0}),
            "`threshold`",
        ),
        (
            json!({"command": "duplicates", "threshold": "high"}),
            "`threshold`",
        ),
        (
            json!({"command": "duplicates", "maxComparisons": 0}),
            "`maxComparisons`",
        ),
        (json!({"command": "empty", "limit": 0}), "`limit`"),
        (json!({"command": "missing", "limit": 501}), "`limit`"),
        (
            json!({"command": "suggest", "limit": 51, "topic": "x"}),
            "`limit`",
        ),
        (json!({"command": "suggest"}), "`topic`"),
        (json!({"command": "suggest", "topic": "  "}), "`topic`"),
        (
            json!({"command": "suggest", "topic": "x", "file": "Plan"}),
            "not both",
        ),
        (json!({"command": "suggest", "topic": "a\u{0}b"}), "`topic`"),
        (json!({"command": "empty", "folder": "../x"}), "`folder`"),
        (
            json!({"command": "empty", "depth": 3}),
            "unknown field `depth`",
        ),
    ] {
        let result = run(&core, args.clone());
        assert_eq!(
            result.code(),
            Some("invalid_arguments"),
            "{args}: {}",
            result.text
        );
        assert!(result.text.contains(field), "{args}: {}", result.text);
        assert_eq!(
            core.host().process_count(),
            0,
            "refused before anything ran"
        );
    }
    let missing_note = run(&core, json!({"command": "suggest", "file": "No such note"}));
    assert_eq!(
        missing_note.code(),
        Some("note_not_found"),
        "{}",
        missing_note.text
    );
}

#[test]
fn create_warns_when_a_note_with_a_similar_title_exists() {
    let (notes, _) = generate(500);
    let core = core_over(&notes, json!({"permissionMode": "askBeforeEdits"}));
    let created = block_on(core.call_tool(
        "obsidianEdit",
        &json!({"command": "create", "path": "Inbox/quarterly-budget review.md", "content": ""}),
    ));
    assert!(
        created.text.contains("A note with the same title exists"),
        "{}",
        created.text
    );
    assert!(
        created.text.contains("Projects/Quarterly budget review.md"),
        "{}",
        created.text
    );
    assert!(created.text.contains("`append`"), "{}", created.text);

    let asked = core_over(&notes, json!({"permissionMode": "askEveryChange"}));
    let pending = block_on(asked.call_tool(
        "obsidianEdit",
        &json!({"command": "create", "path": "Inbox/Sourdough starter car.md", "content": "x"}),
    ));
    let view = pending.pending.expect("a card");
    let warning = view.preview.warning.expect("the card warns");
    assert!(
        warning.contains("a very similar title exists: \"Ideas/Sourdough starter care.md\""),
        "{warning}"
    );
    assert!(
        pending.text.contains(&warning),
        "the model is told: {}",
        pending.text
    );
    let card = asked.confirmation_card(&view.id).unwrap();
    assert_eq!(card.preview.warning.as_deref(), Some(warning.as_str()));

    // A new title like no other: no warning.
    let fresh = block_on(core.call_tool(
        "obsidianEdit",
        &json!({"command": "create", "path": "Inbox/Completely new thing.md", "content": ""}),
    ));
    assert!(!fresh.text.contains("title exists"), "{}", fresh.text);
}

#[test]
fn base_create_warns_like_create_when_the_item_is_named() {
    let (mut notes, _) = generate(500);
    // The name the CLI gives an unnamed item: no title anyone chose.
    notes.insert("Inbox/Untitled.md".into(), "Draft.".into());
    let core = core_over(&notes, json!({"permissionMode": "askBeforeEdits"}));
    let added = block_on(core.call_tool(
        "obsidianBases",
        &json!({"command": "base:create", "file": "Projects", "name": "quarterly-budget review", "content": "x"}),
    ));
    assert!(added.ok, "{}", added.text);
    assert!(
        added.text.contains("A note with the same title exists: "),
        "{}",
        added.text
    );
    assert!(
        added
            .text
            .contains("\"Projects/Quarterly budget review.md\""),
        "{}",
        added.text
    );
    assert!(added.text.contains("`append`"), "{}", added.text);

    let asked = core_over(&notes, json!({"permissionMode": "askEveryChange"}));
    let pending = block_on(asked.call_tool(
        "obsidianBases",
        &json!({"command": "base:create", "file": "Projects", "name": "Sourdough starter car"}),
    ));
    let view = pending.pending.expect("a card");
    let warning = view.preview.warning.expect("the card warns");
    assert!(
        warning.contains("a very similar title exists: \"Ideas/Sourdough starter care.md\""),
        "{warning}"
    );
    assert!(
        pending.text.contains(&warning),
        "the model is told: {}",
        pending.text
    );

    // A generated name, even with an "Untitled" note there, and a new
    // title like no other: no warning.
    for args in [
        json!({"command": "base:create", "file": "Projects"}),
        json!({"command": "base:create", "file": "Projects", "name": "Completely new thing"}),
    ] {
        let plain = block_on(core.call_tool("obsidianBases", &args));
        assert!(plain.ok, "{}", plain.text);
        assert!(!plain.text.contains("title exists"), "{}", plain.text);
    }
}

/// The CLI commands the fake was asked to run, by name.
fn cli_commands(core: &VaultAgent<FakeHost>) -> Vec<String> {
    core.host()
        .requests
        .borrow()
        .iter()
        .map(|r| r.args[0].clone())
        .collect()
}

#[test]
fn once_the_index_is_built_create_warns_from_it_with_its_stemmer() {
    let (notes, _) = generate(500);
    let core = core_over(&notes, json!({"permissionMode": "askBeforeEdits"}));
    block_on(core.build_search_index(&|_| {}));
    // A note Obsidian reported after the build: the index holds it, the
    // CLI's listing (fixed in this fake) never names it.
    let made = "Ideas/Meeting notes.md";
    core.host()
        .notes
        .borrow_mut()
        .insert(made.into(), "Agenda.".into());
    block_on(core.search_vault_event(&VaultEvent::Create { path: made.into() }));
    // "meetings note" is 0.85 below "meeting notes" by Levenshtein (0.846):
    // the same terms word by word under the search's stemmer.
    let created = block_on(core.call_tool(
        "obsidianEdit",
        &json!({"command": "create", "path": "Inbox/Meetings note.md", "content": ""}),
    ));
    assert!(
        created
            .text
            .contains("a very similar title exists: \"Ideas/Meeting notes.md\""),
        "{}",
        created.text
    );
    assert!(
        !cli_commands(&core).contains(&"files".to_string()),
        "no listing: the index answered: {:?}",
        cli_commands(&core)
    );

    // The read scope holds for the index too: a note outside it is not named.
    let scoped = core_over(
        &notes,
        json!({"permissionMode": "askBeforeEdits", "readFolders": ["Projects"]}),
    );
    block_on(scoped.build_search_index(&|_| {}));
    let outside = block_on(scoped.call_tool(
        "obsidianEdit",
        &json!({"command": "create", "path": "Projects/Sourdough starter car.md", "content": ""}),
    ));
    assert!(!outside.text.contains("title exists"), "{}", outside.text);
    let inside = block_on(scoped.call_tool(
        "obsidianEdit",
        &json!({"command": "create", "path": "Projects/Quarterly budget reviews.md", "content": ""}),
    ));
    assert!(
        inside
            .text
            .contains("\"Projects/Quarterly budget review.md\""),
        "{}",
        inside.text
    );
    assert!(!inside.text.contains("Archive/"), "{}", inside.text);
}

#[test]
fn suggest_ranks_by_the_index_and_reads_only_the_notes_it_picks() {
    let (notes, planted) = generate(10_000);
    let core = core_over(&notes, json!({}));
    block_on(core.build_search_index(&|_| {}));
    // A background note edited after the build: the event re-indexes it.
    let edited = "Notes/Note 00007 thunder.md";
    core.host()
        .notes
        .borrow_mut()
        .insert(edited.into(), "Solar panels: maintained in May.\n".into());
    block_on(core.search_vault_event(&VaultEvent::Modify {
        path: edited.into(),
    }));
    core.host().read_batches.borrow_mut().clear();
    let suggest = run(
        &core,
        json!({"command": "suggest", "path": SUBJECT, "limit": 20}),
    );
    assert!(suggest.ok, "{}", suggest.text);
    let ranked: Vec<&str> = suggest
        .text
        .lines()
        .filter_map(|l| l.split_once(". ").filter(|(n, _)| n.parse::<u32>().is_ok()))
        .map(|(_, rest)| rest.split(" (score").next().unwrap())
        .collect();
    let top: BTreeSet<String> = ranked.iter().take(5).map(|s| s.to_string()).collect();
    assert_eq!(top, planted.mentions, "{}", suggest.text);
    // Found by the words the event indexed ("panels" is "panel" to the index).
    assert_eq!(ranked.get(5), Some(&edited), "{}", suggest.text);
    let line = suggest.text.lines().find(|l| l.contains(edited)).unwrap();
    assert!(
        line.contains("shares words: ") && line.contains("panel"),
        "{line}"
    );
    let read: usize = core.host().read_batches.borrow().iter().sum();
    assert!(
        read < 20,
        "the notes that share its rare words, not 10 000: {read}"
    );
    assert!(suggest.text.contains("Source: the ranked search's index"));
    assert!(
        !cli_commands(&core).contains(&"files".to_string()),
        "no listing: {:?}",
        cli_commands(&core)
    );
}

#[test]
fn suggest_shows_nothing_outside_the_read_folders_and_counts_it() {
    let (notes, planted) = generate(2_000);
    let core = core_over(&notes, json!({"readFolders": ["Projects", "Notes"]}));
    let suggest = run(
        &core,
        json!({"command": "suggest", "path": SUBJECT, "limit": 50}),
    );
    assert!(suggest.ok, "{}", suggest.text);
    let ranked: Vec<&str> = suggest
        .text
        .lines()
        .filter_map(|l| l.split_once(". ").filter(|(n, _)| n.parse::<u32>().is_ok()))
        .map(|(_, rest)| rest.split(" (score").next().unwrap())
        .collect();
    let inside: Vec<&String> = planted
        .mentions
        .iter()
        .filter(|p| p.starts_with("Projects/") || p.starts_with("Notes/"))
        .collect();
    assert!(!inside.is_empty());
    for path in &ranked {
        assert!(
            path.starts_with("Projects/") || path.starts_with("Notes/"),
            "{path}: {}",
            suggest.text
        );
    }
    for path in inside {
        assert!(ranked.contains(&path.as_str()), "{path}: {}", suggest.text);
    }
    let outside = notes
        .keys()
        .filter(|p| !p.starts_with("Projects/") && !p.starts_with("Notes/"))
        .count();
    assert_eq!(suggest.withheld, Some(outside), "{}", suggest.text);
    // A folder narrows it again; its notes outside the scope are counted.
    let meetings = run(
        &core,
        json!({"command": "suggest", "path": SUBJECT, "folder": "Notes"}),
    );
    assert!(meetings.ok, "{}", meetings.text);
    assert_eq!(meetings.withheld, None, "{}", meetings.text);
    let listed = meetings
        .text
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()));
    for line in listed {
        assert!(
            line.split_once(". ").unwrap().1.starts_with("Notes/"),
            "{line}"
        );
    }
}
