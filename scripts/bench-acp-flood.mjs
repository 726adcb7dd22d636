// ACP flood benchmark: what the plugin keeps while a coding agent streams
// a flood (MiB of text and as much of thoughts, in 64 KiB chunks, and a plan
// of 10 000 entries: the scripted agent's `flood`). The built main.js in the
// Obsidian double runs the scripted SDK agent as a real process; the turn's
// events are kept as the chat view keeps them (the answer's text, the
// thoughts, the plan) and counted (each is a draw in the chat). The chat
// view itself is not in the measurement: the double's Markdown renderer
// builds its text a character at a time, which would measure the double.
// The baseline is the same agent and the same flood read by a bare SDK
// client in this process that keeps nothing, so the ratio is what the plugin
// adds over the protocol itself. Each side runs in a fresh process (this
// script again, with --only), so neither inherits the other's heap. Peak
// RSS is sampled every 20 ms.
//
//   node --expose-gc scripts/bench-acp-flood.mjs [MiB]   (default 100)
//   VAULT_AGENT_BUILD_DIR=<folder with an older main.js> … to measure that build
import * as acp from "@agentclientprotocol/sdk";
import { execFileSync, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { copySampleVault, emulator, loadPlugin, removeVault, root, useEmulator } from "../tests/support/harness.mjs";

const MIB = Number(process.argv[2] ?? 100);
const only = process.argv[3] === "--only" ? process.argv[4] : null;
if (!only) {
	const side = (name) => execFileSync(process.execPath, ["--expose-gc", fileURLToPath(import.meta.url), String(MIB), "--only", name], { encoding: "utf8", env: process.env }).trim();
	const sdk = JSON.parse(side("sdk"));
	const viaPlugin = JSON.parse(side("plugin"));
	const mb = (bytes) => (bytes / 1024 / 1024).toFixed(0);
	const kept = viaPlugin.kept;
	console.log(`ACP flood: ${MIB} MiB of text and ${MIB} MiB of thoughts in 64 KiB chunks, and a 10 000-entry plan (${sdk.chunks} notifications)`);
	console.log(`  bare SDK client (keeps nothing):              peak RSS +${mb(sdk.peakRss)} MB, heap held after +${mb(sdk.heldHeap)} MB`);
	console.log(`  through the plugin, kept as the chat keeps it: peak RSS +${mb(viaPlugin.peakRss)} MB, heap held after +${mb(viaPlugin.heldHeap)} MB (${viaPlugin.seconds.toFixed(1)} s)`);
	console.log(`  ratio, plugin / bare client: peak RSS growth ${(viaPlugin.peakRss / Math.max(1, sdk.peakRss)).toFixed(2)}, heap held ${(viaPlugin.heldHeap / Math.max(1, sdk.heldHeap)).toFixed(2)}`);
	console.log(`  kept: answer ${(kept.answer / 1048576).toFixed(2)} Mi characters (streamed ${(kept.text / 1048576).toFixed(2)}), thoughts ${(kept.reasoning / 1048576).toFixed(2)} Mi, plan ${kept.plan} entries; events to draw: ${kept.events}`);
	process.exit(0);
}
const SCRIPT = join(root, "tests/support/acp-agent.mjs");
const gc = () => globalThis.gc?.();

/** Peak RSS and heap growth over `run`, after a collection before and after. */
async function measure(run) {
	gc();
	const before = process.memoryUsage();
	let peak = before.rss;
	const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
	const kept = await run();
	clearInterval(sampler);
	peak = Math.max(peak, process.memoryUsage().rss);
	gc();
	const after = process.memoryUsage();
	return { kept, peakRss: peak - before.rss, heldHeap: after.heapUsed + after.external - before.heapUsed - before.external };
}

const vault = copySampleVault();
let plugin;
const children = [];
try {
	useEmulator(vault);
	({ plugin } = await loadPlugin(vault, { data: { cliPath: emulator, acpAgents: { custom: { command: process.execPath, args: [SCRIPT] } } } }));

	if (only === "sdk") {
		const child = spawn(process.execPath, [SCRIPT], { cwd: vault, stdio: ["pipe", "pipe", "inherit"] });
		children.push(child);
		let chunks = 0;
		const bare = acp
			.client({ name: "bench" })
			.onNotification("session/update", () => {
				chunks += 1;
			})
			.connect(acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)));
		await bare.agent.request("initialize", { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
		const { sessionId } = await bare.agent.request("session/new", { cwd: vault, mcpServers: [] });
		const sdk = await measure(async () => {
			await bare.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: `flood ${MIB}` }] });
			return null;
		});
		bare.close();
		console.log(JSON.stringify({ ...sdk, chunks }));
	} else {
		const session = await plugin.codingAgents.start(plugin.codingAgents.profileFor("agent:custom"));
		const t0 = performance.now();
		const viaPlugin = await measure(async () => {
			// What the chat view keeps of a turn (chat/view.ts: the streamed text, the thoughts, the plan).
			const kept = { text: "", reasoning: "", plan: [], answer: "", events: 0 };
			await session.prompt(`flood ${MIB}`, (event) => {
				kept.events += 1;
				if (event.type === "textDelta") kept.text += event.text;
				if (event.type === "reasoningDelta") kept.reasoning += event.text;
				if (event.type === "plan") kept.plan = event.entries;
				if (event.type === "assistantMessage") kept.answer = event.text;
			});
			return kept;
		});
		const { kept } = viaPlugin;
		const seconds = (performance.now() - t0) / 1000;
		console.log(JSON.stringify({ ...viaPlugin, seconds, kept: { text: kept.text.length, reasoning: kept.reasoning.length, plan: kept.plan.length, answer: kept.answer.length, events: kept.events } }));
	}
} finally {
	for (const c of children) c.kill();
	await plugin?.codingAgents?.dispose();
	plugin?.unload();
	removeVault(vault);
}
