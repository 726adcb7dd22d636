//! The passage shown for a hit: the lines of its chunk that hold the most
//! of the query's weight, widened with the lines around them up to a budget
//! of characters, cut at word boundaries with `…` where a line is longer.

use std::ops::Range;

use super::index::{fnv, Index};
use super::note;
use super::query::{QueryTerm, Ranked, RankedHit};
use super::text::Language;

/// Characters of a passage unless asked otherwise, and the bounds.
pub const DEFAULT_BUDGET: usize = 600;
pub const MIN_BUDGET: usize = 80;
pub const MAX_BUDGET: usize = 4_000;

/// A hit with its passage, as a reader sees it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Passage {
    pub path: String,
    pub heading: String,
    /// The passage, at most the budget in characters (plus the `…` marks).
    pub text: String,
    /// 1-based line of the note where the passage starts.
    pub line: usize,
    pub matched: Vec<String>,
    pub score: f64,
    pub also: Vec<String>,
    /// The text given was not the text indexed (the note changed since):
    /// the passage is cut from the section at the same place in the new
    /// text, and the note should be indexed again.
    pub changed: bool,
    /// Search by meaning found it (alone, or with its words).
    pub by_meaning: bool,
}

impl Index {
    /// The passage of `hit` cut from `text`, the note's text now.
    pub fn passage(&self, ranked: &Ranked, hit: &RankedHit, text: &str, budget: usize) -> Passage {
        let budget = budget.clamp(MIN_BUDGET, MAX_BUDGET);
        let changed = fnv(text) != hit.hash;
        let range = if changed || hit.range.end > text.len() {
            let chunks = note::chunks(text);
            let same = chunks
                .iter()
                .find(|c| c.heading == hit.heading)
                .or_else(|| chunks.get(hit.ordinal))
                .or(chunks.last());
            same.map_or(0..0, |c| c.range.clone())
        } else {
            hit.range.clone()
        };
        let language = self
            .by_path
            .get(hit.path.as_str())
            .map_or(self.language(), |&id| self.note_language(id));
        let (text_cut, start) = cut(self, language, &text[range.clone()], &ranked.terms, budget);
        let line = text[..range.start + start].matches('\n').count() + 1;
        Passage {
            path: hit.path.clone(),
            heading: hit.heading.clone(),
            text: text_cut,
            line,
            matched: hit.matched.clone(),
            score: (hit.score * 1000.0).round() / 1000.0,
            also: hit.also.clone(),
            changed,
            by_meaning: false,
        }
    }
}

/// The weight of the query terms in `line`, each counted once.
fn line_weight(
    index: &Index,
    language: Language,
    line: &str,
    terms: &[QueryTerm],
) -> (f64, Option<usize>) {
    let mut seen = vec![false; terms.len()];
    let mut first = None;
    index
        .analyzer
        .each_term_in(language, line, |term, range: Range<usize>| {
            if let Some(i) = terms
                .iter()
                .position(|t| t.term == term || t.forms.iter().any(|f| f == term))
            {
                if !seen[i] {
                    seen[i] = true;
                    first.get_or_insert(range.start);
                }
            }
        });
    let weight = terms
        .iter()
        .zip(&seen)
        .filter(|(_, s)| **s)
        .map(|(t, _)| t.weight.max(0.01))
        .sum();
    (weight, first)
}

/// The passage of a chunk's text, and its byte offset in the chunk.
fn cut(
    index: &Index,
    language: Language,
    chunk: &str,
    terms: &[QueryTerm],
    budget: usize,
) -> (String, usize) {
    let mut lines: Vec<(usize, &str)> = Vec::new();
    let mut at = 0;
    for line in chunk.split_inclusive('\n') {
        lines.push((at, line));
        at += line.len();
    }
    if lines.is_empty() {
        return (String::new(), 0);
    }
    let chars = |s: &str| s.trim_end().chars().count();
    let weights: Vec<(f64, Option<usize>)> = lines
        .iter()
        .map(|(_, l)| line_weight(index, language, l, terms))
        .collect();
    let best = (0..lines.len())
        .max_by(|&a, &b| {
            weights[a]
                .0
                .total_cmp(&weights[b].0)
                .then_with(|| b.cmp(&a))
        })
        .unwrap_or(0);
    let best = if weights[best].0 > 0.0 {
        best
    } else {
        // Found by the title or properties only: the chunk's first line with text.
        lines
            .iter()
            .position(|(_, l)| !l.trim().is_empty())
            .unwrap_or(0)
    };
    let (offset, line) = lines[best];
    if chars(line) > budget {
        let around = weights[best].1.unwrap_or(0);
        let (text, start) = window(line.trim_end(), around, budget);
        return (text, offset + start);
    }
    // Widen: the next line first (an answer follows its question), then the
    // one before, while the budget holds.
    let (mut from, mut to) = (best, best);
    let mut used = chars(line);
    loop {
        let mut grew = false;
        if to + 1 < lines.len() && used + 1 + chars(lines[to + 1].1) <= budget {
            to += 1;
            used += 1 + chars(lines[to].1);
            grew = true;
        }
        if from > 0 && used + 1 + chars(lines[from - 1].1) <= budget {
            from -= 1;
            used += 1 + chars(lines[from].1);
            grew = true;
        }
        if !grew {
            break;
        }
    }
    while from < best && lines[from].1.trim().is_empty() {
        from += 1;
    }
    let text: String = lines[from..=to].iter().map(|(_, l)| *l).collect();
    (text.trim_end().to_string(), lines[from].0)
}

/// At most `budget` characters of a long line around byte `around`, cut at
/// spaces, with `…` where it was cut; and the byte offset it starts at.
fn window(line: &str, around: usize, budget: usize) -> (String, usize) {
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    let centre = chars.partition_point(|(i, _)| *i < around);
    let mut start = centre.saturating_sub(budget / 3);
    let end = (start + budget).min(chars.len());
    start = end.saturating_sub(budget).min(start);
    // Move inward to a space, unless that loses more than a fifth.
    let mut s = start;
    if s > 0 {
        while s < centre && s < start + budget / 5 && chars[s - 1].1 != ' ' {
            s += 1;
        }
        if chars[s - 1].1 != ' ' {
            s = start;
        }
    }
    let mut e = end;
    if e < chars.len() {
        while e > centre + 1 && e + budget / 5 > end && chars[e].1 != ' ' {
            e -= 1;
        }
        if chars[e].1 != ' ' {
            e = end;
        }
    }
    let byte = |k: usize| chars.get(k).map_or(line.len(), |(i, _)| *i);
    let mut out = String::new();
    if s > 0 {
        out.push('…');
    }
    out.push_str(line[byte(s)..byte(e)].trim());
    if e < chars.len() {
        out.push('…');
    }
    (out, byte(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_line_is_cut_around_the_match_at_spaces() {
        let line = format!("{} needle {}", "hay ".repeat(300), "straw ".repeat(300));
        let at = line.find("needle").unwrap();
        let (text, start) = window(&line, at, 100);
        assert!(text.contains("needle"), "{text}");
        assert!(text.starts_with('…') && text.ends_with('…'), "{text}");
        assert!(text.chars().count() <= 102, "{}", text.chars().count());
        assert!(line[start..].starts_with(text.trim_matches('…')));
    }
}
