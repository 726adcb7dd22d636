// Notes attached to the next message, as chips above the chat's input: the
// note open in Obsidian (with its selection, when there is one) follows the
// active note until the user removes it; `[[` or `@` in the input suggests
// notes, images and PDFs with Obsidian's own suggest popover and attaches the
// chosen one; pasted images join as chips with their thumbnail; a note's chip
// offers the images the note embeds, to attach one by itself. The core
// decides what the model is told about them (src/doors/chat/prompt.rs).

import { MarkdownView, setIcon, TFile, type App } from "obsidian";
import { TextareaSuggest } from "./textarea-suggest";
import type { Attachment } from "../core/types";
import { MAX_IMAGES_PER_MESSAGE } from "../generated/limits";
import { imageMime } from "../host/images";

/** How the bar shows and lets go of images (chat/image-input.ts keeps the pasted ones). */
export interface ImageChips {
	/** Where a thumbnail loads from, or null. */
	src(attachment: Attachment): string | null;
	/** A pasted image's chip was removed before it was sent: its file goes. */
	dropped(attachment: Attachment): void;
}

/** The selection as a chip shows it; the core bounds what the model reads. */
const CHIP_SELECTION_CHARS = 40;

export class AttachmentBar {
	readonly el: HTMLElement;
	/** Notes picked with `[[` or `@`, until the message is sent. */
	private mentions: Attachment[] = [];
	private openNote: Attachment | null = null;
	/** The user removed the open-note chip: it stays away until a new chat. */
	private openNoteRemoved = false;
	/** The note whose embedded images are offered under the chips, or null. */
	private picking: string | null = null;

	constructor(
		parent: HTMLElement,
		private readonly app: App,
		private readonly images?: ImageChips,
		/** Why something was not attached, for the user: never a silent drop. */
		private readonly say: (message: string) => void = () => {},
	) {
		this.el = parent.createDiv({ cls: "vault-agent-attachments" });
	}

	/** Reads the active note and its selection again, and redraws. */
	followActiveNote(): void {
		const file = this.app.workspace.getActiveFile();
		// An image or a PDF open in a tab is not attached by itself: it is sent only when chosen.
		this.openNote = file && !this.openNoteRemoved && !imageMime(file.path) && file.extension !== "pdf" ? { path: file.path, selection: this.selection() } : null;
		this.render();
	}

	/** Back to a fresh chat: the open note is attached again, mentions go (pasted images with their files). */
	reset(): void {
		for (const m of this.mentions) if (m.pasted) this.images?.dropped(m);
		this.mentions = [];
		this.openNoteRemoved = false;
		this.picking = null;
		this.followActiveNote();
	}

	attach(file: TFile): boolean {
		return this.add({ path: file.path });
	}

	/** A note or an image; false when the message holds as many images as it can carry. */
	add(attachment: Attachment): boolean {
		const image = attachment.pasted || imageMime(attachment.path);
		if (image && this.mentions.filter((m) => m.pasted || imageMime(m.path)).length >= MAX_IMAGES_PER_MESSAGE) {
			this.say(`One message carries ${MAX_IMAGES_PER_MESSAGE} images at most.`);
			return false;
		}
		if (!this.mentions.some((m) => m.path === attachment.path)) this.mentions.push(attachment);
		this.render();
		return true;
	}

	/** The images alone, for a coding agent (it reads notes itself); the notes' chips stay. */
	takeImages(): Attachment[] {
		const images = this.mentions.filter((m) => m.pasted || imageMime(m.path));
		this.mentions = this.mentions.filter((m) => !images.includes(m));
		this.render();
		return images;
	}

	/** A message the core did not take: its attachments are back, to send again. */
	restore(attachments: Attachment[]): void {
		this.mentions = attachments.filter((a) => a.path !== this.openNote?.path);
		this.render();
	}

	/** What goes with the message being sent; mentions are used up by it. */
	take(): Attachment[] {
		this.followActiveNote();
		const all = [...(this.openNote ? [this.openNote] : []), ...this.mentions.filter((m) => m.path !== this.openNote?.path)];
		this.mentions = [];
		this.picking = null;
		this.render();
		return all;
	}

	private selection(): string | undefined {
		const workspace = this.app.workspace;
		const recent = workspace.getMostRecentLeaf()?.view;
		const editor = workspace.activeEditor?.editor ?? (recent instanceof MarkdownView ? recent.editor : undefined);
		const text = editor?.getSelection();
		return text && text.trim() ? text : undefined;
	}

	private render(): void {
		this.el.empty();
		if (this.openNote) this.chip(this.openNote, true);
		for (const mention of this.mentions) if (mention.path !== this.openNote?.path) this.chip(mention, false);
		const picking = [this.openNote, ...this.mentions].some((a) => a?.path === this.picking) ? this.picking : null;
		if (picking) this.drawEmbeddedImages(picking);
		this.el.toggle(this.el.childElementCount > 0);
	}

	/** The images note `path` embeds (Obsidian's metadata cache, each link resolved from the note), not yet attached. */
	private embeddedImages(path: string): TFile[] {
		const note = this.app.vault.getAbstractFileByPath(path);
		if (!(note instanceof TFile) || note.extension !== "md") return [];
		const found = new Map<string, TFile>();
		for (const embed of this.app.metadataCache.getFileCache(note)?.embeds ?? []) {
			const file = this.app.metadataCache.getFirstLinkpathDest(embed.link.replace(/#.*$/, ""), note.path);
			if (file && imageMime(file.path) && !this.mentions.some((m) => m.path === file.path)) found.set(file.path, file);
		}
		return [...found.values()];
	}

	/** A row under the chips: each image the note embeds, as a button that attaches it. */
	private drawEmbeddedImages(path: string): void {
		const row = this.el.createDiv({ cls: "vault-agent-embedded-images", attr: { "aria-label": `Images in ${path.replace(/\.md$/, "")}` } });
		for (const file of this.embeddedImages(path)) {
			const button = row.createEl("button", { cls: "vault-agent-embedded-image", attr: { "aria-label": `Attach ${file.path}`, title: file.path } });
			const src = this.images?.src({ path: file.path });
			if (src) button.createEl("img", { cls: "vault-agent-chip-thumb", attr: { src, alt: "" } });
			button.createSpan({ text: file.name });
			button.addEventListener("click", () => {
				this.picking = null;
				this.add({ path: file.path });
			});
		}
	}

	private chip(attachment: Attachment, open: boolean): void {
		const chip = this.el.createDiv({ cls: `vault-agent-chip${open ? " is-open-note" : ""}`, attr: { title: attachment.pasted ? "Pasted image" : attachment.path } });
		chip.dataset.path = attachment.path;
		const src = attachment.pasted || imageMime(attachment.path) ? this.images?.src(attachment) : null;
		if (src) chip.createEl("img", { cls: "vault-agent-chip-thumb", attr: { src, alt: "" } });
		else setIcon(chip.createSpan({ cls: "vault-agent-chip-icon" }), open ? "file-text" : isPdf(attachment.path) ? "book-open" : "at-sign");
		chip.createSpan({ cls: "vault-agent-chip-path", text: attachment.pasted ? "Pasted image" : attachment.path.replace(/\.md$/, "") });
		const embedded = attachment.pasted ? [] : this.embeddedImages(attachment.path);
		if (embedded.length > 0) {
			const pick = chip.createEl("button", {
				cls: "vault-agent-chip-images clickable-icon",
				attr: { "aria-label": `Attach an image from this note (${embedded.length})`, "aria-expanded": String(this.picking === attachment.path) },
			});
			setIcon(pick.createSpan(), "image");
			pick.createSpan({ text: String(embedded.length) });
			pick.addEventListener("click", () => {
				this.picking = this.picking === attachment.path ? null : attachment.path;
				this.render();
			});
		}
		if (attachment.selection) {
			const short = attachment.selection.replace(/\s+/g, " ").trim();
			chip.createSpan({
				cls: "vault-agent-chip-selection",
				text: `“${short.length > CHIP_SELECTION_CHARS ? `${short.slice(0, CHIP_SELECTION_CHARS)}…` : short}”`,
			});
		}
		const remove = chip.createEl("button", { cls: "vault-agent-chip-remove clickable-icon", attr: { "aria-label": `Remove ${attachment.path}` } });
		setIcon(remove, "x");
		remove.addEventListener("click", () => {
			if (open) {
				this.openNoteRemoved = true;
				this.openNote = null;
			} else {
				this.mentions = this.mentions.filter((m) => m.path !== attachment.path);
				if (attachment.pasted) this.images?.dropped(attachment);
			}
			this.render();
		});
	}
}

/** A vault PDF (its text is read when the message is sent). */
export function isPdf(path: string): boolean {
	return path.toLowerCase().endsWith(".pdf");
}

/** `[[` or `@` and what follows it up to the caret, or null. */
function mentionAt(text: string, caret: number): { start: number; query: string } | null {
	const match = /(?:\[\[|(?:^|\s)@)([^\]\n@[]*)$/.exec(text.slice(0, caret));
	const query = match?.[1];
	if (!match || query === undefined) return null;
	const start = match.index + match[0].length - query.length - (match[0].includes("[[") ? 2 : 1);
	return { start, query };
}

/**
 * Obsidian's suggest popover on the chat's textarea (a plain text box, as
 * AbstractInputSuggest expects): notes matching what follows `[[` or `@`.
 */
export class NoteSuggest extends TextareaSuggest<TFile> {
	constructor(
		app: App,
		textarea: HTMLTextAreaElement,
		private readonly picked: (file: TFile) => void,
	) {
		super(app, textarea, 20);
	}

	protected getSuggestions(): TFile[] {
		const mention = mentionAt(this.textarea.value, this.textarea.selectionStart);
		if (!mention) return [];
		const query = mention.query.toLowerCase();
		return this.app.vault
			.getFiles()
			.filter((file) => (file.extension === "md" || file.extension === "pdf" || imageMime(file.name)) && file.path.toLowerCase().includes(query))
			.sort((a, b) => rank(a, query) - rank(b, query) || a.path.localeCompare(b.path))
			.slice(0, this.limit);
	}

	renderSuggestion(file: TFile, el: HTMLElement): void {
		el.addClass("vault-agent-suggestion");
		el.createDiv({ cls: "suggestion-title", text: file.basename });
		el.createDiv({ cls: "suggestion-note", text: file.path });
	}

	/** The typed `[[query` or `@query` becomes a [[link]] in the text, and the note a chip. */
	selectSuggestion(file: TFile): void {
		const text = this.textarea.value;
		const caret = this.textarea.selectionStart;
		const mention = mentionAt(text, caret);
		if (mention) {
			const link = `[[${file.extension === "md" ? file.basename : file.name}]]`;
			const rest = text.slice(caret).replace(/^\]\]/, "");
			this.textarea.value = `${text.slice(0, mention.start)}${link}${rest}`;
			const at = mention.start + link.length;
			this.textarea.setSelectionRange(at, at);
		}
		this.picked(file);
		this.close();
	}
}

/** Basename matches first, those that start with the query before them. */
function rank(file: TFile, query: string): number {
	const name = file.basename.toLowerCase();
	return name.startsWith(query) ? 0 : name.includes(query) ? 1 : 2;
}
