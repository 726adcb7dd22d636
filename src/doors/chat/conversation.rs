//! A conversation as the plugin stores it: the messages the model sees, plus
//! what the UI shows for each tool call. Saved as JSON in the plugin's folder.

use serde::{Deserialize, Serialize};

use crate::base::result::ToolResult;
use crate::base::table::Table;

/// A tool call the model asked for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ToolCallRecord {
    pub id: String,
    pub name: String,
    /// The arguments exactly as the model sent them (JSON text, maybe invalid).
    pub arguments: String,
    /// The model wrote the call as text (`agent::text_calls`) instead of
    /// calling the tool: a change it asks for always waits for a card.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(test, ts(as = "Option<bool>", optional))]
    pub as_text: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "role", rename_all = "camelCase")]
pub enum ChatMessage {
    #[serde(rename_all = "camelCase")]
    User {
        text: String,
        /// The notes the user attached in the chat (chips). `None` in
        /// conversations stored before attachments existed and from doors
        /// that have none (the API, the CLI): then the prompt names the note
        /// open in Obsidian, as it always did.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(test, ts(optional))]
        attachments: Option<Vec<Attachment>>,
    },
    #[serde(rename_all = "camelCase")]
    Assistant {
        text: String,
        #[serde(default)]
        tool_calls: Vec<ToolCallRecord>,
        /// What the model thought before it answered: shown folded, never
        /// sent back as answer text.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        reasoning: String,
        /// Anthropic thinking blocks exactly as they came (with their
        /// signatures), sent back unchanged with the turn's `tool_use`.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        thinking: Vec<serde_json::Value>,
        /// On the answer that ends a turn: the tokens the server reported.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(test, ts(optional))]
        usage: Option<AnswerUsage>,
        /// On the answer that ends a turn: the notes it was drawn from
        /// (`sources`), shown under it as links.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[cfg_attr(test, ts(as = "Option<Vec<Source>>", optional))]
        sources: Vec<Source>,
    },
    /// A tool's answer: `content` is what the model reads, `result` what the UI shows.
    #[serde(rename_all = "camelCase")]
    Tool {
        call_id: String,
        tool: String,
        content: String,
        is_error: bool,
        result: Box<ToolResult>,
        #[serde(default)]
        table: Option<Table>,
    },
    /// Said by the plugin, not the model (round limit, stop); never sent to the model.
    #[serde(rename_all = "camelCase")]
    Notice { text: String },
}

/// A note or an image the user attached to a message: its path, and the
/// text selected in it when there was a selection. An image is a vault file
/// of an image type (`images::mime_of`), or one pasted into the chat:
/// `pasted`, and `path` its file name in the plugin's image folder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Attachment {
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub selection: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(test, ts(as = "Option<bool>", optional))]
    pub pasted: bool,
    /// The image's bytes for one model round (`images::load`): never stored,
    /// never crossing to the shim.
    #[serde(skip)]
    #[cfg_attr(test, ts(skip))]
    pub image: Option<crate::base::host::ImageData>,
    /// A PDF's bytes in base64 for one model round, when an Anthropic
    /// profile sends it as a `document` block (`pdf::load`): never stored.
    #[serde(skip)]
    #[cfg_attr(test, ts(skip))]
    pub document: Option<PdfDocument>,
}

impl Attachment {
    /// A note attached by its path.
    pub fn note(path: &str) -> Attachment {
        Attachment {
            path: path.to_string(),
            selection: None,
            pasted: false,
            image: None,
            document: None,
        }
    }
}

impl ChatMessage {
    /// What the user attached to this message (none for any other message).
    pub fn attachments(&self) -> &[Attachment] {
        match self {
            ChatMessage::User {
                attachments: Some(attachments),
                ..
            } => attachments,
            _ => &[],
        }
    }

    /// An answer with nothing but text and tool calls.
    pub fn assistant(text: String, tool_calls: Vec<ToolCallRecord>) -> Self {
        ChatMessage::Assistant {
            text,
            tool_calls,
            reasoning: String::new(),
            thinking: Vec::new(),
            usage: None,
            sources: Vec::new(),
        }
    }
}

/// Tokens in (read by the model) and out (written by it), as the server
/// reported them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Usage {
    #[cfg_attr(test, ts(type = "number"))]
    pub input_tokens: u64,
    #[cfg_attr(test, ts(type = "number"))]
    pub output_tokens: u64,
}

impl Usage {
    pub fn is_none(&self) -> bool {
        *self == Usage::default()
    }

    pub fn add(&mut self, other: Usage) {
        self.input_tokens += other.input_tokens;
        self.output_tokens += other.output_tokens;
    }
}

/// One answer's tokens (all the model rounds of its turn), and how full the
/// context window was in its last round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct AnswerUsage {
    #[cfg_attr(test, ts(type = "number"))]
    pub input_tokens: u64,
    #[cfg_attr(test, ts(type = "number"))]
    pub output_tokens: u64,
    /// Tokens in and out of the last round: what the window held.
    #[cfg_attr(test, ts(type = "number"))]
    pub context_tokens: u64,
    #[cfg_attr(test, ts(type = "number"))]
    pub context_window: u64,
}

/// A turn paused on the user's decision about a change.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct PausedTurn {
    pub confirmation_id: String,
    /// The call waiting for the decision.
    pub call: ToolCallRecord,
    /// Calls of the same model reply that come after it.
    pub remaining: Vec<ToolCallRecord>,
    /// Tool rounds used so far in this turn.
    pub rounds: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Conversation {
    pub id: String,
    pub title: String,
    pub created_ms: f64,
    pub updated_ms: f64,
    pub messages: Vec<ChatMessage>,
    #[serde(default)]
    pub paused: Option<PausedTurn>,
    /// Set for a turn asked from outside the chat view (`vault-agent:ask`):
    /// its tool calls run at most as permissive as `modeCap`, and a card
    /// names who asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub door: Option<OutsideDoor>,
    /// The title was given (history → Rename, or a scheduled run's): it no
    /// longer follows the first message.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub renamed: bool,
    /// How often the chat was rewound (Regenerate, Edit and resend): part of
    /// later turn ids, so a new answer never shares "Undo this answer's
    /// changes" with the dropped one it replaces.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rewinds: u32,
    /// Every token the server reported in this chat (left out while none
    /// was, so a chat stored before usage keeps its format).
    #[serde(default, skip_serializing_if = "Usage::is_none")]
    pub usage: Usage,
    /// The rounds of the turn in progress (kept across a confirmation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub turn_usage: Option<Usage>,
    /// A coding agent's chat (ACP): which agent and session, so picking the
    /// agent again resumes it with `session/load`. Kept as the shim gave it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub agent: Option<AgentChat>,
    /// How the turn in progress was started beyond the user's words (a saved
    /// prompt, a rewrite of a selection: a `TurnSetup`, kept as plain JSON);
    /// set by every message, kept across a card.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub setup: Option<serde_json::Value>,
    /// Outside tools the user approved for this chat ("Approve for this
    /// chat"), by `policy::outside::approval_key`: kept with this chat only.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(test, ts(as = "Option<Vec<String>>", optional))]
    pub approved_outside: Vec<String>,
    /// Plan mode (the header's Plan): the agent reads, then proposes its
    /// changes as a plan the user answers before any of them is made.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(test, ts(as = "Option<bool>", optional))]
    pub plan_mode: bool,
    /// The plan of the turn in progress (`ChatPlan`, carried out by `plan.rs`): proposed,
    /// approved (being carried out) or answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub plan: Option<ChatPlan>,
    /// Earlier turns summarised (`compact`), oldest first: the model reads
    /// the newest one's summary in place of the messages it covers, which
    /// stay here whole for the transcript.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(test, ts(as = "Option<Vec<Compaction>>", optional))]
    pub compactions: Vec<Compaction>,
}

/// Earlier turns of a chat summarised by the user's model (`compact`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Compaction {
    /// The messages before this index are summarised (a turn starts here).
    pub upto: usize,
    /// The turns (the user's messages) before `upto`.
    pub turns: usize,
    /// The model's summary, as it wrote it; the record of the changes in
    /// those turns is not in it (`compact::summary_message` adds it, exact).
    pub summary: String,
    /// Tokens the summary saves against sending those turns whole.
    #[cfg_attr(test, ts(type = "number"))]
    pub saved_tokens: u64,
}

/// A turn started from a saved prompt or the editor's selection. Read by hand
/// from the conversation (derives would cost main.js more than this): a value
/// the core did not write reads as no set-up, and none of it can widen what a
/// turn may do (a mode only narrows, a rewrite is a card like every edit).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TurnSetup {
    /// The saved prompt's name, for the cards it raises.
    pub prompt: String,
    /// The prompt's mode: its tool calls run at most as permissive as this.
    pub mode_cap: Option<crate::settings::PermissionMode>,
    /// The prompt's model profile (its id), used for this turn only.
    pub profile: Option<String>,
    /// The selection the answer replaces: the turn's one model round gets no
    /// tools, and its answer becomes an edit of exactly that range.
    pub rewrite: Option<Rewrite>,
    /// A scheduled run's notice, which opens its chat (not kept).
    pub scheduled: Option<String>,
}

/// The selection a rewrite replaces (`doors::chat::selection`): UTF-8 byte
/// offsets in the note, and the SHA-256 of its whole text when selected.
#[derive(Clone, Debug, PartialEq)]
pub struct Rewrite {
    pub path: String,
    pub selection: String,
    pub start: usize,
    pub end: usize,
    pub note_sha256: String,
}

impl TurnSetup {
    pub fn to_value(&self) -> serde_json::Value {
        let mut value = serde_json::json!({ "prompt": self.prompt });
        if let Some(mode) = self.mode_cap {
            value["modeCap"] = mode.key().into();
        }
        if let Some(profile) = &self.profile {
            value["profile"] = profile.as_str().into();
        }
        if let Some(r) = &self.rewrite {
            value["rewrite"] = serde_json::json!({
                "path": r.path, "selection": r.selection, "start": r.start, "end": r.end, "noteSha256": r.note_sha256,
            });
        }
        value
    }

    /// The set-up `conversation` holds (none when it holds none).
    pub fn of(conversation: &Conversation) -> TurnSetup {
        use serde_json::Value;
        let Some(value) = &conversation.setup else {
            return TurnSetup::default();
        };
        let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_string);
        let offset = |v: &Value, key: &str| v.get(key).and_then(Value::as_u64).map(|n| n as usize);
        TurnSetup {
            prompt: text(value, "prompt").unwrap_or_default(),
            mode_cap: text(value, "modeCap").and_then(|key| {
                crate::settings::PermissionMode::ALL
                    .into_iter()
                    .find(|m| m.key() == key)
            }),
            profile: text(value, "profile"),
            rewrite: value.get("rewrite").and_then(|r| {
                Some(Rewrite {
                    path: text(r, "path")?,
                    selection: text(r, "selection")?,
                    start: offset(r, "start")?,
                    end: offset(r, "end")?,
                    note_sha256: text(r, "noteSha256")?,
                })
            }),
            scheduled: None,
        }
    }
}

/// One answer of a coding agent's turn (`Conversation::keep_agent_turn`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct AgentAnswerText {
    pub text: String,
    #[serde(default)]
    pub reasoning: String,
}

/// The coding agent a chat belongs to (see `Conversation::agent`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct AgentChat {
    /// The agent profile's id.
    pub profile: String,
    pub name: String,
    /// The agent's session, once it made one.
    pub session_id: Option<String>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// Who asked for a headless turn, and the mode it may use at most.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OutsideDoor {
    pub name: String,
    pub mode_cap: crate::settings::PermissionMode,
}

impl Conversation {
    pub fn new(id: String, now_ms: f64) -> Self {
        Conversation {
            id,
            title: "New chat".into(),
            created_ms: now_ms,
            updated_ms: now_ms,
            messages: Vec::new(),
            paused: None,
            door: None,
            renamed: false,
            rewinds: 0,
            usage: Usage::default(),
            turn_usage: None,
            agent: None,
            setup: None,
            approved_outside: Vec::new(),
            plan_mode: false,
            plan: None,
            compactions: Vec::new(),
        }
    }

    /// The answer being given: this conversation and the number of the
    /// user's message it answers ("chat-…#3"), so its changes can be undone
    /// together.
    pub fn turn_id(&self) -> String {
        self.turn_id_after(0)
    }

    /// The answer to the message the user sends next: a coding agent's turn
    /// runs before the chat keeps its message (`keep_agent_turn`).
    pub fn next_turn_id(&self) -> String {
        self.turn_id_after(1)
    }

    fn turn_id_after(&self, more: usize) -> String {
        let asked = more
            + self
                .messages
                .iter()
                .filter(|m| matches!(m, ChatMessage::User { .. }))
                .count();
        match self.rewinds {
            0 => format!("{}#{asked}", self.id),
            n => format!("{}#{asked}r{n}", self.id),
        }
    }

    /// A coding agent's turn, kept as the chat keeps its own: the user's
    /// message with the images it was sent (by reference, so a reopened chat
    /// shows them and deleting it removes the pasted ones), each answer the
    /// agent gave (with the reasoning shown so far), the agent and its
    /// session, the title from the first message.
    pub fn keep_agent_turn(
        &mut self,
        text: &str,
        images: Vec<Attachment>,
        answers: Vec<AgentAnswerText>,
        agent: AgentChat,
        now_ms: f64,
    ) {
        self.messages.push(ChatMessage::User {
            text: text.to_string(),
            attachments: (!images.is_empty()).then_some(images),
        });
        for answer in answers {
            let mut message = ChatMessage::assistant(answer.text, Vec::new());
            if let ChatMessage::Assistant { reasoning, .. } = &mut message {
                *reasoning = answer.reasoning;
            }
            self.messages.push(message);
        }
        self.agent = Some(agent);
        self.updated_ms = now_ms;
        self.retitle();
    }

    /// The title is the start of the first thing the user said, unless the
    /// user renamed the chat.
    pub fn retitle(&mut self) {
        if self.renamed {
            return;
        }
        if let Some(ChatMessage::User { text, .. }) = self
            .messages
            .iter()
            .find(|m| matches!(m, ChatMessage::User { .. }))
        {
            let line = text.lines().next().unwrap_or("").trim();
            let mut title: String = line.chars().take(60).collect();
            if title.len() < line.len() {
                title.push('…');
            }
            if !title.is_empty() {
                self.title = title;
            }
        }
    }
}

/// The longest title a rename keeps, in characters.
pub const MAX_TITLE_CHARS: usize = 120;

/// Where a conversation is rewound to before a turn runs again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rewind {
    /// Regenerate: everything after the last user message goes; that message
    /// is answered again.
    LastAnswer,
    /// Edit and resend: the user message with this number (0 = the first)
    /// and everything after it go; the edited text is sent in its place.
    FromUserMessage(usize),
}

impl Conversation {
    /// The user's title (trimmed, one line, at most `MAX_TITLE_CHARS`); an
    /// empty one gives the title back to the first message.
    pub fn rename(&mut self, title: &str) {
        let line = title.split_whitespace().collect::<Vec<_>>().join(" ");
        let title: String = line.chars().take(MAX_TITLE_CHARS).collect();
        if title.is_empty() {
            self.renamed = false;
            self.title = "New chat".into();
            self.retitle();
        } else {
            self.renamed = true;
            self.title = title;
        }
    }

    /// Rewinds for a regenerate or an edit. Returns the user message that
    /// was dropped (an edit resends its attachments with the new text), or
    /// `Err` with what to tell the user when there is nothing to rewind to.
    /// A change waiting for approval in the dropped part is dropped too.
    pub fn rewind(&mut self, to: Rewind) -> Result<Option<ChatMessage>, &'static str> {
        let users: Vec<usize> = self
            .messages
            .iter()
            .enumerate()
            .filter(|(_, m)| matches!(m, ChatMessage::User { .. }))
            .map(|(i, _)| i)
            .collect();
        match to {
            Rewind::LastAnswer => {
                let Some(&last) = users.last() else {
                    return Err("There is no message to answer again.");
                };
                self.messages.truncate(last + 1);
                self.paused = None;
                self.rewinds += 1;
                self.forget_lost_compactions();
                Ok(None)
            }
            Rewind::FromUserMessage(n) => {
                let Some(&at) = users.get(n) else {
                    return Err("That message is not in this chat any more.");
                };
                let dropped = self.messages.drain(at..).next();
                self.paused = None;
                self.rewinds += 1;
                self.forget_lost_compactions();
                Ok(dropped)
            }
        }
    }
}

impl Conversation {
    /// A compaction summarises messages that are all still there: one that
    /// reaches past a rewind summarises what was dropped, and goes.
    fn forget_lost_compactions(&mut self) {
        let len = self.messages.len();
        self.compactions.retain(|c| c.upto <= len);
    }
}

impl ChatMessage {
    /// A tool answer that records a change or the user's decision on a card:
    /// a change made (it has a journal entry), a card rejected or expired, or
    /// one still waiting. Never pruned, and carried exactly into a summary.
    pub fn is_change_outcome(&self) -> bool {
        let ChatMessage::Tool { result, .. } = self else {
            return false;
        };
        result.journal.is_some()
            || result.pending.is_some()
            || result.error.as_ref().is_some_and(|e| {
                e.rejected || e.code == "confirmation_rejected" || e.code == "confirmation_expired"
            })
    }
}

/// One source under an answer (`sources` finds them; here because the
/// stored answer holds them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Source {
    /// The note's path (or, for a note read by name, the name as asked).
    pub path: String,
    /// The heading cited or found (its last level), empty for the whole note.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    #[cfg_attr(test, ts(as = "Option<String>", optional))]
    pub heading: String,
    /// The link text Obsidian opens: `path#heading` without `.md`.
    pub link: String,
}

/// A PDF's bytes for one Anthropic round, and its pages (what it counts);
/// `pdf` fills it in (here because the attachment holds it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdfDocument {
    pub base64: String,
    pub pages: usize,
}

/// What one page of a document block counts in the budget: Anthropic reads
/// each page as its text and as an image, 1 500 to 3 000 tokens a page.
pub const TOKENS_PER_DOCUMENT_PAGE: usize = 3_000;
/// The most PDFs one message carries.
pub const MAX_PDFS_PER_MESSAGE: usize = 3;

/// Whether a path names a PDF, by its extension.
pub fn is_pdf(path: &str) -> bool {
    path.rsplit_once('.')
        .is_some_and(|(_, ext)| ext.eq_ignore_ascii_case("pdf"))
}

/// Whether an attachment is a vault PDF (a pasted file never is).
pub fn is_pdf_attachment(attachment: &Attachment) -> bool {
    !attachment.pasted && is_pdf(&attachment.path)
}

/// The PDFs of a user message, at most `MAX_PDFS_PER_MESSAGE`.
pub fn of_message(message: &ChatMessage) -> impl Iterator<Item = &Attachment> {
    message
        .attachments()
        .iter()
        .filter(|a| is_pdf_attachment(a))
        .take(MAX_PDFS_PER_MESSAGE)
}

/// The PDFs' tokens a message counts in the budget when they go as documents.
pub fn document_tokens(message: &ChatMessage) -> usize {
    of_message(message)
        .filter_map(|a| a.document.as_ref())
        .map(|d| d.pages * TOKENS_PER_DOCUMENT_PAGE)
        .sum()
}

/// A plan in a conversation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ChatPlan {
    pub id: String,
    /// The model's one line about the plan as a whole.
    #[serde(default)]
    pub summary: String,
    /// Numbered from 1 on the card; as approved once it is.
    pub steps: Vec<crate::policy::plan::PlanStep>,
    pub state: PlanState,
    /// Approved to be carried out with every change on one card
    /// (`plan_changes`) instead of each behind its own as the mode says.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(test, ts(as = "Option<bool>", optional))]
    pub together: bool,
    /// The changes held for that card so far.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(test, ts(as = "Option<Vec<HeldChange>>", optional))]
    pub held: Vec<HeldChange>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum PlanState {
    /// On the card, waiting for the user.
    Proposed,
    /// Approved: being carried out in this turn.
    Approved,
    Rejected,
    /// The turn that carried it out ended.
    Done,
}

/// A change held for the plan's card: the model's call and its confirmation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct HeldChange {
    pub call_id: String,
    pub confirmation_id: String,
    /// Where the call's "held" result sits in the conversation: servers
    /// reuse call ids from round to round (`call_0`), so the id alone may
    /// name another call's result. The core's own bookkeeping.
    #[serde(default)]
    #[cfg_attr(test, ts(skip))]
    pub at: usize,
}
