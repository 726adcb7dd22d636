//! Every outbound connection the plugin makes goes through here: Local only
//! is checked before anything is sent (`policy::network`), and each
//! attempt, refused or not, is kept in a log the settings show.

use std::collections::VecDeque;

use serde::Serialize;

use super::Engine;
use crate::base::host::{Host, HttpFailure, HttpRequest, HttpResponseHead};
use crate::policy::network::{destination, local_address, reach_of_address};

/// Entries the log keeps; the oldest goes first.
pub const MAX_LOGGED: usize = 200;

/// One connection the plugin made or was refused.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ConnectionEntry {
    pub at_ms: f64,
    /// `host:port` as the address names it.
    pub destination: String,
    /// The address connected to, when Local only checked one.
    pub address: Option<String>,
    /// What it was for ("chat answer", "model list" …).
    pub purpose: String,
    /// Refused before a socket was opened (Local only).
    pub refused: bool,
    /// The refusal's or the failure's reason; empty when it connected.
    pub detail: String,
}

/// The connections since the plugin started, oldest first.
#[derive(Default)]
pub struct ConnectionLog(VecDeque<ConnectionEntry>);

impl ConnectionLog {
    fn push(&mut self, entry: ConnectionEntry) {
        if self.0.len() == MAX_LOGGED {
            self.0.pop_front();
        }
        self.0.push_back(entry);
    }
}

impl<H: Host> Engine<H> {
    /// Opens `request` for `purpose`, unless Local only refuses it.
    pub async fn http_open(
        &self,
        request: &HttpRequest,
        purpose: &str,
    ) -> Result<HttpResponseHead, HttpFailure> {
        let (host, port) = destination(&request.url).unwrap_or_default();
        let mut entry = ConnectionEntry {
            at_ms: self.host().now_ms(),
            destination: format!("{host}:{port}"),
            address: None,
            purpose: purpose.to_string(),
            refused: false,
            detail: String::new(),
        };
        let mut checked = request.clone();
        if self.settings_snapshot().local_only {
            let address = match self.local_address(&host).await {
                Ok(address) => address,
                Err(message) => {
                    entry.refused = true;
                    entry.detail = message.clone();
                    self.connections.borrow_mut().push(entry);
                    return Err(HttpFailure {
                        code: "LOCAL_ONLY".into(),
                        message,
                    });
                }
            };
            entry.address = Some(address.clone());
            checked.connect_address = Some(address);
        }
        let opened = self.host().http_open(&checked).await;
        if let Err(failure) = &opened {
            entry.detail = format!("{}: {}", failure.code, failure.message);
        }
        self.connections.borrow_mut().push(entry);
        opened
    }

    /// A connection made by someone else's client (an outside MCP server's
    /// HTTP transport): logged like `http_open`'s, held to Local only before
    /// it is opened. `Ok(Some(address))`: connect to that address and no
    /// other (the client must not look the name up again, or a name that
    /// changes its answer would get past the check).
    pub async fn vet_connection(&self, url: &str, purpose: &str) -> Result<Option<String>, String> {
        let (host, port) = destination(url).unwrap_or_default();
        let mut entry = ConnectionEntry {
            at_ms: self.host().now_ms(),
            destination: format!("{host}:{port}"),
            address: None,
            purpose: purpose.to_string(),
            refused: false,
            detail: String::new(),
        };
        let pinned = if self.settings_snapshot().local_only {
            match self.local_address(&host).await {
                Ok(address) => Some(address),
                Err(message) => {
                    entry.refused = true;
                    entry.detail = message.clone();
                    self.connections.borrow_mut().push(entry);
                    return Err(message);
                }
            }
        } else {
            None
        };
        entry.address = pinned.clone();
        self.connections.borrow_mut().push(entry);
        Ok(pinned)
    }

    /// The local address to connect to for `host`, or why Local only refuses it.
    async fn local_address(&self, host: &str) -> Result<String, String> {
        if host.is_empty() {
            return local_address("an address without a host", &[]);
        }
        if reach_of_address(host).is_some() {
            return local_address(host, &[host.to_string()]);
        }
        match self.host().resolve_host(host).await {
            Ok(addresses) => local_address(host, &addresses),
            Err(failure) => Err(format!(
                "Refused by Settings → Vault Agent → Safety → Local only: {host} could not be looked up ({}), so it could not be checked.",
                failure.message
            )),
        }
    }

    /// The connections since start, oldest first.
    pub fn connection_log(&self) -> Vec<ConnectionEntry> {
        self.connections.borrow().0.iter().cloned().collect()
    }
}
