// The notes an answer was drawn from, in Chromium from the built main.js:
// after a ranked search, the answer's [[link]] to a found note becomes a
// "Sources" row under it, whose links open the note at its heading and offer
// Obsidian's hover preview. Screenshot at a 320-px sidebar in test-output/.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { openChat, outputDir, sendMessage, startBrowserPlugin, turnEnded } from "../support/browser.mjs";
import { emulator, emulatorEnv } from "../support/harness.mjs";
import { openaiStream, startModelServer } from "../support/model-servers.mjs";

describe("sources under an answer, in Chromium", () => {
	let server;
	let session;
	let page;

	before(async () => {
		server = await startModelServer();
		session = await startBrowserPlugin({
			data: { cliPath: emulator, chat: { provider: "openAi", openai: { baseUrl: `${server.url}/v1`, model: "test-model", apiKeySecret: "" } } },
			env: (vault) => emulatorEnv(vault),
			viewport: { width: 1000, height: 700 },
		});
		({ page } = session);
		await page.evaluate(() => {
			document.querySelector(".workspace-split.mod-right-split").style.width = "320px";
		});
		await openChat(page);
	});

	after(async () => {
		await session?.close();
		await server?.close();
	});

	it("shows the cited found note under the answer, opening it at its heading with a hover preview", async () => {
		server.script(
			{ stream: openaiStream({ toolCalls: [["obsidianSearch", { command: "find", query: "when is the public launch" }]] }) },
			{ stream: openaiStream({ text: "The public launch is planned for the spring, after the beta ([[Launch plan]]).", usage: { input: 2400, output: 30 } }) },
		);
		await sendMessage(page, "when is the launch?");
		await turnEnded(page, 60_000);
		const row = page.locator(".vault-agent-sources").last();
		await row.waitFor({ state: "visible", timeout: 10_000 });
		const links = await row.locator("a.internal-link").evaluateAll((els) => els.map((el) => ({ href: el.dataset.href, text: el.textContent })));
		assert.equal(links.length, 1, JSON.stringify(links));
		assert.match(links[0].href, /^Projects\/Launch plan(#.+)?$/);
		assert.match(links[0].text, /^Launch plan( › .+)?$/);
		// It sits under the answer, before the answer's row of actions.
		const order = await page.evaluate(() => {
			const sources = [...document.querySelectorAll(".vault-agent-sources")].at(-1);
			return [sources.previousElementSibling?.className ?? "", sources.nextElementSibling?.className ?? ""];
		});
		assert.match(order[0], /vault-agent-msg is-assistant/);
		assert.match(order[1], /vault-agent-answer-actions/);
		await page.evaluate(() => {
			const workspace = window.__harness.app.workspace;
			window.__opened = [];
			window.__hovers = [];
			workspace.openLinkText = async (...args) => window.__opened.push(args);
			workspace.on("hover-link", (info) => window.__hovers.push(info.linktext));
		});
		const link = row.locator("a.internal-link").first();
		await link.click();
		await link.hover();
		assert.deepEqual(await page.evaluate(() => window.__opened), [[links[0].href, "", false]]);
		assert.ok((await page.evaluate(() => window.__hovers)).includes(links[0].href));
		await page.locator(".vault-agent-messages").screenshot({ path: join(outputDir, "chat-sources-320.png") });
		assert.deepEqual(session.errors, []);
	});
});
