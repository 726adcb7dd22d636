// Memory through the BUILT main.js, with a real model server on localhost and
// the CLI emulator writing the vault on disk: a fact the model keeps in one
// chat (its card approved) is in a NEW chat's request; once the user deletes
// the line by hand in the note, the next chat's request does not carry it;
// with memory off it is neither read nor offered, and a call of the tool is
// refused naming the Memory switch and the page it is on.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { copySampleVault, emulator, loadPlugin, removeVault, useEmulator } from "../support/harness.mjs";
import { openaiStream, startModelServer } from "../support/model-servers.mjs";

const NOTE = "Agent memory/Memory.md";
const FACT = "My manager is Priya Nair.";

describe("memory (the built main.js, a real model server on localhost)", () => {
	const vaults = [];
	const servers = [];
	after(async () => {
		for (const server of servers) await server.close();
		for (const vault of vaults) removeVault(vault);
	});

	async function setup(settings) {
		const server = await startModelServer();
		servers.push(server);
		const vault = copySampleVault();
		vaults.push(vault);
		useEmulator(vault);
		const chat = { profiles: [{ id: "p", provider: "openAi", baseUrl: `${server.url}/v1`, model: "test-model" }], activeProfile: "p", ...settings.chat };
		const { plugin } = await loadPlugin(vault, { data: { cliPath: emulator, permissionMode: "askEveryChange", ...settings, chat } });
		return { server, plugin, vault };
	}

	const completions = (server) => server.requests.filter((r) => r.url.endsWith("/chat/completions"));
	const system = (request) => request.body.messages[0].content;
	const toolNames = (request) => (request.body.tools ?? []).map((t) => t.function.name);

	async function turn(plugin, text, conversation = plugin.core.newConversation()) {
		const events = [];
		const result = await plugin.core.chatSend(conversation, text, (event) => events.push(event));
		return { ...result, events };
	}

	it("keeps a fact after its card is approved, gives it to a new chat, and not once the user deleted its line", async () => {
		const { server, plugin, vault } = await setup({ chat: { memory: true } });
		const note = join(vault, NOTE);
		// The first chat: the model keeps the fact; in Ask before every change it waits for the card.
		server.script({ stream: openaiStream({ toolCalls: [["obsidianMemory", { command: "add", fact: FACT }]] }) });
		const asked = await turn(plugin, "Remember that my manager is Priya Nair.");
		assert.equal(asked.end, "awaitingConfirmation");
		assert.ok(toolNames(completions(server)[0]).includes("obsidianMemory"), "offered while on");
		const card = asked.events.find((e) => e.type === "confirmationNeeded").card;
		assert.equal(card.toolId, "obsidianMemory");
		assert.match(card.preview.after, /^- My manager is Priya Nair\. \(\d{4}-\d{2}-\d{2}, chat "Remember that my manager is Priya Nair\."\)$/);
		assert.equal(existsSync(note), false, "nothing is kept before the click");
		server.script({ stream: openaiStream({ text: "Noted." }) });
		const done = await plugin.core.chatResolve(asked.conversation, card.id, true, card.argvHash, () => {});
		assert.equal(done.end, "done");
		const kept = readFileSync(note, "utf8");
		assert.match(kept, /^# Memory\n/);
		assert.match(kept, /^- My manager is Priya Nair\. \(\d{4}-\d{2}-\d{2}, chat "Remember that my manager is Priya Nair\."\)$/m);

		// A new chat: its request carries the fact, inside the memory section.
		server.script({ stream: openaiStream({ text: "Priya Nair." }) });
		await turn(plugin, "Who is my manager?");
		const second = system(completions(server).at(-1));
		assert.match(second, /<memory>\n\[Memory\] - My manager is Priya Nair\. \(/);
		assert.ok(second.indexOf("Priya Nair") < second.indexOf("</memory>"), second);

		// The user deletes the line by hand; the next chat's request no longer has it.
		writeFileSync(note, kept.split("\n").filter((line) => !line.includes("Priya")).join("\n"));
		server.script({ stream: openaiStream({ text: "I don't know." }) });
		await turn(plugin, "Who is my manager, again?");
		const third = system(completions(server).at(-1));
		assert.doesNotMatch(third, /Priya/);
		assert.ok(toolNames(completions(server).at(-1)).includes("obsidianMemory"), "memory is still on");
	});

	it("off: the memory notes are not read and the tool is not offered; a call is refused naming the Memory switch and its page", async () => {
		const { server, plugin, vault } = await setup({ tools: { obsidianMemory: true } });
		mkdirSync(join(vault, "Agent memory"), { recursive: true });
		writeFileSync(join(vault, NOTE), `# Memory\n\n- ${FACT} (2026-03-01, chat "Team")\n`);
		server.script({ stream: openaiStream({ toolCalls: [["obsidianMemory", { command: "add", fact: "Prefers tea." }]] }) });
		server.script({ stream: openaiStream({ text: "I can't keep that." }) });
		const result = await turn(plugin, "Who is my manager? And remember I prefer tea.");
		assert.equal(result.end, "done");
		const [first] = completions(server);
		assert.doesNotMatch(JSON.stringify(first.body), /Priya|<memory>/);
		assert.ok(toolNames(first).length > 0 && !toolNames(first).includes("obsidianMemory"), toolNames(first).join(", "));
		const refused = result.events.find((e) => e.type === "toolFinished").result.error;
		assert.equal(refused.code, "tool_disabled");
		assert.match(refused.message, /turn it on with the Memory switch in Settings → Vault Agent → Model\./);
		assert.equal(refused.userFix, true, "the chat shows it to the user");
		assert.doesNotMatch(readFileSync(join(vault, NOTE), "utf8"), /tea/);
		// The Tools page's old switch under `tools` is not a second switch.
		assert.equal((await plugin.api.listTools()).find((t) => t.id === "obsidianMemory").enabled, false);
	});
});
