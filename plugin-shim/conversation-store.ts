// Conversations are kept as JSON files in the plugin's own folder
// (<vault>/.obsidian/plugins/vault-agent/conversations/), so they survive a
// restart without appearing as notes in the vault.

import { normalizePath, type DataAdapter } from "obsidian";
import type { Conversation } from "./core-types";

export interface ConversationSummary {
	id: string;
	title: string;
	updatedMs: number;
}

export class ConversationStore {
	private readonly folder: string;

	constructor(
		private readonly adapter: DataAdapter,
		pluginDir: string,
	) {
		this.folder = normalizePath(`${pluginDir}/conversations`);
	}

	private file(id: string): string {
		// Ids come from the core ("chat-<ms>-<n>"); keep them file-name safe anyway.
		return normalizePath(`${this.folder}/${id.replace(/[^\w-]/g, "_")}.json`);
	}

	async save(conversation: Conversation): Promise<void> {
		if (!(await this.adapter.exists(this.folder))) await this.adapter.mkdir(this.folder);
		await this.adapter.write(this.file(conversation.id), JSON.stringify(conversation));
	}

	async load(id: string): Promise<Conversation | null> {
		const path = this.file(id);
		if (!(await this.adapter.exists(path))) return null;
		try {
			return JSON.parse(await this.adapter.read(path)) as Conversation;
		} catch (error) {
			console.warn(`Vault Agent: could not read conversation ${id}`, error);
			return null;
		}
	}

	/** Newest first. */
	async list(): Promise<ConversationSummary[]> {
		if (!(await this.adapter.exists(this.folder))) return [];
		const { files } = await this.adapter.list(this.folder);
		const summaries: ConversationSummary[] = [];
		for (const path of files.filter((f) => f.endsWith(".json"))) {
			try {
				const c = JSON.parse(await this.adapter.read(path)) as Conversation;
				summaries.push({ id: c.id, title: c.title, updatedMs: c.updatedMs });
			} catch {
				// A damaged file is skipped, not fatal.
			}
		}
		return summaries.sort((a, b) => b.updatedMs - a.updatedMs);
	}

	async remove(id: string): Promise<void> {
		const path = this.file(id);
		if (await this.adapter.exists(path)) await this.adapter.remove(path);
	}
}
