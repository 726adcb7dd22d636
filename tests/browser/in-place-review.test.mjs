// Edits in place (issue 41, item 5), in Chromium from the built main.js: a
// change card the chat raises for a note is reviewed in that note's editor,
// a real CodeMirror 6 editor (tests/support/markdown-view-double.mjs, with
// @codemirror/state and view bundled into the page). "Review in editor"
// opens the note at its first change; only the changed words are struck or
// added; accepting one of two changes writes that one alone, and the chat's
// card folds to its past-tense line while the editor's decorations go; a
// card rejected in the chat leaves the editor too. Screenshots of the editor
// in a 320 px pane go to test-output/.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { openChat, outputDir, sendMessage, startBrowserPlugin, turnEnded } from "../support/browser.mjs";
import { emulator, emulatorEnv } from "../support/harness.mjs";
import { openaiStream, startModelServer } from "../support/model-servers.mjs";
import { axeViolations, settled } from "../support/sidebar-geometry.mjs";

const NOTE = "Projects/Launch plan.md";
const FIND = "- Ship the plugin to the community directory.\n- Keep the first-run experience under two minutes.\n\n### Metrics\n\n- Installs in the first week.";
const WITH = "- Ship the plugin to the community directory in May.\n- Keep the first-run experience under two minutes.\n\n### Metrics\n\n- Installs and reviews in the first week.";

describe("a note edit reviewed in the editor, in Chromium", () => {
	let server;
	let session;
	let page;
	let original;

	before(async () => {
		server = await startModelServer();
		session = await startBrowserPlugin({
			data: {
				cliPath: emulator,
				permissionMode: "askBeforeEdits",
				chat: { profiles: [{ id: "up", name: "Test", provider: "openAi", baseUrl: `${server.url}/v1`, model: "test-model" }], activeProfile: "up" },
			},
			env: (vault) => emulatorEnv(vault),
			viewport: { width: 1100, height: 760 },
		});
		({ page } = session);
		original = readFileSync(join(session.vault, NOTE), "utf8");
		await openChat(page);
		// The note's pane is 320 px wide, as a narrow window or a split leaves it.
		await page.evaluate(() => {
			const root = document.querySelector(".workspace-split.mod-root");
			root.style.flex = "none";
			root.style.width = "320px";
		});
	});

	after(async () => {
		await session?.close();
		await server?.close();
	});

	/** The model asks for the two-change edit; resolves once its card waits in the chat. */
	async function proposeEdit(message) {
		server.script({ stream: openaiStream({ toolCalls: [["obsidianEdit", { command: "edit", path: NOTE, find: FIND, with: WITH }]] }) });
		await sendMessage(page, message);
		await turnEnded(page, 30_000);
		const card = page.locator(".vault-agent-inline-card .vault-agent-confirm").last();
		await card.waitFor({ state: "visible" });
		return card;
	}

	/** What the editor shows of the review: struck words, added words, buttons, the panel, the cursor. */
	function editorFacts() {
		return page.evaluate(() => {
			const editor = document.querySelector(".workspace-split.mod-root .cm-editor");
			if (!editor) return null;
			const texts = (sel) => [...editor.querySelectorAll(sel)].map((el) => el.textContent);
			const view = window.__harness.app.workspace.getLeavesOfType("markdown")[0]?.view;
			return {
				removed: texts(".vault-agent-inplace-removed"),
				added: texts(".vault-agent-inplace-added"),
				buttons: [...editor.querySelectorAll(".vault-agent-inplace-buttons button")].map((b) => `${b.textContent}|${b.getAttribute("aria-label")}|${b.getAttribute("aria-pressed")}`),
				panel: editor.querySelector(".vault-agent-inplace-panel")?.textContent ?? null,
				text: view?.editor?.getValue() ?? null,
				cursor: view?.editor ? view.editor.posToOffset(view.editor.getCursor()) : null,
				path: view?.file?.path ?? null,
			};
		});
	}

	it("opens the note at its first change, with only the changed words marked and a button for each", async () => {
		const card = await proposeEdit("Put May and reviews into the launch goals");
		const review = card.locator("button.vault-agent-review-in-editor");
		assert.equal(await review.textContent(), "Review in editor");
		await review.click();
		await page.locator(".workspace-split.mod-root .vault-agent-inplace-buttons").first().waitFor({ state: "visible", timeout: 10_000 });
		await settled(page);
		const facts = await editorFacts();
		assert.equal(facts.path, NOTE);
		assert.equal(facts.text, original, "nothing written before an answer");
		// Only the words that differ (a word keeps its full stop): not the lines around them.
		assert.deepEqual(facts.removed, ["directory."]);
		assert.deepEqual(
			facts.added.map((t) => t.trim()),
			["directory in May.", "and reviews"],
		);
		assert.equal(facts.cursor, original.indexOf("- Ship the plugin"), "the cursor at the first change");
		assert.deepEqual(facts.buttons, [
			`Accept|Accept change 1 of 2 (line ${lineOf(original, "- Ship the plugin")})|false`,
			`Reject|Reject change 1 of 2 (line ${lineOf(original, "- Ship the plugin")})|false`,
			`Accept|Accept change 2 of 2 (line ${lineOf(original, "- Installs")})|false`,
			`Reject|Reject change 2 of 2 (line ${lineOf(original, "- Installs")})|false`,
		]);
		assert.match(facts.panel, /^Vault Agent proposes 2 changes to this note\.Accept allReject all$/);
		// Ours, not the editor's own content (Obsidian labels that).
		for (const part of [".vault-agent-inplace-panel", ".vault-agent-inplace-buttons"]) assert.deepEqual(await axeViolations(page, `.workspace-split.mod-root ${part}`), [], part);
		await page.locator(".workspace-split.mod-root").screenshot({ path: join(outputDir, "in-place-review-320.png") });
	});

	it("accepts one of two changes: only that one is written, the card folds and the decorations go", async () => {
		server.script({ stream: openaiStream({ text: "Added May; left the metrics as they were." }) });
		const first = page.getByRole("button", { name: /^Accept change 1 of 2/ });
		await first.click();
		await settled(page);
		let facts = await editorFacts();
		assert.ok(facts.buttons[0].endsWith("|true"), "the answer shows as pressed");
		assert.match(facts.panel, /1 answered/);
		assert.equal(readFileSync(join(session.vault, NOTE), "utf8"), original, "nothing written before every change has an answer");
		await page.locator(".workspace-split.mod-root").screenshot({ path: join(outputDir, "in-place-review-answered-320.png") });
		await page.getByRole("button", { name: /^Reject change 2 of 2/ }).click();
		const card = page.locator(".vault-agent-inline-card .vault-agent-confirm").last();
		await page.waitForFunction(() => document.querySelector(".vault-agent-inline-card .vault-agent-confirm.is-done"), null, { timeout: 15_000 });
		await turnEnded(page, 30_000);
		const expected = original.replace("community directory.", "community directory in May.");
		assert.equal(readFileSync(join(session.vault, NOTE), "utf8"), expected, "only the accepted change");
		assert.equal(await card.locator(".vault-agent-confirm-status").textContent(), 'Done. Edited "Projects/Launch plan.md" (+1 −1 lines; 1 of 2 changes accepted, 1 rejected).');
		assert.equal(await card.locator("button.vault-agent-undo").count(), 1, "Undo on the folded card");
		await page.waitForFunction(() => !document.querySelector(".workspace-split.mod-root .vault-agent-inplace-panel"), null, { timeout: 5_000 });
		facts = await editorFacts();
		assert.deepEqual([facts.added, facts.buttons, facts.panel], [[], [], null], "the editor's review is gone");
		assert.equal(facts.text, expected, "the editor shows the note as written");
		await page.locator(".workspace-split.mod-root").screenshot({ path: join(outputDir, "in-place-review-settled-320.png") });
	});

	it("a card rejected in the chat leaves the editor too, and the note as it was", async () => {
		const before = readFileSync(join(session.vault, NOTE), "utf8");
		server.script({ stream: openaiStream({ toolCalls: [["obsidianEdit", { command: "edit", path: NOTE, find: "- Installs in the first week.", with: "- Installs and reviews in the first week." }]] }) });
		await sendMessage(page, "Add reviews to the metrics");
		await turnEnded(page, 30_000);
		await page.locator(".workspace-split.mod-root .vault-agent-inplace-panel").waitFor({ state: "visible", timeout: 10_000 });
		assert.match((await editorFacts()).panel, /proposes 1 change to this note/);
		server.script({ stream: openaiStream({ text: "Left it as it is." }) });
		await page.locator(".vault-agent-inline-card .vault-agent-confirm").last().locator("button.vault-agent-reject").click();
		await page.waitForFunction(() => !document.querySelector(".workspace-split.mod-root .vault-agent-inplace-panel"), null, { timeout: 5_000 });
		await turnEnded(page, 30_000);
		assert.equal(readFileSync(join(session.vault, NOTE), "utf8"), before);
		assert.deepEqual(session.errors, []);
	});
});

/** The 1-based line of the note where `text` starts. */
function lineOf(note, text) {
	return note.slice(0, note.indexOf(text)).split("\n").length;
}
