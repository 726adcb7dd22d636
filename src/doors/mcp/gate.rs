//! Who may talk to the MCP server at all, decided from the headers before
//! any body is read (`admit`): the path, a loopback `Host` (DNS rebinding),
//! a loopback `Origin` when a browser sends one, the bearer token, and the
//! declared size; then the size of the body that came (`check`). A refusal
//! says what to fix and nothing about the vault.

use serde_json::json;

use super::{McpExchange, McpReply, MAX_BODY_BYTES};

/// The only path the server answers.
pub const ENDPOINT: &str = "/mcp";

/// The first check of the headers that fails, as the HTTP answer to send;
/// when all pass, the index in `tokens` of the token presented. The body is
/// not looked at: the listener asks this before it reads one.
pub fn admit(exchange: &McpExchange, tokens: &[&str]) -> Result<usize, McpReply> {
    let path = exchange.path.split('?').next().unwrap_or("");
    if path != ENDPOINT {
        return Err(refusal(
            404,
            "Not found: the MCP endpoint is /mcp.".to_string(),
        ));
    }
    let host = exchange.header("host").unwrap_or("");
    if !is_loopback_host(host, exchange.port) {
        return Err(refusal(
            403,
            format!(
                "Forbidden: the Host header must be 127.0.0.1:{} (or localhost); requests for other names are refused.",
                exchange.port
            ),
        ));
    }
    if let Some(origin) = exchange.header("origin") {
        if !is_loopback_origin(origin) {
            return Err(refusal(
                403,
                "Forbidden: requests from web pages are refused (the Origin is not this computer)."
                    .into(),
            ));
        }
    }
    let presented = exchange.header("authorization").and_then(bearer);
    let authorised = presented.and_then(|presented| {
        tokens
            .iter()
            .position(|token| !token.is_empty() && same_secret(token, presented))
    });
    let Some(index) = authorised else {
        let mut reply = refusal(
            401,
            "Unauthorized: send the token from Vault Agent's settings (Agents) as `Authorization: Bearer <token>`.".into(),
        );
        reply.headers.push((
            "www-authenticate".into(),
            "Bearer realm=\"vault-agent\"".into(),
        ));
        return Err(reply);
    };
    let declared = exchange
        .header("content-length")
        .and_then(|n| n.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY_BYTES as u64) {
        return Err(too_large());
    }
    Ok(index)
}

/// `admit`, then the body that came: the index of the token presented.
pub fn check(exchange: &McpExchange, tokens: &[&str]) -> Result<usize, McpReply> {
    let index = admit(exchange, tokens)?;
    if exchange.body_too_large || exchange.body.len() > MAX_BODY_BYTES {
        return Err(too_large());
    }
    Ok(index)
}

fn too_large() -> McpReply {
    refusal(
        413,
        format!(
            "Payload too large: a request body may be at most {} MiB.",
            MAX_BODY_BYTES / (1024 * 1024)
        ),
    )
}

/// The credentials of `Authorization: Bearer <token>`; the scheme's name is
/// case-insensitive (RFC 9110 §11.1), and one or more spaces follow it.
fn bearer(value: &str) -> Option<&str> {
    let (scheme, rest) = value.trim_start().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| rest.trim())
        .filter(|token| !token.is_empty())
}

/// A refusal before any message was read: JSON-RPC error shape, id null.
pub fn refusal(status: u16, message: String) -> McpReply {
    McpReply::json(
        status,
        &json!({
            "jsonrpc": "2.0",
            "id": null,
            "error": { "code": -32000, "message": message },
        }),
    )
}

fn is_loopback_name(name: &str) -> bool {
    matches!(
        name.to_ascii_lowercase().as_str(),
        "127.0.0.1" | "localhost" | "[::1]"
    )
}

/// `127.0.0.1:<port>` or `localhost:<port>` (or `[::1]:<port>`), the port
/// being the one the server listens on.
pub fn is_loopback_host(host: &str, port: u32) -> bool {
    match host.rsplit_once(':') {
        Some((name, given)) => is_loopback_name(name) && given == port.to_string(),
        None => false,
    }
}

/// `http(s)://` a loopback name, any port.
pub fn is_loopback_origin(origin: &str) -> bool {
    let Some(rest) = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
    else {
        return false;
    };
    let authority = rest.trim_end_matches('/');
    if authority.contains('/') || authority.contains('@') {
        return false;
    }
    let name = match authority.rsplit_once(':') {
        Some((name, port)) if !name.is_empty() && port.chars().all(|c| c.is_ascii_digit()) => name,
        _ => authority,
    };
    is_loopback_name(name)
}

/// Compares without stopping at the first difference, so the time taken
/// says nothing about how much of a guess was right.
fn same_secret(expected: &str, given: &str) -> bool {
    let (a, b) = (expected.as_bytes(), given.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_hosts_on_our_port_pass() {
        assert!(is_loopback_host("127.0.0.1:27125", 27125));
        assert!(is_loopback_host("localhost:27125", 27125));
        assert!(is_loopback_host("[::1]:27125", 27125));
        assert!(!is_loopback_host("127.0.0.1:80", 27125));
        assert!(!is_loopback_host("evil.example:27125", 27125));
        assert!(!is_loopback_host("127.0.0.1", 27125));
        assert!(!is_loopback_host("127.0.0.1.evil.example:27125", 27125));
    }

    #[test]
    fn only_loopback_origins_pass() {
        assert!(is_loopback_origin("http://127.0.0.1:6274"));
        assert!(is_loopback_origin("http://localhost"));
        assert!(is_loopback_origin("https://[::1]:3000/"));
        assert!(!is_loopback_origin("https://evil.example"));
        assert!(!is_loopback_origin("http://localhost.evil.example"));
        assert!(!is_loopback_origin("http://127.0.0.1@evil.example"));
        assert!(!is_loopback_origin("null"));
        assert!(!is_loopback_origin("file://"));
    }

    #[test]
    fn the_bearer_scheme_is_case_insensitive() {
        for value in [
            "Bearer abc",
            "bearer abc",
            "BEARER abc",
            "BeArEr  abc ",
            " Bearer abc",
        ] {
            assert_eq!(bearer(value), Some("abc"), "{value:?}");
        }
        for value in ["Basic abc", "Bearerabc", "Bearer", "Bearer   ", "abc", ""] {
            assert_eq!(bearer(value), None, "{value:?}");
        }
    }

    #[test]
    fn secrets_compare_whole() {
        assert!(same_secret("abc", "abc"));
        assert!(!same_secret("abc", "abd"));
        assert!(!same_secret("abc", "ab"));
        assert!(!same_secret("abc", ""));
    }
}
