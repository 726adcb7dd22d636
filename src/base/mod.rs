//! Layer 0, the vocabulary every other layer speaks: the one error and the
//! one result type, what a call is made of (`Access`, `NoteLocator`,
//! `Preview`), what a card and a diff hold, the `Host` trait the shim
//! implements, bounded input, vault paths and small text helpers. Nothing
//! here imports anything above it (`tests/layers.rs`).

pub mod address;
pub mod call;
pub mod card;
pub mod diff;
pub mod error;
pub mod host;
pub mod input;
pub mod outside;
pub mod result;
pub mod table;
pub mod text;
pub mod vault_path;
