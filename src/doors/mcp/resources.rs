//! MCP resources: the vault's notes as `obsidian://vault/{path}` (listed a
//! page at a time, read through the CLI) and `obsidian://tags`. Both go
//! through the same tools, policy and folder scopes as a tool call, under
//! the MCP permission mode.

use percent_encoding::{percent_decode_str, utf8_percent_encode, AsciiSet, CONTROLS};
use serde_json::{json, Map, Value};

use super::jsonrpc::{self, RpcError};
use super::McpDoor;
use crate::base::host::Host;
use crate::base::result::ToolResult;

pub const NOTE_PREFIX: &str = "obsidian://vault/";
pub const TAGS_URI: &str = "obsidian://tags";
/// Notes per `resources/list` page.
pub const PAGE_SIZE: u32 = 100;

/// Everything but unreserved characters and `/` is escaped in a note's URI.
const PATH_ESCAPES: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'[')
    .add(b'\\')
    .add(b']')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

pub fn note_uri(path: &str) -> String {
    format!("{NOTE_PREFIX}{}", utf8_percent_encode(path, PATH_ESCAPES))
}

pub fn templates() -> Value {
    json!({
        "resourceTemplates": [{
            "uriTemplate": format!("{NOTE_PREFIX}{{path}}"),
            "name": "note",
            "title": "A note in the vault",
            "description": "A note's Markdown, by its path from the vault root (e.g. Projects/Roadmap.md).",
            "mimeType": "text/markdown",
        }]
    })
}

impl<H: Host> McpDoor<H> {
    /// A page of notes (the folders the agent may read only), with a cursor
    /// for the next; the tags resource heads the first page.
    pub(crate) async fn mcp_list_resources(
        &self,
        params: &Map<String, Value>,
    ) -> Result<Value, RpcError> {
        let offset = match params.get("cursor") {
            None | Some(Value::Null) => 0,
            Some(Value::String(cursor)) => cursor
                .strip_prefix("notes:")
                .and_then(|n| n.parse::<u32>().ok())
                .ok_or_else(|| {
                    RpcError::params(
                        "`cursor` is not one this server gave; start again without a cursor.",
                    )
                })?,
            Some(_) => return Err(RpcError::params("`cursor` must be text.")),
        };
        // One more than a page, to know whether another page follows.
        let listing = self
            .mcp_read(
                "obsidianNotes",
                json!({ "command": "files", "ext": "md", "offset": offset, "limit": PAGE_SIZE + 1 }),
            )
            .await;
        if !listing.ok {
            return Err(failure(&listing));
        }
        let paths: Vec<&str> = listing
            .text
            .lines()
            .map(str::trim)
            // The listing's own page note is bracketed; a note path ends in .md.
            .filter(|line| !(line.is_empty() || line.starts_with('[') && line.ends_with(']')))
            .collect();
        let more = paths.len() > PAGE_SIZE as usize;
        let mut resources: Vec<Value> = Vec::new();
        if offset == 0 {
            resources.push(json!({
                "uri": TAGS_URI,
                "name": "tags",
                "title": "Tags",
                "description": "Every tag in the vault with how often it is used.",
                "mimeType": "text/plain",
            }));
        }
        for path in paths.iter().take(PAGE_SIZE as usize) {
            let name = path.rsplit('/').next().unwrap_or(path);
            resources.push(json!({
                "uri": note_uri(path),
                "name": path,
                "title": name.strip_suffix(".md").unwrap_or(name),
                "mimeType": "text/markdown",
            }));
        }
        let mut page = json!({ "resources": resources });
        if more {
            page["nextCursor"] = json!(format!("notes:{}", offset + PAGE_SIZE));
        }
        Ok(page)
    }

    pub(crate) async fn mcp_read_resource(
        &self,
        params: &Map<String, Value>,
    ) -> Result<Value, RpcError> {
        let Some(uri) = params.get("uri").and_then(Value::as_str) else {
            return Err(RpcError::params("`uri` (text) is required."));
        };
        let (result, mime) = if uri == TAGS_URI {
            let tags = json!({ "command": "tags", "all": true, "counts": true });
            (self.mcp_read("obsidianTags", tags).await, "text/plain")
        } else if let Some(encoded) = uri.strip_prefix(NOTE_PREFIX) {
            let path = percent_decode_str(encoded).decode_utf8().map_err(|_| {
                RpcError::params("The note path in `uri` is not UTF-8 once decoded.")
            })?;
            let read = json!({ "command": "read", "path": path });
            (self.mcp_read("obsidianNotes", read).await, "text/markdown")
        } else {
            return Err(RpcError::new(
                jsonrpc::RESOURCE_NOT_FOUND,
                format!("Resource not found: {uri:?}; this server has {NOTE_PREFIX}{{path}} and {TAGS_URI}."),
            ));
        };
        if !result.ok {
            return Err(failure(&result));
        }
        Ok(json!({ "contents": [{ "uri": uri, "mimeType": mime, "text": result.text }] }))
    }

    /// A read for a resource, under the MCP door's settings.
    async fn mcp_read(&self, tool: &str, args: Value) -> ToolResult {
        let mode = self.engine.settings_snapshot().mcp.permission_mode;
        let settings = self.engine.settings_under(mode, None);
        self.engine
            .call_tool_under(tool, &args, settings, None)
            .await
    }
}

/// A failed read as a resource error: the stable code first, as tools say it.
fn failure(result: &ToolResult) -> RpcError {
    let message = match &result.error {
        Some(error) => format!("{}: {}", error.code, error.message),
        None => result.text.clone(),
    };
    RpcError::new(jsonrpc::RESOURCE_NOT_FOUND, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn note_uris_round_trip() {
        for path in [
            "Projects/Roadmap.md",
            "Ideas/50% done #1?.md",
            "日記/2026-11-30.md",
        ] {
            let uri = note_uri(path);
            let escaped = &uri[NOTE_PREFIX.len()..];
            assert!(!escaped.contains([' ', '#', '?']), "{uri}");
            let back = percent_decode_str(uri.strip_prefix(NOTE_PREFIX).unwrap())
                .decode_utf8()
                .unwrap();
            assert_eq!(back, path);
        }
    }
}
