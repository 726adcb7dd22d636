//! Backlink suggestions: notes that should probably link to a note (or be
//! linked from a note about a topic), ranked by what they share with it:
//! its title mentioned in their text, tags, links to the same notes, and
//! rare words (character bigrams and trigrams for CJK). Notes that already
//! link to it are left out. Every suggestion says why it was made.

use std::collections::{HashMap, HashSet};

use super::text::{links, mentions, normalise_title, tags, terms, title_of};

/// Terms taken from one note (bounds the work on a very long note).
pub const MAX_TERMS_PER_NOTE: usize = 20_000;
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
    terms: HashSet<String>,
}

fn features(subject: &Subject<'_>) -> Features {
    match subject {
        Subject::Note { path, text } => Features {
            phrase: normalise_title(title_of(path)),
            tags: tags(text),
            links: links(text)
                .iter()
                .map(|l| normalise_title(title_of(l)))
                .collect(),
            terms: terms(&format!("{}\n{text}", title_of(path)), MAX_TERMS_PER_NOTE)
                .into_iter()
                .collect(),
        },
        Subject::Topic(topic) => Features {
            phrase: normalise_title(topic),
            tags: topic
                .split_whitespace()
                .filter(|w| w.starts_with('#'))
                .map(|w| w.trim_start_matches('#').to_lowercase())
                .filter(|t| !t.is_empty())
                .collect(),
            links: HashSet::new(),
            terms: terms(topic, MAX_TERMS_PER_NOTE).into_iter().collect(),
        },
    }
}

/// Ranks `notes` (path, text) for `subject`; at most `limit`, best first.
pub fn suggest(subject: &Subject<'_>, notes: &[(String, String)], limit: usize) -> Vec<Suggestion> {
    let wanted = features(subject);
    let own_path = match subject {
        Subject::Note { path, .. } => Some(*path),
        Subject::Topic(_) => None,
    };
    let own_title = own_path.map(|p| normalise_title(title_of(p)));
    // What each note holds, and how many notes hold each of the subject's terms.
    let mut document_frequency: HashMap<&str, usize> = HashMap::new();
    let held: Vec<HashSet<String>> = notes
        .iter()
        .map(|(_, text)| {
            let set: HashSet<String> = terms(text, MAX_TERMS_PER_NOTE)
                .into_iter()
                .filter(|t| wanted.terms.contains(t))
                .collect();
            for term in &set {
                if let Some(t) = wanted.terms.get(term) {
                    *document_frequency.entry(t.as_str()).or_default() += 1;
                }
            }
            set
        })
        .collect();
    let total = notes.len().max(1) as f64;
    let mut ranked = Vec::new();
    for ((path, text), words) in notes.iter().zip(&held) {
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
        // Rare shared words: each weighs by how few notes hold it.
        let mut shared_words: Vec<(f64, &String)> = words
            .iter()
            .filter_map(|t| {
                let df = *document_frequency.get(t.as_str())? as f64;
                (df <= total / 2.0 || total < 4.0).then(|| ((total / df).ln() + 0.5, t))
            })
            .collect();
        shared_words.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
        shared_words.truncate(8);
        let word_score: f64 = shared_words.iter().map(|(w, _)| w).sum::<f64>() * 0.5;
        if word_score > 0.0 {
            score += word_score;
            let list: Vec<&str> = shared_words
                .iter()
                .take(5)
                .map(|(_, t)| t.as_str())
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

    fn notes(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect()
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
        let found = suggest(&subject, &vault, 8);
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
        let found = suggest(&Subject::Topic("会议记录"), &vault, 5);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].path, "会议/周会.md");
        assert!(found[0].why[0].starts_with("mentions \"会议记录\""));
    }
}
