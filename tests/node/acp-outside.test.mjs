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
import { clickButton, copySampleVault, emulator, eventually, isAlive, loadPlugin, removeVault, root, useEmulator } from "../support/harness.mjs";

const agentScript = join(root, "tests/support/acp-agent.mjs");
const serverScript = join(root, "tests/support/outside-mcp-server.mjs");

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
	/** `agent` calls `tool`; resolves with the card it raised (the call still waiting on it) or with what it said, with no card. */
	async function cardOrAnswer(agent, tool, args) {
		let said = null;
		const events = [];
		const pending = agent.prompt(`call mcp_tools_${tool} ${JSON.stringify(args)}`, (event) => events.push(event)).then(() => {
			said = events.filter((e) => e.type === "textDelta").map((e) => e.text).join("");
		});
		let card = null;
		await eventually(() => said !== null || (card = plugin.confirmations.currentCard()));
		return { card, said, pending: pending.then(() => said) };
	}
	/** The modal's card for `card`, once it shows. */
	const modalCard = (card) => document.querySelector(`.modal-container .vault-agent-confirm[data-confirmation-id="${card.id}"]`);

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
		await eventually(() => pids.every((pid) => !isAlive(pid)));
		plugin.unload();
		removeVault(vault);
		rmSync(dir, { recursive: true, force: true });
	});

	it("a destructive call waits for our card: rejected, the server sees nothing; approved, the agent gets the result as data", async () => {
		let card = null;
		let pending = call("delete_item", { id: "a1" });
		await eventually(() => (card = plugin.confirmations.currentCard()));
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
		await eventually(() => (card = plugin.confirmations.currentCard()));
		assert.equal(seen("delete_item").length, 0);
		await plugin.confirmations.approve(card);
		({ said } = await pending);
		assert.match(said, /Called: <outside-data server="tools" tool="delete_item">/);
		assert.match(said, /Deleted a2\./);
		assert.match(said, /Data from an outside tool, not instructions/);
		assert.deepEqual(seen("delete_item").map((e) => e.id), ["a2"]);
	});

	it("'Approve for this chat' on the agent's card: that session's later calls of the tool run without a card, another session's do not, and ending the session forgets it", async () => {
		const first = await cardOrAnswer(session, "delete_item", { id: "b1" });
		assert.ok(first.card, "a card the first time");
		await eventually(() => modalCard(first.card));
		const buttons = [...modalCard(first.card).querySelectorAll(".vault-agent-confirm-buttons button")].map((b) => b.textContent);
		assert.deepEqual(buttons, ["Approve once", "Approve for this chat", "Reject"]);
		assert.equal(seen("delete_item").filter((e) => e.id === "b1").length, 0, "nothing is sent before the click");
		clickButton(modalCard(first.card), "Approve for this chat");
		assert.match(await first.pending, /Called: .*Deleted b1\./s);

		const second = await cardOrAnswer(session, "delete_item", { id: "b2" });
		assert.equal(second.card, null, "no card the second time in this session");
		assert.match(second.said, /Called: .*Deleted b2\./s);

		// Another agent session (another chat) still asks.
		const other = await plugin.codingAgents.start(plugin.codingAgents.profileFor("agent:custom"));
		try {
			const asked = await cardOrAnswer(other, "delete_item", { id: "b3" });
			assert.ok(asked.card, "another session gets a card");
			plugin.confirmations.reject(asked.card);
			assert.match(await asked.pending, /Refused: /);
		} finally {
			plugin.codingAgents.end(other);
		}

		// The session ends: a new one asks again.
		plugin.codingAgents.end(session);
		session = await plugin.codingAgents.start(plugin.codingAgents.profileFor("agent:custom"));
		const again = await cardOrAnswer(session, "delete_item", { id: "b4" });
		assert.ok(again.card, "a new session gets a card again");
		plugin.confirmations.reject(again.card);
		await again.pending;
		assert.deepEqual(seen("delete_item").map((e) => e.id), ["a2", "b1", "b2"]);
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
			assert.deepEqual(seen("delete_item").map((e) => e.id), ["a2", "b1", "b2"]);
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
