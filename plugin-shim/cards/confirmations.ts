// Who is waiting for which confirmation, and the one modal that shows the
// cards of writes requested through the public API, one after another.
// Approval goes to the core, which checks the argv hash, single use, expiry,
// the user's switches and staleness; this file only shows and waits.

import { type App, ButtonComponent, Modal, Notice } from "obsidian";
import { renderConfirmationCard } from "./confirmation-card";
import type { ConfirmationCard, CoreHandle } from "../core/types";
import type { ToolResult } from "../vault-agent-api";

function notFound(id: string): ToolResult {
	const message = `There is no pending confirmation "${id}".`;
	return { ok: false, text: message, error: { code: "confirmation_not_found", message }, durationMs: 0 };
}

export class ConfirmationCoordinator {
	private waiters = new Map<string, Waiter[]>();
	/** Cards of API calls, in the order they came; the modal shows the first. */
	private queue: string[] = [];
	private modal: ConfirmationModal | null = null;
	private expiryTimers = new Map<string, number>();

	constructor(
		private readonly app: App,
		private readonly core: CoreHandle,
	) {}

	/**
	 * Resolves when confirmation `id` is over: answered, expired, or stale and
	 * then answered again. An id that is already over resolves at once with
	 * the same answer. `reasked` hears of each new card a stale one is
	 * replaced by, so a caller that shows cards itself can show it.
	 */
	wait(id: string, reasked?: (card: ConfirmationCard) => void): Promise<ToolResult> {
		const outcome = this.core.confirmationOutcome(id);
		if (outcome?.pending) {
			const next = this.core.confirmationCard(outcome.pending.id);
			if (next) reasked?.(next);
			return this.wait(outcome.pending.id, reasked);
		}
		if (outcome) return Promise.resolve(outcome);
		const card = this.core.confirmationCard(id);
		if (!card) return Promise.resolve(notFound(id));
		return new Promise((resolve) => {
			const list = this.waiters.get(id) ?? [];
			list.push({ resolve, reasked });
			this.waiters.set(id, list);
			this.watchExpiry(card);
		});
	}

	/** A write from the public API: its card joins the queue of the one modal. */
	present(card: ConfirmationCard): void {
		if (!this.queue.includes(card.id)) this.queue.push(card.id);
		this.watchExpiry(card);
		this.showModal();
	}

	async approve(card: ConfirmationCard): Promise<ToolResult> {
		const result = await this.core.approve(card.id, card.argvHash);
		this.settle(card.id, result);
		return result;
	}

	/** "Approve for this chat" on a coding agent's outside card: the core keeps it for that agent's session only. */
	async approveForChat(card: ConfirmationCard): Promise<ToolResult> {
		const result = await this.core.approve(card.id, card.argvHash, true);
		this.settle(card.id, result);
		return result;
	}

	/** A note edit reviewed in the editor: only these of its changes. */
	async approveChanges(card: ConfirmationCard, changes: number[]): Promise<ToolResult> {
		const result = await this.core.approveChanges(card.id, card.argvHash, Uint32Array.from(changes));
		this.settle(card.id, result);
		return result;
	}

	reject(card: ConfirmationCard): ToolResult {
		const result = this.core.reject(card.id);
		this.settle(card.id, result);
		return result;
	}

	/** Rejects every card still queued (the modal's "Reject all"). */
	rejectAll(): void {
		for (const id of [...this.queue]) {
			const card = this.core.confirmationCard(id);
			if (card?.state === "proposed") this.reject(card);
			else this.settleFromCore(id);
		}
	}

	/** Called when a card's time is up; settles it if the core agrees it expired. */
	expire(id: string): ToolResult | null {
		const result = this.core.expiredResult(id);
		if (result) this.settle(id, result);
		return result;
	}

	/** A card answered elsewhere (the chat): wake whoever waits on it. */
	settleFromCore(id: string): void {
		const outcome = this.core.confirmationOutcome(id);
		if (outcome) this.settle(id, outcome);
	}

	/** An outside agent gave up on its card (the core has closed it): take it away. */
	withdraw(id: string): void {
		const card = this.core.confirmationCard(id);
		this.settleFromCore(id);
		new Notice(`${card?.requester ?? "An agent"} withdrew a change it had asked for; nothing changed.`);
	}

	/** The first queued card that still waits for the user; finished ones are settled and dropped. */
	currentCard(): ConfirmationCard | null {
		for (let id = this.queue[0]; id !== undefined; id = this.queue[0]) {
			const card = this.core.confirmationCard(id);
			if (card?.state === "proposed") return card;
			this.queue.shift();
			this.settleFromCore(id);
		}
		return null;
	}

	queued(): number {
		return this.queue.length;
	}

	/** The modal closed. Cards still queued (for instance after Esc) open it again. */
	modalClosed(modal: ConfirmationModal): void {
		if (this.modal === modal) this.modal = null;
		if (this.currentCard()) this.showModal();
	}

	/** Plugin unload: no timers, no modal. Waiters keep their promises pending no more. */
	dispose(): void {
		for (const timer of this.expiryTimers.values()) window.clearTimeout(timer);
		this.expiryTimers.clear();
		this.queue = [];
		this.modal?.close();
		this.modal = null;
	}

	private showModal(): void {
		if (this.modal) {
			this.modal.refresh();
			return;
		}
		if (!this.currentCard()) return;
		this.modal = new ConfirmationModal(this.app, this);
		this.modal.open();
	}

	private watchExpiry(card: ConfirmationCard): void {
		if (this.expiryTimers.has(card.id)) return;
		const timer = window.setTimeout(() => {
			this.expiryTimers.delete(card.id);
			if (this.expire(card.id)) new Notice("A change expired before it was approved; nothing changed.");
		}, Math.max(0, card.expiresMs - Date.now()) + 50);
		this.expiryTimers.set(card.id, timer);
	}

	private settle(id: string, result: ToolResult): void {
		window.clearTimeout(this.expiryTimers.get(id));
		this.expiryTimers.delete(id);
		const place = this.queue.indexOf(id);
		const list = this.waiters.get(id) ?? [];
		this.waiters.delete(id);
		// Stale: the user is asked again with a new card, in the same place.
		const next = result.pending ? this.core.confirmationCard(result.pending.id) : null;
		if (next) {
			if (place >= 0) this.queue.splice(place, 1, next.id);
			this.waiters.set(next.id, [...(this.waiters.get(next.id) ?? []), ...list]);
			for (const waiter of list) waiter.reasked?.(next);
			this.watchExpiry(next);
		} else {
			if (place >= 0) this.queue.splice(place, 1);
			for (const waiter of list) waiter.resolve(result);
		}
		this.modal?.refresh();
	}
}

/** Someone waiting for a confirmation's answer. */
interface Waiter {
	resolve: (result: ToolResult) => void;
	/** Told of the new card when the one waited on went stale. */
	reasked?: (card: ConfirmationCard) => void;
}

/** The queued cards of API calls, one at a time. */
export class ConfirmationModal extends Modal {
	private shown: ConfirmationCard | null = null;
	private closing = false;

	constructor(
		app: App,
		private readonly coordinator: ConfirmationCoordinator,
	) {
		super(app);
	}

	onOpen(): void {
		this.refresh();
	}

	/** Shows the first waiting card, or closes when none is left. */
	refresh(): void {
		if (this.closing) return;
		const card = this.coordinator.currentCard();
		if (!card) {
			this.shown = null;
			this.close();
			return;
		}
		if (this.shown?.id === card.id) {
			this.updateCount();
			return;
		}
		this.shown = card;
		// An outside tool's call may change nothing: it is asked as a call.
		this.titleEl.setText(card.outside ? "Approve this call?" : "Approve this change?");
		this.contentEl.empty();
		this.contentEl.createDiv({ cls: "vault-agent-confirm-queue" });
		this.updateCount();
		renderConfirmationCard(this.contentEl, card, {
			approve: (c) => this.coordinator.approve(c),
			// A coding agent's outside card (the only outside card the modal shows): the core keeps the answer for that agent session.
			...(card.outside ? { approveForChat: (c: ConfirmationCard) => this.coordinator.approveForChat(c) } : {}),
			reject: (c) => this.coordinator.reject(c),
			settled: (result) => {
				if (!result.pending) new Notice(result.ok ? result.text : (result.error?.message ?? result.text));
				else new Notice(result.text);
			},
		});
	}

	private updateCount(): void {
		const holder = this.contentEl.querySelector<HTMLElement>(".vault-agent-confirm-queue");
		if (!holder) return;
		holder.empty();
		const waiting = this.coordinator.queued();
		if (waiting < 2) return;
		holder.createSpan({ text: `1 of ${waiting} changes waiting for your answer.` });
		new ButtonComponent(holder)
			.setButtonText(`Reject all ${waiting}`)
			.setClass("vault-agent-reject-all")
			.onClick(() => this.coordinator.rejectAll());
	}

	onClose(): void {
		this.closing = true;
		this.contentEl.empty();
		// Closing the dialog without answering means no, for the card shown.
		const card = this.coordinator.currentCard();
		if (card && card.id === this.shown?.id) this.coordinator.reject(card);
		this.shown = null;
		this.coordinator.modalClosed(this);
	}
}
