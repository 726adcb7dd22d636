// Search by meaning in Chromium from the built main.js, against a real
// embedding server on localhost (tests/support/embedding-server.mjs): the
// palette lists a note that shares no word with the question and says it was
// found by meaning, and the settings section shows what was embedded.
// Screenshots in test-output/.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { outputDir, startBrowserPlugin } from "../support/browser.mjs";
import { startEmbeddingServer } from "../support/embedding-server.mjs";
import { emulator, emulatorEnv } from "../support/harness.mjs";

describe("search by meaning in Chromium", () => {
	let server;
	let session;
	let page;

	before(async () => {
		server = await startEmbeddingServer();
		session = await startBrowserPlugin({
			data: { cliPath: emulator, embeddings: { enabled: true, baseUrl: server.baseUrl, model: "concepts" } },
			env: (vault) => {
				mkdirSync(join(vault, "Garage"), { recursive: true });
				writeFileSync(join(vault, "Garage/Maintenance.md"), "# Maintenance\n\nReplaced the brake pads and checked the tyres before the long drive.\n");
				return emulatorEnv(vault);
			},
			viewport: { width: 1100, height: 800 },
		});
		({ page } = session);
		await page.evaluate(() => window.__harness.plugin.searchIndex.settled());
	});

	after(async () => {
		await session?.close();
		await server?.close();
	});

	it("embeds the notes and the palette finds one by meaning", async () => {
		const status = await page.evaluate(() => window.__harness.plugin.core.embeddingsStatus());
		assert.equal(status.phase, "idle", JSON.stringify(status));
		assert.ok(status.embedded > 20 && status.embedded === status.sections, JSON.stringify(status));
		await page.evaluate(() => window.__harness.runCommand("vault-agent:search-vault"));
		const input = page.locator(".prompt .prompt-input");
		await input.waitFor({ state: "visible", timeout: 10_000 });
		await input.fill("car repairs");
		await page.waitForFunction(() => document.querySelectorAll(".prompt-results .suggestion-item").length > 0, null, { timeout: 15_000 });
		const first = page.locator(".prompt-results .suggestion-item").first();
		assert.equal(await first.locator(".vault-agent-search-path").textContent(), "Garage/Maintenance.md · found by meaning");
		await page.screenshot({ path: join(outputDir, "search-by-meaning-palette.png") });
		await input.press("Escape");
	});

	it("shows in the settings what was embedded, with Embed now and Stop", async () => {
		await session.openSettings();
		await page.locator(".vault-agent-settings-nav").getByRole("tab", { name: "Search", exact: true }).click();
		const row = page.locator(".vault-agent-settings .setting-item.vault-agent-embeddings-status");
		await row.waitFor({ state: "visible", timeout: 5000 });
		await row.scrollIntoViewIfNeeded();
		const line = await row.locator(".vault-agent-embeddings-line").textContent();
		assert.match(line, /^\d+ of \d+ sections embedded with concepts at 127\.0\.0\.1/, line);
		assert.equal(await row.locator("button", { hasText: "Stop" }).isDisabled(), true, "nothing to stop");
		assert.equal(await row.locator("button", { hasText: "Embed now" }).isEnabled(), true);
		// The section from its heading down, its status row and buttons included.
		await page.locator(".vault-agent-settings .setting-item-heading", { hasText: "Search by meaning" }).evaluate((heading) => heading.scrollIntoView({ block: "start" }));
		await page.screenshot({ path: join(outputDir, "search-by-meaning-settings.png") });
	});
});
