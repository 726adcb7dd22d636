//! Writes and checks `plugin-shim/generated/`: the TypeScript
//! types of every value that crosses the wasm boundary, derived by ts-rs from
//! the Rust types (their serde attributes included), so the shim never mirrors
//! a shape by hand. The derives are `cfg_attr(test, …)`: the plugin's wasm
//! carries none of it. The file is committed; this test fails when it is
//! stale, and `VAULT_AGENT_WRITE_TYPES=1 cargo test --release --lib ts_types`
//! rewrites it.

use std::path::Path;

use ts_rs::TS;

/// The public API's types (other plugins copy this file with
/// vault-agent-api.d.ts), and the rest of the boundary, which imports them.
const API_TYPES: &str = "plugin-shim/generated/api-types.ts";
const CORE_TYPES: &str = "plugin-shim/generated/core-types.ts";
/// Limits the shim applies, defined once in Rust.
const LIMITS: &str = "plugin-shim/generated/limits.ts";
/// Names and words the shim uses, defined once in Rust.
const CONSTANTS: &str = "plugin-shim/generated/constants.ts";

const HEADER: &str = "\
// Generated from the Rust types by src/ts_types.rs (ts-rs); do not edit.
// Update: VAULT_AGENT_WRITE_TYPES=1 cargo test --release --lib ts_types
";

/// `acpAgents` in data.json, serialised by hand (`settings::agents`) in the
/// shape it always had. The shim does not build it: `editCodingAgents` does.
const CODING_AGENT_SETTINGS: &str = "
/**
 * The coding agents' settings as stored: the one the chat picked, and each changed agent's fields.
 */
export type CodingAgentSettings = { selected?: string } & { [id: string]: { command?: string; args?: string[]; envSecrets?: Record<string, string> } | string | undefined };
";

/// One `export type` with its doc comment.
fn declaration<T: TS + ?Sized>() -> String {
    format!("\n{}export {}\n", T::docs().unwrap_or_default(), T::decl())
}

fn api_types() -> String {
    use crate::base::call::{Access, Preview};
    use crate::base::card::PendingView;
    use crate::base::diff::{DiffHunk, DiffLine, LineKind, NoteDiff, Segment};
    use crate::base::result::{ErrorInfo, JournalRef, NoteHeading, Ran, ToolResult};
    use crate::engine::{CommandDescriptor, ToolDescriptor};

    [
        HEADER.to_string(),
        declaration::<ToolResult>(),
        declaration::<ErrorInfo>(),
        declaration::<crate::base::host::ImageData>(),
        declaration::<JournalRef>(),
        declaration::<NoteHeading>(),
        declaration::<Ran>(),
        declaration::<PendingView>(),
        declaration::<Preview>(),
        declaration::<NoteDiff>(),
        declaration::<DiffHunk>(),
        declaration::<DiffLine>(),
        declaration::<LineKind>(),
        declaration::<Segment>(),
        declaration::<ToolDescriptor>(),
        declaration::<crate::settings::OwnSwitch>(),
        declaration::<CommandDescriptor>(),
        declaration::<Access>(),
        declaration::<serde_json::Value>(),
    ]
    .concat()
}

fn core_types() -> String {
    use crate::base::card::{
        ConfirmationCard, ConfirmationState, EditReview, OutsideCard, ReviewSettle,
    };
    use crate::base::diff::{ChangeSpan, EditChange, SpanKind};
    use crate::base::host::{
        FileStatus, HttpFailure, HttpRequest, Os, PlatformFacts, ProcessRequest, ProcessTree,
    };
    use crate::base::outside::{
        OutsideCall, OutsideConnect, OutsideListing, OutsideOutcome, OutsideTool,
    };
    use crate::base::table::Table;
    use crate::cli::client::CliStatus;
    use crate::cli::discovery::{Candidate, CandidateSource, Discovery, Verdict};
    use crate::doors::acp::AgentServers;
    use crate::doors::chat::conversation::Source;
    use crate::doors::chat::conversation::{
        AgentAnswerText, AgentChat, AnswerUsage, Attachment, ChatMessage, Conversation,
        OutsideDoor, PausedTurn, ToolCallRecord, Usage,
    };
    use crate::doors::chat::saved_prompts::{PromptValues, SavedPrompt, SavedPrompts};
    use crate::doors::chat::selection::SelectionRequest;
    use crate::doors::chat::stored::LoadedConversation;
    use crate::doors::chat::{ChatEvent, ConnectionReport, TurnEnd, WayOut};
    use crate::doors::mcp::activity::StoredActivity;
    use crate::doors::mcp::setups::{ClientSetup, SetupFormat};
    use crate::doors::mcp::{ActivityEntry, ListenerLimits, McpExchange, McpReply};
    use crate::engine::embeddings::{EmbeddingStatus, Phase as EmbeddingPhase};
    use crate::engine::journal::{EntryView, TurnChanges};
    use crate::engine::network::ConnectionEntry;
    use crate::engine::search::{Phase, SearchStatus, UserSearch, VaultEvent};
    use crate::engine::skills::{AddedSkills, Skill, Skills};
    use crate::policy::agent_files::AgentFileWrite;
    use crate::policy::agent_questions::{
        AgentAnswer, AgentOption, AgentQuestion, AnsweredBecause,
    };
    use crate::policy::agent_session::AgentRefusal;
    use crate::search::Passage;
    use crate::settings::agents::CodingAgentProfile;
    use crate::settings::outside::{OutsideServer, SecretValue, Trust};
    use crate::settings::outside_import::OutsideImport;
    use crate::settings::presets::ProviderPreset;
    use crate::settings::{
        ChatSettings, McpSettings, ModelProfile, PermissionMode, ProfileSummary, ProviderKind,
        ProviderSettings, Settings,
    };

    [
        HEADER.to_string(),
        "import type { ChangePreview, JsonValue, ToolResult } from \"./api-types\";\n".to_string(),
        declaration::<ConfirmationCard>(),
        declaration::<ConfirmationState>(),
        declaration::<OutsideCard>(),
        declaration::<EditReview>(),
        declaration::<EditChange>(),
        declaration::<ChangeSpan>(),
        declaration::<SpanKind>(),
        declaration::<ReviewSettle>(),
        declaration::<OutsideServer>(),
        declaration::<SecretValue>(),
        declaration::<Trust>(),
        declaration::<OutsideImport>(),
        declaration::<crate::doors::chat::outside::OutsideSummary>(),
        declaration::<OutsideConnect>(),
        declaration::<OutsideListing>(),
        declaration::<OutsideTool>(),
        declaration::<OutsideCall>(),
        declaration::<OutsideOutcome>(),
        declaration::<AgentServers>(),
        declaration::<crate::doors::acp::sign_in::SignIn>(),
        declaration::<EntryView>(),
        declaration::<TurnChanges>(),
        declaration::<Settings>(),
        declaration::<PermissionMode>(),
        declaration::<ChatSettings>(),
        declaration::<ModelProfile>(),
        declaration::<ProviderSettings>(),
        declaration::<ProviderKind>(),
        declaration::<McpSettings>(),
        declaration::<crate::settings::embeddings::EmbeddingSettings>(),
        declaration::<crate::settings::web::WebProvider>(),
        declaration::<crate::settings::web::WebSettings>(),
        declaration::<crate::settings::search::SearchSettings>(),
        declaration::<CodingAgentProfile>(),
        CODING_AGENT_SETTINGS.to_string(),
        declaration::<ProfileSummary>(),
        declaration::<ProviderPreset>(),
        declaration::<ConnectionReport>(),
        declaration::<crate::doors::chat::check_verdict::ModelCheckReport>(),
        declaration::<crate::doors::chat::check_verdict::CheckRow>(),
        declaration::<crate::doors::chat::check_verdict::CheckStatus>(),
        declaration::<crate::doors::chat::check_verdict::CheckFix>(),
        declaration::<crate::settings::ModelCheckRecord>(),
        declaration::<Conversation>(),
        declaration::<LoadedConversation>(),
        declaration::<PausedTurn>(),
        declaration::<crate::doors::chat::conversation::Compaction>(),
        declaration::<OutsideDoor>(),
        declaration::<SavedPrompts>(),
        declaration::<SavedPrompt>(),
        declaration::<crate::doors::chat::prompt_notes::PromptDraft>(),
        declaration::<crate::doors::chat::prompt_notes::PromptNote>(),
        declaration::<Skills>(),
        declaration::<Skill>(),
        declaration::<AddedSkills>(),
        declaration::<PromptValues>(),
        declaration::<SelectionRequest>(),
        declaration::<AgentChat>(),
        declaration::<AgentAnswerText>(),
        declaration::<ChatMessage>(),
        declaration::<ToolCallRecord>(),
        declaration::<Attachment>(),
        declaration::<Source>(),
        declaration::<Passage>(),
        declaration::<Table>(),
        declaration::<Usage>(),
        declaration::<AnswerUsage>(),
        declaration::<ChatEvent>(),
        declaration::<crate::doors::chat::plan::ChatPlan>(),
        declaration::<crate::doors::chat::plan::PlanState>(),
        declaration::<crate::doors::chat::plan_changes::HeldChange>(),
        declaration::<crate::doors::chat::plan_changes::PlanChangesCard>(),
        declaration::<crate::doors::chat::plan_changes::HeldCard>(),
        declaration::<crate::policy::plan::PlanStep>(),
        declaration::<crate::policy::plan::PlanAction>(),
        declaration::<crate::policy::plan::KeptStep>(),
        declaration::<TurnEnd>(),
        declaration::<WayOut>(),
        declaration::<CliStatus>(),
        declaration::<ConnectionEntry>(),
        declaration::<SearchStatus>(),
        declaration::<UserSearch>(),
        declaration::<Phase>(),
        declaration::<VaultEvent>(),
        declaration::<EmbeddingStatus>(),
        declaration::<EmbeddingPhase>(),
        declaration::<Discovery>(),
        declaration::<Candidate>(),
        declaration::<CandidateSource>(),
        declaration::<Verdict>(),
        declaration::<McpExchange>(),
        declaration::<McpReply>(),
        declaration::<ActivityEntry>(),
        declaration::<StoredActivity>(),
        declaration::<ListenerLimits>(),
        declaration::<ClientSetup>(),
        declaration::<SetupFormat>(),
        declaration::<AgentQuestion>(),
        declaration::<AgentOption>(),
        declaration::<AgentAnswer>(),
        declaration::<AnsweredBecause>(),
        declaration::<AgentRefusal>(),
        declaration::<AgentFileWrite>(),
        declaration::<ProcessRequest>(),
        declaration::<ProcessTree>(),
        declaration::<FileStatus>(),
        declaration::<HttpRequest>(),
        declaration::<HttpFailure>(),
        declaration::<PlatformFacts>(),
        declaration::<Os>(),
    ]
    .concat()
}

/// One `export const` with its doc line.
fn constant(doc: &str, name: &str, value: impl std::fmt::Display) -> String {
    format!("\n/** {doc} */\nexport const {name} = {value};\n")
}

/// A string constant, as JSON (a valid TypeScript literal).
fn text(value: &str) -> String {
    serde_json::to_string(value).unwrap()
}

/// A `[min, max]` range, as a TypeScript tuple.
fn range((min, max): (u32, u32)) -> String {
    format!("[{min}, {max}] as const")
}

fn limits() -> String {
    use crate::policy::agent_session as acp;
    use crate::settings as s;
    [
        HEADER.to_string(),
        "\n// Settings the tab names a range for: src/settings/mod.rs (normalise clamps to them).\n"
            .to_string(),
        constant(
            "A CLI call's timeout (ms).",
            "TIMEOUT_RANGE_MS",
            range(s::TIMEOUT_RANGE_MS),
        ),
        constant(
            "CLI processes at once.",
            "MAX_PROCESSES_RANGE",
            range(s::MAX_PROCESSES_RANGE),
        ),
        constant(
            "How long a read is reused (seconds; 0 turns it off).",
            "READ_CACHE_RANGE_SECONDS",
            range(s::READ_CACHE_RANGE_SECONDS),
        ),
        constant(
            "Claude's thinking budget (tokens).",
            "THINKING_BUDGET_RANGE",
            range(s::THINKING_BUDGET_RANGE),
        ),
        constant(
            "The MCP server's port when none is set.",
            "DEFAULT_MCP_PORT",
            s::DEFAULT_MCP_PORT,
        ),
        "\n// The MCP server's activity log: src/doors/mcp/activity.rs.\n".to_string(),
        constant(
            "Entries the activity log keeps; the oldest go first.",
            "MCP_ACTIVITY_KEPT",
            crate::doors::mcp::activity::KEPT_ENTRIES,
        ),
        "\n".to_string(),
        "// Coding agents (ACP): src/policy/agent_session.rs.\n".to_string(),
        constant(
            "Characters (UTF-16 units) of one answer, and of one turn's thoughts, the chat keeps.",
            "AGENT_TEXT_MAX_CHARS",
            acp::TEXT_MAX_CHARS,
        ),
        constant(
            "Said in the answer where it was cut.",
            "AGENT_ANSWER_CUT_NOTE",
            text(acp::ANSWER_CUT_NOTE),
        ),
        constant(
            "Said in the thoughts where they were cut.",
            "AGENT_THOUGHTS_CUT_NOTE",
            text(acp::THOUGHTS_CUT_NOTE),
        ),
        constant(
            "Plan entries shown; the last place counts the rest.",
            "AGENT_PLAN_MAX_ENTRIES",
            acp::PLAN_MAX_ENTRIES,
        ),
        constant(
            "Characters of one plan entry shown.",
            "AGENT_PLAN_ENTRY_MAX_CHARS",
            acp::PLAN_ENTRY_MAX_CHARS,
        ),
        constant(
            "The plan's last entry when it has more; `{count}` is how many.",
            "AGENT_PLAN_MORE_NOTE",
            text(acp::PLAN_MORE_NOTE),
        ),
        constant(
            "Characters of a tool call's title, arguments and output shown, each.",
            "AGENT_TOOL_TEXT_MAX_CHARS",
            acp::TOOL_TEXT_MAX_CHARS,
        ),
        constant(
            "Tool calls of one turn shown as blocks.",
            "AGENT_TOOL_CALLS_MAX",
            acp::TOOL_CALLS_MAX,
        ),
        constant(
            "Streamed text reaches the chat at most this often (ms).",
            "AGENT_DRAW_INTERVAL_MS",
            acp::DRAW_INTERVAL_MS,
        ),
        "\n// Images in the chat: src/doors/chat/images.rs.\n".to_string(),
        constant(
            "The image files a message carries: extension and MIME type.",
            "IMAGE_TYPES",
            format!(
                "{} as const",
                serde_json::to_string(&crate::doors::chat::images::IMAGE_TYPES).unwrap()
            ),
        ),
        constant(
            "Images one message carries.",
            "MAX_IMAGES_PER_MESSAGE",
            crate::doors::chat::images::MAX_IMAGES_PER_MESSAGE,
        ),
        constant(
            "The largest image kept when pasted or dropped (bytes).",
            "MAX_PASTED_BYTES",
            crate::doors::chat::images::MAX_PASTED_BYTES,
        ),
        constant(
            "Pasted images one chat keeps in the plugin's folder.",
            "MAX_PASTED_PER_CHAT",
            crate::doors::chat::images::MAX_PASTED_PER_CHAT,
        ),
        constant(
            "How much of an image's start the core reads before it is decoded (bytes).",
            "IMAGE_HEAD_BYTES",
            crate::doors::chat::images::IMAGE_HEAD_BYTES,
        ),
        constant(
            "How much of an image's end the core reads before it is decoded (bytes).",
            "IMAGE_TAIL_BYTES",
            crate::doors::chat::images::IMAGE_TAIL_BYTES,
        ),
    ]
    .concat()
}

fn constants() -> String {
    use crate::settings::PermissionMode;
    let modes: Vec<String> = PermissionMode::ALL
        .iter()
        .map(|mode| format!("\t{},\n", mode_text(*mode)))
        .collect();
    [
        HEADER.to_string(),
        "import type { PermissionMode } from \"./core-types\";\n".to_string(),
        "\n// The permission modes: src/settings/modes.rs.\n".to_string(),
        "\n/** A permission mode and the words the settings tab and the chat header use for it. */\n\
         export interface PermissionModeText {\n\tmode: PermissionMode;\n\tlabel: string;\n\tdescription: string;\n}\n"
            .to_string(),
        format!(
            "\n/** In the order the dropdowns offer them, the safest first. */\n\
             export const PERMISSION_MODES: readonly PermissionModeText[] = [\n{}];\n",
            modes.concat()
        ),
        format!(
            "\n/** The mode the core reads an unknown or missing mode as. */\n\
             export const DEFAULT_PERMISSION_MODE: PermissionModeText = {};\n",
            mode_text(PermissionMode::default())
        ),
        constant(
            "The stored spellings, as a message lists them.",
            "PERMISSION_MODE_KEYS_LISTED",
            text(&PermissionMode::keys_listed()),
        ),
        "\n// The coding agents: src/settings/agents.rs.\n".to_string(),
        constant(
            "The chat picker's value for a coding agent is this prefix and its id.",
            "AGENT_PREFIX",
            text(crate::settings::agents::AGENT_PREFIX),
        ),
        "\n// The MCP server: src/doors/mcp/mod.rs.\n".to_string(),
        constant(
            "The secret in Obsidian's secret storage that holds the bearer token.",
            "MCP_TOKEN_SECRET",
            text(crate::doors::mcp::MCP_TOKEN_SECRET),
        ),
        "\n// Search by meaning: src/search/embedding_api.rs.\n".to_string(),
        constant(
            "The tag of every embedding request, which Stop aborts.",
            "EMBEDDINGS_TAG",
            text(crate::search::embedding_api::TAG),
        ),
        "\n// The languages of the notes: src/settings/search.rs.\n".to_string(),
        constant(
            "The languages a user may fix for the search, as stored and as named.",
            "LANGUAGE_CHOICES",
            format!(
                "{} as const",
                serde_json::to_string(
                    &crate::settings::search::LANGUAGE_CHOICES
                        .map(|(code, name)| serde_json::json!({ "code": code, "name": name }))
                )
                .unwrap()
            ),
        ),
        constant(
            "The most languages a user may fix.",
            "MAX_LANGUAGES",
            crate::settings::search::MAX_LANGUAGES,
        ),
        "\n// Check this model: src/doors/chat/model_check.rs.\n".to_string(),
        constant(
            "The tag of every request of \"Check this model\", which its Stop aborts.",
            "MODEL_CHECK_TAG",
            text(crate::doors::chat::model_check::CHECK_TAG),
        ),
    ]
    .concat()
}

/// One mode as a TypeScript object literal.
fn mode_text(mode: crate::settings::PermissionMode) -> String {
    format!(
        "{{ mode: {}, label: {}, description: {} }}",
        text(mode.key()),
        text(mode.label()),
        text(mode.description())
    )
}

/// Writes `fresh` to `relative` when asked to, else says whether it is stale.
fn check_or_write(relative: &str, fresh: &str) -> Option<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    if std::env::var_os("VAULT_AGENT_WRITE_TYPES").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, fresh).unwrap();
        return None;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed == fresh {
        return None;
    }
    let line = committed
        .lines()
        .zip(fresh.lines())
        .position(|(a, b)| a != b)
        .unwrap_or(committed.lines().count().min(fresh.lines().count()));
    Some(format!(
        "{relative} is stale (first difference at line {})",
        line + 1
    ))
}

#[test]
fn generated_typescript_types_are_up_to_date() {
    let stale: Vec<String> = [
        (API_TYPES, api_types()),
        (CORE_TYPES, core_types()),
        (LIMITS, limits()),
        (CONSTANTS, constants()),
    ]
    .iter()
    .filter_map(|(file, fresh)| check_or_write(file, fresh))
    .collect();
    assert!(
        stale.is_empty(),
        "{}: run VAULT_AGENT_WRITE_TYPES=1 cargo test --release --lib ts_types, then commit plugin-shim/generated/",
        stale.join("; ")
    );
}

/// The one public type written by hand: the stable error codes other
/// plugins switch on (`ToolErrorCode` in plugin-shim/vault-agent-api.d.ts).
/// It must list exactly the codes `ToolError::code` gives, plus the shim's
/// own `internal_error` (plugin-shim/doors/api.ts, a call that failed in JS), so a
/// new error cannot reach the API unnamed.
#[test]
fn the_public_error_codes_are_toolerrors_codes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rust = std::fs::read_to_string(root.join("src/base/error.rs")).unwrap();
    let body = rust
        .split("pub fn code(&self) -> &'static str {")
        .nth(1)
        .and_then(|rest| rest.split("\n    }\n").next())
        .expect("ToolError::code in src/base/error.rs");
    let in_rust: Vec<&str> = body
        .lines()
        .filter_map(|line| line.split("=> \"").nth(1))
        .filter_map(|rest| rest.split('"').next())
        .collect();
    let api = std::fs::read_to_string(root.join("plugin-shim/vault-agent-api.d.ts")).unwrap();
    let union = api
        .split("export type ToolErrorCode =")
        .nth(1)
        .and_then(|rest| rest.split(';').next())
        .expect("ToolErrorCode in vault-agent-api.d.ts");
    let in_api: Vec<&str> = union
        .lines()
        .filter_map(|line| line.trim().strip_prefix("| \""))
        .filter_map(|rest| rest.split('"').next())
        .collect();
    let mut sorted_rust = in_rust.clone();
    sorted_rust.sort_unstable();
    sorted_rust.dedup();
    assert_eq!(sorted_rust.len(), in_rust.len(), "a code given twice");
    sorted_rust.push("internal_error");
    sorted_rust.sort_unstable();
    assert!(in_rust.len() > 30, "{in_rust:?}");
    let mut sorted_api = in_api.clone();
    sorted_api.sort_unstable();
    assert_eq!(
        sorted_api, sorted_rust,
        "ToolErrorCode in plugin-shim/vault-agent-api.d.ts must list ToolError::code's codes"
    );
}
