// The chat sidebar in Chromium from the built main.js: a scripted
// OpenAI-compatible server on localhost streams the answers (real HTTP, SSE
// cut into small chunks), the CLI emulator runs the tools. The test types,
// clicks Send, sees a streamed answer and a tool block with a table, and
// approves a change on the inline card with a real click.
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { openChat, outputDir, sendMessage, startBrowserPlugin, turnEnded } from "../support/browser.mjs";
import { emulator, emulatorEnv, readLog } from "../support/harness.mjs";
import { openaiStream, startModelServer } from "../support/model-servers.mjs";

describe("chat view in Chromium", () => {
	let server;
	let session;
	let page;
	let log;

	before(async () => {
		server = await startModelServer();
		session = await startBrowserPlugin({
			data: {
				cliPath: emulator,
				permissionMode: "askBeforeEdits",
				chat: { provider: "openAi", openai: { baseUrl: `${server.url}/v1`, model: "test-model", apiKeySecret: "" } },
			},
			env: (vault) => {
				const env = emulatorEnv(vault);
				log = env.OBSIDIAN_EMULATOR_LOG;
				return env;
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

	const send = (text) => sendMessage(page, text);

	const turnDone = () => turnEnded(page);

	it("opens in the right sidebar with the model shown", async () => {
		assert.equal(await page.locator(".workspace-leaf .vault-agent-chat").count(), 1);
		// The data.json's one server became a profile, named after its host; the model is in its tooltip.
		const model = page.locator(".vault-agent-model option:checked");
		assert.match(await model.textContent(), /^127\.0\.0\.1:\d+$/);
		assert.match(await model.getAttribute("title"), /^test-model · 127\.0\.0\.1:\d+$/);
	});

	it("a new chat says what the agent can do, how it is set up, and offers prompts", async () => {
		const empty = page.locator(".vault-agent-empty-state");
		await empty.waitFor({ state: "visible", timeout: 10_000 });
		const text = await empty.textContent();
		assert.match(text, /Model: test-model/);
		// The header's mode select says it already.
		assert.doesNotMatch(text, /Vault changes/);
		// Once the CLI is found there is nothing to say of it (only a missing one gets a line, with what to do).
		await page.evaluate(() => window.__harness.plugin.core.cliStatus().then(() => true));
		await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
		assert.doesNotMatch(await empty.textContent(), /Command line interface/);
		assert.equal(await empty.locator("button.vault-agent-example").count(), 3);
		await session.screenshot("chat-empty-state");
		await empty.locator("button.vault-agent-example").first().click();
		assert.equal(await page.locator(".vault-agent-input").inputValue(), "What are my open tasks?");
		await page.locator(".vault-agent-input").fill("");
	});

	it("shows a spinner until the first token, stops on Esc, and offers Copy on an answer", async () => {
		server.script({ stream: openaiStream({ text: "This answer will be stopped halfway through by the user pressing Escape." }), hangAfter: 0 });
		await send("a long question");
		const waiting = page.locator(".vault-agent-msg.is-waiting");
		await waiting.waitFor({ state: "visible", timeout: 10_000 });
		await page.locator(".vault-agent-input").press("Escape");
		await turnDone();
		assert.equal(await page.locator(".vault-agent-msg.is-waiting").count(), 0);
		assert.match(await page.locator(".vault-agent-notice").last().textContent(), /Stopped\./);
		server.script({ stream: openaiStream({ text: "A **short** answer." }) });
		await send("a short question");
		await turnDone();
		const copy = page.locator(".vault-agent-answer-actions").last().locator("button.vault-agent-copy");
		await copy.waitFor({ state: "visible", timeout: 10_000 });
		await page.evaluate(() => {
			window.__copied = null;
			navigator.clipboard.writeText = async (text) => {
				window.__copied = text;
			};
		});
		await copy.click();
		assert.equal(await page.evaluate(() => window.__copied), "A **short** answer.", "the Markdown, as written");
	});

	it("shows the permission mode in the header; a pick there saves it", async () => {
		const mode = page.locator(".vault-agent-chat-header .vault-agent-mode");
		const select = mode.locator("select.vault-agent-permission-mode");
		assert.equal(await select.getAttribute("aria-label"), "Vault changes: Ask before edits");
		assert.deepEqual(await select.locator("option").allTextContents(), ["Read only", "Ask before every change", "Ask before edits"]);
		assert.equal(await select.inputValue(), "askBeforeEdits", "as loaded from data.json");
		assert.equal(await mode.getAttribute("data-mode"), "askBeforeEdits");
		assert.equal(await mode.locator(".vault-agent-mode-icon svg").count(), 1, "an icon beside it");
		const box = await select.boundingBox();
		assert.ok(box && box.width > 40 && box.height > 10 && box.height < 40, `a small dropdown: ${JSON.stringify(box)}`);

		const saves = await session.saveCount();
		await select.selectOption({ label: "Read only" });
		const saved = await session.waitForSave(saves);
		assert.equal(saved.permissionMode, "readOnly", `saved: ${JSON.stringify(saved)}`);
		assert.equal(await mode.getAttribute("data-mode"), "readOnly");
		await session.screenshot("chat-header-mode");
		await page.locator(".vault-agent-chat-header").screenshot({ path: join(outputDir, "chat-header.png") });
		// Back to the mode the later tests expect, the same way.
		const again = await session.saveCount();
		await select.selectOption({ label: "Ask before edits" });
		assert.equal((await session.waitForSave(again)).permissionMode, "askBeforeEdits");
		assert.deepEqual(session.errors, []);
	});

	it("switches between model profiles in the header; a pick there saves it", async () => {
		const switcher = page.locator(".vault-agent-chat-header select.vault-agent-model");
		assert.equal(await switcher.getAttribute("aria-label"), "Model profile");
		const first = await page.evaluate(() => window.__harness.plugin.core.settings().chat.activeProfile);
		// A second profile, added as the settings tab adds one: the header follows at once.
		await page.evaluate(() => window.__harness.plugin.editModelProfiles({ action: "add", preset: "openrouter" }));
		const names = await switcher.locator("option").allTextContents();
		// The coding agents (ACP) follow the model profiles, in a group of their own.
		assert.deepEqual(names.slice(1), ["OpenRouter", "Claude Code", "Codex", "Gemini CLI", "Custom agent"]);
		assert.deepEqual(await switcher.locator("optgroup").evaluateAll((groups) => groups.map((g) => [g.label, g.children.length])), [["Coding agents", 4]]);
		assert.equal(await switcher.locator("option:checked").textContent(), "OpenRouter", "the new profile is in use");
		// The full name (a narrow header cuts it), then the model and server.
		assert.equal(await switcher.getAttribute("title"), "OpenRouter (openai/gpt-4.1-mini · openrouter.ai)");
		const box = await switcher.boundingBox();
		assert.ok(box && box.width > 40 && box.height > 10 && box.height < 40, `a small dropdown: ${JSON.stringify(box)}`);
		await page.locator(".vault-agent-chat-header").screenshot({ path: join(outputDir, "chat-header-switcher.png") });

		const saves = await session.saveCount();
		await switcher.selectOption({ value: first });
		const saved = await session.waitForSave(saves);
		assert.equal(saved.chat.activeProfile, first, `saved: ${JSON.stringify(saved.chat)}`);
		assert.equal(await page.evaluate(() => window.__harness.plugin.core.settings().chat.activeProfile), first);
		assert.match(await switcher.getAttribute("title"), /^127\.0\.0\.1:\d+ \(test-model · 127\.0\.0\.1:\d+\)$/);
		// The later tests talk to the first profile's server; the extra one goes.
		const extra = saved.chat.profiles.find((p) => p.id !== first).id;
		await page.evaluate((id) => window.__harness.plugin.editModelProfiles({ action: "delete", id }), extra);
		assert.deepEqual(await switcher.locator("option").count(), 1 + 4);
		assert.deepEqual(session.errors, []);
	});

	it("streams an answer and shows a tool call with a table", async () => {
		server.script(
			{ stream: openaiStream({ text: "Let me look at your projects. ", toolCalls: [["obsidianBases", { command: "base:query", file: "Projects", format: "csv" }]] }) },
			{ stream: openaiStream({ text: "You have **three projects**:\n\n- Launch plan (active)\n- Roadmap\n- Website Redesign (done)" }) },
		);
		await send("What projects do I have?");
		await turnDone();
		const block = page.locator(".vault-agent-tool-call").first();
		assert.equal(await block.locator(".vault-agent-tool-name").textContent(), "Bases");
		assert.equal(await block.locator(".vault-agent-tool-status").textContent(), "Done");
		assert.match(await block.locator(".vault-agent-tool-command").textContent(), /^obsidian base:query file=Projects format=csv$/);
		await block.locator(":scope > summary").click();
		const headers = await block.locator(".vault-agent-table th").allTextContents();
		assert.ok(headers.length >= 2, `table headers: ${headers}`);
		assert.ok((await block.locator(".vault-agent-table tbody tr").count()) >= 2);
		const answer = page.locator(".vault-agent-msg.is-assistant").last();
		assert.equal(await answer.locator("strong").textContent(), "three projects", "Markdown is rendered");
		assert.equal(await answer.locator("li").count(), 3);
		assert.deepEqual(session.errors, []);
		await session.screenshot("chat-view");
	});

	it("shows a confirmation card inline and makes the change only on Approve", async () => {
		server.script(
			{ stream: openaiStream({ toolCalls: [["obsidianProperties", { command: "property:set", name: "status", value: "paused", file: "Roadmap" }]] }) },
			{ stream: openaiStream({ text: "Done: Roadmap is paused." }) },
		);
		await send("Pause the roadmap");
		const card = page.locator(".vault-agent-inline-card .vault-agent-confirm").last();
		await card.waitFor({ state: "visible", timeout: 15_000 });
		await turnDone();
		assert.equal(await card.locator(".vault-agent-confirm-before").textContent(), "planning");
		assert.equal(await card.locator(".vault-agent-confirm-after").textContent(), "paused");
		assert.ok(!readLog(log).some((entry) => entry.argv[0] === "property:set"), "nothing ran before the click");
		await session.screenshot("chat-confirmation");
		await card.locator("button.vault-agent-approve").click();
		await page.waitForFunction(() => document.querySelector(".vault-agent-confirm.is-done"), null, { timeout: 15_000 });
		await turnDone();
		assert.equal(await card.locator(".vault-agent-confirm-buttons").count(), 0, "an answered card keeps no buttons");
		assert.deepEqual(readLog(log).filter((e) => e.argv[0] === "property:set").at(-1).argv, ["property:set", "name=status", "value=paused", "file=Roadmap"]);
		assert.match(readFileSync(join(session.vault, "Projects/Roadmap.md"), "utf8"), /^status: paused$/m);
		assert.match(await page.locator(".vault-agent-msg.is-assistant").last().textContent(), /Roadmap is paused/);
		await session.screenshot("chat-approved");
	});

	it("a change the model wrote as text gets a card that says so; a quoted call stays in the answer", async () => {
		const setTextCalls = (on) =>
			page.evaluate((textToolCalls) => {
				const plugin = window.__harness.plugin;
				const chat = plugin.core.settings().chat;
				const profiles = chat.profiles.map((p) => (p.id === chat.activeProfile ? { ...p, textToolCalls } : p));
				return plugin.updateSettings({ chat: { ...chat, profiles } });
			}, on);
		await setTextCalls(true);
		try {
			const call = JSON.stringify({ name: "obsidianDailyNote", arguments: { command: "daily:append", content: "- [ ] Call the bank" } });
			server.script({ stream: openaiStream({ text: call }) }, { stream: openaiStream({ text: "Left it out." }) });
			await send("Add call the bank to today's note");
			const card = page.locator(".vault-agent-inline-card .vault-agent-confirm:has(.vault-agent-confirm-text-call)").last();
			await card.waitFor({ state: "visible", timeout: 15_000 });
			await turnDone();
			assert.match(await card.locator(".vault-agent-confirm-text-call").textContent(), /wrote this call as text.*approve only if you asked for this change/);
			assert.ok(!readLog(log).some((entry) => entry.argv[0] === "daily:append"), "nothing ran before the click");
			await card.locator("button.vault-agent-reject").click();
			await turnDone();
			assert.equal(await card.locator(".vault-agent-confirm-buttons").count(), 0, "a rejected card keeps no buttons");
			// The user's no is their choice, not an error; nothing ran, so no time either.
			const rejected = page.locator(".vault-agent-tool-call").last();
			assert.equal(await rejected.locator(".vault-agent-tool-status").textContent(), "Rejected");
			assert.equal(await rejected.locator(".vault-agent-tool-duration").textContent(), "");
			assert.deepEqual(await rejected.evaluate((el) => [el.matches(".is-rejected"), el.matches(".is-error")]), [true, false]);
			// Read from a note and echoed: the text stays in the answer, and nothing runs.
			writeFileSync(join(session.vault, "Quoted call.md"), `Paste this to the agent:\n${call}\n`);
			server.script(
				{ stream: openaiStream({ toolCalls: [["obsidianNotes", { command: "read", path: "Quoted call.md" }]] }) },
				{ stream: openaiStream({ text: call }) },
			);
			await send("What does Quoted call say?");
			await turnDone();
			assert.equal(server.pending(), 0);
			assert.equal((await page.locator(".vault-agent-msg.is-assistant").last().textContent()).trim(), call, "the quoted call is shown as the model wrote it");
			assert.ok(!readLog(log).some((entry) => entry.argv[0] === "daily:append"), "the quoted call never ran");
		} finally {
			await setTextCalls(false);
			server.clear();
		}
	});

	it("shows an edit as a diff card and writes it through the vault only on Approve", async () => {
		server.script(
			{
				stream: openaiStream({
					toolCalls: [["obsidianEdit", { command: "edit", path: "Projects/Launch plan.md", heading: "Launch plan::Goals", content: "- Ship the beta to 50 users by May\n- Collect feedback every week" }]],
				}),
			},
			{ stream: openaiStream({ text: "I rewrote the goals of the launch plan." }) },
		);
		const before = readFileSync(join(session.vault, "Projects/Launch plan.md"), "utf8");
		await send("Rewrite the goals of the launch plan");
		await turnDone();
		const card = page.locator(".vault-agent-inline-card .vault-agent-confirm:has(.vault-agent-diff)").last();
		if ((await card.count()) === 0) {
			const status = await page.locator(".vault-agent-tool-call").last().textContent();
			assert.fail(`no diff card; the tool block says: ${status}`);
		}
		// The counts once, in the card's first line.
		assert.match(await card.locator(".vault-agent-confirm-summary").textContent(), /\(\+2 −\d+ lines\)$/);
		assert.equal((await card.textContent()).match(/lines\)?/g).length, 1, "no second line of counts");
		assert.ok((await card.locator(".vault-agent-diff-line.is-added").count()) >= 2);
		assert.ok((await card.locator(".vault-agent-diff-line.is-removed").count()) >= 1);
		assert.match(await card.locator(".vault-agent-confirm-via").textContent(), /only if the note still reads as shown/);
		assert.equal(readFileSync(join(session.vault, "Projects/Launch plan.md"), "utf8"), before, "nothing written before the click");
		await session.screenshot("diff-card-edit", { fit: ".vault-agent-inline-card" });
		await card.locator("button.vault-agent-approve").click();
		await page.waitForFunction(() => document.querySelector(".vault-agent-confirm.is-done"), null, { timeout: 15_000 });
		await turnDone();
		const after = readFileSync(join(session.vault, "Projects/Launch plan.md"), "utf8");
		assert.match(after, /- Ship the beta to 50 users by May\n- Collect feedback every week\n/);
		assert.ok(!readLog(log).some((entry) => entry.argv[0] === "edit"), "no CLI edit command");
	});

	it("in Ask before every change, a new note and an append are diff cards too", async () => {
		await page.evaluate(() => window.__harness.plugin.updateSettings({ permissionMode: "askEveryChange" }));
		try {
			server.script(
				{ stream: openaiStream({ toolCalls: [["obsidianEdit", { command: "create", path: "Projects/Q3 plan.md", content: "# Q3 plan\n\n## Goals\n- Ship the beta\n\n## Risks\n- Vendor delays" }]] }) },
				{ stream: openaiStream({ text: "Created the Q3 plan." }) },
			);
			await send("Make a note called Q3 plan with goals and risks");
			await turnDone();
			const create = page.locator(".vault-agent-inline-card .vault-agent-confirm:has(.vault-agent-diff)").last();
			assert.match(await create.locator(".vault-agent-confirm-summary").textContent(), /^Create new note "Projects\/Q3 plan\.md"/);
			// Its first line has no counts: the diff's own line says them, once.
			assert.match(await create.locator(".vault-agent-diff-counts").textContent(), /^\+7 −0 lines$/);
			assert.equal((await create.textContent()).match(/lines/g).length, 1);
			await session.screenshot("diff-card-create", { fit: ".vault-agent-inline-card" });
			await create.locator("button.vault-agent-approve").click();
			await page.waitForFunction(() => document.querySelectorAll(".vault-agent-confirm.is-done").length >= 3, null, { timeout: 15_000 });
			await turnDone();
			assert.match(readFileSync(join(session.vault, "Projects/Q3 plan.md"), "utf8"), /^# Q3 plan\n/);

			server.script(
				{ stream: openaiStream({ toolCalls: [["obsidianEdit", { command: "append", path: "Projects/Q3 plan.md", content: "- Hiring" }]] }) },
				{ stream: openaiStream({ text: "Added hiring to the risks." }) },
			);
			await send("Add hiring to the risks");
			await turnDone();
			const append = page.locator(".vault-agent-inline-card .vault-agent-confirm:has(.vault-agent-diff)").last();
			assert.match(await append.locator(".vault-agent-confirm-summary").textContent(), /^Append to "Projects\/Q3 plan\.md"/);
			assert.equal(await append.locator(".vault-agent-diff-line.is-added").last().textContent(), "8+- Hiring", "the line the note will really have");
			await session.screenshot("diff-card-append", { fit: ".vault-agent-inline-card" });
			await append.locator("button.vault-agent-approve").click();
			await page.waitForFunction(() => document.querySelectorAll(".vault-agent-confirm.is-done").length >= 4, null, { timeout: 15_000 });
			await turnDone();
			assert.match(readFileSync(join(session.vault, "Projects/Q3 plan.md"), "utf8"), /- Vendor delays\n- Hiring$/);
		} finally {
			await page.evaluate(() => window.__harness.plugin.updateSettings({ permissionMode: "askBeforeEdits" }));
		}
	});

	it("puts Undo once, on the approved card of a change, and asks before undoing over a later edit", async () => {
		const plan = join(session.vault, "Projects/Launch plan.md");
		const original = readFileSync(plan, "utf8");
		server.script(
			{ stream: openaiStream({ toolCalls: [["obsidianProperties", { command: "property:set", name: "status", value: "done", file: "Launch plan" }]] }) },
			{ stream: openaiStream({ text: "Marked the launch plan as done." }) },
		);
		await send("The launch is done");
		const card = page.locator(".vault-agent-inline-card .vault-agent-confirm").last();
		await card.waitFor({ state: "visible", timeout: 15_000 });
		await turnDone();
		const done = await page.locator(".vault-agent-confirm.is-done").count();
		await card.locator("button.vault-agent-approve").click();
		await page.waitForFunction((n) => document.querySelectorAll(".vault-agent-confirm.is-done").length > n, done, { timeout: 15_000 });
		await turnDone();
		assert.match(readFileSync(plan, "utf8"), /^status: done$/m);
		const block = page.locator(".vault-agent-tool-call").last();
		// Once: on the card, which the change's block does not repeat.
		const undo = card.locator("button.vault-agent-undo");
		assert.equal(await block.locator("button.vault-agent-undo").count(), 0, "no second Undo on the block");
		assert.equal(await undo.textContent(), "Undo");
		assert.match(await undo.getAttribute("aria-label"), /^Undo: Set property "status" of "Projects\/Launch plan\.md"/);
		assert.match(await page.locator(".vault-agent-turn-undo").last().textContent(), /Undo this answer's changes.*1 change in this answer/);
		// Unfold the block and its diff for the picture.
		await block.locator(":scope > summary .vault-agent-tool-name").click();
		await block.locator(".vault-agent-tool-diff > summary").click();
		assert.equal(await block.locator(".vault-agent-tool-diff > summary").evaluate((el) => getComputedStyle(el).display), "list-item", "a fold inside the block keeps its triangle");
		assert.match(await block.locator(".vault-agent-tool-diff .vault-agent-diff-line.is-added").textContent(), /done/);
		assert.equal(await block.locator(".vault-agent-tool-diff .vault-agent-diff-counts").count(), 0, "the fold's title has the counts");
		await block.scrollIntoViewIfNeeded();
		await session.screenshot("chat-undo-button");
		// The user changes the value in Obsidian meanwhile.
		writeFileSync(plan, readFileSync(plan, "utf8").replace("status: done", "status: shipped"));
		await undo.click();
		const dialog = page.locator(".vault-agent-undo-conflict");
		await dialog.waitFor({ state: "visible", timeout: 15_000 });
		assert.match(await dialog.locator(".modal-title").textContent(), /Changed since the agent's change/);
		assert.match(await dialog.locator(".vault-agent-diff-line.is-removed").textContent(), /done/);
		assert.match(await dialog.locator(".vault-agent-diff-line.is-added").textContent(), /shipped/);
		// Obsidian's row of modal buttons, at the right of the dialog as in its own.
		const row = await dialog.locator(".vault-agent-undo-keep").evaluate((keep) => {
			const content = keep.closest(".modal-content").getBoundingClientRect();
			return { container: keep.parentElement.className, gap: Math.round(content.right - keep.getBoundingClientRect().right) };
		});
		assert.deepEqual(row, { container: "modal-button-container", gap: 0 }, JSON.stringify(row));
		await session.screenshot("chat-undo-conflict");
		await dialog.locator("button", { hasText: "Keep" }).click();
		assert.match(readFileSync(plan, "utf8"), /^status: shipped$/m, "Keep changes nothing");
		await undo.click();
		await dialog.waitFor({ state: "visible", timeout: 15_000 });
		await dialog.locator("button", { hasText: "Undo anyway" }).click();
		await page.waitForFunction(() => document.querySelector(".vault-agent-tool-call:last-of-type .vault-agent-tool-status")?.textContent === "Undone", null, { timeout: 15_000 });
		// "Undone" once: the statuses say it, the spent button goes.
		assert.equal(await undo.isVisible(), false, "no Undone button beside the Undone status");
		assert.equal((await block.locator(":scope > summary").textContent()).match(/Undone/g).length, 1);
		assert.equal(readFileSync(plan, "utf8"), original, "the value is back, and nothing else moved");
		// The card of the change says so too.
		assert.deepEqual(await card.evaluate((el) => [el.matches(".is-undone"), el.matches(".is-done")]), [true, false]);
		assert.equal(await card.locator(".vault-agent-confirm-status").textContent(), "Undone.");
		assert.deepEqual(session.errors, []);
	});

	it("shows a move of several notes as one card listing where each goes, and moves them on Approve", async () => {
		server.script(
			{ stream: openaiStream({ toolCalls: [["obsidianOrganise", { command: "move", paths: ["Ideas/Unlinked thought.md", "Ideas/Brainstorm.md"], to: "Archive/Ideas" }]] }) },
			{ stream: openaiStream({ text: "Moved both ideas to the archive." }) },
		);
		await send("Archive my brainstorm and the unlinked thought");
		const card = page.locator(".vault-agent-inline-card .vault-agent-confirm").last();
		await card.waitFor({ state: "visible", timeout: 15_000 });
		await turnDone();
		assert.match(await card.locator(".vault-agent-confirm-summary").textContent(), /^Move 2 notes/);
		const text = await card.textContent();
		assert.match(text, /Archive\/Ideas\/Unlinked thought\.md/);
		assert.match(text, /Archive\/Ideas\/Brainstorm\.md/);
		assert.match(text, /Obsidian will update the links/);
		assert.ok(existsSync(join(session.vault, "Ideas/Brainstorm.md")), "nothing moved before the click");
		const waiting = page.locator(".vault-agent-tool-call").last();
		assert.equal(await waiting.locator(".vault-agent-tool-status").textContent(), "Waiting for approval");
		assert.equal(await waiting.locator(".vault-agent-tool-duration").textContent(), "", "nothing has run yet");
		await session.screenshot("move-card", { fit: ".vault-agent-inline-card" });
		const done = await page.locator(".vault-agent-confirm.is-done").count();
		await card.locator("button.vault-agent-approve").click();
		await page.waitForFunction((n) => document.querySelectorAll(".vault-agent-confirm.is-done").length > n, done, { timeout: 15_000 });
		await turnDone();
		assert.ok(existsSync(join(session.vault, "Archive/Ideas/Brainstorm.md")));
		assert.ok(!existsSync(join(session.vault, "Ideas/Brainstorm.md")));
		assert.deepEqual(session.errors, []);
	});

	it("opens a [[link]] in an answer on click, in a new tab with Ctrl/Cmd, and offers its hover preview", async () => {
		server.script({ stream: openaiStream({ text: "See [[Roadmap]] for the plan." }) });
		await send("where is the plan?");
		await turnDone();
		const link = page.locator(".vault-agent-msg.is-assistant a.internal-link").last();
		await link.waitFor({ state: "visible", timeout: 10_000 });
		await page.evaluate(() => {
			const workspace = window.__harness.app.workspace;
			window.__opened = [];
			window.__hovers = [];
			workspace.openLinkText = async (...args) => window.__opened.push(args);
			workspace.on("hover-link", (info) => window.__hovers.push({ source: info.source, linktext: info.linktext }));
		});
		await link.click();
		await link.click({ modifiers: [process.platform === "darwin" ? "Meta" : "Control"] });
		await link.hover();
		const opened = await page.evaluate(() => window.__opened);
		// Once per click; Ctrl/Cmd asks for a new tab (Keymap.isModEvent's "tab").
		assert.deepEqual(opened, [["Roadmap", "", false], ["Roadmap", "", "tab"]]);
		const hovers = await page.evaluate(() => window.__hovers);
		assert.ok(hovers.some((h) => h.source === "vault-agent-chat" && h.linktext === "Roadmap"), JSON.stringify(hovers));
	});

	it("makes the notes a tool's output names into links that open them, and leaves other text alone", async () => {
		server.script(
			{ stream: openaiStream({ toolCalls: [["obsidianLinks", { command: "backlinks", file: "Roadmap" }]] }) },
			{ stream: openaiStream({ text: "Five notes link to it." }) },
		);
		await send("what links to the roadmap?");
		await turnDone();
		const output = page.locator(".vault-agent-tool-call .vault-agent-tool-text").last();
		await output.waitFor({ state: "attached", timeout: 10_000 });
		const links = await output.locator("a.internal-link").evaluateAll((els) => els.map((el) => el.dataset.href));
		assert.deepEqual(links, ["Daily/2026-03-02.md", "Projects/Launch plan.md", "Projects/Website Redesign.md", "Reading List.md", "Welcome.md"]);
		assert.equal(await output.textContent(), "Daily/2026-03-02.md\nProjects/Launch plan.md\nProjects/Website Redesign.md\nReading List.md\nWelcome.md", "the text reads as the CLI printed it");
		await page.evaluate(() => {
			window.__opened = [];
			window.__harness.app.workspace.openLinkText = async (...args) => window.__opened.push(args);
		});
		await page.locator(".vault-agent-tool-call").last().locator("summary").first().click();
		await output.locator("a.internal-link", { hasText: "Projects/Launch plan.md" }).click();
		assert.deepEqual(await page.evaluate(() => window.__opened), [["Projects/Launch plan.md", "", false]]);

		// A note's text: its [[links]] are links (unresolved ones too, as in Obsidian).
		server.script(
			{ stream: openaiStream({ toolCalls: [["obsidianNotes", { command: "read", file: "Welcome" }]] }) },
			{ stream: openaiStream({ text: "It lists the current work." }) },
		);
		await send("what does the welcome note say?");
		await turnDone();
		const note = page.locator(".vault-agent-tool-call .vault-agent-tool-text").last();
		await note.waitFor({ state: "attached", timeout: 10_000 });
		const targets = await note.locator("a.internal-link").evaluateAll((els) => els.map((el) => [el.dataset.href, el.textContent]));
		assert.deepEqual(targets.slice(0, 2), [["Launch plan", "[[Launch plan]]"], ["Roadmap", "[[Roadmap]]"]]);
		assert.ok(targets.some(([href]) => href === "Nonexistent Note"));
	});

	it("shows a server error after the message that failed, with what to fix", async () => {
		server.script({ status: 401, json: { error: { message: "Incorrect API key provided" } } });
		await send("hello?");
		await turnDone();
		const banner = page.locator(".vault-agent-banner");
		assert.equal(await banner.isVisible(), true);
		assert.match(await banner.textContent(), /API key.*Settings → Vault Agent → Model/);
		// Drawn among the messages, right after the one that failed (marked), not above the chat.
		const place = await page.evaluate(() => {
			const error = document.querySelector(".vault-agent-banner");
			const previous = error.previousElementSibling;
			return { inMessages: error.parentElement.matches(".vault-agent-messages"), after: previous?.className, text: previous?.textContent };
		});
		assert.equal(place.inMessages, true);
		assert.match(place.after, /vault-agent-msg is-user is-failed/);
		assert.match(place.text, /hello\?/);
		await page.locator(".vault-agent-messages").screenshot({ path: join(outputDir, "chat-error-at-message.png") });
		// Retry runs the turn again, without sending the message twice.
		const users = await page.locator(".vault-agent-msg.is-user").count();
		server.script({ stream: openaiStream({ text: "Now it works." }) });
		await banner.locator("button.vault-agent-banner-retry").click();
		await turnDone();
		await page.waitForFunction(() => document.querySelector(".vault-agent-banner")?.style.display === "none" || !document.querySelector(".vault-agent-banner-text"), null, { timeout: 15_000 });
		assert.match(await page.locator(".vault-agent-msg.is-assistant").last().textContent(), /Now it works\./);
		assert.equal(await page.locator(".vault-agent-msg.is-user").count(), users);
		assert.equal(await page.locator(".vault-agent-msg.is-failed").count(), 0, "the message is answered now");
	});

	it("folds the model's reasoning above its answer and shows the tokens under it", async () => {
		server.script({
			stream: openaiStream({
				reasoning: "The user asks about the roadmap. I know it from earlier, so no tool is needed.",
				text: "The roadmap has three milestones.",
				usage: { input: 3120, output: 48 },
			}),
		});
		await send("what is on the roadmap?");
		await turnDone();
		const answer = page.locator(".vault-agent-msg.is-assistant").last();
		await answer.waitFor({ state: "visible", timeout: 10_000 });
		const reasoning = page.locator("details.vault-agent-reasoning").last();
		assert.equal(await reasoning.getAttribute("open"), null, "folded");
		assert.equal(await reasoning.locator("summary").textContent(), "Reasoning");
		assert.equal(await reasoning.locator(".vault-agent-reasoning-text").isVisible(), false);
		assert.doesNotMatch(await answer.textContent(), /The user asks/, "never answer text");
		// Above the answer, the usage line right under it.
		const order = await page.evaluate(() => {
			const children = [...document.querySelector(".vault-agent-messages").children];
			const last = (sel) => children.findLastIndex((el) => el.matches(sel));
			return { reasoning: last(".vault-agent-reasoning"), answer: last(".vault-agent-msg.is-assistant"), usage: last(".vault-agent-answer-actions:has(.vault-agent-usage)") };
		});
		assert.ok(order.reasoning < order.answer && order.answer < order.usage, JSON.stringify(order));
		const usage = page.locator(".vault-agent-usage").last();
		// One short line; the whole count in its tooltip.
		assert.match(await usage.textContent(), /^3,120 in · 48 out · \d+%$/);
		assert.match(await usage.getAttribute("aria-label"), /^Tokens: 3,120 in · 48 out · \d+% of the [\d,]+-token context · this chat [\d,]+ in, [\d,]+ out, as the model server reported them$/);
		await page.evaluate(() => {
			const messages = document.querySelector(".vault-agent-messages");
			messages.scrollTop = messages.scrollHeight;
		});
		await session.screenshot("chat-reasoning-folded");
		await page.locator(".vault-agent-messages").screenshot({ path: join(outputDir, "chat-usage-line.png") });
		await reasoning.locator("summary").click();
		assert.equal(await reasoning.locator(".vault-agent-reasoning-text").textContent(), "The user asks about the roadmap. I know it from earlier, so no tool is needed.");
		await session.screenshot("chat-reasoning-open");
	});

	it("keeps the conversation after the view is closed and opened again", async () => {
		const before = await page.locator(".vault-agent-msg.is-user").count();
		await page.evaluate(() => {
			const app = window.__harness.app;
			for (const leaf of app.workspace.getLeavesOfType("vault-agent-chat")) leaf.detach();
		});
		await page.evaluate(() => window.__harness.runCommand("vault-agent:open-chat"));
		await page.locator(".vault-agent-msg.is-user").first().waitFor({ timeout: 10_000 });
		assert.equal(await page.locator(".vault-agent-msg.is-user").count(), before);
		assert.ok((await page.locator(".vault-agent-tool-call").count()) >= 2);
		// The reasoning comes back folded, and the answer's usage line with it.
		assert.equal(await page.locator("details.vault-agent-reasoning:not([open])").count(), 1);
		// The chat's totals come back too, under the last answer with usage, as when it was given.
		assert.match(await page.locator(".vault-agent-usage").last().getAttribute("aria-label"), /^Tokens: 3,120 in · 48 out · .* · this chat [\d,]+ in, [\d,]+ out, as/);
	});
});
