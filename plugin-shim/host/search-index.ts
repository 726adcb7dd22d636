// The ranked search's index, kept by the core: built once the layout is
// ready (the core reads the notes in batches and yields between them), with
// a status-bar line while it builds, and told of every change Obsidian
// reports. The core decides what each event means for the index.

import type { Plugin, TAbstractFile } from "obsidian";
import type { CoreHandle, SearchStatus, SearchVaultEvent } from "../core/types";

export interface SearchIndexHandle {
	/** Resolves when the first build and every event so far are in the index. */
	settled(): Promise<void>;
}

export function startSearchIndex(plugin: Plugin, core: CoreHandle): SearchIndexHandle {
	const bar = plugin.addStatusBarItem();
	bar.addClass("vault-agent-search-status");
	// Empty once built (styles.css hides an empty item).
	const show = (status: SearchStatus) => bar.setText(status.label);
	// Events in the order Obsidian sent them (a modify, then a rename, of one note).
	let chain: Promise<unknown> = core.searchBuild(show).catch((error: unknown) => {
		console.warn("Vault Agent: the search index could not be built", error);
		bar.setText("");
	});
	const send = (event: SearchVaultEvent) => {
		chain = chain.then(() => core.searchEvent(event)).catch((error: unknown) => console.warn("Vault Agent: search index event", error));
	};
	const vault = plugin.app.vault;
	plugin.registerEvent(vault.on("create", (file: TAbstractFile) => send({ kind: "create", path: file.path })));
	plugin.registerEvent(vault.on("modify", (file: TAbstractFile) => send({ kind: "modify", path: file.path })));
	plugin.registerEvent(vault.on("delete", (file: TAbstractFile) => send({ kind: "delete", path: file.path })));
	plugin.registerEvent(vault.on("rename", (file: TAbstractFile, oldPath: string) => send({ kind: "rename", path: file.path, oldPath })));
	return {
		settled: async () => {
			let seen: Promise<unknown> | null = null;
			// Events may arrive while waiting: wait until the chain stops growing.
			while (seen !== chain) {
				seen = chain;
				await seen;
			}
		},
	};
}
