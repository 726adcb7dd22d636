// The built main.js inside the Obsidian double: what it registers where.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { copySampleVault, emulator, loadOtherPlugin, loadPlugin, removeVault, settle } from "../support/harness.mjs";
import { markLayoutReady } from "../support/obsidian-ui-double.mjs";

describe("loading the built plugin", () => {
	const vaults = [];
	after(() => vaults.forEach(removeVault));

	it("registers the tools, the API and the settings tab on desktop", async () => {
		const vault = copySampleVault();
		vaults.push(vault);
		const { plugin } = await loadPlugin(vault, { data: { cliPath: emulator } });
		assert.ok(plugin.api, "api is exposed");
		assert.equal(plugin.api.version, 2);
		assert.equal(plugin.settingTabs__.length, 1);
		const tools = await plugin.api.listTools();
		const ids = tools.map((t) => t.id);
		assert.ok(ids.includes("obsidianDailyNote"));
		assert.ok(ids.includes("obsidianRandomRead"));
		for (const tool of tools) {
			// One name per tool, in the user's words (as the settings and the chat show it).
			assert.match(tool.displayName, /^[A-Z][a-z]+( [a-z]+)*$/, tool.displayName);
			assert.equal(tool.inputSchema.type, "object");
			assert.ok(Array.isArray(tool.commands) && tool.commands.length > 0);
			assert.equal(typeof tool.enabled, "boolean");
		}
		const daily = tools.find((t) => t.id === "obsidianDailyNote");
		assert.deepEqual(daily.commands.slice(0, 2), ["daily:read", "daily:path"]);
	});

	it("onload only registers; the core starts when the layout is ready, once", async () => {
		const vault = copySampleVault();
		vaults.push(vault);
		const { plugin, app } = await loadPlugin(vault, { data: { cliPath: emulator }, layoutReady: false });
		// Registered at once, so Obsidian can show them...
		assert.equal(plugin.settingTabs__.length, 1);
		assert.ok(plugin.commands__.size >= 8);
		assert.ok(plugin.views__.has("vault-agent-chat"));
		// ...but nothing is compiled or started yet (the API is there, waiting for the start).
		await settle(20);
		assert.equal(plugin.core, null);
		assert.ok(plugin.api);
		markLayoutReady(app);
		const starting = plugin.started();
		assert.equal(plugin.started(), starting, "one promise for everyone");
		const core = await starting;
		assert.ok(core);
		assert.equal(plugin.core, core);
		const result = await plugin.api.callTool("obsidianDailyNote", { command: "daily:path" });
		assert.equal(result.ok, true, result.text);
	});

	it("another plugin finds the API at its own onload, and its calls wait for the core's start", async () => {
		const vault = copySampleVault();
		vaults.push(vault);
		const { plugin, app, obsidian } = await loadPlugin(vault, { data: { cliPath: emulator }, layoutReady: false });
		let listed = null;
		let read = null;
		await loadOtherPlugin(app, obsidian, "other-plugin", (other) => {
			const api = other.app.plugins.getPlugin("vault-agent")?.api;
			assert.ok(api, "the API is there at the other plugin's onload");
			assert.equal(api.version, 2);
			// Not awaited in onload (that would hold up Obsidian's start): the answers come after the core's.
			listed = api.listTools();
			read = api.callTool("obsidianNotes", { command: "read", file: "Welcome" });
		});
		const tools = await listed;
		assert.ok(tools.some((t) => t.id === "obsidianNotes"), "listTools answers once the core has started");
		const result = await read;
		assert.equal(result.ok, true, result.text);
		assert.match(result.text, /# Welcome/);
		markLayoutReady(app);
		plugin.unload();
	});

	it("another plugin loaded first finds the API in its onLayoutReady, even when that runs before ours", async () => {
		const vault = copySampleVault();
		vaults.push(vault);
		let atLayoutReady = null;
		let answers = null;
		const { plugin, app } = await loadPlugin(vault, {
			data: { cliPath: emulator },
			layoutReady: false,
			before: (app, obsidian) =>
				loadOtherPlugin(app, obsidian, "early-plugin", (other) => {
					assert.equal(other.app.plugins.getPlugin("vault-agent"), null, "Vault Agent is not loaded yet");
					// Registered before ours, so it runs first.
					other.app.workspace.onLayoutReady(() => {
						atLayoutReady = other.app.plugins.getPlugin("vault-agent")?.api ?? null;
						if (atLayoutReady) answers = Promise.all([atLayoutReady.listTools(), atLayoutReady.callTool("obsidianDailyNote", { command: "daily:path" })]);
					});
				}),
		});
		markLayoutReady(app);
		assert.ok(atLayoutReady, "the API is there when the other plugin's onLayoutReady runs");
		const [tools, result] = await answers;
		assert.ok(tools.length > 10);
		assert.equal(result.ok, true, result.text);
		assert.ok(plugin.core);
		plugin.unload();
		await assert.rejects(atLayoutReady.listTools(), /unloaded/, "after unload the API says so");
		assert.match((await atLayoutReady.callTool("obsidianDailyNote", { command: "daily:path" })).text, /unloaded/);
	});

	it("starts the core at first use when that comes before the layout is ready", async () => {
		const vault = copySampleVault();
		vaults.push(vault);
		const { plugin, app } = await loadPlugin(vault, { data: { cliPath: emulator }, layoutReady: false });
		assert.equal(plugin.core, null);
		// The chat, opened before the layout is ready (a restored workspace does this).
		const view = await plugin.openChat();
		assert.ok(view, "the chat opened");
		assert.ok(plugin.core, "opening the chat started the core");
		assert.ok(app.workspace.getLeavesOfType("vault-agent-chat").length === 1);
		plugin.unload();
	});

	it("an unload while the core is still starting leaves nothing running", async () => {
		const vault = copySampleVault();
		vaults.push(vault);
		const { plugin, app } = await loadPlugin(vault, { data: { cliPath: emulator, mcp: { enabled: true, port: 27183 } }, layoutReady: false });
		const starting = plugin.started();
		plugin.unload();
		assert.equal(await starting, null);
		assert.equal(plugin.core, null);
		assert.equal(plugin.api, null);
		assert.equal(app.cli__.size, 0, "no CLI command was registered");
		// Nothing listens on the MCP port.
		const { connect } = await import("node:net");
		const refused = await new Promise((resolve) => {
			const socket = connect(27183, "127.0.0.1");
			socket.on("connect", () => (socket.destroy(), resolve(false)));
			socket.on("error", () => resolve(true));
		});
		assert.ok(refused, "the MCP server is not listening");
	});

	it("registers nothing at all on mobile and says so once", async () => {
		const vault = copySampleVault();
		vaults.push(vault);
		const lines = [];
		const original = console.debug;
		console.debug = (...args) => lines.push(args.join(" "));
		let plugin;
		try {
			({ plugin } = await loadPlugin(vault, { mobile: true }));
		} finally {
			console.debug = original;
		}
		assert.equal(plugin.api, null);
		assert.equal(plugin.core, null);
		assert.equal(plugin.settingTabs__.length, 0);
		assert.equal(plugin.commands__.size, 0);
		assert.equal(plugin.views__.size, 0);
		assert.equal(plugin.ribbonActions__.length, 0);
		assert.equal(plugin.statusBarItems__.length, 0);
		assert.equal(lines.length, 1);
		assert.match(lines[0], /desktop app/);
	});

	it("says nothing when it is unloaded while the search index is still being built", async () => {
		const vault = copySampleVault();
		vaults.push(vault);
		mkdirSync(join(vault, "Many"));
		for (let i = 0; i < 3000; i++) writeFileSync(join(vault, `Many/Note ${i}.md`), `Note ${i} about lighthouses and tides.\n`);
		const warnings = [];
		const original = console.warn;
		console.warn = (...args) => warnings.push(args.join(" "));
		try {
			const { plugin } = await loadPlugin(vault);
			await plugin.started();
			assert.equal(plugin.core.searchStatus().phase, "building", "unloaded mid-build");
			plugin.unload();
			await new Promise((resolve) => setTimeout(resolve, 300));
		} finally {
			console.warn = original;
		}
		assert.deepEqual(
			warnings.filter((w) => /search index/.test(w)),
			[],
		);
	});

	it("repairs a broken data.json instead of failing to load", async () => {
		const vault = copySampleVault();
		vaults.push(vault);
		const warnings = [];
		const original = console.warn;
		console.warn = (...args) => warnings.push(args.join(" "));
		let plugin;
		try {
			({ plugin } = await loadPlugin(vault, { data: { timeoutMs: "soon", tools: 5, oldKey: true } }));
		} finally {
			console.warn = original;
		}
		assert.ok(plugin.api);
		assert.equal(plugin.core.settings().timeoutMs, 15000);
		assert.equal(warnings.length, 3, warnings.join("\n"));
	});
});
