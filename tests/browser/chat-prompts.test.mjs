// Saved prompts and a rewrite of a selection in Chromium from the built
// main.js: `/` in the input lists the saved prompts (by name, no badge on
// each row; a coding agent's commands show as /name), picking one sends it
// filled in; a prompt is written, edited and deleted from the chat (the `/`
// menu's "New prompt…" and the empty state's list); a rewrite of
// a selected line comes back as the edit card, approved with a real click;
// the editor's Rewrite modal can use a saved prompt instead of typed words.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
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
		assert.deepEqual(await offers.locator(".suggestion-title").allTextContents(), ["Plan my day", "Proofread", "Translate"], "names, no badge on every row");
		assert.equal(await page.locator(".suggestion-item .suggestion-title").last().textContent(), "New prompt…", "writing one is offered last");
		const problem = await offers.nth(2).locator(".vault-agent-prompt-problem").textContent();
		assert.match(problem, /its profile property "Cloud" is not one of your model profiles \(Local\)/);
		assert.ok(!problem.includes("`"), `no Markdown punctuation shown raw: ${problem}`);
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

	it("writes, edits and deletes a saved prompt from the chat: the / menu's New prompt… and the empty state's list", async () => {
		const input = page.locator(".vault-agent-input");
		const file = (name) => join(session.vault, "Prompts", `${name}.md`);
		await page.locator(".vault-agent-new-chat").click();
		await input.click();
		await input.pressSequentially("/");
		await page.locator(".suggestion-item.vault-agent-new-prompt").click();
		const form = page.locator(".modal.vault-agent-prompt-editor");
		await form.waitFor({ state: "visible", timeout: 5_000 });
		assert.equal(await form.locator(".modal-title").textContent(), "New saved prompt");
		assert.equal(await input.inputValue(), "", "the typed / is gone");
		// A name a note cannot have is refused with the fix, and nothing is written.
		await form.locator("input.vault-agent-prompt-name").fill("Week/review");
		await form.locator("textarea.vault-agent-prompt-text").fill("Review my week up to {{date}}.");
		await form.locator("button.vault-agent-prompt-save").click();
		assert.match(await form.locator(".vault-agent-prompt-editor-error").textContent(), /holds “\/”, which a note's name cannot hold/);
		assert.equal(existsSync(join(session.vault, "Prompts", "Week")), false);
		await form.locator("input.vault-agent-prompt-name").fill("Weekly review");
		await form.locator("input.vault-agent-prompt-description").fill("Review: the week so far");
		await session.screenshot("chat-prompt-editor", { fit: ".modal.vault-agent-prompt-editor" });
		await form.locator("button.vault-agent-prompt-save").click();
		await form.waitFor({ state: "detached", timeout: 5_000 });
		assert.equal(readFileSync(file("Weekly review"), "utf8"), '---\ndescription: "Review: the week so far"\n---\nReview my week up to {{date}}.\n');

		// The empty state lists it with Edit and Delete.
		const row = page.locator(".vault-agent-prompt-row", { hasText: "Weekly review" });
		await row.waitFor({ state: "visible", timeout: 5_000 });
		assert.deepEqual(await page.locator(".vault-agent-prompt-row .vault-agent-prompt-name-text").allTextContents(), ["Plan my day", "Proofread", "Translate", "Weekly review"]);
		assert.equal(await row.locator(".vault-agent-prompt-note").textContent(), "Review: the week so far");
		await session.screenshot("chat-empty-prompts", { fit: ".vault-agent-chat" });
		await row.locator("button.vault-agent-prompt-edit").click();
		await form.waitFor({ state: "visible", timeout: 5_000 });
		assert.equal(await form.locator(".modal-title").textContent(), "Edit saved prompt");
		assert.equal(await form.locator("input.vault-agent-prompt-name").inputValue(), "Weekly review");
		assert.equal(await form.locator("textarea.vault-agent-prompt-text").inputValue(), "Review my week up to {{date}}.");
		await form.locator("input.vault-agent-prompt-name").fill("Week in review");
		await form.locator("textarea.vault-agent-prompt-text").fill("Review my week, briefly.");
		await form.locator("button.vault-agent-prompt-save").click();
		await form.waitFor({ state: "detached", timeout: 5_000 });
		assert.equal(existsSync(file("Weekly review")), false, "renamed, not copied");
		assert.equal(readFileSync(file("Week in review"), "utf8"), '---\ndescription: "Review: the week so far"\n---\nReview my week, briefly.\n');
		// An edit keeps the properties the form does not show.
		await page.locator(".vault-agent-prompt-row", { hasText: "Proofread" }).locator("button.vault-agent-prompt-edit").click();
		await form.locator("textarea.vault-agent-prompt-text").fill("Proofread carefully: {{selection}}");
		await form.locator("button.vault-agent-prompt-save").click();
		await form.waitFor({ state: "detached", timeout: 5_000 });
		assert.equal(readFileSync(file("Proofread"), "utf8"), '---\ndescription: "Fix spelling and grammar only"\nmode: askEveryChange\n---\nProofread carefully: {{selection}}\n');

		// Delete asks first; Cancel keeps it, Delete moves it to the trash.
		const renamed = page.locator(".vault-agent-prompt-row", { hasText: "Week in review" });
		await renamed.locator("button.vault-agent-prompt-delete").click();
		const ask = page.locator(".modal", { hasText: "Delete this saved prompt?" });
		await ask.locator("button", { hasText: "Cancel" }).click();
		assert.equal(existsSync(file("Week in review")), true, "Cancel deletes nothing");
		await renamed.locator("button.vault-agent-prompt-delete").click();
		await ask.locator("button.vault-agent-prompt-delete-confirm").click();
		await renamed.waitFor({ state: "detached", timeout: 5_000 });
		assert.equal(existsSync(file("Week in review")), false);
		assert.equal(existsSync(join(session.vault, ".trash", "Prompts", "Week in review.md")), true, "in the trash, not gone");
		await input.click();
		await input.pressSequentially("/");
		await page.locator(".suggestion-item").first().waitFor({ state: "visible", timeout: 5_000 });
		assert.deepEqual(await page.locator(".suggestion-item .suggestion-title").allTextContents(), ["Plan my day", "Proofread", "Translate", "Compact", "New prompt…"]);
		await page.keyboard.press("Escape");
		await input.fill("");
		assert.deepEqual(session.errors, []);
	});
});
