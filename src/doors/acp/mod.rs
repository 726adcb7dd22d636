//! Coding agents over ACP (Claude Code, Codex, Gemini CLI) run in the chat:
//! the door each agent session gets (its MCP token, its turn, the "always"
//! answers to its questions) and its file requests.

pub mod files;
