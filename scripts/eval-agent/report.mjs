// The benchmark's report: per task and per category, success and the spread
// of tool calls, rounds, tokens and time over the repeats; as JSON and as a
// Markdown table.
import { CATEGORIES } from "./tasks.mjs";

/** Sums up `runs` (records from run.mjs) for `profile`. */
export function summarise(runs, { profile, repeat, date = new Date().toISOString() }) {
	const byTask = groupBy(runs, (r) => r.task);
	const tasks = [...byTask].map(([task, list]) => ({
		task,
		category: list[0].category,
		...figures(list),
		// Why it failed, each reason once, most frequent first.
		reasons: countReasons(list),
	}));
	const categories = [...groupBy(runs, (r) => r.category)].map(([category, list]) => ({ category, name: CATEGORIES[category] ?? category, tasks: new Set(list.map((r) => r.task)).size, ...figures(list) }));
	const { apiKey: _hidden, ...shown } = profile;
	return { date, profile: shown, repeat, total: { tasks: tasks.length, ...figures(runs) }, categories, tasks, runs };
}

function figures(list) {
	const successes = list.filter((r) => r.success).length;
	return {
		runs: list.length,
		successes,
		successRate: list.length ? successes / list.length : 0,
		toolCalls: spread(list.map((r) => r.toolCalls)),
		rounds: spread(list.map((r) => r.rounds)),
		tokens: spread(list.map((r) => r.inputTokens + r.outputTokens)),
		ms: spread(list.map((r) => r.ms)),
	};
}

function spread(values) {
	const sorted = [...values].sort((a, b) => a - b);
	const mean = values.reduce((sum, v) => sum + v, 0) / (values.length || 1);
	return { mean: Math.round(mean * 10) / 10, min: sorted[0] ?? 0, max: sorted.at(-1) ?? 0 };
}

function countReasons(list) {
	const counts = new Map();
	for (const r of list) if (r.reason) counts.set(r.reason, (counts.get(r.reason) ?? 0) + 1);
	return [...counts].sort((a, b) => b[1] - a[1]).map(([reason, times]) => ({ reason, times }));
}

function groupBy(list, key) {
	const groups = new Map();
	for (const item of list) {
		const k = key(item);
		if (!groups.has(k)) groups.set(k, []);
		groups.get(k).push(item);
	}
	return groups;
}

/** The report as Markdown: the profile, the categories, then every task. */
export function markdown(report) {
	const { profile } = report;
	const pct = (x) => `${Math.round(x * 100)} %`;
	const range = (s) => (s.min === s.max ? `${s.mean}` : `${s.mean} (${s.min}–${s.max})`);
	const lines = [
		`# Task benchmark: ${profile.model}`,
		"",
		`${report.date.slice(0, 10)}; ${profile.provider} at ${profile.url}; text-form tool calls ${profile.textToolCalls ? "on" : "off"}; context window ${profile.contextWindow || "from the server or the default"}; ${report.repeat} run(s) a task.`,
		"",
		`**${report.total.successes} of ${report.total.runs} runs succeeded (${pct(report.total.successRate)})** over ${report.total.tasks} tasks.`,
		"",
		"| Category | Tasks | Success | Tool calls | Rounds | Tokens | Time (ms) |",
		"|---|---|---|---|---|---|---|",
		...report.categories.map((c) => `| ${c.name} | ${c.tasks} | ${pct(c.successRate)} | ${range(c.toolCalls)} | ${range(c.rounds)} | ${range(c.tokens)} | ${range(c.ms)} |`),
		"",
		"| Task | Category | Success | Tool calls | Rounds | Tokens | Time (ms) | Why it failed |",
		"|---|---|---|---|---|---|---|---|",
		...report.tasks.map((t) => `| ${t.task} | ${t.category} | ${t.successes}/${t.runs} | ${range(t.toolCalls)} | ${range(t.rounds)} | ${range(t.tokens)} | ${range(t.ms)} | ${cell(t.reasons.map((r) => (report.repeat > 1 ? `${r.reason} (×${r.times})` : r.reason)).join("; "))} |`),
		"",
		"Means, with the lowest and highest run in brackets where they differ. Tokens are what the server reported (0 where it reports none).",
		"",
	];
	return lines.join("\n");
}

function cell(text) {
	return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}
