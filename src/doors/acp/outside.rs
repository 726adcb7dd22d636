//! The user's own MCP servers a coding agent is given in `session/new`,
//! beside ours: only those `policy::outside::for_agent` lets go (every call
//! would run at once anyway), in ACP's shapes, their secrets read. The
//! others are said, not sent: nothing that needs the user's yes reaches an
//! agent that would call it without our card.

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

impl<H: Host> AcpDoor<H> {
    /// The enabled outside servers to give a coding agent under `mode`;
    /// `http`: the agent takes Streamable HTTP servers.
    pub fn outside_servers(&self, mode: PermissionMode, http: bool) -> AgentServers {
        let mut out = AgentServers::default();
        for server in self
            .engine
            .settings_snapshot()
            .mcp_servers
            .iter()
            .filter(|s| s.enabled)
        {
            match self.agent_entry(mode, http, server) {
                Ok(entry) => out.servers.push(entry),
                Err(reason) => out.held_back.push(reason),
            }
        }
        out
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
