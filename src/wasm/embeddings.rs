//! Search by meaning as the shim drives it: a run with progress, Stop, and
//! the status the settings show. Translation only.

use wasm_bindgen::prelude::*;

use super::interop::{promise, to_js};
use super::VaultAgent;
use crate::engine::embeddings::EmbeddingStatus;

#[wasm_bindgen]
impl VaultAgent {
    /// Embeds every section without a vector; `onProgress` gets the status
    /// after each request. Resolves to the final status (a refusal or a
    /// failure is in its `phase` and `error`, never a rejection).
    #[wasm_bindgen(js_name = embedNotes, unchecked_return_type = "Promise<EmbeddingStatus>")]
    pub fn embed_notes(
        &self,
        #[wasm_bindgen(unchecked_param_type = "(status: EmbeddingStatus) => void")]
        on_progress: js_sys::Function,
    ) -> js_sys::Promise {
        let core = self.core.clone();
        promise(async move {
            let progress = |status: &EmbeddingStatus| {
                if let Ok(value) = to_js(status) {
                    let _ = on_progress.call1(&JsValue::NULL, &value);
                }
            };
            let status = core.embed_notes(&progress).await;
            to_js(&status).map_err(JsValue::from)
        })
    }

    /// Asks a run to stop after its request in flight (the shim aborts that
    /// one by its tag, `EMBEDDINGS_TAG`).
    #[wasm_bindgen(js_name = embeddingsStop)]
    pub fn embeddings_stop(&self) {
        self.core.embeddings_stop();
    }

    #[wasm_bindgen(js_name = embeddingsStatus, unchecked_return_type = "EmbeddingStatus")]
    pub fn embeddings_status(&self) -> Result<JsValue, JsError> {
        to_js(&self.core.embeddings_status())
    }
}
