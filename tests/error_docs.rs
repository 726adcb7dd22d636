//! `docs/errors.md` is generated from the core's error types: every code, when
//! it happens, and the message a caller reads, made by the core's own
//! `Display` from a sample of each variant. The test fails while the file is
//! stale; `VAULT_AGENT_WRITE_DOCS=1 cargo test --test error_docs` (or
//! `node scripts/docs.mjs`, which runs it) rewrites it.
//!
//! The "when" texts are matches without a wildcard, so a new variant does not
//! compile until it says when it happens; a sample left out of `tool_samples`
//! fails `every_public_code_is_documented`.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use vault_agent::doors::chat::model::ChatError;
use vault_agent::settings::ModeSetting;
use vault_agent::ToolError;

const DOCS_FILE: &str = "docs/errors.md";

/// One value of every variant, with values like those a user meets.
fn tool_samples() -> Vec<ToolError> {
    let s = |text: &str| text.to_string();
    vec![
        ToolError::CliNotFound {
            setting_problem: None,
            tried: vec![s("/usr/local/bin/obsidian"), s("~/.local/bin/obsidian")],
        },
        ToolError::AppNotRunning {
            detail: s("The CLI is unable to find Obsidian."),
        },
        ToolError::VaultNotFound {
            vault: Some(s("Work")),
        },
        ToolError::CliError {
            output: s("Error: File \"Roadmap\" not found."),
            hint: None,
        },
        ToolError::Timeout { timeout_ms: 15_000 },
        ToolError::Killed {
            signal: s("SIGKILL"),
        },
        ToolError::ExitStatus {
            status: 2,
            detail: String::new(),
        },
        ToolError::OutputFlood {
            bytes: 16 * 1024 * 1024,
            first_line: s("warning: …"),
        },
        ToolError::EmptyOutput,
        ToolError::UnknownTool {
            tool: s("obsidianShell"),
            available: s("obsidianNotes, obsidianSearch"),
        },
        ToolError::ToolDisabled {
            tool: s("obsidianEdit"),
            place: s("in Settings → Vault Agent → Tools"),
            available: s("obsidianNotes, obsidianSearch"),
        },
        ToolError::InvalidArguments {
            tool: s("obsidianSearch"),
            problem: s("`limit` must be a number from 1 to 200."),
        },
        ToolError::CommandNotAllowed {
            tool: s("obsidianNotes"),
            command: s("eval"),
            reason: s("It runs code inside Obsidian, which no tool may do."),
        },
        ToolError::UnsupportedPlatform,
        ToolError::WritesDisabled {
            tool: s("obsidianProperties"),
            command: s("property:set"),
            mode: "Read only",
            lead: ModeSetting::Chat.lead(),
            place: ModeSetting::Chat.place(),
        },
        ToolError::MissingTarget {
            command: s("property:set"),
            fix: s("Name the note with `file` or `path`."),
        },
        ToolError::ConfigFolder {
            command: s("read"),
            verb: "read",
            key: s(".obsidian/plugins/vault-agent/data.json"),
            config_dir: s(".obsidian"),
        },
        ToolError::OutOfScope {
            command: s("read"),
            place: s("the note \"Diary/2026-03-03.md\""),
            verb: "read",
            folders: s("Projects"),
            fix: s("Ask about notes in those folders."),
        },
        ToolError::NoteExists {
            target: s("\"Ideas/Garden.md\""),
        },
        ToolError::NoteNotFound {
            target: s("\"Roadmap\""),
        },
        ToolError::FindNotFound {
            target: s("\"Roadmap.md\""),
            near: vec![12, 13],
        },
        ToolError::FindAmbiguous {
            target: s("\"Roadmap.md\""),
            lines: vec![4, 19],
        },
        ToolError::HeadingNotFound {
            target: s("\"Roadmap.md\""),
            heading: s("Risks"),
            headings: vec![s("Plan"), s("Plan::Dates")],
        },
        ToolError::HeadingAmbiguous {
            target: s("\"Roadmap.md\""),
            heading: s("Notes"),
            candidates: vec![s("Plan::Notes (line 8)"), s("Review::Notes (line 30)")],
        },
        ToolError::NothingToChange {
            target: s("\"Roadmap.md\""),
        },
        ToolError::SelectionChanged {
            target: s("\"Roadmap.md\""),
        },
        ToolError::TooLargeForCli {
            detail: s("one argument may hold at most 131 072 bytes on Linux"),
        },
        ToolError::WriteNotVerified {
            target: s("\"Daily/2026-03-03.md\""),
            detail: s("the note does not end with the appended text"),
        },
        ToolError::VaultFailed {
            target: s("\"Roadmap.md\""),
            detail: s("the file is locked"),
        },
        ToolError::NoteTooLarge {
            target: s("\"Archive/Export.md\""),
            size: s("9.2 MiB"),
            max: s("8 MiB"),
        },
        ToolError::OutsideTurn {
            request: s("fs/write_text_file"),
            ended: false,
        },
        ToolError::NotUtf8 {
            target: s("\"Old/Letter.md\""),
            detail: s("byte 0xE9 at offset 40"),
        },
        ToolError::PathOutsideVault {
            target: s("\"Linked/Plan.md\""),
            detail: s("leads through a symbolic link to /home/me/elsewhere/Plan.md"),
        },
        ToolError::ReadThroughLink {
            target: s("\"Projects/Diary.md\""),
            detail: s("leads through a symbolic link to a place outside the folders the agent may read"),
        },
        ToolError::ConfirmationNotFound { id: s("c-17") },
        ToolError::ConfirmationUsed {
            state: s("approved"),
        },
        ToolError::ConfirmationExpired,
        ToolError::ConfirmationRejected,
        ToolError::ArgvMismatch,
        ToolError::Stale {
            target: s("\"Roadmap.md\""),
            now: s("status: paused"),
            refused_again: None,
        },
        ToolError::UndoConflict {
            target: s("\"Roadmap.md\""),
            detail: s("it was edited since"),
        },
        ToolError::AlreadyUndone {
            target: s("\"Roadmap.md\""),
        },
        ToolError::NotUndoable {
            target: s("\"Roadmap.md\""),
            reason: s("The Obsidian CLI has no command that removes a bookmark; remove it in Obsidian's Bookmarks view."),
        },
        ToolError::UndoTargetMissing {
            target: s("\"Roadmap.md\""),
        },
        ToolError::UndoNotFound {
            id: s("j-3"),
            kept: 200,
        },
        ToolError::NothingToUndo { scope: None },
        ToolError::WebFailed {
            detail: "localhost:8888 could not be reached (ECONNREFUSED)".into(),
        },
    ]
}

/// When the core answers with `error`: what a caller can tell from the code alone.
fn tool_when(error: &ToolError) -> &'static str {
    match error {
        ToolError::CliNotFound { .. } => "No CLI binary anywhere; the message names your own path setting first when it is the cause, then every path tried and how to turn the CLI on.",
        ToolError::AppNotRunning { .. } => "The CLI exited non-zero with exactly its \"unable to find Obsidian\" message.",
        ToolError::VaultNotFound { .. } => "The CLI answered exactly `Vault not found.` (check the vault name).",
        ToolError::CliError { .. } => "The CLI answered one `Error: …` line (file not found, missing parameter, a core plugin turned off).",
        ToolError::Timeout { .. } => "The call ran past the timeout and was stopped.",
        ToolError::Killed { .. } => "The process died from a signal.",
        ToolError::ExitStatus { .. } => "Any other non-zero exit.",
        ToolError::OutputFlood { .. } => "The CLI wrote far more than the output cap to stderr and was stopped.",
        ToolError::EmptyOutput => "Exit 0 with nothing printed where a command always prints (the app may still be starting).",
        ToolError::UnknownTool { .. } => "No tool has that name.",
        ToolError::ToolDisabled { .. } => "The user turned the tool off (Settings → Vault Agent → Tools; Memory and the web have their own switch, on the Model and Web pages, which the message names).",
        ToolError::InvalidArguments { .. } => "The arguments do not fit the command; the message names the field and the allowed values.",
        ToolError::CommandNotAllowed { .. } => "The command is not on the tool's allowlist; excluded commands say why.",
        ToolError::UnsupportedPlatform => "Not the desktop app.",
        ToolError::WritesDisabled { .. } => "A change under Read only; the message names the mode setting the call ran under and where to change it.",
        ToolError::MissingTarget { .. } => "A change that names no note, so the CLI would change the note open in Obsidian.",
        ToolError::ConfigFolder { .. } => "A read, change or bookmark inside the vault's configuration folder (`.obsidian/`, in any case, with trailing dots or spaces, or as its 8.3 short name).",
        ToolError::OutOfScope { .. } => "A note or folder outside the folders the user lets the agent read or change, or a vault-wide form that cannot be split by folder while a list is set (the message says which form works).",
        ToolError::NoteExists { .. } => "`create` (or a move or rename) names a note that already exists.",
        ToolError::NoteNotFound { .. } => "The note named does not exist.",
        ToolError::FindNotFound { .. } => "An `edit`'s `find` text is not in the note; the message names lines that hold it in another case or spacing.",
        ToolError::FindAmbiguous { .. } => "An `edit`'s `find` text occurs more than once and `all` was not given.",
        ToolError::HeadingNotFound { .. } => "A heading path names no heading of the note; the message lists the headings there are.",
        ToolError::HeadingAmbiguous { .. } => "A heading name matches several headings; the message lists them with their parents.",
        ToolError::NothingToChange { .. } => "The change would leave the note (or the tag, or the place of a note) as it is.",
        ToolError::SelectionChanged { .. } => "A rewrite of the editor's selection: the note changed between the selection and the model's answer.",
        ToolError::TooLargeForCli { .. } => "The text does not fit one command line (128 KiB an argument on Linux, 32 767 characters for a whole Windows command line).",
        ToolError::WriteNotVerified { .. } => "A CLI write ran, but reading the note back did not show the change.",
        ToolError::VaultFailed { .. } => "Obsidian's vault could not read or write the note.",
        ToolError::NoteTooLarge { .. } => "A coding agent's file read of a note over the size it may read whole (it is never sent shortened).",
        ToolError::OutsideTurn { .. } => "A coding agent's file request or question after its turn ended, or after its session closed.",
        ToolError::NotUtf8 { .. } => "An edit of a file that is not UTF-8 text.",
        ToolError::ReadThroughLink { .. } => "A read whose real path, every symbolic link followed, leaves the vault, the read folders or enters the configuration folder.",
        ToolError::PathOutsideVault { .. } => "A change whose target leads through a symbolic link out of the vault or into its configuration folder, or a coding agent's path outside the vault.",
        ToolError::ConfirmationNotFound { .. } => "No pending card has that id (answered already, or the plugin was reloaded).",
        ToolError::ConfirmationUsed { .. } => "The card was answered already; each is used once.",
        ToolError::ConfirmationExpired => "The card waited longer than the confirmation expiry.",
        ToolError::ConfirmationRejected => "The user clicked Reject.",
        ToolError::ArgvMismatch => "An approval for another command line than the card's.",
        ToolError::Stale { .. } => "The target changed between the card and the click; nothing ran and a fresh card replaces the old one.",
        ToolError::UndoConflict { .. } => "An undo whose target changed since the agent's change; the result carries the diff (then → now) and the hash \"Undo anyway\" sends back.",
        ToolError::AlreadyUndone { .. } => "The change was undone already.",
        ToolError::NotUndoable { .. } => "The change cannot be undone; the reason says what to do instead.",
        ToolError::UndoTargetMissing { .. } => "The note the change went to was moved or deleted since.",
        ToolError::UndoNotFound { .. } => "The journal no longer holds the change (it keeps the newest ones).",
        ToolError::NothingToUndo { .. } => "No change of the agent is left to undo.",
        ToolError::WebFailed { .. } => "A web search or page read was refused (Local only, an address that is not a web page's) or did not answer; the detail says which and what to do.",
    }
}

fn chat_samples() -> Vec<ChatError> {
    let s = |text: &str| text.to_string();
    vec![
        ChatError::Connection {
            url: s("http://localhost:11434/v1"),
            detail: s("the connection was refused (ECONNREFUSED)"),
            fix: s("Is Ollama running? Start it (`ollama serve`), or check the base URL."),
        },
        ChatError::PromptTooLarge {
            window: 2048,
            needed: 2600,
        },
        ChatError::LocalOnly {
            message: s("Refused by Settings → Vault Agent → Safety → Local only: api.openai.com is 162.159.140.245, which is not on this computer or its private network. Point the profile at a local server, or turn Local only off."),
        },
        ChatError::ImagesNotAccepted { model: s("llama3.1") },
        ChatError::Unauthorized {
            status: 401,
            detail: "invalid x-api-key".into(),
        },
        ChatError::MissingApiKey {
            provider: s("OpenAI"),
        },
        ChatError::NoKeySent { status: 401 },
        ChatError::ModelNotFound {
            model: s("llama9"),
            hint: String::new(),
        },
        ChatError::EndpointNotFound {
            url: s("http://localhost:8080/chat/completions"),
        },
        ChatError::MissingV1 {
            url: s("http://localhost:8080/chat/completions"),
            base: s("http://localhost:8080"),
        },
        ChatError::RateLimited {
            detail: String::new(),
        },
        ChatError::ServerError {
            status: 500,
            detail: s("internal error"),
        },
        ChatError::NoToolSupport {
            model: s("gemma:2b"),
            detail: String::new(),
        },
        ChatError::BadRequest {
            status: 400,
            detail: s("unknown field `tools`"),
        },
        ChatError::BadStream {
            detail: s("a line that is not JSON"),
        },
        ChatError::ContextFull {
            window: 4_096,
            needed: 5_200,
        },
        ChatError::ContextOverflow {
            status: 400,
            detail: s("the request exceeds the available context size, try increasing it"),
        },
        ChatError::StreamError {
            detail: s("model runner has unexpectedly stopped"),
        },
        ChatError::EmptyReply,
        ChatError::NoFirstToken { seconds: 300 },
        ChatError::Stalled { seconds: 60 },
        ChatError::Cut {
            detail: s("socket hang up"),
        },
    ]
}

fn chat_when(error: &ChatError) -> &'static str {
    match error {
        ChatError::Connection { .. } => "The model server could not be reached; the fix names the server the address points at (Ollama, LM Studio).",
        ChatError::Unauthorized { .. } => "A key was sent and the server refused it.",
        ChatError::MissingApiKey { .. } => "The profile's provider needs a key and none is set.",
        ChatError::NoKeySent { .. } => "A 401 came back and no key was sent.",
        ChatError::ModelNotFound { .. } => "The server says it does not know the model.",
        ChatError::EndpointNotFound { .. } => "A 404 that is not about the model.",
        ChatError::MissingV1 { .. } => "A 404 on `…/chat/completions` while `<base>/v1/models` answers.",
        ChatError::RateLimited { .. } => "A 429 after the retries (429, 503 and 529 are asked again up to three times first).",
        ChatError::ServerError { .. } => "A 5xx from the server.",
        ChatError::NoToolSupport { .. } => "The server refuses tools for this model.",
        ChatError::BadRequest { .. } => "The server rejected the request (another 4xx).",
        ChatError::BadStream { .. } => "The answer could not be read as the provider's format.",
        ChatError::ContextFull { .. } => "The turn does not fit the context window even shortened.",
        ChatError::ContextOverflow { .. } => "The server says the request is longer than its context (llama.cpp, Ollama, LM Studio, vLLM, OpenAI and Anthropic words are recognised), in an error status or inside the stream.",
        ChatError::StreamError { .. } => "The server answered 200, then sent an error inside the stream (or as its JSON body).",
        ChatError::EmptyReply => "No text and no tool call (never stored, never sent back).",
        ChatError::NoFirstToken { .. } => "The headers came, then nothing for the first-token wait (a model on a CPU still reading the prompt, or a server that hangs).",
        ChatError::Stalled { .. } => "Nothing arrived for the wait between tokens in the middle of an answer; the request and its socket are ended.",
        ChatError::Cut { .. } => "The server closed the connection mid-answer.",
        ChatError::PromptTooLarge { .. } => "The window cannot hold even Vault Agent's fixed prompt, the tool descriptions and the room kept for the answer, whatever the conversation: a new chat cannot help.",
        ChatError::LocalOnly { .. } => "Settings → Safety → Local only is on and the server's address (or one of the addresses its name has) is not on this computer or the private network; nothing was sent.",
        ChatError::ImagesNotAccepted { .. } => "A message with images, and the profile's \"Model accepts images\" is No, or Ask the server and the server (Ollama) does not report vision or the model is not a Claude; checked before anything is sent.",
    }
}

/// A table cell: `|` would end it, a line break would end the row.
fn cell(text: &str) -> String {
    text.trim().replace('|', "\\|").replace('\n', " ")
}

fn render() -> String {
    let mut out = String::from(
        "# Error codes\n\n\
         <!-- Generated by `VAULT_AGENT_WRITE_DOCS=1 cargo test --test error_docs` (tests/error_docs.rs) from the core's error types. Do not edit by hand. -->\n\n\
         Every failure has a stable code and a message that says what to do next. A tool call answers \
         `{ ok: false, error: { code, message } }` (the public API, the chat's tool blocks); an MCP client \
         reads the code first in the text (`writes_disabled: …`) with `isError`; the plugin's CLI commands \
         print `Error: <code>: <message>`. The messages below are the core's own, made from sample values.\n\n\
         The CLI prints its own errors on stdout with exit code 0, so the exit code alone never decides \
         success; its \"No tasks found.\"-style answers are successful, empty results (`empty: true`).\n\n\
         ## Tool errors\n\n\
         | Code | When | Example message |\n|---|---|---|\n",
    );
    for error in tool_samples() {
        out.push_str(&format!(
            "| `{}` | {} | {} |\n",
            error.code(),
            cell(tool_when(&error)),
            cell(&error.to_string())
        ));
    }
    out.push_str(
        "| `internal_error` | The public API could not reach a working core (the shim's own code, \
         `plugin-shim/doors/api.ts`): reload the plugin. | — |\n",
    );
    out.push_str(
        "\n## Chat errors\n\n\
         A chat turn that cannot go on shows the error right after the message that failed, with the \
         fix and its ways out: where trying again can help, a **Retry** button, which runs the failed turn again \
         without sending the message twice; where the model profile's settings are the cause, \
         **Open this profile's settings** and (with more than one profile) **Switch profile**. An unreachable \
         server is named with its profile (\"The profile \"Local\" could not reach …\"). A server's own error text is shown as \
         one line of at most 300 characters, with the API key and anything shaped like a credential \
         replaced by `[hidden]`.\n\n\
         | Code | When | Example message |\n|---|---|---|\n",
    );
    for error in chat_samples() {
        out.push_str(&format!(
            "| `{}` | {} | {} |\n",
            error.code(),
            cell(chat_when(&error)),
            cell(&error.to_string())
        ));
    }
    out.push_str(
        "\n## Outside tool results\n\n\
         A call of a tool of your own MCP server (docs/outside-tools.md) that did not succeed shows this \
         code in its tool block; the model reads the same text inside `<outside-data>`, with what to do next.\n\n\
         | Code | When | Example message |\n|---|---|---|\n",
    );
    for (code, when, text) in outside_rows() {
        out.push_str(&format!(
            "| `{code}` | {} | {} |\n",
            cell(when),
            cell(&text)
        ));
    }
    out
}

/// The codes of an outside tool's (the user's own MCP servers') results, with
/// when each happens and the text the model and the tool block get.
fn outside_rows() -> Vec<(String, &'static str, String)> {
    use serde_json::json;
    use vault_agent::base::outside::OutsideOutcome;
    use vault_agent::doors::chat::outside::outcome_result;
    use vault_agent::policy::outside::{decide, OutsideVerdict};
    use vault_agent::settings::outside::{OutsideServer, Trust};
    use vault_agent::settings::PermissionMode;
    let samples = [
        (
            OutsideOutcome::Answered {
                result: json!({ "isError": true, "content": [{ "type": "text", "text": "Unknown city: Atlantis" }] }),
            },
            "The server answered with `isError`: the tool itself failed.",
        ),
        (
            OutsideOutcome::Failed {
                code: -32602,
                message: "Invalid params: city is required".into(),
            },
            "The server answered the call with a JSON-RPC error.",
        ),
        (
            OutsideOutcome::TimedOut,
            "No answer within the server's time (`timeoutMs`, 60 s unless set); the server was sent `notifications/cancelled`.",
        ),
        (
            OutsideOutcome::Cancelled,
            "The user pressed Stop during the call; the server was sent `notifications/cancelled`.",
        ),
        (
            OutsideOutcome::Crashed {
                message: "its process ended with status 1".into(),
                stderr_tail: "Error: cannot open database".into(),
            },
            "The server's process ended or its connection closed during the call (with the last lines it wrote to stderr).",
        ),
        (
            OutsideOutcome::Unreachable {
                message: "connect ECONNREFUSED 127.0.0.1:8931".into(),
            },
            "The server could not be started or reached, or a secret it needs is not in secret storage.",
        ),
    ];
    let mut rows: Vec<(String, &'static str, String)> = samples
        .into_iter()
        .map(|(outcome, when)| {
            let result = outcome_result(&outcome, "weather", 60_000);
            (
                result.code().unwrap_or_default().to_string(),
                when,
                result.text,
            )
        })
        .collect();
    let server = OutsideServer {
        id: "files".into(),
        command: "npx".into(),
        trust: Trust::NeverAsk,
        ..OutsideServer::default()
    };
    let OutsideVerdict::Refuse(why) = decide(
        PermissionMode::ReadOnly,
        &server,
        "delete_file",
        false,
        false,
    ) else {
        panic!("Read only refuses a tool not marked read-only");
    };
    rows.push((
        "outside_refused".into(),
        "Not called: Read only and a tool not marked read-only, a tool switched off, or a server switched off.",
        why,
    ));
    rows.push((
        "rejected".into(),
        "The user clicked Reject on an outside call's card; nothing was sent to the server.",
        "The user rejected this call; nothing was sent to the server. Do not call it again unless the user asks.".into(),
    ));
    rows
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn docs_errors_md_is_current() {
    let path = root().join(DOCS_FILE);
    let rendered = render();
    if std::env::var_os("VAULT_AGENT_WRITE_DOCS").is_some() {
        std::fs::write(&path, &rendered).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == rendered,
        "{DOCS_FILE} is stale: regenerate it with VAULT_AGENT_WRITE_DOCS=1 cargo test --test error_docs \
         (or node scripts/docs.mjs)"
    );
}

/// `vault-agent-api.d.ts`, wherever the shim keeps it.
fn public_api_file(dir: &Path) -> Option<PathBuf> {
    for entry in std::fs::read_dir(dir).ok()? {
        let path = entry.ok()?.path();
        if path.is_dir() {
            if let Some(found) = public_api_file(&path) {
                return Some(found);
            }
        } else if path
            .file_name()
            .is_some_and(|n| n == "vault-agent-api.d.ts")
        {
            return Some(path);
        }
    }
    None
}

/// The public `ToolErrorCode` union (which `ts_types` pins to `ToolError::code`)
/// is exactly what the page documents: no sample left out, none twice.
#[test]
fn every_public_code_is_documented() {
    let api =
        public_api_file(&root().join("plugin-shim")).expect("plugin-shim/…/vault-agent-api.d.ts");
    let text = std::fs::read_to_string(&api).unwrap();
    let union = text
        .split("export type ToolErrorCode =")
        .nth(1)
        .and_then(|rest| rest.split(';').next())
        .expect("ToolErrorCode in vault-agent-api.d.ts");
    let public: BTreeSet<&str> = union
        .lines()
        .filter_map(|line| line.trim().strip_prefix("| \""))
        .filter_map(|rest| rest.split('"').next())
        .collect();
    let samples = tool_samples();
    let mut documented: BTreeSet<&str> = samples.iter().map(ToolError::code).collect();
    assert_eq!(documented.len(), samples.len(), "a code sampled twice");
    documented.insert("internal_error");
    assert_eq!(
        documented, public,
        "tool_samples() in tests/error_docs.rs must hold one of each ToolError variant"
    );
}

/// Which variant `error` is, numbered without a wildcard: a new variant
/// needs a number here, and then a sample in `chat_samples`.
fn chat_variant(error: &ChatError) -> usize {
    match error {
        ChatError::Connection { .. } => 0,
        ChatError::Unauthorized { .. } => 1,
        ChatError::MissingApiKey { .. } => 2,
        ChatError::NoKeySent { .. } => 3,
        ChatError::ModelNotFound { .. } => 4,
        ChatError::EndpointNotFound { .. } => 5,
        ChatError::MissingV1 { .. } => 6,
        ChatError::RateLimited { .. } => 7,
        ChatError::ServerError { .. } => 8,
        ChatError::NoToolSupport { .. } => 9,
        ChatError::BadRequest { .. } => 10,
        ChatError::BadStream { .. } => 11,
        ChatError::ContextFull { .. } => 12,
        ChatError::EmptyReply => 13,
        ChatError::Stalled { .. } => 14,
        ChatError::Cut { .. } => 15,
        ChatError::ContextOverflow { .. } => 16,
        ChatError::StreamError { .. } => 17,
        ChatError::NoFirstToken { .. } => 18,
        ChatError::LocalOnly { .. } => 19,
        ChatError::PromptTooLarge { .. } => 20,
        ChatError::ImagesNotAccepted { .. } => 21,
    }
}
const CHAT_VARIANTS: usize = 22;

#[test]
fn every_chat_error_is_documented() {
    let sampled: BTreeSet<usize> = chat_samples().iter().map(chat_variant).collect();
    assert_eq!(
        chat_samples().len(),
        sampled.len(),
        "a chat error sampled twice"
    );
    assert_eq!(
        sampled,
        (0..CHAT_VARIANTS).collect(),
        "chat_samples() in tests/error_docs.rs must hold one of each ChatError variant (numbered in chat_variant)"
    );
}
