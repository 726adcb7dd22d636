// The plugin's start against an empty plugin's, in the same run (see
// BENCHMARKS.md, issue 21 item 8): what Obsidian pays before and in `onload`
// (evaluating main.js, then `onload`), and whether the core's start after
// layout ready blocks the main thread (long tasks, over 50 ms).
//
// Chromium (the engine Obsidian runs on): the page harness evaluates both
// plugins as fresh source in each round (tests/support/browser-entry.mjs,
// `measureStart`). Node: every sample is a fresh process (no module or code
// cache from an earlier load), which compiles and runs one plugin's main.js
// as require does, then its `onload`, in the Obsidian double; samples
// alternate the order. Compiling is given apart: it grows with the size of
// main.js, whatever runs at load.
//
//   node scripts/bench-start.mjs            both engines
//   node scripts/bench-start.mjs chromium   (or node) one of them

import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";
import esbuild from "esbuild";

const self = fileURLToPath(import.meta.url);
const ROUNDS = 20;
const NODE_SAMPLES = 16;

/** An empty plugin, bundled as main.js is (cjs, es2022, minified, `obsidian` external). */
async function emptyPlugin() {
	const built = await esbuild.build({
		stdin: { contents: 'import { Plugin } from "obsidian";\nexport default class EmptyPlugin extends Plugin {\n\tasync onload(): Promise<void> {}\n}\n', loader: "ts", resolveDir: process.cwd() },
		bundle: true,
		external: ["obsidian"],
		format: "cjs",
		target: "es2022",
		minify: true,
		write: false,
		logLevel: "silent",
	});
	return built.outputFiles[0].text;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const max = (xs) => (xs.length ? Math.max(...xs) : 0);

async function chromium(empty) {
	const { startBrowserPlugin } = await import("../tests/support/browser.mjs");
	const { emulator, emulatorEnv } = await import("../tests/support/harness.mjs");
	const session = await startBrowserPlugin({ data: { cliPath: emulator }, env: (vault) => emulatorEnv(vault) });
	try {
		const r = await session.page.evaluate(([times, source]) => window.__harness.measureStart(times, source), [ROUNDS, empty]);
		const e = median(r.empty);
		const p = median(r.plugin);
		console.log(`| Chromium: empty plugin, evaluate + \`onload\`, median of ${ROUNDS} | ${e.toFixed(2)} ms (compile ${median(r.emptyCompile).toFixed(2)} ms) | |`);
		console.log(`| Chromium: Vault Agent, evaluate main.js + \`onload\`, median of ${ROUNDS} | ${p.toFixed(2)} ms (compile ${median(r.pluginCompile).toFixed(2)} ms) | |`);
		console.log(`|   difference | **${(p - e).toFixed(2)} ms** | ≤ 2 ms |`);
		console.log(`|   of which running the top level and \`onload\` | ${(p - median(r.pluginCompile) - (e - median(r.emptyCompile))).toFixed(2)} ms | |`);
		console.log(`| Chromium: the core's start after layout ready, median of ${ROUNDS} | ${median(r.start).toFixed(1)} ms | |`);
		console.log(`|   long tasks (> 50 ms) during evaluate + \`onload\`, longest | ${r.longTasksInLoad.length} in ${ROUNDS}, ${max(r.longTasksInLoad).toFixed(0)} ms | 0 |`);
		console.log(`|   long tasks (> 50 ms) during the core's start, longest | ${r.longTasksInStart.length} in ${ROUNDS}, ${max(r.longTasksInStart).toFixed(0)} ms | 0 |`);
	} finally {
		await session.close();
	}
}

/** One fresh Node process: requires `which` (empty, plugin) in that order, prints the times. */
async function nodeChild(order) {
	const harness = await import("../tests/support/harness.mjs");
	const double = await import("../tests/support/obsidian-ui-double.mjs");
	const vault = harness.copySampleVault();
	try {
		const obsidian = harness.obsidianDouble();
		Object.assign(obsidian.Platform, { isDesktop: true, isDesktopApp: true, isMobile: false, isMobileApp: false, isPhone: false, isLinux: true, isWin: false, isMacOS: false });
		const pluginDir = harness.installPlugin(vault);
		writeFileSync(join(pluginDir, "empty.js"), process.env.VAULT_AGENT_EMPTY_PLUGIN);
		const adapter = obsidian.FileSystemAdapter.create__(vault).asOriginalType__();
		const app = double.createApp(obsidian, { adapter });
		const manifest = { id: "vault-agent", name: "Vault Agent", version: "0", minAppVersion: "1.12.7", description: "", author: "", dir: `${app.vault.configDir}/plugins/vault-agent` };
		const times = {};
		for (const which of order.split(",")) {
			const file = join(pluginDir, which === "empty" ? "empty.js" : "main.js");
			// What require does, in two steps: compile the module's function, then run it and onload.
			const t0 = performance.now();
			const compiled = vm.compileFunction(readFileSync(file, "utf8"), ["exports", "require", "module", "__filename", "__dirname"], { filename: file });
			const t1 = performance.now();
			const module = { exports: {} };
			compiled.call(module.exports, module.exports, createRequire(file), module, file, pluginDir);
			const exported = module.exports;
			const t2 = performance.now();
			const instance = new (exported.default ?? exported)(app, manifest);
			await instance.onload();
			times[which] = performance.now() - t0;
			times[`${which}Compile`] = t1 - t0;
			times[`${which}Onload`] = performance.now() - t2;
			instance.unload();
		}
		console.log(JSON.stringify(times));
	} finally {
		harness.removeVault(vault);
	}
}

function node(empty) {
	const samples = { empty: [], plugin: [], emptyCompile: [], pluginCompile: [], emptyOnload: [], pluginOnload: [] };
	for (let i = 0; i < NODE_SAMPLES; i++) {
		const order = i % 4 === 0 || i % 4 === 3 ? "empty,plugin" : "plugin,empty";
		const out = execFileSync(process.execPath, [self, "node-child", order], { env: { ...process.env, VAULT_AGENT_EMPTY_PLUGIN: empty }, encoding: "utf8" });
		const times = JSON.parse(out.trim().split("\n").at(-1));
		for (const key of Object.keys(samples)) samples[key].push(times[key]);
	}
	const e = median(samples.empty);
	const p = median(samples.plugin);
	console.log(`| Node: empty plugin, compile + run + \`onload\` in a fresh process, median of ${NODE_SAMPLES} | ${e.toFixed(2)} ms (compile ${median(samples.emptyCompile).toFixed(2)} ms) | |`);
	console.log(`| Node: Vault Agent, main.js compile + run + \`onload\` in a fresh process, median of ${NODE_SAMPLES} | ${p.toFixed(2)} ms (compile ${median(samples.pluginCompile).toFixed(2)} ms) | |`);
	console.log(`|   difference | **${(p - e).toFixed(2)} ms** | ≤ 2 ms |`);
	console.log(`|   of which running the top level and \`onload\` | ${(p - median(samples.pluginCompile) - (e - median(samples.emptyCompile))).toFixed(2)} ms | |`);
	console.log(`|   of which \`onload\` (Vault Agent's, the empty one's) | ${median(samples.pluginOnload).toFixed(2)} ms, ${median(samples.emptyOnload).toFixed(2)} ms | |`);
}

const mode = process.argv[2] ?? "all";
if (mode === "node-child") {
	await nodeChild(process.argv[3]);
} else {
	const empty = await emptyPlugin();
	console.log("| Measure | Value | Target |\n|---|---|---|");
	if (mode === "all" || mode === "node") node(empty);
	if (mode === "all" || mode === "chromium") await chromium(empty);
}
