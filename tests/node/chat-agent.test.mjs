// The chat agent of the BUILT main.js against scripted model servers on
// localhost (real HTTP, SSE cut at awkward places) and the CLI emulator, for
// both provider kinds.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { copySampleVault, emulator, loadPlugin, readLog, removeVault, useEmulator } from "../support/harness.mjs";
import { anthropicStream, isSummaryRequest, openaiStream, startModelServer } from "../support/model-servers.mjs";
import { question, scriptTurn, tokensSent, TURNS } from "../support/ten-turns.mjs";

for (const provider of ["openAi", "anthropic"]) {
	const stream = provider === "openAi" ? openaiStream : anthropicStream;

	describe(`chat agent with ${provider === "openAi" ? "an OpenAI-compatible" : "an Anthropic"} server`, () => {
		let vault;
		let plugin;
		let server;

		before(async () => {
			server = await startModelServer();
			vault = copySampleVault();
			const chat =
				provider === "openAi"
					? { provider, openai: { baseUrl: `${server.url}/v1`, model: "test-model", apiKeySecret: "" } }
					: { provider, anthropic: { baseUrl: server.url, model: "claude-test", apiKeySecret: "anthropic-test" } };
			({ plugin } = await loadPlugin(vault, { data: { cliPath: emulator, chat } }));
			plugin.app.secretStorage.setSecret("anthropic-test", "sk-ant-test");
		});
		after(async () => {
			await server.close();
			removeVault(vault);
		});

		/** One user message; returns the turn's end, its events and the conversation. */
		async function turn(text, conversation = plugin.core.newConversation()) {
			const events = [];
			const result = await plugin.core.chatSend(conversation, text, (event) => events.push(event));
			return { ...result, events, said: events.filter((e) => e.type === "textDelta").map((e) => e.text).join("") };
		}

		async function setWrites(on) {
			await plugin.updateSettings({ permissionMode: on ? "askBeforeEdits" : "readOnly" });
		}

		it("runs a read tool, then streams the answer", async () => {
			const log = useEmulator(vault);
			const answer = "You have open tasks: café ☕ and 日本語 notes.";
			server.script({ stream: stream({ toolCalls: [["obsidianTasks", { command: "tasks", all: true, todo: true }]] }) }, { stream: stream({ text: answer }) });
			const before = server.requests.length;
			const { end, said, events, conversation } = await turn("What's open on my task list?");
			assert.equal(end, "done");
			assert.equal(said, answer, "streamed text arrives intact across chunk boundaries");
			assert.deepEqual(readLog(log).map((e) => e.argv), [["tasks", "all", "todo"]]);
			const finished = events.find((e) => e.type === "toolFinished");
			assert.equal(finished.result.ok, true);
			assert.equal(finished.displayName, "Tasks");
			const [first, second] = server.requests.slice(before);
			const tools = provider === "openAi" ? first.body.tools.map((t) => t.function.name) : first.body.tools.map((t) => t.name);
			assert.deepEqual(tools, (await plugin.api.listTools()).filter((t) => t.enabled).map((t) => t.id));
			const toolResult =
				provider === "openAi"
					? second.body.messages.find((m) => m.role === "tool").content
					: second.body.messages.at(-1).content.find((b) => b.type === "tool_result").content;
			assert.match(toolResult, /^<vault-data tool="obsidianTasks" command="tasks">/);
			if (provider === "anthropic") assert.equal(first.headers["x-api-key"], "sk-ant-test");
			assert.equal(conversation.title, "What's open on my task list?");
		});

		it("streams an answer that only looks like the start of a tag, all of it", async () => {
			// `<` is held back while it could still begin `<think>`: the stream's end lets it go.
			for (const answer of ["<", "<thi", "a <"]) {
				server.script({ stream: stream({ text: answer }) });
				const { end, said, conversation } = await turn("hi");
				assert.equal(end, "done", answer);
				assert.equal(said, answer, "the live text has every character");
				assert.equal(conversation.messages.at(-1).text, answer);
			}
		});

		it("runs two tool calls from one reply", async () => {
			const log = useEmulator(vault);
			server.script(
				{ stream: stream({ toolCalls: [["obsidianLinks", { command: "backlinks", file: "Roadmap" }], ["obsidianTags", { command: "tags", all: true, counts: true }]] }) },
				{ stream: stream({ text: "Both done." }) },
			);
			const { end } = await turn("backlinks of Roadmap and the tags");
			assert.equal(end, "done");
			// Reads from one reply run at once, so the CLI may see them in either order.
			assert.deepEqual(readLog(log).map((e) => e.argv[0]).sort(), ["backlinks", "tags"]);
		});

		it("refuses a write while vault changes are off and tells the model", async () => {
			await setWrites(false);
			const log = useEmulator(vault);
			const before = server.requests.length;
			server.script(
				{ stream: stream({ toolCalls: [["obsidianDailyNote", { command: "daily:append", content: "- [ ] Buy milk" }]] }) },
				{ stream: stream({ text: "Vault changes are off; turn them on in the settings." }) },
			);
			const { end, events } = await turn("add buy milk to today's note");
			assert.equal(end, "done");
			assert.deepEqual(readLog(log), [], "nothing ran");
			const refused = events.find((e) => e.type === "toolFinished").result.error;
			assert.equal(refused.code, "writes_disabled");
			assert.equal(refused.userFix, true, "the core says the user must act, so the chat shows a banner");
			const second = server.requests[before + 1];
			assert.match(JSON.stringify(second.body.messages), /<vault-data tool=\\"obsidianDailyNote\\" command=\\"daily:append\\" error=\\"writes_disabled\\">/);
		});

		it("pauses on a confirmed write and makes it only after approval", async () => {
			await setWrites(true);
			const log = useEmulator(vault);
			server.script({ stream: stream({ toolCalls: [["obsidianProperties", { command: "property:set", name: "status", value: "paused", file: "Roadmap" }]] }) });
			const paused = await turn("pause the roadmap");
			assert.equal(paused.end, "awaitingConfirmation");
			const card = paused.events.find((e) => e.type === "confirmationNeeded").card;
			assert.deepEqual([card.preview.before, card.preview.after], ["planning", "paused"]);
			assert.ok(!readLog(log).some((e) => e.argv[0] === "property:set"), "not before approval");
			server.script({ stream: stream({ text: "Paused." }) });
			const events = [];
			const resumed = await plugin.core.chatResolve(paused.conversation, card.id, true, card.argvHash, (e) => events.push(e));
			assert.equal(resumed.end, "done");
			assert.deepEqual(readLog(log).filter((e) => e.argv[0] === "property:set").at(-1).argv, ["property:set", "name=status", "value=paused", "file=Roadmap"]);
			assert.match(readFileSync(join(vault, "Projects/Roadmap.md"), "utf8"), /^status: paused$/m);
			assert.equal(resumed.conversation.paused, null);
		});

		it("runs nothing when the user rejects", async () => {
			await setWrites(true);
			const log = useEmulator(vault);
			server.script({ stream: stream({ toolCalls: [["obsidianTasks", { command: "task", ref: "Projects/Roadmap.md:14", done: true }]] }) });
			const paused = await turn("mark the roadmap task done");
			const card = paused.events.find((e) => e.type === "confirmationNeeded").card;
			server.script({ stream: stream({ text: "Left it open." }) });
			const resumed = await plugin.core.chatResolve(paused.conversation, card.id, false, "", () => {});
			assert.equal(resumed.end, "done");
			assert.ok(!readLog(log).some((e) => e.argv.includes("done")), "the task was not changed");
			assert.match(readFileSync(join(vault, "Projects/Roadmap.md"), "utf8").split("\n")[13], /- \[ \]/);
			const tool = resumed.conversation.messages.findLast((m) => m.role === "tool");
			assert.equal(tool.result.error.code, "confirmation_rejected");
		});

		it("sends malformed arguments back and runs the corrected call", async () => {
			const log = useEmulator(vault);
			server.script(
				{ stream: stream({ toolCalls: [["obsidianNotes", '{"command": "read", "file": "Welcome"']] }) },
				{ stream: stream({ toolCalls: [["obsidianNotes", { command: "read", file: "Welcome" }]] }) },
				{ stream: stream({ text: "It welcomes you." }) },
			);
			const { end, conversation } = await turn("what does Welcome say?");
			assert.equal(end, "done");
			assert.equal(readLog(log).length, 1, "only the corrected call ran");
			const tools = conversation.messages.filter((m) => m.role === "tool");
			assert.match(tools[0].content, /not valid JSON/);
			assert.match(tools[1].content, /# Welcome/);
		});

		it("stops in mid-stream and keeps what was said", async () => {
			useEmulator(vault);
			server.script({ stream: stream({ text: "This answer is long and will be interrupted by the user before it ends, ".repeat(20) }), hangAfter: 80 });
			const events = [];
			const conversation = plugin.core.newConversation();
			const running = plugin.core.chatSend(conversation, "tell me a lot", (event) => {
				events.push(event);
				if (event.type === "textDelta" && events.filter((e) => e.type === "textDelta").length === 1) {
					plugin.core.chatStop();
					plugin.abortRequests();
				}
			});
			const { end, conversation: after } = await running;
			assert.equal(end, "stopped");
			const said = events.filter((e) => e.type === "textDelta").map((e) => e.text).join("");
			assert.ok(said.length > 0);
			assert.equal(after.messages.find((m) => m.role === "assistant").text, said);
			assert.equal(after.messages.at(-1).text, "Stopped.");
		});

		for (const [status, json, code, fragment] of [
			// The OpenAI-compatible server here has no key set: none was sent.
			[401, { error: { message: "invalid x-api-key" } }, provider === "openAi" ? "missing_api_key" : "unauthorized", provider === "openAi" ? /none was sent/ : /API key/],
			[429, { error: { message: "Rate limit exceeded" } }, "rate_limited", /Rate limit exceeded/],
			[500, { error: { message: "internal failure" } }, "server_error", /internal failure/],
			// A server that echoes the request headers: the key never reaches the banner.
			[502, { error: { message: "upstream echo: x-api-key: sk-ant-test; Authorization: Bearer sk-ant-test\nmore" } }, "server_error", /upstream echo: x-api-key: \[hidden\]; Authorization: \[hidden\]/],
		]) {
			it(`turns a ${status} into one clear message`, async () => {
				// A 429 is asked again three times first (Retry-After: 0 keeps it quick).
				const reply = { status, json, headers: { "retry-after": "0" } };
				server.script(...Array(status === 429 ? 4 : 1).fill(reply));
				const { end, events } = await turn("hello");
				assert.equal(end, "failed");
				const error = events.find((e) => e.type === "error");
				assert.equal(error.code, code);
				assert.equal(error.retryable, true, "the core lets the banner offer Retry");
				assert.match(error.message, fragment);
				assert.ok(!error.message.includes("sk-ant-test") && !error.message.includes("more"), error.message);
			});
		}

		it("ends the turn at the tool-round limit with a message", async () => {
			const chat = plugin.core.settings().chat;
			await plugin.updateSettings({ chat: { ...chat, maxToolRounds: 2 } });
			try {
				const log = useEmulator(vault);
				for (let i = 0; i < 3; i++) server.script({ stream: stream({ toolCalls: [["obsidianTasks", { command: "tasks", all: true, total: true }]] }) });
				const { end, events } = await turn("keep counting");
				assert.equal(end, "roundLimit");
				// The same read twice: the second round is answered from the read cache.
				assert.equal(readLog(log).length, 1);
				assert.equal(events.filter((e) => e.type === "toolFinished").length, 2, "a tool ran in each round");
				// Said as the round limit, so the view offers Continue.
				assert.match(events.find((e) => e.type === "roundLimit").text, /Stopped after 2 tool rounds/);
				assert.equal(server.pending(), 1, "the third reply was never asked for");
				server.clear();
			} finally {
				await plugin.updateSettings({ chat: { ...chat, maxToolRounds: 10 } });
			}
		});

		it("lists the server's models for Test connection", async () => {
			const report = await plugin.core.testConnection();
			assert.equal(report.ok, true, report.message);
			assert.deepEqual(report.models, ["other-model", "test-model"]);
		});
	});
}

describe("a model server that misbehaves (real HTTP)", () => {
	let vault;
	let plugin;
	let server;
	before(async () => {
		server = await startModelServer();
		vault = copySampleVault();
		// No /v1 on purpose: the address most people copy.
		const chat = { provider: "openAi", openai: { baseUrl: server.url, model: "test-model", apiKeySecret: "" }, modelTimeoutMs: 5000 };
		({ plugin } = await loadPlugin(vault, { data: { cliPath: emulator, chat } }));
	});
	after(async () => {
		await server.close();
		removeVault(vault);
	});
	async function turn(text) {
		const events = [];
		const result = await plugin.core.chatSend(plugin.core.newConversation(), text, (event) => events.push(event));
		const error = events.find((e) => e.type === "error");
		return { ...result, events, error, said: events.filter((e) => e.type === "textDelta").map((e) => e.text).join("") };
	}
	/** Waits until the server has no connection left open. */
	async function socketsClosed() {
		for (let i = 0; i < 100 && server.openSockets() > 0; i++) await new Promise((r) => setTimeout(r, 20));
		return server.openSockets();
	}

	it("says to add /v1 when the server answers there", async () => {
		server.script({ raw: "404 page not found", status: 404 });
		const { end, error } = await turn("hi");
		assert.equal(end, "failed");
		assert.equal(error.code, "missing_v1", error.message);
		assert.match(error.message, new RegExp(`"${server.url}/v1"`));
		assert.equal(server.requests.at(-1).url, "/v1/models");
	});

	it("reads a reply that ignored stream: true, tool calls included", async () => {
		// The profile in use gets the address with /v1.
		const chat = plugin.core.settings().chat;
		const profiles = chat.profiles.map((p) => (p.id === chat.activeProfile ? { ...p, baseUrl: `${server.url}/v1` } : p));
		await plugin.updateSettings({ chat: { ...chat, profiles } });
		assert.equal(plugin.core.settings().chat.profiles.find((p) => p.id === chat.activeProfile).baseUrl, `${server.url}/v1`);
		useEmulator(vault);
		server.script(
			{ whole: { choices: [{ message: { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "obsidianTasks", arguments: JSON.stringify({ command: "tasks", all: true, todo: true }) } }] }, finish_reason: "tool_calls" }] } },
			{ whole: { choices: [{ message: { role: "assistant", content: "Two tasks are open." }, finish_reason: "stop" }] } },
		);
		const { end, said, events } = await turn("open tasks?");
		assert.equal(end, "done");
		assert.equal(said, "Two tasks are open.");
		assert.ok(events.some((e) => e.type === "toolFinished" && e.result.ok));
	});

	it("with 'Tool calls written as text' on, runs a reply that is only a call, in each form, and keeps the JSON out of the answer", async () => {
		// Off by default (tests/node/text-calls.test.mjs has both ways).
		const chat = plugin.core.settings().chat;
		const profiles = chat.profiles.map((p) => (p.id === chat.activeProfile ? { ...p, textToolCalls: true } : p));
		await plugin.updateSettings({ chat: { ...chat, profiles } });
		const log = useEmulator(vault);
		const call = JSON.stringify({ name: "obsidianTasks", arguments: { command: "tasks", all: true, todo: true } });
		for (const printed of [`<tool_call>\n${call}\n</tool_call>`, "```json\n" + call + "\n```", call]) {
			server.script({ stream: openaiStream({ text: printed }) }, { stream: openaiStream({ text: "Two tasks are open." }) });
			// Each form must reach the CLI, not the read cache.
			plugin.core.forgetReads();
			const before = readLog(log).length;
			const { end, events } = await turn("open tasks?");
			assert.equal(end, "done", printed);
			const finished = events.find((e) => e.type === "toolFinished");
			assert.ok(finished?.result.ok, `${printed}: the printed call ran`);
			assert.equal(finished.tool, "obsidianTasks");
			assert.deepEqual(readLog(log).slice(before).map((e) => e.argv), [["tasks", "all", "todo"]], "through the CLI");
			const answers = events.filter((e) => e.type === "assistantMessage").map((e) => e.text);
			assert.ok(!answers.some((text) => text.includes('"name"')), `${printed}: no JSON is kept as the answer: ${JSON.stringify(answers)}`);
			assert.equal(answers.at(-1), "Two tasks are open.");
		}
	});

	it("an empty reply is an error with a fix", async () => {
		server.script({ whole: { choices: [{ message: { role: "assistant", content: "" }, finish_reason: "stop" }] } });
		const { end, error } = await turn("hi");
		assert.equal(end, "failed");
		assert.equal(error.code, "empty_reply");
		assert.match(error.message, /Send the message again/);
	});

	it("asks a busy server again after its Retry-After", async () => {
		server.script({ status: 429, headers: { "retry-after": "1" }, json: { error: { message: "slow down" } } }, { stream: openaiStream({ text: "Here." }) });
		const started = Date.now();
		const { end, said, events } = await turn("hi");
		assert.equal(end, "done");
		assert.equal(said, "Here.");
		assert.ok(Date.now() - started >= 900, "it waited the second the server asked for");
		// A passing line (the view keeps one, until the answer), not a notice.
		assert.match(events.find((e) => e.type === "retrying").text, /busy \(429: slow down\); trying again in 1 s \(1 of 3\)/);
		assert.equal(events.filter((e) => e.type === "notice").length, 0);
	});

	it("ends a stream that stalls, and closes its connection", async () => {
		server.script({ stream: openaiStream({ text: "a long answer that never ends" }), hangAfter: 2 });
		const { end, error } = await turn("hi");
		assert.equal(end, "failed");
		assert.equal(error.code, "stalled", error.message);
		assert.match(error.message, /sent nothing for 5 s/);
		assert.equal(await socketsClosed(), 0, "no socket left open");
	});

	it("says the server cut the answer, and closes after a malformed stream", async () => {
		server.script({ stream: openaiStream({ text: "a long answer cut short by the server" }), cutAfter: 2 });
		const cut = await turn("hi");
		assert.equal(cut.error.code, "cut", cut.error.message);
		assert.match(cut.error.message, /closed the connection before the answer was complete/);
		server.script({ stream: "data: {\"choices\": [{\"delta\": {\"content\": 1}}]}\n\ndata: not json\n\n" });
		const malformed = await turn("hi");
		assert.equal(malformed.error.code, "bad_stream", malformed.error.message);
		assert.equal(await socketsClosed(), 0, "no socket left open");
	});
});

it("refused connections say what to start", async () => {
	const vault = copySampleVault();
	try {
		const { plugin } = await loadPlugin(vault, { data: { cliPath: emulator, chat: { provider: "openAi", openai: { baseUrl: "http://127.0.0.1:9/v1", model: "m" } } } });
		const events = [];
		const { end } = await plugin.core.chatSend(plugin.core.newConversation(), "hi", (e) => events.push(e));
		assert.equal(end, "failed");
		const error = events.find((e) => e.type === "error");
		assert.equal(error.code, "connection");
		// The cause once (Node's message repeats the code), the profile by name, the address apart for the view to wrap.
		assert.equal(error.message.split("ECONNREFUSED").length - 1, 1, error.message);
		assert.match(error.message, /Is the model server running\?/);
		const profile = plugin.core.modelProfiles().find((p) => p.active);
		assert.ok(error.message.includes(`"${profile.name}"`), error.message);
		assert.equal(error.address, "http://127.0.0.1:9/v1/chat/completions");
		assert.ok(error.message.includes(error.address), error.message);
		// The ways out the view offers as buttons; Switch profile only where there is another profile.
		assert.deepEqual(error.wayOut, ["retry", "profileSettings"]);
	} finally {
		removeVault(vault);
	}
});

describe("usage, reasoning and the context window (real HTTP)", () => {
	const vaults = [];
	const servers = [];
	after(async () => {
		for (const server of servers) await server.close();
		for (const vault of vaults) removeVault(vault);
	});

	async function setup(serverOptions, chat) {
		const server = await startModelServer(serverOptions);
		servers.push(server);
		const vault = copySampleVault();
		vaults.push(vault);
		const { plugin } = await loadPlugin(vault, { data: { cliPath: emulator, chat: chat(server) } });
		plugin.app.secretStorage.setSecret("anthropic-test", "sk-ant-test");
		useEmulator(vault);
		return { server, plugin };
	}

	async function turn(plugin, text, conversation = plugin.core.newConversation()) {
		const events = [];
		const result = await plugin.core.chatSend(conversation, text, (event) => events.push(event));
		const join = (type) => events.filter((e) => e.type === type).map((e) => e.text).join("");
		return { ...result, events, said: join("textDelta"), thought: join("reasoningDelta"), usage: events.find((e) => e.type === "usage") };
	}

	it("Ollama: the window from /api/show once, usage per answer and per chat, reasoning apart", async () => {
		// Open WebUI serves Ollama under /ollama: the path names the server.
		const show = { parameters: "num_ctx 8192", model_info: { "general.architecture": "llama", "llama.context_length": 131072 } };
		const { server, plugin } = await setup({ show }, (s) => ({ provider: "openAi", openai: { baseUrl: `${s.url}/ollama/v1`, model: "test-model", apiKeySecret: "" } }));
		server.script(
			{ stream: openaiStream({ reasoning: "The user wants tasks.", reasoningField: "reasoning", toolCalls: [["obsidianTasks", { command: "tasks", all: true, todo: true }]], usage: { input: 1500, output: 20 } }) },
			{ stream: openaiStream({ reasoning: "Two are open.", text: "Two tasks are open.", usage: { input: 1700, output: 9 } }) },
		);
		const first = await turn(plugin, "open tasks?");
		assert.equal(first.end, "done");
		assert.equal(first.said, "Two tasks are open.", "reasoning is not answer text");
		assert.equal(first.thought, "The user wants tasks.Two are open.");
		assert.deepEqual(first.usage.usage, { inputTokens: 3200, outputTokens: 29, contextTokens: 1709, contextWindow: 8192 });
		const chatRequest = server.requests.find((r) => r.url.endsWith("/chat/completions"));
		assert.deepEqual(chatRequest.body.stream_options, { include_usage: true });
		const answer = first.conversation.messages.at(-1);
		assert.equal(answer.reasoning, "Two are open.");
		server.script({ stream: openaiStream({ text: "Yes.", usage: { input: 1800, output: 2 } }) });
		const second = await turn(plugin, "sure?", first.conversation);
		assert.deepEqual(second.usage.chat, { inputTokens: 5000, outputTokens: 31 });
		assert.deepEqual(second.conversation.usage, { inputTokens: 5000, outputTokens: 31 }, "kept with the conversation");
		const sent = JSON.stringify(server.requests.at(-1).body.messages);
		assert.ok(!sent.includes("Two are open.") && !sent.includes("reasoning"), sent);
		assert.equal(server.requests.filter((r) => r.url.endsWith("/api/show")).length, 1, "asked once");
		assert.deepEqual(server.requests.find((r) => r.url.endsWith("/api/show")).body, { model: "test-model" });
	});

	it("a server without the probe falls back silently; one that rejects stream_options is asked again without", async () => {
		const { server, plugin } = await setup({ rejectStreamOptions: true }, (s) => ({ provider: "openAi", openai: { baseUrl: `${s.url}/ollama/v1`, model: "test-model", apiKeySecret: "" } }));
		server.script({ stream: openaiStream({ text: "Hello." }) }, { stream: openaiStream({ text: "Again." }) });
		const first = await turn(plugin, "hi");
		assert.equal(first.end, "done");
		assert.equal(first.said, "Hello.");
		assert.equal(first.usage, undefined, "no usage reported, none shown");
		assert.ok(!first.events.some((e) => e.type === "error" || e.type === "notice"), JSON.stringify(first.events));
		const chats = () => server.requests.filter((r) => r.url.endsWith("/chat/completions"));
		assert.equal(chats().length, 2);
		assert.ok(chats()[0].body.stream_options && !chats()[1].body.stream_options);
		const second = await turn(plugin, "again");
		assert.equal(second.said, "Again.");
		assert.equal(chats().length, 3, "remembered: no second refusal");
		assert.equal(server.requests.filter((r) => r.url.endsWith("/api/show")).length, 1);
	});

	it("ten turns at a 4 096-token window never send more than it holds", async () => {
		const { server, plugin } = await setup({}, (s) => ({ provider: "openAi", openai: { baseUrl: `${s.url}/v1`, model: "test-model", apiKeySecret: "", contextWindow: 4096 } }));
		let conversation = plugin.core.newConversation();
		for (let n = 0; n < TURNS; n++) {
			scriptTurn(server, n);
			const result = await turn(plugin, question(n), conversation);
			assert.equal(result.end, "done", JSON.stringify(result.events.find((e) => e.type === "error")));
			conversation = result.conversation;
		}
		const completions = server.requests.filter((r) => r.url.endsWith("/chat/completions"));
		const sent = completions.filter((r) => !isSummaryRequest(r.body)).map((r) => tokensSent(r.body));
		assert.equal(sent.length, 2 * TURNS);
		for (const tokens of sent) assert.ok(tokens <= 4096, `${tokens} tokens sent to a 4 096-token window: ${sent}`);
		// Near the window the chat was compacted; a summary request fits too, with its answer's room.
		const summaries = completions.filter((r) => isSummaryRequest(r.body));
		assert.ok(summaries.length > 0, "compacted near the window");
		for (const r of summaries) assert.ok(tokensSent(r.body) + r.body.max_tokens <= 4096, `${tokensSent(r.body)} + ${r.body.max_tokens}`);
		assert.ok(Math.max(...sent) > 3000, `the window was used, not left empty: ${sent}`);
	});

	it("LM Studio: the loaded context length", async () => {
		const lmStudioModels = { data: [{ id: "test-model", state: "loaded", max_context_length: 32768, loaded_context_length: 16384 }] };
		const { server, plugin } = await setup({ lmStudioModels }, (s) => ({ provider: "openAi", openai: { baseUrl: `${s.url}/lmstudio/v1`, model: "test-model", apiKeySecret: "" } }));
		server.script({ stream: openaiStream({ text: "Hi.", usage: { input: 100, output: 2 } }) });
		const { usage } = await turn(plugin, "hi");
		assert.equal(usage.usage.contextWindow, 16384);
	});

	it("Anthropic: thinking goes back signed with its tool_use; usage from message_start and message_delta", async () => {
		const { server, plugin } = await setup({}, (s) => ({
			provider: "anthropic",
			anthropicThinking: true,
			anthropicThinkingBudget: 2048,
			anthropic: { baseUrl: s.url, model: "claude-test", apiKeySecret: "anthropic-test" },
		}));
		server.script(
			{ stream: anthropicStream({ thinking: "Tasks first.", signature: "c2lnbmVk+/=", toolCalls: [["obsidianTasks", { command: "tasks", all: true, todo: true }]], usage: { input: 2000, output: 60 } }) },
			{ stream: anthropicStream({ text: "Two are open.", usage: { input: 2300, output: 8 } }) },
		);
		const { end, said, thought, usage } = await turn(plugin, "open tasks?");
		assert.equal(end, "done");
		assert.equal(said, "Two are open.");
		assert.equal(thought, "Tasks first.");
		assert.deepEqual(usage.usage, { inputTokens: 4300, outputTokens: 68, contextTokens: 2308, contextWindow: 200000 });
		const [first, second] = server.requests.filter((r) => r.url === "/v1/messages");
		assert.deepEqual(first.body.thinking, { type: "enabled", budget_tokens: 2048 });
		const assistant = second.body.messages[1];
		assert.deepEqual(assistant.content[0], { type: "thinking", thinking: "Tasks first.", signature: "c2lnbmVk+/=" });
		assert.equal(assistant.content[1].type, "tool_use");
	});
});

describe("unload while the model is answering (real HTTP)", () => {
	it("ends the request: the server sees its connection closed and the turn settles", async () => {
		const server = await startModelServer();
		const vault = copySampleVault();
		try {
			const chat = { provider: "openAi", openai: { baseUrl: `${server.url}/v1`, model: "test-model", apiKeySecret: "" }, modelTimeoutMs: 60_000 };
			const { plugin } = await loadPlugin(vault, { data: { cliPath: emulator, chat } });
			// Two chunks, then silence: the request stays open until someone ends it.
			server.script({ stream: openaiStream({ text: "a long answer that never ends" }), hangAfter: 2 });
			const events = [];
			const turn = plugin.core.chatSend(plugin.core.newConversation(), "hi", (event) => events.push(event));
			const asked = () => server.requests.some((r) => r.url.endsWith("/chat/completions"));
			for (let i = 0; i < 300 && !(asked() && server.openSockets() > 0); i++) await new Promise((r) => setTimeout(r, 10));
			assert.ok(asked(), "the model was asked");
			// The first chunks are through: the answer is being streamed.
			await new Promise((r) => setTimeout(r, 200));
			assert.equal(server.openSockets(), 1);
			plugin.unload();
			const settled = await Promise.race([turn.then(() => "settled", () => "settled"), new Promise((r) => setTimeout(() => r("still open"), 5000))]);
			assert.equal(settled, "settled", "the turn does not hang on a request no one will read");
			for (let i = 0; i < 100 && server.openSockets() > 0; i++) await new Promise((r) => setTimeout(r, 20));
			assert.equal(server.openSockets(), 0, "the connection to the model server is closed");
		} finally {
			await server.close();
			removeVault(vault);
		}
	});
});
