//! The plugin's core as one value: the engine and its doors. The wasm class
//! (`src/wasm/`) and the native tests hold one of these; each door's methods
//! live on the door's own type (`agent.chat.send(…)`, `agent.mcp.handle(…)`,
//! `agent.acp.open_door(…)`), the engine's on the engine, which this value
//! dereferences to (`agent.call_tool(…)`).

use std::ops::Deref;
use std::rc::Rc;

use serde_json::Value;

use crate::base::host::Host;
use crate::base::input::Lenient;
use crate::doors::acp::AcpDoor;
use crate::doors::chat::ChatDoor;
use crate::doors::mcp::McpDoor;
use crate::engine::Engine;

pub struct VaultAgent<H: Host> {
    pub engine: Rc<Engine<H>>,
    pub chat: ChatDoor<H>,
    pub mcp: McpDoor<H>,
    pub acp: AcpDoor<H>,
}

impl<H: Host> VaultAgent<H> {
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

    /// Builds the core from what the bounded reader made of `loadData()`
    /// (see `Engine::load`).
    pub fn load(host: H, stored: &Lenient) -> (Self, Vec<String>) {
        let (engine, repairs) = Engine::load(host, stored);
        let engine = Rc::new(engine);
        let agent = VaultAgent {
            chat: ChatDoor::new(engine.clone()),
            mcp: McpDoor::new(engine.clone()),
            acp: AcpDoor::new(engine.clone()),
            engine,
        };
        (agent, repairs)
    }
}

impl<H: Host> Deref for VaultAgent<H> {
    type Target = Engine<H>;

    fn deref(&self) -> &Engine<H> {
        &self.engine
    }
}
