//! One MCP exchange, from the HTTP gate to the reply: who asks, the
//! session and the revision it agreed on, one message or a batch, the
//! methods, cancellation, and what a request that gets no response is
//! answered. Tool calls themselves are `call.rs`.

use serde_json::{json, Map, Value};

use super::jsonrpc::{self, Incoming, Posted, RpcError, Unreadable};
use super::modern::{self, Envelope};
use super::sessions::{InFlight, McpSession, SessionRefusal};
use super::{
    gate, McpDoor, McpEvents, McpExchange, McpReply, BATCH_VERSIONS, MAX_SESSIONS_PER_TOKEN,
    MCP_TOKEN_SECRET, SUPPORTED_VERSIONS,
};
use crate::base::call::Access;
use crate::base::host::{join_all, Host};
use crate::engine::callers::Caller;

/// What a request turned into, before it became JSON-RPC.
pub(super) enum Answer {
    Result(Value),
    Error(RpcError),
    /// The client cancelled it: it gets no response.
    Cancelled,
}

/// What one posted message gets back.
enum Handled {
    Response(Value),
    /// A request the client cancelled: no response at all.
    Cancelled,
    /// A notification or a response: nothing to answer.
    Accepted,
}

impl<H: Host> McpDoor<H> {
    /// The server's token and the coding agents' open ones, in `gate`
    /// order: index 0 is the server's own token, the others the agents'.
    /// The sessions and kept cards of agents whose door closed go first.
    fn mcp_tokens(&self) -> (String, Vec<Caller>) {
        let token = self
            .engine
            .host()
            .secret(MCP_TOKEN_SECRET)
            .unwrap_or_default();
        let callers = self.engine.open_callers();
        self.state.borrow_mut().forget_closed(&callers);
        (token, callers)
    }

    /// Decides from the headers alone, before the listener reads any body:
    /// `None` lets it read the body and call `mcp_handle`; otherwise the
    /// answer to send, and the body is never read.
    pub fn admit(&self, head: &McpExchange) -> Option<McpReply> {
        let (token, doors) = self.mcp_tokens();
        let mut tokens = vec![token.as_str()];
        tokens.extend(doors.iter().map(|d| d.token.as_str()));
        gate::admit(head, &tokens).err()
    }

    /// Answers one HTTP exchange of the MCP endpoint.
    pub async fn handle(&self, exchange: &McpExchange, events: &dyn McpEvents) -> McpReply {
        let (token, doors) = self.mcp_tokens();
        let mut tokens = vec![token.as_str()];
        tokens.extend(doors.iter().map(|d| d.token.as_str()));
        let door = match gate::check(exchange, &tokens) {
            Ok(0) => None,
            Ok(index) => doors.get(index - 1).cloned(),
            Err(refusal) => return refusal,
        };
        let session_header = exchange.header("mcp-session-id").map(str::to_string);
        match exchange.method.as_str() {
            "POST" => {}
            "DELETE" => return self.mcp_end_session(session_header.as_deref(), door.as_ref()),
            // No server-initiated stream: clients fall back to POST answers.
            _ => {
                let mut reply = gate::refusal(
                    405,
                    "Method not allowed: post JSON-RPC messages to /mcp (this server opens no event stream on GET).".into(),
                );
                reply.headers.push(("allow".into(), "POST, DELETE".into()));
                return reply;
            }
        }
        let content_type = exchange.header("content-type").unwrap_or("");
        if !content_type
            .to_ascii_lowercase()
            .starts_with("application/json")
        {
            return gate::refusal(
                415,
                "Unsupported media type: send the JSON-RPC message as application/json.".into(),
            );
        }
        let posted = match jsonrpc::parse(&exchange.body) {
            Ok(posted) => posted,
            Err((id, error)) => return McpReply::json(400, &jsonrpc::error(&id, &error)),
        };
        self.state.borrow_mut().expire(self.engine.host().now_ms());
        // 2026-07-28 and later: no session, the revision in every request.
        if let Some(sessionless) = modern::classify(exchange, &posted) {
            return match sessionless {
                Ok(envelope) => {
                    self.mcp_sessionless(envelope, posted, exchange, events, door)
                        .await
                }
                Err(refusal) => refusal,
            };
        }
        if let Posted::One(Incoming::Request { id, method, params }) = &posted {
            if method == "initialize" {
                return self.mcp_initialize(id, params, events, door);
            }
        }
        // Everything after `initialize` belongs to a session.
        let Some(session_id) = session_header else {
            return gate::refusal(
                400,
                "Bad request: no Mcp-Session-Id header; send `initialize` first and then the session id it returned.".into(),
            );
        };
        let Some(session) = self.mcp_session(&session_id, door.as_ref()) else {
            return gate::refusal(
                404,
                "Session not found: it ended (unused for 30 minutes, or the plugin restarted); send `initialize` again.".into(),
            );
        };
        if let Some(version) = exchange.header("mcp-protocol-version") {
            if !SUPPORTED_VERSIONS.contains(&version) {
                return gate::refusal(
                    400,
                    format!(
                        "Bad request: unsupported MCP-Protocol-Version {version:?}; this server speaks {}.",
                        SUPPORTED_VERSIONS.join(", ")
                    ),
                );
            }
        }
        match posted {
            Posted::One(incoming) => {
                match self.mcp_message(&session, incoming, exchange, events).await {
                    Handled::Response(value) => McpReply::json(200, &value),
                    Handled::Cancelled => McpReply::no_response(exchange),
                    Handled::Accepted => McpReply::empty(202),
                }
            }
            Posted::Batch(items) => self.mcp_batch(&session, items, exchange, events).await,
        }
    }

    /// One request of the sessionless era: run as a session's would be, under
    /// a session that lasts this request only (per token, so that the same
    /// token's `notifications/cancelled` finds its call), its result stamped
    /// as the revision requires.
    async fn mcp_sessionless(
        &self,
        envelope: Envelope,
        posted: Posted,
        exchange: &McpExchange,
        events: &dyn McpEvents,
        door: Option<Caller>,
    ) -> McpReply {
        let Posted::One(incoming) = posted else {
            return gate::refusal(
                400,
                "Bad request: batches are not part of MCP 2026-07-28; post one message per request.".into(),
            );
        };
        let session = McpSession {
            id: match &door {
                Some(door) => format!("sessionless:{}", door.id),
                None => "sessionless".into(),
            },
            client_name: label(envelope.client_name.as_deref(), "An MCP client"),
            client_version: label(envelope.client_version.as_deref(), ""),
            version: envelope.version,
            last_used_ms: self.engine.host().now_ms(),
            caller: door,
        };
        let Incoming::Request { id, method, params } = incoming else {
            // Notifications (a cancellation) and stray responses.
            self.mcp_message(&session, incoming, exchange, events).await;
            return McpReply::empty(202);
        };
        let answer = if let Some(error) = modern::removed(&method, session.version) {
            Answer::Error(error)
        } else {
            self.mcp_request(&session, exchange, &id, &method, &params, events)
                .await
        };
        match answer {
            Answer::Result(value) => {
                McpReply::json(200, &jsonrpc::result(&id, modern::stamp(&method, value)))
            }
            Answer::Error(mut error) => {
                error.code = modern::error_code(error.code);
                McpReply::json(
                    modern::error_status(error.code),
                    &jsonrpc::error(&id, &error),
                )
            }
            Answer::Cancelled => McpReply::no_response(exchange),
        }
    }

    /// The session `id`, if it is there and belongs to the token presented;
    /// it counts as used now.
    fn mcp_session(&self, id: &str, door: Option<&Caller>) -> Option<McpSession> {
        let now = self.engine.host().now_ms();
        let mut state = self.state.borrow_mut();
        let session = state.session_mut(id)?;
        // A session belongs to the token that opened it.
        if session.owner() != door.map(|d| d.id) {
            return None;
        }
        session.last_used_ms = now;
        Some(session.clone())
    }

    /// A batch (2025-03-26 and before): each message as if posted alone,
    /// together; the responses in one array, none for notifications or
    /// cancelled requests.
    async fn mcp_batch(
        &self,
        session: &McpSession,
        items: Vec<Result<Incoming, Unreadable>>,
        exchange: &McpExchange,
        events: &dyn McpEvents,
    ) -> McpReply {
        if !BATCH_VERSIONS.contains(&session.version) {
            return McpReply::json(
                400,
                &jsonrpc::error(
                    &Value::Null,
                    &RpcError::new(
                        jsonrpc::INVALID_REQUEST,
                        format!(
                            "Invalid request: batches are not part of MCP {} (2025-06-18 removed them); post one message per request.",
                            session.version
                        ),
                    ),
                ),
            );
        }
        let requests = items
            .iter()
            .filter(|item| !matches!(item, Ok(Incoming::Notification { .. } | Incoming::Response)))
            .count();
        let handled = join_all(
            items
                .into_iter()
                .map(|item| async move {
                    match item {
                        Err((id, error)) => Handled::Response(jsonrpc::error(&id, &error)),
                        Ok(Incoming::Request { id, method, .. }) if method == "initialize" => {
                            Handled::Response(jsonrpc::error(
                                &id,
                                &RpcError::new(
                                    jsonrpc::INVALID_REQUEST,
                                    "Invalid request: `initialize` may not be part of a batch; post it alone.",
                                ),
                            ))
                        }
                        Ok(incoming) => self.mcp_message(session, incoming, exchange, events).await,
                    }
                })
                .collect(),
        )
        .await;
        let responses: Vec<Value> = handled
            .into_iter()
            .filter_map(|h| match h {
                Handled::Response(value) => Some(value),
                _ => None,
            })
            .collect();
        if !responses.is_empty() {
            McpReply::json(200, &Value::Array(responses))
        } else if requests > 0 {
            McpReply::no_response(exchange)
        } else {
            McpReply::empty(202)
        }
    }

    async fn mcp_message(
        &self,
        session: &McpSession,
        incoming: Incoming,
        exchange: &McpExchange,
        events: &dyn McpEvents,
    ) -> Handled {
        match incoming {
            Incoming::Request { id, method, params } => {
                match self
                    .mcp_request(session, exchange, &id, &method, &params, events)
                    .await
                {
                    Answer::Result(value) => Handled::Response(jsonrpc::result(&id, value)),
                    Answer::Error(error) => Handled::Response(jsonrpc::error(&id, &error)),
                    Answer::Cancelled => Handled::Cancelled,
                }
            }
            Incoming::Notification { method, params } => {
                if method == "notifications/cancelled" {
                    if let Some(request) = params.get("requestId") {
                        let request = request.to_string();
                        // The official SDKs say so when their own timeout ran out.
                        let reason = params.get("reason").and_then(Value::as_str).unwrap_or("");
                        let timed_out = says_timed_out(reason);
                        self.mcp_cancel(
                            |call| call.session == session.id && call.request_id == request,
                            timed_out,
                        );
                    }
                }
                Handled::Accepted
            }
            Incoming::Response => Handled::Accepted,
        }
    }

    /// The client went away before its answer (the shim saw the socket close).
    pub fn abandon(&self, exchange: u32) {
        self.mcp_cancel(|call| call.exchange == exchange, false);
    }

    fn mcp_cancel(&self, matches: impl Fn(&InFlight) -> bool, timed_out: bool) {
        let now = self.engine.host().now_ms();
        let to_stop = self.state.borrow_mut().cancel(matches, timed_out, now);
        for tag in to_stop {
            self.engine.host().cancel_processes(&tag);
        }
    }

    fn mcp_end_session(&self, session: Option<&str>, door: Option<&Caller>) -> McpReply {
        let Some(session) = session else {
            return gate::refusal(
                400,
                "Bad request: DELETE needs the Mcp-Session-Id header.".into(),
            );
        };
        let owner = door.map(|d| d.id);
        let mut state = self.state.borrow_mut();
        let before = state.sessions.len();
        // Only the token that opened a session may end it.
        state
            .sessions
            .retain(|s| s.id != session || s.owner() != owner);
        if state.sessions.len() == before {
            return gate::refusal(404, "Session not found.".into());
        }
        let tags: Vec<String> = state
            .calls
            .iter_mut()
            .filter(|c| c.session == session)
            .map(|c| {
                c.cancelled = true;
                c.tag.clone()
            })
            .collect();
        drop(state);
        for tag in tags {
            self.engine.host().cancel_processes(&tag);
        }
        McpReply::empty(200)
    }

    fn mcp_initialize(
        &self,
        id: &Value,
        params: &Map<String, Value>,
        events: &dyn McpEvents,
        door: Option<Caller>,
    ) -> McpReply {
        let answer = |error: RpcError| McpReply::json(200, &jsonrpc::error(id, &error));
        let Some(requested) = params.get("protocolVersion").and_then(Value::as_str) else {
            return answer(RpcError::params("`protocolVersion` (text) is required."));
        };
        let client = params.get("clientInfo").and_then(Value::as_object);
        let text = |key: &str, fallback: &str| {
            label(
                client.and_then(|c| c.get(key)).and_then(Value::as_str),
                fallback,
            )
        };
        let fresh_id = events.fresh_id();
        let session_id = fresh_id.trim();
        if session_id.len() < 16
            || session_id.len() > 128
            || !session_id.chars().all(|c| c.is_ascii_graphic())
            || self
                .state
                .borrow()
                .sessions
                .iter()
                .any(|s| s.id == session_id)
        {
            return McpReply::json(
                500,
                &jsonrpc::error(
                    id,
                    &RpcError::new(jsonrpc::INTERNAL_ERROR, "The listener gave no session id."),
                ),
            );
        }
        // The client's version if this server speaks it, else our newest.
        let version = SUPPORTED_VERSIONS
            .iter()
            .find(|v| **v == requested)
            .unwrap_or(&SUPPORTED_VERSIONS[0]);
        let session = McpSession {
            id: session_id.to_string(),
            client_name: text("title", &text("name", "An MCP client")),
            client_version: text("version", ""),
            version,
            last_used_ms: self.engine.host().now_ms(),
            caller: door,
        };
        if let Err(SessionRefusal::AllBusy) = self.state.borrow_mut().open_session(session) {
            return McpReply::json(
                503,
                &jsonrpc::error(
                    id,
                    &RpcError::new(
                        jsonrpc::SERVER_BUSY,
                        format!(
                            "Server busy: this token holds {MAX_SESSIONS_PER_TOKEN} sessions, each with a call in flight; end one (DELETE) or try again when a call is done."
                        ),
                    ),
                ),
            );
        }
        let mut reply = McpReply::json(
            200,
            &jsonrpc::result(
                id,
                json!({
                    "protocolVersion": version,
                    "capabilities": capabilities(),
                    "serverInfo": modern::server_info(),
                    "instructions": INSTRUCTIONS,
                }),
            ),
        );
        reply
            .headers
            .push(("mcp-session-id".into(), session_id.to_string()));
        reply
    }

    async fn mcp_request(
        &self,
        session: &McpSession,
        exchange: &McpExchange,
        id: &Value,
        method: &str,
        params: &Map<String, Value>,
        events: &dyn McpEvents,
    ) -> Answer {
        match method {
            "ping" => Answer::Result(json!({})),
            "server/discover" => Answer::Result(modern::discover(capabilities(), INSTRUCTIONS)),
            "tools/list" => Answer::Result(json!({ "tools": self.mcp_tools_for(session).await })),
            "tools/call" => self.mcp_call(session, exchange, id, params, events).await,
            "resources/list" => match self.mcp_list_resources(params).await {
                Ok(value) => Answer::Result(value),
                Err(error) => Answer::Error(error),
            },
            "resources/templates/list" => Answer::Result(super::resources::templates()),
            "resources/read" => {
                let started = self.engine.host().now_ms();
                let read = self.mcp_read_resource(params).await;
                let code = match &read {
                    Ok(_) => "ok".to_string(),
                    Err(error) => format!("rpc {}", error.code),
                };
                let uri = params.get("uri").and_then(Value::as_str).unwrap_or("");
                self.mcp_log(
                    session,
                    "resources/read",
                    vec![uri.to_string()],
                    code,
                    started,
                    events,
                );
                match read {
                    Ok(value) => Answer::Result(value),
                    Err(error) => Answer::Error(error),
                }
            }
            other => Answer::Error(RpcError::new(
                jsonrpc::METHOD_NOT_FOUND,
                format!("Method not found: {other:?}. This server offers tools and resources."),
            )),
        }
    }

    /// The tools as MCP lists them: the chat's tools, names, descriptions
    /// and schemas, only those switched on. The hints follow from what each
    /// tool's commands declare (`tools::CommandSpec`): read only when every
    /// command reads; destructive when one may change or remove what is
    /// there (`ConfirmedWrite`: edits, removals, status changes, moves);
    /// idempotent when every command is (repeating it changes nothing more).
    pub fn tools(&self) -> Vec<Value> {
        // `list_tools` follows the registry's order.
        self.engine
            .list_tools()
            .into_iter()
            .zip(self.engine.tools())
            .filter(|(tool, _)| tool.enabled)
            .map(|(tool, spec)| {
                let reads_only = spec.commands.iter().all(|c| c.access == Access::Read);
                let destructive = spec
                    .commands
                    .iter()
                    .any(|c| c.access == Access::ConfirmedWrite);
                let idempotent = spec.commands.iter().all(|c| c.idempotent);
                json!({
                    "name": tool.id,
                    "title": tool.display_name,
                    "description": format!("{}\n\n{}", tool.description, tool.guidance),
                    "inputSchema": tool.input_schema,
                    "annotations": {
                        "title": tool.display_name,
                        "readOnlyHint": reads_only,
                        "destructiveHint": destructive,
                        "idempotentHint": idempotent,
                        "openWorldHint": false,
                    },
                })
            })
            .collect()
    }
}

/// What the server offers, as `initialize` and `server/discover` say it.
fn capabilities() -> Value {
    json!({
        "tools": { "listChanged": false },
        "resources": { "subscribe": false, "listChanged": false },
    })
}

/// A client's name or version as the activity log shows it: no control
/// characters, at most 80 of the others, `fallback` when nothing is left.
fn label(text: Option<&str>, fallback: &str) -> String {
    text.map(|s| {
        s.chars()
            .filter(|c| !c.is_control())
            .take(80)
            .collect::<String>()
    })
    .filter(|s| !s.trim().is_empty())
    .unwrap_or_else(|| fallback.to_string())
}

/// Whether a cancellation's reason says the client's own timeout ran out
/// (the TypeScript SDK sends "McpError: MCP error -32001: Request timed out").
fn says_timed_out(reason: &str) -> bool {
    let reason = reason.to_ascii_lowercase();
    reason.contains("timed out") || reason.contains("timeout")
}

/// What an MCP client is told about the server, once, at `initialize`.
const INSTRUCTIONS: &str =
    "Tools for the user's Obsidian vault, backed by the official Obsidian CLI. \
Each tool takes a `command` and that command's arguments. Reads run at once. Changes follow the \
permission mode the user set for MCP clients in Vault Agent: refused in Read only, otherwise they \
may wait for the user's click on a card in Obsidian (the call returns when the user answers). \
Errors start with a stable code, e.g. `permission_denied: ...`.";

#[cfg(test)]
mod tests {
    use super::says_timed_out;

    #[test]
    fn a_timeout_is_told_from_a_cancel() {
        assert!(says_timed_out(
            "McpError: MCP error -32001: Request timed out"
        ));
        assert!(says_timed_out("Timeout"));
        assert!(!says_timed_out("User pressed Esc"));
        assert!(!says_timed_out(""));
    }
}
