//! JSON-RPC 2.0 as MCP uses it: one message per HTTP request, or a batch
//! where the session's revision has them (2025-03-26 and before; 2025-06-18
//! removed them), ids that are strings or integers, and the standard error
//! codes.

use serde_json::{json, Map, Value};

pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const METHOD_NOT_FOUND: i64 = -32601;
pub const INVALID_PARAMS: i64 = -32602;
pub const INTERNAL_ERROR: i64 = -32603;
/// MCP's code for a resource that does not exist (or may not be read).
pub const RESOURCE_NOT_FOUND: i64 = -32002;
/// Server errors (-32000 to -32099): too many calls at once.
pub const SERVER_BUSY: i64 = -32000;
/// The client cancelled the request (the LSP code, which MCP clients know).
pub const REQUEST_CANCELLED: i64 = -32800;

/// One message a client posted.
#[derive(Clone, Debug, PartialEq)]
pub enum Incoming {
    Request {
        id: Value,
        method: String,
        params: Map<String, Value>,
    },
    Notification {
        method: String,
        params: Map<String, Value>,
    },
    /// A response to a request of ours; this server sends none, so it is
    /// acknowledged and dropped.
    Response,
}

/// An error as JSON-RPC sends it.
#[derive(Clone, Debug, PartialEq)]
pub struct RpcError {
    pub code: i64,
    pub message: String,
    /// What the client may act on (2026-07-28's unsupported-version error
    /// lists the revisions spoken).
    pub data: Option<Box<Value>>,
}

impl RpcError {
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        RpcError {
            code,
            message: message.into(),
            data: None,
        }
    }

    pub fn params(message: impl Into<String>) -> Self {
        RpcError::new(INVALID_PARAMS, message)
    }
}

/// A posted body: one message, or a batch of them.
#[derive(Clone, Debug, PartialEq)]
pub enum Posted {
    One(Incoming),
    /// Each message as read, in the order posted; a bad one is its error.
    Batch(Vec<Result<Incoming, (Value, RpcError)>>),
}

/// A message that failed to be read: its id when one could be read (so the
/// client can match the error), and the error.
pub type Unreadable = (Value, RpcError);

/// Reads one posted body. Whether a batch may be posted at all is the
/// session's revision's to say (`serve`).
pub fn parse(body: &str) -> Result<Posted, Unreadable> {
    let value =
        crate::base::input::parse_bounded(body, &crate::base::input::MCP_MESSAGE).map_err(|e| {
            (
                Value::Null,
                RpcError::new(PARSE_ERROR, format!("Parse error: {e}.")),
            )
        })?;
    match value {
        Value::Array(items) if items.is_empty() => Err((
            Value::Null,
            RpcError::new(INVALID_REQUEST, "Invalid request: the batch is empty."),
        )),
        Value::Array(items) if items.len() > super::MAX_BATCH => Err((
            Value::Null,
            RpcError::new(
                INVALID_REQUEST,
                format!(
                    "Invalid request: a batch may hold at most {} messages; post the rest separately.",
                    super::MAX_BATCH
                ),
            ),
        )),
        Value::Array(items) => Ok(Posted::Batch(items.into_iter().map(message).collect())),
        value => message(value).map(Posted::One),
    }
}

/// Reads one message.
fn message(value: Value) -> Result<Incoming, Unreadable> {
    let object = match value {
        Value::Object(object) => object,
        _ => {
            return Err((
                Value::Null,
                RpcError::new(
                    INVALID_REQUEST,
                    "Invalid request: send one JSON-RPC object.",
                ),
            ))
        }
    };
    let id = object.get("id").cloned();
    let invalid = |message: &str| {
        Err((
            id.clone().filter(valid_id).unwrap_or(Value::Null),
            RpcError::new(INVALID_REQUEST, format!("Invalid request: {message}")),
        ))
    };
    if object.get("jsonrpc") != Some(&json!("2.0")) {
        return invalid("`jsonrpc` must be \"2.0\".");
    }
    let params = match object.get("params") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(params)) => params.clone(),
        Some(_) => return invalid("`params` must be an object."),
    };
    match (object.get("method"), &id) {
        (Some(Value::String(method)), Some(id)) if valid_id(id) => Ok(Incoming::Request {
            id: id.clone(),
            method: method.clone(),
            params,
        }),
        (Some(Value::String(_)), Some(_)) => {
            invalid("`id` must be a string or an integer (MCP does not allow null).")
        }
        (Some(Value::String(method)), None) => Ok(Incoming::Notification {
            method: method.clone(),
            params,
        }),
        (Some(_), _) => invalid("`method` must be text."),
        (None, Some(_)) if object.contains_key("result") || object.contains_key("error") => {
            Ok(Incoming::Response)
        }
        (None, _) => invalid("a message needs a `method`."),
    }
}

fn valid_id(id: &Value) -> bool {
    id.is_string() || id.is_i64() || id.is_u64()
}

pub fn result(id: &Value, result: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": result })
}

pub fn error(id: &Value, error: &RpcError) -> Value {
    let mut body = json!({ "code": error.code, "message": error.message });
    if let Some(data) = &error.data {
        body["data"] = (**data).clone();
    }
    json!({ "jsonrpc": "2.0", "id": id, "error": body })
}

pub fn notification(method: &str, params: Value) -> Value {
    json!({ "jsonrpc": "2.0", "method": method, "params": params })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(body: &str) -> Result<Incoming, Unreadable> {
        match parse(body)? {
            Posted::One(incoming) => Ok(incoming),
            Posted::Batch(_) => panic!("not one message: {body}"),
        }
    }

    #[test]
    fn messages_are_told_apart() {
        assert_eq!(
            one(r#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#).unwrap(),
            Incoming::Request {
                id: json!(7),
                method: "ping".into(),
                params: Map::new()
            }
        );
        assert!(matches!(
            one(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).unwrap(),
            Incoming::Notification { .. }
        ));
        assert_eq!(
            one(r#"{"jsonrpc":"2.0","id":"a","result":{}}"#).unwrap(),
            Incoming::Response
        );
    }

    #[test]
    fn a_batch_is_read_message_by_message() {
        let Posted::Batch(items) =
            parse(r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},7,{"jsonrpc":"2.0","method":"n"}]"#)
                .unwrap()
        else {
            panic!("a batch");
        };
        assert!(matches!(items[0], Ok(Incoming::Request { .. })));
        assert_eq!(items[1].as_ref().unwrap_err().1.code, INVALID_REQUEST);
        assert!(matches!(items[2], Ok(Incoming::Notification { .. })));
        let long = format!(
            "[{}]",
            vec!["{}"; crate::doors::mcp::MAX_BATCH + 1].join(",")
        );
        assert_eq!(parse(&long).unwrap_err().1.code, INVALID_REQUEST);
    }

    #[test]
    fn malformed_messages_get_the_standard_codes() {
        let code = |body: &str| one(body).unwrap_err().1.code;
        assert_eq!(code("{"), PARSE_ERROR);
        assert_eq!(code("[]"), INVALID_REQUEST);
        assert_eq!(code("3"), INVALID_REQUEST);
        assert_eq!(code(r#"{"id":1,"method":"ping"}"#), INVALID_REQUEST);
        assert_eq!(
            code(r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#),
            INVALID_REQUEST
        );
        assert_eq!(
            code(r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#),
            INVALID_REQUEST
        );
        assert_eq!(
            code(r#"{"jsonrpc":"2.0","id":1,"method":7}"#),
            INVALID_REQUEST
        );
        assert_eq!(
            code(r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}"#),
            INVALID_REQUEST
        );
        // The id is kept when it is valid, so the client can match the error.
        assert_eq!(
            one(r#"{"jsonrpc":"1.0","id":"x","method":"ping"}"#)
                .unwrap_err()
                .0,
            json!("x")
        );
    }
}
