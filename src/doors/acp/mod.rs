//! Coding agents over ACP (Claude Code, Codex, Gemini CLI) run in the chat:
//! the door each agent session gets (its MCP token, its turn, the "always"
//! answers to its own questions) and its file requests (`files.rs`). The
//! rules these follow are the policy's (`policy::agent_questions`,
//! `policy::agent_session`, `policy::agent_files`); the door keeps the
//! session's state and asks them.

mod files;
mod outside;
pub mod sign_in;
pub mod skills;

pub use outside::AgentServers;

use std::cell::RefCell;
use std::rc::Rc;

use crate::base::host::{Host, ProcessTree};
use crate::engine::Engine;
use crate::policy::agent_questions::{self, AgentAnswer, AgentQuestion, AlwaysAnswers};
use crate::policy::agent_session::{self, AgentRefusal, AgentRequest};
use crate::settings::PermissionMode;

/// What the door keeps of one agent session while its token is open.
#[derive(Clone, Debug, PartialEq)]
struct AgentSession {
    token: String,
    /// The "always" answers to the agent's own questions in this session.
    always: AlwaysAnswers,
    /// A turn of the session runs: its file requests and questions are
    /// served (`policy::agent_session::check`).
    in_turn: bool,
    /// The user's own servers handed to the agent in `session/new`, as
    /// handed: the agent calls them itself, so only ending it takes them back.
    handed: Vec<outside::Handed>,
}

/// The coding agents' door: one session per open token.
pub struct AcpDoor<H: Host> {
    pub(crate) engine: Rc<Engine<H>>,
    sessions: RefCell<Vec<AgentSession>>,
}

impl<H: Host> AcpDoor<H> {
    pub fn new(engine: Rc<Engine<H>>) -> Self {
        AcpDoor {
            engine,
            sessions: RefCell::default(),
        }
    }

    /// The vault's skills as the first prompt of a session hands them to
    /// the agent (`skills::handoff`): those the read scope holds, read afresh.
    pub async fn skills_handoff(&self) -> String {
        let settings = self.engine.settings_snapshot();
        let listed = crate::engine::skills::list(self.engine.host(), &settings).await;
        skills::handoff(&listed.skills)
    }

    /// Lets an ACP agent the chat runs reach the MCP server with `token`
    /// for one session: its calls run under `mode` and its cards say
    /// `name`. False when the token is too short to be a secret. Opened
    /// again at each Send with the chat's mode: what was said "always" in
    /// the session stays.
    pub fn open_door(&self, token: &str, name: &str, mode: PermissionMode) -> bool {
        let name: String = name.chars().filter(|c| !c.is_control()).take(80).collect();
        if !self.engine.open_caller(token, &name, mode) {
            return false;
        }
        let mut sessions = self.sessions.borrow_mut();
        if !sessions.iter().any(|s| s.token == token) {
            sessions.push(AgentSession {
                token: token.to_string(),
                always: AlwaysAnswers::default(),
                in_turn: false,
                handed: Vec::new(),
            });
        }
        true
    }

    /// The agent session ended: its token stops working at once, and what
    /// the session kept goes with it.
    pub fn close_door(&self, token: &str) {
        self.engine.close_caller(token);
        self.sessions.borrow_mut().retain(|s| s.token != token);
    }

    /// How the host ends a coding agent with everything it started (as it
    /// ends a CLI call): the agent leads its own process group on POSIX.
    pub fn process_tree(&self) -> ProcessTree {
        ProcessTree::for_os(self.engine.host().platform().os())
    }

    /// A turn of the agent behind door `token` starts (`Some`: the chat
    /// answer its changes are journalled under) or ends (`None`).
    pub fn turn(&self, token: &str, answer: Option<String>) {
        let open = answer.is_some();
        self.engine.set_caller_turn(token, answer);
        if let Some(session) = self
            .sessions
            .borrow_mut()
            .iter_mut()
            .find(|s| s.token == token)
        {
            session.in_turn = open;
        }
    }

    /// A turn id for an agent chat that named none (unique across loads:
    /// the journal outlives them).
    pub fn fresh_turn(&self) -> String {
        format!("agent-{}", self.engine.host().now_ms() as u64)
    }

    /// One of our tools called for the agent behind door `token` (its
    /// `fs/write_text_file`): under `mode`, its card naming `requester`, and
    /// a change journalled under the agent's answer (`Engine::caller_turn`).
    pub async fn call_tool(
        &self,
        token: &str,
        tool: &str,
        args: &serde_json::Value,
        requester: &str,
        mode: Option<PermissionMode>,
    ) -> crate::base::result::ToolResult {
        let turn = self
            .engine
            .caller(token)
            .and_then(|caller| self.engine.caller_turn(caller.id));
        self.engine
            .call_tool_through(tool, args, requester, mode, turn.as_deref())
            .await
    }

    /// Whether the agent behind door `token` may have `request` served now
    /// (`policy::agent_session::check`): `None`, or why not. `subject` is
    /// the path or question it names.
    pub fn request(
        &self,
        token: &str,
        request: AgentRequest,
        subject: &str,
    ) -> Option<AgentRefusal> {
        let caller = self.engine.caller(token);
        let in_turn = self
            .sessions
            .borrow()
            .iter()
            .any(|s| s.token == token && s.in_turn);
        agent_session::check(
            request,
            caller.is_some(),
            caller.is_some() && in_turn,
            caller.as_ref().map_or("The agent", |c| c.name.as_str()),
            subject,
        )
    }

    /// The agent behind door `token` asks before one of its own actions:
    /// answered at once (`policy::agent_questions`) or asked of the user.
    /// A door that is closed has no answers: the user is asked.
    pub fn question(&self, token: &str, question: &AgentQuestion) -> AgentAnswer {
        let Some(caller) = self.engine.caller(token) else {
            return AgentAnswer::Ask;
        };
        let sessions = self.sessions.borrow();
        match sessions.iter().find(|s| s.token == token) {
            Some(session) => agent_questions::answer(caller.mode, question, &session.always),
            None => AgentAnswer::Ask,
        }
    }

    /// The user answered the agent's question with `option_id`: an "always"
    /// answer is kept for the rest of the session.
    pub fn question_answered(&self, token: &str, question: &AgentQuestion, option_id: &str) {
        if let Some(session) = self
            .sessions
            .borrow_mut()
            .iter_mut()
            .find(|s| s.token == token)
        {
            session.always.remember(question, option_id);
        }
    }
}
