//! The Obsidian CLI client: argv, discovery, execution and outcome mapping.

pub mod argv;
pub mod cache;
pub mod client;
pub mod discovery;
pub mod gate;
pub mod outcome;
