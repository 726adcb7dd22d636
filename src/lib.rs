//! Vault Agent's core: which tools exist, what a call may do, how it becomes
//! argv for the Obsidian CLI, and what the outcome means. Everything here is
//! plain Rust, tested natively against a fake `Host`; only `wasm` (compiled for
//! wasm32) touches wasm-bindgen.

pub mod base;
pub mod cli;
pub mod doors;
pub mod engine;
pub mod hygiene;
pub mod notes;
pub mod policy;
pub mod search;
pub mod settings;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub mod tools;
pub mod vault_agent;
// The TypeScript types of the values crossing the wasm boundary, generated
// from the Rust types (tests only: nothing of it reaches the wasm).
#[cfg(all(test, not(target_arch = "wasm32")))]
mod ts_types;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use crate::base::error::ToolError;
pub use crate::base::host::Host;
pub use crate::base::result::ToolResult;
pub use crate::engine::ToolDescriptor;
pub use crate::vault_agent::VaultAgent;
