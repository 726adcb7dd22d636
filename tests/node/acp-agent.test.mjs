// Coding agents over the Agent Client Protocol, through the BUILT main.js:
// a scripted agent (tests/support/acp-agent.mjs, written with the official
// SDK) runs as a real process; its MCP calls reach the plugin's listener over
// real HTTP; its file reads and writes become our tools and cards; the CLI
// emulator stands in for Obsidian's CLI over a copy of the sample vault.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { copySampleVault, emulator, isAlive, loadPlugin, readLog, removeVault, root, useEmulator } from "../support/harness.mjs";

const SCRIPT = join(root, "tests/support/acp-agent.mjs");
const SKILL = "Notes/Skills/weekly-review/SKILL.md";

async function until(check, what, ms = 10000) {
	const end = Date.now() + ms;
	while (Date.now() < end) {
		if (await check()) return;
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
	assert.fail(`timed out waiting for ${what}`);
}

describe("a coding agent over ACP in the chat", () => {
	let vault;
	let plugin;
	let profile;
	let session;
	// Outside the vault, so removing the vault never races an agent still writing it.
	const logFile = join(tmpdir(), `acp-agent-${process.pid}.log`);
	const agentLog = () => logFile;

	/** One turn; `onEvent` may answer cards and questions as they come. */
	async function turn(text, onEvent = () => {}, on = session) {
		const events = [];
		const stop = await on.prompt(text, (event) => {
			events.push(event);
			onEvent(event, on);
		});
		const said = events.filter((e) => e.type === "textDelta").map((e) => e.text).join("");
		return { stop, events, said };
	}

	before(async () => {
		vault = copySampleVault();
		mkdirSync(join(vault, "Notes/Skills/weekly-review"), { recursive: true });
		writeFileSync(join(vault, SKILL), "---\nname: weekly-review\ndescription: How the user runs a weekly review. Use when asked to review the week.\n---\nStep one.\n");
		({ plugin } = await loadPlugin(vault, {
			data: { cliPath: emulator, vaultName: "Sample Vault", permissionMode: "askEveryChange", readFolders: ["Projects", "Daily", "People", "Welcome.md", "Notes"], chat: { skillsFolder: "Notes/Skills" }, acpAgents: { custom: { command: process.execPath, args: [SCRIPT] } } },
		}));
		process.env.ACP_AGENT_LOG = agentLog();
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

	it("lists the agents with their commands and install hints", () => {
		const names = plugin.codingAgents.profiles().map((p) => p.name);
		assert.deepEqual(names, ["Claude Code", "Codex", "Gemini CLI", "Custom agent"]);
		assert.equal(profile.command, process.execPath, "the user's command replaces the empty custom one");
	});

	it("Test starts the agent and reports its name, version and capabilities, then ends it", async () => {
		const report = await plugin.codingAgents.test(profile);
		assert.equal(report.ok, true, report.message);
		assert.equal(report.facts.name, "Scripted agent");
		assert.equal(report.facts.version, "9.9.9");
		assert.equal(report.facts.mcpHttp, true);
		assert.equal(report.facts.loadSession, true);
		assert.equal(plugin.codingAgents.running().length, 1, "only the chat's session keeps running");
	});

	it("a missing binary says so, with the install command", async () => {
		const claude = { ...plugin.codingAgents.profileFor("agent:claude-code"), command: "vault-agent-no-such-agent" };
		const report = await plugin.codingAgents.test(claude);
		assert.equal(report.ok, false);
		assert.match(report.message, /"vault-agent-no-such-agent" was not found on PATH/);
		assert.match(report.message, /npm install -g @zed-industries\/claude-agent-acp/);
	});

	it("advertises file reads and writes but no terminal, and hands the session our MCP server with its own token", () => {
		const lines = readFileSync(agentLog(), "utf8").trim().split("\n").map((l) => JSON.parse(l));
		const init = lines.find((l) => l.method === "initialize").params;
		assert.deepEqual(init.clientCapabilities.fs, { readTextFile: true, writeTextFile: true });
		assert.equal(init.clientCapabilities.terminal, false);
		const created = lines.find((l) => l.method === "session/new").params;
		assert.equal(created.cwd, vault);
		const [server] = created.mcpServers;
		assert.equal(server.type, "http");
		assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
		const token = server.headers.find((h) => h.name === "Authorization").value;
		assert.match(token, /^Bearer [0-9a-f]{64}$/);
		assert.notEqual(token, `Bearer ${plugin.agents.token()}`, "not the MCP server's own token");
	});

	it("streams text, folded thoughts and the plan into the chat's events", async () => {
		const { stop, events, said } = await turn("stream");
		assert.equal(stop, "end_turn");
		assert.equal(said, "Hello from the scripted agent.");
		assert.equal(events[0].type, "modelRound");
		assert.equal(events.find((e) => e.type === "reasoningDelta").text, "Let me think about the vault.");
		assert.deepEqual(events.find((e) => e.type === "plan").entries, [{ content: "Read the note", status: "in_progress" }]);
		assert.equal(events.find((e) => e.type === "assistantMessage").text, said);
		assert.deepEqual(events.find((e) => e.type === "agentUsage"), { type: "agentUsage", used: 1200, size: 200000 });
		assert.deepEqual(events.at(-1), { type: "turnEnded", end: "done" });
		assert.deepEqual(session.commands, [{ name: "summarise", description: "Summarise a note" }], "slash commands the agent reported");
		assert.equal(session.modes.current, "ask");
	});

	it("hands the vault's skills to the agent before the session's first message, once", async () => {
		await turn("hello");
		const prompts = readFileSync(agentLog(), "utf8").trim().split("\n").map((l) => JSON.parse(l)).filter((l) => l.method === "session/prompt" && l.sessionId === session.sessionId);
		assert.ok(prompts.length >= 2, JSON.stringify(prompts));
		const [first, second] = prompts;
		assert.equal(first.texts.length, 2, "the skills, then the user's message");
		assert.match(first.texts[0], /^Skills: /);
		assert.match(first.texts[0], new RegExp(`- weekly-review: How the user runs a weekly review\\. .*\\(path=${SKILL}\\)`));
		assert.match(first.texts[0], /never permission/);
		assert.equal(first.texts[1], "stream");
		assert.deepEqual(second.texts, ["hello"], "not again in the same session");
	});

	it("calls our tools over MCP under our names, with the read scope", async () => {
		const log = useEmulator(vault);
		const { said, events } = await turn("tool Welcome");
		const enabled = (await plugin.api.listTools()).filter((t) => t.enabled).length;
		assert.match(said, new RegExp(`^Tools: ${enabled}\\. Read: .*# Welcome`, "s"));
		assert.ok(readLog(log).some((e) => e.argv.includes("read")), "the CLI read the note");
		const started = events.find((e) => e.type === "toolStarted");
		assert.equal(started.displayName, "Read a note");
		assert.equal(events.find((e) => e.type === "toolFinished").result.ok, true);
		const outside = await turn("tool Brainstorm");
		assert.match(outside.said, /^Tools: \d+\. Refused: /, "Ideas/ is outside the read scope");
	});

	it("an MCP change waits for our card, named after the agent, under the chat's mode", async () => {
		let card = null;
		const pending = turn("tool-set Projects/Roadmap.md");
		await until(() => (card = plugin.confirmations.currentCard()), "the card");
		assert.equal(card.requester, "Custom agent");
		assert.doesNotMatch(readFileSync(join(vault, "Projects/Roadmap.md"), "utf8"), /status: done/);
		await plugin.confirmations.approve(card);
		const { said } = await pending;
		assert.match(said, /^Set: /);
		assert.match(readFileSync(join(vault, "Projects/Roadmap.md"), "utf8"), /status: done/);
	});

	it("an agent without HTTP MCP gets our server over stdio, through the plugin's bridge, with the same token and mode", async () => {
		process.env.ACP_AGENT_NO_HTTP = "1";
		let stdio;
		try {
			stdio = await plugin.codingAgents.start(profile);
		} finally {
			delete process.env.ACP_AGENT_NO_HTTP;
		}
		try {
			const lines = readFileSync(agentLog(), "utf8").trim().split("\n").map((l) => JSON.parse(l));
			const [server] = lines.filter((l) => l.method === "session/new").at(-1).params.mcpServers;
			assert.equal(server.command, process.execPath);
			assert.ok(!server.args.join(" ").includes("Bearer"), "the token is not in the arguments");
			assert.match(server.env.find((e) => e.name === "VAULT_AGENT_MCP_AUTH").value, /^Bearer [0-9a-f]{64}$/);
			const { said } = await turn("tool Welcome", () => {}, stdio);
			assert.match(said, /^Tools: \d+\. Read: .*# Welcome/s);
			let card = null;
			const pending = turn("tool-set Projects/Roadmap.md", () => {}, stdio);
			await until(() => (card = plugin.confirmations.currentCard()), "the card");
			assert.equal(card.requester, "Custom agent");
			plugin.confirmations.reject(card);
			assert.match((await pending).said, /^Refused: /);
		} finally {
			plugin.codingAgents.end(stdio);
		}
	});

	it("is given the user's MCP servers that never ask, beside ours, and told which others stay behind our cards", async () => {
		plugin.app.secretStorage.setSecret("mcp-free-token", "free-secret");
		await plugin.updateSettings({
			mcpServers: [
				{ id: "free", kind: "stdio", command: process.execPath, args: ["free.mjs"], env: [{ name: "TOKEN", secret: "mcp-free-token" }], trust: "neverAsk" },
				{ id: "careful", kind: "stdio", command: process.execPath, args: ["careful.mjs"], trust: "askUnlessReadOnly" },
				{ id: "picky", kind: "http", url: "http://127.0.0.1:9/mcp", trust: "neverAsk", toolsOff: ["drop"] },
				{ id: "off", kind: "stdio", command: process.execPath, enabled: false, trust: "neverAsk" },
			],
		});
		const given = await plugin.codingAgents.start(profile);
		try {
			const lines = readFileSync(agentLog(), "utf8").trim().split("\n").map((l) => JSON.parse(l));
			const servers = lines.filter((l) => l.method === "session/new").at(-1).params.mcpServers;
			assert.deepEqual(servers.map((s) => s.name), ["vault-agent", "free"], JSON.stringify(servers));
			assert.deepEqual(servers[1], { name: "free", command: process.execPath, args: ["free.mjs"], env: [{ name: "TOKEN", value: "free-secret" }] });
			const { events } = await turn("hello", () => {}, given);
			const notice = events.find((e) => e.type === "notice" && /^Not given to /.test(e.text));
			assert.ok(notice, JSON.stringify(events.filter((e) => e.type === "notice")));
			assert.match(notice.text, /`careful` asks before calls/);
			assert.match(notice.text, /`picky` has tools switched off/);
			assert.doesNotMatch(notice.text, /`off`/, "a server switched off is not mentioned");
		} finally {
			plugin.codingAgents.end(given);
			await plugin.updateSettings({ mcpServers: [] });
		}
	});

	it("a switch to Read only ends an agent that was handed a server, says why, and leaves one handed none running", async () => {
		await plugin.updateSettings({ mcpServers: [{ id: "free", kind: "stdio", command: process.execPath, args: ["free.mjs"], trust: "neverAsk" }] });
		const given = await plugin.codingAgents.start(profile);
		const notices = [];
		given.onNotice = (text) => notices.push(text);
		const pid = given.pid;
		try {
			assert.ok(given.running);
			await plugin.updateSettings({ permissionMode: "readOnly" });
			assert.equal(given.running, false, "the agent that could call `free` itself is ended");
			assert.equal(notices.length, 1, JSON.stringify(notices));
			assert.match(notices[0], /^Custom agent was ended, .*`free` is not given to the agent in Read only/);
			await until(() => !isAlive(pid), "the handed agent's process to end");
			assert.ok(session.running, "the agent handed no server of ours keeps running");
			assert.ok(!plugin.codingAgents.running().includes(given));
		} finally {
			plugin.codingAgents.end(given);
			await plugin.updateSettings({ permissionMode: "askEveryChange", mcpServers: [] });
		}
	});

	it("an agent is ended when a server it was handed starts to ask before calls", async () => {
		const free = { id: "free", kind: "stdio", command: process.execPath, args: ["free.mjs"], trust: "neverAsk" };
		await plugin.updateSettings({ mcpServers: [free] });
		const given = await plugin.codingAgents.start(profile);
		const notices = [];
		given.onNotice = (text) => notices.push(text);
		try {
			await plugin.updateSettings({ readFolders: plugin.core.settings().readFolders });
			assert.ok(given.running, "a change that takes nothing back ends nothing");
			await plugin.updateSettings({ mcpServers: [{ ...free, trust: "askEveryCall" }] });
			assert.equal(given.running, false);
			assert.match(notices.join("\n"), /`free` asks before calls/);
		} finally {
			plugin.codingAgents.end(given);
			await plugin.updateSettings({ mcpServers: [] });
		}
	});

	it("the session's MCP mode follows the chat's at each Send", async () => {
		await plugin.updateSettings({ permissionMode: "readOnly" });
		try {
			const { said } = await turn("tool-set Projects/Roadmap.md");
			assert.match(said, /^Refused: writes_disabled: /);
			assert.equal(plugin.confirmations.currentCard(), null, "no card in Read only");
		} finally {
			await plugin.updateSettings({ permissionMode: "askEveryChange" });
		}
	});

	it("asks the agent's permission questions with its own options; always lasts for the session only", async () => {
		const asked = [];
		const answer = (choice) => (event) => {
			if (event.type !== "permission") return;
			asked.push(event.ask);
			event.ask.answer(choice);
		};
		let result = await turn("permission", answer("once"));
		assert.equal(result.said, "Permission: once");
		assert.deepEqual(asked[0].options.map((o) => o.name), ["Allow once", "Always allow", "Reject"]);
		assert.equal(asked[0].title, "Run the linter");
		result = await turn("permission", answer("always"));
		assert.equal(result.said, "Permission: always");
		result = await turn("permission", answer("no"));
		assert.equal(result.said, "Permission: always", "remembered for this session: not asked again");
		assert.equal(asked.length, 2);
		const other = await plugin.codingAgents.start(profile);
		try {
			result = await turn("permission", answer("no"), other);
			assert.equal(result.said, "Permission: no", "a new session asks again");
			assert.equal(asked.length, 3);
		} finally {
			plugin.codingAgents.end(other);
		}
	});

	it("Read only rejects the agent's own edits at once, even after an always, and tells the user", async () => {
		const asked = [];
		const answer = (choice) => (event) => {
			if (event.type !== "permission") return;
			asked.push(event.ask);
			event.ask.answer(choice);
		};
		let result = await turn("permission-edit", answer("always"));
		assert.equal(result.said, "Permission: always", "asked in Ask before every change");
		await plugin.updateSettings({ permissionMode: "readOnly" });
		try {
			result = await turn("permission-edit", answer("once"));
			assert.equal(result.said, "Permission: no", "the agent's reject option, not the remembered always");
			assert.equal(asked.length, 1, "the user was not asked");
			const notice = result.events.find((e) => e.type === "notice" && /Refused: the chat is Read only/.test(e.text));
			assert.ok(notice, "the chat says what was refused");
			assert.match(notice.text, /Edit Roadmap\.md/);
		} finally {
			await plugin.updateSettings({ permissionMode: "askEveryChange" });
		}
		result = await turn("permission-edit", answer("no"));
		assert.equal(result.said, "Permission: always", "back in an ask mode, the session's always holds again");
		assert.equal(asked.length, 1);
	});

	it("shows the agent's session settings (its model) and changes them with session/set_config_option", async () => {
		const model = session.config.find((o) => o.category === "model");
		assert.ok(model, "the model setting from session/new");
		assert.equal(model.current, "scripted-large");
		assert.deepEqual(model.choices.map((c) => c.name), ["Scripted large", "Scripted small", "Scripted retired"], "groups flattened");
		const brief = session.config.find((o) => o.id === "brief");
		assert.equal(brief.boolean, true);
		assert.deepEqual(brief.choices.map((c) => c.value), ["true", "false"]);
		await session.setConfigOption("model", "scripted-small");
		await session.setConfigOption("brief", "true");
		const lines = readFileSync(agentLog(), "utf8").trim().split("\n").map((l) => JSON.parse(l));
		const sets = lines.filter((l) => l.method === "session/set_config_option").map((l) => l.params);
		assert.deepEqual(sets.slice(-2).map(({ configId, value }) => [configId, value]), [["model", "scripted-small"], ["brief", true]], "a switch is sent as a boolean");
		assert.equal(session.config.find((o) => o.id === "model").current, "scripted-small");
		assert.equal((await turn("model")).said, "Model: scripted-small (brief)");
		await assert.rejects(session.setConfigOption("model", "no-such-model"), /no model/);
		await session.setConfigOption("model", "scripted-large");
		await session.setConfigOption("brief", "false");
		const { events } = await turn("faster");
		const update = events.find((e) => e.type === "config");
		assert.equal(update.options.find((o) => o.id === "model").current, "scripted-small", "an update from the agent reaches the chat");
		assert.equal(session.config.find((o) => o.id === "model").current, "scripted-small");
	});

	it("fs/write_text_file creates a note through our card, journal and Undo", async () => {
		const path = join(vault, "Notes/From agent.md");
		const pending = turn(`write ${path}|Written by the agent.`, (event) => {
			if (event.type === "confirmationNeeded") void plugin.confirmations.approve(event.card);
		});
		const { said, events } = await pending;
		assert.equal(said, `Wrote ${path}`);
		assert.equal(readFileSync(path, "utf8").trim(), "Written by the agent.");
		const finished = events.find((e) => e.type === "toolFinished" && e.tool === "obsidianEdit");
		assert.equal(finished.result.ok, true);
		assert.equal(finished.result.journal?.undoable, true, "the change is in the undo journal");
	});

	it("fs/write_text_file edits a note with the stale check, and Undo restores it", async () => {
		const path = join(vault, "Projects/Launch plan.md");
		const before = readFileSync(path, "utf8");
		let finished = null;
		const { said } = await turn(`write ${path}|Replaced.`, (event) => {
			if (event.type === "confirmationNeeded") {
				assert.match(JSON.stringify(event.card.preview), /Replaced\./);
				void plugin.confirmations.approve(event.card);
			}
			if (event.type === "toolFinished" && event.tool === "obsidianEdit") finished = event;
		});
		assert.equal(said, `Wrote ${path}`);
		assert.equal(readFileSync(path, "utf8").trim(), "Replaced.");
		const undone = await plugin.core.undo(finished.result.journal.entry, null);
		assert.equal(undone.ok, true, undone.text);
		assert.equal(readFileSync(path, "utf8"), before);
	});

	it("fs/write_text_file asks again when the note changed after the card was shown, with the note as it is now", async () => {
		const path = join(vault, "Projects/Roadmap.md");
		const edited = `${readFileSync(path, "utf8")}\n- A line the user typed while the card was open\n`;
		const cards = [];
		let stale = null;
		let finished = null;
		const { said } = await turn(`write ${path}|The agent's version.`, (event) => {
			if (event.type === "confirmationNeeded") {
				cards.push(event.card);
				if (cards.length === 1) {
					// The user edits the note in Obsidian, then clicks Approve on the older card.
					writeFileSync(path, edited);
					plugin.core.forgetReads();
					void plugin.confirmations.approve(event.card).then((result) => (stale = result));
				} else {
					// The new card shows the note as it is now; the user says no this time.
					plugin.confirmations.reject(event.card);
				}
			}
			if (event.type === "toolFinished" && event.tool === "obsidianEdit") finished = event;
		});
		assert.equal(stale.ok, false);
		assert.equal(stale.error.code, "stale", JSON.stringify(stale.error));
		assert.equal(cards.length, 2, "the chat is shown the new card, not left waiting on one it cannot see");
		assert.notEqual(cards[1].id, cards[0].id);
		assert.match(JSON.stringify(cards[1].preview), /A line the user typed while the card was open/);
		assert.equal(finished.result.error.code, "confirmation_rejected");
		assert.match(said, /^Write refused: /, "the agent hears it was refused");
		assert.equal(readFileSync(path, "utf8"), edited, "the user's text stays");
	});

	it("switches the agent's mode with session/set_mode", async () => {
		assert.deepEqual(session.modes.available.map((m) => m.id), ["ask", "code"]);
		await session.setMode("code");
		assert.equal(session.modes.current, "code");
		const lines = readFileSync(agentLog(), "utf8").trim().split("\n").map((l) => JSON.parse(l));
		const set = lines.filter((l) => l.method === "session/set_mode").at(-1);
		assert.deepEqual(set.params, { sessionId: session.sessionId, modeId: "code" });
		await session.setMode("ask");
	});

	it("a rejected write is refused to the agent and changes nothing", async () => {
		const path = join(vault, "Notes/Rejected.md");
		const { said } = await turn(`write ${path}|nope`, (event) => {
			if (event.type === "confirmationNeeded") plugin.confirmations.reject(event.card);
		});
		assert.match(said, /^Write refused: /);
		assert.equal(existsSync(path), false);
	});

	it("fs/read_text_file reads through our notes tool: the read scope and the vault's edge hold", async () => {
		assert.match((await turn(`read ${join(vault, "Welcome.md")}`)).said, /^Read: # Welcome/);
		assert.match((await turn(`read ${join(vault, "Ideas/Brainstorm.md")}`)).said, /^Read refused: .*(folder|scope|read)/i);
		writeFileSync(join(vault, "..", "outside-vault.txt"), "secret");
		assert.match((await turn(`read ${join(vault, "..", "outside-vault.txt")}`)).said, /^Read refused: .*outside the vault/);
	});

	it("Stop sends session/cancel and the turn ends as stopped", async () => {
		const pending = turn("slow", (event, on) => {
			if (event.type === "textDelta") on.cancel();
		});
		const { stop, events } = await pending;
		assert.equal(stop, "cancelled");
		assert.deepEqual(events.at(-1), { type: "turnEnded", end: "stopped" });
		assert.ok(isAlive(session.pid), "a well-behaved agent keeps running");
	});

	it("an agent that ignores the cancel is ended, and nothing is left running", async () => {
		const stubborn = await plugin.codingAgents.start(profile);
		const pid = stubborn.pid;
		const { stop, events } = await turn("ignore-cancel", (event, on) => {
			if (event.type === "textDelta") on.cancel();
		}, stubborn);
		assert.equal(stop, "crashed", JSON.stringify(events.filter((e) => e.type === "error")));
		assert.ok(events.some((e) => e.type === "crashed"));
		await until(() => !isAlive(pid), "the process to end");
		plugin.codingAgents.end(stubborn);
	});

	it("a crash mid-turn shows the agent's stderr tail", async () => {
		const fragile = await plugin.codingAgents.start(profile);
		const pid = fragile.pid;
		const { stop, events, said } = await turn("crash", () => {}, fragile);
		assert.equal(stop, "crashed");
		assert.equal(said, "About to fail");
		assert.match(events.find((e) => e.type === "crashed").stderr, /out of tokens \(simulated crash\)/);
		assert.deepEqual(events.at(-1), { type: "turnEnded", end: "failed" });
		await until(() => !isAlive(pid), "the process to be gone");
		plugin.codingAgents.end(fragile);
	});

	it("resumes a saved session with session/load", async () => {
		const id = session.sessionId;
		const resumed = await plugin.codingAgents.start(profile, id);
		try {
			assert.equal(resumed.sessionId, id);
			const lines = readFileSync(agentLog(), "utf8").trim().split("\n").map((l) => JSON.parse(l));
			assert.equal(lines.filter((l) => l.method === "session/load").at(-1).params.sessionId, id);
			assert.equal((await turn("hello", () => {}, resumed)).said, "Echo: hello");
		} finally {
			plugin.codingAgents.end(resumed);
		}
	});

	it("Export to note writes the chat as Markdown with frontmatter through our create and its card", async () => {
		const conversation = {
			...plugin.core.newConversation(),
			title: "Agent chat",
			messages: [
				{ role: "user", text: "stream" },
				{ role: "assistant", text: "Hello from the scripted agent.", toolCalls: [] },
			],
			agent: { profile: "custom", name: "Scripted agent", sessionId: session.sessionId },
		};
		// A new note by name goes to the vault's root, which the read scope above leaves out.
		const readFolders = plugin.core.settings().readFolders;
		await plugin.updateSettings({ readFolders: [] });
		const exported = plugin.exportConversation(conversation);
		let card = null;
		await until(() => (card = plugin.confirmations.currentCard()), "the create card");
		assert.equal(card.requester, "Export to note");
		await plugin.confirmations.approve(card);
		const result = await exported;
		assert.equal(result.ok, true, result.text);
		const created = /^Created: (.+?)(\.md)?$/m.exec(result.text)?.[1] + ".md";
		assert.ok(existsSync(join(vault, created)), `${result.text} ${JSON.stringify(result.argv)} ${JSON.stringify(result.journal)}`);
		const text = readFileSync(join(vault, created), "utf8");
		assert.match(text, /^---\ntitle: "Agent chat"\ncreated: .*\nsource: Vault Agent chat\nagent: "Scripted agent"\n---\n/);
		assert.match(text, /## You\n\nstream\n\n## Scripted agent\n\nHello from the scripted agent\./);
		assert.equal(result.journal?.undoable, true);
		await plugin.updateSettings({ readFolders });
	});

	it("unload ends every agent process and its MCP token", async () => {
		const pids = plugin.codingAgents.running().map((s) => s.pid);
		assert.ok(pids.length >= 1);
		await plugin.codingAgents.dispose();
		await until(() => pids.every((pid) => !isAlive(pid)), "every agent to end");
	});
});
