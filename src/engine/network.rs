//! Every outbound connection the plugin makes goes through here: Local only
//! is checked before anything is sent (`policy::network`), and each
//! attempt, refused or not, is kept in a log the settings show.

use std::collections::VecDeque;

use serde::Serialize;

use super::Engine;
use crate::base::address::{destination, Destination};
use crate::base::host::{Host, HttpFailure, HttpRequest, HttpResponseHead};
use crate::base::text::clipped;
use crate::policy::network::local_address;

/// An address read and allowed: what the host connects to.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckedAddress {
    /// The address as the WHATWG standard writes it.
    pub url: String,
    /// The host the host's own reading of `url` must find.
    pub hostname: String,
    /// With Local only on: the one address to connect to.
    pub connect_address: Option<String>,
    /// The attempt's place in the log, to note where the socket went.
    pub entry: usize,
}

/// Why no connection was made.
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// The address is not one the standard reads as an http(s) server.
    BadAddress(String),
    /// Local only refused it.
    LocalOnly(String),
}

impl Refusal {
    pub fn message(&self) -> &str {
        match self {
            Refusal::BadAddress(why) | Refusal::LocalOnly(why) => why,
        }
    }

    fn into_failure(self) -> HttpFailure {
        let code = match self {
            Refusal::BadAddress(_) => "BAD_ADDRESS",
            Refusal::LocalOnly(_) => "LOCAL_ONLY",
        };
        HttpFailure {
            code: code.into(),
            message: self.message().to_string(),
        }
    }
}

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
pub struct ConnectionLog {
    entries: VecDeque<ConnectionEntry>,
    /// How many were ever pushed: an entry's number stays its own while
    /// older ones are dropped.
    pushed: usize,
}

impl ConnectionLog {
    /// Adds `entry`, returning its number.
    fn push(&mut self, entry: ConnectionEntry) -> usize {
        if self.entries.len() == MAX_LOGGED {
            self.entries.pop_front();
        }
        self.entries.push_back(entry);
        self.pushed += 1;
        self.pushed - 1
    }

    /// The entry numbered `number`, while it is kept.
    fn get_mut(&mut self, number: usize) -> Option<&mut ConnectionEntry> {
        let first = self.pushed - self.entries.len();
        number
            .checked_sub(first)
            .and_then(|at| self.entries.get_mut(at))
    }
}

impl<H: Host> Engine<H> {
    /// Opens `request` for `purpose`, unless Local only refuses it. The host
    /// gets the address as the core read it, and the host name it must read
    /// from it too (`expected_host`), else it refuses to connect.
    pub async fn http_open(
        &self,
        request: &HttpRequest,
        purpose: &str,
    ) -> Result<HttpResponseHead, HttpFailure> {
        let checked = match self.vet_connection(&request.url, purpose).await {
            Ok(checked) => checked,
            Err(refusal) => return Err(refusal.into_failure()),
        };
        let mut sent = request.clone();
        sent.url = checked.url;
        sent.expected_host = checked.hostname;
        sent.connect_address = checked.connect_address;
        let opened = self.host().http_open(&sent).await;
        let detail = match &opened {
            Ok(head) => {
                self.note_connected(checked.entry, head.remote_address.clone());
                return opened;
            }
            Err(failure) => format!("{}: {}", failure.code, failure.message),
        };
        if let Some(entry) = self.connections.borrow_mut().get_mut(checked.entry) {
            entry.detail = detail;
        }
        opened
    }

    /// Reads `url` once and holds it to Local only, logging the attempt:
    /// what the host may connect to, or why not. A client of someone else's
    /// (an outside MCP server's HTTP transport) is handed the same: the
    /// address as read here, the host it must read from it, and with Local
    /// only the one address it may reach (never looked up again, or a name
    /// that changes its answer would get past the check).
    pub async fn vet_connection(
        &self,
        url: &str,
        purpose: &str,
    ) -> Result<CheckedAddress, Refusal> {
        let mut entry = ConnectionEntry {
            at_ms: self.host().now_ms(),
            destination: String::new(),
            address: None,
            purpose: purpose.to_string(),
            refused: true,
            detail: String::new(),
        };
        let read = destination(url);
        let outcome = match &read {
            Err(why) => Err(Refusal::BadAddress(why.clone())),
            Ok(found) if self.settings_snapshot().local_only => self
                .local_address(found)
                .await
                .map(Some)
                .map_err(Refusal::LocalOnly),
            Ok(_) => Ok(None),
        };
        entry.destination = match &read {
            Ok(found) => found.label(),
            Err(_) => clipped(url, 80),
        };
        let connect_address = match outcome {
            Ok(address) => address,
            Err(refusal) => {
                entry.detail = refusal.message().to_string();
                self.connections.borrow_mut().push(entry);
                return Err(refusal);
            }
        };
        let found = read.expect("a refused address returned above");
        entry.refused = false;
        entry.address = connect_address.clone();
        let entry = self.connections.borrow_mut().push(entry);
        Ok(CheckedAddress {
            url: found.url,
            hostname: found.hostname,
            connect_address,
            entry,
        })
    }

    /// The log records where the socket went, as the host saw it (a
    /// connection made without Local only, or one a test redirected, may
    /// reach another address than the one expected).
    pub fn note_connected(&self, entry: usize, remote_address: Option<String>) {
        if let (Some(logged), Some(remote)) =
            (self.connections.borrow_mut().get_mut(entry), remote_address)
        {
            logged.address = Some(remote);
        }
    }

    /// The local address to connect to for `found`, or why Local only refuses it.
    async fn local_address(&self, found: &Destination) -> Result<String, String> {
        if let Some(ip) = found.ip {
            return local_address(&found.hostname, &[ip.to_string()]);
        }
        match self.host().resolve_host(&found.hostname).await {
            Ok(addresses) => local_address(&found.hostname, &addresses),
            Err(failure) => Err(format!(
                "Refused by Settings → Vault Agent → Safety → Local only: {} could not be looked up ({}), so it could not be checked.",
                found.hostname, failure.message
            )),
        }
    }

    /// The connections since start, oldest first.
    pub fn connection_log(&self) -> Vec<ConnectionEntry> {
        self.connections.borrow().entries.iter().cloned().collect()
    }
}
