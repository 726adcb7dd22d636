//! The ready-to-paste set-ups for each MCP client, in that client's own
//! format: made here once, for the settings tab (with the user's port and
//! token) and for the README (with `<token>` and the default port; a test
//! checks that the README shows exactly these texts, parses each as its
//! format and connects with it to the built plugin's server).

use serde::Serialize;
use serde_json::json;

/// The name each client gives the server.
pub const SERVER_NAME: &str = "vault-agent";
/// The environment variable Codex reads the token from.
pub const CODEX_TOKEN_VARIABLE: &str = "VAULT_AGENT_MCP_TOKEN";
/// The VS Code input that asks for the token (kept in VS Code's secret store).
pub const VSCODE_TOKEN_INPUT: &str = "vault-agent-token";
/// Written where the token goes when there is none yet.
pub const TOKEN_PLACEHOLDER: &str = "<token>";
/// Seconds Codex waits for a tool call: more than a card lives by default
/// (5 minutes), so an unanswered card ends the call, not Codex's timer.
pub const CODEX_TOOL_TIMEOUT_SEC: u32 = 600;

/// How a set-up is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum SetupFormat {
    /// A command line for a POSIX shell.
    Shell,
    Json,
    Toml,
}

/// One client's set-up.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "McpClientSetup"))]
#[serde(rename_all = "camelCase")]
pub struct ClientSetup {
    /// The client and where the text goes, as the settings tab names it.
    pub name: String,
    pub format: SetupFormat,
    pub text: String,
    /// What else the user must do or know; empty when nothing.
    pub note: String,
}

/// Every client's set-up for the server on `port`, with `token` in it where
/// the client keeps one (`<token>` when `None`).
pub fn client_setups(port: u32, token: Option<&str>) -> Vec<ClientSetup> {
    let url = format!("http://127.0.0.1:{port}/mcp");
    let token = token.unwrap_or(TOKEN_PLACEHOLDER);
    let bearer = format!("Bearer {token}");
    let http = json!({ "type": "http", "url": url, "headers": { "Authorization": bearer } });
    let pretty = |value: serde_json::Value| {
        serde_json::to_string_pretty(&value).expect("JSON values always serialise")
    };
    vec![
        ClientSetup {
            name: "Claude Code".into(),
            format: SetupFormat::Shell,
            text: format!(
                "claude mcp add --transport http {SERVER_NAME} {url} --header \"Authorization: {bearer}\""
            ),
            note: String::new(),
        },
        ClientSetup {
            name: "Cursor (~/.cursor/mcp.json)".into(),
            format: SetupFormat::Json,
            text: pretty(json!({ "mcpServers": { SERVER_NAME: http } })),
            note: String::new(),
        },
        ClientSetup {
            name: "VS Code (.vscode/mcp.json, or MCP: Open User Configuration)".into(),
            format: SetupFormat::Json,
            text: pretty(json!({
                "inputs": [{
                    "type": "promptString",
                    "id": VSCODE_TOKEN_INPUT,
                    "description": "Vault Agent's MCP token (Obsidian: Settings → Vault Agent → MCP: this vault's server for other apps → Token)",
                    "password": true,
                }],
                "servers": { SERVER_NAME: {
                    "type": "http",
                    "url": url,
                    "headers": { "Authorization": format!("Bearer ${{input:{VSCODE_TOKEN_INPUT}}}") },
                } },
            })),
            note: "VS Code asks for the token the first time it starts the server and keeps it in its own secret storage, so the file holds no secret and can be committed.".into(),
        },
        ClientSetup {
            name: "Codex (~/.codex/config.toml)".into(),
            format: SetupFormat::Toml,
            text: format!(
                "[mcp_servers.{SERVER_NAME}]\nurl = {}\nbearer_token_env_var = {}\ntool_timeout_sec = {CODEX_TOOL_TIMEOUT_SEC}\n",
                toml_string(&url),
                toml_string(CODEX_TOKEN_VARIABLE),
            ),
            note: format!(
                "Codex takes no token in the file: it reads it from the environment variable {CODEX_TOKEN_VARIABLE} of the shell that starts it, e.g. export {CODEX_TOKEN_VARIABLE}={token} (PowerShell: $env:{CODEX_TOKEN_VARIABLE} = \"{token}\")."
            ),
        },
        ClientSetup {
            name: "Claude Desktop (claude_desktop_config.json, through mcp-remote)".into(),
            format: SetupFormat::Json,
            text: pretty(json!({ "mcpServers": { SERVER_NAME: {
                "command": "npx",
                // No space inside an argument: Claude Desktop on Windows
                // splits arguments at spaces; mcp-remote fills in ${AUTH_HEADER}.
                "args": ["-y", "mcp-remote", url, "--header", "Authorization:${AUTH_HEADER}"],
                "env": { "AUTH_HEADER": bearer },
            } } })),
            note: "Claude Desktop speaks only stdio; the mcp-remote bridge (from npm) needs Node.js, whose npx starts it.".into(),
        },
    ]
}

/// A TOML basic string.
fn toml_string(text: &str) -> String {
    let mut quoted = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            c if c.is_control() => quoted.push_str(&format!("\\u{:04X}", c as u32)),
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_json_set_ups_are_json_and_carry_the_token_where_the_client_keeps_one() {
        let setups = client_setups(27125, Some("abc123"));
        for setup in setups.iter().filter(|s| s.format == SetupFormat::Json) {
            let value: serde_json::Value = serde_json::from_str(&setup.text).unwrap();
            assert!(value.is_object(), "{}", setup.name);
        }
        let vscode = setups
            .iter()
            .find(|s| s.name.starts_with("VS Code"))
            .unwrap();
        assert!(
            !vscode.text.contains("abc123"),
            "no secret in a workspace file"
        );
        let desktop = setups
            .iter()
            .find(|s| s.name.starts_with("Claude Desktop"))
            .unwrap();
        let value: serde_json::Value = serde_json::from_str(&desktop.text).unwrap();
        let args = value["mcpServers"][SERVER_NAME]["args"].as_array().unwrap();
        assert!(
            args.iter().all(|a| !a.as_str().unwrap().contains(' ')),
            "{args:?}"
        );
        assert_eq!(
            value["mcpServers"][SERVER_NAME]["env"]["AUTH_HEADER"],
            "Bearer abc123"
        );
    }

    #[test]
    fn toml_strings_are_escaped() {
        assert_eq!(toml_string(r#"a"b\c"#), r#""a\"b\\c""#);
        assert_eq!(toml_string("x\ny"), "\"x\\u000Ay\"");
    }
}
