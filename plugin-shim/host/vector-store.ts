// Search by meaning's vectors are kept as one binary file in the plugin's own
// folder (<vault>/.obsidian/plugins/vault-agent/embeddings.bin), beside the
// journal and the conversations: never a note, and gone with the plugin. The
// core decides what is in it (src/search/vectors.rs); this reads and writes it.

import { normalizePath, type DataAdapter } from "obsidian";

export class VectorStore {
	readonly path: string;
	private writing: Promise<void> = Promise.resolve();
	private latest: Uint8Array | null = null;

	constructor(
		private readonly adapter: DataAdapter,
		pluginDir: string,
	) {
		this.path = normalizePath(`${pluginDir}/embeddings.bin`);
	}

	/** The stored bytes, or null when there are none or they cannot be read (logged, never thrown). */
	async load(): Promise<Uint8Array | null> {
		try {
			if (!(await this.adapter.exists(this.path))) return null;
			return new Uint8Array(await this.adapter.readBinary(this.path));
		} catch (error) {
			console.warn(`Vault Agent: ${this.path} could not be read, so the notes are embedded again.`, error);
			return null;
		}
	}

	/** Writes the latest vectors; writes never overlap, and a burst ends with the newest. */
	save(bytes: Uint8Array): Promise<void> {
		// The core's memory may move under a view of it: keep a copy.
		this.latest = bytes.slice();
		this.writing = this.writing.then(() => this.flush());
		return this.writing;
	}

	private async flush(): Promise<void> {
		const bytes = this.latest;
		if (bytes === null) return;
		this.latest = null;
		try {
			const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
			await this.adapter.writeBinary(this.path, buffer);
		} catch (error) {
			console.error(`Vault Agent: the vectors could not be saved to ${this.path}.`, error);
		}
	}
}
