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
            "The MCP server `{}` is switched off (Settings → Vault Agent → MCP: your servers in the chat).",
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
/// fingerprint of all that it is, and the tool. The answer is kept with the
/// chat, also in the history; a server edited to run another program, with
/// other environment variables (`NODE_OPTIONS=--require …`), in another
/// folder, with other headers or another token, or removed and added again
/// under the same name (its `added_id`), is not the one the user approved,
/// so it asks again. Secrets count by their name: their values stay in
/// secret storage. How far it is trusted, its timeout, whether it is on and
/// which tools are off are not what it is, so they keep the answer.
pub fn approval_key(server: &OutsideServer, tool: &str) -> String {
    let OutsideServer {
        id,
        added_id,
        kind,
        command,
        args,
        env,
        cwd,
        url,
        headers,
        bearer_secret,
        enabled: _,
        trust: _,
        tools_off: _,
        timeout_ms: _,
    } = server;
    let mut hasher = Sha256::new();
    // Every part ends in a NUL and every list starts with its length, so no
    // part can pass for another (an argument for the command, a header for
    // an environment variable).
    let mut part = |text: &str| {
        hasher.update(text.as_bytes());
        hasher.update([0u8]);
    };
    for single in [added_id, kind, command, cwd, url, bearer_secret] {
        part(single);
    }
    part(&args.len().to_string());
    args.iter().for_each(|arg| part(arg));
    for values in [env, headers] {
        part(&values.len().to_string());
        for value in values {
            part(&value.name);
            part(&value.secret);
        }
    }
    let fingerprint: String = hasher.finalize()[..6]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("{id}\u{1f}{fingerprint}\u{1f}{tool}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::outside::SecretValue;

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
        let given = OutsideServer {
            added_id: "a1".into(),
            args: vec!["--stdio".into()],
            env: vec![SecretValue {
                name: "KEY".into(),
                secret: "mcp-s-key".into(),
            }],
            cwd: "/tools".into(),
            headers: vec![SecretValue {
                name: "X-Team".into(),
                secret: "mcp-s-team".into(),
            }],
            bearer_secret: "mcp-s-bearer".into(),
            ..server(Trust::AskEveryCall)
        };
        let key = approval_key(&given, "t");
        assert_eq!(
            approval_key(&given.clone(), "t"),
            key,
            "the same server and tool"
        );
        assert_ne!(approval_key(&given, "u"), key, "another tool");

        // What it is: each change on its own asks again.
        let other_env = |name: &str, secret: &str| {
            vec![SecretValue {
                name: name.into(),
                secret: secret.into(),
            }]
        };
        let changed: [(&str, OutsideServer); 14] = [
            (
                "name",
                OutsideServer {
                    id: "s2".into(),
                    ..given.clone()
                },
            ),
            (
                "added again",
                OutsideServer {
                    added_id: "a2".into(),
                    ..given.clone()
                },
            ),
            (
                "kind",
                OutsideServer {
                    kind: "http".into(),
                    ..given.clone()
                },
            ),
            (
                "command",
                OutsideServer {
                    command: "y".into(),
                    ..given.clone()
                },
            ),
            (
                "arguments",
                OutsideServer {
                    args: vec!["--other".into()],
                    ..given.clone()
                },
            ),
            (
                "an environment variable's name",
                OutsideServer {
                    env: other_env("NODE_OPTIONS", "mcp-s-key"),
                    ..given.clone()
                },
            ),
            (
                "an environment variable's secret",
                OutsideServer {
                    env: other_env("KEY", "mcp-s-other"),
                    ..given.clone()
                },
            ),
            (
                "an environment variable more",
                OutsideServer {
                    env: [
                        given.env.clone(),
                        other_env("NODE_OPTIONS", "mcp-s-require"),
                    ]
                    .concat(),
                    ..given.clone()
                },
            ),
            (
                "working folder",
                OutsideServer {
                    cwd: "/elsewhere".into(),
                    ..given.clone()
                },
            ),
            (
                "address",
                OutsideServer {
                    url: "http://127.0.0.1:9/mcp".into(),
                    ..given.clone()
                },
            ),
            (
                "a header's name",
                OutsideServer {
                    headers: other_env("X-Other", "mcp-s-team"),
                    ..given.clone()
                },
            ),
            (
                "a header's secret",
                OutsideServer {
                    headers: other_env("X-Team", "mcp-s-other"),
                    ..given.clone()
                },
            ),
            (
                "no header",
                OutsideServer {
                    headers: Vec::new(),
                    ..given.clone()
                },
            ),
            (
                "token",
                OutsideServer {
                    bearer_secret: "mcp-s-other".into(),
                    ..given.clone()
                },
            ),
        ];
        for (what, other) in changed {
            assert_ne!(approval_key(&other, "t"), key, "{what}: {other:?}");
        }

        // How far it is trusted and what is switched is not what it is.
        let switched = [
            OutsideServer {
                trust: Trust::NeverAsk,
                ..given.clone()
            },
            OutsideServer {
                tools_off: Vec::new(),
                ..given.clone()
            },
            OutsideServer {
                enabled: false,
                ..given.clone()
            },
            OutsideServer {
                timeout_ms: 5_000,
                ..given.clone()
            },
        ];
        for same in switched {
            assert_eq!(approval_key(&same, "t"), key, "{same:?}");
        }

        // A part cannot pass for another: they are kept apart.
        let split = OutsideServer {
            command: "x y".into(),
            args: Vec::new(),
            ..given.clone()
        };
        let joined = OutsideServer {
            command: "x".into(),
            args: vec!["y".into()],
            ..given.clone()
        };
        assert_ne!(approval_key(&split, "t"), approval_key(&joined, "t"));
        let as_env = OutsideServer {
            env: given.headers.clone(),
            headers: Vec::new(),
            ..given.clone()
        };
        let as_header = OutsideServer {
            env: Vec::new(),
            headers: given.headers.clone(),
            ..given
        };
        assert_ne!(approval_key(&as_env, "t"), approval_key(&as_header, "t"));
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
