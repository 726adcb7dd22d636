//! A coding agent's file requests over ACP, run through the same gate as
//! every other door: the path rule and the choice of write come from
//! `policy::agent_files`, the read scope and the cards from the tools.

use serde_json::json;

use super::AcpDoor;
use crate::base::host::Host;
use crate::base::result::ToolResult;
use crate::policy::agent_files::{plan_write, vault_relative, written_note, AgentFileWrite};
use crate::policy::agent_session;
use crate::settings::PermissionMode;

impl<H: Host> AcpDoor<H> {
    /// The vault path an agent's absolute `path` names, or why it names none.
    pub fn file_path(&self, path: &str) -> Result<String, String> {
        let facts = self.engine.host().platform();
        let vault = facts.vault_path.as_deref().ok_or_else(|| {
            "this vault is not a folder on disk, so no file path names a note in it".to_string()
        })?;
        vault_relative(vault, path, facts.os())
    }

    /// Which of our writes `fs/write_text_file` of `content` at `path`
    /// becomes, for `requester` under `mode` (the chat's). The note is read
    /// through the notes tool first, so the read scope decides what the agent
    /// may overwrite; a note that is not there is created.
    pub async fn file_write(
        &self,
        path: &str,
        content: &str,
        requester: &str,
        mode: Option<PermissionMode>,
    ) -> AgentFileWrite {
        let path = match self.file_path(path) {
            Ok(path) => written_note(&path),
            Err(message) => {
                return AgentFileWrite::Refused {
                    code: "path_outside_vault".into(),
                    message,
                }
            }
        };
        let read = json!({"command": "read", "path": path});
        let scoped = self
            .engine
            .call_tool_through("obsidianNotes", &read, requester, mode, None)
            .await;
        // The exact text (the CLI's is not byte-exact), once the scope let it be read.
        let exact = self.engine.host().vault_read(&path).await;
        let current = match (scoped.ok, exact) {
            (true, Ok(text)) => Some(text),
            (false, Err(failure)) if failure.code == "not_found" => None,
            (true, Err(failure)) => {
                return AgentFileWrite::Refused {
                    code: "vault_failed".into(),
                    message: format!("Obsidian could not read \"{path}\": {}.", failure.message),
                }
            }
            (false, _) => {
                return AgentFileWrite::Refused {
                    code: scoped.code().unwrap_or("failed").to_string(),
                    message: scoped.error.map(|e| e.message).unwrap_or(scoped.text),
                }
            }
        };
        plan_write(&path, content, current.as_deref())
    }

    /// A coding agent's `fs/read_text_file` (ACP): the note's whole text, or
    /// the lines it asked for. It passes the gate of obsidianNotes `read`
    /// (the tool's switch, the configuration folder, the read scope) and is
    /// read through Obsidian's vault, not the CLI, so the output cap never
    /// cuts it; a note over `agent_session::READ_MAX_BYTES` is refused whole.
    pub async fn read_file(
        &self,
        path: &str,
        cap: Option<crate::settings::PermissionMode>,
        line: Option<u32>,
        limit: Option<u32>,
    ) -> ToolResult {
        let chat = self.engine.settings_snapshot().permission_mode;
        let settings = self
            .engine
            .settings_under(cap.map_or(chat, |cap| chat.at_most(cap)), None);
        self.engine
            .timed(async {
                let read = json!({ "command": "read", "path": path });
                self.engine
                    .authorise("obsidianNotes", &read, &settings)
                    .await?;
                let text = self.engine.read_exact(path).await?;
                if text.len() > agent_session::READ_MAX_BYTES {
                    return Err(agent_session::too_large(path, text.len()));
                }
                Ok(ToolResult::success(agent_session::lines(
                    &text, line, limit,
                )))
            })
            .await
    }
}
