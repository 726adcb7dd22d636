// Files dragged from Obsidian's own panes (the file explorer, search,
// backlinks, a tab's header) onto the chat's input attach as chips, as `[[`
// does: notes, PDFs and images. Obsidian keeps what is being dragged in
// `app.dragManager.draggable`, which is not in its public API, so it is read
// defensively; where it is missing, the `obsidian://open` link Obsidian puts
// in the drag's text names the file. Files from the system's file manager are
// image-input.ts's.

import { TFile, type App, type Component, type TAbstractFile } from "obsidian";
import { imageMime } from "../host/images";

/** What Obsidian's drag manager holds during a drag from one of its panes. */
interface Draggable {
	type?: string;
	file?: TAbstractFile;
	files?: TAbstractFile[];
}

export function acceptVaultDrops(options: {
	app: App;
	owner: Component;
	target: HTMLElement;
	/** False when the message cannot carry it (the bar says why). */
	attach: (file: TFile) => boolean;
}): void {
	const { app, owner, target } = options;
	owner.registerDomEvent(target, "dragover", (event: DragEvent) => {
		if (attachable(dragged(app)).length === 0) return;
		event.preventDefault();
		if (event.dataTransfer) event.dataTransfer.dropEffect = "link";
	});
	owner.registerDomEvent(target, "drop", (event: DragEvent) => {
		const files = attachable(dragged(app) ?? linked(app, event.dataTransfer?.getData("text/plain") ?? ""));
		if (files.length === 0) return;
		// The link text is not typed into the input: the files are attached instead.
		event.preventDefault();
		for (const file of files) if (!options.attach(file)) break;
	});
}

/** The files Obsidian says are being dragged, or null when it says nothing. */
function dragged(app: App): TAbstractFile[] | null {
	const draggable = (app as unknown as { dragManager?: { draggable?: Draggable | null } }).dragManager?.draggable;
	if (!draggable) return null;
	if (draggable.type === "file" && draggable.file) return [draggable.file];
	if (draggable.type === "files") return draggable.files ?? [];
	return [];
}

/** The files of this vault named by `obsidian://open?vault=…&file=…` lines. */
function linked(app: App, text: string): TAbstractFile[] {
	const files: TAbstractFile[] = [];
	for (const line of text.split(/\r?\n/)) {
		let url: URL;
		try {
			url = new URL(line.trim());
		} catch {
			continue;
		}
		if (url.protocol !== "obsidian:" || url.hostname !== "open" || url.searchParams.get("vault") !== app.vault.getName()) continue;
		const path = url.searchParams.get("file");
		const file = path ? (app.vault.getAbstractFileByPath(path) ?? app.vault.getAbstractFileByPath(`${path}.md`)) : null;
		if (file) files.push(file);
	}
	return files;
}

function attachable(files: TAbstractFile[] | null): TFile[] {
	return (files ?? []).filter((f): f is TFile => f instanceof TFile && (f.extension === "md" || f.extension === "pdf" || imageMime(f.path) !== null));
}
