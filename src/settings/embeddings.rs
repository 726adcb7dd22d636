//! Settings → Search by meaning: the embedding model the ranked search may
//! ask, off until the user turns it on. Its own profile, apart from the chat
//! models: an embedding model is not a chat model, and a user often runs a
//! small local one beside a large remote chat model.

use serde::Serialize;

use super::host_of;

/// Where a new profile points: Ollama's usual address and its most used
/// embedding model.
pub const DEFAULT_EMBEDDINGS_URL: &str = "http://localhost:11434/v1";
pub const DEFAULT_EMBEDDINGS_MODEL: &str = "nomic-embed-text";

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct EmbeddingSettings {
    /// Off by default: nothing is embedded or sent until the user turns it on.
    pub enabled: bool,
    /// An OpenAI-compatible base address (`…/v1`); `/embeddings` is added.
    pub base_url: String,
    pub model: String,
    /// The secret (Obsidian's secret storage) holding the API key; empty: none.
    pub api_key_secret: String,
    /// The server and model the user agreed to send the notes' text to
    /// (`server_identity`), after the settings said how much would go.
    /// Asked only of a server off this computer and its network; another
    /// address or model asks again.
    pub consented: String,
}

impl Default for EmbeddingSettings {
    fn default() -> Self {
        EmbeddingSettings {
            enabled: false,
            base_url: DEFAULT_EMBEDDINGS_URL.to_string(),
            model: DEFAULT_EMBEDDINGS_MODEL.to_string(),
            api_key_secret: String::new(),
            consented: String::new(),
        }
    }
}

impl EmbeddingSettings {
    /// What the stored vectors and the consent belong to: the model at its
    /// address (one model name can mean other weights on another server).
    pub fn server_identity(&self) -> String {
        format!("{} {}", self.base_url, self.model)
    }

    /// The address's host, for the settings' and the errors' words.
    pub fn host(&self) -> &str {
        host_of(&self.base_url)
    }
}
