// The read cache through the BUILT main.js and the CLI emulator: a repeated
// read runs the CLI once; a change Obsidian reports (the vault's `modify`
// event, as when the user edits a note) or the agent's own write makes the
// next read run it again and see the new text.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { copySampleVault, emulator, loadPlugin, readLog, removeVault, useEmulator } from "../support/harness.mjs";

describe("the read cache of the built main.js", () => {
	let vault;
	let plugin;
	let app;
	let log;
	const read = () => plugin.api.callTool("obsidianNotes", { command: "read", path: "Welcome.md" });
	const reads = () => readLog(log).filter((entry) => entry.argv.includes("read")).length;

	before(async () => {
		vault = copySampleVault();
		log = useEmulator(vault);
		({ plugin, app } = await loadPlugin(vault, { data: { cliPath: emulator, vaultName: "Sample Vault", permissionMode: "askBeforeEdits" } }));
	});
	after(() => removeVault(vault));

	it("answers a repeated read without running the CLI again", async () => {
		const first = await read();
		assert.equal(first.ok, true, first.text);
		const runs = reads();
		const second = await read();
		assert.equal(second.text, first.text);
		assert.equal(reads(), runs, "the second read came from the cache");
	});

	it("reads again after Obsidian reports a change to a note", async () => {
		await read();
		const runs = reads();
		const file = join(vault, "Welcome.md");
		writeFileSync(file, `${readFileSync(file, "utf8")}\nEdited by hand.\n`);
		app.vault.trigger("modify", app.vault.getAbstractFileByPath("Welcome.md"));
		const after = await read();
		assert.equal(reads(), runs + 1);
		assert.match(after.text, /Edited by hand\./);
	});

	it("reads again after the agent's own change", async () => {
		await read();
		const runs = reads();
		const appended = await plugin.api.callTool("obsidianEdit", { command: "append", path: "Welcome.md", content: "Added by the agent." });
		assert.equal(appended.ok, true, appended.text);
		const after = await read();
		assert.ok(reads() > runs);
		assert.match(after.text, /Added by the agent\./);
	});
});
