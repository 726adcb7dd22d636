//! The read cache: a read command's output, kept per exact argv (the vault
//! included), for commands whose output depends on the vault's content and
//! nothing else. The real CLI costs tens to hundreds of milliseconds a call,
//! and a model often reads the same note twice in a turn.
//!
//! Everything is forgotten when anything could have changed an answer:
//! every vault and metadata event the shim forwards, every change the agent
//! makes, new settings, and an age limit. Which commands may be kept is
//! decided here, in one table.

use std::collections::VecDeque;

use super::client::CliRun;

/// Entries kept at most; the oldest goes first.
pub const MAX_ENTRIES: usize = 256;
/// Bytes of output kept at most (all entries together).
pub const MAX_BYTES: usize = 16 * 1024 * 1024;

/// Whether a read command's output may be reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CacheRule {
    /// Depends only on the vault's content (notes, properties, links, the
    /// bookmarks and bases files), which every change is reported for.
    VaultContent,
    /// Depends on something no event reports; the reason, for the table's readers.
    Never(&'static str),
}

/// The table: every read command of every tool, with its rule. `None` for a
/// command not in it, which is never cached (and fails `tests/registry.rs`
/// until it is added).
pub fn rule(command: &str) -> Option<CacheRule> {
    use CacheRule::*;
    Some(match command {
        "read" | "file" | "files" | "folders" | "outline" | "search" | "search:context"
        | "tasks" | "tags" | "tag" | "properties" | "property:read" | "backlinks" | "links"
        | "orphans" | "deadends" | "unresolved" | "bookmarks" | "bases" | "base:views"
        | "templates" => VaultContent,
        "daily:path" | "daily:read" => Never("today's note changes at midnight"),
        "random:read" => Never("a different note each time"),
        "open" => Never("it shows the note in Obsidian, an action"),
        "template:read" => Never("`resolve` fills in today's date and time"),
        "base:query" => Never("a base's formulas may use today() or now()"),
        // Answered from the notes' text (or the search index) by the core, not by one CLI read.
        "map" | "section" | "duplicates" | "empty" | "missing" | "suggest" | "find" | "pdf" => {
            Never("computed by the core, not one CLI call")
        }
        _ => return None,
    })
}

struct Entry {
    argv: Vec<String>,
    run: CliRun,
    stored_ms: f64,
    bytes: usize,
}

/// Outputs kept since the last change, oldest first.
#[derive(Default)]
pub struct ReadCache {
    entries: VecDeque<Entry>,
    bytes: usize,
    hits: u64,
    /// Moves on at every `forget`: a read that started before a change
    /// finished after it is not kept.
    generation: u64,
}

impl ReadCache {
    /// The kept answer for `argv`, if it is younger than `max_age_ms`.
    pub fn get(&mut self, argv: &[String], now_ms: f64, max_age_ms: f64) -> Option<CliRun> {
        let index = self.entries.iter().position(|e| e.argv == argv)?;
        if now_ms - self.entries[index].stored_ms > max_age_ms {
            let old = self.entries.remove(index)?;
            self.bytes -= old.bytes;
            return None;
        }
        self.hits += 1;
        Some(self.entries[index].run.clone())
    }

    /// The generation a read must still be in when it finishes to be kept.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Keeps a successful run that started in `generation` (nothing changed
    /// since); failures are always asked again.
    pub fn put(&mut self, run: &CliRun, now_ms: f64, generation: u64) {
        if generation != self.generation {
            return;
        }
        let Ok(output) = &run.output else { return };
        let bytes = output.text.len();
        if bytes > MAX_BYTES / 4 {
            return;
        }
        if let Some(index) = self.entries.iter().position(|e| e.argv == run.argv) {
            if let Some(old) = self.entries.remove(index) {
                self.bytes -= old.bytes;
            }
        }
        while self.entries.len() >= MAX_ENTRIES || self.bytes + bytes > MAX_BYTES {
            match self.entries.pop_front() {
                Some(old) => self.bytes -= old.bytes,
                None => break,
            }
        }
        self.bytes += bytes;
        self.entries.push_back(Entry {
            argv: run.argv.clone(),
            run: run.clone(),
            stored_ms: now_ms,
            bytes,
        });
    }

    /// Something in the vault (or the settings) changed: nothing kept is trusted.
    pub fn forget(&mut self) {
        self.entries.clear();
        self.bytes = 0;
        self.generation += 1;
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Answers given from the cache since the plugin started.
    pub fn hits(&self) -> u64 {
        self.hits
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::outcome::CliOutput;

    fn run(argv: &[&str], text: &str) -> CliRun {
        CliRun {
            program: Some("obsidian".into()),
            argv: argv.iter().map(|s| s.to_string()).collect(),
            output: Ok(CliOutput {
                text: text.into(),
                empty: false,
                truncation: None,
            }),
        }
    }

    #[test]
    fn keeps_by_exact_argv_until_too_old_or_forgotten() {
        let mut cache = ReadCache::default();
        let read = run(&["read", "path=A.md"], "a");
        cache.put(&read, 0.0, cache.generation());
        assert_eq!(cache.get(&read.argv, 10.0, 60_000.0), Some(read.clone()));
        assert_eq!(
            cache.get(&["read".into(), "path=B.md".into()], 10.0, 60_000.0),
            None
        );
        assert_eq!(cache.get(&read.argv, 60_001.0, 60_000.0), None, "too old");
        assert!(cache.is_empty(), "an old entry is dropped");
        cache.put(&read, 0.0, cache.generation());
        cache.forget();
        assert_eq!(cache.get(&read.argv, 1.0, 60_000.0), None);
    }

    #[test]
    fn failures_are_not_kept_and_the_bounds_hold() {
        let mut cache = ReadCache::default();
        let mut failed = run(&["read", "path=A.md"], "");
        failed.output = Err(crate::base::error::ToolError::EmptyOutput);
        cache.put(&failed, 0.0, 0);
        assert!(cache.is_empty());
        for i in 0..MAX_ENTRIES + 10 {
            cache.put(&run(&["read", &format!("path={i}.md")], "x"), 0.0, 0);
        }
        assert_eq!(cache.len(), MAX_ENTRIES);
        assert_eq!(
            cache.get(&["read".into(), "path=0.md".into()], 1.0, 60_000.0),
            None,
            "the oldest went first"
        );
        let big = "y".repeat(MAX_BYTES / 5);
        for i in 0..10 {
            cache.put(&run(&["read", &format!("path=big{i}.md")], &big), 0.0, 0);
        }
        assert!(cache.bytes <= MAX_BYTES);
    }

    #[test]
    fn a_read_that_started_before_a_change_is_not_kept() {
        let mut cache = ReadCache::default();
        let started = cache.generation();
        cache.forget(); // a write finished while the read ran
        let read = run(&["read", "path=A.md"], "old text");
        cache.put(&read, 0.0, started);
        assert!(cache.is_empty());
    }
}
