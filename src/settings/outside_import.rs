//! Pasted client configurations become outside servers: Claude Desktop's
//! and Cursor's `{ "mcpServers": { name: { command, args, env } | { url,
//! headers } } }` and VS Code's `{ "servers": { name: { type, … } } }`.
//! Every value a configuration holds in the clear (an environment variable,
//! a header, a bearer token) goes to Obsidian's secret storage, and the
//! server names the secret; nothing secret is kept in `data.json`.

use serde::Serialize;
use serde_json::{json, Map, Value};

use super::outside::{added_id, server_id, unique_id, OutsideServer, SecretValue};

/// What a paste became.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct OutsideImport {
    pub servers: Vec<OutsideServer>,
    /// Secret name → value, for the shim to put in secret storage.
    pub secrets: Vec<(String, String)>,
    /// What was skipped or needs the user, one line each.
    pub notes: Vec<String>,
}

/// The paste's servers, named apart from `taken` (the servers already set),
/// each with its own id made from `fresh` (`outside::added_id`).
pub fn import(text: &str, taken: &[&str], fresh: &str) -> Result<OutsideImport, String> {
    added_id(fresh, 0)?;
    let value: Value = serde_json::from_str(text.trim()).map_err(|e| {
        format!(
            "This is not JSON ({e}). Paste the whole file, starting with {{ and ending with }}."
        )
    })?;
    let Value::Object(top) = &value else {
        return Err("This JSON is not an object. Paste the whole configuration file, e.g. { \"mcpServers\": { … } }.".into());
    };
    // VS Code nests its list under `mcp` in its user settings.
    let list = top
        .get("mcpServers")
        .or_else(|| top.get("servers"))
        .or_else(|| top.get("mcp").and_then(|m| m.get("servers")));
    let Some(list) = list else {
        return Err("No servers found: the JSON needs an `mcpServers` object (Claude Desktop, Cursor) or a `servers` object (VS Code).".into());
    };
    let Value::Object(list) = list else {
        return Err("`mcpServers` / `servers` must be an object of servers by name.".into());
    };
    if list.is_empty() {
        return Err("The configuration lists no servers.".into());
    }
    let mut out = OutsideImport::default();
    let mut names: Vec<String> = taken.iter().map(|s| s.to_string()).collect();
    for (name, entry) in list {
        let Value::Object(fields) = entry else {
            out.notes
                .push(format!("`{name}` is not an object; skipped."));
            continue;
        };
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let id = unique_id(&server_id(name), &refs);
        match server(&id, fields, &mut out) {
            Ok(server) => {
                names.push(id);
                out.servers.push(server);
            }
            Err(why) => out.notes.push(format!("`{name}`: {why}; skipped.")),
        }
    }
    if out.servers.is_empty() {
        return Err(format!("No server could be added: {}", out.notes.join(" ")));
    }
    for (n, server) in out.servers.iter_mut().enumerate() {
        server.added_id = added_id(fresh, n)?;
    }
    Ok(out)
}

fn server(
    id: &str,
    fields: &Map<String, Value>,
    out: &mut OutsideImport,
) -> Result<OutsideServer, String> {
    let text = |key: &str| fields.get(key).and_then(Value::as_str).map(str::trim);
    let kind = text("type").unwrap_or(if fields.contains_key("url") {
        "http"
    } else {
        "stdio"
    });
    let mut server = OutsideServer {
        id: id.into(),
        ..OutsideServer::default()
    };
    match kind {
        "stdio" => {
            server.command = text("command").unwrap_or("").into();
            if server.command.is_empty() {
                return Err("it has neither a command nor a url".into());
            }
            server.args = match fields.get("args") {
                None => Vec::new(),
                Some(Value::Array(args)) => args
                    .iter()
                    .map(|a| a.as_str().map(String::from).unwrap_or_else(|| a.to_string()))
                    .collect(),
                Some(_) => return Err("`args` is not a list".into()),
            };
            server.cwd = text("cwd").unwrap_or("").into();
            server.env = secret_values(id, fields.get("env"), out);
            if fields.contains_key("envFile") {
                out.notes.push(format!("`{id}`: its envFile is not read; set those variables in the server's settings."));
            }
        }
        "http" | "streamable-http" | "streamableHttp" => {
            server.kind = "http".into();
            server.url = text("url").unwrap_or("").into();
            if !(server.url.starts_with("http://") || server.url.starts_with("https://")) {
                return Err("its url must start with http:// or https://".into());
            }
            let mut headers = secret_values(id, fields.get("headers"), out);
            // A bearer token gets its own place, so the settings say so.
            if let Some(at) = headers
                .iter()
                .position(|h| h.name.eq_ignore_ascii_case("authorization"))
            {
                let header = headers.remove(at);
                let secret = out
                    .secrets
                    .iter_mut()
                    .find(|(name, _)| *name == header.secret);
                match secret {
                    Some((_, value)) if value.to_ascii_lowercase().starts_with("bearer ") => {
                        *value = value[7..].trim().to_string();
                        server.bearer_secret = header.secret;
                    }
                    _ => headers.push(header),
                }
            }
            server.headers = headers;
        }
        "sse" => {
            return Err("it uses the old SSE transport, which Vault Agent does not speak; use the server's Streamable HTTP address instead".into())
        }
        other => return Err(format!("its type {other:?} is not stdio or http")),
    }
    Ok(server)
}

/// Each `{ NAME: value }` becomes a secret named after the server and NAME.
fn secret_values(id: &str, value: Option<&Value>, out: &mut OutsideImport) -> Vec<SecretValue> {
    let Some(Value::Object(values)) = value else {
        return Vec::new();
    };
    let mut kept = Vec::new();
    for (name, value) in values {
        let value = value
            .as_str()
            .map(String::from)
            .unwrap_or_else(|| value.to_string());
        let secret = secret_name(id, name);
        if value.contains("${") {
            // VS Code's `${input:…}` and `${env:…}` are its own to fill in.
            out.notes.push(format!(
                "`{id}`: {name} is {value} in the paste; put its real value in the secret `{secret}` (Settings → Vault Agent → MCP: your servers in the chat)."
            ));
        }
        out.secrets.push((secret.clone(), value));
        kept.push(SecretValue {
            name: name.clone(),
            secret,
        });
    }
    kept
}

/// What the settings tab's "Add a server" form holds.
#[derive(Clone, Debug, Default)]
pub struct AddForm<'a> {
    pub name: &'a str,
    /// A command line (stdio) or an `http(s)://` address.
    pub target: &'a str,
    /// One `NAME=value` a line: environment variables of a stdio server,
    /// headers of an HTTP one (`Name: value` too).
    pub values: &'a str,
    /// An HTTP server's bearer token.
    pub bearer: &'a str,
    /// A stdio server's working folder.
    pub cwd: &'a str,
}

/// The form as a server, named apart from `taken`. A value that names a
/// secret in secret storage (`has_secret`) is read from it; any other value
/// goes to secret storage like a paste's, so `data.json` keeps no value.
/// Its id is made from `fresh` (`outside::added_id`).
pub fn add(
    form: &AddForm,
    taken: &[&str],
    has_secret: &dyn Fn(&str) -> bool,
    fresh: &str,
) -> Result<OutsideImport, String> {
    let stamp = added_id(fresh, 0)?;
    let target = form.target.trim();
    if target.is_empty() {
        return Err(
            "Give a command that starts the server, or its http:// or https:// address.".into(),
        );
    }
    let http = target.starts_with("http://") || target.starts_with("https://");
    let mut values = Map::new();
    for (n, line) in form.values.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let split = match http {
            true => line
                .split_once(':')
                .filter(|(k, _)| !k.contains('='))
                .or_else(|| line.split_once('=')),
            false => line.split_once('='),
        };
        match split.map(|(k, v)| (k.trim(), v.trim())) {
            Some((key, value)) if !key.is_empty() && !key.contains(char::is_whitespace) => {
                values.insert(key.into(), Value::String(value.into()));
            }
            _ => {
                return Err(format!(
                    "Line {} (`{line}`) is not {}: write one a line, the value either itself or the name of a secret in secret storage.",
                    n + 1,
                    if http { "`Name: value`" } else { "`NAME=value`" }
                ))
            }
        }
    }
    let cwd = form.cwd.trim();
    let full = cwd.starts_with('/') || matches!(cwd.get(1..3), Some(":\\" | ":/"));
    if !cwd.is_empty() && !full {
        return Err(format!("The working folder `{cwd}` is not a full path: give it from the root (for example /home/me/tools), or leave it empty for the vault's folder."));
    }
    let mut fields = Map::new();
    if http {
        fields.insert("url".into(), json!(target));
        fields.insert("headers".into(), Value::Object(values));
    } else {
        let mut words = target.split_whitespace().map(String::from);
        fields.insert("command".into(), json!(words.next()));
        fields.insert("args".into(), json!(words.collect::<Vec<_>>()));
        fields.insert("env".into(), Value::Object(values));
        fields.insert("cwd".into(), json!(cwd));
    }
    let fallback = if http {
        target.split('/').nth(2).unwrap_or("server")
    } else {
        target
            .split_whitespace()
            .next()
            .and_then(|c| c.rsplit(['/', '\\']).next())
            .unwrap_or("server")
    };
    let name = if form.name.trim().is_empty() {
        fallback
    } else {
        form.name
    };
    let id = unique_id(&server_id(name), taken);
    let mut out = OutsideImport::default();
    let mut server = server(&id, &fields, &mut out)
        .map_err(|why| format!("This server cannot be added: {why}."))?;
    let bearer = form.bearer.trim();
    if !bearer.is_empty() {
        if !http {
            return Err("A bearer token is for an HTTP server; a stdio server takes its token as an environment variable.".into());
        }
        let secret = secret_name(&id, "bearer");
        let token = bearer.strip_prefix("Bearer ").unwrap_or(bearer).trim();
        out.secrets.push((secret.clone(), token.into()));
        server.bearer_secret = secret;
    }
    // A value that is the name of a secret already set is that secret.
    let named: Vec<String> = out
        .secrets
        .iter()
        .filter(|(_, value)| has_secret(value))
        .map(|(secret, _)| secret.clone())
        .collect();
    for value in server.env.iter_mut().chain(server.headers.iter_mut()) {
        if let Some((_, existing)) = out
            .secrets
            .iter()
            .find(|(s, _)| *s == value.secret && named.contains(s))
        {
            value.secret = existing.clone();
        }
    }
    if let Some((_, existing)) = out
        .secrets
        .iter()
        .find(|(s, _)| *s == server.bearer_secret && named.contains(s))
    {
        server.bearer_secret = existing.clone();
    }
    out.secrets.retain(|(secret, _)| !named.contains(secret));
    out.notes.clear();
    server.added_id = stamp;
    out.servers.push(server);
    Ok(out)
}

/// Secret storage's ids: lower-case letters, digits and dashes.
pub fn secret_name(id: &str, name: &str) -> String {
    let raw = format!("mcp-{id}-{name}").to_ascii_lowercase();
    let mut out = String::with_capacity(raw.len());
    for c in raw.chars() {
        let c = if c.is_ascii_alphanumeric() { c } else { '-' };
        if !(c == '-' && out.ends_with('-')) {
            out.push(c);
        }
    }
    out.trim_end_matches('-').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random bits as the shim gives them.
    const FRESH: &str = "0123456789abcdef0123456789abcdef";

    #[test]
    fn each_added_server_gets_its_own_id_and_no_addition_goes_without() {
        let paste = r#"{ "mcpServers": { "a": { "command": "x" }, "b": { "command": "x" } } }"#;
        let first = import(paste, &[], FRESH).unwrap();
        let again = import(paste, &[], "fedcba9876543210fedcba9876543210").unwrap();
        let ids: Vec<&str> = first
            .servers
            .iter()
            .chain(&again.servers)
            .map(|s| s.added_id.as_str())
            .collect();
        assert!(ids.iter().all(|id| id.len() == 16), "{ids:?}");
        let mut distinct = ids.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(
            distinct.len(),
            4,
            "one paste's two, and the same paste again: {ids:?}"
        );
        let form = AddForm {
            target: "npx x",
            ..AddForm::default()
        };
        let added = add(&form, &[], &|_| false, FRESH).unwrap();
        assert_eq!(added.servers[0].added_id.len(), 16);
        for fresh in ["", "short"] {
            assert!(import(paste, &[], fresh)
                .unwrap_err()
                .contains("No fresh id"));
            assert!(add(&form, &[], &|_| false, fresh)
                .unwrap_err()
                .contains("No fresh id"));
        }
    }

    #[test]
    fn claude_desktop_json_becomes_servers_with_secrets() {
        let paste = r#"{ "mcpServers": {
            "filesystem": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"] },
            "brave search": { "command": "npx", "args": ["-y", "brave"], "env": { "BRAVE_API_KEY": "abc123" } },
            "remote": { "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer tok", "X-Team": "t1" } },
            "old": { "type": "sse", "url": "https://example.com/sse" }
        } }"#;
        let import = import(paste, &["filesystem"], FRESH).unwrap();
        let ids: Vec<&str> = import.servers.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["filesystem-2", "brave-search", "remote"]);
        assert_eq!(
            import.servers[1].env[0].secret,
            "mcp-brave-search-brave-api-key"
        );
        assert!(import
            .secrets
            .contains(&("mcp-brave-search-brave-api-key".into(), "abc123".into())));
        let remote = &import.servers[2];
        assert_eq!(remote.kind, "http");
        assert_eq!(remote.bearer_secret, "mcp-remote-authorization");
        assert!(import
            .secrets
            .contains(&("mcp-remote-authorization".into(), "tok".into())));
        assert_eq!(remote.headers[0].name, "X-Team");
        assert!(import.notes[0].contains("SSE"), "{:?}", import.notes);
    }

    #[test]
    fn vs_code_json_is_read_and_its_inputs_are_said() {
        let paste = r#"{ "inputs": [], "servers": {
            "github": { "type": "http", "url": "https://api.example.com/mcp/" },
            "db": { "type": "stdio", "command": "uvx", "args": ["db-mcp"], "env": { "TOKEN": "${input:token}" } }
        } }"#;
        let import = import(paste, &[], FRESH).unwrap();
        assert_eq!(import.servers.len(), 2);
        assert!(import.notes[0].contains("mcp-db-token"));
    }

    #[test]
    fn the_add_form_keeps_values_in_secret_storage_and_uses_named_secrets() {
        let known = |name: &str| name == "my-token" || name == "team-secret";
        let form = AddForm {
            name: "Web tools",
            target: "https://example.com/mcp",
            values: "X-Team: team-secret\nX-Plain = hello",
            bearer: "my-token",
            ..AddForm::default()
        };
        let added = add(&form, &["Web-tools"], &known, FRESH).unwrap();
        let web = &added.servers[0];
        assert_eq!(web.id, "Web-tools-2");
        assert_eq!(
            (web.kind.as_str(), web.bearer_secret.as_str()),
            ("http", "my-token")
        );
        assert_eq!(web.headers[0].secret, "team-secret");
        assert_eq!(web.headers[1].secret, "mcp-web-tools-2-x-plain");
        assert_eq!(
            added.secrets,
            [("mcp-web-tools-2-x-plain".to_string(), "hello".to_string())]
        );

        let form = AddForm {
            target: "/usr/bin/node server.js --stdio",
            values: "GREETING=hi",
            cwd: "/home/me/tools",
            ..AddForm::default()
        };
        let stdio = add(&form, &[], &known, FRESH).unwrap();
        let server = &stdio.servers[0];
        assert_eq!(
            (server.id.as_str(), server.command.as_str()),
            ("node", "/usr/bin/node")
        );
        assert_eq!(server.args, ["server.js", "--stdio"]);
        assert_eq!(server.cwd, "/home/me/tools");
        assert_eq!(
            stdio.secrets,
            [("mcp-node-greeting".to_string(), "hi".to_string())]
        );

        for (form, says) in [
            (
                AddForm {
                    target: " ",
                    ..AddForm::default()
                },
                "Give a command",
            ),
            (
                AddForm {
                    target: "npx x",
                    values: "JUST A LINE",
                    ..AddForm::default()
                },
                "Line 1",
            ),
            (
                AddForm {
                    target: "npx x",
                    cwd: "tools",
                    ..AddForm::default()
                },
                "not a full path",
            ),
            (
                AddForm {
                    target: "npx x",
                    bearer: "t",
                    ..AddForm::default()
                },
                "for an HTTP server",
            ),
        ] {
            let error = add(&form, &[], &known, FRESH).unwrap_err();
            assert!(error.contains(says), "{error}");
        }
    }

    #[test]
    fn wrong_pastes_say_what_to_paste() {
        for (paste, says) in [
            ("{ nope", "not JSON"),
            ("[1]", "not an object"),
            (r#"{ "other": {} }"#, "mcpServers"),
            (r#"{ "mcpServers": {} }"#, "no servers"),
            (
                r#"{ "mcpServers": { "x": { "args": [] } } }"#,
                "neither a command",
            ),
        ] {
            let error = import(paste, &[], FRESH).unwrap_err();
            assert!(error.contains(says), "{paste}: {error}");
        }
    }
}
