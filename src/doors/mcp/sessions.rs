//! The server's state across requests: sessions (kept per token, each token
//! with its own cap, ended when idle), the calls in flight, the agent doors,
//! and the cards of calls a client gave up on when it timed out.

use serde_json::Value;

use super::{MAX_SESSIONS_PER_TOKEN, SESSION_IDLE_MS, TIMED_OUT_GRACE_MS};
use crate::base::result::ToolResult;
use crate::engine::callers::Caller;

#[derive(Clone, Debug)]
pub(crate) struct McpSession {
    pub id: String,
    pub client_name: String,
    pub client_version: String,
    /// The revision `initialize` agreed on.
    pub version: &'static str,
    pub last_used_ms: f64,
    /// The coding agent whose token opened the session (an ACP agent run
    /// in the chat), or `None` for the server's own token.
    pub caller: Option<Caller>,
}

impl McpSession {
    /// Who holds the session: the agent's caller id, or `None` for the
    /// server's own token.
    pub fn owner(&self) -> Option<u64> {
        self.caller.as_ref().map(|c| c.id)
    }
}

/// A tools/call in progress.
#[derive(Clone, Debug)]
pub(crate) struct InFlight {
    pub session: String,
    /// The request id as JSON text (ids are strings or integers).
    pub request_id: String,
    pub exchange: u32,
    /// Tags the call's CLI processes.
    pub tag: String,
    pub cancelled: bool,
    /// The client said it gave up because its own timeout ran out.
    pub timed_out: bool,
    /// The card it waits on, if any.
    pub card: Option<String>,
    /// The card it left for a retry when it timed out (`Orphan::id`).
    pub orphan: Option<u64>,
    /// Who made the call, the tool and its arguments: what a retry repeats.
    pub owner: Option<u64>,
    pub tool: String,
    pub arguments: Value,
}

/// A card whose call timed out on the client's side: kept for a short grace
/// for the same call asked again by the same token.
#[derive(Clone, Debug)]
pub(crate) struct Orphan {
    pub id: u64,
    pub owner: Option<u64>,
    pub tool: String,
    pub arguments: Value,
    pub card: String,
    /// When the call was given up on, or when the user answered the card.
    pub since_ms: f64,
    /// The user answered while no call waited: the answer, for the retry.
    pub outcome: Option<ToolResult>,
}

/// Cards kept for retries at most; the oldest answered one makes room.
const MAX_ORPHANS: usize = 64;

/// Why a session could not start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SessionRefusal {
    /// Every session of this token has a call in flight.
    AllBusy,
}

#[derive(Default)]
pub(crate) struct McpState {
    pub sessions: Vec<McpSession>,
    pub calls: Vec<InFlight>,
    pub running: usize,
    pub waiting: usize,
    pub next_tag: u64,
    pub orphans: Vec<Orphan>,
    pub next_orphan: u64,
}

impl McpState {
    /// Ends the sessions of coding agents whose door closed, and forgets
    /// the cards kept for their retries (`open`: the callers open now).
    pub fn forget_closed(&mut self, open: &[Caller]) {
        let is_open = |owner: Option<u64>| owner.is_none_or(|id| open.iter().any(|c| c.id == id));
        self.sessions.retain(|s| is_open(s.owner()));
        self.orphans.retain(|o| is_open(o.owner));
    }

    pub fn session_mut(&mut self, id: &str) -> Option<&mut McpSession> {
        self.sessions.iter_mut().find(|s| s.id == id)
    }

    fn busy(&self, session: &str) -> bool {
        self.calls.iter().any(|c| c.session == session)
    }

    /// Ends the sessions nobody used for `SESSION_IDLE_MS` (none with a
    /// call in flight), and forgets the cards kept past their grace.
    pub fn expire(&mut self, now_ms: f64) {
        let busy: Vec<String> = self.calls.iter().map(|c| c.session.clone()).collect();
        self.sessions
            .retain(|s| busy.contains(&s.id) || now_ms - s.last_used_ms < SESSION_IDLE_MS);
        // Unanswered ones are ended by the call that waits on them.
        self.orphans
            .retain(|o| o.outcome.is_none() || now_ms - o.since_ms < TIMED_OUT_GRACE_MS);
    }

    /// Adds a session. A token at its cap makes room by ending its own least
    /// recently used session without a call in flight; the sessions of other
    /// tokens are never touched.
    pub fn open_session(&mut self, session: McpSession) -> Result<(), SessionRefusal> {
        let owner = session.owner();
        let own: Vec<usize> = self
            .sessions
            .iter()
            .enumerate()
            .filter(|(_, s)| s.owner() == owner)
            .map(|(i, _)| i)
            .collect();
        if own.len() >= MAX_SESSIONS_PER_TOKEN {
            let oldest = own
                .into_iter()
                .filter(|&i| !self.busy(&self.sessions[i].id))
                .min_by(|&a, &b| {
                    self.sessions[a]
                        .last_used_ms
                        .total_cmp(&self.sessions[b].last_used_ms)
                })
                .ok_or(SessionRefusal::AllBusy)?;
            self.sessions.remove(oldest);
        }
        self.sessions.push(session);
        Ok(())
    }

    /// Cancels the calls `matches` picks; a call that timed out on the
    /// client's side while its card waits leaves the card for a retry, at
    /// once, so that a retry right behind the cancellation finds it. The
    /// tags of the calls, whose processes are to be stopped.
    pub fn cancel(
        &mut self,
        matches: impl Fn(&InFlight) -> bool,
        timed_out: bool,
        now_ms: f64,
    ) -> Vec<String> {
        let mut tags = Vec::new();
        let mut kept = Vec::new();
        for (index, call) in self.calls.iter_mut().enumerate() {
            if !matches(call) {
                continue;
            }
            call.cancelled = true;
            // A client that timed out and then went away still timed out.
            call.timed_out |= timed_out;
            tags.push(call.tag.clone());
            if timed_out && call.card.is_some() && call.orphan.is_none() {
                kept.push(index);
            }
        }
        for index in kept {
            self.leave_for_retry(index, now_ms);
        }
        tags
    }

    /// Leaves the card of the call at `index` for a retry; its `Orphan::id`.
    pub fn leave_for_retry(&mut self, index: usize, now_ms: f64) -> Option<u64> {
        if let Some(id) = self.calls[index].orphan {
            return Some(id);
        }
        let call = &self.calls[index];
        let card = call.card.clone()?;
        self.next_orphan += 1;
        let orphan = Orphan {
            id: self.next_orphan,
            owner: call.owner,
            tool: call.tool.clone(),
            arguments: call.arguments.clone(),
            card,
            since_ms: now_ms,
            outcome: None,
        };
        if self.orphans.len() >= MAX_ORPHANS {
            if let Some(oldest) = self
                .orphans
                .iter()
                .enumerate()
                .filter(|(_, o)| o.outcome.is_some())
                .min_by(|(_, a), (_, b)| a.since_ms.total_cmp(&b.since_ms))
                .map(|(i, _)| i)
            {
                self.orphans.remove(oldest);
            }
        }
        self.orphans.push(orphan);
        self.calls[index].orphan = Some(self.next_orphan);
        Some(self.next_orphan)
    }

    /// The kept card (or its answer) for this call, if one is kept for
    /// this token: taken, so that only one retry finds it.
    pub fn claim_orphan(
        &mut self,
        owner: Option<u64>,
        tool: &str,
        arguments: &Value,
    ) -> Option<Claimed> {
        let index = self
            .orphans
            .iter()
            .position(|o| o.owner == owner && o.tool == tool && o.arguments == *arguments)?;
        let orphan = self.orphans.remove(index);
        Some(match orphan.outcome {
            Some(outcome) => Claimed::Answered(Box::new(outcome)),
            None => Claimed::Card(orphan.card),
        })
    }
}

/// What a retried call found of the call it repeats.
pub(crate) enum Claimed {
    /// The card still waits for the user: wait on it.
    Card(String),
    /// The user answered it already: this is what came of it.
    Answered(Box<ToolResult>),
}
