// "Search the vault" from the palette, in Chromium from the built main.js:
// the command opens Obsidian's suggestion prompt; a question in the user's
// own words lists the ranked passages (note, heading, path, lines of the
// passage); arrows move, Enter opens the note at the passage's line (also
// under a heading holding "::", in a note whose name holds "#"), and a query
// without words says so. Screenshot in test-output/.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { join } from "node:path";
import { outputDir, startBrowserPlugin } from "../support/browser.mjs";
import { emulator, emulatorEnv } from "../support/harness.mjs";

describe("Search the vault from the palette, in Chromium", () => {
	let session;
	let page;

	before(async () => {
		session = await startBrowserPlugin({
			data: { cliPath: emulator },
			env: (vault) => {
				// Made outside Obsidian: a "#" in the name, a "::" in a heading (line 5 holds the passage).
				writeFileSync(join(vault, "Ideas/C# tips.md"), "# C# tips\n\n## std::vector notes\n\nThe ocelot allocator keeps its buffers.\n");
				return emulatorEnv(vault);
			},
			viewport: { width: 1100, height: 800 },
		});
		({ page } = session);
	});

	after(async () => {
		await session?.close();
	});

	const results = () => page.locator(".prompt-results .suggestion-item").evaluateAll((els) => els.map((el) => ({
		title: el.querySelector(".vault-agent-search-title")?.textContent ?? "",
		path: el.querySelector(".vault-agent-search-path")?.textContent ?? "",
		passage: el.querySelector(".vault-agent-search-passage")?.textContent ?? "",
		selected: el.classList.contains("is-selected"),
	})));

	/** Records what the palette opens instead of opening it: a file in a leaf, or a link text. */
	const spyOnOpening = () => page.evaluate(() => {
		window.__opened = [];
		const workspace = window.__harness.app.workspace;
		workspace.openLinkText = async (...args) => window.__opened.push({ link: args[0] });
		workspace.getLeaf = (newLeaf) => ({ openFile: async (file, state) => window.__opened.push({ path: file.path, eState: state?.eState, newLeaf }) });
	});

	it("lists the passages that answer a question and opens the chosen one at its passage", async () => {
		assert.ok(await page.evaluate(() => Boolean(window.__harness.app.commands.commands["vault-agent:search-vault"])), "the command is registered");
		await page.evaluate(() => window.__harness.runCommand("vault-agent:search-vault"));
		const input = page.locator(".prompt .prompt-input");
		await input.waitFor({ state: "visible", timeout: 10_000 });
		assert.match(await page.locator(".prompt-results .suggestion-empty").textContent(), /Type a question or a few words/);
		await input.fill("when is the public launch");
		await page.waitForFunction(() => document.querySelectorAll(".prompt-results .suggestion-item").length > 0, null, { timeout: 15_000 });
		const listed = await results();
		assert.equal(listed[0].path, "Projects/Launch plan.md", JSON.stringify(listed));
		assert.match(listed[0].title, /^Launch plan/);
		assert.match(listed[0].passage, /launch/i);
		assert.equal(listed[0].selected, true);
		await page.screenshot({ path: join(outputDir, "palette-search.png") });
		await spyOnOpening();
		await input.press("ArrowDown");
		assert.equal((await results())[1]?.selected ?? false, listed.length > 1, "the second result is selected");
		await input.press("ArrowUp");
		await input.press("Enter");
		const opened = await page.evaluate(() => window.__opened);
		assert.equal(opened.length, 1, JSON.stringify(opened));
		assert.equal(opened[0].path, "Projects/Launch plan.md", JSON.stringify(opened));
		assert.equal(typeof opened[0].eState?.line, "number", JSON.stringify(opened));
		assert.equal(opened[0].newLeaf, false);
		assert.equal(await page.locator(".prompt").count(), 0, "the prompt closed");
	});

	it("opens a note by its path and a passage by its line, whatever the name and heading hold", async () => {
		await page.evaluate(() => window.__harness.runCommand("vault-agent:search-vault"));
		const input = page.locator(".prompt .prompt-input");
		await input.waitFor({ state: "visible", timeout: 10_000 });
		await input.fill("ocelot allocator");
		await page.waitForFunction(() => document.querySelectorAll(".prompt-results .suggestion-item").length > 0, null, { timeout: 15_000 });
		assert.equal((await results())[0].path, "Ideas/C# tips.md");
		await spyOnOpening();
		await input.press("Enter");
		// A link text would read "C# tips" as the note "C" at its heading " tips",
		// and "std::vector notes" is no heading path's last level.
		assert.deepEqual(await page.evaluate(() => window.__opened), [{ path: "Ideas/C# tips.md", eState: { line: 4 }, newLeaf: false }]);
	});

	it("says why when the query has no words to search for", async () => {
		await page.evaluate(() => window.__harness.runCommand("vault-agent:search-vault"));
		const input = page.locator(".prompt .prompt-input");
		await input.waitFor({ state: "visible", timeout: 10_000 });
		await input.fill("?? !!");
		await page.waitForFunction(() => !/Type a question/.test(document.querySelector(".prompt-results .suggestion-empty")?.textContent ?? "Type a question"), null, { timeout: 10_000 });
		const said = await page.locator(".prompt-results .suggestion-empty").textContent();
		assert.match(said, /word/i);
		await input.press("Escape");
		assert.deepEqual(session.errors, []);
	});
});
