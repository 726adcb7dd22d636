//! The confirmation state machine for risky writes.
//!
//! ```text
//! proposed ──approve──▶ approved ──▶ running ──▶ done | failed
//!    │                     └──(target changed)──▶ stale
//!    ├──reject──▶ rejected
//!    └──(time)──▶ expired
//! ```
//!
//! A confirmation is bound to a SHA-256 of the exact argv it will run, is used
//! at most once, and expires. Approval is only reachable from the plugin's own
//! UI: the public API and the model get the pending result and nothing that
//! approves it.

use sha2::{Digest, Sha256};

use crate::base::call::Preview;
use crate::base::card::{ConfirmationCard, ConfirmationState, PendingView};
use crate::base::error::ToolError;
use crate::base::result::{Ran, ToolResult};
use crate::base::vault_path::{is_invisible, visible_code};
use crate::cli::argv::CliInvocation;
use crate::cli::outcome::EmptyOutput;

/// An edit written through Obsidian's vault: the note as it was read for the
/// preview and as it will be. It is written only if the note still holds
/// exactly `before` at that moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoteEditPlan {
    pub path: String,
    pub before: String,
    pub after: String,
}

impl NoteEditPlan {
    /// What the confirmation is bound to: the note and both texts, by hash.
    pub fn argv(&self) -> Vec<String> {
        vec![
            "edit".into(),
            format!("path={}", self.path),
            format!("before-sha256={}", text_hash(&self.before)),
            format!("after-sha256={}", text_hash(&self.after)),
        ]
    }

    /// What the tool block shows: Obsidian's vault edits the note.
    pub fn ran(&self, tool: &str, command: &str) -> Ran {
        Ran::new(tool, Ran::VAULT, vec![command.into(), self.path.clone()])
    }
}

/// A move, rename or deletion waiting for the card: each note's path, where
/// it goes (`None`: the trash), and the hash of its text when the card was
/// made, so the approval acts only on notes as they were shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrganisePlan {
    pub kind: crate::tools::organise::OrganiseKind,
    pub items: Vec<PlannedMove>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlannedMove {
    pub from: String,
    pub to: Option<String>,
    pub text_hash: String,
}

impl OrganisePlan {
    fn verb(&self) -> &'static str {
        match self.kind {
            crate::tools::organise::OrganiseKind::Move => "move",
            crate::tools::organise::OrganiseKind::Rename => "rename",
            crate::tools::organise::OrganiseKind::Delete => "delete",
        }
    }

    /// What the tool block shows: Obsidian's vault moves each note (or
    /// puts it in the trash).
    pub fn ran(&self, tool: &str) -> Ran {
        let mut words = vec![self.verb().to_string()];
        for item in &self.items {
            words.push(item.from.clone());
            if let Some(to) = &item.to {
                words.extend(["→".into(), to.clone()]);
            }
        }
        Ran::new(tool, Ran::VAULT, words)
    }

    /// What the confirmation is bound to: every note, where it goes, and its text by hash.
    pub fn argv(&self) -> Vec<String> {
        let mut argv = vec![self.verb().to_string()];
        for item in &self.items {
            argv.push(format!("path={}", item.from));
            if let Some(to) = &item.to {
                argv.push(format!("to={to}"));
            }
            argv.push(format!("sha256={}", item.text_hash));
        }
        argv
    }
}

/// What the user approved on a card.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Approval<'a> {
    /// The change as the card shows it.
    Whole,
    /// "Approve for this chat", on an outside tool's card.
    ForChat,
    /// Only these changes of a note edit (as `notes::review` numbers them),
    /// answered in the editor.
    Changes(&'a [usize]),
}

/// SHA-256 of a text, in hex.
pub fn text_hash(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Finished confirmations kept to answer replays with the right code.
const KEEP_FINISHED: usize = 64;

/// The hash a confirmation is bound to: SHA-256 over the argv elements, each
/// followed by a NUL (which no element can contain), in hex.
pub fn argv_hash(argv: &[String]) -> String {
    let mut hasher = Sha256::new();
    for element in argv {
        hasher.update(element.as_bytes());
        hasher.update([0u8]);
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A write waiting for (or past) the user's decision.
#[derive(Clone, Debug)]
pub struct PendingConfirmation {
    pub id: String,
    pub tool_id: &'static str,
    pub command: &'static str,
    /// The call's arguments as given, to rebuild the preview if it goes stale.
    pub arguments: serde_json::Value,
    /// The write itself, vault included.
    pub invocation: CliInvocation,
    pub argv: Vec<String>,
    pub argv_hash: String,
    /// The read that shows the target; run again just before the write.
    pub probe: CliInvocation,
    /// What the probe read when the preview was made.
    pub probe_snapshot: String,
    /// Set when the probe is the note's exact text through the vault.
    pub probe_note: Option<String>,
    pub summary: String,
    pub preview: Preview,
    pub empty_output: EmptyOutput,
    /// Set for an edit written through the vault instead of the CLI.
    pub note_edit: Option<NoteEditPlan>,
    /// Set for a move, rename or deletion through Obsidian's file manager.
    pub organise: Option<OrganisePlan>,
    /// The chat answer that asked for it (its change is journaled there).
    pub turn: Option<String>,
    pub created_ms: f64,
    pub expires_ms: f64,
    pub state: ConfirmationState,
    /// The result once it ran (done, failed) or went stale, so a late
    /// `waitForConfirmation` gets the same answer as an early one.
    pub outcome: Option<ToolResult>,
    /// Set when an agent outside Obsidian asked (through MCP): its name for
    /// the card, and the MCP permission mode the approval is checked under.
    pub requester: Option<Requester>,
    /// The chat's model wrote the call as text instead of calling the tool.
    pub written_as_text: bool,
    /// Asked for outside the approved plan (the card says so).
    pub off_plan: bool,
    /// Set for a call of an outside tool (the user's own MCP server) that a
    /// coding agent asked for through our MCP server: what runs on Approve
    /// instead of the CLI (`invocation` and `probe` are empty then).
    pub outside: Option<Box<OutsideWait>>,
    /// A note edit reviewed in the editor: the user's answer to each of its
    /// changes so far (empty until the first answer).
    pub answers: Vec<Option<bool>>,
}

/// What the book keeps of an outside call waiting on its card: the tool as
/// it was offered and the exact arguments (the hash on the card binds them).
#[derive(Clone, Debug)]
pub struct OutsideWait {
    pub offered: crate::base::outside::OfferedTool,
    pub arguments: serde_json::Value,
    /// The coding agent's caller (`engine::callers`), whose mode at the
    /// click is one of the three that decide then.
    pub caller: u64,
    /// The mode the call was decided under when the card was made: the
    /// click may only narrow it (the narrower of it, the caller's mode and
    /// the chat's setting then), never widen it.
    pub mode: crate::settings::PermissionMode,
    /// What the card shows, made when the call came.
    pub card: crate::base::card::OutsideCard,
    pub summary: String,
    pub preview: Preview,
}

/// An outside agent that asked for a change, and the mode its door allows.
#[derive(Clone, Debug, PartialEq)]
pub struct Requester {
    pub name: String,
    pub mode: crate::settings::PermissionMode,
}

impl PendingConfirmation {
    pub fn view(&self) -> PendingView {
        PendingView {
            id: self.id.clone(),
            summary: self.summary.clone(),
            preview: self.preview.clone(),
        }
    }

    /// The card shows every character a person could not see or that would
    /// reorder the text around it as `⟨U+202E⟩`, so "enod" with a
    /// right-to-left override never displays as "done". The argv here is for
    /// display; approval goes by `argv_hash`.
    pub fn card(&self) -> ConfirmationCard {
        ConfirmationCard {
            id: self.id.clone(),
            tool_id: self.tool_id,
            command: self.command,
            summary: visible_text(&self.summary),
            preview: Preview {
                target: visible_text(&self.preview.target),
                before: visible_text(&self.preview.before),
                after: visible_text(&self.preview.after),
                diff: self.preview.diff.as_ref().map(|diff| {
                    let mut diff = diff.clone();
                    for line in diff.hunks.iter_mut().flat_map(|h| h.lines.iter_mut()) {
                        for segment in &mut line.segments {
                            segment.text = visible_text(&segment.text);
                        }
                    }
                    diff
                }),
                warning: self.preview.warning.as_deref().map(visible_text),
            },
            argv: self.argv.iter().map(|a| visible_text(a)).collect(),
            argv_hash: self.argv_hash.clone(),
            expires_ms: self.expires_ms,
            state: self.state,
            requester: self.requester.as_ref().map(|r| visible_text(&r.name)),
            requested: self.requester.as_ref().map(|r| {
                let target = visible_text(&self.preview.target);
                if let Some(wait) = &self.outside {
                    // Nothing of the vault: a call of the user's own server.
                    return format!(
                        "{} wants to call {} on the MCP server {target}",
                        visible_text(&r.name),
                        wait.card.tool
                    );
                }
                // A create's target is what it makes ("new note …", "a new
                // item in base …"): nothing there is changed yet.
                let verb = if target.starts_with("new ") {
                    "make a"
                } else if target.starts_with("a new ") {
                    "add"
                } else {
                    "change"
                };
                format!("{} wants to {verb} {target}", visible_text(&r.name))
            }),
            written_as_text: self.written_as_text,
            off_plan: self.off_plan,
            via: match (&self.note_edit, &self.organise, &self.outside) {
                (Some(_), _, _) => "vault",
                (_, Some(_), _) => "files",
                (_, _, Some(_)) => "mcp",
                _ => "cli",
            },
            outside: self
                .outside
                .as_ref()
                .map(|wait| Box::new(wait.card.clone())),
            edits_note: self.note_edit.as_ref().map(|plan| plan.path.clone()),
        }
    }
}

/// Everything needed to propose a confirmation.
pub struct Proposal {
    pub tool_id: &'static str,
    pub command: &'static str,
    pub arguments: serde_json::Value,
    pub invocation: CliInvocation,
    pub argv: Vec<String>,
    pub probe: CliInvocation,
    pub probe_snapshot: String,
    pub probe_note: Option<String>,
    pub summary: String,
    pub preview: Preview,
    pub empty_output: EmptyOutput,
    pub note_edit: Option<NoteEditPlan>,
    pub organise: Option<OrganisePlan>,
    pub turn: Option<String>,
}

/// All confirmations of this session.
#[derive(Default)]
pub struct ConfirmationBook {
    entries: Vec<PendingConfirmation>,
    proposed_count: u64,
}

impl ConfirmationBook {
    pub fn propose(
        &mut self,
        proposal: Proposal,
        now_ms: f64,
        expiry_ms: u32,
    ) -> &PendingConfirmation {
        self.proposed_count += 1;
        let argv_hash = argv_hash(&proposal.argv);
        let id = format!("c{}-{}", self.proposed_count, &argv_hash[..8]);
        self.entries.push(PendingConfirmation {
            id,
            tool_id: proposal.tool_id,
            command: proposal.command,
            arguments: proposal.arguments,
            invocation: proposal.invocation,
            argv: proposal.argv,
            argv_hash,
            probe: proposal.probe,
            probe_snapshot: proposal.probe_snapshot,
            probe_note: proposal.probe_note,
            summary: proposal.summary,
            preview: proposal.preview,
            empty_output: proposal.empty_output,
            note_edit: proposal.note_edit,
            organise: proposal.organise,
            turn: proposal.turn,
            created_ms: now_ms,
            expires_ms: now_ms + f64::from(expiry_ms),
            state: ConfirmationState::Proposed,
            outcome: None,
            requester: None,
            written_as_text: false,
            off_plan: false,
            outside: None,
            answers: Vec::new(),
        });
        self.forget_old();
        self.entries.last().expect("just pushed")
    }

    /// Files the card of an outside call a coding agent asked for: bound by
    /// its hash to the server, the tool and the exact arguments.
    pub fn propose_outside(
        &mut self,
        wait: OutsideWait,
        argv: Vec<String>,
        now_ms: f64,
        expiry_ms: u32,
    ) -> &PendingConfirmation {
        let nothing = || CliInvocation {
            vault: None,
            command: String::new(),
            parameters: Vec::new(),
            flags: Vec::new(),
        };
        let proposal = Proposal {
            tool_id: "mcp",
            command: "call",
            arguments: wait.arguments.clone(),
            invocation: nothing(),
            argv,
            probe: nothing(),
            probe_snapshot: String::new(),
            probe_note: None,
            summary: wait.summary.clone(),
            preview: wait.preview.clone(),
            empty_output: EmptyOutput::Error,
            note_edit: None,
            organise: None,
            turn: None,
        };
        self.propose(proposal, now_ms, expiry_ms);
        let entry = self.entries.last_mut().expect("just pushed");
        entry.outside = Some(Box::new(wait));
        entry
    }

    /// The confirmation with `id`, with expiry applied first.
    pub fn get(&mut self, id: &str, now_ms: f64) -> Option<&PendingConfirmation> {
        self.expire(now_ms);
        self.entries.iter().find(|e| e.id == id)
    }

    /// The call came as text from the chat's model (its card says so).
    pub fn mark_written_as_text(&mut self, id: &str) {
        if let Some(entry) = self.entries.iter_mut().find(|e| e.id == id) {
            entry.written_as_text = true;
        }
    }

    /// A card still waiting gets the full time to answer from `now_ms`
    /// (held for a plan's card until that card is shown).
    pub fn renew(&mut self, id: &str, now_ms: f64, expiry_ms: u32) {
        self.expire(now_ms);
        if let Some(entry) = self
            .entries
            .iter_mut()
            .find(|e| e.id == id && e.state.is_open())
        {
            entry.expires_ms = now_ms + f64::from(expiry_ms);
        }
    }

    /// The change is not a step of the approved plan (its card says so).
    pub fn mark_off_plan(&mut self, id: &str) {
        if let Some(entry) = self.entries.iter_mut().find(|e| e.id == id) {
            entry.off_plan = true;
        }
    }

    /// Marks `id` as asked for by an outside agent (the MCP door).
    pub fn set_requester(&mut self, id: &str, requester: Requester) {
        if let Some(entry) = self.entries.iter_mut().find(|e| e.id == id) {
            entry.requester = Some(requester);
        }
    }

    /// Proposals still waiting for the user.
    pub fn open(&mut self, now_ms: f64) -> Vec<&PendingConfirmation> {
        self.expire(now_ms);
        self.entries.iter().filter(|e| e.state.is_open()).collect()
    }

    /// The user clicked Approve on the card for `argv_hash`. On success the
    /// confirmation is `approved` and a copy is returned to run.
    pub fn approve(
        &mut self,
        id: &str,
        argv_hash: &str,
        now_ms: f64,
    ) -> Result<PendingConfirmation, ToolError> {
        self.expire(now_ms);
        let entry = self.entry(id)?;
        refuse_unless_open(entry.state)?;
        if entry.argv_hash != argv_hash {
            // A card for some other command line: leave this one waiting.
            return Err(ToolError::ArgvMismatch);
        }
        entry.state = ConfirmationState::Approved;
        Ok(entry.clone())
    }

    /// The user answered change `index` of an open note edit's card in the
    /// editor (`None`: every change), out of `count`; returns the answers so far.
    pub fn answer_change(
        &mut self,
        id: &str,
        index: Option<usize>,
        accept: bool,
        count: usize,
        now_ms: f64,
    ) -> Result<Vec<Option<bool>>, ToolError> {
        self.expire(now_ms);
        let entry = self.entry(id)?;
        refuse_unless_open(entry.state)?;
        entry.answers.resize(count, None);
        match index {
            Some(i) if i < count => entry.answers[i] = Some(accept),
            Some(i) => {
                return Err(ToolError::invalid(
                    entry.tool_id,
                    format!(
                        "change {} is not one of this card's {count} changes; nothing was answered",
                        i.saturating_add(1)
                    ),
                ))
            }
            None => entry.answers.fill(Some(accept)),
        }
        Ok(entry.answers.clone())
    }

    /// The user clicked Reject.
    pub fn reject(&mut self, id: &str, now_ms: f64) -> Result<(), ToolError> {
        self.expire(now_ms);
        let entry = self.entry(id)?;
        refuse_unless_open(entry.state)?;
        entry.state = ConfirmationState::Rejected;
        Ok(())
    }

    /// Moves an approved confirmation along; refuses edges the machine lacks.
    pub fn advance(&mut self, id: &str, next: ConfirmationState) -> Result<(), ToolError> {
        let entry = self.entry(id)?;
        if !entry.state.can_become(next) {
            return Err(ToolError::ConfirmationUsed {
                state: entry.state.words().into(),
            });
        }
        entry.state = next;
        Ok(())
    }

    /// Moves a confirmation to its last state and keeps the result for
    /// anyone who asks later.
    pub fn finish(
        &mut self,
        id: &str,
        next: ConfirmationState,
        result: &ToolResult,
    ) -> Result<(), ToolError> {
        self.advance(id, next)?;
        self.entry(id)?.outcome = Some(result.clone());
        Ok(())
    }

    /// The answer for a confirmation that is over, `None` while it waits or runs.
    pub fn outcome(&mut self, id: &str, now_ms: f64) -> Option<ToolResult> {
        let entry = self.get(id, now_ms)?;
        match entry.state {
            ConfirmationState::Rejected if entry.outside.is_some() => {
                let mut declined = ToolResult::failure(&ToolError::ConfirmationRejected, 0.0);
                let text = format!(
                    "The user declined this call; nothing was sent to the MCP server `{}`. Do not call it again unless the user asks.",
                    entry.preview.target
                );
                if let Some(error) = &mut declined.error {
                    error.message = text.clone();
                }
                declined.text = text;
                Some(declined)
            }
            ConfirmationState::Rejected => {
                Some(ToolResult::failure(&ToolError::ConfirmationRejected, 0.0))
            }
            ConfirmationState::Expired => {
                Some(ToolResult::failure(&ToolError::ConfirmationExpired, 0.0))
            }
            _ => entry.outcome.clone(),
        }
    }

    pub(super) fn entry(&mut self, id: &str) -> Result<&mut PendingConfirmation, ToolError> {
        self.entries
            .iter_mut()
            .find(|e| e.id == id)
            .ok_or_else(|| ToolError::ConfirmationNotFound { id: id.to_string() })
    }

    fn expire(&mut self, now_ms: f64) {
        for entry in &mut self.entries {
            if entry.state == ConfirmationState::Proposed && now_ms >= entry.expires_ms {
                entry.state = ConfirmationState::Expired;
            }
        }
    }

    fn forget_old(&mut self) {
        let finished = self.entries.iter().filter(|e| !e.state.is_open()).count();
        // `>=` would do the same: with exactly KEEP_FINISHED there is
        // nothing to drop (an equivalent mutant, skipped in .cargo/mutants.toml).
        if finished > KEEP_FINISHED {
            let mut to_drop = finished - KEEP_FINISHED;
            self.entries.retain(|e| {
                if to_drop > 0 && !e.state.is_open() {
                    to_drop -= 1;
                    false
                } else {
                    true
                }
            });
        }
    }
}

/// `text` with control characters (but newlines and tabs) and invisible or
/// direction-changing characters written out as `⟨U+XXXX⟩`.
pub fn visible_text(text: &str) -> String {
    let hidden = |c: char| (c.is_control() && c != '\n' && c != '\t') || is_invisible(c);
    if !text.chars().any(hidden) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if hidden(c) {
            out.push('⟨');
            out.push_str(&visible_code(c));
            out.push('⟩');
        } else {
            out.push(c);
        }
    }
    out
}

fn refuse_unless_open(state: ConfirmationState) -> Result<(), ToolError> {
    match state {
        ConfirmationState::Proposed => Ok(()),
        ConfirmationState::Rejected => Err(ToolError::ConfirmationRejected),
        ConfirmationState::Expired => Err(ToolError::ConfirmationExpired),
        other => Err(ToolError::ConfirmationUsed {
            state: other.words().into(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proposal(content: &str) -> Proposal {
        let invocation = CliInvocation::new("property:set")
            .parameter("name", "status")
            .parameter("value", content)
            .parameter("file", "Plan");
        Proposal {
            tool_id: "obsidianProperties",
            command: "property:set",
            arguments: serde_json::Value::Null,
            argv: invocation.to_argv().unwrap(),
            invocation,
            probe: CliInvocation::new("property:read"),
            probe_snapshot: "active".into(),
            probe_note: None,
            summary: "Set property".into(),
            preview: Preview {
                target: "t".into(),
                before: "active".into(),
                after: content.into(),
                diff: None,
                warning: None,
            },
            empty_output: EmptyOutput::Error,
            note_edit: None,
            organise: None,
            turn: None,
        }
    }

    #[test]
    fn hash_binds_every_element_and_its_boundaries() {
        let a = argv_hash(&["ab".into(), "c".into()]);
        let b = argv_hash(&["a".into(), "bc".into()]);
        assert_ne!(a, b);
        assert_eq!(a.len(), 64);
        assert_eq!(a, argv_hash(&["ab".into(), "c".into()]));
    }

    #[test]
    fn approve_once_then_replays_are_refused() {
        let mut book = ConfirmationBook::default();
        let (id, hash) = {
            let p = book.propose(proposal("done"), 0.0, 1000);
            (p.id.clone(), p.argv_hash.clone())
        };
        let approved = book.approve(&id, &hash, 10.0).unwrap();
        assert_eq!(approved.state, ConfirmationState::Approved);
        assert_eq!(
            book.approve(&id, &hash, 11.0).unwrap_err().code(),
            "confirmation_used"
        );
        book.advance(&id, ConfirmationState::Running).unwrap();
        book.advance(&id, ConfirmationState::Done).unwrap();
        assert_eq!(
            book.approve(&id, &hash, 12.0).unwrap_err().code(),
            "confirmation_used"
        );
        assert_eq!(
            book.reject(&id, 12.0).unwrap_err().code(),
            "confirmation_used"
        );
    }

    /// A replayed approval says which state the confirmation is in, in words.
    #[test]
    fn a_replay_names_the_state_it_found() {
        use ConfirmationState::*;
        for (path, words) in [
            (&[Approved][..], "approved"),
            (&[Approved, Running], "running"),
            (&[Approved, Running, Done], "done"),
            (&[Approved, Running, Failed], "failed"),
            (&[Approved, Stale], "stale"),
        ] {
            let mut book = ConfirmationBook::default();
            let (id, hash) = {
                let p = book.propose(proposal("done"), 0.0, 1000);
                (p.id.clone(), p.argv_hash.clone())
            };
            book.approve(&id, &hash, 1.0).unwrap();
            for next in &path[1..] {
                book.advance(&id, *next).unwrap();
            }
            let replay = book.approve(&id, &hash, 2.0).unwrap_err();
            assert_eq!(
                replay.to_string(),
                format!("This confirmation was already answered ({words}); each one can be used once. Ask for the change again to get a new one.")
            );
            assert_eq!(book.advance(&id, Approved).unwrap_err(), replay);
        }
    }

    #[test]
    fn a_different_argv_does_not_approve_and_leaves_it_waiting() {
        let mut book = ConfirmationBook::default();
        let (id, hash) = {
            let p = book.propose(proposal("done"), 0.0, 1000);
            (p.id.clone(), p.argv_hash.clone())
        };
        let other = argv_hash(&proposal("archived").argv);
        assert_eq!(
            book.approve(&id, &other, 1.0).unwrap_err().code(),
            "argv_mismatch"
        );
        assert_eq!(
            book.get(&id, 1.0).unwrap().state,
            ConfirmationState::Proposed
        );
        assert!(book.approve(&id, &hash, 2.0).is_ok());
    }

    #[test]
    fn expiry_and_rejection_have_their_own_codes() {
        let mut book = ConfirmationBook::default();
        let (id, hash) = {
            let p = book.propose(proposal("done"), 0.0, 1000);
            (p.id.clone(), p.argv_hash.clone())
        };
        assert_eq!(book.open(999.0).len(), 1);
        assert_eq!(
            book.approve(&id, &hash, 1000.0).unwrap_err().code(),
            "confirmation_expired"
        );
        assert!(book.open(1000.0).is_empty());

        let (id, hash) = {
            let p = book.propose(proposal("x"), 0.0, 1000);
            (p.id.clone(), p.argv_hash.clone())
        };
        book.reject(&id, 1.0).unwrap();
        assert_eq!(
            book.approve(&id, &hash, 2.0).unwrap_err().code(),
            "confirmation_rejected"
        );
        assert_eq!(
            book.approve("nope", &hash, 2.0).unwrap_err().code(),
            "confirmation_not_found"
        );
    }

    #[test]
    fn the_card_shows_hidden_characters_visibly() {
        let mut book = ConfirmationBook::default();
        let card = book.propose(proposal("\u{202E}enod"), 0.0, 1000).card();
        assert_eq!(card.preview.after, "⟨U+202E⟩enod");
        assert!(
            card.argv.iter().any(|a| a == "value=⟨U+202E⟩enod"),
            "{:?}",
            card.argv
        );
        assert_eq!(
            visible_text("a\tb\nc\u{7}\u{200B}"),
            "a\tb\nc⟨U+0007⟩⟨U+200B⟩"
        );
        assert_eq!(visible_text("plain ☕"), "plain ☕");
    }

    #[test]
    fn finished_confirmations_keep_their_answer() {
        let mut book = ConfirmationBook::default();
        let (id, hash) = {
            let p = book.propose(proposal("done"), 0.0, 1000);
            (p.id.clone(), p.argv_hash.clone())
        };
        assert_eq!(book.outcome(&id, 1.0), None, "still waiting");
        book.approve(&id, &hash, 1.0).unwrap();
        book.advance(&id, ConfirmationState::Running).unwrap();
        assert_eq!(book.outcome(&id, 1.0), None, "still running");
        let done = ToolResult {
            ok: true,
            text: "Set status: done".into(),
            ..ToolResult::failure(&ToolError::EmptyOutput, 0.0)
        };
        book.finish(&id, ConfirmationState::Done, &done).unwrap();
        assert_eq!(book.outcome(&id, 2.0), Some(done));
        let rejected = book.propose(proposal("x"), 0.0, 1000).id.clone();
        book.reject(&rejected, 1.0).unwrap();
        assert_eq!(
            book.outcome(&rejected, 2.0).unwrap().code(),
            Some("confirmation_rejected")
        );
        let expired = book.propose(proposal("y"), 0.0, 1000).id.clone();
        assert_eq!(
            book.outcome(&expired, 1000.0).unwrap().code(),
            Some("confirmation_expired")
        );
    }

    #[test]
    fn a_renewed_card_waits_its_full_time_again_and_an_expired_one_stays_expired() {
        let mut book = ConfirmationBook::default();
        let held = book.propose(proposal("held"), 0.0, 1000).id.clone();
        let late = book.propose(proposal("late"), 0.0, 1000).id.clone();
        book.renew(&held, 900.0, 1000);
        assert_eq!(
            book.outcome(&held, 1500.0),
            None,
            "still waiting after renewal"
        );
        assert!(book.get(&held, 1500.0).unwrap().state.is_open());
        book.renew(&late, 1000.0, 1000);
        assert_eq!(
            book.outcome(&late, 1000.0).unwrap().code(),
            Some("confirmation_expired"),
            "a card whose time is up is not brought back"
        );
    }

    #[test]
    fn only_the_drawn_edges_exist() {
        use ConfirmationState::*;
        let all = [
            Proposed, Approved, Running, Done, Failed, Rejected, Expired, Stale,
        ];
        let mut edges = Vec::new();
        for from in all {
            for to in all {
                if from.can_become(to) {
                    edges.push((from, to));
                }
            }
        }
        assert_eq!(
            edges,
            [
                (Proposed, Approved),
                (Proposed, Rejected),
                (Proposed, Expired),
                (Approved, Running),
                (Approved, Stale),
                (Running, Done),
                (Running, Failed)
            ]
        );
    }

    #[test]
    fn old_finished_entries_are_forgotten_but_open_ones_kept() {
        let mut book = ConfirmationBook::default();
        let first = book.propose(proposal("keep"), 0.0, 1_000_000).id.clone();
        for i in 0..(KEEP_FINISHED + 10) {
            let id = book
                .propose(proposal(&i.to_string()), 0.0, 1_000_000)
                .id
                .clone();
            book.reject(&id, 1.0).unwrap();
        }
        assert!(book.get(&first, 2.0).is_some());
        assert!(book.entries.len() <= KEEP_FINISHED + 2);
    }

    /// The newest `KEEP_FINISHED` answers are kept (a late replay of one of
    /// them still gets its own code), the older ones are dropped, also when
    /// many cards were answered between two proposals.
    #[test]
    fn exactly_the_newest_finished_answers_are_kept() {
        let mut book = ConfirmationBook::default();
        let ids: Vec<String> = (0..KEEP_FINISHED + 20)
            .map(|i| {
                book.propose(proposal(&i.to_string()), 0.0, 1_000_000)
                    .id
                    .clone()
            })
            .collect();
        for id in &ids {
            book.reject(id, 1.0).unwrap();
        }
        book.propose(proposal("next"), 0.0, 1_000_000);
        let kept = |book: &mut ConfirmationBook, id: &str| {
            book.outcome(id, 2.0)
                .and_then(|r| r.code().map(String::from))
        };
        for id in &ids[..20] {
            assert_eq!(kept(&mut book, id), None, "{id} was dropped");
        }
        for id in &ids[20..] {
            assert_eq!(
                kept(&mut book, id).as_deref(),
                Some("confirmation_rejected"),
                "{id} was kept"
            );
        }
    }
}
