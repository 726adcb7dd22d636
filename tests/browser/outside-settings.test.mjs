// Settings → Vault Agent → MCP: your servers in the chat in Chromium from the built main.js:
// Test against a real Streamable HTTP server written with the official SDK
// (tests/support/outside-mcp-server.mjs) shows what the server says of itself
// and each tool's hints and switch; Test of a server that cannot start shows
// why; and both ways of adding a server say where the data goes. Leaves
// test-output/outside-settings.png and outside-settings-narrow.png.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { outputDir, startBrowserPlugin } from "../support/browser.mjs";
import { emulator, emulatorEnv, root } from "../support/harness.mjs";

const serverScript = join(root, "tests/support/outside-mcp-server.mjs");
/** The disclosure issue 24 asks for on every row that adds a server, as the user reads it. */
const DISCLOSURE = [
	/Each call sends the tool's arguments, which the model chose from your chat and notes, to that server \(a program on this computer, or the address you gave\)\./,
	/Folder scopes and undo cannot reach what it does\./,
	/How far you trust it is your choice\./,
];

describe("the MCP servers settings in Chromium", () => {
	let session;
	let page;
	let mcp;
	const section = () => page.locator(".vault-agent-mcp-servers");
	const row = (name) => section().locator(".setting-item").filter({ has: page.locator(".setting-item-name", { hasText: new RegExp(`^${name}$`) }) });

	before(async () => {
		mcp = spawn(process.execPath, [serverScript, "http"], { stdio: ["ignore", "pipe", "inherit"] });
		const url = await new Promise((done) => mcp.stdout.on("data", (chunk) => done(`http://127.0.0.1:${/port (\d+)/.exec(String(chunk))[1]}/mcp`)));
		session = await startBrowserPlugin({
			data: {
				cliPath: emulator,
				mcpServers: [
					{ id: "tools", kind: "http", url, trust: "askUnlessReadOnly", toolsOff: ["crash"] },
					{ id: "missing", kind: "stdio", command: "vault-agent-no-such-server", args: ["--stdio"] },
				],
			},
			env: (vault) => emulatorEnv(vault),
			viewport: { width: 1100, height: 900 },
		});
		({ page } = session);
		await session.openSettings();
		await page.locator(".vault-agent-settings-nav").getByRole("tab", { name: "MCP: your servers in the chat", exact: true }).click();
		await section().waitFor({ state: "visible", timeout: 5000 });
	});

	it("lists the configured servers first, each with its live state, then the forms that add one", async () => {
		const names = await section().locator(".setting-item .setting-item-name").allTextContents();
		assert.deepEqual(names.slice(1), ["tools", "missing", "Add a server", "Paste a configuration"], names.join(", "));
		// Without a click on Test: the page lists each server on as it opens.
		const state = (name) => row(name).locator(".vault-agent-mcp-state");
		await page.waitForFunction(() => [...document.querySelectorAll(".vault-agent-mcp-state")].every((el) => !el.classList.contains("is-starting")), null, { timeout: 20_000 });
		assert.equal(await state("tools").textContent(), "Running: 8 tools");
		assert.match(await state("missing").textContent(), /^Failed: The MCP server `missing` could not start.*was not found/);
		assert.equal(await state("missing").evaluate((el) => el.classList.contains("is-failed")), true);
	});

	after(async () => {
		await session?.close();
		mcp?.kill();
	});

	it("says on both rows that add a server which data goes where, what scopes and undo cannot cover, and that trust is the user's choice", async () => {
		for (const name of ["Add a server", "Paste a configuration"]) {
			const text = await row(name).locator(".setting-item-description").textContent();
			for (const sentence of DISCLOSURE) assert.match(text, sentence, `${name}: ${text}`);
		}
	});

	it("Test shows the server's name and version and each tool with its hints and switch", async () => {
		const tools = row("tools");
		await tools.locator("button", { hasText: "Test" }).click();
		const report = tools.locator(".vault-agent-mcp-report");
		await page.waitForFunction(() => /answered/.test(document.querySelector(".vault-agent-mcp-server .vault-agent-mcp-report")?.textContent ?? ""), null, { timeout: 20_000 });
		assert.equal(await report.locator(".vault-agent-mcp-answered").textContent(), "test-tools 1.2.3 answered with 8 tools.");
		const items = await report.locator("ul.vault-agent-mcp-tools .vault-agent-mcp-tool").evaluateAll((tools) =>
			tools.map((tool) => ({
				name: tool.querySelector(".vault-agent-mcp-tool-name").textContent,
				hints: [...tool.querySelectorAll(".vault-agent-mcp-tool-hint")].map((hint) => hint.textContent),
				description: tool.querySelector(".vault-agent-mcp-tool-desc")?.textContent ?? "",
				// Obsidian's switch, as every other on/off in the tab.
				on: tool.querySelector(".checkbox-container").classList.contains("is-enabled"),
				label: tool.querySelector(".checkbox-container").getAttribute("aria-label"),
			})),
		);
		const by = Object.fromEntries(items.map((item) => [item.name, item]));
		assert.deepEqual(Object.keys(by), ["lookup", "delete_item", "picture", "report", "where", "slow", "crash", "grow"]);
		assert.deepEqual(by.lookup, { name: "lookup", hints: ["read-only"], description: "Looks a word up.", on: true, label: "Offer lookup" });
		assert.deepEqual(by.delete_item.hints, ["may change things", "may be destructive", "reaches outside"]);
		assert.equal(by.delete_item.description, "Deletes an item for good.");
		assert.deepEqual(by.picture.hints, ["read-only", "reaches outside"]);
		assert.deepEqual(
			items.filter((item) => !item.on).map((item) => item.name),
			["crash"],
			"the tool switched off in the settings shows unticked",
		);
		assert.equal(await tools.locator(".vault-agent-mcp-report.is-error").count(), 0);
	});

	it("a tool's switch saves the tool as off", async () => {
		const saves = await session.saveCount();
		await row("tools").locator("li", { hasText: "delete_item" }).locator(".checkbox-container").click();
		const saved = await session.waitForSave(saves);
		assert.deepEqual(saved.mcpServers.find((s) => s.id === "tools").toolsOff, ["crash", "delete_item"]);
	});

	it("Test of a server that cannot start says why", async () => {
		const missing = row("missing");
		await missing.locator("button", { hasText: "Test" }).click();
		// Said once, in the row's state line (the report under the row does not repeat it).
		const error = missing.locator(".vault-agent-mcp-state.is-failed");
		await error.waitFor({ state: "visible", timeout: 20_000 });
		await page.waitForFunction(() => !/Connecting/.test(document.querySelector('.vault-agent-mcp-server[data-server-id="missing"] .vault-agent-mcp-report')?.textContent ?? "Connecting"), null, { timeout: 20_000 });
		assert.equal(await missing.locator(".vault-agent-mcp-report").textContent(), "", "not said twice");
		assert.equal(
			await error.textContent(),
			"Failed: The MCP server `missing` could not start, so its tools are not offered: the command `vault-agent-no-such-server` was not found. Check that the program is installed and on the PATH Obsidian starts with, or give its full path in Settings → Vault Agent → MCP: your servers in the chat.",
		);
	});

	it("reads well in a wide settings window and in a narrow one", async () => {
		// Tall enough that the settings window shows the whole section.
		await page.setViewportSize({ width: 1100, height: 2400 });
		await row("tools").locator("button", { hasText: "Test" }).click();
		await page.waitForFunction(() => /answered/.test(document.querySelector(".vault-agent-mcp-server .vault-agent-mcp-report")?.textContent ?? ""), null, { timeout: 20_000 });
		await section().screenshot({ path: join(outputDir, "outside-settings.png") });
		// A 700 px window: the settings' content is about 350 px wide beside its tab list.
		await page.setViewportSize({ width: 700, height: 4000 });
		await section().screenshot({ path: join(outputDir, "outside-settings-narrow.png") });
		const over = await section().evaluate((el) =>
			[...el.querySelectorAll(".setting-item")].filter((row) => row.scrollWidth > row.clientWidth).map((row) => row.querySelector(".setting-item-name")?.textContent),
		);
		assert.deepEqual(over, [], "no row is wider than the window");
		for (const name of ["Add a server", "Paste a configuration"]) {
			const [info, whole] = await row(name).evaluate((el) => [el.querySelector(".setting-item-info").clientWidth, el.clientWidth]);
			assert.ok(info >= whole * 0.9, `${name}: its description has the row's width (${info} of ${whole} px), its fields go under it`);
		}
	});
});
