// A vault hygiene report in the chat, in Chromium from the built main.js: the
// palette command "Find links to missing notes" runs the check against the
// sample vault behind the CLI emulator and shows its report as an open block
// in the chat sidebar. Leaves test-output/hygiene-report.png.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startBrowserPlugin } from "../support/browser.mjs";
import { emulator, emulatorEnv, readLog } from "../support/harness.mjs";

describe("hygiene report in Chromium", () => {
	let session;
	let page;
	let log;

	before(async () => {
		session = await startBrowserPlugin({
			data: { cliPath: emulator },
			env: (vault) => {
				const env = emulatorEnv(vault);
				log = env.OBSIDIAN_EMULATOR_LOG;
				return env;
			},
			viewport: { width: 1100, height: 800 },
		});
		({ page } = session);
	});

	after(async () => {
		await session?.close();
	});

	it("shows the missing links of the sample vault in the chat from the palette command", async () => {
		assert.equal(await page.locator(".vault-agent-chat").count(), 0, "no chat before the command");
		assert.equal(await page.evaluate(() => window.__harness.runCommand("vault-agent:find-missing-links")), true);

		// The command opens the chat and waits for the report, so it is there now.
		const block = page.locator(".workspace-leaf .vault-agent-chat .vault-agent-tool-call.is-report");
		assert.equal(await block.count(), 1, "one report block in the chat");
		assert.equal(await block.getAttribute("open"), "", "the report is open");
		assert.ok(await block.isVisible(), "the report block is visible");
		assert.equal(await block.locator(".vault-agent-tool-name").textContent(), "Vault hygiene", "one name for the tool, as the settings name it");
		assert.equal(await block.locator(".vault-agent-tool-status").textContent(), "Done");

		const text = block.locator(".vault-agent-tool-text");
		assert.ok(await text.isVisible(), "the report's text is visible");
		const report = await text.textContent();
		// tests/sample-vault links to [[Nonexistent Note]] from four notes.
		const line = report.split("\n").find((l) => l.startsWith("- [[Nonexistent Note]] ← "));
		assert.ok(line, `the missing note is listed: ${report}`);
		for (const source of ["Welcome.md", "Projects/Launch plan.md", "Projects/Roadmap.md", "Ideas/Brainstorm.md"]) {
			assert.ok(line.includes(source), `${source} is named as a source: ${line}`);
		}
		// Each source is a link to its note, a path with a space too.
		const links = await text.locator("a.internal-link").evaluateAll((as) => as.map((a) => a.dataset.href));
		for (const source of ["Welcome.md", "Projects/Launch plan.md", "Projects/Roadmap.md", "Ideas/Brainstorm.md"]) {
			assert.ok(links.includes(source), `${source} is a link: ${JSON.stringify(links)}`);
		}
		assert.ok(!links.includes("plan.md"), `no link cut at the space: ${JSON.stringify(links)}`);
		// The report replaces the new chat's prompts, as a message would.
		assert.equal(await page.locator(".vault-agent-chat .vault-agent-empty-state").count(), 0, "no empty state above the report");
		const box = await text.boundingBox();
		assert.ok(box && box.width > 200 && box.height > 20, `the text has room: ${JSON.stringify(box)}`);

		// Computed from the CLI's listing of unresolved links, not a model's call.
		assert.ok(
			readLog(log).some((entry) => entry.argv[0] === "unresolved"),
			"the emulator was asked for unresolved links",
		);
		assert.equal(await page.locator(".vault-agent-msg").count(), 0, "no chat message: a report is not part of the conversation");
		assert.deepEqual(session.errors, []);
		await session.screenshot("hygiene-report", { fit: ".vault-agent-chat .vault-agent-messages" });
	});
});
