// The ranked search (`obsidianSearch find`) through the built main.js: the
// index the core builds at layout ready from the notes read through
// Obsidian's vault, kept current by the vault's events, limited to the read
// scope in every result and count, never holding the configuration folder.
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, before, describe, it } from "node:test";
import { copySampleVault, loadPlugin, removeVault } from "../support/harness.mjs";

const find = (plugin, args) => plugin.core.callTool("obsidianSearch", { command: "find", ...args });

/** The notes a page names, in order. */
const paths = (text) => [...text.matchAll(/^\d+\. (.+?\.md) /gm)].map((m) => m[1]);

describe("ranked search on the sample vault", () => {
	let vault;
	let plugin;
	let app;
	before(async () => {
		vault = copySampleVault();
		// In the configuration folder: never indexed, never counted.
		writeFileSync(join(vault, ".obsidian/zebracorn.md"), "# Zebracorn\n\nThe zebracorn secret.\n");
		// Larger than the CLI's reading limit (64 KiB): indexed in parts.
		const filler = Array.from({ length: 4000 }, (_, i) => `Line ${i} of the almanac about weather and tides.`).join("\n");
		writeFileSync(join(vault, "Ideas/Almanac.md"), `# Almanac\n\n${filler}\n\n## Appendix\n\nThe quokka festival closes the year.\n`);
		({ plugin, app } = await loadPlugin(vault));
		await plugin.searchIndex.settled();
	});
	after(() => removeVault(vault));

	it("answers a question with passages: note, heading path, matched words, score", async () => {
		const result = await find(plugin, { query: "when is the public launch" });
		assert.equal(result.ok, true, result.text);
		assert.equal(paths(result.text)[0], "Projects/Launch plan.md", result.text);
		assert.match(result.text, /^1\. Projects\/Launch plan\.md heading "Launch plan(::\w+)?", line \d+ \(score \d+\.\d\d; matched: [a-z, ]*launch/m);
		assert.match(result.text, /^ {3}The public launch of Vault Agent/m, "the passage itself");
		assert.equal(result.withheld, undefined);
		// The heading path is the one the section reader takes.
		const [, path, heading] = result.text.match(/^1\. (.+?\.md) heading "([^"]+)"/m);
		const section = await plugin.core.callTool("obsidianNotes", { command: "section", path, heading });
		assert.equal(section.ok, true, section.text);
	});

	it("names the query's words that no note holds, so the caller can ask in the notes' words", async () => {
		const result = await find(plugin, { query: "when is the public launch for the zeppelin pilot" });
		assert.equal(result.ok, true, result.text);
		assert.equal(paths(result.text)[0], "Projects/Launch plan.md", result.text);
		assert.match(result.text, /^\[No note you may search holds "zeppelin", "pilot": if these passages do not answer, search again with the words the notes would use for them\.\]$/m);
		const held = await find(plugin, { query: "when is the public launch" });
		assert.doesNotMatch(held.text, /No note you may search holds/, "every word is in some note");
	});

	it("pages with a cursor, and refuses one made for another query", async () => {
		const first = await find(plugin, { query: "notes plan project", limit: 2 });
		assert.equal(first.ok, true, first.text);
		const cursor = first.text.match(/send cursor="([^"]+)"/)?.[1];
		assert.ok(cursor, first.text);
		assert.match(first.text, /\[\d+ more notes?: send cursor=/);
		const second = await find(plugin, { query: "notes plan project", limit: 2, cursor });
		assert.equal(second.ok, true, second.text);
		assert.match(second.text, /^3\. /m, second.text);
		const overlap = paths(second.text).filter((p) => paths(first.text).includes(p));
		assert.deepEqual(overlap, [], "no note twice");
		const wrong = await find(plugin, { query: "weather report", cursor });
		assert.equal(wrong.ok, false);
		assert.match(wrong.text, /was not made by this search/);
	});

	it("finds a word at the end of a note larger than the reading limit, under its heading", async () => {
		const result = await find(plugin, { query: "quokka festival" });
		assert.equal(result.ok, true, result.text);
		assert.match(result.text, /^1\. Ideas\/Almanac\.md heading "Almanac::Appendix"/m, result.text);
		assert.match(result.text, /quokka festival closes the year/);
	});

	it("drops a note that is gone from the vault without an event, and ranks the page again", async () => {
		writeFileSync(join(vault, "Projects/Gone.md"), "# Gone\n\nThe narwhal of the north.\n");
		app.vault.trigger("create", app.vault.getAbstractFileByPath("Projects/Gone.md"));
		await plugin.searchIndex.settled();
		assert.match((await find(plugin, { query: "narwhal" })).text, /^1\. Projects\/Gone\.md /m);
		// Deleted on disk, as a sync or a file manager might, with no event.
		rmSync(join(vault, "Projects/Gone.md"));
		for (const attempt of [1, 2]) {
			const result = await find(plugin, { query: "narwhal north" });
			assert.equal(result.ok, true, result.text);
			assert.doesNotMatch(result.text, /Gone\.md/, `attempt ${attempt}`);
			// What the page counts, it lists: no blank places.
			const counted = Number(result.text.match(/: (\d+) notes? match/)?.[1] ?? 0);
			assert.equal(paths(result.text).length, Math.min(counted, 8), result.text);
		}
	});

	it("never holds the configuration folder", async () => {
		const result = await find(plugin, { query: "zebracorn secret" });
		assert.equal(result.ok, true, result.text);
		assert.match(result.text, /^No note matches/);
		assert.equal(result.withheld, undefined, "not even counted");
	});

	it("shows nothing outside the read folders, and only counts it", async () => {
		await plugin.updateSettings({ readFolders: ["Projects"] });
		try {
			for (const query of ["Alice", "launch", "kickoff meeting", "quokka festival", "roadmap"]) {
				const result = await find(plugin, { query, limit: 50 });
				assert.equal(result.ok, true, result.text);
				for (const path of paths(result.text)) assert.ok(path.startsWith("Projects/"), `${query}: ${path}`);
				assert.doesNotMatch(result.text, /People\/|Meetings\/|Welcome|Almanac|closes the year/, query);
			}
			const outside = await find(plugin, { query: "quokka festival" });
			assert.match(outside.text, /^No note matches/);
			// A word only a hidden note holds is named like one no note holds.
			const mixed = await find(plugin, { query: "launch quokka zeppelin" });
			assert.match(mixed.text, /^\[No note you may search holds "quokka", "zeppelin": /m, mixed.text);
			assert.equal(outside.withheld, 1, "the almanac is counted, not shown");
		} finally {
			await plugin.updateSettings({ readFolders: [] });
		}
	});

	it("follows Obsidian's Excluded files, plain and /regex/", async () => {
		const all = (await plugin.core.searchBuild(() => {})).notes;
		const ideas = readdirSync(join(vault, "Ideas")).filter((f) => f.endsWith(".md")).length;
		try {
			app.vault.config__.userIgnoreFilters = ["Ideas/"];
			assert.equal((await plugin.core.searchBuild(() => {})).notes, all - ideas);
			const result = await find(plugin, { query: "quokka festival" });
			assert.match(result.text, /^No note matches/, result.text);
			// A regular expression, as Obsidian tests it: this one note alone.
			app.vault.config__.userIgnoreFilters = ["/Alman[a-z]+\\.md$/"];
			assert.equal((await plugin.core.searchBuild(() => {})).notes, all - 1);
			assert.match((await find(plugin, { query: "quokka festival" })).text, /^No note matches/);
			// A note made later that it matches is left out too.
			writeFileSync(join(vault, "Projects/Almanack.md"), "# Almanack\n\nThe quokka festival, again.\n");
			app.vault.trigger("create", app.vault.getAbstractFileByPath("Projects/Almanack.md"));
			await plugin.searchIndex.settled();
			assert.match((await find(plugin, { query: "quokka festival" })).text, /^No note matches/);
			// One that is not a valid expression leaves every note in.
			app.vault.config__.userIgnoreFilters = ["/Alman(ac/"];
			assert.equal((await plugin.core.searchBuild(() => {})).notes, all + 1);
		} finally {
			rmSync(join(vault, "Projects/Almanack.md"), { force: true });
			app.vault.config__.userIgnoreFilters = [];
			await plugin.core.searchBuild(() => {});
		}
	});

	it("shows its progress in the status bar while it builds, and nothing once built", async () => {
		const labels = [];
		const status = await plugin.core.searchBuild((s) => labels.push(s.label));
		assert.equal(status.phase, "ready");
		assert.ok(labels.some((l) => /^Vault Agent: indexing notes \d+ of \d+$/.test(l)), labels.join(" | "));
		const bar = plugin.app.workspace.statusBarEl__.querySelector(".vault-agent-search-status");
		assert.ok(bar, "a status-bar item");
		assert.equal(bar.textContent, "");
	});
});

/** A small deterministic generator (mulberry32). */
function random(seed) {
	let a = seed;
	return () => {
		a = (a + 0x6d2b79f5) | 0;
		let t = Math.imul(a ^ (a >>> 15), 1 | a);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const WORDS = ["harbour", "lantern", "orchard", "meadow", "glacier", "compass", "ember", "violet", "thunder", "saffron", "pebble", "quartz", "willow", "falcon", "marble", "cinder"];

describe("the index stays exact through creates, edits, renames and deletes", () => {
	let vault;
	let plugin;
	let app;
	let obsidian;
	before(async () => {
		vault = copySampleVault();
		({ plugin, app, obsidian } = await loadPlugin(vault));
		await plugin.searchIndex.settled();
	});
	after(() => removeVault(vault));

	const file = (path) => obsidian.TFile.create__(app.vault, path);
	const answers = async (withScope) => {
		const out = [];
		for (const word of [...WORDS, "harbour lantern", "meadow glacier ember", "launch"]) {
			const result = await find(plugin, { query: word, limit: 50 });
			assert.equal(result.ok, true, result.text);
			if (withScope) {
				for (const path of paths(result.text)) assert.ok(path.startsWith("Notes/A/"), `${word}: ${path}`);
			}
			out.push([word, result.text.replace(/cursor="[^"]+"/g, "cursor"), result.withheld ?? 0]);
		}
		return out;
	};

	it("answers after 120 random changes exactly as an index built afresh", async () => {
		const next = random(22);
		const pick = (list) => list[Math.floor(next() * list.length)];
		const text = () => {
			const lines = [`# ${pick(WORDS)} ${pick(WORDS)}`, ""];
			for (let i = 0; i < 2 + Math.floor(next() * 4); i++) lines.push(Array.from({ length: 4 + Math.floor(next() * 8) }, () => pick(WORDS)).join(" "), "");
			if (next() < 0.5) lines.push(`## ${pick(WORDS)}`, "", Array.from({ length: 6 }, () => pick(WORDS)).join(" "));
			return lines.join("\n");
		};
		const live = [];
		const folders = ["Notes/A", "Notes/B", "Notes/A/Deep"];
		for (const folder of folders) mkdirSync(join(vault, folder), { recursive: true });
		let made = 0;
		for (let step = 0; step < 120; step++) {
			const roll = next();
			if (live.length < 4 || roll < 0.3) {
				const path = `${pick(folders)}/Note ${made++} ${pick(WORDS)}.md`;
				writeFileSync(join(vault, path), text());
				live.push(path);
				app.vault.trigger("create", file(path));
			} else if (roll < 0.6) {
				const path = pick(live);
				writeFileSync(join(vault, path), text());
				app.vault.trigger("modify", file(path));
			} else if (roll < 0.8) {
				const from = pick(live);
				// Now and then into the configuration folder, which the index never holds.
				const to = next() < 0.1 ? `.obsidian/Moved ${made++}.md` : `${pick(folders)}/Renamed ${made++} ${pick(WORDS)}.md`;
				mkdirSync(dirname(join(vault, to)), { recursive: true });
				renameSync(join(vault, from), join(vault, to));
				live.splice(live.indexOf(from), 1);
				if (!to.startsWith(".obsidian/")) live.push(to);
				app.vault.trigger("rename", file(to), from);
			} else {
				const path = pick(live);
				rmSync(join(vault, path));
				live.splice(live.indexOf(path), 1);
				app.vault.trigger("delete", file(path));
			}
		}
		await plugin.searchIndex.settled();
		assert.equal(plugin.core.searchStatus().notes, app.vault.getMarkdownFiles().length);
		const incremental = await answers(false);
		await plugin.updateSettings({ readFolders: ["Notes/A"] });
		const scopedIncremental = await answers(true);
		await plugin.updateSettings({ readFolders: [] });
		assert.ok(incremental.some(([, t]) => /^1\. Notes\//m.test(t)), "the changes are found");

		await plugin.core.searchBuild(() => {});
		assert.deepEqual(await answers(false), incremental);
		await plugin.updateSettings({ readFolders: ["Notes/A"] });
		assert.deepEqual(await answers(true), scopedIncremental);
		assert.ok(scopedIncremental.some(([, , withheld]) => withheld > 0), "notes outside the scope were counted");
		await plugin.updateSettings({ readFolders: [] });
	});
});

describe("ranked search on an empty vault", () => {
	let vault;
	let plugin;
	before(async () => {
		vault = copySampleVault();
		for (const entry of ["Archive", "Attachments", "Canvas", "Daily", "Databases", "Ideas", "Meetings", "People", "Projects", "Templates", "Reading List.md", "Welcome.md"]) {
			rmSync(join(vault, entry), { recursive: true, force: true });
		}
		({ plugin } = await loadPlugin(vault));
		await plugin.searchIndex.settled();
	});
	after(() => removeVault(vault));

	it("answers that nothing matches, and refuses a query without words", async () => {
		assert.equal(plugin.core.searchStatus().notes, 0);
		const result = await find(plugin, { query: "lighthouse keeper" });
		assert.equal(result.ok, true, result.text);
		assert.match(result.text, /^No note matches "lighthouse keeper"/);
		const empty = await find(plugin, { query: "the how" });
		assert.equal(empty.ok, false);
		assert.match(empty.text, /no words to search for/);
	});

	it("the palette's search answers a query of no searchable words with a result that says so, never a rejection", async () => {
		for (const query of ["?? !!", "the how", "…"]) {
			const found = await plugin.core.searchVault(query, 20);
			assert.deepEqual(found.passages, [], query);
			assert.match(found.unanswered, /no words to search for/, query);
		}
		const none = await plugin.core.searchVault("lighthouse keeper", 20);
		assert.deepEqual(none.passages, []);
		assert.equal(none.unanswered ?? null, null, "a search that ran, finding nothing");
	});
});

describe("ranked search over a note larger than the hygiene checks read, and one too large for the index", () => {
	let vault;
	let plugin;
	let app;
	before(async () => {
		vault = copySampleVault();
		// 3 MB: over the 1 MiB the hygiene checks read, under the index's 16 MiB.
		const days = Array.from({ length: 600 }, (_, i) => `## Day ${i}\n\n${"Walked to the harbour and wrote about the tides. ".repeat(100)}`).join("\n\n");
		writeFileSync(join(vault, "Ideas/Logbook.md"), `# Logbook\n\n${days}\n\n## Last day\n\nThe narwhal came back at dawn.\n`);
		// 17 MB: more than the index reads.
		writeFileSync(join(vault, "Ideas/Archive dump.md"), `# Dump\n\n${"Ledger line about the pelican. ".repeat(560_000)}`);
		({ plugin, app } = await loadPlugin(vault));
		await plugin.searchIndex.settled();
	});
	after(() => removeVault(vault));

	it("finds a word at the end of a 3 MB note, in its own section", async () => {
		const result = await find(plugin, { query: "narwhal" });
		assert.equal(result.ok, true, result.text);
		assert.match(result.text, /^1\. Ideas\/Logbook\.md heading "Logbook::Last day"/m, result.text);
		assert.match(result.text, /narwhal came back at dawn/);
	});

	it("names a note too large for the index in every answer, until it is small enough", async () => {
		assert.equal(plugin.core.searchStatus().unread, 1);
		const result = await find(plugin, { query: "pelican ledger" });
		assert.equal(result.ok, true, result.text);
		assert.match(result.text, /^No note matches/m, result.text);
		assert.match(result.text, /\[Not searched here \(over 16 MiB, or unreadable\): Ideas\/Archive dump\.md\. The CLI's `search` still looks in them\.\]/, result.text);
		// Outside the read scope it is neither named nor counted.
		await plugin.updateSettings({ readFolders: ["Projects"] });
		const scoped = await find(plugin, { query: "pelican ledger" });
		assert.doesNotMatch(scoped.text, /Archive dump|Not searched/, scoped.text);
		await plugin.updateSettings({ readFolders: [] });
		// Cut down to a normal size: indexed, and no longer named.
		writeFileSync(join(vault, "Ideas/Archive dump.md"), "# Dump\n\nLedger line about the pelican.\n");
		app.vault.trigger("modify", app.vault.getAbstractFileByPath("Ideas/Archive dump.md"));
		await plugin.searchIndex.settled();
		const after = await find(plugin, { query: "pelican ledger" });
		assert.equal(paths(after.text)[0], "Ideas/Archive dump.md", after.text);
		assert.doesNotMatch(after.text, /Not searched/);
		assert.equal(plugin.core.searchStatus().unread, 0);
	});
});

describe("ranked search over 10 000 tiny notes", () => {
	let vault;
	let plugin;
	before(async () => {
		vault = copySampleVault();
		mkdirSync(join(vault, "Tiny"));
		for (let i = 0; i < 10_000; i++) writeFileSync(join(vault, `Tiny/Note ${i}.md`), `Tiny note ${i}: a word of ${i % 7 === 0 ? "sevens" : "others"}.\n`);
		writeFileSync(join(vault, "Tiny/Note 4321.md"), "Tiny note 4321 holds the only mention of the axolotl.\n");
		({ plugin } = await loadPlugin(vault));
		await plugin.searchIndex.settled();
	});
	after(() => removeVault(vault));

	it("indexes every one and ranks the one that answers first", async () => {
		const status = plugin.core.searchStatus();
		assert.equal(status.phase, "ready");
		assert.ok(status.notes >= 10_000, `${status.notes} notes indexed`);
		assert.equal(status.unread, 0);
		const result = await find(plugin, { query: "axolotl" });
		assert.deepEqual(paths(result.text), ["Tiny/Note 4321.md"], result.text);
		const common = await find(plugin, { query: "sevens", limit: 5 });
		assert.equal(paths(common.text).length, 5, common.text);
		// 1 429 of the notes hold it: the page says how many more there are.
		assert.match(common.text, /\[1424 more notes: send cursor=/, common.text);
	});
});
