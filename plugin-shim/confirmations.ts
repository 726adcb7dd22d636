// Who is waiting for which confirmation, and the modal that shows a card for
// calls that come through the public API. Approval goes to the core, which
// checks the argv hash, single use, expiry and staleness.

import { type App, Modal, Notice } from "obsidian";
import { renderConfirmationCard } from "./confirmation-card";
import type { ConfirmationCard, CoreHandle } from "./core-types";
import type { ToolResult } from "./vault-agent-api";

export class ConfirmationCoordinator {
	private waiters = new Map<string, Array<(result: ToolResult) => void>>();

	constructor(private readonly core: CoreHandle) {}

	/** Resolves when confirmation `id` is answered, expires or goes stale and is answered again. */
	wait(id: string): Promise<ToolResult> {
		const card = this.core.confirmationCard(id);
		if (!card) {
			return Promise.resolve({
				ok: false,
				text: `There is no pending confirmation "${id}".`,
				error: { code: "confirmation_not_found", message: `There is no pending confirmation "${id}".` },
				durationMs: 0,
			});
		}
		return new Promise((resolve) => {
			const list = this.waiters.get(id) ?? [];
			list.push(resolve);
			this.waiters.set(id, list);
		});
	}

	async approve(card: ConfirmationCard): Promise<ToolResult> {
		const result = await this.core.approve(card.id, card.argvHash);
		this.settle(card.id, result);
		return result;
	}

	reject(card: ConfirmationCard): ToolResult {
		const result = this.core.reject(card.id);
		this.settle(card.id, result);
		return result;
	}

	/** Called when a card's time is up; settles it if the core agrees it expired. */
	expire(id: string): ToolResult | null {
		const result = this.core.expiredResult(id);
		if (result) this.settle(id, result);
		return result;
	}

	private settle(id: string, result: ToolResult): void {
		const list = this.waiters.get(id);
		this.waiters.delete(id);
		if (!list) return;
		// Stale: the user is asked again with a new card; keep waiting on that one.
		if (result.pending) {
			const next = this.waiters.get(result.pending.id) ?? [];
			this.waiters.set(result.pending.id, [...next, ...list]);
			return;
		}
		for (const resolve of list) resolve(result);
	}
}

/** A card in a modal, for writes requested through the public API. */
export class ConfirmationModal extends Modal {
	private answered = false;
	private expiryTimer: number | undefined;

	constructor(
		app: App,
		private readonly coordinator: ConfirmationCoordinator,
		private readonly core: CoreHandle,
		private card: ConfirmationCard,
	) {
		super(app);
	}

	onOpen(): void {
		this.titleEl.setText("Approve this change?");
		this.render();
	}

	private render(): void {
		this.contentEl.empty();
		window.clearTimeout(this.expiryTimer);
		renderConfirmationCard(this.contentEl, this.card, {
			approve: (card) => this.coordinator.approve(card),
			reject: (card) => this.coordinator.reject(card),
			settled: (result) => {
				const next = result.pending ? this.core.confirmationCard(result.pending.id) : null;
				if (next) {
					// The note changed since the preview: show the fresh one.
					new Notice(result.text);
					this.card = next;
					this.render();
					return;
				}
				this.answered = true;
				new Notice(result.ok ? result.text : (result.error?.message ?? result.text));
				this.close();
			},
		});
		this.expiryTimer = window.setTimeout(() => {
			if (this.coordinator.expire(this.card.id)) {
				this.answered = true;
				new Notice("The change expired before it was approved; nothing changed.");
				this.close();
			}
		}, Math.max(0, this.card.expiresMs - Date.now()) + 50);
	}

	onClose(): void {
		window.clearTimeout(this.expiryTimer);
		this.contentEl.empty();
		// Closing the dialog without answering means no.
		if (!this.answered) this.coordinator.reject(this.card);
	}
}
