// What a coding agent's session reports to the chat beyond the events of
// our own model's turn, and what it learned of the agent at its start.

import type { ChatEvent } from "../../core/types";

/** What the chat shows beyond its own agent's events. */
export type AgentEvent =
	| ChatEvent
	| { type: "plan"; entries: Array<{ content: string; status: string }> }
	| { type: "commands"; commands: Array<{ name: string; description: string }> }
	| { type: "modes"; current: string; available: Array<{ id: string; name: string }> }
	/** The agent's session settings (its model among them), newest. */
	| { type: "config"; options: AgentConfigOption[] }
	| { type: "permission"; ask: PermissionAsk }
	| { type: "crashed"; stderr: string }
	/** How full the agent's context is, as it reports it (tokens). */
	| { type: "agentUsage"; used: number; size: number };

/**
 * One of the agent's session settings (ACP `configOptions`): a choice such
 * as its model or reasoning level, shown in the chat's header. On/off
 * settings are shown as a choice of "On" and "Off".
 */
export interface AgentConfigOption {
	id: string;
	name: string;
	description: string;
	/** `model`, `mode`, `thought_level`, or another the agent names. */
	category: string;
	current: string;
	choices: Array<{ value: string; name: string }>;
	boolean: boolean;
}

/** The agent asks before one of its own actions; the user picks one of its options. */
export interface PermissionAsk {
	id: number;
	title: string;
	kind: string;
	options: Array<{ optionId: string; name: string; kind: string }>;
	answer(optionId: string | null): void;
}

export interface AgentFacts {
	name: string;
	version: string;
	protocolVersion: number;
	loadSession: boolean;
	mcpHttp: boolean;
	promptImage: boolean;
}

/** An image the chat sends with a prompt: the chat's own shape (no ACP SDK type
 * outside this folder), which is an ACP image content block as it stands. */
export interface AgentImage {
	type: "image";
	mimeType: string;
	/** Base64, no data: prefix. */
	data: string;
}
