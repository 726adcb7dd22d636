// An agent turn against the CLI emulator at the real CLI's cost per call
// (OBSIDIAN_EMULATOR_LATENCY_MS, default 250 ms), with a scripted model on
// localhost: read a note, list tasks, read the note again, then three reads
// in one reply, then the answer. Prints the median turn time and the CLI runs
// per turn, with the read cache on and off. To compare with an older build:
// VAULT_AGENT_BUILD_DIR=<folder with its main.js, manifest.json, styles.css>.
import { copySampleVault, emulator, loadPlugin, readLog, removeVault, useEmulator } from "../tests/support/harness.mjs";
import { openaiStream, startModelServer } from "../tests/support/model-servers.mjs";

const LATENCY = process.env.OBSIDIAN_EMULATOR_LATENCY_MS || "250";
const TURNS = 5;
const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	const m = s.length >> 1;
	return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

function script(server) {
	const call = (name, args) => ({ stream: openaiStream({ toolCalls: [[name, args]] }) });
	server.script(
		call("obsidianNotes", { command: "read", path: "Welcome.md" }),
		call("obsidianTasks", { command: "tasks", all: true }),
		call("obsidianNotes", { command: "read", path: "Welcome.md" }),
		{
			stream: openaiStream({
				toolCalls: [
					["obsidianNotes", { command: "read", path: "Projects/Roadmap.md" }],
					["obsidianLinks", { command: "backlinks", path: "Welcome.md" }],
					["obsidianNotes", { command: "outline", path: "Projects/Roadmap.md" }],
				],
			}),
		},
		{ stream: openaiStream({ text: "Here is what I found." }) },
	);
}

const server = await startModelServer({ chunkSize: 64 });
const vault = copySampleVault();
try {
	const log = useEmulator(vault, { OBSIDIAN_EMULATOR_LATENCY_MS: LATENCY });
	const chat = { provider: "openAi", openai: { baseUrl: `${server.url}/v1`, model: "bench", apiKeySecret: "", contextWindow: 32768 } };
	const { plugin } = await loadPlugin(vault, { data: { cliPath: emulator, chat } });
	console.log(`| Read cache | Turn, median of ${TURNS} | CLI runs per turn |`);
	console.log("|---|---|---|");
	for (const seconds of [60, 0]) {
		await plugin.updateSettings({ readCacheSeconds: seconds });
		const times = [];
		let runs = 0;
		for (let n = 0; n < TURNS; n++) {
			plugin.core.forgetReads?.();
			script(server);
			const before = readLog(log).length;
			const t0 = performance.now();
			const result = await plugin.core.chatSend(plugin.core.newConversation(), "What is in my vault?", () => {});
			times.push(performance.now() - t0);
			if (result.end !== "done") throw new Error(`the turn ended ${result.end}`);
			runs = readLog(log).length - before;
		}
		console.log(`| ${seconds ? `on (${seconds} s)` : "off"} | ${Math.round(median(times))} ms | ${runs} |`);
	}
	// A repeated read: the first runs the CLI, the next ones come from the cache.
	await plugin.updateSettings({ readCacheSeconds: 60 });
	const fresh = [];
	const cached = [];
	for (let n = 0; n < 20; n++) {
		plugin.core.forgetReads?.();
		let t0 = performance.now();
		await plugin.api.callTool("obsidianNotes", { command: "read", path: "Welcome.md" });
		fresh.push(performance.now() - t0);
		t0 = performance.now();
		await plugin.api.callTool("obsidianNotes", { command: "read", path: "Welcome.md" });
		cached.push(performance.now() - t0);
	}
	console.log();
	console.log("| Read of one note | Median of 20 |");
	console.log("|---|---|");
	console.log(`| Through the CLI (${LATENCY} ms a call) | ${median(fresh).toFixed(1)} ms |`);
	console.log(`| The same read again, from the cache | ${median(cached).toFixed(2)} ms (${((100 * median(cached)) / median(fresh)).toFixed(2)} % of the CLI's) |`);
	plugin.unload();
} finally {
	await server.close();
	removeVault(vault);
}
setTimeout(() => process.exit(0), 100);
