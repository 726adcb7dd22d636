// Saved prompts and a rewrite of a selection in Chromium from the built
// main.js: `/` in the input lists the saved prompts (marked apart from a
// coding agent's commands), picking one sends it filled in, and a rewrite of
// a selected line comes back as the edit card, approved with a real click.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { openChat, startBrowserPlugin } from "../support/browser.mjs";
import { emulator, emulatorEnv } from "../support/harness.mjs";
import { openaiStream, startModelServer } from "../support/model-servers.mjs";

const NOTE = "# Meeting notes\n\nWe have talked about the roadmap for a very long time and in the end decided nothing at all.\nNext steps follow.\n";
const LINE = "We have talked about the roadmap for a very long time and in the end decided nothing at all.";

describe("saved prompts and rewrites in Chromium", () => {
	let server;
	let session;
	let page;

	before(async () => {
		server = await startModelServer();
		session = await startBrowserPlugin({
			data: {
				cliPath: emulator,
				permissionMode: "askBeforeEdits",
				chat: {
					profiles: [{ id: "p", name: "Local", provider: "openAi", baseUrl: `${server.url}/v1`, model: "test-model" }],
					activeProfile: "p",
					promptsFolder: "Prompts",
				},
			},
			env: (vault) => {
				mkdirSync(join(vault, "Prompts"), { recursive: true });
				writeFileSync(join(vault, "Prompts", "Plan my day.md"), "---\ndescription: Today's plan from the daily note\n---\nMake a plan for {{date}} from my tasks.\n");
				writeFileSync(join(vault, "Prompts", "Proofread.md"), "---\ndescription: Fix spelling and grammar only\nmode: askEveryChange\n---\nProofread: {{selection}}\n");
				writeFileSync(join(vault, "Prompts", "Translate.md"), "---\nprofile: Cloud\n---\nTranslate {{selection}} into French.\n");
				writeFileSync(join(vault, "Rewrite.md"), NOTE);
				return emulatorEnv(vault);
			},
			viewport: { width: 1100, height: 800 },
		});
		({ page } = session);
		await openChat(page);
	});

	after(async () => {
		await session?.close();
		await server?.close();
	});

	const turnDone = () => page.waitForFunction(() => !document.querySelector(".vault-agent-chat.is-running"), null, { timeout: 15_000 });

	it("offers the saved prompts on / and sends the picked one filled in", async () => {
		const input = page.locator(".vault-agent-input");
		// The empty state is drawn once the chat has listed the saved prompts.
		await page.locator(".vault-agent-empty-state").waitFor({ state: "visible", timeout: 10_000 });
		await input.click();
		await input.pressSequentially("/");
		const offers = page.locator(".suggestion-item.vault-agent-saved-prompt");
		await offers.first().waitFor({ state: "visible", timeout: 10_000 });
		assert.deepEqual(await offers.locator(".suggestion-title").allTextContents(), ["Plan my daySaved prompt", "ProofreadSaved prompt", "TranslateSaved prompt"]);
		assert.match(await offers.nth(2).locator(".vault-agent-prompt-problem").textContent(), /`profile` "Cloud" is not one of your model profiles \(Local\)/);
		await session.screenshot("chat-slash-saved-prompts");

		server.script({ stream: openaiStream({ text: "Here is your plan." }) });
		await offers.first().click();
		await turnDone();
		const today = await page.evaluate(() => {
			const d = new Date();
			return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
		});
		assert.equal(await page.locator(".vault-agent-msg.is-user .vault-agent-msg-text").last().textContent(), `Make a plan for ${today} from my tasks.`);
		assert.equal(await input.inputValue(), "", "the typed / is gone");
		const sent = server.requests.filter((r) => r.url.endsWith("/chat/completions")).at(-1).body.messages.at(-1).content;
		assert.ok(sent.includes(`Make a plan for ${today} from my tasks.`), sent);
	});

	it("shows a rewrite of a selected line as the edit card and writes only that line on Approve", async () => {
		const from = NOTE.indexOf(LINE);
		server.script({ stream: openaiStream({ text: "We discussed the roadmap at length and decided nothing." }) });
		await page.evaluate(
			async ({ text, from, to }) => {
				const view = window.__harness.app.workspace.getLeavesOfType("vault-agent-chat")[0].view;
				await view.rewrite({ path: "Rewrite.md", text, from, to }, "shorter");
			},
			{ text: NOTE, from, to: from + LINE.length },
		);
		const card = page.locator(".vault-agent-inline-card .vault-agent-confirm").last();
		await card.waitFor({ state: "visible", timeout: 15_000 });
		assert.match(await page.locator(".vault-agent-msg.is-user").last().textContent(), /Rewrite the selection: shorter/);
		await session.screenshot("chat-rewrite-card");
		await card.locator("button.vault-agent-approve").click();
		await turnDone();
		await page.waitForFunction(() => document.querySelector(".vault-agent-undo"), null, { timeout: 10_000 });
		assert.equal(readFileSync(join(session.vault, "Rewrite.md"), "utf8"), NOTE.replace(LINE, "We discussed the roadmap at length and decided nothing."));
		await session.screenshot("chat-rewrite-approved");
	});
});
