// A coding agent's changes and Undo, through the BUILT main.js: the scripted
// agent (tests/support/acp-agent.mjs) writes with fs/write_text_file in a
// turn and sets a property over MCP between turns; the chat's model made a
// change in an older answer. Each change is journalled under its own answer,
// and "Undo this answer's changes" undoes exactly that answer's, newest first,
// never an older chat answer's in place of the agent's.
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { copySampleVault, emulator, isAlive, loadPlugin, removeVault, root, runCommand, useEmulator } from "../support/harness.mjs";
import { openaiStream, startModelServer } from "../support/model-servers.mjs";

const SCRIPT = join(root, "tests/support/acp-agent.mjs");
const WELCOME = "Welcome.md";
const ROADMAP = "Projects/Roadmap.md";
const CREATED = "Notes/By the agent.md";

async function until(check, what, ms = 10000) {
	const end = Date.now() + ms;
	while (Date.now() < end) {
		if (await check()) return;
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
	assert.fail(`timed out waiting for ${what}`);
}

describe("a coding agent's changes in the undo journal", () => {
	let vault;
	let plugin;
	let app;
	let server;
	let session;
	const logFile = join(tmpdir(), `acp-undo-${process.pid}.log`);
	const bytes = (path) => readFileSync(join(vault, path));
	const logLines = () => (existsSync(logFile) ? readFileSync(logFile, "utf8").trim().split("\n").map((l) => JSON.parse(l)) : []);
	// The vault as it was before anything below changed it.
	let original;

	before(async () => {
		server = await startModelServer();
		vault = copySampleVault();
		process.env.ACP_AGENT_LOG = logFile;
		useEmulator(vault);
		({ plugin, app } = await loadPlugin(vault, {
			data: {
				cliPath: emulator,
				vaultName: "Sample Vault",
				permissionMode: "askBeforeEdits",
				readFolders: ["Projects", "Daily", "People", "Welcome.md", "Notes"],
				chat: { provider: "openAi", openai: { baseUrl: `${server.url}/v1`, model: "test-model", apiKeySecret: "" } },
				acpAgents: { custom: { command: process.execPath, args: [SCRIPT] } },
			},
		}));
		original = { welcome: bytes(WELCOME), roadmap: bytes(ROADMAP) };
		session = await plugin.codingAgents.start(plugin.codingAgents.profileFor("agent:custom"));
	});
	after(async () => {
		delete process.env.ACP_AGENT_LOG;
		const pids = plugin.codingAgents.running().map((s) => s.pid);
		await plugin.codingAgents.dispose();
		await until(() => pids.every((pid) => !isAlive(pid)), "every agent to end");
		plugin.unload();
		await server.close();
		removeVault(vault);
		rmSync(logFile, { force: true });
	});

	let olderAnswer;
	let agentConversation;
	let agentAnswer;

	it("an older answer of the chat's model changes a note (journalled under that answer)", async () => {
		server.script({ stream: openaiStream({ toolCalls: [["obsidianEdit", { command: "append", path: WELCOME, content: "- from the older answer" }]] }) }, { stream: openaiStream({ text: "Added." }) });
		const events = [];
		const { end } = await plugin.core.chatSend(plugin.core.newConversation(), "add a line", (e) => events.push(e));
		assert.equal(end, "done");
		const finished = events.find((e) => e.type === "toolFinished");
		assert.equal(finished.result.ok, true, finished.result.text);
		olderAnswer = finished.result.journal.turn;
		assert.ok(olderAnswer, "the model's change belongs to its answer");
	});

	it("the agent's fs/write_text_file in a turn is journalled under the agent's answer", async () => {
		agentConversation = plugin.core.newConversation();
		const events = [];
		await session.prompt(`write ${join(vault, CREATED)}|Written in the agent's turn.`, (e) => events.push(e), [], agentConversation);
		const finished = events.find((e) => e.type === "toolFinished" && e.tool === "obsidianEdit");
		assert.equal(finished.result.ok, true, finished.result.text);
		assert.equal(finished.result.journal?.undoable, true);
		agentAnswer = finished.result.journal.turn;
		assert.equal(agentAnswer, `${agentConversation.id}#1`, "the answer to the agent chat's first message");
		assert.equal(plugin.core.turnChanges(agentAnswer).undoable, 1);
		assert.equal(plugin.core.lastTurn(), agentAnswer, "the newest answer with changes is the agent's");
	});

	it("a change the agent makes between turns gets an answer of its own, and the command undoes only it", async () => {
		const roadmapBefore = bytes(ROADMAP);
		await session.prompt(`later tool-set ${ROADMAP}`, () => {}, [], agentConversation);
		// Between turns the card waits in the chat's place for cards: the user approves it.
		let card = null;
		await until(() => (card = plugin.confirmations.currentCard()), "the card of the change between turns");
		await plugin.confirmations.approve(card);
		await until(() => logLines().some((l) => l.method === "outside-turn" && l.what === "tool-set"), "the agent to hear back");
		const outcome = logLines().find((l) => l.method === "outside-turn" && l.what === "tool-set");
		assert.equal(outcome.ok, true, JSON.stringify(outcome));
		assert.match(bytes(ROADMAP).toString(), /status: done/);
		const between = plugin.core.lastTurn();
		assert.ok(between, "the change between turns can be undone as an answer");
		assert.notEqual(between, agentAnswer, "not folded into the agent's last answer");
		assert.notEqual(between, olderAnswer, "nor into an older chat answer");
		assert.deepEqual(plugin.core.turnChanges(between), { total: 1, undoable: 1, undone: 0 });
		assert.equal(await runCommand(app, "vault-agent:undo-last-answer"), true);
		await until(() => plugin.core.turnChanges(between).undone === 1, "the change to be undone");
		assert.deepEqual(bytes(ROADMAP), roadmapBefore, "restored byte for byte");
		assert.ok(existsSync(join(vault, CREATED)), "the agent's answer is left alone");
		assert.match(bytes(WELCOME).toString(), /- from the older answer/, "so is the older chat answer");
	});

	it("then the command undoes the agent's answer, exactly its writes, and never the older chat answer's", async () => {
		assert.equal(plugin.core.lastTurn(), agentAnswer);
		assert.equal(await runCommand(app, "vault-agent:undo-last-answer"), true);
		await until(() => plugin.core.turnChanges(agentAnswer).undone === 1, "the agent's answer to be undone");
		assert.equal(existsSync(join(vault, CREATED)), false, "the note the agent made is gone");
		assert.match(bytes(WELCOME).toString(), /- from the older answer/, "the older answer's change stays");
		assert.equal(plugin.core.lastTurn(), olderAnswer);
		assert.equal(await runCommand(app, "vault-agent:undo-last-answer"), true);
		await until(() => plugin.core.turnChanges(olderAnswer).undone === 1, "the older answer to be undone");
		assert.deepEqual(bytes(WELCOME), original.welcome);
		assert.deepEqual(bytes(ROADMAP), original.roadmap);
	});
});
