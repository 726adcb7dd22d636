//! The JavaScript face of the core. This module only translates: JS values in,
//! a core call, JS values out. All decisions live in the core.

mod embeddings;
mod host;
mod in_place;
mod interop;
mod search;

use std::rc::Rc;

use wasm_bindgen::prelude::*;

use self::host::{HostFunctions, JsHost};
use self::interop::{
    from_js, into_error, lenient_from_js, promise, short_text, to_js, value_from_js,
};
use crate::base::error::ToolError;
use crate::base::host::PlatformFacts;
use crate::base::input::{CONVERSATION, JOURNAL, MAX_TOOL_ID_CHARS, SETTINGS, TOOL_ARGUMENTS};
use crate::base::result::ToolResult;
use crate::doors::chat::conversation::{Attachment, Conversation, Rewind};
use crate::doors::chat::{ChatEvent, ChatEvents, Decision};
use crate::settings::presets::PRESETS;
use crate::vault_agent::VaultAgent as Core;

/// An MCP exchange: the body (at most `mcp::MAX_BODY_BYTES`, checked again
/// in the core) as one string, with room for JSON escapes and headers.
const MCP_EXCHANGE: crate::base::input::InputLimits = crate::base::input::InputLimits {
    max_depth: 8,
    max_string_chars: 2 * crate::doors::mcp::MAX_BODY_BYTES,
    max_items: 200,
    max_total_bytes: 5 * crate::doors::mcp::MAX_BODY_BYTES,
};

/// The headers of an MCP exchange, before its body is read.
const MCP_HEAD: crate::base::input::InputLimits = crate::base::input::InputLimits {
    max_depth: 8,
    max_string_chars: 64 * 1024,
    max_items: 200,
    max_total_bytes: 256 * 1024,
};

/// A coding agent's permission question: a title and a handful of options.
const AGENT_QUESTION: crate::base::input::InputLimits = crate::base::input::InputLimits {
    max_depth: 4,
    max_string_chars: 4096,
    max_items: 32,
    max_total_bytes: 64 * 1024,
};

/// A saved prompt's draft: its name, description and text, and the note's text now.
const PROMPT_DRAFT: crate::base::input::InputLimits = crate::base::input::InputLimits {
    max_depth: 2,
    max_string_chars: 128 * 1024,
    max_items: 8,
    max_total_bytes: 512 * 1024,
};

/// What the class's TypeScript signatures (`unchecked_param_type`,
/// `unchecked_return_type` below) name, for wasm-bindgen's generated
/// `build/wasm/vault_agent.d.ts`: the types generated from Rust and the JS
/// side's own shapes. The shim's `CoreHandle` is that class, so tsc checks
/// every call against these signatures.
#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = r#"
import type { ToolDescriptor, ToolResult } from "../../plugin-shim/generated/api-types";
import type {
    AgentAnswer, AgentAnswerText, AgentChat, AgentFileWrite, AgentProfile, AgentQuestion, AgentRefusal, Attachment, ChatEvent, ChatMessage,
    ChatSettings, CliStatus, CodingAgentSettings, ConfirmationCard, ConnectionEntry, ConnectionReport, Conversation, EditReview, ModelCheckReport, JournalEntryView,
    EmbeddingStatus, LoadedConversation, McpActivityRead, McpClientSetup, McpExchange, McpListenerLimits, McpReply,
    AgentServers, OutsideImport, OutsideListing, OutsideSummary, SignIn,
    Passage, PlatformFacts, ProcessTree, ProfileSummary, PromptDraft, PromptNote, ProviderPreset, SavedPrompts, SearchStatus, SearchVaultEvent, UserSearch, Skills, AddedSkills,
    TurnChanges, VaultAgentSettings,
} from "../../plugin-shim/generated/core-types";
import type {
    ChatStart, CodingAgentEdit, DuePrompts, HostFunctions, McpEventFunctions, McpTool, ProfileEdit, TurnResult,
} from "../../plugin-shim/core/host-types";
"#;

/// Ids and hashes are short; anything longer is not one of ours.
const MAX_ID_CHARS: usize = 200;

#[wasm_bindgen(start)]
fn start() {
    console_error_panic_hook::set_once();
    crate::base::vault_path::use_engine_nfc(engine_nfc);
}

/// `String.prototype.normalize("NFC")` of the JS engine.
fn engine_nfc(text: &str) -> String {
    String::from(js_sys::JsString::from(text).normalize("NFC"))
}

/// The core as the shim sees it. Created once in `onload`.
#[wasm_bindgen]
pub struct VaultAgent {
    core: Rc<Core<JsHost>>,
    startup_repairs: Vec<String>,
}

#[wasm_bindgen]
impl VaultAgent {
    /// `host` holds the shim's effect functions, `platform` the app's facts,
    /// `storedSettings` whatever `loadData()` returned (null on first run).
    #[wasm_bindgen(constructor)]
    pub fn new(
        host: HostFunctions,
        #[wasm_bindgen(unchecked_param_type = "PlatformFacts")] platform: JsValue,
        #[wasm_bindgen(unchecked_param_type = "unknown")] stored_settings: JsValue,
    ) -> Result<VaultAgent, JsError> {
        let facts: PlatformFacts = from_js(&platform, &CONVERSATION).map_err(into_error)?;
        // Loading never fails on what data.json holds: unreadable parts become
        // defaults, each with a line in the log.
        let stored = lenient_from_js(&stored_settings, &SETTINGS);
        let mut startup_repairs = stored.repairs.clone();
        let (core, repairs) = Core::load(JsHost::new(host, facts), &stored);
        startup_repairs.extend(repairs);
        Ok(VaultAgent {
            core: Rc::new(core),
            startup_repairs,
        })
    }

    /// What had to be repaired in the stored settings at load.
    #[wasm_bindgen(js_name = startupRepairs, unchecked_return_type = "string[]")]
    pub fn startup_repairs(&self) -> Vec<String> {
        self.startup_repairs.clone()
    }

    #[wasm_bindgen(js_name = listTools, unchecked_return_type = "ToolDescriptor[]")]
    pub fn list_tools(&self) -> Result<JsValue, JsError> {
        to_js(&self.core.list_tools())
    }

    /// Resolves to a `ToolResult` whatever the caller passed: arguments that
    /// are not bounded plain data become an `invalid_arguments` result.
    #[wasm_bindgen(js_name = callTool, unchecked_return_type = "Promise<ToolResult>")]
    pub fn call_tool(
        &self,
        #[wasm_bindgen(unchecked_param_type = "unknown")] tool_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "unknown")] args: JsValue,
    ) -> js_sys::Promise {
        let core = self.core.clone();
        let tool_id = short_text(&tool_id, MAX_TOOL_ID_CHARS);
        let args = value_from_js(&args, &TOOL_ARGUMENTS);
        promise(async move {
            let result = match (tool_id, args) {
                (None, _) => ToolResult::failure(
                    &ToolError::invalid(
                        "callTool",
                        format!("the tool id must be text of at most {MAX_TOOL_ID_CHARS} characters, such as \"obsidianNotes\""),
                    ),
                    0.0,
                ),
                (Some(tool), Err(problem)) => ToolResult::failure(
                    &ToolError::invalid(&tool, format!("arguments: {problem}")),
                    0.0,
                ),
                (Some(tool), Ok(args)) => core.call_tool(&tool, &args).await,
            };
            to_js(&result).map_err(JsValue::from)
        })
    }

    /// Answers one exchange of the MCP endpoint: resolves to `{ status,
    /// headers, body }`. The body arrives as text and is parsed (bounded)
    /// in the core.
    #[wasm_bindgen(js_name = mcpHandle, unchecked_return_type = "Promise<McpReply>")]
    pub fn mcp_handle(
        &self,
        #[wasm_bindgen(unchecked_param_type = "McpExchange")] exchange: JsValue,
        events: McpEventFunctions,
    ) -> js_sys::Promise {
        let core = self.core.clone();
        let exchange: Result<crate::doors::mcp::McpExchange, _> = from_js(&exchange, &MCP_EXCHANGE);
        promise(async move {
            let exchange = exchange.map_err(|e| JsValue::from(into_error(e)))?;
            let reply = core.mcp.handle(&exchange, &events).await;
            to_js(&reply).map_err(JsValue::from)
        })
    }

    /// Decides an MCP exchange from its headers alone (`McpExchange` without
    /// a body): null lets the listener read the body; otherwise the reply.
    #[wasm_bindgen(js_name = mcpAdmit, unchecked_return_type = "McpReply | null")]
    pub fn mcp_admit(
        &self,
        #[wasm_bindgen(unchecked_param_type = "McpExchange")] head: JsValue,
    ) -> Result<JsValue, JsError> {
        let head: crate::doors::mcp::McpExchange =
            from_js(&head, &MCP_HEAD).map_err(|e| JsError::new(&e))?;
        match self.core.mcp.admit(&head) {
            Some(reply) => to_js(&reply),
            None => Ok(JsValue::NULL),
        }
    }

    /// The bounds the MCP listener enforces (`McpListenerLimits`).
    #[wasm_bindgen(js_name = mcpListenerLimits, unchecked_return_type = "McpListenerLimits")]
    pub fn mcp_listener_limits(&self) -> Result<JsValue, JsError> {
        to_js(&crate::doors::mcp::listener::limits())
    }

    /// The stored MCP activity log's text, checked and cut (`McpActivityRead`).
    #[wasm_bindgen(js_name = mcpActivityRead, unchecked_return_type = "McpActivityRead")]
    pub fn mcp_activity_read(&self, text: String) -> Result<JsValue, JsError> {
        to_js(&crate::doors::mcp::activity::read_stored(&text))
    }

    /// Each MCP client's set-up for the server on `port` (`McpClientSetup[]`).
    #[wasm_bindgen(js_name = mcpClientSetups, unchecked_return_type = "McpClientSetup[]")]
    pub fn mcp_client_setups(&self, port: u32, token: Option<String>) -> Result<JsValue, JsError> {
        to_js(&crate::doors::mcp::setups::client_setups(
            port,
            token.as_deref(),
        ))
    }

    /// The skills to put before the first message of a coding agent's
    /// session (`doors::acp::skills`); empty when there are none.
    #[wasm_bindgen(js_name = agentSkills, unchecked_return_type = "Promise<string>")]
    pub fn agent_skills(&self) -> js_sys::Promise {
        let core = self.core.clone();
        promise(async move { Ok(JsValue::from(core.acp.skills_handoff().await)) })
    }

    /// An ACP agent's MCP token for one session (`mode` a stored mode name).
    #[wasm_bindgen(js_name = openAgentDoor)]
    pub fn open_agent_door(&self, token: String, name: String, mode: String) -> bool {
        match crate::settings::PermissionMode::from_key(&mode) {
            Some(mode) => self.core.acp.open_door(&token, &name, mode),
            None => false,
        }
    }

    /// The user's MCP servers to give the coding agent behind door `token`
    /// in `session/new` (`mode` a stored mode name; `http`: it takes HTTP servers).
    #[wasm_bindgen(js_name = agentOutsideServers, unchecked_return_type = "AgentServers")]
    pub fn agent_outside_servers(
        &self,
        token: String,
        mode: String,
        http: bool,
    ) -> Result<JsValue, JsError> {
        let mode = crate::settings::PermissionMode::from_key(&mode)
            .ok_or_else(|| JsError::new(&format!("unknown permission mode {mode:?}")))?;
        to_js(&self.core.acp.outside_servers(&token, mode, http))
    }

    /// Why the agent behind door `token` must be ended now that the mode
    /// (`mode`, a stored mode name) or the servers' settings changed, or
    /// undefined. An unknown mode name ends it (fail closed).
    #[wasm_bindgen(js_name = agentServersWithdrawn)]
    pub fn agent_servers_withdrawn(&self, token: String, mode: String) -> Option<String> {
        let mode = crate::settings::PermissionMode::from_key(&mode)
            .unwrap_or(crate::settings::PermissionMode::ReadOnly);
        self.core.acp.withdrawn(&token, mode)
    }

    #[wasm_bindgen(js_name = closeAgentDoor)]
    pub fn close_agent_door(&self, token: String) {
        self.core.acp.close_door(&token);
    }

    /// A coding agent's own permission question (`AgentQuestion`): resolves
    /// to an `AgentAnswer`, asking the user or answering at once.
    #[wasm_bindgen(js_name = agentQuestion, unchecked_return_type = "AgentAnswer")]
    pub fn agent_question(
        &self,
        token: String,
        #[wasm_bindgen(unchecked_param_type = "AgentQuestion")] question: JsValue,
    ) -> Result<JsValue, JsError> {
        let question: crate::policy::agent_questions::AgentQuestion =
            from_js(&question, &AGENT_QUESTION).map_err(|e| JsError::new(&e))?;
        to_js(&self.core.acp.question(&token, &question))
    }

    /// The vault path a coding agent's absolute file path names; throws
    /// with why, when it names none (outside the vault, not a note path).
    #[wasm_bindgen(js_name = agentFilePath)]
    pub fn agent_file_path(&self, path: String) -> Result<String, JsError> {
        self.core.acp.file_path(&path).map_err(|e| JsError::new(&e))
    }

    /// Which write an agent's `fs/write_text_file` becomes: resolves to an
    /// `AgentFileWrite` (a call to run, nothing to do, or a refusal).
    #[wasm_bindgen(js_name = agentFileWrite, unchecked_return_type = "Promise<AgentFileWrite>")]
    pub fn agent_file_write(
        &self,
        path: String,
        content: String,
        requester: String,
        mode: String,
    ) -> js_sys::Promise {
        let core = self.core.clone();
        promise(async move {
            let mode = crate::settings::PermissionMode::from_key(&mode);
            let plan = match mode {
                Some(mode) => {
                    core.acp
                        .file_write(&path, &content, &requester, Some(mode))
                        .await
                }
                None => crate::policy::agent_files::AgentFileWrite::Refused {
                    code: "invalid_arguments".into(),
                    message: format!("use {}", crate::settings::PermissionMode::keys_listed()),
                },
            };
            to_js(&plan).map_err(JsValue::from)
        })
    }

    /// The user picked `option_id` for the agent's question.
    #[wasm_bindgen(js_name = agentQuestionAnswered)]
    pub fn agent_question_answered(
        &self,
        token: String,
        #[wasm_bindgen(unchecked_param_type = "AgentQuestion")] question: JsValue,
        option_id: String,
    ) -> Result<(), JsError> {
        let question: crate::policy::agent_questions::AgentQuestion =
            from_js(&question, &AGENT_QUESTION).map_err(|e| JsError::new(&e))?;
        self.core
            .acp
            .question_answered(&token, &question, &option_id);
        Ok(())
    }

    /// A turn of the agent behind door `token` starts (`open`) or ends; its
    /// changes are journalled as the answer to the message `conversation`
    /// is about to keep (an id of the door's own when none is given).
    #[wasm_bindgen(js_name = agentTurn)]
    pub fn agent_turn(
        &self,
        token: String,
        open: bool,
        #[wasm_bindgen(unchecked_param_type = "Conversation | null | undefined")]
        conversation: JsValue,
    ) -> Result<(), JsError> {
        let answer = match (open, conversation.is_null() || conversation.is_undefined()) {
            (false, _) => None,
            (true, true) => Some(self.core.acp.fresh_turn()),
            (true, false) => {
                let conversation: Conversation =
                    from_js(&conversation, &CONVERSATION).map_err(into_error)?;
                Some(conversation.next_turn_id())
            }
        };
        self.core.acp.turn(&token, answer);
        Ok(())
    }

    /// `callToolThrough` for the coding agent behind door `token` (its
    /// `fs/write_text_file`): a change is journalled under its answer.
    #[wasm_bindgen(js_name = agentCallTool, unchecked_return_type = "Promise<ToolResult>")]
    pub fn agent_call_tool(
        &self,
        token: String,
        tool: String,
        #[wasm_bindgen(unchecked_param_type = "unknown")] args: JsValue,
        requester: String,
        mode: String,
    ) -> js_sys::Promise {
        let core = self.core.clone();
        let args = value_from_js(&args, &TOOL_ARGUMENTS);
        promise(async move {
            let cap = crate::settings::PermissionMode::from_key(&mode);
            let result = match args {
                Ok(args) => {
                    core.acp
                        .call_tool(&token, &tool, &args, &requester, cap)
                        .await
                }
                Err(problem) => ToolResult::failure(
                    &ToolError::invalid(&tool, format!("arguments: {problem}")),
                    0.0,
                ),
            };
            to_js(&result).map_err(JsValue::from)
        })
    }

    /// How images go to coding agent `agent`: `{ maxSide, maxBytes }`, or
    /// `{ refusal }` when it did not advertise `image` (`advertised`).
    #[wasm_bindgen(
        js_name = agentImages,
        unchecked_return_type = "{ maxSide: number; maxBytes: number } | { refusal: string }"
    )]
    pub fn agent_images(&self, agent: String, advertised: bool) -> Result<JsValue, JsError> {
        match crate::policy::agent_session::images(&agent, advertised) {
            Ok(limits) => to_js(&limits),
            Err(refusal) => to_js(&serde_json::json!({ "refusal": refusal })),
        }
    }

    /// Whether an image may be decoded and sent, from its first bytes
    /// (`head`), its last ones (`tail`) and its `size`, before anything
    /// decodes it: `{ mime, width, height }`, or `{ refusal }`, a clause
    /// saying why and what to do (`doors::chat::images::inspect`).
    #[wasm_bindgen(
        js_name = imageHeader,
        unchecked_return_type = "{ mime: string; width: number; height: number } | { refusal: string }"
    )]
    pub fn image_header(&self, head: &[u8], tail: &[u8], size: f64) -> Result<JsValue, JsError> {
        use crate::doors::chat::images::{inspect, IMAGE_HEAD_BYTES, IMAGE_TAIL_BYTES};
        let head = &head[..head.len().min(IMAGE_HEAD_BYTES)];
        let tail = &tail[tail.len().saturating_sub(IMAGE_TAIL_BYTES)..];
        match inspect(head, tail, size as usize) {
            Ok(header) => to_js(&header),
            Err(refusal) => to_js(&serde_json::json!({ "refusal": refusal })),
        }
    }

    /// Whether the agent's request (`method`, ACP's name) may be served now:
    /// `null`, or an `AgentRefusal` (the agent's error and the user's notice).
    #[wasm_bindgen(js_name = agentRequest, unchecked_return_type = "AgentRefusal | null")]
    pub fn agent_request(
        &self,
        token: String,
        method: String,
        subject: String,
    ) -> Result<JsValue, JsError> {
        let Some(request) = crate::policy::agent_session::AgentRequest::from_method(&method) else {
            return Err(JsError::new(&format!("{method} is not an agent request")));
        };
        match self.core.acp.request(&token, request, &subject) {
            Some(refusal) => to_js(&refusal),
            None => Ok(JsValue::NULL),
        }
    }

    /// A coding agent's `fs/read_text_file` of the vault path `path`
    /// (`line`, `limit` as ACP gives them): resolves to a `ToolResult` whose
    /// text is the note's whole text, or why it was refused.
    #[wasm_bindgen(js_name = agentReadFile, unchecked_return_type = "Promise<ToolResult>")]
    pub fn agent_read_file(
        &self,
        path: String,
        mode: String,
        line: Option<u32>,
        limit: Option<u32>,
    ) -> js_sys::Promise {
        let core = self.core.clone();
        promise(async move {
            let cap = crate::settings::PermissionMode::from_key(&mode);
            let result = core.acp.read_file(&path, cap, line, limit).await;
            to_js(&result).map_err(JsValue::from)
        })
    }

    /// How a coding agent's process is ended with everything it started
    /// (`ProcessTree`): its own process group on POSIX, taskkill on Windows.
    #[wasm_bindgen(js_name = agentProcessTree, unchecked_return_type = "ProcessTree")]
    pub fn agent_process_tree(&self) -> Result<JsValue, JsError> {
        to_js(&self.core.acp.process_tree())
    }

    /// A coding agent answered `session/new` with `auth_required`: sign in
    /// with the key it was given, or stop with what the user must do.
    /// `offered`: `initialize`'s `authMethods` as the agent sent them;
    /// `keys_set`: its key variables that hold a value; `tried`: the agent's
    /// answer to an `authenticate` already sent.
    #[wasm_bindgen(js_name = agentSignIn, unchecked_return_type = "SignIn")]
    pub fn agent_sign_in(
        &self,
        agent: String,
        #[wasm_bindgen(unchecked_param_type = "unknown")] offered: JsValue,
        keys_set: Vec<String>,
        tried: Option<String>,
    ) -> Result<JsValue, JsError> {
        use crate::doors::acp::sign_in::{sign_in, OfferedMethod};
        let offered = value_from_js(&offered, &SETTINGS).map_err(into_error)?;
        // One odd entry (an id that is not a string) loses that entry only.
        let offered: Vec<OfferedMethod> = offered
            .as_array()
            .map(|list| {
                list.iter()
                    .map(|m| serde_json::from_value(m.clone()).unwrap_or_default())
                    .collect()
            })
            .unwrap_or_default();
        let profiles = self.core.settings().coding_agents.profiles();
        let profile = profiles
            .iter()
            .find(|p| p.id == agent)
            .ok_or_else(|| JsError::new(&format!("{agent:?} is not a coding agent")))?;
        to_js(&sign_in(profile, &offered, &keys_set, tried.as_deref()))
    }

    /// Obsidian reported a change in the vault (a vault or metadata-cache
    /// event): no kept read answer is trusted any more.
    #[wasm_bindgen(js_name = forgetReads)]
    pub fn forget_reads(&self) {
        self.core.forget_reads();
    }

    /// `[answers kept now, answers given from the cache so far]`.
    #[wasm_bindgen(js_name = readCacheStats)]
    pub fn read_cache_stats(&self) -> Vec<f64> {
        let (kept, hits) = self.core.read_cache_stats();
        vec![kept as f64, hits as f64]
    }

    /// The MCP client closed exchange `exchange` before its answer.
    #[wasm_bindgen(js_name = mcpAbandon)]
    pub fn mcp_abandon(&self, exchange: u32) {
        self.core.mcp.abandon(exchange);
    }

    /// The tools as MCP lists them (for the settings tab and `vault-agent:tools`).
    #[wasm_bindgen(js_name = mcpTools, unchecked_return_type = "McpTool[]")]
    pub fn mcp_tools(&self) -> Result<JsValue, JsError> {
        to_js(&self.core.mcp.tools())
    }

    /// `callTool` for the plugin's CLI commands: `mode` (a stored mode
    /// name, or null) narrows the chat's mode; a card names `requester`.
    #[wasm_bindgen(js_name = callToolThrough, unchecked_return_type = "Promise<ToolResult>")]
    pub fn call_tool_through(
        &self,
        #[wasm_bindgen(unchecked_param_type = "unknown")] tool_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "unknown")] args: JsValue,
        requester: String,
        mode: Option<String>,
    ) -> js_sys::Promise {
        let core = self.core.clone();
        let tool_id = short_text(&tool_id, MAX_TOOL_ID_CHARS);
        let args = value_from_js(&args, &TOOL_ARGUMENTS);
        promise(async move {
            let cap = match mode
                .as_deref()
                .map(crate::settings::PermissionMode::from_key)
            {
                Some(None) => {
                    let error = ToolError::invalid(
                        "mode",
                        format!(
                            "use {} (never more than the chat allows)",
                            crate::settings::PermissionMode::keys_listed()
                        ),
                    );
                    return to_js(&ToolResult::failure(&error, 0.0)).map_err(JsValue::from);
                }
                Some(Some(cap)) => Some(cap),
                None => None,
            };
            let result = match (tool_id, args) {
                (Some(tool), Ok(args)) => {
                    core.call_tool_through(&tool, &args, &requester, cap, None)
                        .await
                }
                (tool, Err(problem)) => ToolResult::failure(
                    &ToolError::invalid(
                        tool.as_deref().unwrap_or("call"),
                        format!("arguments: {problem}"),
                    ),
                    0.0,
                ),
                (None, _) => ToolResult::failure(
                    &ToolError::invalid("call", "the tool id must be short text"),
                    0.0,
                ),
            };
            to_js(&result).map_err(JsValue::from)
        })
    }

    #[wasm_bindgen(unchecked_return_type = "VaultAgentSettings")]
    pub fn settings(&self) -> Result<JsValue, JsError> {
        to_js(&self.core.settings().to_json())
    }

    /// Normalises and applies settings from the settings tab; returns
    /// `{ settings, repairs }` so the tab shows (and saves) what is in effect.
    #[wasm_bindgen(
        js_name = setSettings,
        unchecked_return_type = "{ settings: VaultAgentSettings; repairs: string[] }"
    )]
    pub fn set_settings(
        &self,
        #[wasm_bindgen(unchecked_param_type = "unknown")] stored: JsValue,
    ) -> Result<JsValue, JsError> {
        let stored = lenient_from_js(&stored, &SETTINGS);
        let mut repairs = stored.repairs.clone();
        let normalised = self.core.set_loaded_settings(&stored);
        repairs.extend(normalised.repairs);
        to_js(&serde_json::json!({
            "settings": normalised.settings.to_json(),
            "repairs": repairs,
        }))
    }

    /// The user clicked Approve on the card whose command line hashes to
    /// `argvHash`; `forChat`: "Approve for this chat" on a coding agent's
    /// outside card (the core refuses it on any other). Only the plugin's
    /// own UI calls this; it is not in the public API.
    #[wasm_bindgen(unchecked_return_type = "Promise<ToolResult>")]
    pub fn approve(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] argv_hash: JsValue,
        for_chat: Option<bool>,
    ) -> js_sys::Promise {
        let core = self.core.clone();
        let id = id_text(&id);
        let argv_hash = short_text(&argv_hash, MAX_ID_CHARS).unwrap_or_default();
        promise(async move {
            let result = if for_chat == Some(true) {
                core.approve_for_chat(&id, &argv_hash).await
            } else {
                core.approve(&id, &argv_hash).await
            };
            to_js(&result).map_err(JsValue::from)
        })
    }

    /// The user clicked Reject; returns what to tell the model.
    #[wasm_bindgen(unchecked_return_type = "ToolResult")]
    pub fn reject(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
    ) -> Result<JsValue, JsError> {
        to_js(&self.core.reject(&id_text(&id)))
    }

    /// What the confirmation card for `id` shows, or null.
    #[wasm_bindgen(js_name = confirmationCard, unchecked_return_type = "ConfirmationCard | null")]
    pub fn confirmation_card(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
    ) -> Result<JsValue, JsError> {
        to_js(&self.core.confirmation_card(&id_text(&id)))
    }

    /// The answer of a confirmation that is over, or null while it waits.
    #[wasm_bindgen(js_name = confirmationOutcome, unchecked_return_type = "ToolResult | null")]
    pub fn confirmation_outcome(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
    ) -> Result<JsValue, JsError> {
        to_js(&self.core.confirmation_outcome(&id_text(&id)))
    }

    /// Confirmations waiting for the user.
    #[wasm_bindgen(js_name = openConfirmations, unchecked_return_type = "ConfirmationCard[]")]
    pub fn open_confirmations(&self) -> Result<JsValue, JsError> {
        to_js(&self.core.open_confirmations())
    }

    /// The expiry result once a confirmation has expired, else null.
    #[wasm_bindgen(js_name = expiredResult, unchecked_return_type = "ToolResult | null")]
    pub fn expired_result(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
    ) -> Result<JsValue, JsError> {
        to_js(&self.core.expired_result(&id_text(&id)))
    }

    /// Loads the undo journal from what `journal.json` held (parsed by the
    /// shim; null when there is none or it was not JSON). Never fails:
    /// returns a line for the log for each part that could not be read.
    #[wasm_bindgen(js_name = loadJournal)]
    pub fn load_journal(
        &self,
        #[wasm_bindgen(unchecked_param_type = "unknown")] stored: JsValue,
    ) -> Vec<String> {
        let stored = lenient_from_js(&stored, &JOURNAL);
        let mut repairs = stored.repairs;
        repairs.extend(self.core.load_journal(&stored.value));
        repairs
    }

    /// The user clicked Undo (or chose "Undo anyway" with the conflict's
    /// hash). Only the plugin's own UI calls this; it is not in the public
    /// API, and no tool reaches it.
    #[wasm_bindgen(unchecked_return_type = "Promise<ToolResult>")]
    pub fn undo(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | null")] anyway: JsValue,
    ) -> js_sys::Promise {
        let core = self.core.clone();
        let id = id_text(&id);
        let anyway = short_text(&anyway, MAX_ID_CHARS);
        promise(
            async move { to_js(&core.undo(&id, anyway.as_deref()).await).map_err(JsValue::from) },
        )
    }

    /// "Undo the agent's last change".
    #[wasm_bindgen(js_name = undoLast, unchecked_return_type = "Promise<ToolResult>")]
    pub fn undo_last(&self) -> js_sys::Promise {
        let core = self.core.clone();
        promise(async move { to_js(&core.undo_last().await).map_err(JsValue::from) })
    }

    /// "Undo this answer's changes".
    #[wasm_bindgen(js_name = undoTurn, unchecked_return_type = "Promise<ToolResult>")]
    pub fn undo_turn(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] turn: JsValue,
    ) -> js_sys::Promise {
        let core = self.core.clone();
        let turn = id_text(&turn);
        promise(async move { to_js(&core.undo_turn(&turn).await).map_err(JsValue::from) })
    }

    /// What the UI shows of a journal entry, or null once it was dropped.
    #[wasm_bindgen(js_name = journalEntry, unchecked_return_type = "JournalEntryView | null")]
    pub fn journal_entry(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
    ) -> Result<JsValue, JsError> {
        to_js(&self.core.journal_entry(&id_text(&id)))
    }

    /// `{ total, undoable }` of a chat answer's changes.
    #[wasm_bindgen(js_name = turnChanges, unchecked_return_type = "TurnChanges")]
    pub fn turn_changes(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] turn: JsValue,
    ) -> Result<JsValue, JsError> {
        to_js(&self.core.turn_changes(&id_text(&turn)))
    }

    /// The chat answer of the newest change that can still be undone, or null.
    #[wasm_bindgen(js_name = lastTurn)]
    pub fn last_turn(&self) -> Option<String> {
        self.core.last_turn()
    }

    /// A new, empty conversation.
    #[wasm_bindgen(js_name = newConversation, unchecked_return_type = "Conversation")]
    pub fn new_conversation(&self) -> Result<JsValue, JsError> {
        to_js(&self.core.chat.new_conversation())
    }

    /// A conversation file's text (`fileId` from its name) through the
    /// checked loader: `{ conversation, repairs? }`; throws with the reason
    /// when the file holds no chat at all.
    #[wasm_bindgen(js_name = loadConversation, unchecked_return_type = "LoadedConversation")]
    pub fn load_conversation(&self, text: String, file_id: String) -> Result<JsValue, JsError> {
        let value = crate::base::input::parse_bounded(&text, &CONVERSATION).map_err(into_error)?;
        let loaded =
            crate::doors::chat::stored::load(value, &file_id).map_err(|e| JsError::new(&e))?;
        to_js(&loaded)
    }

    /// Sends the user's message and runs the turn. `onEvent` gets every
    /// event; resolves to `{ conversation, end }`. `attachments` (optional):
    /// the chat's chips, `[{ path, selection? }]`.
    #[wasm_bindgen(js_name = chatSend, unchecked_return_type = "Promise<TurnResult>")]
    pub fn chat_send(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Conversation")] conversation: JsValue,
        text: String,
        #[wasm_bindgen(unchecked_param_type = "(event: ChatEvent) => void")]
        on_event: js_sys::Function,
        #[wasm_bindgen(unchecked_param_type = "Attachment[] | undefined")] attachments: JsValue,
        #[wasm_bindgen(unchecked_param_type = "ChatStart | undefined")] start: JsValue,
    ) -> js_sys::Promise {
        let core = self.core.clone();
        let conversation: Result<Conversation, _> = from_js(&conversation, &CONVERSATION);
        let attachments: Result<Option<Vec<Attachment>>, _> =
            if attachments.is_undefined() || attachments.is_null() {
                Ok(None)
            } else {
                from_js(&attachments, &CONVERSATION).map(Some)
            };
        let start = value_from_js(&start, &CONVERSATION);
        promise(async move {
            let mut conversation = conversation.map_err(|e| JsValue::from(into_error(e)))?;
            let attachments = attachments.map_err(|e| JsValue::from(into_error(e)))?;
            let start = start.map_err(|e| JsValue::from(into_error(e)))?;
            let events = JsEvents(on_event);
            let end = core
                .chat
                .send_started(&mut conversation, &text, attachments, &start, &events)
                .await;
            turn_result(&conversation, end)
        })
    }

    /// The saved prompts of the prompts folder, each with what is wrong
    /// with it (if anything).
    #[wasm_bindgen(js_name = savedPrompts, unchecked_return_type = "Promise<SavedPrompts>")]
    pub fn saved_prompts(&self) -> js_sys::Promise {
        let core = self.core.clone();
        promise(async move {
            let settings = core.engine.settings_snapshot();
            let listed =
                crate::doors::chat::saved_prompts::list(core.engine.host(), &settings).await;
            to_js(&listed).map_err(JsValue::from)
        })
    }

    /// Where a saved prompt the user wrote or edited in the chat's form goes,
    /// and its note's text, or why not (`doors::chat::prompt_notes`). The
    /// shim writes it: the user's own edit, not the agent's.
    #[wasm_bindgen(js_name = savedPromptNote, unchecked_return_type = "PromptNote")]
    pub fn saved_prompt_note(
        &self,
        #[wasm_bindgen(unchecked_param_type = "PromptDraft")] draft: JsValue,
    ) -> Result<JsValue, JsError> {
        // A prompt note is read up to 64 KB; the draft holds at most two of them.
        let draft: crate::doors::chat::prompt_notes::PromptDraft =
            from_js(&draft, &PROMPT_DRAFT).map_err(into_error)?;
        let settings = self.core.engine.settings_snapshot();
        to_js(&crate::doors::chat::prompt_notes::prompt_note(
            self.core.engine.host(),
            &settings,
            &draft,
        ))
    }

    /// The skills of the skills folder, each with what is wrong with it
    /// (if anything).
    #[wasm_bindgen(js_name = skills, unchecked_return_type = "Promise<Skills>")]
    pub fn skills(&self) -> js_sys::Promise {
        let core = self.core.clone();
        promise(async move {
            let settings = core.engine.settings_snapshot();
            let listed = crate::engine::skills::list(core.engine.host(), &settings).await;
            to_js(&listed).map_err(JsValue::from)
        })
    }

    /// What keeps memory, while on, from working in the memory folder the
    /// settings name (the agent may not read or not change it), with the
    /// fix; none: it works, or memory is off. The settings show it under the
    /// memory folder and the folder scopes.
    #[wasm_bindgen(js_name = memoryFolderProblem)]
    pub fn memory_folder_problem(&self) -> Option<String> {
        let settings = self.core.engine.settings_snapshot();
        let platform = crate::base::host::Host::platform(self.core.engine.host());
        crate::doors::chat::memory::folder_problem(&settings, platform.os(), platform.config_dir())
    }

    /// Writes the built-in skills into the skills folder (the user's click),
    /// leaving any `SKILL.md` already there as it is. Rejects with why when
    /// no folder is set or a write fails.
    #[wasm_bindgen(js_name = addBuiltinSkills, unchecked_return_type = "Promise<AddedSkills>")]
    pub fn add_builtin_skills(&self) -> js_sys::Promise {
        let core = self.core.clone();
        promise(async move {
            let settings = core.engine.settings_snapshot();
            let done = crate::engine::skills::add_builtins(core.engine.host(), &settings)
                .await
                .map_err(|why| JsValue::from(js_sys::Error::new(&why)))?;
            to_js(&done).map_err(JsValue::from)
        })
    }

    /// The scheduled saved prompts due now (`doors::chat::scheduled_runs`): `nowMs`
    /// and the time zone's offset east of UTC in minutes are the shim's
    /// clock; `lastSlots` is what the plugin's data keeps (any value: it is
    /// read leniently). Resolves to the runs to start and the last slots to
    /// keep, which the shim saves (when `changed`) before it starts them.
    #[wasm_bindgen(js_name = scheduledPrompts, unchecked_return_type = "Promise<DuePrompts>")]
    pub fn scheduled_prompts(
        &self,
        now_ms: f64,
        offset_minutes: i32,
        #[wasm_bindgen(unchecked_param_type = "unknown")] last_slots: JsValue,
    ) -> js_sys::Promise {
        let core = self.core.clone();
        let stored = value_from_js(&last_slots, &CONVERSATION).unwrap_or(serde_json::Value::Null);
        promise(async move {
            use crate::doors::chat::{schedule, scheduled_runs};
            let settings = core.engine.settings_snapshot();
            let now = schedule::local_minutes(now_ms, offset_minutes);
            let due = scheduled_runs::due(core.engine.host(), &settings, now, &stored).await;
            to_js(&due).map_err(JsValue::from)
        })
    }

    /// Rewinds a conversation before a turn runs again: `userIndex` null for
    /// Regenerate (the last answer goes), or the number of the user message
    /// an edit replaces (it and all after it go). Returns
    /// `{ conversation, dropped }` (`dropped`: the replaced user message).
    #[wasm_bindgen(
        js_name = rewindConversation,
        unchecked_return_type = "{ conversation: Conversation; dropped: ChatMessage | null }"
    )]
    pub fn rewind_conversation(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Conversation")] conversation: JsValue,
        user_index: Option<u32>,
    ) -> Result<JsValue, JsError> {
        let mut conversation: Conversation =
            from_js(&conversation, &CONVERSATION).map_err(into_error)?;
        let to = match user_index {
            None => Rewind::LastAnswer,
            Some(n) => Rewind::FromUserMessage(n as usize),
        };
        let dropped = conversation.rewind(to).map_err(JsError::new)?;
        to_js(&serde_json::json!({ "conversation": conversation, "dropped": dropped }))
    }

    /// "Compact": the chat's turns before its last one summarised by the
    /// chat's model in one request (`compacted` event, then the conversation
    /// to save); a failure says why in a notice and changes nothing.
    /// Resolves like `chatSend`.
    #[wasm_bindgen(js_name = chatCompact, unchecked_return_type = "Promise<TurnResult>")]
    pub fn chat_compact(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Conversation")] conversation: JsValue,
        #[wasm_bindgen(unchecked_param_type = "(event: ChatEvent) => void")]
        on_event: js_sys::Function,
    ) -> js_sys::Promise {
        let core = self.core.clone();
        let conversation: Result<Conversation, _> = from_js(&conversation, &CONVERSATION);
        promise(async move {
            let mut conversation = conversation.map_err(|e| JsValue::from(into_error(e)))?;
            let events = JsEvents(on_event);
            let end = core.chat.compact(&mut conversation, &events).await;
            turn_result(&conversation, end)
        })
    }

    /// "Fork from here": a new chat holding the messages up to and including
    /// the `index`-th of `role` ("user", or "assistant" for the answers with
    /// text), titled "<title> (fork)"; the original is not changed. Throws
    /// with the reason when there is no such message to fork from.
    #[wasm_bindgen(js_name = forkConversation, unchecked_return_type = "Conversation")]
    pub fn fork_conversation(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Conversation")] conversation: JsValue,
        role: String,
        index: u32,
    ) -> Result<JsValue, JsError> {
        let conversation: Conversation =
            from_js(&conversation, &CONVERSATION).map_err(into_error)?;
        let at = crate::doors::chat::fork::ForkAt::new(&role, index as usize)
            .ok_or_else(|| JsError::new("A fork starts from a user's message or an answer."))?;
        let forked = self
            .core
            .chat
            .fork(&conversation, at)
            .map_err(JsError::new)?;
        to_js(&forked)
    }

    /// A coding agent's turn kept in the conversation (the user's message,
    /// the agent's answers, its session, the title); returns it to save.
    #[wasm_bindgen(js_name = keepAgentTurn, unchecked_return_type = "Conversation")]
    pub fn keep_agent_turn(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Conversation")] conversation: JsValue,
        text: String,
        #[wasm_bindgen(unchecked_param_type = "Attachment[]")] images: JsValue,
        #[wasm_bindgen(unchecked_param_type = "AgentAnswerText[]")] answers: JsValue,
        #[wasm_bindgen(unchecked_param_type = "AgentChat")] agent: JsValue,
    ) -> Result<JsValue, JsError> {
        let mut conversation: Conversation =
            from_js(&conversation, &CONVERSATION).map_err(into_error)?;
        let images = from_js(&images, &CONVERSATION).map_err(into_error)?;
        let answers = from_js(&answers, &CONVERSATION).map_err(into_error)?;
        let agent = from_js(&agent, &CONVERSATION).map_err(into_error)?;
        self.core
            .chat
            .keep_agent_turn(&mut conversation, &text, images, answers, agent);
        to_js(&conversation)
    }

    /// The user renamed a chat (an empty title gives it back to the first
    /// message); returns the conversation to save.
    #[wasm_bindgen(js_name = renameConversation, unchecked_return_type = "Conversation")]
    pub fn rename_conversation(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Conversation")] conversation: JsValue,
        title: String,
    ) -> Result<JsValue, JsError> {
        let mut conversation: Conversation =
            from_js(&conversation, &CONVERSATION).map_err(into_error)?;
        conversation.rename(&title);
        to_js(&conversation)
    }

    /// Runs a failed turn again (the banner's Retry); resolves like `chatSend`.
    #[wasm_bindgen(js_name = chatRetry, unchecked_return_type = "Promise<TurnResult>")]
    pub fn chat_retry(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Conversation")] conversation: JsValue,
        #[wasm_bindgen(unchecked_param_type = "(event: ChatEvent) => void")]
        on_event: js_sys::Function,
    ) -> js_sys::Promise {
        let core = self.core.clone();
        let conversation: Result<Conversation, _> = from_js(&conversation, &CONVERSATION);
        promise(async move {
            let mut conversation = conversation.map_err(|e| JsValue::from(into_error(e)))?;
            let events = JsEvents(on_event);
            let end = core.chat.retry(&mut conversation, &events).await;
            turn_result(&conversation, end)
        })
    }

    /// The user's answer on a card in the chat; resolves like `chatSend`.
    /// `changes`: a note edit reviewed in the editor, approved for only
    /// these of its changes.
    #[wasm_bindgen(js_name = chatResolve, unchecked_return_type = "Promise<TurnResult>")]
    #[allow(clippy::too_many_arguments)]
    pub fn chat_resolve(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Conversation")] conversation: JsValue,
        confirmation_id: String,
        approve: bool,
        argv_hash: String,
        #[wasm_bindgen(unchecked_param_type = "(event: ChatEvent) => void")]
        on_event: js_sys::Function,
        for_chat: Option<bool>,
        changes: Option<Vec<u32>>,
    ) -> js_sys::Promise {
        let core = self.core.clone();
        let conversation: Result<Conversation, _> = from_js(&conversation, &CONVERSATION);
        let changes: Option<Vec<usize>> =
            changes.map(|list| list.into_iter().map(|n| n as usize).collect());
        promise(async move {
            let mut conversation = conversation.map_err(|e| JsValue::from(into_error(e)))?;
            let events = JsEvents(on_event);
            let decision = if let (true, Some(changes)) = (approve, &changes) {
                Decision::ApproveChanges {
                    argv_hash: &argv_hash,
                    changes,
                }
            } else if approve && for_chat == Some(true) {
                Decision::ApproveForChat {
                    argv_hash: &argv_hash,
                }
            } else if approve {
                Decision::Approve {
                    argv_hash: &argv_hash,
                }
            } else {
                Decision::Reject
            };
            let end = core
                .chat
                .resolve(&mut conversation, &confirmation_id, decision, &events)
                .await;
            turn_result(&conversation, end)
        })
    }

    /// The user's answer on a plan card (`{ approve, steps: [{ index, what
    /// }] }`: the proposed steps kept, with their text as left on the card);
    /// resolves like `chatSend`.
    #[wasm_bindgen(js_name = chatAnswerPlan, unchecked_return_type = "Promise<TurnResult>")]
    pub fn chat_answer_plan(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Conversation")] conversation: JsValue,
        plan_id: String,
        #[wasm_bindgen(unchecked_param_type = "{ approve: boolean; steps?: KeptStep[] }")]
        answer: JsValue,
        #[wasm_bindgen(unchecked_param_type = "(event: ChatEvent) => void")]
        on_event: js_sys::Function,
    ) -> js_sys::Promise {
        let core = self.core.clone();
        let conversation: Result<Conversation, _> = from_js(&conversation, &CONVERSATION);
        let answer: Result<serde_json::Value, _> = from_js(&answer, &CONVERSATION);
        promise(async move {
            let mut conversation = conversation.map_err(|e| JsValue::from(into_error(e)))?;
            let answer = answer.map_err(|e| JsValue::from(into_error(e)))?;
            let events = JsEvents(on_event);
            let end = core
                .chat
                .answer_plan(&mut conversation, &plan_id, &answer, &events)
                .await;
            turn_result(&conversation, end)
        })
    }

    /// A headless turn (`vault-agent:ask`) goes on after its card was
    /// answered on the plugin's own card; resolves like `chatSend`.
    #[wasm_bindgen(js_name = chatContinue, unchecked_return_type = "Promise<TurnResult>")]
    pub fn chat_continue(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Conversation")] conversation: JsValue,
        confirmation_id: String,
        #[wasm_bindgen(unchecked_param_type = "(event: ChatEvent) => void")]
        on_event: js_sys::Function,
    ) -> js_sys::Promise {
        let core = self.core.clone();
        let conversation: Result<Conversation, _> = from_js(&conversation, &CONVERSATION);
        promise(async move {
            let mut conversation = conversation.map_err(|e| JsValue::from(into_error(e)))?;
            let events = JsEvents(on_event);
            let end = core
                .chat
                .resolve(
                    &mut conversation,
                    &confirmation_id,
                    Decision::Answered,
                    &events,
                )
                .await;
            turn_result(&conversation, end)
        })
    }

    /// "Test" of one of the user's MCP servers: connects, lists its tools.
    #[wasm_bindgen(js_name = outsideTest, unchecked_return_type = "Promise<OutsideListing>")]
    pub fn outside_test(&self, id: String) -> js_sys::Promise {
        let core = self.core.clone();
        promise(async move {
            let listing = core.chat.test_outside(&id).await;
            to_js(&listing).map_err(JsValue::from)
        })
    }

    /// Which of the running MCP servers (by id) the settings no longer
    /// want: the shim stops them after every settings change.
    #[wasm_bindgen(js_name = outsideServersToStop)]
    pub fn outside_servers_to_stop(&self, running: Vec<String>) -> Vec<String> {
        self.core.engine.outside_servers_to_stop(&running)
    }

    /// Each enabled MCP server as the chat last listed it (the header).
    #[wasm_bindgen(
        js_name = outsideStatus,
        unchecked_return_type = "[string, OutsideListing][]"
    )]
    pub fn outside_status(&self) -> Result<JsValue, JsError> {
        to_js(&self.core.chat.outside_connected())
    }

    /// The outside servers switched on and their state (the header, a new chat's page).
    #[wasm_bindgen(js_name = outsideSummary, unchecked_return_type = "OutsideSummary")]
    pub fn outside_summary(&self) -> Result<JsValue, JsError> {
        to_js(&self.core.chat.outside_summary())
    }

    /// The settings tab's "Add a server" form as a server named apart from
    /// those set, with the values it gave for secret storage; throws with
    /// what to fix. `fresh`: random bits (crypto) for the server's own id.
    #[wasm_bindgen(js_name = outsideAdd, unchecked_return_type = "OutsideImport")]
    pub fn outside_add(
        &self,
        name: String,
        target: String,
        values: String,
        bearer: String,
        cwd: String,
        fresh: String,
    ) -> Result<JsValue, JsError> {
        let settings = self.core.settings();
        let taken: Vec<&str> = settings.mcp_servers.iter().map(|s| s.id.as_str()).collect();
        let form = crate::settings::outside_import::AddForm {
            name: &name,
            target: &target,
            values: &values,
            bearer: &bearer,
            cwd: &cwd,
        };
        let has_secret =
            |secret: &str| crate::base::host::Host::secret(self.core.host(), secret).is_some();
        let added = crate::settings::outside_import::add(&form, &taken, &has_secret, &fresh)
            .map_err(|e| JsError::new(&e))?;
        to_js(&added)
    }

    /// Pasted Claude Desktop / Cursor / VS Code JSON as servers named apart
    /// from those set; throws with what to paste instead. `fresh`: random
    /// bits (crypto) for the servers' own ids.
    #[wasm_bindgen(js_name = outsideImport, unchecked_return_type = "OutsideImport")]
    pub fn outside_import(&self, text: String, fresh: String) -> Result<JsValue, JsError> {
        let settings = self.core.settings();
        let taken: Vec<&str> = settings.mcp_servers.iter().map(|s| s.id.as_str()).collect();
        let import = crate::settings::outside_import::import(&text, &taken, &fresh)
            .map_err(|e| JsError::new(&e))?;
        to_js(&import)
    }

    /// Stop was pressed in the chat showing `conversation` (none: every
    /// turn stops). True while other turns still run: the shim then aborts
    /// only the requests tagged with `conversation`.
    #[wasm_bindgen(js_name = chatStop)]
    pub fn chat_stop(&self, conversation: Option<String>) -> bool {
        self.core.chat.stop(conversation.as_deref())
    }

    /// Chat view `view` is to show `conversation`: null when it may (it is
    /// then marked as shown there), or the id of the view that shows it
    /// already (the shim reveals that one instead).
    #[wasm_bindgen(js_name = chatShow)]
    pub fn chat_show(&self, view: String, conversation: String) -> Option<String> {
        self.core
            .chat
            .open
            .show(&view, &conversation)
            .err()
            .map(|e| e.view)
    }

    /// Chat view `view` closed.
    #[wasm_bindgen(js_name = chatCloseView)]
    pub fn chat_close_view(&self, view: String) {
        self.core.chat.open.close(&view);
    }

    /// The conversations open in views other than `view`, as `[conversation, view]`.
    #[wasm_bindgen(js_name = chatOpenElsewhere, unchecked_return_type = "[string, string][]")]
    pub fn chat_open_elsewhere(&self, view: String) -> Result<JsValue, JsError> {
        to_js(&self.core.chat.open.open_elsewhere(&view))
    }

    /// The model profile (or `agent:<id>`) picked in chat view `view`
    /// (null: the saved default); its turns answer with it.
    #[wasm_bindgen(js_name = chatPick)]
    pub fn chat_pick(&self, view: String, profile: Option<String>) {
        self.core.chat.open.pick(&view, profile);
    }

    /// What chat view `view` picked, or null.
    #[wasm_bindgen(js_name = chatPicked)]
    pub fn chat_picked(&self, view: String) -> Option<String> {
        self.core.chat.open.picked(&view)
    }

    /// Lists the active provider's models ("Test connection").
    #[wasm_bindgen(js_name = testConnection, unchecked_return_type = "Promise<ConnectionReport>")]
    pub fn test_connection(&self) -> js_sys::Promise {
        let core = self.core.clone();
        promise(async move { to_js(&core.chat.test_connection().await).map_err(JsValue::from) })
    }

    /// "Check this model" on the profile in use: `onProgress` gets a line
    /// as each probe starts (empty at the end). Resolves to the report; it
    /// never rejects. The shim keeps `record` with the profile.
    #[wasm_bindgen(js_name = checkModel, unchecked_return_type = "Promise<ModelCheckReport>")]
    pub fn check_model(
        &self,
        #[wasm_bindgen(unchecked_param_type = "(line: string) => void")]
        on_progress: js_sys::Function,
    ) -> js_sys::Promise {
        let core = self.core.clone();
        promise(async move {
            let progress = |line: &str| {
                let _ = on_progress.call1(&JsValue::NULL, &JsValue::from_str(line));
            };
            to_js(&core.chat.check_model(&progress).await).map_err(JsValue::from)
        })
    }

    /// Stop for a running check (the shim aborts the requests tagged
    /// `MODEL_CHECK_TAG`).
    #[wasm_bindgen(js_name = checkModelStop)]
    pub fn check_model_stop(&self) {
        self.core.chat.check_stop();
    }

    /// What a new chat says of the profile in use's last check: that its
    /// tool calls failed and what to do, that it was never checked, or null.
    #[wasm_bindgen(js_name = modelCheckHint)]
    pub fn model_check_hint(&self) -> Option<String> {
        let settings = self.core.settings();
        let profile = settings.chat.profile();
        crate::doors::chat::check_verdict::empty_state_hint(
            &profile.server.model,
            profile.last_check.as_ref(),
        )
    }

    /// The model profiles as the settings tab and the chat header show them.
    #[wasm_bindgen(js_name = modelProfiles, unchecked_return_type = "ProfileSummary[]")]
    pub fn model_profiles(&self) -> Result<JsValue, JsError> {
        to_js(&self.core.settings().chat.summaries())
    }

    /// The chat settings after a profile edit (`{ action, ... }`), not yet
    /// applied: the shim saves them through `setSettings`. Throws with the
    /// reason when the edit cannot be done.
    #[wasm_bindgen(js_name = editModelProfiles, unchecked_return_type = "ChatSettings")]
    pub fn edit_model_profiles(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ProfileEdit")] edit: JsValue,
    ) -> Result<JsValue, JsError> {
        let edit = value_from_js(&edit, &SETTINGS).map_err(into_error)?;
        let edit = crate::settings::ProfileEdit::from_json(&edit).map_err(into_error)?;
        let chat = self
            .core
            .settings()
            .chat
            .edited(&edit)
            .map_err(|reason| JsError::new(&reason))?;
        to_js(&chat)
    }

    /// An address as every connection reads it (`base::address`): where
    /// it goes, or why it goes nowhere. The settings show it under a
    /// server's address; the Node tests hold it to Node's own reading.
    #[wasm_bindgen(
        js_name = destinationOf,
        unchecked_return_type = "{ url: string; hostname: string; port: number } | { error: string }"
    )]
    pub fn destination_of(&self, address: String) -> Result<JsValue, JsError> {
        to_js(&match crate::base::address::destination(&address) {
            Ok(found) => serde_json::json!({
                "url": found.url,
                "hostname": found.hostname,
                "port": found.port,
            }),
            Err(error) => serde_json::json!({ "error": error }),
        })
    }

    /// Every outbound connection since start, oldest first (Settings → Safety).
    #[wasm_bindgen(js_name = connectionLog, unchecked_return_type = "ConnectionEntry[]")]
    pub fn connection_log(&self) -> Result<JsValue, JsError> {
        to_js(&self.core.engine.connection_log())
    }

    /// The coding agents as the chat starts and the settings show them.
    #[wasm_bindgen(js_name = codingAgents, unchecked_return_type = "AgentProfile[]")]
    pub fn coding_agents(&self) -> Result<JsValue, JsError> {
        to_js(&self.core.settings().coding_agents.profiles())
    }

    /// The coding agents' settings after the user's edit (`{ action:
    /// "select", value }` or `{ action: "change", id, command?, args?,
    /// envSecrets? }`), for `updateSettings`; refused with the reason.
    #[wasm_bindgen(js_name = editCodingAgents, unchecked_return_type = "CodingAgentSettings")]
    pub fn edit_coding_agents(
        &self,
        #[wasm_bindgen(unchecked_param_type = "CodingAgentEdit")] edit: JsValue,
    ) -> Result<JsValue, JsError> {
        let edit = value_from_js(&edit, &SETTINGS).map_err(into_error)?;
        let agents = self
            .core
            .settings()
            .coding_agents
            .edited(&edit)
            .map_err(|reason| JsError::new(&reason))?;
        to_js(&agents)
    }

    /// Provider presets for the settings tab.
    #[wasm_bindgen(js_name = providerPresets, unchecked_return_type = "ProviderPreset[]")]
    pub fn provider_presets(&self) -> Result<JsValue, JsError> {
        to_js(PRESETS)
    }

    /// Parses a whole model stream cut into `chunk_size` pieces and returns
    /// the length of the text it held (for the benchmark in BENCHMARKS.md).
    #[wasm_bindgen(js_name = measureStreamParse)]
    pub fn measure_stream_parse(
        &self,
        anthropic: bool,
        stream: &[u8],
        chunk_size: usize,
    ) -> Result<usize, JsError> {
        let kind = if anthropic {
            crate::settings::ProviderKind::Anthropic
        } else {
            crate::settings::ProviderKind::OpenAi
        };
        let reply =
            crate::doors::chat::provider::parse_stream(kind, stream.chunks(chunk_size.max(1)))
                .map_err(into_error)?;
        Ok(reply.text.len())
    }

    /// Looks for the CLI again and asks it for its version.
    #[wasm_bindgen(js_name = cliStatus, unchecked_return_type = "Promise<CliStatus>")]
    pub fn cli_status(&self) -> js_sys::Promise {
        let core = self.core.clone();
        promise(async move { to_js(&core.cli_status().await).map_err(JsValue::from) })
    }
}

/// An id from JS; anything that is not a short text matches no confirmation.
fn id_text(value: &JsValue) -> String {
    short_text(value, MAX_ID_CHARS).unwrap_or_default()
}

/// Chat events go to a JS callback; a throwing callback must not stop the turn.
struct JsEvents(js_sys::Function);

/// The shim's callbacks for one MCP exchange (see `McpEvents`).
#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(typescript_type = "McpEventFunctions")]
    pub type McpEventFunctions;

    /// A JSON-RPC notification (JSON text) for this exchange's event stream.
    #[wasm_bindgen(method)]
    fn notify(this: &McpEventFunctions, message: &str);
    #[wasm_bindgen(method, js_name = presentCard)]
    fn present_card(this: &McpEventFunctions, id: &str);
    #[wasm_bindgen(method, js_name = withdrawCard)]
    fn withdraw_card(this: &McpEventFunctions, id: &str);
    #[wasm_bindgen(method)]
    fn activity(this: &McpEventFunctions, entry: JsValue);
    #[wasm_bindgen(method, js_name = freshId)]
    fn fresh_id(this: &McpEventFunctions) -> String;
}

impl crate::doors::mcp::McpEvents for McpEventFunctions {
    fn notify(&self, message: &serde_json::Value) {
        McpEventFunctions::notify(self, &message.to_string());
    }
    fn present_card(&self, id: &str) {
        McpEventFunctions::present_card(self, id);
    }
    fn withdraw_card(&self, id: &str) {
        McpEventFunctions::withdraw_card(self, id);
    }
    fn activity(&self, entry: &crate::doors::mcp::ActivityEntry) {
        if let Ok(value) = to_js(entry) {
            McpEventFunctions::activity(self, value);
        }
    }
    fn fresh_id(&self) -> String {
        McpEventFunctions::fresh_id(self)
    }
}

impl ChatEvents for JsEvents {
    fn emit(&self, event: ChatEvent) {
        if let Ok(value) = to_js(&event) {
            let _ = self.0.call1(&JsValue::NULL, &value);
        }
    }
}

fn turn_result(
    conversation: &Conversation,
    end: crate::doors::chat::TurnEnd,
) -> Result<JsValue, JsValue> {
    to_js(&serde_json::json!({ "conversation": conversation, "end": end })).map_err(JsValue::from)
}
