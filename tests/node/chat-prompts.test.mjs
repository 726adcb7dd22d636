// Saved prompts and rewrites of the editor's selection through the BUILT
// main.js, with a real model server on localhost: a prompt's variables reach
// the model filled in (and a prompt that cannot be filled is refused before
// anything is sent); a rewrite becomes the note-edit card whose diff covers
// only the selection, approved (only that range changes) and undone (the
// note is back byte for byte); a note changed since the selection is refused.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { clickButton, copySampleVault, emulator, loadPlugin, removeVault, runCommand, settle } from "../support/harness.mjs";
import { openaiStream, startModelServer } from "../support/model-servers.mjs";

describe("saved prompts and rewrites (the built main.js, a real model server on localhost)", () => {
	const vaults = [];
	const servers = [];
	after(async () => {
		for (const server of servers) await server.close();
		for (const vault of vaults) removeVault(vault);
	});

	async function setup(data = {}) {
		const server = await startModelServer();
		servers.push(server);
		const vault = copySampleVault();
		vaults.push(vault);
		mkdirSync(join(vault, "Prompts"), { recursive: true });
		writeFileSync(join(vault, "Prompts", "Summarise.md"), "---\ndescription: A summary for the day\nmode: Read only\n---\nOn {{date}}, summarise {{note}}, starting from: {{selection}}\n");
		writeFileSync(join(vault, "Prompts", "Broken.md"), "---\nmode: anything goes\n---\nTell me about {{weather}}.\n");
		const chat = { profiles: [{ id: "p", name: "Local", provider: "openAi", baseUrl: `${server.url}/v1`, model: "test-model" }], activeProfile: "p", promptsFolder: "Prompts" };
		const { plugin, app } = await loadPlugin(vault, { data: { cliPath: emulator, permissionMode: "askBeforeEdits", ...data, chat: { ...chat, ...data.chat } } });
		return { server, plugin, vault, app };
	}

	const completions = (server) => server.requests.filter((r) => r.url.endsWith("/chat/completions"));
	const values = { selection: "the launch slipped", note: "Projects/Roadmap.md", date: "2026-12-01" };

	it("lists the folder's prompts, each wrong property named with its fix", async () => {
		const { plugin } = await setup();
		const { prompts } = await plugin.core.savedPrompts();
		assert.deepEqual(
			prompts.map((p) => [p.path, p.name]),
			[
				["Prompts/Broken.md", "Broken"],
				["Prompts/Summarise.md", "Summarise"],
			],
		);
		const [broken, summarise] = prompts;
		assert.equal(summarise.description, "A summary for the day");
		assert.equal(summarise.mode, "readOnly");
		assert.equal(summarise.problem, undefined);
		assert.match(broken.problem, /Prompts\/Broken\.md cannot be run/);
		assert.match(broken.problem, /its mode property "anything goes" is not a permission mode; use readOnly/);
		assert.match(broken.problem, /\{\{weather\}\}, which is not a variable/);
	});

	it("gives the saved prompts the settings choose a palette command each, with no hotkey", async () => {
		const { plugin, app } = await setup({ chat: { promptCommands: ["Prompts/Summarise.md"] } });
		const prompts = () => Object.values(app.commands.commands).filter((c) => c.id.startsWith("vault-agent:saved-prompt-"));
		for (let waited = 0; prompts().length === 0 && waited < 5000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
		assert.deepEqual(prompts().map((c) => [c.id, c.name, c.hotkeys]), [["vault-agent:saved-prompt-Prompts/Summarise.md", "Vault Agent: Run saved prompt: Summarise", undefined]]);
		// The editor's own commands are there too, for a selection only.
		for (const id of ["ask-about-selection", "rewrite-selection", "run-prompt-on-selection"]) assert.ok(app.commands.commands[`vault-agent:${id}`]?.editorCheckCallback, id);
		await plugin.updateSettings({ chat: { ...plugin.core.settings().chat, promptCommands: [] } });
		for (let waited = 0; prompts().length > 0 && waited < 5000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
		assert.deepEqual(prompts(), [], "a prompt taken out of the setting loses its command");
	});

	it("sends a prompt with each variable filled in, shown as the user's message", async () => {
		const { server, plugin } = await setup();
		server.script({ stream: openaiStream({ text: "Summary." }) });
		const events = [];
		const result = await plugin.core.chatSend(plugin.core.newConversation(), "", (e) => events.push(e), undefined, { prompt: "Prompts/Summarise.md", values });
		assert.equal(result.end, "done");
		const filled = "On 2026-12-01, summarise Projects/Roadmap.md, starting from: the launch slipped";
		assert.equal(events[0].type, "userMessage", "the view is told the message first");
		assert.equal(events[0].text, filled);
		assert.equal(result.conversation.messages[0].text, filled);
		const sent = completions(server)[0].body.messages.at(-1).content;
		assert.ok(sent.includes(filled), sent);
		assert.doesNotMatch(JSON.stringify(completions(server)[0].body), /\{\{/);
	});

	it("refuses a prompt it cannot fill, saying why, with nothing sent", async () => {
		const { server, plugin } = await setup();
		for (const [path, given, why] of [
			["Prompts/Summarise.md", { ...values, selection: undefined }, /uses \{\{selection\}\}, but no text is selected in a note/],
			["Prompts/Broken.md", values, /Broken\.md cannot be run/],
			["Prompts/Gone.md", values, /no saved prompt Prompts\/Gone\.md/],
		]) {
			const events = [];
			const conversation = plugin.core.newConversation();
			const result = await plugin.core.chatSend(conversation, "", (e) => events.push(e), undefined, { prompt: path, values: given });
			assert.equal(result.end, "failed");
			assert.match(events.find((e) => e.type === "error").message, why);
			assert.deepEqual(result.conversation.messages, [], "nothing is added to the chat");
		}
		assert.equal(completions(server).length, 0, "nothing reached the model");
	});

	const NOTE = "# Rewrite me\n\nSame words here.\nSame words here.\nLast line ünïcode 😀.\n";
	// The second "Same words here." (JS offsets are UTF-16, as the editor's).
	const from = NOTE.lastIndexOf("Same words here.");
	const selection = { path: "Rewrite.md", text: NOTE, from, to: from + "Same words here.".length };

	it("turns a rewrite into a card covering only the selection, approved then undone byte for byte", async () => {
		const { server, plugin, vault } = await setup();
		const file = join(vault, "Rewrite.md");
		writeFileSync(file, NOTE);
		server.script({ stream: openaiStream({ text: "Other words there." }) });
		const events = [];
		const paused = await plugin.core.chatSend(plugin.core.newConversation(), "", (e) => events.push(e), undefined, { rewrite: selection, instruction: "say it differently" });
		assert.equal(paused.end, "awaitingConfirmation");
		const asked = completions(server)[0].body;
		assert.equal(asked.tools, undefined, "a rewrite offers the model no tools");
		assert.match(asked.messages[0].content, /Answer with the rewritten text only/);
		assert.match(asked.messages.at(-1).content, /Rewrite the selection: say it differently/);
		assert.match(asked.messages.at(-1).content, /Same words here\./);
		assert.deepEqual(events[0], { type: "userMessage", text: "Rewrite the selection: say it differently", attachments: [{ path: "Rewrite.md", selection: "Same words here." }] });
		const card = events.find((e) => e.type === "confirmationNeeded").card;
		const changed = card.preview.diff.hunks.flatMap((h) => h.lines).filter((l) => l.kind !== "context");
		assert.deepEqual(
			changed.map((l) => [l.kind, l.oldLine ?? l.newLine, l.segments.map((s) => s.text).join("")]),
			[
				["removed", 4, "Same words here."],
				["added", 4, "Other words there."],
			],
		);
		assert.equal(readFileSync(file, "utf8"), NOTE, "nothing changes before the approval");

		const resolved = [];
		const done = await plugin.core.chatResolve(paused.conversation, card.id, true, card.argvHash, (e) => resolved.push(e));
		assert.equal(done.end, "done");
		assert.equal(completions(server).length, 1, "the turn ends with the edit; the model is not asked again");
		const expected = `${NOTE.slice(0, selection.from)}Other words there.${NOTE.slice(selection.to)}`;
		assert.equal(readFileSync(file, "utf8"), expected);
		const result = resolved.find((e) => e.type === "toolFinished").result;
		assert.ok(result.ok && result.journal?.undoable, JSON.stringify(result));

		assert.equal((await plugin.core.undo(result.journal.entry, null)).ok, true);
		assert.ok(readFileSync(file).equals(Buffer.from(NOTE)), "the note is back byte for byte");
	});

	/** Waits until `check()` is true (the model server and the CLI run in between). */
	async function until(check, what) {
		for (let i = 0; i < 1000; i++) {
			if (check()) return;
			await new Promise((resolve) => setTimeout(resolve, 10));
		}
		assert.fail(`timed out waiting for ${what}`);
	}

	/**
	 * The user selects `from`..`to` of Rewrite.md, runs "Rewrite the
	 * selection…", types `instruction`, approves the card in the chat, and
	 * the answer ends (`file` changed). Returns the chat view's element.
	 */
	async function rewriteFromEditor(app, file, text, from, to, instruction) {
		app.workspace.openFile__(app.vault.getAbstractFileByPath("Rewrite.md"), { selection: text.slice(from, to) });
		// What Obsidian's editor answers for the selection.
		const offsetToPos = (offset) => {
			const before = text.slice(0, offset).split("\n");
			return { line: before.length - 1, ch: before.at(-1).length };
		};
		const editor = {
			somethingSelected: () => true,
			getSelection: () => text.slice(from, to),
			getValue: () => text,
			getCursor: (which) => offsetToPos(which === "to" ? to : from),
			posToOffset: (pos) => text.split("\n").slice(0, pos.line).reduce((n, l) => n + l.length + 1, 0) + pos.ch,
		};
		const cardsBefore = document.querySelectorAll(".vault-agent-confirm").length;
		app.commands.commands["vault-agent:rewrite-selection"].editorCheckCallback(false, editor);
		let modal = null;
		await until(() => (modal = document.querySelector(".modal .vault-agent-rewrite")), "the Rewrite modal");
		const input = modal.querySelector("input[type=text]");
		input.value = instruction;
		input.dispatchEvent(new Event("input"));
		clickButton(modal, "Rewrite");
		let approve = null;
		await until(
			() => document.querySelectorAll(".vault-agent-confirm").length > cardsBefore && (approve = [...document.querySelectorAll(".vault-agent-confirm button.vault-agent-approve:not([disabled])")].at(-1)),
			"the card in the chat",
		);
		approve.click();
		const chat = app.workspace.getLeavesOfType("vault-agent-chat")[0].view.containerEl;
		await until(() => !chat.querySelector(".vault-agent-chat").classList.contains("is-running") && readFileSync(file, "utf8") !== text, "the rewrite");
		await settle();
		return chat;
	}

	it("a rewrite from the editor's action, approved in the chat, is undone by the answer's Undo and by the command, byte for byte", async () => {
		const { server, plugin, vault, app } = await setup();
		const file = join(vault, "Rewrite.md");
		writeFileSync(file, NOTE);
		await runCommand(app, "vault-agent:open-chat");
		server.script({ stream: openaiStream({ text: "Other words there." }) });
		const chat = await rewriteFromEditor(app, file, NOTE, selection.from, selection.to, "say it differently");
		assert.equal(readFileSync(file, "utf8"), `${NOTE.slice(0, selection.from)}Other words there.${NOTE.slice(selection.to)}`);
		const bar = [...chat.querySelectorAll(".vault-agent-turn-undo")].at(-1);
		assert.ok(bar, "the answer has its Undo");
		assert.match(bar.textContent, /1 change in this answer/);
		clickButton(bar, "Undo this answer's changes");
		await until(() => bar.querySelector("button").disabled, "the answer's change to be undone");
		assert.ok(readFileSync(file).equals(Buffer.from(NOTE)), "the note is back byte for byte");

		// Again, undone this time from the palette's "Undo this answer's changes".
		server.script({ stream: openaiStream({ text: "Different words, ünïcode 😀." }) });
		await rewriteFromEditor(app, file, NOTE, selection.from, selection.to, "again");
		assert.equal(readFileSync(file, "utf8"), `${NOTE.slice(0, selection.from)}Different words, ünïcode 😀.${NOTE.slice(selection.to)}`);
		const turn = plugin.core.lastTurn();
		assert.ok(turn, "the rewrite is an answer with a change");
		assert.equal(await runCommand(app, "vault-agent:undo-last-answer"), true);
		await until(() => plugin.core.turnChanges(turn).undone === 1, "the command's undo");
		assert.ok(readFileSync(file).equals(Buffer.from(NOTE)), "the note is back byte for byte");
	});

	it("refuses a rewrite when the note changed since the selection, and changes nothing", async () => {
		const { server, plugin, vault } = await setup();
		const file = join(vault, "Rewrite.md");
		// Typed elsewhere in the note after the selection was made.
		const typed = NOTE.replace("Last line", "Final line");
		writeFileSync(file, typed);
		server.script({ stream: openaiStream({ text: "Other words there." }) });
		const events = [];
		const result = await plugin.core.chatSend(plugin.core.newConversation(), "", (e) => events.push(e), undefined, { rewrite: selection, instruction: "say it differently" });
		assert.equal(result.end, "done");
		assert.equal(events.find((e) => e.type === "confirmationNeeded"), undefined, "no card");
		const refused = events.find((e) => e.type === "toolFinished").result.error;
		assert.equal(refused.code, "selection_changed");
		assert.match(refused.message, /changed after you selected the text.*Select the text again/);
		assert.equal(readFileSync(file, "utf8"), typed);
	});

	it("says what is wrong with a selection it cannot rewrite, before asking the model", async () => {
		const { server, plugin } = await setup();
		const events = [];
		const result = await plugin.core.chatSend(plugin.core.newConversation(), "", (e) => events.push(e), undefined, { rewrite: { ...selection, to: NOTE.length + 5 }, instruction: "shorter" });
		assert.equal(result.end, "failed");
		assert.match(events.find((e) => e.type === "error").message, /select the text again/);
		assert.equal(completions(server).length, 0);
	});
});
