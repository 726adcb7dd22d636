// What a coding agent asks of Vault Agent during a turn: its own permission
// questions (answered by the core or by the user, with the agent's options)
// and its file requests, which become our tools' reads and writes (scopes,
// cards, the stale check, the journal). The core decides; this relays.

import * as acp from "@agentclientprotocol/sdk";
import type { ConfirmationCoordinator } from "../../cards/confirmations";
import type { AgentQuestion, CoreHandle } from "../../core/types";
import type { AgentEvent, PermissionAsk } from "./events";
import { refused } from "./wire";

/** What the requests need of their session. */
export interface RequestsHost {
	core: CoreHandle;
	confirmations: ConfirmationCoordinator;
	/** The agent's name, on its cards and notices. */
	name: string;
	/** The session's MCP token (its door), once open. */
	token(): string | null;
	/** The chat's permission mode now. */
	mode(): string;
	/** To the chat (only while a turn runs). */
	emit(event: AgentEvent): void;
	/** Null when a request may be served now; else the agent's error (the user hears why). */
	outsideTurn(method: string, subject: string): acp.RequestError | null;
}

export class AgentRequests {
	/** Questions the agent is waiting on. */
	readonly asks = new Map<number, PermissionAsk>();
	private nextAsk = 1;

	constructor(private readonly host: RequestsHost) {}

	/** Every open question goes unanswered (Stop, the end of the turn, the end of the session). */
	cancelAsks(): void {
		for (const ask of this.asks.values()) ask.answer(null);
	}

	/**
	 * The agent's own question, with its options. The core decides whether
	 * the user is asked (Read only rejects what may change something; an
	 * "always" answer from this session is given again).
	 */
	askPermission(params: acp.RequestPermissionRequest): Promise<acp.RequestPermissionResponse> {
		const call = params.toolCall;
		const title = call.title ?? "The agent asks to go on";
		// Between turns nobody could see the question: the agent hears why not.
		const outside = this.host.outsideTurn("session/request_permission", title);
		if (outside) return Promise.reject(outside);
		const question: AgentQuestion = { kind: call.kind ?? "other", title, options: params.options.map((o) => ({ optionId: o.optionId, kind: o.kind })) };
		const core = this.host.core;
		const token = this.host.token() ?? "";
		// The door follows the chat's mode as it is now, not at the last Send.
		const open = this.host.token();
		if (open) core.openAgentDoor(open, this.host.name, this.host.mode());
		const decided = core.agentQuestion(token, question);
		if (decided.decision !== "ask" && decided.because === "readOnly") this.host.emit({ type: "notice", text: `${this.host.name} asked: ${title}. Refused: the chat is Read only.` });
		if (decided.decision === "answer") return Promise.resolve({ outcome: { outcome: "selected", optionId: decided.optionId } });
		// Refused, and the agent offered no option that says no.
		if (decided.decision === "cancel") return Promise.resolve({ outcome: { outcome: "cancelled" } });
		return new Promise((resolve) => {
			const id = this.nextAsk++;
			const ask: PermissionAsk = {
				id,
				title,
				kind: question.kind,
				options: params.options.map((o) => ({ optionId: o.optionId, name: o.name, kind: o.kind })),
				answer: (optionId) => {
					if (!this.asks.delete(id)) return;
					const option = params.options.find((o) => o.optionId === optionId);
					if (!option) {
						resolve({ outcome: { outcome: "cancelled" } });
						return;
					}
					core.agentQuestionAnswered(token, question, option.optionId);
					resolve({ outcome: { outcome: "selected", optionId: option.optionId } });
				},
			};
			this.asks.set(id, ask);
			this.host.emit({ type: "permission", ask });
		});
	}

	/** An absolute path inside the vault, as the vault-relative path our tools take (the core's rule). */
	private vaultRelative(path: string): string {
		try {
			return this.host.core.agentFilePath(path);
		} catch (error) {
			throw acp.RequestError.invalidParams({ path }, error instanceof Error ? error.message : String(error));
		}
	}

	/**
	 * `fs/read_text_file` passes our notes tool's gate (the read scope and
	 * hidden folders apply) and returns the whole note, never one the output
	 * cap shortened: a note too large is refused (the core decides).
	 */
	async readFile(params: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse> {
		const outside = this.host.outsideTurn("fs/read_text_file", params.path);
		if (outside) throw outside;
		const path = this.vaultRelative(params.path);
		const result = await this.host.core.agentReadFile(path, this.host.mode(), params.line ?? undefined, params.limit ?? undefined);
		if (!result.ok) throw refused(result);
		return { content: result.text };
	}

	/**
	 * `fs/write_text_file` is our own edit (the whole text, with the stale
	 * check) or create, as the core decides: a card in the ask modes, then
	 * the journal and Undo.
	 */
	async writeFile(params: acp.WriteTextFileRequest): Promise<acp.WriteTextFileResponse> {
		const outside = this.host.outsideTurn("fs/write_text_file", params.path);
		if (outside) throw outside;
		const core = this.host.core;
		const plan = await core.agentFileWrite(params.path, params.content, this.host.name, this.host.mode());
		if (plan.kind === "unchanged") return {};
		if (plan.kind === "refused") throw acp.RequestError.internalError({ code: plan.code }, plan.message);
		const { tool, arguments: args, title: displayName, path } = plan;
		const callId = `acp-write-${Date.now().toString(36)}`;
		this.host.emit({ type: "toolStarted", callId, tool, displayName, arguments: JSON.stringify({ command: args.command, path }) });
		// Through the agent's door: the change is journalled under its answer (or one of its own between turns).
		let result = await core.agentCallTool(this.host.token() ?? "", tool, args, this.host.name, this.host.mode());
		if (result.pending) {
			const card = core.confirmationCard(result.pending.id);
			if (card) this.host.emit({ type: "confirmationNeeded", callId, card });
			// The note changed before the click: the new card (the diff as it is now) goes to the chat too.
			result = await this.host.confirmations.wait(result.pending.id, (fresh) => this.host.emit({ type: "confirmationNeeded", callId, card: fresh }));
		}
		this.host.emit({ type: "toolFinished", callId, tool, displayName, result, table: null });
		if (!result.ok) throw refused(result);
		return {};
	}
}
