// Settings → Vault Agent, rendered in Chromium from the built main.js, with
// the CLI emulator standing in for the obsidian binary. Real mouse clicks on
// the switches; the plugin's saved data is read back from its saveData calls.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { outputDir, startBrowserPlugin } from "../support/browser.mjs";
import { emulator, emulatorEnv, emulatorVersion } from "../support/harness.mjs";
import { startModelServer } from "../support/model-servers.mjs";

/** The tab's pages, in the nav's order (issue 40). */
const PAGES = ["Model", "Safety", "Tools", "Search", "Web", "MCP: this vault's server for other apps", "MCP: your servers in the chat", "Coding agents", "Advanced"];
const WIDTHS = [320, 420, 600];
const THEMES = ["dark", "light"];
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** Shows a page of the tab, as a click on its tab in the nav does. */
async function showPage(page, name) {
	await page.locator(".vault-agent-settings-nav").getByRole("tab", { name, exact: true }).click();
	await page.locator(`.vault-agent-settings-page[aria-label="${name}"]`).waitFor({ state: "visible", timeout: 5000 });
}

/** The settings pane at `px` wide in a theme, as a user's window gives it. */
async function paneAt(page, px, theme) {
	await page.emulateMedia({ colorScheme: theme });
	await page.evaluate(
		([width, t]) => {
			document.body.classList.remove("theme-dark", "theme-light");
			document.body.classList.add(`theme-${t}`);
			const pane = document.querySelector(".vertical-tab-content.vault-agent-settings");
			pane.style.width = `${width}px`;
			pane.style.flex = "none";
		},
		[px, theme],
	);
	await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

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
		// The nav names every page, the model's first and shown at first.
		assert.deepEqual(await tab.locator(".vault-agent-settings-nav [role=tab]").allTextContents(), PAGES);
		assert.equal(await tab.locator(".vault-agent-settings-nav [aria-selected=true]").textContent(), "Model");
		assert.deepEqual(await tab.locator(".vault-agent-settings-page:not([hidden]) .setting-item-heading .setting-item-name").allTextContents(), ["Profile in use", "Every profile"], "the profile's rows apart from every profile's");
		// Every page is drawn; only the one chosen shows.
		const names = async () => tab.locator(".vault-agent-settings-page:not([hidden]) .setting-item .setting-item-name").allTextContents();
		const model = await names();
		assert.ok(model.indexOf("Every profile") > model.indexOf("Tool calls written as text") && model.indexOf("Every profile") < model.indexOf("Instructions note"), model.join(", "));
		assert.ok(model.includes("Check this model"), "the model check is on the Model page");
		// Each page, one at a time.
		const shows = { Safety: "Folders the agent may read", Tools: "All tools", Search: "Embedding server", "MCP: this vault's server for other apps": "Token", "MCP: your servers in the chat": "Add a server", "Coding agents": "Claude Code", Advanced: "Path to the Obsidian CLI" };
		for (const [pageName, row] of Object.entries(shows)) {
			await showPage(page, pageName);
			const rows = await names();
			assert.ok(rows.includes(row), `${pageName}: ${rows.join(", ")}`);
			assert.ok(!rows.includes("Model profile"), `${pageName} shows only its own rows`);
		}
		// The command line interface first under Advanced, with the limits after it.
		const advanced = await names();
		const at = (name) => advanced.indexOf(name);
		assert.ok(at("Path to the Obsidian CLI") < at("Timeout (seconds)") && at("Wait for the first token (seconds)") < at("Wait between tokens (seconds)"), advanced.join(", "));
	});

	it("shows the CLI in use: the configured emulator and its version", async () => {
		await showPage(page, "Advanced");
		const status = tab.locator(".setting-item.vault-agent-cli-status");
		const found = status.locator(".vault-agent-cli-found");
		// The status is filled in asynchronously (discovery + `obsidian version`).
		await found.waitFor({ state: "visible", timeout: 10_000 });
		assert.equal(await found.textContent(), `Found: ${emulator}`);
		const description = await status.locator(".setting-item-description").innerText();
		assert.match(description, new RegExp(`Version: ${emulatorVersion().replace(/[.()]/g, "\\$&")}`));
		assert.equal(await status.locator(".vault-agent-cli-missing").count(), 0, "no error line");
	});

	it("Memory and Web have one switch each, on their own pages; 'All tools' is on at a fresh install and leaves them alone", async () => {
		await showPage(page, "Tools");
		const allTools = tab.locator(".setting-item.vault-agent-all-tools .checkbox-container");
		const listed = await page.evaluate(async () => (await window.__harness.plugin.api.listTools()).map((t) => ({ id: t.id, enabled: t.enabled, ownSwitch: t.ownSwitch })));
		const own = listed.filter((t) => t.ownSwitch);
		assert.deepEqual(
			own.map((t) => [t.id, t.enabled, t.ownSwitch.page, t.ownSwitch.setting]),
			[
				["obsidianMemory", false, "Model", "Memory"],
				["obsidianWeb", false, "Web", "Web search and pages"],
			],
		);
		// Off by default, they leave 'All tools' on: every switch on this page is on.
		assert.ok(listed.filter((t) => !t.ownSwitch).every((t) => t.enabled));
		assert.equal(await allTools.evaluate((el) => el.classList.contains("is-enabled")), true, "'All tools' on at a fresh install");
		for (const tool of own) {
			const row = tab.locator(`.setting-item.vault-agent-tool[data-tool-id="${tool.id}"]`);
			assert.equal(await row.locator(".checkbox-container").count(), 0, `${tool.id}: no second switch`);
			assert.equal(await row.locator(".vault-agent-tool-own-switch").textContent(), `Off. Its one switch is ${tool.ownSwitch.setting}, on the ${tool.ownSwitch.page} page.`);
			// The switch it names is on the page it names.
			await showPage(page, tool.ownSwitch.page);
			const names = await tab.locator(".vault-agent-settings-page:not([hidden]) .setting-item .setting-item-name").allTextContents();
			assert.ok(names.includes(tool.ownSwitch.setting), names.join(", "));
			await showPage(page, "Tools");
		}
		// 'All tools' off and on again saves the switches on this page only: memory and the web stay as they are.
		let saves = await session.saveCount();
		await allTools.click();
		let saved = await session.waitForSave(saves);
		assert.equal(saved.tools.obsidianNotes, false);
		assert.ok(!("obsidianMemory" in saved.tools) && !("obsidianWeb" in saved.tools), JSON.stringify(saved.tools));
		saves = await session.saveCount();
		await allTools.click();
		saved = await session.waitForSave(saves);
		assert.equal(saved.tools.obsidianNotes, true);
		assert.equal(saved.chat.memory, false);
		assert.equal(saved.web.enabled, false);
		assert.equal(await allTools.evaluate((el) => el.classList.contains("is-enabled")), true);
	});

	it("turning one tool off saves it and turns the 'All tools' switch off", async () => {
		await showPage(page, "Tools");
		const allTools = tab.locator(".setting-item.vault-agent-all-tools .checkbox-container");
		const tool = tab.locator('.setting-item.vault-agent-tool[data-tool-id="obsidianRandomRead"] .checkbox-container');
		assert.equal(await allTools.evaluate((el) => el.classList.contains("is-enabled")), true, "'All tools' on");
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

	it("Tools: one name per tool, as the chat names it; 'always asks you first' said once", async () => {
		const tools = await page.evaluate(async () => (await window.__harness.plugin.api.listTools()).map((t) => [t.id, t.displayName, t.summary]));
		for (const [id, name, summary] of tools) {
			const row = tab.locator(`.setting-item.vault-agent-tool[data-tool-id="${id}"]`);
			assert.equal(await row.locator(".setting-item-name").textContent(), name);
			assert.doesNotMatch(name, /\(/, "no '(CLI)' beside the name");
			assert.equal(await row.locator(".vault-agent-settings-desc").textContent(), summary, "described in the user's words");
			assert.doesNotMatch(summary, /the user|approves/);
		}
		const text = await tab.textContent();
		assert.equal(text.match(/always asks? you first/gi)?.length ?? 0, 1, "said once, at the top");
		assert.ok((await tab.locator(".vault-agent-asks-first").count()) >= 3, "each such change marked");
	});

	it("'Vault changes' offers the three modes, each described, and saves the one picked", async () => {
		await showPage(page, "Safety");
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

	it("Memory, turned on, warns under its folder and on Safety while the agent may not change that folder, with the fix", async () => {
		await showPage(page, "Model");
		const warning = (pageName) => tab.locator(`.vault-agent-settings-page[aria-label="${pageName}"] .vault-agent-memory-folder-problem`);
		assert.equal(await warning("Model").isVisible(), false, "off: nothing to warn of");
		const saves = await session.saveCount();
		await tab.locator(".setting-item.vault-agent-memory .checkbox-container").click();
		assert.equal((await session.waitForSave(saves)).chat.memory, true);
		assert.equal(await warning("Model").isVisible(), false, "the whole vault: it may change the folder");
		// Only Projects may be changed: both pages say so, with the fix.
		await showPage(page, "Safety");
		const field = tab.locator('.vault-agent-folder-setting[data-key="writeFolders"] .vault-agent-settings-path-input');
		const before = await session.saveCount();
		await field.fill("Projects");
		await field.press("Enter");
		assert.deepEqual((await session.waitForSave(before)).writeFolders, ["Projects"]);
		const text = 'The agent may not change Agent memory, so it cannot remember anything: it may change only "Projects". Choose a memory folder inside those, or add Agent memory to Folders the agent may change (Safety page).';
		await warning("Safety").waitFor({ state: "visible", timeout: 5000 });
		assert.equal(await warning("Safety").textContent(), text);
		await showPage(page, "Model");
		assert.equal(await warning("Model").textContent(), text);
		// The folder moved inside Projects: no warning left.
		const folder = tab.locator(".setting-item.vault-agent-memory-folder input");
		const moved = await session.saveCount();
		await folder.fill("Projects/Memory");
		await folder.press("Tab");
		assert.equal((await session.waitForSave(moved)).chat.memoryFolder, "Projects/Memory");
		await warning("Model").waitFor({ state: "hidden", timeout: 5000 });
		// Back as it was for the tests after this one, by hand too.
		let saves2 = await session.saveCount();
		await folder.fill("Agent memory");
		await folder.press("Tab");
		await session.waitForSave(saves2);
		await warning("Model").waitFor({ state: "visible", timeout: 5000 });
		saves2 = await session.saveCount();
		await tab.locator(".setting-item.vault-agent-memory .checkbox-container").click();
		assert.equal((await session.waitForSave(saves2)).chat.memory, false);
		assert.equal(await warning("Model").isVisible(), false, "off again: nothing to warn of");
		await showPage(page, "Safety");
		saves2 = await session.saveCount();
		await tab.locator('.vault-agent-folder-setting[data-key="writeFolders"] [aria-label="Remove Projects"]').click();
		assert.deepEqual((await session.waitForSave(saves2)).writeFolders, []);
	});

	it("the provider dropdown shows the preset of the profile in use", async () => {
		await showPage(page, "Model");
		const provider = tab.locator(".setting-item.vault-agent-provider select");
		assert.equal(await provider.inputValue(), "ollama");
		assert.equal(await provider.locator("option:checked").textContent(), "Ollama (local)");
		assert.deepEqual(await tab.locator(".setting-item.vault-agent-profile select option").allTextContents(), ["Ollama (local)"]);
	});

	it("picking a provider changes the profile in use and adds none", async () => {
		let saves = await session.saveCount();
		await tab.locator(".setting-item.vault-agent-provider select").selectOption({ label: "Anthropic" });
		let saved = await session.waitForSave(saves);
		assert.deepEqual(saved.chat.profiles.map((p) => [p.name, p.provider, p.baseUrl]), [["Anthropic", "anthropic", "https://api.anthropic.com"]], "one profile, now Anthropic's");
		await page.waitForFunction(() => document.querySelector(".vault-agent-provider select")?.value === "anthropic");
		saves = await session.saveCount();
		await tab.locator(".setting-item.vault-agent-provider select").selectOption({ label: "Ollama (local)" });
		saved = await session.waitForSave(saves);
		assert.deepEqual(saved.chat.profiles.map((p) => [p.name, p.provider, p.baseUrl]), [["Ollama (local)", "openAi", "http://localhost:11434/v1"]]);
		await page.waitForFunction(() => document.querySelector(".vault-agent-provider select")?.value === "ollama");
	});

	it("adding a profile takes the Add profile button; its provider is then picked for it alone", async () => {
		let saves = await session.saveCount();
		await tab.locator(".setting-item.vault-agent-profile button", { hasText: "Add profile" }).click();
		let saved = await session.waitForSave(saves);
		assert.deepEqual(saved.chat.profiles.map((p) => p.name), ["Ollama (local)", "Ollama (local) 2"]);
		assert.equal(saved.chat.activeProfile, saved.chat.profiles[1].id, "the new one in use");
		await page.waitForFunction(() => document.querySelector(".vault-agent-profile select option:checked")?.textContent === "Ollama (local) 2");
		saves = await session.saveCount();
		await tab.locator(".setting-item.vault-agent-provider select").selectOption({ label: "Anthropic" });
		saved = await session.waitForSave(saves);
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
		assert.equal(await test().locator(".vault-agent-settings-desc").textContent(), "Lists the models the server of this profile offers.");
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
		// Memory and Web are switched on their own pages: their Tools rows say where, with no control.
		const elsewhere = await page.evaluate(async () => (await window.__harness.plugin.api.listTools()).filter((t) => t.ownSwitch).map((t) => t.displayName));
		assert.deepEqual(elsewhere, ["Memory", "Web"]);
		const clients = await page.evaluate(() => window.__harness.plugin.agents.clientConfigs().map((c) => c.name));
		assert.ok(clients.length > 0, "client set-ups are listed");
		// Written out here, so a row left out of the definitions fails.
		const expected = {
			// The Anthropic profile is in use: its thinking rows are there too.
			"Profile in use": ["Model profile", "Profile name", "Provider", "Server address", "Model name", "API key", "Test connection", "Check this model", "Context window (tokens)", "Instructions for this profile", "Model accepts images", "Tool calls written as text", "Send PDFs as documents"],
			"Every profile": ["Instructions note", "Prompts folder", "Saved prompts in the palette", "Skills folder", "Memory", "Memory folder", "Extended thinking", "Thinking budget (tokens)"],
			Safety: ["Vault changes", "Folders the agent may read", "Folders the agent may change", "Local only", "Connections since start"],
			Tools: ["All tools", ...tools],
			"Search by words": ["Languages of your notes"],
			"Search by meaning": ["Search by meaning", "Embedding server", "Embedding model", "Embedding API key", "Embedded sections"],
			Web: ["Web search and pages", "Search provider", "SearXNG address", "Brave Search API key"],
			"MCP server for other apps": ["MCP server", "Port", "What MCP clients may change", "Token", ...clients, "Recent MCP activity"],
			"MCP servers": ["Add a server", "Paste a configuration"],
			"Coding agents": ["Claude Code", "Codex", "Gemini CLI", "Custom agent"],
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
			const pages = tab.getSettingDefinitions();
			return pages.flatMap((p) => p.items.map((group) => ({
				page: [p.type, p.name],
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
			})));
		});
		assert.deepEqual(
			groups.map((g) => [g.type, g.heading]),
			Object.keys(expected).map((heading) => ["group", heading]),
		);
		// Obsidian 1.13 draws each page as an entry of its own list, named as the nav names it.
		assert.deepEqual([...new Set(groups.map((g) => g.page.join(":")))], PAGES.map((name) => `page:${name}`));
		for (const group of groups) {
			assert.deepEqual(
				group.items.map((i) => i.name),
				expected[group.heading],
				`the ${group.heading} section`,
			);
			for (const item of group.items) {
				assert.ok(item.searchable, `${item.name} is searchable`);
				if (group.heading === "Tools" && elsewhere.includes(item.name)) assert.equal(item.controls, 0, `${item.name}: no second switch on the Tools page`);
				else assert.ok(item.controls > 0, `${item.name} draws a control in Obsidian 1.13`);
			}
		}
		// What Obsidian's settings search finds for a few words people type.
		const find = (word) => groups.flatMap((g) => g.items).filter((i) => i.search.includes(word)).map((i) => i.name);
		assert.ok(find("command line interface").includes("Path to the Obsidian CLI"));
		assert.ok(find("permission").includes("Vault changes"));
		assert.ok(find("anthropic").includes("Provider"));
		assert.ok(find("key").includes("API key"));
		assert.ok(find("mcp").includes("Token"));
		assert.ok(find("language").includes("Languages of your notes"));
	});

	it("a number row drawn from the definitions (as Obsidian 1.13 does) saves when left and shows what the core kept", async () => {
		const values = await page.evaluate(async () => {
			const { plugin, obsidian } = window.__harness;
			const tab = plugin.settingTabs__[0];
			const row = (heading, name) => tab.getSettingDefinitions().flatMap((p) => p.items).find((g) => g.heading === heading).items.find((i) => i.name === name);
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
			row("Profile in use", "Context window (tokens)").render(context, null);
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
		assert.match(await row.locator(".setting-item-description").textContent(), /cannot call tools/);
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

	for (const theme of THEMES) {
		it(`every description fits two lines, nothing sticks out and axe finds no serious problem at 320, 420 and 600 px, ${theme} theme`, async () => {
			if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ path: AXE });
			for (const width of WIDTHS) {
				await paneAt(page, width, theme);
				for (const pageName of PAGES) {
					await showPage(page, pageName);
					const facts = await page.evaluate(() => {
						const pane = document.querySelector(".vertical-tab-content.vault-agent-settings");
						const box = pane.getBoundingClientRect();
						// The description and its "More" link, in line boxes as drawn.
						const long = [...pane.querySelectorAll(".vault-agent-settings-desc")]
							.map((text) => {
								const range = document.createRange();
								range.setStartBefore(text);
								range.setEndAfter(text.parentElement.querySelector(".vault-agent-settings-docs") ?? text);
								// Rects of one line differ by a pixel or two (the link's box); a new line is a line-height down.
								const bottoms = [...range.getClientRects()].filter((r) => r.width > 0).map((r) => r.bottom).sort((x, y) => x - y);
								const lines = bottoms.filter((b, i) => i === 0 || b - bottoms[i - 1] > 4).length;
								return { name: text.closest(".setting-item")?.querySelector(".setting-item-name")?.textContent, lines };
							})
							.filter((d) => d.lines > 2);
						const out = [...pane.querySelectorAll(".setting-item *")]
							.filter((el) => el.getClientRects().length > 0 && !el.closest("details:not([open])"))
							.filter((el) => { const r = el.getBoundingClientRect(); return r.right > box.right + 1 || r.left < box.left - 1; })
							.map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join(".")}`);
						return { long, out: [...new Set(out)].slice(0, 5), scroll: pane.scrollWidth > pane.clientWidth + 1 };
					});
					assert.deepEqual(facts.long, [], `${pageName} at ${width} px (${theme}): descriptions over two lines`);
					assert.deepEqual(facts.out, [], `${pageName} at ${width} px (${theme}): sticks out`);
					assert.equal(facts.scroll, false, `${pageName} at ${width} px (${theme}): scrolls sideways`);
					const violations = await page.evaluate(async () => {
						const result = await window.axe.run({ include: [".vault-agent-settings"], exclude: [".mod-cta"] }, { resultTypes: ["violations"] });
						return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => ({ id: v.id, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) }));
					});
					assert.deepEqual(violations, [], `${pageName} at ${width} px (${theme}): axe`);
					if (width !== 600) {
						// The whole page in the picture: the settings window is a share of the viewport.
						const before = page.viewportSize();
						const tall = await tab.evaluate((el) => el.scrollHeight);
						await page.setViewportSize({ width: before.width, height: Math.min(before.height + tall, 8000) });
						await tab.screenshot({ path: join(outputDir, `settings-${pageName.replace(/[^a-z]+/gi, "-").toLowerCase()}-${width}-${theme}.png`) });
						await page.setViewportSize(before);
					}
				}
			}
			await paneAt(page, 600, "dark");
			await showPage(page, "Model");
		});
	}

	it("leaves a full-page screenshot in test-output/ and logged no errors", async () => {
		const path = await session.screenshot("settings-tab", { fit: ".vertical-tab-content-container" });
		assert.match(path, /test-output\/settings-tab\.png$/);
		assert.deepEqual(session.errors, [], "no page errors or console.error lines");
	});
});
