//! How the fields and chunks of a note count in the ranking (BM25F): the
//! index keeps these, the query applies them.

/// BM25's saturation of a term's weighted frequency.
pub const K1: f64 = 1.2;

/// One field of the ranking: its weight, and how much its length counts
/// (BM25's `b`: 0 not at all, 1 fully).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Field {
    pub weight: f64,
    pub b: f64,
}

/// How the four fields and the chunks of a note count (see the module's
/// doc for why these values).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ranking {
    pub k1: f64,
    /// Title and aliases.
    pub name: Field,
    /// The heading path.
    pub headings: Field,
    /// Tags, property values, folders.
    pub meta: Field,
    pub body: Field,
    /// A note's score is its best chunk's plus this share of each other
    /// matching chunk's (a note about the question in several places
    /// outranks one that mentions it once).
    pub rest: f64,
}

impl Default for Ranking {
    fn default() -> Ranking {
        Ranking {
            k1: K1,
            name: Field {
                weight: 4.0,
                b: 0.3,
            },
            headings: Field {
                weight: 2.5,
                b: 0.4,
            },
            meta: Field {
                weight: 1.5,
                b: 0.5,
            },
            body: Field {
                weight: 1.0,
                b: 0.75,
            },
            rest: 0.0,
        }
    }
}

/// The collection's statistics over the notes in a scope: how many chunks,
/// and each field's average length.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Stats {
    pub chunks: usize,
    pub name: f64,
    pub heading: f64,
    pub meta: f64,
    pub body: f64,
}

impl Stats {
    /// BM25's length normalisation of one field.
    pub fn norm(&self, field: Field, len: u32, average: f64) -> f64 {
        1.0 - field.b + field.b * f64::from(len) / average
    }
}

/// What a query needs of its scope before any term is looked at (which
/// notes are in it, their statistics, each chunk's field weights over its
/// length normalisation), kept from one query to the next while the index
/// and the scope stay the same: computing it walks every note and chunk,
/// which was half of a query's time at 10 000 notes.
#[derive(Default)]
pub(crate) struct ScopeCache {
    /// The index's generation it was computed at.
    pub generation: u64,
    /// The ranking it was computed with.
    pub ranking: Option<Ranking>,
    /// Per note id: in the scope.
    pub shown: Vec<bool>,
    pub stats: Stats,
    /// Per length in terms: the heading and body fields' weight over their
    /// length normalisation (up to the longest chunk in scope).
    pub heading_part: Vec<f64>,
    pub body_part: Vec<f64>,
    /// A hash of the notes in scope as indexed (each one's id, path and
    /// text): what a page's cursor is checked against.
    pub fingerprint: u64,
}

/// A query's accumulators, per chunk id and per note id, kept between
/// queries: allocating and zeroing them per query cost time in proportion
/// to the vault, not to the postings read. Each query clears only what the
/// one before it wrote (the lists below).
#[derive(Default)]
pub(crate) struct Scratch {
    /// A term's weighted frequency per chunk (cleared after each term).
    pub tf: Vec<f64>,
    pub scores: Vec<f64>,
    /// Which of the query's words a chunk matched, a bit each.
    pub matched: Vec<u64>,
    /// Per note: held a query term but is outside the scope.
    pub hidden: Vec<bool>,
    /// Per note: its place in the query's list of notes found.
    pub at_note: Vec<u32>,
    /// Chunks with a score, notes in `hidden`, notes with an `at_note`.
    pub scored: Vec<u32>,
    pub hidden_notes: Vec<u32>,
    pub best_notes: Vec<u32>,
}

impl Scratch {
    /// Clears what the last query wrote and fits the index's sizes.
    pub fn ready(&mut self, chunks: usize, notes: usize) {
        for &c in &self.scored {
            self.scores[c as usize] = 0.0;
            self.matched[c as usize] = 0;
        }
        for &n in &self.hidden_notes {
            self.hidden[n as usize] = false;
        }
        for &n in &self.best_notes {
            self.at_note[n as usize] = u32::MAX;
        }
        self.scored.clear();
        self.hidden_notes.clear();
        self.best_notes.clear();
        if self.tf.len() < chunks {
            self.tf.resize(chunks, 0.0);
            self.scores.resize(chunks, 0.0);
            self.matched.resize(chunks, 0);
        }
        if self.hidden.len() < notes {
            self.hidden.resize(notes, false);
            self.at_note.resize(notes, u32::MAX);
        }
    }
}
