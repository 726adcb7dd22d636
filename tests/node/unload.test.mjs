// Enabling and disabling the BUILT main.js 50 times in the Obsidian double,
// as a user toggling the plugin would: every cycle registers its view,
// commands, events, CLI commands and MCP server and takes them all back, and
// gives the core's memory back, so neither listeners nor memory grow.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { copySampleVault, emulator, isAlive, loadPlugin, removeVault, root, settle, useEmulator } from "../support/harness.mjs";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc");
const require = createRequire(import.meta.url);

/** Handlers the plugin could leave behind in the app. */
function listeners(app) {
	const count = (events) => Object.values(events._ ?? {}).reduce((sum, list) => sum + list.length, 0);
	return {
		vault: count(app.vault),
		metadataCache: count(app.metadataCache),
		workspace: count(app.workspace),
		cli: app.cli__.size,
		commands: Object.keys(app.commands.commands ?? {}).length,
	};
}

/** As Obsidian enables a plugin: load(), which calls our async onload(); then the core's start (the layout is ready in this app). */
async function enable(PluginClass, app, manifest, saved) {
	const instance = new PluginClass(app, manifest);
	await instance.saveData(saved);
	const onload = instance.onload.bind(instance);
	let loading = Promise.resolve();
	instance.onload = () => (loading = onload());
	instance.load();
	await loading;
	await instance.started();
	return instance;
}

const data = { cliPath: emulator, mcp: { enabled: true, port: 27181 } };

describe("enable and disable, 50 times", () => {
	let vault;
	let first;
	before(async () => {
		vault = copySampleVault();
		useEmulator(vault);
		first = await loadPlugin(vault, { data });
	});
	after(() => removeVault(vault));

	it("leaves no listener behind and does not grow in memory", async () => {
		const { plugin, app, pluginDir } = first;
		const manifest = plugin.manifest;
		plugin.unload();
		await settle(5);
		const idle = listeners(app);
		const PluginClass = require(join(pluginDir, "main.js")).default;
		const measure = () => {
			gc();
			const memory = process.memoryUsage();
			return memory.heapUsed + memory.arrayBuffers;
		};
		let warm = 0;
		for (let cycle = 1; cycle <= 50; cycle++) {
			const instance = await enable(PluginClass, app, manifest, data);
			// Loaded, it really is registered (so the counts below can drop).
			if (cycle === 1) assert.ok(listeners(app).vault > idle.vault && listeners(app).cli > idle.cli, JSON.stringify(listeners(app)));
			const result = await instance.api.callTool("obsidianDailyNote", { command: "daily:path" });
			assert.equal(result.ok, true, result.text);
			const core = instance.core;
			const api = instance.api;
			instance.unload();
			await settle(5);
			// The core was freed at once, not left to the garbage collector
			// (wasm-bindgen zeroes the object's pointer when it frees it).
			assert.equal(core.__wbg_ptr, 0, `cycle ${cycle}`);
			// Whoever still holds the API gets a clear answer, not a freed core.
			const late = await api.callTool("obsidianDailyNote", { command: "daily:path" });
			assert.equal(late.ok, false);
			assert.match(late.text, /unloaded/);
			assert.deepEqual(listeners(app), idle, `cycle ${cycle}`);
			if (cycle === 10) warm = measure();
		}
		const grown = measure() - warm;
		// 40 cycles after warming up: a core that was never freed would keep
		// its settings, tools and caches each time (several hundred KB).
		assert.ok(grown < 4 * 1024 * 1024, `memory grew by ${(grown / 1024).toFixed(0)} KiB over 40 cycles`);
	});
});

describe("enable and disable with the chat open and a coding agent answering, 5 times", () => {
	const agentData = {
		cliPath: emulator,
		acpAgents: { selected: "agent:custom", custom: { command: process.execPath, args: [join(root, "tests/support/acp-agent.mjs")] } },
	};
	let vault;
	let first;
	before(async () => {
		vault = copySampleVault();
		useEmulator(vault);
		first = await loadPlugin(vault, { data: agentData });
	});
	after(() => removeVault(vault));

	it("ends the agent's process and leaves no listener or command behind", async () => {
		const { plugin, app, pluginDir } = first;
		const manifest = plugin.manifest;
		plugin.unload();
		await settle(5);
		const idle = listeners(app);
		const PluginClass = require(join(pluginDir, "main.js")).default;
		for (let cycle = 1; cycle <= 5; cycle++) {
			const instance = await enable(PluginClass, app, manifest, agentData);
			const view = await instance.openChat();
			// A turn of the agent through the view: its process, its slash commands, its settings in the header.
			view.inputEl.value = "stream";
			await view.send();
			const [session] = instance.codingAgents.running();
			assert.ok(session?.pid, `cycle ${cycle}: the agent runs`);
			const pid = session.pid;
			instance.unload();
			for (let i = 0; i < 100 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 20));
			assert.equal(isAlive(pid), false, `cycle ${cycle}: the agent's process ended`);
			await settle(5);
			assert.deepEqual(listeners(app), idle, `cycle ${cycle}`);
		}
	});
});
