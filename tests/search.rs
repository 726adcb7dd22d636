//! The ranked search's index (src/search/): kept exact by one-note updates,
//! the scope never leaking, the text model, the field weights, and vaults
//! of 0 notes, one huge note and 10 000 tiny notes.

use std::collections::BTreeMap;

use proptest::prelude::*;
use vault_agent::search::query::{Ranked, SearchQuery};
use vault_agent::search::{Index, Language, SearchError, Subject, Upserted};

fn all(_: &str) -> bool {
    true
}

fn index_of(notes: &[(&str, &str)]) -> Index {
    let mut index = Index::new(".obsidian", Language::English);
    for (path, text) in notes {
        index.upsert(path, text).unwrap();
    }
    index
}

fn paths(ranked: &Ranked) -> Vec<&str> {
    ranked.hits.iter().map(|h| h.path.as_str()).collect()
}

fn search(index: &Index, query: &str) -> Ranked {
    let mut q = SearchQuery::new(query);
    q.limit = 50;
    index.search(&q, &all).unwrap()
}

/// The answer without the cursor (which names the index's generation).
fn answer(ranked: &Ranked) -> String {
    let mut r = ranked.clone();
    r.next = r.next.map(|_| "…".into());
    format!("{r:?}")
}

#[test]
fn an_empty_vault_answers_nothing_and_an_empty_query_says_why() {
    let index = index_of(&[]);
    let ranked = search(&index, "budget review");
    assert!(ranked.hits.is_empty());
    assert_eq!((ranked.total, ranked.more, ranked.withheld), (0, 0, 0));
    assert_eq!(ranked.next, None);
    let err = index
        .search(&SearchQuery::new("how is the"), &all)
        .unwrap_err();
    assert_eq!(err, SearchError::EmptyQuery);
    assert!(err.to_string().contains("Add a word"), "{err}");
    assert_eq!(index.stats().notes, 0);
}

#[test]
fn the_config_folder_and_hidden_folders_are_never_held() {
    let mut index = Index::new(".obsidian", Language::English);
    for path in [
        ".obsidian/workspace.md",
        ".Obsidian/plugins/x.md",
        "a/.trash/b.md",
        "/abs.md",
        "",
    ] {
        assert!(index.upsert(path, "secret words").is_err(), "{path}");
    }
    let mut custom = Index::new(".config-x", Language::English);
    assert!(matches!(
        custom.upsert(".config-x/app.md", "x"),
        Err(SearchError::ConfigFolder(_))
    ));
    // A note moved into the configuration folder leaves the index.
    index.upsert("Notes/Plan.md", "secret words").unwrap();
    assert!(index.rename("Notes/Plan.md", ".obsidian/Plan.md").is_err());
    assert!(!index.contains("Notes/Plan.md"));
    assert!(!index.contains(".obsidian/Plan.md"));
    assert_eq!(search(&index, "secret").total, 0);
}

#[test]
fn diacritics_case_and_stems_meet() {
    let index = index_of(&[
        ("Food/Café.md", "Opening hours of the CAFÉ on weekends."),
        (
            "Sync.md",
            "Syncing notes between devices: the phone synced overnight.",
        ),
        ("Other.md", "Nothing about either."),
    ]);
    assert_eq!(paths(&search(&index, "cafe")), ["Food/Café.md"]);
    assert_eq!(paths(&search(&index, "Cafés opening")), ["Food/Café.md"]);
    // Decomposed é (e + U+0301) is the same word.
    assert_eq!(paths(&search(&index, "cafe\u{301}")), ["Food/Café.md"]);
    let synced = search(&index, "sync note device");
    assert_eq!(paths(&synced), ["Sync.md"]);
    assert_eq!(synced.hits[0].matched, ["sync", "note", "device"]);
}

#[test]
fn cjk_text_is_found_by_character_bigrams() {
    let index = index_of(&[
        ("会议/周会.md", "# 本周\n本周会议记录：讨论了预算。\n"),
        ("笔记/旅行.md", "去京都旅行。记得带伞。"),
        ("English.md", "Meeting notes."),
    ]);
    // Han characters are terms too: the trip note's "记得" shares one
    // character, and ranks below the note holding every pair.
    let found = search(&index, "会议记录");
    assert_eq!(paths(&found), ["会议/周会.md", "笔记/旅行.md"]);
    assert_eq!(found.hits[0].heading, "本周");
    assert_eq!(paths(&search(&index, "京都")), ["笔记/旅行.md"]);
    // The note's own title counts too.
    assert_eq!(paths(&search(&index, "旅行")), ["笔记/旅行.md"]);
}

#[test]
fn fields_rank_name_above_headings_above_tags_above_body() {
    // The same word once in each note, in a different field each.
    let index = index_of(&[
        (
            "In body.md",
            "# Notes\nWe talked about the lighthouse once.\n",
        ),
        (
            "In tags.md",
            "---\ntags: [lighthouse]\n---\n# Notes\nWe talked about it once.\n",
        ),
        ("In heading.md", "# Lighthouse\nWe talked about it once.\n"),
        ("Lighthouse.md", "# Notes\nWe talked about it once.\n"),
        (
            "In alias.md",
            "---\naliases: [Lighthouse]\n---\n# Notes\nWe talked about it once.\n",
        ),
    ]);
    let found = search(&index, "lighthouse");
    assert_eq!(
        paths(&found)[..2]
            .iter()
            .collect::<std::collections::BTreeSet<_>>(),
        ["In alias.md", "Lighthouse.md"].iter().collect(),
        "name and aliases first: {:?}",
        paths(&found)
    );
    assert_eq!(
        paths(&found)[2..],
        ["In heading.md", "In tags.md", "In body.md"]
    );
    let scores: Vec<f64> = found.hits.iter().map(|h| h.score).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
}

#[test]
fn hits_carry_the_heading_path_and_passages_are_cut_to_the_budget() {
    let filler = "Unrelated filler about weather and lunch plans. ".repeat(30);
    let note = format!(
        "# Plan\n## Risks\n{filler}\n\nThe vendor may deliver the turbine late.\nWe keep a spare.\n\n{filler}\n## Goals\nShip.\n"
    );
    let index = index_of(&[("Projects/Q3.md", &note)]);
    let ranked = search(&index, "turbine delivery late");
    let hit = &ranked.hits[0];
    assert_eq!(hit.heading, "Plan::Risks");
    let passage = index.passage(&ranked, hit, &note, 120);
    assert!(passage.text.contains("turbine late"), "{}", passage.text);
    assert!(passage.text.chars().count() <= 122, "{}", passage.text);
    assert_eq!(
        note.lines().nth(passage.line - 1).unwrap().trim(),
        passage
            .text
            .lines()
            .next()
            .unwrap()
            .trim_matches('…')
            .trim()
    );
    // The note changed since it was indexed: still a passage, marked.
    let edited = note.replace("# Plan", "# Plan\nA new first line.");
    let again = index.passage(&ranked, hit, &edited, 120);
    assert!(again.changed);
    assert!(again.text.contains("turbine"), "{}", again.text);
}

#[test]
fn pages_follow_a_cursor_and_refuse_a_stale_or_foreign_one() {
    let notes: Vec<(String, String)> = (0..25)
        .map(|i| {
            (
                format!("N/{i:02}.md"),
                format!("harbor {}", "harbor ".repeat(i)),
            )
        })
        .collect();
    let mut index = Index::new(".obsidian", Language::English);
    for (p, t) in &notes {
        index.upsert(p, t).unwrap();
    }
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let q = SearchQuery {
            text: "harbor",
            limit: 10,
            cursor: cursor.as_deref(),
        };
        let page = index.search(&q, &all).unwrap();
        assert_eq!(page.total, 25);
        assert_eq!(page.more, 25 - seen.len() - page.hits.len());
        seen.extend(page.hits.iter().map(|h| h.path.clone()));
        match page.next {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    let mut sorted = seen.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), 25, "every note once: {seen:?}");
    let first = index
        .search(
            &SearchQuery {
                text: "harbor",
                limit: 10,
                cursor: None,
            },
            &all,
        )
        .unwrap();
    let next = first.next.unwrap();
    let other = SearchQuery {
        text: "meadow",
        limit: 10,
        cursor: Some(&next),
    };
    assert!(matches!(
        index.search(&other, &all),
        Err(SearchError::BadCursor(_))
    ));
    let junk = SearchQuery {
        text: "harbor",
        limit: 10,
        cursor: Some("x.y"),
    };
    assert!(matches!(
        index.search(&junk, &all),
        Err(SearchError::BadCursor(_))
    ));
    index.upsert("N/new.md", "harbor").unwrap();
    let stale = SearchQuery {
        text: "harbor",
        limit: 10,
        cursor: Some(&next),
    };
    let err = index.search(&stale, &all).unwrap_err();
    assert_eq!(err, SearchError::StaleCursor);
    assert!(err.to_string().contains("without a cursor"));
}

/// A cursor says nothing of the notes outside the scope: not how many the
/// vault holds (it used to carry the index's generation, bumped once per
/// note indexed), nor that one of them changed (the page over the notes in
/// scope is the same). A change of the scope, or of a note in it, makes it
/// stale; an offset past the last note was not made by this search.
#[test]
fn a_cursor_depends_on_the_notes_in_scope_alone() {
    let mut index = Index::new(".obsidian", Language::English);
    for i in 0..12 {
        index
            .upsert(
                &format!("Work/{i:02}.md"),
                &format!("harbor {}", "harbor ".repeat(i)),
            )
            .unwrap();
    }
    let work = |p: &str| p.starts_with("Work/");
    let q = |cursor: Option<&'static str>| SearchQuery {
        text: "harbor",
        limit: 5,
        cursor,
    };
    let next = index.search(&q(None), &work).unwrap().next.unwrap();
    for i in 0..300 {
        index
            .upsert(&format!("Secret/{i}.md"), "harbor secrets")
            .unwrap();
    }
    index.remove("Secret/7.md");
    let again = index.search(&q(None), &work).unwrap().next.unwrap();
    assert_eq!(again, next, "hidden notes move nothing in the cursor");
    let next: &'static str = Box::leak(next.into_boxed_str());
    let page = index.search(&q(Some(next)), &work).unwrap();
    assert_eq!(page.hits.len(), 5, "the cursor still serves its next page");
    // The whole vault is another scope: its pages are other pages.
    assert_eq!(
        index.search(&q(Some(next)), &all).unwrap_err(),
        SearchError::StaleCursor
    );
    // A note in scope that changes does make it stale.
    index.upsert("Work/03.md", "harbor, rewritten").unwrap();
    assert_eq!(
        index.search(&q(Some(next)), &work).unwrap_err(),
        SearchError::StaleCursor
    );
    // Offsets this search never made: past the last note, and huge.
    let fresh = index.search(&q(None), &work).unwrap().next.unwrap();
    let (_, rest) = fresh.split_once('.').unwrap();
    for offset in ["12", "400", "18446744073709551615"] {
        let forged: &'static str = Box::leak(format!("{offset}.{rest}").into_boxed_str());
        assert!(
            matches!(
                index.search(&q(Some(forged)), &work),
                Err(SearchError::BadCursor(_))
            ),
            "{forged}"
        );
    }
    // An error repeats a long cursor only in part.
    let long: &'static str = Box::leak("7.".repeat(5000).into_boxed_str());
    let err = index.search(&q(Some(long)), &work).unwrap_err().to_string();
    assert!(err.len() < 400, "{} characters", err.len());
}

#[test]
fn words_past_the_query_limit_are_counted_as_not_searched() {
    let index = index_of(&[("Journal/Diary.md", "The heliotrope bloomed.")]);
    let filler: Vec<String> = (0..70).map(|i| format!("zzq{i}x")).collect();
    let text = format!("{} heliotrope", filler.join(" "));
    let ranked = index.search(&SearchQuery::new(&text), &all).unwrap();
    assert_eq!(ranked.terms.len(), 64);
    assert_eq!(ranked.unsearched, 7, "six filler words and heliotrope");
    assert_eq!(ranked.total, 0);
    let short = index.search(&SearchQuery::new("heliotrope"), &all).unwrap();
    assert_eq!(short.unsearched, 0);
}

/// A vault whose notes are split by a folder scope.
fn scoped_vault() -> Vec<(String, String)> {
    let words = ["budget", "harbor", "meadow", "copper", "lantern", "orchid"];
    (0..60)
        .map(|i| {
            let folder = ["Work", "Private", "Work/Old"][i % 3];
            let text = format!(
                "---\ntags: [{}]\n---\n# {}\n{} {} notes {}\n",
                words[i % 6],
                words[(i + 1) % 6],
                words[(i * 7) % 6],
                words[(i + 2) % 6],
                "filler ".repeat(i % 5)
            );
            (format!("{folder}/{} {i}.md", words[(i + 3) % 6]), text)
        })
        .collect()
}

#[test]
fn the_scope_never_leaks_into_results_scores_or_counts() {
    let vault = scoped_vault();
    let in_scope = |p: &str| p.starts_with("Work/") && !p.starts_with("Work/Old/");
    let mut full = Index::new(".obsidian", Language::English);
    let mut only = Index::new(".obsidian", Language::English);
    for (p, t) in &vault {
        full.upsert(p, t).unwrap();
        if in_scope(p) {
            only.upsert(p, t).unwrap();
        }
    }
    for query in [
        "budget",
        "harbor meadow",
        "copper notes filler",
        "lantern orchid budget",
    ] {
        let mut q = SearchQuery::new(query);
        q.limit = 50;
        let scoped = full.search(&q, &in_scope).unwrap();
        let alone = only.search(&q, &all).unwrap();
        // Exactly the answer of an index that never saw the other notes.
        assert_eq!(scoped.hits, alone.hits, "{query}");
        assert_eq!(scoped.total, alone.total);
        assert_eq!(
            scoped.terms, alone.terms,
            "term weights from the scope alone"
        );
        assert!(scoped.hits.iter().all(|h| in_scope(&h.path)));
        let everything = full.search(&q, &all).unwrap();
        assert_eq!(scoped.withheld, everything.total - scoped.total, "{query}");
        // The same for related notes and similar titles.
        let subject = Subject::Topic(query);
        let related = full.related(subject, 50, &in_scope);
        assert_eq!(related, only.related(subject, 50, &all));
        assert!(related.iter().all(|r| in_scope(&r.path)));
    }
    let titles = full.similar_titles("budgeting 3", 0.5, 50, &in_scope);
    assert!(!titles.is_empty());
    assert!(titles.iter().all(|t| in_scope(&t.path)));
    // A note outside the scope is not a subject.
    assert!(full
        .related(Subject::Note("Private/orchid 1.md"), 5, &in_scope)
        .is_empty());
}

#[test]
fn one_huge_note_is_indexed_in_parts() {
    // 8 MB, no headings for the first half, then many sections.
    let mut note = String::new();
    for i in 0..40_000 {
        note.push_str(&format!(
            "Line {i} of the long log about nothing special at all today.\n"
        ));
        if i % 7 == 0 {
            note.push('\n');
        }
    }
    for s in 0..2_000 {
        note.push_str(&format!("## Section {s}\nEntry {s} of the journal.\n"));
    }
    note.push_str("## Last\nThe zeppelin landed at dawn.\n");
    let mut index = Index::new(".obsidian", Language::English);
    assert_eq!(index.upsert("Log.md", &note).unwrap(), Upserted::Added);
    let stats = index.stats();
    assert!(stats.chunks > 1_000, "{stats:?}");
    let ranked = search(&index, "zeppelin dawn");
    assert_eq!(paths(&ranked), ["Log.md"]);
    assert_eq!(ranked.hits[0].heading, "Last");
    let passage = index.passage(&ranked, &ranked.hits[0], &note, 600);
    assert_eq!(passage.text, "The zeppelin landed at dawn.");
    assert_eq!(passage.line, note.lines().count());
    // A word from the middle of the headless part.
    let mid = search(&index, "Line 20000");
    assert_eq!(mid.hits[0].heading, "");
    let p = index.passage(&mid, &mid.hits[0], &note, 200);
    assert!(p.text.contains("Line 20000 "), "{}", p.text);
    assert_eq!(index.upsert("Log.md", &note).unwrap(), Upserted::Unchanged);
}

#[test]
fn ten_thousand_tiny_notes() {
    let mut index = Index::new(".obsidian", Language::English);
    for i in 0..10_000 {
        index
            .upsert(
                &format!("Tiny/{i:05}.md"),
                &format!("note number {i} word{}", i % 97),
            )
            .unwrap();
    }
    index.upsert("Tiny/target.md", "the quokka").unwrap();
    let stats = index.stats();
    assert_eq!(stats.notes, 10_001);
    let found = search(&index, "quokka");
    assert_eq!(paths(&found), ["Tiny/target.md"]);
    let common = search(&index, "word5");
    let expected = (0..10_000).filter(|i| i % 97 == 5).count();
    assert_eq!(common.total, expected);
    assert_eq!(common.hits.len(), 50);
    assert_eq!(common.more, expected - 50);
    assert!(stats.bytes < 20 * 1024 * 1024, "{stats:?}");
}

#[test]
fn related_notes_and_similar_titles_use_the_same_index() {
    let index = index_of(&[
        (
            "Projects/Solar panel maintenance.md",
            "Clean the inverter filters and check the photovoltaic wiring.",
        ),
        (
            "Notes/Inverter log.md",
            "Inverter filters cleaned; photovoltaic wiring fine.",
        ),
        (
            "Notes/Garden.md",
            "Tomatoes and the wiring of the shed lights.",
        ),
        ("Notes/Solar panel maintenence.md", "typo twin"),
        ("Daily/2026-01-01.md", "x"),
        ("Daily/2026-01-02.md", "y"),
    ]);
    let related = index.related(
        Subject::Note("Projects/Solar panel maintenance.md"),
        5,
        &all,
    );
    assert_eq!(related[0].path, "Notes/Inverter log.md", "{related:?}");
    assert!(
        related[0].shared.contains(&"photovolta".to_string())
            || related[0].shared.iter().any(|s| s.starts_with("photovolt")),
        "{related:?}"
    );
    assert!(related
        .iter()
        .all(|r| r.path != "Projects/Solar panel maintenance.md"));
    let titles = index.similar_titles("Solar Panel Maintenance", 0.85, 5, &all);
    let found: Vec<&str> = titles.iter().map(|t| t.path.as_str()).collect();
    assert_eq!(
        found,
        [
            "Projects/Solar panel maintenance.md",
            "Notes/Solar panel maintenence.md"
        ]
    );
    assert_eq!(titles[0].score, 1.0);
    assert!(
        index.similar_titles("2026-01-03", 0.85, 5, &all).is_empty(),
        "a dated series is not a duplicate"
    );
}

/// One step of the property test.
#[derive(Clone, Debug)]
enum Step {
    Upsert(usize, usize),
    Rename(usize, usize),
    Remove(usize),
}

const PATHS: &[&str] = &[
    "Projects/Budget review.md",
    "Projects/Launch plan.md",
    "Journal/2026-03-01.md",
    "People/Alice.md",
    "Ideas/Garden shed.md",
    "Inbox/Untitled.md",
    "Archive/Old budget.md",
    "Café.md",
];

const TEXTS: &[&str] = &[
    "# Budget\nQuarterly budget review with the vendor.\n## Risks\nLate invoices.\n",
    "---\naliases: [Launch]\ntags: [project]\n---\nShip the launch on Friday.\n",
    "Met Alice at the café; talked about the garden shed and cedar planks.\n",
    "",
    "# Shed\n## Roof\nTar paper and cedar.\n## Floor\nPlanks from the lumber yard.\n",
    "#project #budget\nReview the launch budget again. Budget budget budget.\n",
    "会议记录：预算审查。\n",
    "---\nstatus: draft\ndescription: notes about the vendor\n---\n# Vendor\nInvoices and planks.\n",
];

const QUERIES: &[&str] = &[
    "budget review",
    "launch project",
    "cedar planks shed",
    "vendor invoices",
    "alice cafe",
    "预算",
    "draft",
    "garden",
];

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        4 => (0..PATHS.len(), 0..TEXTS.len()).prop_map(|(p, t)| Step::Upsert(p, t)),
        2 => (0..PATHS.len(), 0..PATHS.len()).prop_map(|(a, b)| Step::Rename(a, b)),
        1 => (0..PATHS.len()).prop_map(Step::Remove),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Interleaved creates, edits, renames and deletes, against an index
    /// built afresh from the vault they leave: the same answer to every
    /// query (hits, scores, headings, matched words, counts, term weights).
    #[test]
    fn updates_keep_the_index_exact(steps in proptest::collection::vec(step(), 1..40)) {
        let mut index = Index::new(".obsidian", Language::English);
        let mut vault: BTreeMap<&str, &str> = BTreeMap::new();
        for step in &steps {
            match *step {
                Step::Upsert(p, t) => {
                    index.upsert(PATHS[p], TEXTS[t]).unwrap();
                    vault.insert(PATHS[p], TEXTS[t]);
                }
                Step::Rename(a, b) => {
                    let moved = index.rename(PATHS[a], PATHS[b]).unwrap();
                    prop_assert_eq!(moved, vault.contains_key(PATHS[a]));
                    if let Some(text) = vault.remove(PATHS[a]) {
                        vault.insert(PATHS[b], text);
                    }
                }
                Step::Remove(p) => {
                    prop_assert_eq!(index.remove(PATHS[p]), vault.remove(PATHS[p]).is_some());
                }
            }
        }
        let fresh = {
            let mut fresh = Index::new(".obsidian", Language::English);
            for (p, t) in &vault {
                fresh.upsert(p, t).unwrap();
            }
            fresh
        };
        prop_assert_eq!(index.stats().notes, vault.len());
        prop_assert_eq!(index.stats().chunks, fresh.stats().chunks);
        prop_assert!(index.postings_are_sorted());
        let scope = |p: &str| !p.starts_with("Archive/");
        for query in QUERIES {
            let mut q = SearchQuery::new(query);
            q.limit = 50;
            prop_assert_eq!(answer(&index.search(&q, &all).unwrap()), answer(&fresh.search(&q, &all).unwrap()), "{}", query);
            prop_assert_eq!(answer(&index.search(&q, &scope).unwrap()), answer(&fresh.search(&q, &scope).unwrap()), "{}", query);
            prop_assert_eq!(index.related(Subject::Topic(query), 10, &all), fresh.related(Subject::Topic(query), 10, &all));
        }
        for p in vault.keys() {
            prop_assert_eq!(index.related(Subject::Note(p), 10, &all), fresh.related(Subject::Note(p), 10, &all));
        }
    }
}
