//! The ranked search's index as the shim drives it: the build at layout
//! ready, the vault's events, the status bar's line. Translation only.

use wasm_bindgen::prelude::*;

use super::interop::{from_js, into_error, promise, to_js};
use super::VaultAgent;
use crate::base::input::CONVERSATION;
use crate::engine::search::VaultEvent;

#[wasm_bindgen]
impl VaultAgent {
    /// Builds the index from the vault's notes; `onProgress` gets the
    /// status (`{ phase, read, total, notes, unread, label }`) after each
    /// batch. Resolves to the final status.
    #[wasm_bindgen(js_name = searchBuild, unchecked_return_type = "Promise<SearchStatus>")]
    pub fn search_build(
        &self,
        #[wasm_bindgen(unchecked_param_type = "(status: SearchStatus) => void")]
        on_progress: js_sys::Function,
    ) -> js_sys::Promise {
        let core = self.core.clone();
        promise(async move {
            let progress = |status: &crate::engine::search::SearchStatus| {
                if let Ok(value) = to_js(status) {
                    let _ = on_progress.call1(&JsValue::NULL, &value);
                }
            };
            let status = core.build_search_index(&progress).await;
            to_js(&status).map_err(JsValue::from)
        })
    }

    /// One vault event (`{ kind: "create" | "modify" | "delete" | "rename",
    /// path, oldPath? }`); resolves when the index holds it.
    #[wasm_bindgen(js_name = searchEvent, unchecked_return_type = "Promise<void>")]
    pub fn search_event(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SearchVaultEvent")] event: JsValue,
    ) -> js_sys::Promise {
        let core = self.core.clone();
        let event: Result<VaultEvent, _> = from_js(&event, &CONVERSATION);
        promise(async move {
            let event = event.map_err(|e| JsValue::from(into_error(e)))?;
            core.search_vault_event(&event).await;
            Ok(JsValue::UNDEFINED)
        })
    }

    /// The palette's "Search the vault": the best passages for `query`
    /// among every indexed note, at most `limit`, or the reason there are
    /// none to look for (a query with no searchable words).
    #[wasm_bindgen(js_name = searchVault, unchecked_return_type = "Promise<UserSearch>")]
    pub fn search_vault(&self, query: String, limit: u32) -> js_sys::Promise {
        let core = self.core.clone();
        promise(async move {
            let found = core.search_for_user(&query, limit as usize).await;
            to_js(&found).map_err(JsValue::from)
        })
    }

    #[wasm_bindgen(js_name = searchStatus, unchecked_return_type = "SearchStatus")]
    pub fn search_status(&self) -> Result<JsValue, JsError> {
        to_js(&self.core.search_status())
    }
}
