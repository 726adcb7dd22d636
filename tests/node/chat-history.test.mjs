// Chat history of the BUILT main.js: the index of conversations (read for
// the list instead of every file, rebuilt when missing or damaged), rename,
// delete and search, with conversations stored in today's format.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { copySampleVault, emulator, loadPlugin, removeVault } from "../support/harness.mjs";
import { openaiStream, startModelServer } from "../support/model-servers.mjs";

/** A conversation as the plugin wrote it before the index existed. */
function stored(id, title, updatedMs, said = [], extra = {}) {
	const messages = said.flatMap(([user, answer]) => [
		{ role: "user", text: user },
		{ role: "assistant", text: answer, toolCalls: [] },
	]);
	return { id, title, createdMs: updatedMs - 1000, updatedMs, messages, paused: null, ...extra };
}

describe("chat history", () => {
	let vault;
	let plugin;
	let server;
	let folder;
	let pluginDir;

	before(async () => {
		server = await startModelServer();
		vault = copySampleVault();
		({ plugin, pluginDir } = await loadPlugin(vault, {
			data: { cliPath: emulator, chat: { provider: "openAi", openai: { baseUrl: `${server.url}/v1`, model: "test-model", apiKeySecret: "" } } },
		}));
		folder = join(pluginDir, "conversations");
	});
	after(async () => {
		await server.close();
		removeVault(vault);
	});

	/** A store as after a restart: nothing in memory. */
	function freshStore(reads = []) {
		const adapter = plugin.app.vault.adapter;
		const counting = Object.create(adapter);
		counting.read = async (path) => {
			reads.push(path);
			return adapter.read(path);
		};
		return new plugin.conversations.constructor(counting, `${plugin.app.vault.configDir}/plugins/vault-agent`, plugin.core);
	}

	function write(conversation) {
		mkdirSync(folder, { recursive: true });
		writeFileSync(join(folder, `${conversation.id}.json`), JSON.stringify(conversation));
	}

	it("lists chats stored without an index, writes the index, and then lists from it alone", async () => {
		write(stored("chat-100-1", "Tasks for today", 100_000, [["What are my tasks?", "You have two tasks."]]));
		write(stored("chat-200-1", "Roadmap questions", 200_000, [["What links to Roadmap?", "Launch plan links to [[Roadmap]]."]]));
		const list = await freshStore().list();
		assert.deepEqual(
			list.map((c) => [c.id, c.title]),
			[
				["chat-200-1", "Roadmap questions"],
				["chat-100-1", "Tasks for today"],
			],
			"newest first",
		);
		const index = JSON.parse(readFileSync(join(folder, "index.json"), "utf8"));
		assert.deepEqual(index.chats.map((c) => c.id).sort(), ["chat-100-1", "chat-200-1"]);
		const reads = [];
		const again = await freshStore(reads).list();
		assert.equal(again.length, 2);
		assert.deepEqual(
			reads.map((p) => p.split("/").pop()),
			["index.json"],
			"with an index, no conversation file is parsed to list them",
		);
	});

	it("an old conversation keeps working: it loads, renames and takes a new message", async () => {
		const old = await plugin.conversations.load("chat-100-1");
		assert.equal(old.messages.length, 2);
		server.script({ stream: openaiStream({ text: "Still two tasks." }) });
		const { conversation } = await plugin.core.chatSend(old, "And now?", () => {});
		assert.equal(conversation.messages.at(-1).text, "Still two tasks.");
		assert.equal(conversation.title, "What are my tasks?", "retitled from the first message as before");
		const renamed = plugin.core.renameConversation(conversation, "  Morning   tasks ");
		assert.equal(renamed.title, "Morning tasks");
		await plugin.conversations.save(renamed);
		assert.equal((await freshStore().list()).find((c) => c.id === "chat-100-1").title, "Morning tasks");
		server.script({ stream: openaiStream({ text: "Yes." }) });
		const next = await plugin.core.chatSend(renamed, "Anything else?", () => {});
		assert.equal(next.conversation.title, "Morning tasks", "a rename survives the next message");
	});

	it("rebuilds an index that is corrupt, of another shape, or out of step with the files", async () => {
		const index = join(folder, "index.json");
		for (const damage of ["{not json", JSON.stringify({ chats: "nope" }), JSON.stringify({ version: 1, chats: [{ id: 3 }] }), ""]) {
			writeFileSync(index, damage);
			const list = await freshStore().list();
			assert.deepEqual(list.map((c) => c.id).sort(), ["chat-100-1", "chat-200-1"], `after ${JSON.stringify(damage)}`);
			assert.equal(list.find((c) => c.id === "chat-100-1").title, "Morning tasks", "titles come from the files");
			assert.equal(JSON.parse(readFileSync(index, "utf8")).chats.length, 2, "written again");
		}
		// A chat file the index does not know (copied in), and an entry whose file is gone.
		write(stored("chat-300-1", "Copied in", 300_000, [["hello", "hi"]]));
		const entries = JSON.parse(readFileSync(index, "utf8"));
		entries.chats.push({ id: "chat-gone-1", title: "Gone", createdMs: 1, updatedMs: 400_000 });
		writeFileSync(index, JSON.stringify(entries));
		const list = await freshStore().list();
		assert.deepEqual(list.map((c) => c.id).sort(), ["chat-100-1", "chat-200-1", "chat-300-1"]);
		assert.deepEqual(
			list.map((c) => c.updatedMs),
			list.map((c) => c.updatedMs).sort((a, b) => b - a),
			"newest first",
		);
		// A damaged conversation file is left out, not fatal, and not deleted.
		writeFileSync(join(folder, "chat-bad-1.json"), "{broken");
		writeFileSync(index, "");
		assert.equal((await freshStore().list()).length, 3);
		assert.ok(existsSync(join(folder, "chat-bad-1.json")));
	});

	it("searches titles and what was said, any case, every word, not tool output", async () => {
		const withTool = stored("chat-500-1", "Daily review", 500_000, [["Summarise my day", "A calm DAY with one meeting."]]);
		withTool.messages.push({
			role: "tool",
			callId: "c1",
			tool: "obsidianNotes",
			content: "<vault-data>zebra</vault-data>",
			isError: false,
			result: { ok: true, text: "zebra", durationMs: 1 },
			table: null,
		});
		write(withTool);
		const store = freshStore();
		const ids = async (q) => (await store.search(q)).map((h) => h.id);
		assert.deepEqual(await ids("roadmap"), ["chat-200-1"], "title");
		assert.deepEqual(await ids("calm meeting"), ["chat-500-1"], "the model's words, every word");
		assert.deepEqual(await ids("CALM zebra"), [], "a word only in tool output does not match");
		assert.deepEqual(await ids("zebra"), []);
		const hit = (await store.search("meeting"))[0];
		assert.match(hit.excerpt, /one meeting/);
		assert.equal((await store.search("")).length, 4, "an empty search lists every chat");
		// A chat that changed is searched as it is now.
		const changed = stored("chat-500-1", "Daily review", 600_000, [["Summarise my day", "Only a giraffe today."]]);
		await store.save(changed);
		assert.deepEqual(await ids("giraffe"), ["chat-500-1"]);
		assert.deepEqual(await ids("calm"), []);
		// Title matches need no file read.
		const reads = [];
		const counted = freshStore(reads);
		await counted.list();
		reads.length = 0;
		assert.deepEqual((await counted.search("questions")).map((h) => h.id), ["chat-200-1"]);
		assert.ok(reads.every((p) => !p.endsWith("chat-200-1.json")), JSON.stringify(reads));
	});

	it("deletes one chat and its index entry, and no other", async () => {
		const before = Object.fromEntries(readdirSync(folder).filter((f) => f !== "index.json" && f !== "chat-200-1.json").map((f) => [f, readFileSync(join(folder, f), "utf8")]));
		await plugin.conversations.remove("chat-200-1");
		assert.ok(!existsSync(join(folder, "chat-200-1.json")));
		for (const [file, text] of Object.entries(before)) assert.equal(readFileSync(join(folder, file), "utf8"), text, `${file} untouched`);
		const list = await freshStore().list();
		assert.ok(!list.some((c) => c.id === "chat-200-1"));
		assert.deepEqual(list.map((c) => c.id).sort(), ["chat-100-1", "chat-300-1", "chat-500-1"]);
		assert.ok(!JSON.parse(readFileSync(join(folder, "index.json"), "utf8")).chats.some((c) => c.id === "chat-200-1"));
	});
});
