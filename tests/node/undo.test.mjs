// Undo through the BUILT main.js, the CLI emulator and the vault double that
// reads and writes the real folder: the commands restore a note byte for
// byte, an approved edit is undone, a note changed since shows the dialog
// with the diff, the journal survives a reload (and a corrupt journal.json
// loads), and the chat's tool block and answer carry their Undo buttons.
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
	clickButton,
	copySampleVault,
	emulator,
	loadPlugin,
	removeVault,
	runCommand,
	settle,
	useEmulator,
	visibleNotices,
} from "../support/harness.mjs";
import { openaiStream, startModelServer } from "../support/model-servers.mjs";

const WELCOME = "Welcome.md";
const DAILY = "Daily/2026-03-03.md";

/** Waits until `check()` is true (real processes run in between). */
async function until(check, what) {
	for (let i = 0; i < 1000; i++) {
		if (check()) return;
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
	assert.fail(`timed out waiting for ${what}`);
}

describe("undo through the built main.js", () => {
	let vault;
	let plugin;
	let app;
	const bytes = (path) => readFileSync(join(vault, path));
	const journalFile = () => join(vault, ".obsidian/plugins/vault-agent/journal.json");

	const data = { cliPath: emulator, vaultName: "Sample Vault", allowVaultChanges: true };

	before(async () => {
		vault = copySampleVault();
		useEmulator(vault);
		({ plugin, app } = await loadPlugin(vault, { data }));
	});
	after(() => removeVault(vault));

	it("undoes an append from the command, byte for byte", async () => {
		const before = bytes(WELCOME);
		const result = await plugin.api.callTool("obsidianEdit", { command: "append", file: "Welcome", content: "- [ ] Try the agent\n\tnested ☕" });
		assert.equal(result.ok, true, result.text);
		assert.ok(result.journal?.undoable, "journaled");
		const added = result.diff.hunks.flatMap((h) => h.lines).filter((l) => l.kind === "added").map((l) => l.segments.map((s) => s.text).join(""));
		assert.deepEqual(added.slice(-2), ["- [ ] Try the agent", "\tnested ☕"]);
		assert.notDeepEqual(bytes(WELCOME), before);
		assert.equal(await runCommand(app, "vault-agent:undo-last-change"), true);
		assert.deepEqual(bytes(WELCOME), before);
		assert.ok(visibleNotices().some((n) => /^Undone: Added text to the end of "Welcome\.md"/.test(n)), visibleNotices().join(" | "));
		// The journal file says it was undone, so a reload cannot undo it again.
		const stored = JSON.parse(readFileSync(journalFile(), "utf8"));
		assert.ok(stored.entries.find((e) => e.id === result.journal.entry).undoneMs > 0);
	});

	it("undoes an approved edit", async () => {
		const path = "Projects/Launch plan.md";
		const before = bytes(path);
		const pending = await plugin.api.callTool("obsidianEdit", { command: "edit", path, find: "owner: Alice", with: "owner: Dana" });
		const done = await plugin.confirmations.approve(plugin.core.confirmationCard(pending.pending.id));
		assert.equal(done.ok, true, done.text);
		assert.match(readFileSync(join(vault, path), "utf8"), /^owner: Dana$/m);
		assert.equal((await plugin.core.undo(done.journal.entry, null)).ok, true);
		assert.deepEqual(bytes(path), before);
		const again = await plugin.core.undo(done.journal.entry, null);
		assert.equal(again.error.code, "already_undone");
	});

	it("moves a note the agent created to the trash", async () => {
		const made = await plugin.api.callTool("obsidianEdit", { command: "create", path: "Projects/Q3 plan.md", content: "# Q3 plan" });
		assert.equal(made.ok, true, made.text);
		await runCommand(app, "vault-agent:undo-last-change");
		assert.equal(existsSync(join(vault, "Projects/Q3 plan.md")), false);
		assert.equal(readFileSync(join(vault, ".trash/Q3 plan.md"), "utf8").trim(), "# Q3 plan");
	});

	it("shows what changed since, and undoes only on Undo anyway", async () => {
		const before = bytes(WELCOME);
		await plugin.api.callTool("obsidianEdit", { command: "append", path: WELCOME, content: "- agent line" });
		writeFileSync(join(vault, WELCOME), `${readFileSync(join(vault, WELCOME), "utf8")}\nmy own line`);
		const edited = bytes(WELCOME);
		// Keep: nothing changes.
		let running = runCommand(app, "vault-agent:undo-last-change");
		await until(() => document.querySelector(".vault-agent-undo-conflict"), "the dialog");
		const dialog = document.querySelector(".vault-agent-undo-conflict");
		assert.match(dialog.querySelector(".modal-title").textContent, /Changed since the agent's change/);
		assert.match(dialog.querySelector(".vault-agent-diff-line.is-added").textContent, /my own line/);
		clickButton(dialog, "Keep");
		await running;
		assert.deepEqual(bytes(WELCOME), edited);
		assert.ok(visibleNotices().some((n) => n.startsWith("Kept as it is")));
		// Undo anyway: back to what it was before the agent's change.
		running = runCommand(app, "vault-agent:undo-last-change");
		await until(() => document.querySelector(".vault-agent-undo-conflict"), "the dialog");
		clickButton(document.querySelector(".vault-agent-undo-conflict"), "Undo anyway");
		await running;
		assert.deepEqual(bytes(WELCOME), before);
	});

	it("keeps the journal across a reload of the plugin", async () => {
		const before = bytes(DAILY);
		const result = await plugin.api.callTool("obsidianDailyNote", { command: "daily:append", content: "- [ ] survives a restart" });
		assert.equal(result.ok, true, result.text);
		plugin.unload();
		({ plugin, app } = await loadPlugin(vault, { data }));
		assert.equal(plugin.core.journalEntry(result.journal.entry).undone, false);
		await runCommand(app, "vault-agent:undo-last-change");
		assert.deepEqual(bytes(DAILY), before);
	});

	it("loads a corrupt journal.json as an empty journal", async () => {
		for (const corrupt of ["{\"entries\": [1, {\"id\": 2}", "{\"entries\": \"none\", \"nextId\": -1}", "[]"]) {
			plugin.unload();
			writeFileSync(journalFile(), corrupt);
			const warnings = [];
			const warn = console.warn;
			console.warn = (...args) => warnings.push(args.map(String).join(" "));
			try {
				({ plugin, app } = await loadPlugin(vault, { data }));
			} finally {
				console.warn = warn;
			}
			assert.ok(plugin.core, `loaded over ${corrupt}`);
			assert.ok(
				warnings.some((w) => /undo journal/.test(w)),
				warnings.join("\n"),
			);
			assert.equal((await plugin.core.undoLast()).error.code, "nothing_to_undo");
		}
		// The next change writes a journal that reads back.
		const result = await plugin.api.callTool("obsidianDailyNote", { command: "daily:append", content: "- after" });
		assert.equal(result.ok, true, result.text);
		assert.equal(JSON.parse(readFileSync(journalFile(), "utf8")).entries.length, 1);
		await plugin.core.undoLast();
	});

	it("gives the public API no way to undo", async () => {
		assert.deepEqual(Object.keys(plugin.api).sort(), ["callTool", "listTools", "version", "waitForConfirmation"]);
		for (const tool of (await plugin.api.listTools())) assert.doesNotMatch(JSON.stringify(tool), /undo/i);
	});
});

describe("undo in the chat", () => {
	let vault;
	let plugin;
	let app;
	let server;

	before(async () => {
		server = await startModelServer();
		vault = copySampleVault();
		useEmulator(vault);
		({ plugin, app } = await loadPlugin(vault, {
			data: {
				cliPath: emulator,
				allowVaultChanges: true,
				chat: { provider: "openAi", openai: { baseUrl: `${server.url}/v1`, model: "test-model", apiKeySecret: "" } },
			},
		}));
		await runCommand(app, "vault-agent:open-chat");
	});
	after(async () => {
		await server.close();
		removeVault(vault);
	});

	async function send(text) {
		const chat = document.querySelector(".vault-agent-chat");
		chat.querySelector(".vault-agent-input").value = text;
		clickButton(chat, "Send");
		await until(() => !chat.classList.contains("is-running"), "the answer");
		await settle();
	}

	it("puts Undo on the tool block of a change, with its diff folded", async () => {
		const before = readFileSync(join(vault, DAILY));
		server.script(
			{ stream: openaiStream({ toolCalls: [["obsidianDailyNote", { command: "daily:append", content: "- [ ] Call Bob" }]] }) },
			{ stream: openaiStream({ text: "Added it." }) },
		);
		await send("add call bob to today");
		const block = [...document.querySelectorAll(".vault-agent-tool-call")].at(-1);
		const diff = block.querySelector(".vault-agent-tool-diff");
		assert.equal(diff.open, false, "folded");
		assert.match(diff.querySelector("summary").textContent, /^Change: \+\d+ −0 lines$/);
		assert.match([...diff.querySelectorAll(".vault-agent-diff-line.is-added")].at(-1).textContent, /\+- \[ \] Call Bob$/);
		const bar = document.querySelector(".vault-agent-turn-undo");
		assert.match(bar.textContent, /1 change in this answer/);
		const undo = block.querySelector("button.vault-agent-undo");
		assert.equal(undo.textContent, "Undo");
		undo.click();
		await until(() => block.querySelector(".vault-agent-tool-status").textContent === "Undone", "the block to say Undone");
		// Said once: the spent button goes.
		assert.equal(undo.style.display, "none", "no Undone button beside the Undone status");
		assert.equal(block.open, false, "the click did not unfold the block");
		assert.deepEqual(readFileSync(join(vault, DAILY)), before);
		assert.equal(block.querySelector(".vault-agent-tool-status").textContent, "Undone");
		assert.equal(bar.querySelector("button").disabled, true);
		assert.match(bar.textContent, /This answer's changes were undone/);
	});

	it("undoes a whole answer newest first, and shows why a bookmark cannot be undone", async () => {
		const welcome = readFileSync(join(vault, WELCOME));
		const daily = readFileSync(join(vault, DAILY));
		server.script(
			{
				stream: openaiStream({
					toolCalls: [
						["obsidianEdit", { command: "append", path: WELCOME, content: "- one" }],
						["obsidianEdit", { command: "append", path: WELCOME, content: "- two" }],
						["obsidianDailyNote", { command: "daily:prepend", content: "## Plan" }],
						["obsidianBookmarks", { command: "bookmark", file: WELCOME }],
					],
				}),
			},
			{ stream: openaiStream({ text: "Done." }) },
		);
		await send("do four things");
		const blocks = [...document.querySelectorAll(".vault-agent-tool-call")].slice(-4);
		const bookmark = blocks[3].querySelector("button.vault-agent-undo");
		assert.equal(bookmark.getAttribute("aria-disabled"), "true");
		assert.match(bookmark.getAttribute("aria-label"), /no command that removes a bookmark/);
		const bar = [...document.querySelectorAll(".vault-agent-turn-undo")].at(-1);
		assert.match(bar.textContent, /3 changes in this answer/);
		clickButton(bar, "Undo this answer's changes");
		await until(() => bar.querySelector("button").disabled, "the answer's changes to be undone");
		assert.deepEqual(readFileSync(join(vault, WELCOME)), welcome);
		assert.deepEqual(readFileSync(join(vault, DAILY)), daily);
		assert.ok(visibleNotices().some((n) => /^Undid 3 changes of this answer/.test(n) && /Not undoable: Changed the bookmarks/.test(n)));
		assert.deepEqual(
			blocks.slice(0, 3).map((b) => b.querySelector(".vault-agent-tool-status").textContent),
			["Undone", "Undone", "Undone"],
		);
	});

	it("shows the buttons again, with their state, when the chat is opened again", async () => {
		const id = plugin.lastConversationId();
		const view = app.workspace.getLeavesOfType("vault-agent-chat")[0].view;
		view.newChat();
		await view.open(id);
		// An undone change: its status says so and its button is gone; the last change can still be undone.
		const buttons = [...document.querySelectorAll(".vault-agent-chat button.vault-agent-undo")].map((b) =>
			b.style.display === "none" ? b.closest(".vault-agent-tool-call").querySelector(".vault-agent-tool-status").textContent : b.textContent,
		);
		assert.deepEqual(buttons, ["Undone", "Undone", "Undone", "Undone", "Undo"]);
		assert.equal(document.querySelectorAll(".vault-agent-chat .vault-agent-turn-undo").length, 2);
	});
});
