// The plugin's MCP server against the official MCP Python SDK client and the
// MCP conformance suite's server scenarios (issue 24, item 7). Not part of
// `npm test`: both come from outside this repository (pip and npm), so this
// script is run by hand when the server's protocol changes, and the counts
// go to docs/mcp.md.
//
//   python3 -m venv /tmp/mcpvenv && /tmp/mcpvenv/bin/pip install mcp
//   (cd /tmp/conf && npm install @modelcontextprotocol/conformance@0.2.0-alpha.12)
//   MCP_PYTHON=/tmp/mcpvenv/bin/python MCP_CONFORMANCE=/tmp/conf node scripts/mcp-conformance.mjs
//
// The suite needs Node 22 (fs.globSync); MCP_NODE names that node when the
// one on PATH is older. The built main.js runs in the Obsidian double with
// the CLI emulator over a copy of the sample vault, its MCP server on in Read
// only (no card waits for a click). The suite sends no token, so it talks to
// a small proxy on the next port that adds the bearer token and passes every
// other header through (a loopback Host gets the server's port, any other
// Host is passed as it came, so the DNS-rebinding scenario still sees the
// server's own refusal).
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, existsSync } from "node:fs";
import { createServer, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { copySampleVault, emulator, loadPlugin, removeVault, settle, useEmulator } from "../tests/support/harness.mjs";

const PORT = 27189;
const PROXY_PORT = PORT + 1;
const python = process.env.MCP_PYTHON;
const conformance = process.env.MCP_CONFORMANCE;
const node = process.env.MCP_NODE ?? process.execPath;
// 2026-07-28 as the suite's frozen requirements for that revision; the older
// ones as every active scenario of that revision.
const RUNS = [["--requirements", "2026-07-28"], ["--spec-version", "2025-11-25"], ["--spec-version", "2025-06-18"], ["--spec-version", "2025-03-26"]];

/** Passes a request to the server with the token added; a loopback Host is given the server's port. */
function proxy(token) {
	return createServer((req, res) => {
		const headers = { ...req.headers, authorization: `Bearer ${token}` };
		const host = req.headers.host ?? "";
		if (/^(127\.0\.0\.1|localhost|\[::1\]):\d+$/.test(host)) headers.host = host.replace(/:\d+$/, `:${PORT}`);
		const out = request({ host: "127.0.0.1", port: PORT, path: req.url, method: req.method, headers }, (answer) => {
			res.writeHead(answer.statusCode ?? 502, answer.headers);
			answer.pipe(res);
		});
		out.on("error", () => res.destroy());
		req.pipe(out);
		res.on("close", () => out.destroy());
	});
}

/** Every check of every scenario the suite wrote under `dir`: [scenario, check id, status, message]. */
function checksIn(dir) {
	const rows = [];
	for (const folder of readdirSync(dir)) {
		const file = join(dir, folder, "checks.json");
		if (!existsSync(file)) continue;
		// The suite names each folder server-<scenario>-<time>.
		const scenario = folder.replace(/^server-/, "").replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, "");
		for (const check of JSON.parse(readFileSync(file, "utf8"))) rows.push([scenario, check.id, check.status, check.errorMessage ?? ""]);
	}
	return rows;
}

const vault = copySampleVault();
let plugin;
let server;
try {
	useEmulator(vault);
	({ plugin } = await loadPlugin(vault, { data: { cliPath: emulator, vaultName: "Sample Vault", mcp: { enabled: true, port: PORT, permissionMode: "readOnly" } } }));
	const token = plugin.agents.token();
	const url = `http://127.0.0.1:${PORT}/mcp`;
	if (python) {
		// Asynchronously: spawnSync would block this process, which is the server.
		const child = spawn(python, [join(import.meta.dirname, "mcp-python-client.py"), url, token]);
		let out = "";
		child.stdout.on("data", (c) => (out += c));
		child.stderr.on("data", (c) => process.stderr.write(c));
		await new Promise((resolve) => child.on("close", resolve));
		const version = spawnSync(python, ["-c", "import importlib.metadata as m; print(m.version('mcp'))"], { encoding: "utf8" }).stdout.trim();
		console.log(`Python SDK mcp ${version}:`);
		for (const line of out.trim().split("\n")) console.log(`  ${line}`);
	}
	if (conformance) {
		server = proxy(token);
		await new Promise((resolve) => server.listen(PROXY_PORT, "127.0.0.1", resolve));
		const bin = join(conformance, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
		const suite = JSON.parse(readFileSync(join(conformance, "node_modules/@modelcontextprotocol/conformance/package.json"), "utf8")).version;
		for (const run of RUNS) {
			const dir = mkdtempSync(join(tmpdir(), `conformance-${run[1]}-`));
			const child = spawn(node, [bin, "server", "--url", `http://127.0.0.1:${PROXY_PORT}/mcp`, ...run, "-o", dir]);
			child.stdout.resume();
			child.stderr.resume();
			await new Promise((resolve) => child.on("close", resolve));
			const rows = checksIn(dir);
			const count = (status) => rows.filter((r) => r[2] === status).length;
			const failing = new Set(rows.filter((r) => r[2] === "FAILURE").map((r) => r[0]));
			console.log(`\nConformance ${suite}, ${run.join(" ")} (${dir}): ${count("SUCCESS")} passed, ${count("FAILURE")} failed, ${count("WARNING")} warnings; scenarios: ${new Set(rows.map((r) => r[0])).size - failing.size} passed, ${failing.size} failed`);
			const scenarios = [...new Set(rows.map((r) => r[0]))];
			for (const scenario of scenarios) {
				const failed = rows.filter((r) => r[0] === scenario && r[2] === "FAILURE");
				console.log(`  ${failed.length ? "FAIL" : "pass"} ${scenario}${failed.map((r) => `\n       ${r[1]}: ${r[3].slice(0, 160)}`).join("")}`);
			}
		}
	}
} finally {
	server?.close();
	plugin?.unload();
	await settle(5);
	removeVault(vault);
}
