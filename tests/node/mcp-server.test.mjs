// The MCP server of the BUILT main.js, driven by real clients over real HTTP
// on 127.0.0.1: the official TypeScript SDK's Streamable HTTP client, the MCP
// Inspector's CLI, and raw requests for what a hostile page or process would
// send. Calls reach the CLI emulator over a copy of the sample vault.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { dirname, join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { clickButton, copySampleVault, emulator, isAlive, loadPlugin, readLog, removeVault, root, settle, useEmulator } from "../support/harness.mjs";

const PORT = 27125 + 17;
const URL_ = `http://127.0.0.1:${PORT}/mcp`;

async function until(check, what, ms = 10000) {
	const end = Date.now() + ms;
	while (Date.now() < end) {
		if (await check()) return;
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
	assert.fail(`timed out waiting for ${what}`);
}

/** One raw HTTP exchange (what the SDK would never send). */
function raw({ method = "POST", headers = {}, body = "", path = "/mcp", port = PORT }) {
	return new Promise((resolve, reject) => {
		const req = httpRequest({ host: "127.0.0.1", port, path, method, headers, agent: false }, (res) => {
			const chunks = [];
			res.on("data", (c) => chunks.push(c));
			res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
		});
		req.on("error", reject);
		req.end(body);
	});
}

describe("the MCP server through the built main.js", () => {
	let vault;
	let plugin;
	let token;
	let log;
	const clients = [];

	async function connect(name = "test-client") {
		const client = new Client({ name, version: "9.9.9" });
		const transport = new StreamableHTTPClientTransport(new URL(URL_), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
		await client.connect(transport);
		clients.push(client);
		return client;
	}

	/** The modal's card, once it shows one. */
	const modalCard = () => document.querySelector(".modal .vault-agent-confirm");

	before(async () => {
		vault = copySampleVault();
		log = useEmulator(vault);
		({ plugin } = await loadPlugin(vault, {
			data: { cliPath: emulator, vaultName: "Sample Vault", permissionMode: "askBeforeEdits", mcp: { enabled: true, port: PORT, permissionMode: "readOnly" } },
		}));
		token = plugin.agents.token();
		assert.match(token ?? "", /^[0-9a-f]{64}$/, "a 256-bit token was made on first enable");
		assert.equal(plugin.app.secretStorage.getSecret("vault-agent-mcp-token"), token, "kept in Obsidian's secret storage");
	});

	after(async () => {
		for (const client of clients) await client.close().catch(() => {});
		plugin.unload();
		await settle(5);
		removeVault(vault);
	});

	it("initializes, lists the chat's tools and resources, and reads", async () => {
		const client = await connect("Claude Code");
		assert.equal(client.getServerVersion().name, "vault-agent");
		const { tools } = await client.listTools();
		const enabled = (await plugin.api.listTools()).filter((t) => t.enabled);
		assert.deepEqual(tools.map((t) => t.name), enabled.map((t) => t.id));
		assert.deepEqual(tools[0].inputSchema, enabled[0].inputSchema);
		const { resources, nextCursor } = await client.listResources();
		assert.equal(resources[0].uri, "obsidian://tags");
		assert.ok(resources.some((r) => r.uri === "obsidian://vault/Welcome.md"), JSON.stringify(resources.map((r) => r.uri)));
		assert.equal(nextCursor, undefined, "the sample vault fits one page");
		const { resourceTemplates } = await client.listResourceTemplates();
		assert.equal(resourceTemplates[0].uriTemplate, "obsidian://vault/{path}");
		const welcome = await client.readResource({ uri: "obsidian://vault/Welcome.md" });
		assert.equal(welcome.contents[0].mimeType, "text/markdown");
		assert.equal(welcome.contents[0].text.trim(), readFileSync(join(vault, "Welcome.md"), "utf8").trim());
		const read = await client.callTool({ name: "obsidianNotes", arguments: { command: "read", file: "Welcome" } });
		assert.equal(read.isError, false);
		assert.match(read.content[0].text, /Welcome/);
		const entry = plugin.agents.activity.at(-1);
		assert.deepEqual([entry.client, entry.clientVersion, entry.tool, entry.code], ["Claude Code", "9.9.9", "obsidianNotes", "ok"]);
		assert.ok(entry.argv.includes("read"), entry.argv.join(" "));
	});

	it("refuses a write in Read only, whatever the chat's mode", async () => {
		const client = await connect();
		const before = readFileSync(join(vault, "Welcome.md"), "utf8");
		const result = await client.callTool({ name: "obsidianEdit", arguments: { command: "append", file: "Welcome", content: "from MCP" } });
		assert.equal(result.isError, true);
		assert.match(result.content[0].text, /^writes_disabled: /);
		assert.equal(readFileSync(join(vault, "Welcome.md"), "utf8"), before);
	});

	it("waits for the user's click on a card in the client's name; approved, rejected, or withdrawn when the client cancels", async () => {
		await plugin.updateSettings({ mcp: { ...plugin.core.settings().mcp, permissionMode: "askEveryChange" } });
		const client = await connect("Claude Code");
		const file = join(vault, "Welcome.md");
		const before = readFileSync(file, "utf8");
		const progress = [];
		// Approved: the test clicks Approve on the modal's card.
		const approved = client.request(
			{ method: "tools/call", params: { name: "obsidianEdit", arguments: { command: "append", file: "Welcome", content: "approved line" } } },
			CallToolResultSchema,
			{ onprogress: (p) => progress.push(p), timeout: 60000 },
		);
		await until(() => modalCard(), "the card");
		assert.match(modalCard().querySelector(".vault-agent-confirm-requester").textContent, /^Claude Code wants to change .*Welcome/);
		assert.equal(readFileSync(file, "utf8"), before, "nothing changed before the click");
		clickButton(modalCard(), "Approve");
		const result = await approved;
		assert.equal(result.isError, false, JSON.stringify(result));
		assert.match(readFileSync(file, "utf8"), /approved line/);
		assert.ok(progress.length >= 1, "progress while the card waited");
		assert.equal(plugin.agents.activity.at(-1).code, "ok");
		// In the undo journal like the chat's changes: the user's undo puts it back.
		const undone = await plugin.core.undoLast();
		assert.equal(undone.ok, true, undone.text);
		assert.equal(readFileSync(file, "utf8"), before);

		// Rejected.
		const rejected = client.callTool({ name: "obsidianEdit", arguments: { command: "append", file: "Welcome", content: "rejected line" } });
		await until(() => modalCard(), "the second card");
		clickButton(modalCard(), "Reject");
		const no = await rejected;
		assert.equal(no.isError, true);
		assert.match(no.content[0].text, /^confirmation_rejected: /);
		assert.doesNotMatch(readFileSync(file, "utf8"), /rejected line/);

		// Cancelled by the client: the card goes away, nothing changes.
		const controller = new AbortController();
		const cancelled = client.callTool({ name: "obsidianEdit", arguments: { command: "append", file: "Welcome", content: "cancelled line" } }, undefined, { signal: controller.signal });
		await until(() => modalCard(), "the third card");
		const id = modalCard().dataset.confirmationId;
		controller.abort("changed my mind");
		await assert.rejects(cancelled);
		await until(() => plugin.core.confirmationOutcome(id)?.error?.code === "confirmation_rejected", "the card withdrawn");
		await until(() => !modalCard(), "the modal closed");
		assert.doesNotMatch(readFileSync(file, "utf8"), /cancelled line/);
		await plugin.updateSettings({ mcp: { ...plugin.core.settings().mcp, permissionMode: "readOnly" } });
	});

	it("stops the CLI process of a cancelled call, and of a client that disconnects", async () => {
		const client = await connect();
		for (const how of ["cancel", "disconnect"]) {
			useEmulator(vault, { OBSIDIAN_EMULATOR_FAULT: "hang", OBSIDIAN_EMULATOR_FAULT_COMMAND: "search" });
			log = process.env.OBSIDIAN_EMULATOR_LOG;
			if (how === "cancel") {
				const controller = new AbortController();
				const call = client.callTool({ name: "obsidianSearch", arguments: { command: "search", query: "x" } }, undefined, { signal: controller.signal });
				await until(() => readLog(log).some((l) => l.args?.includes("search") || l.argv?.includes("search")), "the search to start");
				const pid = readLog(log).at(-1).pid;
				assert.ok(isAlive(pid));
				controller.abort("stop");
				await assert.rejects(call);
				await until(() => !isAlive(pid), "the CLI process gone");
			} else {
				const body = JSON.stringify({ jsonrpc: "2.0", id: 99, method: "tools/call", params: { name: "obsidianSearch", arguments: { command: "search", query: "y" } } });
				const session = client.transport.sessionId;
				const req = httpRequest({
					host: "127.0.0.1", port: PORT, path: "/mcp", method: "POST",
					headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": session },
				});
				req.on("error", () => {});
				req.end(body);
				await until(() => readLog(log).length > 0, "the search to start");
				const pid = readLog(log).at(-1).pid;
				assert.ok(isAlive(pid));
				req.destroy();
				await until(() => !isAlive(pid), "the CLI process gone after the client left");
			}
		}
		useEmulator(vault);
	});

	it("runs 20 calls at once and answers each", async () => {
		const client = await connect();
		const results = await Promise.all(
			Array.from({ length: 20 }, (_, i) => client.callTool({ name: "obsidianNotes", arguments: { command: "read", file: i % 2 ? "Welcome" : "Projects/Roadmap" } })),
		);
		for (const result of results) assert.equal(result.isError, false, result.content[0].text);
	});

	it("gives each hostile request its documented answer and runs nothing", async () => {
		useEmulator(vault);
		log = process.env.OBSIDIAN_EMULATOR_LOG;
		const init = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } } });
		const good = { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" };
		const cases = [
			["no token", { headers: { ...good, authorization: undefined }, body: init }, 401],
			["wrong token", { headers: { ...good, authorization: `Bearer ${"f".repeat(64)}` }, body: init }, 401],
			["foreign Origin", { headers: { ...good, origin: "https://evil.example" }, body: init }, 403],
			["foreign Host", { headers: { ...good, host: `evil.example:${PORT}` }, body: init }, 403],
			["5 MB body", { headers: good, body: "x".repeat(5 * 1024 * 1024) }, 413],
			["invalid JSON", { headers: good, body: "{nope" }, 400],
			["a batch", { headers: good, body: `[${init}]` }, 400],
		];
		for (const [name, { headers, body }, status] of cases) {
			const clean = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined));
			const answer = await raw({ headers: clean, body });
			assert.equal(answer.status, status, `${name}: ${answer.body}`);
			assert.doesNotMatch(answer.body, /Welcome|Roadmap|Sample Vault/, `${name} tells nothing about the vault`);
			if (status === 401) assert.match(answer.headers["www-authenticate"] ?? "", /^Bearer/);
		}
		// Inside a session: an unknown method and wrong params types.
		const client = await connect();
		const session = client.transport.sessionId;
		const inSession = { ...good, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
		const unknown = await raw({ headers: inSession, body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "vault/delete", params: {} }) });
		assert.equal(JSON.parse(unknown.body).error.code, -32601);
		const wrong = await raw({ headers: inSession, body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: 7, arguments: [] } }) });
		assert.equal(JSON.parse(wrong.body).error.code, -32602);
		// A burst of 1 000 unauthenticated requests: all refused, the server still answers.
		const burst = await Promise.all(Array.from({ length: 1000 }, () => raw({ headers: { "content-type": "application/json" }, body: init }).then((r) => r.status, () => "error")));
		assert.deepEqual([...new Set(burst)], [401]);
		assert.equal(readLog(log).length, 0, "no hostile request ran a process");
		const still = await client.callTool({ name: "obsidianNotes", arguments: { command: "read", file: "Welcome" } });
		assert.equal(still.isError, false);
	});

	it("lists the tools through the MCP Inspector's CLI", async () => {
		// The Inspector's CLI mode itself (@modelcontextprotocol/inspector-cli,
		// what `inspector --cli` runs): the v2 launcher needs Node 22 and a
		// Windows-only optional module that `npm ci` cannot lock on Linux. It
		// finds its own package.json relative to the working directory.
		const build = join(root, "node_modules/@modelcontextprotocol/inspector-cli/build");
		const args = [join(build, "index.js"), URL_, "--transport", "http", "--method", "tools/list", "--header", `Authorization: Bearer ${token}`];
		const out = await new Promise((resolve, reject) =>
			execFile(process.execPath, args, { timeout: 60000, cwd: build }, (error, stdout, stderr) =>
				error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
			),
		);
		const listed = JSON.parse(out.slice(out.indexOf("{")));
		assert.deepEqual(listed.tools.map((t) => t.name), (await plugin.api.listTools()).filter((t) => t.enabled).map((t) => t.id));
	});

	it("a port in use is a notice with the fix, and the server moves when the port changes", async () => {
		const other = PORT + 1;
		const blocker = (await import("node:http")).createServer();
		await new Promise((resolve) => blocker.listen(other, "127.0.0.1", resolve));
		await plugin.updateSettings({ mcp: { ...plugin.core.settings().mcp, port: other } });
		assert.match(plugin.agents.status, new RegExp(`Port ${other} is already in use.*Settings → Vault Agent → MCP: this vault's server for other apps`));
		await new Promise((resolve) => blocker.close(resolve));
		await plugin.updateSettings({ mcp: { ...plugin.core.settings().mcp, port: PORT } });
		assert.match(plugin.agents.status, new RegExp(`Listening on http://127.0.0.1:${PORT}/mcp`));
		await plugin.updateSettings({ mcp: { ...plugin.core.settings().mcp, enabled: false } });
		await assert.rejects(raw({ headers: {}, body: "" }), /ECONNREFUSED/);
		await plugin.updateSettings({ mcp: { ...plugin.core.settings().mcp, enabled: true } });
	});
});

describe("the MCP server's call slots", () => {
	const port = PORT + 2;
	const overlapCli = new URL("../support/overlap-cli.mjs", import.meta.url).pathname;
	// The limits as the core has them (src/doors/mcp/mod.rs), so the counts below follow the build.
	const mod = readFileSync(join(root, "src/doors/mcp/mod.rs"), "utf8");
	const limit = (name) => Number(mod.match(new RegExp(`pub const ${name}: usize = (\\d+);`))?.[1]);
	const RUNNING = limit("MAX_RUNNING_CALLS");
	const WAITING = limit("MAX_WAITING_CALLS");
	// Each call in flight holds a connection: the extra ones stay under the
	// listener's cap (src/doors/mcp/listener.rs), with room for the client's own.
	const CONNECTIONS = Number(readFileSync(join(root, "src/doors/mcp/listener.rs"), "utf8").match(/pub const MAX_CONNECTIONS: u32 = (\d+);/)?.[1]);
	const EXTRA = Math.min(8, CONNECTIONS - RUNNING - WAITING - 4);

	/** Runs the stand-in CLI logged as started, and the most that were between start and end at once. */
	function overlap(log) {
		const lines = existsSync(log) ? readFileSync(log, "utf8").trim().split("\n").filter(Boolean) : [];
		let now = 0;
		let most = 0;
		for (const line of lines) {
			now += line.startsWith("start") ? 1 : -1;
			most = Math.max(most, now);
		}
		return { started: lines.filter((l) => l.startsWith("start")).length, most };
	}

	it(`runs at most 8 calls at once, lets ${WAITING} wait, and answers the rest busy at once`, async () => {
		assert.equal(RUNNING, 8, "the requirement: at most 8 calls run at once");
		assert.ok(WAITING > 0, "MAX_WAITING_CALLS read from src/doors/mcp/mod.rs");
		assert.ok(EXTRA > 0, `room for busy answers under ${CONNECTIONS} connections`);
		const vault = copySampleVault();
		const log = join(vault, "..", "overlap.log");
		const gate = join(vault, "..", "gate");
		Object.assign(process.env, { VAULT_AGENT_OVERLAP_LOG: log, VAULT_AGENT_OVERLAP_GATE: gate, VAULT_AGENT_OVERLAP_MS: "20" });
		let plugin;
		let client;
		try {
			// 16 processes allowed, so the MCP slots are the limit that shows, not the process cap.
			({ plugin } = await loadPlugin(vault, { data: { cliPath: overlapCli, maxProcesses: 16, readCacheSeconds: 0, mcp: { enabled: true, port, permissionMode: "readOnly" } } }));
			client = new Client({ name: "slots", version: "1" });
			await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${plugin.agents.token()}` } } }));
			const answers = [];
			const calls = Array.from({ length: RUNNING + WAITING + EXTRA }, (_, i) =>
				client.callTool({ name: "obsidianNotes", arguments: { command: "read", file: `Note ${i}` } }).then(
					(result) => answers.push({ result }),
					(error) => answers.push({ error }),
				),
			);
			// Every started run is held at the gate, so no call can end: the busy
			// answers come while the slots and the waiting room are full, not after a wait.
			await until(() => answers.length === EXTRA && overlap(log).started === RUNNING, `${EXTRA} busy answers while ${RUNNING} runs are held`);
			for (const { error } of answers) {
				assert.equal(error?.code, -32000, "a JSON-RPC error, not a tool result");
				assert.match(error.message, /Server busy: too many calls at once/);
			}
			assert.equal(overlap(log).started, RUNNING, "no ninth run while eight hold their slots");
			writeFileSync(gate, "");
			await Promise.all(calls);
			const waited = answers.slice(EXTRA);
			assert.equal(waited.length, RUNNING + WAITING);
			for (const { result, error } of waited) assert.equal(result?.isError, false, error?.message ?? result?.content[0].text);
			assert.deepEqual(overlap(log), { started: RUNNING + WAITING, most: RUNNING });
		} finally {
			// Held runs would otherwise wait for a gate that never opens.
			if (existsSync(dirname(gate))) writeFileSync(gate, "");
			for (const key of ["VAULT_AGENT_OVERLAP_LOG", "VAULT_AGENT_OVERLAP_GATE", "VAULT_AGENT_OVERLAP_MS"]) delete process.env[key];
			await client?.close().catch(() => {});
			plugin?.unload();
			await settle(5);
			removeVault(vault);
		}
	});
});
