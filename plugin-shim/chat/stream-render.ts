// An answer shown as Markdown while it streams, at most every THROTTLE_MS.
// Blocks that are finished (before the last blank line outside a code fence)
// are rendered once and kept; only the open block at the end is rendered anew
// each time, so a render costs the same at the end of a long answer as at its
// start. Each render goes into a fresh element that then replaces the open
// block (a half-drawn render is never on screen); the final render of the
// whole answer comes at its end (transcript.ts).

import { Component, MarkdownRenderer, type App } from "obsidian";
import { finishedBlocksEnd } from "./stream-blocks";

const THROTTLE_MS = 120;

export class StreamRenderer {
	private text = "";
	/** How much of `text` is rendered into kept blocks. */
	private kept = 0;
	/** The open block's nodes, replaced by each render. */
	private tail: Node[] = [];
	/** The kept part ends inside a block (a long paragraph cut at a line). */
	private continues = false;
	private timer: number | null = null;
	private lastRender = 0;
	/** Renders finish out of order; only the newest may replace the content. */
	private generation = 0;
	private keptChildren: Component[] = [];
	private tailChild: Component | null = null;

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
		for (const child of [...this.keptChildren, this.tailChild]) if (child) this.owner.removeChild(child);
		this.keptChildren = [];
		this.tailChild = null;
	}

	private async part(markdown: string): Promise<{ nodes: Node[]; child: Component }> {
		const fresh = createDiv();
		const child = this.owner.addChild(new Component());
		if (markdown) await MarkdownRenderer.render(this.app, markdown, fresh, "", child);
		return { nodes: Array.from(fresh.childNodes), child };
	}

	private async render(): Promise<void> {
		const generation = ++this.generation;
		this.lastRender = Date.now();
		const { end, soft } = finishedBlocksEnd(this.text, this.kept);
		const [done, open] = await Promise.all([end > this.kept ? this.part(this.text.slice(this.kept, end)) : null, this.part(this.text.slice(end))]);
		if (generation !== this.generation) {
			for (const part of [done, open]) if (part) this.owner.removeChild(part.child);
			return;
		}
		for (const node of this.tail) node.parentNode?.removeChild(node);
		if (this.tailChild) this.owner.removeChild(this.tailChild);
		// A block cut at a line: its parts meet without the gap between blocks.
		const elements = (nodes: Node[]) => nodes.filter((node): node is HTMLElement => node.instanceOf(HTMLElement));
		if (this.continues) elements((done ?? open).nodes)[0]?.addClass("vault-agent-stream-continued");
		if (done) {
			if (soft) {
				elements(done.nodes).at(-1)?.addClass("vault-agent-stream-cut");
				elements(open.nodes)[0]?.addClass("vault-agent-stream-continued");
			}
			this.continues = soft;
			this.el.append(...done.nodes);
			this.keptChildren.push(done.child);
			this.kept = end;
		}
		this.el.append(...open.nodes);
		this.tail = open.nodes;
		this.tailChild = open.child;
		this.shown();
	}
}
