// A note edit's card reviewed in the editor: the second view of the same
// card (confirmation-card.ts draws the first, in the chat). The core places
// the changes in the note as the editor holds it, keeps each answer and says
// how the card is settled once every change has one; this file asks it,
// has in-place-view.ts draw the answer, and settles the card through the
// card's own buttons, so that both views fold together. Nothing here writes.

import type { Extension } from "@codemirror/state";
import type { EditorView } from "@codemirror/view";
import { type App, MarkdownView, Notice, TFile } from "obsidian";
import type { ConfirmationCard, CoreHandle, EditReview, ReviewSettle } from "../core/types";
import { inPlaceExtension, refreshReview, type ReviewSource } from "./in-place-view";

/** A card drawn in the chat that the editor may review. */
export interface ReviewedCard {
	card: ConfirmationCard;
	/** Settles the card as its own buttons would: Approve, Approve some changes, or Reject. */
	settle(settle: ReviewSettle): void;
	/** Whether the card is still drawn and waiting (a closed chat's card is not reviewed). */
	waiting(): boolean;
}

export class InPlaceReviews implements ReviewSource {
	/** By card id, in the order they were drawn: the newest for a note is the one reviewed. */
	private cards = new Map<string, ReviewedCard>();
	private views = new Set<EditorView>();
	private refreshTimer: number | null = null;

	constructor(
		private readonly app: App,
		private readonly core: () => CoreHandle | null,
	) {}

	/** The editor extension, registered once at onload. */
	extension(): Extension {
		return inPlaceExtension(this);
	}

	/** A card drawn with "Review in editor": shown in every editor of its note until it is settled. */
	offer(entry: ReviewedCard): void {
		this.cards.set(entry.card.id, entry);
		this.refreshSoon();
	}

	/** The card was answered, in either view: its changes leave the editor. */
	settled(id: string): void {
		if (this.cards.delete(id)) this.refreshSoon();
	}

	reviewFor(path: string, text: () => string): EditReview | null {
		const core = this.core();
		const entry = [...this.cards.values()].reverse().find((e) => e.card.editsNote === path && e.waiting());
		if (!core || !entry) return null;
		const review = core.editReview(entry.card.id, text());
		// Answered or expired while no view said so: nothing to show any more.
		if (review.problem && review.changes.length === 0 && !review.path) {
			this.cards.delete(entry.card.id);
			return null;
		}
		return review;
	}

	answer(id: string, index: number | null, accept: boolean, text: string): void {
		const core = this.core();
		const entry = this.cards.get(id);
		if (!core || !entry) return;
		const review = core.answerChange(id, index, accept, text);
		if (review.problem) new Notice(review.problem);
		if (review.settle && entry.waiting()) entry.settle(review.settle);
		else this.refreshSoon();
	}

	track(view: EditorView): void {
		this.views.add(view);
	}

	untrack(view: EditorView): void {
		this.views.delete(view);
	}

	/** "Review in editor": the note opens (or comes forward) at its first change. */
	async open(id: string): Promise<void> {
		const review = this.core()?.editReview(id);
		const first = review?.changes[0];
		if (!review || review.problem || !first) {
			new Notice(review?.problem ?? "This change cannot be reviewed in the editor.");
			return;
		}
		const file = this.app.vault.getAbstractFileByPath(review.path);
		if (!(file instanceof TFile)) {
			new Notice(`"${review.path}" is not in the vault any more; answer the change on its card.`);
			return;
		}
		const open = this.app.workspace.getLeavesOfType("markdown").find((leaf) => leaf.view instanceof MarkdownView && leaf.view.file?.path === file.path);
		const leaf = open ?? this.app.workspace.getLeaf(false);
		if (!open) await leaf.openFile(file);
		this.app.workspace.setActiveLeaf(leaf, { focus: true });
		const editor = leaf.view instanceof MarkdownView ? leaf.view.editor : null;
		if (!editor) return;
		const at = editor.offsetToPos(first.from);
		editor.setCursor(at);
		editor.scrollIntoView({ from: at, to: at }, true);
	}

	/** Unload: no timer; the editors drop the extension themselves. */
	dispose(): void {
		if (this.refreshTimer !== null) window.clearTimeout(this.refreshTimer);
		this.cards.clear();
		this.refreshTimer = null;
	}

	/** After the current update (a card is drawn, or a click handled inside an editor's own update). */
	private refreshSoon(): void {
		if (this.refreshTimer !== null) return;
		this.refreshTimer = window.setTimeout(() => {
			this.refreshTimer = null;
			for (const view of this.views) view.dispatch({ effects: refreshReview.of(null) });
		}, 0);
	}
}
