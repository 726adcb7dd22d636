// An answer shown as Markdown while it streams: the text so far is rendered
// with Obsidian's MarkdownRenderer into a fresh element at most every
// THROTTLE_MS, which then replaces what was shown (so a half-drawn render is
// never on screen); the final render comes at the end of the answer.

import { Component, MarkdownRenderer, type App } from "obsidian";

const THROTTLE_MS = 120;

export class StreamRenderer {
	private text = "";
	private timer: number | null = null;
	private lastRender = 0;
	/** Renders finish out of order; only the newest may replace the content. */
	private generation = 0;
	private child: Component | null = null;

	constructor(
		private readonly app: App,
		private readonly owner: Component,
		readonly el: HTMLElement,
		private readonly shown: () => void,
	) {}

	get written(): string {
		return this.text;
	}

	push(piece: string): void {
		this.text += piece;
		if (this.timer !== null) return;
		const wait = Math.max(0, this.lastRender + THROTTLE_MS - Date.now());
		this.timer = window.setTimeout(() => {
			this.timer = null;
			void this.render();
		}, wait);
	}

	/** Renders what has arrived now (the end of the answer, Stop). */
	async flush(): Promise<void> {
		this.cancel();
		if (this.text) await this.render();
	}

	/** No more renders; the element keeps what it shows. */
	cancel(): void {
		if (this.timer !== null) window.clearTimeout(this.timer);
		this.timer = null;
		this.generation += 1;
	}

	/** Ends the renders of this stream for good (their child components too). */
	dispose(): void {
		this.cancel();
		if (this.child) this.owner.removeChild(this.child);
		this.child = null;
	}

	private async render(): Promise<void> {
		const generation = ++this.generation;
		this.lastRender = Date.now();
		const fresh = createDiv();
		const child = this.owner.addChild(new Component());
		await MarkdownRenderer.render(this.app, this.text, fresh, "", child);
		if (generation !== this.generation) {
			this.owner.removeChild(child);
			return;
		}
		if (this.child) this.owner.removeChild(this.child);
		this.child = child;
		this.el.replaceChildren(...Array.from(fresh.childNodes));
		this.shown();
	}
}
