// Context you can keep small (issue 41.6) through the BUILT main.js, with a
// scripted model server on localhost: near a small window the chat compacts
// its earlier turns by itself (one summary request to the same server), and
// the next request carries the summary and, exactly, the outcome of every
// card from before; "Compact" on demand that fails leaves the chat as it was;
// "Fork from here" makes a new chat and leaves the original alone.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { copySampleVault, emulator, loadPlugin, removeVault, useEmulator } from "../support/harness.mjs";
import { isSummaryRequest, openaiStream, startModelServer } from "../support/model-servers.mjs";
import { question, scriptTurn } from "../support/ten-turns.mjs";

const SUMMARY = "The user tidies [[Roadmap]]: its status was set to done; archiving it was turned down.";
const ROADMAP = "Projects/Roadmap.md";

describe("compaction and forks (the built main.js, a real model server on localhost)", () => {
	const vaults = [];
	const servers = [];
	after(async () => {
		for (const server of servers) await server.close();
		for (const vault of vaults) removeVault(vault);
	});

	async function setup({ window = 4096, summary = SUMMARY } = {}) {
		const server = await startModelServer({ summary });
		servers.push(server);
		const vault = copySampleVault();
		vaults.push(vault);
		useEmulator(vault);
		const chat = { profiles: [{ id: "p", provider: "openAi", baseUrl: `${server.url}/v1`, model: "test-model", contextWindow: window }], activeProfile: "p" };
		const { plugin } = await loadPlugin(vault, { data: { cliPath: emulator, permissionMode: "askBeforeEdits", chat } });
		return { server, plugin };
	}

	const completions = (server) => server.requests.filter((r) => r.url.endsWith("/chat/completions"));

	async function turn(plugin, conversation, text) {
		const events = [];
		const result = await plugin.core.chatSend(conversation, text, (e) => events.push(e));
		return { ...result, events };
	}

	/** A property change behind a card, approved or rejected with the card's own answer. */
	async function cardTurn(plugin, server, conversation, value, approve) {
		server.script({ stream: openaiStream({ toolCalls: [["obsidianProperties", { command: "property:set", name: "status", value, path: ROADMAP }]] }) });
		const asked = await turn(plugin, conversation, `set the Roadmap's status to ${value}`);
		assert.equal(asked.end, "awaitingConfirmation", JSON.stringify(asked.events.filter((e) => e.type === "error")));
		const card = asked.events.find((e) => e.type === "confirmationNeeded").card;
		server.script({ stream: openaiStream({ text: approve ? "Done." : "Left as it is." }) });
		const answered = await plugin.core.chatResolve(asked.conversation, card.id, approve, card.argvHash, () => {});
		assert.equal(answered.end, "done");
		return answered.conversation;
	}

	it("compacts by itself near a small window, and the next request carries the summary and every card's outcome", async () => {
		const { server, plugin } = await setup();
		let conversation = plugin.core.newConversation();
		conversation = await cardTurn(plugin, server, conversation, "done", true);
		conversation = await cardTurn(plugin, server, conversation, "archived", false);
		const outcomes = conversation.messages.filter((m) => m.role === "tool" && (m.result.journal || m.result.error?.rejected)).map((m) => m.content);
		assert.equal(outcomes.length, 2, "one change made, one card rejected");
		let compacted = null;
		for (let n = 0; n < 10 && !compacted; n++) {
			scriptTurn(server, n);
			const result = await turn(plugin, conversation, question(n));
			assert.equal(result.end, "done", JSON.stringify(result.events.filter((e) => e.type === "error" || e.type === "notice")));
			conversation = result.conversation;
			compacted = result.events.find((e) => e.type === "compacted")?.compaction ?? null;
		}
		assert.ok(compacted, "compacted near the 4 096-token window");
		assert.equal(compacted.summary, SUMMARY);
		assert.ok(compacted.savedTokens > 500, `saved ${compacted.savedTokens}`);
		assert.deepEqual(conversation.compactions.at(-1), compacted, "kept with the chat");
		assert.equal(conversation.messages[0].text, "set the Roadmap's status to done", "the transcript keeps every message");

		const requests = completions(server);
		const at = requests.findIndex((r) => isSummaryRequest(r.body));
		const summaryRequest = requests[at].body;
		assert.equal(summaryRequest.messages.length, 2, "its instructions and the earlier turns");
		assert.ok(!summaryRequest.tools?.length, "no tools");
		assert.match(summaryRequest.messages[1].content, /^<chat>\nUser: set the Roadmap's status to done/);
		const next = requests[at + 1].body;
		const first = next.messages[1].content;
		assert.match(first, /^\[Earlier in this chat: \d+ turns summarised/);
		assert.ok(first.includes(SUMMARY), first);
		for (const outcome of outcomes) assert.ok(first.includes(outcome), `${outcome} is carried exactly`);
		assert.ok(first.includes(`- obsidianProperties property:set ${ROADMAP}: made.\n`), first);
		assert.ok(first.includes(`- obsidianProperties property:set ${ROADMAP}: rejected by the user; nothing changed.\n`), first);
		assert.ok(!JSON.stringify(next.messages).includes("set the Roadmap's status to done"), "the summarised turns are not sent");
	});

	it("a failed Compact leaves the chat as it was and says so; one that works draws on the summary from then on", async () => {
		const { server, plugin } = await setup({ window: 32768, summary: null });
		let conversation = plugin.core.newConversation();
		for (const n of [0, 1]) {
			scriptTurn(server, n);
			conversation = (await turn(plugin, conversation, question(n))).conversation;
		}
		server.script({ status: 500, json: { error: { message: "the model crashed" } } });
		const events = [];
		const failed = await plugin.core.chatCompact(conversation, (e) => events.push(e));
		assert.equal(failed.end, "failed");
		assert.deepEqual(failed.conversation, conversation, "nothing changed");
		const notice = events.find((e) => e.type === "notice");
		assert.match(notice.text, /^The chat was not compacted, and is as it was: /);
		assert.ok(!events.some((e) => e.type === "compacted"));

		server.script({ stream: openaiStream({ text: "A short summary of the first turn." }) });
		const done = await plugin.core.chatCompact(conversation, () => {});
		assert.equal(done.end, "done");
		assert.equal(done.conversation.compactions.length, 1);
		assert.equal(done.conversation.compactions[0].turns, 1, "the last turn stays whole");
		assert.deepEqual(done.conversation.messages, conversation.messages);
		server.script({ stream: openaiStream({ text: "Yes." }) });
		await turn(plugin, done.conversation, "and now?");
		const last = completions(server).at(-1).body;
		assert.match(last.messages[1].content, /A short summary of the first turn\./);
		assert.ok(!JSON.stringify(last.messages).includes(question(0).slice(0, 40)), "the first turn is read as its summary");
		assert.ok(JSON.stringify(last.messages).includes(question(1).slice(0, 40)), "the last one whole");
	});

	it("forks a chat from a message into a new stored chat; the original is unchanged", async () => {
		const { server, plugin } = await setup({ window: 32768 });
		let conversation = plugin.core.newConversation();
		for (const n of [0, 1]) {
			scriptTurn(server, n);
			conversation = (await turn(plugin, conversation, question(n))).conversation;
		}
		const before = structuredClone(conversation);
		const forked = plugin.core.forkConversation(conversation, "assistant", 0);
		assert.deepEqual(conversation, before);
		assert.notEqual(forked.id, conversation.id);
		assert.equal(forked.title, `${conversation.title} (fork)`);
		assert.deepEqual(forked.messages[0], { role: "notice", text: `Forked from “${conversation.title}”.` });
		assert.deepEqual(forked.messages.slice(1), conversation.messages.slice(0, 4));
		assert.throws(() => plugin.core.forkConversation(conversation, "assistant", 9), /not in this chat any more/);
		await plugin.conversations.save(forked);
		assert.ok((await plugin.conversations.list()).some((c) => c.id === forked.id && c.title.endsWith("(fork)")));
	});
});
