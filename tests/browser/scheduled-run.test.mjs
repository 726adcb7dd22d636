// A scheduled saved prompt in Chromium from the built main.js: a daily slot
// missed while Obsidian was closed runs once at the start, late, under the
// prompt's Read only; its chat is in the history, titled and opened with the
// notice that says when and why it ran (the screenshot of that surface).
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { openChat, startBrowserPlugin } from "../support/browser.mjs";
import { emulator, emulatorEnv } from "../support/harness.mjs";
import { openaiStream, startModelServer } from "../support/model-servers.mjs";

/** "2026-12-01 00:00": yesterday's midnight slot in local time (the page's clock is this machine's). */
function yesterdaysSlot() {
	const d = new Date(Date.now() - 24 * 3600_000);
	const two = (n) => String(n).padStart(2, "0");
	return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} 00:00`;
}

describe("a scheduled prompt in Chromium", () => {
	let server;
	let session;
	let page;
	let welcome;

	before(async () => {
		server = await startModelServer();
		// The model tries to write; the prompt's Read only refuses it, and it answers in words.
		server.script(
			{ stream: openaiStream({ toolCalls: [["obsidianEdit", { command: "append", file: "Welcome", content: "the plan" }]] }) },
			{ stream: openaiStream({ text: "Here is today's plan: review the roadmap, then reply to Alice." }) },
		);
		session = await startBrowserPlugin({
			data: {
				cliPath: emulator,
				permissionMode: "askBeforeEdits",
				chat: { profiles: [{ id: "p", name: "Local", provider: "openAi", baseUrl: `${server.url}/v1`, model: "test-model" }], activeProfile: "p", promptsFolder: "Prompts" },
				scheduledRuns: { "Prompts/Morning.md": yesterdaysSlot() },
			},
			env: (vault) => {
				mkdirSync(join(vault, "Prompts"), { recursive: true });
				writeFileSync(join(vault, "Prompts", "Morning.md"), "---\ndescription: My plan for the day\nschedule: daily 00:00\nmode: Read only\n---\nAdd my plan for {{date}} to Welcome.\n");
				welcome = readFileSync(join(vault, "Welcome.md"), "utf8");
				return emulatorEnv(vault);
			},
			viewport: { width: 1100, height: 800 },
		});
		({ page } = session);
	});

	after(async () => {
		await session?.close();
		await server?.close();
	});

	it("runs the missed slot once, late, and leaves its chat in the history with the notice", async () => {
		await page.waitForFunction(() => window.__harness.plugin?.scheduler, null, { timeout: 15_000 });
		await page.evaluate(() => window.__harness.plugin.scheduler.check());
		await page.evaluate(() => window.__harness.plugin.scheduler.check());
		const completions = server.requests.filter((r) => r.url.endsWith("/chat/completions"));
		assert.equal(completions.length, 2, "one run: the model's two rounds");
		assert.match(completions[1].body.messages.find((m) => m.role === "tool").content, /writes_disabled/, "the prompt's Read only held");
		assert.equal(readFileSync(join(session.vault, "Welcome.md"), "utf8"), welcome);
		const notices = await page.evaluate(() => window.__harness.notices());
		assert.ok(notices.some((n) => n.includes("ran the scheduled prompt “Morning”")), notices.join("\n"));

		await openChat(page);
		await page.locator(".vault-agent-history-button").click();
		const row = page.locator(".vault-agent-history-panel .vault-agent-history-item", { hasText: "Scheduled: Add my plan" });
		await row.waitFor({ state: "visible", timeout: 5_000 });
		await session.screenshot("scheduled-run-history");
		await row.locator(".vault-agent-history-title").click();
		const messages = page.locator(".vault-agent-messages");
		await messages.getByText("Here is today's plan").waitFor({ state: "visible", timeout: 5_000 });
		assert.match(await messages.textContent(), /Scheduled: the saved prompt “Morning” ran for its slot \d{4}-\d\d-\d\d 00:00 \(daily 00:00\)\. It ran late/);
		// The refused write reads "Failed" (the reason is in the block), not its code.
		const refused = messages.locator(".vault-agent-tool-call.is-error");
		assert.equal(await refused.locator(".vault-agent-tool-status").textContent(), "Failed");
		assert.match(await refused.locator(".vault-agent-tool-result").textContent(), /Read only/);
		await session.screenshot("scheduled-run-chat");
	});
});
