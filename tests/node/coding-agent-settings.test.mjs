// The coding agents' settings are the core's like every other setting
// (src/settings/agents.rs): through the BUILT main.js, a data.json written
// before keeps its agents, edits are saved in the same `acpAgents` shape,
// and what cannot be stored is refused with the reason, nothing changed.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { copySampleVault, emulator, loadPlugin, removeVault } from "../support/harness.mjs";

describe("coding agents' settings (the core's, data.json `acpAgents`)", () => {
	const vaults = [];
	after(() => {
		for (const vault of vaults) removeVault(vault);
	});

	async function setup(acpAgents) {
		const vault = copySampleVault();
		vaults.push(vault);
		return (await loadPlugin(vault, { data: { cliPath: emulator, acpAgents, lastConversation: "c-1" } })).plugin;
	}

	it("keeps an older data.json's agents, and saves them back in the same shape beside other keys", async () => {
		const old = { selected: "agent:custom", custom: { command: "/opt/agent", args: ["--acp"] }, "claude-code": { envSecrets: { ANTHROPIC_API_KEY: "anthropic-key" } } };
		const plugin = await setup(old);
		const custom = plugin.core.codingAgents().find((p) => p.id === "custom");
		assert.deepEqual([custom.command, custom.args], ["/opt/agent", ["--acp"]]);
		assert.equal(plugin.selectedAgent(), "agent:custom");
		const claude = plugin.core.codingAgents().find((p) => p.id === "claude-code");
		assert.equal(claude.command, "claude-agent-acp", "what the user did not change stays built in");
		assert.deepEqual(claude.envSecrets, { ANTHROPIC_API_KEY: "anthropic-key" });

		await plugin.updateSettings({ permissionMode: "askEveryChange" });
		const saved = await plugin.loadData();
		assert.deepEqual(saved.acpAgents, old);
		assert.equal(saved.lastConversation, "c-1");
	});

	it("saves a changed command and the picked agent, and refuses what it cannot store", async () => {
		const plugin = await setup(undefined);
		await plugin.saveAgentProfile("codex", { command: " /usr/local/bin/codex-acp " });
		await plugin.selectAgent("agent:codex");
		const saved = await plugin.loadData();
		assert.deepEqual(saved.acpAgents, { selected: "agent:codex", codex: { command: "/usr/local/bin/codex-acp" } });
		await assert.rejects(plugin.saveAgentProfile("codex", { args: ["ok", "bad\u0000"] }), /`args` must be a list of text without control characters; nothing was changed/);
		await assert.rejects(plugin.selectAgent("agent:nobody"), /not a coding agent/);
		assert.deepEqual((await plugin.loadData()).acpAgents, saved.acpAgents, "nothing changed");
		await plugin.selectAgent(null);
		assert.equal(plugin.selectedAgent(), null);
		assert.equal((await plugin.loadData()).acpAgents.selected, undefined);
	});
});
