//! Keyword and meaning together: the two rankings merged by taking turns
//! (round-robin interleaving, the oldest way to merge rankings whose scores
//! cannot be compared: Voorhees, Gupta & Johnson-Laird 1995; balanced
//! interleaving, Joachims 2002). A note is placed at its better rank in
//! either ranking; on a tie the words' note comes first. So each ranking's
//! first `n` notes are among the fused first `2n`: neither ranking can push
//! the other's best out of the page, and a ranking that is wrong for a
//! query costs at most every other place. Ranks, not scores, because BM25's
//! scores and cosines are on scales that cannot be compared.
//!
//! **Why not reciprocal rank fusion** (Cormack, Clarke & Büttcher 2009: a
//! note scores `1 / (60 + rank)` in each ranking, summed), which this
//! replaced: over two rankings of 50 notes, any note in both outscores the
//! first of either alone (`1/61 < 1/110 + 1/110`), so agreement decides,
//! not rank. Measured with a real model (all-MiniLM-L6-v2) by
//! `scripts/eval-search.mjs` (BENCHMARKS.md, "Ranked search with
//! embeddings"): on the generated vault, where the words find every answer
//! first and meaning does not, recall@5 fell from 1.00 to 0.13; with the
//! tests' stand-in model (noise), recall@5 on the help vault fell from 0.77
//! to 0.51. Interleaving: 1.00 and 0.93 with the model (words alone: 1.00
//! and 0.77), 1.00 and 0.67 with the stand-in, and with a second model
//! (all-mpnet-base-v2) 1.00 and 0.91 where reciprocal rank fusion gave 0.35
//! and 0.88. Cutting each ranking to its first 5 or 10 before summing, or a
//! smaller `60`, kept at most 0.83 on the generated vault (and at best 0.93
//! on the help vault, with either model).
//!
//! Words go first on a tie because they are the exact signal: a name, a
//! rare word or a phrase the user typed, which embeddings blur, while
//! meaning catches the paraphrases the words miss.
//!
//! Each ranking contributes its first [`DEPTH`] notes; the fused list is
//! paged with its own cursor. A note found only by meaning shows its best
//! section; one found by its words keeps the keyword hit's section and
//! matched words. The score shown is `100 / (K + rank)` of the note's
//! better rank.

use super::index::Index;
use super::query::{shortened, Cursor, Ranked, RankedHit, SearchQuery};
use super::vectors::VectorHit;
use super::SearchError;

/// The score shown for a fused hit: `100 / (K + rank)` of its better rank
/// (for the reader only; the order is by rank).
pub const K: f64 = 60.0;

/// Notes taken from each ranking.
pub const DEPTH: usize = 50;

/// The fused page, with the hits found by meaning alone marked.
#[derive(Clone, Debug, PartialEq)]
pub struct Fused {
    pub ranked: Ranked,
    /// Per hit of `ranked.hits`: found by meaning (alone or with its words).
    pub by_meaning: Vec<bool>,
}

/// A note in the fused order.
struct Placed {
    /// Its better rank in the two rankings (0: first).
    rank: usize,
    /// That rank is its rank by meaning (and not also by words).
    by_meaning_first: bool,
    keyword: Option<usize>,
    meaning: Option<usize>,
}

/// Fuses `keyword` (the first page of at most [`DEPTH`] notes, `None` when
/// the query has no words to search for) with `meaning`, and cuts the page
/// `cursor` asks for. `stamp` moves whenever the notes in scope or the
/// vectors change, so an old cursor is refused.
pub fn fuse(
    index: &Index,
    query: &str,
    keyword: Option<Ranked>,
    meaning: &[VectorHit],
    limit: usize,
    cursor: Option<&str>,
    stamp: u64,
) -> Result<Fused, SearchError> {
    let offset = match cursor {
        Some(cursor) => Cursor::read(cursor, query, "m")?.offset_if_made_at(stamp)?,
        None => 0,
    };
    let (hits, terms, withheld, beyond, unsearched) = match keyword {
        Some(ranked) => {
            let beyond = ranked.total - ranked.hits.len();
            (
                ranked.hits,
                ranked.terms,
                ranked.withheld,
                beyond,
                ranked.unsearched,
            )
        }
        None => (Vec::new(), Vec::new(), 0, 0, 0),
    };
    // Each note at its better rank; on a tie, the words' note first.
    let mut notes: Vec<Placed> = (0..hits.len())
        .map(|rank| Placed {
            rank,
            by_meaning_first: false,
            keyword: Some(rank),
            meaning: None,
        })
        .collect();
    for (rank, hit) in meaning.iter().take(DEPTH).enumerate() {
        match hits.iter().position(|h| h.path == hit.path) {
            Some(at) => {
                let note = &mut notes[at];
                note.meaning = Some(rank);
                if rank < note.rank {
                    note.rank = rank;
                    note.by_meaning_first = true;
                }
            }
            None => notes.push(Placed {
                rank,
                by_meaning_first: true,
                keyword: None,
                meaning: Some(rank),
            }),
        }
    }
    notes.sort_by_key(|n| (n.rank, n.by_meaning_first));
    // A cursor is only made before the last note.
    if offset > 0 && offset >= notes.len() {
        return Err(SearchError::BadCursor(shortened(cursor.unwrap_or(""))));
    }
    let total = notes.len() + beyond;
    let mut page = Vec::new();
    let mut by_meaning = Vec::new();
    for note in notes.iter().skip(offset).take(limit) {
        let (keyword_at, meaning_at) = (note.keyword, note.meaning);
        let score = 1.0 / (K + note.rank as f64 + 1.0);
        let hit = match (keyword_at, meaning_at) {
            (Some(k), _) => Some(hits[k].clone()),
            (None, Some(m)) => index.section_hit(&meaning[m]),
            _ => None,
        };
        if let Some(mut hit) = hit {
            hit.score = score * 100.0;
            page.push(hit);
            by_meaning.push(meaning_at.is_some());
        }
    }
    let end = offset.saturating_add(limit).min(notes.len());
    let more = total.saturating_sub(end.max(offset));
    let next = (end < notes.len()).then(|| Cursor::make(end, stamp, query, "m"));
    Ok(Fused {
        ranked: Ranked {
            hits: page,
            total,
            more,
            next,
            withheld,
            terms,
            unsearched,
        },
        by_meaning,
    })
}

/// The ranked search with search by meaning, as the engine runs it: the
/// first [`DEPTH`] notes by words among those `visible` lets through (none
/// when the query has no words to search for) fused with `meaning`, the
/// notes nearest the query by meaning (`Vectors::nearest` over the same
/// notes, at most [`DEPTH`]); `query.limit` and `query.cursor` cut the page.
/// `stamp` moves when the vectors change; the notes in scope are added to
/// it here. The native evaluation (examples/search_eval.rs) ranks through
/// this too.
pub fn search(
    index: &Index,
    query: &SearchQuery<'_>,
    visible: &dyn Fn(&str) -> bool,
    meaning: &[VectorHit],
    stamp: u64,
) -> Result<Fused, SearchError> {
    let first = SearchQuery {
        text: query.text,
        limit: DEPTH,
        cursor: None,
    };
    let keyword = match index.search(&first, visible) {
        Ok(ranked) => Some(ranked),
        Err(SearchError::EmptyQuery) => None,
        Err(e) => return Err(e),
    };
    // The pages are over the notes in scope and the vectors as they are.
    let stamp = (index.scope_fingerprint(visible) ^ stamp).wrapping_mul(0x0000_0100_0000_01b3);
    fuse(
        index,
        query.text,
        keyword,
        meaning,
        query.limit,
        query.cursor,
        stamp,
    )
}

impl Index {
    /// A hit for the section the vectors found, as the keyword ranking
    /// would give it (no matched words); `None` when the index no longer
    /// holds the note.
    pub(crate) fn section_hit(&self, found: &VectorHit) -> Option<RankedHit> {
        let &id = self.by_path.get(found.path.as_str())?;
        let note = self.note(id);
        let chunks: Vec<_> = note
            .chunks
            .iter()
            .map(|&c| &self.chunks[c as usize])
            .collect();
        let chunk = chunks
            .iter()
            .find(|c| c.ordinal as usize == found.ordinal && *c.heading == *found.heading)
            .or_else(|| chunks.iter().find(|c| *c.heading == *found.heading))
            .or_else(|| chunks.first())?;
        Some(RankedHit {
            path: found.path.clone(),
            heading: chunk.heading.to_string(),
            score: 0.0,
            matched: Vec::new(),
            range: chunk.start as usize..chunk.end as usize,
            ordinal: chunk.ordinal as usize,
            hash: note.hash,
            also: Vec::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Language, SearchQuery};

    fn index() -> Index {
        let mut index = Index::new(".obsidian", Language::English);
        index
            .upsert("Tomatoes.md", "# Care\nTomatoes want sun and water.\n")
            .unwrap();
        index
            .upsert("Roses.md", "# Care\nRoses want water.\n")
            .unwrap();
        index
            .upsert("Dusk.md", "# Evening\nThe light fades over the beds.\n")
            .unwrap();
        index
    }

    fn meaning(paths: &[&str]) -> Vec<VectorHit> {
        paths
            .iter()
            .map(|p| VectorHit {
                path: p.to_string(),
                heading: if *p == "Dusk.md" { "Evening" } else { "Care" }.into(),
                ordinal: 0,
                similarity: 0.5,
            })
            .collect()
    }

    #[test]
    fn each_rankings_first_note_leads_and_a_note_found_by_meaning_alone_is_added() {
        let index = index();
        let keyword = index.search(&SearchQuery::new("water"), &|_| true).unwrap();
        let first_by_words = keyword.hits[0].path.clone();
        let fused = fuse(
            &index,
            "water",
            Some(keyword),
            &meaning(&["Dusk.md", "Roses.md"]),
            10,
            None,
            1,
        )
        .unwrap();
        let paths: Vec<&str> = fused.ranked.hits.iter().map(|h| h.path.as_str()).collect();
        // Words first on a tie: the words' first, then meaning's first.
        assert_eq!(
            paths[..2],
            [first_by_words.as_str(), "Dusk.md"],
            "{paths:?}"
        );
        assert_eq!(fused.ranked.total, 3);
        assert!(fused.ranked.hits[0].score > fused.ranked.hits[2].score);
        let dusk = paths.iter().position(|p| *p == "Dusk.md").unwrap();
        assert!(fused.by_meaning[dusk]);
        assert_eq!(fused.ranked.hits[dusk].heading, "Evening");
        assert!(fused.ranked.hits[dusk].matched.is_empty());
        let roses = paths.iter().position(|p| *p == "Roses.md").unwrap();
        assert!(fused.by_meaning[roses], "found both ways");
        assert!(!fused.ranked.hits[roses].matched.is_empty());
    }

    #[test]
    fn notes_found_both_ways_do_not_push_either_rankings_best_off_the_page() {
        // Reciprocal rank fusion summed over 50 notes put any note of both
        // rankings above the first of either alone; taking turns keeps each
        // ranking's first n notes among the first 2n.
        let mut index = Index::new(".obsidian", Language::English);
        index
            .upsert("Answer.md", "# Planted\ncedar plank shed lumber\n")
            .unwrap();
        for i in 0..12 {
            index
                .upsert(&format!("Topic {i:02}.md"), "# Wood\ncedar in the garden\n")
                .unwrap();
        }
        let keyword = index
            .search(
                &SearchQuery {
                    text: "cedar plank",
                    limit: DEPTH,
                    cursor: None,
                },
                &|_| true,
            )
            .unwrap();
        let by_words: Vec<String> = keyword.hits.iter().map(|h| h.path.clone()).collect();
        assert_eq!(by_words[0], "Answer.md");
        // Meaning ranks the topic notes, in reverse, and never the answer.
        let near: Vec<VectorHit> = by_words[1..]
            .iter()
            .rev()
            .map(|p| VectorHit {
                path: p.clone(),
                heading: "Wood".into(),
                ordinal: 0,
                similarity: 0.5,
            })
            .collect();
        let fused = fuse(&index, "cedar plank", Some(keyword), &near, 4, None, 1).unwrap();
        let paths: Vec<&str> = fused.ranked.hits.iter().map(|h| h.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "Answer.md",
                near[0].path.as_str(),
                by_words[1].as_str(),
                near[1].path.as_str()
            ]
        );
    }

    #[test]
    fn pages_follow_the_fused_order_and_a_changed_stamp_refuses_the_cursor() {
        let index = index();
        let keyword = || Some(index.search(&SearchQuery::new("water"), &|_| true).unwrap());
        let hits = meaning(&["Dusk.md"]);
        let whole = fuse(&index, "water", keyword(), &hits, 10, None, 7).unwrap();
        let first = fuse(&index, "water", keyword(), &hits, 2, None, 7).unwrap();
        assert_eq!(first.ranked.more, 1);
        let next = first.ranked.next.clone().unwrap();
        let second = fuse(&index, "water", keyword(), &hits, 2, Some(&next), 7).unwrap();
        let paged: Vec<_> = first
            .ranked
            .hits
            .iter()
            .chain(&second.ranked.hits)
            .map(|h| &h.path)
            .collect();
        let all: Vec<_> = whole.ranked.hits.iter().map(|h| &h.path).collect();
        assert_eq!(paged, all);
        assert_eq!(second.ranked.more, 0);
        assert_eq!(
            fuse(&index, "water", keyword(), &hits, 2, Some(&next), 8),
            Err(SearchError::StaleCursor)
        );
        assert!(matches!(
            fuse(&index, "other", keyword(), &hits, 2, Some(&next), 7),
            Err(SearchError::BadCursor(_))
        ));
    }

    #[test]
    fn a_query_of_stop_words_is_answered_by_meaning_alone() {
        let index = index();
        let fused = fuse(
            &index,
            "how is it",
            None,
            &meaning(&["Dusk.md"]),
            10,
            None,
            1,
        )
        .unwrap();
        assert_eq!(fused.ranked.hits.len(), 1);
        assert_eq!(fused.ranked.hits[0].path, "Dusk.md");
    }
}
