// The JS side's own shapes at the wasm boundary: what the host functions
// hand back (built in JS, read by hand in src/wasm/host.rs), the callbacks the
// core calls, the profile edits (parsed by hand in src/settings/profiles.rs),
// a message the core makes (ChatStart) and a turn's result. The wasm class's generated signatures
// (build/wasm/vault_agent.d.ts) name them, so this file imports nothing of it.

import type {
	Conversation,
	FileStatus,
	HttpFailure,
	HttpRequestSpec,
	McpActivityEntry,
	OutsideCall,
	OutsideConnect,
	OutsideListing,
	OutsideOutcome,
	ProcessRequest,
	PromptValues,
	SelectionRequest,
	TurnEnd,
} from "../generated/core-types";

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
	/** The address the socket connected to (the connection log shows it). */
	remoteAddress?: string;
	/** A redirect's `Location`: the core follows it, checking each hop. */
	location?: string;
}

export type HttpChunk = { chunk: Uint8Array } | { done: true } | { error: HttpFailure };

/** The effects the core may ask for (implemented in host/). */
export interface HostFunctions {
	runProcess(request: ProcessRequest): Promise<ProcessOutcome>;
	/** Stops the processes of the MCP call `tag` (it was cancelled). */
	cancelProcesses(tag: string): void;
	fileStatus(path: string): Promise<FileStatus>;
	env(name: string): string | undefined;
	now(): number;
	httpOpen(request: HttpRequestSpec): Promise<HttpOpened | { error: HttpFailure }>;
	/** Every address a host name has (Node's `dns.lookup`, all of them), for Local only. */
	resolveHost(host: string): Promise<{ addresses: string[] } | { error: HttpFailure }>;
	httpRead(id: number): Promise<HttpChunk>;
	httpClose(id: number): void;
	/** Resolves after `ms` milliseconds (a retry's backoff); 0 gives the app one turn and no more. */
	sleep(ms: number): Promise<void>;
	secret(name: string): string | undefined;
	/** A web page's HTML as Markdown (Obsidian's `htmlToMarkdown`), its furniture left out. */
	pageText(html: string, url: string): string;
	/** `new RegExp(pattern).test(text)` (an Excluded files filter); `undefined` when the pattern is not valid. */
	patternMatches(pattern: string, text: string): boolean | undefined;
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
	/** An image for a model request in base64 (a vault file, or a pasted one by name), scaled to the limits where a canvas exists. */
	imageData(path: string, pasted: boolean, maxSide: number, maxBytes: number): Promise<{ mime: string; base64: string } | { error: { code: string; message: string } }>;
	/** Pages `first` to `last` of a PDF as text, and how many it has, read with Obsidian's PDF.js (`loadPdfJs`); `too_large` past `maxBytes`, `encrypted`, `damaged`. */
	pdfText(path: string, maxBytes: number, first: number, last: number): Promise<{ total: number; pages: string[] } | { error: { code: string; message: string } }>;
	/** Makes a file holding exactly these bytes (`app.vault.createBinary`); fails if one is there. */
	vaultCreate(path: string, bytes: Uint8Array): Promise<{ status: "created" } | { error: { code: string; message: string } }>;
	/** The real path of an absolute path, every symbolic link followed (`fs.realpath`); `not_found` when nothing is there. */
	realPath(path: string): Promise<{ path: string } | { error: { code: string; message: string } }>;
	/** Every symbolic link under the vault's folder (path from the vault's top, with `/`) and its real target; none is followed to look inside. */
	vaultLinks(vault: string): Promise<{ links: { path: string; real?: string }[] }>;
	/** Settings → Files and links → Automatically update internal links, if it can be read. */
	linksUpdateOnMove(): boolean | undefined;
	/** The user's local date and time, time zone and open note, for the system prompt. */
	localContext(): { dateTime: string; date: string; timeZone: string; openNote?: string };
	/** Shows the note in the current tab, at `heading` if given (`app.workspace.openLinkText`). */
	openNote(path: string, heading: string | undefined): Promise<{ status: "opened" } | { error: { code: string; message: string } }>;
	/** Stores the undo journal; `dropped` oldest entries were let go. Never rejects. */
	saveJournal(json: string, dropped: number): Promise<void>;
	/** Search by meaning's stored vectors (`embeddings.bin`), or null. Never rejects. */
	loadVectors(): Promise<Uint8Array | null>;
	/** Stores them, replacing what was there. Never rejects. */
	saveVectors(bytes: Uint8Array): Promise<void>;
	/** Connects one of the user's MCP servers (a stdio one starts on first use) and lists its tools. Never rejects. */
	outsideList(server: OutsideConnect): Promise<OutsideListing>;
	/** Calls a tool of such a server; Stop cancels it. Never rejects. */
	outsideCall(call: OutsideCall): Promise<OutsideOutcome>;
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
	| { action: "provider"; id: string; preset: string }
	| { action: "duplicate"; id: string }
	| { action: "rename"; id: string; name: string }
	| { action: "delete"; id: string }
	| { action: "select"; id: string };

/** A message the core makes (chatSend's last argument, read by hand in src/doors/chat/mod.rs): a saved prompt filled in, or a rewrite of the editor's selection. */
export type ChatStart =
	| { prompt: string; values: PromptValues; scheduled?: string; late?: boolean }
	// A rewrite of the selection: by the instruction, or by the saved prompt at `prompt`.
	| { rewrite: SelectionRequest; instruction: string; prompt?: string; values?: PromptValues };

/** One scheduled run due now (src/doors/chat/schedule.rs); `slot` is local `YYYY-MM-DD HH:MM`. */
export interface ScheduledRun {
	path: string;
	name: string;
	slot: string;
	late: boolean;
}

/** `scheduledPrompts`'s answer: the runs to start, and the last slots to keep (saved first, when `changed`). */
export interface DuePrompts {
	runs: ScheduledRun[];
	lastSlots: Record<string, string>;
	changed: boolean;
}

/** A user's change to the coding agents; the core decides its result (src/settings/agents.rs). */
export type CodingAgentEdit =
	| { action: "select"; value: string | null }
	| { action: "change"; id: string; command?: string; args?: string[]; envSecrets?: Record<string, string> };

export interface TurnResult {
	conversation: Conversation;
	end: TurnEnd;
}

/** A tool as MCP lists it (`mcpTools`). */
export interface McpTool {
	name: string;
	title: string;
	description: string;
}
