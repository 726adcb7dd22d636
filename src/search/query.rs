//! Ranking: BM25F over chunks, the scope applied before anything is
//! counted, one hit per note (its best chunk), pages with a cursor.

use std::ops::Range;

use super::index::{fnv, Index};
use super::ranking::{ScopeCache, Scratch, Stats};
use super::SearchError;
use crate::base::text::clipped;

/// Hits on one page unless asked otherwise, and at most.
pub const DEFAULT_LIMIT: usize = 8;
pub const MAX_LIMIT: usize = 50;
/// At most this many query terms are ranked (a pasted page is not a query).
pub const MAX_QUERY_TERMS: usize = 64;

/// A search, as the caller asks it.
#[derive(Clone, Copy, Debug)]
pub struct SearchQuery<'a> {
    pub text: &'a str,
    pub limit: usize,
    /// The `next` of the page before, to get the page after it.
    pub cursor: Option<&'a str>,
}

impl<'a> SearchQuery<'a> {
    pub fn new(text: &'a str) -> SearchQuery<'a> {
        SearchQuery {
            text,
            limit: DEFAULT_LIMIT,
            cursor: None,
        }
    }
}

/// A query term: the term, the word of the query it came from, and its
/// weight (idf) among the notes in scope.
#[derive(Clone, Debug, PartialEq)]
pub struct QueryTerm {
    pub term: String,
    /// The word's term in each language the vault's notes are written in
    /// (`term` is one of them: the first the index holds).
    pub forms: Vec<String>,
    pub word: String,
    pub weight: f64,
}

/// One note found: its best chunk.
#[derive(Clone, Debug, PartialEq)]
pub struct RankedHit {
    pub path: String,
    /// The chunk's heading path (`Parent::Child`; "" before any heading).
    pub heading: String,
    pub score: f64,
    /// The query's words found in this chunk or in the note's name, tags and
    /// properties, in the query's order.
    pub matched: Vec<String>,
    /// Where the chunk's text lies in the note as indexed.
    pub range: Range<usize>,
    /// The chunk's place among the note's chunks.
    pub ordinal: usize,
    /// The text's hash as indexed (see `passage.rs`).
    pub hash: u64,
    /// Other sections of the note that matched, best first (at most 3).
    pub also: Vec<String>,
}

/// A page of results.
#[derive(Clone, Debug, PartialEq)]
pub struct Ranked {
    pub hits: Vec<RankedHit>,
    /// Notes in scope that matched.
    pub total: usize,
    /// Notes after this page.
    pub more: usize,
    /// The cursor of the next page, when there is one.
    pub next: Option<String>,
    /// Notes outside the scope that held a query term: never shown, only
    /// counted.
    pub withheld: usize,
    pub terms: Vec<QueryTerm>,
    /// Words of the query past [`MAX_QUERY_TERMS`], not searched.
    pub unsearched: usize,
}

impl Index {
    /// Ranks the chunks of the notes for which `visible(path)` holds. Every
    /// statistic (how many chunks hold a term, average lengths) is taken
    /// over those notes alone, so the answer is the one an index of only
    /// them would give: nothing outside the scope moves a score.
    pub fn search(
        &self,
        query: &SearchQuery<'_>,
        visible: &dyn Fn(&str) -> bool,
    ) -> Result<Ranked, SearchError> {
        let languages = self.languages();
        let mut words = self.analyzer.query_forms(query.text, &languages);
        // A compound's parts, as words of their own (`compound.rs`).
        let parts: Vec<_> = words
            .iter()
            .flat_map(|(_, word)| self.compound_parts(&word.to_lowercase(), &languages))
            .collect();
        for part in parts {
            if !words.iter().any(|(f, _)| f[0] == part.0[0]) {
                words.push(part);
            }
        }
        if words.is_empty() {
            return Err(SearchError::EmptyQuery);
        }
        let unsearched = words.len().saturating_sub(MAX_QUERY_TERMS);
        words.truncate(MAX_QUERY_TERMS);
        let limit = query.limit.clamp(1, MAX_LIMIT);
        let cursor = match query.cursor {
            Some(cursor) => Some(Cursor::read(cursor, query.text, "")?),
            None => None,
        };
        let shown: Vec<bool> = self
            .notes
            .iter()
            .map(|n| n.as_ref().is_some_and(|n| visible(&n.path)))
            .collect();
        let scope = self.scope_for(shown);
        let ScopeCache {
            shown,
            stats,
            heading_part,
            body_part,
            ..
        } = &*scope;
        let stats = *stats;
        let offset = match &cursor {
            Some(cursor) => cursor.offset_if_made_at(scope.fingerprint)?,
            None => 0,
        };
        let r = &self.ranking;
        // Per-chunk and per-note accumulators kept between queries and
        // cleared where the last query wrote, so a query costs the postings
        // it reads, not the vault's size.
        let mut scratch = self.scratch.borrow_mut();
        scratch.ready(self.chunks.len(), self.notes.len());
        let Scratch {
            tf,
            scores,
            matched,
            hidden,
            at_note,
            scored,
            hidden_notes,
            best_notes,
        } = &mut *scratch;
        let mut hide = |n: u32| {
            if !hidden[n as usize] {
                hidden[n as usize] = true;
                hidden_notes.push(n);
            }
        };
        let mut touched: Vec<u32> = Vec::new();
        let mut terms = Vec::with_capacity(words.len());
        for (bit, (forms, word)) in words.into_iter().enumerate() {
            // Ids of terms whose postings emptied are kept (`index.rs`):
            // only a form some note holds names the word's term.
            let ids: Vec<u32> = forms
                .iter()
                .filter_map(|f| self.terms.get(f.as_str()).copied())
                .filter(|&id| {
                    !self.postings[id as usize].is_empty()
                        || !self.note_postings[id as usize].is_empty()
                })
                .collect();
            let term = ids.first().map_or_else(
                || forms[0].clone(),
                |&id| self.term_text[id as usize].to_string(),
            );
            if ids.is_empty() {
                terms.push(QueryTerm {
                    term,
                    forms,
                    word,
                    weight: 0.0,
                });
                continue;
            }
            // A chunk holding the word's forms in two languages counts both.
            // (Loops, not a flattened iterator: this is the query's inner
            // loop, run once per posting read.)
            for &id in &ids {
                for p in &self.postings[id as usize] {
                    let c = p.chunk as usize;
                    let chunk = &self.chunks[c];
                    if !shown[chunk.note as usize] {
                        hide(chunk.note);
                        continue;
                    }
                    if tf[c] == 0.0 {
                        touched.push(p.chunk);
                    }
                    tf[c] += heading_part[usize::from(chunk.heading_len)] * f64::from(p.heading)
                        + body_part[usize::from(chunk.body_len)] * f64::from(p.body);
                }
            }
            for p in ids.iter().flat_map(|&id| &self.note_postings[id as usize]) {
                if !shown[p.note as usize] {
                    hide(p.note);
                    continue;
                }
                let note = self.note(p.note);
                let name_len = u32::from(note.lengths.title) + u32::from(note.lengths.alias);
                let meta_len = u32::from(note.lengths.meta) + u32::from(note.lengths.folder);
                let part = r.name.weight * (f64::from(p.title) + f64::from(p.alias))
                    / stats.norm(r.name, name_len, stats.name)
                    + r.meta.weight * (f64::from(p.meta) + f64::from(p.folder))
                        / stats.norm(r.meta, meta_len, stats.meta);
                for &c in &note.chunks {
                    if tf[c as usize] == 0.0 {
                        touched.push(c);
                    }
                    tf[c as usize] += part;
                }
            }
            let df = touched.len() as f64;
            let n = stats.chunks as f64;
            // A term no note in scope holds weighs nothing (as in an index
            // that never saw it).
            let weight = if touched.is_empty() {
                0.0
            } else {
                (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
            };
            for &c in &touched {
                let c = c as usize;
                let f = tf[c];
                tf[c] = 0.0;
                if scores[c] == 0.0 && matched[c] == 0 {
                    scored.push(c as u32);
                }
                scores[c] += weight * f * (r.k1 + 1.0) / (r.k1 + f);
                if bit < 64 {
                    matched[c] |= 1 << bit;
                }
            }
            touched.clear();
            terms.push(QueryTerm {
                term,
                forms,
                word,
                weight,
            });
        }
        // One hit per note: its best chunk (the earlier one on a tie).
        let mut best: Vec<(u32, u32)> = Vec::new(); // (note, chunk)
        for &c in scored.iter() {
            let chunk = &self.chunks[c as usize];
            let slot = &mut at_note[chunk.note as usize];
            if *slot == u32::MAX {
                *slot = best.len() as u32;
                best_notes.push(chunk.note);
                best.push((chunk.note, c));
            } else {
                let current = &mut best[*slot as usize].1;
                if better(self, scores, c, *current) {
                    *current = c;
                }
            }
        }
        let note_score: Vec<f64> = best
            .iter()
            .map(|&(n, c)| {
                if r.rest == 0.0 {
                    return scores[c as usize];
                }
                let rest: f64 = self
                    .note(n)
                    .chunks
                    .iter()
                    .filter(|&&o| o != c)
                    .map(|&o| scores[o as usize])
                    .sum();
                scores[c as usize] + r.rest * rest
            })
            .collect();
        let mut order: Vec<usize> = (0..best.len()).collect();
        let rank = |&a: &usize, &b: &usize| {
            note_score[b]
                .total_cmp(&note_score[a])
                .then_with(|| self.note(best[a].0).path.cmp(&self.note(best[b].0).path))
        };
        // Only the notes up to this page's end are put in order (the order
        // is total: paths differ), not every note a common word matched.
        let total = note_score.len();
        // A cursor is only made before the last note; one past it was not
        // made by this search.
        if offset > 0 && offset >= total {
            return Err(SearchError::BadCursor(shortened(
                query.cursor.unwrap_or(""),
            )));
        }
        let wanted = offset.saturating_add(limit).min(order.len());
        if wanted < order.len() {
            order.select_nth_unstable_by(wanted, rank);
            order.truncate(wanted);
        }
        order.sort_unstable_by(rank);
        let best: Vec<(u32, u32, f64)> = order
            .into_iter()
            .map(|i| (best[i].0, best[i].1, note_score[i]))
            .collect();
        let page: Vec<RankedHit> = best
            .iter()
            .skip(offset)
            .take(limit)
            .map(|&(note_id, c, score)| {
                let note = self.note(note_id);
                let chunk = &self.chunks[c as usize];
                let mut others: Vec<u32> = note
                    .chunks
                    .iter()
                    .copied()
                    .filter(|&o| o != c && scores[o as usize] > 0.0)
                    .collect();
                others.sort_by(|&a, &b| {
                    if better(self, scores, a, b) {
                        std::cmp::Ordering::Less
                    } else {
                        std::cmp::Ordering::Greater
                    }
                });
                let mut also: Vec<String> = Vec::new();
                for o in others {
                    let heading = &self.chunks[o as usize].heading;
                    if **heading != *chunk.heading && !also.iter().any(|h| h == &**heading) {
                        also.push(heading.to_string());
                    }
                    if also.len() == 3 {
                        break;
                    }
                }
                RankedHit {
                    path: note.path.to_string(),
                    heading: chunk.heading.to_string(),
                    score,
                    matched: terms
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| *i < 64 && matched[c as usize] & (1 << i) != 0)
                        .map(|(_, t)| t.word.clone())
                        .collect(),
                    range: chunk.start as usize..chunk.end as usize,
                    ordinal: chunk.ordinal as usize,
                    hash: note.hash,
                    also,
                }
            })
            .collect();
        let end = (offset + page.len()).min(total);
        let more = total - end;
        Ok(Ranked {
            hits: page,
            total,
            more,
            next: (more > 0).then(|| Cursor::make(end, scope.fingerprint, query.text, "")),
            withheld: hidden_notes.len(),
            terms,
            unsearched,
        })
    }

    /// The hash of the notes `visible` lets through, as a cursor is checked
    /// against it (for the fused pages, which make their own cursors).
    pub(crate) fn scope_fingerprint(&self, visible: &dyn Fn(&str) -> bool) -> u64 {
        let shown: Vec<bool> = self
            .notes
            .iter()
            .map(|n| n.as_ref().is_some_and(|n| visible(&n.path)))
            .collect();
        self.scope_for(shown).fingerprint
    }

    /// The scope's statistics and per-chunk field parts: the last query's
    /// when the index, the ranking and the notes in scope are the same, so
    /// a query walks only its terms' postings.
    fn scope_for(&self, shown: Vec<bool>) -> std::cell::Ref<'_, ScopeCache> {
        let cache = self.scope_cache.borrow();
        if cache.generation == self.generation
            && cache.ranking == Some(self.ranking)
            && cache.shown == shown
        {
            return cache;
        }
        drop(cache);
        let stats = stats_of(self, &shown);
        let r = &self.ranking;
        let mut fingerprint = 0xcbf2_9ce4_8422_2325u64;
        let (mut longest_heading, mut longest_body) = (0, 0);
        for (id, note) in self.notes.iter().enumerate() {
            let Some(note) = note else { continue };
            if !shown[id] {
                continue;
            }
            for part in [id as u64, fnv(&note.path), note.hash] {
                fingerprint = (fingerprint ^ part).wrapping_mul(0x0000_0100_0000_01b3);
            }
            for &c in &note.chunks {
                let chunk = &self.chunks[c as usize];
                longest_heading = longest_heading.max(usize::from(chunk.heading_len));
                longest_body = longest_body.max(usize::from(chunk.body_len));
            }
        }
        // A field's weight over its length normalisation depends on the
        // length alone: one table per field instead of two numbers a chunk.
        let heading_part = (0..=longest_heading)
            .map(|len| r.headings.weight / stats.norm(r.headings, len as u32, stats.heading))
            .collect();
        let body_part = (0..=longest_body)
            .map(|len| r.body.weight / stats.norm(r.body, len as u32, stats.body))
            .collect();
        *self.scope_cache.borrow_mut() = ScopeCache {
            generation: self.generation,
            ranking: Some(self.ranking),
            shown,
            stats,
            heading_part,
            body_part,
            fingerprint,
        };
        self.scope_cache.borrow()
    }
}

/// A page's cursor: where the next page starts, a hash of the notes in
/// scope as indexed (each note's path and text: a change outside the scope
/// does not make it stale, and it says nothing of how many notes the vault
/// holds or how often it changed), and a hash of the query it was made for.
/// `kind` tells the keyword pages ("") from the fused ones ("m").
pub(crate) struct Cursor {
    offset: usize,
    made_at: u32,
}

impl Cursor {
    pub(crate) fn make(offset: usize, fingerprint: u64, query: &str, kind: &str) -> String {
        format!(
            "{kind}{offset}.{:08x}.{:08x}",
            fingerprint as u32,
            fnv(query.trim()) as u32
        )
    }

    /// The cursor's parts, or why it is not one this search made.
    pub(crate) fn read(cursor: &str, query: &str, kind: &str) -> Result<Cursor, SearchError> {
        let bad = || SearchError::BadCursor(shortened(cursor));
        let rest = cursor.trim().strip_prefix(kind).ok_or_else(bad)?;
        let mut parts = rest.split('.');
        let offset: usize = parts.next().and_then(|p| p.parse().ok()).ok_or_else(bad)?;
        let made_at = parts
            .next()
            .and_then(|p| u32::from_str_radix(p, 16).ok())
            .ok_or_else(bad)?;
        let hash = parts
            .next()
            .and_then(|p| u32::from_str_radix(p, 16).ok())
            .ok_or_else(bad)?;
        if parts.next().is_some() || hash != fnv(query.trim()) as u32 {
            return Err(bad());
        }
        Ok(Cursor { offset, made_at })
    }

    /// The offset, when the notes in scope are the ones it was made over.
    pub(crate) fn offset_if_made_at(&self, fingerprint: u64) -> Result<usize, SearchError> {
        if self.made_at != fingerprint as u32 {
            return Err(SearchError::StaleCursor);
        }
        Ok(self.offset)
    }
}

/// A cursor as an error repeats it: a pasted page is not a cursor.
pub(crate) fn shortened(cursor: &str) -> String {
    clipped(cursor, 40)
}

/// True when chunk `a` ranks before chunk `b` of the same note.
fn better(index: &Index, scores: &[f64], a: u32, b: u32) -> bool {
    match scores[a as usize].total_cmp(&scores[b as usize]) {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Less => false,
        std::cmp::Ordering::Equal => {
            index.chunks[a as usize].ordinal < index.chunks[b as usize].ordinal
        }
    }
}

/// The collection's statistics over the notes in scope. Average lengths
/// are over the chunks that have the field: most notes have no tags or
/// aliases, and averaging their zeros in would make every note that has
/// some look long.
fn stats_of(index: &Index, shown: &[bool]) -> Stats {
    let mut chunks = 0u64;
    // (sum of lengths, chunks with the field) per field.
    let mut sums = [(0u64, 0u64); 4];
    let mut add = |field: usize, len: u64, times: u64| {
        if len > 0 {
            sums[field].0 += len * times;
            sums[field].1 += times;
        }
    };
    for (id, note) in index.notes.iter().enumerate() {
        let Some(note) = note else { continue };
        if !shown[id] {
            continue;
        }
        let n = note.chunks.len() as u64;
        chunks += n;
        add(
            0,
            u64::from(note.lengths.title) + u64::from(note.lengths.alias),
            n,
        );
        add(
            2,
            u64::from(note.lengths.meta) + u64::from(note.lengths.folder),
            n,
        );
        for &c in &note.chunks {
            let chunk = &index.chunks[c as usize];
            add(1, u64::from(chunk.heading_len), 1);
            add(3, u64::from(chunk.body_len), 1);
        }
    }
    let avg = |(sum, count): (u64, u64)| {
        if count == 0 {
            1.0
        } else {
            sum as f64 / count as f64
        }
    };
    Stats {
        chunks: chunks as usize,
        name: avg(sums[0]),
        heading: avg(sums[1]),
        meta: avg(sums[2]),
        body: avg(sums[3]),
    }
}
