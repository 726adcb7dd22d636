// MCP benchmark: what the MCP door adds to a tool call, and how many read
// calls per second it answers. The built main.js in the Obsidian double with
// its MCP server on, the CLI emulator over a copy of the sample vault. Medians
// inside one process, interleaved (ABBA) in the same loop:
// - a call that runs the CLI (`daily:path`, never kept by the read cache) and
//   a call answered from the read cache (`read` of Welcome, no process), each
//   in process (`api.callTool`) and as one plain keep-alive POST to `/mcp`;
//   the door's cost is the POST minus the in-process call;
// - the same POST to a Node HTTP server that does no work: the floor that any
//   HTTP server on this machine pays;
// - the official SDK client, for what a real client adds on its side;
// - read calls per second, 8 in flight, with the read cache off (every call
//   runs the emulator) and on (answered from the cache).
import { spawn } from "node:child_process";
import { Agent, createServer, request } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { copySampleVault, emulator, loadPlugin, readLog, removeVault, useEmulator } from "../tests/support/harness.mjs";

const PORT = 27199;
const FLOOR_PORT = 27197;
const CALLS = 200;
const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	const m = s.length >> 1;
	return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const vault = copySampleVault();
let plugin;
let client;
try {
	useEmulator(vault);
	({ plugin } = await loadPlugin(vault, { data: { cliPath: emulator, mcp: { enabled: true, port: PORT } } }));
	const token = plugin.agents.token();
	client = new Client({ name: "bench", version: "1" });
	await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${PORT}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
	const runsCli = { command: "daily:path" };
	const cached = { command: "read", file: "Welcome" };
	const samples = { apiCli: [], httpCli: [], apiCached: [], httpCached: [], floor: [], sdk: [], spawnOnly: [], floorCli: [] };
	// The same call as one plain keep-alive POST: what the server adds, without the SDK client's own work.
	const agent = new Agent({ keepAlive: true });
	const headers = {
		authorization: `Bearer ${token}`,
		"content-type": "application/json",
		accept: "application/json, text/event-stream",
		"mcp-session-id": client.transport.sessionId,
		"mcp-protocol-version": "2025-11-25",
	};
	// A server that reads the request and answers a fixed body: the floor.
	// Asked for /cli, it first runs the same CLI command (spawned as the
	// plugin does), so the floor of a call that runs a process is known too.
	const runCli = () =>
		new Promise((resolve) => {
			const child = spawn(emulator, ["daily:path"], { detached: true, env: process.env });
			child.stdout.resume();
			child.on("close", resolve);
		});
	const floorServer = createServer((req, res) => {
		req.resume();
		req.on("end", async () => {
			if (req.url === "/cli") await runCli();
			res.writeHead(200, { "content-type": "application/json" });
			res.end('{"jsonrpc":"2.0","id":1,"result":{"content":[],"isError":false}}');
		});
	});
	await new Promise((resolve) => floorServer.listen(FLOOR_PORT, "127.0.0.1", resolve));
	const post = (port, name, args, into, path = "/mcp") =>
		new Promise((resolve, reject) => {
			const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });
			const t0 = performance.now();
			const req = request({ host: "127.0.0.1", port, path, method: "POST", agent, headers }, (res) => {
				let text = "";
				res.on("data", (c) => (text += c));
				res.on("end", () => {
					into.push(performance.now() - t0);
					if (!text.includes('"isError":false')) reject(new Error(text));
					else resolve();
				});
			});
			req.on("error", reject);
			req.end(body);
		});
	const inProcess = async (name, args, into) => {
		const t0 = performance.now();
		const result = await plugin.api.callTool(name, args);
		into.push(performance.now() - t0);
		if (!result.ok) throw new Error(result.text);
	};
	const viaSdk = async () => {
		const t0 = performance.now();
		const result = await client.callTool({ name: "obsidianDailyNote", arguments: runsCli });
		samples.sdk.push(performance.now() - t0);
		if (result.isError) throw new Error(result.content[0].text);
	};
	const spawnOnly = async () => {
		const t0 = performance.now();
		await runCli();
		samples.spawnOnly.push(performance.now() - t0);
	};
	const round = async () => {
		await spawnOnly();
		await post(FLOOR_PORT, "x", {}, samples.floorCli, "/cli");
		await inProcess("obsidianDailyNote", runsCli, samples.apiCli);
		await post(PORT, "obsidianDailyNote", runsCli, samples.httpCli);
		await inProcess("obsidianNotes", cached, samples.apiCached);
		await post(PORT, "obsidianNotes", cached, samples.httpCached);
		await post(FLOOR_PORT, "x", {}, samples.floor);
		await viaSdk();
		await viaSdk();
		await post(FLOOR_PORT, "x", {}, samples.floor);
		await post(PORT, "obsidianNotes", cached, samples.httpCached);
		await inProcess("obsidianNotes", cached, samples.apiCached);
		await post(PORT, "obsidianDailyNote", runsCli, samples.httpCli);
		await inProcess("obsidianDailyNote", runsCli, samples.apiCli);
		await post(FLOOR_PORT, "x", {}, samples.floorCli, "/cli");
		await spawnOnly();
	};
	for (let i = 0; i < 10; i++) await round();
	for (const list of Object.values(samples)) list.length = 0;
	for (let i = 0; i < CALLS / 2; i++) await round();
	floorServer.close();
	// Throughput: 8 calls in flight at once (the server's slots), the same
	// read each time. With the read cache on (the default) all but the first
	// are answered from the cache and no process runs; with it off every call
	// runs the emulator, which is the figure for "a read tool against the
	// emulator". The emulator's log counts the processes each run started.
	const total = 400;
	const cliRuns = () => readLog(process.env.OBSIDIAN_EMULATOR_LOG).length;
	const throughput = async () => {
		const runsBefore = cliRuns();
		let next = 0;
		const t0 = performance.now();
		await Promise.all(
			Array.from({ length: 8 }, async () => {
				while (next < total) {
					next += 1;
					const result = await client.callTool({ name: "obsidianNotes", arguments: { command: "read", file: "Welcome" } });
					if (result.isError) throw new Error(result.content[0].text);
				}
			}),
		);
		return { perSecond: total / ((performance.now() - t0) / 1000), runs: cliRuns() - runsBefore };
	};
	const cachedRate = await throughput();
	await plugin.updateSettings({ readCacheSeconds: 0 });
	const uncachedRate = await throughput();
	const maxProcesses = plugin.core.settings().maxProcesses;
	const m = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
	// Each POST was timed right next to its in-process twin (ABBA): the median
	// of those paired differences follows the machine's load drifts less than
	// a difference of two medians.
	const paired = (a, b) => median(a.map((x, i) => b[i] - x));
	const addedCli = paired(samples.apiCli, samples.httpCli);
	const addedCached = paired(samples.apiCached, samples.httpCached);
	const floorCli = paired(samples.spawnOnly, samples.floorCli);
	const ms = (x) => `${x.toFixed(2)} ms`;
	console.log(`| Measure (median of ${CALLS}) | Runs the CLI (\`daily:path\`) | From the read cache (\`read\` of Welcome) | Target |`);
	console.log("|---|---|---|---|");
	console.log(`| In process (\`api.callTool\`) | ${ms(m.apiCli)} | ${ms(m.apiCached)} | |`);
	console.log(`| MCP \`tools/call\` as one plain keep-alive POST | ${ms(m.httpCli)} | ${ms(m.httpCached)} | |`);
	console.log(`| **What the MCP server adds** (median of paired POST − in process) | **${ms(addedCli)}** | **${ms(addedCached)}** | ≤ 1 ms |`);
	console.log(`| The same as a difference of the medians | ${ms(m.httpCli - m.apiCli)} | ${ms(m.httpCached - m.apiCached)} | |`);
	console.log(`| The floor: the same POST to a Node server that does no work but run the same process (paired, over the process alone) / that does nothing | ${ms(floorCli)} | ${ms(m.floor)} | |`);
	console.log(`| Ours, above the floor | ${ms(addedCli - floorCli)} | ${ms(addedCached - m.floor)} | |`);
	console.log(`| Through the official SDK client | ${ms(m.sdk)} (${ms(m.sdk - m.httpCli)} more than a plain POST) | | |`);
	console.log("");
	console.log(`| Read calls per second through MCP (\`read\` of Welcome, SDK client, 8 in flight, ${total} calls) | Value | CLI processes run |`);
	console.log("|---|---|---|");
	console.log(`| Read cache off: every call runs the emulator (at most ${maxProcesses} processes at once, the default) | **${uncachedRate.perSecond.toFixed(0)} /s** | ${uncachedRate.runs} |`);
	console.log(`| Read cache on (the default): answered from the cache | ${cachedRate.perSecond.toFixed(0)} /s | ${cachedRate.runs} |`);
} finally {
	await client?.close().catch(() => {});
	plugin?.unload();
	removeVault(vault);
}
setTimeout(() => process.exit(0), 100);
