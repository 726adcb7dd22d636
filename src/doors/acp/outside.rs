//! The user's own MCP servers a coding agent is given in `session/new`,
//! beside ours: only those `policy::outside::for_agent` lets go (every call
//! would run at once anyway), in ACP's shapes, their secrets read. The
//! others are not sent: nothing that needs the user's yes reaches an agent
//! that would call it without our card. Their tools are offered through our
//! own MCP server instead (the engine keeps which were handed, for it), where
//! each call meets `policy::outside` and our card.

use serde::Serialize;
use serde_json::{json, Value};

use super::AcpDoor;
use crate::base::host::Host;
use crate::policy::outside::for_agent;
use crate::settings::outside::{unusable, OutsideServer, SecretValue};
use crate::settings::PermissionMode;

/// Our own server's name in `mcpServers`; an outside server by that name is renamed.
const OWN_NAME: &str = "vault-agent";

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct AgentServers {
    /// ACP `McpServer` entries, as `session/new` takes them.
    #[cfg_attr(test, ts(type = "unknown[]"))]
    pub servers: Vec<Value>,
    /// Why each enabled server that is not there was held back, for the chat.
    pub held_back: Vec<String>,
}

/// One server handed to an agent session, as it was handed.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Handed {
    id: String,
    /// The entry sent, to tell an edited server from the one the agent runs.
    entry: Value,
    http: bool,
}

impl<H: Host> AcpDoor<H> {
    /// The enabled outside servers to give the coding agent behind door
    /// `token` under `mode`, kept as handed for `withdrawn`; `http`: the
    /// agent takes Streamable HTTP servers.
    pub fn outside_servers(&self, token: &str, mode: PermissionMode, http: bool) -> AgentServers {
        let mut out = AgentServers::default();
        let mut handed = Vec::new();
        for server in self
            .engine
            .settings_snapshot()
            .mcp_servers
            .iter()
            .filter(|s| s.enabled)
        {
            match self.agent_entry(mode, http, server) {
                Ok(entry) => {
                    handed.push(Handed {
                        id: server.id.clone(),
                        entry: entry.clone(),
                        http,
                    });
                    out.servers.push(entry);
                }
                Err(reason) => out.held_back.push(reason),
            }
        }
        match self
            .sessions
            .borrow_mut()
            .iter_mut()
            .find(|s| s.token == token)
        {
            Some(session) => {
                self.engine
                    .set_caller_handed(token, handed.iter().map(|h| h.id.clone()).collect());
                session.handed = handed;
            }
            // No open door to remember them by: nothing is handed (fail closed).
            None => {
                out.held_back.extend(out.servers.drain(..).map(|entry| {
                    format!(
                        "`{}`: the agent's session is not open.",
                        entry["name"].as_str().unwrap_or_default()
                    )
                }));
            }
        }
        out
    }

    /// Why the agent behind door `token` must be ended, once the mode or the
    /// servers' settings changed: a server it was handed, and calls itself,
    /// would not be handed now (`policy::outside::for_agent` under `mode`),
    /// or is no longer as it was handed. `None` while each still would be.
    /// Only ending the agent ends the servers it started and its access.
    pub fn withdrawn(&self, token: &str, mode: PermissionMode) -> Option<String> {
        let settings = self.engine.settings_snapshot();
        let sessions = self.sessions.borrow();
        let session = sessions.iter().find(|s| s.token == token)?;
        let reasons: Vec<String> = session
            .handed
            .iter()
            .filter_map(|handed| {
                let id = &handed.id;
                let Some(server) = settings.mcp_servers.iter().find(|s| &s.id == id) else {
                    return Some(format!("`{id}` was removed."));
                };
                match self.agent_entry(mode, handed.http, server) {
                    Err(reason) => Some(reason),
                    Ok(entry) if entry != handed.entry => {
                        Some(format!("`{id}` changed in the settings."))
                    }
                    Ok(_) => None,
                }
            })
            .collect();
        if reasons.is_empty() {
            return None;
        }
        let name = self
            .engine
            .caller(token)
            .map_or_else(|| "The agent".to_string(), |c| c.name);
        Some(format!(
            "{name} was ended, since it calls the servers it was given itself and may no longer call these: {} Your next message starts it again with what the settings give it now.",
            reasons.join(" ")
        ))
    }

    fn agent_entry(
        &self,
        mode: PermissionMode,
        http: bool,
        server: &OutsideServer,
    ) -> Result<Value, String> {
        for_agent(mode, server)?;
        let id = &server.id;
        if let Some(problem) = unusable(server) {
            return Err(format!("`{id}`: {problem}."));
        }
        let host = self.engine.host();
        let read = |values: &[SecretValue]| -> Result<Vec<Value>, String> {
            values
                .iter()
                .map(|v| {
                    host.secret(&v.secret)
                        .map(|value| json!({ "name": v.name, "value": value }))
                        .ok_or_else(|| format!("`{id}` needs the secret `{}` for {}, which secret storage does not have.", v.secret, v.name))
                })
                .collect()
        };
        let name = if id == OWN_NAME {
            format!("{id}-outside")
        } else {
            id.clone()
        };
        if server.is_http() {
            if !http {
                return Err(format!(
                    "`{id}` is an HTTP server, and this agent takes only command (stdio) servers."
                ));
            }
            let mut headers = read(&server.headers)?;
            if !server.bearer_secret.is_empty() {
                let token = host.secret(&server.bearer_secret).ok_or_else(|| {
                    format!("`{id}` needs its bearer token from the secret `{}`, which secret storage does not have.", server.bearer_secret)
                })?;
                headers
                    .push(json!({ "name": "Authorization", "value": format!("Bearer {token}") }));
            }
            return Ok(
                json!({ "type": "http", "name": name, "url": server.url, "headers": headers }),
            );
        }
        // ACP's stdio servers start in the agent's folder, the vault's.
        let vault = host.platform().vault_path.clone().unwrap_or_default();
        if !server.cwd.is_empty() && server.cwd != vault {
            return Err(format!(
                "`{id}` runs in its own working folder, which ACP cannot pass to the agent."
            ));
        }
        Ok(json!({
            "name": name,
            "command": server.command,
            "args": server.args,
            "env": read(&server.env)?,
        }))
    }
}
