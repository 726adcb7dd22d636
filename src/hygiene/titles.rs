//! Duplicate titles: exact after normalising case, accents and punctuation
//! (always complete), and similar by normalized Levenshtein distance
//! (`strsim`), compared only for pairs of titles that share enough
//! character trigrams, within a comparison budget.

use std::collections::HashMap;

use super::text::{normalise_title, title_of};
use crate::search::related::without_digits;

/// The work the candidate search may do (postings visited and trigrams
/// merged) before the similar search stops and says it was cut short. A
/// generated 10 000-note vault whose titles share 20 words needs 110 million.
pub const INDEX_WORK_BUDGET: usize = 250_000_000;
/// A trigram more titles than this share ("not", "202") does not make two
/// titles candidates by itself: similar titles share their rarer trigrams too.
/// (It still counts in the share of trigrams computed for a candidate.)
pub const COMMON_TRIGRAM: usize = 1_000;

/// Two notes whose titles are alike but not the same.
#[derive(Clone, Debug, PartialEq)]
pub struct SimilarPair {
    pub a: String,
    pub b: String,
    /// 1.0 is the same title.
    pub score: f64,
}

/// What the duplicate check found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Duplicates {
    /// Notes with the same normalised title, each group sorted by path.
    pub exact: Vec<Vec<String>>,
    /// Similar titles, most similar first.
    pub similar: Vec<SimilarPair>,
    /// Distinct normalised titles compared.
    pub titles: usize,
    /// Pairs compared with the string metric.
    pub comparisons: usize,
    /// True when the budget (or the index's work bound) stopped the similar
    /// search before every candidate pair was compared.
    pub truncated: bool,
}

/// Finds duplicate titles among `paths`. `threshold`: the least similarity
/// (0..=1) that counts as similar; `budget`: the most pairs compared.
pub fn find_duplicates(paths: &[String], threshold: f64, budget: usize) -> Duplicates {
    let mut groups: HashMap<String, Vec<String>> = HashMap::new();
    for path in paths {
        let key = normalise_title(title_of(path));
        if !key.is_empty() {
            groups.entry(key).or_default().push(path.clone());
        }
    }
    let mut exact: Vec<Vec<String>> = groups
        .values()
        .filter(|g| g.len() > 1)
        .map(|g| {
            let mut g = g.clone();
            g.sort();
            g
        })
        .collect();
    exact.sort();
    // One entry per distinct title, in a fixed order.
    let mut titles: Vec<(&String, &String)> = groups
        .iter()
        .map(|(key, group)| (key, group.iter().min().expect("groups are never empty")))
        .collect();
    titles.sort();
    let (similar, comparisons, truncated) = similar_pairs(&titles, threshold, budget);
    Duplicates {
        exact,
        similar,
        titles: titles.len(),
        comparisons,
        truncated,
    }
}

/// The character trigrams of a title, padded so short titles have some.
fn trigrams(title: &str) -> Vec<u64> {
    let chars: Vec<char> = std::iter::once(' ')
        .chain(title.chars())
        .chain(std::iter::once(' '))
        .collect();
    let mut grams: Vec<u64> = chars
        .windows(3)
        .map(|w| (w[0] as u64) << 42 | (w[1] as u64) << 21 | w[2] as u64)
        .collect();
    grams.sort_unstable();
    grams.dedup();
    grams
}

/// The least share of trigrams (Dice coefficient) two titles with this
/// similarity can have: each edit spoils at most three trigrams.
fn prefilter(threshold: f64) -> f64 {
    (1.0 - 3.0 * (1.0 - threshold) - 0.05).max(0.0)
}

fn similar_pairs(
    titles: &[(&String, &String)],
    threshold: f64,
    budget: usize,
) -> (Vec<SimilarPair>, usize, bool) {
    let grams: Vec<Vec<u64>> = titles.iter().map(|(key, _)| trigrams(key)).collect();
    // Once per title, not once per candidate pair.
    let series: Vec<String> = titles.iter().map(|(key, _)| without_digits(key)).collect();
    let mut postings: HashMap<u64, Vec<u32>> = HashMap::new();
    for (i, set) in grams.iter().enumerate() {
        for gram in set {
            postings.entry(*gram).or_default().push(i as u32);
        }
    }
    let floor = prefilter(threshold);
    // Marks the titles already taken as candidates for the title at hand.
    let mut seen = vec![u32::MAX; titles.len()];
    let mut candidates: Vec<u32> = Vec::new();
    let mut work = 0usize;
    let mut comparisons = 0usize;
    let mut found = Vec::new();
    for (i, set) in grams.iter().enumerate() {
        candidates.clear();
        for gram in set {
            let list = &postings[gram];
            if list.len() > COMMON_TRIGRAM {
                continue;
            }
            let start = list.partition_point(|&j| j as usize <= i);
            work += list.len() - start;
            for &j in &list[start..] {
                if seen[j as usize] != i as u32 {
                    seen[j as usize] = i as u32;
                    candidates.push(j);
                }
            }
        }
        work += candidates.len() * set.len();
        if work > INDEX_WORK_BUDGET {
            return (sorted(found), comparisons, true);
        }
        candidates.sort_unstable();
        for &j in &candidates {
            let j = j as usize;
            if series[i] == series[j] {
                continue;
            }
            let dice = 2.0 * shared(set, &grams[j]) as f64 / (set.len() + grams[j].len()) as f64;
            if dice < floor {
                continue;
            }
            let (a, b) = (titles[i].0, titles[j].0);
            if comparisons == budget {
                return (sorted(found), comparisons, true);
            }
            comparisons += 1;
            let score = strsim::normalized_levenshtein(a, b);
            if score >= threshold {
                let (a, b) = (titles[i].1.min(titles[j].1), titles[i].1.max(titles[j].1));
                found.push(SimilarPair {
                    a: a.clone(),
                    b: b.clone(),
                    score,
                });
            }
        }
    }
    (sorted(found), comparisons, false)
}

/// How many trigrams two sorted sets share.
fn shared(a: &[u64], b: &[u64]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                n += 1;
                i += 1;
                j += 1;
            }
        }
    }
    n
}

fn sorted(mut pairs: Vec<SimilarPair>) -> Vec<SimilarPair> {
    pairs.sort_by(|x, y| {
        y.score
            .total_cmp(&x.score)
            .then_with(|| x.a.cmp(&y.a))
            .then_with(|| x.b.cmp(&y.b))
    });
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn exact_and_similar_titles_are_found() {
        let found = find_duplicates(
            &paths(&[
                "Projects/Q3 Plan.md",
                "Archive/q3-plan.md",
                "Ideas/Launch plan.md",
                "Ideas/Launch plans.md",
                "Daily/2026-03-01.md",
                "Daily/2026-03-02.md",
                "Café.md",
                "Notes/cafe.md",
                "Unrelated.md",
            ]),
            0.85,
            1000,
        );
        assert_eq!(
            found.exact,
            vec![
                paths(&["Archive/q3-plan.md", "Projects/Q3 Plan.md"]),
                paths(&["Café.md", "Notes/cafe.md"]),
            ]
        );
        assert_eq!(found.similar.len(), 1, "{:?}", found.similar);
        assert_eq!(found.similar[0].a, "Ideas/Launch plan.md");
        assert_eq!(found.similar[0].b, "Ideas/Launch plans.md");
        assert!(!found.truncated);
    }

    #[test]
    fn the_budget_cuts_the_similar_search_and_says_so() {
        let many: Vec<String> = (0..50)
            .map(|i| format!("Plan {}x.md", "a".repeat(i % 7 + 3)))
            .collect();
        let found = find_duplicates(&many, 0.6, 3);
        assert_eq!(found.comparisons, 3);
        assert!(found.truncated);
    }
}
