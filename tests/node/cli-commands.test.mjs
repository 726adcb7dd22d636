// The plugin's own Obsidian CLI commands (`registerCliHandler`), called the
// way the app calls them: with the parsed `key=value` flags, printing what the
// handler returns. The BUILT main.js, the CLI emulator over a copy of the
// sample vault, and a scripted model server for `vault-agent:ask`.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { clickButton, copySampleVault, emulator, loadPlugin, removeVault, settle, useEmulator } from "../support/harness.mjs";
import { openaiStream, startModelServer } from "../support/model-servers.mjs";

async function until(check, what) {
	for (let i = 0; i < 500; i++) {
		if (check()) return;
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
	assert.fail(`timed out waiting for ${what}`);
}

describe("the vault-agent:* CLI commands of the built main.js", () => {
	let vault;
	let plugin;
	let app;
	let server;
	const welcome = () => readFileSync(join(vault, "Welcome.md"), "utf8");
	const modalCard = () => document.querySelector(".modal .vault-agent-confirm");
	/** What `obsidian <command> key=value …` prints. */
	const cli = (command, params = {}) => {
		const registered = app.cli__.get(command);
		assert.ok(registered, `${command} is registered`);
		return Promise.resolve(registered.handler(params));
	};

	before(async () => {
		server = await startModelServer();
		vault = copySampleVault();
		useEmulator(vault);
		({ plugin, app } = await loadPlugin(vault, {
			data: { cliPath: emulator, vaultName: "Sample Vault", permissionMode: "askEveryChange", chat: { provider: "openAi", openai: { baseUrl: `${server.url}/v1`, model: "test-model", apiKeySecret: "" } } },
		}));
	});
	after(async () => {
		plugin.unload();
		await settle(5);
		await server.close();
		removeVault(vault);
	});

	it("registers four commands with descriptions and flags for `obsidian help`", () => {
		assert.deepEqual([...app.cli__.keys()].sort(), ["vault-agent:ask", "vault-agent:call", "vault-agent:check", "vault-agent:tools"]);
		const call = app.cli__.get("vault-agent:call");
		assert.match(call.description, /tool call/);
		assert.equal(call.flags.tool.required, true);
		assert.ok(call.flags.args.description && call.flags.mode.description);
		assert.equal(app.cli__.get("vault-agent:ask").flags.prompt.required, true);
	});

	it("vault-agent:tools lists the switched-on tools and their commands", async () => {
		const listed = await cli("vault-agent:tools");
		const enabled = (await plugin.api.listTools()).filter((t) => t.enabled);
		assert.deepEqual(listed.split("\n"), enabled.map((t) => `${t.id}: ${t.commands.join(", ")}`));
		await plugin.updateSettings({ tools: { obsidianTasks: false } });
		assert.doesNotMatch(await cli("vault-agent:tools"), /obsidianTasks/);
		await plugin.updateSettings({ tools: {} });
	});

	it("vault-agent:call prints a result, or Error: <code>: <message>", async () => {
		assert.equal((await cli("vault-agent:call", { tool: "obsidianNotes", args: '{"command":"read","file":"Welcome"}' })).trim(), welcome().trim());
		assert.match(await cli("vault-agent:call", { tool: "obsidianNotes", args: "{read" }), /^Error: invalid_arguments: args is not JSON/);
		assert.match(await cli("vault-agent:call", { tool: "noSuchTool", args: "{}" }), /^Error: unknown_tool: /);
		assert.match(await cli("vault-agent:call", { tool: "obsidianNotes", args: '{"command":"read","file":"Welcome"}', mode: "everything" }), /^Error: invalid_arguments: mode must be/);
	});

	it("vault-agent:call waits for the card, which names the CLI, and mode= only narrows", async () => {
		const before = welcome();
		const printed = cli("vault-agent:call", { tool: "obsidianEdit", args: JSON.stringify({ command: "append", file: "Welcome", content: "from the CLI" }) });
		await until(() => modalCard(), "the card");
		assert.match(modalCard().querySelector(".vault-agent-confirm-requester").textContent, /^Obsidian CLI wants to change/);
		assert.equal(welcome(), before, "nothing before the click");
		clickButton(modalCard(), "Approve");
		assert.doesNotMatch(await printed, /^Error/);
		assert.match(welcome(), /from the CLI/);
		// Narrower than the chat: refused before anything runs.
		assert.match(await cli("vault-agent:call", { tool: "obsidianEdit", args: JSON.stringify({ command: "append", file: "Welcome", content: "x" }), mode: "readOnly" }), /^Error: writes_disabled: /);
		// Wider than the chat: still the chat's mode (a card), never more.
		await plugin.updateSettings({ permissionMode: "readOnly" });
		assert.match(await cli("vault-agent:call", { tool: "obsidianEdit", args: JSON.stringify({ command: "append", file: "Welcome", content: "y" }), mode: "askBeforeEdits" }), /^Error: writes_disabled: /);
		await plugin.updateSettings({ permissionMode: "askEveryChange" });
		assert.doesNotMatch(welcome(), /\nx\n|\ny\n/);
	});

	it("vault-agent:ask runs one chat turn and prints the answer, waiting for a card", async () => {
		server.script(
			{ stream: openaiStream({ toolCalls: [["obsidianEdit", { command: "append", file: "Welcome", content: "asked from the CLI" }]] }) },
			{ stream: openaiStream({ text: "Added the line to Welcome." }) },
		);
		const printed = cli("vault-agent:ask", { prompt: "Add a line to Welcome" });
		await until(() => modalCard(), "the card");
		assert.match(modalCard().querySelector(".vault-agent-confirm-requester").textContent, /^Obsidian CLI wants to change/);
		clickButton(modalCard(), "Approve");
		assert.equal(await printed, "Added the line to Welcome.");
		assert.match(welcome(), /asked from the CLI/);
		// mode=readOnly: the model's write is refused, and it says so.
		server.script(
			{ stream: openaiStream({ toolCalls: [["obsidianEdit", { command: "append", file: "Welcome", content: "not allowed" }]] }) },
			{ stream: openaiStream({ text: "I may not change notes." }) },
		);
		assert.equal(await cli("vault-agent:ask", { prompt: "Add another", mode: "readOnly" }), "I may not change notes.");
		const toolReply = server.requests.at(-1).body.messages.find((m) => m.role === "tool");
		assert.match(toolReply.content, /writes_disabled/);
		assert.doesNotMatch(welcome(), /not allowed/);
		assert.match(await cli("vault-agent:ask", {}), /^Error: invalid_arguments: prompt is required/);
	});
});
