//! Every conversion between JS values and core types, in one place.

use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::{JsCast, JsError, JsValue};

use crate::host::{HttpFailure, ProcessOutcome, SpawnFailure};

/// Core values become plain JS objects (maps as objects, not `Map`).
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(into_error)
}

pub fn from_js<T: DeserializeOwned>(value: JsValue) -> Result<T, serde_wasm_bindgen::Error> {
    serde_wasm_bindgen::from_value(value)
}

pub fn into_error<E: std::fmt::Display>(error: E) -> JsError {
    JsError::new(&error.to_string())
}

/// Reads the shim's process outcome. Output streams arrive as `Uint8Array`s
/// so that the core can cut them on a UTF-8 boundary itself.
pub fn process_outcome(value: &JsValue) -> ProcessOutcome {
    let get = |key: &str| {
        js_sys::Reflect::get(value, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
    };
    let bytes = |key: &str| {
        get(key)
            .dyn_into::<js_sys::Uint8Array>()
            .map(|a| a.to_vec())
            .unwrap_or_default()
    };
    let count = |key: &str, fallback: usize| {
        get(key)
            .as_f64()
            .map(|n| n.max(0.0) as u64)
            .unwrap_or(fallback as u64)
    };
    let stdout = bytes("stdout");
    let stderr = bytes("stderr");
    let spawn_failure = get("spawnFailure");
    ProcessOutcome {
        spawn_failure: (!spawn_failure.is_null() && !spawn_failure.is_undefined()).then(|| {
            SpawnFailure {
                code: js_sys::Reflect::get(&spawn_failure, &"code".into())
                    .ok()
                    .and_then(|v| v.as_string())
                    .unwrap_or_else(|| "UNKNOWN".into()),
                message: js_sys::Reflect::get(&spawn_failure, &"message".into())
                    .ok()
                    .and_then(|v| v.as_string())
                    .unwrap_or_default(),
            }
        }),
        exit_code: get("exitCode").as_f64().map(|n| n as i32),
        signal: get("signal").as_string(),
        timed_out: get("timedOut").is_truthy(),
        output_overflow: get("outputOverflow").is_truthy(),
        stdout_total_bytes: count("stdoutTotalBytes", stdout.len()),
        stderr_total_bytes: count("stderrTotalBytes", stderr.len()),
        stdout,
        stderr,
    }
}

/// `{ error: { code, message } }` from an HTTP host function, if it is one.
pub fn http_failure(value: &JsValue) -> Option<HttpFailure> {
    let error = js_sys::Reflect::get(value, &"error".into()).ok()?;
    if error.is_undefined() || error.is_null() {
        return None;
    }
    Some(from_js(error).unwrap_or(HttpFailure {
        code: "HOST_ERROR".into(),
        message: "unreadable error".into(),
    }))
}

/// The bytes of `{ chunk: Uint8Array }`, or `None` for `{ done: true }`.
pub fn http_chunk(value: &JsValue) -> Option<Vec<u8>> {
    js_sys::Reflect::get(value, &"chunk".into())
        .ok()?
        .dyn_into::<js_sys::Uint8Array>()
        .ok()
        .map(|bytes| bytes.to_vec())
}
