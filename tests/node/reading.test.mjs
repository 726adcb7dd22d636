// Reading in parts, through the built main.js and the CLI emulator over the
// sample vault: a note's map and one section (the heading rules the edit
// commands use), opening a note in the app, and listings that filter and page
// what the CLI prints (files by depth and name, tags by count, search pages).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { copySampleVault, emulator, loadPlugin, removeVault, useEmulator } from "../support/harness.mjs";

describe("reading in parts", () => {
	let vault;
	let plugin;
	const call = (tool, args) => plugin.core.callTool(tool, args);
	before(async () => {
		vault = copySampleVault();
		useEmulator(vault);
		({ plugin } = await loadPlugin(vault, { data: { cliPath: emulator, vaultName: "Sample Vault" } }));
	});
	after(() => removeVault(vault));

	it("maps a note and reads the sections the map names", async () => {
		const map = await call("obsidianNotes", { command: "map", path: "Projects/Launch plan.md" });
		assert.equal(map.ok, true, map.text);
		const paths = [...map.text.matchAll(/section: "([^"]+)"/g)].map((m) => m[1]);
		assert.ok(paths.includes("Launch plan::Timeline"), map.text);
		for (const heading of paths) {
			const section = await call("obsidianNotes", { command: "section", path: "Projects/Launch plan.md", heading });
			assert.equal(section.ok, true, `${heading}: ${section.text}`);
			assert.ok(section.text.includes(`(section "${heading}")`), section.text);
		}
	});

	it("a heading that is missing or ambiguous is a typed error listing what exists", async () => {
		const missing = await call("obsidianNotes", { command: "section", path: "Projects/Launch plan.md", heading: "Budget" });
		assert.equal(missing.error?.code, "heading_not_found");
		assert.match(missing.text, /Launch plan::Timeline/);
		const noNote = await call("obsidianNotes", { command: "map", file: "No such note" });
		assert.equal(noNote.error?.code, "note_not_found", noNote.text);
	});

	it("opens one note in the current tab, at a heading, and never one that is not there", async () => {
		const opened = [];
		plugin.app.workspace.openLinkText = async (...args) => {
			opened.push(args);
		};
		const result = await call("obsidianNotes", { command: "open", file: "Launch plan", heading: "Timeline" });
		assert.equal(result.ok, true, result.text);
		assert.deepEqual(opened, [["Projects/Launch plan.md#Timeline", "", false]]);
		const wrong = await call("obsidianNotes", { command: "open", path: "Projects/Launch plan.md", heading: "Nowhere" });
		assert.equal(wrong.error?.code, "heading_not_found");
		assert.equal(opened.length, 1, "nothing opened for a missing heading");
	});

	it("files: depth and name filters, and pages that say what comes next", async () => {
		const all = await call("obsidianNotes", { command: "files" });
		const everything = all.text.trim().split("\n");
		const top = await call("obsidianNotes", { command: "files", depth: 1 });
		assert.deepEqual(top.text.trim().split("\n"), everything.filter((p) => !p.includes("/")));
		const named = await call("obsidianNotes", { command: "files", name: "2026-03-0?.md" });
		assert.deepEqual(named.text.trim().split("\n"), ["Daily/2026-03-01.md", "Daily/2026-03-02.md", "Daily/2026-03-03.md"]);
		const count = await call("obsidianNotes", { command: "files", name: "*.md", folder: "Daily", total: true });
		assert.equal(count.text.trim(), "4");
		const first = await call("obsidianNotes", { command: "files", limit: 5 });
		assert.match(first.text, new RegExp(`\\[files 1-5 of ${everything.length}; for the next page send offset=5\\.\\]`));
		const pages = [];
		for (let offset = 0; offset < everything.length; offset += 5) {
			const page = await call("obsidianNotes", { command: "files", limit: 5, offset });
			pages.push(...page.text.split("\n").filter((line) => line && !line.startsWith("[")));
		}
		assert.deepEqual(pages, everything, "the pages together are the whole list, each file once");
		const bad = await call("obsidianNotes", { command: "files", name: "a/b" });
		assert.equal(bad.error?.code, "invalid_arguments");
	});

	it("tags: a minimum count and a limit that says what it left out", async () => {
		const all = await call("obsidianTags", { command: "tags", all: true, counts: true });
		const counts = all.text.trim().split("\n").map((line) => Number(line.split("\t")[1]));
		const frequent = await call("obsidianTags", { command: "tags", all: true, minCount: 2 });
		assert.ok(frequent.argv.includes("counts"), "counting needs the counts");
		const lines = frequent.text.trim().split("\n");
		assert.equal(lines.length, counts.filter((n) => n >= 2).length);
		assert.ok(lines.every((line) => Number(line.split("\t")[1]) >= 2), frequent.text);
		const few = await call("obsidianTags", { command: "tags", all: true, counts: true, limit: 3 });
		assert.match(few.text, new RegExp(`\\[Showing 3 of ${counts.length} tags`));
		const json = await call("obsidianTags", { command: "tags", all: true, format: "json", minCount: 2 });
		assert.equal(json.error?.code, "invalid_arguments");
	});

	it("search pages: offset continues where a full page stopped", async () => {
		const whole = await call("obsidianSearch", { command: "search", query: "the", limit: 200 });
		const all = whole.text.trim().split("\n");
		assert.ok(all.length >= 6, whole.text);
		const first = await call("obsidianSearch", { command: "search", query: "the", limit: 3 });
		assert.match(first.text, /\[Results 1-3; more may follow: send offset=3 for the next page\.\]/);
		const second = await call("obsidianSearch", { command: "search", query: "the", limit: 3, offset: 3 });
		assert.ok(second.argv.includes("limit=6"), JSON.stringify(second.argv));
		const paths = (r) => r.text.split("\n").filter((line) => line && !line.startsWith("["));
		assert.deepEqual([...paths(first), ...paths(second)], all.slice(0, 6));
		const context = await call("obsidianSearch", { command: "search:context", query: "launch", limit: 2, offset: 2 });
		const notes = new Set(context.text.split("\n").filter((l) => l && !l.startsWith("[")).map((l) => l.split(":")[0]));
		assert.equal(notes.size, 2, context.text);
		const tooFar = await call("obsidianSearch", { command: "search", query: "the", offset: 990, limit: 20 });
		assert.equal(tooFar.error?.code, "invalid_arguments");
	});
});
