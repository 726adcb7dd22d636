// Chat benchmarks of the built main.js against a scripted model server on
// localhost (real HTTP): the tokens sent per turn of a ten-turn chat at a
// 4 096-token window, and the time to first token the agent adds over the
// server's own, measured interleaved (ABBA) in one run as a difference of
// medians. Prints Markdown for BENCHMARKS.md.
import { request } from "node:http";
import { copySampleVault, emulator, loadPlugin, removeVault, useEmulator } from "../tests/support/harness.mjs";
import { isSummaryRequest, openaiStream, startModelServer } from "../tests/support/model-servers.mjs";
import { question, scriptTurn, tokensSent, TURNS } from "../tests/support/ten-turns.mjs";

const ROUNDS = 40;
const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	const m = s.length >> 1;
	return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const server = await startModelServer({ chunkSize: 64 });
const vault = copySampleVault();
try {
	useEmulator(vault);
	const chat = { provider: "openAi", openai: { baseUrl: `${server.url}/v1`, model: "bench", apiKeySecret: "", contextWindow: 4096 } };
	const { plugin } = await loadPlugin(vault, { data: { cliPath: emulator, chat } });

	// 1. Tokens sent per turn (each turn: a tool round and the answer).
	let conversation = plugin.core.newConversation();
	const rows = [];
	for (let n = 0; n < TURNS; n++) {
		const before = server.requests.length;
		scriptTurn(server, n);
		const result = await plugin.core.chatSend(conversation, question(n), () => {});
		if (result.end !== "done") throw new Error(`turn ${n} ended ${result.end}`);
		conversation = result.conversation;
		// The turn's own rounds (a summary request, when the chat compacts, is apart).
		const sent = server.requests.slice(before).filter((r) => r.url.endsWith("/chat/completions") && !isSummaryRequest(r.body)).map((r) => tokensSent(r.body));
		rows.push(sent);
	}
	console.log("| Turn | Tokens sent (tool round / answer round), safe estimate | Window |");
	console.log("|---|---|---|");
	rows.forEach((sent, n) => console.log(`| ${n + 1} | ${sent.join(" / ")} | 4 096 |`));
	console.log(`| Largest | ${Math.max(...rows.flat())} | 4 096 |`);
	console.log();

	// 2. Time to first token: the agent (chatSend to the first textDelta)
	// against a raw HTTP request with the same body (request to the first
	// chunk holding content), interleaved.
	const answer = openaiStream({ text: "The first token, then the rest of a short answer." });
	server.script({ stream: answer });
	await plugin.core.chatSend(plugin.core.newConversation(), "hi", () => {});
	const sample = server.requests.at(-1);
	const body = JSON.stringify(sample.body);
	const url = new URL(`${server.url}${sample.url}`);
	const raw = () =>
		new Promise((resolve, reject) => {
			const t0 = performance.now();
			let first = null;
			const req = request(url, { method: "POST", headers: { "content-type": "application/json" } }, (res) => {
				res.setEncoding("utf8");
				res.on("data", (chunk) => {
					if (first === null && chunk.includes('"content"')) first = performance.now() - t0;
				});
				res.on("end", () => resolve(first));
			});
			req.on("error", reject);
			req.end(body);
		});
	const agent = async () => {
		const t0 = performance.now();
		let first = null;
		await plugin.core.chatSend(plugin.core.newConversation(), "hi", (event) => {
			if (first === null && event.type === "textDelta") first = performance.now() - t0;
		});
		return first;
	};
	// Warm both paths (JIT, sockets) before measuring.
	for (let i = 0; i < 10; i++) {
		for (const measure of [raw, agent]) {
			server.script({ stream: answer });
			await measure();
		}
	}
	const raws = [];
	const agents = [];
	for (let i = 0; i < ROUNDS; i++) {
		// ABBA: the order alternates so drift hits both sides alike.
		const order = i % 2 === 0 ? [raw, agent] : [agent, raw];
		for (const measure of order) {
			server.script({ stream: answer });
			const ms = await measure();
			(measure === raw ? raws : agents).push(ms);
		}
	}
	const r = median(raws);
	const a = median(agents);
	console.log("| Time to first token (median of 40, interleaved) | Value | Target |");
	console.log("|---|---|---|");
	console.log(`| Server alone (raw HTTP, same request body) | ${r.toFixed(2)} ms | |`);
	console.log(`| Through the agent (chatSend → first textDelta) | ${a.toFixed(2)} ms | |`);
	console.log(`| Added by the agent | ${(a - r).toFixed(2)} ms (× ${(a / r).toFixed(2)}) | ≤ 5 ms |`);
} finally {
	await server.close();
	removeVault(vault);
}
