//! Notes as the hygiene checks see them: wiki links and mentions of a
//! title. Titles, the body after the properties and tags are the search's
//! text model (`search::text`, `notes::frontmatter`), re-exported here, so
//! both read notes alike; words are compared by the search's index itself
//! (`search::related`).

pub use crate::notes::frontmatter::{body, frontmatter, tags};
use crate::notes::headings::lines;
use crate::notes::syntax::{line_kinds, link_targets, LineKind};
pub use crate::search::text::{is_bigram_script, normalise_title, title_of};

/// The notes a note links to, as written (without heading, block or alias):
/// wiki links and embeds, in its properties too, and Markdown links to files;
/// not what is in code, math or comments (see `notes::syntax`).
pub fn links(text: &str) -> Vec<String> {
    let all = lines(text);
    let kinds = line_kinds(&all);
    all.iter()
        .zip(kinds)
        .filter(|(_, kind)| *kind != LineKind::Hidden)
        .flat_map(|(line, _)| link_targets(line))
        .collect()
}

/// How often `phrase` (already normalised) occurs in `text` normalised the
/// same way, on word boundaries (for CJK: anywhere).
pub fn mentions(normalised_text: &str, phrase: &str) -> usize {
    if phrase.is_empty() {
        return 0;
    }
    let cjk = phrase.chars().any(is_bigram_script);
    normalised_text
        .match_indices(phrase)
        .filter(|(i, _)| {
            if cjk {
                return true;
            }
            let before = normalised_text[..*i].chars().next_back();
            let after = normalised_text[i + phrase.len()..].chars().next();
            before.is_none_or(|c| c == ' ') && after.is_none_or(|c| c == ' ')
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_normalise_case_accents_and_punctuation() {
        assert_eq!(normalise_title("Q3 Plan"), "q3 plan");
        assert_eq!(normalise_title("q3-plan!"), "q3 plan");
        assert_eq!(normalise_title("  Café ☕ "), "cafe");
        assert_eq!(normalise_title("Cafe\u{301}"), "cafe");
        assert_eq!(normalise_title("Straße"), "strasse");
        assert_eq!(normalise_title("会议 记录"), "会议 记录");
        assert_eq!(title_of("Projects/Q3 plan.md"), "Q3 plan");
    }

    #[test]
    fn body_links_and_tags() {
        let note = "---\ntags: [Project, q3]\n---\n# Plan #1\nSee [[Roadmap#Q2|the roadmap]] and ![[img.png]] #launch\n";
        assert_eq!(
            body(note),
            "# Plan #1\nSee [[Roadmap#Q2|the roadmap]] and ![[img.png]] #launch\n"
        );
        assert_eq!(links(note), vec!["Roadmap", "img.png"]);
        assert_eq!(tags(note), vec!["project", "q3", "launch"]);
        assert_eq!(
            tags("---\ntags:\n  - a\n  - b\nother: x\n---\n"),
            vec!["a", "b"]
        );
        assert_eq!(body("---\nunclosed"), "---\nunclosed");
    }

    #[test]
    fn tags_and_links_in_code_callouts_and_comments_do_not_count() {
        let note = "---\nrelated: \"[[Launch plan]]\"\n---\n> [!tip]\n> ```css\n> h1 { color: #ff0000; } [[InCode]]\n> ```\n| [[Basic formatting syntax\\|Markdown]] | `#inline` |\n<!-- #hidden [[Hidden]] -->\nSee [the roadmap](Projects/Road%20map.md#Q2) and [site](https://x.y/a.md) #real\n";
        assert_eq!(tags(note), vec!["real"]);
        assert_eq!(
            links(note),
            vec![
                "Launch plan",
                "Basic formatting syntax",
                "Projects/Road map.md"
            ]
        );
    }

    #[test]
    fn frontmatter_tags_in_the_shapes_real_vaults_write() {
        // The Obsidian Hub's templates leave an empty item; kepano's use emoji.
        assert_eq!(
            tags("---\naliases:\n- Ada\ntags:\n- \npublish: true\n---\n#real\n"),
            vec!["real"]
        );
        assert_eq!(
            tags("---\ntags:\n  - evergreen\n  - 0🌲\n---\n"),
            vec!["evergreen", "0🌲"]
        );
        assert_eq!(
            tags("---\r\ntags: [\"#a\", 'b']\r\n---\r\nText #c\r\n"),
            vec!["a", "b", "c"]
        );
        assert_eq!(tags("---\ntag: one, two\n---\n"), vec!["one", "two"]);
        // Not closed: no properties, and `tags:` is text.
        assert_eq!(tags("---\ntags: [x]\n#y\n"), vec!["y"]);
    }

    #[test]
    fn a_title_is_mentioned_on_word_boundaries_or_anywhere_in_cjk() {
        assert_eq!(mentions("see q3 plan and q3 planning", "q3 plan"), 1);
        assert_eq!(mentions("关于会议记录的", "会议记录"), 1);
    }
}
