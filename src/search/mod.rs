//! The ranked search: "what did I write about X?" asked in the user's own
//! words, answered with the passages that match best. Pure Rust (no host):
//! the engine feeds it the notes' text and asks it questions.
//!
//! - `text.rs`: the one text model, shared with the hygiene checks.
//! - `note.rs`: a note's fields and its chunks (sections, cut to size).
//! - `index.rs`: the inverted index, kept current one note at a time.
//! - `postings.rs`: a term's chunk postings, compressed in blocks.
//! - `query.rs`: BM25F ranking, the scope, pages and cursors.
//! - `passage.rs`: the passage of a hit, cut from the note's text.
//! - `related.rs`: similar titles and related notes on the same index.
//! - `vectors.rs`: the optional vectors of search by meaning, per section.
//! - `fusion.rs`: keyword and meaning ranks merged by taking turns.
//!
//! # What was chosen, and why
//!
//! **Chunks, not notes.** A hit is a passage, so the unit ranked is a
//! section (the text under one heading, up to the next heading of any
//! level), cut again at paragraphs when longer than [`note::CHUNK_BYTES`]
//! (2 000 bytes): long enough to hold an answer with its context, short
//! enough that a passage of 600 characters shows most of it and that a
//! huge note is indexed in parts like any other. Results are one per note,
//! scored by its best chunk (the other sections that matched are named in
//! `also`), because "which note" is what the user follows up on; adding even
//! a tenth of the other chunks' scores let long notes that mention
//! everything once outrank the note that answers (recall@5 on the help
//! vault 0.77 → 0.70).
//!
//! **BM25F** (Robertson & Zaragoza's field-weighted BM25): per chunk and
//! term, the frequencies of the four fields are each normalised by the
//! field's length, weighted, summed, and only then saturated
//! (`k1` = [`ranking::K1`] = 1.2, the usual value). Fields and weights:
//! name (title and aliases) 4, heading path 2.5, tags and property values
//! (and the note's folders) 1.5, body 1. The name field's `b` is low (0.3):
//! a long title is not less about its words; the body's is the usual 0.75.
//! Summing before saturating (rather than BM25 per field) means a word in
//! the title and the text is worth more than either, but never unboundedly:
//! a title cannot drown the text. The note-wide fields (name, tags,
//! properties, folders) are stored once per note and added to each chunk of
//! the note at query time, so a rename changes only the title and folder
//! postings and never reads the note again.
//!
//! **The scope before ranking.** Every statistic (chunks in the collection,
//! how many hold a term, average field lengths) is taken over the notes the
//! caller's predicate lets through, so a score is exactly the one an index
//! of only those notes would give: a note outside the scope moves no score
//! and is never returned; it is only counted in `withheld`.
//!
//! **Words.** Case and accents folded (a table for the European Latin
//! letters; the plugin carries no Unicode tables), and each note's words
//! stemmed by the Snowball stemmer of its own language (all eighteen of
//! `rust-stemmers`, the crate tantivy uses): the language a `lang` property
//! names, else the one its script or common words plainly show
//! (`language.rs`), else the index's default. A query is read in every
//! language the held notes are written in. The other languages are stemmed
//! before folding because their stemmers expect their accents. English
//! function words and the words a question is framed with ("how", "what",
//! "does") are stop words. Runs of Han, kana, Hangul and Thai become
//! overlapping character bigrams, the usual unit for scripts written
//! without spaces when there is no dictionary. Markdown a reader does not see (embeds, a link's
//! target when it shows other text, web addresses) is not indexed, so
//! linking to a note does not make a note about it.
//!
//! **Passages.** The chunk's line holding the most query weight (each term
//! once, by its idf), widened a line at a time (the next line first) to the
//! budget ([`passage::DEFAULT_BUDGET`] = 600 characters); a longer line is
//! cut around its first match at spaces, with `…`. The index holds no text:
//! passages are cut from the note as it is when asked (its hash says
//! whether it changed since it was indexed), which keeps the index at
//! postings only and every passage current.
//!
//! **Memory.** Term ids (`u32`); chunk postings compressed in blocks
//! (`postings.rs`: varint gaps and counts, about 2 bytes each where they
//! were 8); note postings of 8 bytes (note id and four field counts); no
//! positions and no text. A query's accumulators are kept between queries
//! and cleared where it wrote. 36 MB for 10 000 notes of 2.5 KB before
//! issue 38, 13 MB after (BENCHMARKS.md).
//!
//! **Measured** (BENCHMARKS.md, "Ranked search"): recall@5 100 % on a
//! generated vault whose questions avoid the answers' titles, 77 % on 43
//! questions written by hand over Obsidian's help vault (the CLI's `search`:
//! 0 % and 7 %); the misses are paraphrases the notes do not use, which is
//! what the optional embeddings are for: with all-MiniLM-L6-v2, 93 % on the
//! help vault and still 100 % on the generated one ("Quality with
//! embeddings"). The weights above were swept: none of them moved recall@5
//! by more than one question.

pub mod compound;
pub mod embedding_api;
pub mod fusion;
pub mod index;
pub mod language;
pub mod note;
pub mod passage;
pub(crate) mod postings;
pub mod query;
pub mod ranking;
pub mod related;
pub mod text;
pub mod vectors;
pub mod web_api;

pub use index::{Index, IndexStats, Upserted};
pub use passage::{Passage, DEFAULT_BUDGET};
pub use query::{Ranked, RankedHit, SearchQuery};
pub use related::{RelatedNote, Subject, TitleMatch};
pub use text::Language;

/// Why the search refused a call; each says what to do instead.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    #[error("The query has no words to search for (only very short or very common words such as \"the\" or \"how\"). Add a word the notes would contain, or use Obsidian's search (obsidianSearch `search`) for an exact word such as \"IT\" or \"May\".")]
    EmptyQuery,
    #[error("The cursor \"{0}\" was not made by this search. Pass the `next` value of the previous page with the same query, or search again without a cursor.")]
    BadCursor(String),
    #[error("The vault changed since that page was made, so the pages would skip or repeat notes. Run the search again without a cursor.")]
    StaleCursor,
    #[error("\"{0}\" lies in the vault's configuration folder or a hidden folder, which is never indexed.")]
    ConfigFolder(String),
    #[error("\"{0}\" is not a vault-relative note path (for example `Projects/Plan.md`).")]
    BadPath(String),
}

/// A ranked search as a tool call asks it (owned, for the plan).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchRequest {
    pub query: String,
    pub limit: usize,
    pub cursor: Option<String>,
    /// Characters of each passage.
    pub budget: usize,
}

/// True when `path` is left out by one of Obsidian's "Excluded files"
/// filters: a plain filter matches the paths it begins (`Archive/`,
/// `Drafts/old`), a `/regex/` one the paths its regular expression matches,
/// as Obsidian matches them. `regex` tests a pattern (the host's engine:
/// the plugin carries none of its own); an invalid one leaves the note
/// indexed, as it leaves it shown in Obsidian, and the folder scopes remain
/// what keeps a note from the agent.
pub fn is_excluded(
    path: &str,
    filters: &[String],
    regex: &dyn Fn(&str, &str) -> Option<bool>,
) -> bool {
    filters.iter().any(
        |filter| match filter.strip_prefix('/').and_then(|f| f.strip_suffix('/')) {
            Some(pattern) if !pattern.is_empty() => regex(pattern, path) == Some(true),
            _ => !filter.is_empty() && path.starts_with(filter.as_str()),
        },
    )
}

/// A page of passages, as the reader gets it.
#[derive(Clone, Debug, PartialEq)]
pub struct Page {
    pub passages: Vec<Passage>,
    pub total: usize,
    pub more: usize,
    pub next: Option<String>,
    pub withheld: usize,
    /// Hits whose note could not be read when the passage was cut (gone
    /// since): left out of `passages`.
    pub unread: Vec<String>,
}

impl Index {
    /// Ranks, then cuts each hit's passage from the note's text as `read`
    /// gives it now (`None`: the note is gone).
    pub fn find(
        &self,
        query: &SearchQuery<'_>,
        visible: &dyn Fn(&str) -> bool,
        budget: usize,
        read: &mut dyn FnMut(&str) -> Option<String>,
    ) -> Result<Page, SearchError> {
        let ranked = self.search(query, visible)?;
        let mut passages = Vec::new();
        let mut unread = Vec::new();
        for hit in &ranked.hits {
            match read(&hit.path) {
                Some(text) => passages.push(self.passage(&ranked, hit, &text, budget)),
                None => unread.push(hit.path.clone()),
            }
        }
        Ok(Page {
            passages,
            total: ranked.total,
            more: ranked.more,
            next: ranked.next,
            withheld: ranked.withheld,
            unread,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::is_excluded;

    #[test]
    fn excluded_files_are_plain_beginnings_or_regular_expressions() {
        let filters = vec![
            "Archive/".to_string(),
            "/draft/".to_string(),
            "/".to_string(),
        ];
        // The host's engine, here: "draft" found anywhere; "(" invalid.
        let regex =
            |pattern: &str, text: &str| (!pattern.contains('(')).then(|| text.contains(pattern));
        assert!(is_excluded("Archive/Old.md", &filters, &regex));
        assert!(is_excluded("Notes/My draft.md", &filters, &regex));
        assert!(!is_excluded("Notes/Final.md", &filters, &regex));
        assert!(
            !is_excluded("Notes/Archive/Old.md", &filters, &regex),
            "a plain filter is a beginning"
        );
        let invalid = vec!["/dra(ft/".to_string()];
        assert!(
            !is_excluded("Notes/My draft.md", &invalid, &regex),
            "an invalid pattern leaves the note in"
        );
    }
}
