//! Words that join nouns ("Tagebuchseite", "Speicherplatz"; German, Dutch,
//! the Nordic languages, Finnish): a query's long word that the vault
//! holds rarely or not at all is also searched as the two parts the vault
//! itself holds ("Tagebuch" + "Seite"), so a question finds the note that
//! writes the parts apart or in other compounds' places.

use super::index::Index;
use super::text::Language;

/// Languages that write a compound as one word.
const JOINING: &[Language] = &[
    Language::German,
    Language::Dutch,
    Language::Swedish,
    Language::Danish,
    Language::Norwegian,
    Language::Finnish,
];

/// Letters a compound's first part may end with, joining it to the next
/// ("Arbeit-s-bereich", "Seite-n-leiste"), tried when the part alone is
/// not held.
const LINKS: &[&str] = &["s", "es", "n", "en", "e", "er"];

/// A part is at least this many letters: shorter ones are too often the
/// accident of a longer word.
const MIN_PART: usize = 3;
/// Words shorter than this are left whole.
const MIN_WORD: usize = 8;

/// A query word: its forms (terms) and the word itself.
type QueryWord = (Vec<String>, String);

impl Index {
    /// How many chunks and notes hold `term` (0: none).
    fn holders(&self, term: &str) -> usize {
        self.terms.get(term).map_or(0, |&id| {
            self.postings[id as usize].len() + self.note_postings[id as usize].len()
        })
    }

    /// The two parts of `lower` (a word in lower case) in a joining
    /// language among `languages` that the vault holds, as (forms, part)
    /// query words: the split whose parts are held most often (the
    /// geometric mean of their holders), when that is more often than the
    /// whole word. Empty for a word left whole.
    pub(crate) fn compound_parts(&self, lower: &str, languages: &[Language]) -> Vec<QueryWord> {
        let chars: Vec<(usize, char)> = lower.char_indices().collect();
        if chars.len() < MIN_WORD || !chars.iter().all(|(_, c)| c.is_alphabetic()) {
            return Vec::new();
        }
        let mut best: Option<(f64, Vec<QueryWord>)> = None;
        for &language in languages.iter().filter(|l| JOINING.contains(l)) {
            let whole = self
                .analyzer
                .term_in(language, lower)
                .map_or(0, |t| self.holders(&t)) as f64;
            let held = |part: &str| -> Option<(String, usize)> {
                let term = self.analyzer.term_in(language, part)?;
                let n = self.holders(&term);
                (n > 0).then_some((term, n))
            };
            // Every place leaving both parts MIN_PART letters or more.
            for &(at, _) in &chars[MIN_PART..=chars.len() - MIN_PART] {
                let (head, tail) = lower.split_at(at);
                let Some((tail_term, tail_n)) = held(tail) else {
                    continue;
                };
                let heads = std::iter::once(head).chain(LINKS.iter().filter_map(|link| {
                    head.strip_suffix(link)
                        .filter(|h| h.chars().count() >= MIN_PART)
                }));
                for head in heads {
                    let Some((head_term, head_n)) = held(head) else {
                        continue;
                    };
                    let score = ((head_n * tail_n) as f64).sqrt();
                    if score > whole && best.as_ref().is_none_or(|(s, _)| score > *s) {
                        best = Some((
                            score,
                            vec![
                                (vec![head_term.clone()], head.to_string()),
                                (vec![tail_term.clone()], tail.to_string()),
                            ],
                        ));
                    }
                }
            }
        }
        best.map(|(_, parts)| parts).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_compound_is_split_into_parts_the_vault_holds() {
        let mut index = Index::new(".obsidian", Language::German);
        index
            .upsert(
                "Tagebuch.md",
                "Das Tagebuch hat für jeden Tag eine Seite, und jede Seite hat ein Datum.",
            )
            .unwrap();
        let parts = index.compound_parts("tagebuchseite", &[Language::German]);
        let words: Vec<&str> = parts.iter().map(|(_, w)| w.as_str()).collect();
        assert_eq!(words, ["tagebuch", "seite"]);
        // A word the vault holds whole, or whose parts it lacks, stays whole.
        assert!(index
            .compound_parts("tagebuch", &[Language::German])
            .is_empty());
        assert!(index
            .compound_parts("wolkenkratzer", &[Language::German])
            .is_empty());
        // English does not join nouns.
        assert!(index
            .compound_parts("tagebuchseite", &[Language::English])
            .is_empty());
    }
}
