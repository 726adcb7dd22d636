// MCP benchmark: what the MCP door adds to a tool call, and how many read
// calls per second it answers. The built main.js in the Obsidian double with
// its MCP server on, the official SDK client over real HTTP on 127.0.0.1,
// the CLI emulator over a copy of the sample vault. Medians inside one
// process; the overhead is MCP `tools/call` minus an in-process
// `api.callTool` of the same argv, run interleaved (ABBA) in the same loop.
import { Agent, request } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { copySampleVault, emulator, loadPlugin, removeVault, useEmulator } from "../tests/support/harness.mjs";

const PORT = 27199;
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
	const args = { command: "daily:path" };
	const viaApi = [];
	const viaMcp = [];
	const viaHttp = [];
	// The same call as one plain keep-alive POST: what the server adds, without the SDK client's own work.
	const agent = new Agent({ keepAlive: true });
	const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "obsidianDailyNote", arguments: args } });
	const headers = {
		authorization: `Bearer ${token}`,
		"content-type": "application/json",
		accept: "application/json, text/event-stream",
		"mcp-session-id": client.transport.sessionId,
		"mcp-protocol-version": "2025-11-25",
	};
	const timeHttp = () =>
		new Promise((resolve, reject) => {
			const t0 = performance.now();
			const req = request({ host: "127.0.0.1", port: PORT, path: "/mcp", method: "POST", agent, headers }, (res) => {
				let text = "";
				res.on("data", (c) => (text += c));
				res.on("end", () => {
					viaHttp.push(performance.now() - t0);
					if (!text.includes('"isError":false')) reject(new Error(text));
					else resolve();
				});
			});
			req.on("error", reject);
			req.end(body);
		});
	const timeApi = async () => {
		const t0 = performance.now();
		const result = await plugin.api.callTool("obsidianDailyNote", args);
		viaApi.push(performance.now() - t0);
		if (!result.ok) throw new Error(result.text);
	};
	const timeMcp = async () => {
		const t0 = performance.now();
		const result = await client.callTool({ name: "obsidianDailyNote", arguments: args });
		viaMcp.push(performance.now() - t0);
		if (result.isError) throw new Error(result.content[0].text);
	};
	for (let i = 0; i < 10; i++) {
		await timeApi();
		await timeMcp();
	}
	viaApi.length = 0;
	viaMcp.length = 0;
	viaHttp.length = 0;
	for (let i = 0; i < CALLS / 2; i++) {
		await timeApi();
		await timeMcp();
		await timeHttp();
		await timeHttp();
		await timeMcp();
		await timeApi();
	}
	// Throughput: 8 clients' worth of calls in flight at once (the server's slots).
	const total = 400;
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
	const seconds = (performance.now() - t0) / 1000;
	const api = median(viaApi);
	const mcp = median(viaMcp);
	console.log("| Measure | Value | Target |");
	console.log("|---|---|---|");
	console.log(`| \`api.callTool\` (\`daily:path\`), median of ${CALLS} | ${api.toFixed(2)} ms | |`);
	console.log(`| MCP \`tools/call\` of the same argv (SDK client, HTTP on 127.0.0.1), median of ${CALLS} | ${mcp.toFixed(2)} ms | |`);
	const http = median(viaHttp);
	console.log(`| The same \`tools/call\` as one plain keep-alive POST, median of ${CALLS} | ${http.toFixed(2)} ms | |`);
	console.log(`| What the server adds (plain POST − in-process call) | ${(http - api).toFixed(2)} ms | ≤ 1 ms |`);
	console.log(`| What the SDK client adds on top (SDK − plain POST) | ${(mcp - http).toFixed(2)} ms | |`);
	console.log(`| Read calls per second through MCP (\`read\` of Welcome, 8 in flight, ${total} calls) | ${(total / seconds).toFixed(0)} /s | |`);
} finally {
	await client?.close().catch(() => {});
	plugin?.unload();
	removeVault(vault);
}
setTimeout(() => process.exit(0), 100);
