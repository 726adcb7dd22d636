// The chat's messages: what the user said, answers (streamed as Markdown,
// then rendered once more whole), tool blocks with their results, cards,
// notices and the undo bar after an answer. Both turns (turn-model.ts,
// turn-agent.ts) draw here through the same events; the core decided what
// they say.
// Over 400 lines, on purpose: one class holds the answer being streamed, its
// open tool blocks and cards, which each event of a turn updates together;
// what renders a part on its own (answers' extras, big output, the stream,
// a user's message) is already apart.

import { type App, type Component, Keymap, MarkdownRenderer, setIcon, setTooltip } from "obsidian";
import { type CardActions, commandWords, headline, renderConfirmationCard } from "../cards/confirmation-card";
import type { InPlaceReviews } from "../cards/in-place";
import type { UndoController } from "../cards/undo";
import type { Attachment, ChatEvent, ChatMessage, ChatPlan, ConfirmationCard, Table, Usage } from "../core/types";
import { type PlanActions, renderPlanCard } from "./plan-card";
import { type PlanChangesActions, renderPlanChangesCard } from "./plan-changes-card";
import type { ToolResult } from "../vault-agent-api";
import { reasoningBlock, sourcesList, usageLine } from "./answer-extras";
import { renderTable, renderToolImages, renderToolText } from "./big-output";
import { answerIndex, type ForkRole, forkButton, placeDivider } from "./compaction";
import { StreamRenderer } from "./stream-render";
import { renderUserMessage } from "./user-message";


/** A turn's error event, as the view draws it. */
export type TurnError = Extract<ChatEvent, { type: "error" }>;

export interface TranscriptHost {
	app: App;
	/** Owns the Markdown renders and the link handlers (the view), and is the hover preview's parent. */
	owner: Component;
	/** The view type Obsidian's page preview names as the source of a hovered link. */
	hoverSource: string;
	/** A tool's name as the user reads it. */
	displayName(toolId: string): string;
	undo(): UndoController | null;
	/** The editor's reviews of note edits (a card's "Review in editor"). */
	inPlace?(): InPlaceReviews | null;
	/** An error at the end of the messages (beside what failed); `retry` offers the failed turn again. */
	showBanner(message: string, retry?: boolean): void;
	/** Whether the core lists `text` as the chat's status (the header's panel says it, not the transcript). */
	isStatus?(text: string): boolean;
	/** The chat's status changed: the header shows it again. */
	statusChanged?(): void;
	/** A turn's error, with the buttons the core chose (Retry, the profile's settings, Switch profile). */
	showError(error: TurnError): void;
	/** Continue after the round limit: the turn goes on from its tool results. */
	continueTurn(): void;
	/** How a card of our model's turn is answered (in the chat, which goes on with the turn). */
	modelCard(callId: string, card: ConfirmationCard): CardActions;
	/** How a plan card of our model's turn is answered (plan mode). */
	planCard(plan: ChatPlan): PlanActions;
	/** How the card of a plan's held changes is answered (all at once). */
	planChangesCard(): PlanChangesActions;
	/** Where an attached image's thumbnail loads from, or null. */
	imageSrc?(attachment: Attachment): string | null;
	/** "Fork from here" on the `index`-th message of `role`, where the chat can be forked (`forks`). */
	fork?(role: ForkRole, index: number): void;
	forks?(): boolean;
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
	/** The row under the answer of the round being streamed: Copy, then its usage. */
	private answerRow: HTMLElement | null = null;
	/** The one line that says a busy server is asked again; it goes when anything else comes. */
	private retryingEl: HTMLElement | null = null;
	/** The view follows the end while the user is there; scrolling up stops that, back at the end starts it. */
	private pinned = true;
	private scrollFrame: number | null = null;
	private lastTop = 0;

	constructor(
		readonly el: HTMLElement,
		private readonly host: TranscriptHost,
	) {
		this.followLinks();
		this.followEnd();
	}

	/**
	 * Keeps the view at the end while it is pinned there: whatever is added or
	 * drawn anew (a streamed render, the final render, Regenerate, the undo
	 * bar) and a view that becomes visible or changes size scroll it down.
	 * Only the user's scrolling up unpins it (content that shrinks or grows
	 * moves scrollTop too, but never up while at the end).
	 */
	private followEnd(): void {
		const el = this.el;
		this.host.owner.registerDomEvent(el, "scroll", () => {
			const top = el.scrollTop;
			if (el.scrollHeight - top - el.clientHeight < 4) this.pinned = true;
			else if (top < this.lastTop) this.pinned = false;
			this.lastTop = top;
		});
		const follow = () => this.scrollToEnd();
		const mutations = new MutationObserver(follow);
		mutations.observe(el, { childList: true, subtree: true, characterData: true });
		const resize = new ResizeObserver(follow);
		resize.observe(el);
		this.host.owner.register(() => {
			mutations.disconnect();
			resize.disconnect();
		});
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
		this.answerRow = null;
		this.retryingEl = null;
		this.pinned = true;
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
				this.answerRow = null;
				if (message.text.trim()) {
					const el = this.el.createDiv({ cls: "vault-agent-msg is-assistant" });
					await this.renderMarkdown(el, message.text);
					// A lead-in before tool calls is not the answer: Copy goes under the final one only.
					if (message.toolCalls.length === 0) this.addAnswerRow(message.text);
				}
				if (message.sources?.length) sourcesList(this.el, message.sources, this.answerRow);
				if (message.usage) usageLine(this.answerRow ?? this.el.createDiv({ cls: "vault-agent-answer-actions" }), message.usage, chatUsage);
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
		this.answerRow = null;
		const index = this.el.querySelectorAll(".vault-agent-msg.is-user").length;
		const fork = edit && this.host.forks?.() ? () => this.host.fork?.("user", index) : null;
		return renderUserMessage(this.el, text, attachments, edit ? (edited) => edit(index, edited) : null, (a) => this.host.imageSrc?.(a) ?? null, fork);
	}

	/** What a turn reports, as it happens. */
	event(event: ChatEvent): void {
		// The answer came (or the error, or Stop): the busy server's line goes.
		if (event.type !== "retrying") {
			this.retryingEl?.remove();
			this.retryingEl = null;
		}
		switch (event.type) {
			case "modelRound":
				this.removeEmptyState();
				this.answerRow = null;
				// The turn goes on: its message no longer failed, and an earlier Continue is spent.
				this.lastUser()?.removeClass("is-failed");
				this.el.querySelectorAll(".vault-agent-continue").forEach((button) => button.remove());
				// A spinner until the first token arrives.
				this.streamEl = this.el.createDiv({ cls: "vault-agent-msg is-assistant is-streaming is-waiting" });
				this.reasoningEl = null;
				break;
			case "reasoningDelta":
				this.reasoningEl ??= reasoningBlock(this.el, this.streamEl);
				this.reasoningEl.appendText(event.text);
				break;
			case "usage":
				usageLine(this.answerRow ?? this.el.createDiv({ cls: "vault-agent-answer-actions" }), event.usage, event.chat);
				break;
			case "sources":
				sourcesList(this.el, event.sources, this.answerRow);
				break;
			case "retrying":
				// Folded into one line, beside the spinner: each try replaces the one before.
				(this.retryingEl ??= (this.streamEl ?? this.el).createSpan({ cls: "vault-agent-retrying" })).setText(event.text);
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
						void this.renderMarkdown(fresh, text).then(() => el.replaceChildren(...Array.from(fresh.childNodes)));
						this.addAnswerRow(text);
					} else el.remove();
				}
				break;
			case "toolStarted":
				this.dropLeadInRow();
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
			case "planProposed":
				renderPlanCard(this.el.createDiv({ cls: "vault-agent-inline-card" }), event.plan, this.host.planCard(event.plan));
				break;
			case "planAnswered":
				break;
			case "compacted":
				placeDivider(this.el, event.compaction);
				break;
			case "planChangesNeeded":
				renderPlanChangesCard(this.el.createDiv({ cls: "vault-agent-inline-card" }), event.card, this.host.planChangesCard());
				break;
			case "notice":
			case "roundLimit": {
				// Status about no message (a server down, the instructions note missing) is the header's, said once there.
				if (event.type === "notice" && this.host.isStatus?.(event.text)) {
					this.host.statusChanged?.();
					break;
				}
				this.streamEl?.removeClass("is-streaming", "is-waiting");
				// Stopped before the first word: no empty bubble stays.
				if (this.streamEl && !this.stream?.written.trim()) this.streamEl.remove();
				this.flushText();
				this.streamEl = null;
				const notice = this.notice(event.text);
				// The core offers Continue after the round limit only.
				if (event.type === "roundLimit") {
					const button = notice.createEl("button", { cls: "vault-agent-continue", text: "Continue" });
					button.addEventListener("click", () => this.host.continueTurn());
				}
				break;
			}
			case "error":
				this.stream?.dispose();
				this.stream = null;
				this.streamEl?.remove();
				this.streamEl = null;
				// The message whose turn failed is marked; the error is drawn after it.
				this.lastUser()?.addClass("is-failed");
				this.host.showError(event);
				break;
			case "turnEnded":
			case "userMessage": // drawn by the turn, with its edit button
				break;
		}
	}

	private lastUser(): HTMLElement | null {
		const users = this.el.querySelectorAll<HTMLElement>(".vault-agent-msg.is-user");
		return users[users.length - 1] ?? null;
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
		toolName(summary.createSpan({ cls: "vault-agent-tool-name" }), displayName);
		summary.createSpan({ cls: "vault-agent-tool-status", text: "Running" });
		summary.createSpan({ cls: "vault-agent-tool-duration" });
		showWords(block.createEl("code", { cls: "vault-agent-tool-command" }), describeArguments(args));
		block.createDiv({ cls: "vault-agent-tool-result" });
		this.toolBlocks.set(callId, block);
		return block;
	}

	finishToolBlock(callId: string, result: ToolResult, table: Table | null): void {
		const block = this.toolBlocks.get(callId) ?? this.toolBlock(callId, "Tool", "");
		// The core says when the user said no: their choice, not a failure. Why a call failed is in the block's body.
		const rejected = Boolean(result.error?.rejected);
		const status = result.pending ? "Waiting for approval" : result.ok ? "Done" : rejected ? "Rejected" : "Failed";
		block.removeClass("is-running");
		block.toggleClass("is-error", !result.ok && !result.pending && !rejected);
		block.toggleClass("is-pending", Boolean(result.pending));
		block.toggleClass("is-rejected", rejected);
		block.querySelector(".vault-agent-tool-status")?.setText(status);
		// Nothing has run for a call that waits or was rejected: no time to show.
		block.querySelector(".vault-agent-tool-duration")?.setText(result.pending || rejected ? "" : `${Math.round(result.durationMs)} ms`);
		// The core says what ran: the CLI (its argv), or Obsidian's vault or the plugin itself (`ran`).
		const command = block.querySelector<HTMLElement>(".vault-agent-tool-command");
		const name = block.querySelector<HTMLElement>(".vault-agent-tool-name");
		if (result.ran && name) toolName(name, result.ran.label);
		const words = result.ran?.words ?? (result.argv && commandWords(result.argv));
		if (words && command) showWords(command, words);
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
		// A change's diff is drawn above (decorateToolBlock): its text says it again, so only its first line stays.
		// An outside server's answer as the core set it apart for the user: no
		// "[Image: …]" line above an image drawn below, no note for the model.
		renderToolText(textHolder, result.diff ? headline(result.text) : (result.reply ?? result.text), exists);
		renderToolImages(body, result.images);
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
		renderConfirmationCard(holder, card, {
			...actions,
			inPlace: this.host.inPlace?.() ?? null,
			undo: (entry) => this.host.undo()?.undoEntry(entry) ?? Promise.resolve(null),
			// The card's Undo, once approved, named and kept in step with the journal like every Undo (cards/undo.ts).
			settled: (result) => {
				actions.settled?.(result);
				this.host.undo()?.refresh(holder);
			},
		});
	}

	notice(text: string): HTMLElement {
		return this.el.createDiv({ cls: "vault-agent-notice", text });
	}

	/** To the end, if the view is pinned there (the user has not scrolled up); once a frame, so a layout is not forced after every change. */
	scrollToEnd(): void {
		if (this.scrollFrame !== null) return;
		this.scrollFrame = window.requestAnimationFrame(() => {
			this.scrollFrame = null;
			if (this.pinned) this.el.scrollTop = this.el.scrollHeight;
		});
	}

	/** To the end, pinned there again (the user sent a message, a chat opened). */
	pinToEnd(): void {
		this.pinned = true;
		this.scrollToEnd();
	}

	private async renderMarkdown(el: HTMLElement, markdown: string): Promise<void> {
		await MarkdownRenderer.render(this.host.app, markdown, el, "", this.host.owner);
	}

	/** A coding agent's context use: one line in the chat, the newest, in the row of the answer it came with. */
	agentUsage(text: string): void {
		this.el.querySelectorAll(".vault-agent-usage.is-agent").forEach((el) => el.remove());
		(this.answerRow ?? this.el).createDiv({ cls: "vault-agent-usage is-agent", text });
	}

	/**
	 * The round's text was a lead-in to its tool calls ("Let me look…"), not
	 * the turn's answer: its Copy goes (what the round reported, its usage, stays).
	 */
	private dropLeadInRow(): void {
		const row = this.answerRow;
		if (!row) return;
		row.querySelector(".vault-agent-copy")?.remove();
		row.querySelector(".vault-agent-fork")?.remove();
		if (row.childElementCount === 0) row.remove();
		this.answerRow = row.isConnected ? row : null;
	}

	/** The one row under an answer: Copy (its Markdown, as written), then Regenerate and the usage when they come. */
	private addAnswerRow(markdown: string): void {
		const loose = this.el.lastElementChild;
		const row = (this.answerRow = this.el.createDiv({ cls: "vault-agent-answer-actions" }));
		const button = iconButton(row, "vault-agent-copy", "copy", "Copy the answer");
		button.addEventListener("click", () => {
			void navigator.clipboard.writeText(markdown).then(() => setIcon(button, "check"));
		});
		if (this.host.forks?.()) forkButton(row, () => this.host.fork?.("assistant", answerIndex(this.el, row)));
		// A coding agent's usage that came while the answer streamed joins its row, after the buttons (as our model's usage).
		if (loose?.matches(".vault-agent-usage.is-agent")) row.appendChild(loose);
	}
}

/** A small icon button (Obsidian's clickable-icon) whose label is its tooltip. */
export function iconButton(parent: HTMLElement, cls: string, icon: string, label: string): HTMLButtonElement {
	const button = parent.createEl("button", { cls: `${cls} clickable-icon`, attr: { "aria-label": label } });
	setIcon(button, icon);
	return button;
}

/** A command line, one span a word, so a narrow view breaks it between words (styles.css), not inside them. */
/** `text` with a line-break opportunity after each `_`: a long tool name (mcp_github_create_issue) wraps between its words. */
/** A tool block's name: one line, cut with an ellipsis in a narrow sidebar; the whole name in its tooltip. */
function toolName(el: HTMLElement, text: string): void {
	el.setText(text);
	setTooltip(el, text);
}

function showWords(el: HTMLElement, words: string[]): void {
	el.empty();
	words.forEach((word, i) => {
		if (i > 0) el.appendText(" ");
		el.createSpan({ cls: "vault-agent-arg", text: word });
	});
}

/** The model's arguments until the core says what ran: `command key=value …`, each value on one line (no literal `\n`). */
function describeArguments(raw: string): string[] {
	try {
		const args = JSON.parse(raw) as Record<string, unknown>;
		const shown = (value: unknown) => (typeof value === "string" ? `"${value.replace(/\s+/g, " ")}"` : JSON.stringify(value));
		return Object.entries(args).map(([key, value]) => (key === "command" ? String(value) : value === true ? key : `${key}=${shown(value)}`));
	} catch {
		return [raw];
	}
}
