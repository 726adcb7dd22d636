// The MCP server of the BUILT main.js against hostile local clients and the
// protocol details two independent client libraries found: raw sockets for
// what no SDK would send (slow headers, bodies before the token, more
// connections than the cap), raw requests for the exact bytes of an answer,
// and the official TypeScript SDK client where a real client's view counts.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { clickButton, copySampleVault, emulator, loadPlugin, removeVault, root, settle, useEmulator } from "../support/harness.mjs";

const PORT = 27125 + 41;
const URL_ = `http://127.0.0.1:${PORT}/mcp`;
// The listener's bounds as the core has them (src/doors/mcp/listener.rs).
const listener = readFileSync(join(root, "src/doors/mcp/listener.rs"), "utf8");
const bound = (name) => Number(listener.match(new RegExp(`pub const ${name}: u32 = ([\\d_]+);`))?.[1].replaceAll("_", ""));
const MAX_CONNECTIONS = bound("MAX_CONNECTIONS");
const A_DOOR = "d00r".repeat(16);

async function until(check, what, ms = 10000) {
	const end = Date.now() + ms;
	while (Date.now() < end) {
		if (await check()) return;
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
	assert.fail(`timed out waiting for ${what}`);
}

/** One raw exchange; the body as text and, for an event stream, its messages. */
function raw({ headers = {}, body = "", method = "POST" }) {
	return new Promise((resolve, reject) => {
		const req = httpRequest({ host: "127.0.0.1", port: PORT, path: "/mcp", method, headers, agent: false }, (res) => {
			const chunks = [];
			res.on("data", (c) => chunks.push(c));
			res.on("end", () => {
				const text = Buffer.concat(chunks).toString("utf8");
				const events = [...text.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]));
				resolve({ status: res.statusCode, headers: res.headers, body: text, events });
			});
		});
		req.on("error", reject);
		req.end(body);
	});
}

/** A raw socket to the server, and what came back on it. */
function socket() {
	const s = connect(PORT, "127.0.0.1");
	const got = { data: "", closed: false };
	s.on("data", (d) => (got.data += d));
	s.on("close", () => (got.closed = true));
	s.on("error", () => {});
	return { s, got, opened: new Promise((resolve) => s.once("connect", resolve)) };
}

describe("the MCP server under hostile local clients, through the built main.js", () => {
	let vault;
	let plugin;
	let token;
	const clients = [];
	const modalCard = () => document.querySelector(".modal .vault-agent-confirm");
	const headers = (extra = {}) => ({ authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream", ...extra });
	const init = (version = "2025-11-25") => JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
	/** A session opened by a raw initialize: its id. */
	async function session(version, bearer = token) {
		const reply = await raw({ headers: headers({ authorization: `Bearer ${bearer}` }), body: init(version) });
		assert.equal(reply.status, 200, reply.body);
		return reply.headers["mcp-session-id"];
	}
	async function connectSdk(name = "sdk") {
		const client = new Client({ name, version: "1" });
		await client.connect(new StreamableHTTPClientTransport(new URL(URL_), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
		clients.push(client);
		return client;
	}
	const setMode = (permissionMode) => plugin.updateSettings({ mcp: { ...plugin.core.settings().mcp, permissionMode } });

	before(async () => {
		vault = copySampleVault();
		useEmulator(vault);
		({ plugin } = await loadPlugin(vault, { data: { cliPath: emulator, vaultName: "Sample Vault", mcp: { enabled: true, port: PORT, permissionMode: "readOnly" } } }));
		token = plugin.agents.token();
	});

	after(async () => {
		for (const client of clients) await client.close().catch(() => {});
		plugin.unload();
		await settle(5);
		removeVault(vault);
	});

	it("checks the token from the headers and answers before any of the body is sent", async () => {
		const { s, got, opened } = socket();
		await opened;
		// Headers that promise 4 MiB, and then nothing: the answer must not wait for the body.
		s.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${PORT}\r\nContent-Type: application/json\r\nContent-Length: ${4 * 1024 * 1024}\r\n\r\n`);
		await until(() => got.data.includes("\r\n\r\n"), "an answer without the body");
		assert.match(got.data, /^HTTP\/1\.1 401 /);
		assert.match(got.data, /Unauthorized: send the token/);
		await until(() => got.closed, "the connection closed");
	});

	it("closes a connection whose headers trickle in, and one that sends nothing", async () => {
		const slow = socket();
		const silent = socket();
		await Promise.all([slow.opened, silent.opened]);
		slow.s.write("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n");
		const drip = setInterval(() => slow.s.write("X-Slow: 1\r\n"), 500);
		try {
			// Node's own defaults (60 s, checked every 30 s) would hold both for a minute or more.
			await until(() => slow.got.closed && silent.got.closed, "both closed by the server", 20000);
		} finally {
			clearInterval(drip);
		}
	});

	it(`answers 503 to a connection over the cap of ${MAX_CONNECTIONS}, and keeps serving`, async () => {
		assert.ok(MAX_CONNECTIONS > 0, "MAX_CONNECTIONS read from src/doors/mcp/listener.rs");
		const held = Array.from({ length: MAX_CONNECTIONS }, socket);
		await Promise.all(held.map((h) => h.opened));
		await until(() => plugin.agents.listener.connections >= MAX_CONNECTIONS, "the connections counted");
		const over = socket();
		await over.opened;
		await until(() => over.got.closed, "the one over the cap closed");
		assert.match(over.got.data, /^HTTP\/1\.1 503 /);
		assert.match(over.got.data, /Service unavailable: \d+ connections are open/);
		for (const h of held) h.s.destroy();
		await until(() => plugin.agents.listener.connections === 0, "the held connections gone");
		const reply = await raw({ headers: headers(), body: init() });
		assert.equal(reply.status, 200);
	});

	it("keeps each token's sessions apart: an agent's token cannot evict another client", async () => {
		const client = await connectSdk("kept");
		assert.ok(plugin.core.openAgentDoor(A_DOOR, "Codex", "readOnly"));
		try {
			for (let i = 0; i < 40; i++) await session("2025-11-25", A_DOOR);
			const read = await client.callTool({ name: "obsidianNotes", arguments: { command: "read", file: "Welcome" } });
			assert.equal(read.isError, false, "the server token's session is still there");
		} finally {
			plugin.core.closeAgentDoor(A_DOOR);
		}
	});

	it("accepts the bearer scheme in any case", async () => {
		for (const scheme of ["BEARER", "bearer", "Bearer"]) {
			const reply = await raw({ headers: headers({ authorization: `${scheme} ${token}` }), body: init() });
			assert.equal(reply.status, 200, `${scheme}: ${reply.body}`);
		}
	});

	it("tells an MCP client in Read only where its own mode is set", async () => {
		const client = await connectSdk();
		const result = await client.callTool({ name: "obsidianEdit", arguments: { command: "append", file: "Welcome", content: "x" } });
		assert.match(result.content[0].text, /^writes_disabled: /);
		assert.match(result.content[0].text, /Settings → Vault Agent → MCP: this vault's server for other apps → "What MCP clients may change"/);
		assert.doesNotMatch(result.content[0].text, /Safety/);
	});

	it("lists destructive and idempotent hints from the commands' declared access", async () => {
		const client = await connectSdk();
		const { tools } = await client.listTools();
		const hints = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
		for (const name of ["obsidianEdit", "obsidianProperties", "obsidianTags", "obsidianTasks", "obsidianOrganise"]) {
			assert.equal(hints[name].destructiveHint, true, name);
		}
		assert.equal(hints.obsidianDailyNote.destructiveHint, false, "only adds");
		assert.equal(hints.obsidianProperties.idempotentHint, true);
		assert.equal(hints.obsidianEdit.idempotentHint, false);
	});

	it("sends structured content with the same JSON in its text block", async () => {
		const client = await connectSdk();
		const result = await client.callTool({ name: "obsidianSearch", arguments: { command: "search", query: "project", format: "json" } });
		assert.equal(result.isError, false, result.content[0].text);
		assert.ok(result.structuredContent, JSON.stringify(result));
		assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
	});

	it("takes a JSON-RPC batch from a 2025-03-26 session, and refuses one from a newer session", async () => {
		const old = await session("2025-03-26");
		const batch = JSON.stringify([
			{ jsonrpc: "2.0", id: 1, method: "ping" },
			{ jsonrpc: "2.0", method: "notifications/initialized" },
			{ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "obsidianNotes", arguments: { command: "read", file: "Welcome" } } },
		]);
		const reply = await raw({ headers: headers({ "mcp-session-id": old, "mcp-protocol-version": "2025-03-26" }), body: batch });
		assert.equal(reply.status, 200, reply.body);
		const answers = JSON.parse(reply.body);
		assert.deepEqual(answers.map((a) => a.id), [1, 2]);
		assert.match(answers[1].result.content[0].text, /Welcome/);
		const newer = await session("2025-06-18");
		const refused = await raw({ headers: headers({ "mcp-session-id": newer, "mcp-protocol-version": "2025-06-18" }), body: batch });
		assert.equal(refused.status, 400);
		assert.match(JSON.parse(refused.body).error.message, /batches are not part of MCP 2025-06-18/);
	});

	describe("while a card waits", () => {
		before(() => setMode("askEveryChange"));
		after(() => setMode("readOnly"));
		const append = (id, content, extra = {}) =>
			JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "obsidianEdit", arguments: { command: "append", file: "Welcome", content }, ...extra } });
		const cancel = (id, reason) => JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason } });
		const welcome = () => readFileSync(join(vault, "Welcome.md"), "utf8");

		it("gives a cancelled request no response, as a stream or as JSON", async () => {
			for (const accept of ["application/json, text/event-stream", "application/json"]) {
				const id = `cancel-${accept.length}`;
				const sid = await session("2025-11-25");
				const inSession = headers({ "mcp-session-id": sid, accept });
				const pending = raw({ headers: inSession, body: append(id, "cancelled-marker") });
				await until(() => modalCard(), "the card");
				const ack = await raw({ headers: inSession, body: cancel(id, "User pressed Esc") });
				assert.equal(ack.status, 202);
				const reply = await pending;
				assert.ok(![...reply.events, ...(reply.body.startsWith("{") ? [JSON.parse(reply.body)] : [])].some((m) => m.id === id), `${accept}: no response for the cancelled request: ${reply.body}`);
				await until(() => !modalCard(), "the card withdrawn");
			}
			assert.doesNotMatch(welcome(), /cancelled-marker/);
		});

		it("never sends an event stream to a client that accepts only JSON", async () => {
			const sid = await session("2025-11-25");
			const pending = raw({ headers: headers({ "mcp-session-id": sid, accept: "application/json" }), body: append("json-only", "json only", { _meta: { progressToken: "p" } }) });
			await until(() => modalCard(), "the card");
			// The first progress notification would go out at once.
			await settle(10);
			clickButton(modalCard(), "Approve");
			const reply = await pending;
			assert.match(reply.headers["content-type"], /^application\/json/);
			assert.equal(JSON.parse(reply.body).result.isError, false, reply.body);
			await plugin.core.undoLast();
		});

		it("keeps the card of a call that timed out, so the same call asked again finds it", async () => {
			const sid = await session("2025-11-25");
			const inSession = headers({ "mcp-session-id": sid });
			const before = welcome();
			const first = raw({ headers: inSession, body: append(1, "asked twice") });
			await until(() => modalCard(), "the card");
			const card = modalCard().dataset.confirmationId;
			// What the TypeScript SDK sends when its own 60 s timer runs out.
			await raw({ headers: inSession, body: cancel(1, "McpError: MCP error -32001: Request timed out") });
			const retry = raw({ headers: inSession, body: append(2, "asked twice") });
			await settle(10);
			assert.equal(modalCard()?.dataset.confirmationId, card, "the same card, still shown");
			clickButton(modalCard(), "Approve");
			const answer = await retry;
			const response = answer.events.find((m) => m.id === 2) ?? JSON.parse(answer.body);
			assert.equal(response.result.isError, false, answer.body);
			const gaveUp = await first;
			assert.ok(!gaveUp.events.some((m) => m.id === 1), "the call that timed out gets no response");
			assert.equal(welcome().split("asked twice").length - 1, 1, "the change ran once");
			await plugin.core.undoLast();
			assert.equal(welcome(), before);
		});

		it("a cancel through the official SDK leaves it no response to complain about", async () => {
			const client = await connectSdk();
			const errors = [];
			client.onerror = (error) => errors.push(String(error));
			const controller = new AbortController();
			const call = client.callTool({ name: "obsidianEdit", arguments: { command: "append", file: "Welcome", content: "sdk cancel" } }, undefined, { signal: controller.signal });
			await until(() => modalCard(), "the card");
			controller.abort("changed my mind");
			await assert.rejects(call);
			await until(() => !modalCard(), "the card withdrawn");
			await until(() => plugin.agents.activity.at(-1)?.code === "cancelled", "the call logged as cancelled");
			// A round trip after the cancelled call's stream has ended.
			await client.ping();
			await settle(10);
			assert.deepEqual(errors.filter((e) => /unknown message ID/.test(e)), []);
		});
	});
});
