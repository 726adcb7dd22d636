// The chat of the BUILT main.js against model servers that behave as the
// real ones did when the chat was run against them (issue 23): a CPU model
// that sends its headers and then reads the prompt in silence, an error
// inside a 200 stream, context overflows in each server's words, a key-guarded
// `/v1/models`, a model that repeats a failing call, a failed turn followed
// by the next message. Real HTTP on localhost, the CLI emulator behind.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { copySampleVault, emulator, loadPlugin, readLog, removeVault, useEmulator } from "../support/harness.mjs";
import { openaiStream, startModelServer } from "../support/model-servers.mjs";

describe("the chat against model servers as they really behave (real HTTP)", () => {
	const vaults = [];
	const servers = [];
	after(async () => {
		for (const server of servers) await server.close();
		for (const vault of vaults) removeVault(vault);
	});

	async function setup(chatSettings = {}, serverOptions = {}, { base = "/v1", key = "" } = {}) {
		const server = await startModelServer(serverOptions);
		servers.push(server);
		const vault = copySampleVault();
		vaults.push(vault);
		const chat = { provider: "openAi", openai: { baseUrl: `${server.url}${base}`, model: "test-model", apiKeySecret: key ? "model-key" : "" }, ...chatSettings };
		const { plugin } = await loadPlugin(vault, { data: { cliPath: emulator, chat } });
		if (key) plugin.app.secretStorage.setSecret("model-key", key);
		return { server, plugin, vault };
	}

	async function turn(plugin, text, conversation = plugin.core.newConversation()) {
		const events = [];
		const result = await plugin.core.chatSend(conversation, text, (event) => events.push(event));
		const error = events.find((e) => e.type === "error");
		return { ...result, events, error, said: events.filter((e) => e.type === "textDelta").map((e) => e.text).join("") };
	}

	const chats = (server) => server.requests.filter((r) => r.url.endsWith("/chat/completions"));

	it("waits for a model that sends its headers, then reads the prompt in silence longer than the wait between tokens", async () => {
		const { server, plugin } = await setup({ modelTimeoutMs: 5000 });
		server.script({ stream: openaiStream({ text: "Read it all." }), firstDelayMs: 6500 });
		const { end, said, error } = await turn(plugin, "hi");
		assert.equal(end, "done", error?.message);
		assert.equal(said, "Read it all.");
	});

	it("says the first token did not come, not that the answer stalled, when a server never starts", async () => {
		const { server, plugin } = await setup({ modelTimeoutMs: 60000, firstTokenTimeoutMs: 5000 });
		server.script({ stream: openaiStream({ text: "never sent" }), hangAfter: 0 });
		const { end, error } = await turn(plugin, "hi");
		assert.equal(end, "failed");
		assert.equal(error.code, "no_first_token", error.message);
		assert.match(error.message, /sent no answer within 5 s/);
		assert.match(error.message, /Wait for the first token/);
		assert.doesNotMatch(error.message, /in the middle of the answer/);
	});

	it("sends the answer limit as max_tokens", async () => {
		const { server, plugin } = await setup({}, {}, {});
		await plugin.updateSettings({ chat: { ...plugin.core.settings().chat, profiles: plugin.core.settings().chat.profiles.map((p) => ({ ...p, contextWindow: 8192 })) } });
		server.script({ stream: openaiStream({ text: "Short." }) });
		const { end } = await turn(plugin, "hi");
		assert.equal(end, "done");
		assert.equal(chats(server).at(-1).body.max_tokens, 1024, "an eighth of the 8 192-token window, the room kept for the answer");
	});

	it("shows the server's words for an error inside a 200 stream, with advice that fits", async () => {
		const { server, plugin } = await setup();
		const inStream = (error) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: "Hel" } }] })}\n\ndata: ${JSON.stringify({ error })}\n\n`;
		server.script({ stream: inStream({ message: "model runner has unexpectedly stopped", type: "server_error" }) });
		const crashed = await turn(plugin, "hi");
		assert.equal(crashed.error.code, "stream_error", crashed.error.message);
		assert.match(crashed.error.message, /model runner has unexpectedly stopped/);
		assert.doesNotMatch(crashed.error.message, /\(200\)/);
		server.script({ stream: inStream({ message: "the request exceeds the available context size, try increasing it", type: "exceed_context_size_error" }) });
		const full = await turn(plugin, "hi");
		assert.equal(full.error.code, "context_overflow", full.error.message);
		assert.doesNotMatch(full.error.message, /Try again in a moment/);
	});

	it("a context overflow in each server's words says to raise the server's context or lower the window", async () => {
		const { server, plugin } = await setup();
		const words = {
			"llama.cpp": { error: { code: 400, message: "the request exceeds the available context size, try increasing it", type: "exceed_context_size_error" } },
			Ollama: { error: { message: "input length exceeds maximum context length", type: "invalid_request_error" } },
			"LM Studio": { error: "Trying to keep the first 5000 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough." },
			vLLM: { object: "error", message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.", type: "BadRequestError", code: 400 },
			OpenAI: { error: { message: "Your input exceeds the context window of this model.", type: "invalid_request_error", code: "context_length_exceeded" } },
			Anthropic: { type: "error", error: { type: "invalid_request_error", message: "prompt is too long: 210000 tokens > 200000 maximum" } },
		};
		for (const [name, json] of Object.entries(words)) {
			server.script({ status: 400, json });
			const { end, error } = await turn(plugin, "hi");
			assert.equal(end, "failed", name);
			assert.equal(error.code, "context_overflow", `${name}: ${error.message}`);
			assert.match(error.message, /Raise the server's context size/, name);
			assert.match(error.message, /lower the context window in Settings/, name);
			assert.doesNotMatch(error.message, /Check the provider, base URL and model|Try again/, name);
		}
	});

	it("the probe that suggests /v1 sends the API key", async () => {
		const { server, plugin } = await setup({}, { requireKey: "sk-local-1" }, { base: "", key: "sk-local-1" });
		server.script({ raw: "404 page not found", status: 404 });
		const { error } = await turn(plugin, "hi");
		assert.equal(error.code, "missing_v1", error.message);
		const probe = server.requests.at(-1);
		assert.equal(probe.url, "/v1/models");
		assert.equal(probe.headers.authorization, "Bearer sk-local-1");
	});

	it("Test connection with one model says 1 model", async () => {
		const { plugin } = await setup({}, { models: { data: [{ id: "test-model" }] } });
		const report = await plugin.core.testConnection();
		assert.equal(report.message, "Connected. 1 model available.");
	});

	describe("Anthropic at an address of its own (a gateway)", () => {
		async function gateway(modelsAnswer) {
			const server = await startModelServer({ modelsAnswer });
			servers.push(server);
			const vault = copySampleVault();
			vaults.push(vault);
			const chat = { provider: "anthropic", anthropic: { baseUrl: server.url, model: "claude-test", apiKeySecret: "gateway-key" } };
			const { plugin } = await loadPlugin(vault, { data: { cliPath: emulator, chat } });
			plugin.app.secretStorage.setSecret("gateway-key", "sk-gw-0123456789");
			return { server, plugin };
		}

		it("Test connection asks with a one-token message when the address does not list models", async () => {
			const { server, plugin } = await gateway({ status: 404, json: { error: { message: "Not Found" } } });
			server.script({ whole: { id: "msg_1", type: "message", role: "assistant", content: [{ type: "text", text: "p" }], stop_reason: "max_tokens" } });
			const report = await plugin.core.testConnection();
			assert.equal(report.ok, true, report.message);
			assert.match(report.message, /a one-token message to "claude-test" was answered/);
			assert.match(report.message, /does not list its models \(404 on \/v1\/models\)/);
			const ping = server.requests.at(-1);
			assert.equal(ping.url, "/v1/messages");
			assert.equal(ping.headers["x-api-key"], "sk-gw-0123456789");
			assert.equal(ping.body.max_tokens, 1);
		});

		it("a refused key shows the server's reason, from the listing and the message alike", async () => {
			const refusal = { type: "error", error: { type: "authentication_error", message: "key not allowed in region eu-2" } };
			const { server, plugin } = await gateway({ status: 401, json: refusal });
			server.script({ status: 401, json: refusal });
			const report = await plugin.core.testConnection();
			assert.equal(report.ok, false);
			assert.match(report.message, /refused the API key \(401\)\. Check the key in Settings → Vault Agent → Model\. Server: key not allowed in region eu-2/);
			server.script({ status: 401, json: refusal });
			const { error } = await turn(plugin, "hi");
			assert.equal(error.code, "unauthorized");
			assert.match(error.message, /Server: key not allowed in region eu-2/);
		});

		it("its address can be changed, and one pasted with /v1 is kept without it", async () => {
			const { plugin } = await gateway(null);
			const chat = plugin.core.settings().chat;
			const profiles = chat.profiles.map((p) => (p.id === chat.activeProfile ? { ...p, baseUrl: "https://gateway.example/anthropic/v1" } : p));
			const saved = await plugin.updateSettings({ chat: { ...chat, profiles } });
			const active = saved.chat.profiles.find((p) => p.id === saved.chat.activeProfile);
			assert.equal(active.provider, "anthropic");
			assert.equal(active.baseUrl, "https://gateway.example/anthropic");
		});
	});

	it("a rate limit reads as one sentence with the server's words", async () => {
		const { server, plugin } = await setup();
		for (let i = 0; i < 4; i++) server.script({ status: 429, headers: { "retry-after": "0" }, json: { error: { message: "rate limit exceeded" } } });
		const { error } = await turn(plugin, "hi");
		assert.equal(error.code, "rate_limited");
		assert.match(error.message, /\(429: rate limit exceeded\)\. Wait a moment/);
		assert.doesNotMatch(error.message, /plan\. rate/);
	});

	it("a message whose turn failed is not sent as two user messages in a row", async () => {
		const { server, plugin } = await setup();
		server.script({ status: 400, json: { error: { message: "the request exceeds the available context size, try increasing it" } } });
		const failed = await turn(plugin, "summarise my notes");
		assert.equal(failed.end, "failed");
		server.script({ stream: openaiStream({ text: "Done." }) });
		const next = await turn(plugin, "just the titles, please", failed.conversation);
		assert.equal(next.end, "done", next.error?.message);
		const roles = chats(server).at(-1).body.messages.map((m) => m.role);
		for (let i = 1; i < roles.length; i++) assert.ok(!(roles[i] === "user" && roles[i - 1] === "user"), roles.join(", "));
		const user = chats(server).at(-1).body.messages.filter((m) => m.role === "user");
		assert.equal(user.length, 1);
		assert.match(user[0].content, /summarise my notes[\s\S]*just the titles, please/);
	});

	it("stops after the same failing call twice instead of repeating it to the round limit", async () => {
		const { server, plugin } = await setup();
		const same = { stream: openaiStream({ toolCalls: [["obsidianNotes", { command: "no-such-command", file: "Welcome" }]] }) };
		for (let i = 0; i < 10; i++) server.script(same);
		const { end, events, conversation } = await turn(plugin, "read the welcome note");
		server.clear();
		assert.equal(end, "roundLimit");
		assert.equal(chats(server).length, 3, "asked three times, not ten");
		const finished = events.filter((e) => e.type === "toolFinished");
		assert.equal(finished.length, 3);
		assert.match(finished[2].result.error.message, /already failed twice/);
		const second = conversation.messages.filter((m) => m.role === "tool")[1];
		assert.match(second.content, /has now failed twice in this message\. Do not send it again/, "the model was told to change course");
		assert.match(events.filter((e) => e.type === "notice").at(-1).text, /already failed twice with the same arguments/);
	});

	it("never makes the same change twice in one turn", async () => {
		const { server, plugin, vault } = await setup();
		await plugin.updateSettings({ permissionMode: "askBeforeEdits" });
		const log = useEmulator(vault);
		const change = { stream: openaiStream({ toolCalls: [["obsidianProperties", { command: "property:set", name: "status", value: "paused", file: "Roadmap" }]] }) };
		server.script(change);
		const paused = await turn(plugin, "pause the roadmap");
		assert.equal(paused.end, "awaitingConfirmation");
		const card = paused.events.find((e) => e.type === "confirmationNeeded").card;
		server.script(change, { stream: openaiStream({ text: "Paused." }) });
		const events = [];
		const resumed = await plugin.core.chatResolve(paused.conversation, card.id, true, card.argvHash, (e) => events.push(e));
		assert.equal(resumed.end, "done");
		assert.equal(readLog(log).filter((e) => e.argv[0] === "property:set").length, 1, "made once");
		assert.ok(!events.some((e) => e.type === "confirmationNeeded"), "not asked again either");
		const refused = events.filter((e) => e.type === "toolFinished").at(-1);
		assert.match(refused.result.error.message, /already made in this message/);
	});
});
