//! The inverted index: term ids, postings per term, and the notes and chunks
//! they point at, kept current one note at a time. Ranking lives in
//! `query.rs`; this file only stores and updates.

use std::cell::RefCell;
use std::collections::HashMap;

use super::language::detect;
use super::note::{self, NoteFields};
use super::postings::{pack_ids, unpack_ids, Posting, PostingList};
use super::ranking::{Ranking, ScopeCache, Scratch};
use super::text::{each_piece, folder_of, title_of, Analyzer, Language, Piece};
use super::SearchError;
use crate::base::vault_path::in_config_dir;
use crate::notes::frontmatter::body;

/// A note's fields for one term, shared by all its chunks: the title and
/// the folders (from the path), the aliases, the tags and property values
/// (8 bytes).
#[derive(Clone, Copy, Debug)]
pub(crate) struct NotePosting {
    pub note: u32,
    pub title: u8,
    pub alias: u8,
    pub meta: u8,
    pub folder: u8,
}

/// Lengths in terms, for the length normalisation.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct NoteLengths {
    pub title: u16,
    pub alias: u16,
    pub meta: u16,
    pub folder: u16,
}

pub(crate) struct Note {
    pub path: Box<str>,
    /// Chunk ids, in the note's order.
    pub chunks: Vec<u32>,
    /// Terms with a posting of this note's chunks, sorted, packed
    /// ([`pack_ids`]: about a byte and a half a term instead of four).
    pub terms: Box<[u8]>,
    /// Terms with a note posting from the text (aliases, tags, properties).
    pub text_terms: Vec<u32>,
    /// Terms with a note posting from the path (title, folders).
    pub path_terms: Vec<u32>,
    pub lengths: NoteLengths,
    /// The language its words were stemmed in (`language.rs`).
    pub language: Language,
    /// FNV-1a of the text, to skip an unchanged note and to see that the
    /// text a passage is cut from is the one indexed.
    pub hash: u64,
}

pub(crate) struct Chunk {
    /// `u32::MAX` for a free slot.
    pub note: u32,
    pub ordinal: u32,
    pub heading: Box<str>,
    pub start: u32,
    pub end: u32,
    pub heading_len: u16,
    pub body_len: u16,
}

/// What [`Index::upsert`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Upserted {
    Added,
    Changed,
    /// Same text as indexed: nothing to do.
    Unchanged,
}

/// Counts of what the index holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IndexStats {
    pub notes: usize,
    pub chunks: usize,
    pub terms: usize,
    pub postings: usize,
    /// The heap the index holds, estimated from its containers' capacities.
    pub bytes: usize,
}

/// The ranked search's index over the vault's notes.
pub struct Index {
    pub(crate) analyzer: Analyzer,
    pub(crate) ranking: Ranking,
    config_dir: String,
    /// Term → id. Ids are never freed: a term whose postings emptied keeps
    /// its id (a vault's vocabulary changes slowly) and weighs 0 in a query,
    /// as in an index that never saw it.
    pub(crate) terms: HashMap<Box<str>, u32>,
    pub(crate) term_text: Vec<Box<str>>,
    /// Per language ([`Language::slot`]), lower-case word → its term
    /// (`None`: a stop word), so a word is stemmed once, not at each of its
    /// occurrences.
    words: Vec<HashMap<Box<str>, Option<u32>>>,
    /// Per language, a word with accents → its exact form's term
    /// (`text::Analyzer::term_and_exact_in`), filled with `words`: a word
    /// there and not here has no exact form.
    exact_words: Vec<HashMap<Box<str>, u32>>,
    /// Per language, how many notes are written in it: a query is read in
    /// each language with a note.
    language_notes: Vec<u32>,
    /// The languages the user fixed, the main one first; empty: automatic.
    fixed: Vec<Language>,
    /// Per term, sorted by chunk id and compressed (`postings.rs`); an
    /// edit re-encodes only the blocks that hold the note's chunks.
    pub(crate) postings: Vec<PostingList>,
    /// Per term, sorted by note id, for the same reason.
    pub(crate) note_postings: Vec<Vec<NotePosting>>,
    pub(crate) notes: Vec<Option<Note>>,
    free_notes: Vec<u32>,
    pub(crate) by_path: HashMap<Box<str>, u32>,
    pub(crate) chunks: Vec<Chunk>,
    free_chunks: Vec<u32>,
    /// Moves on every change, so a cursor made before it is refused.
    pub(crate) generation: u64,
    /// The last query's scope, reused while nothing changed (`query.rs`).
    pub(crate) scope_cache: RefCell<ScopeCache>,
    /// A query's accumulators, kept between queries (`ranking.rs`).
    pub(crate) scratch: RefCell<Scratch>,
}

pub(crate) fn fnv(text: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.as_bytes() {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// Two term counts sorted by term, joined: (term, count in a, count in b).
fn merge(a: &[(u32, u32)], b: &[(u32, u32)]) -> Vec<(u32, u32, u32)> {
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::with_capacity(a.len().max(b.len()));
    while i < a.len() || j < b.len() {
        match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) if x.0 == y.0 => {
                out.push((x.0, x.1, y.1));
                i += 1;
                j += 1;
            }
            (Some(x), Some(y)) if x.0 < y.0 => {
                out.push((x.0, x.1, 0));
                i += 1;
            }
            (Some(x), None) => {
                out.push((x.0, x.1, 0));
                i += 1;
            }
            (_, Some(y)) => {
                out.push((y.0, 0, y.1));
                j += 1;
            }
            (None, None) => unreachable!(),
        }
    }
    out
}

fn clamp8(n: u32) -> u8 {
    n.min(u32::from(u8::MAX)) as u8
}

fn clamp16(n: u32) -> u16 {
    n.min(u32::from(u16::MAX)) as u16
}

/// Where note `id`'s posting is (`Ok`) or would go (`Err`) in a list
/// sorted by note id.
fn find_note_posting(list: &[NotePosting], id: u32) -> Result<usize, usize> {
    list.binary_search_by_key(&id, |p| p.note)
}

impl Index {
    /// An empty index. `config_dir` is the vault's configuration folder
    /// (`app.vault.configDir`, usually `.obsidian`): nothing in it is ever
    /// held.
    pub fn new(config_dir: &str, language: Language) -> Index {
        Index {
            analyzer: Analyzer::new(language),
            ranking: Ranking::default(),
            config_dir: config_dir.to_string(),
            terms: HashMap::new(),
            term_text: Vec::new(),
            words: vec![HashMap::new(); Language::ALL.len()],
            exact_words: vec![HashMap::new(); Language::ALL.len()],
            language_notes: vec![0; Language::ALL.len()],
            fixed: Vec::new(),
            postings: Vec::new(),
            note_postings: Vec::new(),
            notes: Vec::new(),
            free_notes: Vec::new(),
            by_path: HashMap::new(),
            chunks: Vec::new(),
            free_chunks: Vec::new(),
            generation: 0,
            scope_cache: RefCell::default(),
            scratch: RefCell::default(),
        }
    }

    /// The default language: of the notes whose text does not plainly
    /// show another.
    pub fn language(&self) -> Language {
        self.analyzer.language()
    }

    /// Fixes the languages notes are read in (the user's setting), the
    /// main one first; before any note is added. Empty: automatic, from
    /// the default and each note's text.
    pub fn fix_languages(&mut self, languages: &[Language]) {
        if let Some(&main) = languages.first() {
            self.analyzer = Analyzer::new(main);
        }
        self.fixed = languages.to_vec();
    }

    /// The languages the held notes are written in, the default first (a
    /// query is read in each): every fixed one, and any other a note
    /// declared (`lang`).
    pub fn languages(&self) -> Vec<Language> {
        let default = self.language();
        let mut languages = vec![default];
        for language in self.fixed.iter().copied().chain(
            Language::ALL
                .into_iter()
                .filter(|l| self.language_notes[l.slot()] > 0),
        ) {
            if !languages.contains(&language) {
                languages.push(language);
            }
        }
        languages
    }

    /// The language note `id` was read in.
    pub(crate) fn note_language(&self, id: u32) -> Language {
        self.note(id).language
    }

    /// Changes how the fields weigh (for the evaluation; the default is the
    /// one chosen).
    pub fn set_ranking(&mut self, ranking: Ranking) {
        self.ranking = ranking;
    }

    /// Refuses a path the index must never hold: the configuration folder,
    /// any hidden file or folder (Obsidian does not list them), an empty or
    /// absolute path.
    pub fn check_path(&self, path: &str) -> Result<(), SearchError> {
        if path.is_empty() || path.starts_with('/') {
            return Err(SearchError::BadPath(path.to_string()));
        }
        if in_config_dir(path, &self.config_dir) || path.split('/').any(|s| s.starts_with('.')) {
            return Err(SearchError::ConfigFolder(path.to_string()));
        }
        Ok(())
    }

    /// Indexes one note's text, replacing what was held for its path; only
    /// this note is touched.
    pub fn upsert(&mut self, path: &str, text: &str) -> Result<Upserted, SearchError> {
        self.check_path(path)?;
        let hash = fnv(text);
        let existed = match self.by_path.get(path) {
            Some(&id) => {
                if self.note(id).hash == hash {
                    return Ok(Upserted::Unchanged);
                }
                self.drop_note(id);
                true
            }
            None => false,
        };
        self.add_note(path, text, hash);
        self.generation += 1;
        Ok(if existed {
            Upserted::Changed
        } else {
            Upserted::Added
        })
    }

    /// Forgets a note; false when it was not held.
    pub fn remove(&mut self, path: &str) -> bool {
        match self.by_path.get(path) {
            Some(&id) => {
                self.drop_note(id);
                self.generation += 1;
                true
            }
            None => false,
        }
    }

    /// Moves a note's entries to its new path: only the title and folder
    /// terms change, the text is not read again. A note already held at `to`
    /// is replaced. A move into the configuration folder drops the note and
    /// says so. False when `from` was not held.
    pub fn rename(&mut self, from: &str, to: &str) -> Result<bool, SearchError> {
        let Some(&id) = self.by_path.get(from) else {
            self.check_path(to)?;
            return Ok(false);
        };
        if let Err(refused) = self.check_path(to) {
            self.remove(from);
            return Err(refused);
        }
        if from == to {
            return Ok(true);
        }
        if let Some(&other) = self.by_path.get(to) {
            self.drop_note(other);
        }
        let old_terms = std::mem::take(&mut self.note_mut(id).path_terms);
        for term in old_terms {
            let list = &mut self.note_postings[term as usize];
            if let Ok(i) = find_note_posting(list, id) {
                list[i].title = 0;
                list[i].folder = 0;
                if list[i].alias == 0 && list[i].meta == 0 {
                    list.remove(i);
                }
            }
        }
        self.by_path.remove(from);
        self.by_path.insert(to.into(), id);
        self.note_mut(id).path = to.into();
        self.add_path_terms(id, to);
        self.generation += 1;
        Ok(true)
    }

    /// Gives back the spare capacity of the postings lists (a list grows by
    /// doubling while a vault is first indexed): call after the first build.
    pub fn shrink(&mut self) {
        for list in &mut self.postings {
            list.shrink_to_fit();
        }
        for list in &mut self.note_postings {
            list.shrink_to_fit();
        }
        self.chunks.shrink_to_fit();
        self.notes.shrink_to_fit();
    }

    /// Whether every postings list is in the order edits rely on (for the
    /// tests that interleave edits).
    #[cfg(any(test, feature = "testing"))]
    pub fn postings_are_sorted(&self) -> bool {
        self.postings.iter().all(|l| {
            let held: Vec<Posting> = l.iter().collect();
            held.len() == l.len() && held.windows(2).all(|w| w[0].chunk < w[1].chunk)
        }) && self
            .note_postings
            .iter()
            .all(|l| l.windows(2).all(|w| w[0].note < w[1].note))
    }

    /// How many notes the index holds.
    pub fn len(&self) -> usize {
        self.by_path.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_path.is_empty()
    }

    pub fn contains(&self, path: &str) -> bool {
        self.by_path.contains_key(path)
    }

    /// Every note held, in no particular order.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.by_path.keys().map(|p| &**p)
    }

    pub fn stats(&self) -> IndexStats {
        let postings: usize = self.postings.iter().map(PostingList::len).sum::<usize>()
            + self.note_postings.iter().map(Vec::len).sum::<usize>();
        let mut bytes = 0usize;
        bytes += self
            .postings
            .iter()
            .map(|l| l.heap_bytes() + std::mem::size_of::<PostingList>())
            .sum::<usize>();
        bytes += self
            .note_postings
            .iter()
            .map(|l| l.capacity() * std::mem::size_of::<NotePosting>() + 24)
            .sum::<usize>();
        // A hash map entry: key box, value, about one control byte, at a
        // load of 7/8.
        bytes += self
            .terms
            .keys()
            .map(|k| k.len() * 2 + 16 + 24 + 4)
            .sum::<usize>();
        bytes += self
            .words
            .iter()
            .flat_map(HashMap::keys)
            .map(|k| k.len() + 16 + 8 + 2)
            .sum::<usize>();
        bytes += self
            .exact_words
            .iter()
            .flat_map(HashMap::keys)
            .map(|k| k.len() + 16 + 4 + 2)
            .sum::<usize>();
        bytes += self.chunks.capacity() * std::mem::size_of::<Chunk>()
            + self.chunks.iter().map(|c| c.heading.len()).sum::<usize>();
        bytes += self.notes.capacity() * std::mem::size_of::<Option<Note>>();
        for n in self.notes.iter().flatten() {
            bytes += n.path.len() * 2
                + 32
                + n.terms.len()
                + 4 * (n.chunks.capacity() + n.text_terms.capacity() + n.path_terms.capacity());
        }
        IndexStats {
            notes: self.by_path.len(),
            chunks: self.notes.iter().flatten().map(|n| n.chunks.len()).sum(),
            terms: self.terms.len(),
            postings,
            bytes,
        }
    }

    pub(crate) fn note(&self, id: u32) -> &Note {
        self.notes[id as usize]
            .as_ref()
            .expect("note ids point at held notes")
    }

    fn note_mut(&mut self, id: u32) -> &mut Note {
        self.notes[id as usize]
            .as_mut()
            .expect("note ids point at held notes")
    }

    /// Every term of `text` with its count, sorted by term id; and how
    /// many terms the text has (a word's exact form, beside its term, is
    /// not counted in the length).
    fn count_terms(&mut self, text: &str, language: Language) -> (Vec<(u32, u32)>, u32) {
        let Index {
            analyzer,
            terms,
            term_text,
            words,
            exact_words,
            postings,
            note_postings,
            ..
        } = self;
        let mut intern = |term: &str| -> u32 {
            if let Some(&id) = terms.get(term) {
                return id;
            }
            let id = term_text.len() as u32;
            terms.insert(term.into(), id);
            term_text.push(term.into());
            postings.push(PostingList::default());
            note_postings.push(Vec::new());
            id
        };
        let words = &mut words[language.slot()];
        let exact_words = &mut exact_words[language.slot()];
        let mut ids: Vec<u32> = Vec::new();
        let mut exact_ids: Vec<u32> = Vec::new();
        each_piece(text, |piece, _| {
            let id = match piece {
                Piece::Word(lower) if lower.is_ascii() => match words.get(lower) {
                    Some(id) => *id,
                    None => {
                        let id = analyzer.term_in(language, lower).map(|t| intern(&t));
                        words.insert(lower.into(), id);
                        id
                    }
                },
                Piece::Word(lower) => match words.get(lower) {
                    Some(id) => {
                        exact_ids.extend(exact_words.get(lower).copied());
                        *id
                    }
                    None => {
                        let (term, exact) = analyzer.term_and_exact_in(language, lower, true);
                        let id = term.map(|t| intern(&t));
                        words.insert(lower.into(), id);
                        if let Some(exact) = exact.map(|t| intern(&t)) {
                            exact_words.insert(lower.into(), exact);
                            exact_ids.push(exact);
                        }
                        id
                    }
                },
                Piece::Gram(gram) => Some(intern(gram)),
            };
            ids.extend(id);
        });
        let total = ids.len() as u32;
        ids.append(&mut exact_ids);
        ids.sort_unstable();
        let mut counts: Vec<(u32, u32)> = Vec::new();
        for id in ids {
            match counts.last_mut() {
                Some((t, n)) if *t == id => *n += 1,
                _ => counts.push((id, 1)),
            }
        }
        (counts, total)
    }

    /// Text without the Markdown a reader does not see.
    fn visible(text: &str) -> String {
        let hidden = super::text::hidden_markup(text);
        if hidden.is_empty() {
            return text.to_string();
        }
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for r in hidden {
            out.push_str(&text[at..r.start]);
            out.push(' ');
            at = r.end;
        }
        out.push_str(&text[at..]);
        out
    }

    fn add_note(&mut self, path: &str, text: &str, hash: u64) {
        let NoteFields {
            aliases,
            meta,
            chunks,
            lang,
        } = note::read(text);
        let language = detect(body(text), lang.as_deref(), self.language(), &self.fixed);
        self.language_notes[language.slot()] += 1;
        let id = match self.free_notes.pop() {
            Some(id) => id,
            None => {
                self.notes.push(None);
                (self.notes.len() - 1) as u32
            }
        };
        self.notes[id as usize] = Some(Note {
            path: path.into(),
            chunks: Vec::with_capacity(chunks.len()),
            terms: Box::default(),
            text_terms: Vec::new(),
            path_terms: Vec::new(),
            lengths: NoteLengths::default(),
            language,
            hash,
        });
        self.by_path.insert(path.into(), id);
        // Fields of the whole note from its text.
        let (alias_counts, alias_len) = self.count_terms(&aliases.join("\n"), language);
        let (meta_counts, meta_len) = self.count_terms(&meta.join("\n"), language);
        let mut text_terms = Vec::new();
        for (term, alias, meta) in merge(&alias_counts, &meta_counts) {
            let list = &mut self.note_postings[term as usize];
            let at = find_note_posting(list, id).unwrap_or_else(|at| at);
            list.insert(
                at,
                NotePosting {
                    note: id,
                    title: 0,
                    alias: clamp8(alias),
                    meta: clamp8(meta),
                    folder: 0,
                },
            );
            text_terms.push(term);
        }
        // Each chunk's heading path and text.
        let mut note_terms: Vec<u32> = Vec::new();
        let mut chunk_ids = Vec::with_capacity(chunks.len());
        for (ordinal, chunk) in chunks.iter().enumerate() {
            let (heading_counts, heading_len) =
                self.count_terms(&chunk.heading.replace("::", "\n"), language);
            let (body_counts, body_len) =
                self.count_terms(&Self::visible(&text[chunk.range.clone()]), language);
            let slot = Chunk {
                note: id,
                ordinal: ordinal as u32,
                heading: chunk.heading.as_str().into(),
                start: chunk.range.start as u32,
                end: chunk.range.end as u32,
                heading_len: clamp16(heading_len),
                body_len: clamp16(body_len),
            };
            let chunk_id = match self.free_chunks.pop() {
                Some(c) => {
                    self.chunks[c as usize] = slot;
                    c
                }
                None => {
                    self.chunks.push(slot);
                    (self.chunks.len() - 1) as u32
                }
            };
            chunk_ids.push(chunk_id);
            for (term, heading, body) in merge(&heading_counts, &body_counts) {
                self.postings[term as usize].insert(Posting {
                    chunk: chunk_id,
                    heading: clamp8(heading),
                    body: clamp16(body),
                });
                note_terms.push(term);
            }
        }
        note_terms.sort_unstable();
        note_terms.dedup();
        let note = self.note_mut(id);
        note.chunks = chunk_ids;
        note.terms = pack_ids(&note_terms);
        note.text_terms = text_terms;
        note.lengths.alias = clamp16(alias_len);
        note.lengths.meta = clamp16(meta_len);
        self.add_path_terms(id, path);
    }

    /// The title and folder terms of `path`, into the note postings.
    fn add_path_terms(&mut self, id: u32, path: &str) {
        let language = self.note(id).language;
        let (title_counts, title_len) = self.count_terms(title_of(path), language);
        let (folder_counts, folder_len) = self.count_terms(folder_of(path), language);
        let mut terms = Vec::new();
        for (term, title, folder) in merge(&title_counts, &folder_counts) {
            let (title, folder) = (clamp8(title), clamp8(folder));
            terms.push(term);
            let list = &mut self.note_postings[term as usize];
            match find_note_posting(list, id) {
                Ok(i) => {
                    list[i].title = title;
                    list[i].folder = folder;
                }
                Err(at) => list.insert(
                    at,
                    NotePosting {
                        note: id,
                        title,
                        alias: 0,
                        meta: 0,
                        folder,
                    },
                ),
            }
        }
        let note = self.note_mut(id);
        note.path_terms = terms;
        note.lengths.title = clamp16(title_len);
        note.lengths.folder = clamp16(folder_len);
    }

    fn drop_note(&mut self, id: u32) {
        let note = self.notes[id as usize]
            .take()
            .expect("note ids point at held notes");
        self.language_notes[note.language.slot()] -= 1;
        let mut chunks = note.chunks.clone();
        chunks.sort_unstable();
        for term in unpack_ids(&note.terms) {
            self.postings[term as usize].remove(&chunks);
        }
        for &term in note.text_terms.iter().chain(&note.path_terms) {
            let list = &mut self.note_postings[term as usize];
            if let Ok(at) = find_note_posting(list, id) {
                list.remove(at);
            }
        }
        for &chunk in &note.chunks {
            let slot = &mut self.chunks[chunk as usize];
            slot.note = u32::MAX;
            slot.heading = "".into();
            self.free_chunks.push(chunk);
        }
        self.by_path.remove(&note.path);
        self.free_notes.push(id);
    }
}
