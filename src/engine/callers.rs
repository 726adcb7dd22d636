//! The callers the engine knows by token: each coding agent session the chat
//! runs gets a bearer token for the MCP server, under the chat's mode and
//! with its cards in the agent's name. The ACP door opens and closes them;
//! the MCP door admits by them. They live here so that neither door imports
//! the other.

use crate::base::host::Host;
use crate::engine::Engine;
use crate::settings::PermissionMode;

/// Tokens shorter than this are not secrets: refused.
pub const MIN_TOKEN_CHARS: usize = 32;

/// One opened token.
#[derive(Clone, Debug, PartialEq)]
pub struct Caller {
    /// Unique for each opening: a token closed and opened again is another
    /// caller, and nothing of the first (an MCP session, a kept card) is its.
    pub id: u64,
    pub token: String,
    /// What its cards say ("Codex wants to change …").
    pub name: String,
    /// The mode its calls run under (the chat's, given at each Send).
    pub mode: PermissionMode,
    /// The user's own MCP servers the agent was handed in `session/new`
    /// (it calls them itself); every other enabled one is offered through
    /// our MCP server, behind our cards (`Engine::agent_outside_offer`).
    pub handed: Vec<String>,
    /// The outside tools the user answered "Approve for this chat" for on
    /// this agent's cards (`policy::outside::approval_key`): the agent's
    /// session is its chat, so they go when it closes, and no other caller
    /// nor the sidebar chat (which keeps its own in the conversation) sees them.
    pub approved: Vec<String>,
    /// The chat answer its changes are journalled under ("Undo this
    /// answer's changes"): the turn running now, or the last one.
    pub turn: Option<String>,
    /// A turn runs now; a change between turns gets an answer of its own.
    pub in_turn: bool,
}

#[derive(Debug, Default)]
pub struct Callers {
    open: Vec<Caller>,
    opened: u64,
    /// Changes made between turns so far (part of their own turn ids).
    between: u64,
}

impl Callers {
    /// Opens `token`, or gives an open one its new name and mode; an empty
    /// or short token is refused (false).
    pub fn open(&mut self, token: &str, name: &str, mode: PermissionMode) -> bool {
        if token.len() < MIN_TOKEN_CHARS {
            return false;
        }
        match self.open.iter_mut().find(|c| c.token == token) {
            Some(open) => {
                open.name = name.to_string();
                open.mode = mode;
            }
            None => {
                self.opened += 1;
                self.open.push(Caller {
                    id: self.opened,
                    token: token.to_string(),
                    name: name.to_string(),
                    mode,
                    handed: Vec::new(),
                    approved: Vec::new(),
                    turn: None,
                    in_turn: false,
                });
            }
        }
        true
    }

    /// The token stops working at once.
    pub fn close(&mut self, token: &str) {
        self.open.retain(|c| c.token != token);
    }

    pub fn by_token(&self, token: &str) -> Option<&Caller> {
        self.open.iter().find(|c| c.token == token)
    }

    pub fn by_id(&self, id: u64) -> Option<&Caller> {
        self.open.iter().find(|c| c.id == id)
    }

    /// Every open caller, oldest first.
    pub fn all(&self) -> &[Caller] {
        &self.open
    }
}

impl<H: Host> Engine<H> {
    /// Lets a coding agent reach the MCP server with `token` (see `Callers::open`).
    pub(crate) fn open_caller(&self, token: &str, name: &str, mode: PermissionMode) -> bool {
        self.callers.borrow_mut().open(token, name, mode)
    }

    /// The outside servers the agent behind `token` was handed itself.
    pub(crate) fn set_caller_handed(&self, token: &str, handed: Vec<String>) {
        if let Some(caller) = self
            .callers
            .borrow_mut()
            .open
            .iter_mut()
            .find(|c| c.token == token)
        {
            caller.handed = handed;
        }
    }

    /// "Approve for this chat" on a card of caller `id`: its later calls of
    /// the tool under `key` run without a card (the mode still decides).
    /// False when the caller is closed: nothing is kept for it.
    pub(crate) fn approve_for_caller(&self, id: u64, key: String) -> bool {
        let mut callers = self.callers.borrow_mut();
        let Some(caller) = callers.open.iter_mut().find(|c| c.id == id) else {
            return false;
        };
        if !caller.approved.contains(&key) {
            caller.approved.push(key);
        }
        true
    }

    /// A turn of the agent behind `token` starts under the answer id
    /// `turn`, or (`None`) ends.
    pub(crate) fn set_caller_turn(&self, token: &str, turn: Option<String>) {
        let mut callers = self.callers.borrow_mut();
        if let Some(caller) = callers.open.iter_mut().find(|c| c.token == token) {
            caller.in_turn = turn.is_some();
            if turn.is_some() {
                caller.turn = turn;
            }
        }
    }

    /// The answer a change by caller `id` is journalled under: its turn
    /// while one runs; between turns, an answer of its own, so "Undo this
    /// answer's changes" never folds it into an earlier answer nor skips it
    /// for one. `None` for a closed caller.
    pub(crate) fn caller_turn(&self, id: u64) -> Option<String> {
        let now = self.host.now_ms();
        let mut callers = self.callers.borrow_mut();
        callers.between += 1;
        let between = callers.between;
        let caller = callers.by_id(id)?;
        match (&caller.turn, caller.in_turn) {
            (Some(turn), true) => Some(turn.clone()),
            (last, _) => Some(format!(
                "{}~between-{}-{between}",
                last.as_deref().unwrap_or("agent"),
                now as u64
            )),
        }
    }

    pub(crate) fn close_caller(&self, token: &str) {
        self.callers.borrow_mut().close(token);
    }

    pub(crate) fn caller(&self, token: &str) -> Option<Caller> {
        self.callers.borrow().by_token(token).cloned()
    }

    pub(crate) fn caller_by_id(&self, id: u64) -> Option<Caller> {
        self.callers.borrow().by_id(id).cloned()
    }

    pub(crate) fn open_callers(&self) -> Vec<Caller> {
        self.callers.borrow().all().to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN: &str = "0123456789abcdef0123456789abcdef";

    #[test]
    fn a_token_opened_again_after_closing_is_another_caller() {
        let mut callers = Callers::default();
        assert!(!callers.open("short", "Codex", PermissionMode::ReadOnly));
        assert!(callers.open(TOKEN, "Codex", PermissionMode::ReadOnly));
        let first = callers.by_token(TOKEN).unwrap().id;
        assert!(callers.open(TOKEN, "Codex", PermissionMode::AskEveryChange));
        assert_eq!(callers.by_token(TOKEN).unwrap().id, first, "same opening");
        assert_eq!(
            callers.by_id(first).unwrap().mode,
            PermissionMode::AskEveryChange
        );
        callers.close(TOKEN);
        assert!(callers.by_id(first).is_none());
        assert!(callers.open(TOKEN, "Codex", PermissionMode::ReadOnly));
        assert_ne!(callers.by_token(TOKEN).unwrap().id, first);
    }

    #[test]
    fn approvals_for_the_chat_stay_with_one_opening_of_one_caller() {
        let mut callers = Callers::default();
        let other = "fedcba9876543210fedcba9876543210";
        assert!(callers.open(TOKEN, "Codex", PermissionMode::AskEveryChange));
        assert!(callers.open(other, "Claude", PermissionMode::AskEveryChange));
        let first = callers.by_token(TOKEN).unwrap().id;
        callers
            .open
            .iter_mut()
            .find(|c| c.id == first)
            .unwrap()
            .approved
            .push("s\u{1f}t".into());
        // Opened again at the next Send: the same chat, so the answer stays.
        assert!(callers.open(TOKEN, "Codex", PermissionMode::AskBeforeEdits));
        assert_eq!(callers.by_token(TOKEN).unwrap().approved, ["s\u{1f}t"]);
        assert!(callers.by_token(other).unwrap().approved.is_empty());
        callers.close(TOKEN);
        assert!(callers.open(TOKEN, "Codex", PermissionMode::AskEveryChange));
        assert!(callers.by_token(TOKEN).unwrap().approved.is_empty());
    }
}
