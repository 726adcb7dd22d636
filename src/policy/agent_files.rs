//! A coding agent's file requests over ACP (`fs/read_text_file`,
//! `fs/write_text_file`): which vault path an absolute path names, and which
//! of our writes a whole-file write becomes. Decided here, beside the rules
//! for every other path, so the ACP door has no rules of its own.

use serde::Serialize;
use serde_json::{json, Value};

use crate::base::host::Os;
use crate::base::vault_path::{new_note_path, normalised, PathKind};

/// `path` (absolute, as ACP sends it) as a vault-relative path, checked like
/// every path a tool takes; or why it is refused. `.` and `..` are resolved
/// first, so `Vault/../elsewhere` is outside. On Windows `\` separates too
/// and names compare without case, as its file systems do.
pub fn vault_relative(vault: &str, path: &str, os: Os) -> Result<String, String> {
    let windows = os == Os::Windows;
    let parts = |p: &str| -> Vec<String> {
        let separators: &[char] = if windows { &['/', '\\'] } else { &['/'] };
        p.split(separators)
            .filter(|s| !s.is_empty() && *s != ".")
            .map(str::to_string)
            .collect()
    };
    let outside =
        || format!("{path} is outside the vault; the agent may only read and write notes in it.");
    let mut resolved: Vec<String> = Vec::new();
    for part in parts(path) {
        if part == ".." {
            resolved.pop().ok_or_else(outside)?;
        } else {
            resolved.push(part);
        }
    }
    let base = parts(vault);
    let same = |a: &str, b: &str| {
        if windows {
            a.to_lowercase() == b.to_lowercase()
        } else {
            a == b
        }
    };
    // On Windows a drive (`C:`) or a leading `\` (a network share's `\\`).
    let absolute = path.starts_with('/')
        || (windows && (path.starts_with('\\') || path.get(1..2) == Some(":")));
    if !absolute
        || base.is_empty()
        || resolved.len() <= base.len()
        || !base.iter().zip(&resolved).all(|(a, b)| same(a, b))
    {
        return Err(outside());
    }
    normalised("path", &resolved[base.len()..].join("/"), PathKind::File)
        .map_err(|problem| format!("{path} cannot name a note: {problem}"))
}

/// The note an agent's write means: the path the CLI would create for it.
pub fn written_note(path: &str) -> String {
    new_note_path(path)
}

/// Which write a whole-file write becomes, given what the note holds now
/// (its exact text; `None` when there is no such note).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum AgentFileWrite {
    /// Run `tool` with `arguments` (a card where the mode asks for one);
    /// `title` names it in the chat's tool block.
    #[serde(rename_all = "camelCase")]
    Call {
        tool: String,
        #[cfg_attr(test, ts(type = "Record<string, unknown>"))]
        arguments: Value,
        title: String,
        path: String,
    },
    /// The note already holds exactly this text: nothing to write.
    Unchanged,
    /// Refused before anything ran; `message` says why and what to do.
    Refused { code: String, message: String },
}

/// The write for `content` at `path` (already the note's path): a new note
/// is created, an empty one appended to, any other replaced whole (an edit
/// whose `find` is the whole text, so the stale check covers all of it).
pub fn plan_write(path: &str, content: &str, current: Option<&str>) -> AgentFileWrite {
    let (arguments, title) = match current {
        Some(now) if now == content => return AgentFileWrite::Unchanged,
        None => (
            json!({"command": "create", "path": path, "content": content}),
            "Create a note",
        ),
        Some("") => (
            json!({"command": "append", "path": path, "content": content}),
            "Edit a note",
        ),
        Some(now) => (
            json!({"command": "edit", "path": path, "find": now, "with": content}),
            "Edit a note",
        ),
    };
    AgentFileWrite::Call {
        tool: "obsidianEdit".into(),
        arguments,
        title: title.into(),
        path: path.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_inside_the_vault_become_vault_paths() {
        let linux = |p: &str| vault_relative("/home/ada/Vault", p, Os::Linux);
        assert_eq!(
            linux("/home/ada/Vault/Notes/A.md").as_deref(),
            Ok("Notes/A.md")
        );
        assert_eq!(
            linux("/home/ada/Vault/./Notes//A.md").as_deref(),
            Ok("Notes/A.md")
        );
        assert_eq!(linux("/home/ada/Vault/x/../A.md").as_deref(), Ok("A.md"));
        for outside in [
            "/home/ada/Vault",
            "/home/ada/Vault/..",
            "/home/ada/Vault/../outside.txt",
            "/home/ada/Vault2/A.md",
            "/home/ada/vault/A.md",
            "home/ada/Vault/A.md",
            "/../../home/ada/Vault/A.md/../../../etc/passwd",
        ] {
            assert!(
                linux(outside).unwrap_err().contains("outside the vault"),
                "{outside}"
            );
        }
        // On Linux `\` is part of a name, and no vault path may hold one.
        assert!(linux("/home/ada/Vault/a\\..\\..\\x.md")
            .unwrap_err()
            .contains("`\\`"));
        assert!(linux("/home/ada/Vault/a\u{202E}.md")
            .unwrap_err()
            .contains("direction"));
    }

    #[test]
    fn windows_paths_compare_without_case_and_take_both_separators() {
        let windows = |p: &str| vault_relative("C:\\Users\\Ada\\Vault", p, Os::Windows);
        assert_eq!(
            windows("c:\\users\\ada\\vault\\Notes\\A.md").as_deref(),
            Ok("Notes/A.md")
        );
        assert_eq!(
            windows("C:/Users/Ada/Vault/Notes/A.md").as_deref(),
            Ok("Notes/A.md")
        );
        assert!(windows("C:\\Users\\Ada\\Vault\\..\\x.md").is_err());
        assert!(windows("D:\\Users\\Ada\\Vault\\x.md").is_err());
        assert!(windows("C:\\Users\\Ada\\Vault\\Notes\\x:y.md")
            .unwrap_err()
            .contains("stream"));
        // On Linux the same path is not inside.
        assert!(vault_relative("/Vault", "/vault/A.md", Os::Linux).is_err());
    }

    /// A vault on a network share (`\\nas\share\Vault`): its absolute
    /// paths are inside, the same path without its leading `\\` is a
    /// relative one and refused.
    #[test]
    fn a_vault_on_a_network_share_takes_its_absolute_paths_only() {
        let share = |p: &str| vault_relative("\\\\nas\\share\\Vault", p, Os::Windows);
        assert_eq!(
            share("\\\\nas\\share\\Vault\\Notes\\A.md").as_deref(),
            Ok("Notes/A.md")
        );
        assert_eq!(share("//nas/share/Vault/A.md").as_deref(), Ok("A.md"));
        for relative in ["nas\\share\\Vault\\A.md", "nas/share/Vault/A.md"] {
            assert!(
                share(relative).unwrap_err().contains("outside the vault"),
                "{relative}"
            );
        }
    }

    #[test]
    fn a_whole_file_write_becomes_create_append_or_a_whole_text_edit() {
        let args = |plan: AgentFileWrite| match plan {
            AgentFileWrite::Call { arguments, .. } => arguments,
            other => panic!("{other:?}"),
        };
        assert_eq!(args(plan_write("A.md", "x", None))["command"], "create");
        assert_eq!(args(plan_write("A.md", "x", Some("")))["command"], "append");
        let edit = args(plan_write("A.md", "new", Some("old\n")));
        assert_eq!(
            (edit["command"].as_str(), edit["find"].as_str()),
            (Some("edit"), Some("old\n"))
        );
        assert_eq!(
            plan_write("A.md", "same", Some("same")),
            AgentFileWrite::Unchanged
        );
        assert_eq!(written_note("People/Alice"), "People/Alice.md");
    }
}
