// The chat's context and history in Chromium from the built main.js, against
// a scripted model server that records every request: the open note as a
// chip (with its selection) that follows the active note and can be removed,
// `[[` and `@` suggesting notes, what the model is told about attachments,
// Markdown while an answer streams, Regenerate, Edit and resend, and the
// history panel (search, rename, delete).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { openChat, startBrowserPlugin, turnEnded } from "../support/browser.mjs";
import { emulator, emulatorEnv } from "../support/harness.mjs";
import { openaiStream, startModelServer } from "../support/model-servers.mjs";

describe("chat context and history in Chromium", () => {
	let server;
	let session;
	let page;

	before(async () => {
		server = await startModelServer();
		session = await startBrowserPlugin({
			data: {
				cliPath: emulator,
				chat: { provider: "openAi", openai: { baseUrl: `${server.url}/v1`, model: "test-model", apiKeySecret: "", contextWindow: 32000 } },
			},
			env: (vault) => emulatorEnv(vault),
			viewport: { width: 1100, height: 900 },
		});
		({ page } = session);
		await openChat(page);
	});

	after(async () => {
		await session?.close();
		await server?.close();
	});

	const input = () => page.locator(".vault-agent-input");

	async function send(text) {
		await input().fill(text);
		await page.locator(".vault-agent-send").click();
	}

	const turnDone = () => turnEnded(page);

	/** The user opens a note in Obsidian's editor, with `selection` selected. */
	async function openNote(path, selection = "") {
		await page.evaluate(
			([p, s]) => {
				const app = window.__harness.app;
				app.workspace.openFile__(app.vault.getAbstractFileByPath(p), { selection: s });
			},
			[path, selection],
		);
	}

	/** The messages of the newest request to the model. */
	function lastRequest() {
		const messages = server.requests.at(-1).body.messages;
		return { system: messages[0].content, users: messages.filter((m) => m.role === "user").map((m) => m.content), all: messages };
	}

	async function newChat() {
		await page.locator(".vault-agent-chat-header .vault-agent-new-chat").click();
	}

	it("attaches the open note as a chip with its selection; it follows the active note and tells the model", async () => {
		await openNote("Projects/Roadmap.md", "Ship the beta in Q3");
		const chip = page.locator(".vault-agent-attachments .vault-agent-chip.is-open-note");
		await chip.waitFor({ state: "visible", timeout: 10_000 });
		assert.equal(await chip.getAttribute("data-path"), "Projects/Roadmap.md");
		assert.equal(await chip.locator(".vault-agent-chip-path").textContent(), "Projects/Roadmap");
		assert.match(await chip.locator(".vault-agent-chip-selection").textContent(), /Ship the beta in Q3/);
		await session.screenshot("attached-note-chip", { fit: ".vault-agent-composer" });

		await openNote("Projects/Launch plan.md");
		await page.waitForFunction(() => document.querySelector(".vault-agent-chip.is-open-note")?.dataset.path === "Projects/Launch plan.md", null, { timeout: 5_000 });
		assert.equal(await page.locator(".vault-agent-chip").count(), 1, "one chip: it moved with the active note");
		assert.equal(await page.locator(".vault-agent-chip-selection").count(), 0, "no selection, none shown");

		server.script({ stream: openaiStream({ text: "It is about the launch." }) });
		await send("What is this note about?");
		await turnDone();
		const { system, users } = lastRequest();
		assert.match(users.at(-1), /^What is this note about\?\n\n\[Notes the user attached to this message\. They are not included here: read them with your tools/);
		assert.match(users.at(-1), /\n- Projects\/Launch plan\.md$/);
		assert.ok(!users.at(-1).includes("Roadmap"), "the chip that moved away is not attached");
		assert.ok(!system.includes("The note open in Obsidian"), "the chips replace the open-note line");
		assert.match(await page.locator(".vault-agent-msg.is-user .vault-agent-msg-attachment").last().textContent(), /Projects\/Launch plan/);
	});

	it("a removed open-note chip stays removed while the active note changes; the model is told of no note", async () => {
		await page.locator(".vault-agent-chip.is-open-note .vault-agent-chip-remove").click();
		assert.equal(await page.locator(".vault-agent-chip").count(), 0);
		await openNote("Projects/Roadmap.md", "some words");
		await page.locator(".vault-agent-input").focus();
		assert.equal(await page.locator(".vault-agent-chip").count(), 0, "it does not come back by itself");
		server.script({ stream: openaiStream({ text: "Fine." }) });
		await send("Anything else?");
		await turnDone();
		const { system, users } = lastRequest();
		assert.equal(users.at(-1), "Anything else?");
		assert.ok(!system.includes("Roadmap"), system);
		// A new chat attaches the open note again.
		await newChat();
		await page.locator(".vault-agent-chip.is-open-note").waitFor({ state: "visible", timeout: 5_000 });
		await page.locator(".vault-agent-chip.is-open-note .vault-agent-chip-remove").click();
	});

	it("[[ and @ suggest notes with Obsidian's suggest popover and attach the chosen one", async () => {
		await input().click();
		await input().pressSequentially("Compare [[Road");
		const item = page.locator(".suggestion-container .suggestion-item", { hasText: "Roadmap" });
		await item.waitFor({ state: "visible", timeout: 5_000 });
		assert.match(await item.locator(".suggestion-note").textContent(), /^Projects\/Roadmap\.md$/);
		await session.screenshot("mention-suggest");
		const users = await page.locator(".vault-agent-msg.is-user").count();
		await input().press("Enter");
		assert.equal(await page.locator(".suggestion-container").count(), 0, "the list closes");
		assert.equal(await input().inputValue(), "Compare [[Roadmap]]");
		assert.equal(await page.locator(".vault-agent-chip[data-path='Projects/Roadmap.md']").count(), 1);
		assert.equal(await page.locator(".vault-agent-msg.is-user").count(), users, "Enter picked a note; it did not send");

		await input().pressSequentially(" with @launch");
		const launch = page.locator(".suggestion-container .suggestion-item", { hasText: "Launch plan" });
		await launch.waitFor({ state: "visible", timeout: 5_000 });
		await launch.click();
		assert.equal(await input().inputValue(), "Compare [[Roadmap]] with [[Launch plan]]");
		assert.deepEqual(await page.locator(".vault-agent-chip").evaluateAll((els) => els.map((el) => el.dataset.path)), ["Projects/Roadmap.md", "Projects/Launch plan.md"]);
		await page.locator(".vault-agent-chip[data-path='Projects/Launch plan.md'] .vault-agent-chip-remove").click();
		assert.equal(await page.locator(".vault-agent-chip").count(), 1, "a mention chip can be removed");

		server.script({ stream: openaiStream({ text: "Compared." }) });
		await page.locator(".vault-agent-send").click();
		await turnDone();
		const sent = lastRequest().users.at(-1);
		assert.match(sent, /^Compare \[\[Roadmap\]\] with \[\[Launch plan\]\]\n\n\[Notes the user attached/);
		assert.match(sent, /\n- Projects\/Roadmap\.md$/);
		assert.equal(await page.locator(".vault-agent-chip").count(), 0, "mentions go with the message they were sent with");
		assert.deepEqual(session.errors, []);
	});

	it("renders the answer as Markdown while it streams", async () => {
		const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");
		server.script({ stream: openaiStream({ text: `**Bold start** and a list:\n\n- one\n- two\n\n${words}` }), chunkSize: 48, delayMs: 60 });
		await send("Stream slowly");
		await page.waitForFunction(
			() => document.querySelector(".vault-agent-chat.is-running .vault-agent-msg.is-streaming strong")?.textContent === "Bold start",
			null,
			{ timeout: 10_000 },
		);
		const mid = await page.evaluate(() => {
			const el = document.querySelector(".vault-agent-msg.is-streaming");
			return { running: Boolean(document.querySelector(".vault-agent-chat.is-running")), items: el?.querySelectorAll("li").length ?? 0, stars: el?.textContent.includes("**") };
		});
		assert.equal(mid.running, true, "seen while the answer still streams");
		assert.equal(mid.stars, false, "no raw Markdown on screen");
		await turnDone();
		const answer = page.locator(".vault-agent-msg.is-assistant").last();
		assert.equal(await answer.locator("strong").textContent(), "Bold start");
		assert.equal(await answer.locator("li").count(), 2);
		assert.match(await answer.textContent(), /word39/);
		assert.equal(await page.locator(".vault-agent-msg.is-streaming").count(), 0);
	});

	it("Regenerate drops the last answer and answers the same message again", async () => {
		await newChat();
		server.script({ stream: openaiStream({ text: "The first answer." }) });
		await send("Name a colour");
		await turnDone();
		const asked = lastRequest().users;
		assert.match(asked[0], /^Name a colour\n\n\[Notes the user attached[^]*- Projects\/Roadmap\.md/, "a new chat attached the open note again");
		const regenerate = page.locator("button.vault-agent-regenerate");
		assert.equal(await regenerate.count(), 1);
		const requests = server.requests.length;
		server.script({ stream: openaiStream({ text: "A second answer: blue." }) });
		await regenerate.click();
		await turnDone();
		assert.equal(server.requests.length, requests + 1);
		const { users, all } = lastRequest();
		assert.deepEqual(users, asked, "the message is asked once, with its attachments");
		assert.ok(!all.some((m) => String(m.content ?? "").includes("first answer")), "the dropped answer is not sent");
		assert.deepEqual(await page.locator(".vault-agent-msg.is-assistant").allTextContents(), ["A second answer: blue."]);
		assert.equal(await page.locator(".vault-agent-msg.is-user").count(), 1);
		const stored = await page.evaluate(async () => {
			const plugin = window.__harness.plugin;
			const id = plugin.lastConversationId();
			return (await plugin.conversations.load(id)).messages.map((m) => m.text ?? "");
		});
		assert.deepEqual(stored, ["Name a colour", "A second answer: blue."]);
		await page.locator(".vault-agent-chip.is-open-note .vault-agent-chip-remove").click();
	});

	it("Edit and resend replaces a message and drops everything after it", async () => {
		server.script({ stream: openaiStream({ text: "Green is nice too." }) });
		await send("And another one?");
		await turnDone();
		const first = page.locator(".vault-agent-msg.is-user").first();
		await first.hover();
		await first.locator("button.vault-agent-edit").click();
		const box = first.locator("textarea.vault-agent-edit-input");
		assert.equal(await box.inputValue(), "Name a colour");
		await box.fill("Name a fruit");
		server.script({ stream: openaiStream({ text: "An apple." }) });
		await first.locator("button.vault-agent-edit-send").click();
		await turnDone();
		assert.deepEqual(await page.locator(".vault-agent-msg.is-user .vault-agent-msg-text").allTextContents(), ["Name a fruit"]);
		assert.deepEqual(await page.locator(".vault-agent-msg.is-assistant").allTextContents(), ["An apple."]);
		const { users, all } = lastRequest();
		assert.equal(users.length, 1);
		assert.match(users[0], /^Name a fruit\n\n\[Notes the user attached[^]*- Projects\/Roadmap\.md/, "the edited message keeps its attachments");
		assert.ok(!all.some((m) => /colour|another one|Green/.test(String(m.content ?? ""))), "nothing after the edited message is sent");
		assert.deepEqual(session.errors, []);
	});

	it("history: search finds chats by title and text; rename and delete (after a confirmation) change only that chat", async () => {
		await newChat();
		server.script({ stream: openaiStream({ text: "Penguins live in the southern hemisphere." }) });
		await send("Where do they live?");
		await turnDone();
		// The plugin's folder, through the vault adapter the plugin writes with.
		const stored = () =>
			page.evaluate(async () => {
				const adapter = window.__harness.app.vault.adapter;
				const folder = `${window.__harness.plugin.manifest.dir}/conversations`;
				const files = (await adapter.list(folder)).files.map((f) => f.split("/").pop());
				return { files: files.filter((f) => f !== "index.json"), index: JSON.parse(await adapter.read(`${folder}/index.json`)).chats };
			});
		const filesBefore = (await stored()).files;

		await page.locator(".vault-agent-history-button").click();
		const panel = page.locator(".vault-agent-history-panel");
		await panel.waitFor({ state: "visible", timeout: 5_000 });
		const rows = panel.locator(".vault-agent-history-item");
		await rows.first().waitFor({ timeout: 5_000 });
		assert.ok((await rows.count()) >= 3, `every chat is listed: ${await rows.count()}`);
		await panel.locator("input.vault-agent-history-search").fill("southern");
		await page.waitForFunction(() => document.querySelectorAll(".vault-agent-history-item").length === 1, null, { timeout: 5_000 });
		assert.equal(await rows.locator(".vault-agent-history-title").textContent(), "Where do they live?");
		assert.match(await rows.locator(".vault-agent-history-meta").textContent(), /southern hemisphere/);
		await session.screenshot("history-search");
		await panel.locator("input.vault-agent-history-search").fill("name a fruit");
		await page.waitForFunction(() => document.querySelector(".vault-agent-history-item .vault-agent-history-title")?.textContent === "Name a fruit", null, { timeout: 5_000 });

		// Rename the penguin chat.
		await panel.locator("input.vault-agent-history-search").fill("penguins");
		await page.waitForFunction(
			() => [...document.querySelectorAll(".vault-agent-history-title")].map((el) => el.textContent).join("|") === "Where do they live?",
			null,
			{ timeout: 5_000 },
		);
		await rows.first().locator("button.vault-agent-history-rename").click();
		const rename = page.locator(".vault-agent-rename-modal");
		await rename.locator("input.vault-agent-rename-input").fill("Penguin facts");
		await rename.locator("button", { hasText: "Save" }).click();
		await page.waitForFunction(() => document.querySelector(".vault-agent-history-title")?.textContent === "Penguin facts", null, { timeout: 5_000 });
		assert.ok((await stored()).index.some((c) => c.title === "Penguin facts"), "the index has the new title");
		// The row: its title, the chat on screen marked, when (no seconds) and the first question it was renamed from;
		// a search finds words across the row, one in the title and one in the first question.
		await panel.locator("input.vault-agent-history-search").fill("penguin where");
		// The list of "penguins" shows the same row with an excerpt until this search has answered.
		await page.waitForFunction(() => document.querySelector(".vault-agent-history-line")?.textContent === "Where do they live?", null, { timeout: 5_000 });
		const row = await rows.first().evaluate((el) => ({
			current: el.classList.contains("is-active") && el.querySelector("[aria-current='true']") !== null,
			marked: el.querySelector(".vault-agent-history-current")?.textContent,
			when: el.querySelector(".vault-agent-history-when")?.textContent,
			line: el.querySelector(".vault-agent-history-line")?.textContent,
			meta: el.querySelector(".vault-agent-history-meta")?.textContent,
		}));
		assert.equal(row.current, true, "the chat on screen is marked");
		assert.equal(row.marked, "This chat");
		assert.match(row.when, /^(Just now|\d+ minutes? ago)$/);
		assert.equal(row.line, "Where do they live?");
		assert.doesNotMatch(row.meta, /\d:\d\d:\d\d/, "no seconds");
		await session.screenshot("history-row", { fit: ".vault-agent-history-panel" });

		// Delete asks first; Cancel keeps it.
		const penguin = (await stored()).index.find((c) => c.title === "Penguin facts").id;
		await rows.first().locator("button.vault-agent-history-delete").click();
		const dialog = page.locator(".vault-agent-delete-modal");
		assert.equal(await dialog.locator(".modal-title").textContent(), "Delete this chat?");
		await dialog.locator("button", { hasText: "Cancel" }).click();
		assert.ok((await stored()).files.includes(`${penguin}.json`), "Cancel deletes nothing");
		await rows.first().locator("button.vault-agent-history-delete").click();
		await dialog.locator("button.vault-agent-delete-confirm").click();
		await page.waitForFunction(() => document.querySelectorAll(".vault-agent-history-item").length === 0, null, { timeout: 5_000 });
		const after = await stored();
		assert.ok(!after.files.includes(`${penguin}.json`));
		assert.deepEqual(after.files.sort(), filesBefore.filter((f) => f !== `${penguin}.json`).sort(), "no other chat was lost");
		assert.ok(!after.index.some((c) => c.id === penguin));
		assert.equal(after.index.length, after.files.length);
		assert.equal(await page.locator(".vault-agent-msg.is-user").count(), 0, "the chat on screen was the deleted one: a new chat is shown");
		assert.deepEqual(session.errors, []);
	});

	it("an answer after a notice in the same round (a busy server) is still shown as it streams", async () => {
		server.script({ status: 503, json: { error: { message: "overloaded" } }, headers: { "retry-after": "0" } }, { stream: openaiStream({ text: "Here **after** the wait." }) });
		await send("Are you there?");
		await turnDone();
		// The busy server's line went once the answer came; it is not kept as a notice.
		assert.equal(await page.locator(".vault-agent-retrying").count(), 0);
		assert.doesNotMatch((await page.locator(".vault-agent-notice").allTextContents()).join("\n"), /busy/);
		const answer = page.locator(".vault-agent-msg.is-assistant").last();
		assert.equal(await answer.textContent(), "Here after the wait.");
		assert.equal(await answer.locator("strong").textContent(), "after");
	});

	it("history: a chat of yesterday says Yesterday, one of a few hours ago says so", async () => {
		const panel = page.locator(".vault-agent-history-panel");
		// Opened afresh: the list is drawn again at the page's time.
		const reopen = async () => {
			if (await panel.isVisible()) await page.locator(".vault-agent-history-button").click();
			await page.locator(".vault-agent-history-button").click();
			await panel.waitFor({ state: "visible", timeout: 5_000 });
		};
		await reopen();
		await panel.locator("input.vault-agent-history-search").fill("");
		const whens = () => page.locator(".vault-agent-history-when").allTextContents();
		await page.locator(".vault-agent-history-when").first().waitFor({ timeout: 5_000 });
		const newest = await page.evaluate(() => Date.now());
		// The page's clock a day later (at noon, so "a day later" is the calendar's yesterday), then three hours later.
		const noon = new Date(newest);
		noon.setDate(noon.getDate() + 1);
		noon.setHours(12, 0, 0, 0);
		await page.clock.setFixedTime(noon);
		await reopen();
		await page.waitForFunction(() => document.querySelector(".vault-agent-history-when")?.textContent === "Yesterday", null, { timeout: 5_000 });
		assert.ok((await whens()).every((w) => w === "Yesterday"), JSON.stringify(await whens()));
		await page.clock.setFixedTime(newest + 3 * 3_600_000 + 60_000);
		await reopen();
		await page.waitForFunction(() => /hours? ago|Yesterday/.test(document.querySelector(".vault-agent-history-when")?.textContent ?? ""), null, { timeout: 5_000 });
		// Three hours on is still today unless midnight passed between.
		assert.match((await whens())[0], /^(3 hours ago|Yesterday)$/);
	});
});
