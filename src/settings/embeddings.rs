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

/// What a model wants before a search's query and before a section, as its
/// card says: retrieval models trained with task prefixes place a text
/// without one poorly (nomic-embed-text: "requires task instruction
/// prefixes"). `("", "")` for a model that wants none or is not known here.
pub fn task_prefixes(model: &str) -> (&'static str, &'static str) {
    let model = model.to_ascii_lowercase();
    if model.contains("nomic-embed-text") {
        ("search_query: ", "search_document: ")
    } else if model.contains("mxbai-embed-large") {
        (
            "Represent this sentence for searching relevant passages: ",
            "",
        )
    } else if ["e5-small", "e5-base", "e5-large"]
        .iter()
        .any(|family| model.contains(family))
    {
        // intfloat's e5 and multilingual-e5 (not e5-mistral, which wants an
        // instruction instead).
        ("query: ", "passage: ")
    } else {
        ("", "")
    }
}

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

    /// What the stored vectors belong to: the model at its address, and
    /// whether its texts carry the task prefixes its card asks for (vectors
    /// made without them are dropped, not mixed with ones made with them).
    pub fn vectors_identity(&self) -> String {
        let (query, document) = task_prefixes(&self.model);
        if query.is_empty() && document.is_empty() {
            self.server_identity()
        } else {
            format!("{} (task prefixes)", self.server_identity())
        }
    }

    /// The address's host, for the settings' and the errors' words.
    pub fn host(&self) -> String {
        host_of(&self.base_url)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn models_that_want_task_prefixes_get_them_and_their_vectors_are_kept_apart() {
        assert_eq!(
            task_prefixes("nomic-embed-text:latest"),
            ("search_query: ", "search_document: ")
        );
        assert_eq!(
            task_prefixes("text-embedding-nomic-embed-text-v1.5"),
            ("search_query: ", "search_document: ")
        );
        assert_eq!(task_prefixes("mxbai-embed-large").1, "");
        assert_eq!(
            task_prefixes("multilingual-e5-large"),
            ("query: ", "passage: ")
        );
        for plain in [
            "all-minilm",
            "text-embedding-3-small",
            "e5-mistral-7b-instruct",
            "bge-m3",
        ] {
            assert_eq!(task_prefixes(plain), ("", ""), "{plain}");
        }
        let nomic = EmbeddingSettings::default();
        assert_ne!(nomic.vectors_identity(), nomic.server_identity());
        let minilm = EmbeddingSettings {
            model: "all-minilm".into(),
            ..EmbeddingSettings::default()
        };
        assert_eq!(minilm.vectors_identity(), minilm.server_identity());
    }
}
