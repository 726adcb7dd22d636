// Every command of every tool through the built main.js, real execFile and the
// CLI emulator: the argv the emulator logged is the documented form (vault
// first, command, key=value parameters, bare flags), and writes really change
// the vault copy (confirmed writes only after the card's approval).
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { copySampleVault, emulator, loadPlugin, readLog, removeVault, useEmulator } from "../support/harness.mjs";
import { simplePdf } from "../support/pdf-double.mjs";

const V = "vault=Sample Vault";

// [tool, arguments, argv after the vault, what the output or the vault shows]
const cases = [
	["obsidianNotes", { command: "read", file: "Welcome" }, ["read", "file=Welcome"], (r) => assert.match(r.text, /^# Welcome/)],
	// Answered by the core from the note's text (no CLI command of that name).
	["obsidianNotes", { command: "map", file: "Launch plan" }, "core", (r) => assert.match(r.text, /^Map of Projects\/Launch plan\.md: \d+ lines/)],
	["obsidianNotes", { command: "section", path: "Projects/Launch plan.md", heading: "Timeline" }, "core", (r) => assert.match(r.text, /\(section "Launch plan::Timeline"\):\n## Timeline/)],
	["obsidianNotes", { command: "open", path: "Projects/Roadmap.md" }, "core", (r) => assert.equal(r.text, "Opened Projects/Roadmap.md in Obsidian for the user.")],
	// Read with Obsidian's PDF.js (the double's stand-in), no CLI command.
	["obsidianNotes", { command: "pdf", path: "Attachments/Report.pdf", pages: "2-5" }, "core", (r) => assert.equal(r.text, "Attachments/Report.pdf, pages 2-2 of 2:\n--- Page 2 ---\nSecond page\n")],
	["obsidianNotes", { command: "outline", path: "Projects/Launch plan.md" }, ["outline", "path=Projects/Launch plan.md"], (r) => assert.match(r.text, /Launch plan|Goals|#/)],
	["obsidianNotes", { command: "file", file: "Welcome" }, ["file", "file=Welcome"], (r) => assert.match(r.text, /extension\s+md/)],
	["obsidianNotes", { command: "files", folder: "Projects", ext: "md", total: true }, ["files", "folder=Projects", "ext=md", "total"], (r) => assert.equal(r.text, "3")],
	["obsidianNotes", { command: "folders" }, ["folders"], (r) => assert.match(r.text, /Projects/)],
	// Answered from the core's index of the notes read through Obsidian's vault.
	["obsidianSearch", { command: "find", query: "launch timeline" }, "core", (r) => assert.match(r.text, /^Ranked search for "launch timeline": \d+ notes? match; 1-\d+ below, best first\.\n\n1\. Projects\/Launch plan\.md heading "Launch plan::Timeline"/)],
	["obsidianSearch", { command: "search", query: "launch" }, ["search", "query=launch", "limit=20"], (r) => assert.match(r.text, /\.md/)],
	["obsidianSearch", { command: "search:context", query: "Alice", limit: 5, case: true }, ["search:context", "query=Alice", "limit=5", "case"], (r) => assert.match(r.text, /:\d+: .*Alice/)],
	["obsidianDailyNote", { command: "daily:read" }, ["daily:read"], (r) => assert.match(r.text, /2026-03-03/)],
	["obsidianDailyNote", { command: "daily:path" }, ["daily:path"], (r) => assert.equal(r.text, "Daily/2026-03-03.md")],
	[
		"obsidianDailyNote",
		{ command: "daily:append", content: "- [ ] Call Bob\n\tabout $a \\times b$" },
		["daily:append", "content=- [ ] Call Bob\\n\\tabout $a \\\\times b$"],
		(r, vault) => assert.ok(readFileSync(join(vault, "Daily/2026-03-03.md"), "utf8").endsWith("- [ ] Call Bob\n\tabout $a \\times b$"), "the text arrived literally"),
	],
	[
		"obsidianDailyNote",
		{ command: "daily:prepend", content: "## Morning", inline: true },
		["daily:prepend", "content=## Morning", "inline"],
		(r, vault) => assert.match(readFileSync(join(vault, "Daily/2026-03-03.md"), "utf8"), /## Morning/),
	],
	["obsidianTasks", { command: "tasks", all: true, todo: true, verbose: true }, ["tasks", "all", "todo", "verbose"], (r) => assert.match(r.text, /L\d+: - \[ \]/)],
	["obsidianTasks", { command: "tasks", file: "Launch plan", format: "json" }, ["tasks", "file=Launch plan", "format=json"], (r) => assert.ok(Array.isArray(JSON.parse(r.text)))],
	["obsidianTasks", { command: "tasks", daily: true, total: true }, ["tasks", "daily", "total"], (r) => assert.match(r.text, /^\d+$/)],
	["obsidianTasks", { command: "task", ref: "Projects/Launch plan.md:31" }, ["task", "ref=Projects/Launch plan.md:31"], (r) => assert.match(r.text, /Launch plan\.md:31\n- \[ \]/)],
	[
		"obsidianTasks",
		{ command: "task", ref: "Projects/Launch plan.md:31", done: true },
		["task", "ref=Projects/Launch plan.md:31", "done"],
		(r, vault) => assert.match(readFileSync(join(vault, "Projects/Launch plan.md"), "utf8").split("\n")[30], /^- \[x\]/),
	],
	["obsidianProperties", { command: "properties", all: true, counts: true }, ["properties", "all", "counts"], (r) => assert.match(r.text, /status: \d+/)],
	["obsidianProperties", { command: "properties", file: "Launch plan" }, ["properties", "file=Launch plan"], (r) => assert.match(r.text, /owner: Alice/)],
	["obsidianProperties", { command: "property:read", name: "status", file: "Launch plan" }, ["property:read", "name=status", "file=Launch plan"], (r) => assert.equal(r.text, "active")],
	[
		"obsidianProperties",
		{ command: "property:set", name: "status", value: "done", type: "text", file: "Launch plan" },
		["property:set", "name=status", "value=done", "type=text", "file=Launch plan"],
		(r, vault) => assert.match(readFileSync(join(vault, "Projects/Launch plan.md"), "utf8"), /^status: done$/m),
	],
	[
		"obsidianProperties",
		{ command: "property:remove", name: "reviewed", path: "Projects/Launch plan.md" },
		["property:remove", "name=reviewed", "path=Projects/Launch plan.md"],
		(r, vault) => assert.doesNotMatch(readFileSync(join(vault, "Projects/Launch plan.md"), "utf8"), /^reviewed:/m),
	],
	["obsidianLinks", { command: "backlinks", file: "Roadmap", counts: true }, ["backlinks", "file=Roadmap", "counts"], (r) => assert.match(r.text, /\.md\t\d+/)],
	["obsidianLinks", { command: "links", file: "Welcome", total: true }, ["links", "file=Welcome", "total"], (r) => assert.match(r.text, /^\d+$/)],
	["obsidianLinks", { command: "orphans" }, ["orphans"], (r) => assert.match(r.text, /Unlinked thought\.md/)],
	["obsidianLinks", { command: "deadends", total: true }, ["deadends", "total"], (r) => assert.match(r.text, /^\d+$/)],
	["obsidianLinks", { command: "unresolved", counts: true }, ["unresolved", "counts"], (r) => assert.match(r.text, /Nonexistent Note\t4/)],
	["obsidianTags", { command: "tags", all: true, counts: true, sort: "count" }, ["tags", "sort=count", "all", "counts"], (r) => assert.match(r.text, /#\w+\t\d+/)],
	["obsidianTags", { command: "tag", name: "project", verbose: true }, ["tag", "name=project", "verbose"], (r) => assert.match(r.text, /Launch plan\.md/)],
	[
		"obsidianTags",
		{ command: "tag:add", file: "Roadmap", tag: "#q3" },
		"vault",
		(r, vault) => assert.match(readFileSync(join(vault, "Projects/Roadmap.md"), "utf8"), /^tags: \[project, roadmap, q3\]$/m),
	],
	[
		"obsidianTags",
		{ command: "tag:remove", path: "Projects/Roadmap.md", tag: "q3" },
		"vault",
		(r, vault) => assert.doesNotMatch(readFileSync(join(vault, "Projects/Roadmap.md"), "utf8"), /q3/),
	],
	["obsidianTemplates", { command: "templates" }, ["templates"], (r) => assert.match(r.text, /Daily Note/)],
	["obsidianTemplates", { command: "template:read", name: "Meeting Notes", title: "Kickoff", resolve: true }, ["template:read", "name=Meeting Notes", "title=Kickoff", "resolve"], (r) => assert.match(r.text, /Kickoff/)],
	["obsidianBases", { command: "bases" }, ["bases"], (r) => assert.match(r.text, /Projects\.base/)],
	["obsidianBases", { command: "base:views", file: "Projects" }, ["base:views", "file=Projects"], (r) => assert.match(r.text, /Active/)],
	["obsidianBases", { command: "base:query", file: "Projects", view: "All Projects", format: "csv" }, ["base:query", "file=Projects", "view=All Projects", "format=csv"], (r) => assert.match(r.text, /Launch plan/)],
	[
		"obsidianBases",
		{ command: "base:create", file: "Projects", name: "Garden shed", content: "Build it." },
		["base:create", "file=Projects", "name=Garden shed", "content=Build it."],
		(r) => assert.match(r.text, /Created: .*Garden shed\.md/),
	],
	["obsidianBookmarks", { command: "bookmarks", verbose: true }, ["bookmarks", "verbose"], (r) => assert.match(r.text, /\S/)],
	[
		"obsidianBookmarks",
		{ command: "bookmark", file: "Projects/Roadmap.md", subpath: "#Q2", title: "Q2 plan" },
		["bookmark", "file=Projects/Roadmap.md", "subpath=#Q2", "title=Q2 plan"],
		(r, vault) => assert.match(readFileSync(join(vault, ".obsidian/bookmarks.json"), "utf8"), /Q2 plan/),
	],
	["obsidianRandomRead", { folder: "Ideas" }, ["random:read", "folder=Ideas"], (r) => assert.match(r.text, /^Ideas\//)],
	[
		"obsidianEdit",
		{ command: "create", path: "Projects/Q3 plan.md", content: "# Q3 plan\n## Goals" },
		["create", "path=Projects/Q3 plan.md", "content=# Q3 plan\\n## Goals"],
		(r, vault) => assert.equal(readFileSync(join(vault, "Projects/Q3 plan.md"), "utf8").trim(), "# Q3 plan\n## Goals"),
	],
	[
		"obsidianEdit",
		{ command: "append", file: "Welcome", content: "- [ ] Try the agent" },
		["append", "file=Welcome", "content=- [ ] Try the agent"],
		(r, vault) => assert.ok(readFileSync(join(vault, "Welcome.md"), "utf8").trimEnd().endsWith("- [ ] Try the agent")),
	],
	[
		"obsidianEdit",
		{ command: "prepend", path: "Welcome.md", content: "> Read me first" },
		["prepend", "path=Welcome.md", "content=> Read me first"],
		(r, vault) => assert.match(readFileSync(join(vault, "Welcome.md"), "utf8"), /^(---\n[\s\S]*?\n---\n)?> Read me first\n/),
	],
	// Through Obsidian's file manager after the card, not through the CLI.
	[
		"obsidianOrganise",
		{ command: "move", paths: ["Ideas/Unlinked thought.md", "Ideas/Brainstorm.md"], to: "Archive/Ideas" },
		"vault",
		(r, vault) => {
			assert.ok(existsSync(join(vault, "Archive/Ideas/Unlinked thought.md")) && existsSync(join(vault, "Archive/Ideas/Brainstorm.md")));
			assert.ok(!existsSync(join(vault, "Ideas/Brainstorm.md")));
		},
	],
	[
		"obsidianOrganise",
		{ command: "rename", file: "Bob", name: "Robert" },
		"vault",
		(r, vault) => assert.ok(existsSync(join(vault, "People/Robert.md")) && !existsSync(join(vault, "People/Bob.md"))),
	],
	[
		"obsidianOrganise",
		{ command: "delete", path: "Archive/2025/2025 Retrospective.md" },
		"vault",
		(r, vault) => {
			assert.ok(!existsSync(join(vault, "Archive/2025/2025 Retrospective.md")));
			assert.ok(existsSync(join(vault, ".trash/2025 Retrospective.md")), "in the trash, not gone");
		},
	],
	// Written through Obsidian's vault after the card, not through the CLI.
	[
		"obsidianEdit",
		{ command: "edit", path: "Projects/Launch plan.md", find: "owner: Alice", with: "owner: Dana" },
		"vault",
		(r, vault) => assert.match(readFileSync(join(vault, "Projects/Launch plan.md"), "utf8"), /^owner: Dana$/m),
	],
	// Computed in the core from the CLI's listings (and the notes' text
	// through Obsidian's vault): [what the emulator ran]. `suggest` asks the
	// search index instead of a listing, so the emulator runs nothing.
	["obsidianHygiene", { command: "duplicates" }, { computed: [["files", "ext=md"]] }, (r) => assert.match(r.text, /^Duplicate titles among \d+ notes/)],
	["obsidianHygiene", { command: "empty", folder: "Projects" }, { computed: [["files", "folder=Projects", "ext=md"]] }, (r) => assert.match(r.text, /^Empty notes among \d+ notes in "Projects": 0\./)],
	["obsidianHygiene", { command: "missing" }, { computed: [["unresolved", "verbose"]] }, (r) => assert.match(r.text, /\[\[Nonexistent Note\]\] ← /)],
	["obsidianHygiene", { command: "suggest", path: "Projects/Roadmap.md" }, { computed: [] }, (r) => assert.match(r.text, /^Backlink suggestions: notes that could link to "Projects\/Roadmap\.md"/)],
];

describe("every command of every tool against the emulator", () => {
	let vault;
	let plugin;
	before(async () => {
		vault = copySampleVault();
		mkdirSync(join(vault, "Attachments"), { recursive: true });
		writeFileSync(join(vault, "Attachments", "Report.pdf"), simplePdf([["First page"], ["Second page"]]));
		({ plugin } = await loadPlugin(vault, {
			data: { cliPath: emulator, vaultName: "Sample Vault", permissionMode: "askBeforeEdits" },
		}));
	});
	after(() => removeVault(vault));

	/** Tools off by default, tested through every door in their own suites. */
	const OWN_SUITES = { obsidianMemory: "tests/agent/memory.rs, tests/hostile.rs", obsidianWeb: "tests/web.rs, tests/node/web.test.mjs" };

	it("covers every command the registry offers", async () => {
		const covered = new Set(cases.map(([tool, args]) => `${tool} ${args.command ?? ""}`));
		for (const tool of (await plugin.api.listTools())) {
			// Off until the user turns them on, with settings of their own: their own suites.
			if (OWN_SUITES[tool.id]) continue;
			for (const command of tool.commands) {
				const key = tool.commands.length === 1 ? `${tool.id} ` : `${tool.id} ${command}`;
				assert.ok(covered.has(key), `no case for ${tool.id} ${command}`);
			}
		}
	});

	for (const [tool, args, argv, check] of cases) {
		it(`${tool} ${JSON.stringify(args)}`, async () => {
			const log = useEmulator(vault, { OBSIDIAN_EMULATOR_SEED: "3" });
			const core = plugin.core;
			let result = await core.callTool(tool, args);
			if (argv === "core") {
				assert.equal(result.ok, true, result.text);
				assert.ok(!readLog(log).some((entry) => entry.argv[1] === args.command), "no CLI command of that name ran");
				check(result, vault);
				return;
			}
			if (argv.computed) {
				assert.equal(result.ok, true, result.text);
				assert.equal(result.argv, undefined, "no command line of its own");
				assert.deepEqual(readLog(log).map((entry) => entry.argv.slice(1)), argv.computed);
				check(result, vault);
				return;
			}
			if (argv === "vault") {
				assert.ok(result.pending, result.text);
				const card = core.confirmationCard(result.pending.id);
				assert.ok(["vault", "files"].includes(card.via), card.via);
				assert.ok(!readLog(log).some((entry) => entry.argv.includes("edit")), "no CLI command edits");
				result = await plugin.confirmations.approve(card);
				assert.equal(result.ok, true, result.text);
				check(result, vault);
				return;
			}
			if (result.pending) {
				// A confirmed write: only the read-only probe ran so far.
				const write = JSON.stringify([V, ...argv]);
				assert.ok(!readLog(log).some((entry) => JSON.stringify(entry.argv) === write), "the write waits for approval");
				const card = core.confirmationCard(result.pending.id);
				assert.deepEqual(card.argv, [V, ...argv]);
				result = await plugin.confirmations.approve(card);
			}
			assert.equal(result.ok, true, result.text);
			assert.deepEqual(result.argv, [V, ...argv]);
			const entries = readLog(log);
			const sent = JSON.stringify([V, ...argv]);
			assert.equal(entries.filter((entry) => JSON.stringify(entry.argv) === sent).length, 1, "the emulator received exactly this argv, once");
			// Only reads come after it (a note write is read back; the undo
			// journal reads what the write left).
			const after = entries.slice(entries.findIndex((entry) => JSON.stringify(entry.argv) === sent) + 1);
			assert.ok(after.every((entry) => ["read", "file", "property:read"].includes(entry.argv[1])), JSON.stringify(after));
			check(result, vault);
		});
	}
});
