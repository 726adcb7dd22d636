// Types of the values that cross the wasm boundary. They mirror the Rust
// types in src/host.rs and src/result.rs; the public API types live in
// vault-agent-api.d.ts.

import type { ChangePreview, ToolDescriptor, ToolResult } from "./vault-agent-api";

export interface ProcessRequest {
	program: string;
	args: string[];
	cwd: string | null;
	timeoutMs: number;
	killGraceMs: number;
	maxOutputBytes: number;
	/** How to stop it with its descendants; decided by the core from the OS. */
	tree?: "processGroup" | "taskkill";
	/** The MCP call that started it (`cancelProcesses`). */
	tag?: string;
}

export interface ProcessOutcome {
	spawnFailure?: { code: string; message: string } | null;
	exitCode?: number | null;
	signal?: string | null;
	timedOut?: boolean;
	outputOverflow?: boolean;
	stdout?: Uint8Array;
	stderr?: Uint8Array;
	stdoutTotalBytes?: number;
	stderrTotalBytes?: number;
}

export interface FileStatus {
	exists: boolean;
	isFile: boolean;
	executable: boolean;
}

export interface HttpRequestSpec {
	method: string;
	url: string;
	headers: Array<[string, string]>;
	body: string | null;
	timeoutMs: number;
	/** The longest silence between two pieces of the body (0: none); then `STALLED`. */
	idleTimeoutMs: number;
}

export interface HttpFailure {
	code: string;
	message: string;
}

export interface HttpOpened {
	id: number;
	status: number;
	contentType?: string;
	retryAfter?: string;
}

export type HttpChunk = { chunk: Uint8Array } | { done: true } | { error: HttpFailure };

/** The effects the core may ask for (implemented in node-host.ts). */
export interface HostFunctions {
	runProcess(request: ProcessRequest): Promise<ProcessOutcome>;
	/** Stops the processes of the MCP call `tag` (it was cancelled). */
	cancelProcesses(tag: string): void;
	fileStatus(path: string): Promise<FileStatus>;
	env(name: string): string | undefined;
	now(): number;
	httpOpen(request: HttpRequestSpec): Promise<HttpOpened | { error: HttpFailure }>;
	httpRead(id: number): Promise<HttpChunk>;
	httpClose(id: number): void;
	/** Resolves after `ms` milliseconds (a retry's backoff). */
	sleep(ms: number): Promise<void>;
	secret(name: string): string | undefined;
	vaultRead(path: string): Promise<{ content: string } | { error: { code: string; message: string } }>;
	/**
	 * Many notes at once through `app.vault.cachedRead` (the hygiene checks):
	 * one entry per path, in order, `null` for a note that cannot be read or is
	 * longer than `maxBytes`.
	 */
	vaultReadMany(paths: string[], maxBytes: number): Promise<Array<string | null>>;
	vaultProcess(
		path: string,
		expected: string,
		replacement: string,
	): Promise<{ status: "written" } | { status: "changed"; now: string } | { error: { code: string; message: string } }>;
	/** Moves the note to the trash the user chose (`app.fileManager.trashFile`). */
	vaultTrash(path: string): Promise<{ status: "trashed" } | { error: { code: string; message: string } }>;
	/** Moves or renames a note (`app.fileManager.renameFile`, which updates links as the user's setting says). */
	vaultMove(from: string, to: string): Promise<{ status: "moved" } | { error: { code: string; message: string } }>;
	/** Makes a note with this text (`app.vault.create`); fails if one is there. */
	vaultCreate(path: string, content: string): Promise<{ status: "created" } | { error: { code: string; message: string } }>;
	/** Settings → Files and links → Automatically update internal links, if it can be read. */
	linksUpdateOnMove(): boolean | undefined;
	/** The user's local date and time, time zone and open note, for the system prompt. */
	localContext(): { dateTime: string; timeZone: string; openNote?: string };
	/** Shows the note in the current tab, at `heading` if given (`app.workspace.openLinkText`). */
	openNote(path: string, heading: string | undefined): Promise<{ status: "opened" } | { error: { code: string; message: string } }>;
	/** Stores the undo journal; `dropped` oldest entries were let go. Never rejects. */
	saveJournal(json: string, dropped: number): Promise<void>;
}

export interface PlatformFacts {
	os: "macos" | "windows" | "linux" | "other";
	isDesktopApp: boolean;
	resourcesPath: string | null;
	execPath: string | null;
	vaultPath: string | null;
	homeDir: string | null;
	/** `app.vault.configDir`: never the target of a change. */
	configDir: string;
}

export type ProviderKind = "openAi" | "anthropic";

export interface ProviderSettings {
	baseUrl: string;
	model: string;
	/** Name of the secret in Obsidian's secret storage that holds the API key. */
	apiKeySecret: string;
	/** Tokens the model reads at once; 0: what the server is known to offer. */
	contextWindow: number;
}

/** A saved model setup (src/settings.rs `ModelProfile`), stored flat. */
export interface ModelProfile extends ProviderSettings {
	id: string;
	name: string;
	provider: ProviderKind;
}

export interface ChatSettings {
	/** The `id` of the profile in use; the core keeps it naming one. */
	activeProfile: string;
	/** Never empty. */
	profiles: ModelProfile[];
	maxToolRounds: number;
	toolResultCapChars: number;
	modelTimeoutMs: number;
	/** Anthropic extended thinking, and its budget in tokens (1024 or more). */
	anthropicThinking: boolean;
	anthropicThinkingBudget: number;
}

/** What the agent may change; only the user sets it (src/settings.rs). */
export type PermissionMode = "readOnly" | "askEveryChange" | "askBeforeEdits";

export interface VaultAgentSettings {
	cliPath: string;
	vaultName: string;
	timeoutMs: number;
	outputCapBytes: number;
	/** CLI processes at once; more calls wait in order. */
	maxProcesses: number;
	permissionMode: PermissionMode;
	confirmationExpiryMs: number;
	/** How long a read's answer may be reused while nothing changed; 0: never. */
	readCacheSeconds: number;
	/** Folders the agent may read; empty is the whole vault. */
	readFolders: string[];
	/** Folders the agent may change; empty is every folder it may read. */
	writeFolders: string[];
	tools: Record<string, boolean>;
	chat: ChatSettings;
	/** The MCP server for agents outside Obsidian. */
	mcp: McpSettings;
}

export interface McpSettings {
	enabled: boolean;
	port: number;
	/** Its own mode, Read only until the user picks another. */
	permissionMode: PermissionMode;
}

/** One HTTP exchange of the MCP endpoint, for the core (src/mcp/mod.rs). */
export interface McpExchange {
	exchange: number;
	method: string;
	path: string;
	/** Lower-case names. */
	headers: Record<string, string>;
	body: string;
	bodyTooLarge: boolean;
	port: number;
}

export interface McpReply {
	status: number;
	headers: Array<[string, string]>;
	body: string;
}

/** What the core asks of the listener while an exchange runs. */
export interface McpEventFunctions {
	notify(message: string): void;
	presentCard(id: string): void;
	withdrawCard(id: string): void;
	activity(entry: McpActivityEntry): void;
	/** A random id, asked for only when the exchange starts a session. */
	freshId(): string;
}

/** One line of the MCP activity log. */
export interface McpActivityEntry {
	timeMs: number;
	client: string;
	clientVersion: string;
	tool: string;
	argv: string[];
	code: string;
	durationMs: number;
}

export interface ProviderPreset {
	id: string;
	label: string;
	kind: ProviderKind;
	baseUrl: string;
	model: string;
	needsKey: boolean;
}

/** What the switchers show of a profile (src/settings/profiles.rs). */
export interface ProfileSummary {
	id: string;
	name: string;
	provider: ProviderKind;
	/** The preset whose server it uses, if any. */
	preset: string | null;
	/** `model · host`. */
	detail: string;
	active: boolean;
}

/** A user's action on the profiles; the core decides its result. */
export type ProfileEdit =
	| { action: "add"; preset: string }
	| { action: "duplicate"; id: string }
	| { action: "rename"; id: string; name: string }
	| { action: "delete"; id: string }
	| { action: "select"; id: string };

export interface ConnectionReport {
	ok: boolean;
	models: string[];
	message: string;
}

export interface ToolCallRecord {
	id: string;
	name: string;
	arguments: string;
}

export interface Table {
	headers: string[] | null;
	rows: string[][];
	moreRows: number;
}

/** A note attached to a message in the chat (a chip): its path, and the selected text. */
export interface Attachment {
	path: string;
	selection?: string;
}

export type ChatMessage =
	| { role: "user"; text: string; attachments?: Attachment[] }
	| { role: "assistant"; text: string; toolCalls: ToolCallRecord[]; reasoning?: string; usage?: AnswerUsage }
	| { role: "tool"; callId: string; tool: string; content: string; isError: boolean; result: ToolResult; table: Table | null }
	| { role: "notice"; text: string };

/** Tokens as the server reported them. */
export interface Usage {
	inputTokens: number;
	outputTokens: number;
}

/** One answer's tokens (all its model rounds) and how full the window was in its last round. */
export interface AnswerUsage extends Usage {
	contextTokens: number;
	contextWindow: number;
}

export interface Conversation {
	id: string;
	title: string;
	createdMs: number;
	updatedMs: number;
	messages: ChatMessage[];
	paused: { confirmationId: string; call: ToolCallRecord; remaining: ToolCallRecord[]; rounds: number } | null;
	/** A headless turn's door (`vault-agent:ask`): its name and the strictest mode it may use. */
	door?: { name: string; modeCap: PermissionMode };
	/** The user renamed it: the title no longer follows the first message. */
	renamed?: boolean;
	/** Times it was rewound (Regenerate, Edit and resend); part of later turn ids. */
	rewinds?: number;
	usage?: Usage;
	/** A coding agent's chat (ACP): its profile and session, for resuming with `session/load`. */
	agent?: { profile: string; name: string; sessionId: string | null };
}

export type TurnEnd = "done" | "awaitingConfirmation" | "roundLimit" | "stopped" | "failed";

export type ChatEvent =
	| { type: "modelRound"; round: number }
	| { type: "textDelta"; text: string }
	| { type: "assistantMessage"; text: string }
	| { type: "reasoningDelta"; text: string }
	| { type: "usage"; usage: AnswerUsage; chat: Usage }
	| { type: "toolStarted"; callId: string; tool: string; displayName: string; arguments: string }
	| { type: "toolFinished"; callId: string; tool: string; displayName: string; result: ToolResult; table: Table | null }
	| { type: "confirmationNeeded"; callId: string; card: ConfirmationCard }
	| { type: "notice"; text: string }
	| { type: "error"; code: string; message: string }
	| { type: "turnEnded"; end: TurnEnd };

export interface TurnResult {
	conversation: Conversation;
	end: TurnEnd;
}

export interface DiscoveryCandidate {
	path: string;
	source: string;
	verdict: "found" | "missing" | "notExecutable" | "needsShell" | "notAbsolute" | "skipped";
}

export interface CliStatus {
	discovery: { binary: string | null; candidates: DiscoveryCandidate[] };
	version: string | null;
	versionError: string | null;
}

export type ConfirmationState = "proposed" | "approved" | "running" | "done" | "failed" | "rejected" | "expired" | "stale";

/** What the plugin's own confirmation card shows (src/confirm.rs). */
export interface ConfirmationCard {
	id: string;
	toolId: string;
	command: string;
	summary: string;
	preview: ChangePreview;
	argv: string[];
	argvHash: string;
	expiresMs: number;
	state: ConfirmationState;
	/** `cli`: the argv runs; `vault`: Obsidian writes the note in one step, only if unchanged. */
	via: "cli" | "vault" | "files";
	/** An agent outside Obsidian that asked (MCP, the plugin's CLI commands). */
	requester?: string;
}

/** What the UI shows of an undo journal entry (src/journal.rs). */
export interface JournalEntryView {
	id: string;
	summary: string;
	target: string;
	time: number;
	turn?: string;
	undoable: boolean;
	/** Why it cannot be undone (the button's tooltip). */
	reason?: string;
	undone: boolean;
}

/** A chat answer's changes in the journal. */
export interface TurnChanges {
	total: number;
	/** Not undone yet and undoable. */
	undoable: number;
	undone: number;
}

/** The wasm class, typed (wasm-bindgen types its values as `any`). */
export interface CoreHandle {
	/** Gives the core's memory back (plugin unload); nothing may call it after. */
	free(): void;
	startupRepairs(): string[];
	listTools(): ToolDescriptor[];
	/** Any values: the core refuses what is not bounded plain data, as a result. */
	callTool(toolId: unknown, args: unknown): Promise<ToolResult>;
	settings(): VaultAgentSettings;
	setSettings(stored: unknown): { settings: VaultAgentSettings; repairs: string[] };
	cliStatus(): Promise<CliStatus>;
	approve(id: string, argvHash: string): Promise<ToolResult>;
	reject(id: string): ToolResult;
	confirmationCard(id: string): ConfirmationCard | null;
	openConfirmations(): ConfirmationCard[];
	expiredResult(id: string): ToolResult | null;
	confirmationOutcome(id: string): ToolResult | null;
	newConversation(): Conversation;
	/** `attachments`: the chat's chips; without them the prompt names the open note. */
	chatSend(conversation: Conversation, text: string, onEvent: (event: ChatEvent) => void, attachments?: Attachment[]): Promise<TurnResult>;
	/** Regenerate (`userIndex` null) or edit the user message with that number: throws when there is nothing to rewind to. */
	rewindConversation(conversation: Conversation, userIndex: number | null): { conversation: Conversation; dropped: ChatMessage | null };
	/** An empty title gives the title back to the first message. */
	renameConversation(conversation: Conversation, title: string): Conversation;
	/** Runs a failed turn again from the conversation as it is (the banner's Retry). */
	chatRetry(conversation: Conversation, onEvent: (event: ChatEvent) => void): Promise<TurnResult>;
	chatResolve(
		conversation: Conversation,
		confirmationId: string,
		approve: boolean,
		argvHash: string,
		onEvent: (event: ChatEvent) => void,
	): Promise<TurnResult>;
	chatStop(): void;
	testConnection(): Promise<ConnectionReport>;
	providerPresets(): ProviderPreset[];
	modelProfiles(): ProfileSummary[];
	/** The chat settings after `edit`, not yet applied; throws with the reason it cannot be done. */
	editModelProfiles(edit: ProfileEdit): ChatSettings;
	/** Loads what journal.json held (null when none); returns lines for the log. */
	loadJournal(stored: unknown): string[];
	/** Only the plugin's own buttons: `anyway` is the conflict's hash after "Undo anyway". */
	undo(id: string, anyway: string | null): Promise<ToolResult>;
	undoLast(): Promise<ToolResult>;
	undoTurn(turn: string): Promise<ToolResult>;
	journalEntry(id: string): JournalEntryView | null;
	turnChanges(turn: string): TurnChanges;
	lastTurn(): string | undefined;
	/** Obsidian reported a change: no kept read answer is trusted any more. */
	forgetReads(): void;
	/** [answers kept now, answers given from the cache so far]. */
	readCacheStats(): Float64Array | number[];
	mcpHandle(exchange: McpExchange, events: McpEventFunctions): Promise<McpReply>;
	/** The client closed the exchange before its answer. */
	mcpAbandon(exchange: number): void;
	/** An ACP agent's MCP token for one session, under `mode` (the chat's), its cards named `name`; false if refused. */
	openAgentDoor(token: string, name: string, mode: string): boolean;
	/** The agent session ended: its token stops working. */
	closeAgentDoor(token: string): void;
	/** The tools as MCP lists them (names, titles, descriptions, schemas). */
	mcpTools(): Array<{ name: string; title: string; description: string }>;
	/** `callTool` for the plugin's CLI commands: `mode` narrows the chat's mode. */
	callToolThrough(toolId: unknown, args: unknown, requester: string, mode: string | null): Promise<ToolResult>;
	/** A headless turn goes on after its card was answered on the plugin's card. */
	chatContinue(conversation: Conversation, confirmationId: string, onEvent: (event: ChatEvent) => void): Promise<TurnResult>;
}
