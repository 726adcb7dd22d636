// ACP benchmark: what the plugin adds between Send and an agent's first
// streamed text, and what an idle agent session costs. The built main.js in
// the Obsidian double runs the scripted SDK agent (tests/support/acp-agent.mjs)
// as a real process; the baseline is the same agent driven by a bare SDK
// client in this process (no plugin), turns interleaved ABBA in one loop.
// Medians inside one process.
import * as acp from "@agentclientprotocol/sdk";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { copySampleVault, emulator, loadPlugin, removeVault, root, useEmulator } from "../tests/support/harness.mjs";

const TURNS = 200;
const SCRIPT = join(root, "tests/support/acp-agent.mjs");
const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	const m = s.length >> 1;
	return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const rssKiB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]);

const vault = copySampleVault();
let plugin;
const children = [];
try {
	useEmulator(vault);
	({ plugin } = await loadPlugin(vault, { data: { cliPath: emulator, acpAgents: { custom: { command: process.execPath, args: [SCRIPT] } } } }));
	const profile = plugin.codingAgents.profileFor("agent:custom");
	const session = await plugin.codingAgents.start(profile);

	// The baseline: a bare SDK client on its own copy of the agent.
	const child = spawn(process.execPath, [SCRIPT], { cwd: vault, stdio: ["pipe", "pipe", "inherit"] });
	children.push(child);
	let onText = null;
	const bare = acp
		.client({ name: "bench" })
		.onNotification("session/update", ({ params }) => {
			if (params.update.sessionUpdate === "agent_message_chunk") onText?.();
		})
		.connect(acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)));
	await bare.agent.request("initialize", { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
	const { sessionId } = await bare.agent.request("session/new", { cwd: vault, mcpServers: [] });

	const viaPlugin = [];
	const viaSdk = [];
	const timePlugin = async () => {
		let first = null;
		const t0 = performance.now();
		await session.prompt("hello", (event) => {
			if (event.type === "textDelta" && first === null) first = performance.now() - t0;
		});
		viaPlugin.push(first);
	};
	const timeSdk = async () => {
		let first = null;
		const t0 = performance.now();
		onText = () => {
			if (first === null) first = performance.now() - t0;
		};
		await bare.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hello" }] });
		viaSdk.push(first);
	};
	for (let i = 0; i < 20; i++) await (i % 2 ? timePlugin() : timeSdk());
	viaPlugin.length = 0;
	viaSdk.length = 0;
	for (let i = 0; i < TURNS; i++) {
		if (i % 4 === 0 || i % 4 === 3) await timePlugin();
		else await timeSdk();
	}
	const added = median(viaPlugin) - median(viaSdk);

	// Idle memory: the agent's process, and the plugin's heap for five more sessions.
	globalThis.gc?.();
	const heapBefore = process.memoryUsage().heapUsed;
	const more = [];
	for (let i = 0; i < 5; i++) more.push(await plugin.codingAgents.start(profile));
	await new Promise((resolve) => setTimeout(resolve, 300));
	globalThis.gc?.();
	const heapPerSession = (process.memoryUsage().heapUsed - heapBefore) / 5 / 1024;
	const agentRss = median(more.map((s) => rssKiB(s.pid)));
	const bareRss = rssKiB(child.pid);
	for (const s of more) plugin.codingAgents.end(s);

	console.log("ACP (coding agents in the chat): scripted SDK agent, real process, stdio");
	console.log(`  Send → first streamed text, through the plugin: median ${median(viaPlugin).toFixed(2)} ms (${viaPlugin.length} turns)`);
	console.log(`  Send → first streamed text, bare SDK client:    median ${median(viaSdk).toFixed(2)} ms (${viaSdk.length} turns)`);
	console.log(`  added by the plugin: ${added.toFixed(2)} ms (goal ≤ 10 ms)`);
	console.log(`  idle session: agent process RSS ${(agentRss / 1024).toFixed(1)} MiB (bare-client copy ${(bareRss / 1024).toFixed(1)} MiB); plugin heap per session ${heapPerSession.toFixed(0)} KiB${globalThis.gc ? "" : " (run with --expose-gc for a steadier number)"}`);
	bare.close();
} finally {
	for (const c of children) c.kill();
	await plugin?.codingAgents?.dispose();
	plugin?.unload();
	removeVault(vault);
}
