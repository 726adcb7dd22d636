//! The one text model of the vault, shared by the ranked search and the
//! hygiene checks: how a title is normalised, how text becomes words (case
//! and accents folded, English or another language's Snowball stemmer, stop
//! words left out) and how CJK text, written without spaces, becomes
//! character bigrams.

use std::ops::Range;

/// A note's title: its file name without the folder and `.md`.
pub fn title_of(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.strip_suffix(".md").unwrap_or(name)
}

/// The folders of a vault path (`Projects/2026/Plan.md` → `Projects/2026`).
pub fn folder_of(path: &str) -> &str {
    path.rfind('/').map_or("", |i| &path[..i])
}

/// The form two titles are compared in: lower case, accents removed (`é` →
/// `e`, `ß` → `ss`), every run of punctuation, symbols and spaces one space.
/// "Q3 Plan", "q3-plan" and "Q3  plan!" are the same title; so are "Café"
/// and "cafe". CJK characters are letters and stay.
pub fn normalise_title(title: &str) -> String {
    let mut out = String::with_capacity(title.len());
    let mut space = false;
    for c in title.chars() {
        if c.is_alphanumeric() {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            for lower in c.to_lowercase() {
                fold_accent(lower, &mut out);
            }
        } else if !is_combining_mark(c) {
            space = true;
        }
    }
    out
}

/// Combining accents (`e` + U+0301) are dropped, so a decomposed word
/// compares like a composed one.
pub fn is_combining_mark(c: char) -> bool {
    matches!(c, '\u{0300}'..='\u{036F}' | '\u{1AB0}'..='\u{1AFF}' | '\u{20D0}'..='\u{20FF}')
}

/// The letter without its accent, for the Latin letters European languages
/// use (a table, not Unicode decomposition: the plugin carries no
/// normalisation tables; see Cargo.toml).
pub fn fold_accent(c: char, out: &mut String) {
    const FOLDS: &[(&str, &str)] = &[
        ("àáâãäåāăą", "a"),
        ("çćĉċč", "c"),
        ("ďđ", "d"),
        ("èéêëēĕėęě", "e"),
        ("ĝğġģ", "g"),
        ("ĥħ", "h"),
        ("ìíîïĩīĭįı", "i"),
        ("ĵ", "j"),
        ("ķ", "k"),
        ("ĺļľŀł", "l"),
        ("ñńņňŉ", "n"),
        ("òóôõöøōŏő", "o"),
        ("ŕŗř", "r"),
        ("śŝşšș", "s"),
        ("ţťŧț", "t"),
        ("ùúûüũūŭůűų", "u"),
        ("ŵ", "w"),
        ("ýÿŷ", "y"),
        ("źżž", "z"),
        ("ß", "ss"),
        ("æ", "ae"),
        ("œ", "oe"),
        ("þ", "th"),
        ("ð", "d"),
    ];
    if c.is_ascii() {
        out.push(c);
        return;
    }
    if is_combining_mark(c) {
        return;
    }
    match FOLDS.iter().find(|(from, _)| from.contains(c)) {
        Some((_, to)) => out.push_str(to),
        None => out.push(c),
    }
}

/// True for a term that keeps an accent the text model folds: an exact
/// form ([`Analyzer::term_and_exact_in`]), never a folded term, which has
/// none of those letters left. The backlink suggestions count a word once,
/// by its folded term.
pub fn is_exact_form(term: &str) -> bool {
    !term.is_ascii()
        && term.chars().any(|c| {
            let mut folded = String::new();
            fold_accent(c, &mut folded);
            folded.len() != c.len_utf8() || !folded.starts_with(c)
        })
}

/// True for the scripts written without spaces between words (Han, kana,
/// Hangul, Thai), which are compared by character bigrams.
pub fn is_bigram_script(c: char) -> bool {
    matches!(c,
        '\u{0E00}'..='\u{0E7F}'   // Thai
        | '\u{3040}'..='\u{30FF}' // Hiragana, Katakana
        | '\u{3400}'..='\u{4DBF}' // CJK Extension A
        | '\u{4E00}'..='\u{9FFF}' // CJK Unified Ideographs
        | '\u{AC00}'..='\u{D7AF}' // Hangul syllables
        | '\u{F900}'..='\u{FAFF}' // CJK Compatibility Ideographs
        | '\u{20000}'..='\u{2FA1F}')
}

/// Words too common to say anything about a topic (compared folded): the
/// English function words, the words a question is framed with, and the
/// most common ones of German, French and Spanish.
const STOP_WORDS: &[&str] = &[
    "a",
    "able",
    "about",
    "above",
    "after",
    "again",
    "all",
    "already",
    "also",
    "always",
    "am",
    "an",
    "and",
    "another",
    "any",
    "anyone",
    "anything",
    "are",
    "as",
    "at",
    "be",
    "because",
    "been",
    "before",
    "being",
    "below",
    "between",
    "both",
    "but",
    "by",
    "can",
    "cannot",
    "con",
    "could",
    "dans",
    "das",
    "der",
    "des",
    "did",
    "die",
    "do",
    "does",
    "doing",
    "don't",
    "done",
    "down",
    "during",
    "each",
    "ein",
    "eine",
    "either",
    "el",
    "else",
    "est",
    "etc",
    "even",
    "ever",
    "every",
    "everything",
    "few",
    "for",
    "from",
    "further",
    "get",
    "gets",
    "got",
    "had",
    "has",
    "have",
    "having",
    "he",
    "her",
    "here",
    "hers",
    "him",
    "his",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "isn't",
    "ist",
    "it",
    "it's",
    "its",
    "just",
    "las",
    "les",
    "let",
    "like",
    "los",
    "lot",
    "lots",
    "many",
    "may",
    "me",
    "might",
    "more",
    "most",
    "much",
    "must",
    "my",
    "need",
    "needs",
    "never",
    "new",
    "nicht",
    "no",
    "nor",
    "not",
    "now",
    "of",
    "off",
    "often",
    "on",
    "once",
    "one",
    "only",
    "or",
    "other",
    "our",
    "ours",
    "out",
    "over",
    "own",
    "para",
    "please",
    "por",
    "possible",
    "pour",
    "que",
    "qui",
    "quite",
    "rather",
    "really",
    "same",
    "see",
    "she",
    "should",
    "so",
    "some",
    "someone",
    "something",
    "still",
    "such",
    "than",
    "that",
    "the",
    "their",
    "theirs",
    "them",
    "then",
    "there",
    "these",
    "they",
    "thing",
    "things",
    "this",
    "those",
    "through",
    "to",
    "too",
    "una",
    "und",
    "under",
    "une",
    "until",
    "up",
    "us",
    "use",
    "very",
    "want",
    "wants",
    "was",
    "way",
    "we",
    "were",
    "what",
    "when",
    "where",
    "whether",
    "which",
    "while",
    "who",
    "whom",
    "why",
    "will",
    "with",
    "within",
    "without",
    "would",
    "yet",
    "you",
    "your",
    "yours",
];

/// True for a word (lower case, accents folded) that is never a term.
pub fn is_stop_word(folded: &str) -> bool {
    STOP_WORDS.binary_search(&folded).is_ok()
}

/// The language whose stemmer reduces words to their stem ("syncing",
/// "synced" → "sync"): every Snowball stemmer `rust-stemmers` offers, all
/// linked in the plugin too (their cost in main.js is in BENCHMARKS.md).
/// `None` keeps words whole (and is what Chinese, Japanese, Korean and
/// Thai notes get: their text becomes character bigrams, not words).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Language {
    #[default]
    English,
    Arabic,
    Danish,
    Dutch,
    Finnish,
    French,
    German,
    Greek,
    Hungarian,
    Italian,
    Norwegian,
    Portuguese,
    Romanian,
    Russian,
    Spanish,
    Swedish,
    Tamil,
    Turkish,
    None,
}

impl Language {
    /// Every language, in the order of [`Language::slot`].
    pub const ALL: [Language; 19] = [
        Language::English,
        Language::Arabic,
        Language::Danish,
        Language::Dutch,
        Language::Finnish,
        Language::French,
        Language::German,
        Language::Greek,
        Language::Hungarian,
        Language::Italian,
        Language::Norwegian,
        Language::Portuguese,
        Language::Romanian,
        Language::Russian,
        Language::Spanish,
        Language::Swedish,
        Language::Tamil,
        Language::Turkish,
        Language::None,
    ];

    /// Its place in [`Language::ALL`], for tables kept per language.
    pub fn slot(self) -> usize {
        self as usize
    }

    /// From a setting's or a `lang` property's value: an ISO 639-1 code
    /// (`de`, also with a region: `de-AT`, `pt_BR`) or the language's name
    /// in English or in itself. Chinese, Japanese, Korean and Thai are
    /// `None` (no stemmer: their text is cut into bigrams). Unknown → `None`
    /// of the `Option`.
    pub fn parse(name: &str) -> Option<Language> {
        let lower = name.trim().to_lowercase();
        let code = lower.split(['-', '_']).next().unwrap_or("");
        Some(match code {
            "en" | "english" => Language::English,
            "ar" | "arabic" | "العربية" => Language::Arabic,
            "da" | "danish" | "dansk" => Language::Danish,
            "nl" | "dutch" | "nederlands" => Language::Dutch,
            "fi" | "finnish" | "suomi" => Language::Finnish,
            "fr" | "french" | "français" | "francais" => Language::French,
            "de" | "german" | "deutsch" => Language::German,
            "el" | "greek" | "ελληνικά" => Language::Greek,
            "hu" | "hungarian" | "magyar" => Language::Hungarian,
            "it" | "italian" | "italiano" => Language::Italian,
            "no" | "nb" | "nn" | "norwegian" | "norsk" => Language::Norwegian,
            "pt" | "portuguese" | "português" | "portugues" => Language::Portuguese,
            "ro" | "romanian" | "română" | "romana" => Language::Romanian,
            "ru" | "russian" | "русский" => Language::Russian,
            "es" | "spanish" | "español" | "espanol" => Language::Spanish,
            "sv" | "swedish" | "svenska" => Language::Swedish,
            "ta" | "tamil" | "தமிழ்" => Language::Tamil,
            "tr" | "turkish" | "türkçe" | "turkce" => Language::Turkish,
            "zh" | "ja" | "ko" | "th" | "chinese" | "japanese" | "korean" | "thai" | "none"
            | "off" => Language::None,
            _ => return None,
        })
    }

    fn stemmer(self) -> Option<rust_stemmers::Stemmer> {
        use rust_stemmers::{Algorithm, Stemmer};
        let algorithm = match self {
            Language::English => Algorithm::English,
            Language::Arabic => Algorithm::Arabic,
            Language::Danish => Algorithm::Danish,
            Language::Dutch => Algorithm::Dutch,
            Language::Finnish => Algorithm::Finnish,
            Language::French => Algorithm::French,
            Language::German => Algorithm::German,
            Language::Greek => Algorithm::Greek,
            Language::Hungarian => Algorithm::Hungarian,
            Language::Italian => Algorithm::Italian,
            Language::Norwegian => Algorithm::Norwegian,
            Language::Portuguese => Algorithm::Portuguese,
            Language::Romanian => Algorithm::Romanian,
            Language::Russian => Algorithm::Russian,
            Language::Spanish => Algorithm::Spanish,
            Language::Swedish => Algorithm::Swedish,
            Language::Tamil => Algorithm::Tamil,
            Language::Turkish => Algorithm::Turkish,
            Language::None => return None,
        };
        Some(Stemmer::create(algorithm))
    }
}

/// A run of text that may hold a term: a word, or a run of CJK characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunKind {
    Word,
    Cjk,
}

/// Calls `found` with every word and CJK run of `text` (byte ranges), in
/// order. A word is letters and digits (and an apostrophe between letters:
/// "don't"); combining accents belong to the word they follow.
pub fn runs(text: &str, mut found: impl FnMut(RunKind, Range<usize>)) {
    let mut current: Option<(RunKind, usize)> = None;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let kind = if is_bigram_script(c) {
            Some(RunKind::Cjk)
        } else if c.is_alphanumeric() {
            Some(RunKind::Word)
        } else if is_combining_mark(c) && matches!(current, Some((RunKind::Word, _))) {
            continue;
        } else if matches!(c, '\'' | '’') && matches!(current, Some((RunKind::Word, _))) {
            // Inside a word only when a letter follows.
            if chars
                .peek()
                .is_some_and(|(_, n)| n.is_alphabetic() && !is_bigram_script(*n))
            {
                continue;
            }
            None
        } else {
            None
        };
        match (current, kind) {
            (Some((k, _)), Some(new)) if k == new => {}
            (Some((k, start)), _) => {
                found(k, start..i);
                current = kind.map(|k| (k, i));
            }
            (None, Some(k)) => current = Some((k, i)),
            (None, None) => {}
        }
    }
    if let Some((k, start)) = current {
        found(k, start..text.len());
    }
}

/// Turns words into terms: the search's side of the text model. Each note
/// is read in its own language (`language.rs` tells it); the analyzer's
/// language is the default, for text of no note (a title asked for).
pub struct Analyzer {
    language: Language,
    /// Per [`Language::slot`]; a stemmer is a function pointer, cheap to hold.
    stemmers: Vec<Option<rust_stemmers::Stemmer>>,
}

impl Analyzer {
    pub fn new(language: Language) -> Analyzer {
        Analyzer {
            language,
            stemmers: Language::ALL.iter().map(|l| l.stemmer()).collect(),
        }
    }

    pub fn language(&self) -> Language {
        self.language
    }

    /// The term of one word (already lower case) in the default language.
    pub fn term(&self, lower: &str) -> Option<String> {
        self.term_in(self.language, lower)
    }

    /// The term of one word (already lower case) in `language`: `None` for
    /// a stop word or a single letter. English is stemmed after its accents
    /// are folded (so "Straße" and "strasse" meet); the other languages
    /// before, because their stemmers expect their accents ("für", "été").
    pub fn term_in(&self, language: Language, lower: &str) -> Option<String> {
        self.term_and_exact_in(language, lower, false).0
    }

    /// The term of one word in `language` and, when `exact` is asked and
    /// the word has accents, its exact form: the stem with its accents kept
    /// ("résumé" → "resum" and "résum"). Both are indexed, a query with
    /// accents asks for both, so a note that writes the word as the query
    /// does ranks above one that writes it without (or with others);
    /// a query without accents asks for the folded term alone and finds
    /// every spelling alike.
    pub fn term_and_exact_in(
        &self,
        language: Language,
        lower: &str,
        exact: bool,
    ) -> (Option<String>, Option<String>) {
        let mut folded = String::with_capacity(lower.len());
        for c in lower.chars() {
            fold_accent(c, &mut folded);
        }
        let letters = folded.chars().count();
        if letters < 2 || is_stop_word(&folded) {
            return (None, None);
        }
        let exact = exact && folded != lower;
        let stemmable = !lower.chars().any(|c| c.is_ascii_digit());
        let (term, accented) = match (&self.stemmers[language.slot()], stemmable) {
            (Some(stemmer), true) if language == Language::English => (
                stemmer.stem(&folded).into_owned(),
                exact.then(|| stemmer.stem(lower).into_owned()),
            ),
            (Some(stemmer), true) => {
                let stem = stemmer.stem(lower);
                let mut out = String::with_capacity(stem.len());
                for c in stem.chars() {
                    fold_accent(c, &mut out);
                }
                (out, exact.then(|| stem.into_owned()))
            }
            _ => (folded, exact.then(|| lower.to_string())),
        };
        // Only a form that still has an accent is exact (a stemmer may cut
        // the accented letters off: "café" → "caf").
        let accented = accented.filter(|a| is_exact_form(a));
        (Some(term), accented)
    }

    /// Calls `found` with each term of `text` in order (default language).
    pub fn each_term(&self, text: &str, found: impl FnMut(&str, Range<usize>)) {
        self.each_term_in(self.language, text, found);
    }

    /// Calls `found` with each term of `text` in order, with the byte range
    /// it came from: a word's term in `language`, or each character bigram
    /// of a run without spaces (a lone character is a term by itself).
    pub fn each_term_in(
        &self,
        language: Language,
        text: &str,
        mut found: impl FnMut(&str, Range<usize>),
    ) {
        each_piece(text, |piece, range| match piece {
            Piece::Word(lower) => {
                if let Some(term) = self.term_in(language, lower) {
                    found(&term, range);
                }
            }
            Piece::Gram(gram) => found(gram, range),
        });
    }

    /// Calls `found` with each term of `text` read in every one of
    /// `languages` (a word's forms once each) and the byte range it came
    /// from: a topic or a note outside the index, read as a query is.
    pub fn each_term_in_all(
        &self,
        languages: &[Language],
        text: &str,
        mut found: impl FnMut(&str, Range<usize>),
    ) {
        let mut forms: Vec<String> = Vec::new();
        each_piece(text, |piece, range| match piece {
            Piece::Word(lower) => {
                forms.clear();
                for &language in languages {
                    if let Some(term) = self.term_in(language, lower) {
                        if !forms.contains(&term) {
                            found(&term, range.clone());
                            forms.push(term);
                        }
                    }
                }
            }
            Piece::Gram(gram) => found(gram, range),
        });
    }

    /// The distinct terms of a query (default language), each with the
    /// word it came from, in order of first appearance.
    pub fn query_terms(&self, query: &str) -> Vec<(String, String)> {
        self.query_forms(query, &[self.language])
            .into_iter()
            .map(|(mut forms, word)| (forms.swap_remove(0), word))
            .collect()
    }

    /// The distinct words of a query, each with its term in every one of
    /// `languages` (distinct, the first language's first) and the word it
    /// came from, in order of first appearance: a query is read in every
    /// language the vault's notes are written in.
    pub fn query_forms(&self, query: &str, languages: &[Language]) -> Vec<(Vec<String>, String)> {
        let mut out: Vec<(Vec<String>, String)> = Vec::new();
        each_piece(query, |piece, range| {
            let mut forms: Vec<String> = Vec::new();
            match piece {
                Piece::Word(lower) => {
                    let mut exact: Vec<String> = Vec::new();
                    for &language in languages {
                        let (term, accented) = self.term_and_exact_in(language, lower, true);
                        if let Some(term) = term {
                            if !forms.contains(&term) {
                                forms.push(term);
                            }
                        }
                        if let Some(accented) = accented {
                            if !exact.contains(&accented) {
                                exact.push(accented);
                            }
                        }
                    }
                    // The exact forms after every folded one: the first
                    // form a note holds names the word's term.
                    forms.extend(exact);
                }
                Piece::Gram(gram) => forms.push(gram.to_string()),
            }
            if !forms.is_empty() && !out.iter().any(|(f, _)| f[0] == forms[0]) {
                out.push((forms, query[range].to_string()));
            }
        });
        out
    }
}

/// What a term is made from: a word in lower case (for [`Analyzer::term`])
/// or a character bigram of a script without spaces, which is a term as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece<'a> {
    Word(&'a str),
    Gram(&'a str),
}

/// Calls `found` with every piece of `text` and its byte range, in order.
pub fn each_piece(text: &str, mut found: impl FnMut(Piece<'_>, Range<usize>)) {
    let mut lower = String::new();
    runs(text, |kind, range| match kind {
        RunKind::Word => {
            lower.clear();
            let word = &text[range.clone()];
            if word.is_ascii() {
                // Most words: the same as `to_lowercase`, a byte at a time.
                lower.push_str(word);
                lower.make_ascii_lowercase();
            } else {
                for c in word.chars() {
                    lower.extend(c.to_lowercase());
                }
            }
            found(Piece::Word(&lower), range);
        }
        RunKind::Cjk => cjk_grams(&text[range.clone()], range.start, &mut |g, r| {
            found(Piece::Gram(g), r)
        }),
    });
}

/// The bigrams of a CJK run starting at byte `offset`.
fn cjk_grams(run: &str, offset: usize, found: &mut impl FnMut(&str, Range<usize>)) {
    let chars: Vec<(usize, char)> = run.char_indices().collect();
    if chars.len() == 1 {
        found(run, offset..offset + run.len());
        return;
    }
    for pair in chars.windows(2) {
        let start = pair[0].0;
        let end = pair[1].0 + pair[1].1.len_utf8();
        found(&run[start..end], offset + start..offset + end);
    }
    // Each Han character is a term too: a question often shares single
    // characters with its note where no pair lines up ("多少个字" and
    // "字数"); recall@5 on the Chinese help vault went from 77 % to 88 %
    // (BENCHMARKS.md). Kana and Hangul stay pairs: their single letters are
    // syllables, found in most notes.
    for &(at, c) in &chars {
        if is_han(c) {
            found(
                &run[at..at + c.len_utf8()],
                offset + at..offset + at + c.len_utf8(),
            );
        }
    }
}

/// A Han character (Chinese, and the kanji of Japanese).
fn is_han(c: char) -> bool {
    matches!(c,
        '\u{3400}'..='\u{4DBF}'
        | '\u{4E00}'..='\u{9FFF}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{20000}'..='\u{2FA1F}')
}

/// The parts of Markdown a reader does not see as text, which the search
/// leaves out: embeds (`![[image.png]]`), a link's target when it shows
/// other text (`[[Target|shown]]`, `[shown](https://…)`) and bare web
/// addresses. Byte ranges, in order.
pub fn hidden_markup(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut hidden = Vec::new();
    let mut i = 0;
    let line_end = |from: usize| text[from..].find('\n').map_or(text.len(), |n| from + n);
    while i < bytes.len() {
        // Every form starts with one of these ASCII bytes, which never occur
        // inside a multi-byte character: others are stepped over a byte at
        // a time, and `i` is a character boundary wherever text is sliced.
        if !matches!(bytes[i], b'!' | b'[' | b']' | b'h') {
            i += 1;
            continue;
        }
        let rest = &text[i..];
        if rest.starts_with("![[") {
            if let Some(end) = text[i..line_end(i)].find("]]") {
                hidden.push(i..i + end + 2);
                i += end + 2;
                continue;
            }
        } else if rest.starts_with("[[") {
            if let Some(end) = text[i..line_end(i)].find("]]") {
                if let Some(bar) = text[i..i + end].find('|') {
                    hidden.push(i..i + bar + 1);
                }
                i += end + 2;
                continue;
            }
        } else if rest.starts_with("](") {
            if let Some(end) = text[i..line_end(i)].find(')') {
                hidden.push(i + 1..i + end + 1);
                i += end + 1;
                continue;
            }
        } else if rest.starts_with("http://") || rest.starts_with("https://") {
            let end = rest
                .find(|c: char| c.is_whitespace() || matches!(c, ')' | '>' | ']'))
                .unwrap_or(rest.len());
            hidden.push(i..i + end);
            i += end;
            continue;
        }
        i += 1;
    }
    hidden
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(text: &str) -> Vec<String> {
        let analyzer = Analyzer::new(Language::English);
        let mut out = Vec::new();
        analyzer.each_term(text, |t, _| out.push(t.to_string()));
        out
    }

    #[test]
    fn stop_words_are_sorted_for_the_binary_search() {
        let mut sorted = STOP_WORDS.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted, STOP_WORDS);
    }

    #[test]
    fn words_are_folded_stemmed_and_stop_words_dropped() {
        assert_eq!(
            terms("How do I sync my Notes? Syncing synced notes"),
            ["sync", "note", "sync", "sync", "note"]
        );
        assert_eq!(terms("Café CAFÉS cafe\u{301}"), ["cafe", "cafe", "cafe"]);
        assert_eq!(terms("Straße don't x 2FA 2026"), ["strass", "2fa", "2026"]);
    }

    #[test]
    fn cjk_runs_become_bigrams_and_han_characters_with_their_places() {
        let analyzer = Analyzer::new(Language::English);
        let mut out = Vec::new();
        analyzer.each_term("会议记录 and 京", |t, r| out.push((t.to_string(), r)));
        assert_eq!(
            out,
            [
                ("会议".to_string(), 0..6),
                ("议记".to_string(), 3..9),
                ("记录".to_string(), 6..12),
                ("会".to_string(), 0..3),
                ("议".to_string(), 3..6),
                ("记".to_string(), 6..9),
                ("录".to_string(), 9..12),
                ("京".to_string(), 17..20),
            ]
        );
    }

    #[test]
    fn other_languages_stem_with_their_own_rules() {
        let german = Analyzer::new(Language::German);
        assert_eq!(german.term("häuser"), german.term("haus"));
        let none = Analyzer::new(Language::None);
        assert_eq!(none.term("syncing").as_deref(), Some("syncing"));
        assert_eq!(Language::parse("DE"), Some(Language::German));
        assert_eq!(Language::parse("klingon"), None);
    }

    #[test]
    fn markup_a_reader_does_not_see_is_hidden() {
        let text = "See [[Plans and limits#Vault|your plan]] ![[img.png]] [site](https://x.org/a) https://y.org/b end";
        let shown: String = {
            let mut out = String::new();
            let mut at = 0;
            for r in hidden_markup(text) {
                out.push_str(&text[at..r.start]);
                at = r.end;
            }
            out.push_str(&text[at..]);
            out
        };
        assert_eq!(shown, "See your plan]]  [site]  end");
        assert_eq!(title_of("A/B/Plan.md"), "Plan");
        assert_eq!(folder_of("A/B/Plan.md"), "A/B");
        assert_eq!(folder_of("Plan.md"), "");
    }
}
