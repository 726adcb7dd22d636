//! Vault hygiene, computed in the core: duplicate titles, empty notes,
//! links to missing notes, and backlink suggestions. Each check says where
//! its facts come from:
//!
//! | Check | Source |
//! |---|---|
//! | duplicates | titles from the CLI's `files ext=md` listing; no note is read |
//! | empty | the listing, then every listed note's text through Obsidian's `app.vault.cachedRead`, in batches |
//! | missing | the CLI's `unresolved verbose` (`link<TAB>source` lines); no note is read |
//! | suggest | the ranked search's index (its words and weights), then the text of the notes it picks through `cachedRead` |
//!
//! Everything is bounded for a vault of a hundred thousand notes: notes
//! are read [`READ_BATCH`] at a time, each at most [`MAX_NOTE_BYTES`]; a
//! check over every note (`empty`) keeps only what it found from each batch,
//! so the text it holds is one batch, never the vault; the notes a check
//! keeps whole (`suggest`'s candidates) are at most [`MAX_READ_BYTES`];
//! titles are compared within a budget. Every report is one page of its
//! list ([`page::Page`]: `limit` entries from `offset`) that names the next.
//! A check that stopped at a bound says so (`truncated`). Only notes in the
//! folders the agent may read are listed, read or shown.

pub mod page;
pub mod suggest;
pub mod text;
pub mod titles;

use crate::base::call::NoteLocator;
use page::Page;

/// Notes asked of the vault in one host call.
pub const READ_BATCH: usize = 200;
/// A note longer than this is not read (it is certainly not empty).
pub const MAX_NOTE_BYTES: usize = 1024 * 1024;
/// All note text one check keeps at once (`suggest`'s candidates).
pub const MAX_READ_BYTES: usize = 64 * 1024 * 1024;
/// Notes one check considers; more are left out and the result says so.
/// Their paths (about 50 bytes each) are what a check holds for every note.
pub const MAX_NOTES: usize = 250_000;
/// Similar-title comparisons by default, and at most.
pub const DEFAULT_COMPARISONS: usize = 200_000;
pub const MAX_COMPARISONS: usize = 5_000_000;
/// The least similarity that counts as "very similar", by default.
pub const DEFAULT_THRESHOLD: f64 = 0.85;

/// A check the core computes instead of running one CLI command.
#[derive(Clone, Debug, PartialEq)]
pub enum HygieneRequest {
    Duplicates {
        folder: Option<String>,
        threshold: f64,
        budget: usize,
        page: Page,
    },
    Empty {
        folder: Option<String>,
        page: Page,
    },
    Missing {
        page: Page,
    },
    Suggest {
        note: Option<NoteLocator>,
        topic: Option<String>,
        folder: Option<String>,
        limit: usize,
    },
}
