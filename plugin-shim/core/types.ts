// Types of the values that cross the wasm boundary. Those the core makes or
// reads with serde are generated from the Rust types (src/ts_types.rs →
// generated/); the ones written here are the JS side's own shapes: what the
// host functions hand back (built in JS, read by hand in src/wasm/), the
// profile edits (parsed by hand in src/settings/profiles.rs) and the wasm
// class's method types. The public API types live in vault-agent-api.d.ts.

import type { ToolDescriptor, ToolResult } from "../vault-agent-api";
import type {
	AgentAnswer,
	AgentFileWrite,
	AgentQuestion,
	AgentRefusal,
	Attachment,
	ChatEvent,
	ChatMessage,
	ChatSettings,
	CliStatus,
	ConfirmationCard,
	ConnectionReport,
	Conversation,
	FileStatus,
	HttpFailure,
	HttpRequestSpec,
	JournalEntryView,
	LoadedConversation,
	McpActivityEntry,
	McpActivityRead,
	McpClientSetup,
	McpExchange,
	McpListenerLimits,
	McpReply,
	ProcessRequest,
	ProcessTree,
	ProfileSummary,
	ProviderPreset,
	TurnChanges,
	TurnEnd,
	VaultAgentSettings,
} from "../generated/core-types";

export type * from "../generated/core-types";

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

export interface HttpOpened {
	id: number;
	status: number;
	contentType?: string;
	retryAfter?: string;
}

export type HttpChunk = { chunk: Uint8Array } | { done: true } | { error: HttpFailure };

/** The ranked search's index (`src/engine/search.rs`). */
export interface SearchStatus {
	phase: "idle" | "building" | "ready";
	read: number;
	total: number;
	notes: number;
	unread: number;
	/** The status bar's line; empty when there is nothing to say. */
	label: string;
}

export type SearchVaultEvent = { kind: "create" | "modify" | "delete"; path: string } | { kind: "rename"; path: string; oldPath: string };

/** The effects the core may ask for (implemented in host/). */
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
	/** Every Markdown note (`app.vault.getMarkdownFiles()`) and Settings → Files and links → Excluded files. */
	vaultNotes(): { paths: string[]; excluded: string[] };
	vaultProcess(
		path: string,
		expected: string,
		replacement: string,
	): Promise<{ status: "written" } | { status: "changed"; now: string } | { error: { code: string; message: string } }>;
	/** Moves the note to the trash the user chose (`app.fileManager.trashFile`). */
	vaultTrash(path: string): Promise<{ status: "trashed" } | { error: { code: string; message: string } }>;
	/** Moves or renames a note (`app.fileManager.renameFile`, which updates links as the user's setting says). */
	vaultMove(from: string, to: string): Promise<{ status: "moved" } | { error: { code: string; message: string } }>;
	/** A file's exact bytes (`app.vault.readBinary`); `too_large` past `maxBytes`. */
	vaultReadBytes(path: string, maxBytes: number): Promise<{ bytes: Uint8Array } | { error: { code: string; message: string } }>;
	/** Makes a file holding exactly these bytes (`app.vault.createBinary`); fails if one is there. */
	vaultCreate(path: string, bytes: Uint8Array): Promise<{ status: "created" } | { error: { code: string; message: string } }>;
	/** The real path of an absolute path, every symbolic link followed (`fs.realpath`); `not_found` when nothing is there. */
	realPath(path: string): Promise<{ path: string } | { error: { code: string; message: string } }>;
	/** Settings → Files and links → Automatically update internal links, if it can be read. */
	linksUpdateOnMove(): boolean | undefined;
	/** The user's local date and time, time zone and open note, for the system prompt. */
	localContext(): { dateTime: string; timeZone: string; openNote?: string };
	/** Shows the note in the current tab, at `heading` if given (`app.workspace.openLinkText`). */
	openNote(path: string, heading: string | undefined): Promise<{ status: "opened" } | { error: { code: string; message: string } }>;
	/** Stores the undo journal; `dropped` oldest entries were let go. Never rejects. */
	saveJournal(json: string, dropped: number): Promise<void>;
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

/** A user's action on the profiles; the core decides its result. */
export type ProfileEdit =
	| { action: "add"; preset: string }
	| { action: "duplicate"; id: string }
	| { action: "rename"; id: string; name: string }
	| { action: "delete"; id: string }
	| { action: "select"; id: string };

export interface TurnResult {
	conversation: Conversation;
	end: TurnEnd;
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
	/** A conversation file's text through the checked loader; throws with the reason when it holds no chat at all. */
	loadConversation(text: string, fileId: string): LoadedConversation;
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
	/** Builds the ranked search's index from the vault's notes; `onProgress` after each batch. */
	searchBuild(onProgress: (status: SearchStatus) => void): Promise<SearchStatus>;
	/** A vault event for the index; resolves once the index holds it. */
	searchEvent(event: SearchVaultEvent): Promise<void>;
	searchStatus(): SearchStatus;
	/** The headers alone decide first: null lets the listener read the body and call `mcpHandle`. */
	mcpAdmit(head: McpExchange): McpReply | null;
	mcpHandle(exchange: McpExchange, events: McpEventFunctions): Promise<McpReply>;
	/** What the listener enforces: body size, timeouts, connections. */
	mcpListenerLimits(): McpListenerLimits;
	/** The stored activity log's text, checked and cut. */
	mcpActivityRead(text: string): McpActivityRead;
	/** Each MCP client's set-up for the server on `port`, with `token` (or `<token>`). */
	mcpClientSetups(port: number, token: string | null): McpClientSetup[];
	/** The client closed the exchange before its answer. */
	mcpAbandon(exchange: number): void;
	/** An ACP agent's MCP token for one session, under `mode` (the chat's), its cards named `name`; false if refused. */
	openAgentDoor(token: string, name: string, mode: string): boolean;
	/** The agent session ended: its token stops working. */
	closeAgentDoor(token: string): void;
	/** A coding agent's own permission question on door `token`: answered at once (Read only, an earlier "always") or asked. */
	agentQuestion(token: string, question: AgentQuestion): AgentAnswer;
	/** The user's pick for that question; "always" picks last as long as the door. */
	agentQuestionAnswered(token: string, question: AgentQuestion, optionId: string): void;
	/** A turn of the agent on door `token` starts (`open`) or ends. */
	agentTurn(token: string, open: boolean): void;
	/** Whether the agent's request (ACP method name) naming `subject` may be served now: null, or why not. */
	agentRequest(token: string, method: string, subject: string): AgentRefusal | null;
	/** An agent's `fs/read_text_file` of a vault path: the whole note, the lines asked for, or why not. */
	agentReadFile(path: string, mode: string, line: number | undefined, limit: number | undefined): Promise<ToolResult>;
	/** How an agent's process is ended with what it started. */
	agentProcessTree(): ProcessTree;
	/** The vault path a coding agent's absolute path names; throws with why when it names none. */
	agentFilePath(path: string): string;
	/** Which write an agent's `fs/write_text_file` becomes (`mode`: the chat's, as stored). */
	agentFileWrite(path: string, content: string, requester: string, mode: string): Promise<AgentFileWrite>;
	/** The tools as MCP lists them (names, titles, descriptions, schemas). */
	mcpTools(): Array<{ name: string; title: string; description: string }>;
	/** `callTool` for the plugin's CLI commands: `mode` narrows the chat's mode. */
	callToolThrough(toolId: unknown, args: unknown, requester: string, mode: string | null): Promise<ToolResult>;
	/** A headless turn goes on after its card was answered on the plugin's card. */
	chatContinue(conversation: Conversation, confirmationId: string, onEvent: (event: ChatEvent) => void): Promise<TurnResult>;
}
