//! The index's other questions, for the checks that rank notes against a
//! note or a title: notes whose titles are like a new note's (the warning
//! before `create`), and notes related to a note or a topic by the rare
//! terms they share (the backlink suggestions). Both take the same scope
//! predicate as the search, applied before anything is counted.

use super::index::Index;
use super::postings::unpack_ids;
use super::text::{is_exact_form, normalise_title, title_of, Analyzer, Language};

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

/// How alike two normalised titles are, when at least `threshold`: 1.0 for
/// the same title; the normalized Levenshtein similarity; or, for titles
/// whose words are pairwise the same or the same term of the text model
/// ("Meeting notes" and "Meetings note", "Running log" and "Run logs"),
/// `threshold` at least (the search's stemmer, so the check agrees with
/// what the search finds). `None` for titles that differ only in their
/// digits or that are too far apart.
pub fn title_likeness(analyzer: &Analyzer, wanted: &str, key: &str, threshold: f64) -> Option<f64> {
    if key == wanted {
        return Some(1.0);
    }
    if key.is_empty() || wanted.is_empty() || without_digits(key) == without_digits(wanted) {
        return None;
    }
    // Lengths too far apart cannot reach the threshold.
    let (la, lb) = (key.chars().count() as f64, wanted.chars().count() as f64);
    if la.min(lb) / la.max(lb) >= threshold {
        let score = strsim::normalized_levenshtein(key, wanted);
        if score >= threshold {
            return Some(score);
        }
    }
    same_terms(analyzer, wanted, key).then_some(threshold)
}

/// True when two normalised titles have as many words and each pair is the
/// same word or has the same term (a stop word or a single letter has none,
/// so "Plan A" and "Plan B" differ).
fn same_terms(analyzer: &Analyzer, a: &str, b: &str) -> bool {
    let (mut x, mut y) = (a.split(' '), b.split(' '));
    loop {
        match (x.next(), y.next()) {
            (None, None) => return true,
            (Some(p), Some(q)) if p == q => {}
            (Some(p), Some(q)) => match (analyzer.term(p), analyzer.term(q)) {
                (Some(s), Some(t)) if s == t => {}
                _ => return false,
            },
            _ => return false,
        }
    }
}

/// The notes among `paths` whose title is the same as, or like, `title`;
/// most alike first, at most `limit`. The index's question, and the check
/// before `create` while the index is not built (over the CLI's listing).
pub fn titles_like<'a>(
    analyzer: &Analyzer,
    title: &str,
    paths: impl Iterator<Item = &'a str>,
    threshold: f64,
    limit: usize,
) -> Vec<TitleMatch> {
    let wanted = normalise_title(title);
    if wanted.is_empty() {
        return Vec::new();
    }
    let mut found: Vec<TitleMatch> = paths
        .filter_map(|path| {
            let key = normalise_title(title_of(path));
            title_likeness(analyzer, &wanted, &key, threshold).map(|score| TitleMatch {
                path: path.to_string(),
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
        let paths = self
            .notes
            .iter()
            .flatten()
            .map(|n| &*n.path)
            .filter(|p| visible(p));
        titles_like(&self.analyzer, title, paths, threshold, limit)
    }

    /// The analyzer the index was built with: the text model's words.
    pub fn analyzer(&self) -> &Analyzer {
        &self.analyzer
    }

    /// The languages a subject's words are read in: a held note's own, as
    /// indexed; else (a topic, a note outside the index) every language the
    /// notes are written in, as a query is read.
    pub fn subject_languages(&self, path: Option<&str>) -> Vec<Language> {
        match path.and_then(|p| self.by_path.get(p)) {
            Some(&id) => vec![self.note_language(id)],
            None => self.languages(),
        }
    }

    /// The distinct terms of `text` the index holds, by id: each word read
    /// in every one of `languages` (a topic in the vault's languages, a
    /// note's title in its own).
    fn held_terms(&self, text: &str, languages: &[Language]) -> Vec<u32> {
        let mut ids = Vec::new();
        self.analyzer.each_term_in_all(languages, text, |term, _| {
            ids.extend(self.terms.get(term).copied());
        });
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// The distinct terms of a phrase, by id, each word as the first of
    /// `languages` the index holds it in; empty when a word is in no note
    /// (then no note holds the whole phrase).
    fn phrase_terms(&self, text: &str, languages: &[Language]) -> Vec<u32> {
        let mut ids = Vec::new();
        for (forms, _) in self.analyzer.query_forms(text, languages) {
            match forms.iter().find_map(|f| self.terms.get(f.as_str())) {
                Some(&id) => ids.push(id),
                None => return Vec::new(),
            }
        }
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// Notes in scope related to `subject`, best first, at most `limit`; a
    /// note is never related to itself (a subject note may lie outside the
    /// scope: its terms are still its own). Two kinds, in this order:
    /// notes that hold every term of the subject's phrase (its title, or the
    /// topic: a note that mentions it holds them all), then notes that share
    /// its rare terms. Each shared term counts by how few notes in scope hold
    /// it (`ln(N / df) + 0.5`), terms half the notes hold not at all, and
    /// only the subject's [`SUBJECT_TERMS`] rarest count.
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
        let (own, phrase, mut candidates) = match subject {
            Subject::Note(path) => {
                let Some(&id) = self.by_path.get(path) else {
                    return Vec::new();
                };
                // Its text and its title; not its folders (every note
                // beside it would share them).
                // Its title is read in the note's language, as indexed.
                let note = self.note(id);
                let own = [note.language];
                let title = title_of(path);
                let mut all: Vec<u32> = unpack_ids(&note.terms)
                    .iter()
                    .chain(&note.text_terms)
                    .chain(&self.held_terms(title, &own))
                    .copied()
                    .collect();
                all.sort_unstable();
                all.dedup();
                (Some(id), self.phrase_terms(title, &own), all)
            }
            Subject::Topic(topic) => {
                // Read like a query: in every language the notes are in.
                let languages = self.languages();
                (
                    None,
                    self.phrase_terms(topic, &languages),
                    self.held_terms(topic, &languages),
                )
            }
        };
        // As the notes other than the subject count them.
        let others = shown
            .iter()
            .enumerate()
            .filter(|(n, s)| **s && Some(*n as u32) != own)
            .count();
        let total = others.max(1) as f64;
        // Which notes in scope hold a term (each once).
        let mut mark = vec![u32::MAX; self.notes.len()];
        let holders_of = |term: u32, mark: &mut Vec<u32>| -> Vec<u32> {
            let chunk_notes = self.postings[term as usize]
                .iter()
                .map(|p| self.chunks[p.chunk as usize].note);
            let note_notes = self.note_postings[term as usize].iter().map(|p| p.note);
            let mut notes = Vec::new();
            for n in chunk_notes.chain(note_notes) {
                if shown[n as usize] && mark[n as usize] != term && Some(n) != own {
                    mark[n as usize] = term;
                    notes.push(n);
                }
            }
            notes
        };
        // Notes holding the whole phrase.
        let mut phrase_hits = vec![0u32; self.notes.len()];
        for &term in &phrase {
            for n in holders_of(term, &mut mark) {
                phrase_hits[n as usize] += 1;
            }
        }
        let whole = phrase.len() as u32;
        let holds_phrase = |n: u32| whole > 0 && phrase_hits[n as usize] == whole;
        let mut holders: Vec<(u32, Vec<u32>)> = Vec::new();
        mark.fill(u32::MAX);
        // A word's exact form (with its accents) counts once, by its term.
        candidates.retain(|&t| !is_exact_form(&self.term_text[t as usize]));
        for &term in &candidates {
            let notes = holders_of(term, &mut mark);
            let df = notes.len() as f64;
            if !notes.is_empty() && (df <= total / 2.0 || total < 4.0) {
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
        let mut seen = vec![false; self.notes.len()];
        for (term, notes) in &holders {
            let w = weight(notes.len());
            for &n in notes {
                if !seen[n as usize] {
                    seen[n as usize] = true;
                    candidates.push(n);
                }
                scores[n as usize] += w;
                shared[n as usize].push(*term);
            }
        }
        for (n, _) in phrase_hits.iter().enumerate().filter(|(_, h)| **h > 0) {
            if holds_phrase(n as u32) && !seen[n] {
                seen[n] = true;
                candidates.push(n as u32);
            }
        }
        let mut found: Vec<(bool, RelatedNote)> = candidates
            .iter()
            .map(|&n| {
                let note = RelatedNote {
                    path: self.note(n).path.to_string(),
                    score: (scores[n as usize] * 1000.0).round() / 1000.0,
                    shared: shared[n as usize]
                        .iter()
                        .take(8)
                        .map(|t| self.term_text[*t as usize].to_string())
                        .collect(),
                };
                (holds_phrase(n), note)
            })
            .collect();
        let by_score = |x: &RelatedNote, y: &RelatedNote| {
            y.score
                .total_cmp(&x.score)
                .then_with(|| x.path.cmp(&y.path))
        };
        // The phrase's holders are kept first when `limit` cuts, then the
        // best of the rest; the whole is ranked by score.
        found.sort_by(|(px, x), (py, y)| py.cmp(px).then_with(|| by_score(x, y)));
        found.truncate(limit);
        let mut found: Vec<RelatedNote> = found.into_iter().map(|(_, note)| note).collect();
        found.sort_by(by_score);
        found
    }
}
