//! Which language a note is written in, told cheaply from its text: the
//! script of its letters (Cyrillic, Greek, Arabic, Tamil, or the scripts cut
//! into bigrams) and, for text in Latin letters, which language's most
//! common words it uses. Enough to pick a stemmer; not a general detector.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::text::{each_piece, fold_accent, is_bigram_script, Language, Piece};

/// How much of a note is read to tell its language: its start is enough.
const SAMPLE_BYTES: usize = 4_000;

/// The most common words of each language written in Latin letters, folded
/// (lower case, no accents), chosen to tell the languages apart: a word
/// shared by many lists counts for each and so tells little.
const PROFILES: &[(Language, &[&str])] = &[
    (
        Language::English,
        &[
            "the", "and", "is", "of", "to", "that", "it", "with", "for", "this", "you", "are",
            "be", "on", "not", "can", "your", "or", "which", "from",
        ],
    ),
    (
        Language::German,
        &[
            "der", "die", "und", "ist", "das", "nicht", "mit", "ein", "eine", "den", "sie", "auf",
            "fur", "auch", "zu", "dem", "wird", "werden", "oder", "sich", "ich", "kann", "einen",
        ],
    ),
    (
        Language::French,
        &[
            "le", "la", "les", "et", "est", "des", "une", "un", "du", "dans", "pour", "que", "pas",
            "sur", "avec", "vous", "ce", "sont", "qui", "au", "aux", "peut",
        ],
    ),
    (
        Language::Spanish,
        &[
            "el", "la", "los", "las", "y", "es", "que", "en", "una", "por", "para", "con", "del",
            "se", "como", "al", "puede", "su", "esta", "pero", "tambien",
        ],
    ),
    (
        Language::Italian,
        &[
            "il", "di", "che", "e", "per", "una", "sono", "non", "del", "della", "con", "gli",
            "si", "nel", "anche", "questo", "puoi", "essere", "alla", "delle",
        ],
    ),
    (
        Language::Portuguese,
        &[
            "o", "os", "que", "do", "da", "em", "um", "uma", "para", "com", "nao", "por", "dos",
            "voce", "das", "ao", "no", "na", "pode", "mais", "tambem",
        ],
    ),
    (
        Language::Dutch,
        &[
            "de", "het", "een", "en", "van", "is", "dat", "niet", "op", "te", "zijn", "met",
            "voor", "je", "ook", "worden", "wordt", "kunt", "naar", "bij",
        ],
    ),
    (
        Language::Danish,
        &[
            "og", "det", "er", "at", "til", "af", "den", "ikke", "med", "pa", "som", "har", "jeg",
            "du", "kan", "hvad", "eller", "nar", "ogsa", "efter",
        ],
    ),
    (
        Language::Norwegian,
        &[
            "og", "det", "er", "at", "til", "av", "den", "ikke", "med", "pa", "som", "har", "jeg",
            "du", "kan", "hva", "eller", "nar", "ogsa", "etter",
        ],
    ),
    (
        Language::Swedish,
        &[
            "och", "det", "ar", "att", "till", "av", "den", "inte", "med", "pa", "som", "har",
            "jag", "du", "kan", "ett", "eller", "nar", "ocksa", "efter",
        ],
    ),
    (
        Language::Finnish,
        &[
            "ja", "on", "ei", "se", "etta", "oli", "kun", "mutta", "niin", "myos", "tai", "jos",
            "kuin", "voi", "ovat", "tama", "voit", "sen", "ole", "mita",
        ],
    ),
    (
        Language::Hungarian,
        &[
            "az", "es", "hogy", "nem", "egy", "van", "meg", "ez", "mint", "csak", "kell", "vagy",
            "volt", "lesz", "ha", "el", "fel", "mar", "itt", "ami",
        ],
    ),
    (
        Language::Romanian,
        &[
            "si", "de", "la", "in", "sa", "nu", "cu", "un", "este", "pe", "ca", "din", "mai",
            "care", "sunt", "pentru", "poti", "acest", "sau", "fi",
        ],
    ),
    (
        Language::Turkish,
        &[
            "ve", "bir", "bu", "da", "de", "icin", "ile", "ne", "cok", "daha", "gibi", "olarak",
            "ama", "var", "mi", "olan", "veya", "sonra", "kadar", "her",
        ],
    ),
];

/// The default language of a vault's notes from Obsidian's app language
/// (`getLanguage()`: `de`, `pt-BR`, `zh-TW` …): what its user most likely
/// writes in. English when the app says nothing or names a language without
/// a stemmer here (Polish, Czech …: their notes are read as they are, since
/// English rules leave most of their words whole).
pub fn app_default(app_language: Option<&str>) -> Language {
    app_language
        .and_then(Language::parse)
        .unwrap_or(Language::English)
}

/// The language of `text`: `declared` (a `lang` property) when it names
/// one; else the language its letters or common words plainly show; else
/// `default` (the app's language, or the one the user set). "Plainly": a
/// Latin-letter text needs at least three of another language's common
/// words, and half again as many as of the default's, to leave it. With
/// `among` (the languages the user fixed) a text is only ever read as one
/// of them; empty, as any.
pub fn detect(
    text: &str,
    declared: Option<&str>,
    default: Language,
    among: &[Language],
) -> Language {
    if let Some(language) = declared.and_then(Language::parse) {
        return language;
    }
    let allowed = |l: Language| among.is_empty() || among.contains(&l);
    let mut end = text.len().min(SAMPLE_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let sample = &text[..end];
    if let Some(language) = by_script(sample) {
        // The scripts cut into pairs of characters need no language.
        if language == Language::None || allowed(language) {
            return language;
        }
        return default;
    }
    let profiles = profile_words();
    let mut hits = [0u32; Language::ALL.len()];
    let mut folded = String::new();
    each_piece(sample, |piece, _| {
        let Piece::Word(lower) = piece else { return };
        folded.clear();
        for c in lower.chars() {
            fold_accent(c, &mut folded);
        }
        if let Some(languages) = profiles.get(folded.as_str()) {
            for language in languages {
                hits[language.slot()] += 1;
            }
        }
    });
    let (best, most) = PROFILES
        .iter()
        .filter(|(language, _)| allowed(*language))
        .map(|(language, _)| (*language, hits[language.slot()]))
        .fold((default, 0), |a, b| if b.1 > a.1 { b } else { a });
    let base = hits[default.slot()];
    if best != default && most >= 3 && most * 2 > base * 3 {
        best
    } else {
        default
    }
}

/// Each profile word with the languages it belongs to: one lookup a word
/// (scanning every profile for each word of every note made a build of
/// 10 000 notes several times slower).
fn profile_words() -> &'static HashMap<&'static str, Vec<Language>> {
    static WORDS: OnceLock<HashMap<&'static str, Vec<Language>>> = OnceLock::new();
    WORDS.get_or_init(|| {
        let mut words: HashMap<&'static str, Vec<Language>> = HashMap::new();
        for (language, list) in PROFILES {
            for word in *list {
                words.entry(word).or_default().push(*language);
            }
        }
        words
    })
}

/// The language a script other than Latin shows, when most of the letters
/// are in it: a script used by one language we stem (Cyrillic is stemmed as
/// Russian, the only Cyrillic stemmer), or `None` for those cut into
/// bigrams.
fn by_script(sample: &str) -> Option<Language> {
    let (mut latin, mut counts) = (0u32, [0u32; 5]);
    for c in sample.chars().filter(|c| c.is_alphabetic()) {
        let slot = match c {
            'a'..='z' | 'A'..='Z' | '\u{00C0}'..='\u{024F}' => {
                latin += 1;
                continue;
            }
            '\u{0400}'..='\u{04FF}' => 0,
            '\u{0370}'..='\u{03FF}' | '\u{1F00}'..='\u{1FFF}' => 1,
            '\u{0600}'..='\u{06FF}' => 2,
            '\u{0B80}'..='\u{0BFF}' => 3,
            c if is_bigram_script(c) => 4,
            _ => continue,
        };
        counts[slot] += 1;
    }
    let (slot, &most) = counts.iter().enumerate().max_by_key(|(_, n)| **n)?;
    if most == 0 || most <= latin {
        return None;
    }
    Some(
        [
            Language::Russian,
            Language::Greek,
            Language::Arabic,
            Language::Tamil,
            Language::None,
        ][slot],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_note_in_another_language_is_told_by_its_common_words() {
        let de = "Die Lesezeichen werden in der Seitenleiste gezeigt, und man kann sie mit der Maus ordnen.";
        assert_eq!(detect(de, None, Language::English, &[]), Language::German);
        let fr = "Les signets sont affichés dans la barre latérale et vous pouvez les trier avec la souris.";
        assert_eq!(detect(fr, None, Language::English, &[]), Language::French);
        let es = "Los marcadores se muestran en la barra lateral y se pueden ordenar con el ratón.";
        assert_eq!(detect(es, None, Language::English, &[]), Language::Spanish);
        let sv =
            "Bokmärken visas i sidofältet och det är enkelt att ordna dem med musen, som du vill.";
        assert_eq!(detect(sv, None, Language::English, &[]), Language::Swedish);
        let en = "Bookmarks are shown in the sidebar and you can sort them with the mouse.";
        assert_eq!(detect(en, None, Language::German, &[]), Language::English);
    }

    #[test]
    fn the_app_language_is_the_default_and_an_unknown_one_is_english() {
        assert_eq!(app_default(Some("de")), Language::German);
        assert_eq!(app_default(Some("pt-BR")), Language::Portuguese);
        assert_eq!(app_default(Some("zh-TW")), Language::None);
        assert_eq!(app_default(Some("pl")), Language::English);
        assert_eq!(app_default(None), Language::English);
    }

    #[test]
    fn scripts_tell_their_language_and_the_default_stays_when_unsure() {
        assert_eq!(
            detect(
                "Закладки показаны на боковой панели.",
                None,
                Language::English,
                &[]
            ),
            Language::Russian
        );
        assert_eq!(
            detect(
                "Οι σελιδοδείκτες εμφανίζονται στην πλαϊνή μπάρα.",
                None,
                Language::English,
                &[]
            ),
            Language::Greek
        );
        assert_eq!(
            detect("书签显示在侧边栏中。", None, Language::English, &[]),
            Language::None
        );
        assert_eq!(
            detect(
                "ブックマークはサイドバーに表示されます。",
                None,
                Language::English,
                &[]
            ),
            Language::None
        );
        // Too short to leave the default; a declared language wins.
        assert_eq!(
            detect("Seitenleiste", None, Language::English, &[]),
            Language::English
        );
        assert_eq!(
            detect(
                "The sidebar and the mouse.",
                Some("de-AT"),
                Language::English,
                &[]
            ),
            Language::German
        );
        assert_eq!(
            detect("The sidebar", Some("klingon"), Language::French, &[]),
            Language::French
        );
    }

    #[test]
    fn fixed_languages_are_the_only_ones_a_note_is_read_in() {
        let fr = "Les signets sont affichés dans la barre latérale et vous pouvez les trier avec la souris.";
        let de = "Die Lesezeichen werden in der Seitenleiste gezeigt, und man kann sie mit der Maus ordnen.";
        let fixed = [Language::English, Language::German];
        // French is not among them: the main language, not French.
        assert_eq!(
            detect(fr, None, Language::English, &fixed),
            Language::English
        );
        // German is: told apart as before.
        assert_eq!(
            detect(de, None, Language::English, &fixed),
            Language::German
        );
        // A script of a language left out reads as the main one; Han needs none.
        let ru = "Закладки показаны на боковой панели.";
        assert_eq!(detect(ru, None, Language::German, &fixed), Language::German);
        assert_eq!(
            detect("书签显示在侧边栏中。", None, Language::German, &fixed),
            Language::None
        );
        // A note's own `lang` still wins.
        assert_eq!(
            detect(de, Some("fr"), Language::English, &fixed),
            Language::French
        );
    }
}
