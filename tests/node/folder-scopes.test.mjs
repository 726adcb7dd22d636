// Folder scopes, command by command, through the built main.js, real
// processes and the CLI emulator over the sample vault: every command of
// every tool is tried inside and outside the folders the agent may read
// (Projects, Daily, People, Databases) and change (Projects). A refusal is
// `out_of_scope`, starts no process but the lookup of a name's path, and
// changes nothing; what vault-wide commands print holds only allowed paths
// and says how many entries were withheld.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { closeSettings, copySampleVault, emulator, findSetting, loadPlugin, openSettingTab, readLog, removeVault, settle, useEmulator } from "../support/harness.mjs";
import { simplePdf } from "../support/pdf-double.mjs";

const READ = ["Projects", "Daily", "People", "Databases"];
const WRITE = ["Projects"];
const inside = (path, folders = READ) => folders.some((f) => path === f || path.startsWith(`${f}/`));

/** Every non-empty line's path (the part `place` picks) lies in the read scope. */
function linesInside(text, place = (line) => line) {
	const lines = text.split("\n").filter((line) => line.trim() !== "");
	for (const line of lines) assert.ok(inside(place(line)), `outside the read scope: ${line}`);
	return lines.length;
}

const allowed = (check) => ({ kind: "allowed", check });
/** Refused before anything but the lookups named (the path of a name or of today's note). */
const refused = (...lookups) => ({ kind: "refused", lookups });
const withheld = (result) => assert.ok(result.withheld > 0, `expected withheld entries: ${JSON.stringify(result)}`);

// [tool, arguments, expectation, settings for this case only]
const cases = [
	["obsidianNotes", { command: "read", file: "Launch plan" }, allowed((r, log) => {
		assert.match(r.text, /# Launch plan/);
		// The CLI read exactly the path that was checked, not the name again.
		assert.deepEqual(r.argv.slice(1), ["read", "path=Projects/Launch plan.md"]);
		assert.deepEqual(log.map((e) => e.argv[1]), ["file", "read"]);
	})],
	["obsidianNotes", { command: "read", file: "Welcome" }, refused("file")],
	["obsidianNotes", { command: "read" }, refused()],
	["obsidianNotes", { command: "map", file: "Roadmap" }, allowed((r) => assert.match(r.text, /^Map of Projects\/Roadmap\.md/))],
	["obsidianNotes", { command: "map", file: "Welcome" }, refused("file")],
	["obsidianNotes", { command: "section", path: "Projects/Launch plan.md", heading: "Timeline" }, allowed((r) => assert.match(r.text, /## Timeline/))],
	["obsidianNotes", { command: "section", path: "Ideas/Brainstorm.md", heading: "Ideas" }, refused()],
	["obsidianNotes", { command: "open", path: "People/Bob.md" }, allowed((r) => assert.match(r.text, /^Opened People\/Bob\.md/))],
	["obsidianNotes", { command: "open", path: "Welcome.md" }, refused()],
	["obsidianNotes", { command: "pdf", path: "Projects/Brief.pdf" }, allowed((r) => assert.match(r.text, /^Projects\/Brief\.pdf, pages 1-1 of 1:\n--- Page 1 ---\nBrief page one/))],
	["obsidianNotes", { command: "pdf", path: "Brief.pdf" }, refused()],
	// Counted after the filter: only notes the agent may read.
	["obsidianNotes", { command: "files", name: "*.md", total: true }, allowed((r, log, vault) => {
		const md = readdirSync(vault, { recursive: true }).filter((p) => String(p).endsWith(".md") && inside(String(p)));
		assert.equal(r.text.trim(), String(md.length));
	})],
	["obsidianNotes", { command: "outline", path: "Projects/Roadmap.md" }, allowed((r) => assert.match(r.text, /Q2/))],
	["obsidianNotes", { command: "outline", path: "Ideas/Brainstorm.md" }, refused()],
	["obsidianNotes", { command: "file", path: "People/Bob.md" }, allowed((r) => assert.match(r.text, /People\/Bob\.md/))],
	["obsidianNotes", { command: "file", path: "Archive/2025/2025 Retrospective.md" }, refused()],
	["obsidianNotes", { command: "files" }, allowed((r) => {
		assert.ok(linesInside(r.text) >= 8);
		withheld(r);
	})],
	["obsidianNotes", { command: "files", folder: "Ideas" }, refused()],
	["obsidianNotes", { command: "files", total: true }, refused()],
	["obsidianNotes", { command: "folders" }, allowed((r) => {
		linesInside(r.text);
		withheld(r);
	})],
	["obsidianNotes", { command: "folders", folder: "Archive" }, refused()],
	["obsidianSearch", { command: "search", query: "launch" }, allowed((r) => {
		assert.match(r.text, /Projects\/Launch plan\.md/);
		linesInside(r.text);
		withheld(r);
	})],
	["obsidianSearch", { command: "search", query: "launch", format: "json" }, allowed((r) => {
		const paths = JSON.parse(r.text);
		assert.ok(paths.length > 0 && paths.every((p) => inside(p)), r.text);
		withheld(r);
	})],
	["obsidianSearch", { command: "search", query: "launch", path: "Meetings" }, refused()],
	["obsidianSearch", { command: "search:context", query: "launch" }, allowed((r) => {
		assert.match(r.text, /Projects\/Launch plan\.md:\d+: /);
		linesInside(r.text, (line) => line.split(":")[0]);
		withheld(r);
	})],
	["obsidianSearch", { command: "search:context", query: "launch", format: "json" }, allowed((r) => {
		const files = JSON.parse(r.text).map((m) => m.file);
		assert.ok(files.length > 0 && files.every((p) => inside(p)), r.text);
		withheld(r);
	})],
	["obsidianSearch", { command: "search:context", query: "launch", total: true }, refused()],
	["obsidianDailyNote", { command: "daily:read" }, allowed((r, log) => {
		assert.match(r.text, /2026-03-03/);
		assert.deepEqual(log.map((e) => e.argv[1]), ["daily:path", "daily:read"]);
	})],
	["obsidianDailyNote", { command: "daily:read" }, refused("daily:path"), { readFolders: ["Projects"] }],
	["obsidianDailyNote", { command: "daily:path" }, allowed((r) => assert.equal(r.text, "Daily/2026-03-03.md"))],
	// Today's note may be read but not changed: only Projects may change.
	["obsidianDailyNote", { command: "daily:append", content: "- [ ] x" }, refused("daily:path")],
	["obsidianDailyNote", { command: "daily:prepend", content: "## Top" }, refused("daily:path")],
	["obsidianDailyNote", { command: "daily:append", content: "- [ ] y" }, allowed((r, log, vault) => {
		assert.ok(readFileSync(join(vault, "Daily/2026-03-03.md"), "utf8").trimEnd().endsWith("- [ ] y"));
	}), { writeFolders: ["Daily"] }],
	["obsidianDailyNote", { command: "daily:prepend", content: "## Top" }, allowed((r, log, vault) => {
		assert.match(readFileSync(join(vault, "Daily/2026-03-03.md"), "utf8"), /^## Top$/m);
	}), { writeFolders: ["Daily"] }],
	["obsidianTasks", { command: "tasks", all: true, verbose: true }, allowed((r) => {
		linesInside(r.text.split("\n").filter((line) => !line.startsWith(" ")).join("\n"));
		assert.match(r.text, /L\d+: - \[/);
		withheld(r);
	})],
	["obsidianTasks", { command: "tasks", all: true, format: "tsv" }, allowed((r) => {
		linesInside(r.text, (line) => line.split("\t")[0]);
		withheld(r);
	})],
	["obsidianTasks", { command: "tasks", all: true, format: "json" }, allowed((r) => {
		const paths = JSON.parse(r.text).map((t) => t.path);
		assert.ok(paths.length > 0 && paths.every((p) => inside(p)), r.text);
		withheld(r);
	})],
	// Asked of the CLI as JSON, which names each task's note, and written back as lines.
	["obsidianTasks", { command: "tasks", all: true }, allowed((r) => {
		for (const line of r.text.trim().split("\n")) assert.match(line, /^- \[.\] /);
		assert.match(r.text, /Draft press release/);
		assert.doesNotMatch(r.text, /Sketch logo|Acheter/);
		assert.ok(r.argv.includes("format=json"), JSON.stringify(r.argv));
		withheld(r);
	})],
	["obsidianTasks", { command: "tasks", all: true, format: "csv" }, refused()],
	["obsidianTasks", { command: "tasks", file: "Brainstorm" }, refused("file")],
	["obsidianTasks", { command: "task", ref: "Projects/Launch plan.md:31" }, allowed((r) => assert.match(r.text, /- \[ \]/))],
	["obsidianTasks", { command: "task", ref: "Projects/Launch plan.md:31", done: true }, allowed((r, log, vault) => {
		assert.match(readFileSync(join(vault, "Projects/Launch plan.md"), "utf8").split("\n")[30], /^- \[x\]/);
	})],
	["obsidianTasks", { command: "task", ref: "Ideas/Brainstorm.md:10", done: true }, refused()],
	["obsidianProperties", { command: "properties", file: "Launch plan" }, allowed((r) => assert.match(r.text, /owner: Alice/))],
	["obsidianProperties", { command: "properties", all: true, counts: true }, refused()],
	["obsidianProperties", { command: "property:read", name: "role", path: "People/Bob.md" }, allowed((r) => assert.equal(r.text, "Engineer"))],
	["obsidianProperties", { command: "property:read", name: "status", file: "Website Redesign" }, allowed((r) => assert.ok(r.text.length > 0))],
	["obsidianProperties", { command: "property:read", name: "lang", path: "Ideas/Café ☕.md" }, refused()],
	["obsidianProperties", { command: "property:set", name: "status", value: "done", path: "Projects/Roadmap.md" }, allowed((r, log, vault) => {
		assert.match(readFileSync(join(vault, "Projects/Roadmap.md"), "utf8"), /^status: done$/m);
	})],
	// Readable, not changeable.
	["obsidianProperties", { command: "property:set", name: "role", value: "Lead", path: "People/Bob.md" }, refused()],
	["obsidianProperties", { command: "property:remove", name: "reviewed", path: "Projects/Launch plan.md" }, allowed((r, log, vault) => {
		assert.doesNotMatch(readFileSync(join(vault, "Projects/Launch plan.md"), "utf8"), /^reviewed:/m);
	})],
	["obsidianProperties", { command: "property:remove", name: "role", file: "Alice" }, refused("file")],
	["obsidianLinks", { command: "backlinks", file: "Roadmap" }, allowed((r) => {
		linesInside(r.text, (line) => line.split("\t")[0]);
		withheld(r);
	})],
	["obsidianLinks", { command: "backlinks", path: "Projects/Roadmap.md", format: "json" }, allowed((r) => {
		const files = JSON.parse(r.text).map((b) => b.file);
		assert.ok(files.length > 0 && files.every((p) => inside(p)), r.text);
		withheld(r);
	})],
	["obsidianLinks", { command: "backlinks", file: "Welcome" }, refused("file")],
	["obsidianLinks", { command: "links", path: "Projects/Roadmap.md" }, allowed((r) => assert.match(r.text, /\S/))],
	["obsidianLinks", { command: "links", path: "Welcome.md" }, refused()],
	["obsidianLinks", { command: "orphans" }, allowed((r) => {
		linesInside(r.text);
		withheld(r);
	})],
	["obsidianLinks", { command: "orphans", total: true }, refused()],
	["obsidianLinks", { command: "deadends" }, allowed((r) => {
		linesInside(r.text);
		withheld(r);
	})],
	["obsidianLinks", { command: "deadends", total: true }, refused()],
	["obsidianLinks", { command: "unresolved", verbose: true }, allowed((r) => {
		linesInside(r.text, (line) => line.split("\t")[1]);
		withheld(r);
	})],
	["obsidianLinks", { command: "unresolved" }, refused()],
	["obsidianTags", { command: "tags", path: "Projects/Roadmap.md" }, allowed((r) => assert.match(r.text, /#/))],
	["obsidianTags", { command: "tags", all: true, counts: true }, refused()],
	["obsidianTags", { command: "tag", name: "daily", verbose: true }, allowed((r) => {
		const [header, ...paths] = r.text.split("\n");
		assert.match(header, /^#daily\t\d+$/);
		linesInside(paths.join("\n"));
	})],
	["obsidianTags", { command: "tag", name: "idea" }, allowed((r) => {
		assert.equal(linesInside(r.text), 0, r.text);
		withheld(r);
	})],
	["obsidianTags", { command: "tag", name: "idea", total: true }, refused()],
	["obsidianTags", { command: "tag:add", path: "Projects/Roadmap.md", tag: "scoped" }, allowed((r, log, vault) => {
		assert.match(readFileSync(join(vault, "Projects/Roadmap.md"), "utf8"), /^tags: \[.*, scoped\]$/m);
	})],
	["obsidianTags", { command: "tag:add", path: "People/Bob.md", tag: "scoped" }, refused()],
	["obsidianTags", { command: "tag:remove", path: "Projects/Roadmap.md", tag: "scoped" }, allowed((r, log, vault) => {
		assert.doesNotMatch(readFileSync(join(vault, "Projects/Roadmap.md"), "utf8"), /scoped/);
	})],
	["obsidianTags", { command: "tag:remove", file: "Alice", tag: "person" }, refused("file")],
	// Templates are read as templates (their folder is the Templates plugin's).
	["obsidianTemplates", { command: "templates" }, allowed((r) => assert.match(r.text, /Meeting Notes/))],
	["obsidianTemplates", { command: "template:read", name: "Meeting Notes" }, allowed((r) => assert.match(r.text, /\S/))],
	["obsidianBases", { command: "bases" }, allowed((r) => assert.equal(r.text.trim(), "Databases/Projects.base"))],
	["obsidianBases", { command: "bases", total: true }, refused()],
	["obsidianBases", { command: "base:views", path: "Databases/Projects.base" }, allowed((r) => assert.match(r.text, /\t/))],
	["obsidianBases", { command: "base:views", file: "Projects" }, refused()],
	["obsidianBases", { command: "base:query", path: "Databases/Projects.base" }, allowed((r) => {
		const rows = JSON.parse(r.text);
		assert.ok(rows.length > 0 && rows.every((row) => inside(row.path)), r.text);
	})],
	["obsidianBases", { command: "base:query", path: "Databases/Projects.base", format: "csv" }, refused()],
	// The base decides the new note's folder, which cannot be checked first.
	["obsidianBases", { command: "base:create", path: "Databases/Projects.base", name: "Shed" }, refused()],
	// Only without folder limits.
	["obsidianBases", { command: "base:create", path: "Databases/Projects.base", name: "Shed" }, allowed((r) => assert.match(r.text, /Created: .*Shed\.md/)), { readFolders: [], writeFolders: [] }],
	["obsidianBookmarks", { command: "bookmarks", verbose: true }, allowed((r) => {
		linesInside(r.text, (line) => line.trim().split("\t")[1].split("#")[0]);
		withheld(r);
	})],
	["obsidianBookmarks", { command: "bookmarks", format: "json" }, allowed((r) => {
		const paths = JSON.parse(r.text).map((b) => b.path);
		assert.ok(paths.length > 0 && paths.every((p) => inside(p)), r.text);
		withheld(r);
	})],
	["obsidianBookmarks", { command: "bookmarks", format: "csv" }, refused()],
	["obsidianBookmarks", { command: "bookmark", file: "People/Alice.md" }, allowed((r, log, vault) => {
		assert.match(readFileSync(join(vault, ".obsidian/bookmarks.json"), "utf8"), /People\/Alice\.md/);
	})],
	["obsidianBookmarks", { command: "bookmark", folder: "Ideas" }, refused()],
	["obsidianRandomRead", { folder: "People" }, allowed((r) => assert.match(r.text, /^People\//))],
	["obsidianRandomRead", {}, refused()],
	["obsidianRandomRead", { folder: "Ideas" }, refused()],
	["obsidianEdit", { command: "create", path: "Projects/Q4 plan.md", content: "# Q4" }, allowed((r, log, vault) => {
		assert.equal(readFileSync(join(vault, "Projects/Q4 plan.md"), "utf8").trim(), "# Q4");
	})],
	["obsidianEdit", { command: "create", name: "Loose note", content: "x" }, refused()],
	["obsidianEdit", { command: "create", path: "People/Carol.md", content: "x" }, refused()],
	["obsidianEdit", { command: "append", file: "Roadmap", content: "- appended" }, allowed((r, log, vault) => {
		assert.ok(r.argv.includes("path=Projects/Roadmap.md"), JSON.stringify(r.argv));
		assert.ok(readFileSync(join(vault, "Projects/Roadmap.md"), "utf8").trimEnd().endsWith("- appended"));
	})],
	["obsidianEdit", { command: "append", file: "Welcome", content: "x" }, refused("file")],
	["obsidianEdit", { command: "prepend", path: "Projects/Website Redesign.md", content: "> top" }, allowed((r, log, vault) => {
		assert.match(readFileSync(join(vault, "Projects/Website Redesign.md"), "utf8"), /^> top$/m);
	})],
	["obsidianEdit", { command: "prepend", path: "Daily/2026-03-01.md", content: "x" }, refused()],
	["obsidianEdit", { command: "edit", path: "Projects/Launch plan.md", find: "owner: Alice", with: "owner: Dana" }, allowed((r, log, vault) => {
		assert.match(readFileSync(join(vault, "Projects/Launch plan.md"), "utf8"), /^owner: Dana$/m);
	})],
	["obsidianEdit", { command: "edit", file: "Alice", find: "launch", with: "landing" }, refused("file")],
	// The core's index: every hit and every statistic limited to the read scope.
	["obsidianSearch", { command: "find", query: "launch ideas brainstorm", limit: 50 }, allowed((r) => {
		const found = [...r.text.matchAll(/^\d+\. (.+?\.md) /gm)].map((m) => m[1]);
		assert.ok(found.length > 0, r.text);
		for (const path of found) assert.ok(inside(path), path);
		assert.doesNotMatch(r.text, /Ideas\//);
		withheld(r);
	})],
	// Computed from inputs limited to the read scope before anything is computed.
	["obsidianHygiene", { command: "duplicates" }, allowed((r) => {
		assert.match(r.text, /^Duplicate titles among \d+ notes/);
		for (const path of r.text.match(/[^\s|~:"]+\/[^|~:"\n]+\.md/g) ?? []) assert.ok(inside(path.trim()), path);
		withheld(r);
	})],
	["obsidianHygiene", { command: "duplicates", folder: "Ideas" }, refused()],
	["obsidianHygiene", { command: "empty" }, allowed((r) => {
		// The note an earlier case made from a base (properties only) counts.
		assert.match(r.text, /^Empty notes among \d+ notes: \d+\./);
		for (const line of r.text.split("\n").filter((l) => l.startsWith("- "))) assert.ok(inside(line.slice(2)), line);
		withheld(r);
	})],
	["obsidianHygiene", { command: "empty", folder: "Archive" }, refused()],
	["obsidianHygiene", { command: "missing" }, allowed((r) => {
		for (const line of r.text.split("\n").filter((l) => l.startsWith("- [["))) {
			for (const source of line.split(" ← ")[1].replace(/ \(\d+ notes?\)$/, "").split(", ")) assert.ok(inside(source), source);
		}
		withheld(r);
	})],
	["obsidianHygiene", { command: "suggest", file: "Roadmap" }, allowed((r) => {
		for (const line of r.text.split("\n").filter((l) => /^\d+\. /.test(l))) assert.ok(inside(line.replace(/^\d+\. /, "").split(" (score")[0]), line);
		withheld(r);
	})],
	["obsidianHygiene", { command: "suggest", file: "Brainstorm" }, refused("file")],
	// Last: they move notes the cases above use.
	["obsidianOrganise", { command: "move", path: "Projects/Roadmap.md", to: "Projects/Old" }, allowed((r, log, vault) => {
		assert.ok(readdirSync(join(vault, "Projects/Old")).includes("Roadmap.md"));
	})],
	// Readable, but the destination is not changeable.
	["obsidianOrganise", { command: "move", path: "Projects/Website Redesign.md", to: "People" }, refused()],
	["obsidianOrganise", { command: "rename", path: "Projects/Website Redesign.md", name: "Site" }, allowed((r, log, vault) => {
		assert.ok(readdirSync(join(vault, "Projects")).includes("Site.md"));
	})],
	["obsidianOrganise", { command: "rename", file: "Alice", name: "Alicia" }, refused("file")],
	["obsidianOrganise", { command: "delete", path: "Projects/Q4 plan.md" }, allowed((r, log, vault) => {
		assert.ok(!readdirSync(join(vault, "Projects")).includes("Q4 plan.md"));
	})],
	["obsidianOrganise", { command: "delete", paths: ["Projects/Site.md", "Ideas/Brainstorm.md"] }, refused()],
];

/** A fingerprint of every file in the vault (paths and contents). */
function fingerprint(dir) {
	const hash = createHash("sha256");
	const walk = (folder) => {
		for (const name of readdirSync(folder).sort()) {
			const path = join(folder, name);
			if (statSync(path).isDirectory()) walk(path);
			else hash.update(path).update(readFileSync(path));
		}
	};
	walk(dir);
	return hash.digest("hex");
}

describe("folder scopes, for every command of every tool", () => {
	let vault;
	let plugin;
	before(async () => {
		vault = copySampleVault();
		// A PDF inside the read scope and one outside it, for `pdf`.
		writeFileSync(join(vault, "Projects", "Brief.pdf"), simplePdf([["Brief page one"]]));
		writeFileSync(join(vault, "Brief.pdf"), simplePdf([["Outside"]]));
		({ plugin } = await loadPlugin(vault, {
			data: { cliPath: emulator, vaultName: "Sample Vault", permissionMode: "askBeforeEdits", readFolders: READ, writeFolders: WRITE },
		}));
		plugin.app.workspace.openLinkText = async () => {};
	});
	after(() => removeVault(vault));

	it("tries every command of the registry, both allowed and refused where a place can be named", async () => {
		const seen = new Map();
		for (const [tool, args, expectation] of cases) {
			const key = `${tool} ${args.command ?? ""}`;
			seen.set(key, new Set([...(seen.get(key) ?? []), expectation.kind]));
		}
		// Commands that name no place: nothing to refuse (find limits its hits instead).
		const placeless = new Set(["obsidianDailyNote daily:path", "obsidianTemplates templates", "obsidianTemplates template:read", "obsidianHygiene missing", "obsidianSearch find"]);
		// Off by default, with settings of their own; their scopes: tests/agent/memory.rs (memory folder outside the write scope), tests/web.rs (no vault place).
		const ownSuites = new Set(["obsidianMemory", "obsidianWeb"]);
		for (const tool of (await plugin.api.listTools())) {
			if (ownSuites.has(tool.id)) continue;
			for (const command of tool.commands) {
				const key = tool.commands.length === 1 ? `${tool.id} ` : `${tool.id} ${command}`;
				assert.ok(seen.has(key), `no case for ${key}`);
				if (!placeless.has(key)) assert.equal(seen.get(key)?.size, 2, `${key} needs an allowed and a refused case`);
			}
		}
	});

	for (const [tool, args, expectation, patch] of cases) {
		it(`${tool} ${JSON.stringify(args)} is ${expectation.kind}${patch ? ` with ${JSON.stringify(patch)}` : ""}`, async () => {
			const log = useEmulator(vault, { OBSIDIAN_EMULATOR_SEED: "3" });
			const before = fingerprint(vault);
			const saved = plugin.core.settings();
			if (patch) await plugin.updateSettings(patch);
			let result;
			try {
				result = await plugin.core.callTool(tool, args);
			} finally {
				if (patch) await plugin.updateSettings({ readFolders: saved.readFolders, writeFolders: saved.writeFolders });
			}
			if (expectation.kind === "refused") {
				assert.equal(result.ok, false);
				assert.equal(result.error?.code, "out_of_scope", result.text);
				assert.match(result.text, /Settings → Vault Agent → Safety\)\. Nothing ran\./);
				assert.deepEqual(readLog(log).map((entry) => entry.argv[1]), expectation.lookups, "only the lookup of a path ran");
				assert.equal(fingerprint(vault), before, "nothing in the vault changed");
				return;
			}
			if (result.pending) result = await plugin.confirmations.approve(plugin.core.confirmationCard(result.pending.id));
			assert.equal(result.ok, true, result.text);
			expectation.check(result, readLog(log), vault);
		});
	}

	it("a refusal by name does not say where the note lies", async () => {
		useEmulator(vault);
		const result = await plugin.core.callTool("obsidianNotes", { command: "read", file: "Brainstorm" });
		assert.equal(result.error?.code, "out_of_scope");
		assert.match(result.text, /the note "Brainstorm"/);
		assert.doesNotMatch(result.text, /Ideas/);
	});
});

// An unreadable scope is no scope at all: a list the bounded reader cannot
// keep (too many entries, a text too long, nested too deep, not a list), or a
// whole data.json it cannot read, leaves the agent no folder, never the whole
// vault; every call is refused with the setting and the fix named, and the
// settings tab shows the list as broken rather than empty ("Whole vault").
describe("a folder list that cannot be read reaches nothing", () => {
	const NO_FOLDER = "(no folder: fix this list)";
	const nested = (depth) => Array.from({ length: depth }).reduce((inner) => [inner], ["Projects"]);
	const many = Array.from({ length: 20000 }, (_, i) => `Folder ${i}`);
	const cases = [
		["readFolders with 20 000 entries", { readFolders: many }, "read"],
		["readFolders as a 70 KB text", { readFolders: "x".repeat(70 * 1024) }, "read"],
		["readFolders nested too deep", { readFolders: nested(80) }, "read"],
		["readFolders of the wrong type", { readFolders: { Projects: true } }, "read"],
		["writeFolders with 20 000 entries", { writeFolders: many }, "change"],
		["a whole data.json over 4 MiB", { readFolders: [], writeFolders: [], pad: "x".repeat(5 * 1024 * 1024) }, "both"],
	];
	for (const [name, stored, broken] of cases) {
		it(name, async () => {
			const vault = copySampleVault();
			try {
				const log = useEmulator(vault);
				const { plugin } = await loadPlugin(vault, {
					data: { cliPath: emulator, vaultName: "Sample Vault", permissionMode: "askBeforeEdits", ...stored },
				});
				const settings = plugin.core.settings();
				if (broken !== "change") assert.deepEqual(settings.readFolders, [NO_FOLDER]);
				if (broken !== "read") assert.deepEqual(settings.writeFolders, [NO_FOLDER]);
				const before = fingerprint(vault);
				const setting = broken === "change" ? "Folders the agent may change" : "Folders the agent may read";
				const calls = [
					["obsidianEdit", { command: "append", path: "Projects/Roadmap.md", content: "x" }],
					...(broken === "change" ? [] : [
						["obsidianNotes", { command: "files" }],
						["obsidianSearch", { command: "search", query: "launch" }],
						["obsidianNotes", { command: "read", path: "Projects/Roadmap.md" }],
					]),
				];
				for (const [tool, args] of calls) {
					const result = await plugin.core.callTool(tool, args);
					assert.equal(result.error?.code, broken === "both" && tool === "obsidianEdit" ? "writes_disabled" : "out_of_scope", result.text);
					if (result.error?.code === "out_of_scope") {
						assert.match(result.text, new RegExp(`"${setting}" could not be read`), result.text);
						assert.match(result.text, new RegExp(`set it again in Settings → Vault Agent → Safety → ${setting}`), result.text);
					}
				}
				assert.deepEqual(readLog(log), [], "nothing ran");
				assert.equal(fingerprint(vault), before, "nothing changed");
				// The settings tab shows the broken list, not an empty one.
				const tab = openSettingTab(plugin);
				await settle(6);
				const chips = [...findSetting(tab, setting).querySelectorAll(".vault-agent-settings-path span")].map((el) => el.textContent);
				assert.deepEqual(chips, [NO_FOLDER]);
				closeSettings(plugin.app);
				plugin.unload();
			} finally {
				removeVault(vault);
			}
		});
	}
});
