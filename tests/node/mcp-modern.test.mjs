// The MCP server of the BUILT main.js under revision 2026-07-28 (sessionless,
// with server/discover), driven by the official TypeScript SDK v2 client
// pinned to that revision over real HTTP on 127.0.0.1, next to a v1 SDK
// client that still opens a session with initialize. Calls reach the CLI
// emulator over a copy of the sample vault.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { clickButton, copySampleVault, emulator, loadPlugin, removeVault, settle, useEmulator } from "../support/harness.mjs";

const PORT = 27125 + 23;
const URL_ = `http://127.0.0.1:${PORT}/mcp`;

async function until(check, what, ms = 10000) {
	const end = Date.now() + ms;
	while (Date.now() < end) {
		if (await check()) return;
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
	assert.fail(`timed out waiting for ${what}`);
}

/** One raw POST, headers as given: what a client of the revision sends by hand. */
function post(headers, message) {
	return new Promise((resolve, reject) => {
		const body = JSON.stringify(message);
		const req = httpRequest({ host: "127.0.0.1", port: PORT, path: "/mcp", method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, agent: false }, (res) => {
			const chunks = [];
			res.on("data", (c) => chunks.push(c));
			res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
		});
		req.on("error", reject);
		req.end(body);
	});
}

const envelope = (version) => ({
	"io.modelcontextprotocol/protocolVersion": version,
	"io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
	"io.modelcontextprotocol/clientCapabilities": {},
});

describe("the MCP server under revision 2026-07-28", () => {
	let vault;
	let plugin;
	let token;
	const clients = [];

	async function modern(name = "Modern client") {
		const client = new ModernClient({ name, version: "2.4.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
		const transport = new ModernTransport(new URL(URL_), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
		await client.connect(transport);
		clients.push(client);
		return client;
	}

	const modalCard = () => document.querySelector(".modal .vault-agent-confirm");

	before(async () => {
		vault = copySampleVault();
		useEmulator(vault);
		({ plugin } = await loadPlugin(vault, {
			data: { cliPath: emulator, vaultName: "Sample Vault", permissionMode: "askBeforeEdits", mcp: { enabled: true, port: PORT, permissionMode: "askEveryChange" } },
		}));
		token = plugin.agents.token();
	});

	after(async () => {
		for (const client of clients) await client.close().catch(() => {});
		plugin.unload();
		await settle(5);
		removeVault(vault);
	});

	it("is discovered without a session, lists the tools and reads", async () => {
		const client = await modern("Claude Code");
		assert.equal(client.getProtocolEra(), "modern");
		assert.equal(client.getNegotiatedProtocolVersion(), "2026-07-28");
		assert.equal(client.transport.sessionId, undefined, "no session was opened");
		const discovered = client.getDiscoverResult();
		assert.ok(discovered.supportedVersions.includes("2026-07-28"), JSON.stringify(discovered));
		assert.ok(discovered.supportedVersions.includes("2025-11-25"), "the session revisions are still spoken");
		assert.equal(client.getServerVersion().name, "vault-agent");
		assert.match(client.getInstructions(), /Obsidian vault/);
		const { tools } = await client.listTools();
		const enabled = (await plugin.api.listTools()).filter((t) => t.enabled);
		assert.deepEqual(tools.map((t) => t.name), enabled.map((t) => t.id));
		const read = await client.callTool({ name: "obsidianNotes", arguments: { command: "read", file: "Welcome" } });
		assert.equal(read.isError, false, JSON.stringify(read));
		assert.match(read.content[0].text, /Welcome/);
		const entry = plugin.agents.activity.at(-1);
		assert.deepEqual([entry.client, entry.clientVersion, entry.tool, entry.code], ["Claude Code", "2.4.0", "obsidianNotes", "ok"]);
	});

	it("keeps a write that needs the card waiting for the click", async () => {
		const client = await modern("Claude Code");
		const file = join(vault, "Welcome.md");
		const before = readFileSync(file, "utf8");
		const approved = client.callTool({ name: "obsidianEdit", arguments: { command: "append", file: "Welcome", content: "modern line" } }, { timeout: 60000 });
		await until(() => modalCard(), "the card");
		assert.match(modalCard().querySelector(".vault-agent-confirm-requester").textContent, /^Claude Code wants to change .*Welcome/);
		assert.equal(readFileSync(file, "utf8"), before, "nothing changed before the click");
		clickButton(modalCard(), "Approve");
		const result = await approved;
		assert.equal(result.isError, false, JSON.stringify(result));
		assert.match(readFileSync(file, "utf8"), /modern line/);
		const rejected = client.callTool({ name: "obsidianEdit", arguments: { command: "append", file: "Welcome", content: "rejected line" } });
		await until(() => modalCard(), "the second card");
		clickButton(modalCard(), "Reject");
		const no = await rejected;
		assert.equal(no.isError, true);
		assert.match(no.content[0].text, /^confirmation_rejected: /);
		assert.doesNotMatch(readFileSync(file, "utf8"), /rejected line/);
	});

	it("still opens a session for a client that initializes, beside the sessionless one", async () => {
		const old = new Client({ name: "old", version: "1" });
		await old.connect(new StreamableHTTPClientTransport(new URL(URL_), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
		clients.push(old);
		assert.match(old.transport.sessionId ?? "", /./, "a session id");
		assert.ok(["2025-11-25", "2025-06-18"].includes(old.transport.protocolVersion), old.transport.protocolVersion);
		const { tools } = await old.listTools();
		assert.ok(tools.length > 0);
	});

	it("tells a revision it does not speak, and headers that disagree with the body", async () => {
		const auth = { authorization: `Bearer ${token}` };
		const unknown = await post({ ...auth, "mcp-protocol-version": "2099-01-01", "mcp-method": "tools/list" }, { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: envelope("2099-01-01") } });
		assert.equal(unknown.status, 400);
		const error = JSON.parse(unknown.body).error;
		assert.equal(error.code, -32022);
		assert.deepEqual(error.data.requested, "2099-01-01");
		assert.ok(error.data.supported.includes("2026-07-28"), unknown.body);
		const mismatch = await post({ ...auth, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call" }, { jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: envelope("2026-07-28") } });
		assert.equal(mismatch.status, 400);
		assert.equal(JSON.parse(mismatch.body).error.code, -32020);
		assert.match(JSON.parse(mismatch.body).error.message, /Mcp-Method/);
		const listed = await post({ ...auth, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" }, { jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: envelope("2026-07-28") } });
		assert.equal(listed.status, 200, listed.body);
		const result = JSON.parse(listed.body).result;
		assert.deepEqual([result.resultType, result.ttlMs, result.cacheScope], ["complete", 0, "private"]);
		assert.equal(listed.headers["mcp-session-id"], undefined, "no session");
	});

	it("refuses what the revision requires and a request left out, as the conformance suite checks", async () => {
		const auth = { authorization: `Bearer ${token}`, "mcp-protocol-version": "2026-07-28" };
		const bare = await post({ ...auth, "mcp-method": "server/discover" }, { jsonrpc: "2.0", id: 4, method: "server/discover", params: {} });
		assert.deepEqual([bare.status, JSON.parse(bare.body).error.code, JSON.parse(bare.body).id], [400, -32602, 4], bare.body);
		const call = { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "obsidianNotes", arguments: { command: "read", file: "Welcome" }, _meta: envelope("2026-07-28") } };
		const unnamed = await post({ ...auth, "mcp-method": "tools/call" }, call);
		assert.deepEqual([unnamed.status, JSON.parse(unnamed.body).error.code], [400, -32020], unnamed.body);
		assert.match(JSON.parse(unnamed.body).error.message, /Mcp-Name/);
		const named = await post({ ...auth, "mcp-method": "tools/call", "mcp-name": "obsidianNotes" }, call);
		assert.equal(named.status, 200, named.body);
		const ping = await post({ ...auth, "mcp-method": "ping" }, { jsonrpc: "2.0", id: 6, method: "ping", params: { _meta: envelope("2026-07-28") } });
		assert.deepEqual([ping.status, JSON.parse(ping.body).error.code], [404, -32601], ping.body);
	});
});
