//! Whether a call of an outside tool (the user's own MCP server) may run,
//! and whether it waits for the user's click first. Folder scopes and the
//! undo journal cannot reach what an outside tool does, so the only
//! safeguards are these: the permission mode, the server's trust level,
//! the tool's switch and the user's answer on the card.

use sha2::{Digest, Sha256};

use crate::settings::outside::{OutsideServer, Trust};
use crate::settings::PermissionMode;

/// The verdict on one call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OutsideVerdict {
    /// Runs at once.
    Run,
    /// Waits for a card: Approve once, Approve for this chat, Reject.
    Ask,
    /// Refused, with what to tell the model and the user.
    Refuse(String),
}

/// `read_only`: the server marks the tool `readOnlyHint`. `approved_in_chat`:
/// the user answered "Approve for this chat" for this tool in this chat.
pub fn decide(
    mode: PermissionMode,
    server: &OutsideServer,
    tool: &str,
    read_only: bool,
    approved_in_chat: bool,
) -> OutsideVerdict {
    if !server.enabled {
        return OutsideVerdict::Refuse(format!(
            "The MCP server `{}` is switched off (Settings → Vault Agent → MCP servers).",
            server.id
        ));
    }
    if !server.tool_enabled(tool) {
        return OutsideVerdict::Refuse(format!(
            "The tool `{tool}` of `{}` is switched off in the settings; do not call it.",
            server.id
        ));
    }
    if mode == PermissionMode::ReadOnly && !read_only {
        return OutsideVerdict::Refuse(format!(
            "Refused: the permission mode is Read only, and `{tool}` of `{}` is not marked read-only by its server, so it may change things. Tell the user; they can pick another mode in the chat's header.",
            server.id
        ));
    }
    match server.trust {
        Trust::NeverAsk => OutsideVerdict::Run,
        Trust::AskUnlessReadOnly if read_only => OutsideVerdict::Run,
        _ if approved_in_chat => OutsideVerdict::Run,
        _ => OutsideVerdict::Ask,
    }
}

/// Whether a coding agent (ACP) may be handed `server` in `session/new`, to
/// start and call itself: then none of its calls passes this module, so only
/// a server whose every call would run at once anyway may go, and none
/// whose tools the user switched off one by one (the agent would see them
/// all) or while the mode is Read only (which refuses the calls not marked
/// read-only). The others stay behind our cards: not handed over, but
/// offered through our own MCP server, where each call passes `decide`; the
/// reason says so, for the user.
pub fn for_agent(mode: PermissionMode, server: &OutsideServer) -> Result<(), String> {
    let id = &server.id;
    if !server.enabled {
        return Err(format!("`{id}` is switched off."));
    }
    if server.trust != Trust::NeverAsk {
        return Err(format!(
            "`{id}` asks before calls (its trust level), so the agent gets its tools through Vault Agent's MCP server, where each call shows our card; set it to \"never ask\" to hand it to the agent directly."
        ));
    }
    if !server.tools_off.is_empty() {
        return Err(format!(
            "`{id}` has tools switched off, which the agent calling it itself would not honour, so the agent gets only its switched-on tools, through Vault Agent's MCP server."
        ));
    }
    if mode == PermissionMode::ReadOnly {
        return Err(format!(
            "`{id}` is not given to the agent in Read only: the agent would call its changing tools without the refusal. Its tools go through Vault Agent's MCP server, which refuses the ones not marked read-only."
        ));
    }
    Ok(())
}

/// The key "Approve for this chat" remembers: the server's name, a
/// fingerprint of what it is (its kind, command and arguments, or its
/// address) and the tool. The answer is kept with the chat, also in the
/// history; a server removed and added again under the same name, or edited
/// to run another program, is not the one the user approved, so it asks again.
pub fn approval_key(server: &OutsideServer, tool: &str) -> String {
    let mut hasher = Sha256::new();
    let what = [&server.kind, &server.command, &server.url];
    for part in what.into_iter().chain(&server.args) {
        hasher.update(part.as_bytes());
        hasher.update([0u8]);
    }
    let fingerprint: String = hasher.finalize()[..6]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("{}\u{1f}{fingerprint}\u{1f}{tool}", server.id)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server(trust: Trust) -> OutsideServer {
        OutsideServer {
            id: "s".into(),
            command: "x".into(),
            trust,
            tools_off: vec!["off".into()],
            ..OutsideServer::default()
        }
    }

    #[test]
    fn an_approval_is_for_the_server_as_it_was_when_given() {
        let given = server(Trust::AskEveryCall);
        let key = approval_key(&given, "t");
        assert_eq!(
            approval_key(&given.clone(), "t"),
            key,
            "the same server and tool"
        );
        assert_ne!(approval_key(&given, "u"), key, "another tool");
        let trusted = OutsideServer {
            trust: Trust::NeverAsk,
            tools_off: Vec::new(),
            ..given.clone()
        };
        assert_eq!(
            approval_key(&trusted, "t"),
            key,
            "its trust and switches are not what it is"
        );
        for other in [
            OutsideServer {
                command: "y".into(),
                ..given.clone()
            },
            OutsideServer {
                args: vec!["--other".into()],
                ..given.clone()
            },
            OutsideServer {
                id: "s2".into(),
                ..given.clone()
            },
        ] {
            assert_ne!(approval_key(&other, "t"), key, "{other:?}");
        }
        // An argument cannot pass for the command: the parts are kept apart.
        let split = OutsideServer {
            command: "x y".into(),
            ..given.clone()
        };
        let joined = OutsideServer {
            command: "x".into(),
            args: vec!["y".into()],
            ..given
        };
        assert_ne!(approval_key(&split, "t"), approval_key(&joined, "t"));
    }

    #[test]
    fn each_trust_level_with_a_read_only_and_a_changing_tool() {
        use OutsideVerdict::*;
        let mode = PermissionMode::AskBeforeEdits;
        let cases = [
            (Trust::AskEveryCall, true, Ask),
            (Trust::AskEveryCall, false, Ask),
            (Trust::AskUnlessReadOnly, true, Run),
            (Trust::AskUnlessReadOnly, false, Ask),
            (Trust::NeverAsk, true, Run),
            (Trust::NeverAsk, false, Run),
        ];
        for (trust, read_only, expected) in cases {
            assert_eq!(
                decide(mode, &server(trust), "t", read_only, false),
                expected,
                "{trust:?} read_only={read_only}"
            );
        }
        assert_eq!(
            decide(mode, &server(Trust::AskEveryCall), "t", false, true),
            Run
        );
    }

    #[test]
    fn read_only_refuses_every_tool_not_marked_read_only_whatever_the_trust() {
        for trust in [
            Trust::AskEveryCall,
            Trust::AskUnlessReadOnly,
            Trust::NeverAsk,
        ] {
            let verdict = decide(PermissionMode::ReadOnly, &server(trust), "t", false, true);
            assert!(
                matches!(verdict, OutsideVerdict::Refuse(ref why) if why.contains("Read only"))
            );
            assert_ne!(
                decide(PermissionMode::ReadOnly, &server(trust), "t", true, false),
                OutsideVerdict::Refuse(String::new())
            );
        }
        assert_eq!(
            decide(
                PermissionMode::ReadOnly,
                &server(Trust::AskEveryCall),
                "t",
                true,
                false
            ),
            OutsideVerdict::Ask
        );
    }

    #[test]
    fn a_switched_off_tool_or_server_is_refused() {
        let verdict = decide(
            PermissionMode::AskEveryChange,
            &server(Trust::NeverAsk),
            "off",
            true,
            false,
        );
        assert!(matches!(verdict, OutsideVerdict::Refuse(ref why) if why.contains("switched off")));
        let mut off = server(Trust::NeverAsk);
        off.enabled = false;
        assert!(matches!(
            decide(PermissionMode::AskEveryChange, &off, "t", true, false),
            OutsideVerdict::Refuse(_)
        ));
    }

    #[test]
    fn only_a_server_that_never_asks_goes_to_a_coding_agent() {
        let mode = PermissionMode::AskBeforeEdits;
        let mut free = server(Trust::NeverAsk);
        free.tools_off.clear();
        assert_eq!(for_agent(mode, &free), Ok(()));
        assert!(for_agent(PermissionMode::ReadOnly, &free).is_err());
        for trust in [Trust::AskEveryCall, Trust::AskUnlessReadOnly] {
            let mut asks = free.clone();
            asks.trust = trust;
            assert!(for_agent(mode, &asks).unwrap_err().contains("trust level"));
        }
        // A tool switched off keeps the whole server back.
        assert!(for_agent(mode, &server(Trust::NeverAsk)).is_err());
        free.enabled = false;
        assert!(for_agent(mode, &free).is_err());
    }
}
