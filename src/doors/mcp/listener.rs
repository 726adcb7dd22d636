//! The bounds the shim's HTTP listener enforces, decided here and handed to
//! it once (`VaultAgent::mcpListenerLimits`): how much of a body it reads,
//! how long headers and bodies may take to arrive, how many connections it
//! keeps, and what a connection over the cap is told. A hostile local
//! process can then hold neither memory nor sockets for long: the token is
//! checked from the headers before any body is read (`gate::admit`), and a
//! refused body is let drain briefly, never kept.

use serde::Serialize;

use super::{gate, McpReply, MAX_BODY_BYTES};

/// Connections open at once; one more is answered 503 and closed.
pub const MAX_CONNECTIONS: u32 = 32;
/// The request line and headers must be in by then, from the connection's
/// start (or the end of the previous exchange on a kept-alive connection).
pub const HEADERS_TIMEOUT_MS: u32 = 5_000;
/// The whole request, body included, must be in by then. A call that then
/// waits for the user's click is not bound by it: the request has arrived.
pub const REQUEST_TIMEOUT_MS: u32 = 8_000;
/// How often the listener looks for connections past those times (Node's
/// default, 30 s, would let a slow client stay six times longer).
pub const CHECK_INTERVAL_MS: u32 = 1_000;
/// How long the rest of a refused body may keep arriving before the
/// connection is cut, so that the client reads the answer, not a reset.
pub const DRAIN_MS: u32 = 2_000;

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "McpListenerLimits"))]
#[serde(rename_all = "camelCase")]
pub struct ListenerLimits {
    pub max_body_bytes: u32,
    pub max_connections: u32,
    pub headers_timeout_ms: u32,
    pub request_timeout_ms: u32,
    pub check_interval_ms: u32,
    pub drain_ms: u32,
    /// The answer to a connection over `max_connections`.
    pub busy: McpReply,
}

pub fn limits() -> ListenerLimits {
    ListenerLimits {
        max_body_bytes: MAX_BODY_BYTES as u32,
        max_connections: MAX_CONNECTIONS,
        headers_timeout_ms: HEADERS_TIMEOUT_MS,
        request_timeout_ms: REQUEST_TIMEOUT_MS,
        check_interval_ms: CHECK_INTERVAL_MS,
        drain_ms: DRAIN_MS,
        busy: gate::refusal(
            503,
            format!(
                "Service unavailable: {MAX_CONNECTIONS} connections are open to this server already; close one or try again in a moment."
            ),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_listener_bounds_hang_together() {
        let limits = limits();
        // Node refuses a headers timeout longer than the request timeout.
        assert!(limits.headers_timeout_ms <= limits.request_timeout_ms);
        // A slow client is cut within 10 s of its start, checks included.
        assert!(limits.request_timeout_ms + limits.check_interval_ms <= 10_000);
        // Every call that may run or wait holds a connection, with room to spare.
        assert!(
            (super::super::MAX_RUNNING_CALLS + super::super::MAX_WAITING_CALLS)
                < limits.max_connections as usize
        );
        assert_eq!(limits.busy.status, 503);
    }
}
