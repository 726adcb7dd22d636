//! Duplicate titles: exact after normalising case, accents and punctuation
//! (always complete), and similar by normalized Levenshtein distance
//! (`strsim`), compared only for pairs of titles that share enough
//! character trigrams, within a comparison budget.

use std::collections::HashMap;

use super::text::{normalise_title, title_of};
use crate::search::related::without_digits;

/// The work the candidate search may do (postings visited and trigrams
/// merged) before the similar search stops and says it was cut short: a
/// bound on the time for vaults whose titles defeat the prefix filter.
pub const INDEX_WORK_BUDGET: usize = 250_000_000;
/// A trigram more titles than this share in their prefixes ("not", "202")
/// does not make two titles candidates by itself: similar titles share
/// their rarer trigrams too. (It still counts in the share of trigrams
/// computed for a candidate.) Only a vault of many titles alike meets it.
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
    /// What the candidate search did: postings visited and trigrams merged
    /// (the benchmark's measure of growth, free of the machine's speed).
    pub work: usize,
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
    let (similar, comparisons, truncated, work) = similar_pairs(&titles, threshold, budget);
    Duplicates {
        exact,
        similar,
        titles: titles.len(),
        comparisons,
        truncated,
        work,
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

/// The similar pairs by prefix and positional filtering (PPJoin, as
/// set-similarity joins do): with every title's trigrams ordered rarest
/// first across the vault, two titles whose share of trigrams reaches
/// `floor` must share one among the first `prefix_len` of each, and a pair
/// whose trigrams met so far plus those left after the one met now cannot
/// reach the overlap the floor asks is dropped there. Only prefixes are
/// indexed and probed, so a trigram most titles hold ("not", digits) is
/// rarely visited, titles that share only a common word are dropped
/// before their trigrams are merged, and every pair the floor allows is
/// still a candidate.
fn similar_pairs(
    titles: &[(&String, &String)],
    threshold: f64,
    budget: usize,
) -> (Vec<SimilarPair>, usize, bool, usize) {
    let grams: Vec<Vec<u64>> = titles.iter().map(|(key, _)| trigrams(key)).collect();
    // Titles that differ only in their digits ("Meeting 3", "Meeting 4") are
    // one series and never a pair: one id per series, once per title.
    let series: Vec<u32> = {
        let mut ids: HashMap<String, u32> = HashMap::new();
        titles
            .iter()
            .map(|(key, _)| {
                let next = ids.len() as u32;
                *ids.entry(without_digits(key)).or_insert(next)
            })
            .collect()
    };
    let mut frequency: HashMap<u64, u32> = HashMap::new();
    for set in &grams {
        for gram in set {
            *frequency.entry(*gram).or_default() += 1;
        }
    }
    // Each title's trigrams, rarest first (ties by value, the same order for all).
    let rare_first: Vec<Vec<u64>> = grams
        .iter()
        .map(|set| {
            let mut set = set.clone();
            set.sort_unstable_by_key(|g| (frequency[g], *g));
            set
        })
        .collect();
    let floor = prefilter(threshold);
    // Dice ≥ d means Jaccard ≥ d / (2 − d): the bounds are Jaccard's.
    let jaccard = floor / (2.0 - floor);
    // Rounded down a hair so a float error never shortens a prefix or
    // raises the overlap asked.
    let at_least = |x: f64| (x - 1e-9).ceil().max(0.0) as usize;
    let prefix_len = |n: usize| n - at_least(jaccard * n as f64).min(n) + 1;
    let overlap_needed = |a: usize, b: usize| at_least(jaccard / (1.0 + jaccard) * (a + b) as f64);
    // Each trigram's titles so far, with its place in their prefix.
    let mut postings: HashMap<u64, Vec<(u32, u32)>> = HashMap::new();
    // Marks the titles already met for the title at hand, and the trigrams
    // shared so far (`DROPPED` once the positional bound rules a pair out).
    const DROPPED: i64 = i64::MIN / 2;
    let mut seen = vec![u32::MAX; titles.len()];
    let mut overlap = vec![0i64; titles.len()];
    let mut candidates: Vec<u32> = Vec::new();
    let mut work = 0usize;
    let mut comparisons = 0usize;
    let mut found = Vec::new();
    for (i, set) in grams.iter().enumerate() {
        candidates.clear();
        let n = set.len();
        let prefix = &rare_first[i][..prefix_len(n).min(n)];
        // The titles before this one that share a prefix trigram; then this
        // one joins the lists, so each pair is met once.
        for (p, gram) in prefix.iter().enumerate() {
            let Some(list) = postings.get(gram).filter(|l| l.len() <= COMMON_TRIGRAM) else {
                continue;
            };
            work += list.len();
            for &(j, q) in list {
                let j = j as usize;
                if seen[j] != i as u32 {
                    seen[j] = i as u32;
                    overlap[j] = 0;
                    candidates.push(j as u32);
                }
                if overlap[j] < 0 {
                    continue;
                }
                let m = grams[j].len();
                let left = 1 + (n - p - 1).min(m - q as usize - 1);
                if overlap[j] as usize + left >= overlap_needed(n, m) {
                    overlap[j] += 1;
                } else {
                    overlap[j] = DROPPED;
                }
            }
        }
        for (p, gram) in prefix.iter().enumerate() {
            postings
                .entry(*gram)
                .or_default()
                .push((i as u32, p as u32));
        }
        candidates.retain(|&j| overlap[j as usize] > 0 && series[j as usize] != series[i]);
        work += candidates
            .iter()
            .map(|&j| n + grams[j as usize].len())
            .sum::<usize>();
        if work > INDEX_WORK_BUDGET {
            return (sorted(found), comparisons, true, work);
        }
        candidates.sort_unstable();
        for &j in &candidates {
            let j = j as usize;
            let dice = 2.0 * shared(set, &grams[j]) as f64 / (set.len() + grams[j].len()) as f64;
            if dice < floor {
                continue;
            }
            let (a, b) = (titles[i].0, titles[j].0);
            if comparisons == budget {
                return (sorted(found), comparisons, true, work);
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
    (sorted(found), comparisons, false, work)
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

    /// Every pair by brute force, as the check defines them.
    fn all_pairs(paths: &[String], threshold: f64) -> Vec<(String, String)> {
        let found = find_duplicates(paths, threshold, usize::MAX);
        let mut titles: Vec<(String, String)> = Vec::new();
        for path in paths {
            let key = normalise_title(title_of(path));
            if !key.is_empty() && !titles.iter().any(|(k, _)| *k == key) {
                titles.push((key, path.clone()));
            }
        }
        let mut pairs = Vec::new();
        for (x, (ka, pa)) in titles.iter().enumerate() {
            for (kb, pb) in &titles[x + 1..] {
                if without_digits(ka) == without_digits(kb) {
                    continue;
                }
                let (ga, gb) = (trigrams(ka), trigrams(kb));
                // Candidates share a trigram at least, whatever the floor.
                let common = shared(&ga, &gb);
                let dice = 2.0 * common as f64 / (ga.len() + gb.len()) as f64;
                if common > 0
                    && dice >= prefilter(threshold)
                    && strsim::normalized_levenshtein(ka, kb) >= threshold
                {
                    // The path kept for a title is its group's least; the generator makes none twice.
                    pairs.push((pa.clone().min(pb.clone()), pa.clone().max(pb.clone())));
                }
            }
        }
        pairs.sort();
        let mut got: Vec<(String, String)> =
            found.similar.into_iter().map(|p| (p.a, p.b)).collect();
        got.sort();
        assert_eq!(got, pairs, "the prefix filter missed or added a pair");
        pairs
    }

    #[test]
    fn the_prefix_filter_finds_every_pair_brute_force_finds() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut below = |k: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % k
        };
        let letters = ['a', 'e', 'n', 'r', 's', 't', ' '];
        let mut total = 0;
        for round in 0..40 {
            // Short titles over few letters: many near pairs, edits of one to three letters.
            let mut paths: Vec<String> = Vec::new();
            for n in 0..60 {
                let len = 3 + below(12) as usize;
                let title: String = (0..len)
                    .map(|_| letters[below(letters.len() as u64) as usize])
                    .collect();
                let title = title.trim().to_string();
                if !title.is_empty() {
                    paths.push(format!("R{round}/{title} {}.md", ["x", "y"][n % 2]));
                }
            }
            for threshold in [0.6, 0.75, 0.85] {
                total += all_pairs(&paths, threshold).len();
            }
        }
        assert!(total > 50, "the cases hold pairs to find ({total})");
    }
}
