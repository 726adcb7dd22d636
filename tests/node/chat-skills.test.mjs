// Agent Skills through the BUILT main.js: the skills folder's SKILL.md notes
// reach the model server (real HTTP on localhost) as a list of names and
// descriptions in the system prompt, the model reads a skill's body with the
// ordinary read tool, a skill outside the read folders is never offered, a
// malformed one is refused with why, and the built-in skills are added on the
// user's click without overwriting the user's own.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { copySampleVault, emulator, loadPlugin, removeVault } from "../support/harness.mjs";
import { openaiStream, startModelServer } from "../support/model-servers.mjs";

const SKILL = "---\nname: weekly-review\ndescription: How the user runs a weekly review. Use when asked to review the week.\n---\n# Weekly review\nList the notes changed this week under the heading Done.\n";

describe("skills (the built main.js, a real model server on localhost)", () => {
	const vaults = [];
	const servers = [];
	after(async () => {
		for (const server of servers) await server.close();
		for (const vault of vaults) removeVault(vault);
	});

	async function setup(settings) {
		const server = await startModelServer();
		servers.push(server);
		const vault = copySampleVault();
		vaults.push(vault);
		for (const [folder, text] of [["weekly-review", SKILL], ["Broken", "# no front matter\n"]]) {
			mkdirSync(join(vault, "Skills", folder), { recursive: true });
			writeFileSync(join(vault, "Skills", folder, "SKILL.md"), text);
		}
		const chat = { profiles: [{ id: "p", provider: "openAi", baseUrl: `${server.url}/v1`, model: "test-model" }], activeProfile: "p", skillsFolder: "Skills", ...settings.chat };
		const { plugin } = await loadPlugin(vault, { data: { cliPath: emulator, ...settings, chat } });
		return { server, plugin, vault };
	}

	const completions = (server) => server.requests.filter((r) => r.url.endsWith("/chat/completions"));

	async function turn(plugin, text) {
		const events = [];
		const result = await plugin.core.chatSend(plugin.core.newConversation(), text, (event) => events.push(event));
		return { ...result, events, notices: events.filter((e) => e.type === "notice").map((e) => e.text) };
	}

	it("lists the skill in the system prompt and the model reads its body with the read tool", async () => {
		const { server, plugin } = await setup({});
		server.script({ stream: openaiStream({ toolCalls: [["obsidianNotes", { command: "read", path: "Skills/weekly-review/SKILL.md" }]] }) });
		server.script({ stream: openaiStream({ text: "Following the weekly-review skill." }) });
		const result = await turn(plugin, "review my week");
		assert.equal(result.end, "done");
		const [first, second] = completions(server);
		const system = first.body.messages[0].content;
		assert.match(system, /- weekly-review: How the user runs a weekly review\. Use when asked to review the week\. \(path=Skills\/weekly-review\/SKILL\.md\)/);
		assert.match(system, /never permission/);
		assert.doesNotMatch(system, /Broken/);
		assert.doesNotMatch(system, /List the notes changed this week/, "the body is read on demand, not sent up front");
		const toolResult = second.body.messages.find((m) => m.role === "tool");
		assert.match(toolResult.content, /List the notes changed this week under the heading Done\./);
		assert.ok(result.notices.some((n) => /Skills\/Broken\/SKILL\.md is not offered|Skills\/Broken\/SKILL\.md has no front matter/.test(n)), JSON.stringify(result.notices));
	});

	it("never offers a skill outside the read folders", async () => {
		const { server, plugin } = await setup({ readFolders: ["Projects"] });
		server.script({ stream: openaiStream({ text: "Hello." }) });
		const { notices } = await turn(plugin, "hi");
		assert.doesNotMatch(JSON.stringify(completions(server)[0].body), /weekly-review/);
		assert.ok(notices.some((n) => /skills folder Skills is in a folder the agent may not read/.test(n)), JSON.stringify(notices));
	});

	it("adds the built-in skills on the user's click, leaving the user's own as it is", async () => {
		const { plugin, vault } = await setup({});
		mkdirSync(join(vault, "Skills", "obsidian-markdown"), { recursive: true });
		const mine = "---\nname: obsidian-markdown\ndescription: My own way.\n---\nMine.\n";
		writeFileSync(join(vault, "Skills", "obsidian-markdown", "SKILL.md"), mine);
		await new Promise((resolve) => setTimeout(resolve, 300));
		const done = await plugin.core.addBuiltinSkills();
		assert.deepEqual(done.added.sort(), ["Skills/obsidian-bases/SKILL.md", "Skills/vault-agent-tools/SKILL.md"]);
		assert.equal(readFileSync(join(vault, "Skills", "obsidian-markdown", "SKILL.md"), "utf8"), mine);
		assert.match(readFileSync(join(vault, "Skills", "obsidian-bases", "SKILL.md"), "utf8"), /^---\nname: obsidian-bases\n/);
		const listed = await plugin.core.skills();
		assert.deepEqual(listed.skills.filter((s) => !s.problem).map((s) => s.name).sort(), ["obsidian-bases", "obsidian-markdown", "vault-agent-tools", "weekly-review"]);
		assert.match(listed.skills.find((s) => s.path === "Skills/Broken/SKILL.md").problem, /has no front matter.*name: broken/);
	});
});
