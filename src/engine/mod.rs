//! `VaultAgentCore`: the registry, the settings and the CLI client behind one
//! object. Every front end (the public API, the chat agent, the settings tab)
//! goes through it, so no front end has a way around the policy.

pub mod confirm;
mod edge;
pub mod hygiene;
pub mod journal;
pub mod organise;
pub mod reads;
pub mod undo;
pub mod writes;

use std::cell::RefCell;
use std::rc::Rc;

use serde::Serialize;
use serde_json::Value;

use crate::base::call::{Access, NoteLocator, ProbeResult};
use crate::base::card::{ConfirmationCard, ConfirmationState};
use crate::base::error::ToolError;
use crate::base::host::Host;
use crate::base::input::Lenient;
use crate::base::result::ToolResult;
use crate::cli::argv::CliInvocation;
use crate::cli::client::{CliClient, CliRun, CliStatus};
use crate::cli::outcome::EmptyOutput;
use crate::doors::chat::chat::StopSignal;
use crate::engine::confirm::{ConfirmationBook, Proposal};
use crate::engine::journal::Journal;
use crate::policy;
use crate::policy::filter;
use crate::policy::scope::{self, Output, Resolved, ScopeCheck};
use crate::settings::{normalise_loaded, NormalisedSettings, Settings};
use crate::tools::{builtin_tools, ToolCall, ToolSpec};

/// A call that passed the gate, and what the gate decided about it.
pub(crate) struct Authorised<'t> {
    pub call: ToolCall<'t>,
    pub access: Access,
    pub invocation: CliInvocation,
    /// The arguments that run: a note name the folder scopes had to look up
    /// is replaced by the exact path that was checked.
    pub arguments: Value,
    /// How to filter what the command prints to the folders the agent may read.
    pub filter: Option<Output>,
}

/// Forgets every kept read when dropped (see `VaultAgentCore::changing`).
pub(crate) struct ForgetReads<'a>(&'a RefCell<crate::cli::cache::ReadCache>);

impl Drop for ForgetReads<'_> {
    fn drop(&mut self) {
        if let Ok(mut cache) = self.0.try_borrow_mut() {
            cache.forget();
        }
    }
}

/// Lookups one call may need before its places are known (a name, today's note).
const MAX_LOOKUPS: usize = 4;

/// How a tool is described to callers (`api.listTools()`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ToolDescriptor {
    pub id: &'static str,
    pub display_name: &'static str,
    pub description: &'static str,
    pub guidance: &'static str,
    pub input_schema: Value,
    /// The command allowlist.
    pub commands: Vec<&'static str>,
    pub command_details: Vec<CommandDescriptor>,
    /// A typical read-only call.
    pub example: Value,
    pub enabled: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct CommandDescriptor {
    pub name: &'static str,
    pub access: Access,
    pub summary: &'static str,
}

pub struct VaultAgentCore<H: Host> {
    host: H,
    tools: Vec<ToolSpec>,
    /// Shared, not cloned, per call: a call keeps the snapshot it started with.
    settings: RefCell<Rc<Settings>>,
    cli: CliClient,
    pub(crate) confirmations: RefCell<ConfirmationBook>,
    /// Set by the chat's Stop button.
    pub(crate) chat_stop: StopSignal,
    pub(crate) chat_session: crate::doors::chat::chat::ChatSession,
    pub(crate) conversation_count: std::cell::Cell<u64>,
    /// The tools' JSON Schemas, generated once on first use (they never change).
    schemas: std::cell::OnceCell<Vec<Value>>,
    /// Every change the agent made, with how to reverse it.
    pub(crate) journal: RefCell<Journal>,
    /// The MCP server's sessions and calls in flight.
    pub(crate) mcp: RefCell<crate::doors::mcp::McpState>,
    /// Answers of reads kept while nothing changed (`cli::cache`).
    read_cache: RefCell<crate::cli::cache::ReadCache>,
}

impl<H: Host> VaultAgentCore<H> {
    /// Builds the core from the host and whatever `loadData()` returned.
    pub fn new(host: H, stored_settings: &Value) -> (Self, Vec<String>) {
        Self::load(
            host,
            &Lenient {
                value: stored_settings.clone(),
                repairs: Vec::new(),
                unreadable: false,
            },
        )
    }

    /// Builds the core from what the bounded reader made of `loadData()`:
    /// stored settings that could not be read at all leave the agent no
    /// folder, never the whole vault.
    pub fn load(host: H, stored: &Lenient) -> (Self, Vec<String>) {
        let tools = builtin_tools();
        let NormalisedSettings { settings, repairs } = normalise_loaded(stored, &ids(&tools));
        let core = VaultAgentCore {
            host,
            tools,
            settings: RefCell::new(Rc::new(settings)),
            cli: CliClient::default(),
            confirmations: RefCell::new(ConfirmationBook::default()),
            chat_stop: StopSignal::default(),
            chat_session: Default::default(),
            conversation_count: std::cell::Cell::new(0),
            schemas: std::cell::OnceCell::new(),
            journal: RefCell::new(Journal::default()),
            mcp: RefCell::new(crate::doors::mcp::McpState::default()),
            read_cache: RefCell::new(crate::cli::cache::ReadCache::default()),
        };
        (core, repairs)
    }

    pub fn host(&self) -> &H {
        &self.host
    }

    pub fn settings(&self) -> Settings {
        Settings::clone(&self.settings.borrow())
    }

    pub(crate) fn settings_snapshot(&self) -> Rc<Settings> {
        self.settings.borrow().clone()
    }

    /// Replaces the settings (from the settings tab, never from the model).
    pub fn set_settings(&self, stored: &Value) -> NormalisedSettings {
        self.set_loaded_settings(&Lenient {
            value: stored.clone(),
            repairs: Vec::new(),
            unreadable: false,
        })
    }

    /// `set_settings` with what the bounded reader made of the value.
    pub fn set_loaded_settings(&self, stored: &Lenient) -> NormalisedSettings {
        let normalised = normalise_loaded(stored, &ids(&self.tools));
        let old_path = self.settings.borrow().cli_path.clone();
        if normalised.settings.cli_path != old_path {
            self.cli.forget_binary();
        }
        *self.settings.borrow_mut() = Rc::new(normalised.settings.clone());
        self.forget_reads();
        normalised
    }

    pub fn tools(&self) -> &[ToolSpec] {
        &self.tools
    }

    pub fn list_tools(&self) -> Vec<ToolDescriptor> {
        let settings = self.settings.borrow();
        let schemas = self
            .schemas
            .get_or_init(|| self.tools.iter().map(ToolSpec::input_schema).collect());
        self.tools
            .iter()
            .zip(schemas)
            .map(|(tool, schema)| ToolDescriptor {
                id: tool.id,
                display_name: tool.display_name,
                description: tool.description,
                guidance: tool.guidance,
                input_schema: schema.clone(),
                commands: tool.command_names(),
                command_details: tool
                    .commands
                    .iter()
                    .map(|c| CommandDescriptor {
                        name: c.name,
                        access: c.access,
                        summary: c.summary,
                    })
                    .collect(),
                example: tool.example.clone(),
                enabled: settings.tool_enabled(tool.id),
            })
            .collect()
    }

    /// Discovers the CLI again and reads its version (the settings tab's button).
    pub async fn cli_status(&self) -> CliStatus {
        let settings = self.settings_snapshot();
        self.cli.status(&self.host, &settings).await
    }

    /// Runs one tool call end to end and reports how long it took. A
    /// confirmed write comes back as a pending result; nothing has run then.
    pub async fn call_tool(&self, tool_id: &str, args: &Value) -> ToolResult {
        self.call_tool_in_turn(tool_id, args, None).await
    }

    /// `call_tool` for the chat: a change it makes is journaled as part of
    /// `turn` (the answer's "Undo this answer's changes" reverses them all).
    pub async fn call_tool_in_turn(
        &self,
        tool_id: &str,
        args: &Value,
        turn: Option<&str>,
    ) -> ToolResult {
        self.timed(self.run_tool(tool_id, args, turn, self.settings_snapshot()))
            .await
    }

    /// A call through one of the plugin's own doors outside its UI (its CLI
    /// commands): under the chat's mode, or `cap` where that is stricter. A
    /// card it raises names `requester` and is approved under that mode.
    pub async fn call_tool_through(
        &self,
        tool_id: &str,
        args: &Value,
        requester: &str,
        cap: Option<crate::settings::PermissionMode>,
        turn: Option<&str>,
    ) -> ToolResult {
        let chat = self.settings_snapshot().permission_mode;
        let mode = cap.map_or(chat, |cap| chat.at_most(cap));
        let settings = self.settings_under(mode, None);
        let result = self
            .timed(self.run_tool(tool_id, args, turn, settings))
            .await;
        if let Some(pending) = &result.pending {
            self.confirmations.borrow_mut().set_requester(
                &pending.id,
                crate::engine::confirm::Requester {
                    name: requester.to_string(),
                    mode,
                },
            );
        }
        result
    }

    /// A call the chat's model wrote as text (`agent::text_calls`): as
    /// `call_tool_in_turn`, or as `call_tool_through` when `door` names an
    /// outside door and its mode, except that a change always waits for a
    /// card (`policy::check`), and the card says the call came as text.
    pub(crate) async fn call_tool_written_as_text(
        &self,
        tool_id: &str,
        args: &Value,
        door: Option<(&str, crate::settings::PermissionMode)>,
        turn: &str,
    ) -> ToolResult {
        let chat = self.settings_snapshot().permission_mode;
        let mode = door.map_or(chat, |(_, cap)| chat.at_most(cap));
        let mut settings = Settings::clone(&self.settings.borrow());
        settings.permission_mode = mode;
        settings.written_as_text = true;
        let result = self
            .timed(self.run_tool(tool_id, args, Some(turn), Rc::new(settings)))
            .await;
        if let Some(pending) = &result.pending {
            let mut book = self.confirmations.borrow_mut();
            book.mark_written_as_text(&pending.id);
            if let Some((name, _)) = door {
                book.set_requester(
                    &pending.id,
                    crate::engine::confirm::Requester {
                        name: name.to_string(),
                        mode,
                    },
                );
            }
        }
        result
    }

    /// `call_tool` through another door: under `settings` (that door's
    /// permission mode and process tag; see `settings_under`).
    pub(crate) async fn call_tool_under(
        &self,
        tool_id: &str,
        args: &Value,
        settings: Rc<Settings>,
    ) -> ToolResult {
        self.timed(self.run_tool(tool_id, args, None, settings))
            .await
    }

    /// The user clicked Approve on the card for `argv_hash`: check the
    /// confirmation, re-read the target, and run the write if nothing changed.
    pub async fn approve(&self, id: &str, argv_hash: &str) -> ToolResult {
        let (requester, written_as_text) = {
            let now = self.host.now_ms();
            let mut book = self.confirmations.borrow_mut();
            book.get(id, now).map_or((None, false), |entry| {
                (entry.requester.clone(), entry.written_as_text)
            })
        };
        // An outside agent's change is checked under its door's mode, not
        // the chat's; a card that went stale asks again in the agent's name.
        let settings = match &requester {
            Some(requester) => self.settings_under(requester.mode, None),
            None => self.settings_snapshot(),
        };
        // Whatever runs (the CLI, the vault, the file manager) may change answers.
        let forget = self.changing();
        let result = self
            .timed(self.run_approved(id, argv_hash, &settings))
            .await;
        drop(forget);
        if let Some(fresh) = &result.pending {
            let mut book = self.confirmations.borrow_mut();
            if let Some(requester) = requester {
                book.set_requester(&fresh.id, requester);
            }
            if written_as_text {
                book.mark_written_as_text(&fresh.id);
            }
        }
        result
    }

    /// The settings one call of another door runs under: that door's
    /// permission mode, and the tag its processes carry.
    pub(crate) fn settings_under(
        &self,
        mode: crate::settings::PermissionMode,
        process_tag: Option<String>,
    ) -> Rc<Settings> {
        let mut settings = Settings::clone(&self.settings.borrow());
        settings.permission_mode = mode;
        settings.process_tag = process_tag;
        Rc::new(settings)
    }

    /// The user clicked Reject. The result is what the model is told.
    pub fn reject(&self, id: &str) -> ToolResult {
        let error = match self
            .confirmations
            .borrow_mut()
            .reject(id, self.host.now_ms())
        {
            Ok(()) => ToolError::ConfirmationRejected,
            Err(error) => error,
        };
        ToolResult::failure(&error, 0.0)
    }

    /// What the confirmation card for `id` shows, with its current state.
    pub fn confirmation_card(&self, id: &str) -> Option<ConfirmationCard> {
        let now = self.host.now_ms();
        self.confirmations
            .borrow_mut()
            .get(id, now)
            .map(|c| c.card())
    }

    /// The result to report for a confirmation that expired unanswered, once
    /// it has (the shim asks when the card's time is up).
    pub fn expired_result(&self, id: &str) -> Option<ToolResult> {
        self.confirmation_outcome(id)
            .filter(|r| r.code() == Some("confirmation_expired"))
    }

    /// The answer of a confirmation that is over (done, failed, rejected,
    /// expired, or stale with the new proposal in `pending`); `None` while it
    /// waits or runs, or when there is no such confirmation.
    pub fn confirmation_outcome(&self, id: &str) -> Option<ToolResult> {
        let now = self.host.now_ms();
        self.confirmations.borrow_mut().outcome(id, now)
    }

    /// Confirmations still waiting for the user.
    pub fn open_confirmations(&self) -> Vec<ConfirmationCard> {
        let now = self.host.now_ms();
        self.confirmations
            .borrow_mut()
            .open(now)
            .into_iter()
            .map(|c| c.card())
            .collect()
    }

    pub(crate) async fn timed(
        &self,
        work: impl std::future::Future<Output = Result<ToolResult, ToolError>>,
    ) -> ToolResult {
        let started = self.host.now_ms();
        let mut result = work
            .await
            .unwrap_or_else(|error| ToolResult::failure(&error, 0.0));
        result.duration_ms = (self.host.now_ms() - started).max(0.0);
        result
    }

    fn find_tool(&self, tool_id: &str, settings: &Settings) -> Result<&ToolSpec, ToolError> {
        let tool =
            self.tools
                .iter()
                .find(|t| t.id == tool_id)
                .ok_or_else(|| ToolError::UnknownTool {
                    tool: tool_id.to_string(),
                    available: self.enabled_ids(settings).join(", "),
                })?;
        if !settings.tool_enabled(tool.id) {
            return Err(ToolError::ToolDisabled {
                tool: tool.id.to_string(),
                available: self.enabled_ids(settings).join(", "),
            });
        }
        Ok(tool)
    }

    /// The one gate every call passes, and every approval passes again: the
    /// platform, the tool's switch, the arguments, the policy, the folder
    /// scopes, the argv. While a scope is set, a note the call names by name
    /// (or today's note) is looked up first, a read of its path only, after
    /// the policy has let the call through; a name is then replaced by the
    /// path that was checked, so the CLI acts on exactly that note.
    pub(crate) async fn authorise<'t>(
        &'t self,
        tool_id: &str,
        args: &Value,
        settings: &Settings,
    ) -> Result<Authorised<'t>, ToolError> {
        if !self.host.platform().is_desktop_app {
            return Err(ToolError::UnsupportedPlatform);
        }
        let tool = self.find_tool(tool_id, settings)?;
        let mut arguments = args.clone();
        let mut resolved = Resolved::default();
        for _ in 0..=MAX_LOOKUPS {
            let call = tool.parse_call(&arguments)?;
            let facts = call.facts()?;
            let access = policy::check(&facts, settings, self.host.platform().config_dir())?;
            let reach = facts.reach;
            match scope::check(
                call.command.name,
                &reach,
                call.access(),
                settings,
                self.host.platform().os(),
                &resolved,
            )? {
                ScopeCheck::Allowed(filter) => {
                    if access.is_write() {
                        // No write follows a symbolic link out of the vault.
                        self.check_write_places(&call).await?;
                    }
                    let mut invocation = call.invocation(settings.vault())?;
                    // Filtered from the CLI's JSON, whatever the model asked
                    // for; written back in its form after (`policy::filter`).
                    if filter.as_ref().is_some_and(scope::Output::asks_json) {
                        invocation.set_parameter("format", "json");
                    }
                    return Ok(Authorised {
                        call,
                        access,
                        invocation,
                        arguments,
                        filter,
                    });
                }
                ScopeCheck::Resolve(locate) => {
                    let path = self.resolve_note(&locate, settings).await?;
                    if let NoteLocator::Name(name) = &locate {
                        pin_to_path(&mut arguments, name, &path);
                    }
                    resolved.notes.push((locate, path));
                }
            }
        }
        Err(ToolError::invalid(
            tool_id,
            "the call names more notes than can be checked against the allowed folders; name each with `path`",
        ))
    }

    async fn run_tool(
        &self,
        tool_id: &str,
        args: &Value,
        turn: Option<&str>,
        settings: Rc<Settings>,
    ) -> Result<ToolResult, ToolError> {
        let Authorised {
            call,
            access,
            invocation,
            arguments,
            filter,
        } = self.authorise(tool_id, args, &settings).await?;
        let _forget = access.is_write().then(|| self.changing());
        let args = &arguments;
        if let Some(request) = call.args.note_view() {
            return self.view_note(request, &settings).await;
        }
        if let Some(request) = call.args.organise() {
            return self
                .propose_organise(&call, args, request, &settings, turn)
                .await;
        }
        if let Some(request) = call.args.computed() {
            // Computed from the CLI's listings and the notes' text, each
            // limited to the read scope before anything is computed.
            return self.run_hygiene(&request, &settings).await;
        }
        if let Some(request) = call.args.note_edit() {
            return self
                .propose_note_edit(&call, args, request, &settings, turn)
                .await;
        }
        if access == Access::ConfirmedWrite {
            return self.propose(&call, args, invocation, &settings, turn).await;
        }
        if access.is_write() {
            // Refuse what the CLI cannot receive before any read runs.
            self.cli
                .check_fits(&self.host, &settings, &invocation)
                .await?;
        }
        let check = call.args.write_check();
        if let Some(check) = &check {
            let target = call.args.write_target().unwrap_or_default();
            self.check_before_write(check, &target, &settings).await?;
        }
        // Looked for before the note exists, so it never finds itself.
        let warning = self.new_note_warning(&call, &settings).await;
        let before = match access.is_write() {
            true => Some(self.capture_before(&call, &settings).await),
            false => None,
        };
        if let Some(before) = &before {
            self.check_captured_place(before).await?;
        }
        let run = self.run_cli(&call, access, &invocation, &settings).await;
        let ran = ran_output(&run);
        let mut result = self.verified(run, check.as_ref(), &settings).await?;
        if let (Some(before), Some(output)) = (before, ran) {
            self.record_write(before, &call, turn, &settings, &output, &mut result)
                .await;
        }
        if let (Some(warning), true) = (&warning, result.ok) {
            result.text = format!("{}\n{warning}", result.text.trim_end());
        }
        if !result.ok || result.empty {
            return Ok(result);
        }
        // What lies outside the folders the agent may read goes first; then
        // the command's own filters, counts and pages see only the rest.
        if let Some(shape) = &filter {
            let scope = scope::FolderScope::read(&settings, self.host.platform().os());
            let filtered = filter::filter(call.command.name, &result.text, shape, scope);
            result.text = filtered.text;
            if filtered.withheld > 0 {
                result.withheld = Some(filtered.withheld);
            }
        }
        if let Some(presented) = call.args.present(&result.text) {
            result.text = presented.text;
            if let Some(note) = presented.note {
                result.text.push_str(&note);
                result.text.push('\n');
            }
        }
        Ok(result)
    }

    /// Runs the call's argv; a read whose rule allows it (`cli::cache`) is
    /// answered from the cache while nothing changed.
    async fn run_cli(
        &self,
        call: &ToolCall<'_>,
        access: Access,
        invocation: &CliInvocation,
        settings: &Settings,
    ) -> CliRun {
        use crate::cli::cache::{self, CacheRule};
        let cacheable = access == Access::Read
            && settings.read_cache_seconds > 0
            && cache::rule(call.command.name) == Some(CacheRule::VaultContent)
            // Without `file` or `path` the CLI answers for the open note.
            && !call
                .args
                .reach()
                .places
                .iter()
                .any(|place| matches!(place, scope::Place::OpenNote));
        let key = cacheable.then(|| invocation.to_argv().ok()).flatten();
        let generation = self.read_cache.borrow().generation();
        if let Some(argv) = &key {
            let max_age = f64::from(settings.read_cache_seconds) * 1000.0;
            let now = self.host.now_ms();
            if let Some(run) = self.read_cache.borrow_mut().get(argv, now, max_age) {
                return run;
            }
        }
        let run = self
            .cli
            .run(&self.host, settings, invocation, call.command.empty_output)
            .await;
        if key.is_some() {
            let now = self.host.now_ms();
            self.read_cache.borrow_mut().put(&run, now, generation);
        }
        run
    }

    /// For a change about to run: forgets every kept read now, and again
    /// when the returned guard is dropped (however the change ends), so no
    /// answer read before or during it is kept.
    pub(crate) fn changing(&self) -> ForgetReads<'_> {
        self.forget_reads();
        ForgetReads(&self.read_cache)
    }

    /// Something may have changed the vault (an event from Obsidian, a
    /// change the agent made, an undo): no kept read answer is trusted.
    pub fn forget_reads(&self) {
        self.read_cache.borrow_mut().forget();
    }

    /// Read answers kept now, and answers given from the cache so far.
    pub fn read_cache_stats(&self) -> (usize, u64) {
        let cache = self.read_cache.borrow();
        (cache.len(), cache.hits())
    }

    /// A finished CLI write, read back when the command says how.
    async fn verified(
        &self,
        run: CliRun,
        check: Option<&crate::tools::WriteCheck>,
        settings: &Settings,
    ) -> Result<ToolResult, ToolError> {
        if let (Some(check), Ok(output)) = (check, &run.output) {
            if let Err(error) = self.verify_write(check, output, settings).await {
                return Ok(result_of(CliRun {
                    output: Err(error),
                    ..run
                }));
            }
        }
        Ok(result_of(run))
    }

    /// One CLI run, its output or its error.
    pub(crate) async fn cli_run(
        &self,
        invocation: &CliInvocation,
        empty_output: EmptyOutput,
        settings: &Settings,
    ) -> Result<crate::cli::outcome::CliOutput, ToolError> {
        self.cli
            .run(&self.host, settings, invocation, empty_output)
            .await
            .output
    }

    /// Reads the target, builds the preview and files a confirmation.
    async fn propose(
        &self,
        call: &ToolCall<'_>,
        args: &Value,
        invocation: CliInvocation,
        settings: &Settings,
        turn: Option<&str>,
    ) -> Result<ToolResult, ToolError> {
        let argv = invocation
            .to_argv()
            .map_err(|e| ToolError::invalid(call.tool.id, e.to_string()))?;
        // A card for a command line the OS would refuse could never run.
        self.cli
            .check_fits(&self.host, settings, &invocation)
            .await?;
        let probe = call
            .args
            .probe()
            .ok_or_else(|| {
                // Reachable for any write in Ask before every change: every
                // write needs a probe and a preview to be shown on a card.
                ToolError::invalid(
                    call.tool.id,
                    format!(
                        "{} has no preview, so it cannot wait for approval on a card; nothing ran",
                        call.command.name
                    ),
                )
            })?
            .in_vault(settings.vault());
        let probe_note = match call.args.exact_note() {
            Some(locate) => Some(self.resolve_note(&locate, settings).await?),
            None => None,
        };
        let current = match &probe_note {
            Some(path) => self.read_exact(path).await,
            None => self.read_probe(&probe, settings).await,
        };
        let mut preview = call.args.preview(&current)?;
        preview.warning = self.new_note_warning(call, settings).await;
        let summary = format!("{} {}", call.command.confirm_verb, preview.target);
        let proposal = Proposal {
            tool_id: call.tool.id,
            command: call.command.name,
            arguments: args.clone(),
            invocation,
            argv: argv.clone(),
            probe,
            probe_snapshot: snapshot(&current),
            probe_note,
            summary,
            preview,
            empty_output: call.command.empty_output,
            note_edit: None,
            organise: None,
            turn: turn.map(str::to_string),
        };
        let now = self.host.now_ms();
        let mut book = self.confirmations.borrow_mut();
        let pending = book
            .propose(proposal, now, settings.confirmation_expiry_ms)
            .view();
        let warning = pending.preview.warning.clone();
        let mut result = ToolResult::pending(pending, argv);
        if let Some(warning) = warning {
            // The model is told too, so it can offer to add to that note instead.
            result.text = format!("{}\n{warning}", result.text);
        }
        Ok(result)
    }

    /// For a call that makes a new note: a warning when a note with the same
    /// or a very similar title exists (among the notes the agent may read).
    async fn new_note_warning(&self, call: &ToolCall<'_>, settings: &Settings) -> Option<String> {
        let title = call.args.new_note_title()?;
        let found = self.similar_titles(&title, settings).await;
        crate::engine::hygiene::similar_title_warning(&found)
    }

    async fn run_approved(
        &self,
        id: &str,
        argv_hash: &str,
        settings: &Settings,
    ) -> Result<ToolResult, ToolError> {
        let (tool_id, arguments, argv) = {
            let now = self.host.now_ms();
            let mut book = self.confirmations.borrow_mut();
            let entry = book
                .get(id, now)
                .ok_or_else(|| ToolError::ConfirmationNotFound { id: id.to_string() })?;
            (entry.tool_id, entry.arguments.clone(), entry.argv.clone())
        };
        // The switches may have changed since the card appeared (changes
        // turned off, the tool turned off, another vault): the same gate as
        // the proposal decides again, and the argv must still be the same.
        let Authorised {
            call, invocation, ..
        } = self.authorise(tool_id, &arguments, settings).await?;
        let is_note_edit = call.args.note_edit().is_some() || call.args.organise().is_some();
        if !is_note_edit && invocation.to_argv().ok().as_ref() != Some(&argv) {
            return Err(ToolError::ArgvMismatch);
        }
        let now = self.host.now_ms();
        let entry = self
            .confirmations
            .borrow_mut()
            .approve(id, argv_hash, now)?;
        let turn = entry.turn.as_deref();
        if let Some(plan) = &entry.organise {
            return self.run_organise(&entry, plan, settings).await;
        }
        if let Some(plan) = &entry.note_edit {
            return self
                .run_note_edit(id, entry.tool_id, &entry.arguments, plan, settings, turn)
                .await;
        }
        let current = match &entry.probe_note {
            Some(path) => self.read_exact(path).await,
            None => self.read_probe(&entry.probe, settings).await,
        };
        if snapshot(&current) != entry.probe_snapshot {
            let target = entry.preview.target.clone();
            // Ask again with a fresh preview, if the call still makes sense.
            let fresh = self
                .propose_again(entry.tool_id, &entry.arguments, settings, turn)
                .await;
            // What the target holds now, as the fresh preview shows it (a
            // probe may read a whole note when the target is one line).
            let now_text = match (&fresh, &current) {
                (Some(pending), _) => pending.preview.before.clone(),
                (None, Ok(text)) => text.lines().last().unwrap_or("").to_string(),
                (None, Err(error)) => error.to_string(),
            };
            let mut result = ToolResult::failure(
                &ToolError::Stale {
                    target,
                    now: now_text,
                },
                0.0,
            );
            result.pending = fresh;
            self.confirmations
                .borrow_mut()
                .finish(id, ConfirmationState::Stale, &result)?;
            return Ok(result);
        }
        // What undo needs, read after the stale check so it is what the
        // write changes.
        let before = self.capture_before(&call, settings).await;
        self.confirmations
            .borrow_mut()
            .advance(id, ConfirmationState::Running)?;
        if let Err(error) = self.check_captured_place(&before).await {
            return self.finish_run(id, ToolResult::failure(&error, 0.0));
        }
        let run = self
            .cli
            .run(&self.host, settings, &entry.invocation, entry.empty_output)
            .await;
        let ran = ran_output(&run);
        let mut result = self
            .verified(run, call.args.write_check().as_ref(), settings)
            .await?;
        if let Some(output) = ran {
            self.record_write(before, &call, turn, settings, &output, &mut result)
                .await;
        }
        self.finish_run(id, result)
    }

    /// A confirmation whose write ran: done or failed, with its result kept.
    pub(crate) fn finish_run(&self, id: &str, result: ToolResult) -> Result<ToolResult, ToolError> {
        let end = if result.ok {
            ConfirmationState::Done
        } else {
            ConfirmationState::Failed
        };
        self.confirmations.borrow_mut().finish(id, end, &result)?;
        Ok(result)
    }

    /// A new card for a write whose card went stale. Always a card, never a
    /// run, whatever the mode says now: the user clicked Approve on what the
    /// old card showed, not on the target as it is now.
    async fn propose_again(
        &self,
        tool_id: &str,
        args: &Value,
        settings: &Settings,
        turn: Option<&str>,
    ) -> Option<crate::base::card::PendingView> {
        let Authorised {
            call,
            access,
            invocation,
            arguments,
            ..
        } = self.authorise(tool_id, args, settings).await.ok()?;
        if !access.is_write() {
            return None;
        }
        let proposed = self
            .propose(&call, &arguments, invocation, settings, turn)
            .await
            .ok()?;
        proposed.pending
    }

    async fn read_probe(&self, probe: &CliInvocation, settings: &Settings) -> ProbeResult {
        // Empty is a real answer here (a property that is not set).
        let run = self
            .cli
            .run(&self.host, settings, probe, EmptyOutput::Success(""))
            .await;
        run.output.map(|out| {
            if out.empty && out.text.is_empty() {
                String::new()
            } else {
                out.text
            }
        })
    }

    fn enabled_ids(&self, settings: &Settings) -> Vec<&'static str> {
        self.tools
            .iter()
            .filter(|t| settings.tool_enabled(t.id))
            .map(|t| t.id)
            .collect()
    }
}

/// Puts the path a name was checked as in place of the name, so the CLI
/// does not resolve the name again (to another note, if one appeared).
fn pin_to_path(arguments: &mut Value, name: &str, path: &str) {
    let Some(fields) = arguments.as_object_mut() else {
        return;
    };
    if fields.get("file").and_then(Value::as_str) == Some(name) {
        fields.remove("file");
        fields.insert("path".into(), Value::from(path));
    }
}

/// The one result of a finished CLI run.
fn result_of(run: CliRun) -> ToolResult {
    let mut result = match run.output {
        Ok(output) => ToolResult {
            ok: true,
            text: output.text,
            error: None,
            program: None,
            argv: None,
            truncated: output.truncation.map(|_| true),
            empty: output.empty,
            pending: None,
            diff: None,
            journal: None,
            withheld: None,
            duration_ms: 0.0,
        },
        Err(error) => ToolResult::failure(&error, 0.0),
    };
    result.program = run.program;
    if !run.argv.is_empty() {
        result.argv = Some(run.argv);
    }
    result
}

/// What the CLI printed for a write it ran: journaled even when the
/// read-back then fails, since the note may have changed.
fn ran_output(run: &CliRun) -> Option<String> {
    run.output.as_ref().ok().map(|output| output.text.clone())
}

/// What a probe read, as a comparable string (errors included).
fn snapshot(result: &ProbeResult) -> String {
    match result {
        Ok(text) => format!("ok:{text}"),
        Err(error) => format!("error:{}:{error}", error.code()),
    }
}

fn ids(tools: &[ToolSpec]) -> Vec<&'static str> {
    tools.iter().map(|t| t.id).collect()
}
