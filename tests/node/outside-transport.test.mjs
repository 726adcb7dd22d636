// The user's MCP servers over real transports, through the BUILT main.js:
// a Streamable HTTP server that wants a bearer token (the token read from
// Obsidian's secret storage reaches it; a wrong or missing one is said
// plainly in the chat), and a call that runs past the server's timeout (the
// chat ends the call, tells the model what to do, and goes on).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { copySampleVault, emulator, eventually, loadPlugin, removeVault, root } from "../support/harness.mjs";
import { openaiStream as stream, startModelServer } from "../support/model-servers.mjs";

const serverScript = join(root, "tests/support/outside-mcp-server.mjs");
const TOKEN = "tok-0123456789abcdef";

describe("outside MCP servers over real transports", () => {
	let vault;
	let plugin;
	let model;
	let dir;
	let logPath;
	let http;
	let url;
	const seen = () => (existsSync(logPath) ? readFileSync(logPath, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line)) : []);
	const calls = (tool) => seen().filter((e) => e.tool === tool);

	async function turn(text, conversation = plugin.core.newConversation()) {
		const events = [];
		const result = await plugin.core.chatSend(conversation, text, (event) => events.push(event));
		return { ...result, events, notices: events.filter((e) => e.type === "notice").map((e) => e.text) };
	}
	const finished = (events) => events.filter((e) => e.type === "toolFinished").at(-1)?.result;
	const offered = (request) => request.body.tools.map((t) => t.function.name);
	const toolMessages = (request) => request.body.messages.filter((m) => m.role === "tool").map((m) => m.content);
	const web = (patch = {}) => ({ id: "web", kind: "http", url, bearerSecret: "web-token", trust: "neverAsk", ...patch });

	before(async () => {
		dir = mkdtempSync(join(tmpdir(), "outside-transport-"));
		logPath = join(dir, "calls.jsonl");
		model = await startModelServer();
		http = spawn(process.execPath, [serverScript, "http"], { env: { ...process.env, OUTSIDE_MCP_LOG: logPath, OUTSIDE_MCP_TOKEN: TOKEN }, stdio: ["ignore", "pipe", "inherit"] });
		url = await new Promise((done) => http.stdout.on("data", (chunk) => done(`http://127.0.0.1:${/port (\d+)/.exec(String(chunk))[1]}/mcp`)));
		vault = copySampleVault();
		({ plugin } = await loadPlugin(vault, {
			data: { cliPath: emulator, permissionMode: "askBeforeEdits", chat: { provider: "openAi", openai: { baseUrl: `${model.url}/v1`, model: "test-model", apiKeySecret: "" } } },
		}));
	});
	after(async () => {
		plugin.unload();
		http.kill();
		await model.close();
		removeVault(vault);
		rmSync(dir, { recursive: true, force: true });
	});

	describe("a server that wants a bearer token", () => {
		it("gets the token from secret storage, and the call goes through", async () => {
			plugin.app.secretStorage.setSecret("web-token", TOKEN);
			const saved = await plugin.updateSettings({ mcpServers: [web()] });
			assert.ok(!JSON.stringify(saved).includes(TOKEN), "the settings keep the secret's name only");
			model.script({ stream: stream({ toolCalls: [["mcp_web_lookup", { word: "token" }]] }) }, { stream: stream({ text: "Found it." }) });
			const { end, events } = await turn("look up token");
			assert.equal(end, "done");
			assert.equal(finished(events).ok, true, finished(events).text);
			assert.deepEqual(calls("lookup").map((c) => c.word), ["token"], "the server answered only with the right token");
		});

		it("a wrong token: the chat says the server refused it and names the secret to check, not a sign-in", async () => {
			plugin.app.secretStorage.setSecret("web-token", "tok-wrong");
			model.script({ stream: stream({ text: "Hello." }) });
			const from = model.requests.length;
			const { end, notices } = await turn("hi");
			assert.equal(end, "done", "the chat goes on with our tools");
			assert.ok(!offered(model.requests[from]).some((name) => name.startsWith("mcp_web")), "its tools are not offered");
			const said = notices.join("\n");
			assert.match(said, /The MCP server `web` refused its bearer token \(401\)/, said);
			assert.match(said, /the secret `web-token`/, said);
			assert.doesNotMatch(said, /OAuth/, said);
			const listing = await plugin.core.outsideTest("web");
			assert.equal(listing.ok, false);
			assert.match(listing.error, /refused its bearer token \(401\)/, "Test says the same");
		});

		it("a token missing from secret storage: the chat names the secret it looked for", async () => {
			await plugin.updateSettings({ mcpServers: [web({ bearerSecret: "web-token-gone" })] });
			model.script({ stream: stream({ text: "Hello." }) });
			const { end, notices } = await turn("hi");
			assert.equal(end, "done");
			assert.match(notices.join("\n"), /`web` needs its bearer token from the secret `web-token-gone`, which secret storage does not have/);
		});

		it("no token at all: the 401 is said as a sign-in or token the server wants", async () => {
			await plugin.updateSettings({ mcpServers: [web({ bearerSecret: "" })] });
			model.script({ stream: stream({ text: "Hello." }) });
			const { notices } = await turn("hi");
			const said = notices.join("\n");
			assert.match(said, /`web` asks for a sign-in \(OAuth\)/, said);
			assert.match(said, /bearer token from secret storage/, said);
		});
	});

	it("a call past the server's timeout: the chat shows the error, the server is told to cancel, the model is told what to do, and the chat goes on", async () => {
		plugin.app.secretStorage.setSecret("web-token", TOKEN);
		await plugin.updateSettings({ mcpServers: [web({ timeoutMs: 1000 })] });
		const view = await plugin.openChat();
		model.script({ stream: stream({ toolCalls: [["mcp_web_slow", {}]] }) }, { stream: stream({ text: "It timed out." }) });
		view.inputEl.value = "take your time";
		await view.send();
		const block = view.contentEl.querySelector(".vault-agent-tool-call.is-error");
		assert.ok(block, "the tool block shows an error");
		// The header says it failed, in words; the reason is in the block.
		assert.equal(block.querySelector(".vault-agent-tool-status").textContent, "Failed");
		assert.match(block.querySelector(".vault-agent-tool-result").textContent, /gave no answer within 1 s, so the call was cancelled/);
		// The view's element is the chat itself: querySelector looks only below it.
		assert.equal(view.contentEl.classList.contains("is-running"), false, "the answer is not left running");
		assert.equal(view.contentEl.querySelector(".vault-agent-tool-call.is-running"), null, "nothing is left running");
		const answer = () => [...view.contentEl.querySelectorAll(".vault-agent-msg.is-assistant")].at(-1).textContent;
		assert.match(answer(), /It timed out\./, "the model answered after the timeout");
		const told = toolMessages(model.requests.at(-1)).at(-1);
		assert.match(told, /gave no answer within 1 s[\s\S]*Do not call it again at once: tell the user it timed out/);
		await eventually(() => calls("slow").some((e) => e.phase === "cancelled"));
		model.script({ stream: stream({ toolCalls: [["mcp_web_lookup", { word: "after" }]] }) }, { stream: stream({ text: "Still here." }) });
		view.inputEl.value = "look up after";
		await view.send();
		assert.equal(calls("lookup").at(-1).word, "after", "the next message reaches the server at once");
		assert.match(answer(), /Still here\./);
	});
});
