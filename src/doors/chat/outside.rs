//! The user's own MCP servers in the chat ("outside tools"): their tools
//! offered beside ours, each call decided by `policy::outside` (run, a card,
//! or a refusal), the chat's cards and "Approve for this chat", and the
//! header's summary. Naming, schemas, reaching a server, calling it and
//! wrapping its answer as data are `engine::outside`'s, shared with the MCP
//! door, which offers the same tools to a coding agent.

use serde::Serialize;
use serde_json::Value;

use crate::base::card::{ConfirmationCard, ConfirmationState, PendingView};
use crate::base::error::ToolError;
use crate::base::host::Host;
use crate::base::outside::{OutsideListing, OutsideOutcome, OutsideTool};
use crate::base::result::{ErrorInfo, ToolResult};
use crate::base::text::cap;
use crate::doors::chat::conversation::{ChatMessage, Conversation, PausedTurn, ToolCallRecord};
use crate::doors::chat::model::ModelTool;
use crate::doors::chat::{ChatDoor, ChatEvent, ChatEvents, Decision, TurnEnd};
use crate::engine::confirm::{argv_hash, visible_text};
pub use crate::engine::outside::{
    compact_schema, connect_spec, for_model, model_name, offer, outcome_result, shown_arguments,
    Offer, OfferedTool, MAX_IMAGE_BYTES, MAX_NAME_CHARS, MAX_OFFERED, MAX_OFFERED_COMPACT,
};
use crate::engine::outside::{
    outside_card as outside_call_card, outside_preview, outside_summary, unreachable_notice,
};
use crate::policy::outside::{approval_key, decide, OutsideVerdict};
use crate::settings::outside::OutsideServer;
use crate::settings::{PermissionMode, Settings};

/// Card ids of outside calls start with this.
pub const CARD_PREFIX: &str = "mcp-call-";

/// A call waiting on its card.
#[derive(Clone, Debug)]
pub struct PendingOutside {
    pub id: String,
    pub hash: String,
    pub offered: OfferedTool,
    pub arguments: Value,
    pub expires_ms: f64,
    /// The mode the call was decided under: the click may only narrow it.
    pub mode: PermissionMode,
}

/// Which outside servers the chat has, for its header and a new chat's page.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct OutsideSummary {
    /// The header's short text: the names while they fit a narrow sidebar,
    /// else a count; empty when no server is on.
    pub label: String,
    /// One line a server on: its name and state (the tooltip, the page).
    pub servers: Vec<String>,
    /// A server on could not be reached at its last listing.
    pub unreachable: bool,
    /// Problems about no message (a server down, the instructions note
    /// missing), each with its fix: the header's status panel says them;
    /// the transcript does not repeat them.
    pub problems: Vec<String>,
}

/// Names shown in the header, at most this many characters together.
const LABEL_CHARS: usize = 18;

/// The summary of the servers switched on, with what their last listing said.
pub fn summary(servers: &[OutsideServer], status: &[(String, OutsideListing)]) -> OutsideSummary {
    let on: Vec<&OutsideServer> = servers.iter().filter(|s| s.enabled).collect();
    let mut out = OutsideSummary::default();
    for server in &on {
        let listing = status
            .iter()
            .find(|(id, _)| *id == server.id)
            .map(|(_, l)| l);
        out.servers.push(match listing {
            None => format!("{} (starts at first use)", server.id),
            Some(l) if l.ok => format!("{} (connected, {} tools)", server.id, l.tools.len()),
            Some(_) => {
                out.unreachable = true;
                format!("{} (not reached)", server.id)
            }
        });
    }
    let names: Vec<&str> = on.iter().map(|s| s.id.as_str()).collect();
    let joined = names.join(", ");
    out.label = match names.len() {
        0 => String::new(),
        1 => {
            cap(names[0], LABEL_CHARS - 1).0.to_string()
                + if names[0].chars().count() >= LABEL_CHARS {
                    "…"
                } else {
                    ""
                }
        }
        _ if joined.chars().count() <= LABEL_CHARS => joined,
        n => format!("{n} servers"),
    };
    out
}

impl<H: Host> ChatDoor<H> {
    /// Lists every enabled server (a stdio one starts on first use) and
    /// makes this round's offer. Notices go to the user once a turn.
    pub(super) async fn outside_offer(
        &self,
        conversation: &Conversation,
        settings: &Settings,
        compact: bool,
        events: &dyn ChatEvents,
    ) -> Vec<ModelTool> {
        // A turn asked from outside the chat (`vault-agent:ask`) gets ours only.
        if conversation.door.is_some() {
            self.session.outside.borrow_mut().clear();
            return Vec::new();
        }
        let enabled = settings.mcp_servers.iter().filter(|s| s.enabled).collect();
        let listings = self.engine.outside_listings(enabled).await;
        let offer = offer(&listings, compact);
        // Kept before it is said: the view asks whether a notice is status.
        self.session.outside_problems.replace(offer.notices.clone());
        if matches!(conversation.messages.last(), Some(ChatMessage::User { .. })) {
            for text in &offer.notices {
                events.emit(ChatEvent::Notice { text: text.clone() });
            }
        }
        *self.session.outside_status.borrow_mut() = listings
            .iter()
            .map(|(server, listing)| (server.id.clone(), listing.clone()))
            .collect();
        *self.session.outside.borrow_mut() = offer.tools;
        offer.model_tools
    }

    /// The outside tool the model called by `name` in this round, if any.
    pub(super) fn offered_outside(&self, name: &str) -> Option<OfferedTool> {
        self.session
            .outside
            .borrow()
            .iter()
            .find(|t| t.name == name)
            .cloned()
    }

    /// The servers whose tools the chat offers now, for the view's header.
    pub fn outside_connected(&self) -> Vec<(String, OutsideListing)> {
        self.session.outside_status.borrow().clone()
    }

    /// The servers switched on and their state, for the header and a new chat's page.
    pub fn outside_summary(&self) -> OutsideSummary {
        let settings = self.engine.settings_snapshot();
        let mut out = summary(&settings.mcp_servers, &self.session.outside_status.borrow());
        // With every server switched off since, their problems are gone too.
        if settings.mcp_servers.iter().any(|s| s.enabled) {
            out.problems = self.session.outside_problems.borrow().clone();
        }
        out.problems
            .extend(self.session.instructions_problem.borrow().clone());
        out
    }

    /// Runs one outside call, or files its card (returned).
    pub(super) async fn run_outside(
        &self,
        conversation: &mut Conversation,
        call: &ToolCallRecord,
        offered: &OfferedTool,
        events: &dyn ChatEvents,
    ) -> Option<ConfirmationCard> {
        self.announce_tool(call, events);
        let settings = self.engine.settings_snapshot();
        let arguments = match super::parse_arguments(&call.arguments) {
            Ok(arguments) => arguments,
            Err(problem) => {
                let result = ToolResult::failure(&ToolError::invalid(&call.name, problem), 0.0);
                self.record_outside(conversation, call, offered, result, events);
                return None;
            }
        };
        let Some(server) = settings.mcp_servers.iter().find(|s| s.id == offered.server) else {
            let result = ToolResult::failure(
                &ToolError::invalid(&call.name, "its MCP server is no longer set"),
                0.0,
            );
            self.record_outside(conversation, call, offered, result, events);
            return None;
        };
        let approved = conversation
            .approved_outside
            .contains(&approval_key(server, &offered.tool.name));
        // A saved prompt's mode narrows the chat's for outside tools too.
        let mode = super::turn::outside_door(conversation)
            .map_or(settings.permission_mode, |door| {
                settings.permission_mode.at_most(door.mode_cap)
            });
        match decide(
            mode,
            server,
            &offered.tool.name,
            offered.tool.read_only(),
            approved,
        ) {
            OutsideVerdict::Refuse(why) => {
                let mut result = outcome_result(
                    &OutsideOutcome::Unreachable {
                        message: String::new(),
                    },
                    "",
                    0,
                );
                result.text = why.clone();
                result.error = Some(ErrorInfo {
                    code: "outside_refused".into(),
                    message: why,
                    user_fix: false,
                    rejected: false,
                });
                self.record_outside(conversation, call, offered, result, events);
                None
            }
            OutsideVerdict::Run => {
                let result = self
                    .engine
                    .outside_call(server, offered, arguments, Some(&conversation.id))
                    .await;
                self.record_outside(conversation, call, offered, result, events);
                None
            }
            OutsideVerdict::Ask => {
                let n = self.session.outside_cards_made.get() + 1;
                self.session.outside_cards_made.set(n);
                let full = serde_json::to_string(&arguments).unwrap_or_default();
                let pending = PendingOutside {
                    id: format!("{CARD_PREFIX}{n}"),
                    hash: argv_hash(&[offered.server.clone(), offered.tool.name.clone(), full]),
                    offered: offered.clone(),
                    arguments,
                    expires_ms: self.engine.host().now_ms()
                        + settings.confirmation_expiry_ms as f64,
                    mode,
                };
                let card = outside_card(&pending);
                let mut waiting = ToolResult::success(format!(
                    "Waiting for the user to approve the call of {} on {}. Nothing has been sent to the server yet.",
                    offered.tool.name, offered.server
                ));
                waiting.ok = false;
                waiting.pending = Some(PendingView {
                    id: card.id.clone(),
                    summary: card.summary.clone(),
                    preview: card.preview.clone(),
                });
                self.report_tool(call, &waiting, events);
                let mut cards = self.session.outside_cards.borrow_mut();
                cards.retain(|c| c.expires_ms > self.engine.host().now_ms());
                cards.push(pending);
                Some(card)
            }
        }
    }

    fn record_outside(
        &self,
        conversation: &mut Conversation,
        call: &ToolCallRecord,
        offered: &OfferedTool,
        result: ToolResult,
        events: &dyn ChatEvents,
    ) {
        self.report_tool(call, &result, events);
        let cap_chars = self.engine.settings_snapshot().chat.tool_result_cap_chars as usize;
        conversation.messages.push(ChatMessage::Tool {
            call_id: call.id.clone(),
            tool: call.name.clone(),
            content: for_model(offered, &result, cap_chars),
            is_error: !result.ok,
            result: Box::new(result),
            table: None,
        });
    }

    /// The user answered an outside call's card.
    pub(super) async fn resolve_outside(
        &self,
        conversation: &mut Conversation,
        paused: PausedTurn,
        decision: Decision<'_>,
        events: &dyn ChatEvents,
    ) -> TurnEnd {
        let pending = {
            let mut cards = self.session.outside_cards.borrow_mut();
            cards
                .iter()
                .position(|c| c.id == paused.confirmation_id)
                .map(|at| cards.remove(at))
        };
        let settings = self.engine.settings_snapshot();
        let result = match (pending, decision) {
            (None, _) => ToolResult::failure(
                &ToolError::ConfirmationNotFound {
                    id: paused.confirmation_id.clone(),
                },
                0.0,
            ),
            (Some(p), _) if p.expires_ms <= self.engine.host().now_ms() => ToolResult::failure(
                &ToolError::ConfirmationUsed {
                    state: "expired".into(),
                },
                0.0,
            ),
            (Some(p), Decision::Approve { argv_hash } | Decision::ApproveForChat { argv_hash })
                if argv_hash != p.hash =>
            {
                let _ = p;
                ToolResult::failure(
                    &ToolError::invalid(
                        &paused.call.name,
                        "the card's arguments do not match the call; nothing was sent",
                    ),
                    0.0,
                )
            }
            (Some(p), Decision::Approve { .. } | Decision::ApproveForChat { .. }) => {
                match settings
                    .mcp_servers
                    .iter()
                    .find(|s| s.id == p.offered.server)
                {
                    // The mode or the server may have changed while the card
                    // waited: the narrower of the card's mode and the chat's now.
                    Some(server) => match decide(
                        p.mode.at_most(settings.permission_mode),
                        server,
                        &p.offered.tool.name,
                        p.offered.tool.read_only(),
                        true,
                    ) {
                        OutsideVerdict::Refuse(why) => {
                            ToolResult::failure(&ToolError::invalid(&paused.call.name, why), 0.0)
                        }
                        _ => {
                            // Kept only for a call that may go: a refused
                            // click approves nothing for later either.
                            if matches!(decision, Decision::ApproveForChat { .. }) {
                                let key = approval_key(server, &p.offered.tool.name);
                                if !conversation.approved_outside.contains(&key) {
                                    conversation.approved_outside.push(key);
                                }
                            }
                            self.engine
                                .outside_call(
                                    server,
                                    &p.offered,
                                    p.arguments.clone(),
                                    Some(&conversation.id),
                                )
                                .await
                        }
                    },
                    None => ToolResult::failure(
                        &ToolError::invalid(&paused.call.name, "its MCP server is no longer set"),
                        0.0,
                    ),
                }
            }
            (Some(_), _) => {
                let mut rejected = ToolResult::success("The user rejected this call; nothing was sent to the server. Do not call it again unless the user asks.");
                rejected.ok = false;
                rejected.error = Some(ErrorInfo {
                    code: "rejected".into(),
                    message: rejected.text.clone(),
                    user_fix: false,
                    rejected: true,
                });
                rejected
            }
        };
        let offered = self
            .offered_outside(&paused.call.name)
            .unwrap_or_else(|| OfferedTool {
                name: paused.call.name.clone(),
                server: String::new(),
                server_name: String::new(),
                tool: OutsideTool {
                    name: paused.call.name.clone(),
                    ..OutsideTool::default()
                },
            });
        self.record_outside(conversation, &paused.call, &offered, result, events);
        let end = self
            .run_turn(conversation, paused.remaining, paused.rounds, events)
            .await;
        self.finish_turn(conversation, end, events)
    }

    /// "Test" in the settings: connect, list, and say what came back.
    pub async fn test_outside(&self, id: &str) -> OutsideListing {
        let settings = self.engine.settings_snapshot();
        let Some(server) = settings.mcp_servers.iter().find(|s| s.id == id) else {
            return OutsideListing {
                error: Some(format!("No MCP server is named `{id}`.")),
                ..OutsideListing::default()
            };
        };
        let mut listing = match self.engine.outside_reach(server).await {
            Ok(spec) => self.engine.outside_list(&spec).await,
            Err(error) => OutsideListing {
                error: Some(error),
                ..OutsideListing::default()
            },
        };
        if !listing.ok {
            listing.error = Some(unreachable_notice(server, &listing));
        }
        for tool in &mut listing.tools {
            tool.hints = tool
                .annotation_words()
                .into_iter()
                .map(String::from)
                .collect();
        }
        listing
    }
}

/// The card of a pending outside call.
fn outside_card(pending: &PendingOutside) -> ConfirmationCard {
    let offered = &pending.offered;
    ConfirmationCard {
        id: pending.id.clone(),
        tool_id: "mcp",
        command: "call",
        summary: visible_text(&outside_summary(offered)),
        preview: outside_preview(offered),
        argv: Vec::new(),
        argv_hash: pending.hash.clone(),
        expires_ms: pending.expires_ms,
        state: ConfirmationState::Proposed,
        requester: None,
        requested: None,
        written_as_text: false,
        off_plan: false,
        via: "mcp",
        outside: Some(Box::new(outside_call_card(offered, &pending.arguments))),
        edits_note: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::outside::OutsideTool;

    #[test]
    fn the_summary_names_servers_while_they_fit_and_counts_them_after() {
        let server = |id: &str, enabled| OutsideServer {
            id: id.into(),
            enabled,
            command: "x".into(),
            ..Default::default()
        };
        let up = OutsideListing {
            ok: true,
            tools: vec![OutsideTool::default(); 2],
            ..Default::default()
        };
        let down = OutsideListing::default();
        let status = vec![("web".to_string(), up), ("db".to_string(), down)];
        let two = summary(
            &[
                server("web", true),
                server("db", true),
                server("off", false),
            ],
            &status,
        );
        assert_eq!(two.label, "web, db");
        assert_eq!(
            two.servers,
            ["web (connected, 2 tools)", "db (not reached)"]
        );
        assert!(two.unreachable);
        let many: Vec<OutsideServer> = ["search", "calendar", "github"]
            .iter()
            .map(|id| server(id, true))
            .collect();
        let three = summary(&many, &[]);
        assert_eq!(three.label, "3 servers");
        assert_eq!(three.servers[0], "search (starts at first use)");
        assert!(!three.unreachable);
        let long = summary(&[server("a-very-long-server-name", true)], &[]);
        assert_eq!(long.label.chars().count(), LABEL_CHARS);
        assert!(long.label.ends_with('…'));
        assert_eq!(summary(&[server("off", false)], &[]).label, "");
    }
}
