// "Approve for this chat" on an outside tool's card, through the BUILT
// main.js and the chat view: the answer is kept with that chat, so the same
// chat reopened from the history (after Obsidian restarts) still runs the
// tool without a card, while any other chat asks (docs/outside-tools.md,
// "How a call is decided"). A real stdio server written with the official
// SDK logs what it receives.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { copySampleVault, emulator, eventually, loadPlugin, removeVault, root } from "../support/harness.mjs";
import { openaiStream as stream, startModelServer } from "../support/model-servers.mjs";

const serverScript = join(root, "tests/support/outside-mcp-server.mjs");
/** The key the chat keeps: the server's name, a fingerprint of what it runs, the tool. */
const KEY = /^tools\u001f[0-9a-f]{12}\u001fdelete_item$/;

describe("'Approve for this chat' for an outside tool lives with that chat, in the history too", () => {
	let vault;
	let plugin;
	let model;
	let dir;
	let logPath;
	let chatId;
	let view;
	const deleted = () => (existsSync(logPath) ? readFileSync(logPath, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line)) : []).filter((e) => e.tool === "delete_item").map((e) => e.id);
	// The view's own element is the chat (`.vault-agent-chat`): querySelector,
	// which looks only below it, never saw it running, so a test went on while
	// the last answer still ran and its next Send was dropped (a wait for ever).
	const running = (view) => view.contentEl.classList.contains("is-running");
	/** Cards still waiting for an answer (an answered one is is-done, a refused one is-closed). */
	const openCards = (view) => view.contentEl.querySelectorAll(".vault-agent-confirm:not(.is-done):not(.is-closed)").length;

	/** The plugin as Obsidian starts it, with `data` as its data.json; secret storage is the app's. */
	async function start(data) {
		({ plugin } = await loadPlugin(vault, { data }));
		plugin.app.secretStorage.setSecret("mcp-tools-log", logPath);
	}

	before(async () => {
		dir = mkdtempSync(join(tmpdir(), "outside-approval-"));
		logPath = join(dir, "calls.jsonl");
		model = await startModelServer();
		vault = copySampleVault();
		await start({
			cliPath: emulator,
			permissionMode: "askBeforeEdits",
			chat: { provider: "openAi", openai: { baseUrl: `${model.url}/v1`, model: "test-model", apiKeySecret: "" } },
			mcpServers: [{ id: "tools", kind: "stdio", command: process.execPath, args: [serverScript, "stdio"], env: [{ name: "OUTSIDE_MCP_LOG", secret: "mcp-tools-log" }], trust: "askEveryCall" }],
		});
	});
	after(async () => {
		plugin.unload();
		await model.close();
		removeVault(vault);
		rmSync(dir, { recursive: true, force: true });
	});

	it("is given with a click on the chat's card, and the saved chat keeps it", async () => {
		view = await plugin.openChat();
		model.script({ stream: stream({ toolCalls: [["mcp_tools_delete_item", { id: "c1" }]] }) }, { stream: stream({ text: "Deleted." }) });
		view.inputEl.value = "delete c1";
		await view.send();
		let button = null;
		await eventually(() => (button = view.contentEl.querySelector(".vault-agent-confirm button.vault-agent-approve-chat")));
		assert.equal(button.textContent, "Approve for this chat");
		// The card says plainly that what the tool changes cannot be undone here.
		const shown = [...view.contentEl.querySelectorAll(".vault-agent-confirm .vault-agent-confirm-warning, .vault-agent-confirm .vault-agent-confirm-via")].map((el) => el.textContent);
		assert.ok(shown.some((text) => /^Vault Agent cannot undo this: the MCP server tools makes the change itself\./.test(text)), shown.join("\n"));
		assert.ok(!shown.some((text) => /undo cannot reach/i.test(text)), "said once, plainly");
		assert.deepEqual(deleted(), [], "nothing is sent before the click");
		button.click();
		await eventually(() => deleted().length === 1 && !running(view));
		const [summary] = await plugin.conversations.list();
		chatId = summary.id;
		await eventually(async () => (await plugin.conversations.load(chatId))?.approvedOutside?.some((key) => KEY.test(key)));
	});

	it("the same chat reopened after a restart runs the tool without a card; a new chat asks", async () => {
		// What Obsidian keeps on disk: data.json (the test double holds it in memory) and the chats' files.
		const saved = await plugin.loadData();
		assert.equal(saved.lastConversation, chatId);
		plugin.unload();
		await start(saved);
		view = await plugin.openChat();
		await eventually(() => view.contentEl.querySelector(".vault-agent-msg.is-user"));
		assert.match(view.contentEl.querySelector(".vault-agent-msg.is-user").textContent, /delete c1/, "the last chat is open again");
		model.script({ stream: stream({ toolCalls: [["mcp_tools_delete_item", { id: "c2" }]] }) }, { stream: stream({ text: "Deleted too." }) });
		view.inputEl.value = "and c2";
		await view.send();
		await eventually(() => !running(view));
		assert.equal(openCards(view), 0, "no card in the chat it was given in");
		assert.deepEqual(deleted(), ["c1", "c2"]);

		const events = [];
		model.script({ stream: stream({ toolCalls: [["mcp_tools_delete_item", { id: "c3" }]] }) });
		const other = await plugin.core.chatSend(plugin.core.newConversation(), "delete c3", (event) => events.push(event));
		assert.equal(other.end, "awaitingConfirmation", "another chat asks");
		assert.deepEqual(other.conversation.approvedOutside ?? [], []);
		assert.deepEqual(deleted(), ["c1", "c2"], "and sends nothing before its own click");
	});

	it("a server of that name that runs another program is asked about again in that chat", async () => {
		const [server] = plugin.core.settings().mcpServers;
		// Removed and added again under the same name, or edited: another program the user never approved.
		await plugin.updateSettings({ mcpServers: [{ ...server, args: [...server.args, "--another-build"] }] });
		model.script({ stream: stream({ toolCalls: [["mcp_tools_delete_item", { id: "c4" }]] }) }, { stream: stream({ text: "Not deleted." }) });
		view.inputEl.value = "and c4";
		await view.send();
		let reject = null;
		await eventually(() => (reject = view.contentEl.querySelector(".vault-agent-confirm:not(.is-done):not(.is-closed) button.vault-agent-reject")));
		assert.deepEqual(deleted(), ["c1", "c2"], "a card, and nothing sent");
		reject.click();
		await eventually(() => !running(view) && openCards(view) === 0);
		assert.deepEqual(deleted(), ["c1", "c2"]);
	});

	/** Asks the chat to delete `id`: the open card's buttons, or null when it ran without one. */
	async function askToDelete(id) {
		model.script({ stream: stream({ toolCalls: [["mcp_tools_delete_item", { id }]] }) }, { stream: stream({ text: "Done." }) });
		view.inputEl.value = `delete ${id}`;
		await view.send();
		let card = null;
		await eventually(() => (card = view.contentEl.querySelector(".vault-agent-confirm:not(.is-done):not(.is-closed)")) || (!running(view) && deleted().includes(id)));
		return card;
	}

	/** "Approve for this chat" on the server as it is now: the call runs, the next one runs without a card. */
	async function approveForThisChat(id, next) {
		const card = await askToDelete(id);
		assert.ok(card, "the server as it is now was never approved in this chat: a card");
		card.querySelector("button.vault-agent-approve-chat").click();
		await eventually(() => deleted().includes(id) && !running(view));
		assert.equal(await askToDelete(next), null, "approved for this chat: no card");
		assert.ok(deleted().includes(next));
	}

	/** The next call asks, and nothing is sent; the card is rejected. */
	async function asksAgain(id, why) {
		const card = await askToDelete(id);
		assert.ok(card, why);
		assert.equal(deleted().includes(id), false, "nothing is sent before an answer");
		card.querySelector("button.vault-agent-reject").click();
		await eventually(() => !running(view) && openCards(view) === 0);
		assert.equal(deleted().includes(id), false);
	}

	it("the server edited to run with another environment (NODE_OPTIONS) is asked about again", async () => {
		const [server] = plugin.core.settings().mcpServers;
		await approveForThisChat("e1", "e2");
		plugin.app.secretStorage.setSecret("mcp-tools-node-options", "--no-deprecation");
		await plugin.updateSettings({ mcpServers: [{ ...server, env: [...server.env, { name: "NODE_OPTIONS", secret: "mcp-tools-node-options" }] }] });
		await asksAgain("e3", "another environment is not the server the user approved");
	});

	it("the server removed and added again with the same settings is asked about again", async () => {
		await approveForThisChat("r1", "r2");
		const [server] = plugin.core.settings().mcpServers;
		await plugin.updateSettings({ mcpServers: [] });
		// Added again through the settings' form, exactly as before.
		const added = plugin.core.outsideAdd("tools", `${process.execPath} ${serverScript} stdio --another-build`, "OUTSIDE_MCP_LOG=mcp-tools-log\nNODE_OPTIONS=mcp-tools-node-options", "", "", randomUUID());
		assert.deepEqual(added.secrets, [], "the values name the secrets already stored");
		const again = { ...added.servers[0], trust: server.trust };
		assert.deepEqual({ ...again, addedId: "" }, { ...server, addedId: "" }, "the same settings");
		assert.notEqual(again.addedId, server.addedId);
		await plugin.updateSettings({ mcpServers: [again] });
		await asksAgain("r3", "a server added again is not the one the user approved");
	});
});
