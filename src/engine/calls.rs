//! What the doors call: a tool call under the chat's mode, in a chat
//! answer, through another door, written as text; and the user's answers
//! on a card.

use std::rc::Rc;

use serde_json::Value;

use super::confirm::Approval;
use super::Engine;
use crate::base::card::ConfirmationCard;
use crate::base::error::ToolError;
use crate::base::host::Host;
use crate::base::result::ToolResult;
use crate::settings::Settings;

impl<H: Host> Engine<H> {
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

    /// `call_tool_in_turn` for the chat's own model, saying which chat a
    /// memory line would come from and whether the chat holds outside data
    /// (`Settings::memory_origin`, which decides whether a memory change
    /// waits for a card).
    pub(crate) async fn call_tool_in_chat(
        &self,
        tool_id: &str,
        args: &Value,
        turn: &str,
        origin: crate::settings::MemoryOrigin,
    ) -> ToolResult {
        let mut settings = Settings::clone(&self.settings.borrow());
        settings.memory_origin = Some(origin);
        self.timed(self.run_tool(tool_id, args, Some(turn), Rc::new(settings)))
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
    /// `call_tool_in_chat` (with the chat's `origin`), or as
    /// `call_tool_through` when `door` names an outside door and its mode,
    /// except that a change always waits for a card (`policy::check`), and
    /// the card says the call came as text.
    pub(crate) async fn call_tool_written_as_text(
        &self,
        tool_id: &str,
        args: &Value,
        door: Option<(&str, crate::settings::PermissionMode)>,
        turn: &str,
        origin: crate::settings::MemoryOrigin,
    ) -> ToolResult {
        let chat = self.settings_snapshot().permission_mode;
        let mode = door.map_or(chat, |(_, cap)| chat.at_most(cap));
        let mut settings = Settings::clone(&self.settings.borrow());
        settings.permission_mode = mode;
        settings.written_as_text = true;
        // The chat's own model: a remembered line names its chat.
        settings.memory_origin = door.is_none().then_some(origin);
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

    /// A change the chat's model asked for while carrying out an approved
    /// plan, on a note the plan does not name: as `call_tool_in_turn` (or
    /// under `door`'s mode), except that it always waits for a card
    /// (`policy::check`), and the card says it is not in the plan.
    pub(crate) async fn call_tool_off_plan(
        &self,
        tool_id: &str,
        args: &Value,
        door: Option<(&str, crate::settings::PermissionMode)>,
        turn: &str,
        origin: crate::settings::MemoryOrigin,
    ) -> ToolResult {
        self.call_tool_carded(tool_id, args, door, turn, true, origin)
            .await
    }

    /// A step of a plan the user chose to approve on one card: proposed as
    /// a card whatever the mode (its preview made now, its stale check at
    /// the approval), which the chat holds for the plan's card.
    pub(crate) async fn call_tool_held(
        &self,
        tool_id: &str,
        args: &Value,
        door: Option<(&str, crate::settings::PermissionMode)>,
        turn: &str,
        origin: crate::settings::MemoryOrigin,
    ) -> ToolResult {
        self.call_tool_carded(tool_id, args, door, turn, false, origin)
            .await
    }

    async fn call_tool_carded(
        &self,
        tool_id: &str,
        args: &Value,
        door: Option<(&str, crate::settings::PermissionMode)>,
        turn: &str,
        off_plan: bool,
        origin: crate::settings::MemoryOrigin,
    ) -> ToolResult {
        let chat = self.settings_snapshot().permission_mode;
        let mode = door.map_or(chat, |(_, cap)| chat.at_most(cap));
        let mut settings = Settings::clone(&self.settings.borrow());
        settings.permission_mode = mode;
        settings.off_plan = off_plan;
        settings.always_card = !off_plan;
        // The chat's own model: a remembered line names its chat (a card either way).
        settings.memory_origin = door.is_none().then_some(origin);
        let result = self
            .timed(self.run_tool(tool_id, args, Some(turn), Rc::new(settings)))
            .await;
        if let Some(pending) = &result.pending {
            let mut book = self.confirmations.borrow_mut();
            if off_plan {
                book.mark_off_plan(&pending.id);
            }
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

    /// A stale card's change proposed again against what the note holds
    /// now, under the settings it was approved under: always as a card,
    /// since the user was shown another change than this one.
    pub(crate) async fn propose_again_as_card(
        &self,
        tool_id: &str,
        args: &Value,
        settings: &Settings,
        turn: Option<&str>,
    ) -> ToolResult {
        let mut settings = settings.clone();
        settings.always_card = true;
        self.timed(self.run_tool(tool_id, args, turn, Rc::new(settings)))
            .await
    }

    /// Cards held for a plan's single card wait from when that card is
    /// shown, not from when the model asked: the card's full time to answer.
    pub(crate) fn renew_confirmations(&self, ids: &[String]) {
        let now = self.host.now_ms();
        let expiry = self.settings.borrow().confirmation_expiry_ms;
        let mut book = self.confirmations.borrow_mut();
        for id in ids {
            book.renew(id, now, expiry);
        }
    }

    /// `call_tool` through another door: under `settings` (that door's
    /// permission mode and process tag; see `settings_under`), a change
    /// journalled under `turn` where the caller has one (a coding agent's).
    pub(crate) async fn call_tool_under(
        &self,
        tool_id: &str,
        args: &Value,
        settings: Rc<Settings>,
        turn: Option<&str>,
    ) -> ToolResult {
        self.timed(self.run_tool(tool_id, args, turn, settings))
            .await
    }

    /// The user clicked Approve on the card for `argv_hash`: check the
    /// confirmation, re-read the target, and run the write if nothing changed.
    pub async fn approve(&self, id: &str, argv_hash: &str) -> ToolResult {
        self.approve_as(id, argv_hash, Approval::Whole).await
    }

    /// "Approve for this chat" on a coding agent's outside card: approved as
    /// by `approve`, and the agent's later calls of that tool in its session
    /// run without a card (`engine::callers`). Refused on any other card.
    pub async fn approve_for_chat(&self, id: &str, argv_hash: &str) -> ToolResult {
        self.approve_as(id, argv_hash, Approval::ForChat).await
    }

    pub(super) async fn approve_as(
        &self,
        id: &str,
        argv_hash: &str,
        approval: Approval<'_>,
    ) -> ToolResult {
        let (requester, written_as_text, off_plan) = {
            let now = self.host.now_ms();
            let mut book = self.confirmations.borrow_mut();
            book.get(id, now).map_or((None, false, false), |entry| {
                (
                    entry.requester.clone(),
                    entry.written_as_text,
                    entry.off_plan,
                )
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
            .timed(self.run_approved(id, argv_hash, &settings, approval))
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
            if off_plan {
                book.mark_off_plan(&fresh.id);
            }
        }
        result
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

    /// The outside agent that asked for the change on card `id`: its name
    /// goes on the card and its door's mode decides the approval.
    pub(crate) fn set_requester(&self, id: &str, requester: crate::engine::confirm::Requester) {
        self.confirmations.borrow_mut().set_requester(id, requester);
    }

    /// Closes card `id` unanswered: the call that raised it went away.
    pub(crate) fn withdraw(&self, id: &str) {
        let now = self.host.now_ms();
        let _ = self.confirmations.borrow_mut().reject(id, now);
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
}
