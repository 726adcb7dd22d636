// Runs every read command of every tool and every hygiene report over a real
// vault, through the BUILT main.js inside the Obsidian double and the CLI
// emulator (as the demo does), and prints what failed and what looks wrong.
// Not part of the test command: the vaults are other people's text and stay
// out of the repository (see docs/real-vaults.md for which ones were run).
//
//   bash scripts/build.sh
//   node scripts/real-vaults.mjs VAULT_FOLDER [--notes N] [--suggest N] [--json FILE] [--emulator PATH]
//
// VAULT_FOLDER is copied to a temporary folder first (the plugin is installed
// into the copy's .obsidian/); nothing in it is changed. --notes runs the
// per-note commands on N notes spread evenly over the vault (default: all);
// --suggest
// runs the backlink suggestions for the first N notes (default 25); --json
// writes every finding to FILE; --emulator runs another build of the CLI
// emulator (with VAULT_AGENT_BUILD_DIR naming the folder of another main.js,
// an older build can be compared with this one).
//
// "Suspicious" means one reader disagrees with another or with the text:
// the emulator's `outline` against the plugin's `map` (two heading parsers),
// tags, links and tasks that the text has only inside code or comments, link
// targets that carry Markdown syntax (`\`, `|`), hex colours counted as tags,
// suggestions of notes that already link, and "empty" notes with text.

import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { emulator, loadPlugin, root, useEmulator } from "../tests/support/harness.mjs";
import { codeMask, mentionsOutsideCode } from "./real-vaults-text.mjs";

const args = process.argv.slice(2);
const source = args.find((a, i) => !a.startsWith("--") && !/^--/.test(args[i - 1] ?? ""));
const option = (name, fallback) => {
	const at = args.indexOf(name);
	return at === -1 ? fallback : args[at + 1];
};
if (!source || !existsSync(source)) {
	console.error(`Usage: node scripts/real-vaults.mjs VAULT_FOLDER [--notes N] [--suggest N] [--json FILE]; got ${source ?? "no folder"}.`);
	process.exit(2);
}
for (const built of [join(process.env.VAULT_AGENT_BUILD_DIR || root, "main.js"), option("--emulator", emulator)]) {
	if (!existsSync(built)) {
		console.error(`${built} is missing: run bash scripts/build.sh first.`);
		process.exit(2);
	}
}
const noteLimit = Number(option("--notes", Infinity));
const suggestLimit = Number(option("--suggest", 25));
const jsonOut = option("--json", null);
const cli = resolve(option("--emulator", emulator));

const findings = { errors: [], suspicious: [], calls: 0, cut: 0, byCommand: {} };
const temp = mkdtempSync(join(tmpdir(), "real-vault-"));
const vault = join(temp, basename(resolve(source)));
cpSync(source, vault, {
	recursive: true,
	filter: (from) => !/(^|\/)(\.git|\.trash)(\/|$)/.test(from) && !/\.obsidian\/plugins(\/|$)/.test(from),
});

try {
	useEmulator(vault, { OBSIDIAN_EMULATOR_TODAY: new Date().toISOString().slice(0, 10), OBSIDIAN_EMULATOR_SEED: "1" });
	// Ask before every change: a write only makes a card (read, then rejected),
	// so the plugin's own tag reader can be compared without changing a note.
	const { plugin } = await loadPlugin(vault, { data: { cliPath: cli, permissionMode: "askEveryChange" } });
	await run(plugin.api, plugin.core);
} finally {
	rmSync(temp, { recursive: true, force: true });
}
report();
process.exit(0);

async function run(api, core) {
	const tools = api.listTools();
	const covered = new Set();
	const call = async (tool, params, { expectError = false } = {}) => {
		covered.add(`${tool}.${params.command}`);
		findings.calls++;
		const key = `${tool} ${params.command}`;
		findings.byCommand[key] = (findings.byCommand[key] ?? 0) + 1;
		const result = await api.callTool(tool, params);
		if (result.truncated) findings.cut++;
		if (!result.ok && !expectError) {
			findings.errors.push({ tool, params, code: result.error?.code, message: (result.error?.message ?? result.text).slice(0, 300) });
		}
		if (tool === "obsidianBases" && /Unsupported base filter|is not supported/.test(result.text)) {
			suspect("bases", `${key} ${JSON.stringify(params)}`, result.text.slice(0, 300));
		}
		return result;
	};
	const lines = (result) => (result.ok ? result.text.split("\n").filter((l) => l.trim() !== "") : []);

	// The vault as the CLI lists it.
	const allFiles = await listAll(call);
	const notes = allFiles.filter((f) => f.endsWith(".md"));
	const text = new Map(notes.map((n) => [n, readFileSync(join(vault, n), "utf8")]));
	await call("obsidianNotes", { command: "folders" });
	await call("obsidianNotes", { command: "files", total: true });
	console.log(`${basename(vault)}: ${allFiles.length} files, ${notes.length} notes.`);

	// Per-note commands.
	let done = 0;
	const step = Math.max(1, notes.length / noteLimit);
	const sample = notes.filter((_, i) => Math.floor(i % step) === 0).slice(0, noteLimit);
	for (const note of sample) {
		if (++done % 100 === 0) process.stderr.write(`… ${done} notes\n`);
		const body = text.get(note);
		const read = await call("obsidianNotes", { command: "read", path: note });
		if (read.ok && !read.truncated && read.text.trimEnd() !== body.trimEnd()) {
			suspect("read", note, "the text `read` returned differs from the file");
		}
		await call("obsidianNotes", { command: "file", path: note });
		const outline = await call("obsidianNotes", { command: "outline", path: note, format: "json" });
		const map = await call("obsidianNotes", { command: "map", path: note });
		compareHeadings(note, body, outline, map);
		for (const path of sectionPaths(map).slice(0, 5)) {
			await call("obsidianNotes", { command: "section", path: note, heading: path });
		}
		const tags = await call("obsidianTags", { command: "tags", path: note });
		const noteTags = lines(tags).filter((l) => l.startsWith("#")).map((l) => l.split("\t")[0]);
		checkTags(note, body, noteTags);
		for (const tag of noteTags.slice(0, 5)) await checkTagRemoval(call, core, note, body, tag);
		const links = await call("obsidianLinks", { command: "links", path: note });
		for (const line of lines(links).filter((l) => l !== "No links found.")) checkLinkTarget(note, body, line.replace(/ \(unresolved\)$/, ""), line.endsWith("(unresolved)"));
		await call("obsidianLinks", { command: "backlinks", path: note });
		const props = await call("obsidianProperties", { command: "properties", path: note });
		for (const name of propertyNames(props).slice(0, 10)) {
			await call("obsidianProperties", { command: "property:read", path: note, name });
		}
		const tasks = await call("obsidianTasks", { command: "tasks", path: note, format: "json" });
		checkTasks(note, body, tasks);
	}

	// Vault-wide reads.
	for (const params of [{ command: "tasks", all: true }, { command: "tasks", all: true, todo: true, verbose: true }, { command: "tasks", all: true, total: true }]) {
		await call("obsidianTasks", params);
	}
	await call("obsidianProperties", { command: "properties" });
	await call("obsidianProperties", { command: "properties", counts: true });
	const tagCounts = lines(await call("obsidianTags", { command: "tags", counts: true })).filter((l) => l.startsWith("#")).map((l) => l.split("\t")[0]);
	for (const tag of tagCounts.slice(0, 50)) await call("obsidianTags", { command: "tag", name: tag.slice(1), verbose: true });
	for (const tag of tagCounts) {
		if (/^#[0-9a-f]{3,8}$/i.test(tag) && /\d/.test(tag)) suspect("tags", tag, "looks like a hex colour");
	}
	for (const command of ["orphans", "deadends"]) await call("obsidianLinks", { command });
	const unresolved = lines(await call("obsidianLinks", { command: "unresolved", verbose: true }));
	await call("obsidianLinks", { command: "unresolved", counts: true });
	for (const line of unresolved) {
		const [target, from] = line.split("\t");
		if (from && text.has(from)) checkLinkTarget(from, text.get(from), target, true);
	}
	const words = [...new Set(notes.flatMap((n) => basename(n, ".md").split(/\s+/)).filter((w) => w.length > 4))].slice(0, 5);
	for (const query of ["the", ...words]) {
		await call("obsidianSearch", { command: "search", query });
		await call("obsidianSearch", { command: "search:context", query, limit: 50 });
	}
	const templates = await call("obsidianTemplates", { command: "templates" }, { expectError: true });
	for (const name of lines(templates).slice(0, 20)) await call("obsidianTemplates", { command: "template:read", name });
	const bases = lines(await call("obsidianBases", { command: "bases" })).filter((l) => l.endsWith(".base"));
	for (const base of bases) {
		const views = lines(await call("obsidianBases", { command: "base:views", path: base }));
		for (const view of views.map((v) => v.split("\t")[0])) {
			await call("obsidianBases", { command: "base:query", path: base, view, format: "json" });
		}
	}
	await call("obsidianBookmarks", { command: "bookmarks" });
	await call("obsidianRandomRead", { command: "random:read" });
	await call("obsidianDailyNote", { command: "daily:path" });
	await call("obsidianDailyNote", { command: "daily:read" }, { expectError: true });
	if (notes.length > 0) await call("obsidianNotes", { command: "open", path: notes[0] });

	// Hygiene reports.
	await call("obsidianHygiene", { command: "duplicates" });
	const empty = await call("obsidianHygiene", { command: "empty" });
	for (const line of lines(empty).filter((l) => l.startsWith("- "))) {
		const path = line.slice(2).split(" (")[0];
		const body = text.get(path);
		if (body !== undefined && stripFrontmatter(body).replace(/%%[\s\S]*?%%|<!--[\s\S]*?-->/g, "").trim() !== "") {
			suspect("hygiene empty", path, "reported empty but has text after its properties");
		}
	}
	await call("obsidianHygiene", { command: "missing" });
	await call("obsidianHygiene", { command: "suggest", topic: words[0] ?? "notes" });
	for (const note of sample.slice(0, suggestLimit)) {
		const suggested = await call("obsidianHygiene", { command: "suggest", path: note });
		const backlinks = new Set(lines(await call("obsidianLinks", { command: "backlinks", path: note })).map((l) => l.split("\t")[0]));
		for (const line of lines(suggested)) {
			const match = /^\d+\. (.+?) \(score/.exec(line);
			if (match && backlinks.has(match[1])) suspect("hygiene suggest", note, `suggests ${match[1]}, which already links to it`);
		}
	}

	for (const tool of tools) {
		for (const command of tool.commandDetails.filter((c) => c.access === "read")) {
			if (covered.has(`${tool.id}.${command.name}`)) continue;
			const nothing = { "template:read": "templates", "base:views": "bases", "base:query": "bases" }[command.name];
			if (nothing) console.log(`(${tool.id} ${command.name} not run: the vault has no ${nothing} the CLI lists.)`);
			else suspect("script", `${tool.id} ${command.name}`, "a read command this script does not run: add it");
		}
	}
}

async function listAll(call) {
	const out = [];
	for (let offset = 0; offset < 200_000; offset += 1000) {
		const page = await call("obsidianNotes", { command: "files", limit: 1000, offset });
		// Every line but the page note the core adds (`[files 1-1000 of N; …]`).
		const got = page.ok ? page.text.split("\n").filter((l) => l && !/^\[(files|No files) .*\]$/.test(l) && l !== "No files found.") : [];
		out.push(...got);
		if (got.length < 1000) break;
	}
	return out;
}

function suspect(kind, where, what) {
	findings.suspicious.push({ kind, where, what });
}

function stripFrontmatter(body) {
	const m = /^---\r?\n[\s\S]*?\r?\n(---|\.\.\.)\r?\n?/.exec(body);
	return m ? body.slice(m[0].length) : body;
}

/** `section: "A::B"` paths from a document map. */
function sectionPaths(map) {
	return map.ok ? [...map.text.matchAll(/section: "(.*)"$/gm)].map((m) => m[1]) : [];
}

/** The emulator's outline and the plugin's map must see the same headings, none in code. */
function compareHeadings(note, body, outline, map) {
	if (!outline.ok || !map.ok) return;
	const cli = /^\s*\[/.test(outline.text) ? JSON.parse(outline.text).map((h) => `${h.level} ${h.heading} @${h.line}`) : [];
	const plugin = [...map.text.matchAll(/^\s*- (.*) \(h(\d), lines (\d+)-\d+\) section:/gm)].map((m) => `${m[2]} ${m[1]} @${m[3]}`);
	if (cli.join("\n") !== plugin.join("\n")) {
		const onlyCli = cli.filter((h) => !plugin.includes(h));
		const onlyPlugin = plugin.filter((h) => !cli.includes(h));
		suspect("headings", note, `outline (emulator) and map (plugin) differ: only in outline ${JSON.stringify(onlyCli.slice(0, 3))}, only in map ${JSON.stringify(onlyPlugin.slice(0, 3))}`);
	}
	const code = codeMask(body);
	for (const h of cli) {
		const line = Number(h.split("@").pop());
		if (code[line - 1]) suspect("headings", note, `outline has a heading in code or a comment: ${h}`);
	}
}

function checkTags(note, body, tags) {
	const front = /^---\r?\n([\s\S]*?)\r?\n(---|\.\.\.)/.exec(body)?.[1] ?? "";
	for (const tag of tags) {
		const name = tag.replace(/^#/, "");
		if (!name) continue;
		if (new RegExp(`(^|[\\s,\\[\\-'"#])${escape(name)}($|[\\s,\\]'"])`, "im").test(front)) continue;
		if (!mentionsOutsideCode(body, `#${name}`, "tag")) suspect("tags", note, `${tag} is counted, but the text has it only in code, a comment or not at all`);
	}
}

/** The plugin's tag:remove (its own tag reader) must find every tag the
 * emulator lists, and change no line in code; the card is rejected. */
async function checkTagRemoval(call, core, note, body, tag) {
	const result = await call("obsidianTags", { command: "tag:remove", path: note, tag: tag.slice(1) }, { expectError: true });
	if (!result.pending) {
		suspect("tag edits", note, `the emulator lists ${tag}, but tag:remove finds nothing to remove (${result.error?.code ?? result.text.slice(0, 80)})`);
		return;
	}
	const diff = core.confirmationCard(result.pending.id)?.preview?.after ?? "";
	core.reject(result.pending.id);
	const code = codeMask(body);
	// The properties block is where a tag property lives, not code.
	const front = /^---\r?\n[\s\S]*?\r?\n(---|\.\.\.)(\r?\n|$)/.exec(body)?.[0].split("\n").length ?? 0;
	let old = 0;
	for (const line of diff.split("\n")) {
		const hunk = /^@@ -(\d+)/.exec(line);
		if (hunk) old = Number(hunk[1]);
		else if (line.startsWith("-")) {
			if (code[old - 1] && old >= front) suspect("tag edits", note, `tag:remove ${tag} changes line ${old}, which is code or a comment: ${line.slice(1, 80)}`);
			old++;
		} else if (line.startsWith(" ")) old++;
	}
}

function checkLinkTarget(note, body, target, unresolved) {
	if (/\\$|\|/.test(target) || target !== target.trim()) {
		suspect("links", note, `link target ${JSON.stringify(target)} carries Markdown syntax`);
		return;
	}
	if (!unresolved) return;
	const front = /^---\r?\n([\s\S]*?)\r?\n(---|\.\.\.)/.exec(body)?.[1] ?? "";
	if (front.includes(`[[${target}`)) return;
	if (!mentionsOutsideCode(body, target, "link")) suspect("links", note, `unresolved ${JSON.stringify(target)} is written only in code or a comment`);
}

function checkTasks(note, body, tasks) {
	if (!tasks.ok || !/^\s*\[/.test(tasks.text)) return;
	const code = codeMask(body);
	for (const task of JSON.parse(tasks.text)) {
		if (code[Number(task.line) - 1]) suspect("tasks", note, `a task in code or a comment, line ${task.line}: ${task.text.slice(0, 60)}`);
	}
}

function propertyNames(result) {
	if (!result.ok) return [];
	return result.text.split("\n").filter((l) => /^[^\s-][^:]*:/.test(l)).map((l) => l.split(":")[0]);
}

function escape(text) {
	return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

function report() {
	console.log(`\n${findings.calls} calls (${findings.cut} cut at the output cap).`);
	const byCode = {};
	for (const e of findings.errors) (byCode[`${e.tool} ${e.params.command}: ${e.code}`] ??= []).push(e);
	console.log(`\nErrors: ${findings.errors.length}`);
	for (const [key, list] of Object.entries(byCode)) {
		console.log(`  ${key} ×${list.length}`);
		for (const e of list.slice(0, 3)) console.log(`    ${JSON.stringify(e.params)}: ${e.message.split("\n")[0]}`);
	}
	const byKind = {};
	for (const s of findings.suspicious) (byKind[s.kind] ??= []).push(s);
	console.log(`\nSuspicious: ${findings.suspicious.length}`);
	for (const [kind, list] of Object.entries(byKind)) {
		console.log(`  ${kind} ×${list.length}`);
		for (const s of list.slice(0, 8)) console.log(`    ${s.where}: ${s.what}`);
	}
	if (jsonOut) {
		writeFileSync(jsonOut, `${JSON.stringify(findings, null, 2)}\n`);
		console.log(`\nAll findings: ${jsonOut}`);
	}
}
