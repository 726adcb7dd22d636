// Our model's turn: the core's agent loop answers (chatSend, chatRetry,
// chatResolve after a card), streaming its events into the transcript. Its
// history can be rewound: edit and resend, Regenerate, Retry.

import type { CardActions } from "../cards/confirmation-card";
import type { Attachment, ChatEvent, ChatMessage, ChatPlan, ConfirmationCard, Conversation, PromptValues, SelectionRequest, TurnResult } from "../core/types";
import type { PlanActions } from "./plan-card";
import type { PlanChangesActions } from "./plan-changes-card";
import type { ToolResult } from "../vault-agent-api";
import type { ChatSurface, ChatTurn } from "./turn";
import type { RewriteHow } from "./editor-actions";

export class ModelTurn implements ChatTurn {
	readonly rewinds = true;
	readonly takesNotes = true;

	constructor(private readonly chat: ChatSurface) {}

	async send(text: string, attachments: Attachment[] | undefined): Promise<void> {
		const core = this.chat.ctx.core;
		if (!core || !this.chat.conversation) return;
		await this.run((onEvent) => core.chatSend(this.chat.conversation!, text, onEvent, attachments, undefined));
	}

	/** A saved prompt, filled in by the core: the message it made is drawn when the core says it. */
	async runPrompt(path: string, values: PromptValues, attachments: Attachment[] | undefined): Promise<void> {
		const core = this.chat.ctx.core;
		const conversation = this.chat.conversation;
		if (core && conversation) await this.run((onEvent) => core.chatSend(conversation, "", onEvent, attachments, { prompt: path, values }), (event) => this.drawUser(event));
	}

	/** The editor's selection rewritten (by the instruction, or by a saved prompt): the answer comes back as the edit's card. */
	async rewrite(request: SelectionRequest, how: RewriteHow): Promise<void> {
		const core = this.chat.ctx.core;
		const conversation = this.chat.conversation;
		const start = "prompt" in how ? { rewrite: request, instruction: "", prompt: how.prompt, values: how.values } : { rewrite: request, instruction: how.instruction };
		if (core && conversation) await this.run((onEvent) => core.chatSend(conversation, "", onEvent, undefined, start), (event) => this.drawUser(event));
	}

	private drawUser(event: ChatEvent): void {
		if (event.type !== "userMessage") return;
		this.chat.transcript.removeEmptyState();
		this.chat.renderUser(event.text, event.attachments ?? undefined);
	}

	/** Stop ends this chat's turn only: while other chats answer, only this one's requests are aborted. */
	stop(): boolean {
		const id = this.chat.conversation?.id;
		const othersRun = this.chat.ctx.core?.chatStop(id) ?? false;
		this.chat.ctx.abortRequests(othersRun ? id : undefined);
		return true;
	}

	end(): void {
		// Nothing outlives a turn of the core's loop.
	}

	/** Edit and resend: the message and everything after it go; the edited text is sent in its place. */
	async editAndResend(index: number, text: string): Promise<void> {
		const chat = this.chat;
		const core = chat.ctx.core;
		if (!core || chat.running || !chat.conversation) return;
		let rewound: { conversation: Conversation; dropped: ChatMessage | null };
		try {
			rewound = core.rewindConversation(chat.conversation, index);
		} catch (error) {
			chat.showBanner(String(error instanceof Error ? error.message : error));
			return;
		}
		await chat.redraw(rewound.conversation);
		chat.transcript.removeEmptyState();
		const attachments = rewound.dropped?.role === "user" ? rewound.dropped.attachments : undefined;
		chat.renderUser(text, attachments);
		chat.transcript.scrollToEnd();
		await this.run((onEvent) => core.chatSend(rewound.conversation, text, onEvent, attachments, undefined));
	}

	/** Regenerate: the last answer goes and the last message is answered again. */
	async regenerate(): Promise<void> {
		const chat = this.chat;
		const core = chat.ctx.core;
		if (!core || chat.running || !chat.conversation) return;
		let conversation: Conversation;
		try {
			conversation = core.rewindConversation(chat.conversation, null).conversation;
		} catch (error) {
			chat.showBanner(String(error instanceof Error ? error.message : error));
			return;
		}
		await chat.redraw(conversation);
		await this.run((onEvent) => core.chatRetry(conversation, onEvent));
	}

	/** "Compact": the core summarises the turns before the last one (the transcript draws its divider); a failure is said and changes nothing. */
	async compact(): Promise<void> {
		const core = this.chat.ctx.core;
		const conversation = this.chat.conversation;
		if (core && conversation && !this.chat.running) await this.run((onEvent) => core.chatCompact(conversation, onEvent));
	}

	/** The banner's Retry: the failed turn again, without a new message. */
	async retry(): Promise<void> {
		const core = this.chat.ctx.core;
		if (!core || this.chat.running || !this.chat.conversation) return;
		await this.run((onEvent) => core.chatRetry(this.chat.conversation!, onEvent));
	}

	/** A card of this turn, answered in the chat: the turn goes on with the answer. */
	cardActions(callId: string, card: ConfirmationCard): CardActions {
		return {
			approve: () => this.answer(card, callId, true),
			approveForChat: () => this.answer(card, callId, true, true),
			approveChanges: (_card, changes) => this.answer(card, callId, true, false, changes),
			reject: () => {
				void this.answer(card, callId, false);
				return { ok: false, text: "Rejected.", durationMs: 0 };
			},
		};
	}

	/** A plan card of this turn: the answer (steps kept and edited, or no) goes to the core, and the turn goes on. */
	planActions(plan: ChatPlan): PlanActions {
		return {
			answer: (answer) => {
				const core = this.chat.ctx.core;
				const conversation = this.chat.conversation;
				if (core && conversation && !this.chat.running) void this.run((onEvent) => core.chatAnswerPlan(conversation, plan.id, answer, onEvent));
			},
		};
	}

	/** The card of a plan's held changes: one answer for all of them through chatResolve; the turn then ends. */
	planChangesActions(): PlanChangesActions {
		return {
			answer: async (card, approve) => {
				const core = this.chat.ctx.core;
				const conversation = this.chat.conversation;
				if (core && conversation && !this.chat.running) await this.run((onEvent) => core.chatResolve(conversation, card.id, approve, card.argvHash, onEvent));
			},
		};
	}

	/** The user answered an inline card; returns the tool's result for the card. */
	private async answer(card: ConfirmationCard, callId: string, approve: boolean, forChat = false, changes?: number[]): Promise<ToolResult> {
		const core = this.chat.ctx.core;
		const conversation = this.chat.conversation;
		if (!core || !conversation || this.chat.running) return notAnswered();
		let answered: ToolResult | null = null;
		await this.run(
			(onEvent) => core.chatResolve(conversation, card.id, approve, card.argvHash, onEvent, forChat, changes && Uint32Array.from(changes)),
			(event) => {
				if (event.type === "toolFinished" && event.callId === callId && !answered) answered = event.result;
			},
		);
		// Anyone waiting on this card through the public API hears the answer too.
		this.chat.ctx.confirmations?.settleFromCore(card.id);
		return answered ?? notAnswered();
	}

	private async run(start: (onEvent: (event: ChatEvent) => void) => Promise<TurnResult>, also?: (event: ChatEvent) => void): Promise<void> {
		const chat = this.chat;
		chat.setRunning(true);
		chat.banner.hide();
		chat.drawRegenerate();
		try {
			const result = await start((event) => {
				also?.(event);
				chat.transcript.event(event);
			});
			await chat.keep(result.conversation);
		} catch (error) {
			chat.showBanner(`Something went wrong: ${String(error)}`);
		} finally {
			chat.transcript.flushText();
			chat.transcript.drawTurnUndo();
			chat.setRunning(false);
			chat.drawRegenerate();
		}
	}
}

function notAnswered(): ToolResult {
	return { ok: false, text: "The chat is busy; try again when the answer has finished.", durationMs: 0 };
}
