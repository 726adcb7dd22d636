// Tool output in the chat, drawn so a big result (a 1 MiB task list, a
// 20 000-row CSV) does not stall the view: the first part at once, the rest
// only when asked for. The model reads its own capped copy regardless.
// `[[links]]` and paths of notes that exist become links the chat view opens
// on click (and previews on hover), in the part shown at first; the rest of a
// big output, shown on "Show all", stays plain text so it draws in one go.

import { ButtonComponent } from "obsidian";
import type { Table } from "../core/types";
import type { ImageData } from "../vault-agent-api";

/** Lines of a tool's text shown at first. */
export const SHOWN_LINES = 200;
/** Characters shown at first, for output with very long lines. */
export const SHOWN_CHARS = 20_000;
/** Table rows drawn at first. */
export const SHOWN_ROWS = 100;

/** Whether a vault-relative path or link text names a note in the vault. */
export type NoteExists = (linktext: string) => boolean;

/** `[[target|alias]]` links, and paths ending in `.md` (not inside a link). */
const LINK_OR_PATH = /\[\[([^\]\n]+?)\]\]|((?:[^\s"'`<>|[\]()]+\/)*[^\s"'`<>|[\]()/]+\.md)(?![\w])/g;

/**
 * `text` into `el`: plain text, with `[[links]]` and the paths of notes that
 * exist as `a.internal-link` (what Obsidian's own links are, so the view's
 * click and hover handlers treat them alike). A line that is a whole path
 * (the CLI prints one a line, spaces and all) is one link.
 */
export function appendLinkedText(el: HTMLElement, text: string, exists: NoteExists): void {
	let plain = "";
	const link = (shown: string, target: string) => {
		if (plain) el.appendText(plain);
		plain = "";
		el.createEl("a", { cls: "internal-link", text: shown, attr: { "data-href": target, href: target } });
	};
	for (const line of text.split(/(?<=\n)/)) {
		const body = line.replace(/\r?\n$/, "");
		const path = body.trim();
		if (path.endsWith(".md") && !path.includes("[[") && exists(path)) {
			const start = body.indexOf(path);
			plain += body.slice(0, start);
			link(path, path);
			plain += line.slice(start + path.length);
			continue;
		}
		let last = 0;
		for (const match of line.matchAll(LINK_OR_PATH)) {
			const [whole, wiki] = match;
			if (wiki !== undefined) {
				const target = (wiki.split("|")[0] ?? "").trim();
				if (!target) continue;
				plain += line.slice(last, match.index);
				link(whole, target);
				last = match.index + whole.length;
				continue;
			}
			const path = withSpaces(line.slice(last, match.index), whole, exists);
			if (path === null) continue;
			plain += line.slice(last, match.index + whole.length - path.length);
			link(path, path);
			last = match.index + whole.length;
		}
		plain += line.slice(last);
	}
	if (plain) el.appendText(plain);
}

/** Words before a path that the pattern stops at (a space), tried as part of it. */
const WORDS_BEFORE_PATH = 8;

/**
 * The note a path names, `bare` or the longest one that ends in it and
 * begins a few words before (`before`): "Projects/Launch plan.md" in a list
 * of paths, which the pattern cuts at its space. Only notes there are count.
 */
function withSpaces(before: string, bare: string, exists: NoteExists): string | null {
	let found = exists(bare) ? bare : null;
	let start = before.length;
	for (let words = 0; words < WORDS_BEFORE_PATH && before[start - 1] === " "; words++) {
		const from = before.lastIndexOf(" ", start - 2) + 1;
		const word = before.slice(from, start - 1);
		if (!word || /["'`<>|[\]()]/.test(word)) break;
		start = from;
		const path = before.slice(start) + bare;
		if (exists(path)) found = path;
	}
	return found;
}

/** The text as the CLI printed it, its head first when it is long. */
export function renderToolText(parent: HTMLElement, text: string, exists: NoteExists = () => false): HTMLElement {
	const pre = parent.createEl("pre", { cls: "vault-agent-tool-text" });
	const head = headOf(text);
	appendLinkedText(pre, head.text, exists);
	if (!head.cut) return pre;
	const more = new ButtonComponent(parent)
		.setButtonText(`Show all ${head.totalLines.toLocaleString()} lines`)
		.setClass("vault-agent-show-all")
		.onClick(() => {
			pre.setText(text);
			more.buttonEl.remove();
		});
	return pre;
}

/** The first lines (and characters) of `text`; `cut` when something is left out. */
export function headOf(text: string): { text: string; cut: boolean; totalLines: number } {
	let end = 0;
	for (let lines = 0; lines < SHOWN_LINES && end < text.length; lines++) {
		const next = text.indexOf("\n", end);
		end = next === -1 ? text.length : next + 1;
	}
	end = Math.min(end, SHOWN_CHARS);
	let totalLines = 1;
	for (let i = text.indexOf("\n"); i !== -1 && i < text.length - 1; i = text.indexOf("\n", i + 1)) totalLines += 1;
	return { text: text.slice(0, end), cut: end < text.length, totalLines };
}

/** A table, its first rows at once and the rest on "Show all". */
export function renderTable(parent: HTMLElement, table: Table, exists: NoteExists = () => false): void {
	const wrap = parent.createDiv({ cls: "vault-agent-table-wrap" });
	const el = wrap.createEl("table", { cls: "vault-agent-table" });
	if (table.headers) {
		const row = el.createEl("thead").createEl("tr");
		for (const header of table.headers) row.createEl("th", { text: header });
	}
	const body = el.createEl("tbody");
	const addRows = (rows: string[][], linked: boolean) => {
		for (const cells of rows) {
			const row = body.createEl("tr");
			for (const cell of cells) {
				if (linked && (cell.includes("[[") || cell.includes(".md"))) appendLinkedText(row.createEl("td"), cell, exists);
				else row.createEl("td", { text: cell });
			}
		}
	};
	addRows(table.rows.slice(0, SHOWN_ROWS), true);
	if (table.rows.length > SHOWN_ROWS) {
		const more = new ButtonComponent(parent)
			.setButtonText(`Show all ${table.rows.length} rows`)
			.setClass("vault-agent-show-all")
			.onClick(() => {
				addRows(table.rows.slice(SHOWN_ROWS), false);
				more.buttonEl.remove();
			});
	}
	if (table.moreRows > 0) parent.createDiv({ cls: "vault-agent-notice", text: `${table.moreRows} more rows are in the text below.` });
}

/** An outside tool's images (checked by the core), as thumbnails from their data; a click shows one at full width. */
export function renderToolImages(parent: HTMLElement, images: ImageData[] | undefined): void {
	if (!images?.length) return;
	const row = parent.createDiv({ cls: "vault-agent-tool-images" });
	images.forEach((image, i) => {
		const img = row.createEl("img", {
			cls: "vault-agent-tool-image",
			attr: { src: `data:${image.mime};base64,${image.base64}`, alt: `Image ${i + 1} the tool returned (${image.mime})` },
		});
		img.addEventListener("click", () => img.toggleClass("is-expanded", !img.hasClass("is-expanded")));
	});
}
