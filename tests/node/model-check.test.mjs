// "Check this model" through the BUILT main.js against real model servers
// on localhost (tests/support/check-servers.mjs), each behaving like one kind
// of model: each gets the verdict and the advice it should, the one-click
// fixes change the profile, the check keeps within its bound when a server
// hangs, Stop ends it, and nothing from the vault is ever sent. The settings
// tab's button, the palette command and `vault-agent:check` all run it.
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { after, before, describe, it } from "node:test";
import { clickButton, closeSettings, copySampleVault, emulator, findSetting, loadPlugin, openSettingTab, removeVault, runCommand, until } from "../support/harness.mjs";
import { startCheckServer, unusedAddress } from "../support/check-servers.mjs";

/** Every note name and folder of the vault: none may appear in what the check sends. */
function vaultWords(vault) {
	const words = [];
	const walk = (dir) => {
		for (const entry of readdirSync(dir, { withFileTypes: true })) {
			if (entry.name.startsWith(".")) continue;
			const path = join(dir, entry.name);
			words.push(relative(vault, path), entry.name.replace(/\.md$/, ""));
			if (entry.isDirectory()) walk(path);
		}
	};
	walk(vault);
	return [...new Set(words)].filter((w) => w.length > 3);
}

const row = (report, probe) => report.rows.find((r) => r.probe === probe);

describe("Check this model, through the built main.js", () => {
	let vault;
	let plugin;
	let app;
	const servers = [];

	before(async () => {
		vault = copySampleVault();
		({ plugin, app } = await loadPlugin(vault, { data: { cliPath: emulator, vaultName: "Sample Vault" } }));
	});
	after(async () => {
		plugin.unload();
		await Promise.all(servers.map((s) => s.close()));
		removeVault(vault);
	});

	/** Points the profile in use at `baseUrl`, with `fields` on top. */
	async function useProfile(baseUrl, fields = {}) {
		const chat = plugin.core.settings().chat;
		const profile = { id: "p", name: "Checked", provider: "openAi", baseUrl: `${baseUrl}/v1`, model: "check-model", apiKeySecret: "", contextWindow: 0, textToolCalls: false, instructions: "", images: false, pdfDocuments: false, ...fields };
		await plugin.updateSettings({ chat: { ...chat, activeProfile: "p", profiles: [profile] } });
	}

	async function persona(name, options) {
		const server = await startCheckServer(name, options);
		servers.push(server);
		return server;
	}

	async function check() {
		const lines = [];
		const report = await plugin.core.checkModel((line) => lines.push(line));
		return { report, lines };
	}

	/** The check as the plugin's doors run it (`vault-agent:check`): its record is kept with the profile. */
	async function checkAndKeep(params = {}) {
		const cli = app.cli__.get("vault-agent:check");
		assert.ok(cli, "vault-agent:check is registered");
		return cli.handler(params);
	}

	const profile = () => plugin.core.settings().chat.profiles.find((p) => p.id === "p");

	it("a model that does everything right passes every probe, and nothing of the vault is sent", async () => {
		const server = await persona("good");
		await useProfile(server.url, { images: true });
		assert.match(plugin.core.modelCheckHint(), /has not been checked/);
		const { report, lines } = await check();
		const failed = report.rows.filter((r) => r.status === "failed");
		assert.deepEqual(failed, [], report.text);
		for (const probe of ["reachable", "key", "listed", "streaming", "speed", "fits", "toolCall", "usesAnswer", "stops", "images"]) {
			assert.equal(row(report, probe).status, "passed", `${probe}: ${report.text}`);
		}
		assert.match(row(report, "speed").figure, /tokens\/s out, \d+ tokens\/s reading/);
		assert.deepEqual(report.advice, ["This model does everything Vault Agent needs."]);
		assert.ok(lines.includes("Asking for a tool call…") && lines.includes("Showing the model a small picture…"), lines.join(" | "));
		// The made-up tool's word came back in the answer: it is in a request, then the model repeated it.
		const toolAnswer = server.bodies.map((b) => b.body).find((b) => b.includes('"role":"tool"'));
		assert.ok(toolAnswer, "the tool's answer was sent back");
		// Nothing of the user's: no note name, no folder, no vault path, no chat prompt.
		const sent = server.bodies.map((b) => b.body).join("\n");
		for (const word of vaultWords(vault)) assert.ok(!sent.includes(word), `the check sent "${word}" from the vault`);
		assert.ok(!sent.includes(vault));
		assert.ok(!sent.includes("obsidian"), "none of Vault Agent's own tools or prompt is sent");
		// Every request went through the engine's connection log.
		const logged = plugin.core.connectionLog().filter((e) => e.purpose === "model check");
		assert.equal(logged.length, server.bodies.length);
		// Kept with the profile by the doors: the chat's empty state has nothing to say.
		assert.equal(profile().lastCheck, undefined, "the core alone keeps nothing");
		assert.match(await checkAndKeep(), /This model does everything Vault Agent needs\./);
		assert.equal(profile().lastCheck.tools, true);
		assert.equal(profile().lastCheck.model, "check-model");
		assert.equal(plugin.core.modelCheckHint(), undefined, "nothing to say of a model that passed");
	});

	it("a model that ignores tools is told so, with the text-form fix, from the settings tab", async () => {
		const server = await persona("ignores");
		await useProfile(server.url);
		const tab = openSettingTab(plugin);
		try {
			const setting = findSetting(tab, "Check this model");
			clickButton(setting, "Check this model");
			const table = await until(() => setting.querySelector(".vault-agent-model-check-table"), Boolean, 30_000);
			assert.ok(table, "the table is drawn");
			const advice = Array.from(setting.querySelectorAll(".vault-agent-model-check-advice")).map((p) => p.textContent);
			assert.match(advice[0], /^This model does not call tools\. Turn on text-form tool calls \(one click\), or pick a model that calls tools/);
			assert.equal(profile().lastCheck.tools, false);
			assert.match(plugin.core.modelCheckHint(), /tool calls do not work\. This model does not call tools/);
			clickButton(setting, "Turn on text-form tool calls");
			await until(() => profile().textToolCalls, Boolean);
			assert.equal(profile().textToolCalls, true);
		} finally {
			closeSettings(app);
		}
	});

	it("a Hermes <tool_call> text model is told that text-form calls work; with them on it passes", async () => {
		const server = await persona("hermes");
		await useProfile(server.url);
		const { report } = await check();
		assert.equal(row(report, "toolCall").status, "failed");
		assert.equal(row(report, "textForm").status, "passed");
		assert.match(row(report, "textForm").figure, /<tool_call> tags/);
		assert.match(report.advice[0], /Text-form calls work: turn them on \(one click\)/);
		assert.deepEqual(report.fixes.map((f) => f.patch), [{ textToolCalls: true }]);
		await useProfile(server.url, { textToolCalls: true });
		const again = (await check()).report;
		assert.equal(row(again, "usesAnswer").status, "passed", again.text);
		assert.deepEqual(again.fixes, []);
		await checkAndKeep();
		assert.equal(profile().lastCheck.tools, true);
		assert.equal(plugin.core.modelCheckHint(), undefined, "nothing to say of a model that passed");
	});

	it("a model that keeps calling the tool gets the loop verdict", async () => {
		const server = await persona("loops");
		await useProfile(server.url);
		const { report } = await check();
		assert.equal(row(report, "toolCall").status, "passed");
		assert.equal(row(report, "stops").status, "failed");
		assert.ok(report.advice.some((a) => /kept calling the tool after it had the answer/.test(a)), report.text);
	});

	it("a 4096 window under a profile set larger gets the window verdict and its fix", async () => {
		const server = await persona("good", { window: 4096 });
		await useProfile(server.url, { contextWindow: 32768 });
		const { report } = await check();
		assert.equal(row(report, "window").status, "failed");
		assert.match(row(report, "window").figure, /4096; the profile is set to 32768/);
		assert.match(report.advice[0], /runs this model with 4096/);
		assert.deepEqual(report.fixes[0].patch, { contextWindow: 4096 });
	});

	it("an address where nothing listens, and a refused key, get plain verdicts", async () => {
		const nowhere = await unusedAddress();
		await useProfile(nowhere);
		const unreachable = (await check()).report;
		assert.equal(row(unreachable, "reachable").status, "failed");
		assert.match(unreachable.advice[0], /^Vault Agent cannot reach the server at http:\/\/127\.0\.0\.1:\d+\/v1\./);
		assert.ok(unreachable.rows.every((r) => r.status !== "passed"));

		const server = await persona("good", { key: "right-key" });
		await useProfile(server.url, { apiKeySecret: "check-key" });
		plugin.app.secretStorage.setSecret("check-key", "wrong-key");
		const refused = (await check()).report;
		assert.equal(row(refused, "key").status, "failed");
		assert.match(refused.advice[0], /refused the API key \(401\)/);
		assert.ok(!refused.text.includes("wrong-key"), "the key is never shown");
	});

	it("stops within its bound when the server hangs", async () => {
		const server = await persona("hang");
		await useProfile(server.url);
		const started = Date.now();
		const { report } = await check();
		const took = Date.now() - started;
		assert.ok(took < 62_000, `took ${took} ms`);
		assert.equal(row(report, "streaming").status, "failed");
		assert.match(row(report, "streaming").figure, /no answer within 20 s/);
		assert.match(report.advice[0], /sent nothing within 20 s/);
		assert.equal(row(report, "toolCall").status, "notApplicable");
	});

	it("Stop in the settings tab ends a check at once", async () => {
		const server = await persona("hang");
		await useProfile(server.url);
		const kept = profile().lastCheck;
		const tab = openSettingTab(plugin);
		try {
			const setting = findSetting(tab, "Check this model");
			clickButton(setting, "Check this model");
			await until(() => setting.querySelector(".vault-agent-model-check-progress")?.textContent, (t) => t === "Streaming a short answer…");
			const stoppedAt = Date.now();
			clickButton(setting, "Stop");
			const line = await until(() => setting.querySelector(".vault-agent-model-check-progress")?.textContent, (t) => /stopped/.test(t ?? ""), 5_000);
			assert.match(line, /\(stopped\)/);
			assert.ok(Date.now() - stoppedAt < 3_000);
			assert.match(setting.textContent, /The check was stopped/);
			// A stopped check keeps nothing.
			assert.deepEqual(profile().lastCheck, kept);
		} finally {
			closeSettings(app);
		}
	});

	it("the palette command and vault-agent:check run the same check", async () => {
		const server = await persona("ignores");
		await useProfile(server.url);
		assert.ok(await runCommand(app, "check-model"));
		const modal = await until(() => document.querySelector(".modal .vault-agent-model-check-table"), Boolean, 30_000);
		assert.ok(modal, "the palette's modal shows the table");
		document.querySelector(".modal .modal-close-button")?.click();
		const printed = await checkAndKeep();
		assert.match(printed, /FAILED  Calls a tool: answered without calling it/);
		assert.match(printed, /Fix: Turn on text-form tool calls/);
		const fixed = await checkAndKeep({ fix: "true" });
		assert.match(fixed, /Applied: Turn on text-form tool calls/);
		assert.equal(profile().textToolCalls, true);
	});
});
