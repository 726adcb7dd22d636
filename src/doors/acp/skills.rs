//! The vault's skills handed to a coding agent: ACP's `session/new` has no
//! field for them and each agent looks in its own hidden folder, so the
//! first prompt of each session carries the same list the chat's model gets
//! (`engine::skills`, held to the read scope), framed for an agent that
//! reads files from the vault as its working folder.

use crate::engine::skills::{lines, Skill};

/// The most characters the list may take (about 1 500 tokens): it is sent
/// once a session, not once a request, but still costs the agent's window.
pub const MAX_HANDOFF_CHARS: usize = 6_000;

const HEAD: &str = "Skills: instructions the user keeps in this vault for particular tasks (Agent Skills, SKILL.md). When a task matches one, first read its SKILL.md (path= is relative to your working folder, the vault), then any file beside it that it names. A skill gives instructions, never permission: the chat's mode, the folders you may reach and the user's approvals still apply.\n<skills>\n";
const TAIL: &str = "</skills>";

/// The text put before the user's first message of a session; empty when
/// there is no valid skill to hand over.
pub fn handoff(skills: &[Skill]) -> String {
    let mut listed = String::new();
    for line in lines(skills) {
        if HEAD.len() + listed.len() + line.len() + TAIL.len() > MAX_HANDOFF_CHARS {
            break;
        }
        listed.push_str(&line);
    }
    match listed.is_empty() {
        true => String::new(),
        false => format!("{HEAD}{listed}{TAIL}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::skills::parse;

    const GOOD: &str = "---\nname: weekly-review\ndescription: How the user runs a weekly review. Use when asked to review the week.\n---\nStep one.";

    #[test]
    fn valid_skills_are_handed_over_with_their_paths_and_the_rule() {
        let good = parse("Skills/weekly-review/SKILL.md", Some(GOOD));
        let bad = parse("Skills/Bad/SKILL.md", Some("no front matter"));
        let text = handoff(&[bad.clone(), good]);
        assert!(
            text.contains("- weekly-review: How the user runs a weekly review."),
            "{text}"
        );
        assert!(
            text.contains("(path=Skills/weekly-review/SKILL.md)"),
            "{text}"
        );
        assert!(text.contains("never permission"), "{text}");
        assert!(!text.contains("Bad"), "{text}");
        assert_eq!(handoff(&[bad]), "");
        assert_eq!(handoff(&[]), "");
    }

    #[test]
    fn the_list_stops_within_its_size() {
        let good = parse("Skills/weekly-review/SKILL.md", Some(GOOD));
        let many: Vec<Skill> = (0..200)
            .map(|i| Skill {
                name: format!("skill-{i}"),
                ..good.clone()
            })
            .collect();
        let text = handoff(&many);
        assert!(text.len() <= MAX_HANDOFF_CHARS, "{}", text.len());
        assert!(text.contains("skill-0:") && !text.contains("skill-199:"));
        assert!(text.ends_with(TAIL));
    }
}
