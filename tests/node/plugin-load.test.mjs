// The built main.js inside the Obsidian double: what it registers where.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { copySampleVault, emulator, loadPlugin, removeVault } from "../support/harness.mjs";

describe("loading the built plugin", () => {
	const vaults = [];
	after(() => vaults.forEach(removeVault));

	it("registers the tools, the API and the settings tab on desktop", async () => {
		const vault = copySampleVault();
		vaults.push(vault);
		const { plugin } = await loadPlugin(vault, { data: { cliPath: emulator } });
		assert.ok(plugin.api, "api is exposed");
		assert.equal(plugin.api.version, 1);
		assert.equal(plugin.settingTabs__.length, 1);
		const tools = plugin.api.listTools();
		const ids = tools.map((t) => t.id);
		assert.ok(ids.includes("obsidianDailyNote"));
		assert.ok(ids.includes("obsidianRandomRead"));
		for (const tool of tools) {
			assert.match(tool.displayName, /\(CLI\)$/);
			assert.equal(tool.inputSchema.type, "object");
			assert.ok(Array.isArray(tool.commands) && tool.commands.length > 0);
			assert.equal(typeof tool.enabled, "boolean");
		}
		const daily = tools.find((t) => t.id === "obsidianDailyNote");
		assert.deepEqual(daily.commands.slice(0, 2), ["daily:read", "daily:path"]);
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
