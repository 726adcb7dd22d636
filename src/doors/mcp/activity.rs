//! The MCP activity log's entries: one per call, kept small. A call's
//! arguments can be megabytes (a note's text, a long query); the log keeps
//! at most `MAX_ARGV_CHARS` of them per entry and says where it cut, so 500
//! entries stay well under a megabyte however large the calls were. The log
//! file from an earlier start is read back through `read_stored`, which cuts
//! its entries the same way and drops what is not an entry.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::base::input::InputLimits;

/// Entries the log keeps (the shim drops the oldest past it); the settings
/// show the newest.
pub const KEPT_ENTRIES: usize = 500;
/// Characters of a call's arguments one entry keeps.
pub const MAX_ARGV_CHARS: usize = 1024;
/// Characters of the client's name, its version, the tool and the code.
const MAX_FIELD_CHARS: usize = 200;

/// The log file as it may be on disk: written by this version (small) or
/// by an earlier one that kept whole arguments (500 calls of 100 KB).
const STORED: InputLimits = InputLimits {
    max_depth: 8,
    max_string_chars: 16 * 1024 * 1024,
    max_items: 100_000,
    max_total_bytes: 64 * 1024 * 1024,
};

/// One MCP call, as the activity log keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "McpActivityEntry"))]
#[serde(rename_all = "camelCase")]
pub struct ActivityEntry {
    pub time_ms: f64,
    pub client: String,
    pub client_version: String,
    /// The tool, or `resources/read`.
    pub tool: String,
    /// The argv the CLI ran, cut to `MAX_ARGV_CHARS` (the last element
    /// then says how much there was).
    pub argv: Vec<String>,
    /// `ok`, a stable error code, or `cancelled`.
    pub code: String,
    pub duration_ms: f64,
}

impl ActivityEntry {
    /// The entry as the log keeps it: every field within its bound.
    pub fn capped(mut self) -> Self {
        self.argv = capped_argv(self.argv);
        for field in [
            &mut self.client,
            &mut self.client_version,
            &mut self.tool,
            &mut self.code,
        ] {
            if field.chars().count() > MAX_FIELD_CHARS {
                *field = format!(
                    "{}…",
                    field.chars().take(MAX_FIELD_CHARS).collect::<String>()
                );
            }
        }
        self
    }
}

/// The first `MAX_ARGV_CHARS` characters of the arguments, the one that
/// crosses the bound cut with `…`, then one element saying what was cut.
pub fn capped_argv(argv: Vec<String>) -> Vec<String> {
    let chars = |argv: &[String]| argv.iter().map(|a| a.chars().count()).sum::<usize>();
    let total = chars(&argv);
    if total <= MAX_ARGV_CHARS {
        return argv;
    }
    // Cut already (a log read back): the kept part and the ellipsis, then the marker.
    if let Some((last, kept)) = argv.split_last() {
        if last.starts_with("[cut: ")
            && last.ends_with(" kept]")
            && chars(kept) <= MAX_ARGV_CHARS + 1
        {
            return argv;
        }
    }
    let mut left = MAX_ARGV_CHARS;
    let mut kept = Vec::new();
    for argument in argv {
        let chars = argument.chars().count();
        if chars <= left {
            left -= chars;
            kept.push(argument);
            continue;
        }
        if left > 0 {
            kept.push(format!(
                "{}…",
                argument.chars().take(left).collect::<String>()
            ));
        }
        break;
    }
    kept.push(format!(
        "[cut: {total} characters of arguments, the first {MAX_ARGV_CHARS} kept]"
    ));
    kept
}

/// What the stored log held, checked.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "McpActivityRead"))]
#[serde(rename_all = "camelCase")]
pub struct StoredActivity {
    pub entries: Vec<ActivityEntry>,
    /// Entries were cut or dropped: the file should be written again.
    pub changed: bool,
    /// Why nothing could be read, for the console; the log starts empty.
    pub problem: Option<String>,
}

/// Reads the log file's text: what is not an entry is dropped, entries
/// are cut to their bounds.
pub fn read_stored(text: &str) -> StoredActivity {
    let nothing = |problem: String| StoredActivity {
        entries: Vec::new(),
        changed: true,
        problem: Some(problem),
    };
    let items = match crate::base::input::parse_bounded(text, &STORED) {
        Ok(Value::Array(items)) => items,
        Ok(_) => return nothing("it is not a list of entries".into()),
        Err(problem) => return nothing(problem.to_string()),
    };
    let count = items.len();
    let mut changed = false;
    let entries: Vec<ActivityEntry> = items
        .into_iter()
        .filter_map(|item| serde_json::from_value::<ActivityEntry>(item).ok())
        .map(|entry| {
            let capped = entry.clone().capped();
            changed |= capped != entry;
            capped
        })
        .collect();
    StoredActivity {
        changed: changed || entries.len() != count,
        entries,
        problem: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_arguments_are_kept_whole() {
        let argv = vec!["vault=V".to_string(), "read".into(), "file=Welcome".into()];
        assert_eq!(capped_argv(argv.clone()), argv);
    }

    #[test]
    fn long_arguments_are_cut_and_say_so() {
        let query = format!("query={}", "é".repeat(100_000));
        let argv = vec!["search".to_string(), query, "limit=5".into()];
        let capped = capped_argv(argv);
        assert_eq!(capped.len(), 3, "{capped:?}");
        assert_eq!(capped[0], "search");
        assert!(capped[1].starts_with("query=éé") && capped[1].ends_with('…'));
        let kept: usize = capped[..2].iter().map(|a| a.chars().count()).sum();
        assert_eq!(kept, MAX_ARGV_CHARS + 1, "the bound, and the ellipsis");
        assert_eq!(
            capped[2],
            "[cut: 100019 characters of arguments, the first 1024 kept]"
        );
    }

    #[test]
    fn a_stored_log_is_checked_and_cut() {
        let big = "x".repeat(5000);
        let text = serde_json::json!([
            {"timeMs": 1, "client": "A", "clientVersion": "1", "tool": "t", "argv": ["read"], "code": "ok", "durationMs": 2},
            {"timeMs": "soon"},
            7,
            {"timeMs": 3, "client": "B", "clientVersion": "", "tool": "t", "argv": [big], "code": "ok", "durationMs": 2},
        ])
        .to_string();
        let stored = read_stored(&text);
        assert_eq!(stored.entries.len(), 2);
        assert!(stored.changed);
        assert!(stored.entries[1].argv[1].starts_with("[cut: 5000 characters"));
        let clean = serde_json::to_string(&stored.entries).unwrap();
        let again = read_stored(&clean);
        assert!(
            !again.changed,
            "what this version wrote reads back unchanged"
        );
        assert_eq!(again.entries, stored.entries);
        assert!(read_stored("{").problem.is_some());
        assert!(read_stored("{}").problem.is_some());
    }
}
