// Generated from the Rust types by src/ts_types.rs (ts-rs); do not edit.
// Update: VAULT_AGENT_WRITE_TYPES=1 cargo test --release --lib ts_types

// Settings the tab names a range for: src/settings/mod.rs (normalise clamps to them).

/** A CLI call's timeout (ms). */
export const TIMEOUT_RANGE_MS = [1000, 120000] as const;

/** CLI processes at once. */
export const MAX_PROCESSES_RANGE = [1, 16] as const;

/** How long a read is reused (seconds; 0 turns it off). */
export const READ_CACHE_RANGE_SECONDS = [0, 3600] as const;

/** Claude's thinking budget (tokens). */
export const THINKING_BUDGET_RANGE = [1024, 64000] as const;

/** The MCP server's port when none is set. */
export const DEFAULT_MCP_PORT = 27125;

// The MCP server's activity log: src/doors/mcp/activity.rs.

/** Entries the activity log keeps; the oldest go first. */
export const MCP_ACTIVITY_KEPT = 500;

// Coding agents (ACP): src/policy/agent_session.rs.

/** Characters (UTF-16 units) of one answer, and of one turn's thoughts, the chat keeps. */
export const AGENT_TEXT_MAX_CHARS = 4194304;

/** Said in the answer where it was cut. */
export const AGENT_ANSWER_CUT_NOTE = "\n\n[Cut here: the chat keeps the first 4 MiB of an answer; the agent's further text was left out.]";

/** Said in the thoughts where they were cut. */
export const AGENT_THOUGHTS_CUT_NOTE = "\n\n[Cut here: the chat keeps the first 4 MiB of the agent's thoughts; the rest were left out.]";

/** Plan entries shown; the last place counts the rest. */
export const AGENT_PLAN_MAX_ENTRIES = 100;

/** Characters of one plan entry shown. */
export const AGENT_PLAN_ENTRY_MAX_CHARS = 500;

/** The plan's last entry when it has more; `{count}` is how many. */
export const AGENT_PLAN_MORE_NOTE = "…and {count} more steps (not shown)";

/** Characters of a tool call's title, arguments and output shown, each. */
export const AGENT_TOOL_TEXT_MAX_CHARS = 65536;

/** Tool calls of one turn shown as blocks. */
export const AGENT_TOOL_CALLS_MAX = 500;

/** Streamed text reaches the chat at most this often (ms). */
export const AGENT_DRAW_INTERVAL_MS = 16;

// Images in the chat: src/doors/chat/images.rs.

/** The image files a message carries: extension and MIME type. */
export const IMAGE_TYPES = [["png","image/png"],["jpg","image/jpeg"],["jpeg","image/jpeg"],["gif","image/gif"],["webp","image/webp"]] as const;

/** Images one message carries. */
export const MAX_IMAGES_PER_MESSAGE = 5;

/** The largest image kept when pasted or dropped (bytes). */
export const MAX_PASTED_BYTES = 10485760;

/** Pasted images one chat keeps in the plugin's folder. */
export const MAX_PASTED_PER_CHAT = 20;

/** How much of an image's start the core reads before it is decoded (bytes). */
export const IMAGE_HEAD_BYTES = 1048576;

/** How much of an image's end the core reads before it is decoded (bytes). */
export const IMAGE_TAIL_BYTES = 1024;
