// Chat history: a panel under the chat header that lists earlier chats
// (from the store's index), newest first with when they were last used
// ("2 hours ago", "Yesterday"), the chat on screen marked; searches their
// rows (title and first question) and text, and renames or deletes one. Deleting asks first, in an Obsidian modal. A chat open in
// another chat view is marked so; opening it brings that view forward, and
// it is renamed or deleted there, not here.

import { ButtonComponent, Modal, SearchComponent, setIcon, TextComponent, type App } from "obsidian";
import type { ConversationStore, SearchHit } from "../host/conversation-store";
import type { Conversation, CoreHandle } from "../core/types";

export interface HistoryHost {
	app: App;
	store(): ConversationStore | null;
	core(): CoreHandle | null;
	/** The chat on screen, and whether an answer is running in it. */
	current(): { id: string | null; running: boolean };
	/** The chats other chat views show now (chat id → view id). */
	elsewhere(): Map<string, string>;
	open(id: string): Promise<void>;
	/** A chat was renamed (the view keeps its own copy's title in step). */
	renamed(conversation: Conversation): void;
	/** A chat was deleted (the view starts a new one if it was on screen). */
	deleted(id: string): void;
}

export class HistoryPanel {
	readonly el: HTMLElement;
	private readonly listEl: HTMLElement;
	private readonly search: SearchComponent;
	private timer: number | null = null;
	/** Answers of older searches that arrive late are dropped. */
	private generation = 0;

	constructor(
		parent: HTMLElement,
		private readonly host: HistoryHost,
	) {
		this.el = parent.createDiv({ cls: "vault-agent-history-panel" });
		this.el.hide();
		this.search = new SearchComponent(this.el).setPlaceholder("Search chats");
		this.search.inputEl.addClass("vault-agent-history-search");
		this.search.onChange(() => {
			if (this.timer !== null) window.clearTimeout(this.timer);
			this.timer = window.setTimeout(() => void this.refresh(), 200);
		});
		this.listEl = this.el.createDiv({ cls: "vault-agent-history-list" });
	}

	private shown = false;

	toggle(): void {
		if (this.shown) this.hide();
		else {
			this.shown = true;
			this.el.show();
			void this.refresh();
			this.search.inputEl.focus();
		}
	}

	hide(): void {
		this.shown = false;
		this.el.hide();
		if (this.timer !== null) window.clearTimeout(this.timer);
		this.timer = null;
	}

	/** Lists the chats that match the search (all of them when it is empty). */
	async refresh(): Promise<void> {
		const store = this.host.store();
		if (!store || !this.shown) return;
		const generation = ++this.generation;
		const query = this.search.getValue().trim();
		const hits = await store.search(query);
		if (generation !== this.generation) return;
		this.listEl.empty();
		if (hits.length === 0) {
			this.listEl.createDiv({ cls: "vault-agent-history-empty", text: query ? "No chat matches." : "No earlier chats yet." });
			return;
		}
		const elsewhere = this.host.elsewhere();
		for (const hit of hits.slice(0, 200)) this.row(hit, elsewhere.has(hit.id));
	}

	private row(hit: SearchHit, openElsewhere: boolean): void {
		const { id, running } = this.host.current();
		const row = this.listEl.createDiv({ cls: "vault-agent-history-item" });
		row.dataset.id = hit.id;
		const current = hit.id === id;
		row.toggleClass("is-active", current);
		row.toggleClass("is-open-elsewhere", openElsewhere);
		const main = row.createDiv({ cls: "vault-agent-history-main", attr: { role: "button", tabindex: "0" } });
		if (current) main.setAttribute("aria-current", "true");
		const title = main.createDiv({ cls: "vault-agent-history-title" });
		// First, so a long title cut at the end keeps it.
		if (openElsewhere) title.createSpan({ cls: "vault-agent-history-open", text: "Open", attr: { title: "Open in another chat view: a click shows that view" } });
		title.appendText(hit.title);
		// When, then what it began with (under a renamed title) or where the search found the words.
		const meta = main.createDiv({ cls: "vault-agent-history-meta" });
		if (current) meta.createSpan({ cls: "vault-agent-history-current", text: "This chat" });
		meta.createSpan({ cls: "vault-agent-history-when", text: relativeTime(hit.updatedMs, Date.now()), attr: { title: new Date(hit.updatedMs).toLocaleString([], { dateStyle: "medium", timeStyle: "short" }) } });
		const line = hit.excerpt ?? (hit.firstQuestion && hit.firstQuestion !== hit.title ? hit.firstQuestion : "");
		if (line) meta.createSpan({ cls: "vault-agent-history-line", text: line });
		const open = () => {
			if (this.host.current().running) return;
			this.hide();
			void this.host.open(hit.id);
		};
		main.addEventListener("click", open);
		main.addEventListener("keydown", (event: KeyboardEvent) => {
			if (event.key === "Enter" || event.key === " ") {
				event.preventDefault();
				open();
			}
		});
		// A chat in another view is renamed or deleted there (it may be answering).
		const busy = (running && hit.id === id) || openElsewhere;
		const rename = row.createEl("button", { cls: "vault-agent-history-rename clickable-icon", attr: { "aria-label": "Rename" } });
		setIcon(rename, "pencil");
		rename.disabled = busy;
		rename.addEventListener("click", () => new RenameModal(this.host.app, hit.title, (title) => void this.rename(hit.id, title)).open());
		const remove = row.createEl("button", { cls: "vault-agent-history-delete clickable-icon", attr: { "aria-label": "Delete" } });
		setIcon(remove, "trash-2");
		remove.disabled = busy;
		remove.addEventListener("click", () => new DeleteModal(this.host.app, hit.title, () => void this.remove(hit.id)).open());
	}

	private async rename(id: string, title: string): Promise<void> {
		const store = this.host.store();
		const core = this.host.core();
		const current = this.host.current();
		if (!store || !core || (current.running && current.id === id) || this.host.elsewhere().has(id)) return;
		const stored = await store.load(id);
		if (!stored) return;
		const renamed = core.renameConversation(stored, title);
		await store.save(renamed);
		this.host.renamed(renamed);
		await this.refresh();
	}

	private async remove(id: string): Promise<void> {
		const store = this.host.store();
		const current = this.host.current();
		if (!store || (current.running && current.id === id) || this.host.elsewhere().has(id)) return;
		await store.remove(id);
		this.host.deleted(id);
		await this.refresh();
	}
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** When a chat was last used, as a person says it: "Just now", "2 hours ago", "Yesterday", "3 days ago", then the date (never seconds). */
export function relativeTime(ms: number, now: number): string {
	const ago = now - ms;
	const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"} ago`;
	if (ago < MINUTE) return "Just now";
	if (ago < HOUR) return plural(Math.floor(ago / MINUTE), "minute");
	const midnight = (t: number) => new Date(t).setHours(0, 0, 0, 0);
	const days = Math.round((midnight(now) - midnight(ms)) / (24 * HOUR));
	if (days <= 0) return plural(Math.floor(ago / HOUR), "hour");
	if (days === 1) return "Yesterday";
	if (days < 7) return `${days} days ago`;
	const then = new Date(ms);
	return then.toLocaleDateString([], { day: "numeric", month: "short", year: then.getFullYear() === new Date(now).getFullYear() ? undefined : "numeric" });
}

/** Asks for a chat's new name; an empty one goes back to the first message. */
class RenameModal extends Modal {
	constructor(
		app: App,
		private readonly title: string,
		private readonly done: (title: string) => void,
	) {
		super(app);
	}

	onOpen(): void {
		this.modalEl.addClass("vault-agent-rename-modal");
		this.setTitle("Rename chat");
		const input = new TextComponent(this.contentEl).setValue(this.title).setPlaceholder("Empty: named after the first message");
		input.inputEl.addClass("vault-agent-rename-input");
		const save = () => {
			this.done(input.getValue());
			this.close();
		};
		input.inputEl.addEventListener("keydown", (event: KeyboardEvent) => {
			if (event.key === "Enter" && !event.isComposing) {
				event.preventDefault();
				save();
			}
		});
		const buttons = this.contentEl.createDiv({ cls: "modal-button-container" });
		new ButtonComponent(buttons).setButtonText("Save").setCta().onClick(save);
		new ButtonComponent(buttons).setButtonText("Cancel").onClick(() => this.close());
		input.inputEl.select();
	}

	onClose(): void {
		this.contentEl.empty();
	}
}

/** "Delete this chat?" with Delete and Cancel; nothing is deleted without the click. */
class DeleteModal extends Modal {
	constructor(
		app: App,
		private readonly title: string,
		private readonly confirmed: () => void,
	) {
		super(app);
	}

	onOpen(): void {
		this.modalEl.addClass("vault-agent-delete-modal");
		this.setTitle("Delete this chat?");
		this.contentEl.createEl("p", { text: `"${this.title}" and all its messages will be deleted. Other chats stay as they are. This cannot be undone.` });
		const buttons = this.contentEl.createDiv({ cls: "modal-button-container" });
		const remove = new ButtonComponent(buttons).setButtonText("Delete").onClick(() => {
			this.close();
			this.confirmed();
		});
		// Obsidian's warning look (setWarning is deprecated; setDestructive needs 1.13).
		remove.buttonEl.addClass("mod-warning", "vault-agent-delete-confirm");
		new ButtonComponent(buttons).setButtonText("Cancel").onClick(() => this.close());
	}

	onClose(): void {
		this.contentEl.empty();
	}
}
