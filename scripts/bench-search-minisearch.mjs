// Our ranked search beside MiniSearch configured as Omnisearch configures it
// (not part of the test command; MiniSearch is a dev dependency, never in
// main.js). Same vaults, same questions, one run: recall@5 and MRR@10 per
// question set, then build time, heap and query p50/p95 on generated vaults
// of typical notes.
//
//   node --expose-gc scripts/bench-search-minisearch.mjs [--help-vault <en folder>]
//       [--vault <folder> --questions <file> [--name <label>]] [--sizes 10000,100000]
//
// Sets: the multilingual case vault (scripts/eval-search/multilingual-vault,
// written for this repository), the generated vault with planted answers
// (scripts/eval-search/make-search-vault.mjs, 2 000 notes) and, when given,
// Obsidian's help vault (its `en/` folder; see scripts/eval-search.mjs for
// how to get it; its text is never copied into this repository).
//
// Ours runs natively (examples/search_eval.rs: the same src/search/ the
// plugin's wasm runs), one process per vault. MiniSearch runs here with
// Omnisearch's settings as of its source (src/search/search-engine.ts,
// tokenizer.ts, settings defaults), re-stated, not copied: fields basename,
// directory, aliases, content, headings 1-3; boosts basename 10, directory
// 7, aliases 10, H1 6, H2 5, H3 4; terms lower-cased with diacritics removed
// (ignoreDiacritics on); text split at spaces and punctuation, no stemming;
// prefix search for every term; fuzziness "1" (none up to 3 letters, 0.05 up
// to 5, 0.1 beyond); the query's words combined with AND, OR'd with the
// same words split at brackets and spaces. Left out: its optional Chinese
// segmenter (another plugin), PDFs and images, and its Han bigrams field
// of recent versions.

import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import MiniSearch from "minisearch";
import { makeTypicalVault, vocabulary } from "./make-vault.mjs";
import { makeSearchVault } from "./eval-search/make-search-vault.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const option = (name) => {
	const i = args.indexOf(name);
	return i >= 0 ? args[i + 1] : undefined;
};

console.log("bench-search-minisearch: building the native search (release)");
execFileSync("cargo", ["build", "--release", "-q", "-p", "vault-agent", "--example", "search_eval"], { cwd: root, stdio: "inherit" });
const ranker = join(root, "target/release/examples/search_eval");

/** Every note of a folder as Obsidian lists them: `.md`, outside hidden folders. */
function readVault(folder) {
	const notes = [];
	const walk = (dir) => {
		for (const name of readdirSync(dir).sort()) {
			if (name.startsWith(".")) continue;
			const full = join(dir, name);
			if (statSync(full).isDirectory()) walk(full);
			else if (name.endsWith(".md")) notes.push({ path: relative(folder, full), text: readFileSync(full, "utf8") });
		}
	};
	walk(folder);
	return notes;
}

const SPACE_OR_PUNCTUATION = /[\s\p{P}\p{S}\p{Z}]+/u;
const BRACKETS_AND_SPACE = /[|[\](){}<>\s]+/u;
const fold = (term) => term.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/** A note as Omnisearch hands it to MiniSearch. */
function omnisearchDocument({ path, text }) {
	const headings = [[], [], []];
	for (const line of text.split("\n")) {
		const m = /^(#{1,3})\s+(.*)$/.exec(line);
		if (m) headings[m[1].length - 1].push(m[2]);
	}
	const aliases = /^aliases:\s*(.*)$/m.exec(text)?.[1] ?? "";
	return {
		path,
		basename: path.split("/").pop().replace(/\.md$/, ""),
		aliases,
		content: text,
		headings1: headings[0].join(" "),
		headings2: headings[1].join(" "),
		headings3: headings[2].join(" "),
	};
}

function miniSearchOf(notes) {
	const tokenize = (text) => [...new Set([...text.split(SPACE_OR_PUNCTUATION), ...text.split(BRACKETS_AND_SPACE)])].filter(Boolean);
	const index = new MiniSearch({
		idField: "path",
		fields: ["basename", "directory", "aliases", "content", "headings1", "headings2", "headings3"],
		extractField: (doc, field) => (field === "directory" ? doc.path.split("/").slice(0, -1).join("/") : doc[field]),
		tokenize,
		processTerm: (term) => fold(term),
	});
	index.addAll(notes.map(omnisearchDocument));
	return index;
}

/** `all`: every word must be in the note, as Omnisearch asks; else any word (kinder to long questions). */
function miniSearchQuery(index, q, all = true) {
	const combineWith = all ? "AND" : "OR";
	const fuzziness = 0.1;
	const tokens = q.split(SPACE_OR_PUNCTUATION).filter(Boolean);
	const words = q.split(BRACKETS_AND_SPACE).filter(Boolean);
	return index
		.search(
			{ combineWith: "OR", queries: [{ combineWith, queries: tokens }, { combineWith, queries: words }] },
			{
				prefix: (term) => term.length >= 1,
				fuzzy: (term) => (term.length <= 3 ? 0 : term.length <= 5 ? fuzziness / 2 : fuzziness),
				boost: { basename: 10, directory: 7, aliases: 10, headings1: 6, headings2: 5, headings3: 4 },
				tokenize: (text) => [text],
			},
		)
		.slice(0, 10)
		.map((r) => r.id);
}

const heap = () => {
	globalThis.gc?.();
	return process.memoryUsage().heapUsed;
};
const pct = (xs, p) => {
	const s = [...xs].sort((a, b) => a - b);
	return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/** MiniSearch over `notes`: its rankings of `questions` with times, its build time and heap. */
function runMiniSearch(notes, questions, all = true) {
	const before = heap();
	const started = performance.now();
	const index = miniSearchOf(notes);
	const buildMs = performance.now() - started;
	const bytes = heap() - before;
	const answers = questions.map((q) => {
		const t = performance.now();
		const hits = miniSearchQuery(index, q.q, all);
		return { hits, ms: performance.now() - t };
	});
	return { answers, buildMs, bytes };
}

/** Ours (natively) over `folder`: the same. */
async function runOurs(folder, questions) {
	const dir = mkdtempSync(join(tmpdir(), "bench-q-"));
	const file = join(dir, "questions.json");
	const { writeFileSync } = await import("node:fs");
	writeFileSync(file, JSON.stringify(questions.map((q) => ({ q: q.q }))));
	const { stdout, stderr } = await promisify(execFile)(ranker, [folder, "--questions", file], { maxBuffer: 1 << 28 });
	rmSync(dir, { recursive: true, force: true });
	const build = JSON.parse(stderr.split("\n").find((l) => l.startsWith("{\"build_ms\"")));
	const answers = stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l));
	return { answers, buildMs: build.build_ms, bytes: build.heap_bytes };
}

function quality(questions, answers) {
	let r5 = 0;
	let mrr = 0;
	questions.forEach((q, i) => {
		const rank = answers[i].hits.findIndex((h) => q.expect.includes(h));
		if (rank >= 0 && rank < 5) r5++;
		if (rank >= 0 && rank < 10) mrr += 1 / (rank + 1);
	});
	return { r5: r5 / questions.length, mrr: mrr / questions.length };
}

const rows = [];
async function compareSet(name, folder, questions) {
	const notes = readVault(folder);
	const ours = await runOurs(folder, questions);
	const mini = runMiniSearch(notes, questions);
	const anyWord = runMiniSearch(notes, questions, false);
	const engines = [
		["ours", ours],
		["MiniSearch (Omnisearch's settings)", mini],
		["MiniSearch, any word (OR)", anyWord],
	];
	for (const [engine, run] of engines) {
		const { r5, mrr } = quality(questions, run.answers);
		const ms = run.answers.map((a) => a.ms);
		rows.push([name, engine, `${notes.length}`, `${questions.length}`, `${(r5 * 100).toFixed(1)} %`, mrr.toFixed(3), pct(ms, 95).toFixed(2)]);
	}
}

const work = mkdtempSync(join(tmpdir(), "bench-search-"));
try {
	await compareSet(
		"Multilingual case vault",
		join(root, "scripts/eval-search/multilingual-vault"),
		JSON.parse(readFileSync(join(root, "scripts/eval-search/multilingual-questions.json"), "utf8")),
	);
	const generated = join(work, "generated");
	const planted = makeSearchVault(generated, 2000);
	await compareSet("Generated, planted answers", join(generated, "vault"), planted);
	if (option("--help-vault")) {
		await compareSet("Obsidian's help vault (en)", option("--help-vault"), JSON.parse(readFileSync(join(root, "scripts/eval-search/help-questions.json"), "utf8")));
	}
	if (option("--vault")) {
		await compareSet(option("--name") ?? option("--vault"), option("--vault"), JSON.parse(readFileSync(option("--questions"), "utf8")));
	}
	console.log("\n| Set | Engine | Notes | Questions | recall@5 | MRR@10 | query p95 ms |\n|---|---|---|---|---|---|---|");
	for (const r of rows) console.log(`| ${r.join(" | ")} |`);

	// Scale: typical notes, queries of two or three words of the vocabulary.
	const sizes = (option("--sizes") ?? "10000").split(",").map(Number);
	const words = vocabulary();
	const queries = Array.from({ length: 200 }, (_, i) => ({ q: [words[(i * 7) % 400], words[(i * 13 + 5) % 3000], i % 2 ? words[(i * 31) % 6000] : ""].join(" ").trim(), expect: [] }));
	console.log("\n| Notes | Engine | Build s | Heap MB | Query p50 ms | Query p95 ms |\n|---|---|---|---|---|---|");
	for (const n of sizes) {
		const folder = join(work, `typical-${n}`);
		makeTypicalVault(folder, n);
		const ours = await runOurs(folder, queries);
		const mini = runMiniSearch(readVault(folder), queries);
		for (const [engine, run] of [["ours", ours], ["MiniSearch", mini]]) {
			const ms = run.answers.map((a) => a.ms);
			console.log(`| ${n} | ${engine} | ${(run.buildMs / 1e3).toFixed(2)} | ${(run.bytes / 1e6).toFixed(1)} | ${pct(ms, 50).toFixed(2)} | ${pct(ms, 95).toFixed(2)} |`);
		}
		rmSync(folder, { recursive: true, force: true });
	}
} finally {
	rmSync(work, { recursive: true, force: true });
}
