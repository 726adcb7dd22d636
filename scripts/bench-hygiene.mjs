// The hygiene checks on generated vaults of 1 000 to 10 000 notes
// (scripts/make-vault.mjs), through the built main.js and the CLI emulator,
// note text through the vault double's cachedRead (files on disk). Each time
// is a median of RUNS, and is also given as a ratio to a baseline measured in
// the same run on the same vault: obsidianNotes `files` (one CLI listing of
// every file, through the plugin), which every check but `missing` starts with.
// Prints a Markdown table for BENCHMARKS.md.
//
//   node scripts/bench-hygiene.mjs [sizes=1000,2500,5000,10000] [runs=3]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { emulator, loadPlugin, useEmulator } from "../tests/support/harness.mjs";
import { makeVault } from "./make-vault.mjs";

const sizes = (process.argv[2] ?? "1000,2500,5000,10000").split(",").map(Number);
const RUNS = Number(process.argv[3] ?? 3);
const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	const m = s.length >> 1;
	return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const checks = [
	["duplicates", { command: "duplicates" }],
	["empty", { command: "empty" }],
	["missing", { command: "missing" }],
	["suggest (a note)", { command: "suggest", path: "Projects/Solar panel maintenance.md" }],
	["suggest (a topic)", { command: "suggest", topic: "garden irrigation" }],
];

const rows = [];
for (const n of sizes) {
	const vault = join(mkdtempSync(join(tmpdir(), "vault-agent-bench-hygiene-")), "Bench Vault");
	try {
		makeVault(vault, n);
		useEmulator(vault);
		const { plugin } = await loadPlugin(vault, { data: { cliPath: emulator, vaultName: "Bench Vault", timeoutMs: 120_000 } });
		const time = async (tool, args) => {
			const t0 = performance.now();
			const result = await plugin.core.callTool(tool, args);
			if (!result.ok) throw new Error(`${tool} ${JSON.stringify(args)}: ${result.text}`);
			return { ms: performance.now() - t0, result };
		};
		await time("obsidianNotes", { command: "files" }); // warm the file cache
		const baseline = [];
		const measured = Object.fromEntries(checks.map(([name]) => [name, []]));
		const truncated = {};
		for (let run = 0; run < RUNS; run++) {
			baseline.push((await time("obsidianNotes", { command: "files" })).ms);
			for (const [name, args] of checks) {
				const { ms, result } = await time("obsidianHygiene", args);
				measured[name].push(ms);
				truncated[name] = result.truncated === true;
			}
		}
		const base = median(baseline);
		rows.push({ n, base, times: Object.fromEntries(checks.map(([name]) => [name, median(measured[name])])), truncated });
		plugin.unload();
	} finally {
		rmSync(dirname(vault), { recursive: true, force: true });
	}
}

const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
console.log(`| Notes | baseline: \`files\` | ${checks.map(([name]) => name).join(" | ")} |`);
console.log(`|---|---|${checks.map(() => "---").join("|")}|`);
for (const { n, base, times, truncated } of rows) {
	const cells = checks.map(([name]) => `${fmt(times[name])} (${(times[name] / base).toFixed(1)}×)${truncated[name] ? " truncated" : ""}`);
	console.log(`| ${n.toLocaleString("en")} | ${fmt(base)} | ${cells.join(" | ")} |`);
}
const first = rows[0];
const last = rows[rows.length - 1];
if (first && last && first !== last) {
	const growth = checks.map(([name]) => `${name} ×${(last.times[name] / first.times[name]).toFixed(1)}`);
	console.log(`\nFrom ${first.n} to ${last.n} notes (×${(last.n / first.n).toFixed(0)}): baseline ×${(last.base / first.base).toFixed(1)}; ${growth.join(", ")}.`);
}
