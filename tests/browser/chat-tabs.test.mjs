// Several chats at once, in Chromium from the built main.js against the
// scripted model server: one chat in the right sidebar and one from "New
// chat in a new tab" in the main area stream at the same time, Stop in one
// ends only that one; the history marks the chat another view shows and
// brings that view forward instead of loading it twice; each view answers
// with the model profile its header picked; two chats editing
// one note meet the stale check (the second card is refused once the first
// is approved). Screenshots: test-output/chat-tabs-*.png.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { openChat, startBrowserPlugin } from "../support/browser.mjs";
import { emulator, emulatorEnv } from "../support/harness.mjs";
import { openaiStream, startModelServer } from "../support/model-servers.mjs";

const NOTE = "Projects/Launch plan.md";

describe("several chat views, in Chromium", () => {
	let server;
	let session;
	let page;
	/** The chat in the right sidebar, and the one in a main-area tab. */
	let side;
	let tab;

	before(async () => {
		server = await startModelServer();
		session = await startBrowserPlugin({
			data: {
				cliPath: emulator,
				permissionMode: "askBeforeEdits",
				chat: { provider: "openAi", openai: { baseUrl: `${server.url}/v1`, model: "test-model", apiKeySecret: "" } },
			},
			env: (vault) => emulatorEnv(vault),
			viewport: { width: 1280, height: 760 },
		});
		({ page } = session);
		await openChat(page);
		await page.evaluate(() => window.__harness.runCommand("vault-agent:new-chat-tab"));
		side = page.locator(".mod-right-split .vault-agent-chat");
		tab = page.locator(".mod-root .vault-agent-chat");
		await tab.locator(".vault-agent-input").waitFor({ state: "visible", timeout: 10_000 });
		// The right sidebar as wide as a user would make it for a chat.
		await page.evaluate(() => {
			document.querySelector(".workspace-split.mod-right-split").style.width = "420px";
		});
	});

	after(async () => {
		await session?.close();
		await server?.close();
	});

	const send = async (view, text) => {
		await view.locator(".vault-agent-input").fill(text);
		await view.locator(".vault-agent-send").click();
	};
	const ended = (view) => view.locator(":scope:not(.is-running)").waitFor({ timeout: 30_000 });
	const answer = (view) => view.locator(".vault-agent-msg.is-assistant").last();

	it("opens a second chat view with a chat of its own", async () => {
		assert.equal(await page.locator(".vault-agent-chat").count(), 2);
		const ids = await page.evaluate(() => window.__harness.app.workspace.getLeavesOfType("vault-agent-chat").map((leaf) => leaf.view.conversationId));
		assert.equal(ids.length, 2);
		assert.ok(ids[0] && ids[1] && ids[0] !== ids[1], `two conversations: ${ids}`);
		const command = await page.evaluate(() => Object.values(window.__harness.app.commands.commands).find((c) => c.id === "vault-agent:new-chat-tab"));
		assert.equal(command.name, "Vault Agent: New chat in a new tab");
		assert.equal(command.hotkeys, undefined, "no default hotkey");
	});

	it("streams two answers at once; Stop in one stops only that one", async () => {
		let resume;
		const gate = new Promise((resolve) => (resume = resolve));
		const tabText = "The answer in the tab goes on to its end after the other chat was stopped.";
		// The sidebar's answer goes silent after its first words; the tab's pauses until the test lets it go on.
		server.script({ stream: openaiStream({ text: "The sidebar answer starts and is then stopped by the user." }), chunkSize: 200, hangAfter: 1 });
		await send(side, "question in the sidebar");
		await answer(side).filter({ hasText: /\S/ }).waitFor({ timeout: 15_000 });
		server.script({ stream: openaiStream({ text: tabText }), chunkSize: 200, pauseAfter: 1, resume: gate });
		await send(tab, "question in the tab");
		await answer(tab).filter({ hasText: /\S/ }).waitFor({ timeout: 15_000 });
		assert.equal(await page.locator(".vault-agent-chat.is-running").count(), 2, "both chats answer at once");
		await side.locator(".vault-agent-stop").click();
		await ended(side);
		assert.match(await side.locator(".vault-agent-notice").last().textContent(), /Stopped\./);
		// The other chat still streams: its Stop is shown and its request is open.
		assert.equal(await tab.evaluate((el) => el.classList.contains("is-running")), true);
		assert.equal(await tab.locator(".vault-agent-stop").isVisible(), true);
		resume();
		await ended(tab);
		assert.equal((await answer(tab).textContent()).trim(), tabText);
		assert.equal(await tab.locator(".vault-agent-notice").count(), 0, "nothing stopped in the tab");
		assert.equal(await tab.locator(".vault-agent-error, .vault-agent-banner:visible").count(), 0);
	});

	it("marks in the history the chat another view shows, and shows that view instead of loading it twice", async () => {
		const [sideId, tabId, sideView] = await page.evaluate(() => {
			const leaves = window.__harness.app.workspace.getLeavesOfType("vault-agent-chat");
			const inSide = leaves.find((l) => l.containerEl.closest(".mod-right-split"));
			const inTab = leaves.find((l) => l.containerEl.closest(".mod-root"));
			return [inSide.view.conversationId, inTab.view.conversationId, inSide.view.viewId];
		});
		await tab.locator(".vault-agent-history-button").click();
		const row = tab.locator(`.vault-agent-history-item[data-id="${sideId}"]`);
		await row.waitFor({ timeout: 10_000 });
		assert.equal(await row.locator(".vault-agent-history-open").textContent(), "Open");
		assert.equal(await tab.locator(`.vault-agent-history-item[data-id="${tabId}"] .vault-agent-history-open`).count(), 0, "the chat on screen here is not marked");
		// Renamed or deleted where it is open, not here.
		assert.equal(await row.locator(".vault-agent-history-delete").isDisabled(), true);
		await session.screenshot("chat-tabs-side-by-side");
		await row.locator(".vault-agent-history-main").click();
		const active = await page.evaluate(() => window.__harness.app.workspace.activeLeaf?.view?.viewId);
		assert.equal(active, sideView, "the view that shows the chat is brought forward");
		assert.equal(await page.evaluate(() => window.__harness.app.workspace.getLeavesOfType("vault-agent-chat").find((l) => l.containerEl.closest(".mod-root")).view.conversationId), tabId, "the tab keeps its own chat");
		// The core refuses the same chat in a second view.
		const shownIn = await page.evaluate(([id]) => window.__harness.plugin.core.chatShow("view-elsewhere", id), [sideId]);
		assert.equal(shownIn, sideView);
	});

	it("refuses a second turn of a chat that is answering, and adds nothing to it", async () => {
		server.script({ stream: openaiStream({ text: "This turn holds the chat until it is stopped." }), chunkSize: 200, hangAfter: 1 });
		const outcome = await page.evaluate(async () => {
			const core = window.__harness.plugin.core;
			const conversation = core.newConversation();
			const events = [];
			let first = null;
			const running = core.chatSend(conversation, "first", (e) => {
				events.push(["first", e.type]);
				if (e.type === "textDelta") first ??= true;
			}, undefined, undefined);
			// The first turn has reached the model (its first words came) before the second is sent.
			while (!first) await new Promise((resolve) => setTimeout(resolve, 10));
			const second = await core.chatSend(conversation, "second", (e) => e.type === "error" && events.push(["second", e.code, e.message]), undefined, undefined);
			// Stop as the chat view does it: the core's flag, then the chat's own request.
			core.chatStop(conversation.id);
			window.__harness.plugin.abortRequests(conversation.id);
			const stopped = await running;
			return { second: { end: second.end, messages: second.conversation.messages.length }, stopped: stopped.end, errors: events.filter((e) => e[0] === "second") };
		});
		assert.equal(outcome.second.end, "failed");
		assert.equal(outcome.second.messages, 0, "nothing added to the chat by the refused turn");
		assert.equal(outcome.errors.length, 1);
		assert.equal(outcome.errors[0][1], "chat_busy");
		assert.match(outcome.errors[0][2], /already answering/);
		assert.equal(outcome.stopped, "stopped");
	});

	it("keeps each view's own model profile", async () => {
		const [first, other] = await page.evaluate(async () => {
			const plugin = window.__harness.plugin;
			const original = plugin.core.settings().chat.profiles[0];
			const { chat } = await plugin.editModelProfiles({ action: "duplicate", id: original.id });
			const copy = chat.profiles.find((p) => p.id !== original.id);
			await plugin.updateSettings({ chat: { ...chat, profiles: chat.profiles.map((p) => (p.id === copy.id ? { ...p, name: "Other model", model: "other-model" } : p)) } });
			return [original.id, copy.id];
		});
		await side.locator("select.vault-agent-model").selectOption(first);
		await tab.locator("select.vault-agent-model").selectOption(other);
		// The tab's pick became the saved default; the sidebar keeps the one it picked.
		assert.equal(await side.locator("select.vault-agent-model").inputValue(), first);
		assert.equal(await tab.locator("select.vault-agent-model").inputValue(), other);
		const models = [];
		for (const [view, text] of [[side, "Answered by the first model."], [tab, "Answered by the other model."]]) {
			server.script({ stream: openaiStream({ text }) });
			const asked = server.requests.length;
			await send(view, "which model answers?");
			await ended(view);
			assert.equal((await answer(view).textContent()).trim(), text);
			models.push(server.requests.slice(asked).find((r) => r.method === "POST" && r.url.endsWith("/chat/completions"))?.body.model);
		}
		assert.deepEqual(models, ["test-model", "other-model"]);
	});

	it("two chats editing one note: the second card is refused as stale once the first is approved", async () => {
		const edit = (line) => openaiStream({ toolCalls: [["obsidianEdit", { command: "edit", path: NOTE, heading: "Launch plan::Goals", content: line }]] });
		const card = (view) => view.locator(".vault-agent-inline-card .vault-agent-confirm:has(.vault-agent-diff)").last();
		server.script({ stream: edit("- Goal written by the sidebar chat") });
		await send(side, "rewrite the goals (sidebar)");
		await card(side).waitFor({ timeout: 15_000 });
		await ended(side);
		server.script({ stream: edit("- Goal written by the tab chat") });
		await send(tab, "rewrite the goals (tab)");
		await card(tab).waitFor({ timeout: 15_000 });
		await ended(tab);
		const before = readFileSync(join(session.vault, NOTE), "utf8");
		server.script({ stream: openaiStream({ text: "Done in the sidebar." }) });
		await card(side).locator("button.vault-agent-approve").click();
		await ended(side);
		await answer(side).filter({ hasText: "Done in the sidebar." }).waitFor({ timeout: 15_000 });
		const afterFirst = readFileSync(join(session.vault, NOTE), "utf8");
		assert.notEqual(afterFirst, before);
		assert.match(afterFirst, /- Goal written by the sidebar chat/);
		const cards = await tab.locator(".vault-agent-inline-card .vault-agent-confirm").count();
		await card(tab).locator("button.vault-agent-approve").click();
		await ended(tab);
		// Refused: the note keeps the first chat's change, and the tab asks again with a fresh preview.
		assert.equal(readFileSync(join(session.vault, NOTE), "utf8"), afterFirst);
		await tab.locator(".vault-agent-tool-call").filter({ hasText: /changed since the preview was made/ }).last().waitFor({ timeout: 15_000 });
		assert.equal(await tab.locator(".vault-agent-inline-card .vault-agent-confirm").count(), cards + 1, "a new card for the changed note");
		await session.screenshot("chat-tabs-stale");
	});
	it("works in the left sidebar too, and a closed view lets its chat go", async () => {
		await page.evaluate(async () => {
			const leaf = window.__harness.app.workspace.getLeftLeaf(false);
			await leaf.setViewState({ type: "vault-agent-chat", active: true });
			await window.__harness.app.workspace.revealLeaf(leaf);
		});
		const left = page.locator(".mod-left-split .vault-agent-chat");
		await left.locator(".vault-agent-input").waitFor({ state: "visible", timeout: 10_000 });
		server.script({ stream: openaiStream({ text: "Answered in the left sidebar." }) });
		await send(left, "a question on the left");
		await ended(left);
		assert.equal((await answer(left).textContent()).trim(), "Answered in the left sidebar.");
		const [id, shown, afterClose] = await page.evaluate(() => {
			const { app, plugin } = window.__harness;
			const leaf = app.workspace.getLeavesOfType("vault-agent-chat").find((l) => l.containerEl.closest(".mod-left-split"));
			const chat = leaf.view.conversationId;
			const before = plugin.core.chatOpenElsewhere("nobody").map(([c]) => c);
			leaf.detach();
			return [chat, before, plugin.core.chatOpenElsewhere("nobody").map(([c]) => c)];
		});
		assert.ok(shown.includes(id), "the core knows the left view shows its chat");
		assert.ok(!afterClose.includes(id), "once the view closed, its chat may be opened elsewhere");
	});
});
