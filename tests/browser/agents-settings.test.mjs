// Settings → Vault Agent → MCP: this vault's server for other apps in Chromium from the built main.js: the MCP
// server's switch, port, mode, the token's Copy and Regenerate, the client
// set-ups (shown with `<token>`, copied with the token), and the activity
// list. Leaves
// test-output/agents-settings.png.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startBrowserPlugin } from "../support/browser.mjs";
import { emulator, emulatorEnv } from "../support/harness.mjs";

const TOKEN = "a".repeat(60) + "c0de";

describe("the Agents settings in Chromium", () => {
	let session;
	let page;

	before(async () => {
		session = await startBrowserPlugin({ data: { cliPath: emulator }, env: (vault) => emulatorEnv(vault), viewport: { width: 1100, height: 900 } });
		({ page } = session);
		await page.evaluate((token) => window.__harness.plugin.app.secretStorage.setSecret("vault-agent-mcp-token", token), TOKEN);
		await session.openSettings();
	});

	after(async () => {
		await session?.close();
	});

	// What Copy in the row named `name` puts on the clipboard.
	const copied = async (section, name) => {
		await page.evaluate(() => {
			window.__copied = null;
			navigator.clipboard.writeText = async (text) => {
				window.__copied = text;
			};
		});
		await section.locator(".setting-item", { has: page.locator(".setting-item-name", { hasText: name }) }).locator("button", { hasText: "Copy" }).click();
		await page.waitForFunction(() => window.__copied !== null);
		return page.evaluate(() => window.__copied);
	};

	it("shows the server off and Read only, client set-ups with <token> that copy with the token, and regenerates it", async () => {
		await page.locator(".vault-agent-settings-nav").getByRole("tab", { name: "MCP: this vault's server for other apps", exact: true }).click();
		const section = page.locator(".vault-agent-agents");
		await section.waitFor({ state: "visible", timeout: 5000 });
		// A screenshot of the settings leaks nothing: the token is only in what Copy copies.
		const visible = await page.locator(".vertical-tab-content-container").innerText();
		assert.ok(!visible.includes(TOKEN) && !visible.includes(TOKEN.slice(0, 20)), "no token on screen");
		assert.equal(await section.locator(".setting-item-heading .setting-item-name").textContent(), "MCP server for other apps", "named apart from the user's own servers and the coding agents");
		assert.equal(await section.locator(".vault-agent-mcp-status").textContent(), "Off.");
		const mode = section.locator(".setting-item", { hasText: "What MCP clients may change" }).locator("select");
		assert.equal(await mode.inputValue(), "readOnly", "Read only until the user picks another");
		assert.match(await section.locator(".setting-item", { has: page.locator(".setting-item-name", { hasText: /^Token$/ }) }).locator(".setting-item-description").textContent(), /ends in c0de/);
		// Folded while the server is off: a snippet for a server that is not running only gets in the way.
		assert.equal(await section.locator("details.vault-agent-client-config-fold").count(), 5);
		assert.equal(await section.locator("details.vault-agent-client-config-fold[open]").count(), 0, "folded while off");
		assert.equal(await section.locator(".vault-agent-client-config-text").first().isVisible(), false);
		const configs = await section.locator(".vault-agent-client-config-text").allTextContents();
		assert.equal(configs.length, 5, "Claude Code, Cursor, VS Code, Codex, Claude Desktop");
		assert.match(configs[0], /^claude mcp add --transport http vault-agent http:\/\/127\.0\.0\.1:27125\/mcp --header "Authorization: Bearer <token>"$/);
		assert.equal(await copied(section, /^Claude Code$/), configs[0].replace("<token>", TOKEN), "Copy gives the command with the token");
		const cursor = JSON.parse(configs[1]);
		assert.deepEqual(Object.keys(cursor), ["mcpServers"], "Cursor's mcp.json");
		assert.deepEqual(cursor.mcpServers["vault-agent"], { type: "http", url: "http://127.0.0.1:27125/mcp", headers: { Authorization: "Bearer <token>" } });
		assert.deepEqual(JSON.parse(await copied(section, /^Cursor/)).mcpServers["vault-agent"].headers, { Authorization: `Bearer ${TOKEN}` });
		// VS Code ignores `mcpServers`: its mcp.json lists servers under `servers`, and asks for the token.
		const vscode = JSON.parse(configs[2]);
		assert.deepEqual(Object.keys(vscode), ["inputs", "servers"], "VS Code's mcp.json");
		assert.equal(vscode.inputs[0].password, true);
		assert.ok(!configs[2].includes(TOKEN), "no token in a workspace file");
		assert.equal(vscode.servers["vault-agent"].headers.Authorization, `Bearer \${input:${vscode.inputs[0].id}}`);
		// Codex: TOML naming the variable; the row's description says how to set it, with <token>.
		assert.match(configs[3], /^\[mcp_servers\.vault-agent\]\nurl = "http:\/\/127\.0\.0\.1:27125\/mcp"\nbearer_token_env_var = "VAULT_AGENT_MCP_TOKEN"\n/);
		const codexRow = section.locator(".setting-item", { has: page.locator(".setting-item-name", { hasText: /^Codex/ }) });
		assert.match(await codexRow.locator(".setting-item-description").textContent(), /export VAULT_AGENT_MCP_TOKEN=<token> /);
		const desktop = JSON.parse(configs[4]).mcpServers["vault-agent"];
		assert.deepEqual(desktop.args, ["-y", "mcp-remote", "http://127.0.0.1:27125/mcp", "--header", "Authorization:${AUTH_HEADER}"]);
		assert.equal(desktop.env.AUTH_HEADER, "Bearer <token>");
		assert.equal(JSON.parse(await copied(section, /^Claude Desktop/)).mcpServers["vault-agent"].env.AUTH_HEADER, `Bearer ${TOKEN}`);
		assert.equal(await section.locator(".vault-agent-mcp-activity-empty").textContent(), "No calls yet.");
		await session.screenshot("agents-settings", { fit: ".vertical-tab-content-container" });

		// A new mode is saved in the MCP section, apart from the chat's.
		await mode.selectOption("askEveryChange");
		await session.waitForSave?.();
		assert.deepEqual(
			await page.evaluate(() => [window.__harness.plugin.core.settings().mcp.permissionMode, window.__harness.plugin.core.settings().permissionMode]),
			["askEveryChange", "readOnly"],
		);
		// Regenerate: a new 256-bit token, copied with the set-ups, never shown.
		await section.locator("button", { hasText: "Regenerate" }).click();
		const fresh = await page.evaluate(() => window.__harness.plugin.app.secretStorage.getSecret("vault-agent-mcp-token"));
		assert.match(fresh, /^[0-9a-f]{64}$/);
		assert.notEqual(fresh, TOKEN);
		assert.ok((await copied(section, /^Claude Code$/)).endsWith(`Bearer ${fresh}"`));
		assert.ok(!(await page.locator(".vertical-tab-content-container").innerText()).includes(fresh), "the new token is not on screen either");
		assert.deepEqual(session.errors, []);
	});
});
