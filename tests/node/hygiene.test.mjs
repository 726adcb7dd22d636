// The hygiene checks through the built main.js, the CLI emulator and the
// vault on disk (note text through app.vault.cachedRead), on a generated
// vault with duplicates, empty notes, missing links and backlink candidates
// planted at known places (scripts/make-vault.mjs): every planted one is
// found and nothing else. Also the similar-title warning before `create`,
// and the palette commands that show a report in the chat.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, it } from "node:test";
import { makeVault } from "../../scripts/make-vault.mjs";
import { emulator, loadPlugin, readLog, runCommand, settle, useEmulator, visibleNotices } from "../support/harness.mjs";

const sorted = (list) => [...list].sort();

function exactGroups(text) {
	return sorted(text.split("\n").filter((l) => l.startsWith('- "')).map((l) => l.slice(l.indexOf('": ') + 3).split(" | ").join("\t")));
}
function similarPairs(text) {
	return sorted(text.split("\n").filter((l) => /^- [01]\.\d\d: /.test(l)).map((l) => l.replace(/^- [01]\.\d\d: /, "").split(" ~ ").join("\t")));
}
function listed(text) {
	return sorted(text.split("\n").filter((l) => l.startsWith("- ")).map((l) => l.slice(2)));
}

describe("vault hygiene on a generated vault", () => {
	let vault;
	let plugin;
	let app;
	let planted;
	let log;
	let obsidian;
	before(async () => {
		vault = join(mkdtempSync(join(tmpdir(), "vault-agent-hygiene-")), "Hygiene Vault");
		planted = makeVault(vault, 1200);
		({ plugin, app, obsidian } = await loadPlugin(vault, { data: { cliPath: emulator, vaultName: "Hygiene Vault", permissionMode: "askEveryChange" } }));
		log = useEmulator(vault);
	});
	after(() => rmSync(dirname(vault), { recursive: true, force: true }));

	const hygiene = (args) => plugin.core.callTool("obsidianHygiene", args);
	/** Removes a note a test made, as Obsidian would report it, so the counts stay the planted ones. */
	const forget = (path) => {
		rmSync(join(vault, path));
		app.vault.trigger("delete", obsidian.TFile.create__(app.vault, path));
	};

	it("finds every planted duplicate and similar title, and nothing else, from the listing alone", async () => {
		const result = await hygiene({ command: "duplicates", limit: 500 });
		assert.equal(result.ok, true, result.text);
		assert.deepEqual(exactGroups(result.text), sorted(planted.exact.map((g) => g.join("\t"))), result.text);
		assert.deepEqual(similarPairs(result.text), sorted(planted.similar.map((p) => p.join("\t"))), result.text);
		assert.equal(result.truncated, undefined);
		assert.deepEqual(readLog(log).map((e) => e.argv.slice(1)), [["files", "ext=md"]], "one CLI call");
	});

	it("finds every planted empty note, and nothing else, reading the notes through the vault", async () => {
		useEmulator(vault);
		const result = await hygiene({ command: "empty", limit: 500 });
		assert.equal(result.ok, true, result.text);
		assert.deepEqual(listed(result.text), sorted(planted.empty), result.text);
		assert.match(result.text, /cachedRead/);
	});

	it("lists every planted missing note with exactly its sources", async () => {
		const result = await hygiene({ command: "missing", limit: 500 });
		assert.equal(result.ok, true, result.text);
		const found = {};
		for (const line of result.text.split("\n").filter((l) => l.startsWith("- [["))) {
			const [link, rest] = line.slice(4).split("]] ← ");
			found[link] = sorted(rest.replace(/ \(\d+ notes?\)$/, "").split(", "));
		}
		assert.deepEqual(found, planted.missing);
	});

	it("ranks the notes that mention the subject first and leaves out those that link already", async () => {
		const result = await hygiene({ command: "suggest", path: planted.subject, limit: 20 });
		assert.equal(result.ok, true, result.text);
		const ranked = result.text.split("\n").filter((l) => /^\d+\. /.test(l)).map((l) => l.replace(/^\d+\. /, "").split(" (score")[0]);
		assert.deepEqual(sorted(ranked.slice(0, 5)), sorted(planted.mentions), result.text);
		for (const linked of planted.linked) assert.ok(!ranked.includes(linked), `${linked} links already`);
		assert.match(result.text, /mentions "solar panel maintenance" once without linking/);
	});

	it("warns on the card and tells the model when a new note's title is taken or very similar", async () => {
		const result = await plugin.core.callTool("obsidianEdit", { command: "create", path: "Inbox/Sourdough starter car.md", content: "x" });
		assert.ok(result.pending, result.text);
		assert.match(result.pending.preview.warning, /a very similar title exists: "Ideas\/Sourdough starter care\.md"/);
		assert.ok(result.text.includes(result.pending.preview.warning), "the model reads it too");
		assert.equal(existsSync(join(vault, "Inbox/Sourdough starter car.md")), false, "nothing written before the click");
		plugin.core.reject(result.pending.id);
	});

	it("shows that warning on the card the user approves", async () => {
		const result = await plugin.api.callTool("obsidianEdit", { command: "create", path: "Inbox/Sourdough starter car.md", content: "x" });
		assert.match(result.pending?.preview.warning ?? "", /a very similar title exists/, result.text);
		await settle();
		const card = document.querySelector(`.modal-container .vault-agent-confirm[data-confirmation-id="${result.pending.id}"]`);
		assert.ok(card, "a modal with the card is open");
		assert.equal(card.querySelector(".vault-agent-confirm-warning")?.textContent, result.pending.preview.warning);
		card.closest(".modal").querySelector(".modal-close-button").click();
		await settle();
		assert.equal(existsSync(join(vault, "Inbox/Sourdough starter car.md")), false, "closing the card made nothing");
	});

	it("once the search index is built, warns from it: a note it heard of, by its stemmer, with no CLI listing", async () => {
		await plugin.searchIndex.settled();
		const made = "Ideas/Meeting notes.md";
		writeFileSync(join(vault, made), "Agenda.\n");
		app.vault.trigger("create", obsidian.TFile.create__(app.vault, made));
		await plugin.searchIndex.settled();
		const start = readLog(log).length;
		// 0.846 by Levenshtein, under the 0.85 bound: the same terms word by word.
		const result = await plugin.core.callTool("obsidianEdit", { command: "create", path: "Inbox/Meetings note.md", content: "x" });
		assert.ok(result.pending, result.text);
		assert.match(result.pending.preview.warning, /a very similar title exists: "Ideas\/Meeting notes\.md"/);
		assert.deepEqual(readLog(log).slice(start).map((e) => e.argv[1]).filter((c) => c === "files"), [], "no listing: the index answered");
		plugin.core.reject(result.pending.id);
		forget(made);
	});

	it("suggests by the index's words: stems and folded accents the notes' own words do not match", async () => {
		const made = "Ideas/Balcony garden.md";
		writeFileSync(join(vault, made), "Growing tomatoes on the balcony in a café chair; watering twice a day.\n");
		app.vault.trigger("create", obsidian.TFile.create__(app.vault, made));
		await plugin.searchIndex.settled();
		const result = await hygiene({ command: "suggest", topic: "tomato watered cafe" });
		assert.equal(result.ok, true, result.text);
		assert.match(result.text, /^1\. Ideas\/Balcony garden\.md \(score [\d.]+\): shares words: /m, result.text);
		assert.match(result.text, /Source: the ranked search's index/);
		forget(made);
	});

	it("refuses bad arguments with a typed error that names the fix, before any process", async () => {
		const start = readLog(log).length;
		for (const [args, field] of [
			[{ command: "duplicates", threshold: 3 }, "`threshold`"],
			[{ command: "suggest" }, "`topic`"],
			[{ command: "empty", limit: 0 }, "`limit`"],
		]) {
			const result = await hygiene(args);
			assert.equal(result.error?.code, "invalid_arguments", result.text);
			assert.ok(result.text.includes(field), result.text);
		}
		assert.equal(readLog(log).length, start);
	});

	it("shows a palette command's report in the chat", async () => {
		assert.equal(await runCommand(app, "vault-agent:find-empty-notes"), true);
		const block = document.querySelector(".vault-agent-chat .vault-agent-tool-call.is-report");
		assert.ok(block, "a report block in the chat");
		assert.equal(block.hasAttribute("open"), true);
		assert.match(block.querySelector(".vault-agent-tool-name").textContent, /^Vault hygiene$/);
		assert.match(block.querySelector(".vault-agent-tool-text").textContent, /^Empty notes among 1200 notes: 30\./);
		app.workspace.getActiveFile = () => null;
		assert.equal(await runCommand(app, "vault-agent:suggest-backlinks"), true);
		assert.ok(visibleNotices().some((n) => /Open a note first/.test(n)), "a notice says what to do");
	});
});
