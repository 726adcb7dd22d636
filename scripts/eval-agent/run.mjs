// Runs benchmark tasks through the BUILT main.js, each on a fresh temporary
// copy of the sample vault behind the CLI emulator, through the same chat loop
// as the sidebar; approves every card the agent raises, as a user who asked
// for the change would, then reads the vault and scores the run. A task of
// several chats (`chats`) runs them in order, each a new conversation of the
// same plugin, with the user's own edits of notes made between them.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { copySampleVault, emulator, loadPlugin, removeVault, useEmulator } from "../../tests/support/harness.mjs";
import { startWebServer } from "../../tests/support/web-server.mjs";
import { diagnose, score } from "./checks.mjs";
import { chatsOf } from "./tasks.mjs";

/** The secret name the profile's key is stored under in the test double. */
const KEY_SECRET = "eval-agent-key";
/** Cards approved in one task at most: a model that keeps asking is stopped. */
const MAX_CARDS = 8;

/**
 * `profile`: { provider: "openai" | "anthropic", url, model, apiKey?,
 * textToolCalls?, contextWindow? }. Returns one record per run, in task order.
 */
export async function runBenchmark(tasks, profile, { repeat = 1, onRun = () => {} } = {}) {
	const runs = [];
	for (const task of tasks) {
		for (let attempt = 1; attempt <= repeat; attempt++) {
			const record = await runTask(task, profile);
			record.attempt = attempt;
			runs.push(record);
			onRun(record);
		}
	}
	return runs;
}

/** One task, once: its own vault copy and its own plugin. */
export async function runTask(task, profile) {
	const vault = copySampleVault();
	let plugin = null;
	// A web task searches a SearXNG-like server on 127.0.0.1, started for it alone.
	const webServer = task.web ? await startWebServer({ resultBase: task.web.resultBase }) : null;
	try {
		for (const [path, text] of Object.entries(task.setup ?? {})) {
			mkdirSync(dirname(join(vault, path)), { recursive: true });
			writeFileSync(join(vault, path), text);
		}
		const before = vaultFiles(vault);
		useEmulator(vault);
		({ plugin } = await loadPlugin(vault, { data: pluginData(task, profile, webServer?.url) }));
		if (profile.apiKey) plugin.app.secretStorage.setSecret(KEY_SECRET, profile.apiKey);
		const run = await converse(plugin, task, vault, (edits) => {
			// The user's own edits between chats: not the agent's changes.
			for (const [path, edit] of Object.entries(edits)) {
				const text = edit(readFileSync(join(vault, path), "utf8"));
				writeFileSync(join(vault, path), text);
				before[path] = text;
			}
		});
		const after = vaultFiles(vault);
		run.files = after;
		run.changed = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((p) => before[p] !== after[p]);
		const failed = score(task, run);
		return {
			task: task.id,
			category: task.category,
			success: failed.length === 0,
			reason: diagnose(task, run, failed),
			failed,
			end: run.end,
			chats: run.answers.length,
			toolCalls: run.calls.length,
			rounds: run.rounds,
			inputTokens: run.usage.inputTokens ?? 0,
			outputTokens: run.usage.outputTokens ?? 0,
			ms: Math.round(run.ms),
			calls: run.calls.map((c) => `${c.tool} ${JSON.stringify(c.args)}`),
			cards: run.cards.map((c) => c.summary),
			inPlace: run.inPlace,
			notices: run.notices,
			answer: run.answer,
		};
	} finally {
		plugin?.unload();
		removeVault(vault);
		await webServer?.close();
	}
}

function pluginData(task, profile, searxngUrl) {
	const anthropic = profile.provider === "anthropic";
	const server = {
		baseUrl: profile.url,
		model: profile.model,
		apiKeySecret: profile.apiKey ? KEY_SECRET : "",
		contextWindow: task.contextWindow ?? profile.contextWindow ?? 0,
		textToolCalls: Boolean(profile.textToolCalls),
	};
	return {
		cliPath: emulator,
		permissionMode: task.mode ?? "readOnly",
		...(task.settings ?? {}),
		...(searxngUrl ? { web: { enabled: true, provider: "searxng", searxngUrl } } : {}),
		chat: { ...(task.settings?.chat ?? {}), provider: anthropic ? "anthropic" : "openAi", [anthropic ? "anthropic" : "openai"]: server },
	};
}

/**
 * Each chat of the task in order, a new conversation each (the user's
 * `edits` of notes made first, through `userEdits`); its answer and how it
 * ended are kept per chat, the last chat's as the task's.
 */
async function converse(plugin, task, vault, userEdits) {
	const seen = { calls: [], cards: [], plans: [], changesCards: [], inPlace: [], notices: [], errors: [], rounds: 0, roundLimit: null, compactions: [], answers: [], ends: [], usages: [] };
	const started = performance.now();
	let last = null;
	for (const chat of chatsOf(task)) {
		userEdits(chat.edits ?? {});
		last = await oneChat(plugin, task, chat, seen, vault);
		seen.answers.push(last.answer);
		seen.ends.push(last.end);
	}
	const ms = performance.now() - started;
	const usage = { inputTokens: sum(seen.usages, "inputTokens"), outputTokens: sum(seen.usages, "outputTokens") };
	return { ...seen, end: last.end, answer: last.answer, usage, ms };
}

function sum(list, key) {
	return list.reduce((total, usage) => total + (usage[key] ?? 0), 0);
}

/**
 * The user's message, then every card approved until the turn ends: a plan
 * card (plan mode) as proposed, all its changes on one card where the task
 * says `together`, and that card; a note edit's card reviewed in place
 * where the task says `inPlace`.
 */
async function oneChat(plugin, task, chat, seen, vault) {
	const core = plugin.core;
	const onEvent = (event) => {
		switch (event.type) {
			case "modelRound":
				seen.rounds += 1;
				break;
			case "toolStarted":
				seen.calls.push({ tool: event.tool, args: parse(event.arguments) });
				break;
			case "confirmationNeeded":
				seen.cards.push(event.card);
				break;
			case "planProposed":
				seen.plans.push(event.plan);
				break;
			case "planChangesNeeded":
				seen.changesCards.push(event.card);
				break;
			case "notice":
				seen.notices.push(event.text);
				break;
			case "roundLimit":
				seen.roundLimit = event.text;
				break;
			case "error":
				seen.errors.push({ code: event.code, message: event.message });
				break;
			case "compacted":
				seen.compactions.push(event.compaction);
				break;
		}
	};
	let result = { conversation: { ...core.newConversation(), planMode: Boolean(task.planMode) } };
	// A long chat's earlier messages first, each answered (its cards approved), then the chat's own.
	for (const message of [...(chat.earlier ?? []).map((e) => e.prompt), chat.prompt]) {
		result = await answerOne(core, result.conversation, message, task, seen, onEvent, vault);
	}
	// The last assistant text is the answer to the chat's own message.
	const answer = result.conversation.messages.findLast((m) => m.role === "assistant")?.text ?? "";
	seen.usages.push(result.conversation.usage ?? {});
	return { end: result.end, answer };
}

/** One message sent, then every card it raises approved until its turn ends. */
async function answerOne(core, conversation, message, task, seen, onEvent, vault) {
	let result = await core.chatSend(conversation, message, onEvent);
	let approved = 0;
	while (result.end === "awaitingConfirmation" && approved < MAX_CARDS) {
		const waiting = result.conversation.paused.confirmationId;
		approved += 1;
		const plan = seen.plans.find((p) => p.id === waiting);
		const changes = seen.changesCards.find((c) => c.id === waiting);
		if (plan) {
			const steps = plan.steps.map((step, index) => ({ index, what: step.what }));
			result = await core.chatAnswerPlan(result.conversation, plan.id, { approve: true, steps, together: Boolean(task.together) }, onEvent);
		} else if (changes) {
			result = await core.chatResolve(result.conversation, changes.id, true, changes.argvHash, onEvent);
		} else {
			const card = core.confirmationCard(waiting);
			const inPlace = task.inPlace && card.editsNote ? reviewInPlace(core, card, task.inPlace, vault, seen) : null;
			result = inPlace
				? await core.chatResolve(result.conversation, card.id, inPlace.approve, card.argvHash, onEvent, false, inPlace.changes)
				: await core.chatResolve(result.conversation, card.id, true, card.argvHash, onEvent);
		}
	}
	return result;
}

/**
 * A note edit's card reviewed as in the editor (cards/in-place.ts): its
 * changes placed in the note as it is on disk, each accepted when `accept`
 * matches its new text and rejected otherwise, then the card settled as the
 * core says. Returns the chatResolve answer, or null to approve it whole.
 */
function reviewInPlace(core, card, { accept }, vault, seen) {
	const text = readFileSync(join(vault, card.editsNote), "utf8");
	let review = core.editReview(card.id, text);
	if (review.problem) {
		seen.inPlace.push({ problem: review.problem });
		return null;
	}
	review.changes.forEach((change, index) => {
		review = core.answerChange(card.id, index, accept.test(change.newText), text);
	});
	seen.inPlace.push({ changes: review.changes.length, accepted: review.answers.filter(Boolean).length });
	const settle = review.settle;
	if (!settle) return null;
	if (settle.answer === "reject") return { approve: false };
	return { approve: true, changes: settle.answer === "approveChanges" ? Uint32Array.from(settle.changes) : undefined };
}

function parse(text) {
	try {
		return JSON.parse(text || "{}");
	} catch {
		return { unparsable: text };
	}
}

/** Every file of the vault but Obsidian's own folder, as text. */
function vaultFiles(vault) {
	const files = {};
	const walk = (relative) => {
		for (const entry of readdirSync(join(vault, relative), { withFileTypes: true })) {
			if (!relative && entry.name === ".obsidian") continue;
			const path = relative ? `${relative}/${entry.name}` : entry.name;
			if (entry.isDirectory()) walk(path);
			else files[path] = readFileSync(join(vault, path), "utf8");
		}
	};
	walk("");
	return files;
}
