// Frame times while big tool results arrive in the chat (issue "Fast on a real
// vault", item 7), in Chromium from the built main.js. The vault is the
// generated one of 10 000 notes (scripts/make-vault.mjs) plus two big notes:
// 50 000 open tasks (about 1.9 MiB listed) and 20 000 tasks read as CSV
// (a 20 000-row table). The page records every animation frame from Send to
// the end of the turn, then again around "Show all".
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startBrowserPlugin } from "../tests/support/browser.mjs";
import { emulator, emulatorEnv } from "../tests/support/harness.mjs";
import { openaiStream, startModelServer } from "../tests/support/model-servers.mjs";
import { makeVault } from "./make-vault.mjs";

const NOTES = 10_000;
const TASK_LINES = 50_000;
const TABLE_ROWS = 20_000;

const server = await startModelServer();
const session = await startBrowserPlugin({
	data: {
		cliPath: emulator,
		outputCapBytes: 4 * 1024 * 1024,
		chat: { provider: "openAi", openai: { baseUrl: `${server.url}/v1`, model: "bench", apiKeySecret: "" } },
	},
	env: (vault) => {
		makeVault(join(vault, "Generated"), NOTES);
		const tasks = (n, label) => Array.from({ length: n }, (_, i) => `- [ ] ${label} ${i + 1}, due 2026-12-${String((i % 28) + 1).padStart(2, "0")}`).join("\n");
		writeFileSync(join(vault, "Big list.md"), `${tasks(TASK_LINES, "Task number")}\n`);
		writeFileSync(join(vault, "Big table.md"), `${tasks(TABLE_ROWS, "Row")}\n`);
		return emulatorEnv(vault);
	},
	viewport: { width: 1100, height: 900 },
});

const frameStats = (frames) => {
	const sorted = [...frames].sort((a, b) => a - b);
	return {
		count: frames.length,
		max: sorted.at(-1) ?? 0,
		p95: sorted[Math.floor(sorted.length * 0.95)] ?? 0,
		over50: frames.filter((f) => f > 50).length,
	};
};

try {
	const { page } = session;
	await page.evaluate(() => window.__harness.runCommand("vault-agent:open-chat"));
	await page.locator(".vault-agent-input").waitFor({ state: "visible", timeout: 30_000 });
	// Records the time between animation frames until stopped.
	const record = () =>
		page.evaluate(() => {
			const frames = [];
			window.__frames = frames;
			window.__stopFrames = false;
			let last = performance.now();
			const tick = (now) => {
				frames.push(now - last);
				last = now;
				if (!window.__stopFrames) requestAnimationFrame(tick);
			};
			requestAnimationFrame(tick);
		});
	const stop = () =>
		page.evaluate(async () => {
			// Two more frames, so a long last frame is counted.
			await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
			window.__stopFrames = true;
			return window.__frames.slice(1);
		});
	const turn = async (call, question) => {
		server.script({ stream: openaiStream({ toolCalls: [call] }) }, { stream: openaiStream({ text: "Done." }) });
		await record();
		const t0 = Date.now();
		await page.locator(".vault-agent-input").fill(question);
		await page.locator(".vault-agent-send").click();
		await page.waitForFunction(() => !document.querySelector(".vault-agent-chat.is-running"), null, { timeout: 120_000 });
		const seconds = (Date.now() - t0) / 1000;
		return { ...frameStats(await stop()), seconds };
	};
	const rows = [];
	const list = await turn(["obsidianTasks", { command: "tasks", path: "Big list.md" }], "What is on the big list?");
	rows.push([`${TASK_LINES.toLocaleString("en-US")} task lines (tasks of one note)`, list]);
	// The block opened and "Show all" asked for: the one place where all of it is drawn.
	const block = page.locator(".vault-agent-tool-call").last();
	await block.locator("summary").first().click();
	await record();
	await block.locator("button.vault-agent-show-all").click();
	const all = { ...frameStats(await stop()), seconds: 0 };
	const table = await turn(["obsidianTasks", { command: "tasks", path: "Big table.md", format: "csv" }], "The table, please.");
	rows.push([`${TABLE_ROWS.toLocaleString("en-US")}-row CSV table (tasks as CSV)`, table]);
	const tableBlock = page.locator(".vault-agent-tool-call").last();
	await tableBlock.locator("summary").first().click();
	const drawnRows = await tableBlock.locator("tr").count();
	console.log(`Vault: ${NOTES.toLocaleString("en-US")} generated notes plus the two big notes.\n`);
	console.log("| Result arriving in the chat (Send to end of turn) | Frames | Longest frame | 95th percentile | Frames over 50 ms | Turn |");
	console.log("|---|---|---|---|---|---|");
	for (const [name, s] of rows) console.log(`| ${name} | ${s.count} | ${s.max.toFixed(1)} ms | ${s.p95.toFixed(1)} ms | ${s.over50} | ${s.seconds.toFixed(1)} s |`);
	console.log(`| "Show all" on the ${TASK_LINES.toLocaleString("en-US")} lines (asked for) | ${all.count} | ${all.max.toFixed(1)} ms | ${all.p95.toFixed(1)} ms | ${all.over50} | |`);
	console.log(`\nTable rows drawn before "Show all": ${drawnRows} (header included).`);
	if (session.errors.length > 0) throw new Error(session.errors.join("\n"));
} finally {
	await session.close();
	await server.close();
}
