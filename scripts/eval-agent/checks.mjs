// Scoring one task's run by checks, never by another model: the answer's
// facts, the calls made, the cards raised and what the vault holds after the
// harness approved every card. Each check that fails says what it saw.

import { chatsOf } from "./tasks.mjs";

/** The notice the core shows when a reply was a call written as text while text-form calls are off. */
const TEXT_CALL_NOTICE = /wrote a tool call as text/;

/**
 * `run`: { end, answer, answers and ends (one per chat, in order), calls: [{tool, args}], cards, plans,
 * changesCards, inPlace, notices, errors, roundLimit, files: { path: text } after, changed: [paths] }.
 * `task.expect` is scored on the last chat's answer and on the whole run; a chat's own `expect`
 * (`has`, `lacks`, `asks`) on that chat's answer. Returns the failed checks' messages.
 */
export function score(task, run) {
	const expect = task.expect;
	const failed = [];
	const chats = chatsOf(task);
	const answers = run.answers ?? [run.answer];
	const ends = run.ends ?? [run.end];
	chats.forEach((chat, at) => {
		// Where a task has several chats, a failure names which one.
		const which = chats.length > 1 ? `chat ${at + 1}: ` : "";
		const answer = answers[at] ?? "";
		if (ends[at] !== "done" || !answer.trim()) failed.push(`${which}no answer: the turn ended ${ends[at]}${answer.trim() ? "" : " without text"}`);
		const last = at === chats.length - 1;
		for (const want of [chat.expect, last ? expect : null]) if (want) failed.push(...answerProblems(want, answer, which));
	});
	for (const [tool, args] of expect.calls ?? []) {
		if (!run.calls.some((c) => c.tool === tool && subset(args ?? {}, c.args))) failed.push(`no call ${tool} ${JSON.stringify(args ?? {})}`);
	}
	for (const [tool, args] of expect.noCalls ?? []) {
		const bad = run.calls.find((c) => c.tool === tool && subset(args ?? {}, c.args));
		if (bad) failed.push(`a call it must not make: ${tool} ${JSON.stringify(bad.args)}`);
	}
	if (expect.plan) {
		// Plan first: a plan was proposed (and approved by the harness) naming exactly these notes.
		const notes = (run.plans?.[0]?.steps ?? []).map((s) => s.note).sort();
		if (JSON.stringify(notes) !== JSON.stringify([...expect.plan].sort())) failed.push(notes.length ? `the plan names ${notes.join(", ")}; expected ${expect.plan.join(", ")}` : "no plan proposed");
	}
	if (expect.oneCard !== undefined) {
		const sizes = (run.changesCards ?? []).map((c) => c.changes.length);
		if (sizes[0] !== expect.oneCard) failed.push(sizes.length ? `the plan's card listed ${sizes[0]} changes, expected ${expect.oneCard}` : "no card with the plan's changes");
	}
	if (expect.compacted && !(run.compactions ?? []).length) failed.push("the chat was never compacted, so the task tested nothing of it");
	if (expect.inPlace) failed.push(...inPlaceProblems(expect.inPlace, run.inPlace ?? []));
	if (expect.card) failed.push(...cardProblems(expect.card, run.cards));
	if (expect.noCard && run.cards.length) failed.push(`a card it must not raise: ${run.cards[0].summary}`);
	if (expect.changed) {
		const want = [...expect.changed].sort();
		const got = [...run.changed].sort();
		if (JSON.stringify(want) !== JSON.stringify(got)) failed.push(`changed ${got.length ? got.join(", ") : "nothing"}; expected ${want.length ? want.join(", ") : "nothing"}`);
	}
	for (const [path, want] of Object.entries(expect.vault ?? {})) {
		const text = run.files[path];
		if (want.missing) {
			if (text !== undefined) failed.push(`${path} still exists`);
			continue;
		}
		if (text === undefined) {
			failed.push(`${path} does not exist`);
			continue;
		}
		for (const part of want.has ?? []) if (!matches(text, part)) failed.push(`${path} lacks ${show(part)}`);
		for (const part of want.lacks ?? []) if (matches(text, part)) failed.push(`${path} holds ${show(part)}`);
	}
	return failed;
}

/**
 * The one reason a failed run failed, for the report: what went wrong with the
 * model or the turn where that shows, else the first failed check.
 */
export function diagnose(task, run, failed) {
	if (!failed.length) return null;
	const firstSentence = (text) => text.split("\n")[0].replace(/\.\s.*$/, ".");
	if (run.errors.length) return `server error ${run.errors[0].code}: ${firstSentence(run.errors[0].message)}`;
	if (run.notices.some((n) => TEXT_CALL_NOTICE.test(n))) return "tool call written as text (text-form calls are off)";
	if (run.end === "roundLimit") return `stopped by the loop guard: ${firstSentence(run.roundLimit ?? run.notices.at(-1) ?? "the round limit")}`;
	// A task its careful solution needs tools for, answered without any.
	const needsTools = chatsOf(task).some((chat) => (chat.perfect ?? []).some((step) => step.calls)) || (task.expect.calls ?? []).length > 0;
	if (needsTools && !run.calls.length) return "no tool called";
	return failed[0];
}

/** What a chat's answer must and must not hold. */
function answerProblems(want, answer, which) {
	const failed = [];
	for (const fact of want.has ?? []) {
		if (!matches(answer, fact)) failed.push(`${which}the answer lacks ${show(fact)}`);
	}
	for (const fact of want.lacks ?? []) {
		if (matches(answer, fact)) failed.push(`${which}the answer holds ${show(fact)}, which it must not`);
	}
	if (want.asks && !/\?/.test(answer)) failed.push(`${which}the answer asks nothing back (no question)`);
	return failed;
}

/** A note edit's cards reviewed in place: how many changes they offered, and how many the user accepted. */
function inPlaceProblems(want, reviewed) {
	if (!reviewed.length) return ["no card of a note edit to review in place"];
	const problem = reviewed.find((r) => r.problem);
	if (problem) return [`a card could not be reviewed in place: ${problem.problem}`];
	const changes = reviewed.reduce((sum, r) => sum + r.changes, 0);
	const accepted = reviewed.reduce((sum, r) => sum + r.accepted, 0);
	if (changes === want.changes && accepted === want.accepted) return [];
	return [`reviewed in place: ${accepted} of ${changes} changes accepted; expected ${want.accepted} of ${want.changes}`];
}

function cardProblems(want, cards) {
	const card = cards.find((c) => (!want.tool || c.toolId === want.tool) && (!want.command || c.command === want.command));
	if (!card) return [`no card for ${want.tool ?? "a change"}${want.command ? ` ${want.command}` : ""}${cards.length ? ` (cards: ${cards.map((c) => c.summary).join("; ")})` : ""}`];
	const problems = [];
	const preview = card.preview ?? {};
	if (want.target && !String(preview.target ?? card.summary).includes(want.target)) problems.push(`the card is for ${preview.target ?? card.summary}, not ${want.target}`);
	const lines = (kind) => (preview.diff?.hunks ?? []).flatMap((h) => h.lines.filter((l) => l.kind === kind).map((l) => l.segments.map((s) => s.text).join("")));
	for (const [kind, wanted] of [["added", want.added], ["removed", want.removed]]) {
		if (!wanted) continue;
		const got = lines(kind);
		if (JSON.stringify(got) !== JSON.stringify(wanted)) problems.push(`the card's ${kind} lines are ${JSON.stringify(got)}, expected ${JSON.stringify(wanted)}`);
	}
	for (const [side, wanted] of [["before", want.before], ["after", want.after]]) {
		if (wanted !== undefined && preview[side] !== wanted) problems.push(`the card shows ${side} ${JSON.stringify(preview[side])}, expected ${JSON.stringify(wanted)}`);
	}
	return problems;
}

function matches(text, fact) {
	return fact instanceof RegExp ? fact.test(text) : text.toLowerCase().includes(fact.toLowerCase());
}

function show(fact) {
	return fact instanceof RegExp ? String(fact) : JSON.stringify(fact);
}

/** Whether every key of `want` is in `got` with an equal value (strings ignore case). */
function subset(want, got) {
	return Object.entries(want).every(([key, value]) => {
		const have = got?.[key];
		if (typeof value === "string" && typeof have === "string") return have.toLowerCase() === value.toLowerCase();
		return JSON.stringify(have) === JSON.stringify(value);
	});
}
