//! Every conversion between JS values and core types, in one place.

use std::future::Future;
use std::pin::Pin;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::{JsCast, JsError, JsValue};

use crate::base::host::{HttpFailure, ProcessOutcome, SpawnFailure};
use crate::base::input::{parse_bounded, parse_lenient, InputLimits, InputProblem, Lenient};

/// A core future as a JS promise. Boxed first, so wasm-bindgen's promise
/// machinery exists once in the module instead of once per future type
/// (about 1.5 KB each, for each async method of the class).
pub fn promise(
    future: impl Future<Output = Result<JsValue, JsValue>> + 'static,
) -> js_sys::Promise {
    boxed_promise(Box::pin(future))
}

#[inline(never)]
fn boxed_promise(
    future: Pin<Box<dyn Future<Output = Result<JsValue, JsValue>>>>,
) -> js_sys::Promise {
    wasm_bindgen_futures::future_to_promise(future)
}

/// Core values become plain JS objects, through JSON text and the engine's
/// `JSON.parse`: every boundary type then shares serde_json's serializer
/// (which the core has anyway) instead of a second one per type.
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    json_to_js(serde_json::to_string(value))
}

/// The part of `to_js` that does not depend on the type, kept out of its
/// copies (one per boundary type).
#[inline(never)]
fn json_to_js(text: serde_json::Result<String>) -> Result<JsValue, JsError> {
    let text = text.map_err(into_error)?;
    js_sys::JSON::parse(&text).map_err(|error| JsError::new(&js_error_text(&error)))
}

/// A JS value entering the core, as JSON within `limits`. The engine's own
/// `JSON.stringify` walks the value (a BigInt, a cycle, a throwing getter or
/// Proxy trap fails there, outside the core); the text's length is checked
/// before it is copied in, and its depth before it is parsed. Walking the JS
/// value from Rust instead overflowed the wasm stack on deep values and left
/// the module unusable.
pub fn value_from_js(value: &JsValue, limits: &InputLimits) -> Result<Value, InputProblem> {
    if value.is_undefined() || value.is_null() {
        return Ok(Value::Null);
    }
    let text = js_sys::JSON::stringify(value)
        .map_err(|error| InputProblem::NotPlainData(js_error_text(&error)))?;
    if text.is_undefined() {
        // A function or a symbol: nothing JSON can hold.
        return Err(InputProblem::NotPlainData(
            "a function or symbol, not data".into(),
        ));
    }
    // UTF-16 units: a lower bound of the UTF-8 size, checked before copying.
    let units = text.length() as usize;
    if units > limits.max_total_bytes {
        return Err(InputProblem::TooLarge {
            bytes: units,
            max: limits.max_total_bytes,
        });
    }
    parse_bounded(&String::from(text), limits)
}

/// `value_from_js`, then the core type.
pub fn from_js<T: DeserializeOwned>(value: &JsValue, limits: &InputLimits) -> Result<T, String> {
    let value = value_from_js(value, limits).map_err(|p| p.to_string())?;
    serde_json::from_value(value).map_err(|e| e.to_string())
}

/// Stored data that must load whatever it holds (`data.json`): what cannot
/// be read becomes `null` with a line saying so, and the reader's defaults
/// apply; a whole that cannot be read is marked so (`Lenient::unreadable`).
pub fn lenient_from_js(value: &JsValue, limits: &InputLimits) -> Lenient {
    if value.is_undefined() || value.is_null() {
        return Lenient::nothing();
    }
    let text = match js_sys::JSON::stringify(value) {
        Ok(text) if !text.is_undefined() => text,
        Ok(_) => {
            return Lenient::unreadable(
                "the stored data is not JSON data; defaults are used".into(),
            )
        }
        Err(error) => {
            return Lenient::unreadable(format!(
                "the stored data could not be read ({}); defaults are used",
                js_error_text(&error)
            ))
        }
    };
    let units = text.length() as usize;
    if units > limits.max_total_bytes {
        let problem = InputProblem::TooLarge {
            bytes: units,
            max: limits.max_total_bytes,
        };
        return Lenient::unreadable(format!(
            "the stored data was ignored: {problem}; defaults are used"
        ));
    }
    parse_lenient(&String::from(text), limits)
}

/// A short text from JS (an id, a hash), refused when it is not text or is
/// longer than `max` characters, before it is copied in.
pub fn short_text(value: &JsValue, max: usize) -> Option<String> {
    let text = value.dyn_ref::<js_sys::JsString>()?;
    if text.length() as usize > max {
        return None;
    }
    text.as_string()
}

/// The message of a thrown JS value, cut short.
fn js_error_text(error: &JsValue) -> String {
    let message = error
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| error.as_string())
        .unwrap_or_else(|| "a value that is not plain data".into());
    message.chars().take(200).collect()
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
    Some(
        from_js(&error, &crate::base::input::SETTINGS).unwrap_or(HttpFailure {
            code: "HOST_ERROR".into(),
            message: "unreadable error".into(),
        }),
    )
}

/// The bytes of `{ chunk: Uint8Array }`, or `None` for `{ done: true }`.
pub fn http_chunk(value: &JsValue) -> Option<Vec<u8>> {
    js_sys::Reflect::get(value, &"chunk".into())
        .ok()?
        .dyn_into::<js_sys::Uint8Array>()
        .ok()
        .map(|bytes| bytes.to_vec())
}
