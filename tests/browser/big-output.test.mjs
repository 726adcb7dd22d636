// A big tool result in the chat, in Chromium from the built main.js: a note
// of 50 000 open tasks (about 1 MiB) behind the CLI emulator, listed by the
// model's `tasks` call. The tool block shows the first lines at once and the
// rest only on "Show all", so a result this size does not stall the view.
// Leaves test-output/big-output.png.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { openChat, startBrowserPlugin } from "../support/browser.mjs";
import { emulator, emulatorEnv } from "../support/harness.mjs";
import { openaiStream, startModelServer } from "../support/model-servers.mjs";

const TASKS = 50_000;

describe("a big tool result in the chat", () => {
	let server;
	let session;
	let page;

	before(async () => {
		server = await startModelServer();
		session = await startBrowserPlugin({
			data: {
				cliPath: emulator,
				outputCapBytes: 4 * 1024 * 1024,
				chat: { provider: "openAi", openai: { baseUrl: `${server.url}/v1`, model: "test-model", apiKeySecret: "" } },
			},
			env: (vault) => {
				const lines = Array.from({ length: TASKS }, (_, i) => `- [ ] Task number ${i + 1} of the big list`);
				writeFileSync(join(vault, "Big list.md"), `${lines.join("\n")}\n`);
				return emulatorEnv(vault);
			},
			viewport: { width: 1100, height: 900 },
		});
		({ page } = session);
		await openChat(page);
	});

	after(async () => {
		await session?.close();
		await server?.close();
	});

	it("shows the first lines at once and the rest on Show all", async () => {
		server.script(
			{ stream: openaiStream({ toolCalls: [["obsidianTasks", { command: "tasks", path: "Big list.md" }]] }) },
			{ stream: openaiStream({ text: "That is a long list." }) },
		);
		await page.locator(".vault-agent-input").fill("What is on the big list?");
		await page.locator(".vault-agent-send").click();
		await page.waitForFunction(() => !document.querySelector(".vault-agent-chat.is-running"), null, { timeout: 30_000 });
		const block = page.locator(".vault-agent-tool-call").last();
		await block.locator("summary").first().click();
		const text = block.locator(".vault-agent-tool-text");
		const shown = await text.evaluate((el) => el.textContent.split("\n").filter(Boolean).length);
		assert.ok(shown > 0 && shown <= 200, `${shown} lines drawn at first`);
		const button = block.locator("button.vault-agent-show-all");
		assert.match(await button.textContent(), /^Show all [\d,. ]+ lines$/);
		await session.screenshot("big-output", { fit: ".vault-agent-chat .vault-agent-messages" });
		await button.click();
		const all = await text.evaluate((el) => el.textContent.split("\n").filter((l) => l.includes("Task number")).length);
		assert.equal(all, TASKS, "every task, once asked for");
		assert.equal(await block.locator("button.vault-agent-show-all").count(), 0);
		assert.deepEqual(session.errors, []);
	});
});
