// The chat as a user sees it in a narrow sidebar, in Chromium from the built
// main.js against the scripted model server: the view follows the end of the
// conversation (and stops when the user scrolls up), a reopened chat opens
// at its end, an error is drawn beside the message that failed, a busy
// server's retries are one passing line, an answer has one compact row
// under it, Continue after the round limit, and a header in tidy rows at 300 px,
// with our model and with a coding agent.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { openChat, outputDir, sendMessage, startBrowserPlugin, turnEnded } from "../support/browser.mjs";
import { emulator, emulatorEnv, root } from "../support/harness.mjs";
import { openaiStream, startModelServer } from "../support/model-servers.mjs";

const LONG = Array.from({ length: 24 }, (_, i) => `Paragraph ${i + 1} of a long answer, long enough to wrap in a narrow sidebar.`).join("\n\n");

/** The right sidebar's width (the double's split), as a user drags it. */
async function sidebar(page, px) {
	await page.evaluate((width) => {
		document.querySelector(".workspace-split.mod-right-split").style.width = `${width}px`;
	}, px);
}

/** How far the messages are from their end, in pixels (0: at the end). */
function distanceFromEnd(page) {
	return page.evaluate(() => {
		const el = document.querySelector(".vault-agent-messages");
		return Math.round(el.scrollHeight - el.scrollTop - el.clientHeight);
	});
}

/** Two frames later: what a render, a resize or an observer does has been done. */
function settled(page) {
	return page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** The header's facts: its rows (distinct tops of its visible parts), overflow, and cut selects without a tooltip. */
function headerFacts(page) {
	return page.evaluate(() => {
		const header = document.querySelector(".vault-agent-chat-header");
		const parts = [...header.querySelectorAll("select, .clickable-icon, .vault-agent-mode-icon")].filter((el) => el.getClientRects().length > 0);
		// Parts share a row when one's middle lies within the row's height.
		const rows = [];
		for (const box of parts.map((el) => el.getBoundingClientRect()).sort((a, b) => a.top - b.top)) {
			const middle = (box.top + box.bottom) / 2;
			const row = rows.find((r) => middle >= r.top && middle <= r.bottom);
			if (row) row.bottom = Math.max(row.bottom, box.bottom);
			else rows.push({ top: box.top, bottom: box.bottom });
		}
		const headerBox = header.getBoundingClientRect();
		const outside = parts.filter((el) => {
			const box = el.getBoundingClientRect();
			return box.right > headerBox.right + 1 || box.left < headerBox.left - 1;
		});
		const selects = [...header.querySelectorAll("select")].filter((el) => el.getClientRects().length > 0);
		// A tooltip: the title, or Obsidian's from aria-label.
		const tooltip = (el) => el.getAttribute("title") || el.closest("[title]")?.getAttribute("title") || el.getAttribute("aria-label") || "";
		const cutWithoutTooltip = selects
			.filter((el) => el.scrollWidth > el.clientWidth || el.clientWidth < 90)
			.filter((el) => !tooltip(el).includes(el.selectedOptions[0]?.text ?? "\u0000"));
		return {
			rows: rows.length,
			height: Math.round(headerBox.height),
			outside: outside.map((el) => el.className),
			cutWithoutTooltip: cutWithoutTooltip.map((el) => el.className),
			// Every select the same height and text size, each with a name.
			selectHeights: [...new Set(selects.map((el) => Math.round(el.getBoundingClientRect().height)))],
			selectFonts: [...new Set(selects.map((el) => getComputedStyle(el).fontSize))],
			selectLabels: selects.map((el) => el.getAttribute("aria-label") ?? ""),
			icons: [...header.querySelectorAll(".clickable-icon")].filter((el) => el.getClientRects().length > 0).map((el) => ({ label: el.getAttribute("aria-label"), tag: el.tagName, svg: Boolean(el.querySelector("svg")) })),
		};
	});
}

describe("the chat view in a narrow sidebar, in Chromium", () => {
	let server;
	let session;
	let page;

	before(async () => {
		server = await startModelServer();
		session = await startBrowserPlugin({
			data: {
				cliPath: emulator,
				permissionMode: "askBeforeEdits",
				chat: { provider: "openAi", maxToolRounds: 1, openai: { baseUrl: `${server.url}/v1`, model: "test-model", apiKeySecret: "" } },
			},
			env: (vault) => emulatorEnv(vault),
			viewport: { width: 1000, height: 700 },
		});
		({ page } = session);
		await openChat(page);
	});

	after(async () => {
		await session?.close();
		await server?.close();
	});

	const send = (text) => sendMessage(page, text);

	async function turnDone() {
		await turnEnded(page, 60_000);
		await settled(page);
	}

	it("stays at the end after a turn, with the last answer's row in view", async () => {
		for (const n of [1, 2]) {
			server.script({ stream: openaiStream({ text: `${LONG}\n\nAnswer ${n} ends here.`, usage: { input: 2600, output: 420 } }) });
			await send(`question ${n}`);
			await turnDone();
			assert.equal(await distanceFromEnd(page), 0, `after turn ${n}`);
		}
		assert.equal(await page.locator(".vault-agent-answer-actions").last().isVisible(), true);
		await session.screenshot("chat-follows-end");
	});

	it("has one compact row under an answer: Copy, Regenerate, Fork from here and the usage", async () => {
		const facts = await page.evaluate(() => {
			const children = [...document.querySelector(".vault-agent-messages").children];
			const answer = children.findLastIndex((el) => el.matches(".vault-agent-msg.is-assistant"));
			const under = children.slice(answer + 1);
			const row = under[0];
			return {
				under: under.map((el) => el.className),
				buttons: [...row.querySelectorAll("button.clickable-icon")].map((b) => ({ label: b.getAttribute("aria-label"), svg: Boolean(b.querySelector("svg")), text: b.textContent })),
				usage: row.querySelector(".vault-agent-usage")?.textContent,
				height: Math.round(row.getBoundingClientRect().height),
				lineHeight: Math.round(parseFloat(getComputedStyle(row.querySelector(".vault-agent-usage")).lineHeight)),
			};
		});
		assert.deepEqual(facts.under, ["vault-agent-answer-actions"], "one row under the last answer");
		assert.deepEqual(facts.buttons, [
			{ label: "Copy the answer", svg: true, text: "" },
			{ label: "Regenerate the answer", svg: true, text: "" },
			{ label: "Fork from here", svg: true, text: "" },
		]);
		assert.match(facts.usage, /^2,600 in · 420 out · \d+%$/);
		assert.ok(facts.height <= 32, `a compact row: ${facts.height} px`);
		// An earlier answer keeps its row (Copy, Fork from here and usage), without Regenerate.
		assert.equal(await page.locator(".vault-agent-answer-actions").count(), 2);
		assert.equal(await page.locator(".vault-agent-regenerate").count(), 1);
		await page.locator(".vault-agent-messages").screenshot({ path: join(outputDir, "chat-answer-row.png") });
	});

	it("stops following when the user scrolls up while an answer streams", async () => {
		server.script({ stream: openaiStream({ text: LONG }), chunkSize: 64, delayMs: 20 });
		await send("one more long answer");
		await page.waitForFunction(() => (document.querySelector(".vault-agent-msg.is-streaming")?.textContent.length ?? 0) > 200, null, { timeout: 15_000 });
		await page.locator(".vault-agent-messages").hover();
		await page.mouse.wheel(0, -600);
		await page.waitForFunction(() => document.querySelector(".vault-agent-messages").scrollTop > 0, null, { timeout: 5_000 });
		await turnDone();
		assert.ok((await distanceFromEnd(page)) > 300, "left where the user scrolled to");
		// Back at the end, it follows again; sending pins it there too.
		server.script({ stream: openaiStream({ text: "Short." }) });
		await send("short");
		await turnDone();
		assert.equal(await distanceFromEnd(page), 0);
	});

	it("opens a reopened chat at its end", async () => {
		await page.evaluate(() => {
			for (const leaf of window.__harness.app.workspace.getLeavesOfType("vault-agent-chat")) leaf.detach();
		});
		await page.evaluate(() => window.__harness.runCommand("vault-agent:open-chat"));
		await page.locator(".vault-agent-regenerate").waitFor({ state: "attached", timeout: 10_000 });
		await settled(page);
		assert.ok((await page.evaluate(() => document.querySelector(".vault-agent-messages").scrollHeight)) > 2000, "a chat longer than the view");
		assert.equal(await distanceFromEnd(page), 0);
		await session.screenshot("chat-reopened-at-end");
	});

	it("folds a busy server's retries into one line that goes when the answer comes", async () => {
		const busy = { status: 429, json: { error: { message: "slow down" } }, headers: { "retry-after": "1" } };
		server.script(busy, busy, { stream: openaiStream({ text: "Here after the wait." }) });
		await send("are you there?");
		await page.waitForFunction(() => /2 of 3/.test(document.querySelector(".vault-agent-retrying")?.textContent ?? ""), null, { timeout: 15_000 });
		assert.equal(await page.locator(".vault-agent-retrying").count(), 1, "one line, not one per try");
		assert.equal(await page.locator(".vault-agent-notice", { hasText: "busy" }).count(), 0);
		await session.screenshot("chat-retrying-line");
		await turnDone();
		assert.equal(await page.locator(".vault-agent-retrying").count(), 0);
		assert.match(await page.locator(".vault-agent-msg.is-assistant").last().textContent(), /Here after the wait\./);
	});

	it("offers Continue after the round limit, which goes on with the turn", async () => {
		server.script({ stream: openaiStream({ toolCalls: [["obsidianTasks", { command: "tasks", all: true }]] }) });
		await send("list my tasks");
		await turnDone();
		const notice = page.locator(".vault-agent-notice").last();
		assert.match(await notice.textContent(), /Stopped after 1 tool round, the limit for one message .* Continue, or send another message/);
		assert.equal(await distanceFromEnd(page), 0, "the notice is in view");
		const cont = notice.locator("button.vault-agent-continue");
		assert.equal(await cont.textContent(), "Continue");
		await page.locator(".vault-agent-messages").screenshot({ path: join(outputDir, "chat-round-limit-continue.png") });
		const users = await page.locator(".vault-agent-msg.is-user").count();
		const requests = server.requests.length;
		server.script({ stream: openaiStream({ text: "You have two open tasks." }) });
		await cont.click();
		await turnDone();
		assert.equal(server.requests.length, requests + 1);
		assert.equal(server.requests.at(-1).body.messages.at(-1).role, "tool", "the model goes on from the tool result");
		assert.equal(await page.locator(".vault-agent-msg.is-user").count(), users, "no new message");
		assert.match(await page.locator(".vault-agent-msg.is-assistant").last().textContent(), /two open tasks/);
		assert.equal(await page.locator(".vault-agent-continue").count(), 0, "spent");
	});

	it("draws an error that Retry cannot fix without Retry, beside its message", async () => {
		// A window too small for the fixed prompt: the core says trying again cannot help.
		await page.evaluate(async () => {
			const plugin = window.__harness.plugin;
			const chat = plugin.core.settings().chat;
			await plugin.updateSettings({ chat: { ...chat, profiles: chat.profiles.map((p) => ({ ...p, contextWindow: 600 })) } });
		});
		await send("a question the window cannot hold");
		await turnDone();
		const error = page.locator(".vault-agent-messages > .vault-agent-banner").last();
		assert.equal(await error.isVisible(), true);
		assert.equal(await error.locator("button", { hasText: "Retry" }).count(), 0, "no Retry: the core says it would fail the same way");
		// The window is the profile's setting: the way there is offered instead.
		assert.deepEqual(await error.locator("button").allTextContents(), ["Open this profile's settings"]);
		assert.match(await error.evaluate((el) => el.previousElementSibling.className), /is-user is-failed/);
		assert.equal(await distanceFromEnd(page), 0, "the error is in view");
		await page.locator(".vault-agent-messages").screenshot({ path: join(outputDir, "chat-error-no-retry.png") });
		await page.evaluate(async () => {
			const plugin = window.__harness.plugin;
			const chat = plugin.core.settings().chat;
			await plugin.updateSettings({ chat: { ...chat, profiles: chat.profiles.map((p) => ({ ...p, contextWindow: 0 })) } });
		});
	});

	it("breaks a tool's command line between its arguments, not inside them", async () => {
		await sidebar(page, 300);
		server.script(
			{ stream: openaiStream({ toolCalls: [["obsidianBases", { command: "base:query", file: "Projects", format: "csv", view: "Active projects by their owner and status" }]] }) },
			{ stream: openaiStream({ text: "Queried." }) },
		);
		await send("query the projects base");
		await turnDone();
		await page.locator(".vault-agent-tool-call").last().evaluate((el) => (el.open = true));
		const facts = await page.locator(".vault-agent-tool-command").last().evaluate((el) => ({
			lines: Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)),
			width: el.clientWidth,
			words: [...el.querySelectorAll(".vault-agent-arg")].map((w) => ({ text: w.textContent, width: Math.round(w.getBoundingClientRect().width), pieces: w.getClientRects().length, lines: Math.round(w.getBoundingClientRect().height / parseFloat(getComputedStyle(w).lineHeight)) })),
		}));
		assert.ok(facts.words.length >= 4, JSON.stringify(facts));
		assert.ok(facts.lines > 1, `the line wraps at 300 px: ${JSON.stringify(facts)}`);
		// An argument without spaces that fits the width is never split (a quoted one may wrap at its own spaces).
		const whole = facts.words.filter((w) => w.width < facts.width && !/\s/.test(w.text));
		assert.ok(whole.length >= 3, JSON.stringify(facts));
		for (const word of whole) assert.equal(word.lines, 1, `not broken inside: ${JSON.stringify(word)}`);
		await page.locator(".vault-agent-tool-call").last().screenshot({ path: join(outputDir, "chat-tool-command-300.png") });
		await sidebar(page, 320);
	});

	/** A tool block's facts: its label, its command line, and whether the duration shares the label's row. */
	function blockFacts(block) {
		return block.evaluate((el) => {
			const middle = (part) => {
				const box = el.querySelector(part).getBoundingClientRect();
				return (box.top + box.bottom) / 2;
			};
			const name = el.querySelector(".vault-agent-tool-name").getBoundingClientRect();
			return {
				label: el.querySelector(".vault-agent-tool-name").textContent,
				tooltip: el.querySelector(".vault-agent-tool-name").getAttribute("aria-label"),
				nameLines: Math.round(name.height / parseFloat(getComputedStyle(el.querySelector(".vault-agent-tool-name")).lineHeight)),
				words: [...el.querySelectorAll(".vault-agent-tool-command .vault-agent-arg")].map((w) => w.textContent),
				durationOnLabelRow: middle(".vault-agent-tool-duration") >= name.top && middle(".vault-agent-tool-duration") <= name.bottom,
				duration: el.querySelector(".vault-agent-tool-duration").textContent,
			};
		});
	}

	it("labels a tool block by what ran it: the CLI with its argv, or Obsidian's vault with the note", async () => {
		await sidebar(page, 320);
		// One tool round a message (maxToolRounds): only the call is scripted, and nothing left over from before.
		server.clear();
		server.script({ stream: openaiStream({ toolCalls: [["obsidianNotes", { command: "read", file: "Welcome" }]] }) });
		await send("read the welcome note");
		await turnDone();
		const cli = await blockFacts(page.locator(".vault-agent-tool-call").last());
		assert.equal(cli.label, "Notes", await page.locator(".vault-agent-messages").textContent());
		assert.deepEqual(cli.words, ["obsidian", "read", "file=Welcome"], "the argv the CLI was given");
		assert.equal(cli.durationOnLabelRow, true, `the duration on the label's row at 320 px: ${JSON.stringify(cli)}`);

		server.script({ stream: openaiStream({ toolCalls: [["obsidianEdit", { command: "edit", path: "Projects/Launch plan.md", heading: "Launch plan::Goals", content: "- Ship the plugin to the community directory by May.\n- Collect feedback every week" }]] }) });
		await send("rewrite the goals of the launch plan");
		await turnDone();
		const block = page.locator(".vault-agent-tool-call").last();
		const waiting = await blockFacts(block);
		assert.equal(waiting.label, "Edit notes", JSON.stringify(waiting));
		assert.deepEqual(waiting.words, ["edit", "Projects/Launch plan.md"], "the operation and the note, no made-up command line");
		assert.equal(waiting.duration, "", "nothing has run while the card waits: no time");
		assert.equal(waiting.nameLines, 1, `the name on one line at 320 px, cut with an ellipsis: ${JSON.stringify(waiting)}`);
		assert.equal(waiting.tooltip, "Edit notes", "the whole name in its tooltip");
		const card = page.locator(".vault-agent-inline-card .vault-agent-confirm").last();
		assert.equal(await card.locator(".vault-agent-confirm-expiry").count(), 1, "the card waits until a time");
		await block.screenshot({ path: join(outputDir, "chat-vault-edit-block-320.png") });
		await page.locator(".vault-agent-messages").screenshot({ path: join(outputDir, "chat-vault-edit-card-320.png") });
		// Changed words (of the first line, a related pair; the second is a plain line) are a soft shade at this width, not bricks.
		const word = await card.locator(".vault-agent-diff-word").first().evaluate((el) => ({ background: getComputedStyle(el).backgroundColor, radius: getComputedStyle(el).borderTopLeftRadius }));
		const alpha = Number(/rgba\([^)]*,\s*([\d.]+)\)/.exec(word.background)?.[1] ?? 1);
		assert.ok(alpha <= 0.15 && word.radius === "0px", `a soft, square word highlight: ${JSON.stringify(word)}`);
		await card.locator("button.vault-agent-approve").click();
		await page.waitForFunction(() => document.querySelector(".vault-agent-inline-card .vault-agent-confirm.is-done"), null, { timeout: 15_000 });
		await turnDone();
		assert.equal(await card.locator(".vault-agent-confirm-expiry").count(), 0, "no \"Waiting until\" once answered");
		// The status says what was done, as a sentence: no colon with nothing after it.
		const status = await card.locator(".vault-agent-confirm-status").textContent();
		assert.match(status, /^Done\. Edited "Projects\/Launch plan\.md" \(\+\d+ −\d+ lines?\)\.$/, status);
		assert.equal((await blockFacts(block)).label, "Edit notes", "labelled by what ran once done");
		const shown = await block.locator(".vault-agent-tool-result > pre.vault-agent-tool-text").textContent();
		assert.match(shown, /^Edited "Projects\/Launch plan\.md" \(\+\d+ −\d+ lines?\)\.$/, `the diff is drawn once, folded above; the text keeps its first line: ${shown}`);
		const texts = await page.locator(".vault-agent-tool-command").allTextContents();
		for (const text of texts) assert.ok(!text.includes("\\n"), `no literal \\n in a command line: ${text}`);
		await block.evaluate((el) => (el.open = true));
		await block.screenshot({ path: join(outputDir, "chat-vault-edit-done-320.png") });
		await page.locator(".vault-agent-tool-call", { has: page.locator(".vault-agent-tool-name", { hasText: /^Notes$/ }) }).last().screenshot({ path: join(outputDir, "chat-cli-block-320.png") });
		// Reopened from history, the approved edit's block still says what ran it.
		await page.evaluate(() => {
			for (const leaf of window.__harness.app.workspace.getLeavesOfType("vault-agent-chat")) leaf.detach();
		});
		await page.evaluate(() => window.__harness.runCommand("vault-agent:open-chat"));
		const reopened = page.locator(".vault-agent-tool-call", { hasText: "Projects/Launch plan.md" }).last();
		await reopened.waitFor({ state: "attached", timeout: 10_000 });
		await settled(page);
		const facts = await blockFacts(reopened);
		assert.equal(facts.label, "Edit notes", JSON.stringify(facts));
		assert.deepEqual(facts.words, ["edit", "Projects/Launch plan.md"]);
		await reopened.screenshot({ path: join(outputDir, "chat-vault-edit-reopened-320.png") });
	});

	it("has a native header in tidy rows at 300 and 480 px with our model", async () => {
		for (const [width, rows] of [[300, 2], [480, 2]]) {
			await sidebar(page, width);
			await settled(page);
			const facts = await headerFacts(page);
			// Two rows laid out on purpose at every width (issue 40): the title and the icons, then the mode and who answers.
			assert.equal(facts.rows, rows, `${rows} rows at ${width} px: ${JSON.stringify(facts)}`);
			assert.deepEqual(facts.outside, [], `nothing past the edge at ${width} px`);
			assert.deepEqual(facts.cutWithoutTooltip, [], `no label cut without a tooltip at ${width} px`);
			assert.equal(facts.selectHeights.length, 1, `one height for every select: ${facts.selectHeights}`);
			assert.equal(facts.selectFonts.length, 1, `one text size for every select: ${facts.selectFonts}`);
			assert.deepEqual(
				facts.icons.map((i) => [i.label, i.tag, i.svg]),
				[
					["New chat", "DIV", true],
					["Chat history", "DIV", true],
					["Export to note", "DIV", true],
				],
			);
			await page.locator(".workspace-split.mod-right-split").screenshot({ path: join(outputDir, `chat-header-${width}.png`) });
		}
		// The profile's full name is its tooltip.
		assert.match(await page.locator("select.vault-agent-model").getAttribute("title"), /^127\.0\.0\.1:\d+ \(test-model · 127\.0\.0\.1:\d+\)$/);
		await sidebar(page, 320);
	});
});

describe("the chat header with a coding agent, in Chromium", () => {
	let session;
	let page;

	before(async () => {
		session = await startBrowserPlugin({
			data: {
				cliPath: emulator,
				vaultName: "Sample Vault",
				permissionMode: "askEveryChange",
				acpAgents: { custom: { command: process.execPath, args: [join(root, "tests/support/acp-agent.mjs")] } },
			},
			env: (vault) => emulatorEnv(vault),
			viewport: { width: 1000, height: 700 },
		});
		({ page } = session);
		await openChat(page);
	});

	after(async () => {
		await session?.close();
	});

	it("keeps the header in two rows at 300 and 480 px, the agent's selects behind one button beside who answers", async () => {
		await page.locator(".vault-agent-chat-header select.vault-agent-model").selectOption({ value: "agent:custom" });
		await page.locator(".vault-agent-input").fill("stream");
		await page.locator(".vault-agent-send").click();
		await page.waitForFunction(() => !document.querySelector(".vault-agent-chat.is-running") && document.querySelector(".vault-agent-agent-setting"), null, { timeout: 20_000 });
		for (const [width, rows] of [[300, 2], [480, 2]]) {
			await sidebar(page, width);
			await settled(page);
			const closed = await headerFacts(page);
			// The agent's own selects open from their button: the header stays two rows.
			assert.equal(closed.rows, rows, `${rows} rows at ${width} px: ${JSON.stringify(closed)}`);
			assert.ok(closed.height < 36 * rows, `a compact header: ${closed.height} px`);
			assert.ok(closed.icons.some((i) => /^Agent's settings: /.test(i.label ?? "")), JSON.stringify(closed.icons));
			await page.locator(".vault-agent-agent-settings-button").click();
			await page.locator(".vault-agent-agent-row.is-open").waitFor({ state: "visible", timeout: 5_000 });
			const facts = await headerFacts(page);
			assert.deepEqual(facts.outside, [], `nothing past the edge at ${width} px`);
			assert.deepEqual(facts.cutWithoutTooltip, [], `no label cut without a tooltip at ${width} px`);
			assert.equal(facts.selectHeights.length, 1, `one height for every select: ${facts.selectHeights}`);
			assert.equal(facts.selectFonts.length, 1, `one text size for every select: ${facts.selectFonts}`);
			// The agent's own selects say what each is (Obsidian shows the label as a tooltip).
			const agentLabels = facts.selectLabels.slice(2);
			assert.deepEqual(agentLabels.map((l) => l.split(":")[0]), ["Agent's mode", "Agent's model", "Brief answers"], JSON.stringify(facts.selectLabels));
			assert.match(agentLabels[1], /^Agent's model: Scripted large/);
			await session.screenshot(`acp-agent-header-${width}`);
			await page.keyboard.press("Escape");
			await page.locator(".vault-agent-agent-row.is-open").waitFor({ state: "detached", timeout: 5_000 });
		}
	});
});
