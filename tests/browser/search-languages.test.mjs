// "Languages of your notes" (issue 38 item 1) in Chromium, from the built
// main.js: terse German notes on an English app are read as English, so a
// German inflection finds nothing; picking German on the Search page saves
// it, rebuilds the index in the background, and the same query then finds
// the note. The row fits the pane at 320 px (screenshot in test-output/).
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { outputDir, startBrowserPlugin } from "../support/browser.mjs";
import { emulator, emulatorEnv } from "../support/harness.mjs";

const NOTE = "Garten/Pflanzungen.md";

describe("the languages of the notes, in Chromium", () => {
	let session;
	let page;

	before(async () => {
		session = await startBrowserPlugin({
			data: { cliPath: emulator },
			env: (vault) => {
				mkdirSync(join(vault, "Garten"), { recursive: true });
				writeFileSync(join(vault, NOTE), "Pflanzungen: Tomaten, Gurken.\n");
				return emulatorEnv(vault);
			},
		});
		({ page } = session);
		await page.evaluate(() => window.__harness.plugin.searchIndex.settled());
	});

	after(async () => {
		await session?.close();
	});

	const find = (query) => page.evaluate(async (q) => (await window.__harness.plugin.api.callTool("obsidianSearch", { command: "find", query: q })).text, query);

	it("picking German saves it, rebuilds the index, and a German inflection then finds the note", async () => {
		assert.doesNotMatch(await find("Pflanzung"), /Pflanzungen\.md/, "read as English, the app's language");
		await session.openSettings();
		await page.locator(".vault-agent-settings-nav").getByRole("tab", { name: "Search", exact: true }).click();
		const row = page.locator(".vault-agent-settings .setting-item:has(.vault-agent-settings-languages)");
		await row.waitFor({ state: "visible", timeout: 5000 });
		assert.equal((await row.locator(".vault-agent-settings-languages-auto").textContent()).trim(), "Automatic");
		const saves = await session.saveCount();
		await row.getByLabel("Add a language").selectOption("de");
		const saved = await session.waitForSave(saves);
		assert.deepEqual(saved.search, { languages: ["de"] });
		await row.locator(".vault-agent-settings-path").first().waitFor({ state: "visible", timeout: 5000 });
		assert.deepEqual(await row.locator(".vault-agent-settings-path").allTextContents(), ["German (Deutsch)"]);
		await page.evaluate(() => window.__harness.plugin.searchIndex.settled());
		assert.match(await find("Pflanzung"), /Garten\/Pflanzungen\.md/, "read as German after the rebuild");
		// English notes are still found (English is not fixed, but the sample vault's words mostly stem alike).
		assert.match(await find("roadmap"), /Roadmap/);
	});

	it("fits the pane at 320 px, and removing the last language goes back to automatic", async () => {
		await page.evaluate(() => {
			const pane = document.querySelector(".vertical-tab-content.vault-agent-settings");
			pane.style.width = "320px";
			pane.style.flex = "none";
		});
		const row = page.locator(".vault-agent-settings .setting-item:has(.vault-agent-settings-languages)");
		const fits = await row.evaluate((el) => {
			const box = el.getBoundingClientRect();
			return [...el.querySelectorAll("*")].filter((c) => c.getClientRects().length > 0).every((c) => c.getBoundingClientRect().right <= box.right + 1);
		});
		assert.equal(fits, true, "nothing past the row's edge");
		await row.screenshot({ path: join(outputDir, "settings-languages-320.png") });
		const saves = await session.saveCount();
		await row.getByRole("button", { name: "Remove German (Deutsch)" }).click();
		const saved = await session.waitForSave(saves);
		assert.deepEqual(saved.search, { languages: [] });
		assert.equal((await row.locator(".vault-agent-settings-languages-auto").textContent()).trim(), "Automatic");
	});
});
