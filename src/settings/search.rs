//! Settings → Search → Languages of your notes: the languages the ranked
//! search reads the notes in, when the user fixes them. Empty (the default)
//! is automatic: Obsidian's app language, and each note's own where its text
//! plainly shows another. The codes are those `search::text::Language`
//! parses (a test there keeps the two lists in step).

use serde::Serialize;

/// The languages a user may fix, as stored and as named in the settings:
/// those with a stemmer. Chinese, Japanese, Korean and Thai need none: their
/// text is cut into pairs of characters whatever is set here.
pub const LANGUAGE_CHOICES: [(&str, &str); 18] = [
    ("en", "English"),
    ("ar", "Arabic (العربية)"),
    ("da", "Danish (dansk)"),
    ("de", "German (Deutsch)"),
    ("el", "Greek (ελληνικά)"),
    ("es", "Spanish (español)"),
    ("fi", "Finnish (suomi)"),
    ("fr", "French (français)"),
    ("hu", "Hungarian (magyar)"),
    ("it", "Italian (italiano)"),
    ("nl", "Dutch (Nederlands)"),
    ("no", "Norwegian (norsk)"),
    ("pt", "Portuguese (português)"),
    ("ro", "Romanian (română)"),
    ("ru", "Russian (русский)"),
    ("sv", "Swedish (svenska)"),
    ("ta", "Tamil (தமிழ்)"),
    ("tr", "Turkish (Türkçe)"),
];

/// The most languages a user may fix: each is one more stemming of every
/// query word.
pub const MAX_LANGUAGES: usize = 5;

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct SearchSettings {
    /// The languages fixed by the user, the main one first (codes of
    /// [`LANGUAGE_CHOICES`]); empty: automatic.
    pub languages: Vec<String>,
}

/// The stored list as kept: each entry a known code (lower case, a region
/// such as `pt-BR` dropped), once, at most [`MAX_LANGUAGES`]; what was
/// dropped is said in `repairs`.
pub fn languages(stored: &[String], repairs: &mut Vec<String>) -> Vec<String> {
    let mut kept: Vec<String> = Vec::new();
    for entry in stored {
        let lower = entry.trim().to_lowercase();
        let code = lower.split(['-', '_']).next().unwrap_or("");
        let code = if code == "nb" || code == "nn" {
            "no"
        } else {
            code
        };
        match LANGUAGE_CHOICES.iter().find(|(c, _)| *c == code) {
            None => repairs.push(format!(
                "`search.languages` held {entry:?}, which is no language the search can stem; dropped. Choose among {}",
                LANGUAGE_CHOICES.map(|(c, _)| c).join(", ")
            )),
            Some((code, _)) if kept.iter().any(|k| k == code) => {}
            Some(_) if kept.len() == MAX_LANGUAGES => repairs.push(format!(
                "`search.languages` held more than {MAX_LANGUAGES} languages; {entry:?} and those after it were dropped"
            )),
            Some((code, _)) => kept.push(code.to_string()),
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(stored: &[&str]) -> (Vec<String>, Vec<String>) {
        let mut repairs = Vec::new();
        let stored: Vec<String> = stored.iter().map(|s| s.to_string()).collect();
        (languages(&stored, &mut repairs), repairs)
    }

    #[test]
    fn known_codes_are_kept_in_order_once() {
        let (languages, repairs) = kept(&["de", " EN ", "pt-BR", "de", "nb"]);
        assert_eq!(languages, ["de", "en", "pt", "no"]);
        assert!(repairs.is_empty(), "{repairs:?}");
    }

    #[test]
    fn an_unknown_language_is_dropped_with_the_choices() {
        let (languages, repairs) = kept(&["klingon", "fr"]);
        assert_eq!(languages, ["fr"]);
        assert!(repairs[0].contains("\"klingon\""), "{repairs:?}");
        assert!(repairs[0].contains("en, ar, da, de"), "{repairs:?}");
    }

    #[test]
    fn more_than_the_most_are_dropped_and_said() {
        let (languages, repairs) = kept(&["en", "de", "fr", "es", "it", "nl", "sv"]);
        assert_eq!(languages.len(), MAX_LANGUAGES);
        assert_eq!(repairs.len(), 2, "{repairs:?}");
    }
}
