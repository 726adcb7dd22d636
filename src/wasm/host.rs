//! `Host` implemented by calling the functions the shim passes in.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use super::interop::{from_js, http_chunk, http_failure, process_outcome, to_js};
use crate::base::host::{
    FileStatus, Host, HttpFailure, HttpRequest, HttpResponseHead, PlatformFacts, ProcessOutcome,
    ProcessRequest, SpawnFailure, VaultFailure, VaultProcessed,
};
use crate::base::input::CONVERSATION;
use crate::base::outside::{OutsideCall, OutsideConnect, OutsideListing, OutsideOutcome};

#[wasm_bindgen]
extern "C" {
    /// The shim's effect functions (see `plugin-shim/host/node-host.ts`).
    #[wasm_bindgen(typescript_type = "HostFunctions")]
    pub type HostFunctions;

    #[wasm_bindgen(method, js_name = runProcess)]
    fn run_process(this: &HostFunctions, request: JsValue) -> js_sys::Promise;

    /// Stops the processes started with `tag` (a cancelled MCP call).
    #[wasm_bindgen(method, js_name = cancelProcesses)]
    fn cancel_processes(this: &HostFunctions, tag: &str);

    #[wasm_bindgen(method, js_name = fileStatus)]
    fn file_status(this: &HostFunctions, path: &str) -> js_sys::Promise;

    #[wasm_bindgen(method)]
    fn env(this: &HostFunctions, name: &str) -> Option<String>;

    #[wasm_bindgen(method)]
    fn now(this: &HostFunctions) -> f64;

    /// Resolves to `{ id, status }` or `{ error: { code, message } }`.
    #[wasm_bindgen(method, js_name = httpOpen)]
    fn http_open(this: &HostFunctions, request: JsValue) -> js_sys::Promise;

    /// Resolves to `{ addresses: string[] }` or `{ error: { code, message } }`.
    #[wasm_bindgen(method, js_name = resolveHost)]
    fn resolve_host(this: &HostFunctions, host: &str) -> js_sys::Promise;

    /// Resolves to `{ chunk: Uint8Array }`, `{ done: true }` or `{ error }`.
    #[wasm_bindgen(method, js_name = httpRead)]
    fn http_read(this: &HostFunctions, id: u32) -> js_sys::Promise;

    #[wasm_bindgen(method, js_name = httpClose)]
    fn http_close(this: &HostFunctions, id: u32);

    /// Resolves after `ms` milliseconds.
    #[wasm_bindgen(method)]
    fn sleep(this: &HostFunctions, ms: u32) -> js_sys::Promise;

    /// `{ dateTime, timeZone, openNote }`.
    #[wasm_bindgen(method, js_name = localContext)]
    fn local_context(this: &HostFunctions) -> JsValue;

    #[wasm_bindgen(method)]
    fn secret(this: &HostFunctions, name: &str) -> Option<String>;

    /// A page's HTML as Markdown (Obsidian's `htmlToMarkdown`).
    #[wasm_bindgen(method, catch, js_name = pageText)]
    fn page_text(this: &HostFunctions, html: &str, url: &str) -> Result<String, JsValue>;

    /// `new RegExp(pattern).test(text)`; `undefined` for an invalid pattern.
    #[wasm_bindgen(method, js_name = patternMatches)]
    fn pattern_matches(this: &HostFunctions, pattern: &str, text: &str) -> Option<bool>;

    /// Resolves to `{ content }` or `{ error: { code, message } }`.
    #[wasm_bindgen(method, js_name = vaultRead)]
    fn vault_read(this: &HostFunctions, path: &str) -> js_sys::Promise;

    /// Resolves to one entry per path, in order: the note's text, or `null`
    /// when it cannot be read or is longer than `max_bytes`.
    #[wasm_bindgen(method, js_name = vaultReadMany)]
    fn vault_read_many(
        this: &HostFunctions,
        paths: js_sys::Array,
        max_bytes: f64,
    ) -> js_sys::Promise;

    /// `{ paths, excluded }`: the Markdown notes and the excluded files.
    #[wasm_bindgen(method, js_name = vaultNotes)]
    fn vault_notes(this: &HostFunctions) -> JsValue;

    /// Resolves to `{ status: "written" }`, `{ status: "changed", now }` or `{ error }`.
    #[wasm_bindgen(method, js_name = vaultProcess)]
    fn vault_process(
        this: &HostFunctions,
        path: &str,
        expected: &str,
        replacement: &str,
    ) -> js_sys::Promise;

    /// Resolves to `{ status: "trashed" }` or `{ error }`.
    #[wasm_bindgen(method, js_name = vaultTrash)]
    fn vault_trash(this: &HostFunctions, path: &str) -> js_sys::Promise;

    /// Resolves to `{ status: "moved" }` or `{ error }`.
    #[wasm_bindgen(method, js_name = vaultMove)]
    fn vault_move(this: &HostFunctions, from: &str, to: &str) -> js_sys::Promise;

    /// Resolves to `{ bytes: Uint8Array }` or `{ error }` (`too_large` past `max_bytes`).
    #[wasm_bindgen(method, js_name = vaultReadBytes)]
    fn vault_read_bytes(this: &HostFunctions, path: &str, max_bytes: f64) -> js_sys::Promise;

    /// Resolves to `{ mime, base64 }` or `{ error }` (`too_large` when it
    /// cannot be had within the limits).
    #[wasm_bindgen(method, js_name = imageData)]
    fn image_data(
        this: &HostFunctions,
        path: &str,
        pasted: bool,
        max_side: u32,
        max_bytes: f64,
    ) -> js_sys::Promise;

    /// Resolves to `{ pages: string[] }` or `{ error }`.
    #[wasm_bindgen(method, js_name = pdfText)]
    fn pdf_text(
        this: &HostFunctions,
        path: &str,
        max_bytes: f64,
        first: f64,
        last: f64,
    ) -> js_sys::Promise;

    /// Resolves to `{ status: "created" }` or `{ error }`.
    #[wasm_bindgen(method, js_name = vaultCreate)]
    fn vault_create(this: &HostFunctions, path: &str, bytes: &[u8]) -> js_sys::Promise;

    /// Resolves to `{ path }` (every link followed) or `{ error }` (`not_found`).
    #[wasm_bindgen(method, js_name = realPath)]
    fn real_path(this: &HostFunctions, path: &str) -> js_sys::Promise;

    /// Resolves to `{ links: [{ path, real? }] }`: the symbolic links under `vault`.
    #[wasm_bindgen(method, js_name = vaultLinks)]
    fn vault_links(this: &HostFunctions, vault: &str) -> js_sys::Promise;

    /// `true`, `false`, or `undefined` when the setting cannot be read.
    #[wasm_bindgen(method, js_name = linksUpdateOnMove)]
    fn links_update_on_move(this: &HostFunctions) -> Option<bool>;

    /// Resolves to `{ status: "opened" }` or `{ error }`.
    #[wasm_bindgen(method, js_name = openNote)]
    fn open_note(this: &HostFunctions, path: &str, heading: Option<String>) -> js_sys::Promise;

    /// Writes the undo journal; resolves when it is stored (never rejects).
    #[wasm_bindgen(method, js_name = saveJournal)]
    fn save_journal(this: &HostFunctions, json: &str, dropped: u32) -> js_sys::Promise;

    /// Resolves to the saved vectors' bytes (`Uint8Array`) or `null` (never rejects).
    #[wasm_bindgen(method, js_name = loadVectors)]
    fn load_vectors(this: &HostFunctions) -> js_sys::Promise;

    /// Writes the vectors; resolves when they are stored (never rejects).
    #[wasm_bindgen(method, js_name = saveVectors)]
    fn save_vectors(this: &HostFunctions, bytes: &[u8]) -> js_sys::Promise;

    /// Resolves to an `OutsideListing` (never rejects).
    #[wasm_bindgen(method, js_name = outsideList)]
    fn outside_list(this: &HostFunctions, server: JsValue) -> js_sys::Promise;

    /// Resolves to an `OutsideOutcome` (never rejects).
    #[wasm_bindgen(method, js_name = outsideCall)]
    fn outside_call(this: &HostFunctions, call: JsValue) -> js_sys::Promise;
}

pub struct JsHost {
    functions: HostFunctions,
    facts: PlatformFacts,
}

impl JsHost {
    pub fn new(functions: HostFunctions, facts: PlatformFacts) -> Self {
        JsHost { functions, facts }
    }
}

impl Host for JsHost {
    async fn run_process(&self, request: &ProcessRequest) -> ProcessOutcome {
        let failed = |message: String| ProcessOutcome {
            spawn_failure: Some(SpawnFailure {
                code: "HOST_ERROR".into(),
                message,
            }),
            ..ProcessOutcome::default()
        };
        let request = match to_js(request) {
            Ok(value) => value,
            Err(e) => return failed(format!("{e:?}")),
        };
        match JsFuture::from(self.functions.run_process(request)).await {
            Ok(value) => process_outcome(&value),
            // The shim's promise should never reject; if it does, say so.
            Err(error) => failed(error.as_string().unwrap_or_else(|| format!("{error:?}"))),
        }
    }

    fn cancel_processes(&self, tag: &str) {
        self.functions.cancel_processes(tag);
    }

    async fn file_status(&self, path: &str) -> FileStatus {
        match JsFuture::from(self.functions.file_status(path)).await {
            Ok(value) => from_js(&value, &crate::base::input::SETTINGS).unwrap_or_default(),
            Err(_) => FileStatus::default(),
        }
    }

    fn env_var(&self, name: &str) -> Option<String> {
        self.functions.env(name)
    }

    fn platform(&self) -> &PlatformFacts {
        &self.facts
    }

    fn now_ms(&self) -> f64 {
        self.functions.now()
    }

    async fn resolve_host(&self, host: &str) -> Result<Vec<String>, HttpFailure> {
        let answer = JsFuture::from(self.functions.resolve_host(host))
            .await
            .map_err(|e| host_failure(e.as_string().unwrap_or_else(|| format!("{e:?}"))))?;
        if let Some(failure) = http_failure(&answer) {
            return Err(failure);
        }
        let addresses = js_sys::Reflect::get(&answer, &"addresses".into())
            .ok()
            .filter(|a| a.is_array())
            .map(|a| js_sys::Array::from(&a))
            .ok_or_else(|| host_failure("resolveHost gave no addresses".into()))?;
        Ok(addresses.iter().filter_map(|a| a.as_string()).collect())
    }

    async fn http_open(&self, request: &HttpRequest) -> Result<HttpResponseHead, HttpFailure> {
        let request = to_js(request).map_err(|e| host_failure(format!("{e:?}")))?;
        let answer = JsFuture::from(self.functions.http_open(request))
            .await
            .map_err(|e| host_failure(e.as_string().unwrap_or_else(|| format!("{e:?}"))))?;
        if let Some(failure) = http_failure(&answer) {
            return Err(failure);
        }
        from_js(&answer, &crate::base::input::SETTINGS).map_err(host_failure)
    }

    async fn http_read(&self, id: u32) -> Result<Option<Vec<u8>>, HttpFailure> {
        let answer = JsFuture::from(self.functions.http_read(id))
            .await
            .map_err(|e| host_failure(e.as_string().unwrap_or_else(|| format!("{e:?}"))))?;
        if let Some(failure) = http_failure(&answer) {
            return Err(failure);
        }
        Ok(http_chunk(&answer))
    }

    fn http_close(&self, id: u32) {
        self.functions.http_close(id);
    }

    fn local_context(&self) -> crate::base::host::LocalContext {
        // Only for the prompt: anything unreadable is simply left out.
        from_js(
            &self.functions.local_context(),
            &crate::base::input::SETTINGS,
        )
        .unwrap_or_default()
    }

    async fn sleep(&self, ms: u32) {
        let _ = JsFuture::from(self.functions.sleep(ms)).await;
    }

    fn secret(&self, name: &str) -> Option<String> {
        self.functions.secret(name)
    }

    fn pattern_matches(&self, pattern: &str, text: &str) -> Option<bool> {
        self.functions.pattern_matches(pattern, text)
    }

    fn page_text(&self, html: &str, url: &str) -> String {
        // A host that cannot parse the page still gives its words.
        self.functions
            .page_text(html, url)
            .unwrap_or_else(|_| crate::search::web_api::plain_text(html))
    }

    async fn vault_read(&self, path: &str) -> Result<String, VaultFailure> {
        let answer = JsFuture::from(self.functions.vault_read(path))
            .await
            .map_err(|e| vault_failure(&e))?;
        vault_error(&answer)?;
        js_sys::Reflect::get(&answer, &"content".into())
            .ok()
            .and_then(|c| c.as_string())
            .ok_or_else(|| VaultFailure {
                code: "host_error".into(),
                message: "the vault returned no text".into(),
            })
    }

    async fn vault_read_many(&self, paths: &[String], max_bytes: usize) -> Vec<Option<String>> {
        let list: js_sys::Array = paths.iter().map(|p| JsValue::from_str(p)).collect();
        let answer =
            match JsFuture::from(self.functions.vault_read_many(list, max_bytes as f64)).await {
                Ok(answer) if js_sys::Array::is_array(&answer) => js_sys::Array::from(&answer),
                // Nothing readable: every note counts as unread.
                _ => return vec![None; paths.len()],
            };
        // Bounded here too: never more entries than asked, never a longer text.
        (0..paths.len() as u32)
            .map(|i| {
                answer
                    .get(i)
                    .as_string()
                    .filter(|text| text.len() <= max_bytes)
            })
            .collect()
    }

    async fn vault_process(
        &self,
        path: &str,
        expected: &str,
        replacement: &str,
    ) -> Result<VaultProcessed, VaultFailure> {
        let answer = JsFuture::from(self.functions.vault_process(path, expected, replacement))
            .await
            .map_err(|e| vault_failure(&e))?;
        vault_error(&answer)?;
        from_js(&answer, &CONVERSATION).map_err(|message| VaultFailure {
            code: "host_error".into(),
            message,
        })
    }

    async fn vault_trash(&self, path: &str) -> Result<(), VaultFailure> {
        let answer = JsFuture::from(self.functions.vault_trash(path))
            .await
            .map_err(|e| vault_failure(&e))?;
        vault_error(&answer)
    }

    async fn vault_move(&self, from: &str, to: &str) -> Result<(), VaultFailure> {
        let answer = JsFuture::from(self.functions.vault_move(from, to))
            .await
            .map_err(|e| vault_failure(&e))?;
        vault_error(&answer)
    }

    async fn vault_read_bytes(
        &self,
        path: &str,
        max_bytes: usize,
    ) -> Result<Vec<u8>, VaultFailure> {
        let answer = JsFuture::from(self.functions.vault_read_bytes(path, max_bytes as f64))
            .await
            .map_err(|e| vault_failure(&e))?;
        vault_error(&answer)?;
        let bytes = js_sys::Reflect::get(&answer, &"bytes".into()).unwrap_or_default();
        if !bytes.is_instance_of::<js_sys::Uint8Array>() {
            return Err(VaultFailure {
                code: "host_error".into(),
                message: "the vault returned no bytes".into(),
            });
        }
        let bytes = js_sys::Uint8Array::from(bytes);
        // Bounded here too: never more than asked for.
        if bytes.length() as usize > max_bytes {
            return Err(VaultFailure {
                code: "too_large".into(),
                message: format!("{path} is larger than {max_bytes} bytes"),
            });
        }
        Ok(bytes.to_vec())
    }

    async fn image_data(
        &self,
        path: &str,
        pasted: bool,
        max_side: u32,
        max_bytes: usize,
    ) -> Result<crate::base::host::ImageData, VaultFailure> {
        let answer =
            JsFuture::from(
                self.functions
                    .image_data(path, pasted, max_side, max_bytes as f64),
            )
            .await
            .map_err(|e| vault_failure(&e))?;
        vault_error(&answer)?;
        let field = |name: &str| {
            js_sys::Reflect::get(&answer, &name.into())
                .ok()
                .and_then(|v| v.as_string())
                .unwrap_or_default()
        };
        let (mime, base64) = (field("mime"), field("base64"));
        // Bounded here too: never more than the provider takes.
        if base64.is_empty() || base64.len() / 4 * 3 > max_bytes + 3 {
            return Err(VaultFailure {
                code: "too_large".into(),
                message: format!("{path} is empty or larger than {max_bytes} bytes"),
            });
        }
        Ok(crate::base::host::ImageData { mime, base64 })
    }

    async fn pdf_text(
        &self,
        path: &str,
        max_bytes: usize,
        first: usize,
        last: usize,
    ) -> Result<crate::base::host::PdfText, VaultFailure> {
        let answer = JsFuture::from(self.functions.pdf_text(
            path,
            max_bytes as f64,
            first as f64,
            last as f64,
        ))
        .await
        .map_err(|e| vault_failure(&e))?;
        vault_error(&answer)?;
        let pages = js_sys::Reflect::get(&answer, &"pages".into()).unwrap_or_default();
        let total = js_sys::Reflect::get(&answer, &"total".into())
            .ok()
            .and_then(|t| t.as_f64());
        let (Some(total), true) = (total, js_sys::Array::is_array(&pages)) else {
            return Err(VaultFailure {
                code: "host_error".into(),
                message: "PDF.js returned no pages".into(),
            });
        };
        // Never more pages than were asked for, whatever the host gave.
        Ok(crate::base::host::PdfText {
            total: total as usize,
            pages: js_sys::Array::from(&pages)
                .iter()
                .take((last + 1).saturating_sub(first))
                .map(|page| page.as_string().unwrap_or_default())
                .collect(),
        })
    }

    async fn vault_create(&self, path: &str, bytes: &[u8]) -> Result<(), VaultFailure> {
        let answer = JsFuture::from(self.functions.vault_create(path, bytes))
            .await
            .map_err(|e| vault_failure(&e))?;
        vault_error(&answer)
    }

    async fn real_path(&self, path: &str) -> Result<String, VaultFailure> {
        let answer = JsFuture::from(self.functions.real_path(path))
            .await
            .map_err(|e| vault_failure(&e))?;
        vault_error(&answer)?;
        js_sys::Reflect::get(&answer, &"path".into())
            .ok()
            .and_then(|p| p.as_string())
            .ok_or_else(|| VaultFailure {
                code: "host_error".into(),
                message: "the real path was not given".into(),
            })
    }

    fn vault_notes(&self) -> crate::base::host::VaultNotes {
        // Unreadable: nothing is indexed (the search then finds nothing
        // rather than guessing).
        from_js(
            &self.functions.vault_notes(),
            &crate::base::input::CONVERSATION,
        )
        .unwrap_or_default()
    }

    async fn vault_links(&self, vault: &str) -> Vec<crate::base::host::VaultLink> {
        #[derive(serde::Deserialize, Default)]
        #[serde(default)]
        struct Answer {
            links: Vec<crate::base::host::VaultLink>,
        }
        // A listing that failed lists nothing; each read is still checked
        // on its own real path (`engine::edge::real_read_refusal`).
        let Ok(answer) = JsFuture::from(self.functions.vault_links(vault)).await else {
            return Vec::new();
        };
        from_js::<Answer>(&answer, &crate::base::input::CONVERSATION)
            .unwrap_or_default()
            .links
    }

    fn links_update_on_move(&self) -> Option<bool> {
        self.functions.links_update_on_move()
    }

    async fn open_note(&self, path: &str, heading: Option<&str>) -> Result<(), VaultFailure> {
        let answer = JsFuture::from(self.functions.open_note(path, heading.map(str::to_string)))
            .await
            .map_err(|e| vault_failure(&e))?;
        vault_error(&answer)
    }

    async fn save_journal(&self, json: &str, dropped: usize) {
        let dropped = u32::try_from(dropped).unwrap_or(u32::MAX);
        // A journal that could not be written is the shim's to report.
        let _ = JsFuture::from(self.functions.save_journal(json, dropped)).await;
    }

    async fn load_vectors(&self) -> Option<Vec<u8>> {
        let answer = JsFuture::from(self.functions.load_vectors()).await.ok()?;
        answer
            .dyn_ref::<js_sys::Uint8Array>()
            .map(js_sys::Uint8Array::to_vec)
    }

    async fn save_vectors(&self, bytes: &[u8]) {
        // Vectors that could not be written are the shim's to report.
        let _ = JsFuture::from(self.functions.save_vectors(bytes)).await;
    }

    async fn outside_list(&self, server: &OutsideConnect) -> OutsideListing {
        let failed = |error: String| OutsideListing {
            error: Some(error),
            ..OutsideListing::default()
        };
        let Ok(server) = to_js(server) else {
            return failed("the server's settings could not be handed over".into());
        };
        match JsFuture::from(self.functions.outside_list(server)).await {
            Ok(value) => from_js(&value, &CONVERSATION).unwrap_or_else(failed),
            Err(error) => failed(error.as_string().unwrap_or_else(|| format!("{error:?}"))),
        }
    }

    async fn outside_call(&self, call: &OutsideCall) -> OutsideOutcome {
        let failed = |message: String| OutsideOutcome::Unreachable { message };
        let Ok(call) = to_js(call) else {
            return failed("the call could not be handed over".into());
        };
        match JsFuture::from(self.functions.outside_call(call)).await {
            Ok(value) => from_js(&value, &CONVERSATION).unwrap_or_else(failed),
            Err(error) => failed(error.as_string().unwrap_or_else(|| format!("{error:?}"))),
        }
    }
}

/// `{ error: { code, message } }` from a vault host function, as an Err.
fn vault_error(answer: &wasm_bindgen::JsValue) -> Result<(), VaultFailure> {
    let error = js_sys::Reflect::get(answer, &"error".into()).unwrap_or_default();
    if error.is_undefined() || error.is_null() {
        return Ok(());
    }
    Err(
        from_js(&error, &crate::base::input::SETTINGS).unwrap_or(VaultFailure {
            code: "host_error".into(),
            message: "unreadable error".into(),
        }),
    )
}

fn vault_failure(error: &wasm_bindgen::JsValue) -> VaultFailure {
    VaultFailure {
        code: "host_error".into(),
        message: error.as_string().unwrap_or_else(|| format!("{error:?}")),
    }
}

fn host_failure(message: String) -> HttpFailure {
    HttpFailure {
        code: "HOST_ERROR".into(),
        message,
    }
}
