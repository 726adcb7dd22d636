//! Search by meaning as the engine keeps it: the sections of every note
//! recorded while the keyword index reads them, embedded in batches by the
//! user's embedding model (Settings → Search by meaning, off by default),
//! with progress and Stop, saved in the plugin's folder, and asked at each
//! ranked search when they are there. Keyword search never waits on them:
//! a model that is missing, slow or wrong leaves it as it was, and says why.

use serde::Serialize;

use super::Engine;
use crate::base::address::{destination, reach_of_ip, Reach};
use crate::base::host::Host;
use crate::hygiene::{MAX_NOTE_BYTES, READ_BATCH};
use crate::policy::scope::FolderScope;
use crate::search::embedding_api::{self, MAX_ANSWER_BYTES};
use crate::search::vectors::{note_inputs, VectorHit, Vectors};
use crate::settings::embeddings::EmbeddingSettings;

/// Sections sent in one request.
pub const EMBED_BATCH: usize = 32;

/// Requests between two saves of the vectors, so a crash loses little.
const SAVE_EVERY: usize = 10;

/// Where embedding stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "EmbeddingPhase"))]
#[serde(rename_all = "camelCase")]
pub enum Phase {
    /// Search by meaning is off in the settings.
    #[default]
    Off,
    /// On, nothing running.
    Idle,
    Embedding,
    /// The user pressed Stop; what was embedded is kept.
    Stopped,
    /// The last run failed (`error` says why).
    Failed,
}

/// What the settings and the status bar show.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct EmbeddingStatus {
    pub phase: Phase,
    /// Sections embedded in this run, of `total`.
    pub done: usize,
    pub total: usize,
    /// Distinct sections of the notes, and those with a vector.
    pub sections: usize,
    pub embedded: usize,
    /// What embedding the rest would send.
    pub pending_sections: usize,
    pub pending_chars: usize,
    pub pending_notes: usize,
    /// False until an index build recorded the notes' sections.
    pub counted: bool,
    pub model: String,
    pub host: String,
    /// The model at its address, as a consent names it (`consented`).
    pub server: String,
    /// The server is not on this computer or its private network.
    pub remote: bool,
    /// A remote server the user has not agreed to send the notes to.
    pub needs_consent: bool,
    pub error: String,
    /// One line for the status bar and the settings.
    pub label: String,
}

#[derive(Default)]
pub(crate) struct EmbeddingState {
    pub(crate) vectors: Vectors,
    /// The saved vectors were asked for (once).
    loaded: bool,
    /// An index build recorded every note's sections.
    pub(crate) counted: bool,
    phase: Phase,
    done: usize,
    total: usize,
    error: String,
    stop: bool,
    /// Moves whenever the vectors change (the fused pages' cursors).
    pub(crate) stamp: u64,
    /// When a search's query last could not be embedded (the host's
    /// clock): searches go by words alone for [`QUERY_BACKOFF_MS`] after,
    /// rather than each waiting on a server that is down or hung.
    query_failed_at: Option<f64>,
}

/// How long searches leave the embedding server alone after it failed one.
pub const QUERY_BACKOFF_MS: f64 = 60_000.0;

/// True for an address off this computer and its private network: names
/// other than `localhost` count as remote, since what they resolve to can
/// change, and so does an address that cannot be read.
pub fn is_remote(url: &str) -> bool {
    match destination(url) {
        Ok(found) => match found.ip {
            Some(ip) => !matches!(reach_of_ip(ip), Reach::Loopback | Reach::Private),
            None => found.hostname != "localhost",
        },
        Err(_) => true,
    }
}

fn needs_consent(config: &EmbeddingSettings) -> bool {
    is_remote(&config.base_url) && config.consented != config.server_identity()
}

impl<H: Host> Engine<H> {
    pub fn embeddings_status(&self) -> EmbeddingStatus {
        let settings = self.settings_snapshot();
        let config = &settings.embeddings;
        let scope = FolderScope::read(&settings, self.host().platform().os());
        let state = self.embeddings.borrow();
        let counts = state.vectors.counts(&|path| scope.contains(path));
        let current = state.vectors.identity() == config.vectors_identity();
        let embedded = if current { counts.embedded } else { 0 };
        let pending = counts.sections - embedded;
        let phase = if config.enabled {
            state.phase
        } else {
            Phase::Off
        };
        let label = match phase {
            Phase::Embedding => format!(
                "Vault Agent: embedding sections {} of {}",
                state.done, state.total
            ),
            _ => String::new(),
        };
        EmbeddingStatus {
            phase,
            done: state.done,
            total: state.total,
            sections: counts.sections,
            embedded,
            pending_sections: pending,
            pending_chars: if current {
                counts.pending_chars
            } else {
                counts.all_chars
            },
            pending_notes: if current {
                counts.pending_notes
            } else {
                counts.notes
            },
            counted: state.counted,
            model: config.model.clone(),
            host: config.host().to_string(),
            server: config.server_identity(),
            remote: is_remote(&config.base_url),
            needs_consent: needs_consent(config),
            error: state.error.clone(),
            label,
        }
    }

    /// Vectors no section holds any more, and vectors held in all.
    #[cfg(any(test, feature = "testing"))]
    pub fn embedding_vectors_held(&self) -> (usize, usize) {
        let state = self.embeddings.borrow();
        (state.vectors.orphans(), state.vectors.len())
    }

    /// Records a note's sections as the index reads it (only while search
    /// by meaning is on: otherwise nothing is kept).
    pub(crate) fn embeddings_note_read(&self, path: &str, text: Option<&str>) {
        if !self.settings_snapshot().embeddings.enabled {
            return;
        }
        let mut state = self.embeddings.borrow_mut();
        match text {
            Some(text) => state.vectors.set_note(path, text),
            None => state.vectors.remove_note(path),
        }
    }

    pub(crate) fn embeddings_note_moved(&self, from: &str, to: &str) {
        let mut state = self.embeddings.borrow_mut();
        state.vectors.rename_note(from, to);
    }

    /// The saved vectors, taken in once; another model's are dropped.
    async fn load_vectors(&self, config: &EmbeddingSettings) {
        if self.embeddings.borrow().loaded {
            return;
        }
        let saved = self.host().load_vectors().await;
        let mut state = self.embeddings.borrow_mut();
        state.loaded = true;
        state.vectors.use_model(&config.vectors_identity());
        if let Some(bytes) = saved {
            if let Err(why) = state.vectors.load(&bytes, &config.vectors_identity()) {
                state.error = why;
            }
        }
        state.stamp += 1;
    }

    /// Asks Stop of a run in progress: it ends after the request in flight
    /// (which the shim aborts by its tag), keeping what was embedded.
    pub fn embeddings_stop(&self) {
        self.embeddings.borrow_mut().stop = true;
    }

    /// Embeds every section that has no vector yet, [`EMBED_BATCH`] a
    /// request; `progress` hears after each. Refused, with the reason in the
    /// status, when search by meaning is off or a remote server has not been
    /// agreed to. A run already going is left to finish.
    pub async fn embed_notes(&self, progress: &dyn Fn(&EmbeddingStatus)) -> EmbeddingStatus {
        let settings = self.settings_snapshot();
        let config = settings.embeddings.clone();
        if !config.enabled || self.embeddings.borrow().phase == Phase::Embedding {
            return self.embeddings_status();
        }
        // Counting is local, and the consent a remote server asks for
        // names the count, so count before asking.
        self.count_sections().await;
        if needs_consent(&config) {
            return self.embeddings_status();
        }
        self.load_vectors(&config).await;
        {
            let mut state = self.embeddings.borrow_mut();
            if state.vectors.use_model(&config.vectors_identity()) {
                state.stamp += 1;
            }
            state.phase = Phase::Embedding;
            state.error.clear();
            state.stop = false;
            state.done = 0;
            state.total = 0;
        }
        progress(&self.embeddings_status());
        let scope = FolderScope::read(&settings, self.host().platform().os());
        if self
            .embeddings
            .borrow()
            .vectors
            .pending_paths(&|path| scope.contains(path))
            .is_empty()
        {
            self.embeddings.borrow_mut().phase = Phase::Idle;
            let status = self.embeddings_status();
            progress(&status);
            return status;
        }
        let outcome = self.embed_pending(&config, &scope, progress).await;
        {
            // Edits leave vectors behind; a run is when they are let go.
            let mut state = self.embeddings.borrow_mut();
            if state.vectors.orphans() > 0 {
                state.vectors.compact();
            }
            // A run that worked says the server answers again.
            if outcome.is_ok() {
                state.query_failed_at = None;
            }
        }
        self.save_vectors().await;
        let mut state = self.embeddings.borrow_mut();
        state.phase = match outcome {
            Ok(()) => Phase::Idle,
            Err(_) if state.stop => Phase::Stopped,
            Err(why) => {
                state.error = why;
                Phase::Failed
            }
        };
        state.stop = false;
        drop(state);
        let status = self.embeddings_status();
        progress(&status);
        status
    }

    /// Turned on after the index was built: build it again, which records
    /// every note's sections.
    async fn count_sections(&self) {
        if !self.embeddings.borrow().counted {
            self.settled_search_index().await;
            if !self.embeddings.borrow().counted {
                self.build_search_index(&|_| {}).await;
            }
        }
    }

    /// Only notes the agent may read are sent: the read scope bounds what
    /// leaves the vault for meaning as it bounds what the agent reads.
    async fn embed_pending(
        &self,
        config: &EmbeddingSettings,
        scope: &FolderScope<'_>,
        progress: &dyn Fn(&EmbeddingStatus),
    ) -> Result<(), String> {
        let paths = self
            .embeddings
            .borrow()
            .vectors
            .pending_paths(&|path| scope.contains(path));
        self.embeddings.borrow_mut().total = self.embeddings_status().pending_sections;
        let key = (!config.api_key_secret.is_empty())
            .then(|| self.host().secret(&config.api_key_secret))
            .flatten();
        let mut queue: Vec<(u64, String)> = Vec::new();
        let mut sent = 0;
        for batch in paths.chunks(READ_BATCH) {
            let texts = self.host().vault_read_many(batch, MAX_NOTE_BYTES).await;
            for (path, text) in batch.iter().zip(texts) {
                let Some(text) = text else { continue };
                let mut state = self.embeddings.borrow_mut();
                state.vectors.set_note(path, &text);
                for (chunk, input) in note_inputs(path, &text) {
                    if !state.vectors.has_vector(chunk.key)
                        && !queue.iter().any(|(k, _)| *k == chunk.key)
                    {
                        queue.push((chunk.key, input));
                    }
                }
            }
            while queue.len() >= EMBED_BATCH {
                let rest = queue.split_off(EMBED_BATCH);
                self.embed_batch(config, key.as_deref(), &queue).await?;
                queue = rest;
                sent += 1;
                progress(&self.embeddings_status());
                if sent % SAVE_EVERY == 0 {
                    self.save_vectors().await;
                }
            }
        }
        if !queue.is_empty() {
            self.embed_batch(config, key.as_deref(), &queue).await?;
        }
        Ok(())
    }

    /// One request; its vectors are kept only when all of them are good.
    async fn embed_batch(
        &self,
        config: &EmbeddingSettings,
        key: Option<&str>,
        batch: &[(u64, String)],
    ) -> Result<(), String> {
        if self.embeddings.borrow().stop {
            return Err("stopped".into());
        }
        let inputs: Vec<String> = batch.iter().map(|(_, text)| text.clone()).collect();
        let vectors = self.embed(config, key, &inputs, false).await?;
        let mut state = self.embeddings.borrow_mut();
        let mut checked = Vectors::new("check");
        for ((key, _), vector) in batch.iter().zip(&vectors) {
            checked.insert(*key, vector).map_err(|why| {
                format!("The embedding server sent {why}, so this batch was not kept. Check that \"{}\" is an embedding model.", config.model)
            })?;
        }
        for ((key, _), vector) in batch.iter().zip(&vectors) {
            state.vectors.insert(*key, vector).map_err(|why| {
                format!("The embedding server sent {why}; the model may have changed. Embed again to start over with it.")
            })?;
        }
        state.done += batch.len();
        state.stamp += 1;
        Ok(())
    }

    /// The model's vectors for `inputs`, or why there are none.
    async fn embed(
        &self,
        config: &EmbeddingSettings,
        key: Option<&str>,
        inputs: &[String],
        for_query: bool,
    ) -> Result<Vec<Vec<f32>>, String> {
        let request = embedding_api::request(config, key, inputs, for_query);
        let purpose = if for_query {
            "search by meaning (query)"
        } else {
            "search by meaning (notes)"
        };
        let head = self.http_open(&request, purpose).await.map_err(|f| {
            format!(
                "The embedding server at {} could not be reached: {}",
                request.url, f.message
            )
        })?;
        let mut body = Vec::new();
        loop {
            match self.host().http_read(head.id).await {
                Ok(Some(piece)) => {
                    body.extend_from_slice(&piece);
                    if body.len() > MAX_ANSWER_BYTES {
                        self.host().http_close(head.id);
                        return Err(format!(
                            "The embedding server's answer was over {} MB.",
                            MAX_ANSWER_BYTES >> 20
                        ));
                    }
                }
                Ok(None) => break,
                Err(failure) => {
                    self.host().http_close(head.id);
                    return Err(format!(
                        "The embedding server's answer broke off: {}",
                        failure.message
                    ));
                }
            }
        }
        self.host().http_close(head.id);
        let body = String::from_utf8_lossy(&body);
        if head.status != 200 {
            return Err(embedding_api::failure(config, head.status, &body));
        }
        embedding_api::parse(&body, inputs.len())
    }

    async fn save_vectors(&self) {
        let bytes = self.embeddings.borrow().vectors.encode();
        self.host().save_vectors(&bytes).await;
    }

    /// The notes nearest `query` by meaning among those `allowed` lets
    /// through: `None` when search by meaning is off or has nothing yet,
    /// `Some(Err)` when the query could not be embedded.
    pub(crate) async fn nearest_by_meaning(
        &self,
        query: &str,
        allowed: &dyn Fn(&str) -> bool,
        limit: usize,
    ) -> Option<Result<Vec<VectorHit>, String>> {
        let settings = self.settings_snapshot();
        let config = &settings.embeddings;
        if !config.enabled || needs_consent(config) {
            return None;
        }
        self.load_vectors(config).await;
        {
            let state = self.embeddings.borrow();
            if state.vectors.identity() != config.vectors_identity() || state.vectors.is_empty() {
                return None;
            }
        }
        let now = self.host().now_ms();
        if let Some(at) = self.embeddings.borrow().query_failed_at {
            if now - at < QUERY_BACKOFF_MS {
                return Some(Err(format!(
                    "the embedding server failed a search less than {} s ago, so searches go by words alone for a while",
                    QUERY_BACKOFF_MS as u64 / 1000
                )));
            }
        }
        let key = (!config.api_key_secret.is_empty())
            .then(|| self.host().secret(&config.api_key_secret))
            .flatten();
        let vector = match self
            .embed(config, key.as_deref(), &[query.to_string()], true)
            .await
        {
            Ok(mut vectors) => {
                self.embeddings.borrow_mut().query_failed_at = None;
                vectors.pop().unwrap_or_default()
            }
            Err(why) => {
                self.embeddings.borrow_mut().query_failed_at = Some(self.host().now_ms());
                return Some(Err(why));
            }
        };
        let state = self.embeddings.borrow();
        if state.vectors.dims() != vector.len() {
            return Some(Err(format!(
                "the model's vector for the query has {} numbers, the stored ones {}; embed the notes again",
                vector.len(),
                state.vectors.dims()
            )));
        }
        let hits = state.vectors.nearest(&vector, allowed, limit);
        Some(Ok(hits))
    }
}

#[cfg(test)]
mod tests {
    use super::is_remote;

    /// Consent is asked before any text goes to a server off this computer
    /// and its network; a public IP literal once passed as local.
    #[test]
    fn only_this_computer_and_its_network_are_not_remote() {
        for local in [
            "http://localhost:11434/v1",
            "http://127.0.0.1:1234/v1",
            "http://[::1]:8080/v1",
            "http://192.168.1.5/v1",
            "http://0x7f.1/v1",
        ] {
            assert!(!is_remote(local), "{local}");
        }
        for remote in [
            "https://api.openai.com/v1",
            "http://8.8.8.8/v1",
            "http://[2606:4700::1111]/v1",
            "http://169.254.169.254/v1",
            "http://93.184.215.14\\@127.0.0.1/v1",
            "not an address",
        ] {
            assert!(is_remote(remote), "{remote}");
        }
    }
}
