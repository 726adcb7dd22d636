// Saved prompts and a rewrite of a selection in Chromium from the built
// main.js: `/` in the input lists the saved prompts (marked apart from a
// coding agent's commands), picking one sends it filled in, and a rewrite of
// a selected line comes back as the edit card, approved with a real click;
// the editor's Rewrite modal can use a saved prompt instead of typed words.
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
				await view.rewrite({ path: "Rewrite.md", text, from, to }, { instruction: "shorter" });
			},
			{ text: NOTE, from, to: from + LINE.length },
		);
		const card = page.locator(".vault-agent-inline-card .vault-agent-confirm").last();
		await card.waitFor({ state: "visible", timeout: 15_000 });
		assert.match(await page.locator(".vault-agent-msg.is-user").last().textContent(), /Rewrite the selection: shorter/);
		assert.equal((await card.textContent()).match(/\+1 −1 lines/g)?.length, 1, "the counts once");
		await session.screenshot("chat-rewrite-card");
		await card.locator("button.vault-agent-approve").click();
		await turnDone();
		await page.waitForFunction(() => document.querySelector(".vault-agent-undo"), null, { timeout: 10_000 });
		assert.equal(readFileSync(join(session.vault, "Rewrite.md"), "utf8"), NOTE.replace(LINE, "We discussed the roadmap at length and decided nothing."));
		await session.screenshot("chat-rewrite-approved");
	});

	it("rewrites the selection with a saved prompt picked in the editor's Rewrite modal, under the prompt's mode", async () => {
		writeFileSync(join(session.vault, "Rewrite.md"), NOTE);
		const from = NOTE.indexOf(LINE);
		await page.evaluate(
			({ text, from, to }) => {
				const { app } = window.__harness;
				app.workspace.openFile__(app.vault.getAbstractFileByPath("Rewrite.md"), { selection: text.slice(from, to) });
				// What Obsidian's editor answers for the selected line.
				const offsetToPos = (offset) => {
					const before = text.slice(0, offset).split("\n");
					return { line: before.length - 1, ch: before.at(-1).length };
				};
				const editor = {
					somethingSelected: () => true,
					getSelection: () => text.slice(from, to),
					getValue: () => text,
					getCursor: (which) => offsetToPos(which === "to" ? to : from),
					posToOffset: (pos) => text.split("\n").slice(0, pos.line).reduce((n, l) => n + l.length + 1, 0) + pos.ch,
				};
				app.commands.commands["vault-agent:rewrite-selection"].editorCheckCallback(false, editor);
			},
			{ text: NOTE, from, to: from + LINE.length },
		);
		const modal = page.locator(".modal .vault-agent-rewrite");
		await modal.waitFor({ state: "visible", timeout: 10_000 });
		const picker = modal.locator("select");
		await picker.waitFor({ state: "visible" });
		assert.deepEqual(await picker.locator("option").allTextContents(), ["None", "Plan my day", "Proofread"], "a prompt with a problem is not offered");
		await picker.selectOption({ label: "Proofread" });
		assert.equal(await modal.locator("input[type=text]").isDisabled(), true, "the prompt is the instruction");
		// The open note's chip with its selection fits the sidebar; the selection gives way before the note's name.
		const chip = await page.locator(".vault-agent-chip.is-open-note").evaluate((el) => {
			const box = el.getBoundingClientRect();
			const holder = el.parentElement.getBoundingClientRect();
			const path = el.querySelector(".vault-agent-chip-path");
			const remove = el.querySelector(".vault-agent-chip-remove").getBoundingClientRect();
			return { right: box.right, holder: holder.right, removeRight: remove.right, path: path.textContent, pathCut: path.scrollWidth > path.clientWidth };
		});
		assert.ok(chip.right <= chip.holder + 0.5 && chip.removeRight <= chip.holder + 0.5, `the chip stays inside the sidebar: ${JSON.stringify(chip)}`);
		assert.equal(chip.pathCut, false, `the note's name is whole: ${JSON.stringify(chip)}`);
		await session.screenshot("chat-rewrite-with-prompt", { fit: ".modal" });

		server.script({ stream: openaiStream({ text: "We talked about the roadmap for a long time and decided nothing." }) });
		await modal.locator("button.mod-cta").click();
		// The earlier test's card is answered; this one waits for a click.
		const approve = page.locator(".vault-agent-confirm button.vault-agent-approve:not([disabled])");
		await approve.waitFor({ state: "visible", timeout: 15_000 });
		assert.equal(await page.locator(".vault-agent-msg.is-user .vault-agent-msg-text").last().textContent(), `Rewrite the selection: Proofread: ${LINE}`);
		assert.match(await page.locator(".vault-agent-messages").textContent(), /Saved prompt “Proofread” wants to change "Rewrite.md"/, "the prompt's mode asks for every change");
		const asked = server.requests.filter((r) => r.url.endsWith("/chat/completions")).at(-1).body;
		assert.equal(asked.tools, undefined, "a rewrite offers no tools");
		await approve.click();
		await turnDone();
		assert.equal(readFileSync(join(session.vault, "Rewrite.md"), "utf8"), NOTE.replace(LINE, "We talked about the roadmap for a long time and decided nothing."));
	});
});
