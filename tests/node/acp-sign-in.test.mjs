// A coding agent that asks for a sign-in, through the BUILT main.js: the
// scripted agent signs in as Gemini CLI does in ACP mode in 2026 (no session
// until a method is chosen; personal Google accounts refused), run as a real
// process. The plugin signs in with the API key the user gave it, never with
// Google's login, and says what to do when it has none or the key is refused.
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { copySampleVault, emulator, loadPlugin, removeVault, root, useEmulator } from "../support/harness.mjs";

const SCRIPT = join(root, "tests/support/acp-agent.mjs");

describe("a coding agent that asks for a sign-in (Gemini CLI's way)", () => {
	let vault;
	let plugin;
	const logFile = join(tmpdir(), `acp-sign-in-${process.pid}.log`);
	const saved = process.env.GEMINI_API_KEY;
	const requests = () =>
		readFileSync(logFile, "utf8")
			.split("\n")
			.filter(Boolean)
			.map((line) => JSON.parse(line));

	before(async () => {
		delete process.env.GEMINI_API_KEY;
		process.env.ACP_AGENT_SIGN_IN = "gemini";
		process.env.ACP_AGENT_LOG = logFile;
		vault = copySampleVault();
		({ plugin } = await loadPlugin(vault, {
			data: { cliPath: emulator, vaultName: "Sample Vault", acpAgents: { gemini: { command: process.execPath, args: [SCRIPT], envSecrets: { GEMINI_API_KEY: "gemini-key" } } } },
		}));
		useEmulator(vault);
	});
	after(async () => {
		delete process.env.ACP_AGENT_SIGN_IN;
		delete process.env.ACP_AGENT_LOG;
		if (saved !== undefined) process.env.GEMINI_API_KEY = saved;
		await plugin.codingAgents.dispose();
		plugin.unload();
		removeVault(vault);
		rmSync(logFile, { force: true });
	});

	it("without a key: no session, and the chat says where to put one and why", async () => {
		rmSync(logFile, { force: true });
		const profile = plugin.codingAgents.profileFor("agent:gemini");
		await assert.rejects(plugin.codingAgents.start(profile), (error) => {
			assert.match(error.message, /GEMINI_API_KEY/);
			assert.match(error.message, /Settings → Vault Agent → Coding agents/);
			assert.match(error.message, /18 June 2026/);
			return true;
		});
		const methods = requests().map((r) => r.method);
		assert.ok(methods.includes("session/new"), methods.join(", "));
		assert.ok(!methods.includes("authenticate"), "nothing to sign in with: no authenticate sent (it would clear the agent's own sign-in)");
		assert.equal(plugin.codingAgents.running().length, 0, "the agent that could not open a session was ended");
	});

	it("with the key in secret storage: signs in with the key method, then the turn runs", async () => {
		rmSync(logFile, { force: true });
		plugin.app.secretStorage.setSecret("gemini-key", "AIza-test");
		const profile = plugin.codingAgents.profileFor("agent:gemini");
		const session = await plugin.codingAgents.start(profile);
		const auth = requests().filter((r) => r.method === "authenticate");
		assert.deepEqual(
			auth.map((r) => r.params.methodId),
			["gemini-api-key"],
			"one authenticate, with the key method, never Google's login",
		);
		const said = [];
		const stop = await session.prompt("stream", (event) => event.type === "textDelta" && said.push(event.text));
		assert.equal(stop, "end_turn");
		assert.ok(said.join("").length > 0, "the signed-in agent answered");
		plugin.codingAgents.end(session);
	});

	it("a key the agent refuses: one try, and its words with the way out", async () => {
		rmSync(logFile, { force: true });
		plugin.app.secretStorage.setSecret("gemini-key", "rejected");
		const profile = plugin.codingAgents.profileFor("agent:gemini");
		await assert.rejects(plugin.codingAgents.start(profile), (error) => {
			assert.match(error.message, /did not accept its API key \(API key not valid/);
			assert.match(error.message, /aistudio\.google\.com\/apikey/);
			return true;
		});
		assert.equal(requests().filter((r) => r.method === "authenticate").length, 1, "tried once");
	});
});
