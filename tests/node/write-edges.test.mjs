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

	before(() => mkdirSync(file("Notes"), { recursive: true }));
	const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000" + "1f15c4890000000a49444154789c63000100000500010d0a2db40000000049454e44ae426082", "hex");
	const LATIN1 = Buffer.from("# Caf\xe9\nCr\xe8me br\xfbl\xe9e\n", "latin1");

	async function approved(args) {
		const pending = await plugin.api.callTool("obsidianOrganise", args);
		assert.ok(pending.pending, pending.text);
		return plugin.confirmations.approve(plugin.core.confirmationCard(pending.pending.id));
	}

	it("undo of a delete puts an image and a Latin-1 note back byte for byte", async () => {
		writeFileSync(file("Notes/Latin.md"), LATIN1);
		const image = readFileSync(file("Attachments/diagram.png"));
		const done = await approved({ command: "delete", paths: ["Attachments/diagram.png", "Notes/Latin.md"] });
		assert.equal(done.ok, true, done.text);
		assert.equal(existsSync(file("Attachments/diagram.png")), false);
		const undone = await plugin.core.undo(done.journal.entry, null);
		assert.equal(undone.ok, true, undone.text);
		assert.deepEqual(readFileSync(file("Attachments/diagram.png")), image);
		assert.deepEqual(readFileSync(file("Notes/Latin.md")), LATIN1);
	});

	it("refuses to edit a note that is not UTF-8, and leaves its bytes", async () => {
		writeFileSync(file("Notes/Latin.md"), LATIN1);
		const result = await plugin.api.callTool("obsidianEdit", { command: "edit", path: "Notes/Latin.md", find: "me br", with: "me BR" });
		assert.equal(result.error?.code, "not_utf8", result.text);
		assert.match(result.text, /not UTF-8/);
		assert.equal(result.pending, undefined);
		assert.deepEqual(readFileSync(file("Notes/Latin.md")), LATIN1);
	});

	it("a journal entry of today's format (text only) still loads and undoes a delete", async () => {
		plugin.unload();
		const journal = join(vault, ".obsidian/plugins/vault-agent/journal.json");
		const entry = { id: "u90", time: 1, tool: "obsidianOrganise", command: "delete", target: "Notes/Old.md", summary: "Deleted Notes/Old.md → the trash", undo: { kind: "deleted", notes: [{ path: "Notes/Old.md", content: "# Old ☕\r\n" }] }, writtenHash: "" };
		writeFileSync(journal, JSON.stringify({ version: 1, nextId: 90, entries: [entry] }));
		({ plugin } = await loadPlugin(vault, { data }));
		const undone = await plugin.core.undo("u90", null);
		assert.equal(undone.ok, true, undone.text);
		assert.equal(readFileSync(file("Notes/Old.md"), "utf8"), "# Old ☕\r\n");
	});

	it("an undo of several deleted notes that stops half way is finished by the next Undo", async () => {
		for (const name of ["A", "B"]) writeFileSync(file(`Notes/${name}.md`), `# ${name}\n`);
		const done = await approved({ command: "delete", paths: ["Notes/A.md", "Notes/B.md"] });
		assert.equal(done.ok, true, done.text);
		// Something the vault cannot replace sits where B was (a folder of that name).
		mkdirSync(file("Notes/B.md"));
		const stopped = await plugin.core.undo(done.journal.entry, null);
		assert.equal(stopped.ok, false, stopped.text);
		assert.match(stopped.text, /1 of the 2 notes are back/);
		assert.equal(readFileSync(file("Notes/A.md"), "utf8"), "# A\n");
		rmSync(file("Notes/B.md"), { recursive: true });
		const finished = await plugin.core.undo(done.journal.entry, null);
		assert.equal(finished.ok, true, finished.text);
		assert.equal(readFileSync(file("Notes/B.md"), "utf8"), "# B\n");
		assert.equal(plugin.core.journalEntry(done.journal.entry).undone, true);
	});
});

describe("no write follows a symbolic link out of the vault (real links on disk)", () => {
	let vault;
	let plugin;
	let outside;
	let session;
	const file = (path) => join(vault, path);
	const data = { cliPath: emulator, vaultName: "Sample Vault", permissionMode: "askBeforeEdits", acpAgents: { custom: { command: process.execPath, args: [SCRIPT] } } };

	before(async () => {
		vault = copySampleVault();
		outside = mkdtempSync(join(tmpdir(), "vault-agent-outside-"));
		writeFileSync(join(outside, "Plan.md"), "# Someone else's plan\n");
		symlinkSync(outside, file("Shared"));
		symlinkSync(file(".obsidian"), file("Settings"));
		useEmulator(vault);
		({ plugin } = await loadPlugin(vault, { data }));
	});
	after(async () => {
		const pids = plugin.codingAgents.running().map((s) => s.pid);
		await plugin.codingAgents.dispose();
		await until(() => pids.every((pid) => !isAlive(pid)), "every agent to end");
		plugin.unload();
		removeVault(vault);
		rmSync(outside, { recursive: true, force: true });
	});

	it("refuses create, append and edit through a link out of the vault, and writes nothing there", async () => {
		for (const args of [
			{ command: "create", path: "Shared/New.md", content: "x" },
			{ command: "create", path: "Shared/Deeper/New", content: "x" },
			{ command: "append", path: "Shared/Plan.md", content: "- mine" },
			{ command: "edit", path: "Shared/Plan.md", find: "Someone else's", with: "My" },
		]) {
			const result = await plugin.api.callTool("obsidianEdit", args);
			assert.equal(result.error?.code, "path_outside_vault", `${JSON.stringify(args)}: ${result.text}`);
			assert.match(result.text, /symbolic link/);
			assert.equal(result.pending, undefined);
		}
		assert.deepEqual(readdirSync(outside), ["Plan.md"]);
		assert.equal(readFileSync(join(outside, "Plan.md"), "utf8"), "# Someone else's plan\n");
	});

	it("refuses a write through a link into the config folder", async () => {
		const result = await plugin.api.callTool("obsidianEdit", { command: "create", path: "Settings/evil.md", content: "x" });
		assert.equal(result.error?.code, "path_outside_vault", result.text);
		assert.match(result.text, /configuration folder/);
		assert.equal(existsSync(file(".obsidian/evil.md")), false);
	});

	it("refuses moving a note into a linked folder, and an undo that would make a note again through one", async () => {
		const moved = await plugin.api.callTool("obsidianOrganise", { command: "move", path: "Welcome.md", to: "Shared" });
		assert.equal(moved.error?.code, "path_outside_vault", moved.text);
		mkdirSync(file("Box"));
		writeFileSync(file("Box/Gone.md"), "# Gone\n");
		const pending = await plugin.api.callTool("obsidianOrganise", { command: "delete", path: "Box/Gone.md" });
		const deleted = await plugin.confirmations.approve(plugin.core.confirmationCard(pending.pending.id));
		assert.equal(deleted.ok, true, deleted.text);
		rmSync(file("Box"), { recursive: true });
		symlinkSync(outside, file("Box"));
		const undo = await plugin.core.undo(deleted.journal.entry, null);
		assert.equal(undo.error?.code, "path_outside_vault", undo.text);
		assert.equal(existsSync(join(outside, "Gone.md")), false);
	});

	it("refuses a coding agent's fs/write_text_file through a link out of the vault", async () => {
		session = await plugin.codingAgents.start(plugin.codingAgents.profileFor("agent:custom"));
		const events = [];
		await session.prompt(`write ${file("Shared/Agent.md")}|from the agent`, (event) => events.push(event));
		const said = events.filter((e) => e.type === "textDelta").map((e) => e.text).join("");
		assert.match(said, /^Write refused: .*symbolic link/);
		assert.equal(existsSync(join(outside, "Agent.md")), false);
	});

	it("a link that stays inside the vault is followed, as Obsidian does", async () => {
		symlinkSync(file("Projects"), file("Work"));
		const pending = await plugin.api.callTool("obsidianOrganise", { command: "move", path: "Reading List.md", to: "Work" });
		assert.ok(pending.pending, pending.text);
		const moved = await plugin.confirmations.approve(plugin.core.confirmationCard(pending.pending.id));
		assert.equal(moved.ok, true, moved.text);
		assert.equal(existsSync(file("Projects/Reading List.md")), true);
	});
});

describe("a coding agent's file writes take the core's one rule", () => {
	let vault;
	let plugin;
	let session;
	const file = (path) => join(vault, path);

	async function turn(text, onEvent = () => {}) {
		const events = [];
		await session.prompt(text, (event) => {
			events.push(event);
			onEvent(event);
		});
		return { events, said: events.filter((e) => e.type === "textDelta").map((e) => e.text).join("") };
	}

	before(async () => {
		vault = copySampleVault();
		useEmulator(vault);
		({ plugin } = await loadPlugin(vault, {
			data: { cliPath: emulator, vaultName: "Sample Vault", permissionMode: "askBeforeEdits", acpAgents: { custom: { command: process.execPath, args: [SCRIPT] } } },
		}));
		session = await plugin.codingAgents.start(plugin.codingAgents.profileFor("agent:custom"));
	});
	after(async () => {
		const pids = plugin.codingAgents.running().map((s) => s.pid);
		await plugin.codingAgents.dispose();
		await until(() => pids.every((pid) => !isAlive(pid)), "every agent to end");
		plugin.unload();
		removeVault(vault);
	});

	it("a write to a path without .md is a write of that note (a card for the edit), never \"Alice 1.md\"", async () => {
		const before = readFileSync(file("People/Alice.md"));
		const cards = [];
		const { said } = await turn(`write ${file("People/Alice")}|Replaced by the agent`, (event) => {
			if (event.type === "confirmationNeeded") {
				cards.push(event.card);
				plugin.confirmations.reject(event.card);
			}
		});
		assert.equal(cards.length, 1, said);
		assert.match(cards[0].preview.target, /People\/Alice\.md/);
		assert.match(said, /^Write refused: /);
		assert.deepEqual(readdirSync(file("People")).sort(), ["Alice.md", "Bob.md"]);
		assert.deepEqual(readFileSync(file("People/Alice.md")), before);
		const made = await turn(`write ${file("People/Carol")}|# Carol`);
		assert.equal(made.said, `Wrote ${file("People/Carol")}`);
		assert.equal(readFileSync(file("People/Carol.md"), "utf8").trim(), "# Carol");
	});

	it("refuses a write into the config folder in any form Windows reads as it", async () => {
		for (const path of [".obsidian./plugins/x/data.json", ".obsidian /app.json", "OBSIDI~1/app.json"]) {
			const { said } = await turn(`write ${file(path)}|{}`);
			assert.match(said, /^Write refused: .*configuration folder/, path);
		}
		assert.equal(existsSync(file(".obsidian./plugins/x/data.json")), false);
		assert.equal(existsSync(file("OBSIDI~1")), false);
	});
});
