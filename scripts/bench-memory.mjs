// Memory while CLI processes flood their output (see BENCHMARKS.md, "Hardening"):
// 10 calls at once, each CLI printing 200 MB on stdout (or stderr), with the
// default 1 MiB output cap. Every scenario runs in a fresh Node process and
// reports its peak rss and ArrayBuffer memory above what it used just before
// the calls. The baseline is the runner as it was before the hardening
// (execFile with maxBuffer = 16 × the cap), taken from git and run the same way.
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { copySampleVault, emulator, loadPlugin, removeVault, root, useEmulator } from "../tests/support/harness.mjs";
import { loadNodeHost } from "../tests/support/node-host.mjs";

const CALLS = 10;
const FLOOD_BYTES = 200 * 1024 * 1024;
const CAP = 1024 * 1024;
/** The last commit with the old runner (execFile, maxBuffer 16 × cap). */
const OLD_RUNNER_COMMIT = "d586131";
const MiB = 1024 * 1024;

const SCENARIOS = [
	["plugin-stdout", "api.callTool × 10, CLI floods 200 MB on stdout (this runner)"],
	["plugin-stderr", "api.callTool × 10, CLI floods 200 MB on stderr (this runner)"],
	["runner-stdout", "runProcess × 10, 200 MB on stdout (this runner)"],
	["runner-stderr", "runProcess × 10, 200 MB on stderr (this runner)"],
	["old-runner-stdout", `runProcess × 10, 200 MB on stdout (runner of ${OLD_RUNNER_COMMIT}: maxBuffer 16 × cap)`],
	["old-runner-stderr", `runProcess × 10, 200 MB on stderr (runner of ${OLD_RUNNER_COMMIT}: maxBuffer 16 × cap)`],
	["idle", "no calls: the same sampling for 1 s (noise floor)"],
];

/** One scenario, in this process: prints one JSON line. */
async function runScenario(name) {
	const vault = copySampleVault();
	const dir = mkdtempSync(join(tmpdir(), "vault-agent-bench-"));
	try {
		const fault = name.endsWith("stderr") ? "flood-stderr" : "flood";
		let call;
		if (name.startsWith("plugin")) {
			const { plugin } = await loadPlugin(vault, { data: { cliPath: emulator, outputCapBytes: CAP } });
			useEmulator(vault);
			await plugin.api.callTool("obsidianDailyNote", { command: "daily:path" });
			call = () => plugin.api.callTool("obsidianDailyNote", { command: "daily:read" });
		} else if (name !== "idle") {
			let source;
			if (name.startsWith("old")) {
				source = join(dir, "node-host.ts");
				writeFileSync(source, execFileSync("git", ["show", `${OLD_RUNNER_COMMIT}:plugin-shim/node-host.ts`], { cwd: root }));
			}
			const host = await loadNodeHost(source);
			useEmulator(vault);
			const request = { program: emulator, args: ["daily:read"], cwd: vault, timeoutMs: 60_000, killGraceMs: 500, maxOutputBytes: CAP };
			await host.runProcess(request);
			call = () => host.runProcess(request);
		}
		useEmulator(vault, { OBSIDIAN_EMULATOR_FAULT: fault, OBSIDIAN_EMULATOR_FLOOD_BYTES: String(FLOOD_BYTES) });
		globalThis.gc?.();
		await new Promise((r) => setTimeout(r, 100));
		const base = process.memoryUsage();
		let peakRss = base.rss;
		let peakBuffers = base.arrayBuffers;
		const sample = () => {
			const now = process.memoryUsage();
			peakRss = Math.max(peakRss, now.rss);
			peakBuffers = Math.max(peakBuffers, now.arrayBuffers);
		};
		const sampler = setInterval(sample, 5);
		const started = performance.now();
		let results = [];
		if (call) results = await Promise.all(Array.from({ length: CALLS }, call));
		else await new Promise((r) => setTimeout(r, 1000));
		const ms = performance.now() - started;
		sample();
		clearInterval(sampler);
		const summary = results.map((r) => (r.ok !== undefined ? (r.ok ? "ok" : r.error?.code) : r.outputOverflow ? "overflow" : `exit ${r.exitCode}`));
		console.log(JSON.stringify({ name, rssMiB: (peakRss - base.rss) / MiB, buffersMiB: (peakBuffers - base.arrayBuffers) / MiB, baseRssMiB: base.rss / MiB, ms, summary }));
	} finally {
		removeVault(vault);
		rmSync(dir, { recursive: true, force: true });
	}
}

function runChild(name) {
	return new Promise((resolve, reject) => {
		execFile(process.execPath, ["--expose-gc", fileURLToPath(import.meta.url), name], { cwd: root, maxBuffer: 1024 * 1024 }, (error, stdout, stderr) => {
			if (error) reject(new Error(`${name}: ${error.message}\n${stderr}`));
			else resolve(JSON.parse(stdout.trim().split("\n").at(-1)));
		});
	});
}

if (process.argv[2]) {
	await runScenario(process.argv[2]);
	// A process left behind would keep the pipes, and this scenario, alive.
	process.exit(0);
} else {
	const results = new Map();
	for (const [name] of SCENARIOS) results.set(name, await runChild(name));
	const fmt = (x) => `${x.toFixed(1)} MiB`;
	console.log(`Memory above the level just before the calls, peak (${CALLS} calls at once, ${FLOOD_BYTES / MiB} MB each, cap ${CAP / MiB} MiB):\n`);
	console.log("| Scenario | Peak extra rss | Peak extra ArrayBuffers | Time | Results |\n|---|---|---|---|---|");
	for (const [name, label] of SCENARIOS) {
		const r = results.get(name);
		const outcomes = [...new Set(r.summary)].map((s) => `${r.summary.filter((x) => x === s).length}× ${s}`).join(", ") || "none";
		console.log(`| ${label} | ${fmt(r.rssMiB)} | ${fmt(r.buffersMiB)} | ${r.ms.toFixed(0)} ms | ${outcomes} |`);
	}
	for (const stream of ["stdout", "stderr"]) {
		const now = results.get(`runner-${stream}`);
		const old = results.get(`old-runner-${stream}`);
		console.log(`\nRatio old / this runner, ${stream}: rss ${(old.rssMiB / Math.max(now.rssMiB, 0.1)).toFixed(1)}×, ArrayBuffers ${(old.buffersMiB / Math.max(now.buffersMiB, 0.1)).toFixed(1)}×`);
	}
	const worst = Math.max(...["plugin-stdout", "plugin-stderr"].map((n) => results.get(n).rssMiB));
	console.log(`Plugin, worst extra rss: ${fmt(worst)} (target < 200 MB)`);
}
