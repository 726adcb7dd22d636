// Public API of the Vault Agent plugin. Other plugins may copy this file with
// generated/api-types.ts (the result and descriptor types, generated from the
// plugin's Rust types by src/ts_types.rs):
//
//   const api = (app as any).plugins.getPlugin("vault-agent")?.api as VaultAgentApi | undefined;
//   const result = await api?.callTool("obsidianDailyNote", { command: "daily:read" });
//
// The API exists on desktop only, from Vault Agent's `onload` on (read it in
// your own `onload` if Vault Agent loaded first, or in your `onLayoutReady`).
// Its core starts when Obsidian's layout is ready; a method called before
// that waits for the start (and starts it at once), so every method answers
// with a promise. Every call goes through the same registry, policy and
// settings as the in-app agent; nothing here can change settings.

import type { ToolDescriptor, ToolResult } from "./generated/api-types";

export type {
	ChangePreview,
	CommandAccess,
	CommandDescriptor,
	DiffHunk,
	DiffLine,
	ErrorInfo,
	ImageData,
	JournalRef,
	JsonValue,
	LineKind,
	NoteDiff,
	PendingConfirmation,
	Segment,
	ToolDescriptor,
	ToolResult,
} from "./generated/api-types";

/** Stable error codes (see docs/errors.md). */
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
	| "selection_changed"
	| "too_large_for_cli"
	| "write_not_verified"
	| "vault_failed"
	| "note_too_large"
	| "outside_turn"
	| "not_utf8"
	| "path_outside_vault"
	| "read_through_link"
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
	| "web_failed"
	| (string & {});

/**
 * Arguments are `{ command, ...parameters }` with the CLI's own parameter
 * names; flags are booleans. `command` may be omitted on single-command tools.
 */
export type ToolArguments = { command?: string } & Record<string, string | number | boolean | null | undefined>;

export interface VaultAgentApi {
	/** API version; bumped on breaking changes (2: `listTools` answers with a promise). */
	readonly version: 2;
	/** The tools, once the core has started; rejects when Vault Agent was unloaded or could not start. */
	listTools(): Promise<ToolDescriptor[]>;
	callTool(id: string, args?: ToolArguments): Promise<ToolResult>;
	/**
	 * Resolves when the user answers the confirmation `id` (or it expires):
	 * the write's result, or an error result (`confirmation_rejected`,
	 * `confirmation_expired`, `stale`). There is no way to approve from code.
	 */
	waitForConfirmation(id: string): Promise<ToolResult>;
}
