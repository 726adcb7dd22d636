// Every hygiene report and every listing tool on typical vaults of 1 000 to
// 100 000 notes (scripts/make-vault.mjs --typical), through the built main.js
// and the CLI emulator, in one run: each call's time (median of RUNS; one run at 100 000 notes), the
// emulator alone running the same argv from a shell (the CLI's share: what
// Obsidian answers from its metadata cache), the bytes the answer carries
// (a paged answer stays the same size as the vault grows), the growth of the
// core's wasm memory and the JS heap's peak above where it started, and each
// figure's growth from one size to the next. Prints Markdown for
// BENCHMARKS.md.
//
//   node scripts/bench-listings.mjs [sizes=1000,10000,100000] [runs=3] [--vaults <folder>]
//
// `--vaults` keeps the generated vaults in <folder>/<n>/Bench Vault and reuses
// them on the next run (a 100 000-note vault takes a minute to write).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { emulator, emulatorEnv, loadPlugin, useEmulator } from "../tests/support/harness.mjs";
import { makeTypicalVault } from "./make-vault.mjs";

const positional = process.argv.slice(2).filter((a, i, all) => !a.startsWith("--") && all[i - 1] !== "--vaults");
const sizes = (positional[0] ?? "1000,10000,100000").split(",").map(Number);
const RUNS = Number(positional[1] ?? 3);
const kept = process.argv.includes("--vaults") ? process.argv[process.argv.indexOf("--vaults") + 1] : null;

// Every wasm memory the plugin makes, to read its size (it only grows).
const memories = [];
const instantiate = WebAssembly.instantiate;
WebAssembly.instantiate = async (...args) => {
	const result = await instantiate.apply(WebAssembly, args);
	for (const value of Object.values((result.instance ?? result).exports)) if (value instanceof WebAssembly.Memory) memories.push(value);
	return result;
};
const wasmBytes = () => memories.reduce((sum, m) => sum + m.buffer.byteLength, 0);

const fmtMs = (ms) => (ms == null ? "–" : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms < 10 ? 1 : 0)} ms`);
const fmtBytes = (b) => (b >= 1 << 20 ? `${(b / (1 << 20)).toFixed(1)} MiB` : b >= 1024 ? `${(b / 1024).toFixed(0)} KiB` : `${b} B`);
const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	const m = s.length >> 1;
	return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** The calls measured; `subject` is a note of the vault, `word` a common word, `tag` a tag in use. */
const calls = ({ subject, word, tag }) => [
	["hygiene duplicates", "obsidianHygiene", { command: "duplicates" }],
	["hygiene empty", "obsidianHygiene", { command: "empty" }],
	["hygiene missing", "obsidianHygiene", { command: "missing" }],
	["hygiene suggest (a note)", "obsidianHygiene", { command: "suggest", path: subject }],
	["hygiene suggest (a topic)", "obsidianHygiene", { command: "suggest", topic: `${word} ${tag}` }],
	["notes files", "obsidianNotes", { command: "files" }],
	["notes folders", "obsidianNotes", { command: "folders" }],
	["search search", "obsidianSearch", { command: "search", query: word }],
	["search search:context", "obsidianSearch", { command: "search:context", query: word }],
	["search find", "obsidianSearch", { command: "find", query: `${word} ${tag}` }],
	["tasks tasks all", "obsidianTasks", { command: "tasks", all: true }],
	["properties all counts", "obsidianProperties", { command: "properties", all: true, counts: true }],
	["tags all counts", "obsidianTags", { command: "tags", all: true, counts: true }],
	["tag verbose", "obsidianTags", { command: "tag", name: tag, verbose: true }],
	["links backlinks", "obsidianLinks", { command: "backlinks", path: subject }],
	["links links", "obsidianLinks", { command: "links", path: subject }],
	["links orphans", "obsidianLinks", { command: "orphans" }],
	["links deadends", "obsidianLinks", { command: "deadends" }],
	["links unresolved", "obsidianLinks", { command: "unresolved", counts: true }],
	["templates", "obsidianTemplates", { command: "templates" }],
	["bases", "obsidianBases", { command: "bases" }],
	["bookmarks", "obsidianBookmarks", { command: "bookmarks" }],
];

/** The CLI listing each hygiene report starts from (suggest: the search index, built once). */
const hygieneListing = { duplicates: ["files", "ext=md"], empty: ["files", "ext=md"], missing: ["unresolved", "verbose"] };

/** The emulator alone on `argv`, from a shell: milliseconds. */
function emulatorAlone(vault, argv) {
	const t0 = performance.now();
	const run = spawnSync(emulator, argv, { env: { ...process.env, ...emulatorEnv(vault) }, maxBuffer: 1 << 30 });
	if (run.status !== 0) throw new Error(`${argv.join(" ")}: ${run.stderr}`);
	return performance.now() - t0;
}

const results = [];
for (const n of sizes) {
	const made = !kept;
	const vault = kept ? join(kept, String(n), "Bench Vault") : join(mkdtempSync(join(tmpdir(), "vault-agent-bench-listings-")), "Bench Vault");
	const generated = existsSync(vault) ? null : makeTypicalVault(vault, n);
	try {
		useEmulator(vault);
		// No read cache: each run asks the CLI, as the first call after a change does.
		const { plugin } = await loadPlugin(vault, { data: { cliPath: emulator, vaultName: "Bench Vault", timeoutMs: 120_000, readCacheSeconds: 0 } });
		await plugin.searchIndex.settled();
		const files = (await plugin.core.callTool("obsidianNotes", { command: "files", limit: 1 })).text;
		const subject = generated?.paths[7] ?? files.split("\n")[0];
		const word = subject.split("/")[1].split(" ")[0];
		const tagged = (await plugin.core.callTool("obsidianTags", { command: "tags", all: true, counts: true, sort: "count", limit: 1 })).text;
		const tag = tagged.match(/#([^\s\t]+)/)?.[1] ?? "topic";
		const row = { n, cells: {} };
		// One run at 100 000 notes: a slow call there takes a minute.
		const runs = n >= 100_000 ? 1 : RUNS;
		for (const [name, tool, args] of calls({ subject, word, tag })) {
			const times = [];
			let last;
			let heapPeak = 0;
			const wasmBefore = wasmBytes();
			for (let run = 0; run < runs && !last?.timedOut; run++) {
				globalThis.gc?.();
				const heapStart = process.memoryUsage().heapUsed;
				let peak = heapStart;
				const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 2);
				const t0 = performance.now();
				last = await plugin.core.callTool(tool, args);
				times.push(performance.now() - t0);
				clearInterval(sampler);
				peak = Math.max(peak, process.memoryUsage().heapUsed);
				heapPeak = Math.max(heapPeak, peak - heapStart);
				// A vault without a template folder, bases or bookmarks answers
				// with the CLI's own error; a CLI past the plugin's longest
				// timeout (120 s) is a finding, not the end of the run.
				last.timedOut = /did not finish within/.test(last.text ?? "");
				if (!last.ok && !last.timedOut && !/templates|bases|bookmarks/.test(name)) throw new Error(`${name} at ${n}: ${last.text}`);
			}
			// A hygiene report runs no argv of its own: the listing it starts from.
			const argv = last.argv?.slice(1) ?? hygieneListing[args.command];
			// Not repeated for a call over a minute: the emulator is then nearly all of it.
			const alone = argv && !last.timedOut && median(times) < 60_000 ? median(Array.from({ length: runs }, () => emulatorAlone(vault, argv))) : null;
			row.cells[name] = {
				ms: median(times),
				alone,
				bytes: Buffer.byteLength(last.text),
				wasm: wasmBytes() - wasmBefore,
				heap: heapPeak,
				paged: /offset=|cursor|next page|that is the last page/.test(last.text),
				truncated: last.truncated === true,
				failed: !last.ok && !last.timedOut,
				timedOut: last.timedOut,
			};
			console.error(`${n} ${name}: ${fmtMs(median(times))} (emulator alone ${fmtMs(alone)}), ${Buffer.byteLength(last.text)} B`);
		}
		row.wasmTotal = wasmBytes();
		results.push(row);
		plugin.unload();
	} finally {
		if (made) rmSync(dirname(vault), { recursive: true, force: true });
	}
}

const names = calls({ subject: "", word: "", tag: "" }).map(([name]) => name);
console.log(`| Call | ${results.map((r) => `${r.n.toLocaleString("en")} notes: time (emulator alone) · answer · wasm growth · JS heap peak`).join(" | ")} | ${results.slice(1).map((r, i) => `×${r.n / results[i].n} notes: time ×`).join(" | ")} |`);
console.log(`|---|${results.map(() => "---").join("|")}|${results.slice(1).map(() => "---").join("|")}|`);
for (const name of names) {
	const cells = results.map(({ cells }) => {
		const c = cells[name];
		if (c.timedOut) return "over 120 s: the CLI timed out";
		return `${fmtMs(c.ms)} (${fmtMs(c.alone)}) · ${fmtBytes(c.bytes)}${c.paged ? " paged" : ""}${c.truncated ? " truncated" : ""}${c.failed ? " (CLI error)" : ""} · ${fmtBytes(c.wasm)} · ${fmtBytes(c.heap)}`;
	});
	const growth = results.slice(1).map((r, i) => (r.cells[name].timedOut || results[i].cells[name].timedOut ? "–" : `×${(r.cells[name].ms / results[i].cells[name].ms).toFixed(1)}`));
	console.log(`| ${name} | ${cells.join(" | ")} | ${growth.join(" | ")} |`);
}
console.log(`\nWasm memory at the end: ${results.map((r) => `${r.n.toLocaleString("en")} notes ${fmtBytes(r.wasmTotal)}`).join(", ")}.`);
