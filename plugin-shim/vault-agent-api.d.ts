// Public API of the Vault Agent plugin. Other plugins may copy this file:
//
//   const api = (app as any).plugins.getPlugin("vault-agent")?.api as VaultAgentApi | undefined;
//   const result = await api?.callTool("obsidianDailyNote", { command: "daily:read" });
//
// The API exists on desktop only, once Vault Agent has started: when Obsidian's
// layout is ready (read it in your own `onLayoutReady` callback or later), or
// earlier if its chat or a command was used first. Every call goes through the same registry,
// policy and settings as the in-app agent; nothing here can change settings.

/** Whether a command reads, writes at once, or waits for the user's click. */
export type CommandAccess = "read" | "directWrite" | "confirmedWrite";

export interface CommandDescriptor {
	name: string;
	access: CommandAccess;
	summary: string;
}

export interface ToolDescriptor {
	/** Stable id, e.g. "obsidianDailyNote". */
	id: string;
	/** Human name, ending in "(CLI)". */
	displayName: string;
	description: string;
	/** When to use this tool and which tool to use instead. */
	guidance: string;
	/** JSON Schema (draft 2020-12) of the arguments object. */
	inputSchema: Record<string, unknown>;
	/** The command allowlist. */
	commands: string[];
	commandDetails: CommandDescriptor[];
	/** A typical read-only call of this tool. */
	example: ToolArguments;
	/** False when the user turned the tool off; calls are then refused. */
	enabled: boolean;
}

/** Stable error codes (see README, "Errors"). */
export type ToolErrorCode =
	| "cli_not_found"
	| "app_not_running"
	| "vault_not_found"
	| "cli_error"
	| "timeout"
	| "killed"
	| "exit_status"
	| "empty_output"
	| "unknown_tool"
	| "tool_disabled"
	| "invalid_arguments"
	| "command_not_allowed"
	| "note_exists"
	| "note_not_found"
	| "find_not_found"
	| "find_ambiguous"
	| "heading_not_found"
	| "heading_ambiguous"
	| "nothing_to_change"
	| "too_large_for_cli"
	| "write_not_verified"
	| "vault_failed"
	| "config_folder"
	| "out_of_scope"
	| "output_flood"
	| "internal_error"
	| "unsupported_platform"
	| "writes_disabled"
	| "missing_target"
	| "confirmation_not_found"
	| "confirmation_used"
	| "confirmation_expired"
	| "confirmation_rejected"
	| "argv_mismatch"
	| "stale"
	| "undo_conflict"
	| "already_undone"
	| "not_undoable"
	| "undo_target_missing"
	| "undo_not_found"
	| "nothing_to_undo"
	| (string & {});

/** What a write that waits for the user's click will change. */
export interface ChangePreview {
	/** What changes, in words. */
	target: string;
	before: string;
	/** For a note edit: the change as a unified diff (the text the model reads). */
	after: string;
	/** For changes to a note's text: the line diff the card shows. */
	diff?: NoteDiff;
	/** Something to know before approving (a note with the same or a very similar title exists); never a refusal. */
	warning?: string;
}

/** A line diff of a note, with the changed words inside changed lines. */
export interface NoteDiff {
	added: number;
	removed: number;
	hunks: Array<{
		/** `@@ -a,b +c,d @@` */
		header: string;
		lines: Array<{
			kind: "context" | "added" | "removed";
			oldLine?: number | null;
			newLine?: number | null;
			segments: Array<{ text: string; changed: boolean }>;
		}>;
	}>;
}

/** A write waiting for the user's Approve / Reject. */
export interface PendingConfirmation {
	id: string;
	summary: string;
	preview: ChangePreview;
}

export interface ToolResult {
	ok: boolean;
	/** The CLI's output, or the error message (which says what to do). */
	text: string;
	error?: { code: ToolErrorCode; message: string };
	/** The CLI binary that ran. */
	program?: string;
	/** The exact arguments passed to execFile after the program. */
	argv?: string[];
	/** True when the output cap cut the text; the text ends with a notice. */
	truncated?: boolean;
	/** True for "No … found." answers and commands that print nothing. */
	empty?: boolean;
	/**
	 * Set when the call is a write that waits for the user's click in Obsidian
	 * (`ok` is false, nothing has changed yet). The user sees a confirmation
	 * card; `waitForConfirmation(id)` resolves with the final result.
	 */
	pending?: PendingConfirmation;
	/** What a change did to the note (or the value), as a line diff. */
	diff?: NoteDiff;
	/**
	 * The undo journal's entry of a change that ran. Only the user can undo
	 * it, in Obsidian; this API has no way to.
	 */
	journal?: JournalRef;
	/**
	 * How many entries of a vault-wide answer were left out because they lie
	 * outside the folders the user lets the agent read.
	 */
	withheld?: number;
	durationMs: number;
}

/** A change's entry in the plugin's undo journal. */
export interface JournalRef {
	entry: string;
	/** The chat answer it belongs to. */
	turn?: string;
	undoable: boolean;
	/** Why it cannot be undone. */
	reason?: string;
	/** On `undo_conflict`: the hash of what the note holds now ("Undo anyway" overrides exactly that). */
	conflictHash?: string;
}

/**
 * Arguments are `{ command, ...parameters }` with the CLI's own parameter
 * names; flags are booleans. `command` may be omitted on single-command tools.
 */
export type ToolArguments = { command?: string } & Record<string, string | number | boolean | null | undefined>;

export interface VaultAgentApi {
	/** API version; bumped on breaking changes. */
	readonly version: 1;
	listTools(): ToolDescriptor[];
	callTool(id: string, args?: ToolArguments): Promise<ToolResult>;
	/**
	 * Resolves when the user answers the confirmation `id` (or it expires):
	 * the write's result, or an error result (`confirmation_rejected`,
	 * `confirmation_expired`, `stale`). There is no way to approve from code.
	 */
	waitForConfirmation(id: string): Promise<ToolResult>;
}
