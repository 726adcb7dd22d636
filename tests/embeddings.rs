//! Search by meaning through the engine, against a scripted embedding
//! server (the fake host answers `POST …/embeddings` from the inputs): off by
//! default, batches, only changed sections again, a new model drops the
//! vectors, Stop keeps what was done, a failing or garbage server leaves
//! keyword search working and says why, the read scope and remote consent.
//!
//! The stand-in model maps words to a few "concepts" (car and automobile
//! are one), so a question in other words than the note's is found by
//! meaning and not by its words: what a real model does, in miniature.

use std::cell::Cell;
use std::rc::Rc;

use serde_json::{json, Value};
use vault_agent::base::host::{HttpFailure, HttpRequest};
use vault_agent::engine::embeddings::{Phase, QUERY_BACKOFF_MS};
use vault_agent::engine::search::VaultEvent;
use vault_agent::search::embedding_api;
use vault_agent::testing::{block_on, FakeHost, ScriptedHttp};
use vault_agent::VaultAgent;

const CONCEPTS: &[&[&str]] = &[
    &["car", "automobile", "vehicle", "engine"],
    &["money", "budget", "cost", "expenses"],
    &["garden", "tomatoes", "plants", "watering"],
    &["sleep", "rest", "tired"],
];

fn vector_of(text: &str) -> Vec<f64> {
    let lower = text.to_lowercase();
    let mut v: Vec<f64> = CONCEPTS
        .iter()
        .map(|words| words.iter().filter(|w| lower.contains(*w)).count() as f64)
        .collect();
    v.push(0.05); // never all zeros
    v
}

fn answer(request: &HttpRequest) -> ScriptedHttp {
    let body: Value = serde_json::from_str(request.body.as_deref().unwrap()).unwrap();
    let data: Vec<Value> = body["input"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(i, input)| json!({"index": i, "embedding": vector_of(input.as_str().unwrap())}))
        .collect();
    ScriptedHttp::Response {
        status: 200,
        chunks: vec![json!({ "data": data, "model": body["model"] })
            .to_string()
            .into_bytes()],
    }
}

fn notes() -> Vec<(&'static str, String)> {
    let mut notes = vec![
        ("Garage/Automobile repair.md", "# Brakes\nThe automobile needed new brake pads.\n\n# Oil\nChanged the engine oil in May.\n".to_string()),
        ("Home/Spending.md", "# March\nThe budget was tight; expenses rose.\n".to_string()),
        ("Garden/Tomatoes.md", "# Watering\nWater the tomatoes every morning.\n".to_string()),
        ("Private/Diary.md", "# Car trip\nWe drove the car to the coast.\n".to_string()),
    ];
    for i in 0..40 {
        notes.push((
            Box::leak(format!("Filler/Note {i}.md").into_boxed_str()),
            format!("# Part {i}\nNothing much about anything, item {i}.\n"),
        ));
    }
    notes
}

fn settings(extra: Value) -> Value {
    let mut settings = json!({
        "embeddings": {"enabled": true, "baseUrl": "http://localhost:11434/v1", "model": "concepts"}
    });
    for (k, v) in extra.as_object().unwrap() {
        if k == "embeddings" {
            for (ek, ev) in v.as_object().unwrap() {
                settings["embeddings"][ek] = ev.clone();
            }
        } else {
            settings[k] = v.clone();
        }
    }
    settings
}

fn core_with(settings: &Value, host: FakeHost) -> VaultAgent<FakeHost> {
    *host.notes.borrow_mut() = notes()
        .into_iter()
        .map(|(p, t)| (p.to_string(), t))
        .collect();
    VaultAgent::new(host, settings).0
}

fn core(settings: &Value) -> VaultAgent<FakeHost> {
    let host = FakeHost::linux_with_cli("");
    *host.http_answerer.borrow_mut() = Some(Rc::new(|r: &HttpRequest| Some(answer(r))));
    core_with(settings, host)
}

fn embedding_requests(core: &VaultAgent<FakeHost>) -> Vec<usize> {
    core.host()
        .http_requests
        .borrow()
        .iter()
        .filter(|r| r.url.ends_with("/embeddings"))
        .map(|r| {
            let body: Value = serde_json::from_str(r.body.as_deref().unwrap()).unwrap();
            body["input"].as_array().unwrap().len()
        })
        .collect()
}

fn find(core: &VaultAgent<FakeHost>, query: &str) -> String {
    let result = block_on(core.call_tool(
        "obsidianSearch",
        &json!({"command": "find", "query": query}),
    ));
    assert!(result.ok, "{}", result.text);
    result.text
}

#[test]
fn off_by_default_nothing_is_sent_and_keyword_search_is_as_before() {
    let core = core(&json!({}));
    block_on(core.build_search_index(&|_| {}));
    let status = block_on(core.embed_notes(&|_| {}));
    assert_eq!(status.phase, Phase::Off);
    let text = find(&core, "automobile");
    assert!(text.contains("Garage/Automobile repair.md"), "{text}");
    assert!(!text.contains("by meaning"), "{text}");
    assert!(
        core.host().http_requests.borrow().is_empty(),
        "nothing was sent"
    );
    assert!(core.host().saved_vectors.borrow().is_none());
}

#[test]
fn sections_are_embedded_in_batches_and_found_in_other_words() {
    let core = core(&settings(json!({})));
    block_on(core.build_search_index(&|_| {}));
    let before = core.embeddings_status();
    assert_eq!(before.pending_sections, 45, "{before:?}");
    assert!(before.pending_chars > 1000, "{before:?}");
    let seen = Rc::new(Cell::new(0));
    let heard = seen.clone();
    let status = block_on(core.embed_notes(&move |_| heard.set(heard.get() + 1)));
    assert_eq!(status.phase, Phase::Idle, "{status:?}");
    assert_eq!((status.embedded, status.pending_sections), (45, 0));
    assert_eq!(embedding_requests(&core), vec![32, 13], "batches of 32");
    assert!(seen.get() >= 3, "progress after each batch");
    assert!(core.host().saved_vectors.borrow().is_some(), "saved");

    // "car" is in no public note's words (only the private diary's), yet
    // the automobile note is found by meaning.
    let text = find(&core, "car costs");
    assert!(
        text.contains("Ranked by words and by meaning (concepts)"),
        "{text}"
    );
    let garage = text
        .find("Garage/Automobile repair.md")
        .expect("found by meaning");
    let spending = text.find("Home/Spending.md").expect("found by meaning");
    assert!(
        garage.min(spending) < text.find("Filler/").unwrap_or(usize::MAX),
        "{text}"
    );
    assert!(text.contains("found by meaning"), "{text}");
    // The query itself was embedded once.
    assert_eq!(embedding_requests(&core).last(), Some(&1));
}

#[test]
fn only_changed_sections_are_embedded_again_and_a_new_model_starts_over() {
    let core = core(&settings(json!({})));
    block_on(core.build_search_index(&|_| {}));
    block_on(core.embed_notes(&|_| {}));
    let path = "Garage/Automobile repair.md";
    core.host().notes.borrow_mut().insert(
        path.into(),
        "# Brakes\nThe automobile needed new brake pads.\n\n# Oil\nChanged the engine oil in June.\n".into(),
    );
    block_on(core.search_vault_event(&VaultEvent::Modify { path: path.into() }));
    assert_eq!(core.embeddings_status().pending_sections, 1);
    block_on(core.embed_notes(&|_| {}));
    assert_eq!(
        embedding_requests(&core),
        vec![32, 13, 1],
        "only the changed section"
    );
    // A rename keeps the vectors.
    let moved = "Garage/Car repair.md";
    let text = core.host().notes.borrow_mut().remove(path).unwrap();
    core.host().notes.borrow_mut().insert(moved.into(), text);
    block_on(core.search_vault_event(&VaultEvent::Rename {
        path: moved.into(),
        old_path: path.into(),
    }));
    block_on(core.embed_notes(&|_| {}));
    assert_eq!(
        embedding_requests(&core).len(),
        3,
        "nothing to embed after a rename"
    );
    // Another model: every section again.
    core.set_settings(&settings(json!({"embeddings": {"model": "concepts-2"}})));
    assert_eq!(core.embeddings_status().embedded, 0);
    block_on(core.embed_notes(&|_| {}));
    assert_eq!(embedding_requests(&core)[3..], [32, 13]);
}

#[test]
fn vectors_saved_come_back_after_a_restart_without_sending_again() {
    let first = core(&settings(json!({})));
    block_on(first.build_search_index(&|_| {}));
    block_on(first.embed_notes(&|_| {}));
    let saved = first.host().saved_vectors.borrow().clone().unwrap();
    let host = FakeHost::linux_with_cli("");
    *host.saved_vectors.borrow_mut() = Some(saved);
    *host.http_answerer.borrow_mut() = Some(Rc::new(|r: &HttpRequest| Some(answer(r))));
    let second = core_with(&settings(json!({})), host);
    block_on(second.build_search_index(&|_| {}));
    let status = block_on(second.embed_notes(&|_| {}));
    assert_eq!(
        (status.embedded, status.pending_sections),
        (45, 0),
        "{status:?}"
    );
    assert!(embedding_requests(&second).is_empty(), "nothing sent again");
}

#[test]
fn stop_ends_the_run_after_the_request_in_flight_and_keeps_what_was_done() {
    let host = FakeHost::linux_with_cli("");
    let core = Rc::new(core_with(&settings(json!({})), host));
    let weak = Rc::downgrade(&core);
    *core.host().http_answerer.borrow_mut() = Some(Rc::new(move |r: &HttpRequest| {
        // The user presses Stop while the first batch is on its way.
        if let Some(core) = weak.upgrade() {
            core.embeddings_stop();
        }
        Some(answer(r))
    }));
    block_on(core.build_search_index(&|_| {}));
    let status = block_on(core.embed_notes(&|_| {}));
    assert_eq!(status.phase, Phase::Stopped, "{status:?}");
    assert_eq!(
        (status.done, status.embedded, status.pending_sections),
        (32, 32, 13)
    );
    assert_eq!(embedding_requests(&core), vec![32]);
    assert!(
        core.host().saved_vectors.borrow().is_some(),
        "what was done is kept"
    );
    *core.host().http_answerer.borrow_mut() = Some(Rc::new(|r: &HttpRequest| Some(answer(r))));
    let status = block_on(core.embed_notes(&|_| {}));
    assert_eq!((status.phase, status.pending_sections), (Phase::Idle, 0));
    assert_eq!(
        embedding_requests(&core),
        vec![32, 13],
        "it goes on where it stopped"
    );
}

#[test]
fn a_failing_or_garbage_server_leaves_keyword_search_working_and_says_why() {
    for (answer_with, why) in [
        (
            ScriptedHttp::Response {
                status: 500,
                chunks: vec![b"{\"error\":\"out of memory\"}".to_vec()],
            },
            "answered 500. It said: out of memory",
        ),
        (
            ScriptedHttp::Response {
                status: 200,
                chunks: vec![b"<html>".to_vec()],
            },
            "not JSON",
        ),
        (
            ScriptedHttp::Response {
                status: 200,
                chunks: vec![br#"{"data":[{"embedding":[0,0]}]}"#.to_vec()],
            },
            "vectors for 32 sections",
        ),
        (
            ScriptedHttp::Failure(HttpFailure {
                code: "ECONNREFUSED".into(),
                message: "connect ECONNREFUSED".into(),
            }),
            "could not be reached",
        ),
    ] {
        let host = FakeHost::linux_with_cli("");
        let core = core_with(&settings(json!({})), host);
        let replay = answer_with.clone();
        *core.host().http_answerer.borrow_mut() = Some(Rc::new(move |_| Some(replay.clone())));
        block_on(core.build_search_index(&|_| {}));
        let status = block_on(core.embed_notes(&|_| {}));
        assert_eq!(status.phase, Phase::Failed, "{status:?}");
        assert!(status.error.contains(why), "{why}: {}", status.error);
        assert_eq!(status.embedded, 0);
        let text = find(&core, "automobile");
        assert!(text.contains("Garage/Automobile repair.md"), "{text}");
    }
    // Embedded once, then the server fails: the search says so and still answers.
    let core = core(&settings(json!({})));
    block_on(core.build_search_index(&|_| {}));
    block_on(core.embed_notes(&|_| {}));
    *core.host().http_answerer.borrow_mut() = Some(Rc::new(|_| {
        Some(ScriptedHttp::Response {
            status: 503,
            chunks: vec![],
        })
    }));
    let text = find(&core, "automobile");
    assert!(text.contains("Garage/Automobile repair.md"), "{text}");
    assert!(text.contains("Search by meaning was not used, so this is by words alone: The embedding server at http://localhost:11434/v1/embeddings answered 503."), "{text}");
}

/// A fused page's cursor, sent when the server has since failed: the next
/// page cannot be cut from a ranking by words alone, and the answer says
/// why and what to do (it used to say the cursor "was not made by this
/// search").
#[test]
fn a_fused_pages_cursor_after_the_server_fails_says_meaning_is_unavailable() {
    let core = core(&settings(json!({})));
    block_on(core.build_search_index(&|_| {}));
    block_on(core.embed_notes(&|_| {}));
    let first = block_on(core.call_tool(
        "obsidianSearch",
        &json!({"command": "find", "query": "car costs", "limit": 1}),
    ));
    assert!(first.ok, "{}", first.text);
    let cursor = first
        .text
        .split("send cursor=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("a next page")
        .to_string();
    assert!(cursor.starts_with('m'), "{cursor}");
    *core.host().http_answerer.borrow_mut() = Some(Rc::new(|_| {
        Some(ScriptedHttp::Response {
            status: 503,
            chunks: vec![],
        })
    }));
    let next = block_on(core.call_tool(
        "obsidianSearch",
        &json!({"command": "find", "query": "car costs", "limit": 1, "cursor": cursor}),
    ));
    assert!(!next.ok, "{}", next.text);
    assert!(
        next.text.contains("search by meaning is not available")
            && next.text.contains("answered 503")
            && next.text.contains("without a cursor"),
        "{}",
        next.text
    );
    assert!(
        !next.text.contains("was not made by this search"),
        "{}",
        next.text
    );
}

#[test]
fn a_search_asks_a_failing_server_once_a_minute_and_waits_briefly_under_its_own_tag() {
    let core = core(&settings(json!({})));
    block_on(core.build_search_index(&|_| {}));
    block_on(core.embed_notes(&|_| {}));
    let asked = || core.host().http_requests.borrow().len();
    *core.host().http_answerer.borrow_mut() = Some(Rc::new(|_| {
        Some(ScriptedHttp::Response {
            status: 503,
            chunks: vec![],
        })
    }));
    let before = asked();
    let text = find(&core, "automobile");
    assert!(text.contains("answered 503"), "{text}");
    let query = core.host().http_requests.borrow().last().cloned().unwrap();
    // Stop in the settings aborts the runs' tag, never a search's.
    assert_eq!(query.tag.as_deref(), Some(embedding_api::QUERY_TAG));
    assert_ne!(embedding_api::QUERY_TAG, embedding_api::TAG);
    assert_eq!(query.first_byte_timeout_ms, embedding_api::QUERY_WAIT_MS);
    const { assert!(embedding_api::QUERY_WAIT_MS <= 10_000) };
    // The next searches in the minute go by words at once and say why.
    let text = find(&core, "automobile");
    assert!(text.contains("Garage/Automobile repair.md"), "{text}");
    assert!(
        text.contains("failed a search less than 60 s ago"),
        "{text}"
    );
    assert_eq!(asked(), before + 1, "the server was not asked again");
    // A minute on, it is asked again; once it answers, meaning is back.
    core.host().advance_ms(QUERY_BACKOFF_MS + 1.0);
    *core.host().http_answerer.borrow_mut() = Some(Rc::new(|r: &HttpRequest| Some(answer(r))));
    let text = find(&core, "automobile");
    assert_eq!(asked(), before + 2);
    assert!(
        text.starts_with("[Ranked by words and by meaning"),
        "{text}"
    );
}

#[test]
fn a_run_lets_go_of_the_vectors_no_section_holds_any_more() {
    let core = core(&settings(json!({})));
    block_on(core.build_search_index(&|_| {}));
    block_on(core.embed_notes(&|_| {}));
    let held = core.embedding_vectors_held();
    // Every section of one note changes: its old vectors are orphans until the next run.
    let path = "Garage/Automobile repair.md";
    core.host().notes.borrow_mut().insert(
        path.into(),
        "# Automobile repair\n\nNew text about tyres.\n".into(),
    );
    block_on(core.search_vault_event(&VaultEvent::Modify { path: path.into() }));
    block_on(core.embed_notes(&|_| {}));
    let after = core.embedding_vectors_held();
    assert!(after.1 < held.1, "vectors {} -> {}", held.1, after.1);
    assert_eq!(after.0, 0, "no orphan left");
}

#[test]
fn notes_outside_the_read_scope_are_never_sent_nor_found() {
    let core = core(&settings(
        json!({"readFolders": ["Garage", "Home", "Garden", "Filler"]}),
    ));
    block_on(core.build_search_index(&|_| {}));
    block_on(core.embed_notes(&|_| {}));
    let sent: String = core
        .host()
        .http_requests
        .borrow()
        .iter()
        .filter_map(|r| r.body.clone())
        .collect();
    assert!(
        !sent.contains("coast"),
        "the private note's text was never sent"
    );
    assert!(sent.contains("brake pads"));
    let text = find(&core, "car trip");
    assert!(!text.contains("Private/"), "{text}");
}

#[test]
fn a_remote_server_waits_for_the_users_yes_and_local_only_refuses_it() {
    let remote = json!({"embeddings": {"baseUrl": "https://api.example.com/v1"}});
    let core = core(&settings(remote.clone()));
    block_on(core.build_search_index(&|_| {}));
    let status = block_on(core.embed_notes(&|_| {}));
    assert!(status.remote && status.needs_consent, "{status:?}");
    assert!(
        status.pending_chars > 1000,
        "the settings can say how much would go: {status:?}"
    );
    assert!(
        core.host().http_requests.borrow().is_empty(),
        "nothing sent before the yes"
    );
    let agreed = json!({"embeddings": {"baseUrl": "https://api.example.com/v1", "consented": status.server}});
    core.set_settings(&settings(agreed.clone()));
    let status = block_on(core.embed_notes(&|_| {}));
    assert_eq!(
        (status.phase, status.embedded),
        (Phase::Idle, 45),
        "{status:?}"
    );
    // Another model at the same address asks again.
    core.set_settings(&settings(json!({"embeddings": {"baseUrl": "https://api.example.com/v1", "consented": status.server, "model": "other"}})));
    assert!(core.embeddings_status().needs_consent);

    let mut with_local_only = settings(agreed);
    with_local_only["localOnly"] = json!(true);
    let host = FakeHost::linux_with_cli("");
    host.dns
        .borrow_mut()
        .insert("api.example.com".into(), vec!["93.184.216.34".into()]);
    let core = core_with(&with_local_only, host);
    *core.host().http_answerer.borrow_mut() = Some(Rc::new(|r: &HttpRequest| Some(answer(r))));
    block_on(core.build_search_index(&|_| {}));
    let status = block_on(core.embed_notes(&|_| {}));
    assert_eq!(status.phase, Phase::Failed);
    assert!(status.error.contains("Local only"), "{}", status.error);
    assert!(embedding_requests(&core).is_empty());
}

#[test]
fn turned_on_for_a_remote_server_after_the_build_counts_what_would_go_and_sends_nothing() {
    let core = core(&settings(json!({"embeddings": {"enabled": false}})));
    block_on(core.build_search_index(&|_| {}));
    core.set_settings(&settings(
        json!({"embeddings": {"baseUrl": "https://api.example.com/v1"}}),
    ));
    assert!(
        !core.embeddings_status().counted,
        "nothing was recorded while off"
    );
    let status = block_on(core.embed_notes(&|_| {}));
    assert!(
        status.counted && status.needs_consent && status.pending_sections == 45,
        "{status:?}"
    );
    assert!(status.pending_chars > 1000, "{status:?}");
    assert!(
        core.host().http_requests.borrow().is_empty(),
        "counting sends nothing"
    );
}
