//! The in-app chat agent: provider adapters (OpenAI-compatible, Anthropic),
//! the stream parsers, and the loop that runs the model's tool calls through
//! the same registry, policy and confirmations as every other caller.

pub mod anthropic;
pub mod budget;
pub mod chat;
pub mod conversation;
pub mod openai;
pub mod prompt;
pub mod provider;
pub mod sse;
pub mod stored;
pub mod text_calls;
pub mod think_tags;
pub mod window;
