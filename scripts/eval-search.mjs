// The ranked search's evaluation (not part of the test command): recall@5,
// recall@10 and MRR on two question sets, for the CLI's `search` with the
// question as the query (the baseline, through the CLI emulator's binary
// over the same folder) and for the ranked search without embeddings
// (natively: examples/search_eval.rs over the same files); the hygiene
// report's topic ranking is shown beside them.
//
//   node scripts/eval-search.mjs [--help-vault <folder>] [--notes 2000]
//
// (a) A generated vault with planted answers (scripts/eval-search/
//     make-search-vault.mjs): questions never use the answer's title words.
// (b) Obsidian's help vault, which nobody here wrote: <folder> is its `en/`
//     folder (the obsidianmd/obsidian-help repository; e.g. `git archive
//     HEAD -- ':(glob)en/**/*.md' | tar -x`). Its text is copied into a
//     temporary folder, never into this repository. The questions are in
//     scripts/eval-search/help-questions.json, written by hand.
//     Without --help-vault only (a) runs.
//
// Prints a table per set and every question the ranked search missed in
// its top 5, with what it ranked instead.

import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { makeSearchVault } from "./eval-search/make-search-vault.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const option = (name) => {
	const i = args.indexOf(name);
	return i >= 0 ? args[i + 1] : undefined;
};

console.log("eval-search: building the CLI emulator and the native search (release)");
execFileSync("cargo", ["build", "--release", "-q", "-p", "obsidian-cli-emulator"], { cwd: root, stdio: "inherit" });
execFileSync("cargo", ["build", "--release", "-q", "-p", "vault-agent", "--example", "search_eval"], { cwd: root, stdio: "inherit" });
const emulator = join(root, "target/release/obsidian");
const ranker = join(root, "target/release/examples/search_eval");

/** The CLI's `search` as an agent would call it: the question as the query. */
function baseline(vault, q) {
	const out = execFileSync(emulator, ["search", `query=${q}`], {
		env: { ...process.env, OBSIDIAN_EMULATOR_VAULT: vault },
		cwd: vault,
		encoding: "utf8",
	});
	if (out.includes("No matches found.")) return [];
	return out.split("\n").filter(Boolean).slice(0, 10);
}

function ranked(vault, questionsFile, ...extra) {
	const out = execFileSync(ranker, [vault, "--questions", questionsFile, ...extra], { encoding: "utf8", maxBuffer: 64 << 20 });
	return out.split("\n").filter(Boolean).map((line) => JSON.parse(line).hits);
}

function metrics(questions, results) {
	let r5 = 0, r10 = 0, mrr = 0;
	const ranks = questions.map((question, i) => {
		const at = results[i].findIndex((path) => question.expect.includes(path));
		const rank = at < 0 ? null : at + 1;
		if (rank && rank <= 5) r5++;
		if (rank && rank <= 10) r10++;
		if (rank) mrr += 1 / rank;
		return rank;
	});
	const n = questions.length;
	return { r5: r5 / n, r10: r10 / n, mrr: mrr / n, ranks };
}

// Words a question shares with an expected note's title (crudely stemmed: a
// shared first five letters), to report the questions in other words.
const STOP = new Set("the and for are but not you all can how what why when where which who with this that from into does did have has was were our your about some any other its one".split(" "));
function sharesTitleWords(question) {
	const words = (s) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 3 && !STOP.has(w)).map((w) => w.slice(0, 5));
	const asked = new Set(words(question.q));
	return question.expect.some((path) => words(basename(path, ".md")).some((w) => asked.has(w)));
}

function report(name, vault, questions, questionsFile) {
	const base = metrics(questions, questions.map((q) => baseline(vault, q.q)));
	const hygiene = metrics(questions, ranked(vault, questionsFile, "--hygiene"));
	const ours = metrics(questions, ranked(vault, questionsFile));
	const otherWords = questions.map((q, i) => [q, i]).filter(([q]) => !sharesTitleWords(q));
	const subset = (m) => otherWords.filter(([, i]) => m.ranks[i] && m.ranks[i] <= 5).length / Math.max(1, otherWords.length);
	const pct = (x) => `${(100 * x).toFixed(1)} %`;
	console.log(`\n## ${name}: ${questions.length} questions (${otherWords.length} share no word with the answer's title)\n`);
	console.log("| | recall@5 | recall@10 | MRR | recall@5, questions in other words |");
	console.log("|---|---|---|---|---|");
	console.log(`| CLI \`search\`, the question as the query | ${pct(base.r5)} | ${pct(base.r10)} | ${base.mrr.toFixed(3)} | ${pct(subset(base))} |`);
	console.log(`| hygiene \`suggest topic=\` (its rare shared words), for comparison | ${pct(hygiene.r5)} | ${pct(hygiene.r10)} | ${hygiene.mrr.toFixed(3)} | ${pct(subset(hygiene))} |`);
	console.log(`| ranked search, no embeddings | ${pct(ours.r5)} | ${pct(ours.r10)} | ${ours.mrr.toFixed(3)} | ${pct(subset(ours))} |`);
	console.log(`\nRatio of recall@5, ranked / CLI: ${base.r5 > 0 ? (ours.r5 / base.r5).toFixed(1) : "∞"}×`);
	const results = ranked(vault, questionsFile);
	const misses = questions.map((q, i) => [q, ours.ranks[i], results[i]]).filter(([, rank]) => !rank || rank > 5);
	if (misses.length) console.log("\nMissed in the top 5 (rank of the first right note; what came first):");
	for (const [q, rank, hits] of misses) {
		console.log(`- "${q.q}" → ${rank ? `rank ${rank}` : "not in the top 10"}; expected ${q.expect.join(" or ")}; got ${hits.slice(0, 3).join(", ")}`);
	}
}

const work = mkdtempSync(join(tmpdir(), "eval-search-"));
try {
	const generated = join(work, "generated");
	const questions = makeSearchVault(generated, Number(option("--notes") ?? 2000));
	report(`Generated vault (${option("--notes") ?? 2000} notes, planted answers)`, join(generated, "vault"), questions, join(generated, "questions.json"));
	const help = option("--help-vault");
	if (help) {
		const vault = join(work, "help");
		mkdirSync(join(vault, ".obsidian"), { recursive: true });
		cpSync(help, vault, { recursive: true, filter: (src) => !basename(src).startsWith(".") || src === help });
		const file = join(root, "scripts/eval-search/help-questions.json");
		const helpQuestions = JSON.parse(readFileSync(file, "utf8"));
		writeFileSync(join(work, "help-questions.json"), JSON.stringify(helpQuestions));
		report("Obsidian's help vault (en/)", vault, helpQuestions, file);
	} else {
		console.log("\n(no --help-vault: the real vault's set was skipped)");
	}
} finally {
	rmSync(work, { recursive: true, force: true });
}
