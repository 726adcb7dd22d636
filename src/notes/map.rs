//! Reading part of a note: its document map (the headings as a tree, with
//! the lines each section spans) and one section by heading path. Both use
//! the heading rules of `headings.rs`, the ones the edit commands use, so a
//! path read here addresses the same section an edit would change.

use super::headings::{find_section, frontmatter_end, lines, sections, HeadingProblem};

/// The document map of the note at `path`: size, frontmatter, and every
/// section as an indented tree with its 1-based lines and heading path.
pub fn document_map(path: &str, text: &str) -> String {
    let all = lines(text);
    let total = all.len();
    let mut out = format!(
        "Map of {path}: {total} lines, {} characters",
        text.chars().count()
    );
    let frontmatter = frontmatter_end(&all);
    if frontmatter > 0 {
        out.push_str(&format!("; properties on lines 1-{frontmatter}"));
    }
    out.push('\n');
    let sections = sections(text);
    if sections.is_empty() {
        out.push_str("No headings. Read the whole note with `read`.\n");
        return out;
    }
    let top = sections.iter().map(|s| s.heading.level).min().unwrap_or(1);
    for section in &sections {
        let depth = usize::from(section.heading.level - top);
        out.push_str(&format!(
            "{}- {} (h{}, lines {}-{}) section: \"{}\"\n",
            "  ".repeat(depth),
            section.heading.text,
            section.heading.level,
            section.heading.line + 1,
            section.end.max(section.heading.line + 1),
            section.path
        ));
    }
    out.push_str("Read one with obsidianNotes `section` and its heading path.\n");
    out
}

/// One section: its heading line and body, subsections included, headed by
/// where it lies (`path`, lines, heading path).
pub fn section_text(path: &str, text: &str, heading: &str) -> Result<String, HeadingProblem> {
    let section = find_section(text, heading)?;
    let all = lines(text);
    let end = section.end.min(all.len());
    let body = all[section.heading.line..end].join("\n");
    Ok(format!(
        "{path}, lines {}-{} (section \"{}\"):\n{}\n",
        section.heading.line + 1,
        end,
        section.path,
        body.trim_end()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOTE: &str = "---\ntags: [plan]\n---\n# Plan\nIntro\n## Risks\nLate\n```\n# not a heading\n```\nSetext\n------\nbody\n# Other\n## Risks\nAgain\n";

    #[test]
    fn the_map_lists_every_section_as_the_edit_commands_see_them() {
        let map = document_map("Projects/Plan.md", NOTE);
        assert_eq!(
            map,
            format!(
                "Map of Projects/Plan.md: 16 lines, {} characters; properties on lines 1-3\n\
             - Plan (h1, lines 4-13) section: \"Plan\"\n\
             \x20 - Risks (h2, lines 6-10) section: \"Plan::Risks\"\n\
             \x20 - Setext (h2, lines 11-13) section: \"Plan::Setext\"\n\
             - Other (h1, lines 14-16) section: \"Other\"\n\
             \x20 - Risks (h2, lines 15-16) section: \"Other::Risks\"\n\
             Read one with obsidianNotes `section` and its heading path.\n",
                NOTE.len()
            )
        );
        assert!(document_map("a.md", "just text").contains("No headings"));
    }

    #[test]
    fn a_section_is_read_by_its_path_and_an_ambiguous_leaf_lists_the_candidates() {
        let risks = section_text("P.md", NOTE, "Plan::Risks").unwrap();
        assert_eq!(
            risks,
            "P.md, lines 6-10 (section \"Plan::Risks\"):\n## Risks\nLate\n```\n# not a heading\n```\n"
        );
        match section_text("P.md", NOTE, "Risks") {
            Err(HeadingProblem::Ambiguous { candidates }) => {
                assert_eq!(
                    candidates,
                    ["Plan::Risks (line 6)", "Other::Risks (line 15)"]
                )
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            section_text("P.md", NOTE, "Budget"),
            Err(HeadingProblem::NotFound { .. })
        ));
        let crlf = NOTE.replace('\n', "\r\n");
        assert!(section_text("P.md", &crlf, "Other::Risks")
            .unwrap()
            .ends_with("## Risks\nAgain\n"));
    }
}
