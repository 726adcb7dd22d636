// The ranked search's index, kept by the core: built once the layout is
// ready (the core reads the notes in batches and yields between them), with
// a status-bar line while it builds, and told of every change Obsidian
// reports. The core decides what each event means for the index.
//
// Search by meaning rides on it: after the build, and a while after the
// last change (or after the run going then), the core is asked to embed what
// is new. It answers at once when search by meaning is off, waits for the
// user's yes, or has nothing to do; the settings start and stop runs through
// `embed` and `stopEmbedding`.

import type { Plugin, TAbstractFile } from "obsidian";
import type { CoreHandle, EmbeddingStatus, SearchStatus, SearchVaultEvent } from "../core/types";
import { EMBEDDINGS_TAG } from "../generated/constants";

/** How long after the last change the new sections are embedded. */
const EMBED_AFTER_CHANGE_MS = 5_000;

export interface SearchIndexHandle {
	/**
	 * Resolves when the first build and every event so far are in the index,
	 * and no embedding run is going (the first, after the build, included).
	 * Events reach the words index without waiting for a run.
	 */
	settled(): Promise<void>;
	/** Builds the word index again from every note (the languages changed), after what is queued. */
	rebuild(): Promise<void>;
	/** Embeds what has no vector yet (the settings' button); resolves to the final status. */
	embed(): Promise<EmbeddingStatus>;
	/** Stops a run: the request in flight is aborted, what was embedded is kept. */
	stopEmbedding(): void;
	/** Hears every status of a run (the settings' line); returns how to stop hearing. */
	onEmbeddingStatus(listener: (status: EmbeddingStatus) => void): () => void;
}

export function startSearchIndex(plugin: Plugin, core: CoreHandle, abortHttp: (tag: string) => void): SearchIndexHandle {
	const bar = plugin.addStatusBarItem();
	bar.addClass("vault-agent-search-status");
	// Empty once built (styles.css hides an empty item).
	const show = (status: SearchStatus) => bar.setText(status.label);
	const listeners = new Set<(status: EmbeddingStatus) => void>();
	const showEmbedding = (status: EmbeddingStatus) => {
		bar.setText(status.label);
		for (const listener of listeners) listener(status);
	};
	// A build cut short by unloading the plugin is no failure to report.
	let unloaded = false;
	plugin.register(() => {
		unloaded = true;
	});
	let timer: number | null = null;
	// A change came while a run was going: the run read its notes list at the
	// start, so another run follows it (the core has recorded the change).
	let again = false;
	let running: Promise<EmbeddingStatus> | null = null;
	const embed = (): Promise<EmbeddingStatus> => {
		if (running) return running;
		const run = core
			.embedNotes(showEmbedding)
			.then((status) => {
				// A refusal (off, or waiting for the yes) reports no progress: say it here.
				showEmbedding(status);
				return status;
			})
			.finally(() => {
				running = null;
				if (again && !unloaded) {
					again = false;
					embedLater();
				}
			});
		running = run;
		return run;
	};
	const warnEmbedding = (error: unknown) => {
		if (!unloaded) console.warn("Vault Agent: embedding the notes", error);
	};
	// Vault events in the order Obsidian sent them (a modify, then a rename, of
	// one note), after the build. Embedding runs never join this queue: a run
	// can take hours against a slow model, and the words index must not wait.
	const built = core.searchBuild(show).then(
		() => true,
		(error: unknown) => {
			if (!unloaded) console.warn("Vault Agent: the search index could not be built", error);
			bar.setText("");
			return false;
		},
	);
	let chain: Promise<unknown> = built;
	const firstRun = built.then((ok) => (ok ? embed() : undefined)).catch(warnEmbedding);
	const embedLater = () => {
		if (timer !== null) window.clearTimeout(timer);
		timer = window.setTimeout(() => {
			timer = null;
			void chain.then(() => {
				if (running) again = true;
				else void embed().catch(warnEmbedding);
			});
		}, EMBED_AFTER_CHANGE_MS);
	};
	const stop = () => {
		again = false;
		core.embeddingsStop();
		abortHttp(EMBEDDINGS_TAG);
	};
	plugin.register(() => {
		if (timer !== null) window.clearTimeout(timer);
		stop();
	});
	const send = (event: SearchVaultEvent) => {
		chain = chain
			.then(() => core.searchEvent(event))
			.catch((error: unknown) => {
				if (!unloaded) console.warn("Vault Agent: search index event", error);
			});
		embedLater();
	};
	const vault = plugin.app.vault;
	plugin.registerEvent(vault.on("create", (file: TAbstractFile) => send({ kind: "create", path: file.path })));
	plugin.registerEvent(vault.on("modify", (file: TAbstractFile) => send({ kind: "modify", path: file.path })));
	plugin.registerEvent(vault.on("delete", (file: TAbstractFile) => send({ kind: "delete", path: file.path })));
	plugin.registerEvent(vault.on("rename", (file: TAbstractFile, oldPath: string) => send({ kind: "rename", path: file.path, oldPath })));
	return {
		settled: async () => {
			await firstRun;
			// Events may arrive, and a run start, while waiting: wait until neither does.
			for (;;) {
				const seen = chain;
				await seen;
				const run = running;
				if (run) await run.catch(() => undefined);
				else if (seen === chain) return;
			}
		},
		rebuild: () => {
			const run = chain.then(() => core.searchBuild(show));
			chain = run.catch((error: unknown) => {
				if (!unloaded) console.warn("Vault Agent: the search index could not be rebuilt", error);
			});
			return chain.then(() => undefined);
		},
		embed: () => chain.then(() => embed()),
		stopEmbedding: stop,
		onEmbeddingStatus: (listener) => {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
	};
}
