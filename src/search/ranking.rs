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
