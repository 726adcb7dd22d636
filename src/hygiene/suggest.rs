//! Backlink suggestions: notes that should probably link to a note (or be
//! linked from a note about a topic), ranked by what they share with it:
//! its title mentioned in their text, tags, links to the same notes, and
//! rare terms. Notes that already link to it are left out. Every
//! suggestion says why it was made.
//!
//! The words are the ranked search's: its index picks the candidates (the
//! notes that hold every term of the title or topic, then those that share
//! its rarest terms: [`Index::related`], stemmed and folded as the search
//! has them, CJK by character bigrams) and weighs the shared terms; only
//! the candidates' text is read, for the mentions, tags, links and
//! backlinks. A note the index does not pick (one that shares with the
//! subject only a tag or a link target more than half the notes have) is
//! not suggested.

use std::collections::{HashMap, HashSet};

use super::text::{links, mentions, normalise_title, tags, title_of};
use crate::search::{Index, RelatedNote, Subject as IndexSubject};

/// The candidates the index picks for one report, at most: the text of
/// each is read (two of the vault's read batches).
pub const MAX_CANDIDATES: usize = 400;
/// A suggestion needs at least this score (one mention, or two shared tags).
const MIN_SCORE: f64 = 2.0;

/// What suggestions are made for.
#[derive(Clone, Debug, PartialEq)]
pub enum Subject<'a> {
    /// A note: its path and text.
    Note { path: &'a str, text: &'a str },
    /// A topic in words (`#tags` in it count as tags).
    Topic(&'a str),
}

/// The notes the index picks for `subject` among those `visible` lets
/// through, best first, at most [`MAX_CANDIDATES`]. A note the index does
/// not hold (one in Excluded files) is taken by its title and text as words.
pub fn candidates(
    subject: &Subject<'_>,
    index: &Index,
    visible: &dyn Fn(&str) -> bool,
) -> Vec<RelatedNote> {
    match subject {
        Subject::Note { path, .. } if index.contains(path) => {
            index.related(IndexSubject::Note(path), MAX_CANDIDATES, visible)
        }
        Subject::Note { path, text } => {
            let words = format!("{}\n{text}", title_of(path));
            let others = |p: &str| p != *path && visible(p);
            index.related(IndexSubject::Topic(&words), MAX_CANDIDATES, &others)
        }
        Subject::Topic(topic) => index.related(IndexSubject::Topic(topic), MAX_CANDIDATES, visible),
    }
}

/// One suggested note, with its score and the reasons.
#[derive(Clone, Debug, PartialEq)]
pub struct Suggestion {
    pub path: String,
    pub score: f64,
    pub why: Vec<String>,
}

struct Features {
    phrase: String,
    tags: Vec<String>,
    links: HashSet<String>,
    /// The subject's terms, each as its first word in the subject's text.
    words: HashMap<String, String>,
}

fn features(subject: &Subject<'_>, index: &Index) -> Features {
    let (source, phrase, tags, links) = match subject {
        Subject::Note { path, text } => (
            format!("{}\n{text}", title_of(path)),
            normalise_title(title_of(path)),
            tags(text),
            links(text)
                .iter()
                .map(|l| normalise_title(title_of(l)))
                .collect(),
        ),
        Subject::Topic(topic) => (
            topic.to_string(),
            normalise_title(topic),
            topic
                .split_whitespace()
                .filter(|w| w.starts_with('#'))
                .map(|w| w.trim_start_matches('#').to_lowercase())
                .filter(|t| !t.is_empty())
                .collect(),
            HashSet::new(),
        ),
    };
    // In the language(s) the index read the subject in, so a shared term
    // (from `related`) finds the word it came from.
    let path = match subject {
        Subject::Note { path, .. } => Some(*path),
        Subject::Topic(_) => None,
    };
    let languages = index.subject_languages(path);
    let mut words = HashMap::new();
    index
        .analyzer()
        .each_term_in_all(&languages, &source, |term, range| {
            if !words.contains_key(term) {
                words.insert(term.to_string(), source[range].to_lowercase());
            }
        });
    Features {
        phrase,
        tags,
        links,
        words,
    }
}

/// Ranks the index's candidates (`related`, with their text in `notes`:
/// path, text) for `subject`; at most `limit`, best first.
pub fn suggest(
    subject: &Subject<'_>,
    index: &Index,
    related: &[RelatedNote],
    notes: &[(String, String)],
    limit: usize,
) -> Vec<Suggestion> {
    let wanted = features(subject, index);
    let own_path = match subject {
        Subject::Note { path, .. } => Some(*path),
        Subject::Topic(_) => None,
    };
    let own_title = own_path.map(|p| normalise_title(title_of(p)));
    let by_path: HashMap<&str, &RelatedNote> =
        related.iter().map(|r| (r.path.as_str(), r)).collect();
    let mut ranked = Vec::new();
    for (path, text) in notes {
        let Some(candidate) = by_path.get(path.as_str()) else {
            continue;
        };
        if Some(path.as_str()) == own_path {
            continue;
        }
        let links: Vec<String> = links(text)
            .iter()
            .map(|l| normalise_title(title_of(l)))
            .collect();
        if own_title.as_ref().is_some_and(|t| links.contains(t)) {
            // Already a backlink.
            continue;
        }
        let mut score = 0.0;
        let mut why = Vec::new();
        let mentioned = mentions(&normalise_title(text), &wanted.phrase);
        if mentioned > 0 {
            score += 3.0 * mentioned.min(3) as f64;
            let times = if mentioned == 1 {
                "once".to_string()
            } else {
                format!("{mentioned} times")
            };
            why.push(format!(
                "mentions \"{}\" {times} without linking",
                wanted.phrase
            ));
        }
        let their_tags = tags(text);
        let shared_tags: Vec<&String> = wanted
            .tags
            .iter()
            .filter(|t| their_tags.contains(t))
            .collect();
        if !shared_tags.is_empty() {
            score += 2.0 * shared_tags.len() as f64;
            let list: Vec<String> = shared_tags.iter().map(|t| format!("#{t}")).collect();
            why.push(format!("shares tags {}", list.join(", ")));
        }
        let mut shared_links: Vec<&String> = wanted
            .links
            .iter()
            .filter(|l| links.contains(l) && Some(*l) != own_title.as_ref())
            .collect();
        shared_links.sort();
        shared_links.dedup();
        if !shared_links.is_empty() {
            score += 1.5 * shared_links.len().min(5) as f64;
            let list: Vec<&str> = shared_links.iter().take(5).map(|s| s.as_str()).collect();
            why.push(format!("links to the same notes: {}", list.join(", ")));
        }
        // Rare shared terms, weighed by the index.
        let word_score = candidate.score * 0.5;
        if word_score > 0.0 {
            score += word_score;
            let list: Vec<&str> = candidate
                .shared
                .iter()
                .take(5)
                .map(|t| wanted.words.get(t).map_or(t.as_str(), String::as_str))
                .collect();
            why.push(format!("shares words: {}", list.join(", ")));
        }
        if score >= MIN_SCORE {
            ranked.push(Suggestion {
                path: path.clone(),
                score: (score * 10.0).round() / 10.0,
                why,
            });
        }
    }
    ranked.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| a.path.cmp(&b.path))
    });
    ranked.truncate(limit);
    ranked
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::search::Language;

    fn notes(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect()
    }

    /// As the engine runs it: the index picks, only the picked are read.
    fn suggest_in(
        subject: &Subject<'_>,
        vault: &[(String, String)],
        limit: usize,
    ) -> (Vec<Suggestion>, usize) {
        let mut index = Index::new(".obsidian", Language::English);
        for (path, text) in vault {
            index.upsert(path, text).unwrap();
        }
        let picked = candidates(subject, &index, &|_| true);
        let read: Vec<(String, String)> = vault
            .iter()
            .filter(|(p, _)| picked.iter().any(|r| &r.path == p))
            .cloned()
            .collect();
        (suggest(subject, &index, &picked, &read, limit), read.len())
    }

    #[test]
    fn mentions_tags_and_links_rank_and_existing_backlinks_are_left_out() {
        let vault = notes(&[
            (
                "Projects/Q3 plan.md",
                "#project\nSee [[Roadmap]] and [[Budget]].",
            ),
            (
                "Meetings/Kickoff.md",
                "We discussed the Q3 plan twice: the q3-plan is late. #project",
            ),
            (
                "People/Alice.md",
                "Alice works on the [[Roadmap]] and the [[Budget]].",
            ),
            ("Daily/Today.md", "Already linked: [[Q3 plan]] #project"),
            ("Ideas/Garden.md", "Tomatoes."),
        ]);
        let subject = Subject::Note {
            path: "Projects/Q3 plan.md",
            text: &vault[0].1,
        };
        let (found, read) = suggest_in(&subject, &vault, 8);
        assert_eq!(read, 3, "the garden shares nothing: never read");
        let paths: Vec<&str> = found.iter().map(|s| s.path.as_str()).collect();
        assert_eq!(
            paths,
            vec!["Meetings/Kickoff.md", "People/Alice.md"],
            "{found:?}"
        );
        assert!(
            found[0].why[0].contains("mentions \"q3 plan\" 2 times"),
            "{:?}",
            found[0].why
        );
        assert!(found[0].why.iter().any(|w| w == "shares tags #project"));
        assert!(found[1]
            .why
            .iter()
            .any(|w| w.contains("links to the same notes: budget, roadmap")));
    }

    #[test]
    fn cjk_topics_match_by_character_ngrams() {
        let vault = notes(&[
            ("会议/周会.md", "本周会议记录：讨论了预算。"),
            ("笔记/旅行.md", "去京都旅行。"),
        ]);
        let (found, _) = suggest_in(&Subject::Topic("会议记录"), &vault, 5);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].path, "会议/周会.md");
        assert!(found[0].why[0].starts_with("mentions \"会议记录\""));
    }
}

#[cfg(test)]
mod by_the_index {
    use super::*;
    use crate::search::Language;

    #[test]
    fn the_index_stems_and_folds_the_words_the_old_word_pass_kept_apart() {
        let vault = [
            (
                "Garden/Tomatoes.md",
                "Growing tomatoes on the balcony: watering twice.",
            ),
            ("Kitchen/Sauces.md", "A sauce of roasted tomatoes."),
            ("Notes/Cafés.md", "Cafés near the station."),
            ("Notes/Other.md", "Nothing here."),
            ("Notes/More.md", "Nothing there."),
        ];
        let mut index = Index::new(".obsidian", Language::English);
        for (path, text) in vault {
            index.upsert(path, text).unwrap();
        }
        let read = |picked: &[RelatedNote]| -> Vec<(String, String)> {
            vault
                .iter()
                .filter(|(p, _)| picked.iter().any(|r| r.path == *p))
                .map(|(p, t)| (p.to_string(), t.to_string()))
                .collect()
        };
        // "tomato" and "watered" are not words of the text; their stems are
        // (the old word pass matched "balcony" alone, too little to suggest).
        let topic = Subject::Topic("tomato watered balcony");
        let picked = candidates(&topic, &index, &|_| true);
        let found = suggest(&topic, &index, &picked, &read(&picked), 5);
        assert_eq!(found[0].path, "Garden/Tomatoes.md", "{found:?}");
        let words = found[0].why.last().unwrap();
        assert!(words.starts_with("shares words: "), "{found:?}");
        assert!(
            words.contains("watered") && words.contains("tomato"),
            "{found:?}"
        );
        // Accents folded: "cafe" finds "Cafés".
        let topic = Subject::Topic("cafe station");
        let picked = candidates(&topic, &index, &|_| true);
        let found = suggest(&topic, &index, &picked, &read(&picked), 5);
        assert_eq!(
            found.first().map(|s| s.path.as_str()),
            Some("Notes/Cafés.md"),
            "{found:?}"
        );
        // The scope comes before the ranking: nothing outside it is picked.
        let picked = candidates(&topic, &index, &|p| !p.starts_with("Notes/"));
        assert!(picked.is_empty(), "{picked:?}");
    }
}
