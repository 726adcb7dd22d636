// The notes an answer was drawn from, through the BUILT main.js with the
// scripted model server: the ranked search's passages and the notes read are
// what the turn saw; the answer's [[links]] among them are its sources, sent
// as an event and kept on the stored answer.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { copySampleVault, emulator, loadPlugin, removeVault } from "../support/harness.mjs";
import { openaiStream as stream, startModelServer } from "../support/model-servers.mjs";

describe("sources under an answer", () => {
	let vault;
	let plugin;
	let model;

	before(async () => {
		model = await startModelServer();
		vault = copySampleVault();
		({ plugin } = await loadPlugin(vault, {
			data: { cliPath: emulator, chat: { provider: "openAi", openai: { baseUrl: `${model.url}/v1`, model: "test-model", apiKeySecret: "" } } },
		}));
		await plugin.searchIndex.settled();
	});
	after(async () => {
		plugin.unload();
		await model.close();
		removeVault(vault);
	});

	async function turn(text, conversation = plugin.core.newConversation()) {
		const events = [];
		const result = await plugin.core.chatSend(conversation, text, (event) => events.push(event));
		return { ...result, conversation: result.conversation ?? conversation, events };
	}
	const sourcesOf = (events) => events.filter((e) => e.type === "sources").flatMap((e) => e.sources);

	it("links the found notes the answer cites, at the heading the search found, and tells the model to cite", async () => {
		model.script({ stream: stream({ toolCalls: [["obsidianSearch", { command: "find", query: "when is the public launch" }]] }) });
		model.script({ stream: stream({ text: "The launch is planned in [[Launch plan]]; a link to [[Somewhere else]] is no source." }) });
		const from = model.requests.length;
		const done = await turn("when is the launch?");
		assert.equal(done.end, "done");
		const found = done.events.find((e) => e.type === "toolFinished")?.result;
		assert.equal(found.ok, true, found.text);
		assert.equal(found.found[0].path, "Projects/Launch plan.md", JSON.stringify(found.found));
		// What the model read of the search asks it to cite.
		const toolMessage = model.requests[from + 1].body.messages.find((m) => m.role === "tool");
		assert.match(toolMessage.content, /Cite each note you answer from as \[\[path#heading\]\]/);
		const sources = sourcesOf(done.events);
		assert.equal(sources.length, 1, JSON.stringify(sources));
		assert.equal(sources[0].path, "Projects/Launch plan.md");
		const heading = found.found[0].heading.split("::").pop();
		assert.equal(sources[0].link, heading ? `Projects/Launch plan#${heading}` : "Projects/Launch plan");
		// The stored answer keeps them, so a reopened chat shows them.
		const answer = done.conversation.messages.at(-1);
		assert.equal(answer.role, "assistant");
		assert.deepEqual(answer.sources, sources);
	});

	it("without a citation, the notes the agent read are the sources; found notes alone are not", async () => {
		model.script({ stream: stream({ toolCalls: [["obsidianSearch", { command: "find", query: "launch" }]] }) });
		model.script({ stream: stream({ text: "It is in the spring." }) });
		const searchedOnly = await turn("when?");
		assert.deepEqual(sourcesOf(searchedOnly.events), []);
		assert.equal(searchedOnly.conversation.messages.at(-1).sources, undefined, "nothing stored when there are none");

		model.script({ stream: stream({ toolCalls: [["obsidianNotes", { command: "read", path: "Projects/Launch plan.md" }]] }) });
		model.script({ stream: stream({ text: "It is in the spring." }) });
		const read = await turn("read the plan");
		assert.deepEqual(sourcesOf(read.events).map((s) => s.link), ["Projects/Launch plan"]);
	});
});
