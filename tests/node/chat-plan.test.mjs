// Plan first (issue 41.3) through the BUILT main.js, with a scripted model
// server on localhost: in plan mode the model reads and proposes a plan with
// proposePlan; the plan card's answer (approved, edited, rejected) reaches the
// model; an approved plan is carried out through the ordinary tools; a plan
// that leaves the scopes is refused before it is shown; a change to a note
// outside the plan waits for its own card even where the mode would let it run.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { copySampleVault, emulator, loadPlugin, removeVault } from "../support/harness.mjs";
import { openaiStream, startModelServer } from "../support/model-servers.mjs";

const ROADMAP = "Projects/Roadmap.md";
const LAUNCH = "Projects/Launch plan.md";

describe("plan mode (the built main.js, a real model server on localhost)", () => {
	const vaults = [];
	const servers = [];
	after(async () => {
		for (const server of servers) await server.close();
		for (const vault of vaults) removeVault(vault);
	});

	async function setup(data = {}) {
		const server = await startModelServer();
		servers.push(server);
		const vault = copySampleVault();
		vaults.push(vault);
		const chat = { profiles: [{ id: "p", provider: "openAi", baseUrl: `${server.url}/v1`, model: "test-model" }], activeProfile: "p" };
		const { plugin } = await loadPlugin(vault, { data: { cliPath: emulator, permissionMode: "askBeforeEdits", ...data, chat } });
		const read = (path) => readFileSync(join(vault, path), "utf8");
		return { server, plugin, vault, read };
	}

	const completions = (server) => server.requests.filter((r) => r.url.endsWith("/chat/completions"));
	const toolMessages = (body) => body.messages.filter((m) => m.role === "tool").map((m) => m.content);

	function recorder() {
		const events = [];
		return { events, on: (event) => events.push(event), of: (type) => events.filter((e) => e.type === type) };
	}

	async function propose(plugin, server, steps) {
		server.script({ stream: openaiStream({ toolCalls: [["obsidianNotes", { command: "read", path: ROADMAP }]] }) });
		server.script({ stream: openaiStream({ toolCalls: [["proposePlan", { summary: "Tidy the projects", steps }]] }) });
		const conversation = { ...plugin.core.newConversation(), planMode: true };
		const seen = recorder();
		const result = await plugin.core.chatSend(conversation, "tidy my project notes", seen.on);
		return { ...result, seen };
	}

	it("proposes a plan after reading, and carries it out once approved", async () => {
		const { server, plugin, read } = await setup();
		const before = read(ROADMAP);
		const sent = await propose(plugin, server, [{ note: ROADMAP, action: "append", what: "Add a status line" }]);
		assert.equal(sent.end, "awaitingConfirmation");
		const [card] = sent.seen.of("planProposed");
		assert.ok(card, JSON.stringify(sent.seen.events.map((e) => e.type)));
		assert.deepEqual(card.plan.steps, [{ note: ROADMAP, action: "append", what: "Add a status line" }]);
		assert.equal(card.plan.state, "proposed");
		const first = completions(server)[0].body;
		assert.ok(first.tools.some((t) => t.function.name === "proposePlan"), "proposePlan is offered in plan mode");
		assert.match(first.messages[0].content, /Plan mode is on/);
		assert.equal(read(ROADMAP), before, "nothing changes while the plan waits");

		server.script({ stream: openaiStream({ toolCalls: [["obsidianEdit", { command: "append", path: ROADMAP, content: "Status: on track" }]] }) });
		server.script({ stream: openaiStream({ text: "Done: the status line is added." }) });
		const answered = recorder();
		const done = await plugin.core.chatAnswerPlan(sent.conversation, card.plan.id, { approve: true, steps: [{ index: 0, what: "Add a status line" }] }, answered.on);
		assert.equal(done.end, "done");
		assert.match(read(ROADMAP), /Status: on track/);
		assert.equal(answered.of("confirmationNeeded").length, 0, "a step of the plan follows the mode: an addition runs at once");
		const carrying = completions(server)[2].body;
		assert.match(toolMessages(carrying).at(-1), /The user approved the plan:\n1\. append Projects\/Roadmap\.md: Add a status line/);
		assert.ok(!carrying.tools.some((t) => t.function.name === "proposePlan"), "no second plan while carrying one out");
		assert.equal(done.conversation.plan.state, "done");
	});

	it("carries out the plan as the user edited it: a step removed, a step's text changed", async () => {
		const { server, plugin, read } = await setup();
		const launch = read(LAUNCH);
		const sent = await propose(plugin, server, [
			{ note: ROADMAP, action: "append", what: "Add a status line" },
			{ note: LAUNCH, action: "append", what: "Add a risks section" },
		]);
		const [card] = sent.seen.of("planProposed");
		server.script({ stream: openaiStream({ toolCalls: [["obsidianEdit", { command: "append", path: ROADMAP, content: "Status: late" }]] }) });
		server.script({ stream: openaiStream({ text: "Done." }) });
		const done = await plugin.core.chatAnswerPlan(sent.conversation, card.plan.id, { approve: true, steps: [{ index: 0, what: "Add a status line saying late" }] }, () => {});
		assert.equal(done.end, "done");
		const told = toolMessages(completions(server)[2].body).at(-1);
		assert.match(told, /approved the plan \(as the user edited it\):\n1\. append Projects\/Roadmap\.md: Add a status line saying late\n/);
		assert.doesNotMatch(told, /risks/);
		assert.deepEqual(done.conversation.plan.steps.map((s) => s.note), [ROADMAP]);
		assert.match(read(ROADMAP), /Status: late/);
		assert.equal(read(LAUNCH), launch);
	});

	it("a rejected plan changes nothing, and the model is told", async () => {
		const { server, plugin, read } = await setup();
		const before = read(ROADMAP);
		const sent = await propose(plugin, server, [{ note: ROADMAP, action: "append", what: "Add a status line" }]);
		const [card] = sent.seen.of("planProposed");
		server.script({ stream: openaiStream({ text: "Understood, nothing changed." }) });
		const done = await plugin.core.chatAnswerPlan(sent.conversation, card.plan.id, { approve: false }, () => {});
		assert.equal(done.end, "done");
		assert.match(toolMessages(completions(server)[2].body).at(-1), /plan_rejected[\s\S]*rejected the plan\. Nothing was changed/);
		assert.equal(done.conversation.plan.state, "rejected");
		assert.equal(read(ROADMAP), before);
	});

	it("refuses a plan that leaves the write folders before it is shown, with the reason", async () => {
		const { server, plugin, read } = await setup({ writeFolders: ["Projects"] });
		const welcome = read("Welcome.md");
		const steps = [
			{ note: ROADMAP, action: "append", what: "Add a status line" },
			{ note: "Welcome.md", action: "edit", what: "Link the roadmap" },
		];
		server.script({ stream: openaiStream({ toolCalls: [["proposePlan", { steps }]] }) });
		server.script({ stream: openaiStream({ text: "I cannot change Welcome.md." }) });
		const seen = recorder();
		const sent = { ...(await plugin.core.chatSend({ ...plugin.core.newConversation(), planMode: true }, "tidy", seen.on)), seen };
		assert.equal(sent.end, "done");
		assert.equal(sent.seen.of("planProposed").length, 0, "no plan card");
		assert.match(toolMessages(completions(server)[1].body).at(-1), /plan_refused[\s\S]*step 2 names Welcome\.md, outside the folders the agent may change/);
		assert.equal(read("Welcome.md"), welcome);
	});

	it("refuses a change while planning, and puts a change outside the approved plan on its own card", async () => {
		const { server, plugin, read } = await setup();
		const before = read("Welcome.md");
		// Planning: the change is refused at the door, the vault untouched.
		server.script({ stream: openaiStream({ toolCalls: [["obsidianEdit", { command: "append", path: "Welcome.md", content: "early" }]] }) });
		server.script({ stream: openaiStream({ toolCalls: [["proposePlan", { steps: [{ note: ROADMAP, action: "append", what: "Add a status line" }] }]] }) });
		const seen = recorder();
		const sent = await plugin.core.chatSend({ ...plugin.core.newConversation(), planMode: true }, "tidy", seen.on);
		assert.match(toolMessages(completions(server)[1].body)[0], /plan_mode[\s\S]*plan mode is on/);
		assert.equal(read("Welcome.md"), before);
		const [card] = seen.of("planProposed");
		// Carrying out: Welcome.md is not in the plan, so its addition waits
		// for a card though "Ask before edits" runs additions at once.
		server.script({ stream: openaiStream({ toolCalls: [["obsidianEdit", { command: "append", path: "Welcome.md", content: "off the plan" }]] }) });
		const answered = recorder();
		const waiting = await plugin.core.chatAnswerPlan(sent.conversation, card.plan.id, { approve: true, steps: [{ index: 0, what: "Add a status line" }] }, answered.on);
		assert.equal(waiting.end, "awaitingConfirmation");
		const [offPlan] = answered.of("confirmationNeeded");
		assert.equal(offPlan.card.offPlan, true);
		assert.equal(read("Welcome.md"), before);
		// Rejected, it never runs.
		server.script({ stream: openaiStream({ text: "Left Welcome.md alone." }) });
		const done = await plugin.core.chatResolve(waiting.conversation, offPlan.card.id, false, offPlan.card.argvHash, () => {});
		assert.equal(done.end, "done");
		assert.equal(read("Welcome.md"), before);
	});

	// "All together on one card": the plan is approved with `together`; each
	// change is held (nothing written) and, when the model ends its answer,
	// one card lists them all with their own diffs.
	async function heldTogether(plugin, server, read) {
		const sent = await propose(plugin, server, [
			{ note: ROADMAP, action: "append", what: "Add a status line" },
			{ note: LAUNCH, action: "append", what: "Add a risks section" },
		]);
		const [card] = sent.seen.of("planProposed");
		server.script({ stream: openaiStream({ toolCalls: [["obsidianEdit", { command: "append", path: ROADMAP, content: "Status: on track" }]] }) });
		server.script({ stream: openaiStream({ toolCalls: [["obsidianEdit", { command: "append", path: LAUNCH, content: "## Risks" }]] }) });
		server.script({ stream: openaiStream({ text: "Both changes are ready for your approval." }) });
		const before = { roadmap: read(ROADMAP), launch: read(LAUNCH) };
		const seen = recorder();
		const steps = [{ index: 0, what: "Add a status line" }, { index: 1, what: "Add a risks section" }];
		const waiting = await plugin.core.chatAnswerPlan(sent.conversation, card.plan.id, { approve: true, steps, together: true }, seen.on);
		return { waiting, seen, before };
	}

	it("approved all together: every change is held, then listed on one card with its own diff", async () => {
		const { server, plugin, read } = await setup();
		const { waiting, seen, before } = await heldTogether(plugin, server, read);
		assert.equal(waiting.end, "awaitingConfirmation");
		assert.equal(seen.of("confirmationNeeded").length, 0, "no card per change");
		assert.equal(read(ROADMAP), before.roadmap, "held, not written");
		assert.equal(read(LAUNCH), before.launch);
		const heldTold = toolMessages(completions(server)[3].body).at(-1);
		assert.match(heldTold, /Held, not written yet/);
		assert.match(toolMessages(completions(server)[2].body).at(-1), /held, not written, until the user answers one card/);
		const [needed] = seen.of("planChangesNeeded");
		assert.ok(needed, JSON.stringify(seen.events.map((e) => e.type)));
		const added = (change) => change.card.preview.diff.hunks.flatMap((h) => h.lines.filter((l) => l.kind === "added").map((l) => l.segments.map((s) => s.text).join("")));
		assert.deepEqual(needed.card.changes.map((c) => added(c).filter((line) => line.trim())), [["Status: on track"], ["## Risks"]]);
		assert.match(needed.card.changes[0].card.summary, /Roadmap/);
		assert.match(needed.card.changes[1].card.summary, /Launch plan/);
		assert.equal(waiting.conversation.paused.confirmationId, needed.card.id);

		// Approve all: each written, each journalled under the answer with its own entry.
		const answered = recorder();
		const done = await plugin.core.chatResolve(waiting.conversation, needed.card.id, true, needed.card.argvHash, answered.on);
		assert.equal(done.end, "done");
		assert.match(read(ROADMAP), /Status: on track/);
		assert.match(read(LAUNCH), /## Risks/);
		const finished = answered.of("toolFinished").filter((e) => e.result.journal);
		assert.deepEqual(finished.map((e) => e.callId), needed.card.changes.map((c) => c.callId));
		assert.equal(new Set(finished.map((e) => e.result.journal.entry)).size, 2, "each change has its own undo");
		assert.equal(new Set(finished.map((e) => e.result.journal.turn)).size, 1, "both belong to this answer");
		assert.match(answered.of("notice")[0].text, /Approved: the plan's 2 changes were written/);
		// The model reads what happened, no longer "held".
		const results = done.conversation.messages.filter((m) => m.role === "tool" && m.tool === "obsidianEdit");
		assert.ok(results.every((m) => !/Held, not written/.test(m.content) && !m.isError), JSON.stringify(results.map((m) => m.content)));
		assert.equal(done.conversation.plan.state, "done");

		// "Undo this answer's changes" undoes both.
		const undone = await plugin.core.undoTurn(finished[0].result.journal.turn);
		assert.equal(undone.ok, true, undone.text);
		assert.equal(read(ROADMAP), before.roadmap);
		assert.equal(read(LAUNCH), before.launch);
	});

	it("rejected all together: nothing is written and the model reads so", async () => {
		const { server, plugin, read } = await setup();
		const { waiting, seen, before } = await heldTogether(plugin, server, read);
		const [needed] = seen.of("planChangesNeeded");
		const answered = recorder();
		const done = await plugin.core.chatResolve(waiting.conversation, needed.card.id, false, "", answered.on);
		assert.equal(done.end, "done");
		assert.equal(read(ROADMAP), before.roadmap);
		assert.equal(read(LAUNCH), before.launch);
		assert.match(answered.of("notice")[0].text, /Rejected: none of the plan's 2 changes was written/);
		const results = done.conversation.messages.filter((m) => m.role === "tool" && m.tool === "obsidianEdit");
		assert.ok(results.every((m) => m.isError && /reject/i.test(m.content)), JSON.stringify(results.map((m) => m.content)));
	});

	it("all together: Approve with another card's hash writes nothing; a note changed since the card is asked again", async () => {
		const { server, plugin, read, vault } = await setup();
		const { waiting, seen, before } = await heldTogether(plugin, server, read);
		const [needed] = seen.of("planChangesNeeded");
		const wrong = recorder();
		const refused = await plugin.core.chatResolve(waiting.conversation, needed.card.id, true, "0".repeat(64), wrong.on);
		assert.equal(refused.end, "failed");
		assert.match(wrong.of("error")[0].message, /no longer the ones on this card; nothing was written/);
		assert.equal(read(ROADMAP), before.roadmap);
		assert.equal(read(LAUNCH), before.launch);
		// The user edits the roadmap before approving: it is not written over.
		writeFileSync(join(vault, ROADMAP), `${before.roadmap}\nEdited by hand.\n`);
		const answered = recorder();
		const again = await plugin.core.chatResolve(refused.conversation, needed.card.id, true, needed.card.argvHash, answered.on);
		assert.equal(again.end, "awaitingConfirmation");
		assert.match(read(LAUNCH), /## Risks/, "the unchanged note is written");
		assert.doesNotMatch(read(ROADMAP), /Status: on track/, "the changed note is not");
		const [asked] = answered.of("planChangesNeeded");
		assert.equal(asked.card.changes.length, 1);
		assert.match(asked.card.changes[0].card.summary, /Roadmap/);
		const last = await plugin.core.chatResolve(again.conversation, asked.card.id, true, asked.card.argvHash, () => {});
		assert.equal(last.end, "done");
		assert.match(read(ROADMAP), /Edited by hand\.[\s\S]*Status: on track/);
	});

	it("an approval under Read only is refused with the fix, and the plan still waits", async () => {
		const { server, plugin } = await setup({ permissionMode: "readOnly" });
		const sent = await propose(plugin, server, [{ note: ROADMAP, action: "append", what: "Add a status line" }]);
		const [card] = sent.seen.of("planProposed");
		const seen = recorder();
		const refused = await plugin.core.chatAnswerPlan(sent.conversation, card.plan.id, { approve: true, steps: [{ index: 0, what: "x" }] }, seen.on);
		assert.equal(refused.end, "failed");
		assert.match(seen.of("error")[0].message, /Read only.*Ask before edits/);
		assert.equal(refused.conversation.plan.state, "proposed");
		assert.equal(completions(server).length, 2, "the model was not asked again");
	});
});
