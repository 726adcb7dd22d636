// The client set-ups of the BUILT main.js work as written: each is made by
// the core (src/doors/mcp/setups.rs), is what the settings tab shows and what the
// docs/mcp.md shows (with `<token>` and the default port), parses as its
// client's format (JSON, TOML, a shell command line), and connects to the
// plugin's server the way its client reads it. Claude Desktop's is run as
// written, through the real mcp-remote bridge (a devDependency, started by
// npx from node_modules).
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { parse as parseToml } from "smol-toml";
import { closeSettings, copySampleVault, emulator, loadPlugin, openSettingTab, removeVault, root, settle, useEmulator } from "../support/harness.mjs";

const PORT = 27125 + 43;
const DEFAULT_PORT = 27125;

/** A POSIX shell command line's words (double and single quotes, no expansions). */
function shellWords(line) {
	const words = [];
	for (const match of line.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)) words.push(match[1] ?? match[2] ?? match[3]);
	return words;
}

describe("the MCP client set-ups", () => {
	let vault;
	let plugin;
	let token;
	let setups;
	const clients = [];
	const setup = (prefix) => setups.find((s) => s.name.startsWith(prefix));

	/** Lists the tools and reads a note over `transport`: what every client does first. */
	async function works(transport, what) {
		const client = new Client({ name: what, version: "1" });
		await client.connect(transport);
		clients.push(client);
		const { tools } = await client.listTools();
		assert.deepEqual(tools.map((t) => t.name), (await plugin.api.listTools()).filter((t) => t.enabled).map((t) => t.id), what);
		const read = await client.callTool({ name: "obsidianNotes", arguments: { command: "read", file: "Welcome" } });
		assert.equal(read.isError, false, `${what}: ${read.content[0].text}`);
		assert.match(read.content[0].text, /Welcome/);
	}
	const http = (url, headers) => new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });

	before(async () => {
		vault = copySampleVault();
		useEmulator(vault);
		({ plugin } = await loadPlugin(vault, { data: { cliPath: emulator, vaultName: "Sample Vault", mcp: { enabled: true, port: PORT, permissionMode: "readOnly" } } }));
		token = plugin.agents.token();
		setups = plugin.agents.clientConfigs();
	});

	after(async () => {
		for (const client of clients) await client.close().catch(() => {});
		plugin.unload();
		await settle(5);
		removeVault(vault);
	});

	it("are what the settings tab's Copy copies; the tab shows them with <token>, as docs/mcp.md does", async () => {
		assert.deepEqual(
			setups.map((s) => s.name.split(" ")[0]),
			["Claude", "Cursor", "VS", "Codex", "Claude"],
		);
		const tab = openSettingTab(plugin);
		await settle(6);
		const shown = [...tab.querySelectorAll(".vault-agent-client-config-text")].map((pre) => pre.textContent);
		closeSettings(plugin.app);
		assert.deepEqual(shown, plugin.agents.shownClientConfigs().map((s) => s.text));
		assert.deepEqual(shown, setups.map((s) => s.text.replaceAll(token, "<token>")), "the same set-ups, the token left out");
		assert.ok(!shown.some((text) => text.includes(token)), "a screenshot of the settings shows no token");
		const docs = readFileSync(join(root, "docs/mcp.md"), "utf8");
		const fence = { shell: "sh", json: "json", toml: "toml" };
		for (const written of plugin.core.mcpClientSetups(DEFAULT_PORT, null)) {
			assert.ok(docs.includes("```" + fence[written.format] + "\n" + written.text.trimEnd() + "\n```"), `docs/mcp.md shows ${written.name} as made:\n${written.text}`);
		}
	});

	it("Claude Code: the command adds the server with the header as one argument", async () => {
		const words = shellWords(setup("Claude Code").text);
		assert.deepEqual(words.slice(0, 6), ["claude", "mcp", "add", "--transport", "http", "vault-agent"]);
		const [url, flag, header] = words.slice(6);
		assert.equal(flag, "--header");
		const [name, value] = [header.slice(0, header.indexOf(":")), header.slice(header.indexOf(":") + 1).trim()];
		assert.equal(name, "Authorization");
		await works(http(url, { [name]: value }), "Claude Code");
	});

	it("Cursor: mcp.json's server connects with its url and headers", async () => {
		const server = JSON.parse(setup("Cursor").text).mcpServers["vault-agent"];
		assert.equal(server.type, "http");
		await works(http(server.url, server.headers), "Cursor");
	});

	it("VS Code: the token is a password input, not in the file", async () => {
		const text = setup("VS Code").text;
		assert.ok(!text.includes(token), "no token in a file that may be committed");
		const config = JSON.parse(text);
		const [input] = config.inputs;
		assert.deepEqual([input.type, input.password], ["promptString", true]);
		const server = config.servers["vault-agent"];
		// What VS Code does with ${input:…}: the value the user typed at its prompt.
		const headers = Object.fromEntries(Object.entries(server.headers).map(([k, v]) => [k, v.replaceAll(`\${input:${input.id}}`, token)]));
		assert.notDeepEqual(headers, server.headers, "the input is used");
		await works(http(server.url, headers), "VS Code");
	});

	it("Codex: config.toml names the variable that holds the token, never the token", async () => {
		const written = setup("Codex");
		const server = parseToml(written.text).mcp_servers["vault-agent"];
		assert.equal(server.bearer_token, undefined, "Codex refuses an inline token");
		assert.ok(!written.text.includes(token));
		assert.match(server.bearer_token_env_var, /^[A-Z_]+$/);
		assert.ok(server.tool_timeout_sec >= 300, "Codex waits as long as a card lives");
		assert.match(written.note, new RegExp(`export ${server.bearer_token_env_var}=${token}`));
		// What Codex does: the variable's value as a bearer token.
		const environment = { [server.bearer_token_env_var]: token };
		await works(http(server.url, { Authorization: `Bearer ${environment[server.bearer_token_env_var]}` }), "Codex");
	});

	it("Claude Desktop: the mcp-remote bridge runs as written and reaches the server", async () => {
		const written = setup("Claude Desktop");
		const server = JSON.parse(written.text).mcpServers["vault-agent"];
		assert.equal(server.command, "npx");
		assert.ok(server.args.every((a) => !a.includes(" ")), `no space inside an argument: ${server.args}`);
		assert.match(written.note, /Node\.js/);
		const home = mkdtempSync(join(tmpdir(), "vault-agent-mcp-remote-"));
		try {
			// npx finds mcp-remote in node_modules (a devDependency), so nothing is downloaded.
			const transport = new StdioClientTransport({
				command: server.command,
				args: server.args,
				cwd: root,
				env: { ...process.env, ...server.env, MCP_REMOTE_CONFIG_DIR: home, npm_config_offline: "true" },
				stderr: "pipe",
			});
			await works(transport, "Claude Desktop");
		} finally {
			rmSync(home, { recursive: true, force: true });
		}
	});
});
