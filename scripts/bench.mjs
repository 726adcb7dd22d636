// Benchmarks, reported as medians within one process (this machine is noisy,
// so the call overhead is a ratio against a raw execFile of the same argv run
// interleaved in the same loop). Prints a Markdown table for BENCHMARKS.md.
import { execFile, spawn } from "node:child_process";
import { statSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { promisify } from "node:util";
import { copySampleVault, emulator, installPlugin, loadPlugin, removeVault, root, useEmulator } from "../tests/support/harness.mjs";

const run = promisify(execFile);
const CALLS = 300;
const require = createRequire(import.meta.url);
const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	const m = s.length >> 1;
	return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const vault = copySampleVault();
try {
	useEmulator(vault);
	// Warm everything once (DOM double, mocks, file cache).
	const first = await loadPlugin(vault, { data: { cliPath: emulator } });
	const { app, obsidian } = first;
	const pluginDir = installPlugin(vault);
	const mainPath = join(pluginDir, "main.js");
	const manifest = first.plugin.manifest;
	// One instance at a time, as in Obsidian (its CLI commands are global).
	first.plugin.unload();

	// 1. Plugin load: require(main.js) + wasm init + registry (onload).
	const loads = [];
	const onloads = [];
	const requires = [];
	const listings = [];
	for (let i = 0; i < 30; i++) {
		delete require.cache[mainPath];
		const t0 = performance.now();
		const exported = require(mainPath);
		const t1 = performance.now();
		const instance = new exported.default(app, manifest);
		await instance.saveData({ cliPath: emulator });
		// As Obsidian enables it: load(), which calls the async onload().
		const onload = instance.onload.bind(instance);
		let loading = Promise.resolve();
		instance.onload = () => (loading = onload());
		instance.load();
		await loading;
		const onloaded = performance.now();
		// The core starts at layout ready (already the case here); a build
		// from before the lazy start has started it inside onload.
		await instance.started?.();
		const t2 = performance.now();
		await instance.api.listTools();
		const t3 = performance.now();
		requires.push(t1 - t0);
		onloads.push(onloaded - t1);
		loads.push(t2 - t0);
		listings.push(t3 - t2);
		instance.unload();
	}
	const { plugin } = await loadPlugin(vault, { data: { cliPath: emulator } });

	// 2. Per-call overhead: api.callTool vs raw execFile of the same argv, interleaved.
	const api = plugin.api;
	const probe = await api.callTool("obsidianDailyNote", { command: "daily:path" });
	if (!probe.ok) throw new Error(`probe failed: ${probe.text}`);
	const raw = [];
	const viaApi = [];
	for (let i = 0; i < 5; i++) {
		await run(emulator, probe.argv, { cwd: vault });
		await api.callTool("obsidianDailyNote", { command: "daily:path" });
	}
	const timeRaw = async () => {
		const t0 = performance.now();
		await run(emulator, probe.argv, { cwd: vault });
		raw.push(performance.now() - t0);
	};
	const timeApi = async () => {
		const t0 = performance.now();
		await api.callTool("obsidianDailyNote", { command: "daily:path" });
		viaApi.push(performance.now() - t0);
	};
	// ABBA order cancels drift (CPU frequency, cache, other load) between the two.
	for (let i = 0; i < CALLS / 2; i++) {
		await timeRaw();
		await timeApi();
		await timeApi();
		await timeRaw();
	}

	// 2b. The same with a CLI that does nothing (/bin/echo prints its argv and
	// exits): the process costs as little as one can, so what the plugin adds
	// per call (argument crossing, settings, discovery, output decoding) shows.
	const noopRaw = [];
	const noopApi = [];
	const noop = "/bin/echo";
	await plugin.updateSettings({ cliPath: noop, readCacheSeconds: 0 });
	const noopProbe = await api.callTool("obsidianNotes", { command: "read", file: "Welcome" });
	if (!noopProbe.ok) throw new Error(`no-op probe failed: ${noopProbe.text}`);
	const timeNoopRaw = async () => {
		const t0 = performance.now();
		await run(noop, noopProbe.argv, { cwd: vault });
		noopRaw.push(performance.now() - t0);
	};
	// The plugin starts the CLI as the leader of its own process group (so a
	// timeout can end the CLI's descendants too); libuv makes that costlier.
	const noopGroup = [];
	const timeNoopGroup = () =>
		new Promise((resolve) => {
			const t0 = performance.now();
			const child = spawn(noop, noopProbe.argv, { cwd: vault, detached: true, shell: false });
			child.stdout.resume();
			child.stderr.resume();
			child.on("close", () => {
				noopGroup.push(performance.now() - t0);
				resolve();
			});
		});
	const timeNoopApi = async () => {
		const t0 = performance.now();
		const result = await api.callTool("obsidianNotes", { command: "read", file: "Welcome" });
		noopApi.push(performance.now() - t0);
		if (!result.ok) throw new Error(result.text);
	};
	for (let i = 0; i < 10; i++) {
		await timeNoopRaw();
		await timeNoopApi();
	}
	noopRaw.length = 0;
	noopApi.length = 0;
	noopGroup.length = 0;
	for (let i = 0; i < CALLS / 2; i++) {
		await timeNoopRaw();
		await timeNoopGroup();
		await timeNoopApi();
		await timeNoopApi();
		await timeNoopGroup();
		await timeNoopRaw();
	}
	await plugin.updateSettings({ cliPath: emulator, readCacheSeconds: 60 });

	// 3. Stream parsing in wasm (SSE + provider assembly), the same streams as
	// benches/stream_parse.rs builds natively.
	const pieces = ["The ", "vault ", "has ", "notes ", "café ", "日本 ", "and ", "tasks. "];
	const openaiStream = (target) => {
		let out = "";
		for (let i = 0; out.length < target; i++) {
			out += `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", choices: [{ index: 0, delta: { content: pieces[i % 8] }, finish_reason: null }] })}\n\n`;
		}
		return Buffer.from(`${out}data: [DONE]\n\n`);
	};
	const anthropicStream = (target) => {
		let out = 'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n';
		for (let i = 0; out.length < target; i++) {
			out += `event: content_block_delta\ndata: ${JSON.stringify({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: pieces[i % 8] } })}\n\n`;
		}
		return Buffer.from(out);
	};
	const parseRate = (anthropic, bytes, chunk) => {
		const rates = [];
		for (let i = 0; i < 7; i++) {
			const t0 = performance.now();
			plugin.core.measureStreamParse(anthropic, bytes, chunk);
			rates.push(bytes.length / ((performance.now() - t0) / 1000) / 1e6);
		}
		return median(rates);
	};
	const openaiBytes = openaiStream(20_000_000);
	const anthropicBytes = anthropicStream(20_000_000);
	const streamRows = [];
	for (const chunk of [64, 1024, 16384]) {
		streamRows.push([`Stream parsing in wasm, OpenAI stream, ${chunk}-byte chunks (median of 7, 20 MB)`, `${parseRate(false, openaiBytes, chunk).toFixed(1)} MB/s`, "≥ 50 MB/s"]);
		streamRows.push([`Stream parsing in wasm, Anthropic stream, ${chunk}-byte chunks (median of 7, 20 MB)`, `${parseRate(true, anthropicBytes, chunk).toFixed(1)} MB/s`, "≥ 50 MB/s"]);
	}

	const size = statSync(join(root, "main.js")).size;
	const rows = [
		["Plugin load (require main.js + onload + the core's start: wasm init, registry), median of 30", `${median(loads).toFixed(2)} ms`, "≤ 10 ms"],
		["  of which onload (what delays Obsidian's start)", `${median(onloads).toFixed(2)} ms`, "≤ 2 ms"],
		["  of which require(main.js) (evaluate the bundle, decode the inlined wasm)", `${median(requires).toFixed(2)} ms`, ""],
		["First api.listTools() after load (JSON Schemas generated), median of 30", `${median(listings).toFixed(2)} ms`, ""],
		[`Raw execFile of the emulator (daily:path), median of ${CALLS}`, `${median(raw).toFixed(2)} ms`, ""],
		[`api.callTool of the same argv, median of ${CALLS}`, `${median(viaApi).toFixed(2)} ms`, ""],
		["Per-call ratio api.callTool / raw execFile", (median(viaApi) / median(raw)).toFixed(3), "≤ 1.05"],
		[`Raw execFile of a no-op CLI (/bin/echo, the argv of a read), median of ${CALLS}`, `${median(noopRaw).toFixed(2)} ms`, ""],
		[`api.callTool of the same read with that CLI (read cache off), median of ${CALLS}`, `${median(noopApi).toFixed(2)} ms`, ""],
		["Per-call ratio with the no-op CLI (what the plugin adds, over the cheapest process)", `${(median(noopApi) / median(noopRaw)).toFixed(3)} (+${(median(noopApi) - median(noopRaw)).toFixed(2)} ms)`, "≤ 1.05"],
		[`Raw spawn of the no-op CLI as a process-group leader, as the plugin starts it, median of ${CALLS}`, `${median(noopGroup).toFixed(2)} ms`, ""],
		["Per-call ratio with the no-op CLI over the same process-group spawn (the plugin's own code)", `${(median(noopApi) / median(noopGroup)).toFixed(3)} (+${(median(noopApi) - median(noopGroup)).toFixed(2)} ms)`, ""],
		["main.js size", `${(size / 1024).toFixed(1)} KiB (${size} bytes)`, "≤ 400 KB"],
		...streamRows,
	];
	console.log(`| Measure | Value | Target |\n|---|---|---|`);
	for (const [name, value, target] of rows) console.log(`| ${name} | ${value} | ${target} |`);
	void obsidian;
} finally {
	removeVault(vault);
}
