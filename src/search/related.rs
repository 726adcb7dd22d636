//! The index's other questions, for the checks that rank notes against a
//! note or a title: notes whose titles are like a new note's (the warning
//! before `create`), and notes related to a note or a topic by the rare
//! terms they share (the backlink suggestions). Both take the same scope
//! predicate as the search, applied before anything is counted.

use super::index::Index;
use super::text::{normalise_title, title_of};

/// A note whose title is like the one asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct TitleMatch {
    pub path: String,
    /// 1.0 is the same title (after normalising case, accents, punctuation).
    pub score: f64,
}

/// What notes are related to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Subject<'a> {
    /// A note the index holds, by path.
    Note(&'a str),
    /// Words (the search's text model applies).
    Topic(&'a str),
}

/// A related note and the terms it shares, rarest first.
#[derive(Clone, Debug, PartialEq)]
pub struct RelatedNote {
    pub path: String,
    pub score: f64,
    /// The shared terms (stems), at most 8.
    pub shared: Vec<String>,
}

/// A title without its digits: titles that differ only in their digits are
/// a numbered series ("2026-03-01", "Meeting 12"), not duplicates.
pub fn without_digits(title: &str) -> String {
    title.chars().filter(|c| !c.is_numeric()).collect()
}

/// How alike two normalised titles are (normalized Levenshtein), when at
/// least `threshold`: 1.0 for the same title, `None` for titles that differ
/// only in their digits or that are too far apart.
pub fn title_likeness(wanted: &str, key: &str, threshold: f64) -> Option<f64> {
    if key == wanted {
        return Some(1.0);
    }
    if key.is_empty() || wanted.is_empty() || without_digits(key) == without_digits(wanted) {
        return None;
    }
    // Lengths too far apart cannot reach the threshold.
    let (la, lb) = (key.chars().count() as f64, wanted.chars().count() as f64);
    if la.min(lb) / la.max(lb) < threshold {
        return None;
    }
    let score = strsim::normalized_levenshtein(key, wanted);
    (score >= threshold).then_some(score)
}

/// Terms a subject is compared by, at most (its rarest).
const SUBJECT_TERMS: usize = 32;

impl Index {
    /// Notes in scope whose title is the same as, or like, `title`; most
    /// alike first, at most `limit`.
    pub fn similar_titles(
        &self,
        title: &str,
        threshold: f64,
        limit: usize,
        visible: &dyn Fn(&str) -> bool,
    ) -> Vec<TitleMatch> {
        let wanted = normalise_title(title);
        if wanted.is_empty() {
            return Vec::new();
        }
        let mut found: Vec<TitleMatch> = self
            .notes
            .iter()
            .flatten()
            .filter(|n| visible(&n.path))
            .filter_map(|n| {
                let key = normalise_title(title_of(&n.path));
                title_likeness(&wanted, &key, threshold).map(|score| TitleMatch {
                    path: n.path.to_string(),
                    score,
                })
            })
            .collect();
        found.sort_by(|x, y| {
            y.score
                .total_cmp(&x.score)
                .then_with(|| x.path.cmp(&y.path))
        });
        found.truncate(limit);
        found
    }

    /// Notes in scope that share rare terms with `subject`, best first, at
    /// most `limit`; a note is never related to itself. Each shared term
    /// counts by how few notes in scope hold it (`ln(N / df) + 0.5`, as the
    /// backlink suggestions weigh words), terms half the notes hold not at all.
    pub fn related(
        &self,
        subject: Subject<'_>,
        limit: usize,
        visible: &dyn Fn(&str) -> bool,
    ) -> Vec<RelatedNote> {
        let shown: Vec<bool> = self
            .notes
            .iter()
            .map(|n| n.as_ref().is_some_and(|n| visible(&n.path)))
            .collect();
        let total = shown.iter().filter(|s| **s).count().max(1) as f64;
        let own = match subject {
            Subject::Note(path) => match self.by_path.get(path) {
                Some(&id) if shown[id as usize] => Some(id),
                _ => return Vec::new(),
            },
            Subject::Topic(_) => None,
        };
        let mut candidates: Vec<u32> = match (subject, own) {
            (Subject::Note(_), Some(id)) => {
                let note = self.note(id);
                let mut all: Vec<u32> = note
                    .terms
                    .iter()
                    .chain(&note.text_terms)
                    .chain(&note.path_terms)
                    .copied()
                    .collect();
                all.sort_unstable();
                all.dedup();
                all
            }
            _ => {
                let Subject::Topic(topic) = subject else {
                    return Vec::new();
                };
                self.analyzer
                    .query_terms(topic)
                    .into_iter()
                    .filter_map(|(t, _)| self.terms.get(t.as_str()).copied())
                    .collect()
            }
        };
        // Which notes in scope hold each term.
        let mut mark = vec![u32::MAX; self.notes.len()];
        let mut holders: Vec<(u32, Vec<u32>)> = Vec::new();
        for &term in &candidates {
            let mut notes = Vec::new();
            let chunk_notes = self.postings[term as usize]
                .iter()
                .map(|p| self.chunks[p.chunk as usize].note);
            let note_notes = self.note_postings[term as usize].iter().map(|p| p.note);
            for n in chunk_notes.chain(note_notes) {
                if shown[n as usize] && mark[n as usize] != term {
                    mark[n as usize] = term;
                    notes.push(n);
                }
            }
            let df = notes.len() as f64;
            if df > 0.0 && (df <= total / 2.0 || total < 4.0) {
                holders.push((term, notes));
            }
        }
        let weight = |df: usize| (total / df as f64).ln() + 0.5;
        // The subject's rarest terms only.
        holders.sort_by(|a, b| {
            a.1.len()
                .cmp(&b.1.len())
                .then_with(|| self.term_text[a.0 as usize].cmp(&self.term_text[b.0 as usize]))
        });
        holders.truncate(SUBJECT_TERMS);
        candidates.clear();
        let mut scores = vec![0.0f64; self.notes.len()];
        let mut shared: Vec<Vec<u32>> = vec![Vec::new(); self.notes.len()];
        for (term, notes) in &holders {
            let w = weight(notes.len());
            for &n in notes {
                if Some(n) == own {
                    continue;
                }
                if scores[n as usize] == 0.0 {
                    candidates.push(n);
                }
                scores[n as usize] += w;
                shared[n as usize].push(*term);
            }
        }
        let mut found: Vec<RelatedNote> = candidates
            .iter()
            .map(|&n| RelatedNote {
                path: self.note(n).path.to_string(),
                score: (scores[n as usize] * 1000.0).round() / 1000.0,
                shared: shared[n as usize]
                    .iter()
                    .take(8)
                    .map(|t| self.term_text[*t as usize].to_string())
                    .collect(),
            })
            .collect();
        found.sort_by(|x, y| {
            y.score
                .total_cmp(&x.score)
                .then_with(|| x.path.cmp(&y.path))
        });
        found.truncate(limit);
        found
    }
}
