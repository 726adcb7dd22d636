// Settings → Vault Agent, rendered in Chromium from the built main.js, with
// the CLI emulator standing in for the obsidian binary. Real mouse clicks on
// the switches; the plugin's saved data is read back from its saveData calls.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startBrowserPlugin } from "../support/browser.mjs";
import { emulator, emulatorEnv, emulatorVersion } from "../support/harness.mjs";
import { startModelServer } from "../support/model-servers.mjs";

describe("settings tab in Chromium", () => {
	let session;
	let page;
	let tab;

	before(async () => {
		session = await startBrowserPlugin({
			data: { cliPath: emulator },
			// The processes the plugin runs (on the Node side) see the emulator's variables.
			env: (vault) => emulatorEnv(vault),
		});
		({ page } = session);
		await session.openSettings();
		tab = page.locator(".modal.mod-settings .vertical-tab-content.vault-agent-settings");
	});

	after(async () => {
		await session?.close();
	});

	it("opens as Settings → Vault Agent, in Obsidian's settings structure", async () => {
		await assert.doesNotReject(tab.waitFor({ state: "visible", timeout: 5000 }));
		assert.equal(await page.locator(".modal-container.mod-dim").count(), 1, "one settings window on body");
		assert.equal(await page.locator(".vertical-tab-nav-item.is-active").textContent(), "Vault Agent");
		const headings = await tab.locator(".setting-item.setting-item-heading .setting-item-name").allTextContents();
		// Sections may be added between these; these five come in this order.
		const known = headings.filter((h) => ["Model", "Safety", "Tools", "Agents", "Coding agents", "Advanced"].includes(h));
		assert.deepEqual(known, ["Model", "Safety", "Tools", "Agents", "Coding agents", "Advanced"], `headings: ${headings.join(", ")}`);
		assert.equal(headings[0], "Model", "the model comes first");
		// The command line interface is under Advanced, with the limits after it.
		const names = await tab.locator(".setting-item .setting-item-name").allTextContents();
		const at = (name) => names.indexOf(name);
		assert.ok(at("Advanced") < at("Path to the Obsidian CLI") && at("Path to the Obsidian CLI") < at("Timeout (seconds)"), names.join(", "));
		assert.ok(at("Tools") < at("Advanced") && at("Advanced") < at("Wait for the first token (seconds)") && at("Wait for the first token (seconds)") < at("Wait between tokens (seconds)"), names.join(", "));
		assert.ok(at("Safety") < at("Folders the agent may read") && at("Folders the agent may change") < at("Tools"), names.join(", "));
	});

	it("shows the CLI in use: the configured emulator and its version", async () => {
		const status = tab.locator(".setting-item.vault-agent-cli-status");
		const found = status.locator(".vault-agent-cli-found");
		// The status is filled in asynchronously (discovery + `obsidian version`).
		await found.waitFor({ state: "visible", timeout: 10_000 });
		assert.equal(await found.textContent(), `Found: ${emulator}`);
		const description = await status.locator(".setting-item-description").innerText();
		assert.match(description, new RegExp(`Version: ${emulatorVersion().replace(/[.()]/g, "\\$&")}`));
		assert.equal(await status.locator(".vault-agent-cli-missing").count(), 0, "no error line");
	});

	it("turning one tool off saves it and turns the 'All tools' switch off", async () => {
		const allTools = tab.locator(".setting-item.vault-agent-all-tools .checkbox-container");
		const tool = tab.locator('.setting-item.vault-agent-tool[data-tool-id="obsidianRandomRead"] .checkbox-container');
		assert.equal(await allTools.evaluate((el) => el.classList.contains("is-enabled")), true, "all tools start on");
		assert.equal(await tool.evaluate((el) => el.classList.contains("is-enabled")), true, "the tool starts on");

		const saves = await session.saveCount();
		await tool.click();
		const saved = await session.waitForSave(saves);
		assert.equal(saved.tools?.obsidianRandomRead, false, `saved: ${JSON.stringify(saved)}`);
		assert.equal(saved.cliPath, emulator, "the other settings are kept");
		assert.equal(await tool.evaluate((el) => el.classList.contains("is-enabled")), false, "the tool's switch is off");
		assert.equal(await tool.locator("input[type=checkbox]").isChecked(), false);
		assert.equal(await allTools.evaluate((el) => el.classList.contains("is-enabled")), false, "'All tools' turned off");
		assert.equal(await session.saveCount(), saves + 1, "one click, one save (moving 'All tools' does not save again)");
		const enabled = await page.evaluate(async () => (await window.__harness.plugin.api.listTools()).find((t) => t.id === "obsidianRandomRead").enabled);
		assert.equal(enabled, false, "the core has the tool off");
	});

	it("'Vault changes' offers the three modes, each described, and saves the one picked", async () => {
		const setting = tab.locator(".setting-item.vault-agent-permission-mode-setting");
		assert.equal(await setting.locator(".setting-item-name").textContent(), "Vault changes");
		const select = setting.locator("select");
		assert.deepEqual(await select.locator("option").allTextContents(), ["Read only", "Ask before every change", "Ask before edits"]);
		assert.equal(await select.inputValue(), "readOnly", "Read only by default");
		const described = await setting.locator(".vault-agent-permission-modes li strong").allTextContents();
		assert.deepEqual(described, ["Read only", "Ask before every change", "Ask before edits"], "each mode is explained");
		const saves = await session.saveCount();
		await select.selectOption({ label: "Ask before every change" });
		const saved = await session.waitForSave(saves);
		assert.equal(saved.permissionMode, "askEveryChange", `saved: ${JSON.stringify(saved)}`);
		assert.equal("allowVaultChanges" in saved, false, "the old switch is not saved");
		assert.equal(saved.tools?.obsidianRandomRead, false, "the earlier change is kept");
		assert.equal(await page.evaluate(() => window.__harness.plugin.core.settings().permissionMode), "askEveryChange");
		assert.equal(await select.inputValue(), "askEveryChange");
	});

	it("the provider dropdown shows the preset of the profile in use", async () => {
		const provider = tab.locator(".setting-item.vault-agent-provider select");
		assert.equal(await provider.inputValue(), "ollama");
		assert.equal(await provider.locator("option:checked").textContent(), "Ollama (local)");
		assert.deepEqual(await tab.locator(".setting-item.vault-agent-profile select option").allTextContents(), ["Ollama (local)"]);
	});

	it("a preset fills a new profile, in use at once; the first one stays", async () => {
		const saves = await session.saveCount();
		await tab.locator(".setting-item.vault-agent-provider select").selectOption({ label: "Anthropic" });
		const saved = await session.waitForSave(saves);
		assert.deepEqual(
			saved.chat.profiles.map((p) => [p.name, p.provider, p.baseUrl]),
			[
				["Ollama (local)", "openAi", "http://localhost:11434/v1"],
				["Anthropic", "anthropic", "https://api.anthropic.com"],
			],
		);
		assert.equal(saved.chat.activeProfile, saved.chat.profiles[1].id);
		// The tab shows the new profile: its preset, its name, and Anthropic's own address (issue 23:
		// a gateway's address must be visible and changeable), described for Anthropic.
		await page.waitForFunction(() => document.querySelector(".vault-agent-provider select")?.value === "anthropic");
		assert.equal(await tab.locator(".setting-item.vault-agent-profile select option:checked").textContent(), "Anthropic");
		assert.equal(await tab.locator(".setting-item.vault-agent-profile-name input").inputValue(), "Anthropic");
		const address = tab.locator(".setting-item", { has: page.locator(".setting-item-name", { hasText: /^Server address$/ }) });
		assert.equal(await address.count(), 1);
		assert.equal(await address.locator("input").inputValue(), "https://api.anthropic.com");
		assert.match(await address.locator(".setting-item-description").textContent(), /without \/v1/);
	});

	it("switches, duplicates, renames and deletes profiles", async () => {
		const profile = tab.locator(".setting-item.vault-agent-profile");
		let saves = await session.saveCount();
		await profile.locator("select").selectOption({ label: "Ollama (local)" });
		let saved = await session.waitForSave(saves);
		assert.equal(saved.chat.activeProfile, saved.chat.profiles[0].id);
		await page.waitForFunction(() => document.querySelector(".vault-agent-provider select")?.value === "ollama");
		assert.equal(await tab.locator(".setting-item-name", { hasText: /^Server address$/ }).count(), 1, "an OpenAI-compatible profile has an address");

		saves = await session.saveCount();
		await profile.locator('.clickable-icon[aria-label="Duplicate this profile"]').click();
		saved = await session.waitForSave(saves);
		assert.deepEqual(saved.chat.profiles.map((p) => p.name), ["Ollama (local)", "Anthropic", "Ollama (local) copy"]);
		assert.equal(saved.chat.activeProfile, saved.chat.profiles[2].id);

		saves = await session.saveCount();
		const name = tab.locator(".setting-item.vault-agent-profile-name input");
		await name.fill("  Big model ");
		await name.press("Enter");
		saved = await session.waitForSave(saves);
		assert.equal(saved.chat.profiles[2].name, "Big model");
		await page.waitForFunction(() => document.querySelector(".vault-agent-profile select option:checked")?.textContent === "Big model");

		saves = await session.saveCount();
		await tab.locator(".setting-item.vault-agent-model-name input").fill("llama3.3");
		await tab.locator(".setting-item.vault-agent-model-name input").press("Enter");
		saved = await session.waitForSave(saves);
		assert.deepEqual(saved.chat.profiles.map((p) => p.model), ["llama3.1", "claude-sonnet-4-5", "llama3.3"], "only the profile in use changed");

		saves = await session.saveCount();
		await tab.locator('.setting-item.vault-agent-profile .clickable-icon[aria-label="Delete this profile"]').click();
		saved = await session.waitForSave(saves);
		assert.deepEqual(saved.chat.profiles.map((p) => p.name), ["Ollama (local)", "Anthropic"]);
		assert.equal(saved.chat.activeProfile, saved.chat.profiles[1].id, "the neighbour is in use");
		await page.waitForFunction(() => document.querySelector(".vault-agent-profile select option:checked")?.textContent === "Anthropic");
		assert.deepEqual(await tab.locator(".setting-item.vault-agent-profile select option").allTextContents(), ["Ollama (local)", "Anthropic"]);
	});

	it("Test connection answers for the profile in use; another profile starts without an answer", async () => {
		const test = () => tab.locator(".setting-item", { has: page.locator(".setting-item-name", { hasText: /^Test connection$/ }) });
		// The Anthropic profile in use, with no key: the core answers without a request.
		await test().locator("button", { hasText: "Test connection" }).click();
		const answer = test().locator(".setting-item-description > div");
		await answer.first().waitFor({ state: "visible", timeout: 10_000 });
		assert.equal(await answer.count(), 1, "one answer");
		await tab.locator(".setting-item.vault-agent-profile select").selectOption({ label: "Ollama (local)" });
		await page.waitForFunction(() => document.querySelector(".vault-agent-provider select")?.value === "ollama");
		assert.equal(await test().locator(".setting-item-description > div").count(), 0, "the other profile's answer is not shown");
		assert.equal(await test().locator(".setting-item-description").textContent(), "Lists the models the server of this profile offers. At an Anthropic address that lists none, sends a one-token message instead.");
		// Back to the profile the later tests expect.
		await tab.locator(".setting-item.vault-agent-profile select").selectOption({ label: "Anthropic" });
		await page.waitForFunction(() => document.querySelector(".vault-agent-provider select")?.value === "anthropic");
	});

	it("Test connection clicked again, even before the first answer, shows one answer and one model list", async () => {
		// A real model server on localhost, slow enough that the second click comes first.
		const server = await startModelServer({ modelsDelayMs: 300, models: { data: [{ id: "alpha" }, { id: "beta" }] } });
		const test = () => tab.locator(".setting-item", { has: page.locator(".setting-item-name", { hasText: /^Test connection$/ }) });
		try {
			await page.evaluate(async (url) => {
				const plugin = window.__harness.plugin;
				const chat = plugin.core.settings().chat;
				const profiles = chat.profiles.map((p) => (p.name === "Ollama (local)" ? { ...p, baseUrl: url } : p));
				await plugin.updateSettings({ chat: { ...chat, profiles } });
			}, `${server.url}/v1`);
			await tab.locator(".setting-item.vault-agent-profile select").selectOption({ label: "Ollama (local)" });
			await page.waitForFunction((url) => document.querySelector(".vault-agent-profile select option:checked")?.textContent === "Ollama (local)" && [...document.querySelectorAll(".vault-agent-settings input")].some((el) => el.value === url), `${server.url}/v1`);
			const button = test().locator("button", { hasText: "Test connection" });
			await button.click();
			await button.click();
			await page.waitForFunction(() => !/Connecting/.test([...document.querySelectorAll(".vault-agent-settings .setting-item")].find((el) => el.querySelector(".setting-item-name")?.textContent === "Test connection")?.textContent ?? ""), null, { timeout: 10_000 });
			// Both answers have arrived.
			await page.waitForTimeout(400);
			assert.equal(server.requests.filter((r) => r.url.endsWith("/models")).length, 2, "two tests ran");
			assert.equal(await test().locator(".setting-item-description > div").count(), 1, "one answer");
			assert.equal(await test().locator("select").count(), 1, "one model list");
			assert.deepEqual(await test().locator("select option").allTextContents(), ["Choose a model", "alpha", "beta"]);
			await button.click();
			await page.waitForTimeout(700);
			assert.equal(await test().locator("select").count(), 1, "a third test replaces the list too");
		} finally {
			await server.close();
			await page.evaluate(async () => {
				const plugin = window.__harness.plugin;
				const chat = plugin.core.settings().chat;
				const profiles = chat.profiles.map((p) => (p.name === "Ollama (local)" ? { ...p, baseUrl: "http://localhost:11434/v1" } : p));
				await plugin.updateSettings({ chat: { ...chat, profiles } });
			});
			await tab.locator(".setting-item.vault-agent-profile select").selectOption({ label: "Anthropic" });
			await page.waitForFunction(() => document.querySelector(".vault-agent-provider select")?.value === "anthropic");
		}
	});

	it("getSettingDefinitions() lists every setting, by section, searchable, each with its control", async () => {
		const tools = await page.evaluate(async () => (await window.__harness.plugin.api.listTools()).map((t) => t.displayName));
		const clients = await page.evaluate(() => window.__harness.plugin.agents.clientConfigs().map((c) => c.name));
		assert.ok(clients.length > 0, "client set-ups are listed");
		// Written out here, so a row left out of the definitions fails.
		const expected = {
			// The Anthropic profile is in use: its thinking rows are there too.
			Model: ["Model profile", "Profile name", "Provider", "Server address", "Model name", "API key", "Test connection", "Check this model", "Context window (tokens)", "Instructions for this profile", "Model accepts images", "Tool calls written as text", "Instructions note", "Prompts folder", "Saved prompts in the palette", "Skills folder", "Extended thinking", "Thinking budget (tokens)", "Send PDFs as documents"],
			Safety: ["Vault changes", "Folders the agent may read", "Folders the agent may change", "Local only", "Connections since start"],
			Tools: ["All tools", ...tools],
			"Search by meaning": ["Search by meaning", "Embedding server", "Embedding model", "Embedding API key", "Embedded sections"],
			Agents: ["MCP server", "Port", "What MCP clients may change", "Token", ...clients, "Recent MCP activity"],
			"Coding agents": ["Claude Code", "Codex", "Gemini CLI", "Custom agent"],
			"MCP servers": ["Add a server", "Paste a configuration"],
			Advanced: [
				"Path to the Obsidian CLI",
				"CLI in use",
				"Vault name",
				"Timeout (seconds)",
				"Output cap (KiB)",
				"CLI processes at once",
				"Confirmation expiry (minutes)",
				"Reuse reads for (seconds)",
				"Tool rounds per message",
				"Tool result size (characters)",
				"Wait for the first token (seconds)",
				"Wait between tokens (seconds)",
			],
		};
		const groups = await page.evaluate(() => {
			const { plugin, obsidian } = window.__harness;
			const tab = plugin.settingTabs__[0];
			return tab.getSettingDefinitions().map((group) => ({
				type: group.type,
				heading: group.heading,
				items: group.items.map((item) => {
					// As Obsidian 1.13 draws a row: a Setting with its name, then render().
					const setting = new obsidian.Setting(document.createElement("div")).setName(item.name);
					item.render(setting, null);
					const controls = setting.controlEl.querySelectorAll("input, select, textarea, button, .checkbox-container, .clickable-icon, .secret-component").length;
					const search = [item.name, typeof item.desc === "string" ? item.desc : (item.desc?.textContent ?? ""), ...(item.aliases ?? [])].join(" ").toLowerCase();
					return {
						name: item.name,
						search,
						searchable: item.searchable !== false,
						controls,
					};
				}),
			}));
		});
		assert.deepEqual(
			groups.map((g) => [g.type, g.heading]),
			Object.keys(expected).map((heading) => ["group", heading]),
		);
		for (const group of groups) {
			assert.deepEqual(
				group.items.map((i) => i.name),
				expected[group.heading],
				`the ${group.heading} section`,
			);
			for (const item of group.items) {
				assert.ok(item.searchable, `${item.name} is searchable`);
				assert.ok(item.controls > 0, `${item.name} draws a control in Obsidian 1.13`);
			}
		}
		// What Obsidian's settings search finds for a few words people type.
		const find = (word) => groups.flatMap((g) => g.items).filter((i) => i.search.includes(word)).map((i) => i.name);
		assert.ok(find("command line interface").includes("Path to the Obsidian CLI"));
		assert.ok(find("permission").includes("Vault changes"));
		assert.ok(find("anthropic").includes("Provider"));
		assert.ok(find("key").includes("API key"));
		assert.ok(find("mcp").includes("Token"));
	});

	it("a number row drawn from the definitions (as Obsidian 1.13 does) saves when left and shows what the core kept", async () => {
		const values = await page.evaluate(async () => {
			const { plugin, obsidian } = window.__harness;
			const tab = plugin.settingTabs__[0];
			const row = (heading, name) => tab.getSettingDefinitions().find((g) => g.heading === heading).items.find((i) => i.name === name);
			const wait = () => new Promise((resolve) => setTimeout(resolve, 50));
			const type = async (input, value) => {
				input.value = value;
				input.dispatchEvent(new Event("input", { bubbles: true }));
				await wait();
				const typed = plugin.core.settings().timeoutMs;
				input.dispatchEvent(new Event("change", { bubbles: true }));
				await wait();
				return typed;
			};
			const setting = new obsidian.Setting(document.createElement("div")).setName("Timeout (seconds)");
			row("Advanced", "Timeout (seconds)").render(setting, null);
			const input = setting.controlEl.querySelector("input");
			const before = [input.value, plugin.core.settings().timeoutMs];
			const whileTyping = await type(input, "9999");
			const clamped = [input.value, plugin.core.settings().timeoutMs];
			await type(input, "30");
			// The context window is the profile in use's.
			const context = new obsidian.Setting(document.createElement("div"));
			row("Model", "Context window (tokens)").render(context, null);
			await type(context.controlEl.querySelector("input"), "32768");
			const chat = plugin.core.settings().chat;
			return { before, whileTyping, clamped, kept: plugin.core.settings().timeoutMs, window: chat.profiles.map((p) => [p.id === chat.activeProfile, p.contextWindow]) };
		});
		assert.deepEqual(values.before, ["15", 15000]);
		assert.equal(values.whileTyping, 15000, "typing alone saves nothing");
		assert.deepEqual(values.clamped, ["120", 120000], "clamped, and the field shows it");
		assert.equal(values.kept, 30000);
		assert.deepEqual(values.window, [
			[false, 0],
			[true, 32768],
		]);
	});

	it("with an Anthropic profile, 'Extended thinking' and its budget are offered and saved", async () => {
		const profile = tab.locator(".setting-item.vault-agent-profile select");
		await profile.selectOption({ label: "Ollama (local)" });
		await page.waitForFunction(() => document.querySelector(".vault-agent-provider select")?.value === "ollama");
		assert.equal(await tab.locator(".setting-item.vault-agent-thinking").count(), 0, "not for OpenAI-compatible servers");
		await profile.selectOption({ label: "Anthropic" });
		const thinking = tab.locator(".setting-item.vault-agent-thinking");
		await thinking.waitFor({ state: "visible", timeout: 5000 });
		assert.equal(await thinking.locator(".setting-item-name").textContent(), "Extended thinking");
		let saves = await session.saveCount();
		await thinking.locator(".checkbox-container").click();
		let saved = await session.waitForSave(saves);
		assert.equal(saved.chat.anthropicThinking, true, `saved: ${JSON.stringify(saved.chat)}`);
		const budget = tab.locator(".setting-item.vault-agent-number", { hasText: "Thinking budget" }).locator("input");
		assert.equal(await budget.inputValue(), "4096");
		saves = await session.saveCount();
		await budget.fill("100");
		await budget.dispatchEvent("change");
		saved = await session.waitForSave(saves);
		assert.equal(saved.chat.anthropicThinkingBudget, 1024, "Anthropic's smallest budget");
		await page.waitForFunction(() => [...document.querySelectorAll(".vault-agent-number input")].some((i) => i.value === "1024"), null, { timeout: 5000 });
		assert.equal(await page.evaluate(() => window.__harness.plugin.core.settings().chat.anthropicThinking), true);
	});

	it("'Tool calls written as text' is off for every profile until turned on, and only for the one in use", async () => {
		const profile = tab.locator(".setting-item.vault-agent-profile select");
		await profile.selectOption({ label: "Ollama (local)" });
		await page.waitForFunction(() => document.querySelector(".vault-agent-provider select")?.value === "ollama");
		const row = tab.locator(".setting-item.vault-agent-text-tool-calls");
		await row.waitFor({ state: "visible", timeout: 5000 });
		assert.match(await row.locator(".setting-item-description").textContent(), /cannot call tools.*always waits for your approval/);
		assert.equal(await row.locator(".checkbox-container.is-enabled").count(), 0, "off");
		const saves = await session.saveCount();
		await row.locator(".checkbox-container").click();
		const saved = await session.waitForSave(saves);
		const inUse = saved.chat.profiles.find((p) => p.id === saved.chat.activeProfile);
		assert.equal(inUse.textToolCalls, true, `saved: ${JSON.stringify(saved.chat)}`);
		assert.ok(saved.chat.profiles.filter((p) => p.id !== inUse.id).every((p) => p.textToolCalls === false), "the other profiles stay off");
		await profile.selectOption({ label: "Anthropic" });
		await page.waitForFunction(() => document.querySelector(".vault-agent-provider select")?.value === "anthropic");
		await row.waitFor({ state: "visible", timeout: 5000 });
		assert.equal(await row.locator(".checkbox-container.is-enabled").count(), 0, "another profile: off");
	});

	it("leaves a full-page screenshot in test-output/ and logged no errors", async () => {
		const path = await session.screenshot("settings-tab", { fit: ".vertical-tab-content-container" });
		assert.match(path, /test-output\/settings-tab\.png$/);
		assert.deepEqual(session.errors, [], "no page errors or console.error lines");
	});
});
