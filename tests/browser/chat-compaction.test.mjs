// Context you can keep small (issue 41.6) in Chromium from the built
// main.js, in a 320 px sidebar: "Compact" from the `/` menu summarises the
// earlier turns and the transcript keeps them, with a divider that opens to
// the summary (drawn again where it was when the chat is drawn anew); "Fork
// from here" under an answer opens a new chat up to that answer (the summary
// of exactly those turns with it) and leaves the original in the history. Screenshots: chat-compaction-320.png,
// chat-fork-320.png.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { openChat, sendMessage, startBrowserPlugin, turnEnded } from "../support/browser.mjs";
import { emulator, emulatorEnv } from "../support/harness.mjs";
import { isSummaryRequest, openaiStream, startModelServer } from "../support/model-servers.mjs";
import { overflowing, settled, sidebar } from "../support/sidebar-geometry.mjs";

const SUMMARY = "The user asked what is open on the Roadmap; two tasks were named.";

describe("compact and fork in Chromium", () => {
	let server;
	let session;
	let page;

	before(async () => {
		server = await startModelServer({ summary: SUMMARY });
		session = await startBrowserPlugin({
			data: {
				cliPath: emulator,
				chat: { profiles: [{ id: "p", provider: "openAi", baseUrl: `${server.url}/v1`, model: "test-model", apiKeySecret: "", contextWindow: 32000 }], activeProfile: "p" },
			},
			env: (vault) => emulatorEnv(vault),
			viewport: { width: 1000, height: 760 },
		});
		({ page } = session);
		await openChat(page);
		await sidebar(page, 320);
	});

	after(async () => {
		await session?.close();
		await server?.close();
	});

	async function ask(text, answer) {
		server.script({ stream: openaiStream({ text: answer }) });
		await sendMessage(page, text);
		await turnEnded(page);
	}

	it("compacts from the / menu: a divider before the turn left whole, the summary behind it, every message kept", async () => {
		await ask("What is still open on the Roadmap?", `Two tasks: **Review PR** and **Call Alice**. ${"The Roadmap also lists the launch milestones, the owners of each, and the dates they are due. ".repeat(6)}`);
		await ask("And who owns the launch plan?", "Alice owns it; it is due on 2026-03-15.");
		const input = page.locator(".vault-agent-input");
		await input.click();
		await input.pressSequentially("/comp");
		const offer = page.locator(".suggestion-container .vault-agent-compact-command");
		await offer.waitFor({ state: "visible", timeout: 5_000 });
		assert.match(await offer.textContent(), /Compact/);
		await input.press("Enter");
		await turnEnded(page);
		assert.equal(await input.inputValue(), "", "the typed /comp was only the way into the menu");
		const divider = page.locator(".vault-agent-compaction");
		await divider.waitFor({ state: "visible", timeout: 5_000 });
		assert.match(await divider.locator("summary").textContent(), /^Earlier turns summarised \(1 turn, saved \d+ tokens\)$/);
		// Where it is: after the first turn, before the second question.
		const order = await page.evaluate(() => [...document.querySelectorAll(".vault-agent-messages > *")].map((el) => (el.matches(".vault-agent-compaction") ? "divider" : el.matches(".vault-agent-msg.is-user") ? "user" : null)).filter(Boolean));
		assert.deepEqual(order, ["user", "divider", "user"]);
		assert.equal(server.requests.filter((r) => isSummaryRequest(r.body)).length, 1);
		await divider.locator("summary").click();
		assert.equal(await divider.locator(".vault-agent-compaction-summary").textContent(), SUMMARY);
		await settled(page);
		assert.deepEqual(await overflowing(page, ".vault-agent-compaction, .vault-agent-compaction *"), [], "nothing sticks out at 320 px");
		await session.screenshot("chat-compaction-320", { fit: ".vault-agent-chat" });
		// Drawn anew (Regenerate redraws the chat from its start): the divider is where it was.
		server.script({ stream: openaiStream({ text: "Alice owns the launch plan." }) });
		await page.locator(".vault-agent-regenerate").click();
		await turnEnded(page);
		const again = await page.evaluate(() => [...document.querySelectorAll(".vault-agent-messages > *")].map((el) => (el.matches(".vault-agent-compaction") ? "divider" : el.matches(".vault-agent-msg.is-user") ? "user" : null)).filter(Boolean));
		assert.deepEqual(again, ["user", "divider", "user"]);
		// The model read the summary, not the first turn.
		const sent = JSON.stringify(server.requests.at(-1).body.messages);
		assert.ok(sent.includes(SUMMARY) && !sent.includes("What is still open on the Roadmap?"), sent);
	});

	it("forks from an answer into a new chat opened here; the original stays in the history", async () => {
		const original = await page.locator(".vault-agent-chat-title").textContent();
		// A user's message has it too, beside the pencil, inside the pane.
		const userFork = page.locator(".vault-agent-msg.is-user .vault-agent-fork").first();
		await page.locator(".vault-agent-msg.is-user").first().hover();
		const box = await userFork.boundingBox();
		const pane = await page.locator(".vault-agent-messages").boundingBox();
		assert.ok(box && box.x >= pane.x - 1, `the fork button is inside the pane: ${JSON.stringify(box)} ${JSON.stringify(pane)}`);
		const firstRow = page.locator(".vault-agent-answer-actions").first();
		await firstRow.hover();
		await firstRow.locator(".vault-agent-fork").click();
		await page.waitForFunction((title) => document.querySelector(".vault-agent-chat-title")?.textContent === `${title} (fork)`, original, { timeout: 5_000 });
		assert.equal(await page.locator(".vault-agent-notice").first().textContent(), `Forked from “${original}”.`);
		assert.equal(await page.locator(".vault-agent-msg.is-user").count(), 1);
		assert.match(await page.locator(".vault-agent-msg.is-assistant").last().textContent(), /Two tasks/);
		// The summary covers exactly the turn the fork holds: it comes along, its divider after that turn.
		assert.equal(await page.locator(".vault-agent-compaction").count(), 1);
		assert.ok(await page.evaluate(() => document.querySelector(".vault-agent-messages > .vault-agent-compaction")?.previousElementSibling?.matches(".vault-agent-answer-actions, .vault-agent-msg.is-assistant")));
		await session.screenshot("chat-fork-320", { fit: ".vault-agent-chat" });
		await page.locator(".vault-agent-history-button").click();
		const rows = page.locator(".vault-agent-history-item");
		await rows.first().waitFor({ state: "visible", timeout: 5_000 });
		const titles = await rows.allTextContents();
		assert.ok(titles.some((t) => t.includes(`${original} (fork)`)), titles.join(" | "));
		assert.ok(titles.some((t) => t.includes(original) && !t.includes("(fork)")), titles.join(" | "));
		// The fork goes on by itself.
		await page.locator(".vault-agent-history-button").click();
		await ask("Only the first task, please.", "Review PR.");
		const sent = server.requests.at(-1).body.messages.filter((m) => m.role === "user").map((m) => m.content);
		assert.equal(sent.length, 1, "the summary joins the new message");
		assert.ok(sent[0].includes(SUMMARY) && sent[0].endsWith("Only the first task, please."), sent[0]);
	});
});
