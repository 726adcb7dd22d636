// The layout table in ARCHITECTURE.md: one row per file under src/ and
// plugin-shim/, between the two `layout` markers. tests/node/layout.test.mjs
// fails when a file has no row or a row names a file that is not there.
//
//   node scripts/layout.mjs           say what the table lacks or names in vain
//   node scripts/layout.mjs --write   rewrite the table: every description kept; a
//                                     file that moved (same name, one candidate)
//                                     keeps its description; a new file's row
//                                     starts from the file's first comment
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const ARCHITECTURE = join(root, "ARCHITECTURE.md");
/** The folders whose every file the table names. */
export const FOLDERS = ["src", "plugin-shim"];
const START = "<!-- layout:start";
const END = "<!-- layout:end -->";
const HEADER = ["| File | What it holds |", "|---|---|"];

/** Every file under the folders, as repository paths (`src/cli/argv.rs`). */
export function files() {
	const out = [];
	const walk = (dir) => {
		for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
			const path = `${dir}/${entry.name}`;
			if (entry.isDirectory()) walk(path);
			else out.push(path);
		}
	};
	for (const folder of FOLDERS) walk(folder);
	return out;
}

/** The table's rows as `{ path, text, line }`; throws when the markers are missing. */
export function tableRows(markdown = readFileSync(ARCHITECTURE, "utf8")) {
	const lines = markdown.split("\n");
	const start = lines.findIndex((l) => l.startsWith(START));
	const end = lines.indexOf(END);
	if (start === -1 || end < start) throw new Error(`ARCHITECTURE.md has no layout table between "${START} …" and "${END}"`);
	const rows = [];
	for (let i = start + 1; i < end; i++) {
		const row = lines[i].match(/^\|\s*`([^`]+)`\s*\|\s*(.*?)\s*\|\s*$/);
		if (row) rows.push({ path: row[1], text: row[2], line: i + 1 });
		else if (lines[i].trim() !== "" && !HEADER.includes(lines[i])) throw new Error(`ARCHITECTURE.md:${i + 1}: not a row of the layout table ("| \`path\` | what it holds |"): ${lines[i]}`);
	}
	return { rows, start, end, lines };
}

/** What is wrong with the table, one line each (empty when nothing is). */
export function problems(markdown = readFileSync(ARCHITECTURE, "utf8"), present = files()) {
	const { rows } = tableRows(markdown);
	const onDisk = new Set(present);
	const seen = new Map();
	const out = [];
	for (const row of rows) {
		if (seen.has(row.path)) out.push(`ARCHITECTURE.md:${row.line}: ${row.path} has a row already (line ${seen.get(row.path)})`);
		seen.set(row.path, row.line);
		if (!onDisk.has(row.path)) out.push(`ARCHITECTURE.md:${row.line}: names ${row.path}, which is not there (moved or removed? update the row)`);
		if (row.text === "" || /^TODO\b/.test(row.text)) out.push(`ARCHITECTURE.md:${row.line}: ${row.path} needs a line saying what it holds`);
	}
	for (const path of onDisk) if (!seen.has(path)) out.push(`${path} has no line in ARCHITECTURE.md's layout table (add one, or run node scripts/layout.mjs --write)`);
	return out;
}

/** The first sentence of a file's leading comment, as a starting description. */
function firstComment(path) {
	const text = readFileSync(join(root, path), "utf8");
	const comment = [];
	for (const line of text.split("\n")) {
		const m = line.match(/^\s*(?:\/\/[!/]?|\/\*\*?|\*)\s?(.*)$/);
		if (!m) break;
		if (m[1].trim() === "" && comment.length > 0) break;
		if (m[1].trim() !== "" && !m[1].startsWith("*/")) comment.push(m[1].trim());
	}
	const sentence = comment.join(" ").match(/^(.*?\.)(\s|$)/)?.[1] ?? comment.join(" ");
	return sentence.replace(/\|/g, "\\|") || "TODO: say what it holds.";
}

/** The table with a row for every file, sorted by folder then name. */
export function rewritten(markdown = readFileSync(ARCHITECTURE, "utf8"), present = files()) {
	const { rows, start, end, lines } = tableRows(markdown);
	const onDisk = present;
	const known = new Map(rows.map((r) => [r.path, r.text]));
	const gone = rows.filter((r) => !onDisk.includes(r.path));
	const key = (p) => [dirname(p), basename(p)];
	const sorted = [...onDisk].sort((a, b) => {
		const [da, na] = key(a);
		const [db, nb] = key(b);
		return da === db ? na.localeCompare(nb) : da.localeCompare(db);
	});
	const body = sorted.map((path) => {
		let text = known.get(path);
		if (text === undefined) {
			const moved = gone.filter((r) => basename(r.path) === basename(path));
			const fresh = onDisk.filter((p) => basename(p) === basename(path) && !known.has(p));
			text = moved.length === 1 && fresh.length === 1 ? moved[0].text : firstComment(path);
		}
		return `| \`${path}\` | ${text} |`;
	});
	return [...lines.slice(0, start + 1), ...HEADER, ...body, ...lines.slice(end)].join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
	if (process.argv.includes("--write")) {
		writeFileSync(ARCHITECTURE, rewritten());
		console.log(`rewrote the layout table in ${relative(process.cwd(), ARCHITECTURE)}; read the new rows and say what each file holds`);
	}
	const found = problems();
	for (const line of found) console.log(line);
	if (found.length === 0) console.log("the layout table names every file under src/ and plugin-shim/");
	process.exitCode = found.length === 0 ? 0 : 1;
}
