//! Layer 4, the doors: each a folder with its own type holding its own
//! state over a shared handle on the engine. A door translates a protocol
//! into calls of the engine; it never decides policy, and no door imports
//! another (`tests/layers.rs`).

pub mod acp;
pub mod chat;
pub mod mcp;
