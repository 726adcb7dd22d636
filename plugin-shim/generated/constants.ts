// Generated from the Rust types by src/ts_types.rs (ts-rs); do not edit.
// Update: VAULT_AGENT_WRITE_TYPES=1 cargo test --release --lib ts_types
import type { PermissionMode } from "./core-types";

// The permission modes: src/settings/modes.rs.

/** A permission mode and the words the settings tab and the chat header use for it. */
export interface PermissionModeText {
	mode: PermissionMode;
	label: string;
	description: string;
}

/** In the order the dropdowns offer them, the safest first. */
export const PERMISSION_MODES: readonly PermissionModeText[] = [
	{ mode: "readOnly", label: "Read only", description: "The agent reads your vault; every change is refused before anything runs." },
	{ mode: "askEveryChange", label: "Ask before every change", description: "Every change waits for your approval on a card that shows it, additions included." },
	{ mode: "askBeforeEdits", label: "Ask before edits", description: "Additions run at once (new notes, text added to a note, new base items, bookmarks); changes to what is already there (edits, properties, tasks) wait for your approval on a card." },
];

/** The mode the core reads an unknown or missing mode as. */
export const DEFAULT_PERMISSION_MODE: PermissionModeText = { mode: "readOnly", label: "Read only", description: "The agent reads your vault; every change is refused before anything runs." };

/** The stored spellings, as a message lists them. */
export const PERMISSION_MODE_KEYS_LISTED = "readOnly, askEveryChange or askBeforeEdits";

// The coding agents: src/settings/agents.rs.

/** The chat picker's value for a coding agent is this prefix and its id. */
export const AGENT_PREFIX = "agent:";

// The MCP server: src/doors/mcp/mod.rs.

/** The secret in Obsidian's secret storage that holds the bearer token. */
export const MCP_TOKEN_SECRET = "vault-agent-mcp-token";

// Search by meaning: src/search/embedding_api.rs.

/** The tag of every embedding request, which Stop aborts. */
export const EMBEDDINGS_TAG = "embeddings";

// The languages of the notes: src/settings/search.rs.

/** The languages a user may fix for the search, as stored and as named. */
export const LANGUAGE_CHOICES = [{"code":"en","name":"English"},{"code":"ar","name":"Arabic (العربية)"},{"code":"da","name":"Danish (dansk)"},{"code":"de","name":"German (Deutsch)"},{"code":"el","name":"Greek (ελληνικά)"},{"code":"es","name":"Spanish (español)"},{"code":"fi","name":"Finnish (suomi)"},{"code":"fr","name":"French (français)"},{"code":"hu","name":"Hungarian (magyar)"},{"code":"it","name":"Italian (italiano)"},{"code":"nl","name":"Dutch (Nederlands)"},{"code":"no","name":"Norwegian (norsk)"},{"code":"pt","name":"Portuguese (português)"},{"code":"ro","name":"Romanian (română)"},{"code":"ru","name":"Russian (русский)"},{"code":"sv","name":"Swedish (svenska)"},{"code":"ta","name":"Tamil (தமிழ்)"},{"code":"tr","name":"Turkish (Türkçe)"}] as const;

/** The most languages a user may fix. */
export const MAX_LANGUAGES = 5;

// Check this model: src/doors/chat/model_check.rs.

/** The tag of every request of "Check this model", which its Stop aborts. */
export const MODEL_CHECK_TAG = "model-check";
