// The editor's view of a note edit's card (CodeMirror 6, which Obsidian
// provides): the words the edit removes struck through, the words it adds
// shown where they go, Accept and Reject after each change, and Accept all /
// Reject all in a panel above the note. It only draws what the core placed
// (cards/in-place.ts asks it) and sends the user's clicks back.

import { type EditorState, type Extension, StateEffect, StateField } from "@codemirror/state";
import { Decoration, type DecorationSet, EditorView, type Panel, showPanel, ViewPlugin, WidgetType } from "@codemirror/view";
import { editorInfoField } from "obsidian";
import type { EditChange, EditReview } from "../core/types";

/** What the editor asks of the reviews (cards/in-place.ts). */
export interface ReviewSource {
	/** The card reviewed in an editor of note `path`, placed in its text (asked only when a card edits that note). */
	reviewFor(path: string, text: () => string): EditReview | null;
	/** A click: change `index` (null: every change) accepted or rejected, with the editor's text. */
	answer(id: string, index: number | null, accept: boolean, text: string): void;
	/** Each editor, while it exists, so a new or settled card redraws it. */
	track(view: EditorView): void;
	untrack(view: EditorView): void;
}

/** Ask the reviews again (a card was offered, answered or settled). */
export const refreshReview = StateEffect.define<null>();

interface Shown {
	review: EditReview | null;
	decorations: DecorationSet;
}

export function inPlaceExtension(source: ReviewSource): Extension {
	const compute = (state: EditorState): Shown => {
		const path = state.field(editorInfoField, false)?.file?.path;
		const review = path ? source.reviewFor(path, () => state.doc.toString()) : null;
		return { review, decorations: review && !review.problem ? decorations(review, source) : Decoration.none };
	};
	const field = StateField.define<Shown>({
		create: compute,
		// Typing moves the changes' places: the core places them again (or says they no longer fit).
		update: (shown, tr) => (tr.docChanged || tr.effects.some((e) => e.is(refreshReview)) ? compute(tr.state) : shown),
		provide: (f) => [
			EditorView.decorations.from(f, (shown) => shown.decorations),
			showPanel.from(f, ({ review }) => (review ? (view: EditorView) => reviewPanel(view, review, source) : null)),
		],
	});
	const tracker = ViewPlugin.define((view) => {
		source.track(view);
		return { destroy: () => source.untrack(view) };
	});
	return [field, tracker];
}

/** Every change's struck and added words, and its buttons; sorted by place (Decoration.set sorts). */
function decorations(review: EditReview, source: ReviewSource): DecorationSet {
	const ranges = review.changes.flatMap((change, index) => {
		const answer = review.answers[index] ?? null;
		const state = answer === null ? "" : answer ? " is-accepted" : " is-rejected";
		const marks = change.spans.map((span) =>
			span.kind === "removed"
				? Decoration.mark({ class: `vault-agent-inplace-removed${state}` }).range(span.from, span.to)
				: Decoration.widget({ widget: new AddedWords(span.text, state), side: 1 }).range(span.from),
		);
		const controls = Decoration.widget({ widget: new ChangeButtons(review, index, change, source), side: 2 }).range(change.controlsAt);
		return [...marks, controls];
	});
	return Decoration.set(ranges, true);
}

/** The words a change adds, where they go. */
class AddedWords extends WidgetType {
	constructor(
		private readonly text: string,
		private readonly state: string,
	) {
		super();
	}

	eq(other: AddedWords): boolean {
		return other.text === this.text && other.state === this.state;
	}

	toDOM(): HTMLElement {
		return createSpan({ cls: `vault-agent-inplace-added${this.state}`, text: this.text });
	}
}

/** Accept and Reject after one change; the one chosen so far is pressed. */
class ChangeButtons extends WidgetType {
	constructor(
		private readonly review: EditReview,
		private readonly index: number,
		private readonly change: EditChange,
		private readonly source: ReviewSource,
	) {
		super();
	}

	eq(other: ChangeButtons): boolean {
		return other.review.id === this.review.id && other.index === this.index && other.review.answers[this.index] === this.review.answers[this.index] && other.change.controlsAt === this.change.controlsAt;
	}

	toDOM(view: EditorView): HTMLElement {
		const box = createSpan({ cls: "vault-agent-inplace-buttons" });
		const of = `change ${this.index + 1} of ${this.review.changes.length}`;
		const answer = this.review.answers[this.index] ?? null;
		for (const accept of [true, false]) {
			const button = box.createEl("button", {
				cls: accept ? "vault-agent-inplace-accept" : "vault-agent-inplace-reject",
				text: accept ? "Accept" : "Reject",
				attr: { type: "button", "aria-label": `${accept ? "Accept" : "Reject"} ${of} (line ${this.change.line})`, "aria-pressed": String(answer === accept) },
			});
			press(button, () => this.source.answer(this.review.id, this.index, accept, view.state.doc.toString()));
		}
		return box;
	}
}

/** The panel above the note: what the card proposes, Accept all and Reject all; or why it cannot be shown here. */
function reviewPanel(view: EditorView, review: EditReview, source: ReviewSource): Panel {
	const dom = createDiv({ cls: "vault-agent-inplace-panel" });
	if (review.problem) {
		dom.addClass("is-problem");
		dom.createSpan({ cls: "vault-agent-inplace-summary", text: review.problem });
		return { top: true, dom };
	}
	const count = review.changes.length;
	const answered = review.answers.filter((a) => a !== null).length;
	const summary = `Vault Agent proposes ${count === 1 ? "1 change" : `${count} changes`} to this note${answered ? `; ${answered} answered` : ""}.`;
	dom.createSpan({ cls: "vault-agent-inplace-summary", text: summary });
	const buttons = dom.createDiv({ cls: "vault-agent-inplace-all" });
	for (const accept of [true, false]) {
		const button = buttons.createEl("button", {
			cls: accept ? "mod-cta vault-agent-inplace-accept-all" : "vault-agent-inplace-reject-all",
			text: accept ? "Accept all" : "Reject all",
			attr: { type: "button", "aria-label": `${accept ? "Accept" : "Reject"} all ${count === 1 ? "1 change" : `${count} changes`}` },
		});
		press(button, () => source.answer(review.id, null, accept, view.state.doc.toString()));
	}
	return { top: true, dom };
}

/** A click that neither moves the cursor nor takes the focus from the note. */
function press(button: HTMLElement, run: () => void): void {
	button.addEventListener("mousedown", (event) => event.preventDefault());
	button.addEventListener("click", (event) => {
		event.preventDefault();
		run();
	});
}
