//! One `tools/call`: a slot, the call under the door's permission mode, the
//! wait for the user's click on a card (with progress where the client takes
//! a stream), cancellation, the grace a card gets when the client's own
//! timeout ran out, the activity log entry, and the result as MCP content.

use serde_json::{json, Map, Value};

use super::jsonrpc::{self, RpcError};
use super::serve::Answer;
use super::sessions::{Claimed, InFlight, McpSession};
use super::{
    ActivityEntry, McpDoor, McpEvents, McpExchange, CARD_POLL_MS, MAX_RUNNING_CALLS,
    MAX_WAITING_CALLS, PROGRESS_EVERY_MS, TIMED_OUT_GRACE_MS,
};
use crate::base::host::Host;
use crate::base::result::ToolResult;
use crate::base::table;
use crate::engine::confirm::Requester;
use crate::settings::{ModeSetting, Settings};

/// The call as a retry would repeat it: who, which tool, which arguments.
struct CallKey<'a> {
    owner: Option<u64>,
    tool: &'a str,
    arguments: &'a Value,
}

/// Where a call starts.
enum Start {
    /// Run it.
    Run,
    /// A retry of a call that timed out, whose card the user answered already.
    Resumed(Box<ToolResult>),
    /// A retry of a call that timed out: its card still waits.
    Card(String),
}

impl<H: Host> McpDoor<H> {
    pub(super) async fn mcp_call(
        &self,
        session: &McpSession,
        exchange: &McpExchange,
        id: &Value,
        params: &Map<String, Value>,
        events: &dyn McpEvents,
    ) -> Answer {
        let started = self.engine.host().now_ms();
        let Some(name) = params.get("name").and_then(Value::as_str) else {
            return Answer::Error(RpcError::params("`name` (the tool, text) is required."));
        };
        let arguments = match params.get("arguments") {
            None | Some(Value::Null) => json!({}),
            Some(Value::Object(arguments)) => Value::Object(arguments.clone()),
            Some(_) => return Answer::Error(RpcError::params("`arguments` must be an object.")),
        };
        let known = self.engine.tools().iter().any(|t| t.id == name);
        let outside = self.may_be_outside(session, name);
        if !outside && (!known || !self.engine.settings_snapshot().tool_enabled(name)) {
            return Answer::Error(RpcError::params(format!(
                "Unknown tool {name:?}: call tools/list for the tools that are switched on."
            )));
        }
        // Progress goes on an event stream: none for a client that takes only JSON.
        let progress = params
            .get("_meta")
            .and_then(|m| m.get("progressToken"))
            .filter(|t| t.is_string() || t.is_i64() || t.is_u64())
            .filter(|_| exchange.accepts_stream())
            .cloned();
        let key = CallKey {
            owner: session.owner(),
            tool: name,
            arguments: &arguments,
        };
        let tag = {
            let mut state = self.state.borrow_mut();
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
                exchange: exchange.exchange,
                tag: tag.clone(),
                cancelled: false,
                timed_out: false,
                card: None,
                orphan: None,
                owner: key.owner,
                tool: name.to_string(),
                arguments: arguments.clone(),
            });
            tag
        };
        // A call asked again after the client's timeout finds its card, or
        // the user's answer to it, instead of raising a second card.
        let start = match self
            .state
            .borrow_mut()
            .claim_orphan(key.owner, name, &arguments)
        {
            Some(Claimed::Card(card)) => Start::Card(card),
            Some(Claimed::Answered(result)) => Start::Resumed(result),
            None => Start::Run,
        };
        let answer = self
            .mcp_run_call(session, &key, start, &tag, progress, events)
            .await;
        self.state.borrow_mut().calls.retain(|c| c.tag != tag);
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

    /// The settings a session's calls run under: its door's permission mode
    /// (the chat's for an agent door, the MCP server's own otherwise), with
    /// the setting a refusal names.
    fn mcp_settings(&self, session: &McpSession, tag: Option<String>) -> std::rc::Rc<Settings> {
        let (mode, setting) = match &session.caller {
            // The agent's mode now: the chat's mode may have changed since the session began.
            Some(caller) => (
                self.engine
                    .caller_by_id(caller.id)
                    .map_or(caller.mode, |c| c.mode),
                ModeSetting::Chat,
            ),
            None => (
                self.engine.settings_snapshot().mcp.permission_mode,
                ModeSetting::Mcp,
            ),
        };
        let mut settings = Settings::clone(&self.engine.settings_under(mode, tag));
        settings.mode_setting = setting;
        std::rc::Rc::new(settings)
    }

    /// Runs the call when a slot is free, then waits for the user's answer
    /// to any card it raised. `Err` when the client cancelled.
    async fn mcp_run_call(
        &self,
        session: &McpSession,
        key: &CallKey<'_>,
        start: Start,
        tag: &str,
        progress: Option<Value>,
        events: &dyn McpEvents,
    ) -> Result<ToolResult, ()> {
        let settings = self.mcp_settings(session, Some(tag.to_string()));
        let requester = Requester {
            name: session
                .caller
                .as_ref()
                .map_or_else(|| session.client_name.clone(), |d| d.name.clone()),
            mode: settings.permission_mode,
        };
        let (mut result, mut card) = match start {
            Start::Run => {
                self.mcp_take_slot(tag).await?;
                let result = match self
                    .mcp_outside_call(session, key.tool, key.arguments, &settings)
                    .await
                {
                    Some(result) => result,
                    None => {
                        // A coding agent's change belongs to its answer in the chat.
                        let turn = session
                            .caller
                            .as_ref()
                            .and_then(|caller| self.engine.caller_turn(caller.id));
                        self.engine
                            .call_tool_under(key.tool, key.arguments, settings, turn.as_deref())
                            .await
                    }
                };
                self.state.borrow_mut().running -= 1;
                let card = result.pending.as_ref().map(|p| p.id.clone());
                (Some(result), card)
            }
            Start::Resumed(result) => {
                let card = result.pending.as_ref().map(|p| p.id.clone());
                (Some(*result), card)
            }
            Start::Card(card) => (None, Some(card)),
        };
        let mut sent = 0u64;
        while let Some(id) = card.take() {
            if self.mcp_cancelled(tag) {
                break;
            }
            self.engine.set_requester(&id, requester.clone());
            self.mcp_set_card(tag, Some(id.clone()));
            events.present_card(&id);
            let answered = self
                .mcp_wait_for_answer(&id, tag, progress.as_ref(), &mut sent, events)
                .await?;
            card = answered.pending.as_ref().map(|p| p.id.clone());
            result = Some(answered);
        }
        match result {
            Some(result) if !self.mcp_cancelled(tag) => Ok(result),
            _ => Err(()),
        }
    }

    async fn mcp_take_slot(&self, tag: &str) -> Result<(), ()> {
        let mut waited = false;
        loop {
            {
                let mut state = self.state.borrow_mut();
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
                self.state.borrow_mut().waiting -= 1;
                return Err(());
            }
            self.engine.host().sleep(10).await;
        }
    }

    /// Waits until the card is answered, expires, or the client cancels
    /// (then the card is taken away, unless the client gave up because it
    /// timed out: then it is kept for a retry). Tells the client every few
    /// seconds that the user has not answered yet, so it does not time out.
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
                if self.mcp_timed_out(tag) {
                    return self.mcp_keep_for_retry(card, tag, events).await;
                }
                self.mcp_withdraw(card, events);
                return Err(());
            }
            if let Some(outcome) = self.engine.confirmation_outcome(card) {
                self.mcp_set_card(tag, None);
                return Ok(outcome);
            }
            let now = self.engine.host().now_ms();
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
            self.engine.host().sleep(CARD_POLL_MS).await;
        }
    }

    /// The client's timeout ran out while the card waited: the card stays
    /// for `TIMED_OUT_GRACE_MS`. The same call asked again in that time
    /// takes it over (or, once the user answered, gets the answer); after
    /// it the card is taken away as for a cancel. The call itself gets no
    /// response either way (the client no longer waits for one).
    async fn mcp_keep_for_retry(
        &self,
        card: &str,
        tag: &str,
        events: &dyn McpEvents,
    ) -> Result<ToolResult, ()> {
        let orphan = {
            // Left at the cancellation already, unless the card came after it.
            let now = self.engine.host().now_ms();
            let mut state = self.state.borrow_mut();
            let Some(index) = state.calls.iter().position(|c| c.tag == tag) else {
                return Err(());
            };
            state.calls[index].card = Some(card.to_string());
            state.leave_for_retry(index, now)
        };
        let Some(orphan) = orphan else {
            return Err(());
        };
        loop {
            let now = self.engine.host().now_ms();
            {
                let mut state = self.state.borrow_mut();
                let Some(index) = state
                    .orphans
                    .iter()
                    .position(|o| o.id == orphan && o.outcome.is_none())
                else {
                    // A retry took it over, or the user's answer is kept for one.
                    return Err(());
                };
                if let Some(outcome) = self.engine.confirmation_outcome(card) {
                    let kept = &mut state.orphans[index];
                    kept.outcome = Some(outcome);
                    kept.since_ms = now;
                    return Err(());
                }
                if now - state.orphans[index].since_ms >= TIMED_OUT_GRACE_MS {
                    state.orphans.remove(index);
                    drop(state);
                    self.mcp_withdraw(card, events);
                    return Err(());
                }
            }
            self.engine.host().sleep(CARD_POLL_MS).await;
        }
    }

    /// Closes the card nobody waits for any more, and takes it off the screen.
    fn mcp_withdraw(&self, card: &str, events: &dyn McpEvents) {
        self.state.borrow_mut().orphans.retain(|o| o.card != card);
        self.engine.withdraw(card);
        events.withdraw_card(card);
    }

    fn mcp_cancelled(&self, tag: &str) -> bool {
        self.state
            .borrow()
            .calls
            .iter()
            .any(|c| c.tag == tag && c.cancelled)
    }

    fn mcp_timed_out(&self, tag: &str) -> bool {
        self.state
            .borrow()
            .calls
            .iter()
            .any(|c| c.tag == tag && c.timed_out)
    }

    fn mcp_set_card(&self, tag: &str, card: Option<String>) {
        if let Some(call) = self
            .state
            .borrow_mut()
            .calls
            .iter_mut()
            .find(|c| c.tag == tag)
        {
            call.card = card;
        }
    }

    pub(super) fn mcp_log(
        &self,
        session: &McpSession,
        tool: &str,
        argv: Vec<String>,
        code: String,
        started: f64,
        events: &dyn McpEvents,
    ) {
        let now = self.engine.host().now_ms();
        let entry = ActivityEntry {
            // Whole milliseconds: the log is read back by serde_json, whose
            // parse of a 17-digit number may differ in the last bit, so a
            // fractional time could change on reload.
            time_ms: now.round(),
            client: session.client_name.clone(),
            client_version: session.client_version.clone(),
            tool: tool.to_string(),
            argv,
            code,
            duration_ms: (now - started).max(0.0),
        };
        events.activity(&entry.capped());
    }
}

/// A tool result as MCP content: the text the chat's model reads, the error
/// code first when it failed. When the CLI gave JSON or a table, that is the
/// structured content, and the text block carries the same JSON (as the
/// specification asks, for clients that read only text); a note about
/// entries withheld by the folder scopes follows in a block of its own.
fn call_result(result: &ToolResult, arguments: &Value) -> Value {
    let structured = result
        .ok
        .then(|| structured(&result.text, arguments))
        .flatten();
    let text = match (&result.error, &structured) {
        (Some(error), _) => format!("{}: {}", error.code, error.message),
        (None, Some(structured)) => structured.to_string(),
        (None, None) => result.text.clone(),
    };
    let mut content = vec![json!({ "type": "text", "text": text })];
    if let Some(withheld) = result.withheld {
        content.push(json!({
            "type": "text",
            "text": format!("[Withheld: {withheld} more entries are in folders the user does not let agents read.]"),
        }));
    }
    let mut value = json!({ "content": content, "isError": !result.ok });
    if let Some(structured) = structured {
        value["structuredContent"] = structured;
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
