//! The MCP server for agents outside Obsidian (Claude Code, Cursor, Codex…):
//! every decision about a request (who may ask, which message it is, what
//! it runs, what to answer) is made here; the listener is the shim's
//! (`plugin-shim/mcp-server.ts`), which hands each HTTP exchange to
//! `McpDoor::handle` and writes back the reply, within the
//! bounds `listener::LIMITS` sets. Calls go through the same registry,
//! policy, folder scopes, confirmations and undo journal as the chat, under
//! the MCP permission mode.

pub mod activity;
mod call;
pub mod gate;
pub mod jsonrpc;
pub mod listener;
pub mod modern;
mod outside;
mod resources;
mod serve;
mod sessions;
pub mod setups;

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::base::host::Host;
use crate::engine::Engine;

pub use activity::ActivityEntry;
pub use listener::ListenerLimits;
pub(crate) use sessions::McpState;

/// The session revisions this server speaks (they start with `initialize`),
/// newest first; the sessionless ones are `modern::MODERN_VERSIONS`.
pub const SUPPORTED_VERSIONS: [&str; 4] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
/// The revisions under which a client may post a JSON-RPC batch: 2025-03-26
/// requires servers to take them, 2024-11-05 follows JSON-RPC 2.0, which has
/// them; 2025-06-18 removed them.
pub const BATCH_VERSIONS: [&str; 2] = ["2025-03-26", "2024-11-05"];
/// Messages in one batch; a longer one is refused whole.
pub const MAX_BATCH: usize = 16;
/// The secret (Obsidian's secret storage) that holds the bearer token.
pub const MCP_TOKEN_SECRET: &str = "vault-agent-mcp-token";
/// A request body's limit, the one the listener stops reading at.
pub const MAX_BODY_BYTES: usize = crate::base::input::MCP_MESSAGE.max_total_bytes;
/// Tool calls that run at once; more wait for a slot.
pub const MAX_RUNNING_CALLS: usize = 8;
/// Tool calls that may wait for a slot; more get a busy error at once. With
/// the running ones and room for pings and cancellations, they fit in the
/// listener's connections (`listener::MAX_CONNECTIONS`): each call in
/// flight holds one.
pub const MAX_WAITING_CALLS: usize = 16;
/// Sessions one token may hold; its own least recently used idle one makes
/// room, never another token's.
pub const MAX_SESSIONS_PER_TOKEN: usize = 16;
/// A session unused this long ends (the client starts another with `initialize`).
pub const SESSION_IDLE_MS: f64 = 30.0 * 60.0 * 1000.0;
/// How long a card outlives a call the client gave up on because it timed
/// out, so that the same call asked again finds the card (or its answer)
/// instead of raising a second one.
pub const TIMED_OUT_GRACE_MS: f64 = 2.0 * 60.0 * 1000.0;
/// How often a call waiting for the user's click looks at the card.
pub const CARD_POLL_MS: u32 = 200;
/// How often a waiting call tells the client it is still waiting.
pub const PROGRESS_EVERY_MS: f64 = 5_000.0;

/// One HTTP exchange, as the shim's listener received it.
#[derive(Clone, Debug, Default, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", default)]
pub struct McpExchange {
    /// The shim's number for this exchange (`mcp_abandon` when the client leaves).
    pub exchange: u32,
    pub method: String,
    pub path: String,
    /// Header names in lower case.
    pub headers: BTreeMap<String, String>,
    /// Empty when only the headers have arrived (`mcp_admit`).
    pub body: String,
    /// The listener stopped reading a body over the limit.
    pub body_too_large: bool,
    /// The port the listener is bound to.
    pub port: u32,
}

impl McpExchange {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).map(String::as_str)
    }

    /// Whether the client takes an event stream as the answer (`Accept`
    /// names `text/event-stream`, or any type). A client that accepts only
    /// `application/json` gets one JSON answer, and no progress before it.
    pub fn accepts_stream(&self) -> bool {
        let Some(accept) = self.header("accept") else {
            // No Accept header: any type is acceptable (RFC 9110).
            return true;
        };
        accept.split(',').any(|range| {
            let kind = range.split(';').next().unwrap_or("").trim();
            ["text/event-stream", "text/*", "*/*"]
                .iter()
                .any(|t| kind.eq_ignore_ascii_case(t))
        })
    }
}

/// What to send back. When the core sent notifications during the call, the
/// shim has already answered with an event stream; `body` is then its last
/// event (none when empty).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct McpReply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl McpReply {
    pub fn json(status: u16, body: &Value) -> Self {
        McpReply {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            body: body.to_string(),
        }
    }

    pub fn empty(status: u16) -> Self {
        McpReply {
            status,
            headers: Vec::new(),
            body: String::new(),
        }
    }

    /// The answer to a request that gets no JSON-RPC response (it was
    /// cancelled): an event stream that ends without one where the client
    /// takes streams, else an empty 202, which clients read as "nothing
    /// to come".
    pub fn no_response(exchange: &McpExchange) -> Self {
        if exchange.accepts_stream() {
            McpReply {
                status: 200,
                headers: vec![
                    ("content-type".into(), "text/event-stream".into()),
                    ("cache-control".into(), "no-cache".into()),
                ],
                body: String::new(),
            }
        } else {
            McpReply::empty(202)
        }
    }
}

/// What the core asks of the shim while a request runs.
pub trait McpEvents {
    /// A JSON-RPC notification for the client, on this exchange's stream.
    fn notify(&self, message: &Value);
    /// Show the confirmation card `id` in Obsidian.
    fn present_card(&self, id: &str);
    /// The client gave up on the card `id`: take it away.
    fn withdraw_card(&self, id: &str);
    /// One line of the activity log.
    fn activity(&self, entry: &ActivityEntry);
    /// A fresh random id from the platform's CSPRNG, for a session that
    /// starts. Asked for only then: making one per request cost a fifth of
    /// the listener's time.
    fn fresh_id(&self) -> String;
}

/// The MCP server's door: its sessions, the calls in flight and the cards
/// kept for retries, over the engine every door shares.
pub struct McpDoor<H: Host> {
    pub(crate) engine: Rc<Engine<H>>,
    state: RefCell<McpState>,
}

impl<H: Host> McpDoor<H> {
    pub fn new(engine: Rc<Engine<H>>) -> Self {
        McpDoor {
            engine,
            state: RefCell::default(),
        }
    }
}
