// Conversation files of the wrong shape, through the BUILT main.js: each is
// read through the core's checked loader, so opening the chat, listing the
// history and searching it never throw, what is wrong is said once, and the
// other chats stay as they are.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { copySampleVault, emulator, loadPlugin, removeVault } from "../support/harness.mjs";

function chat(id, title, updatedMs, extra = {}) {
	return {
		id,
		title,
		createdMs: updatedMs - 1000,
		updatedMs,
		messages: [
			{ role: "user", text: `Question of ${title}` },
			{ role: "assistant", text: `Answer about ${title} and the roadmap.`, toolCalls: [] },
		],
		paused: null,
		...extra,
	};
}

describe("conversation files of the wrong shape", () => {
	let vault;
	let plugin;
	let folder;
	const files = {};
	const warnings = [];
	let warn;

	before(async () => {
		vault = copySampleVault();
		({ plugin } = await loadPlugin(vault, { data: { cliPath: emulator } }));
		folder = join(vault, ".obsidian/plugins/vault-agent/conversations");
		mkdirSync(folder, { recursive: true });
		const good = chat("chat-1-1", "Good chat", 1_000_000);
		const boom = chat("chat-2-1", "Boom chat", 2_000_000, { messages: "boom" });
		const numbered = chat("chat-3-1", "Numbered chat", 3_000_000);
		numbered.messages.push({ role: "user", text: 42 }, { role: "assistant", text: "After the bad one, about the roadmap.", toolCalls: [] });
		const untitled = chat("chat-4-1", 123, 4_000_000);
		for (const c of [good, boom, numbered, untitled]) {
			files[c.id] = JSON.stringify(c);
			writeFileSync(join(folder, `${c.id}.json`), files[c.id]);
		}
		warn = console.warn;
		console.warn = (...args) => warnings.push(args.join(" "));
	});
	after(() => {
		console.warn = warn;
		plugin.unload();
		removeVault(vault);
	});

	it("lists and searches every chat, with a title for the one that had none, and throws nowhere", async () => {
		const list = await plugin.conversations.list();
		assert.deepEqual(
			list.map((c) => [c.id, c.title]),
			[
				["chat-4-1", "Question of 123"],
				["chat-3-1", "Numbered chat"],
				["chat-2-1", "Boom chat"],
				["chat-1-1", "Good chat"],
			],
		);
		const hits = await plugin.conversations.search("roadmap");
		assert.deepEqual(hits.map((h) => h.id).sort(), ["chat-1-1", "chat-3-1", "chat-4-1"], "the words that could be read are searched");
		assert.deepEqual((await plugin.conversations.search("question")).map((h) => h.id).length, 3);
		const index = JSON.parse(readFileSync(join(folder, "index.json"), "utf8"));
		assert.ok(index.chats.every((c) => typeof c.title === "string"), "the index holds text titles only");
		assert.deepEqual((await plugin.conversations.list()).length, 4, "and reads back");
	});

	it("opens each damaged chat in the chat view with what could be read, says what was wrong once, and the good chat still opens", async () => {
		const view = await plugin.openChat();
		const messages = () => view.contentEl.querySelector(".vault-agent-messages");
		await view.open("chat-2-1");
		assert.match(messages().textContent, /"Boom chat" was damaged: its messages were not a list/);
		await view.open("chat-3-1");
		assert.match(messages().textContent, /Question of Numbered chat/);
		assert.match(messages().textContent, /After the bad one/);
		assert.match(messages().textContent, /1 message could not be read and was left out/);
		await view.open("chat-4-1");
		assert.match(messages().textContent, /title was not text/);
		await view.open("chat-1-1");
		assert.match(messages().textContent, /Answer about Good chat/);
		assert.doesNotMatch(messages().textContent, /damaged/);
		await view.open("chat-3-1");
		assert.doesNotMatch(messages().textContent, /damaged/, "said once");
		assert.equal(warnings.filter((w) => /Numbered chat/.test(w)).length, 1, "logged once");
		for (const [id, text] of Object.entries(files)) assert.equal(readFileSync(join(folder, `${id}.json`), "utf8"), text, `${id} is left as it was`);
	});

	it("a file that holds no chat at all is left out of the list and says why when opened", async () => {
		writeFileSync(join(folder, "chat-5-1.json"), JSON.stringify([1, 2, 3]));
		writeFileSync(join(folder, "index.json"), "");
		const store = new plugin.conversations.constructor(plugin.app.vault.adapter, `${plugin.app.vault.configDir}/plugins/vault-agent`, plugin.core);
		assert.equal((await store.list()).length, 4);
		const view = await plugin.openChat();
		await view.open("chat-5-1");
		assert.match(view.contentEl.querySelector(".vault-agent-banner").textContent, /could not be opened: the file holds a list instead of a chat/);
	});
});
