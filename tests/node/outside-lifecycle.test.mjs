// A stdio MCP server of the user's ends with everything it started, through
// the BUILT main.js: the real test server (tests/support/outside-mcp-server.mjs)
// starts a helper process of its own (OUTSIDE_MCP_GRANDCHILD=1), as servers
// that run a browser or a language server do. Settings → MCP servers' switch,
// its Restart button and unloading the plugin each end the server and the
// helper; nothing is left running.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { clickButton, clickToggle, closeSettings, copySampleVault, emulator, eventually, findSetting, isAlive, loadPlugin, openSettingTab, removeVault, root } from "../support/harness.mjs";

const serverScript = join(root, "tests/support/outside-mcp-server.mjs");

describe("a stdio MCP server and the processes it started end together", () => {
	let vault;
	let plugin;
	let dir;
	let logPath;
	let unloaded = false;
	const entries = () => (existsSync(logPath) ? readFileSync(logPath, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line)) : []);
	const server = (patch = {}) => ({
		id: "helpers",
		kind: "stdio",
		command: process.execPath,
		args: [serverScript, "stdio"],
		env: [
			{ name: "OUTSIDE_MCP_LOG", secret: "mcp-helpers-log" },
			{ name: "OUTSIDE_MCP_GRANDCHILD", secret: "mcp-helpers-grandchild" },
		],
		trust: "askEveryCall",
		...patch,
	});
	/** Settings → Vault Agent, the server's row (drawn anew after every save). */
	const row = () => findSetting(openSettingTab(plugin), "helpers");
	const report = () => row().querySelector(".vault-agent-mcp-report").textContent;

	/** Test in the server's row starts it; resolves with its pid and its helper's, both running. */
	async function startWithTest() {
		const known = new Set(entries().map((e) => e.pid));
		clickButton(row(), "Test");
		await eventually(() => /answered with \d+ tools/.test(report()));
		let started;
		await eventually(() => (started = entries().find((e) => e.grandchild && !known.has(e.pid))));
		const pids = { server: started.pid, helper: started.grandchild };
		assert.ok(isAlive(pids.server), "the server runs");
		assert.ok(isAlive(pids.helper), "its helper runs");
		assert.notEqual(pids.server, pids.helper);
		return pids;
	}
	const gone = (pids) => eventually(() => !isAlive(pids.server) && !isAlive(pids.helper));

	before(async () => {
		dir = mkdtempSync(join(tmpdir(), "outside-lifecycle-"));
		logPath = join(dir, "calls.jsonl");
		vault = copySampleVault();
		({ plugin } = await loadPlugin(vault, { data: { cliPath: emulator, mcpServers: [server()] } }));
		plugin.app.secretStorage.setSecret("mcp-helpers-log", logPath);
		plugin.app.secretStorage.setSecret("mcp-helpers-grandchild", "1");
	});
	after(() => {
		closeSettings(plugin.app);
		if (!unloaded) plugin.unload();
		for (const entry of entries()) {
			for (const pid of [entry.pid, entry.grandchild]) if (pid && isAlive(pid)) process.kill(pid, "SIGKILL");
		}
		removeVault(vault);
		rmSync(dir, { recursive: true, force: true });
	});

	it("switching the server off in the settings ends it and its helper", async () => {
		const pids = await startWithTest();
		clickToggle(row());
		await gone(pids);
		assert.equal(plugin.core.settings().mcpServers[0].enabled, false, "saved as off");
	});

	it("Restart ends it and its helper; the next use starts a new one", async () => {
		await plugin.updateSettings({ mcpServers: [server()] });
		const first = await startWithTest();
		clickButton(row(), "Restart");
		await gone(first);
		assert.equal(report(), "Stopped; it starts again at its next use.");
		const second = await startWithTest();
		assert.notEqual(second.server, first.server, "a new process");
	});

	it("settings changed through the API end a server they remove, and one they switch off", async () => {
		const running = entries().filter((e) => e.grandchild && isAlive(e.pid));
		assert.equal(running.length, 1, "the server Restart's test started still runs");
		await plugin.updateSettings({ mcpServers: [] });
		await gone({ server: running[0].pid, helper: running[0].grandchild });
		await plugin.updateSettings({ mcpServers: [server()] });
		const started = await startWithTest();
		// Another setting changed leaves it running.
		await plugin.updateSettings({ timeoutMs: 20_000 });
		assert.ok(isAlive(started.server) && isAlive(started.helper), "still running");
		await plugin.updateSettings({ mcpServers: [server({ enabled: false })] });
		await gone(started);
		await plugin.updateSettings({ mcpServers: [server()] });
		await startWithTest();
	});

	it("unloading the plugin ends a running server and its helper", async () => {
		const running = entries().filter((e) => e.grandchild && isAlive(e.pid));
		assert.equal(running.length, 1, "the server the last test started still runs");
		plugin.unload();
		unloaded = true;
		await gone({ server: running[0].pid, helper: running[0].grandchild });
	});
});
