//! The ranked search as the engine keeps it: the index built from the
//! notes' text through Obsidian's vault (batched, yielding between batches),
//! kept current from the vault's events, and asked by `obsidianSearch find`
//! with every hit limited to the read scope.
//!
//! Built at every start, not persisted: reading the notes through
//! `cachedRead` is most of the cost, and a stored index would have to be
//! checked against every note's text anyway (BENCHMARKS.md, "Ranked search
//! in the plugin").

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use super::Engine;
use crate::base::error::ToolError;
use crate::base::host::Host;
use crate::base::result::{NoteHeading, ToolResult};
use crate::base::text::clipped;
use crate::engine::edge;
use crate::hygiene::READ_BATCH;
use crate::policy::names::NameRule;
use crate::policy::scope::FolderScope;
use crate::search::language::app_default;
use crate::search::query::MAX_QUERY_TERMS;
use crate::search::text::Language;
use crate::search::vectors::VectorHit;
use crate::search::{fusion, is_excluded, Index, Passage, Ranked, SearchQuery, SearchRequest};
use crate::settings::Settings;

/// A note is read for the index up to this size: a long journal is found
/// in parts like any note (the hygiene checks stop at 1 MiB). A larger one
/// is not searched, and every answer names it.
pub const NOTE_READ_LIMIT: usize = 16 * 1024 * 1024;

/// Where the index stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "SearchPhase"))]
#[serde(rename_all = "camelCase")]
pub enum Phase {
    /// Not built yet (before layout ready); the first search builds it.
    #[default]
    Idle,
    Building,
    Ready,
}

/// What the palette's search found, or why it could not search.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct UserSearch {
    pub passages: Vec<Passage>,
    /// Why nothing was searched (a query of only punctuation or stop
    /// words), for the user; none when the search ran.
    pub unanswered: Option<String>,
}

/// The index's state, for the status bar and the tests.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct SearchStatus {
    pub phase: Phase,
    /// Notes read so far in this build, of `total`.
    pub read: usize,
    pub total: usize,
    /// Notes the index holds.
    pub notes: usize,
    /// Notes that could not be read (gone, or over [`NOTE_READ_LIMIT`]).
    pub unread: usize,
    /// The status bar's line (empty when there is nothing to say).
    pub label: String,
}

/// A change Obsidian reported (`app.vault.on`).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "SearchVaultEvent"))]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum VaultEvent {
    Create {
        path: String,
    },
    Modify {
        path: String,
    },
    Delete {
        path: String,
    },
    Rename {
        path: String,
        #[serde(rename = "oldPath")]
        old_path: String,
    },
}

#[derive(Default)]
pub(crate) struct SearchState {
    index: Option<Index>,
    phase: Phase,
    read: usize,
    total: usize,
    /// Notes listed that could not be read: not in the index, and named
    /// in every answer.
    unread: HashSet<String>,
    excluded: Vec<String>,
    /// Paths an event changed while a build runs: the build leaves them to
    /// the event (its own read may be older).
    touched: HashSet<String>,
}

impl SearchState {
    /// The index as it stands (`None` before the first build).
    pub(crate) fn index(&self) -> Option<&Index> {
        self.index.as_ref()
    }

    /// The index once a build has completed.
    pub(crate) fn ready_index(&self) -> Option<&Index> {
        self.index.as_ref().filter(|_| self.phase == Phase::Ready)
    }

    fn status(&self) -> SearchStatus {
        let notes = self.index.as_ref().map_or(0, Index::len);
        let label = match self.phase {
            Phase::Building => format!(
                "Vault Agent: indexing notes {} of {}",
                self.read, self.total
            ),
            _ => String::new(),
        };
        SearchStatus {
            phase: self.phase,
            read: self.read,
            total: self.total,
            notes,
            unread: self.unread.len(),
            label,
        }
    }
}

/// True when the index should hold `path`: a Markdown note outside the
/// configuration folder and the user's excluded files.
fn indexable(host: &impl Host, index: &Index, excluded: &[String], path: &str) -> bool {
    path.ends_with(".md")
        && index.check_path(path).is_ok()
        && !is_excluded(path, excluded, &|pattern, text| {
            host.pattern_matches(pattern, text)
        })
}

/// The main language of the notes and the languages the user fixed: the
/// setting's, else none fixed and Obsidian's app language as the main one.
pub(crate) fn languages(
    settings: &Settings,
    app_language: Option<&str>,
) -> (Language, Vec<Language>) {
    let fixed: Vec<Language> = settings
        .search
        .languages
        .iter()
        .filter_map(|code| Language::parse(code))
        .collect();
    let main = fixed
        .first()
        .copied()
        .unwrap_or_else(|| app_default(app_language));
    (main, fixed)
}

impl<H: Host> Engine<H> {
    pub fn search_status(&self) -> SearchStatus {
        self.search.borrow().status()
    }

    /// Builds the index from every note Obsidian lists, [`READ_BATCH`] at a
    /// time, giving the app its turn between batches; `progress` hears
    /// after each. A build already running is left to finish.
    pub async fn build_search_index(&self, progress: &dyn Fn(&SearchStatus)) -> SearchStatus {
        if self.search.borrow().phase == Phase::Building {
            return self.search_status();
        }
        let listing = self.host().vault_notes();
        let platform = self.host().platform();
        let (main, fixed) = languages(&self.settings_snapshot(), platform.app_language.as_deref());
        let mut index = Index::new(platform.config_dir(), main);
        index.fix_languages(&fixed);
        let recording = self.settings_snapshot().embeddings.enabled;
        if recording {
            self.embeddings.borrow_mut().vectors.clear_notes();
        }
        let paths: Vec<String> = {
            let mut state = self.search.borrow_mut();
            state.excluded = listing.excluded;
            let paths: Vec<String> = listing
                .paths
                .into_iter()
                .filter(|p| indexable(self.host(), &index, &state.excluded, p))
                .collect();
            state.index = Some(index);
            state.phase = Phase::Building;
            state.read = 0;
            state.unread.clear();
            state.total = paths.len();
            state.touched.clear();
            paths
        };
        // A note behind a link out of the vault is never read into the index.
        let whole_vault = FolderScope::new(&[], NameRule::of(self.host().platform().os()));
        let barred = edge::links_out(self.host(), &whole_vault).await;
        let paths: Vec<String> = if barred.is_empty() {
            paths
        } else {
            let outside = whole_vault.barring(&barred);
            let kept: Vec<String> = paths.into_iter().filter(|p| outside.contains(p)).collect();
            self.search.borrow_mut().total = kept.len();
            kept
        };
        progress(&self.search_status());
        for batch in paths.chunks(READ_BATCH) {
            let texts = self.host().vault_read_many(batch, NOTE_READ_LIMIT).await;
            let mut notes = batch.iter().zip(texts).peekable();
            while notes.peek().is_some() {
                // A slice of at most SLICE_MS of indexing, then a macrotask,
                // so the app draws and handles input between slices (a
                // batch of 200 typical notes takes longer than a frame).
                let started = self.host().now_ms();
                {
                    let mut state = self.search.borrow_mut();
                    let state = &mut *state;
                    let index = state.index.as_mut().expect("made above");
                    for (path, text) in notes.by_ref() {
                        state.read += 1;
                        if state.touched.contains(path) {
                            continue;
                        }
                        match text {
                            Some(text) => {
                                let _ = index.upsert(path, &text);
                                self.embeddings_note_read(path, Some(&text));
                            }
                            None => {
                                state.unread.insert(path.clone());
                            }
                        }
                        if self.host().now_ms() - started >= SLICE_MS {
                            break;
                        }
                    }
                }
                progress(&self.search_status());
                self.host().sleep(0).await;
            }
        }
        let mut state = self.search.borrow_mut();
        if let Some(index) = state.index.as_mut() {
            index.shrink();
        }
        state.phase = Phase::Ready;
        state.touched.clear();
        let status = state.status();
        drop(state);
        if recording {
            self.embeddings.borrow_mut().counted = true;
        }
        progress(&status);
        status
    }

    /// The index for a check that ranks by it (the backlink suggestions):
    /// built now if it never was; while a build runs (started at layout
    /// ready), waited for in steps of [`BUILD_WAIT_STEP_MS`], at most
    /// [`BUILD_WAIT_MS`]. `Some((read, total))` when the build is still
    /// under way after that, so the check can say how far it came.
    pub(crate) async fn settled_search_index(&self) -> Option<(usize, usize)> {
        if self.search.borrow().phase == Phase::Idle {
            self.build_search_index(&|_| {}).await;
        }
        let mut waited = 0;
        while self.search.borrow().phase == Phase::Building && waited < BUILD_WAIT_MS {
            self.host().sleep(BUILD_WAIT_STEP_MS).await;
            waited += BUILD_WAIT_STEP_MS;
        }
        let state = self.search.borrow();
        (state.phase == Phase::Building).then_some((state.read, state.total))
    }

    /// Keeps the index current: a created or modified note is read and
    /// indexed alone, a rename moves its entries, a deletion drops them.
    pub async fn search_vault_event(&self, event: &VaultEvent) {
        if self.search.borrow().index.is_none() {
            return;
        }
        let (path, old) = match event {
            VaultEvent::Create { path } | VaultEvent::Modify { path } => (path, None),
            VaultEvent::Delete { path } => {
                let mut state = self.search.borrow_mut();
                state.touched.insert(path.clone());
                state.unread.remove(path);
                if let Some(index) = state.index.as_mut() {
                    index.remove(path);
                }
                drop(state);
                self.embeddings_note_read(path, None);
                return;
            }
            VaultEvent::Rename { path, old_path } => (path, Some(old_path)),
        };
        let read = {
            let mut state = self.search.borrow_mut();
            let state = &mut *state;
            state.touched.insert(path.clone());
            let index = state.index.as_mut().expect("checked above");
            let wanted = indexable(self.host(), index, &state.excluded, path);
            if let Some(old) = old {
                state.touched.insert(old.clone());
                if state.unread.remove(old) && wanted {
                    state.unread.insert(path.clone());
                }
                let moved = wanted && index.rename(old, path).unwrap_or(false);
                if !wanted {
                    index.remove(old);
                }
                if moved {
                    self.embeddings_note_moved(old, path);
                } else {
                    self.embeddings_note_read(old, None);
                }
                !moved && wanted
            } else {
                if !wanted {
                    state.unread.remove(path);
                    index.remove(path);
                    self.embeddings_note_read(path, None);
                }
                wanted
            }
        };
        if !read {
            return;
        }
        let text = self
            .host()
            .vault_read_many(std::slice::from_ref(path), NOTE_READ_LIMIT)
            .await
            .pop()
            .flatten();
        {
            let mut state = self.search.borrow_mut();
            let state = &mut *state;
            if let Some(index) = state.index.as_mut() {
                match &text {
                    Some(text) => {
                        state.unread.remove(path);
                        let _ = index.upsert(path, text);
                    }
                    None => {
                        state.unread.insert(path.clone());
                        index.remove(path);
                    }
                }
            }
        }
        self.embeddings_note_read(path, text.as_deref());
    }

    /// `obsidianSearch find`: the best passages among the notes the agent
    /// may read. The index is built first if it never was.
    pub(crate) async fn run_search(
        &self,
        request: &SearchRequest,
        settings: &Settings,
    ) -> Result<ToolResult, ToolError> {
        let scope = FolderScope::read(settings, self.host().platform().os());
        // Nothing behind a link whose real place may not be read is found.
        let barred = edge::links_out(self.host(), &scope).await;
        let scope = scope.barring(&barred);
        let query = SearchQuery {
            text: &request.query,
            limit: request.limit,
            cursor: request.cursor.as_deref(),
        };
        let Found {
            ranked,
            passages,
            building,
            meaning,
        } = self
            .ranked_passages(&query, request.budget, &|path| scope.contains(path))
            .await
            .map_err(|e| ToolError::invalid("obsidianSearch", e))?;
        let mut text = page(&request.query, &ranked, &passages);
        match &meaning {
            Meaning::Used => text.insert_str(
                0,
                &format!(
                    "[Ranked by words and by meaning ({}).]\n",
                    settings.embeddings.model
                ),
            ),
            Meaning::Failed(why) => text.push_str(&format!(
                "[Search by meaning was not used, so this is by words alone: {why}]\n"
            )),
            Meaning::Off => {}
        }
        // No counts: the vault's, notes outside the scope included, are not
        // the reader's to know.
        if building {
            text.push_str(
                "[The index is still being built, so a note may be missing; search again shortly.]\n",
            );
        }
        if let Some(notice) = self.unread_notice(&|path| scope.contains(path)) {
            text.push_str(&notice);
        }
        let mut result = ToolResult::success(text);
        if ranked.withheld > 0 {
            result.withheld = Some(ranked.withheld);
        }
        result.found = Some(
            passages
                .iter()
                .map(|p| NoteHeading {
                    path: p.path.clone(),
                    heading: p.heading.clone(),
                })
                .collect(),
        );
        Ok(result)
    }

    /// Names the notes in scope the index could not read (over
    /// [`NOTE_READ_LIMIT`], or unreadable), so the model knows they were
    /// not searched and can look into them another way.
    fn unread_notice(&self, allowed: &dyn Fn(&str) -> bool) -> Option<String> {
        let state = self.search.borrow();
        let mut unread: Vec<&str> = state
            .unread
            .iter()
            .map(String::as_str)
            .filter(|p| allowed(p))
            .collect();
        if unread.is_empty() {
            return None;
        }
        unread.sort_unstable();
        let shown = unread.len().min(3);
        let more = match unread.len() - shown {
            0 => String::new(),
            n => format!(" and {n} more"),
        };
        Some(format!(
            "[Not searched here (over {} MiB, or unreadable): {}{more}. The CLI's `search` still looks in them.]\n",
            NOTE_READ_LIMIT >> 20,
            unread[..shown].join(", ")
        ))
    }

    /// The palette's "Search the vault": the user's own search, over every
    /// note the index holds (the folder scopes bound what the agent reads,
    /// not what the user may find in their own vault; the configuration
    /// folder and Excluded files are never indexed).
    /// A query the search cannot answer (no searchable words) is an answer
    /// that says why, never an error thrown at the palette.
    pub async fn search_for_user(&self, text: &str, limit: usize) -> UserSearch {
        let query = SearchQuery {
            text,
            limit,
            cursor: None,
        };
        match self.ranked_passages(&query, USER_BUDGET, &|_| true).await {
            Ok(found) => UserSearch {
                passages: found.passages,
                unanswered: None,
            },
            Err(why) => UserSearch {
                passages: Vec::new(),
                unanswered: Some(why),
            },
        }
    }

    /// The ranked hits among the notes `allowed` lets through, each with its
    /// passage cut from the note's text now, and how far a build in progress
    /// has come. The index is built first if it never was. With search by
    /// meaning on, the keyword and meaning rankings are fused.
    async fn ranked_passages(
        &self,
        query: &SearchQuery<'_>,
        budget: usize,
        allowed: &dyn Fn(&str) -> bool,
    ) -> Result<Found, String> {
        if self.search.borrow().phase == Phase::Idle {
            self.build_search_index(&|_| {}).await;
        }
        let by_meaning = match query.cursor {
            // A keyword page's cursor goes on with keywords alone.
            Some(cursor) if !cursor.starts_with('m') => None,
            _ => {
                self.nearest_by_meaning(query.text, allowed, fusion::DEPTH)
                    .await
            }
        };
        let (mut ranked, mut meaning_flags, meaning, building) =
            self.rank(query, allowed, by_meaning.as_ref())?;
        let paths: Vec<String> = ranked.hits.iter().map(|h| h.path.clone()).collect();
        let mut texts = self.host().vault_read_many(&paths, NOTE_READ_LIMIT).await;
        // A note on the page that is gone from the vault without an event
        // reaching us (a folder deleted outside Obsidian): dropped from the
        // index, and the page ranked again, so its counts and numbers hold.
        if texts.iter().any(Option::is_none) {
            let present = self.host().vault_notes().paths;
            let gone: Vec<&String> = paths
                .iter()
                .zip(&texts)
                .filter(|(path, text)| text.is_none() && !present.contains(path))
                .map(|(path, _)| path)
                .collect();
            if !gone.is_empty() {
                if let Some(index) = self.search.borrow_mut().index.as_mut() {
                    for path in &gone {
                        index.remove(path);
                    }
                }
                for path in &gone {
                    self.embeddings_note_read(path, None);
                }
                (ranked, meaning_flags, _, _) = self.rank(query, allowed, by_meaning.as_ref())?;
                let paths: Vec<String> = ranked.hits.iter().map(|h| h.path.clone()).collect();
                texts = self.host().vault_read_many(&paths, NOTE_READ_LIMIT).await;
            }
        }
        let mut passages = Vec::new();
        let mut changed = Vec::new();
        {
            let state = self.search.borrow();
            let index = state.index.as_ref().expect("built above");
            for ((hit, text), by_meaning) in ranked.hits.iter().zip(&texts).zip(&meaning_flags) {
                let Some(text) = text else { continue };
                let mut passage = index.passage(&ranked, hit, text, budget);
                passage.by_meaning = *by_meaning;
                if passage.changed {
                    changed.push((hit.path.clone(), text.clone()));
                }
                passages.push(passage);
            }
        }
        // A note that changed without an event reaching us: indexed again now.
        if !changed.is_empty() {
            let mut state = self.search.borrow_mut();
            if let Some(index) = state.index.as_mut() {
                for (path, text) in &changed {
                    let _ = index.upsert(path, text);
                }
            }
            drop(state);
            for (path, text) in &changed {
                self.embeddings_note_read(path, Some(text));
            }
        }
        Ok(Found {
            ranked,
            passages,
            building,
            meaning,
        })
    }

    /// One ranking of the notes `allowed` lets through: by words, or fused
    /// with `by_meaning`'s nearest notes when there are some; with which
    /// hits meaning found, and whether the index was still being built.
    fn rank(
        &self,
        query: &SearchQuery<'_>,
        allowed: &dyn Fn(&str) -> bool,
        by_meaning: Option<&Result<Vec<VectorHit>, String>>,
    ) -> Result<(Ranked, Vec<bool>, Meaning, bool), String> {
        let state = self.search.borrow();
        let index = state.index.as_ref().expect("built before ranking");
        let building = state.phase == Phase::Building;
        match by_meaning {
            Some(Ok(hits)) => {
                let stamp = self.embeddings.borrow().stamp;
                let fused = fusion::search(index, query, allowed, hits, stamp)
                    .map_err(|e| e.to_string())?;
                Ok((fused.ranked, fused.by_meaning, Meaning::Used, building))
            }
            other => {
                // A fused page's cursor cannot go on by words alone.
                if query.cursor.is_some_and(|c| c.starts_with('m')) {
                    let why = match other {
                        Some(Err(why)) => why.as_str(),
                        _ => "it is off now.",
                    };
                    return Err(format!(
                        "That cursor is for a page ranked by words and by meaning, and search by meaning is not available: {why} Run the search again without a cursor."
                    ));
                }
                let ranked = index.search(query, allowed).map_err(|e| e.to_string())?;
                let flags = vec![false; ranked.hits.len()];
                let meaning = match other {
                    Some(Err(why)) => Meaning::Failed(why.clone()),
                    _ => Meaning::Off,
                };
                Ok((ranked, flags, meaning, building))
            }
        }
    }
}

/// Whether search by meaning took part in a search.
enum Meaning {
    /// Off, or nothing embedded yet.
    Off,
    Used,
    /// On, but the query could not be embedded: keywords alone, and why.
    Failed(String),
}

/// A search's answer as the engine cut it.
struct Found {
    ranked: Ranked,
    passages: Vec<Passage>,
    /// The index was still being built.
    building: bool,
    meaning: Meaning,
}

/// The longest the build indexes before it gives the app a turn (a frame
/// is 16 ms; BENCHMARKS.md, "Ranked search in Chromium").
const SLICE_MS: f64 = 8.0;

/// How long a check waits for a build under way (10 000 notes build in
/// under a second in Node; BENCHMARKS.md), and how often it looks.
const BUILD_WAIT_MS: u32 = 30_000;
const BUILD_WAIT_STEP_MS: u32 = 50;

/// Characters of each passage in the palette's list: a few lines.
const USER_BUDGET: usize = 240;

/// The query's words that no note in scope holds, said before the page:
/// most misses of the ranked search are questions asked in other words than
/// the notes use ("money back" for a refund; BENCHMARKS.md, "Search
/// quality"), and only the caller knows the vault's likely words. A word
/// held only outside the read scope weighs 0 as well, so it is named like a
/// word no note holds ("you may search": the withheld count may still say
/// that hidden notes matched), and nothing more about hidden notes shows.
fn unused_words(ranked: &Ranked) -> String {
    let mut text = unsearched_words(ranked);
    let mut words: Vec<&str> = Vec::new();
    for term in ranked.terms.iter().filter(|t| t.weight == 0.0) {
        if !words.contains(&term.word.as_str()) {
            words.push(&term.word);
        }
    }
    if words.is_empty() {
        return text;
    }
    let mut named: Vec<String> = words
        .iter()
        .take(UNUSED_SHOWN)
        .map(|w| format!("\"{w}\""))
        .collect();
    if words.len() > UNUSED_SHOWN {
        named.push(format!("{} more", words.len() - UNUSED_SHOWN));
    }
    text.push_str(&format!(
        "[No note you may search holds {}: if these passages do not answer, search again with the words the notes would use for {}.]\n",
        named.join(", "),
        if words.len() == 1 { "it" } else { "them" },
    ));
    text
}

/// Says that the query's words past [`MAX_QUERY_TERMS`] were not searched
/// (none of them can have matched, nor be named as held by no note).
fn unsearched_words(ranked: &Ranked) -> String {
    if ranked.unsearched == 0 {
        return String::new();
    }
    format!(
        "[Only the first {MAX_QUERY_TERMS} words of the query were searched; {} more were left out. Ask with fewer words.]\n",
        ranked.unsearched
    )
}

/// The query as a page repeats it: a pasted page is not repeated whole.
fn shortened_query(query: &str) -> String {
    clipped(query, 200)
}

/// Words [`unused_words`] names at most (a pasted paragraph is not a
/// question; the count says the rest).
const UNUSED_SHOWN: usize = 8;

/// The page the reader gets: one entry per note, best first, each with its
/// heading path as the section reader takes it, the score, the words that
/// matched and the passage; then what follows.
fn page(query: &str, ranked: &Ranked, passages: &[Passage]) -> String {
    if ranked.total == 0 {
        let mut text = format!(
            "No note matches \"{}\". Try other words the notes would use, or obsidianSearch `search` for an exact phrase.\n",
            shortened_query(query)
        );
        text.push_str(&unsearched_words(ranked));
        return text;
    }
    let first = ranked.total - ranked.more - ranked.hits.len() + 1;
    let mut text = format!(
        "Ranked search for \"{}\": {} note{} match; {}-{} below, best first.\n",
        shortened_query(query),
        ranked.total,
        if ranked.total == 1 { "" } else { "s" },
        first,
        first + ranked.hits.len() - 1,
    );
    text.push_str(&unused_words(ranked));
    for (i, passage) in passages.iter().enumerate() {
        let heading = if passage.heading.is_empty() {
            "(before the first heading)".to_string()
        } else {
            format!("heading \"{}\"", passage.heading)
        };
        let matched = match (passage.matched.is_empty(), passage.by_meaning) {
            (true, _) => "found by meaning".to_string(),
            (false, false) => format!("matched: {}", passage.matched.join(", ")),
            (false, true) => format!("matched: {}; and by meaning", passage.matched.join(", ")),
        };
        text.push_str(&format!(
            "\n{}. {} {heading}, line {} (score {:.2}; {matched})\n",
            first + i,
            passage.path,
            passage.line,
            passage.score,
        ));
        if !passage.also.is_empty() {
            text.push_str(&format!("   Also matched: {}\n", passage.also.join("; ")));
        }
        for line in passage.text.lines() {
            text.push_str("   ");
            text.push_str(line);
            text.push('\n');
        }
    }
    // The chat shows the notes an answer cites among these as its sources.
    text.push_str(
        "\n[Cite each note you answer from as [[path#heading]], e.g. [[Folder/Note#Heading]].]\n",
    );
    let plural = if ranked.more == 1 { "" } else { "s" };
    match (&ranked.next, ranked.more > 0) {
        (Some(next), true) => text.push_str(&format!(
            "\n[{} more note{plural}: send cursor=\"{next}\" with the same query for the next page.]\n",
            ranked.more,
        )),
        (None, true) => text.push_str(&format!(
            "\n[{} more note{plural} hold some of these words but ranked below these; add words to narrow the search.]\n",
            ranked.more,
        )),
        _ => {}
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::query::QueryTerm;

    fn ranked_with(terms: &[(&str, f64)]) -> Ranked {
        Ranked {
            hits: Vec::new(),
            total: 1,
            more: 0,
            next: None,
            withheld: 0,
            unsearched: 0,
            terms: terms
                .iter()
                .map(|&(word, weight)| QueryTerm {
                    term: word.to_lowercase(),
                    forms: vec![word.to_lowercase()],
                    word: word.to_string(),
                    weight,
                })
                .collect(),
        }
    }

    #[test]
    fn unused_words_are_named_once_and_only_when_there_are_some() {
        assert_eq!(unused_words(&ranked_with(&[("launch", 2.0)])), "");
        assert_eq!(
            unused_words(&ranked_with(&[("money", 0.0), ("license", 1.5), ("money", 0.0)])),
            "[No note you may search holds \"money\": if these passages do not answer, search again with the words the notes would use for it.]\n"
        );
    }

    #[test]
    fn a_long_query_names_the_first_unused_words_and_counts_the_rest() {
        let words: Vec<String> = (0..11).map(|i| format!("w{i}")).collect();
        let terms: Vec<(&str, f64)> = words.iter().map(|w| (w.as_str(), 0.0)).collect();
        let text = unused_words(&ranked_with(&terms));
        assert!(
            text.starts_with("[No note you may search holds \"w0\", "),
            "{text}"
        );
        assert!(text.contains("\"w7\", 3 more: "), "{text}");
        assert!(!text.contains("\"w8\""), "{text}");
    }
}
