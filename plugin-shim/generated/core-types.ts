// Generated from the Rust types by src/ts_types.rs (ts-rs); do not edit.
// Update: VAULT_AGENT_WRITE_TYPES=1 cargo test --release --lib ts_types
import type { ChangePreview, JsonValue, ToolResult } from "./api-types";

/**
 * What the plugin's confirmation card shows (and needs to approve).
 */
export type ConfirmationCard = { id: string, toolId: string, command: string, summary: string, preview: ChangePreview, argv: Array<string>, argvHash: string, expiresMs: number, state: ConfirmationState, 
/**
 * The outside agent that asked ("Claude Code").
 */
requester?: string, 
/**
 * The card's first line when an outside agent asked: "Claude Code
 * wants to change \"Plan.md\"", "… wants to make a new note \"Ideas\"".
 */
requested?: string, 
/**
 * The model wrote this call as text, not as a tool call: it may be
 * echoing a call it read in a note (the card says so).
 */
writtenAsText: boolean, 
/**
 * Asked for while carrying out an approved plan, on a note the plan
 * does not name (the card says so).
 */
offPlan?: boolean, 
/**
 * `cli` (the argv runs), `vault` (Obsidian writes the note in one
 * step, only if it is unchanged) or `files` (Obsidian's file manager
 * moves or trashes notes, only those still as the card showed them).
 */
via: string, 
/**
 * A call of one of the user's own MCP servers (`via` is `mcp`): what
 * the card shows instead of a change to the vault.
 */
outside?: OutsideCard, 
/**
 * The note an edit of its text changes (`via` is `vault`): the editor
 * can show the edit's changes in place, to accept or reject each
 * (`EditReview`).
 */
editsNote?: string, };

export type ConfirmationState = "proposed" | "approved" | "running" | "done" | "failed" | "rejected" | "expired" | "stale";

/**
 * What the card of an outside tool's call shows: exactly what will be sent.
 */
export type OutsideCard = { 
/**
 * The server's name in the settings, and the name it gives itself.
 */
server: string, serverName: string, tool: string, description: string, 
/**
 * The server's annotations in words (`read-only`, `may be destructive` …).
 */
annotations: Array<string>, 
/**
 * The arguments as they will be sent, as indented JSON with long
 * strings folded (`folded` says whether any was).
 */
arguments: string, folded: boolean, 
/**
 * The whole arguments, unfolded, for "Show the full arguments".
 */
fullArguments: string, };

/**
 * A note edit's card as the editor reviews it in place (`engine::in_place`):
 * its changes, the user's answer to each so far, and, once every change is
 * answered, how the card is settled. The same card as in the chat: settling
 * it here settles it there.
 */
export type EditReview = { id: string, 
/**
 * The note edited, "" when the card is not a note edit.
 */
path: string, changes: Array<EditChange>, 
/**
 * The user's answer to each change so far: accepted, rejected, or not yet.
 */
answers: Array<boolean | null>, 
/**
 * Why the card cannot be reviewed in this editor, and what to do
 * instead (no changes are given then).
 */
problem?: string, 
/**
 * Every change answered: how the card is settled now.
 */
settle?: ReviewSettle, };

/**
 * One change of a note edit as the editor shows it in place
 * (`notes::review`): a run of changed lines, placed in the note as it is
 * now. Offsets are UTF-16 code units, as the editor counts them.
 */
export type EditChange = { 
/**
 * The lines it replaces in the note now (empty where it only adds).
 */
from: number, to: number, 
/**
 * The 1-based line of the note now where it starts.
 */
line: number, oldText: string, newText: string, 
/**
 * Only the words that differ.
 */
spans: Array<ChangeSpan>, 
/**
 * Where its Accept and Reject go: after its last changed word.
 */
controlsAt: number, };

/**
 * Words a change removes (`from..to` of the note now) or adds (`text`,
 * shown at `from`, where `to` equals `from`).
 */
export type ChangeSpan = { kind: SpanKind, from: number, to: number, text: string, };

export type SpanKind = "removed" | "added";

/**
 * How a card reviewed in place is settled once every change is answered:
 * approved whole (every change accepted), approved for some changes only,
 * or rejected (none accepted).
 */
export type ReviewSettle = { "answer": "approve" } | { "answer": "approveChanges", changes: Array<number>, } | { "answer": "reject" };

/**
 * One server.
 */
export type OutsideServer = { 
/**
 * The name the user gave: unique, letters, digits, `-` and `_`
 * (it becomes part of the tool names the model sees).
 */
id: string, 
/**
 * Made when the server is added and never edited: a server removed
 * and added again under the same name is another server, so what the
 * user approved for the old one asks again (`policy::outside`).
 */
addedId: string, enabled: boolean, 
/**
 * `stdio` (a command) or `http` (Streamable HTTP at `url`).
 */
kind: string, command: string, args: Array<string>, 
/**
 * Environment variables of a stdio server, each from a secret.
 */
env: Array<SecretValue>, 
/**
 * A stdio server's working folder; empty: the vault's folder.
 */
cwd: string, url: string, 
/**
 * Headers of an HTTP server, each from a secret.
 */
headers: Array<SecretValue>, 
/**
 * The secret holding a bearer token (`Authorization: Bearer …`); empty: none.
 */
bearerSecret: string, trust: Trust, 
/**
 * Tools the user switched off, by the server's name for them.
 */
toolsOff: Array<string>, timeoutMs: number, };

/**
 * A name and the secret (in Obsidian's secret storage) that holds its value.
 */
export type SecretValue = { name: string, secret: string, };

/**
 * How far a server's tools run without the user's click.
 */
export type Trust = "askEveryCall" | "askUnlessReadOnly" | "neverAsk";

/**
 * What a paste became.
 */
export type OutsideImport = { servers: Array<OutsideServer>, 
/**
 * Secret name → value, for the shim to put in secret storage.
 */
secrets: Array<[string, string]>, 
/**
 * What was skipped or needs the user, one line each.
 */
notes: Array<string>, };

/**
 * Which outside servers the chat has, for its header and a new chat's page.
 */
export type OutsideSummary = { 
/**
 * The header's short text: the names while they fit a narrow sidebar,
 * else a count; empty when no server is on.
 */
label: string, 
/**
 * One line a server on: its name and state (the tooltip, the page).
 */
servers: Array<string>, 
/**
 * A server on could not be reached at its last listing.
 */
unreachable: boolean, 
/**
 * Problems about no message (a server down, the instructions note
 * missing), each with its fix: the header's status panel says them;
 * the transcript does not repeat them.
 */
problems: Array<string>, };

/**
 * How the host reaches one server: built by the core from the settings,
 * with the secrets it names already read from secret storage.
 */
export type OutsideConnect = { 
/**
 * The server's id in the settings (the host keeps one client per id).
 */
id: string, 
/**
 * `stdio` or `http`.
 */
kind: string, command: string, args: Array<string>, env: Array<[string, string]>, 
/**
 * The working folder of a stdio server; empty: the vault's folder.
 */
cwd: string, url: string, headers: Array<[string, string]>, 
/**
 * POSIX: a stdio server leads its own process group, signalled as a
 * whole; otherwise (Windows) taskkill ends its tree.
 */
processGroup: boolean, 
/**
 * How long connecting and listing may take.
 */
timeoutMs: number, 
/**
 * With Local only on, the one address an HTTP server may be reached
 * at, as the core checked it (the name is not looked up again).
 */
connectAddress?: string, 
/**
 * The host the core read from `url`: the host refuses to connect when
 * its own reading of `url` names another (empty for stdio).
 */
expectedHost: string, 
/**
 * A digest of everything above: the host restarts a client whose
 * digest changed (a new command, another secret).
 */
digest: string, };

/**
 * What the host learned from one server (`initialize`, `tools/list`).
 */
export type OutsideListing = { ok: boolean, 
/**
 * `serverInfo.name` and `.version`.
 */
name: string, version: string, tools: Array<OutsideTool>, 
/**
 * Why it could not connect or list, in the SDK's or the system's words.
 */
error?: string, 
/**
 * The server answered 401 and asks for an OAuth sign-in.
 */
needsSignIn: boolean, 
/**
 * The last lines the server wrote to stderr (stdio).
 */
stderrTail: string, 
/**
 * The address an HTTP server's socket connected to, for the log.
 */
remoteAddress?: string, };

/**
 * One tool as the server lists it.
 */
export type OutsideTool = { name: string, title: string | null, description: string, inputSchema: unknown, 
/**
 * `annotations` as the server gave them (`readOnlyHint`, …): hints
 * from the server, shown on the card; only `readOnlyHint` relaxes anything.
 */
annotations: unknown, 
/**
 * The annotations in words, filled in by the core for the settings tab.
 */
hints: Array<string>, };

/**
 * One call the host makes for the core.
 */
export type OutsideCall = { server: OutsideConnect, tool: string, arguments: Record<string, unknown>, timeoutMs: number, 
/**
 * The chat whose turn makes the call, so Stop in that chat cancels it
 * and no other chat's (as `abortHttp(tag)` does for model requests).
 */
tag?: string, };

/**
 * How a call ended, as the host saw it.
 */
export type OutsideOutcome = { "status": "answered", result: unknown, } | { "status": "failed", code: number, message: string, } | { "status": "timedOut" } | { "status": "cancelled" } | { "status": "crashed", message: string, stderrTail: string, } | { "status": "unreachable", message: string, };

export type AgentServers = { 
/**
 * ACP `McpServer` entries, as `session/new` takes them.
 */
servers: unknown[], 
/**
 * Why each enabled server that is not there was held back, for the chat.
 */
heldBack: Array<string>, };

/**
 * The next step after `auth_required`.
 */
export type SignIn = { "step": "authenticate", methodId: string, } | { "step": "refuse", message: string, };

/**
 * What the UI shows of an entry.
 */
export type JournalEntryView = { id: string, summary: string, target: string, time: number, turn?: string, undoable: boolean, reason?: string, undone: boolean, };

/**
 * A chat answer's changes: how many, and how many can still be undone.
 */
export type TurnChanges = { total: number, 
/**
 * Not undone yet, and undoable.
 */
undoable: number, undone: number, };

/**
 * Everything the user can set. The model can never change any of it.
 */
export type VaultAgentSettings = { 
/**
 * Path to the CLI binary; empty means "discover it".
 */
cliPath: string, 
/**
 * `vault=<name>` for every call; empty means the vault that is open.
 */
vaultName: string, timeoutMs: number, outputCapBytes: number, 
/**
 * CLI processes at once.
 */
maxProcesses: number, 
/**
 * "Vault changes": Read only until the user picks another mode.
 */
permissionMode: PermissionMode, confirmationExpiryMs: number, 
/**
 * How long a read's answer may be reused when nothing changed (0: never).
 */
readCacheSeconds: number, 
/**
 * Folders the agent may read (paths from the vault root, normalised);
 * empty means the whole vault.
 */
readFolders: Array<string>, 
/**
 * Folders the agent may change, once the mode allows changes; empty
 * means the whole vault. A change also needs its place to be readable.
 */
writeFolders: Array<string>, 
/**
 * Per-tool switches by tool id; a tool not listed is enabled.
 */
tools: { [key in string]?: boolean }, chat: ChatSettings, 
/**
 * The MCP server for agents outside Obsidian (off until the user turns it on).
 */
mcp: McpSettings, 
/**
 * Safety → Local only: connections only to this computer and the
 * private network (`policy::network`).
 */
localOnly: boolean, 
/**
 * The coding agents (ACP): the user's changes and the one picked.
 */
acpAgents: CodingAgentSettings, 
/**
 * The user's own MCP servers, whose tools the chat offers.
 */
mcpServers: Array<OutsideServer>, 
/**
 * Search by meaning: the embedding model, off by default.
 */
embeddings: EmbeddingSettings, 
/**
 * Web search and page reading, off by default.
 */
web: WebSettings, 
/**
 * The languages the ranked search reads the notes in; empty: automatic.
 */
search: SearchSettings, };

/**
 * What the agent may do to the vault. Only the user changes it (the settings
 * tab and the chat header); no tool argument and no API call can.
 */
export type PermissionMode = "readOnly" | "askEveryChange" | "askBeforeEdits";

/**
 * The chat agent's settings: the saved model profiles, the one in use, and
 * limits that hold for every profile.
 */
export type ChatSettings = { 
/**
 * The `id` of the profile the chat uses.
 */
activeProfile: string, 
/**
 * Never empty once normalised.
 */
profiles: Array<ModelProfile>, maxToolRounds: number, toolResultCapChars: number, 
/**
 * The silence allowed between two pieces of an answer once it started.
 */
modelTimeoutMs: number, 
/**
 * The wait for the answer's first token (headers and first byte).
 */
firstTokenTimeoutMs: number, 
/**
 * Anthropic extended thinking, and the tokens it may think with.
 */
anthropicThinking: boolean, anthropicThinkingBudget: number, 
/**
 * A note whose text the model is given in every chat as the user's
 * standing instructions (`doors::chat::instructions`); empty: none.
 */
instructionsNote: string, 
/**
 * A folder whose notes are the user's saved prompts
 * (`doors::chat::saved_prompts`); empty: none.
 */
promptsFolder: string, 
/**
 * Saved prompts (their paths) that get a command in the palette.
 */
promptCommands: Array<string>, 
/**
 * A folder whose subfolders holding a `SKILL.md` are Agent Skills
 * (`engine::skills`); empty: none.
 */
skillsFolder: string, 
/**
 * Memory you can read (`doors::chat::memory`): what the agent keeps
 * about the user and the vault, one fact a line in the notes of
 * `memory_folder`. Off until the user turns it on: it writes notes and
 * sends them in every request.
 */
memory: boolean, 
/**
 * The folder of the memory notes.
 */
memoryFolder: string, };

/**
 * A saved model setup the user switches between (settings tab, chat header).
 * Stored flat: `{ id, name, provider, baseUrl, model, apiKeySecret, contextWindow,
 * textToolCalls, instructions, images, pdfDocuments }`.
 */
export type ModelProfile = { 
/**
 * Stable, lowercase letters, digits and dashes; never shown.
 */
id: string, name: string, provider: ProviderKind, 
/**
 * What "Check this model" found the last time it ran on this profile
 * (`doors::chat::check_verdict`); `None`: never checked.
 */
lastCheck?: ModelCheckRecord, baseUrl: string, model: string, apiKeySecret: string, 
/**
 * Tokens the model can read at once; 0: what the server is known to
 * offer (`agent::budget::context_window`).
 */
contextWindow: number, 
/**
 * A reply that is nothing but a tool call written as text runs as one
 * (`agent::text_calls`), for models and servers without tool calling.
 * Off unless the user turns it on: every preset calls tools natively,
 * and text in a note could otherwise pose as a call.
 */
textToolCalls: boolean, 
/**
 * The profile's own standing instructions (a small model may need
 * other words than a large one), after the instructions note's; at
 * most `MAX_PROFILE_INSTRUCTIONS_CHARS` characters.
 */
instructions: string, 
/**
 * Whether the model reads images ("Model accepts images"): `None` asks
 * the server where it tells (Ollama's capabilities; a Claude model),
 * else no (`doors::chat::images::accepted`).
 */
images: boolean | null, 
/**
 * Anthropic only: an attached PDF goes as a `document` block (Claude
 * reads its pages, scans included) instead of its text. Off: the text
 * PDF.js reads, page by page (`doors::chat::pdf`).
 */
pdfDocuments: boolean, };

/**
 * One model server: where it is, which model, and the name of the secret
 * that holds its API key (the key itself lives in Obsidian's secret storage).
 * A provider-specific setting is one more field here and one more line in
 * `Reader::provider`.
 */
export type ProviderSettings = { baseUrl: string, model: string, apiKeySecret: string, 
/**
 * Tokens the model can read at once; 0: what the server is known to
 * offer (`agent::budget::context_window`).
 */
contextWindow: number, 
/**
 * A reply that is nothing but a tool call written as text runs as one
 * (`agent::text_calls`), for models and servers without tool calling.
 * Off unless the user turns it on: every preset calls tools natively,
 * and text in a note could otherwise pose as a call.
 */
textToolCalls: boolean, 
/**
 * The profile's own standing instructions (a small model may need
 * other words than a large one), after the instructions note's; at
 * most `MAX_PROFILE_INSTRUCTIONS_CHARS` characters.
 */
instructions: string, 
/**
 * Whether the model reads images ("Model accepts images"): `None` asks
 * the server where it tells (Ollama's capabilities; a Claude model),
 * else no (`doors::chat::images::accepted`).
 */
images: boolean | null, 
/**
 * Anthropic only: an attached PDF goes as a `document` block (Claude
 * reads its pages, scans included) instead of its text. Off: the text
 * PDF.js reads, page by page (`doors::chat::pdf`).
 */
pdfDocuments: boolean, };

/**
 * Which kind of model server the chat talks to.
 */
export type ProviderKind = "openAi" | "anthropic";

/**
 * The MCP server's own switches: its permission mode is separate from the
 * chat's, and Read only until the user picks another.
 */
export type McpSettings = { enabled: boolean, port: number, permissionMode: PermissionMode, };

export type EmbeddingSettings = { 
/**
 * Off by default: nothing is embedded or sent until the user turns it on.
 */
enabled: boolean, 
/**
 * An OpenAI-compatible base address (`…/v1`); `/embeddings` is added.
 */
baseUrl: string, model: string, 
/**
 * The secret (Obsidian's secret storage) holding the API key; empty: none.
 */
apiKeySecret: string, 
/**
 * The server and model the user agreed to send the notes' text to
 * (`server_identity`), after the settings said how much would go.
 * Asked only of a server off this computer and its network; another
 * address or model asks again.
 */
consented: string, };

/**
 * Which search provider answers `search`.
 */
export type WebProvider = "searxng" | "brave";

export type WebSettings = { 
/**
 * Off by default: the web tool is neither offered nor run.
 */
enabled: boolean, provider: WebProvider, 
/**
 * SearXNG's base address (`/search` is added).
 */
searxngUrl: string, 
/**
 * The secret (Obsidian's secret storage) holding the Brave key; empty: none.
 */
apiKeySecret: string, };

export type SearchSettings = { 
/**
 * The languages fixed by the user, the main one first (codes of
 * [`LANGUAGE_CHOICES`]); empty: automatic.
 */
languages: Array<string>, };

/**
 * One agent as the shim starts and shows it: the built-in with the user's changes.
 */
export type AgentProfile = { 
/**
 * `agent:<id>` in the chat's model picker.
 */
id: string, name: string, command: string, args: Array<string>, 
/**
 * Environment names → secret names in Obsidian's secret storage (API keys).
 */
envSecrets: Record<string, string>, 
/**
 * What to run to install it, shown when the command is not found.
 */
install: string, };

/**
 * The coding agents' settings as stored: the one the chat picked, and each changed agent's fields.
 */
export type CodingAgentSettings = { selected?: string } & { [id: string]: { command?: string; args?: string[]; envSecrets?: Record<string, string> } | string | undefined };

/**
 * What the settings tab's switcher and the chat header show of a profile.
 */
export type ProfileSummary = { id: string, name: string, provider: ProviderKind, 
/**
 * The preset whose server it uses, if any.
 */
preset: string | null, 
/**
 * `model · host`, for a tooltip.
 */
detail: string, active: boolean, };

/**
 * A starting point for the settings tab's provider choice.
 */
export type ProviderPreset = { id: string, label: string, kind: ProviderKind, baseUrl: string, model: string, needsKey: boolean, };

/**
 * The answer of "Test connection".
 */
export type ConnectionReport = { ok: boolean, models: Array<string>, message: string, };

/**
 * The answer of "Check this model".
 */
export type ModelCheckReport = { 
/**
 * The checked profile's id and model.
 */
profile: string, model: string, rows: Array<CheckRow>, 
/**
 * What to do, most important first; never empty.
 */
advice: Array<string>, fixes: Array<CheckFix>, 
/**
 * What the profile keeps; `None` when the check was stopped (half a
 * check says nothing about the model).
 */
record: ModelCheckRecord | null, stopped: boolean, 
/**
 * The table and the advice as plain text (the CLI prints it).
 */
text: string, };

/**
 * One line of the table.
 */
export type CheckRow = { 
/**
 * Stable name (kept in the profile's record): `reachable`, `toolCall` …
 */
probe: string, 
/**
 * What the user reads, in sentence case.
 */
name: string, status: CheckStatus, 
/**
 * The measured figure, or why it did not apply.
 */
figure: string, };

/**
 * How one probe came out.
 */
export type CheckStatus = "passed" | "failed" | "notApplicable";

/**
 * A setting change that fixes what the check found: the shim applies
 * `patch` to the checked profile as it is, then the check may run again.
 */
export type CheckFix = { 
/**
 * The button's words.
 */
label: string, patch: Partial<ModelProfile>, };

/**
 * A model check as the profile keeps it: when, which model, which probes
 * passed and failed, whether the model's tool calls work with the profile
 * as it was, and the advice given.
 */
export type ModelCheckRecord = { atMs: number, model: string, passed: Array<string>, failed: Array<string>, 
/**
 * Tool calls worked, natively or written as text with the switch on.
 */
tools: boolean, advice: string, };

export type Conversation = { id: string, title: string, createdMs: number, updatedMs: number, messages: Array<ChatMessage>, paused: PausedTurn | null, 
/**
 * Set for a turn asked from outside the chat view (`vault-agent:ask`):
 * its tool calls run at most as permissive as `modeCap`, and a card
 * names who asked.
 */
door?: OutsideDoor, 
/**
 * The title was given (history → Rename, or a scheduled run's): it no
 * longer follows the first message.
 */
renamed?: boolean, 
/**
 * How often the chat was rewound (Regenerate, Edit and resend): part of
 * later turn ids, so a new answer never shares "Undo this answer's
 * changes" with the dropped one it replaces.
 */
rewinds?: number, 
/**
 * Every token the server reported in this chat (left out while none
 * was, so a chat stored before usage keeps its format).
 */
usage?: Usage, 
/**
 * The rounds of the turn in progress (kept across a confirmation).
 */
turnUsage?: Usage, 
/**
 * A coding agent's chat (ACP): which agent and session, so picking the
 * agent again resumes it with `session/load`. Kept as the shim gave it.
 */
agent?: AgentChat, 
/**
 * How the turn in progress was started beyond the user's words (a saved
 * prompt, a rewrite of a selection: a `TurnSetup`, kept as plain JSON);
 * set by every message, kept across a card.
 */
setup?: JsonValue, 
/**
 * Outside tools the user approved for this chat ("Approve for this
 * chat"), by `policy::outside::approval_key`: kept with this chat only.
 */
approvedOutside?: Array<string>, 
/**
 * Plan mode (the header's Plan): the agent reads, then proposes its
 * changes as a plan the user answers before any of them is made.
 */
planMode?: boolean, 
/**
 * The plan of the turn in progress (`ChatPlan`, carried out by `plan.rs`): proposed,
 * approved (being carried out) or answered.
 */
plan?: ChatPlan, 
/**
 * Earlier turns summarised (`compact`), oldest first: the model reads
 * the newest one's summary in place of the messages it covers, which
 * stay here whole for the transcript.
 */
compactions?: Array<Compaction>, };

/**
 * A conversation as loaded, and what had to be repaired (empty for a good
 * file). `repairs` is one sentence for the log and the chat.
 */
export type LoadedConversation = { conversation: Conversation, repairs?: string, };

/**
 * A turn paused on the user's decision about a change.
 */
export type PausedTurn = { confirmationId: string, 
/**
 * The call waiting for the decision.
 */
call: ToolCallRecord, 
/**
 * Calls of the same model reply that come after it.
 */
remaining: Array<ToolCallRecord>, 
/**
 * Tool rounds used so far in this turn.
 */
rounds: number, };

/**
 * Earlier turns of a chat summarised by the user's model (`compact`).
 */
export type Compaction = { 
/**
 * The messages before this index are summarised (a turn starts here).
 */
upto: number, 
/**
 * The turns (the user's messages) before `upto`.
 */
turns: number, 
/**
 * The model's summary, as it wrote it; the record of the changes in
 * those turns is not in it (`compact::summary_message` adds it, exact).
 */
summary: string, 
/**
 * Tokens the summary saves against sending those turns whole.
 */
savedTokens: number, };

/**
 * Who asked for a headless turn, and the mode it may use at most.
 */
export type OutsideDoor = { name: string, modeCap: PermissionMode, };

/**
 * The prompts of the folder, or why there are none to show.
 */
export type SavedPrompts = { prompts: Array<SavedPrompt>, notice?: string, };

/**
 * One saved prompt as the `/` menu and the settings list it.
 */
export type SavedPrompt = { path: string, 
/**
 * The note's name, which the menu shows.
 */
name: string, description: string, 
/**
 * The model profile it runs with (its id), if it names one.
 */
profile?: string, 
/**
 * The mode it narrows the chat's to, if it names one.
 */
mode?: PermissionMode, 
/**
 * What is wrong with the note and how to fix it; such a prompt is not run.
 */
problem?: string, 
/**
 * The prompt as written after the properties (the chat's form edits it).
 */
text: string, };

/**
 * What the user filled in: the prompt's name, description and text, and
 * for an edit the note it was and the text that note holds now.
 */
export type PromptDraft = { name: string, description: string, text: string, 
/**
 * The prompt's note, when an existing prompt is edited.
 */
path?: string, 
/**
 * That note's text as it is now (its other properties are kept).
 */
current?: string, };

/**
 * Where the prompt's note goes and what it holds, or why not.
 */
export type PromptNote = { "type": "write", path: string, text: string, from?: string, } | { "type": "refused", message: string, };

/**
 * The skills of the folder, or why there are none to offer.
 */
export type Skills = { skills: Array<Skill>, notice?: string, };

/**
 * One skill as the settings list it and the prompt names it.
 */
export type Skill = { 
/**
 * Its `SKILL.md`, from the vault root.
 */
path: string, name: string, description: string, 
/**
 * What is wrong with its front matter and how to fix it; such a skill
 * is not offered to the model.
 */
problem?: string, };

/**
 * What `add_builtins` did: the skills it wrote and those already there.
 */
export type AddedSkills = { added: Array<string>, kept: Array<string>, };

/**
 * What the variables are filled with, as the shim found them at send
 * (read by hand: a value that is not text counts as not given).
 */
export type PromptValues = { 
/**
 * The editor's selection.
 */
selection?: string, 
/**
 * The active note's path.
 */
note?: string, 
/**
 * Today in the user's time zone, YYYY-MM-DD.
 */
date: string, };

/**
 * The editor's selection as the shim found it (read by hand, leniently:
 * anything missing makes a selection `locate` refuses).
 */
export type SelectionRequest = { 
/**
 * The note's path.
 */
path: string, 
/**
 * The note's whole text when the user selected (`editor.getValue()`).
 */
text: string, 
/**
 * The selection's start and end in `text`, in UTF-16 code units
 * (`editor.posToOffset`).
 */
from: number, to: number, };

/**
 * The coding agent a chat belongs to (see `Conversation::agent`).
 */
export type AgentChat = { 
/**
 * The agent profile's id.
 */
profile: string, name: string, 
/**
 * The agent's session, once it made one.
 */
sessionId: string | null, };

/**
 * One answer of a coding agent's turn (`Conversation::keep_agent_turn`).
 */
export type AgentAnswerText = { text: string, reasoning: string, };

export type ChatMessage = { "role": "user", text: string, 
/**
 * The notes the user attached in the chat (chips). `None` in
 * conversations stored before attachments existed and from doors
 * that have none (the API, the CLI): then the prompt names the note
 * open in Obsidian, as it always did.
 */
attachments?: Array<Attachment>, } | { "role": "assistant", text: string, toolCalls: Array<ToolCallRecord>, 
/**
 * What the model thought before it answered: shown folded, never
 * sent back as answer text.
 */
reasoning?: string, 
/**
 * Anthropic thinking blocks exactly as they came (with their
 * signatures), sent back unchanged with the turn's `tool_use`.
 */
thinking?: Array<JsonValue>, 
/**
 * On the answer that ends a turn: the tokens the server reported.
 */
usage?: AnswerUsage, 
/**
 * On the answer that ends a turn: the notes it was drawn from
 * (`sources`), shown under it as links.
 */
sources?: Array<Source>, } | { "role": "tool", callId: string, tool: string, content: string, isError: boolean, result: ToolResult, table: Table | null, } | { "role": "notice", text: string, };

/**
 * A tool call the model asked for.
 */
export type ToolCallRecord = { id: string, name: string, 
/**
 * The arguments exactly as the model sent them (JSON text, maybe invalid).
 */
arguments: string, 
/**
 * The model wrote the call as text (`agent::text_calls`) instead of
 * calling the tool: a change it asks for always waits for a card.
 */
asText?: boolean, };

/**
 * A note or an image the user attached to a message: its path, and the
 * text selected in it when there was a selection. An image is a vault file
 * of an image type (`images::mime_of`), or one pasted into the chat:
 * `pasted`, and `path` its file name in the plugin's image folder.
 */
export type Attachment = { path: string, selection?: string, pasted?: boolean, };

/**
 * One source under an answer (`sources` finds them; here because the
 * stored answer holds them).
 */
export type Source = { 
/**
 * The note's path (or, for a note read by name, the name as asked).
 */
path: string, 
/**
 * The heading cited or found (its last level), empty for the whole note.
 */
heading?: string, 
/**
 * The link text Obsidian opens: `path#heading` without `.md`.
 */
link: string, };

/**
 * A hit with its passage, as a reader sees it.
 */
export type Passage = { path: string, heading: string, 
/**
 * The passage, at most the budget in characters (plus the `…` marks).
 */
text: string, 
/**
 * 1-based line of the note where the passage starts.
 */
line: number, matched: Array<string>, score: number, also: Array<string>, 
/**
 * The text given was not the text indexed (the note changed since):
 * the passage is cut from the section at the same place in the new
 * text, and the note should be indexed again.
 */
changed: boolean, 
/**
 * Search by meaning found it (alone, or with its words).
 */
byMeaning: boolean, };

export type Table = { 
/**
 * Column names, when the output has them.
 */
headers: Array<string> | null, rows: Array<Array<string>>, 
/**
 * Rows left out beyond `MAX_ROWS`.
 */
moreRows: number, };

/**
 * Tokens in (read by the model) and out (written by it), as the server
 * reported them.
 */
export type Usage = { inputTokens: number, outputTokens: number, };

/**
 * One answer's tokens (all the model rounds of its turn), and how full the
 * context window was in its last round.
 */
export type AnswerUsage = { inputTokens: number, outputTokens: number, 
/**
 * Tokens in and out of the last round: what the window held.
 */
contextTokens: number, contextWindow: number, };

/**
 * What the chat view is told while a turn runs.
 */
export type ChatEvent = { "type": "userMessage", text: string, attachments: Array<Attachment> | null, } | { "type": "modelRound", round: number, } | { "type": "textDelta", text: string, } | { "type": "assistantMessage", text: string, } | { "type": "reasoningDelta", text: string, } | { "type": "usage", usage: AnswerUsage, chat: Usage, } | { "type": "toolStarted", callId: string, tool: string, displayName: string, arguments: string, } | { "type": "toolFinished", callId: string, tool: string, displayName: string, result: ToolResult, table: Table | null, } | { "type": "confirmationNeeded", callId: string, card: ConfirmationCard, } | { "type": "planProposed", callId: string, plan: ChatPlan, } | { "type": "planAnswered", plan: ChatPlan, } | { "type": "planChangesNeeded", card: PlanChangesCard, } | { "type": "sources", sources: Array<Source>, } | { "type": "notice", text: string, } | { "type": "compacted", compaction: Compaction, } | { "type": "retrying", text: string, } | { "type": "roundLimit", text: string, } | { "type": "error", code: string, message: string, 
/**
 * Whether the banner offers Retry (the turn can run again as it is).
 */
retryable: boolean, 
/**
 * The address the message names, for the view to wrap at its `/`
 * (never inside a word); `None`: the message names none.
 */
address?: string, 
/**
 * The buttons beside the message, in this order.
 */
wayOut: Array<WayOut>, } | { "type": "turnEnded", end: TurnEnd, };

/**
 * A plan in a conversation.
 */
export type ChatPlan = { id: string, 
/**
 * The model's one line about the plan as a whole.
 */
summary: string, 
/**
 * Numbered from 1 on the card; as approved once it is.
 */
steps: Array<PlanStep>, state: PlanState, 
/**
 * Approved to be carried out with every change on one card
 * (`plan_changes`) instead of each behind its own as the mode says.
 */
together?: boolean, 
/**
 * The changes held for that card so far.
 */
held?: Array<HeldChange>, };

export type PlanState = "proposed" | "approved" | "rejected" | "done";

/**
 * A change held for the plan's card: the model's call and its confirmation.
 */
export type HeldChange = { callId: string, confirmationId: string, };

/**
 * The one card of a plan's held changes, each as its own card shows it.
 */
export type PlanChangesCard = { id: string, 
/**
 * Binds Approve to exactly these changes, each at its own hash.
 */
argvHash: string, 
/**
 * The plan's one line.
 */
summary: string, changes: Array<HeldCard>, };

export type HeldCard = { 
/**
 * The tool call whose block shows the outcome (and its Undo).
 */
callId: string, card: ConfirmationCard, };

/**
 * One numbered step of a plan: which note, what happens to it.
 */
export type PlanStep = { 
/**
 * The note's path from the vault root.
 */
note: string, action: PlanAction, 
/**
 * What changes, in words the user reads on the card.
 */
what: string, 
/**
 * Where a moved or renamed note goes (its new path).
 */
to?: string, };

/**
 * What a step does to its note, in the words the plan card shows.
 */
export type PlanAction = "create" | "edit" | "append" | "prepend" | "move" | "rename" | "delete";

/**
 * The user's answer on a plan card's step: keep step `index` (of the
 * proposed plan), with its text as the user left it. A step not listed is removed.
 */
export type KeptStep = { index: number, what: string, };

/**
 * How a turn ended.
 */
export type TurnEnd = "done" | "awaitingConfirmation" | "roundLimit" | "stopped" | "failed";

/**
 * A button beside an error: what the user can do about it from the chat.
 */
export type WayOut = "retry" | "profileSettings" | "switchProfile";

/**
 * What the settings tab shows about the CLI.
 */
export type CliStatus = { discovery: Discovery, 
/**
 * The first line `obsidian version` printed, when it could run.
 */
version: string | null, 
/**
 * Why the version could not be read.
 */
versionError: string | null, };

/**
 * One connection the plugin made or was refused.
 */
export type ConnectionEntry = { atMs: number, 
/**
 * `host:port` as the address names it.
 */
destination: string, 
/**
 * The address connected to, when Local only checked one.
 */
address: string | null, 
/**
 * What it was for ("chat answer", "model list" …).
 */
purpose: string, 
/**
 * Refused before a socket was opened (Local only).
 */
refused: boolean, 
/**
 * The refusal's or the failure's reason; empty when it connected.
 */
detail: string, };

/**
 * The index's state, for the status bar and the tests.
 */
export type SearchStatus = { phase: SearchPhase, 
/**
 * Notes read so far in this build, of `total`.
 */
read: number, total: number, 
/**
 * Notes the index holds.
 */
notes: number, 
/**
 * Notes that could not be read (gone, or over [`NOTE_READ_LIMIT`]).
 */
unread: number, 
/**
 * The status bar's line (empty when there is nothing to say).
 */
label: string, };

/**
 * What the palette's search found, or why it could not search.
 */
export type UserSearch = { passages: Array<Passage>, 
/**
 * Why nothing was searched (a query of only punctuation or stop
 * words), for the user; none when the search ran.
 */
unanswered: string | null, };

/**
 * Where the index stands.
 */
export type SearchPhase = "idle" | "building" | "ready";

/**
 * A change Obsidian reported (`app.vault.on`).
 */
export type SearchVaultEvent = { "kind": "create", path: string, } | { "kind": "modify", path: string, } | { "kind": "delete", path: string, } | { "kind": "rename", path: string, oldPath: string, };

/**
 * What the settings and the status bar show.
 */
export type EmbeddingStatus = { phase: EmbeddingPhase, 
/**
 * Sections embedded in this run, of `total`.
 */
done: number, total: number, 
/**
 * Distinct sections of the notes, and those with a vector.
 */
sections: number, embedded: number, 
/**
 * What embedding the rest would send.
 */
pendingSections: number, pendingChars: number, pendingNotes: number, 
/**
 * False until an index build recorded the notes' sections.
 */
counted: boolean, model: string, host: string, 
/**
 * The model at its address, as a consent names it (`consented`).
 */
server: string, 
/**
 * The server is not on this computer or its private network.
 */
remote: boolean, 
/**
 * A remote server the user has not agreed to send the notes to.
 */
needsConsent: boolean, error: string, 
/**
 * One line for the status bar and the settings.
 */
label: string, };

/**
 * Where embedding stands.
 */
export type EmbeddingPhase = "off" | "idle" | "embedding" | "stopped" | "failed";

/**
 * The result of a discovery run.
 */
export type Discovery = { binary: string | null, candidates: Array<DiscoveryCandidate>, 
/**
 * What is wrong with the path the user set, when it was not used
 * (said first, before any list of places: it is the user's own doing).
 */
settingProblem?: string, };

/**
 * One place we looked, and what we found there.
 */
export type DiscoveryCandidate = { path: string, source: CandidateSource, verdict: Verdict, };

/**
 * Where a candidate path came from, in the order they are tried.
 */
export type CandidateSource = "settingsOverride" | "envObsidianCliBinary" | "envObsidianCliPath" | "runningApp" | "systemPath" | "knownLocation";

export type Verdict = "found" | "missing" | "notExecutable" | "needsShell" | "notAbsolute" | "skipped";

/**
 * One HTTP exchange, as the shim's listener received it.
 */
export type McpExchange = { 
/**
 * The shim's number for this exchange (`mcp_abandon` when the client leaves).
 */
exchange: number, method: string, path: string, 
/**
 * Header names in lower case.
 */
headers: { [key in string]?: string }, 
/**
 * Empty when only the headers have arrived (`mcp_admit`).
 */
body: string, 
/**
 * The listener stopped reading a body over the limit.
 */
bodyTooLarge: boolean, 
/**
 * The port the listener is bound to.
 */
port: number, };

/**
 * What to send back. When the core sent notifications during the call, the
 * shim has already answered with an event stream; `body` is then its last
 * event (none when empty).
 */
export type McpReply = { status: number, headers: Array<[string, string]>, body: string, };

/**
 * One MCP call, as the activity log keeps it.
 */
export type McpActivityEntry = { timeMs: number, client: string, clientVersion: string, 
/**
 * The tool, or `resources/read`.
 */
tool: string, 
/**
 * The argv the CLI ran, cut to `MAX_ARGV_CHARS` (the last element
 * then says how much there was).
 */
argv: Array<string>, 
/**
 * `ok`, a stable error code, or `cancelled`.
 */
code: string, durationMs: number, };

/**
 * What the stored log held, checked.
 */
export type McpActivityRead = { entries: Array<McpActivityEntry>, 
/**
 * Entries were cut or dropped: the file should be written again.
 */
changed: boolean, 
/**
 * Why nothing could be read, for the console; the log starts empty.
 */
problem: string | null, };

export type McpListenerLimits = { maxBodyBytes: number, maxConnections: number, headersTimeoutMs: number, requestTimeoutMs: number, checkIntervalMs: number, drainMs: number, 
/**
 * The answer to a connection over `max_connections`.
 */
busy: McpReply, };

/**
 * One client's set-up.
 */
export type McpClientSetup = { 
/**
 * The client and where the text goes, as the settings tab names it.
 */
name: string, format: SetupFormat, text: string, 
/**
 * What else the user must do or know; empty when nothing.
 */
note: string, };

/**
 * How a set-up is read.
 */
export type SetupFormat = "shell" | "json" | "toml";

/**
 * The question: the agent's kind of action (ACP `ToolKind`), its title, its options.
 */
export type AgentQuestion = { kind: string, title: string, options: Array<AgentOption>, };

/**
 * One answer the agent offers (`allow_once`, `allow_always`, `reject_once`,
 * `reject_always`).
 */
export type AgentOption = { optionId: string, kind: string, };

/**
 * Ask the user, answer with one of the agent's options, or refuse where
 * it offered none to refuse with.
 */
export type AgentAnswer = { "decision": "ask" } | { "decision": "answer", optionId: string, because: AnsweredBecause, } | { "decision": "cancel", because: AnsweredBecause, };

/**
 * Why an answer was given without the user.
 */
export type AnsweredBecause = "readOnly" | "always";

/**
 * A request that is not served: the error the agent gets, and what the
 * chat tells the user.
 */
export type AgentRefusal = { code: string, 
/**
 * For the agent (a JSON-RPC error message).
 */
message: string, 
/**
 * For the user (a notice in the chat).
 */
notice: string, };

/**
 * Which write a whole-file write becomes, given what the note holds now
 * (its exact text; `None` when there is no such note).
 */
export type AgentFileWrite = { "kind": "call", tool: string, arguments: Record<string, unknown>, title: string, path: string, } | { "kind": "unchanged" } | { "kind": "refused", code: string, message: string, };

/**
 * One program to run, without a shell. Built only by `crate::cli`.
 */
export type ProcessRequest = { program: string, args: Array<string>, cwd: string | null, 
/**
 * After this the host sends SIGTERM, then SIGKILL after `kill_grace_ms`.
 */
timeoutMs: number, killGraceMs: number, 
/**
 * The host keeps at most this many bytes of each stream but counts them all.
 */
maxOutputBytes: number, 
/**
 * How to stop it with its descendants at the timeout or on Stop.
 */
tree: ProcessTree, 
/**
 * The door's tag for the call that started it (`Host::cancel_processes`).
 */
tag?: string, };

/**
 * How the host stops a process and everything it started.
 */
export type ProcessTree = "processGroup" | "taskkill";

/**
 * What the host knows about a path without opening it.
 */
export type FileStatus = { exists: boolean, isFile: boolean, executable: boolean, };

/**
 * One HTTP request to a model server.
 */
export type HttpRequestSpec = { method: string, url: string, headers: Array<[string, string]>, body: string | null, 
/**
 * Until the response starts (the stream itself may run longer).
 */
timeoutMs: number, 
/**
 * Once the headers came: the longest wait for the first piece of the
 * body (0: `idle_timeout_ms`). A model on a CPU sends its headers, then
 * nothing while it reads the prompt.
 */
firstByteTimeoutMs: number, 
/**
 * Once it has started: the longest silence between two pieces of the
 * body before the host ends it with `STALLED` (0: no limit).
 */
idleTimeoutMs: number, 
/**
 * The address to connect to instead of looking the host up again: the
 * one Local only checked (`policy::network`). The URL's host still
 * names the server (TLS, the Host header).
 */
connectAddress?: string | null, 
/**
 * The host the core read from `url` (`Engine::http_open` sets it): the
 * host refuses to connect when its own reading of `url` names another.
 */
expectedHost: string, 
/**
 * The chat's conversation the request answers, so Stop in one chat
 * view ends its own request and no other (`abortHttp(tag)`).
 */
tag?: string, };

/**
 * Why an HTTP exchange failed before or while the body arrived.
 */
export type HttpFailure = { 
/**
 * `ECONNREFUSED`, `ENOTFOUND`, `ETIMEDOUT`, `ABORTED` (the user pressed
 * Stop), `STALLED` (nothing arrived for `idle_timeout_ms`), `CERT_…`, or
 * another system code.
 */
code: string, message: string, };

/**
 * Facts about the running app that do not change while the plugin is loaded.
 */
export type PlatformFacts = { os: Os | null, 
/**
 * `Platform.isDesktopApp`: the CLI tools exist only there.
 */
isDesktopApp: boolean, 
/**
 * Electron's `process.resourcesPath` (the app's `resources` folder).
 */
resourcesPath: string | null, 
/**
 * Electron's `process.execPath` (the app's own executable).
 */
execPath: string | null, 
/**
 * Absolute path of the open vault's folder (working directory for the CLI).
 */
vaultPath: string | null, 
/**
 * The user's home folder.
 */
homeDir: string | null, 
/**
 * The vault's configuration folder, `app.vault.configDir` (usually
 * `.obsidian`): never the target of a change.
 */
configDir: string | null, 
/**
 * Obsidian's app language, as `getLanguage()` gives it (`en`, `de`,
 * `zh-TW` …): the language a note is read in unless its text or its
 * `lang` property plainly says another.
 */
appLanguage: string | null, };

/**
 * The operating system the plugin runs on, as Obsidian's `Platform` reports it.
 */
export type Os = "macos" | "windows" | "linux" | "other";
