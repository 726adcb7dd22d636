//! A note edit's card reviewed in the editor, as the shim's editor view
//! drives it: the changes placed in the editor's text, the user's answer to
//! each, and the approval of only the accepted ones. Translation only.

use wasm_bindgen::prelude::*;

use super::interop::{promise, short_text, to_js};
use super::{id_text, VaultAgent, MAX_ID_CHARS};

#[wasm_bindgen]
impl VaultAgent {
    /// Card `id`'s changes placed in `text`, the note as the editor holds
    /// it (or in the note as the card read it), with the answers so far; a
    /// card that cannot be reviewed there says why in `problem`.
    #[wasm_bindgen(js_name = editReview, unchecked_return_type = "EditReview")]
    pub fn edit_review(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        text: Option<String>,
    ) -> Result<JsValue, JsError> {
        to_js(&self.core.edit_review(&id_text(&id), text.as_deref()))
    }

    /// The user's answer to change `index` (null: every change) in the
    /// editor; returns the review, with `settle` once every change is answered.
    #[wasm_bindgen(js_name = answerChange, unchecked_return_type = "EditReview")]
    pub fn answer_change(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        index: Option<u32>,
        accept: bool,
        text: Option<String>,
    ) -> Result<JsValue, JsError> {
        let review = self.core.answer_change(
            &id_text(&id),
            index.map(|i| i as usize),
            accept,
            text.as_deref(),
        );
        to_js(&review)
    }

    /// Approves only `changes` of note edit card `id` (what its review's
    /// `settle` named). Only the plugin's own UI calls this.
    #[wasm_bindgen(js_name = approveChanges, unchecked_return_type = "Promise<ToolResult>")]
    pub fn approve_changes(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] argv_hash: JsValue,
        changes: Vec<u32>,
    ) -> js_sys::Promise {
        let core = self.core.clone();
        let id = id_text(&id);
        let argv_hash = short_text(&argv_hash, MAX_ID_CHARS).unwrap_or_default();
        let changes: Vec<usize> = changes.into_iter().map(|n| n as usize).collect();
        promise(async move {
            let result = core.approve_changes(&id, &argv_hash, &changes).await;
            to_js(&result).map_err(JsValue::from)
        })
    }
}
