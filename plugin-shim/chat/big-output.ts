// Tool output in the chat, drawn so a big result (a 1 MiB task list, a
// 20 000-row CSV) does not stall the view: the first part at once, the rest
// only when asked for. The model reads its own capped copy regardless.

import { ButtonComponent } from "obsidian";
import type { Table } from "../core-types";

/** Lines of a tool's text shown at first. */
export const SHOWN_LINES = 200;
/** Characters shown at first, for output with very long lines. */
export const SHOWN_CHARS = 20_000;
/** Table rows drawn at first. */
export const SHOWN_ROWS = 100;

/** The text as the CLI printed it, its head first when it is long. */
export function renderToolText(parent: HTMLElement, text: string): HTMLElement {
	const pre = parent.createEl("pre", { cls: "vault-agent-tool-text" });
	const head = headOf(text);
	pre.setText(head.text);
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
export function renderTable(parent: HTMLElement, table: Table): void {
	const wrap = parent.createDiv({ cls: "vault-agent-table-wrap" });
	const el = wrap.createEl("table", { cls: "vault-agent-table" });
	if (table.headers) {
		const row = el.createEl("thead").createEl("tr");
		for (const header of table.headers) row.createEl("th", { text: header });
	}
	const body = el.createEl("tbody");
	const addRows = (rows: string[][]) => {
		for (const cells of rows) {
			const row = body.createEl("tr");
			for (const cell of cells) row.createEl("td", { text: cell });
		}
	};
	addRows(table.rows.slice(0, SHOWN_ROWS));
	if (table.rows.length > SHOWN_ROWS) {
		const more = new ButtonComponent(parent)
			.setButtonText(`Show all ${table.rows.length} rows`)
			.setClass("vault-agent-show-all")
			.onClick(() => {
				addRows(table.rows.slice(SHOWN_ROWS));
				more.buttonEl.remove();
			});
	}
	if (table.moreRows > 0) parent.createDiv({ cls: "vault-agent-notice", text: `${table.moreRows} more rows are in the text below.` });
}
