// Scheduled saved prompts through the BUILT main.js, with a scripted model
// server on localhost. The clock is the one the shim reads (`Date`, and the
// minute timer it sets with `window.setInterval`), moved by node:test's mock
// timers, in a time zone an hour east of UTC: the prompt runs once at its
// slot in a new chat kept in the history, under the narrower of its mode and
// the chat's; after the plugin is unloaded and loaded again with the same
// data it does not run again for that slot, and runs the next day's.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it, mock } from "node:test";
import { copySampleVault, emulator, loadPlugin, removeVault, runCommand, settle, useEmulator, visibleNotices } from "../support/harness.mjs";
import { openaiStream, startModelServer } from "../support/model-servers.mjs";

// Berlin in December is UTC+1: the shim takes the offset from `Date`.
process.env.TZ = "Europe/Berlin";

describe("scheduled saved prompts (the built main.js, a real model server on localhost)", () => {
	let server;
	let vault;
	after(async () => {
		mock.timers.reset();
		await server?.close();
		if (vault) removeVault(vault);
	});

	const completions = () => server.requests.filter((r) => r.url.endsWith("/chat/completions"));
	/** The last slots the plugin's saved data holds. */
	const stored = async (plugin) => (await plugin.loadData()).scheduledRuns;

	it("runs a prompt once at its slot, and not again for that slot after a reload", async () => {
		server = await startModelServer();
		vault = copySampleVault();
		useEmulator(vault);
		mkdirSync(join(vault, "Prompts"), { recursive: true });
		writeFileSync(join(vault, "Prompts", "Morning.md"), "---\nschedule: daily 08:30\nmode: Read only\n---\nAdd my plan for {{date}} to Welcome.\n");
		writeFileSync(join(vault, "Prompts", "Wrong.md"), "---\nschedule: daily 8h30\n---\nNever runs.\n");
		const welcome = readFileSync(join(vault, "Welcome.md"), "utf8");
		// 07:29 UTC: 08:29 in Berlin, a minute before the slot.
		mock.timers.enable({ apis: ["Date", "setInterval"], now: Date.parse("2026-12-02T07:29:00Z") });
		const chat = { profiles: [{ id: "p", name: "Local", provider: "openAi", baseUrl: `${server.url}/v1`, model: "test-model" }], activeProfile: "p", promptsFolder: "Prompts" };
		let { plugin } = await loadPlugin(vault, { data: { cliPath: emulator, permissionMode: "askBeforeEdits", chat } });

		// A wrong schedule is said where the prompts' problems are, with its fix.
		const wrong = (await plugin.core.savedPrompts()).prompts.find((p) => p.name === "Wrong");
		assert.match(wrong.problem, /Prompts\/Wrong\.md cannot be run: its schedule property "daily 8h30" is not a schedule \("8h30" is not a time of day \(24-hour HH:MM\)\); write daily 08:30/);

		// The check at the start (still in progress, or done) saw the prompt
		// for the first time: yesterday's slot is kept, nothing runs.
		await plugin.scheduler.check();
		assert.deepEqual(await stored(plugin), { "Prompts/Morning.md": "2026-12-01 08:30" });
		assert.equal(completions().length, 0);

		// The minute timer fires at 08:30 in Berlin: the prompt runs.
		server.script(
			{ stream: openaiStream({ toolCalls: [["obsidianEdit", { command: "append", file: "Welcome", content: "the plan" }]] }) },
			{ stream: openaiStream({ text: "I may only read, so here is the plan instead." }) },
		);
		mock.timers.tick(60_000);
		await plugin.scheduler.check();
		assert.equal(completions().length, 2);
		assert.match(completions()[0].body.messages.at(-1).content, /Add my plan for 2026-12-02 to Welcome\./);
		// Read only (the prompt's) is narrower than Ask before edits (the chat's).
		assert.match(completions()[1].body.messages.find((m) => m.role === "tool").content, /writes_disabled/);
		assert.equal(readFileSync(join(vault, "Welcome.md"), "utf8"), welcome);
		assert.deepEqual(await stored(plugin), { "Prompts/Morning.md": "2026-12-02 08:30" });
		const history = await plugin.conversations.list();
		assert.equal(history.length, 1);
		assert.match(history[0].title, /^Scheduled: Add my plan/);
		const conversation = await plugin.conversations.load(history[0].id);
		assert.deepEqual(conversation.messages[0], { role: "notice", text: "Scheduled: the saved prompt “Morning” ran for its slot 2026-12-02 08:30 (daily 08:30)." });
		assert.equal(conversation.messages.at(-1).text, "I may only read, so here is the plan instead.");
		assert.ok(visibleNotices().some((n) => n.includes("ran the scheduled prompt “Morning”")), visibleNotices().join("\n"));

		// Unloaded and loaded again with the same data, still in the slot's minute and after it.
		const saved = await plugin.loadData();
		plugin.unload();
		await settle(5);
		({ plugin } = await loadPlugin(vault, { data: saved }));
		await plugin.scheduler.check();
		mock.timers.tick(60_000);
		await plugin.scheduler.check();
		assert.equal(completions().length, 2, "the slot is not run again");
		assert.equal((await plugin.conversations.list()).length, 1);

		// The next day's slot, missed while Obsidian was closed: it runs once, late.
		server.script({ stream: openaiStream({ text: "Tomorrow's plan." }) });
		mock.timers.setTime(Date.parse("2026-12-03T09:00:00Z"));
		await plugin.scheduler.check();
		await plugin.scheduler.check();
		assert.equal(completions().length, 3);
		assert.match(completions()[2].body.messages.at(-1).content, /Add my plan for 2026-12-03 to Welcome\./);
		assert.deepEqual(await stored(plugin), { "Prompts/Morning.md": "2026-12-03 08:30" });
		const [latest] = await plugin.conversations.list();
		assert.match((await plugin.conversations.load(latest.id)).messages[0].text, /slot 2026-12-03 08:30 \(daily 08:30\)\. It ran late/);
		plugin.unload();
		await settle(5);
	});
});

describe("a scheduled prompt's change, undone (the built main.js)", () => {
	let server;
	let vault;
	after(async () => {
		mock.timers.reset();
		await server?.close();
		if (vault) removeVault(vault);
	});

	it("a change approved under the prompt's mode is undone by the command: the note back byte for byte, the journal entry marked undone", async () => {
		server = await startModelServer();
		vault = copySampleVault();
		useEmulator(vault);
		mkdirSync(join(vault, "Prompts"), { recursive: true });
		writeFileSync(join(vault, "Prompts", "Evening.md"), "---\nschedule: daily 18:00\nmode: askEveryChange\n---\nAdd the day's close to Welcome.\n");
		const welcome = readFileSync(join(vault, "Welcome.md"));
		// 16:59 UTC: 17:59 in Berlin, a minute before the slot.
		mock.timers.enable({ apis: ["Date", "setInterval"], now: Date.parse("2026-12-02T16:59:00Z") });
		const chat = { profiles: [{ id: "p", name: "Local", provider: "openAi", baseUrl: `${server.url}/v1`, model: "test-model" }], activeProfile: "p", promptsFolder: "Prompts" };
		const { plugin, app } = await loadPlugin(vault, { data: { cliPath: emulator, permissionMode: "askBeforeEdits", chat } });
		await plugin.scheduler.check();

		server.script(
			{ stream: openaiStream({ toolCalls: [["obsidianEdit", { command: "append", file: "Welcome", content: "- Closed the day ☕" }]] }) },
			{ stream: openaiStream({ text: "Added the close." }) },
		);
		mock.timers.tick(60_000);
		const running = plugin.scheduler.check();
		// Ask every change (the prompt's) is narrower than Ask before edits: the append waits for its card.
		let card = null;
		for (let i = 0; i < 500 && !(card = plugin.confirmations.currentCard()); i++) await new Promise((resolve) => setTimeout(resolve, 10));
		assert.ok(card, "the scheduled prompt's append asks first");
		assert.equal(card.requester, "Saved prompt “Evening”");
		assert.deepEqual(readFileSync(join(vault, "Welcome.md")), welcome, "nothing changes before the approval");
		const approved = await plugin.confirmations.approve(card);
		assert.equal(approved.ok, true, approved.text);
		await running;
		assert.match(readFileSync(join(vault, "Welcome.md"), "utf8"), /- Closed the day ☕\n?$/);
		const entry = approved.journal?.entry;
		assert.ok(entry && approved.journal.undoable, "the change is in the undo journal");
		assert.ok(approved.journal.turn, "as the answer of the scheduled chat");
		assert.equal(plugin.core.lastTurn(), approved.journal.turn);

		assert.equal(await runCommand(app, "vault-agent:undo-last-answer"), true);
		for (let i = 0; i < 500 && !plugin.core.journalEntry(entry)?.undone; i++) await new Promise((resolve) => setTimeout(resolve, 10));
		assert.equal(plugin.core.journalEntry(entry)?.undone, true, "the journal entry is marked undone");
		assert.deepEqual(readFileSync(join(vault, "Welcome.md")), welcome, "the note is back byte for byte");
		assert.deepEqual(plugin.core.turnChanges(approved.journal.turn), { total: 1, undoable: 0, undone: 1 });
		plugin.unload();
		await settle(5);
	});
});
