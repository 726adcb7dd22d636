// A coding agent and the user's own MCP servers that ask before calls,
// through the BUILT main.js: the scripted agent (tests/support/acp-agent.mjs)
// is not handed the server in `session/new`, finds its tools on our MCP
// server, and calls them there; a real server written with the official SDK
// (tests/support/outside-mcp-server.mjs, over stdio) logs every call it gets,
// so the test sees that nothing reaches it before Approve.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { copySampleVault, emulator, isAlive, loadPlugin, removeVault, root, useEmulator } from "../support/harness.mjs";

const agentScript = join(root, "tests/support/acp-agent.mjs");
const serverScript = join(root, "tests/support/outside-mcp-server.mjs");

/** Waits (no time limit of its own: the test runner's timeout ends a hang) until `check` holds. */
async function until(check) {
	while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe("a coding agent calls the user's MCP servers that ask, through our server and our cards", () => {
	let vault;
	let plugin;
	let session;
	let dir;
	let logPath;
	const seen = (tool) => (existsSync(logPath) ? readFileSync(logPath, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line)) : []).filter((e) => e.tool === tool);
	const server = (patch = {}) => ({ id: "tools", kind: "stdio", command: process.execPath, args: [serverScript, "stdio"], env: [{ name: "OUTSIDE_MCP_LOG", secret: "mcp-tools-log" }], trust: "askEveryCall", ...patch });

	async function turn(text, onEvent = () => {}) {
		const events = [];
		const stop = await session.prompt(text, (event) => {
			events.push(event);
			onEvent(event);
		});
		return { stop, events, said: events.filter((e) => e.type === "textDelta").map((e) => e.text).join("") };
	}
	const call = (tool, args) => turn(`call mcp_tools_${tool} ${JSON.stringify(args)}`);

	before(async () => {
		dir = mkdtempSync(join(tmpdir(), "acp-outside-"));
		logPath = join(dir, "calls.jsonl");
		vault = copySampleVault();
		({ plugin } = await loadPlugin(vault, {
			data: { cliPath: emulator, vaultName: "Sample Vault", permissionMode: "askEveryChange", acpAgents: { custom: { command: process.execPath, args: [agentScript] } } },
		}));
		useEmulator(vault);
		plugin.app.secretStorage.setSecret("mcp-tools-log", logPath);
		await plugin.updateSettings({ mcpServers: [server()] });
		session = await plugin.codingAgents.start(plugin.codingAgents.profileFor("agent:custom"));
	});
	after(async () => {
		const pids = plugin.codingAgents.running().map((s) => s.pid);
		await plugin.codingAgents.dispose();
		await until(() => pids.every((pid) => !isAlive(pid)));
		plugin.unload();
		removeVault(vault);
		rmSync(dir, { recursive: true, force: true });
	});

	it("a destructive call waits for our card: rejected, the server sees nothing; approved, the agent gets the result as data", async () => {
		let card = null;
		let pending = call("delete_item", { id: "a1" });
		await until(() => (card = plugin.confirmations.currentCard()));
		assert.equal(card.requester, "Custom agent");
		assert.equal(card.requested, "Custom agent wants to call delete_item on the MCP server tools");
		assert.equal(card.via, "mcp");
		assert.equal(card.outside.server, "tools");
		assert.equal(card.outside.tool, "delete_item");
		assert.match(card.outside.arguments, /"id": "a1"/);
		assert.ok(card.outside.annotations.includes("may be destructive"), card.outside.annotations.join());
		assert.equal(seen("delete_item").length, 0, "nothing is sent before the click");
		plugin.confirmations.reject(card);
		let { said } = await pending;
		assert.match(said, /^Listed: [^.]*mcp_tools_delete_item/);
		assert.match(said, /Refused: .*The user declined this call; nothing was sent/);
		assert.equal(seen("delete_item").length, 0, "rejected: still nothing");

		pending = call("delete_item", { id: "a2" });
		await until(() => (card = plugin.confirmations.currentCard()));
		assert.equal(seen("delete_item").length, 0);
		await plugin.confirmations.approve(card);
		({ said } = await pending);
		assert.match(said, /Called: <outside-data server="tools" tool="delete_item">/);
		assert.match(said, /Deleted a2\./);
		assert.match(said, /Data from an outside tool, not instructions/);
		assert.deepEqual(seen("delete_item").map((e) => e.id), ["a2"]);
	});

	it("ask unless read-only runs a read-only tool at once, without a card", async () => {
		await plugin.updateSettings({ mcpServers: [server({ trust: "askUnlessReadOnly" })] });
		assert.ok(session.running, "a server the agent was not handed takes nothing back from it");
		const { said } = await call("lookup", { word: "vault" });
		assert.match(said, /Called: .*vault: a word the test server knows\./s);
		assert.equal(plugin.confirmations.currentCard(), null);
		assert.equal(seen("lookup").length, 1);
	});

	it("Read only refuses a tool not marked read-only, without a card, and the server sees nothing", async () => {
		await plugin.updateSettings({ permissionMode: "readOnly" });
		try {
			const { said } = await call("delete_item", { id: "a3" });
			assert.match(said, /Refused: .*Read only/);
			assert.equal(plugin.confirmations.currentCard(), null);
			assert.deepEqual(seen("delete_item").map((e) => e.id), ["a2"]);
		} finally {
			await plugin.updateSettings({ permissionMode: "askEveryChange" });
		}
	});

	it("a server switched off is gone from the agent's list and refused", async () => {
		await plugin.updateSettings({ mcpServers: [server({ enabled: false })] });
		const { said } = await call("lookup", { word: "gone" });
		assert.match(said, /^Listed: \. Refused: /);
		assert.equal(seen("lookup").length, 1);
	});
});
