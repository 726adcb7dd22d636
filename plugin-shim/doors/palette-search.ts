// "Search the vault": the user's own ranked search from the palette. The
// core ranks and cuts the passages (engine::search, `searchVault`); this
// draws them in Obsidian's suggestion list and opens the one chosen at its
// passage's line (Ctrl/Cmd: in a new tab).

import { type App, Keymap, Notice, SuggestModal, TFile } from "obsidian";
import type { CoreHandle, Passage } from "../core/types";

/** Notes listed at most. */
const LIMIT = 20;

export class PaletteSearchModal extends SuggestModal<Passage> {
	constructor(
		app: App,
		private readonly core: () => Promise<CoreHandle | null>,
	) {
		super(app);
		this.setPlaceholder("Search the vault in your own words");
		this.emptyStateText = "Type a question or a few words.";
		this.setInstructions([
			{ command: "↑↓", purpose: "to navigate" },
			{ command: "↵", purpose: "to open" },
			{ command: "ctrl ↵", purpose: "to open in a new tab" },
		]);
	}

	async getSuggestions(query: string): Promise<Passage[]> {
		if (!query.trim()) {
			this.emptyStateText = "Type a question or a few words.";
			return [];
		}
		const core = await this.core();
		if (!core) {
			this.emptyStateText = "Vault Agent has not started yet.";
			return [];
		}
		try {
			const found = await core.searchVault(query, LIMIT);
			// The core's reason when it could not search (a query with no words).
			this.emptyStateText = found.unanswered ?? `No note matches "${query}".`;
			return found.passages;
		} catch (error) {
			this.emptyStateText = error instanceof Error ? error.message : String(error);
			return [];
		}
	}

	renderSuggestion(passage: Passage, el: HTMLElement): void {
		el.addClass("vault-agent-search-result");
		const name = passage.path.replace(/\.md$/, "").split("/").pop() ?? passage.path;
		const heading = lastLevel(passage.heading);
		const title = el.createDiv({ cls: "vault-agent-search-title" });
		title.createSpan({ text: name });
		if (heading && heading.toLowerCase() !== name.toLowerCase()) title.createSpan({ cls: "vault-agent-search-heading", text: ` › ${heading}` });
		const path = el.createDiv({ cls: "vault-agent-search-path", text: passage.path });
		// Shares no word with the query: say why it is here.
		if (passage.byMeaning) path.createSpan({ cls: "vault-agent-search-by-meaning", text: " · found by meaning" });
		el.createDiv({ cls: "vault-agent-search-passage", text: passage.text });
	}

	onChooseSuggestion(passage: Passage, evt: MouseEvent | KeyboardEvent): void {
		// By path and line, not a link text: a name made outside Obsidian may
		// hold "#", and a heading's own "::" reads as a level of the heading path.
		const file = this.app.vault.getAbstractFileByPath(passage.path);
		if (!(file instanceof TFile)) {
			new Notice(`There is no note at ${passage.path} any more.`);
			return;
		}
		// The core counts lines from 1, Obsidian from 0.
		const line = Math.max(0, passage.line - 1);
		void this.app.workspace.getLeaf(Keymap.isModEvent(evt)).openFile(file, { active: true, eState: { line } });
	}
}

/** `Parent::Child`'s last level, shown after the note's name. */
function lastLevel(heading: string): string {
	return heading.split("::").pop()?.trim() ?? "";
}
