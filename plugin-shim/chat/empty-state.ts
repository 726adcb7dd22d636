// What a new chat shows: what the agent can do, how it is set up (the model,
// the user's standing instructions, a CLI that was not found), prompts to
// try, and the user's saved prompts (run, edit, delete, or write a new one).
// The mode is not repeated: the header's select shows it.

import { setIcon } from "obsidian";
import type { CoreHandle, SavedPrompt } from "../core/types";
import { activeProfile } from "../settings/active-profile";

/** What the saved prompts' list does: run one, open the form (null: a new one), delete one. */
export interface PromptActions {
	run(prompt: SavedPrompt): void;
	edit(prompt: SavedPrompt | null): void;
	remove(prompt: SavedPrompt): void;
}

/** Draws the empty state into `parent`; a prompt clicked goes to `pick`. */
export function renderEmptyState(parent: HTMLElement, core: CoreHandle, pick: (prompt: string) => void, prompts: PromptActions): void {
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
	// Without a prompts folder there is nowhere to list or keep them (the / menu's form says where to set it).
	if (settings.chat.promptsFolder) void core.savedPrompts().then((listed) => savedPromptList(empty, listed.prompts, listed.notice ?? null, prompts));
}

/** The saved prompts, each with Edit and Delete, and "New prompt…" (the same form as the / menu's). */
function savedPromptList(parent: HTMLElement, prompts: SavedPrompt[], notice: string | null, actions: PromptActions): void {
	const section = parent.createDiv({ cls: "vault-agent-empty-prompts" });
	section.createDiv({ cls: "vault-agent-empty-prompts-title", text: "Saved prompts" });
	if (notice) section.createDiv({ cls: "vault-agent-prompt-note", text: notice });
	const list = section.createDiv({ cls: "vault-agent-prompt-list" });
	for (const prompt of prompts) {
		const row = list.createDiv({ cls: "vault-agent-prompt-row" });
		row.dataset.path = prompt.path;
		const run = row.createEl("button", { cls: "vault-agent-prompt-run", attr: { "aria-label": prompt.problem ? `${prompt.name}: cannot run, edit it` : `Run ${prompt.name}` } });
		run.createDiv({ cls: "vault-agent-prompt-name-text", text: prompt.name });
		const note = prompt.problem ?? prompt.description;
		if (note) run.createDiv({ cls: `vault-agent-prompt-note${prompt.problem ? " vault-agent-prompt-problem" : ""}`, text: note });
		run.addEventListener("click", () => (prompt.problem ? actions.edit(prompt) : actions.run(prompt)));
		const edit = row.createEl("button", { cls: "vault-agent-prompt-edit clickable-icon", attr: { "aria-label": `Edit ${prompt.name}` } });
		setIcon(edit, "pencil");
		edit.addEventListener("click", () => actions.edit(prompt));
		const remove = row.createEl("button", { cls: "vault-agent-prompt-delete clickable-icon", attr: { "aria-label": `Delete ${prompt.name}` } });
		setIcon(remove, "trash-2");
		remove.addEventListener("click", () => actions.remove(prompt));
	}
	const add = section.createEl("button", { cls: "vault-agent-new-prompt-button" });
	setIcon(add.createSpan({ cls: "vault-agent-new-prompt-icon" }), "plus");
	add.appendText("New prompt…");
	add.addEventListener("click", () => actions.edit(null));
}
