// The ranked search's index in Chromium from the built main.js (BENCHMARKS.md,
// "Ranked search in Chromium"): over generated vaults of notes of a typical
// length (scripts/make-vault.mjs --typical, about 2.5 KB each), the index
// build with the frames longer than 50 ms while it runs, the memory it holds,
// the re-index of one modified note and the query time; each beside a
// baseline measured in the same page: reading the same notes through the same
// host call (app.vault.cachedRead, in the same batches). Not part of the test
// command (timings are not asserted anywhere).
//
//   node scripts/bench-search-browser.mjs [notes=1000,10000] [--bridge]
//
// By default every note's text is handed to the page first and cachedRead
// answers from it, as Obsidian's cache does for a note it holds: the build's
// time over the baseline's is then the core's own. With --bridge cachedRead
// reaches the vault on disk through the page's bridge to Node (one round
// trip a note, far slower than Obsidian's read); the baseline pays exactly
// the same.
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { makeTypicalVault } from "./make-vault.mjs";
import { startBrowserPlugin } from "../tests/support/browser.mjs";
import { emulator, emulatorEnv } from "../tests/support/harness.mjs";

const positional = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const sizes = (positional[0] ?? "1000,10000").split(",").map(Number);
const bridge = process.argv.includes("--bridge");
const EDITS = 50;
const QUERIES = 200;

/** Runs in the page before anything else: keeps every wasm memory, to read its size. */
function watchWasmMemory() {
	window.__wasmMemories = [];
	const keep = (instance) => {
		for (const value of Object.values(instance.exports)) if (value instanceof WebAssembly.Memory) window.__wasmMemories.push(value);
		return instance;
	};
	const instantiate = WebAssembly.instantiate;
	WebAssembly.instantiate = async (...args) => {
		const result = await instantiate.apply(WebAssembly, args);
		keep(result.instance ?? result);
		return result;
	};
	const streaming = WebAssembly.instantiateStreaming;
	if (streaming) {
		WebAssembly.instantiateStreaming = async (...args) => {
			const result = await streaming.apply(WebAssembly, args);
			keep(result.instance);
			return result;
		};
	}
	const Instance = WebAssembly.Instance;
	WebAssembly.Instance = function (...args) {
		return keep(new Instance(...args));
	};
	WebAssembly.Instance.prototype = Instance.prototype;
}

const pct = (xs, p) => {
	const sorted = [...xs].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.round((sorted.length - 1) * p))];
};
const ms = (x) => `${x.toFixed(x < 10 ? 2 : 0)} ms`;
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const rows = [];
for (const notes of sizes) {
	const load = loadavg()[0];
	const session = await startBrowserPlugin({
		data: { cliPath: emulator },
		env: (vault) => emulatorEnv(vault),
		args: ["--js-flags=--expose-gc", "--enable-precise-memory-info"],
		init: watchWasmMemory,
	});
	try {
		const { page } = session;
		// The first build (the sample vault) at layout ready, then the notes.
		await page.waitForFunction(() => window.__harness.plugin?.core?.searchStatus().phase === "ready", null, { timeout: 120_000 });
		const { paths, words } = makeTypicalVault(session.vault, notes);
		// Any process the page starts makes the double's vault look at the folder again.
		await page.evaluate(() => new Promise((resolve) => window.require("child_process").execFile("/bin/true", [], () => resolve())));
		if (!bridge) {
			// Every note's text in the page, kept current by writes, as Obsidian's cache holds it.
			const texts = Object.fromEntries(paths.map((p) => [p, readFileSync(join(session.vault, p), "utf8")]));
			await page.evaluate((texts) => {
				const { app } = window.__harness;
				const held = new Map(Object.entries(texts));
				const read = app.vault.cachedRead;
				app.vault.cachedRead = (file) => (held.has(file.path) ? Promise.resolve(held.get(file.path)) : read.call(app.vault, file));
				const write = window.__vaultAgentVaultWrite;
				window.__vaultAgentVaultWrite = async (path, text) => {
					held.set(path, text);
					return write(path, text);
				};
			}, texts);
		}
		const result = await page.evaluate(
			async ({ paths, words, edits, queries }) => {
				const { app, plugin } = window.__harness;
				const core = plugin.core;
				const pause = () => new Promise((resolve) => setTimeout(resolve, 0));
				const memory = () => {
					window.gc?.();
					return {
						heap: performance.memory.usedJSHeapSize,
						wasm: window.__wasmMemories.reduce((sum, m) => sum + m.buffer.byteLength, 0),
					};
				};
				/** Frames (requestAnimationFrame gaps) and long tasks while `work` runs. */
				const watched = async (work) => {
					const frames = [];
					const long = [];
					let running = true;
					const start = performance.now();
					let last = start;
					// When each long frame began, from the start of the work.
					const at = [];
					const tick = (now) => {
						frames.push(now - last);
						if (now - last > 50) at.push(Math.round(last - start));
						last = now;
						if (running) requestAnimationFrame(tick);
					};
					requestAnimationFrame(tick);
					// Only tasks that began within the work: the forced GC just before it is reported late.
					const observer = new PerformanceObserver((list) => long.push(...list.getEntries().filter((e) => e.startTime >= start).map((e) => ({ duration: e.duration, at: Math.round(e.startTime - start) }))));
					observer.observe({ type: "longtask", buffered: false });
					const value = await work();
					const elapsed = performance.now() - start;
					running = false;
					await new Promise((resolve) => requestAnimationFrame(resolve));
					observer.disconnect();
					return { value, elapsed, frames: frames.slice(1), long, at };
				};
				const files = paths.map((p) => app.vault.getAbstractFileByPath(p));
				// The baseline: every note through cachedRead, 200 a batch, a macrotask between batches.
				const readAll = () =>
					watched(async () => {
						let bytes = 0;
						for (let i = 0; i < files.length; i += 200) {
							const texts = await Promise.all(files.slice(i, i + 200).map((f) => app.vault.cachedRead(f)));
							for (const t of texts) bytes += t.length;
							await pause();
						}
						return bytes;
					});
				const baseline = await readAll();
				const before = memory();
				const build = await watched(() => core.searchBuild(() => {}));
				const after = memory();
				// One modified note, re-indexed through its event; the baseline reads it alone.
				const reindex = [];
				const reread = [];
				for (let k = 0; k < edits; k++) {
					const path = paths[(k * 97) % paths.length];
					const text = `${await app.vault.cachedRead(files[(k * 97) % paths.length])}\nEdited ${k}: ${words[k]} ${words[k + 7]}.\n`;
					await window.__vaultAgentVaultWrite(path, text);
					let t = performance.now();
					await app.vault.cachedRead(files[(k * 97) % paths.length]);
					reread.push(performance.now() - t);
					t = performance.now();
					await core.searchEvent({ kind: "modify", path });
					reindex.push(performance.now() - t);
				}
				// Queries of two or three words: rarer and commoner ones (the vocabulary is by rank).
				let seed = 5;
				const rand = (n) => {
					seed = (seed * 1103515245 + 12345) % 2147483648;
					return seed % n;
				};
				const find = [];
				const readHits = [];
				const hits = [];
				for (let q = 0; q < queries; q++) {
					const query = Array.from({ length: 2 + (q % 2) }, () => words[rand(q % 3 === 0 ? 50 : 3000)]).join(" ");
					let t = performance.now();
					const answer = await core.callTool("obsidianSearch", { command: "find", query, limit: 10 });
					find.push(performance.now() - t);
					const found = [...answer.text.matchAll(/^\d+\. (.+?\.md) /gm)].map((m) => m[1]);
					hits.push(found.length);
					t = performance.now();
					await Promise.all(found.map((p) => app.vault.cachedRead(app.vault.getAbstractFileByPath(p))));
					readHits.push(performance.now() - t);
				}
				const status = core.searchStatus();
				const summary = (w) => ({ elapsed: w.elapsed, over50: w.frames.filter((f) => f > 50).length, longest: Math.max(0, ...w.frames), frames: w.frames.length, long50: w.long.filter((t) => t.duration > 50).length, at: w.at, longAt: w.long.filter((t) => t.duration > 50).map((t) => `${t.at} ms (${Math.round(t.duration)} ms long)`) });
				return { baseline: { ...summary(baseline), bytes: baseline.value }, build: summary(build), status, before, after, reindex, reread, find, readHits, hits };
			},
			{ paths, words, edits: EDITS, queries: QUERIES },
		);
		rows.push({ notes, load, ...result });
		if (process.env.BENCH_FRAMES) {
			console.log(notes, "long frames began at (ms into the build):", result.build.at.join(", "), "| reading:", result.baseline.at.join(", "));
			console.log(notes, "long tasks began at (ms into the build):", result.build.longAt.join(", "), "| reading:", result.baseline.longAt.join(", "));
		}
		if (session.errors.length) console.error(session.errors.join("\n"));
	} finally {
		await session.close();
	}
}

console.log(`Chromium, built main.js, notes read ${bridge ? "through the bridge to Node" : "from the page (as Obsidian's cache)"}; load average at each start: ${rows.map((r) => `${r.notes}: ${r.load.toFixed(2)}`).join(", ")}\n`);
console.log("| Notes | Index build | Reading every note (baseline) | Build / read | Frames > 50 ms in the build (rAF; long tasks) / in the reading | Longest frame | Wasm memory growth | JS heap growth | Re-index one note p50 / p95 | Reading it (baseline) p50 / p95 | `find` p50 / p95 | Reading its hits (baseline) p50 / p95 |");
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
for (const r of rows) {
	console.log(
		`| ${r.notes} (${mb(r.baseline.bytes)} of text; ${r.status.notes} indexed) | ${ms(r.build.elapsed)} | ${ms(r.baseline.elapsed)} | ${(r.build.elapsed / r.baseline.elapsed).toFixed(2)}× | ${r.build.over50} of ${r.build.frames} (${r.build.long50}) / ${r.baseline.over50} of ${r.baseline.frames} (${r.baseline.long50}) | ${ms(r.build.longest)} / ${ms(r.baseline.longest)} | ${mb(r.after.wasm - r.before.wasm)} (${mb(r.after.wasm)} in all) | ${mb(r.after.heap - r.before.heap)} | ${ms(pct(r.reindex, 0.5))} / ${ms(pct(r.reindex, 0.95))} | ${ms(pct(r.reread, 0.5))} / ${ms(pct(r.reread, 0.95))} | ${ms(pct(r.find, 0.5))} / ${ms(pct(r.find, 0.95))} (${pct(r.hits, 0.5)} hits) | ${ms(pct(r.readHits, 0.5))} / ${ms(pct(r.readHits, 0.95))} |`,
	);
}
