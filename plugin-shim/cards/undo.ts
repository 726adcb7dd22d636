// Undo, as the user reaches it: the Undo button on a tool block, "Undo this
// answer's changes" under an answer, and the two commands. The core decides
// whether a change can be undone and does it; this shows the buttons, the
// notices, and the dialog for a note that changed since ("Undo anyway" /
// "Keep"). Nothing here is reachable from the model or the public API.

import { type App, ButtonComponent, Modal, Notice, setTooltip } from "obsidian";
import { diffCounts, renderDiff } from "./confirmation-card";
import type { CoreHandle } from "../core/types";
import type { ToolResult } from "../vault-agent-api";

type Choice = "anyway" | "keep";

/** Shows what changed since the agent's change and asks what to do. */
export class UndoConflictModal extends Modal {
	private choice: Choice = "keep";
	private resolve: ((choice: Choice) => void) | null = null;

	constructor(
		app: App,
		private readonly result: ToolResult,
	) {
		super(app);
	}

	/** Opens the dialog; resolves with the answer ("keep" when closed otherwise). */
	ask(): Promise<Choice> {
		return new Promise((resolve) => {
			this.resolve = resolve;
			this.open();
		});
	}

	onOpen(): void {
		this.modalEl.addClass("vault-agent-undo-conflict");
		this.titleEl.setText("Changed since the agent's change");
		const { contentEl } = this;
		contentEl.empty();
		contentEl.createEl("p", { text: this.result.error?.message ?? this.result.text });
		if (this.result.diff) {
			contentEl.createDiv({ cls: "vault-agent-confirm-label", text: "What the agent left, then what is there now" });
			renderDiff(contentEl, this.result.diff);
		}
		// Obsidian's own row of modal buttons: at the right, as in its dialogs.
		const buttons = contentEl.createDiv({ cls: "modal-button-container" });
		const anyway = new ButtonComponent(buttons)
			.setButtonText("Undo anyway")
			.setClass("vault-agent-undo-anyway")
			.onClick(() => {
				this.choice = "anyway";
				this.close();
			});
		// Obsidian's warning look (setWarning is deprecated; setDestructive needs 1.13).
		anyway.buttonEl.addClass("mod-warning");
		new ButtonComponent(buttons)
			.setButtonText("Keep")
			.setClass("vault-agent-undo-keep")
			.onClick(() => this.close());
	}

	onClose(): void {
		this.contentEl.empty();
		this.resolve?.(this.choice);
		this.resolve = null;
	}
}

export class UndoController {
	private busy = false;

	constructor(
		private readonly app: App,
		private readonly core: CoreHandle,
		/** Called after anything was undone, so every view repaints its buttons. */
		private readonly changed: () => void,
	) {}

	/** Undo on a tool block. */
	async undoEntry(id: string): Promise<ToolResult | null> {
		return this.exclusive(() => this.resolveConflicts(this.core.undo(id, null)));
	}

	/** "Undo this answer's changes": newest first; a conflict asks, then the rest goes on. */
	async undoTurn(turn: string): Promise<ToolResult | null> {
		return this.exclusive(async () => {
			for (;;) {
				const result = await this.core.undoTurn(turn);
				if (!isConflict(result)) return this.report(result);
				const anyway = await this.askAnyway(result);
				if (!anyway) return this.kept(result, "the rest of this answer's changes were not undone");
				// Changed again meanwhile: the next round asks again.
				if (!anyway.ok && !isConflict(anyway)) return this.report(anyway);
			}
		});
	}

	/** The command "Undo the agent's last change". */
	async undoLast(): Promise<ToolResult | null> {
		return this.exclusive(() => this.resolveConflicts(this.core.undoLast()));
	}

	/** The command "Undo this answer's changes": the answer of the newest change left. */
	async undoLastTurn(): Promise<ToolResult | null> {
		const turn = this.core.lastTurn();
		if (!turn) {
			new Notice("There is no answer with changes left to undo.");
			return null;
		}
		return this.undoTurn(turn);
	}

	/**
	 * A tool block of a change that ran: its diff, folded, above the output,
	 * and an Undo button in its header.
	 */
	decorateToolBlock(block: HTMLElement, result: ToolResult): void {
		const body = block.querySelector(".vault-agent-tool-result");
		if (result.diff && body instanceof HTMLElement) {
			const fold = createEl("details", { cls: "vault-agent-tool-diff" });
			// The fold's title has the counts: the diff does not repeat them.
			fold.createEl("summary", { text: `Change: ${diffCounts(result.diff)}` });
			renderDiff(fold, result.diff, false);
			body.prepend(fold);
		}
		const header = block.querySelector(":scope > summary");
		header?.querySelector(".vault-agent-undo")?.remove();
		const journal = result.journal;
		if (!journal || !(header instanceof HTMLElement)) return;
		block.dataset.journalEntry = journal.entry;
		// An approved card of this change has its Undo already: shown once, on the card.
		if (cardOf(block, journal.entry)) return;
		const button = new ButtonComponent(header).setButtonText("Undo").setClass("vault-agent-undo");
		button.buttonEl.dataset.journalEntry = journal.entry;
		button.onClick(async (event: MouseEvent) => {
			// A click in the header would fold or unfold the block.
			event.preventDefault();
			event.stopPropagation();
			const view = this.core.journalEntry(journal.entry);
			if (view && !view.undoable) {
				new Notice(view.reason ?? "This change cannot be undone.");
				return;
			}
			await this.undoEntry(journal.entry);
		});
		this.paintEntry(button.buttonEl);
	}

	/** "Undo this answer's changes" at the end of an answer that changed the vault (replacing an earlier one). */
	renderTurnBar(parent: HTMLElement, turn: string): void {
		for (const old of Array.from(parent.querySelectorAll<HTMLElement>(".vault-agent-turn-undo"))) {
			if (old.dataset.turn === turn) old.remove();
		}
		const changes = this.core.turnChanges(turn);
		if (changes.undoable + changes.undone === 0) return;
		const bar = parent.createDiv({ cls: "vault-agent-turn-undo" });
		bar.dataset.turn = turn;
		new ButtonComponent(bar)
			.setButtonText("Undo this answer's changes")
			.setClass("vault-agent-turn-undo-button")
			.onClick(() => this.undoTurn(turn));
		bar.createSpan({ cls: "vault-agent-turn-undo-count" });
		this.paintTurn(bar);
	}

	/** Repaints every undo button, and every card of a change, under `root` from the journal. */
	refresh(root: HTMLElement): void {
		for (const button of Array.from(root.querySelectorAll<HTMLElement>("button.vault-agent-undo"))) this.paintEntry(button);
		for (const bar of Array.from(root.querySelectorAll<HTMLElement>(".vault-agent-turn-undo"))) this.paintTurn(bar);
		for (const card of Array.from(root.querySelectorAll<HTMLElement>(".vault-agent-confirm[data-journal-entry]"))) this.paintCard(card);
		for (const block of Array.from(root.querySelectorAll<HTMLElement>(".vault-agent-tool-call[data-journal-entry]"))) this.paintBlock(block);
	}

	/** A change's block whose Undo is on its card still says Undone once the change is undone. */
	private paintBlock(block: HTMLElement): void {
		if (block.querySelector(":scope > summary .vault-agent-undo")) return;
		const view = this.core.journalEntry(block.dataset.journalEntry ?? "");
		if (!view?.undone) return;
		block.addClass("is-undone");
		const status = block.querySelector(".vault-agent-tool-status");
		status?.setText("Undone");
		status?.setAttribute("title", `Undone: ${view.summary}`);
	}

	/** An approved card whose change was undone says so, as its tool block does. */
	private paintCard(card: HTMLElement): void {
		if (!this.core.journalEntry(card.dataset.journalEntry ?? "")?.undone) return;
		card.removeClass("is-done");
		card.addClass("is-undone");
		card.querySelector(".vault-agent-confirm-status")?.setText("Undone.");
	}

	private paintEntry(button: HTMLElement): void {
		const id = button.dataset.journalEntry ?? "";
		const view = this.core.journalEntry(id);
		const block = button.closest(".vault-agent-tool-call");
		button.removeClass("is-disabled");
		button.removeAttribute("aria-disabled");
		setDisabled(button, false);
		button.show();
		if (!view) {
			setDisabled(button, true);
			setTooltip(button, "This change is no longer in the undo journal, which keeps the most recent changes.");
		} else if (view.undone) {
			setDisabled(button, true);
			setTooltip(button, `Undone: ${view.summary}`);
			const status = block?.querySelector(".vault-agent-tool-status");
			block?.addClass("is-undone");
			// Said once: the block's status says Undone, and the spent button goes; without a status, the button says it.
			if (status) {
				status.setText("Undone");
				status.setAttribute("title", `Undone: ${view.summary}`);
				button.hide();
			} else if (button.closest(".vault-agent-confirm")) {
				// A card's status says "Undone." (paintCard).
				button.hide();
			} else {
				button.setText("Undone");
			}
		} else if (!view.undoable) {
			// Not the `disabled` attribute: the tooltip must still show the reason.
			button.addClass("is-disabled");
			button.setAttribute("aria-disabled", "true");
			setTooltip(button, view.reason ?? "This change cannot be undone.");
		} else {
			setTooltip(button, `Undo: ${view.summary}`);
		}
	}

	private paintTurn(bar: HTMLElement): void {
		const changes = this.core.turnChanges(bar.dataset.turn ?? "");
		const button = bar.querySelector(".vault-agent-turn-undo-button");
		const count = bar.querySelector(".vault-agent-turn-undo-count");
		if (button instanceof HTMLElement) setDisabled(button, changes.undoable === 0);
		count?.setText(
			changes.undoable > 0
				? `${changes.undoable} ${changes.undoable === 1 ? "change" : "changes"} in this answer`
				: "This answer's changes were undone.",
		);
	}

	/** One undo at a time: a second click while one runs does nothing. */
	private async exclusive(work: () => Promise<ToolResult | null>): Promise<ToolResult | null> {
		if (this.busy) return null;
		this.busy = true;
		try {
			return await work();
		} finally {
			this.busy = false;
			this.changed();
		}
	}

	/** An undo, and "Undo anyway" for as long as the user chooses it and the note keeps changing. */
	private async resolveConflicts(first: Promise<ToolResult>): Promise<ToolResult> {
		let result = await first;
		while (isConflict(result)) {
			const anyway = await this.askAnyway(result);
			if (!anyway) return this.kept(result, "nothing was undone");
			result = anyway;
		}
		return this.report(result);
	}

	/** The dialog; on "Undo anyway" the undo runs against what the user was shown. */
	private async askAnyway(conflict: ToolResult): Promise<ToolResult | null> {
		const choice = await new UndoConflictModal(this.app, conflict).ask();
		const journal = conflict.journal;
		if (choice !== "anyway" || !journal?.conflictHash) return null;
		return this.core.undo(journal.entry, journal.conflictHash);
	}

	private kept(result: ToolResult, what: string): ToolResult {
		new Notice(`Kept as it is; ${what}.`);
		return result;
	}

	/** The core's text says what was undone, or why not and what to do. */
	private report(result: ToolResult): ToolResult {
		new Notice(result.text);
		return result;
	}
}

/** The answered card of journal entry `entry` among the messages around `el`, if one is drawn. */
export function cardOf(el: HTMLElement, entry: string): HTMLElement | null {
	const messages = el.closest(".vault-agent-messages");
	return messages?.querySelector<HTMLElement>(`.vault-agent-confirm[data-journal-entry="${CSS.escape(entry)}"]`) ?? null;
}

function isConflict(result: ToolResult): boolean {
	return result.error?.code === "undo_conflict" && Boolean(result.journal?.conflictHash);
}

function setDisabled(button: HTMLElement, disabled: boolean): void {
	button.toggleAttribute("disabled", disabled);
}
