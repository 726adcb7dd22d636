// The task benchmark: how often the agent does what was asked with a given
// model. Runs the tasks of scripts/eval-agent/tasks.mjs through the BUILT
// main.js over temporary copies of the sample vault behind the CLI emulator
// (your own vaults are never opened), scores each by checks, and writes
// report.json and report.md. See docs/models.md.
//
//   npm run eval:agent -- --url http://localhost:11434/v1 --model qwen2.5:7b
//   npm run eval:agent -- --provider anthropic --url https://api.anthropic.com \
//       --model claude-sonnet-4-5 --key-env ANTHROPIC_API_KEY --repeat 3
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { emulator, root } from "../tests/support/harness.mjs";
import { markdown, summarise } from "./eval-agent/report.mjs";
import { runBenchmark } from "./eval-agent/run.mjs";
import { CATEGORIES, chatsOf, TASKS } from "./eval-agent/tasks.mjs";

const USAGE = `Usage: npm run eval:agent -- --url <base address> --model <model> [options]

  --provider openai|anthropic  the server's API (default openai: any OpenAI-compatible server)
  --url <address>              the base address, e.g. http://localhost:11434/v1 (Ollama),
                               http://localhost:1234/v1 (LM Studio), https://api.anthropic.com
  --model <name>               the model, as the server names it
  --key-env <VARIABLE>         the environment variable that holds the API key (never the key itself)
  --repeat <n>                 run every task n times, for the spread (default 1)
  --out <folder>               where report.json and report.md go (default eval-results/<date and time>)
  --tasks <id,id,…>            only these tasks; --category <name> only one category (${Object.keys(CATEGORIES).join(", ")})
  --text-tool-calls            turn on "Tool calls written as text" for the profile
  --context-window <tokens>    the profile's context window (default: ask the server, else the plugin's default)
  --list                       list the tasks and stop`;

function fail(message) {
	console.error(`${message}\n\n${USAGE}`);
	process.exit(2);
}

let options;
try {
	({ values: options } = parseArgs({
		options: {
			provider: { type: "string", default: "openai" },
			url: { type: "string" },
			model: { type: "string" },
			"key-env": { type: "string" },
			repeat: { type: "string", default: "1" },
			out: { type: "string" },
			tasks: { type: "string" },
			category: { type: "string" },
			"text-tool-calls": { type: "boolean", default: false },
			"context-window": { type: "string" },
			list: { type: "boolean", default: false },
			help: { type: "boolean", default: false },
		},
	}));
} catch (error) {
	fail(error.message);
}
if (options.help) {
	console.log(USAGE);
	process.exit(0);
}

let tasks = TASKS;
if (options.category) {
	if (!CATEGORIES[options.category]) fail(`--category ${options.category} is not one of ${Object.keys(CATEGORIES).join(", ")}.`);
	tasks = tasks.filter((t) => t.category === options.category);
}
if (options.tasks) {
	const wanted = options.tasks.split(",").map((id) => id.trim());
	const unknown = wanted.filter((id) => !TASKS.some((t) => t.id === id));
	if (unknown.length) fail(`No task named ${unknown.join(", ")}: --list shows them.`);
	tasks = tasks.filter((t) => wanted.includes(t.id));
}
if (options.list) {
	for (const task of tasks) console.log(`${task.id.padEnd(24)} ${task.category.padEnd(10)} ${chatsOf(task).map((chat) => chat.prompt).join(" / then, in a new chat: ")}`);
	process.exit(0);
}

if (!["openai", "anthropic"].includes(options.provider)) fail(`--provider must be openai or anthropic, not ${options.provider}.`);
if (!options.url || !/^https?:\/\/\S+$/.test(options.url)) fail("--url needs the server's base address, starting with http:// or https://.");
if (!options.model) fail("--model needs the model's name, as the server lists it.");
const repeat = Number(options.repeat);
if (!Number.isInteger(repeat) || repeat < 1 || repeat > 50) fail(`--repeat must be a whole number from 1 to 50, not ${options.repeat}.`);
let contextWindow = 0;
if (options["context-window"] !== undefined) {
	contextWindow = Number(options["context-window"]);
	if (!Number.isInteger(contextWindow) || contextWindow < 1_024) fail(`--context-window must be a number of tokens (1024 or more), not ${options["context-window"]}.`);
}
let apiKey = "";
if (options["key-env"]) {
	apiKey = process.env[options["key-env"]] ?? "";
	if (!apiKey) fail(`The environment variable ${options["key-env"]} (named by --key-env) is empty or not set.`);
}
for (const [file, what] of [[join(root, "main.js"), "main.js"], [emulator, "the CLI emulator"]]) {
	if (!existsSync(file)) fail(`${what} is missing (${file}): run npm run build first.`);
}

const profile = { provider: options.provider, url: options.url.replace(/\/+$/, ""), model: options.model, apiKey, textToolCalls: options["text-tool-calls"], contextWindow };
const out = resolve(options.out ?? join(root, "eval-results", new Date().toISOString().replace(/[:.]/g, "-")));
mkdirSync(out, { recursive: true });

console.log(`${tasks.length} tasks × ${repeat} against ${profile.model} at ${profile.url} (${profile.provider}); vault: temporary copies of tests/sample-vault.`);
const runs = await runBenchmark(tasks, profile, {
	repeat,
	onRun: (r) => console.log(`${r.success ? "pass" : "FAIL"}  ${r.task}${repeat > 1 ? ` #${r.attempt}` : ""}  ${r.toolCalls} calls, ${r.rounds} rounds, ${r.ms} ms${r.reason ? `  (${r.reason})` : ""}`),
});
const report = summarise(runs, { profile, repeat });
writeFileSync(join(out, "report.json"), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(join(out, "report.md"), markdown(report));
console.log(`\n${report.total.successes} of ${report.total.runs} runs succeeded. Report: ${join(out, "report.md")} and report.json`);
// The plugin's timers and sockets may outlive the last task.
process.exit(0);
