// The undo journal is kept as one JSON file in the plugin's own folder
// (<vault>/.obsidian/plugins/vault-agent/journal.json), like the
// conversations, so it survives a restart without appearing as a note. The
// core decides what is in it and how large it may grow; this only reads and
// writes the file.

import { Notice, normalizePath, type DataAdapter } from "obsidian";

export class JournalStore {
	readonly path: string;
	private writing: Promise<void> = Promise.resolve();
	private latest: string | null = null;

	constructor(
		private readonly adapter: DataAdapter,
		pluginDir: string,
	) {
		this.path = normalizePath(`${pluginDir}/journal.json`);
	}

	/** The stored journal, or null when there is none or it is not JSON (logged, never thrown). */
	async load(): Promise<unknown> {
		try {
			if (!(await this.adapter.exists(this.path))) return null;
			return JSON.parse(await this.adapter.read(this.path)) as unknown;
		} catch (error) {
			console.warn(`Vault Agent: the undo journal ${this.path} could not be read, so it starts empty.`, error);
			return null;
		}
	}

	/** Writes the latest journal; writes never overlap, and a burst ends with the newest text. */
	save(json: string, dropped: number): Promise<void> {
		if (dropped > 0) {
			new Notice(
				`Vault Agent: the ${dropped} oldest ${dropped === 1 ? "change was" : "changes were"} dropped from the undo journal to keep it within its size; ${dropped === 1 ? "it" : "they"} can no longer be undone.`,
			);
		}
		this.latest = json;
		this.writing = this.writing.then(() => this.flush());
		return this.writing;
	}

	private async flush(): Promise<void> {
		const json = this.latest;
		if (json === null) return;
		this.latest = null;
		try {
			await this.adapter.write(this.path, json);
		} catch (error) {
			console.error(`Vault Agent: the undo journal could not be saved to ${this.path}.`, error);
		}
	}
}
