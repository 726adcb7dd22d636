// The user's standing instructions through the BUILT main.js: a note chosen
// in the settings and the profile's own text reach the model server (real
// HTTP on localhost) after our rules, the note read again once it changed on
// disk, held to the read scope, and shown in the empty state's facts.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { copySampleVault, emulator, loadPlugin, removeVault } from "../support/harness.mjs";
import { openaiStream, startModelServer } from "../support/model-servers.mjs";

describe("standing instructions (the built main.js, a real model server on localhost)", () => {
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
		mkdirSync(join(vault, "Vault Agent"), { recursive: true });
		writeFileSync(join(vault, "Vault Agent", "Instructions.md"), "My projects live in Projects/. Write in British English.\n");
		const chat = { profiles: [{ id: "p", provider: "openAi", baseUrl: `${server.url}/v1`, model: "test-model", instructions: "Answer in short sentences." }], activeProfile: "p", ...settings.chat };
		const { plugin } = await loadPlugin(vault, { data: { cliPath: emulator, ...settings, chat } });
		return { server, plugin, vault };
	}

	const system = (server, n) => server.requests.filter((r) => r.url.endsWith("/chat/completions"))[n].body.messages[0].content;

	async function turn(plugin, text, conversation) {
		const events = [];
		const result = await plugin.core.chatSend(conversation, text, (event) => events.push(event));
		return { ...result, events, notices: events.filter((e) => e.type === "notice").map((e) => e.text) };
	}

	it("gives the note's text and the profile's after our rules, and the note's new text once it changed", async () => {
		const { server, plugin, vault } = await setup({ chat: { instructionsNote: "Vault Agent/Instructions.md" } });
		const conversation = plugin.core.newConversation();
		server.script({ stream: openaiStream({ text: "Hello." }) });
		const first = await turn(plugin, "hi", conversation);
		assert.equal(first.end, "done");
		assert.deepEqual(first.notices, []);
		const prompt = system(server, 0);
		const at = (text) => prompt.indexOf(text);
		assert.ok(at("You are Vault Agent") === 0 && at("Write in British English.") > 0 && at("Answer in short sentences.") > at("Write in British English."), prompt);

		writeFileSync(join(vault, "Vault Agent", "Instructions.md"), "Write in American English.\n");
		server.script({ stream: openaiStream({ text: "Hi." }) });
		await turn(plugin, "again", conversation);
		assert.match(system(server, 1), /Write in American English\./);
		assert.doesNotMatch(system(server, 1), /British/);
	});

	it("never sends a note outside the read folders, and says why in the chat", async () => {
		const { server, plugin } = await setup({ readFolders: ["Projects"], chat: { instructionsNote: "Vault Agent/Instructions.md" } });
		server.script({ stream: openaiStream({ text: "Hello." }) });
		const { notices } = await turn(plugin, "hi", plugin.core.newConversation());
		assert.doesNotMatch(JSON.stringify(server.requests), /British English/);
		assert.ok(notices.some((n) => /may not read/.test(n) && /Safety/.test(n)), JSON.stringify(notices));
	});

	it("names the instructions in use in a new chat's empty state", async () => {
		const { plugin } = await setup({ chat: { instructionsNote: "Vault Agent/Instructions.md" } });
		const view = await plugin.openChat();
		let facts = null;
		for (let waited = 0; !facts && waited < 5000; waited += 50) {
			facts = view.contentEl.querySelector(".vault-agent-empty-instructions");
			if (!facts) await new Promise((resolve) => setTimeout(resolve, 50));
		}
		assert.ok(facts, "the empty state has the instructions line");
		assert.equal(facts.textContent, "Your instructions: Vault Agent/Instructions.md and this profile's own");
	});
});
