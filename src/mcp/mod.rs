//! The MCP server for agents outside Obsidian (Claude Code, Cursor, Codex…):
//! every decision about a request (who may ask, which message it is, what
//! it runs, what to answer) is made here; the listener is the shim's
//! (`plugin-shim/mcp-server.ts`), which hands each HTTP exchange to
//! `VaultAgentCore::mcp_handle` and writes back the reply. Calls go through
//! the same registry, policy, folder scopes, confirmations and undo journal
//! as the chat, under the MCP permission mode.

pub mod gate;
pub mod jsonrpc;
mod resources;
mod serve;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Protocol revisions this server speaks, newest first.
pub const SUPPORTED_VERSIONS: [&str; 4] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
/// The secret (Obsidian's secret storage) that holds the bearer token.
pub const MCP_TOKEN_SECRET: &str = "vault-agent-mcp-token";
pub const MAX_BODY_BYTES: usize = 4 * 1024 * 1024;
/// Tool calls that run at once; more wait for a slot.
pub const MAX_RUNNING_CALLS: usize = 8;
/// Tool calls that may wait for a slot; more get a busy error at once.
pub const MAX_WAITING_CALLS: usize = 64;
/// Sessions kept; the least recently used idle one makes room.
pub const MAX_SESSIONS: usize = 32;
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
}

/// What to send back. When the core sent notifications during the call, the
/// shim has already answered with an event stream; `body` is then its last event.
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

/// One MCP call, as the activity log keeps it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "McpActivityEntry"))]
#[serde(rename_all = "camelCase")]
pub struct ActivityEntry {
    pub time_ms: f64,
    pub client: String,
    pub client_version: String,
    /// The tool, or `resources/read`.
    pub tool: String,
    pub argv: Vec<String>,
    /// `ok`, a stable error code, or `cancelled`.
    pub code: String,
    pub duration_ms: f64,
}

#[derive(Clone, Debug)]
pub(crate) struct McpSession {
    pub id: String,
    pub client_name: String,
    pub client_version: String,
    pub last_used_ms: f64,
    /// The agent door whose token opened the session (an ACP agent run in
    /// the chat), or `None` for the server's own token.
    pub door: Option<AgentDoor>,
}

/// A bearer token the chat hands one ACP agent for one session: its calls
/// run under the chat's permission mode and its cards name the agent. It
/// lives until the chat forgets it (the agent session ends).
#[derive(Clone, Debug, PartialEq)]
pub struct AgentDoor {
    pub token: String,
    pub name: String,
    pub mode: crate::settings::PermissionMode,
    /// The "always" answers to the agent's own questions in this session:
    /// they go with the door.
    pub always: crate::policy::agent_questions::AlwaysAnswers,
    /// A turn of the session runs: its file requests and questions are
    /// served (`policy::agent_session::check`).
    pub in_turn: bool,
}

/// A tools/call in progress.
#[derive(Clone, Debug)]
pub(crate) struct InFlight {
    pub session: String,
    /// The request id as JSON text (ids are strings or integers).
    pub request_id: String,
    pub exchange: u32,
    /// Tags the call's CLI processes.
    pub tag: String,
    pub cancelled: bool,
    /// The card it waits on, if any.
    pub card: Option<String>,
}

/// The server's state across requests.
#[derive(Default)]
pub(crate) struct McpState {
    pub sessions: Vec<McpSession>,
    pub calls: Vec<InFlight>,
    pub running: usize,
    pub waiting: usize,
    pub next_tag: u64,
    /// Tokens of the ACP agent sessions running in the chat.
    pub doors: Vec<AgentDoor>,
}

impl McpState {
    /// Opens a door for one agent session; an empty or short token is refused.
    pub fn open_door(&mut self, door: AgentDoor) -> bool {
        if door.token.len() < 32 {
            return false;
        }
        // Opened again at each Send with the chat's mode: what was said
        // "always" in the session stays.
        match self.doors.iter_mut().find(|d| d.token == door.token) {
            Some(open) => {
                open.name = door.name;
                open.mode = door.mode;
            }
            None => self.doors.push(door),
        }
        true
    }

    /// Closes a door and ends the sessions it opened.
    pub fn close_door(&mut self, token: &str) {
        self.doors.retain(|d| d.token != token);
        self.sessions
            .retain(|s| s.door.as_ref().is_none_or(|d| d.token != token));
    }

    pub fn session_mut(&mut self, id: &str) -> Option<&mut McpSession> {
        self.sessions.iter_mut().find(|s| s.id == id)
    }

    /// Adds a session, dropping the least recently used one without calls
    /// in flight when the table is full.
    pub fn open_session(&mut self, session: McpSession) {
        if self.sessions.len() >= MAX_SESSIONS {
            let busy: Vec<&str> = self.calls.iter().map(|c| c.session.as_str()).collect();
            if let Some(oldest) = self
                .sessions
                .iter()
                .enumerate()
                .filter(|(_, s)| !busy.contains(&s.id.as_str()))
                .min_by(|(_, a), (_, b)| a.last_used_ms.total_cmp(&b.last_used_ms))
                .map(|(i, _)| i)
            {
                self.sessions.remove(oldest);
            }
        }
        self.sessions.push(session);
    }
}
