// A coding agent (ACP) in the chat sidebar, in Chromium from the built
// main.js: the scripted SDK agent runs as a real process (stdin and stdout
// piped through the page's child_process bridge). The test picks it in the
// header, sends, sees its folded thought, plan and streamed text, then a
// write it asks for as our tool block and diff card, approved with a click.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { openChat, outputDir, sendMessage, startBrowserPlugin, turnEnded } from "../support/browser.mjs";
import { emulator, emulatorEnv, root } from "../support/harness.mjs";

const SCRIPT = join(root, "tests/support/acp-agent.mjs");

describe("a coding agent in the chat view, in Chromium", () => {
	let session;
	let page;

	before(async () => {
		session = await startBrowserPlugin({
			data: {
				cliPath: emulator,
				vaultName: "Sample Vault",
				permissionMode: "askEveryChange",
				acpAgents: { custom: { command: process.execPath, args: [SCRIPT] }, "claude-code": { command: "vault-agent-no-such-agent" } },
			},
			env: (vault) => emulatorEnv(vault),
			viewport: { width: 1100, height: 900 },
		});
		({ page } = session);
		await openChat(page);
	});

	after(async () => {
		await session?.close();
	});

	const send = (text) => sendMessage(page, text);

	const turnDone = () => turnEnded(page, 20_000);

	it("picks the agent in the header and streams its thought, plan and text", async () => {
		const saves = await session.saveCount();
		await page.locator(".vault-agent-chat-header select.vault-agent-model").selectOption({ value: "agent:custom" });
		const saved = await session.waitForSave(saves);
		assert.equal(saved.acpAgents.selected, "agent:custom");
		await send("stream");
		await turnDone();
		assert.match(await page.locator(".vault-agent-msg.is-assistant").last().textContent(), /Hello from the scripted agent\./);
		assert.match(await page.locator(".vault-agent-reasoning").last().textContent(), /Let me think about the vault\./);
		assert.match(await page.locator(".vault-agent-plan").textContent(), /Read the note/);
		assert.equal(await page.locator(".vault-agent-usage.is-agent").textContent(), "Context: 1,200 of 200,000 tokens");
		// The answer's row as with our model: its buttons first, then the usage.
		const row = await page.locator(".vault-agent-answer-actions").last().evaluate((el) => [...el.children].map((c) => c.className));
		assert.deepEqual(row, ["vault-agent-copy clickable-icon", "vault-agent-usage is-agent"]);
		const notices = await page.locator(".vault-agent-notice").allTextContents();
		assert.ok(notices.some((n) => /without a terminal/.test(n)), notices.join("\n"));
		// The page has no HTTP listener (the harness bridges child_process only): the notice from before the first turn is said with it.
		assert.ok(notices.some((n) => /cannot reach Vault Agent's tools/.test(n)), notices.join("\n"));
		const modes = await page.locator("select.vault-agent-agent-mode option").allTextContents();
		assert.deepEqual(modes, ["Ask", "Code"]);
		assert.equal(await page.locator(".vault-agent-msg.is-user .vault-agent-edit").count(), 0, "an agent's history cannot be rewound: no edit and resend");
	});

	it("offers the agent's slash commands in the input when a message starts with /", async () => {
		const input = page.locator(".vault-agent-input");
		await page.waitForFunction(() => /\/ for its commands/.test(document.querySelector(".vault-agent-input").getAttribute("placeholder")), null, { timeout: 5_000 });
		await input.click();
		await input.pressSequentially("/sum");
		const item = page.locator(".suggestion-container .suggestion-item", { hasText: "/summarise" });
		await item.waitFor({ state: "visible", timeout: 5_000 });
		assert.equal(await item.locator(".suggestion-note").textContent(), "Summarise a note");
		await session.screenshot("acp-agent-slash-commands");
		const users = await page.locator(".vault-agent-msg.is-user").count();
		await input.press("Enter");
		assert.equal(await page.locator(".suggestion-container").count(), 0, "the list closes");
		assert.equal(await input.inputValue(), "/summarise ");
		assert.equal(await page.locator(".vault-agent-msg.is-user").count(), users, "Enter picked the command; it did not send");
		await input.pressSequentially("x /no");
		assert.equal(await page.locator(".suggestion-container").count(), 0, "only at the start of a message");
		await input.fill("");
	});

	it("shows the agent's model in the header and switches it there", async () => {
		const model = page.locator(".vault-agent-chat-header select.vault-agent-agent-setting[data-category='model']");
		// The agent's selects open from their button beside who answers (the header stays two rows).
		const open = async () => {
			if ((await page.locator(".vault-agent-agent-row.is-open").count()) === 0) await page.locator(".vault-agent-agent-settings-button").click();
		};
		await open();
		await model.waitFor({ state: "visible", timeout: 5_000 });
		assert.deepEqual(await model.locator("option").allTextContents(), ["Scripted large", "Scripted small", "Scripted retired"]);
		assert.equal(await model.inputValue(), "scripted-large");
		// A choice the agent refuses: the reason shows, and the dropdown goes back.
		await open();
		await model.selectOption({ value: "scripted-retired" });
		await page.locator(".vault-agent-banner", { hasText: "did not take the setting" }).waitFor({ state: "visible", timeout: 5_000 });
		assert.match(await page.locator(".vault-agent-banner").last().textContent(), /scripted-retired is retired/);
		await page.waitForFunction(() => document.querySelector(".vault-agent-agent-setting[data-category='model']")?.value === "scripted-large", null, { timeout: 5_000 });
		await open();
		await model.selectOption({ value: "scripted-small" });
		await page.waitForFunction(() => window.__harness.plugin.codingAgents.running()[0]?.config.find((o) => o.id === "model")?.current === "scripted-small", null, { timeout: 5_000 });
		await send("model");
		await turnDone();
		assert.match(await page.locator(".vault-agent-msg.is-assistant").last().textContent(), /Model: scripted-small/);
		// The agent switches by itself: the header follows.
		await send("faster");
		await turnDone();
		await open();
		await model.selectOption({ value: "scripted-large" });
		await page.waitForFunction(() => window.__harness.plugin.codingAgents.running()[0]?.config.find((o) => o.id === "model")?.current === "scripted-large", null, { timeout: 5_000 });
		await send("faster");
		await turnDone();
		assert.equal(await model.inputValue(), "scripted-small", "config_option_update redraws the header");
	});

	it("shows the agent's write as our tool block and diff card, and writes only on Approve", async () => {
		const target = join(session.vault, "Notes/Agent note.md");
		await send(`write ${target}|A note the agent wrote.`);
		const card = page.locator(".vault-agent-inline-card .vault-agent-confirm").last();
		await card.waitFor({ state: "visible", timeout: 15_000 });
		assert.equal(await page.locator(".vault-agent-tool-call .vault-agent-tool-name").last().textContent(), "Create a note");
		assert.match(await card.textContent(), /A note the agent wrote\./);
		assert.equal(existsSync(target), false, "nothing is written before the click");
		await session.screenshot("acp-agent-turn");
		await card.locator("button.vault-agent-approve").click();
		await turnDone();
		assert.equal(readFileSync(target, "utf8").trim(), "A note the agent wrote.");
		assert.match(await page.locator(".vault-agent-msg.is-assistant").last().textContent(), /Wrote /);
		assert.deepEqual(session.errors, []);
	});

	it("shows the agent's own question with its options, and answers with the one clicked", async () => {
		await send("permission");
		const card = page.locator(".vault-agent-permission").last();
		await card.waitFor({ state: "visible", timeout: 15_000 });
		assert.match(await card.textContent(), /asks: Run the linter/);
		assert.deepEqual(await card.locator("button").allTextContents(), ["Allow once", "Always allow", "Reject"]);
		assert.deepEqual(await card.locator("button.mod-cta").allTextContents(), ["Allow once"], "one call to action: the narrowest yes");
		await session.screenshot("acp-agent-permission");
		await card.locator("button", { hasText: "Reject" }).click();
		await turnDone();
		assert.match(await page.locator(".vault-agent-msg.is-assistant").last().textContent(), /Permission: no/);
	});

	it("a crash mid-turn shows the agent's stderr tail and Restart, which starts it again", async () => {
		await send("crash");
		await turnDone();
		// Drawn where the turn stopped; the earlier refused setting stays where it was said.
		const banner = page.locator(".vault-agent-messages > .vault-agent-banner.is-crash");
		assert.match(await banner.textContent(), /stopped unexpectedly/);
		assert.match(await banner.textContent(), /out of tokens \(simulated crash\)/);
		await session.screenshot("acp-agent-crash");
		await banner.locator("button", { hasText: "Restart" }).click();
		await page.waitForFunction(() => window.__harness.plugin.codingAgents.running().length === 1, null, { timeout: 10_000 });
		// The new session reports its commands before any prompt: offered at once.
		await page.waitForFunction(() => /\/ for its commands/.test(document.querySelector(".vault-agent-input").getAttribute("placeholder")), null, { timeout: 5_000 });
		await page.locator(".vault-agent-input").fill("/");
		await page.locator(".vault-agent-input").dispatchEvent("input");
		await page.locator(".suggestion-container .suggestion-item", { hasText: "/summarise" }).waitFor({ state: "visible", timeout: 5_000 });
		await page.locator(".vault-agent-input").press("Escape");
		await send("hello again");
		await turnDone();
		assert.match(await page.locator(".vault-agent-msg.is-assistant").last().textContent(), /Echo: hello again/);
	});

	it("closing the chat ends the agent's process; the chat stays in the history and resumes its session", async () => {
		const pid = await page.evaluate(() => window.__harness.plugin.codingAgents.running()[0].pid);
		const sessionId = await page.evaluate(() => window.__harness.plugin.codingAgents.running()[0].sessionId);
		await page.evaluate(() => {
			for (const leaf of window.__harness.app.workspace.getLeavesOfType("vault-agent-chat")) leaf.detach();
		});
		await page.waitForFunction(() => window.__harness.plugin.codingAgents.running().length === 0, null, { timeout: 10_000 });
		const alive = () => {
			try {
				process.kill(pid, 0);
				return true;
			} catch {
				return false;
			}
		};
		for (let i = 0; i < 100 && alive(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
		assert.equal(alive(), false, "the agent's process is gone");
		await page.evaluate(() => window.__harness.runCommand("vault-agent:open-chat"));
		await page.locator(".vault-agent-msg.is-user").first().waitFor({ timeout: 10_000 });
		const saved = await page.evaluate(() => window.__harness.plugin.conversations.list());
		const stored = await page.evaluate((id) => window.__harness.plugin.conversations.load(id), saved[0].id);
		assert.equal(stored.agent.profile, "custom");
		assert.equal(stored.agent.sessionId, sessionId);
		await send("resumed?");
		await turnDone();
		assert.match(await page.locator(".vault-agent-msg.is-assistant").last().textContent(), /Echo: resumed\?/);
		assert.equal(await page.evaluate(() => window.__harness.plugin.codingAgents.running()[0].sessionId), sessionId, "session/load, not a new session");
	});

	it("Settings → Coding agents: Test reports what initialize said, or how to install a missing agent", async () => {
		await session.openSettings();
		await page.locator(".vault-agent-settings-nav").getByRole("tab", { name: "Coding agents", exact: true }).click();
		const row = (name) => page.locator(".vault-agent-coding-agent").filter({ has: page.locator(".setting-item-name", { hasText: name }) });
		await row("Custom agent").locator("button", { hasText: "Test" }).click();
		const report = row("Custom agent").locator(".vault-agent-coding-agent-report");
		await page.waitForFunction(() => [...document.querySelectorAll(".vault-agent-coding-agent-report")].some((el) => /answered/.test(el.textContent)), null, { timeout: 10_000 });
		assert.equal(await report.textContent(), "Scripted agent 9.9.9 answered (protocol 1): Vault Agent's tools over HTTP, resumes sessions.");
		await row("Claude Code").locator("button", { hasText: "Test" }).click();
		const missing = row("Claude Code").locator(".vault-agent-coding-agent-report.is-error");
		await missing.waitFor({ state: "visible", timeout: 10_000 });
		assert.match(await missing.textContent(), /"vault-agent-no-such-agent" was not found on PATH\. Install it with: npm install -g @zed-industries\/claude-agent-acp/);
		// The user is on that page: the message says what to do there, without a pointer to "Settings → … → Coding agents".
		assert.doesNotMatch(await missing.textContent(), /Settings →/);
		assert.match(await missing.textContent(), /Or give its full path as the command\.$/);
		await page.locator(".vault-agent-coding-agent").first().scrollIntoViewIfNeeded();
		await page.locator(".vault-agent-coding-agent").first().locator("xpath=..").screenshot({ path: join(outputDir, "acp-agents-settings.png") });
	});
});
