// Conversations are kept as JSON files in the plugin's own folder
// (<vault>/.obsidian/plugins/vault-agent/conversations/), so they survive a
// restart without appearing as notes in the vault.
//
// The history list comes from one small index file beside them
// (conversations/index.json: id, title, first question, created and updated
// time per chat),
// updated on each save, rename and delete, so listing never parses every
// conversation. Search matches titles from the index at once and the text of
// each chat (what the user and the model said, not tool output) by reading
// the files lazily, once per query, newest first, with what was read kept in
// memory until the chat changes: the index stays small however long the
// chats grow, and search sees all of their words, not a prefix. An index
// that is missing, unreadable or out of step with the files (a chat from an
// older version, a file copied in) is rebuilt from the files.
//
// Every file is read through the core's checked loader (src/doors/chat/stored.rs),
// as data.json is: a chat of the wrong shape is repaired or left out, said
// once, and never stops the history or another chat from opening.

import { normalizePath, type DataAdapter } from "obsidian";
import type { Conversation, CoreHandle } from "../core/types";
import type { ChatImages } from "./images";

export interface ConversationSummary {
	id: string;
	title: string;
	/** The chat's first message, shortened (the history row shows it under a title renamed away from it). */
	firstQuestion: string;
	createdMs: number;
	updatedMs: number;
}

export interface SearchHit extends ConversationSummary {
	/** Where the words were found: the title, or a short excerpt of the text. */
	excerpt: string | null;
}

// 2: entries carry the first question (an older index is rebuilt from the chats once).
const INDEX_VERSION = 2;
const INDEX_FILE = "index.json";

export class ConversationStore {
	private readonly folder: string;
	private readonly indexPath: string;
	private index: Map<string, ConversationSummary> | null = null;
	/** Searchable text of chats read for a search, by id, valid for `updatedMs`. */
	private texts = new Map<string, { updatedMs: number; text: string }>();
	/** What was wrong with a chat's file, by id, until the chat view has said it. */
	private readonly damage = new Map<string, string>();
	/** Files whose damage was said already. */
	private readonly logged = new Set<string>();

	constructor(
		private readonly adapter: DataAdapter,
		pluginDir: string,
		private readonly core: Pick<CoreHandle, "loadConversation">,
		/** The chats' pasted images, which go with their chat. */
		readonly images?: ChatImages,
	) {
		this.folder = normalizePath(`${pluginDir}/conversations`);
		this.indexPath = normalizePath(`${this.folder}/${INDEX_FILE}`);
	}

	private file(id: string): string {
		// Ids come from the core ("chat-<ms>-<n>"); keep them file-name safe anyway.
		return normalizePath(`${this.folder}/${id.replace(/[^\w-]/g, "_")}.json`);
	}

	async save(conversation: Conversation): Promise<void> {
		if (!(await this.adapter.exists(this.folder))) await this.adapter.mkdir(this.folder);
		await this.adapter.write(this.file(conversation.id), JSON.stringify(conversation));
		const index = await this.loadIndex();
		index.set(conversation.id, summaryOf(conversation));
		await this.writeIndex(index);
	}

	async load(id: string): Promise<Conversation | null> {
		const path = this.file(id);
		if (!(await this.adapter.exists(path))) return null;
		return this.read(path, id);
	}

	/** What was wrong with chat `id`'s file when it was read, once (the chat view shows it). */
	takeDamage(id: string): string | null {
		const said = this.damage.get(id) ?? null;
		this.damage.delete(id);
		return said;
	}

	/** One file through the core's loader: the chat, repaired where it must be, or null. */
	private async read(path: string, fileId: string): Promise<Conversation | null> {
		let text: string;
		try {
			text = await this.adapter.read(path);
		} catch (error) {
			this.tell(path, fileId, `The saved chat ${fileId} could not be read (${String(error)}); it was left as it is.`);
			return null;
		}
		try {
			const loaded = this.core.loadConversation(text, fileId);
			if (loaded.repairs) this.tell(path, loaded.conversation.id, loaded.repairs);
			return loaded.conversation;
		} catch (error) {
			const reason = error instanceof Error ? error.message : String(error);
			this.tell(path, fileId, `The saved chat ${fileId} could not be opened: ${reason}. It was left as it is; the other chats are not affected.`);
			return null;
		}
	}

	/** Said once per file and session: in the log now, in the chat when it is opened. */
	private tell(path: string, id: string, message: string): void {
		if (this.logged.has(path)) return;
		this.logged.add(path);
		this.damage.set(id, message);
		console.warn(`Vault Agent: ${message}`);
	}

	/** Newest first. */
	async list(): Promise<ConversationSummary[]> {
		const index = await this.loadIndex();
		return [...index.values()].sort((a, b) => b.updatedMs - a.updatedMs);
	}

	/**
	 * Chats whose row (title and first question) or text holds every word
	 * of `query` (any case), newest first; matches in the row need no file read.
	 */
	async search(query: string): Promise<SearchHit[]> {
		const words = query.toLowerCase().split(/\s+/).filter(Boolean);
		const list = await this.list();
		if (words.length === 0) return list.map((s) => ({ ...s, excerpt: null }));
		const hits: SearchHit[] = [];
		for (const summary of list) {
			const row = `${summary.title}\n${summary.firstQuestion}`.toLowerCase();
			if (words.every((w) => row.includes(w))) {
				hits.push({ ...summary, excerpt: null });
				continue;
			}
			const text = await this.searchText(summary);
			const lower = text.toLowerCase();
			if (words.every((w) => lower.includes(w))) hits.push({ ...summary, excerpt: excerpt(text, lower.indexOf(words[0] ?? "")) });
		}
		return hits;
	}

	private async searchText(summary: ConversationSummary): Promise<string> {
		const cached = this.texts.get(summary.id);
		if (cached && cached.updatedMs === summary.updatedMs) return cached.text;
		const conversation = await this.load(summary.id);
		const text = conversation ? searchableText(conversation) : "";
		this.texts.set(summary.id, { updatedMs: summary.updatedMs, text });
		return text;
	}

	/** Removes this chat's file, its pasted images and its index entry; no other chat is touched. */
	async remove(id: string): Promise<void> {
		const path = this.file(id);
		if (await this.adapter.exists(path)) await this.adapter.remove(path);
		await this.images?.removeChat(id);
		const index = await this.loadIndex();
		index.delete(id);
		this.texts.delete(id);
		await this.writeIndex(index);
	}

	/** The index, checked against the folder's file names (no file is parsed unless it is missing from the index). */
	private async loadIndex(): Promise<Map<string, ConversationSummary>> {
		if (!(await this.adapter.exists(this.folder))) return (this.index = new Map());
		const files = (await this.adapter.list(this.folder)).files.filter((f) => f.endsWith(".json") && f !== this.indexPath);
		const byFile = new Map(files.map((f) => [normalizePath(f), f]));
		let index = this.index ?? (await this.readIndex());
		let changed = false;
		if (!index) {
			index = new Map();
			changed = true;
		}
		// Entries whose file is gone (deleted elsewhere) leave the list.
		for (const id of [...index.keys()]) {
			if (!byFile.has(this.file(id))) {
				index.delete(id);
				changed = true;
			}
		}
		// Files the index does not know (older chats, a damaged index) are read once.
		const known = new Set([...index.keys()].map((id) => this.file(id)));
		for (const [path, original] of byFile) {
			if (known.has(path)) continue;
			// A damaged file is repaired as it is read, or skipped (and said once): never fatal.
			const c = await this.read(original, fileIdOf(path));
			if (c && this.file(c.id) === path) {
				index.set(c.id, summaryOf(c));
				changed = true;
			}
		}
		this.index = index;
		if (changed) await this.writeIndex(index);
		return index;
	}

	private async readIndex(): Promise<Map<string, ConversationSummary> | null> {
		try {
			if (!(await this.adapter.exists(this.indexPath))) return null;
			const stored = JSON.parse(await this.adapter.read(this.indexPath)) as { version?: unknown; chats?: unknown };
			if (stored.version !== INDEX_VERSION || !Array.isArray(stored.chats)) return null;
			const index = new Map<string, ConversationSummary>();
			for (const entry of stored.chats as unknown[]) {
				const s = entry as Partial<ConversationSummary> | null;
				if (!s || typeof s.id !== "string" || typeof s.title !== "string" || typeof s.updatedMs !== "number") return null;
				index.set(s.id, { id: s.id, title: s.title, firstQuestion: typeof s.firstQuestion === "string" ? s.firstQuestion : "", createdMs: typeof s.createdMs === "number" ? s.createdMs : s.updatedMs, updatedMs: s.updatedMs });
			}
			return index;
		} catch (error) {
			console.warn("Vault Agent: the chat index could not be read; it is rebuilt from the chats", error);
			return null;
		}
	}

	private async writeIndex(index: Map<string, ConversationSummary>): Promise<void> {
		this.index = index;
		if (!(await this.adapter.exists(this.folder))) await this.adapter.mkdir(this.folder);
		await this.adapter.write(this.indexPath, JSON.stringify({ version: INDEX_VERSION, chats: [...index.values()] }));
	}
}

/** The id a conversation file's name gives ("chat-1.json" → "chat-1"). */
function fileIdOf(path: string): string {
	return (path.split("/").pop() ?? path).replace(/\.json$/, "");
}

function summaryOf(c: Conversation): ConversationSummary {
	const first = c.messages.find((m) => m.role === "user");
	const question = (first && "text" in first ? first.text : "").replace(/\s+/g, " ").trim();
	return { id: c.id, title: c.title, firstQuestion: question.length > 160 ? `${question.slice(0, 159)}…` : question, createdMs: c.createdMs ?? c.updatedMs, updatedMs: c.updatedMs };
}

/** What search looks through: the words of the user and of the model, not tool output. */
function searchableText(c: Conversation): string {
	return c.messages
		.filter((m) => m.role === "user" || m.role === "assistant")
		.map((m) => ("text" in m ? m.text : ""))
		.join("\n");
}

function excerpt(text: string, at: number): string {
	const start = Math.max(0, at - 40);
	const line = text.slice(start, at + 80).replace(/\s+/g, " ").trim();
	return `${start > 0 ? "…" : ""}${line}${at + 80 < text.length ? "…" : ""}`;
}
