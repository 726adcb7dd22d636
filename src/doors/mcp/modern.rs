//! MCP revision 2026-07-28 and later, the sessionless era: no `initialize`,
//! no `Mcp-Session-Id`; every request names its revision, its client and
//! that client's capabilities in `params._meta`, the HTTP headers
//! `MCP-Protocol-Version` and `Mcp-Method` repeat what the body says, and
//! `server/discover` tells a client what the server speaks. Which era a
//! posted body belongs to, what is wrong with a sessionless one, and how its
//! results are stamped are decided here; `serve.rs` runs the request itself
//! as it runs a session's.

use serde_json::{json, Map, Value};

use super::jsonrpc::{self, Incoming, Posted, RpcError};
use super::{McpExchange, McpReply, SUPPORTED_VERSIONS};

/// The sessionless revisions this server speaks, newest first.
pub const MODERN_VERSIONS: [&str; 1] = ["2026-07-28"];
/// The `_meta` keys of the per-request envelope.
pub const PROTOCOL_VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";
pub const CLIENT_INFO_KEY: &str = "io.modelcontextprotocol/clientInfo";
pub const CLIENT_CAPABILITIES_KEY: &str = "io.modelcontextprotocol/clientCapabilities";
pub const SERVER_INFO_KEY: &str = "io.modelcontextprotocol/serverInfo";
/// The revision's code for a revision the server does not speak; its data
/// lists the ones it does, so that the client can ask again in one of them.
pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
/// The revision's code for headers that disagree with the body.
pub const HEADER_MISMATCH: i64 = -32020;
/// The methods whose results a 2026-07-28 client may cache; they carry
/// `ttlMs` and `cacheScope`. Nothing here may be cached: the vault changes
/// under the client, and a list is the user's (per token).
const CACHEABLE: [&str; 6] = [
    "tools/list",
    "prompts/list",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "server/discover",
];

/// A sessionless request's revision and who sent it.
#[derive(Clone, Debug, PartialEq)]
pub struct Envelope {
    pub version: &'static str,
    pub client_name: Option<String>,
    pub client_version: Option<String>,
}

/// Whether a revision belongs to the sessionless era (revisions are dates,
/// so they order as text).
pub fn is_modern(version: &str) -> bool {
    version >= MODERN_VERSIONS[MODERN_VERSIONS.len() - 1]
}

/// The revision a message's `_meta` envelope names, if it names one.
fn claimed(incoming: &Incoming) -> Option<&str> {
    let params = match incoming {
        Incoming::Request { params, .. } | Incoming::Notification { params, .. } => params,
        Incoming::Response => return None,
    };
    params.get("_meta")?.get(PROTOCOL_VERSION_KEY)?.as_str()
}

fn method_of(incoming: &Incoming) -> Option<&str> {
    match incoming {
        Incoming::Request { method, .. } | Incoming::Notification { method, .. } => Some(method),
        Incoming::Response => None,
    }
}

/// Which era a posted body belongs to: `None` for the session era (an
/// `initialize`, or a message of a session: the code that was here before
/// this revision answers it, unchanged), `Some(Ok)` for a sessionless
/// request to run, `Some(Err)` for one that is refused with this answer.
/// The body decides; the header is a cross-check. A message is sessionless
/// when its envelope names a revision, when it is `server/discover` without
/// a session, or when the header names a sessionless revision.
pub fn classify(exchange: &McpExchange, posted: &Posted) -> Option<Result<Envelope, McpReply>> {
    let header = exchange.header("mcp-protocol-version");
    let header_modern = header.is_some_and(is_modern);
    let incoming = match posted {
        Posted::One(incoming) => incoming,
        Posted::Batch(_) if header_modern => {
            return Some(Err(refuse(
                &Value::Null,
                RpcError::new(
                    jsonrpc::INVALID_REQUEST,
                    "Invalid request: batches are not part of MCP 2026-07-28; post one message per request.",
                ),
            )))
        }
        Posted::Batch(_) => return None,
    };
    let id = match incoming {
        Incoming::Request { id, .. } => id.clone(),
        _ => Value::Null,
    };
    let method = method_of(incoming);
    let claim = claimed(incoming);
    let discover = method == Some("server/discover") && exchange.header("mcp-session-id").is_none();
    if claim.is_none() && !header_modern && !discover {
        return None;
    }
    if let Incoming::Request { method, params, .. } = incoming {
        if let Err(error) = check_request(exchange, method, params) {
            return Some(Err(refuse(&id, error)));
        }
    }
    if let (Some(header), Some(claim)) = (header, claim) {
        if header != claim {
            return Some(Err(refuse(
                &id,
                RpcError::new(
                    HEADER_MISMATCH,
                    format!("Header mismatch: MCP-Protocol-Version says {header:?} but the request's _meta names {claim:?}; send the same revision in both."),
                ),
            )));
        }
    }
    if let (Some(header), Some(method)) = (exchange.header("mcp-method"), method) {
        if header != method {
            return Some(Err(refuse(
                &id,
                RpcError::new(
                    HEADER_MISMATCH,
                    format!("Header mismatch: Mcp-Method says {header:?} but the body's method is {method:?}; send the same method in both."),
                ),
            )));
        }
    }
    // A notification without an envelope is taken as our newest revision.
    let requested = claim.or(header).unwrap_or(MODERN_VERSIONS[0]);
    let Some(version) = MODERN_VERSIONS.iter().find(|v| **v == requested) else {
        let hint = if is_modern(requested) {
            String::new()
        } else {
            format!(" ({requested} and the revisions before it start with `initialize`, which opens a session)")
        };
        let mut error = RpcError::new(
            UNSUPPORTED_PROTOCOL_VERSION,
            format!(
                "Unsupported protocol version {requested:?} for a request without a session{hint}; this server speaks {} without sessions.",
                MODERN_VERSIONS.join(", ")
            ),
        );
        error.data = Some(Box::new(
            json!({ "supported": supported_versions(), "requested": requested }),
        ));
        return Some(Err(refuse(&id, error)));
    };
    let info = match incoming {
        Incoming::Request { params, .. } | Incoming::Notification { params, .. } => params
            .get("_meta")
            .and_then(|m| m.get(CLIENT_INFO_KEY))
            .and_then(Value::as_object),
        Incoming::Response => None,
    };
    let text = |key: &str| {
        info.and_then(|i| i.get(key))
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    Some(Ok(Envelope {
        version,
        client_name: text("title").or_else(|| text("name")),
        client_version: text("version"),
    }))
}

/// What the revision requires of every request before it is run, in its
/// order: the envelope in `_meta` (its revision and the client's
/// capabilities; the client's name is optional), then the headers that
/// repeat the body for the HTTP layer: `MCP-Protocol-Version`, `Mcp-Method`,
/// and `Mcp-Name` for the methods that name a tool or a resource. A header
/// that is missing counts as one that disagrees: a proxy that routes on it
/// would route this request elsewhere.
fn check_request(
    exchange: &McpExchange,
    method: &str,
    params: &Map<String, Value>,
) -> Result<(), RpcError> {
    let Some(meta) = params.get("_meta").and_then(Value::as_object) else {
        return Err(RpcError::new(
            jsonrpc::INVALID_PARAMS,
            format!("Invalid params: a request without a session carries `params._meta` with {PROTOCOL_VERSION_KEY:?} and {CLIENT_CAPABILITIES_KEY:?}; add them (or send `initialize` to open a session)."),
        ));
    };
    let missing: Vec<&str> = [PROTOCOL_VERSION_KEY, CLIENT_CAPABILITIES_KEY]
        .into_iter()
        .filter(|key| !meta.contains_key(*key))
        .collect();
    if !missing.is_empty() {
        return Err(RpcError::new(
            jsonrpc::INVALID_PARAMS,
            format!("Invalid params: `params._meta` lacks {}; a request without a session names its revision and the client's capabilities there.", missing.join(" and ")),
        ));
    }
    let mismatch = |text: String| {
        Err(RpcError::new(
            HEADER_MISMATCH,
            format!("Header mismatch: {text}"),
        ))
    };
    if exchange.header("mcp-protocol-version").is_none() {
        return mismatch("the MCP-Protocol-Version header is missing; send the revision that `_meta` names in it too.".into());
    }
    if exchange.header("mcp-method").is_none() {
        return mismatch(format!(
            "the Mcp-Method header is missing; send {method:?} in it too."
        ));
    }
    let named = match method {
        "tools/call" | "prompts/get" => ("name", params.get("name")),
        "resources/read" => ("uri", params.get("uri")),
        _ => return Ok(()),
    };
    let (key, Some(Value::String(name))) = named else {
        return Ok(());
    };
    match exchange.header("mcp-name").map(header_text) {
        Some(Some(header)) if header == *name => Ok(()),
        Some(_) => mismatch(format!(
            "Mcp-Name does not match the body's {key} {name:?}; send the same {key} in both."
        )),
        None => mismatch(format!(
            "the Mcp-Name header is missing; send the body's {key} {name:?} in it too."
        )),
    }
}

/// A header's value as text: as it is, or decoded when it came as
/// `=?base64?…?=` (how a client sends a name that is not plain ASCII).
/// `None` when that encoding is damaged.
fn header_text(raw: &str) -> Option<String> {
    use base64::Engine;
    let Some(encoded) = raw
        .strip_prefix("=?base64?")
        .and_then(|r| r.strip_suffix("?="))
    else {
        return Some(raw.to_string());
    };
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .ok()?;
    String::from_utf8(bytes).ok()
}

/// The methods of the session era that this revision dropped: answered as
/// methods not found, saying what replaced them.
pub fn removed(method: &str, version: &str) -> Option<RpcError> {
    let instead = match method {
        "initialize" => "send each request with the revision in `_meta` (`server/discover` says what this server offers), or initialize without naming a 2026 revision in `_meta`",
        "ping" => "any request shows that the server answers (`server/discover` is the cheapest)",
        _ => return None,
    };
    Some(RpcError::new(
        jsonrpc::METHOD_NOT_FOUND,
        format!("Method not found: {method:?}; MCP {version} has no `{method}`: {instead}."),
    ))
}

/// The HTTP status of a sessionless error: a method the server does not
/// have is 404, as the revision asks; every other error rides a 200.
pub fn error_status(code: i64) -> u16 {
    if code == jsonrpc::METHOD_NOT_FOUND {
        404
    } else {
        200
    }
}

/// A refused sessionless request: HTTP 400 with the JSON-RPC error, which
/// the revision's clients read as the answer.
fn refuse(id: &Value, error: RpcError) -> McpReply {
    McpReply::json(400, &jsonrpc::error(id, &error))
}

/// Every revision this server speaks, the sessionless ones first.
pub fn supported_versions() -> Vec<&'static str> {
    MODERN_VERSIONS
        .iter()
        .chain(SUPPORTED_VERSIONS.iter())
        .copied()
        .collect()
}

/// The answer to `server/discover` (before `stamp`).
pub fn discover(capabilities: Value, instructions: &str) -> Value {
    json!({
        "supportedVersions": supported_versions(),
        "capabilities": capabilities,
        "instructions": instructions,
    })
}

/// Who this server is, as `initialize` and the envelope's `_meta` say it.
pub fn server_info() -> Value {
    json!({
        "name": "vault-agent",
        "title": "Vault Agent",
        "version": env!("CARGO_PKG_VERSION"),
    })
}

/// A sessionless result as the revision requires it: `resultType`
/// (`complete`: this server asks no questions back), the cache hints on the
/// methods that carry them (none: cache nothing, for this client only), and
/// the server's identity in `_meta`.
pub fn stamp(method: &str, result: Value) -> Value {
    let Value::Object(mut result) = result else {
        return result;
    };
    result
        .entry("resultType")
        .or_insert_with(|| json!("complete"));
    if CACHEABLE.contains(&method) {
        result.entry("ttlMs").or_insert_with(|| json!(0));
        result
            .entry("cacheScope")
            .or_insert_with(|| json!("private"));
    }
    let meta = result
        .entry("_meta")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Some(meta) = meta.as_object_mut() {
        meta.entry(SERVER_INFO_KEY).or_insert_with(server_info);
    }
    Value::Object(result)
}

/// A sessionless error as the revision numbers it: "resource not found"
/// became invalid params.
pub fn error_code(code: i64) -> i64 {
    if code == jsonrpc::RESOURCE_NOT_FOUND {
        jsonrpc::INVALID_PARAMS
    } else {
        code
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn revisions_are_told_apart_by_date() {
        assert!(is_modern("2026-07-28"));
        assert!(is_modern("2027-01-01"));
        assert!(!is_modern("2025-11-25"));
        assert!(SUPPORTED_VERSIONS.iter().all(|v| !is_modern(v)));
    }

    #[test]
    fn a_result_is_stamped_once() {
        let listed = stamp("tools/list", json!({"tools": []}));
        assert_eq!(listed["resultType"], "complete");
        assert_eq!(listed["ttlMs"], 0);
        assert_eq!(listed["cacheScope"], "private");
        assert_eq!(listed["_meta"][SERVER_INFO_KEY]["name"], "vault-agent");
        let called = stamp("tools/call", json!({"content": [], "_meta": {"x": 1}}));
        assert!(called.get("ttlMs").is_none(), "a call is not cacheable");
        assert_eq!(called["_meta"]["x"], 1, "the result's own _meta is kept");
        assert_eq!(
            error_code(jsonrpc::RESOURCE_NOT_FOUND),
            jsonrpc::INVALID_PARAMS
        );
    }
}
