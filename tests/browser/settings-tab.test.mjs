// Settings → Vault Agent, rendered in Chromium from the built main.js, with
// the CLI emulator standing in for the obsidian binary. Real mouse clicks on
// the switches; the plugin's saved data is read back from its saveData calls.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startBrowserPlugin } from "../support/browser.mjs";
import { emulator, emulatorEnv, emulatorVersion } from "../support/harness.mjs";

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
		// Sections may be added between these; these three come in this order.
		const known = headings.filter((h) => ["Command line interface", "Safety", "Tools"].includes(h));
		assert.deepEqual(known, ["Command line interface", "Safety", "Tools"], `headings: ${headings.join(", ")}`);
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
		const enabled = await page.evaluate(() => window.__harness.plugin.api.listTools().find((t) => t.id === "obsidianRandomRead").enabled);
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

	it("with Anthropic, 'Extended thinking' and its budget are offered and saved", async () => {
		assert.equal(await tab.locator(".setting-item.vault-agent-thinking").count(), 0, "not for OpenAI-compatible servers");
		await tab.locator(".setting-item.vault-agent-provider select").selectOption("anthropic");
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

	it("leaves a full-page screenshot in test-output/ and logged no errors", async () => {
		const path = await session.screenshot("settings-tab", { fit: ".vertical-tab-content-container" });
		assert.match(path, /test-output\/settings-tab\.png$/);
		assert.deepEqual(session.errors, [], "no page errors or console.error lines");
	});
});
