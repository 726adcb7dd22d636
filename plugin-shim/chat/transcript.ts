// The chat's messages: what the user said, answers (streamed as Markdown,
// then rendered once more whole), tool blocks with their results, cards,
// notices and the undo bar after an answer. Both turns (turn-model.ts,
// turn-agent.ts) draw here through the same events; the core decided what
// they say.

import { type App, type Component, Keymap, MarkdownRenderer, setIcon } from "obsidian";
import { type CardActions, commandLine, renderConfirmationCard } from "../cards/confirmation-card";
import type { UndoController } from "../cards/undo";
import type { Attachment, ChatEvent, ChatMessage, ConfirmationCard, Table, Usage } from "../core/types";
import type { ToolResult } from "../vault-agent-api";
import { reasoningBlock, usageLine } from "./answer-extras";
import { renderTable, renderToolText } from "./big-output";
import { StreamRenderer } from "./stream-render";
import { renderUserMessage } from "./user-message";


export interface TranscriptHost {
	app: App;
	/** Owns the Markdown renders and the link handlers (the view), and is the hover preview's parent. */
	owner: Component;
	/** The view type Obsidian's page preview names as the source of a hovered link. */
	hoverSource: string;
	/** A tool's name as the user reads it. */
	displayName(toolId: string): string;
	undo(): UndoController | null;
	/** The banner above the messages; `retry` offers the failed turn again. */
	showBanner(message: string, retry?: boolean): void;
	/** How a card of our model's turn is answered (in the chat, which goes on with the turn). */
	modelCard(callId: string, card: ConfirmationCard): CardActions;
	/** Where an attached image's thumbnail loads from, or null. */
	imageSrc?(attachment: Attachment): string | null;
}

export class Transcript {
	/** The assistant message being streamed, and its Markdown renders. */
	private streamEl: HTMLElement | null = null;
	private stream: StreamRenderer | null = null;
	/** The folded reasoning of the model round being streamed. */
	private reasoningEl: HTMLElement | null = null;
	private readonly toolBlocks = new Map<string, HTMLElement>();
	/** Answers that changed the vault since their "Undo this answer's changes" was drawn. */
	private readonly changedTurns = new Set<string>();

	constructor(
		readonly el: HTMLElement,
		private readonly host: TranscriptHost,
	) {
		this.followLinks();
	}

	/** [[Links]] open their note on click and show Obsidian's page preview on hover. */
	private followLinks(): void {
		// [[Links]] in answers and tool blocks open the note (Ctrl/Cmd: a new
		// tab) and show Obsidian's hover preview, as in a note.
		// Caught before the link itself sees it, so a note opens exactly once.
		this.host.owner.registerDomEvent(
			this.el,
			"click",
			(event: MouseEvent) => {
				const link = (event.target as HTMLElement | null)?.closest("a.internal-link");
				const target = link?.getAttribute("data-href") ?? link?.getAttribute("href");
				if (!link || !target) return;
				event.preventDefault();
				event.stopPropagation();
				void this.host.app.workspace.openLinkText(target, "", Keymap.isModEvent(event));
			},
			{ capture: true },
		);
		this.host.owner.registerDomEvent(this.el, "mouseover", (event: MouseEvent) => {
			const link = (event.target as HTMLElement | null)?.closest("a.internal-link");
			const target = link?.getAttribute("data-href") ?? link?.getAttribute("href");
			if (!link || !target) return;
			this.host.app.workspace.trigger("hover-link", { event, source: this.host.hoverSource, hoverParent: this.host.owner, targetEl: link, linktext: target });
		});
	}

	/** Nothing shown (a new chat). */
	clear(): void {
		this.el.empty();
		this.toolBlocks.clear();
	}

	/** Nothing shown and no answer waiting for its undo bar (a chat drawn from its start). */
	reset(): void {
		this.clear();
		this.changedTurns.clear();
	}

	dispose(): void {
		this.stream?.dispose();
	}

	removeEmptyState(): void {
		this.el.querySelector(".vault-agent-empty-state")?.remove();
	}

	/** A stored message other than the user's (`user` draws those, with or without their edit button). */
	async message(message: Exclude<ChatMessage, { role: "user" }>, chatUsage: Usage | null = null): Promise<void> {
		switch (message.role) {
			case "assistant":
				if (message.reasoning) reasoningBlock(this.el, null, message.reasoning);
				if (message.text.trim()) {
					const el = this.el.createDiv({ cls: "vault-agent-msg is-assistant" });
					await this.renderMarkdown(el, message.text);
					this.addCopyButton(el, message.text);
				}
				if (message.usage) usageLine(this.el, message.usage, chatUsage);
				for (const call of message.toolCalls) this.toolBlock(call.id, this.host.displayName(call.name), call.arguments);
				break;
			case "tool":
				this.finishToolBlock(message.callId, message.result, message.table);
				break;
			case "notice":
				this.notice(message.text);
				break;
		}
	}

	/** A user's message, numbered in order so its edit button knows which one it is; `edit` null: no edit button. */
	user(text: string, attachments: Attachment[] | undefined, edit: ((index: number, text: string) => void) | null): HTMLElement {
		const index = this.el.querySelectorAll(".vault-agent-msg.is-user").length;
		return renderUserMessage(this.el, text, attachments, edit ? (edited) => edit(index, edited) : null, (a) => this.host.imageSrc?.(a) ?? null);
	}

	/** What a turn reports, as it happens. */
	event(event: ChatEvent): void {
		switch (event.type) {
			case "modelRound":
				this.removeEmptyState();
				// A spinner until the first token arrives.
				this.streamEl = this.el.createDiv({ cls: "vault-agent-msg is-assistant is-streaming is-waiting" });
				this.reasoningEl = null;
				break;
			case "reasoningDelta":
				this.reasoningEl ??= reasoningBlock(this.el, this.streamEl);
				this.reasoningEl.appendText(event.text);
				break;
			case "usage":
				usageLine(this.el, event.usage, event.chat);
				break;
			case "textDelta":
				// After a notice mid-round (a retry, a shortened context) the bubble is drawn anew.
				this.streamEl ??= this.el.createDiv({ cls: "vault-agent-msg is-assistant is-streaming" });
				this.streamEl.removeClass("is-waiting");
				// Markdown while it streams, rendered at most every 120 ms (stream-render.ts).
				(this.stream ??= new StreamRenderer(this.host.app, this.host.owner, this.streamEl, () => this.scrollToEnd())).push(event.text);
				break;
			case "assistantMessage":
				this.stream?.dispose();
				this.stream = null;
				if (this.streamEl) {
					const el = this.streamEl;
					this.streamEl = null;
					el.removeClass("is-streaming", "is-waiting");
					if (event.text.trim()) {
						const text = event.text;
						// The final render replaces the streamed one in one step.
						const fresh = createDiv();
						void this.renderMarkdown(fresh, text).then(() => {
							el.replaceChildren(...Array.from(fresh.childNodes));
							this.addCopyButton(el, text);
						});
					} else el.remove();
				}
				break;
			case "toolStarted":
				this.toolBlock(event.callId, event.displayName, event.arguments);
				break;
			case "toolFinished":
				this.finishToolBlock(event.callId, event.result, event.table);
				// The core says which errors the user (not the model) has to act on.
				if (event.result.error?.userFix) this.host.showBanner(event.result.error.message);
				break;
			case "confirmationNeeded":
				this.card(event.callId, event.card);
				break;
			case "notice":
				this.streamEl?.removeClass("is-streaming", "is-waiting");
				// Stopped before the first word: no empty bubble stays.
				if (this.streamEl && !this.stream?.written.trim()) this.streamEl.remove();
				this.flushText();
				this.streamEl = null;
				this.notice(event.text);
				break;
			case "error":
				this.stream?.dispose();
				this.stream = null;
				this.streamEl?.remove();
				this.streamEl = null;
				this.host.showBanner(event.message, event.retryable);
				break;
			case "turnEnded":
			case "userMessage": // drawn by the turn, with its edit button
				break;
		}
		this.scrollToEnd();
	}

	/** What has streamed is drawn now (Stop, the end of a turn); no render follows it. */
	flushText(): void {
		const stream = this.stream;
		this.stream = null;
		void stream?.flush();
	}

	/** A card or question before any text: the empty bubble goes, so the answer comes after it. */
	setAsideWaitingBubble(): void {
		if (!this.streamEl || this.stream?.written.trim()) return;
		this.streamEl.remove();
		this.streamEl = null;
	}

	toolBlock(callId: string, displayName: string, args: string): HTMLElement {
		const block = this.el.createEl("details", { cls: "vault-agent-tool-call is-running" });
		block.dataset.callId = callId;
		const summary = block.createEl("summary");
		const icon = summary.createSpan({ cls: "vault-agent-tool-icon" });
		setIcon(icon, "terminal-square");
		summary.createSpan({ cls: "vault-agent-tool-name", text: displayName });
		summary.createSpan({ cls: "vault-agent-tool-status", text: "Running" });
		summary.createSpan({ cls: "vault-agent-tool-duration" });
		block.createEl("code", { cls: "vault-agent-tool-command", text: describeArguments(args) });
		block.createDiv({ cls: "vault-agent-tool-result" });
		this.toolBlocks.set(callId, block);
		return block;
	}

	finishToolBlock(callId: string, result: ToolResult, table: Table | null): void {
		const block = this.toolBlocks.get(callId) ?? this.toolBlock(callId, "Tool", "");
		const status = result.pending ? "Waiting for approval" : result.ok ? "Done" : `Error: ${result.error?.code ?? "failed"}`;
		block.removeClass("is-running");
		block.toggleClass("is-error", !result.ok && !result.pending);
		block.toggleClass("is-pending", Boolean(result.pending));
		block.querySelector(".vault-agent-tool-status")?.setText(status);
		block.querySelector(".vault-agent-tool-duration")?.setText(`${Math.round(result.durationMs)} ms`);
		if (result.argv) block.querySelector(".vault-agent-tool-command")?.setText(commandLine(result.argv));
		const body = block.querySelector(".vault-agent-tool-result");
		if (!(body instanceof HTMLElement)) return;
		body.empty();
		// Links in the output open the note, as in answers: a path must name a note there is.
		const exists = (linktext: string) => this.host.app.metadataCache.getFirstLinkpathDest(linktext, "") !== null;
		// A table shows the output; the text it came from stays one click away.
		const textHolder = table ? body.createEl("details", { cls: "vault-agent-tool-raw" }) : body;
		if (table) {
			renderTable(body, table, exists);
			body.appendChild(textHolder);
			textHolder.createEl("summary", { text: "Text as the CLI printed it" });
		}
		renderToolText(textHolder, result.text, exists);
		// A change that ran: its diff folded, and Undo (cards/undo.ts).
		this.host.undo()?.decorateToolBlock(block, result);
		if (result.journal?.turn) this.changedTurns.add(result.journal.turn);
	}

	/** "Undo this answer's changes" after each answer that changed the vault. */
	drawTurnUndo(): void {
		for (const turn of this.changedTurns) this.host.undo()?.renderTurnBar(this.el, turn);
		this.changedTurns.clear();
	}

	refreshUndo(): void {
		this.host.undo()?.refresh(this.el);
	}

	/** A confirmation card among the messages, answered through `actions` (by default our model's turn goes on with the answer). */
	card(callId: string, card: ConfirmationCard, actions: CardActions = this.host.modelCard(callId, card)): void {
		const holder = this.el.createDiv({ cls: "vault-agent-inline-card" });
		renderConfirmationCard(holder, card, actions);
	}

	notice(text: string): void {
		this.el.createDiv({ cls: "vault-agent-notice", text });
	}

	scrollToEnd(): void {
		this.el.scrollTop = this.el.scrollHeight;
	}

	private async renderMarkdown(el: HTMLElement, markdown: string): Promise<void> {
		await MarkdownRenderer.render(this.host.app, markdown, el, "", this.host.owner);
	}

	/** The copy button under an answer: its Markdown, as written. */
	private addCopyButton(el: HTMLElement, markdown: string): void {
		const button = el.createEl("button", { cls: "vault-agent-copy clickable-icon", attr: { "aria-label": "Copy the answer" } });
		setIcon(button, "copy");
		button.addEventListener("click", () => {
			void navigator.clipboard.writeText(markdown).then(() => setIcon(button, "check"));
		});
	}
}

/** The model's arguments, short: `command key=value …`. */
function describeArguments(raw: string): string {
	try {
		const args = JSON.parse(raw) as Record<string, unknown>;
		return Object.entries(args)
			.map(([key, value]) => (key === "command" ? String(value) : value === true ? key : `${key}=${JSON.stringify(value)}`))
			.join(" ");
	} catch {
		return raw;
	}
}
