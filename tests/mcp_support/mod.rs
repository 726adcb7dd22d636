//! The MCP tests' shared fixture: a core over a fake CLI with a few notes,
//! exchanges as a real client posts them, and the events the core sends.

#![allow(dead_code)]

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use serde_json::{json, Value};
use vault_agent::base::host::{Os, ProcessOutcome};
use vault_agent::doors::mcp::{ActivityEntry, McpEvents, McpExchange, McpReply, MCP_TOKEN_SECRET};
use vault_agent::testing::{block_on, FakeHost};
use vault_agent::VaultAgent;

pub const TOKEN: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
pub const PORT: u32 = 27125;

/// The core, and every write the fake CLI was asked to run.
pub type Fixture = (VaultAgent<FakeHost>, Rc<RefCell<Vec<Vec<String>>>>);
/// A name, a change to a good exchange, and the status it must get.
pub type GateCase = (&'static str, Box<dyn Fn(&mut McpExchange)>, u16);

#[derive(Default)]
pub struct Recorded {
    pub notifications: RefCell<Vec<Value>>,
    pub presented: RefCell<Vec<String>>,
    pub withdrawn: RefCell<Vec<String>>,
    pub activity: RefCell<Vec<ActivityEntry>>,
    /// What `fresh_id` answers (a good id when unset), and how often it was asked.
    pub fresh_id: Option<String>,
    pub ids_made: RefCell<usize>,
}

impl McpEvents for Recorded {
    fn notify(&self, message: &Value) {
        self.notifications.borrow_mut().push(message.clone());
    }
    fn present_card(&self, id: &str) {
        self.presented.borrow_mut().push(id.to_string());
    }
    fn withdraw_card(&self, id: &str) {
        self.withdrawn.borrow_mut().push(id.to_string());
    }
    fn activity(&self, entry: &ActivityEntry) {
        self.activity.borrow_mut().push(entry.clone());
    }
    fn fresh_id(&self) -> String {
        *self.ids_made.borrow_mut() += 1;
        self.fresh_id
            .clone()
            .unwrap_or_else(|| format!("session-{:016}", self.ids_made.borrow()))
    }
}

/// A CLI over a few notes with a `status` property; `writes` records every
/// write it was asked to run.
pub fn new_core(settings: Value) -> Fixture {
    new_core_with(settings, Some(TOKEN))
}

pub fn new_core_with(settings: Value, token: Option<&str>) -> Fixture {
    let writes = Rc::new(RefCell::new(Vec::new()));
    let log = writes.clone();
    let mut host = FakeHost::new(Os::Linux, move |request| {
        let args = &request.args;
        let value = |key: &str| {
            args.iter()
                .find_map(|a| a.strip_prefix(&format!("{key}=")).map(str::to_string))
        };
        let out = match args[0].as_str() {
            "files" => (1..=150)
                .map(|i| format!("Notes/Note {i:03}.md"))
                .chain(["Private/Secret.md".to_string()])
                .collect::<Vec<_>>()
                .join("\n"),
            "read" => format!(
                "# {}\nBody of {}",
                value("path").unwrap_or_default(),
                value("path").unwrap_or_default()
            ),
            "property:read" => "active".into(),
            "property:set" => {
                log.borrow_mut().push(args.clone());
                format!("Set status: {}", value("value").unwrap_or_default())
            }
            "tags" => "#project\t3\n#idea\t1".into(),
            "search" if args.iter().any(|a| a == "format=json") => {
                r#"["Notes/Note 001.md"]"#.into()
            }
            _ => "ok".into(),
        };
        ProcessOutcome::success(&out)
    });
    host.env.insert("PATH".into(), "/usr/bin".into());
    host.add_executable("/usr/bin/obsidian");
    if let Some(token) = token {
        host.secrets.insert(MCP_TOKEN_SECRET.into(), token.into());
    }
    host.yield_on_sleep = true;
    let (core, _) = VaultAgent::new(host, &settings);
    (core, writes)
}

pub fn exchange(method: &str, body: Value, session: Option<&str>) -> McpExchange {
    let mut headers = BTreeMap::new();
    headers.insert("host".to_string(), format!("127.0.0.1:{PORT}"));
    headers.insert("authorization".to_string(), format!("Bearer {TOKEN}"));
    headers.insert("content-type".to_string(), "application/json".to_string());
    // What the official SDKs send.
    headers.insert(
        "accept".to_string(),
        "application/json, text/event-stream".to_string(),
    );
    if let Some(session) = session {
        headers.insert("mcp-session-id".to_string(), session.to_string());
    }
    McpExchange {
        exchange: 1,
        method: method.into(),
        path: "/mcp".into(),
        headers,
        body: body.to_string(),
        body_too_large: false,
        port: PORT,
    }
}

pub fn body(reply: &McpReply) -> Value {
    serde_json::from_str(&reply.body).expect("a JSON body")
}

pub fn header<'a>(reply: &'a McpReply, name: &str) -> Option<&'a str> {
    reply
        .headers
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// Initializes as Claude Code and returns the session id.
pub fn initialize(core: &VaultAgent<FakeHost>, events: &Recorded) -> String {
    initialize_with(core, events, "2025-06-18", TOKEN)
}

/// Initializes under revision `version` with `token`; the session id.
pub fn initialize_with(
    core: &VaultAgent<FakeHost>,
    events: &Recorded,
    version: &str,
    token: &str,
) -> String {
    let mut init = exchange(
        "POST",
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": version,
            "capabilities": {},
            "clientInfo": {"name": "claude-code", "title": "Claude Code", "version": "2.1.0"},
        }}),
        None,
    );
    init.headers
        .insert("authorization".into(), format!("Bearer {token}"));
    let reply = block_on(core.mcp.handle(&init, events));
    assert_eq!(reply.status, 200, "{}", reply.body);
    header(&reply, "mcp-session-id")
        .expect("a session id")
        .to_string()
}

pub fn request(
    core: &VaultAgent<FakeHost>,
    events: &Recorded,
    session: &str,
    method: &str,
    params: Value,
) -> Value {
    let reply = block_on(core.mcp.handle(
        &exchange(
            "POST",
            json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params}),
            Some(session),
        ),
        events,
    ));
    assert_eq!(reply.status, 200, "{}", reply.body);
    body(&reply)
}

/// Runs two futures together inside another (`testing::join` is the outermost one).
pub async fn both<A: std::future::Future, B: std::future::Future>(
    a: A,
    b: B,
) -> (A::Output, B::Output) {
    use std::task::Poll;
    let (mut a, mut b) = (std::pin::pin!(a), std::pin::pin!(b));
    let (mut out_a, mut out_b) = (None, None);
    std::future::poll_fn(|context| {
        if out_a.is_none() {
            if let Poll::Ready(output) = a.as_mut().poll(context) {
                out_a = Some(output);
            }
        }
        if out_b.is_none() {
            if let Poll::Ready(output) = b.as_mut().poll(context) {
                out_b = Some(output);
            }
        }
        if out_a.is_some() && out_b.is_some() {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    })
    .await;
    (out_a.unwrap(), out_b.unwrap())
}

/// A `tools/call` exchange with request id `id`.
pub fn call(id: u32, name: &str, arguments: Value, session: &str) -> McpExchange {
    exchange(
        "POST",
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": arguments}}),
        Some(session),
    )
}

/// The property change the tests ask for: a card in every mode that allows changes.
pub fn set_status(value: &str) -> Value {
    json!({"command": "property:set", "path": "Notes/Note 001.md", "name": "status", "value": value})
}
