// The task benchmark (scripts/eval-agent/) is itself tested: against scripted
// model servers (tests/support/model-personas.mjs, real HTTP and SSE on
// localhost) that behave like the documented formats of real model families.
// A model that always does the right thing scores 100 % on every task; each
// flawed one fails exactly the tasks it should, with the reason named. What
// "should" means comes from the plugin's real behaviour, written out below.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { markdown, summarise } from "../../scripts/eval-agent/report.mjs";
import { runBenchmark } from "../../scripts/eval-agent/run.mjs";
import { CATEGORIES, chatsOf, perfectScripts, TASKS } from "../../scripts/eval-agent/tasks.mjs";
import { root, sampleVault } from "../support/harness.mjs";
import { PERSONA_SUMMARY, startPersona } from "../support/model-personas.mjs";

const ids = TASKS.map((t) => t.id);
/** One or two tasks of each category, and the ones a flaw shows on. */
const SUBSET = ["alice-email", "pr-task-done", "daily-append", "read-only-rename", "outside-read-folders", "injected-tool-call", "long-read-whole", "long-one-section"];
const subset = TASKS.filter((t) => SUBSET.includes(t.id));
/** The only subset task a careful model answers without a tool: Read only is in the system prompt. */
const NO_TOOL_NEEDED = ["read-only-rename"];

async function benchmark(persona, tasks, profile = {}, personaOptions = {}) {
	const server = await startPersona(persona, { scripts: perfectScripts(), ...personaOptions });
	try {
		const runs = await runBenchmark(tasks, { provider: server.provider, url: server.url, model: server.model, apiKey: server.provider === "anthropic" ? "sk-ant-persona" : "", ...profile });
		return { runs, requests: server.requests };
	} finally {
		await server.close();
	}
}

const failures = (runs) => Object.fromEntries(runs.filter((r) => !r.success).map((r) => [r.task, r.reason]));

function vaultHash(folder) {
	const hash = createHash("sha256");
	const walk = (dir) => {
		for (const name of readdirSync(dir).sort()) {
			const full = join(dir, name);
			hash.update(full.slice(folder.length));
			if (statSync(full).isDirectory()) walk(full);
			else hash.update(readFileSync(full));
		}
	};
	walk(folder);
	return hash.digest("hex");
}

describe("the task benchmark against scripted model personas", () => {
	let sampleBefore;
	before(() => {
		sampleBefore = vaultHash(sampleVault);
	});
	after(() => {
		assert.equal(vaultHash(sampleVault), sampleBefore, "the sample vault itself is never touched: every task works on a copy");
	});

	it("has at least 40 tasks with unique ids and prompts, in every category", () => {
		assert.ok(TASKS.length >= 40, `${TASKS.length} tasks`);
		assert.equal(new Set(ids).size, ids.length);
		// The personas find a script by the prompt it contains: no prompt (a chat's, in a task of several) may hold another.
		const prompts = TASKS.flatMap((task) => chatsOf(task).map((chat, at) => [`${task.id}#${at + 1}`, chat.prompt]));
		for (const [a, pa] of prompts) for (const [b, pb] of prompts) if (a !== b) assert.ok(!pa.includes(pb), `${a} contains ${b}'s prompt`);
		assert.deepEqual([...new Set(TASKS.map((t) => t.category))].sort(), Object.keys(CATEGORIES).sort());
	});

	it("the perfect model (native OpenAI tool calls) succeeds on every task", async () => {
		const { runs, requests } = await benchmark("perfect", TASKS);
		assert.deepEqual(failures(runs), {});
		assert.equal(runs.length, TASKS.length);
		// It was scored on what happened: calls ran, cards were raised and approved, the vault changed.
		// All but two: a refusal the system prompt already allows, and an answer from memory.
		assert.deepEqual(runs.filter((r) => r.toolCalls === 0).map((r) => r.task), ["read-only-rename", "memory-deleted-line"]);
		assert.ok(runs.some((r) => r.cards.length > 0));
		assert.ok(runs.every((r) => r.rounds >= 1 && r.inputTokens > 0), "rounds and the tokens the server reported are counted");
		assert.ok(requests.every((r) => r.url.endsWith("/chat/completions") || r.method === "GET"));
		const report = summarise(runs, { profile: { provider: "openai", url: "http://x", model: "perfect-model", apiKey: "secret" }, repeat: 1 });
		assert.equal(report.total.successRate, 1);
		assert.equal(report.categories.length, Object.keys(CATEGORIES).length);
		assert.ok(!JSON.stringify(report).includes("secret"), "the key never reaches the report");
		const table = markdown(report);
		assert.match(table, new RegExp(`\\*\\*${TASKS.length} of ${TASKS.length} runs succeeded \\(100 %\\)\\*\\*`));
		for (const id of ids) assert.match(table, new RegExp(`^\\| ${id} \\|`, "m"));
	});

	it("a task of two chats: the second uses what the first kept, and a line the user deleted between them is not used", async () => {
		const memory = TASKS.filter((t) => t.category === "memory");
		assert.deepEqual(memory.map((t) => t.id), ["memory-across-chats", "memory-deleted-line"]);
		const { runs, requests } = await benchmark("perfect", memory);
		assert.deepEqual(failures(runs), {});
		assert.deepEqual(runs.map((r) => r.chats), [2, 2]);
		// Each chat is a new conversation: the second's request holds no message of the first.
		const second = requests.find((r) => JSON.stringify(r.body?.messages ?? []).includes("send the weekly report"));
		assert.doesNotMatch(JSON.stringify(second.body.messages.slice(1)), /Remember for later/);
		assert.match(second.body.messages[0].content, /<memory>\n\[Memory\] - The user's manager is Priya Nair\./);
		// Memory off (so nothing is kept or read): both fail, saying what was missing.
		const off = memory.map((t) => ({ ...t, settings: { chat: { memory: false } } }));
		const { runs: offRuns } = await benchmark("perfect", off);
		assert.deepEqual(failures(offRuns), { "memory-across-chats": 'chat 2: the answer lacks "Priya Nair"', "memory-deleted-line": 'chat 1: the answer lacks "Priya Nair"' });
		// A memory that still gave the deleted line (here: the line left in) fails the second task.
		const kept = memory.filter((t) => t.id === "memory-deleted-line").map((t) => ({ ...t, chats: t.chats.map(({ edits: _edits, ...chat }) => chat) }));
		const { runs: keptRuns } = await benchmark("perfect", kept);
		assert.deepEqual(failures(keptRuns), { "memory-deleted-line": 'chat 2: the answer holds "Priya Nair", which it must not' });
	});

	it("the same model through Anthropic's Messages API (tool_use blocks) succeeds too", async () => {
		const { runs, requests } = await benchmark("anthropic", subset);
		assert.deepEqual(failures(runs), {});
		assert.ok(requests.some((r) => r.url === "/v1/messages"));
	});

	it("Hermes/Qwen <tool_call> text: every task that needs a tool fails while text-form calls are off, and says why", async () => {
		const { runs } = await benchmark("hermes", subset);
		const expected = Object.fromEntries(SUBSET.filter((id) => !NO_TOOL_NEEDED.includes(id)).map((id) => [id, "tool call written as text (text-form calls are off)"]));
		assert.deepEqual(failures(runs), expected);
	});

	for (const persona of ["hermes", "json"]) {
		it(`${persona === "hermes" ? "Hermes/Qwen <tool_call> text" : "a bare JSON call with `parameters` (Llama 3.x)"}: with text-form calls on, all succeed but the change that runs without a card in Ask before edits`, async () => {
			const { runs } = await benchmark(persona, subset, { textToolCalls: true });
			// The parser reads both shapes; a change written as text always waits
			// for a card (policy), so the one task that must not raise one fails.
			assert.deepEqual(failures(runs), { "daily-append": "a card it must not raise: Add to the end of today's daily note" });
			assert.equal(runs.find((r) => r.task === "daily-append").failed.length, 1, "the note was still changed as asked");
		});
	}

	it("a model that ignores the tools fails everything: no tool called, or no refusal said", async () => {
		const { runs } = await benchmark("ignores-tools", subset);
		const expected = Object.fromEntries(SUBSET.map((id) => [id, NO_TOOL_NEEDED.includes(id) ? "the answer lacks /read only|changes are off/i" : "no tool called"]));
		assert.deepEqual(failures(runs), expected);
	});

	it("a model that repeats a call forever is stopped by the loop guard on every task", async () => {
		const tasks = TASKS.filter((t) => ["alice-email", "daily-append", "read-only-rename"].includes(t.id));
		const { runs } = await benchmark("repeater", tasks);
		assert.deepEqual(Object.keys(failures(runs)), tasks.map((t) => t.id));
		for (const run of runs) {
			assert.match(run.reason, /^stopped by the loop guard: Stopped/, run.task);
			assert.equal(run.end, "roundLimit");
		}
		// A read repeated with the same arguments runs twice, is refused once
		// (its result is above), then the turn stops: four rounds, not the limit of 10;
		// a change repeated is refused (it already ran), then stopped once it failed twice.
		assert.equal(runs.find((r) => r.task === "alice-email").rounds, 4);
		assert.ok(runs.find((r) => r.task === "daily-append").rounds < 10);
	});

	it("a 4 096-token window (llama.cpp refuses longer prompts) fails only the task that reads a long note whole", async () => {
		const { runs, requests } = await benchmark("small-window", subset);
		assert.deepEqual(Object.keys(failures(runs)), ["long-read-whole"]);
		assert.match(failures(runs)["long-read-whole"], /^server error context_overflow: The conversation does not fit the model server's context\./);
		assert.ok(requests.some((r) => r.body?.messages && JSON.stringify(r.body).length > 4 * 4096), "the refused request was the long one");
		// Reading only the section it needs (map, then section) fits.
		assert.ok(runs.find((r) => r.task === "long-one-section").success);
	});

	it("the same window cut from the front, as Ollama does, fails that task, and the chat says the server cut the prompt and what to do", async () => {
		// The profile is set larger than what the server runs with (the common
		// Ollama case: its old default of 2 048, the profile at 32 768), so the
		// plugin sends the whole prompt and the server keeps its end. The chat
		// tells a cut to less than half of the prompt (our estimate counts on
		// the safe side, so a smaller cut cannot be told from a whole prompt).
		const { runs } = await benchmark("small-window", TASKS.filter((t) => t.id === "long-read-whole"), { contextWindow: 32768 }, { overflow: "truncate", window: 2048 });
		assert.deepEqual(failures(runs), { "long-read-whole": 'the answer lacks "2026-04-02"' });
		assert.equal(runs[0].end, "done");
		// The server's usage gives it away: it read about 4 096 tokens of a much longer prompt.
		const cut = runs[0].notices.find((n) => /cut the start of the prompt/.test(n));
		assert.ok(cut, JSON.stringify(runs[0].notices));
		assert.match(cut, /OLLAMA_CONTEXT_LENGTH/);
	});

	it("a long chat compacted near a small window still answers from a card's outcome, which only the plugin's own record keeps", async () => {
		const tasks = TASKS.filter((t) => t.category === "context");
		for (const persona of ["perfect", "small-window"]) {
			const { runs, requests } = await benchmark(persona, tasks);
			assert.deepEqual(failures(runs), {}, persona);
			const summaries = requests.filter((r) => r.body && JSON.stringify(r.body).includes("You summarise the earlier part of a chat"));
			assert.ok(summaries.length >= 1, `${persona}: the chat was compacted`);
			// The persona's summary leaves the change out, as the summary request asks: the record says it.
			assert.ok(!PERSONA_SUMMARY.includes("status"));
			const last = JSON.stringify(requests.filter((r) => r.body?.messages).at(-1).body.messages);
			assert.ok(last.includes("property:set Projects/Roadmap.md: made.") && !last.includes("Set the status property of the Roadmap note to done."), persona);
		}
	});

	it("an edit accepted in place: the change accepted is written, the one rejected is not, and a user who accepts both fails the checks", async () => {
		const task = TASKS.find((t) => t.id === "edit-accepted-in-place");
		const { runs } = await benchmark("perfect", [task]);
		assert.deepEqual(failures(runs), {});
		assert.deepEqual(runs[0].inPlace, [{ changes: 2, accepted: 1 }], "reviewed as the editor does: one of two accepted");
		// The same run with every change accepted: the card is approved whole, and the checks say so.
		const { runs: all } = await benchmark("perfect", [{ ...task, inPlace: { accept: /./ } }]);
		assert.deepEqual(all[0].inPlace, [{ changes: 2, accepted: 2 }]);
		assert.ok(all[0].failed.includes("reviewed in place: 2 of 2 changes accepted; expected 1 of 2"), JSON.stringify(all[0].failed));
		assert.ok(all[0].failed.includes(`Inbox/Release notes.md lacks "PDF's"`), JSON.stringify(all[0].failed));
	});

	it("--repeat gives the spread: every task runs n times and the report counts them", async () => {
		const server = await startPersona("perfect", { scripts: perfectScripts() });
		try {
			const tasks = TASKS.filter((t) => t.id === "kickoff-attendees");
			const runs = await runBenchmark(tasks, { provider: "openai", url: server.url, model: server.model }, { repeat: 2 });
			assert.deepEqual(runs.map((r) => r.attempt), [1, 2]);
			const report = summarise(runs, { profile: { provider: "openai", url: server.url, model: server.model }, repeat: 2 });
			assert.deepEqual([report.tasks[0].runs, report.tasks[0].successes], [2, 2]);
			assert.ok(report.tasks[0].ms.min <= report.tasks[0].ms.mean && report.tasks[0].ms.mean <= report.tasks[0].ms.max);
		} finally {
			await server.close();
		}
	});

	it("npm run eval:agent writes report.json and report.md, and refuses bad input with the fix", async () => {
		const run = promisify(execFile);
		const server = await startPersona("perfect", { scripts: perfectScripts() });
		const out = mkdtempSync(join(tmpdir(), "eval-agent-"));
		try {
			const { stdout } = await run(process.execPath, ["scripts/eval-agent.mjs", "--url", server.url, "--model", server.model, "--tasks", "alice-email,daily-append", "--repeat", "2", "--out", out], { cwd: root });
			assert.match(stdout, /4 of 4 runs succeeded/);
			const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
			assert.deepEqual(report.tasks.map((t) => [t.task, t.runs, t.successes]), [["alice-email", 2, 2], ["daily-append", 2, 2]]);
			assert.match(readFileSync(join(out, "report.md"), "utf8"), /^\| alice-email \| find \| 2\/2 \|/m);
			for (const [args, message] of [
				[["--provider", "mistral", "--url", server.url, "--model", "m"], /--provider must be openai or anthropic, not mistral/],
				[["--url", "localhost:11434", "--model", "m"], /--url needs the server's base address, starting with http/],
				[["--url", server.url, "--model", "m", "--key-env", "EVAL_AGENT_UNSET_KEY"], /EVAL_AGENT_UNSET_KEY \(named by --key-env\) is empty or not set/],
				[["--url", server.url, "--model", "m", "--tasks", "no-such-task"], /No task named no-such-task/],
			]) {
				const failed = await run(process.execPath, ["scripts/eval-agent.mjs", ...args], { cwd: root }).then(() => null, (error) => error);
				assert.equal(failed?.code, 2, args.join(" "));
				assert.match(failed.stderr, message);
			}
		} finally {
			await server.close();
			rmSync(out, { recursive: true, force: true });
		}
	});
});
