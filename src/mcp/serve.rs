//! One MCP exchange, from the HTTP gate to the reply: sessions, the
//! methods, tool calls under the MCP permission mode, the wait for the
//! user's click, cancellation, and the activity log.

use serde_json::{json, Map, Value};

use super::jsonrpc::{self, Incoming, RpcError};
use super::{
    gate, ActivityEntry, InFlight, McpEvents, McpExchange, McpReply, McpSession, CARD_POLL_MS,
    MAX_RUNNING_CALLS, MAX_WAITING_CALLS, MCP_TOKEN_SECRET, PROGRESS_EVERY_MS, SUPPORTED_VERSIONS,
};
use crate::agent::table;
use crate::confirm::Requester;
use crate::core::VaultAgentCore;
use crate::host::Host;
use crate::policy::agent_questions::{self, AgentAnswer, AgentQuestion};
use crate::policy::agent_session::{self, AgentRefusal, AgentRequest};
use crate::result::ToolResult;
use crate::settings::PermissionMode;
use crate::tools::Access;

/// What a request turned into, before it became HTTP.
enum Answer {
    Result(Value),
    Error(RpcError),
    /// The client cancelled it: nothing to report.
    Cancelled,
}

impl<H: Host> VaultAgentCore<H> {
    /// Lets an ACP agent the chat runs reach the MCP server with `token`
    /// for one session: its calls run under `mode` and its cards say
    /// `name`. False when the token is too short to be a secret.
    pub fn open_agent_door(&self, token: &str, name: &str, mode: PermissionMode) -> bool {
        self.mcp.borrow_mut().open_door(super::AgentDoor {
            token: token.to_string(),
            name: name.chars().filter(|c| !c.is_control()).take(80).collect(),
            mode,
            always: Default::default(),
            in_turn: false,
        })
    }

    /// How the host ends a coding agent with everything it started (as it
    /// ends a CLI call): the agent leads its own process group on POSIX.
    pub fn agent_process_tree(&self) -> crate::host::ProcessTree {
        crate::host::ProcessTree::for_os(self.host().platform().os())
    }

    /// A turn of the agent behind door `token` starts (`open`) or ends.
    pub fn agent_turn(&self, token: &str, open: bool) {
        if let Some(door) = self
            .mcp
            .borrow_mut()
            .doors
            .iter_mut()
            .find(|d| d.token == token)
        {
            door.in_turn = open;
        }
    }

    /// Whether the agent behind door `token` may have `request` served now
    /// (`policy::agent_session::check`): `None`, or why not. `subject` is
    /// the path or question it names.
    pub fn agent_request(
        &self,
        token: &str,
        request: AgentRequest,
        subject: &str,
    ) -> Option<AgentRefusal> {
        let mcp = self.mcp.borrow();
        let door = mcp.doors.iter().find(|d| d.token == token);
        agent_session::check(
            request,
            door.is_some(),
            door.is_some_and(|d| d.in_turn),
            door.map_or("The agent", |d| d.name.as_str()),
            subject,
        )
    }

    /// The agent session ended: its token stops working at once.
    pub fn close_agent_door(&self, token: &str) {
        self.mcp.borrow_mut().close_door(token);
    }

    /// The agent behind door `token` asks before one of its own actions:
    /// answered at once (`policy::agent_questions`) or asked of the user.
    /// A door that is closed has no answers: the user is asked.
    pub fn agent_question(&self, token: &str, question: &AgentQuestion) -> AgentAnswer {
        let mcp = self.mcp.borrow();
        match mcp.doors.iter().find(|d| d.token == token) {
            Some(door) => agent_questions::answer(door.mode, question, &door.always),
            None => AgentAnswer::Ask,
        }
    }

    /// The user answered the agent's question with `option_id`: an "always"
    /// answer is kept for the rest of the session.
    pub fn agent_question_answered(&self, token: &str, question: &AgentQuestion, option_id: &str) {
        if let Some(door) = self
            .mcp
            .borrow_mut()
            .doors
            .iter_mut()
            .find(|d| d.token == token)
        {
            door.always.remember(question, option_id);
        }
    }

    /// Answers one HTTP exchange of the MCP endpoint.
    pub async fn mcp_handle(&self, exchange: &McpExchange, events: &dyn McpEvents) -> McpReply {
        let token = self.host().secret(MCP_TOKEN_SECRET).unwrap_or_default();
        let doors = self.mcp.borrow().doors.clone();
        let mut tokens = vec![token.as_str()];
        tokens.extend(doors.iter().map(|d| d.token.as_str()));
        // Index 0 is the server's own token; the others are agent doors.
        let door = match gate::check(exchange, &tokens) {
            Ok(0) => None,
            Ok(index) => doors.get(index - 1).cloned(),
            Err(refusal) => return refusal,
        };
        let session_header = exchange.header("mcp-session-id").map(str::to_string);
        match exchange.method.as_str() {
            "POST" => {}
            "DELETE" => return self.mcp_end_session(session_header.as_deref()),
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
        let incoming = match jsonrpc::parse(&exchange.body) {
            Ok(incoming) => incoming,
            Err((id, error)) => return McpReply::json(400, &jsonrpc::error(&id, &error)),
        };
        if let Incoming::Request { id, method, params } = &incoming {
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
        let session = {
            let now = self.host().now_ms();
            let mut state = self.mcp.borrow_mut();
            match state.session_mut(&session_id) {
                // A session belongs to the token that opened it.
                Some(session)
                    if session.door.as_ref().map(|d| &d.token)
                        == door.as_ref().map(|d| &d.token) =>
                {
                    session.last_used_ms = now;
                    session.clone()
                }
                _ => return gate::refusal(
                    404,
                    "Session not found: it ended or the plugin restarted; send `initialize` again."
                        .into(),
                ),
            }
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
        match incoming {
            Incoming::Request { id, method, params } => {
                let answer = self
                    .mcp_request(&session, exchange.exchange, &id, &method, &params, events)
                    .await;
                match answer {
                    Answer::Result(value) => McpReply::json(200, &jsonrpc::result(&id, value)),
                    Answer::Error(error) => McpReply::json(200, &jsonrpc::error(&id, &error)),
                    Answer::Cancelled => McpReply::json(
                        200,
                        &jsonrpc::error(
                            &id,
                            &RpcError::new(
                                jsonrpc::REQUEST_CANCELLED,
                                "Request cancelled by the client.",
                            ),
                        ),
                    ),
                }
            }
            Incoming::Notification { method, params } => {
                if method == "notifications/cancelled" {
                    if let Some(request) = params.get("requestId") {
                        self.mcp_cancel(|call| {
                            call.session == session.id && call.request_id == *request.to_string()
                        });
                    }
                }
                McpReply::empty(202)
            }
            Incoming::Response => McpReply::empty(202),
        }
    }

    /// The client went away before its answer (the shim saw the socket close).
    pub fn mcp_abandon(&self, exchange: u32) {
        self.mcp_cancel(|call| call.exchange == exchange);
    }

    fn mcp_cancel(&self, matches: impl Fn(&InFlight) -> bool) {
        let mut to_stop = Vec::new();
        for call in self
            .mcp
            .borrow_mut()
            .calls
            .iter_mut()
            .filter(|c| matches(c))
        {
            call.cancelled = true;
            to_stop.push(call.tag.clone());
        }
        for tag in to_stop {
            self.host().cancel_processes(&tag);
        }
    }

    fn mcp_end_session(&self, session: Option<&str>) -> McpReply {
        let Some(session) = session else {
            return gate::refusal(
                400,
                "Bad request: DELETE needs the Mcp-Session-Id header.".into(),
            );
        };
        let mut state = self.mcp.borrow_mut();
        let before = state.sessions.len();
        state.sessions.retain(|s| s.id != session);
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
            self.host().cancel_processes(&tag);
        }
        McpReply::empty(200)
    }

    fn mcp_initialize(
        &self,
        id: &Value,
        params: &Map<String, Value>,
        events: &dyn McpEvents,
        door: Option<super::AgentDoor>,
    ) -> McpReply {
        let answer = |error: RpcError| McpReply::json(200, &jsonrpc::error(id, &error));
        let Some(requested) = params.get("protocolVersion").and_then(Value::as_str) else {
            return answer(RpcError::params("`protocolVersion` (text) is required."));
        };
        let client = params.get("clientInfo").and_then(Value::as_object);
        let text = |key: &str, fallback: &str| {
            client
                .and_then(|c| c.get(key))
                .and_then(Value::as_str)
                .map(|s| {
                    s.chars()
                        .filter(|c| !c.is_control())
                        .take(80)
                        .collect::<String>()
                })
                .filter(|s| !s.trim().is_empty())
                .unwrap_or_else(|| fallback.to_string())
        };
        let fresh_id = events.fresh_id();
        let session_id = fresh_id.trim();
        if session_id.len() < 16
            || session_id.len() > 128
            || !session_id.chars().all(|c| c.is_ascii_graphic())
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
            last_used_ms: self.host().now_ms(),
            door,
        };
        self.mcp.borrow_mut().open_session(session);
        let mut reply = McpReply::json(
            200,
            &jsonrpc::result(
                id,
                json!({
                    "protocolVersion": version,
                    "capabilities": {
                        "tools": { "listChanged": false },
                        "resources": { "subscribe": false, "listChanged": false },
                    },
                    "serverInfo": {
                        "name": "vault-agent",
                        "title": "Vault Agent",
                        "version": env!("CARGO_PKG_VERSION"),
                    },
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
        exchange: u32,
        id: &Value,
        method: &str,
        params: &Map<String, Value>,
        events: &dyn McpEvents,
    ) -> Answer {
        match method {
            "ping" => Answer::Result(json!({})),
            "tools/list" => Answer::Result(json!({ "tools": self.mcp_tools() })),
            "tools/call" => self.mcp_call(session, exchange, id, params, events).await,
            "resources/list" => match self.mcp_list_resources(params).await {
                Ok(value) => Answer::Result(value),
                Err(error) => Answer::Error(error),
            },
            "resources/templates/list" => Answer::Result(super::resources::templates()),
            "resources/read" => {
                let started = self.host().now_ms();
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
    /// and schemas, only those switched on.
    pub fn mcp_tools(&self) -> Vec<Value> {
        self.list_tools()
            .into_iter()
            .filter(|tool| tool.enabled)
            .map(|tool| {
                let reads_only = tool
                    .command_details
                    .iter()
                    .all(|c| c.access == Access::Read);
                json!({
                    "name": tool.id,
                    "title": tool.display_name,
                    "description": format!("{}\n\n{}", tool.description, tool.guidance),
                    "inputSchema": tool.input_schema,
                    "annotations": {
                        "title": tool.display_name,
                        "readOnlyHint": reads_only,
                        "destructiveHint": tool.id == "obsidianOrganise",
                        "idempotentHint": reads_only,
                        "openWorldHint": false,
                    },
                })
            })
            .collect()
    }

    async fn mcp_call(
        &self,
        session: &McpSession,
        exchange: u32,
        id: &Value,
        params: &Map<String, Value>,
        events: &dyn McpEvents,
    ) -> Answer {
        let started = self.host().now_ms();
        let Some(name) = params.get("name").and_then(Value::as_str) else {
            return Answer::Error(RpcError::params("`name` (the tool, text) is required."));
        };
        let arguments = match params.get("arguments") {
            None | Some(Value::Null) => json!({}),
            Some(Value::Object(arguments)) => Value::Object(arguments.clone()),
            Some(_) => return Answer::Error(RpcError::params("`arguments` must be an object.")),
        };
        let known = self.tools().iter().any(|t| t.id == name);
        if !known || !self.settings_snapshot().tool_enabled(name) {
            return Answer::Error(RpcError::params(format!(
                "Unknown tool {name:?}: call tools/list for the tools that are switched on."
            )));
        }
        let progress = params
            .get("_meta")
            .and_then(|m| m.get("progressToken"))
            .filter(|t| t.is_string() || t.is_i64() || t.is_u64())
            .cloned();
        let tag = {
            let mut state = self.mcp.borrow_mut();
            if state.running >= MAX_RUNNING_CALLS && state.waiting >= MAX_WAITING_CALLS {
                return Answer::Error(RpcError::new(
                    jsonrpc::SERVER_BUSY,
                    "Server busy: too many calls at once; try again in a moment.",
                ));
            }
            state.next_tag += 1;
            let tag = format!("mcp-{}", state.next_tag);
            state.calls.push(InFlight {
                session: session.id.clone(),
                request_id: id.to_string(),
                exchange,
                tag: tag.clone(),
                cancelled: false,
                card: None,
            });
            tag
        };
        let answer = self
            .mcp_run_call(session, name, &arguments, &tag, progress, events)
            .await;
        self.mcp.borrow_mut().calls.retain(|c| c.tag != tag);
        let (code, argv) = match &answer {
            Ok(result) => (
                result.code().unwrap_or("ok").to_string(),
                result.argv.clone().unwrap_or_default(),
            ),
            Err(()) => ("cancelled".to_string(), Vec::new()),
        };
        self.mcp_log(session, name, argv, code, started, events);
        match answer {
            Ok(result) => Answer::Result(call_result(&result, &arguments)),
            Err(()) => Answer::Cancelled,
        }
    }

    /// Runs the call when a slot is free, then waits for the user's answer
    /// to any card it raised. `Err` when the client cancelled.
    async fn mcp_run_call(
        &self,
        session: &McpSession,
        name: &str,
        arguments: &Value,
        tag: &str,
        progress: Option<Value>,
        events: &dyn McpEvents,
    ) -> Result<ToolResult, ()> {
        self.mcp_take_slot(tag).await?;
        let mode = match &session.door {
            // The door's mode now: the chat's mode may have changed since the session began.
            Some(door) => self
                .mcp
                .borrow()
                .doors
                .iter()
                .find(|d| d.token == door.token)
                .map_or(door.mode, |d| d.mode),
            None => self.settings_snapshot().mcp.permission_mode,
        };
        let settings = self.settings_under(mode, Some(tag.to_string()));
        let mut result = self.call_tool_under(name, arguments, settings).await;
        self.mcp.borrow_mut().running -= 1;
        let requester = Requester {
            name: session
                .door
                .as_ref()
                .map_or_else(|| session.client_name.clone(), |d| d.name.clone()),
            mode,
        };
        let mut sent = 0u64;
        while let Some(pending) = result.pending.clone() {
            if self.mcp_cancelled(tag) {
                break;
            }
            self.confirmations
                .borrow_mut()
                .set_requester(&pending.id, requester.clone());
            self.mcp_set_card(tag, Some(pending.id.clone()));
            events.present_card(&pending.id);
            result = self
                .mcp_wait_for_answer(&pending.id, tag, progress.as_ref(), &mut sent, events)
                .await?;
        }
        if self.mcp_cancelled(tag) {
            return Err(());
        }
        Ok(result)
    }

    async fn mcp_take_slot(&self, tag: &str) -> Result<(), ()> {
        let mut waited = false;
        loop {
            {
                let mut state = self.mcp.borrow_mut();
                if state.running < MAX_RUNNING_CALLS {
                    state.running += 1;
                    if waited {
                        state.waiting -= 1;
                    }
                    return Ok(());
                }
                if !waited {
                    state.waiting += 1;
                    waited = true;
                }
            }
            if self.mcp_cancelled(tag) {
                self.mcp.borrow_mut().waiting -= 1;
                return Err(());
            }
            self.host().sleep(10).await;
        }
    }

    /// Waits until the card is answered, expires, or the client cancels
    /// (then the card is taken away). Tells the client every few seconds
    /// that the user has not answered yet, so it does not time out.
    async fn mcp_wait_for_answer(
        &self,
        card: &str,
        tag: &str,
        progress: Option<&Value>,
        sent: &mut u64,
        events: &dyn McpEvents,
    ) -> Result<ToolResult, ()> {
        let mut last_progress = f64::NEG_INFINITY;
        loop {
            if self.mcp_cancelled(tag) {
                let now = self.host().now_ms();
                let _ = self.confirmations.borrow_mut().reject(card, now);
                events.withdraw_card(card);
                return Err(());
            }
            if let Some(outcome) = self.confirmation_outcome(card) {
                self.mcp_set_card(tag, None);
                return Ok(outcome);
            }
            let now = self.host().now_ms();
            if let Some(token) = progress {
                if now - last_progress >= PROGRESS_EVERY_MS {
                    last_progress = now;
                    *sent += 1;
                    events.notify(&jsonrpc::notification(
                        "notifications/progress",
                        json!({
                            "progressToken": token,
                            "progress": *sent,
                            "message": "Waiting for the user to approve the change in Obsidian.",
                        }),
                    ));
                }
            }
            self.host().sleep(CARD_POLL_MS).await;
        }
    }

    fn mcp_cancelled(&self, tag: &str) -> bool {
        self.mcp
            .borrow()
            .calls
            .iter()
            .any(|c| c.tag == tag && c.cancelled)
    }

    fn mcp_set_card(&self, tag: &str, card: Option<String>) {
        if let Some(call) = self
            .mcp
            .borrow_mut()
            .calls
            .iter_mut()
            .find(|c| c.tag == tag)
        {
            call.card = card;
        }
    }

    fn mcp_log(
        &self,
        session: &McpSession,
        tool: &str,
        argv: Vec<String>,
        code: String,
        started: f64,
        events: &dyn McpEvents,
    ) {
        let now = self.host().now_ms();
        events.activity(&ActivityEntry {
            time_ms: now,
            client: session.client_name.clone(),
            client_version: session.client_version.clone(),
            tool: tool.to_string(),
            argv,
            code,
            duration_ms: (now - started).max(0.0),
        });
    }
}

/// What an MCP client is told about the server, once, at `initialize`.
const INSTRUCTIONS: &str =
    "Tools for the user's Obsidian vault, backed by the official Obsidian CLI. \
Each tool takes a `command` and that command's arguments. Reads run at once. Changes follow the \
permission mode the user set for MCP clients in Vault Agent: refused in Read only, otherwise they \
may wait for the user's click on a card in Obsidian (the call returns when the user answers). \
Errors start with a stable code, e.g. `permission_denied: ...`.";

/// A tool result as MCP content: the text the chat's model reads, the error
/// code first when it failed, and the JSON or table the CLI gave as
/// structured content.
fn call_result(result: &ToolResult, arguments: &Value) -> Value {
    let mut text = match &result.error {
        Some(error) => format!("{}: {}", error.code, error.message),
        None => result.text.clone(),
    };
    if let Some(withheld) = result.withheld {
        text.push_str(&format!(
            "\n[Withheld: {withheld} more entries are in folders the user does not let agents read.]"
        ));
    }
    let mut value = json!({
        "content": [{ "type": "text", "text": text }],
        "isError": !result.ok,
    });
    if result.ok {
        if let Some(structured) = structured(&result.text, arguments) {
            value["structuredContent"] = structured;
        }
    }
    value
}

fn structured(text: &str, arguments: &Value) -> Option<Value> {
    let format = arguments.get("format").and_then(Value::as_str);
    let trimmed = text.trim();
    if format == Some("json") || trimmed.starts_with('{') || trimmed.starts_with('[') {
        match serde_json::from_str::<Value>(trimmed) {
            Ok(Value::Object(object)) => return Some(Value::Object(object)),
            Ok(Value::Array(items)) => return Some(json!({ "items": items })),
            _ => {}
        }
    }
    if matches!(format, Some("csv") | Some("tsv")) {
        let table = table::detect(trimmed, format)?;
        return Some(json!({
            "columns": table.headers,
            "rows": table.rows,
            "moreRows": table.more_rows,
        }));
    }
    None
}
