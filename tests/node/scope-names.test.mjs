// Folder scopes against names built to be cut wrongly, through the built
// main.js, real processes and the CLI emulator: folders and notes outside the
// allowed ones whose names hold `#`, `^`, `|`, `:`, a tab, `[`, `]`, leading
// or trailing spaces, the decomposed (NFD) form of an allowed folder, another
// case, or start with an allowed folder's name; and a root note named like the
// CLI's "nothing found" answers. Every vault-wide read must show nothing that
// comes from them (their names, their text, their tags and links) and say
// that it withheld something. Link targets written in an allowed note are its
// own text; where they lead outside is not.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, it } from "node:test";
import { emulator, loadPlugin, useEmulator } from "../support/harness.mjs";

const NFC = "Caf\u00e9";
const NFD = "Cafe\u0301";
const READ = ["Projects", NFC];

/** Outside notes: every one holds LEAK in its name or text, links to the
 * allowed Plan, carries tags used in and out of the scope and has a task. */
const OUTSIDE = [
	"Projects #old/Old hash.md",
	"Projects:x/LEAK colon.md",
	"Projects\tLEAK.md",
	"Projects^x/LEAK caret.md",
	"Projects|x/LEAK pipe.md",
	"Projects[x]/LEAK bracket.md",
	" Projects/LEAK lead.md",
	"Projects /LEAK trail.md",
	`${NFD}/LEAK nfd.md`,
	"projects/LEAK lower.md",
	"Projects2/LEAK prefix.md",
	"ProjectsLEAK.md",
	"No keys found.md",
	"No matches found.md",
];
/** Attachments: no links in them, so they are orphans and dead ends. */
const ATTACHMENTS = ["Projects #old/LEAK.png", "Projects/diagram.png"];

const outsideText = (n) =>
	`---\nsecretprop: LEAK${n}\n---\nALPHA LEAK${n}\n- [ ] LEAK task ${n} ALPHA\n#outsideonly #shared\n[[Plan]] [[Ghost LEAK]]\n`;

function makeVault() {
	const vault = join(mkdtempSync(join(tmpdir(), "vault-agent-names-")), "Names Vault");
	const write = (path, text) => {
		mkdirSync(dirname(join(vault, path)), { recursive: true });
		writeFileSync(join(vault, path), text);
	};
	mkdirSync(join(vault, ".obsidian"), { recursive: true });
	write("Projects/Plan.md", "# Plan\nInside text ALPHA.\n- [ ] inside task ALPHA\n#shared\n[[Old hash]] [[Missing inside]] [[Menu]]\n");
	write(`${NFC}/Menu.md`, "# Menu\nALPHA menu\n- [ ] menu task ALPHA #shared\n[[Plan]]\n");
	OUTSIDE.forEach((path, n) => write(path, outsideText(n)));
	// The only note with this word: its one line of results looks like "No … found".
	write("No keys found.md", `${outsideText(99)}UNIQUEKEYS\n`);
	for (const path of ATTACHMENTS) write(path, "\x89PNG\r\n");
	write(".obsidian/bookmarks.json", JSON.stringify({ items: [
		{ type: "file", ctime: 1, path: "Projects/Plan.md" },
		{ type: "file", ctime: 2, path: "Projects #old/Old hash.md" },
		{ type: "file", ctime: 3, path: "Projects:x/LEAK colon.md", subpath: "#top" },
		{ type: "folder", ctime: 4, path: "Projects #old" },
	] }));
	return vault;
}

/** Nothing that comes from a note outside: names, text, folders. */
function nothingFromOutside(result) {
	assert.equal(result.ok, true, result.text);
	for (const pattern of [/LEAK/, /#old/, /No keys found/, /No matches found\.md/, /Projects[:^|[\t2 ]/, /^ Projects/m, /projects\//, /Cafe\u0301/]) {
		assert.doesNotMatch(result.text, pattern, `${pattern} in: ${JSON.stringify(result.text)}`);
	}
}
const withheld = (result) => assert.ok(result.withheld > 0, `expected withheld entries: ${JSON.stringify(result)}`);

const reads = [
	["obsidianSearch", { command: "search", query: "ALPHA" }, (r) => {
		assert.deepEqual(r.text.trim().split("\n").sort(), [`${NFC}/Menu.md`, "Projects/Plan.md"]);
	}],
	["obsidianSearch", { command: "search", query: "ALPHA", format: "json" }, (r) => {
		assert.deepEqual(JSON.parse(r.text).sort(), [`${NFC}/Menu.md`, "Projects/Plan.md"]);
	}],
	// One line shaped like an empty answer is a note name, not "nothing found".
	["obsidianSearch", { command: "search", query: "UNIQUEKEYS" }, (r) => assert.equal(r.text, "")],
	["obsidianSearch", { command: "search:context", query: "UNIQUEKEYS" }, (r) => assert.equal(r.text, "")],
	["obsidianSearch", { command: "search:context", query: "ALPHA" }, (r) => {
		assert.match(r.text, /^Projects\/Plan\.md:2: Inside text ALPHA\.$/m);
		assert.match(r.text, new RegExp(`^${NFC}/Menu\\.md:2: ALPHA menu$`, "m"));
	}],
	["obsidianSearch", { command: "search:context", query: "ALPHA", format: "json" }, (r) => {
		assert.deepEqual(JSON.parse(r.text).map((m) => m.file).sort(), [`${NFC}/Menu.md`, "Projects/Plan.md"]);
	}],
	["obsidianTasks", { command: "tasks", all: true, verbose: true }, (r) => {
		assert.match(r.text, /^Projects\/Plan\.md\n {2}L3: - \[ \] inside task ALPHA$/m);
	}],
	["obsidianTasks", { command: "tasks", all: true }, (r) => {
		assert.deepEqual(r.text.trim().split("\n").sort(), ["- [ ] inside task ALPHA", "- [ ] menu task ALPHA #shared"]);
	}],
	["obsidianTasks", { command: "tasks", all: true, format: "tsv" }, (r) => {
		assert.match(r.text, /^Projects\/Plan\.md\t3\t \tinside task ALPHA$/m);
	}],
	["obsidianTasks", { command: "tasks", all: true, format: "json" }, (r) => {
		assert.deepEqual(JSON.parse(r.text).map((t) => t.path).sort(), [`${NFC}/Menu.md`, "Projects/Plan.md"]);
	}],
	// The count is of the notes shown, never of the whole vault.
	["obsidianTags", { command: "tag", name: "shared", verbose: true }, (r) => {
		assert.deepEqual(r.text.trim().split("\n"), ["#shared\t2", `${NFC}/Menu.md`, "Projects/Plan.md"]);
	}],
	["obsidianTags", { command: "tag", name: "outsideonly", verbose: true }, (r) => {
		assert.equal(r.text.trim(), "#outsideonly\t0", "no count of notes outside the scope");
	}],
	["obsidianTags", { command: "tag", name: "shared" }, (r) => {
		assert.deepEqual(r.text.trim().split("\n"), [`${NFC}/Menu.md`, "Projects/Plan.md"]);
	}],
	["obsidianNotes", { command: "files" }, (r) => {
		assert.deepEqual(r.text.trim().split("\n").sort(), [`${NFC}/Menu.md`, "Projects/Plan.md", "Projects/diagram.png"]);
	}],
	["obsidianNotes", { command: "folders" }, (r) => {
		assert.deepEqual(r.text.trim().split("\n").sort(), [NFC, "Projects"]);
	}],
	["obsidianLinks", { command: "backlinks", path: "Projects/Plan.md" }, (r) => {
		assert.deepEqual(r.text.trim().split("\n"), [`${NFC}/Menu.md`]);
	}],
	["obsidianLinks", { command: "backlinks", path: "Projects/Plan.md", counts: true }, (r) => {
		assert.deepEqual(r.text.trim().split("\n"), [`${NFC}/Menu.md\t1`]);
	}],
	["obsidianLinks", { command: "backlinks", path: "Projects/Plan.md", format: "json" }, (r) => {
		assert.deepEqual(JSON.parse(r.text), [{ file: `${NFC}/Menu.md` }]);
	}],
	// The note's own link targets stay; where one leads outside does not.
	["obsidianLinks", { command: "links", path: "Projects/Plan.md" }, (r) => {
		assert.deepEqual(r.text.trim().split("\n").sort(), [`${NFC}/Menu.md`, "Missing inside (unresolved)"]);
	}],
	["obsidianLinks", { command: "orphans" }, (r) => assert.deepEqual(r.text.trim().split("\n"), ["Projects/diagram.png"])],
	["obsidianLinks", { command: "deadends" }, (r) => assert.deepEqual(r.text.trim().split("\n"), ["Projects/diagram.png"])],
	["obsidianLinks", { command: "unresolved", verbose: true }, (r) => {
		assert.deepEqual(r.text.trim().split("\n"), ["Missing inside\tProjects/Plan.md"]);
	}],
	["obsidianBookmarks", { command: "bookmarks" }, (r) => assert.deepEqual(r.text.trim().split("\n"), ["Projects/Plan.md"])],
	["obsidianBookmarks", { command: "bookmarks", verbose: true }, (r) => assert.deepEqual(r.text.trim().split("\n"), ["file\tProjects/Plan.md"])],
	["obsidianBookmarks", { command: "bookmarks", format: "json" }, (r) => assert.deepEqual(JSON.parse(r.text).map((b) => b.path), ["Projects/Plan.md"])],
	["obsidianHygiene", { command: "duplicates" }, () => {}],
	["obsidianHygiene", { command: "empty" }, () => {}],
	["obsidianHygiene", { command: "missing" }, (r) => assert.match(r.text, /\[\[Missing inside\]\] ← Projects\/Plan\.md/)],
	["obsidianHygiene", { command: "suggest", path: "Projects/Plan.md" }, () => {}],
];

describe("folder scopes against names that look like an allowed folder", () => {
	let vault;
	let plugin;
	before(async () => {
		vault = makeVault();
		({ plugin } = await loadPlugin(vault, {
			data: { cliPath: emulator, vaultName: "Names Vault", permissionMode: "readOnly", readFolders: READ },
		}));
	});
	after(() => rmSync(dirname(vault), { recursive: true, force: true }));

	for (const [tool, args, check] of reads) {
		it(`${tool} ${JSON.stringify(args)} shows nothing from outside`, async () => {
			useEmulator(vault);
			const result = await plugin.core.callTool(tool, args);
			nothingFromOutside(result);
			withheld(result);
			check(result);
		});
	}

	it("vault-wide property names and tag counts stay refused", async () => {
		useEmulator(vault);
		for (const args of [{ command: "properties", all: true }, { command: "properties", all: true, counts: true }]) {
			const result = await plugin.core.callTool("obsidianProperties", args);
			assert.equal(result.error?.code, "out_of_scope", result.text);
		}
		const tags = await plugin.core.callTool("obsidianTags", { command: "tags", all: true, counts: true });
		assert.equal(tags.error?.code, "out_of_scope", tags.text);
	});
});

// Names are compared as the platform's file system compares them: macOS
// ignores case and Unicode form, Linux neither (Windows, which ignores case
// only, is tried in tests/policy.rs: the emulator cannot run as Obsidian.com).
describe("folder scopes compare names as the platform does", () => {
	const lines = (r) => r.text.trim().split("\n").sort();
	for (const [os, expected] of [
		["linux", [`${NFC}/Menu.md`, "Projects/Plan.md", "Projects/diagram.png"]],
		["macos", [`${NFC}/Menu.md`, `${NFD}/LEAK nfd.md`, "Projects/Plan.md", "Projects/diagram.png", "projects/LEAK lower.md"]],
	]) {
		it(`on ${os}`, async () => {
			const vault = makeVault();
			try {
				const { plugin } = await loadPlugin(vault, {
					os,
					data: { cliPath: emulator, vaultName: "Names Vault", permissionMode: "readOnly", readFolders: READ },
				});
				useEmulator(vault);
				const result = await plugin.core.callTool("obsidianNotes", { command: "files" });
				assert.equal(result.ok, true, result.text);
				assert.deepEqual(lines(result).sort(), expected.sort());
				plugin.unload();
			} finally {
				rmSync(dirname(vault), { recursive: true, force: true });
			}
		});
	}
});
