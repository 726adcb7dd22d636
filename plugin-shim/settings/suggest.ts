// Folder and note fields with Obsidian's suggesters (AbstractInputSuggest):
// one path field, and a list of paths drawn as chips with a field to add one.
// Paths only: what a path may be is the core's (it normalises on save).

import { AbstractInputSuggest, type App, setIcon, type TextComponent } from "obsidian";

/** Suggestions shown at most: a vault of thousands of folders stays quick. */
const SHOWN = 50;

type Kind = "folder" | "note";

/** Every folder, from the files' paths (what every Obsidian version has). */
function folders(app: App): string[] {
	const found = new Set<string>();
	for (const file of app.vault.getFiles()) {
		const parts = file.path.split("/");
		for (let i = 1; i < parts.length; i++) found.add(parts.slice(0, i).join("/"));
	}
	return [...found].sort((a, b) => a.localeCompare(b));
}

function notes(app: App): string[] {
	return app.vault
		.getMarkdownFiles()
		.map((file) => file.path)
		.sort((a, b) => a.localeCompare(b));
}

/** Obsidian's suggest popover under a path field: folders or notes containing what was typed. */
export class PathSuggest extends AbstractInputSuggest<string> {
	/** While suggestions show, Enter picks one; the list's own Enter must wait. */
	showing = false;

	constructor(
		app: App,
		private readonly inputEl: HTMLInputElement,
		private readonly kind: Kind,
		private readonly chosen: (path: string) => void,
	) {
		super(app, inputEl);
		this.limit = SHOWN;
	}

	protected getSuggestions(query: string): string[] {
		const typed = query.trim().toLowerCase();
		const all = this.kind === "folder" ? folders(this.app) : notes(this.app);
		return all.filter((path) => path.toLowerCase().includes(typed)).slice(0, SHOWN);
	}

	open(): void {
		this.showing = true;
		super.open();
	}

	close(): void {
		this.showing = false;
		super.close();
	}

	renderSuggestion(path: string, el: HTMLElement): void {
		el.setText(path);
	}

	selectSuggestion(path: string): void {
		this.setValue(path);
		this.chosen(path);
		this.close();
	}
}

/** A single path field: suggestions as the user types; a chosen one saves at once. */
export function suggestPaths(app: App, text: TextComponent, kind: Kind): void {
	new PathSuggest(app, text.inputEl, kind, () => {
		// The field saves on "change", as when the user leaves it.
		text.inputEl.dispatchEvent(new Event("change"));
	});
}

/**
 * A list of paths (folders the agent may read, saved prompts in the palette):
 * each as a chip with its remove button, then a field that adds one (Enter or
 * a suggestion). `save` hands the whole list to the core and returns what it kept.
 */
export function pathList(app: App, containerEl: HTMLElement, opts: { kind: Kind; label: string; placeholder: string; paths: string[]; save: (paths: string[]) => Promise<string[]> }): void {
	const listEl = containerEl.createDiv({ cls: "vault-agent-settings-paths" });
	let paths = opts.paths;
	const input = containerEl.createEl("input", { type: "text", cls: "vault-agent-settings-path-input", attr: { placeholder: opts.placeholder, "aria-label": opts.label } });
	const commit = async (next: string[]) => {
		paths = await opts.save(next);
		draw();
	};
	const draw = () => {
		listEl.empty();
		listEl.toggleClass("is-empty", paths.length === 0);
		for (const path of paths) {
			const chip = listEl.createDiv({ cls: "vault-agent-settings-path" });
			chip.createSpan({ text: path });
			const remove = chip.createEl("button", { cls: "clickable-icon", attr: { "aria-label": `Remove ${path}` } });
			setIcon(remove, "x");
			remove.addEventListener("click", () => void commit(paths.filter((p) => p !== path)));
		}
	};
	const add = (raw: string) => {
		const path = raw.trim();
		input.value = "";
		if (path && !paths.includes(path)) void commit([...paths, path]);
	};
	const suggest = new PathSuggest(app, input, opts.kind, add);
	input.addEventListener("keydown", (evt) => {
		if (evt.key !== "Enter" || evt.isComposing || suggest.showing) return;
		evt.preventDefault();
		add(input.value);
	});
	draw();
}
