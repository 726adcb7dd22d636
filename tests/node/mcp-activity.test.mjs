// The MCP activity log of the BUILT main.js: every call a client makes over
// real HTTP lands in mcp-activity.json in the plugin folder (after the 1 s
// save timer), the file keeps the newest 500 entries, it is read back on the
// next start, and the Agents section of the settings shows the newest 50.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { closeSettings, copySampleVault, emulator, loadPlugin, openSettingTab, removeVault, settle, useEmulator } from "../support/harness.mjs";

const PORT = 27187;
const KEPT = 500;
const SHOWN = 50;
const LATENCY_MS = 100;

async function until(check, what, ms = 5000) {
	const end = Date.now() + ms;
	while (Date.now() < end) {
		if (await check()) return;
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
	assert.fail(`timed out waiting for ${what}`);
}

describe("the MCP activity log", () => {
	let vault;
	let plugin;
	after(async () => {
		plugin?.unload();
		await settle(5);
		if (vault) removeVault(vault);
	});

	it("saves each call with its client, tool, argv, code and duration, keeps the newest 500, shows 50 and loads them again", async () => {
		vault = copySampleVault();
		// Every CLI run takes LATENCY_MS, so a call's recorded duration can be checked against it.
		useEmulator(vault, { OBSIDIAN_EMULATOR_LATENCY_MS: String(LATENCY_MS) });
		const data = { cliPath: emulator, vaultName: "Sample Vault", mcp: { enabled: true, port: PORT, permissionMode: "readOnly" } };
		// A log from earlier sessions, over the bound: 600 entries, oldest first.
		const pluginDir = join(vault, ".obsidian/plugins/vault-agent");
		const file = join(pluginDir, "mcp-activity.json");
		mkdirSync(pluginDir, { recursive: true });
		const seeded = Array.from({ length: 600 }, (_, i) => ({
			timeMs: 1_700_000_000_000 + i * 1000,
			client: "Earlier Client",
			clientVersion: "0.1",
			tool: "obsidianNotes",
			argv: ["read", `file=Seed ${i}`],
			code: "ok",
			durationMs: 3,
		}));
		writeFileSync(file, JSON.stringify(seeded));

		({ plugin } = await loadPlugin(vault, { data }));
		assert.equal(plugin.agents.activity.length, KEPT, "the oldest 100 dropped when read");
		assert.deepEqual(plugin.agents.activity, seeded.slice(-KEPT), "the newest kept, in order");

		const client = new Client({ name: "Activity Client", version: "1.2.3" });
		await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${PORT}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${plugin.agents.token()}` } } }));
		const t0 = Date.now();
		const read = await client.callTool({ name: "obsidianNotes", arguments: { command: "read", file: "Welcome" } });
		assert.equal(read.isError, false, read.content[0].text);
		const refused = await client.callTool({ name: "obsidianEdit", arguments: { command: "append", file: "Welcome", content: "from MCP" } });
		assert.equal(refused.isError, true);
		const t1 = Date.now();
		await client.close();

		// The save timer writes the file about a second after the first call.
		await until(() => JSON.parse(readFileSync(file, "utf8")).length === KEPT && JSON.parse(readFileSync(file, "utf8")).at(-1).client === "Activity Client", "the log saved");
		const saved = JSON.parse(readFileSync(file, "utf8"));
		assert.deepEqual(saved.slice(0, -2), seeded.slice(-(KEPT - 2)), "two more calls push out the two oldest");
		const [ours, theirs] = saved.slice(-2);
		assert.deepEqual(Object.keys(ours).sort(), ["argv", "client", "clientVersion", "code", "durationMs", "timeMs", "tool"]);
		assert.deepEqual([ours.client, ours.clientVersion, ours.tool, ours.code], ["Activity Client", "1.2.3", "obsidianNotes", "ok"], "the name and version from initialize");
		assert.deepEqual(ours.argv, ["vault=Sample Vault", "read", "file=Welcome"], "the argv the CLI ran");
		assert.ok(ours.timeMs >= t0 - 50 && ours.timeMs <= t1 + 50, `a wall-clock time: ${ours.timeMs} not in ${t0}..${t1}`);
		assert.ok(ours.durationMs >= LATENCY_MS && ours.durationMs <= t1 - t0 + 50, `the call's duration: ${ours.durationMs} ms`);
		assert.deepEqual([theirs.client, theirs.tool, theirs.code], ["Activity Client", "obsidianEdit", "writes_disabled"], "a refused call is logged with its code");
		assert.ok(theirs.timeMs >= ours.timeMs);

		// The Agents section: the newest 50, newest first.
		const tab = openSettingTab(plugin);
		await settle(6);
		const rows = [...tab.querySelectorAll(".vault-agent-mcp-activity-row")];
		assert.equal(rows.length, SHOWN);
		assert.match(rows[0].textContent, /Activity Client 1\.2\.3 · obsidianEdit .*→ writes_disabled/);
		assert.ok(rows[0].classList.contains("is-error"));
		assert.match(rows[1].textContent, /Activity Client 1\.2\.3 · obsidianNotes vault=Sample Vault read file=Welcome → ok/);
		assert.match(rows.at(-1).textContent, new RegExp(`Earlier Client 0\\.1 · obsidianNotes read file=Seed ${600 - SHOWN + 2} `));
		closeSettings(plugin.app);

		// The next start reads the same 500 back.
		plugin.unload();
		await settle(5);
		({ plugin } = await loadPlugin(vault, { data }));
		assert.deepEqual(plugin.agents.activity, saved);
		assert.ok(existsSync(file));
	});

	it("keeps a kilobyte of each call's arguments, cuts old entries on load, and writes the file only when something changed", async () => {
		plugin?.unload();
		await settle(5);
		if (vault) removeVault(vault);
		vault = copySampleVault();
		useEmulator(vault);
		const data = { cliPath: emulator, vaultName: "Sample Vault", mcp: { enabled: true, port: PORT, permissionMode: "readOnly" } };
		const pluginDir = join(vault, ".obsidian/plugins/vault-agent");
		const file = join(pluginDir, "mcp-activity.json");
		mkdirSync(pluginDir, { recursive: true });
		const entry = (argv) => ({ timeMs: 1_700_000_000_000, client: "Earlier Client", clientVersion: "0.1", tool: "obsidianSearch", argv, code: "ok", durationMs: 3 });
		// Written by hand (indented): a start and an unload with no call must leave it as it is.
		const small = JSON.stringify([entry(["search", "query=a"])], null, 2);
		writeFileSync(file, small);
		({ plugin } = await loadPlugin(vault, { data }));
		plugin.unload();
		await settle(5);
		assert.equal(readFileSync(file, "utf8"), small, "nothing changed, nothing written");

		// A log from before the cap: whole arguments of 100 KB.
		const query = "q".repeat(100_000);
		writeFileSync(file, JSON.stringify([entry(["search", `query=${query}`])]));
		({ plugin } = await loadPlugin(vault, { data }));
		const cutOnLoad = plugin.agents.activity[0].argv;
		assert.match(cutOnLoad.at(-1), /^\[cut: 100012 characters of arguments, the first 1024 kept\]$/);
		await until(() => readFileSync(file, "utf8").length < 4096, "the cut log written back");

		const client = new Client({ name: "Big Query", version: "1" });
		await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${PORT}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${plugin.agents.token()}` } } }));
		for (let i = 0; i < 5; i++) await client.callTool({ name: "obsidianSearch", arguments: { command: "search", query: `${i}${query}` } });
		await client.close();
		await until(() => JSON.parse(readFileSync(file, "utf8")).length === 6, "the calls saved");
		const saved = JSON.parse(readFileSync(file, "utf8"));
		for (const { argv } of saved) {
			const kept = argv.slice(0, -1).join("");
			assert.ok(kept.length <= 1025, `${kept.length} characters kept`);
			assert.match(argv.at(-1), /^\[cut: \d+ characters of arguments, the first 1024 kept\]$/);
		}
		assert.ok(readFileSync(file, "utf8").length < 6 * 1500, "six calls of 100 KB make a few kilobytes");
	});
});
