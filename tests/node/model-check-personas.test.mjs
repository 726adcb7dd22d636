// The model check against the task benchmark's personas
// (tests/support/model-personas.mjs): the same scripted servers that the
// benchmark is tested with, each behaving like one documented model family,
// must get the verdict and the advice they should from "Check this model",
// through the BUILT main.js. (model-check.test.mjs covers the check's own
// bounds, Stop, keys and doors against servers of its own.)
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { copySampleVault, emulator, loadPlugin, removeVault } from "../support/harness.mjs";
import { startPersona } from "../support/model-personas.mjs";

/** What a careful model does with each probe: the calls, then the answer from the tool's words. */
const PROBE_SCRIPTS = {
	"Count from one to twenty": [{ answer: () => "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty" }],
	"Call the get_secret_word tool": [{ calls: [["get_secret_word", {}]] }, { answer: (results) => results.at(-1) ?? "" }],
};

const row = (report, probe) => report.rows.find((r) => r.probe === probe);
const failedProbes = (report) => report.rows.filter((r) => r.status === "failed").map((r) => r.probe);

describe("Check this model against the benchmark's personas (the built main.js)", () => {
	let vault;
	let plugin;
	const servers = [];
	before(async () => {
		vault = copySampleVault();
		({ plugin } = await loadPlugin(vault, { data: { cliPath: emulator } }));
	});
	after(async () => {
		plugin.unload();
		await Promise.all(servers.map((s) => s.close()));
		removeVault(vault);
	});

	async function check(persona, fields = {}, options = {}) {
		const server = await startPersona(persona, { scripts: PROBE_SCRIPTS, ...options });
		servers.push(server);
		const chat = plugin.core.settings().chat;
		const anthropic = server.provider === "anthropic";
		if (anthropic) plugin.app.secretStorage.setSecret("persona-key", "persona-key-value");
		const profile = { id: "p", name: persona, provider: anthropic ? "anthropic" : "openAi", baseUrl: server.url, model: server.model, apiKeySecret: anthropic ? "persona-key" : "", contextWindow: 0, textToolCalls: false, instructions: "", images: false, pdfDocuments: false, ...fields };
		await plugin.updateSettings({ chat: { ...chat, activeProfile: "p", profiles: [profile] } });
		return plugin.core.checkModel(() => {});
	}

	it("native OpenAI tool calls pass every probe", async () => {
		const report = await check("perfect");
		assert.deepEqual(failedProbes(report), [], report.text);
		for (const probe of ["reachable", "listed", "streaming", "toolCall", "usesAnswer", "stops"]) assert.equal(row(report, probe).status, "passed", `${probe}: ${report.text}`);
		assert.deepEqual(report.advice, ["This model does everything Vault Agent needs."]);
		assert.deepEqual(report.fixes, []);
	});

	it("Anthropic tool_use passes every probe", async () => {
		const report = await check("anthropic");
		assert.deepEqual(failedProbes(report), [], report.text);
		assert.equal(row(report, "usesAnswer").status, "passed", report.text);
		assert.deepEqual(report.advice, ["This model does everything Vault Agent needs."]);
	});

	it("Hermes-style <tool_call> text: text-form calls work, with the one-click fix; with them on it passes", async () => {
		const report = await check("hermes");
		assert.equal(row(report, "toolCall").status, "failed", report.text);
		assert.equal(row(report, "textForm").status, "passed", report.text);
		assert.match(report.advice[0], /Text-form calls work: turn them on \(one click\)/);
		assert.deepEqual(report.fixes.map((f) => f.patch), [{ textToolCalls: true }]);
		// With them on, native calls still fail (the table says so) but the chat runs the written ones.
		const again = await check("hermes", { textToolCalls: true });
		assert.deepEqual(failedProbes(again), ["toolCall", "toolChoice"], again.text);
		assert.equal(row(again, "usesAnswer").status, "passed", again.text);
		assert.match(again.advice[0], /text-form tool calls are on for this profile: the chat runs them/);
		assert.deepEqual(again.fixes, []);
	});

	it("a bare JSON call in the content (Llama 3.x): named, and read once text-form calls are on", async () => {
		const report = await check("json");
		assert.equal(row(report, "toolCall").status, "failed", report.text);
		assert.equal(row(report, "textForm").status, "passed", report.text);
		assert.deepEqual(report.fixes.map((f) => f.patch), [{ textToolCalls: true }]);
		// With them on, native calls still fail (the table says so) but the chat runs the written ones.
		const again = await check("json", { textToolCalls: true });
		assert.deepEqual(failedProbes(again), ["toolCall", "toolChoice"], again.text);
		assert.equal(row(again, "usesAnswer").status, "passed", again.text);
		assert.match(again.advice[0], /text-form tool calls are on for this profile: the chat runs them/);
		assert.deepEqual(again.fixes, []);
	});

	it("a model that ignores tools is told it does not call tools, with both ways out", async () => {
		const report = await check("ignores-tools");
		assert.equal(row(report, "toolCall").status, "failed");
		assert.match(report.advice[0], /^This model does not call tools\. Turn on text-form tool calls \(one click\), or pick a model that calls tools/);
	});

	it("a model that repeats its call gets the loop verdict", async () => {
		const report = await check("repeater");
		assert.equal(row(report, "toolCall").status, "passed", report.text);
		assert.equal(row(report, "stops").status, "failed", report.text);
		assert.ok(report.advice.some((a) => /kept calling the tool after it had the answer/.test(a)), report.text);
	});

	it("a 4 096-token window under a profile set to 32 768 gets the window verdict and the fix", async () => {
		const report = await check("small-window", { contextWindow: 32768 });
		assert.equal(row(report, "window").status, "failed", report.text);
		assert.match(row(report, "window").figure, /4096; the profile is set to 32768/);
		assert.deepEqual(report.fixes[0].patch, { contextWindow: 4096 });
	});
});
