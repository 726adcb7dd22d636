//! Notes as text: headings and sections the way Obsidian's outline sees
//! them, described edits computed from the note as it is now, and the diff a
//! card shows. Pure functions, shared by every command that addresses part of
//! a note (the writing and section tools build on them).

pub mod blocks;
pub mod diff;
pub mod edit;
pub mod frontmatter;
pub mod headings;
pub mod map;
pub mod review;
pub mod syntax;
pub mod tags;
