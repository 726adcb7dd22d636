// Model profiles through the built main.js: a data.json written by the
// version before profiles (one server per kind, `provider` picking one) loads
// as profiles with the same values, and the chat answers from the same server
// with the same key, with no user action. Picking another profile moves the
// chat to that profile's server.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { copySampleVault, emulator, loadPlugin, removeVault, settle } from "../support/harness.mjs";
import { anthropicStream, openaiStream, startModelServer } from "../support/model-servers.mjs";

describe("a data.json from before model profiles", () => {
	let vault;
	let plugin;
	let server;
	let old;

	before(async () => {
		server = await startModelServer();
		vault = copySampleVault();
		// What the older version saved; loadPlugin stores it as the plugin's
		// data.json (saveData) before onload reads it.
		old = {
			cliPath: emulator,
			permissionMode: "readOnly",
			lastConversation: "c-older",
			chat: {
				provider: "anthropic",
				openai: { baseUrl: `${server.url}/v1`, model: "test-model", apiKeySecret: "", contextWindow: 32768 },
				anthropic: { baseUrl: server.url, model: "claude-test", apiKeySecret: "anthropic-test", contextWindow: 0 },
				maxToolRounds: 7,
				toolResultCapChars: 16000,
				modelTimeoutMs: 60000,
			},
		};
		({ plugin } = await loadPlugin(vault, { data: JSON.parse(JSON.stringify(old)) }));
		// The key stays where the older version kept it: Obsidian's secret storage.
		plugin.app.secretStorage.setSecret("anthropic-test", "sk-ant-test");
	});
	after(async () => {
		await server?.close();
		removeVault(vault);
	});

	async function turn(text) {
		const events = [];
		const result = await plugin.core.chatSend(plugin.core.newConversation(), text, (event) => events.push(event));
		return { ...result, said: events.filter((e) => e.type === "textDelta").map((e) => e.text).join("") };
	}

	it("loads both servers as profiles with the same values, the one in use first", () => {
		const chat = plugin.core.settings().chat;
		assert.equal(chat.profiles.length, 2, JSON.stringify(chat.profiles));
		const [inUse, other] = chat.profiles;
		assert.equal(chat.activeProfile, inUse.id);
		assert.deepEqual(
			{ provider: inUse.provider, baseUrl: inUse.baseUrl, model: inUse.model, apiKeySecret: inUse.apiKeySecret, contextWindow: inUse.contextWindow },
			{ provider: "anthropic", ...old.chat.anthropic },
		);
		assert.deepEqual(
			{ provider: other.provider, baseUrl: other.baseUrl, model: other.model, apiKeySecret: other.apiKeySecret, contextWindow: other.contextWindow },
			{ provider: "openAi", ...old.chat.openai },
		);
		assert.equal(chat.maxToolRounds, 7);
		// Text-form tool calls did not exist then: off, for both.
		assert.deepEqual(chat.profiles.map((p) => p.textToolCalls), [false, false]);
		const summaries = plugin.core.modelProfiles();
		assert.deepEqual(
			summaries.map((s) => [s.id, s.active]),
			chat.profiles.map((p) => [p.id, p.id === chat.activeProfile]),
		);
	});

	it("the chat answers from the same server with the same key, with no user action", async () => {
		server.script({ stream: anthropicStream({ text: "Still here." }) });
		const before = server.requests.length;
		const { end, said } = await turn("hello");
		assert.equal(end, "done");
		assert.equal(said, "Still here.");
		const [request] = server.requests.slice(before);
		assert.equal(request.url, "/v1/messages");
		assert.equal(request.headers["x-api-key"], "sk-ant-test");
		assert.equal(request.body.model, "claude-test");
	});

	it("saves profiles in place of the old servers, keeping what is not a setting", async () => {
		await plugin.updateSettings({ permissionMode: "askEveryChange" });
		const saved = await plugin.loadData();
		assert.equal(saved.lastConversation, "c-older");
		assert.deepEqual(Object.keys(saved.chat).sort(), ["activeProfile", "anthropicThinking", "anthropicThinkingBudget", "firstTokenTimeoutMs", "instructionsNote", "maxToolRounds", "memory", "memoryFolder", "modelTimeoutMs", "profiles", "promptCommands", "promptsFolder", "skillsFolder", "toolResultCapChars"]);
		assert.deepEqual(saved.chat.profiles, plugin.core.settings().chat.profiles);
		assert.ok(saved.chat.profiles.every((p) => p.textToolCalls === false), "saved as off");
		assert.deepEqual(Object.keys(saved.chat.profiles[0]).sort(), ["apiKeySecret", "baseUrl", "contextWindow", "id", "images", "instructions", "model", "name", "pdfDocuments", "provider", "textToolCalls"]);
		// "Model accepts images" did not exist then: Ask the server (null), for both.
		assert.ok(saved.chat.profiles.every((p) => p.images === null), JSON.stringify(saved.chat.profiles));
		// Loaded again, the saved file gives the same settings, repaired nowhere.
		const { settings, repairs } = plugin.core.setSettings(saved);
		assert.deepEqual(repairs, []);
		assert.deepEqual(settings.chat, plugin.core.settings().chat);
	});

	it("picking the other profile moves the chat to its server", async () => {
		const other = plugin.core.settings().chat.profiles[1];
		await plugin.editModelProfiles({ action: "select", id: other.id });
		await settle();
		assert.equal((await plugin.loadData()).chat.activeProfile, other.id, "saved");
		server.script({ stream: openaiStream({ text: "From the other one." }) });
		const before = server.requests.length;
		const { end, said } = await turn("hello again");
		assert.equal(end, "done");
		assert.equal(said, "From the other one.");
		const [request] = server.requests.slice(before);
		assert.equal(request.url, "/v1/chat/completions");
		assert.equal(request.body.model, "test-model");
		assert.equal(request.headers["x-api-key"], undefined);
	});

	it("refuses to delete the last profile, and says why", async () => {
		const chat = plugin.core.settings().chat;
		await plugin.editModelProfiles({ action: "delete", id: chat.profiles[0].id });
		const left = plugin.core.settings().chat.profiles;
		assert.equal(left.length, 1);
		assert.throws(() => plugin.core.editModelProfiles({ action: "delete", id: left[0].id }), /last profile/);
		assert.equal(plugin.core.settings().chat.profiles.length, 1);
	});
});
