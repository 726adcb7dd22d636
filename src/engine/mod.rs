//! Layer 3, the engine: the registry, the settings, the CLI client, the
//! confirmations, the journal and the read cache behind one `Engine`, which
//! runs every call. Each door (`crate::doors`) holds its own state over a
//! shared handle on it, so no door has a way around the gate (`gate.rs`),
//! the cards (`approve.rs`) or the journal (`undo.rs`).

mod approve;
pub mod callers;
mod calls;
pub mod confirm;
pub(crate) mod edge;
pub mod embeddings;
mod gate;
pub mod hygiene;
mod in_place;
pub mod journal;
pub mod network;
pub mod organise;
pub mod outside;
pub mod reads;
pub use reads::pdf_page;
mod record;
mod run;
pub mod search;
pub mod skills;
pub mod undo;
pub mod web;
pub mod writes;

use std::cell::RefCell;
use std::rc::Rc;

use serde::Serialize;
use serde_json::Value;

use crate::base::call::Access;
use crate::base::error::ToolError;
use crate::base::host::Host;
use crate::base::input::Lenient;
use crate::base::result::ToolResult;
use crate::cli::client::{CliClient, CliStatus};
use crate::engine::confirm::ConfirmationBook;
use crate::engine::journal::Journal;
use crate::settings::{normalise_loaded, NormalisedSettings, Settings};
use crate::tools::{builtin_tools, ToolSpec};

pub(crate) use gate::Authorised;

/// Forgets every kept read when dropped (see `Engine::changing`).
pub(crate) struct ForgetReads<'a>(&'a RefCell<crate::cli::cache::ReadCache>);

impl Drop for ForgetReads<'_> {
    fn drop(&mut self) {
        if let Ok(mut cache) = self.0.try_borrow_mut() {
            cache.forget();
        }
    }
}

/// How a tool is described to callers (`api.listTools()`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ToolDescriptor {
    pub id: &'static str,
    pub display_name: &'static str,
    pub description: &'static str,
    /// What it does in the user's words, for the settings (`tools::user_summary`).
    pub summary: &'static str,
    pub guidance: &'static str,
    pub input_schema: Value,
    /// The command allowlist.
    pub commands: Vec<&'static str>,
    pub command_details: Vec<CommandDescriptor>,
    /// A typical read-only call.
    pub example: Value,
    pub enabled: bool,
    /// Where it is turned on and off when not on the Tools page (memory on
    /// the Model page, the web on its own): the Tools page shows no switch
    /// for it and its "All tools" leaves it alone.
    pub own_switch: Option<crate::settings::OwnSwitch>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct CommandDescriptor {
    pub name: &'static str,
    pub access: Access,
    pub summary: &'static str,
}

/// The engine every door shares (in an `Rc`; see `crate::VaultAgent`).
pub struct Engine<H: Host> {
    host: H,
    tools: Vec<ToolSpec>,
    /// Shared, not cloned, per call: a call keeps the snapshot it started with.
    settings: RefCell<Rc<Settings>>,
    cli: CliClient,
    pub(crate) confirmations: RefCell<ConfirmationBook>,
    /// The tools' JSON Schemas, generated once on first use (they never change).
    schemas: std::cell::OnceCell<Vec<Value>>,
    /// Every change the agent made, with how to reverse it.
    pub(crate) journal: RefCell<Journal>,
    /// The coding agents' tokens: opened by the ACP door, admitted by the MCP door.
    pub(crate) callers: RefCell<callers::Callers>,
    /// Answers of reads kept while nothing changed (`cli::cache`).
    read_cache: RefCell<crate::cli::cache::ReadCache>,
    /// The ranked search's index (`search.rs`).
    pub(crate) search: RefCell<search::SearchState>,
    /// Search by meaning's vectors (`embeddings.rs`).
    pub(crate) embeddings: RefCell<embeddings::EmbeddingState>,
    /// Every outbound connection since start (`network.rs`).
    connections: RefCell<network::ConnectionLog>,
}

impl<H: Host> Engine<H> {
    /// Builds the engine from what the bounded reader made of `loadData()`:
    /// stored settings that could not be read at all leave the agent no
    /// folder, never the whole vault.
    pub fn load(host: H, stored: &Lenient) -> (Self, Vec<String>) {
        let tools = builtin_tools();
        let NormalisedSettings { settings, repairs } = normalise_loaded(stored, &ids(&tools));
        let core = Engine {
            host,
            tools,
            settings: RefCell::new(Rc::new(settings)),
            cli: CliClient::default(),
            confirmations: RefCell::new(ConfirmationBook::default()),
            schemas: std::cell::OnceCell::new(),
            journal: RefCell::new(Journal::default()),
            callers: RefCell::default(),
            read_cache: RefCell::new(crate::cli::cache::ReadCache::default()),
            search: RefCell::default(),
            embeddings: RefCell::default(),
            connections: RefCell::default(),
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
                summary: crate::tools::user_summary(tool.id),
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
                own_switch: crate::settings::own_switch(tool.id),
            })
            .collect()
    }

    /// Discovers the CLI again and reads its version (the settings tab's button).
    pub async fn cli_status(&self) -> CliStatus {
        let settings = self.settings_snapshot();
        self.cli.status(&self.host, &settings).await
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
}

fn ids(tools: &[ToolSpec]) -> Vec<&'static str> {
    tools.iter().map(|t| t.id).collect()
}
