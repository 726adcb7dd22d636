// What a new chat shows: what the agent can do, how it is set up (the model,
// the user's standing instructions, a CLI that was not found) and prompts to
// try. The mode is not repeated: the header's select shows it.

import type { CoreHandle } from "../core/types";
import { activeProfile } from "../settings/active-profile";

/** Draws the empty state into `parent`; a prompt clicked goes to `pick`. */
export function renderEmptyState(parent: HTMLElement, core: CoreHandle, pick: (prompt: string) => void): void {
	const settings = core.settings();
	const empty = parent.createDiv({ cls: "vault-agent-empty-state" });
	empty.createDiv({ cls: "vault-agent-empty-title", text: "Ask about your vault" });
	empty.createDiv({
		text: "The agent reads, searches and organises your notes through the Obsidian command line interface: notes, tasks, daily notes, properties, links, tags and more.",
	});
	const facts = empty.createEl("ul", { cls: "vault-agent-empty-facts" });
	facts.createEl("li", { text: `Model: ${activeProfile(settings.chat)?.model || "none set"}` });
	const profile = activeProfile(settings.chat);
	const instructions = [settings.chat.instructionsNote, profile?.instructions ? "this profile's own" : ""].filter((part) => part !== "");
	facts.createEl("li", { cls: "vault-agent-empty-instructions", text: `Your instructions: ${instructions.length > 0 ? instructions.join(" and ") : "none (add a note in Settings → Vault Agent → Model)"}` });
	// A model whose tool calls failed the check, or one never checked, says so here.
	const hint = core.modelCheckHint();
	if (hint) facts.createEl("li", { cls: "vault-agent-empty-check", text: hint });
	const outside = core.outsideSummary();
	if (outside.servers.length > 0) facts.createEl("li", { cls: "vault-agent-empty-mcp", text: `MCP servers: ${outside.servers.join(", ")}` });
	// A CLI that was found needs no word; a missing one gets a line with what to do.
	void core.cliStatus().then((status) => {
		if (!status.discovery.binary) facts.createEl("li", { text: "Command line interface: not found. Turn it on in Obsidian's general settings." });
	});
	const examples = empty.createDiv({ cls: "vault-agent-empty-examples" });
	for (const prompt of ["What are my open tasks?", "Summarise today's daily note", "Which notes link to nothing?"]) {
		const button = examples.createEl("button", { cls: "vault-agent-example", text: prompt });
		button.addEventListener("click", () => pick(prompt));
	}
}
