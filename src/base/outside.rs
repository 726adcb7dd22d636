//! What the core and the host say to each other about the user's own MCP
//! servers ("outside tools"): how to reach a server, what it offers, one
//! call and how it ended. The MCP client itself (the official SDK) is the
//! shim's; every decision about these values is the core's.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How the host reaches one server: built by the core from the settings,
/// with the secrets it names already read from secret storage.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct OutsideConnect {
    /// The server's id in the settings (the host keeps one client per id).
    pub id: String,
    /// `stdio` or `http`.
    pub kind: &'static str,
    pub command: String,
    pub args: Vec<String>,
    pub env: Vec<(String, String)>,
    /// The working folder of a stdio server; empty: the vault's folder.
    pub cwd: String,
    pub url: String,
    pub headers: Vec<(String, String)>,
    /// POSIX: a stdio server leads its own process group, signalled as a
    /// whole; otherwise (Windows) taskkill ends its tree.
    pub process_group: bool,
    /// How long connecting and listing may take.
    pub timeout_ms: u32,
    /// With Local only on, the one address an HTTP server may be reached
    /// at, as the core checked it (the name is not looked up again).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub connect_address: Option<String>,
    /// The host the core read from `url`: the host refuses to connect when
    /// its own reading of `url` names another (empty for stdio).
    pub expected_host: String,
    /// The connection log's entry for this reach, to note where the socket went.
    #[serde(skip)]
    #[cfg_attr(test, ts(skip))]
    pub log_entry: Option<usize>,
    /// A digest of everything above: the host restarts a client whose
    /// digest changed (a new command, another secret).
    pub digest: String,
}

/// What the host learned from one server (`initialize`, `tools/list`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", default)]
pub struct OutsideListing {
    pub ok: bool,
    /// `serverInfo.name` and `.version`.
    pub name: String,
    pub version: String,
    pub tools: Vec<OutsideTool>,
    /// Why it could not connect or list, in the SDK's or the system's words.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub error: Option<String>,
    /// The server answered 401 and asks for an OAuth sign-in.
    pub needs_sign_in: bool,
    /// The last lines the server wrote to stderr (stdio).
    pub stderr_tail: String,
    /// The address an HTTP server's socket connected to, for the log.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub remote_address: Option<String>,
}

/// One tool as the server lists it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", default)]
pub struct OutsideTool {
    pub name: String,
    pub title: Option<String>,
    pub description: String,
    #[cfg_attr(test, ts(type = "unknown"))]
    pub input_schema: Value,
    /// `annotations` as the server gave them (`readOnlyHint`, …): hints
    /// from the server, shown on the card; only `readOnlyHint` relaxes anything.
    #[cfg_attr(test, ts(type = "unknown"))]
    pub annotations: Value,
    /// The annotations in words, filled in by the core for the settings tab.
    pub hints: Vec<String>,
}

impl OutsideTool {
    /// The server marked the tool as one that changes nothing.
    pub fn read_only(&self) -> bool {
        self.annotations.get("readOnlyHint") == Some(&Value::Bool(true))
    }

    /// The annotations in words, for the card and the settings tab.
    pub fn annotation_words(&self) -> Vec<&'static str> {
        let flag = |key: &str| self.annotations.get(key).and_then(Value::as_bool);
        let mut words = Vec::new();
        match flag("readOnlyHint") {
            Some(true) => words.push("read-only"),
            _ => {
                words.push("may change things");
                match flag("destructiveHint") {
                    Some(false) => words.push("not destructive"),
                    _ => words.push("may be destructive"),
                }
                if flag("idempotentHint") == Some(true) {
                    words.push("idempotent");
                }
            }
        }
        if flag("openWorldHint") != Some(false) {
            words.push("reaches outside");
        }
        words
    }
}

/// One call the host makes for the core.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct OutsideCall {
    pub server: OutsideConnect,
    pub tool: String,
    #[cfg_attr(test, ts(type = "Record<string, unknown>"))]
    pub arguments: Value,
    pub timeout_ms: u32,
    /// The chat whose turn makes the call, so Stop in that chat cancels it
    /// and no other chat's (as `abortHttp(tag)` does for model requests).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub tag: Option<String>,
}

/// How a call ended, as the host saw it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", tag = "status")]
pub enum OutsideOutcome {
    /// The server answered: a `CallToolResult` (`isError` may be set).
    #[serde(rename_all = "camelCase")]
    Answered {
        #[cfg_attr(test, ts(type = "unknown"))]
        result: Value,
    },
    /// A JSON-RPC error (`code`, `message`).
    #[serde(rename_all = "camelCase")]
    Failed {
        #[cfg_attr(test, ts(type = "number"))]
        code: i64,
        message: String,
    },
    /// No answer within the call's time.
    TimedOut,
    /// Stop was pressed; the server was sent `notifications/cancelled`.
    Cancelled,
    /// The server's process ended or its connection closed mid-call.
    #[serde(rename_all = "camelCase")]
    Crashed {
        message: String,
        stderr_tail: String,
    },
    /// It could not be reached at all.
    #[serde(rename_all = "camelCase")]
    Unreachable { message: String },
}

/// One outside tool as offered in this round.
#[derive(Clone, Debug, PartialEq)]
pub struct OfferedTool {
    /// The name the model calls it by.
    pub name: String,
    pub server: String,
    /// The name the server gave itself.
    pub server_name: String,
    pub tool: OutsideTool,
}
