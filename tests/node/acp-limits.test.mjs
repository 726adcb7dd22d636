// A coding agent that misbehaves, through the BUILT main.js: it floods the
// chat with text, asks for files after its turn ended, reads notes larger
// than the output cap, leaves child processes behind, or asks questions in
// Read only with no way to say no. The scripted SDK agent
// (tests/support/acp-agent.mjs) runs as a real process; the CLI emulator
// stands in for Obsidian's CLI over a copy of the sample vault.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { copySampleVault, emulator, isAlive, loadPlugin, removeVault, root, settle, useEmulator } from "../support/harness.mjs";

const SCRIPT = join(root, "tests/support/acp-agent.mjs");
/** What the chat keeps of one answer and of one turn's thoughts (src/policy/agent_session.rs). */
const TEXT_CAP = 4 * 1024 * 1024;
/** The largest note an agent may read whole (src/policy/agent_session.rs). */
const READ_CAP = 8 * 1024 * 1024;

async function until(check, what, ms = 10000) {
	const end = Date.now() + ms;
	while (Date.now() < end) {
		if (await check()) return;
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
	assert.fail(`timed out waiting for ${what}`);
}

const agentData = (extra = {}) => ({
	cliPath: emulator,
	vaultName: "Sample Vault",
	permissionMode: "askEveryChange",
	readFolders: ["Projects", "Daily", "People", "Welcome.md", "Notes"],
	acpAgents: { custom: { command: process.execPath, args: [SCRIPT] } },
	...extra,
});

describe("a coding agent that misbehaves", () => {
	let vault;
	let plugin;
	let profile;
	let session;
	const logFile = join(tmpdir(), `acp-limits-${process.pid}.log`);
	const logged = () => (existsSync(logFile) ? readFileSync(logFile, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l)) : []);

	async function turn(text, onEvent = () => {}, on = session) {
		const events = [];
		const stop = await on.prompt(text, (event) => {
			events.push(event);
			onEvent(event, on);
		});
		const said = events.filter((e) => e.type === "textDelta").map((e) => e.text).join("");
		return { stop, events, said };
	}

	/** What the agent heard for its request after the turn (the scripted agent logs it). */
	async function outsideTurnAnswer(what) {
		let entry = null;
		await until(() => (entry = logged().find((l) => l.method === "outside-turn" && l.what === what)), `the agent's ${what} outside the turn`);
		return entry;
	}

	before(async () => {
		vault = copySampleVault();
		mkdirSync(join(vault, "Notes"), { recursive: true });
		({ plugin } = await loadPlugin(vault, { data: agentData() }));
		process.env.ACP_AGENT_LOG = logFile;
		useEmulator(vault);
		profile = plugin.codingAgents.profileFor("agent:custom");
		session = await plugin.codingAgents.start(profile);
	});
	after(async () => {
		delete process.env.ACP_AGENT_LOG;
		const pids = plugin.codingAgents.running().map((s) => s.pid);
		await plugin.codingAgents.dispose();
		await until(() => pids.every((pid) => !isAlive(pid)), "every agent to end");
		plugin.unload();
		removeVault(vault);
		rmSync(logFile, { force: true });
	});

	it("keeps at most 4 MiB of an answer and of its thoughts, says where they were cut, and caps the plan", async () => {
		const { events, said } = await turn("flood 6");
		const thought = events.filter((e) => e.type === "reasoningDelta").map((e) => e.text).join("");
		const answer = events.find((e) => e.type === "assistantMessage").text;
		assert.ok(said.length < TEXT_CAP + 1000, `the streamed answer is ${said.length} characters`);
		assert.ok(thought.length < TEXT_CAP + 1000, `the streamed thoughts are ${thought.length} characters`);
		assert.ok(said.startsWith("x".repeat(TEXT_CAP)), "the first 4 MiB are kept as they came");
		assert.match(said.slice(TEXT_CAP), /cut/i, "the cut is said in the answer itself");
		assert.equal(answer, said, "the answer the chat keeps is the streamed one");
		assert.ok(thought.startsWith("x".repeat(TEXT_CAP)));
		assert.match(thought.slice(TEXT_CAP), /cut/i);
		const plan = events.find((e) => e.type === "plan");
		assert.ok(plan.entries.length <= 100, `${plan.entries.length} plan entries shown`);
		assert.ok(plan.entries.every((e) => e.content.length <= 500), "each entry is short");
		assert.match(plan.entries.at(-1).content, /9[0-9]{3} more/, "the rest of the plan is counted, not shown");
		assert.deepEqual(events.at(-1), { type: "turnEnded", end: "done" });
	});

	it("a write after the turn ended is refused with a clear error and changes nothing (Ask before edits, where a create needs no card)", async () => {
		await plugin.updateSettings({ permissionMode: "askBeforeEdits" });
		try {
			const path = join(vault, "Notes/Written later.md");
			const { said } = await turn(`later write ${path}|Written after the turn.`);
			assert.equal(said, "Later: write");
			const heard = await outsideTurnAnswer("write");
			assert.equal(heard.ok, false, "the agent is told no");
			assert.match(heard.error, /only while (a|its) turn runs/i);
			assert.equal(existsSync(path), false, "no note was made");
			const next = await turn("hello");
			assert.ok(
				next.events.some((e) => e.type === "notice" && /Written later\.md/.test(e.text) && /refused/i.test(e.text)),
				"the user hears of it in the chat",
			);
		} finally {
			await plugin.updateSettings({ permissionMode: "askEveryChange" });
		}
	});

	it("a read or a permission question after the turn ended is refused too, and no card waits unseen", async () => {
		const { said } = await turn(`later read ${join(vault, "Welcome.md")}`);
		assert.equal(said, "Later: read");
		const read = await outsideTurnAnswer("read");
		assert.equal(read.ok, false);
		assert.match(read.error, /only while (a|its) turn runs/i);
		await turn("later permission");
		const asked = await outsideTurnAnswer("permission");
		assert.equal(asked.ok, false, "an error, not a silent cancel");
		assert.match(asked.error, /only while (a|its) turn runs/i);
		const path = join(vault, "Projects/Roadmap.md");
		const before = readFileSync(path, "utf8");
		await turn(`later write ${path}|Replaced later.`);
		const write = await outsideTurnAnswer("write");
		assert.equal(write.ok, false);
		assert.equal(plugin.core.openConfirmations().length, 0, "no card was filed for nobody to see");
		assert.equal(readFileSync(path, "utf8"), before);
	});

	it("fs/read_text_file returns a note longer than the output cap whole", async () => {
		await plugin.updateSettings({ outputCapBytes: 4096 });
		try {
			const lines = Array.from({ length: 3000 }, (_, i) => `Line ${i}: ${"words ".repeat(6)}`);
			const text = `# Big\n\n${lines.join("\n")}\n`;
			writeFileSync(join(vault, "Notes/Big.md"), text);
			plugin.core.forgetReads();
			const { said } = await turn(`read ${join(vault, "Notes/Big.md")}`);
			assert.ok(!/raise the output cap/.test(said), "no notice of ours inside the file's text");
			assert.equal(said, `Read: ${text}`);
		} finally {
			await plugin.updateSettings({ outputCapBytes: 65536 });
		}
	});

	it("fs/read_text_file of a note over 8 MiB says it is too large instead of cutting it", async () => {
		writeFileSync(join(vault, "Notes/Huge.md"), `# Huge\n${"z".repeat(READ_CAP)}\n`);
		plugin.core.forgetReads();
		const { said } = await turn(`read ${join(vault, "Notes/Huge.md")}`);
		assert.match(said, /^Read refused: .*too large/i);
		assert.match(said, /8\.0 MiB/);
		assert.ok(said.length < 2000, "none of the note's text");
	});

	it("Read only refuses an agent's question that offers no reject option, without asking the user", async () => {
		await plugin.updateSettings({ permissionMode: "readOnly" });
		try {
			const asked = [];
			const { said, events } = await turn("permission-allow-only", (event) => {
				if (event.type === "permission") {
					asked.push(event.ask);
					event.ask.answer("once");
				}
			});
			assert.equal(asked.length, 0, "the user was not asked");
			assert.equal(said, "Permission: cancelled", "refused: ACP's cancelled outcome, since no reject option was offered");
			assert.ok(events.some((e) => e.type === "notice" && /Refused: the chat is Read only/.test(e.text) && /Edit Roadmap\.md/.test(e.text)));
		} finally {
			await plugin.updateSettings({ permissionMode: "askEveryChange" });
		}
	});

	it("closing a session ends the processes the agent started, not only the agent", async () => {
		const own = await plugin.codingAgents.start(profile);
		const { said } = await turn("spawn", () => {}, own);
		const child = Number(/^Child: (\d+)$/.exec(said)?.[1]);
		assert.ok(isAlive(child), "the agent's child runs");
		plugin.codingAgents.end(own);
		await until(() => !isAlive(own.pid) && !isAlive(child), "the agent and its child to end");
	});
});

describe("a coding agent's child processes end with the plugin and on Restart", () => {
	it("unload ends the agent's children", async () => {
		const vault = copySampleVault();
		try {
			useEmulator(vault);
			const { plugin } = await loadPlugin(vault, { data: agentData() });
			const session = await plugin.codingAgents.start(plugin.codingAgents.profileFor("agent:custom"));
			const events = [];
			await session.prompt("spawn", (event) => events.push(event));
			const child = Number(/Child: (\d+)/.exec(events.filter((e) => e.type === "textDelta").map((e) => e.text).join(""))?.[1]);
			assert.ok(isAlive(child));
			plugin.unload();
			await until(() => !isAlive(session.pid) && !isAlive(child), "the agent and its child to end");
		} finally {
			removeVault(vault);
		}
	});

	it("Restart after a crash ends what the crashed agent left running, and starts it again", async () => {
		const vault = copySampleVault();
		let plugin;
		try {
			useEmulator(vault);
			({ plugin } = await loadPlugin(vault, { data: { ...agentData(), acpAgents: { ...agentData().acpAgents, selected: "agent:custom" } } }));
			const view = await plugin.openChat();
			view.inputEl.value = "spawn-crash";
			await view.send();
			await settle(10);
			const text = view.contentEl.querySelector(".vault-agent-messages").textContent;
			const child = Number(/Child: (\d+)/.exec(text)?.[1]);
			assert.ok(child > 0, text);
			assert.ok(isAlive(child), "the crashed agent's child is still running");
			const restart = view.contentEl.querySelector(".vault-agent-banner.is-crash .vault-agent-banner-retry");
			assert.ok(restart, "the crash banner offers Restart");
			restart.click();
			await until(() => !isAlive(child), "the crashed agent's child to end");
			await until(() => plugin.codingAgents.running().length === 1, "the agent to start again");
			await settle();
		} finally {
			plugin?.unload();
			removeVault(vault);
		}
	});
});
