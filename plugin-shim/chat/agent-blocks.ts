// What a coding agent (ACP) adds to the chat: its plan, its permission
// questions with its own options, and its session settings (model…).

import { DropdownComponent, setIcon, setTooltip } from "obsidian";
import type { AgentConfigOption, PermissionAsk } from "../doors/acp/events";

export function renderPlan(parent: HTMLElement, entries: Array<{ content: string; status: string }>): void {
	parent.querySelectorAll(".vault-agent-plan").forEach((el) => el.remove());
	const plan = parent.createDiv({ cls: "vault-agent-plan" });
	plan.createDiv({ cls: "vault-agent-plan-title", text: "Plan" });
	const list = plan.createEl("ul");
	for (const entry of entries) {
		const item = list.createEl("li", { text: entry.content });
		item.dataset.status = entry.status;
	}
}

/** The agent's question, with a button per option it offered. */
export function renderPermission(parent: HTMLElement, agentName: string, ask: PermissionAsk): void {
	const card = parent.createDiv({ cls: "vault-agent-inline-card vault-agent-permission" });
	const head = card.createDiv({ cls: "vault-agent-permission-head" });
	setIcon(head.createSpan(), "shield-question");
	head.createSpan({ text: `${agentName} asks: ${ask.title}` });
	const buttons = card.createDiv({ cls: "vault-agent-permission-options" });
	// One call-to-action, the narrowest yes: "Allow once" (or the agent's first allow when it offers no once).
	const cta = ask.options.find((o) => o.kind === "allow_once") ?? ask.options.find((o) => o.kind.startsWith("allow"));
	for (const option of ask.options) {
		const button = buttons.createEl("button", { text: option.name, cls: option === cta ? "mod-cta" : "" });
		if (option.kind === "allow_always") button.setAttribute("title", "For this chat session only");
		button.addEventListener("click", () => {
			ask.answer(option.optionId);
			card.addClass("is-answered");
			buttons.empty();
			buttons.createSpan({ cls: "vault-agent-permission-answer", text: option.name });
		});
	}
}

/** The agent's session settings (its model, reasoning level…) as named dropdowns in the header's panel; the model first. */
export function renderAgentConfig(parent: HTMLElement, options: AgentConfigOption[], set: (id: string, value: string) => void): void {
	parent.empty();
	const order = (o: AgentConfigOption) => (o.category === "model" ? 0 : o.category === "mode" ? 1 : 2);
	for (const option of [...options].sort((a, b) => order(a) - order(b))) {
		if (option.choices.length === 0) continue;
		// Named above it in the header's panel of the agent's settings (chat/header.ts).
		const label = option.category === "model" ? "Agent's model" : option.category === "mode" ? "Agent's mode" : option.name;
		const row = parent.createEl("label", { cls: "vault-agent-agent-setting-row" });
		row.createSpan({ cls: "vault-agent-agent-setting-name", text: label });
		const dropdown = new DropdownComponent(row);
		for (const choice of option.choices) dropdown.addOption(choice.value, choice.name);
		dropdown.setValue(option.current);
		dropdown.selectEl.addClass("vault-agent-agent-setting");
		dropdown.selectEl.dataset.category = option.category;
		// Its name, then its choice and what it does. Obsidian shows it as a tooltip.
		const chosen = option.choices.find((c) => c.value === option.current)?.name ?? option.current;
		setTooltip(dropdown.selectEl, `${label}: ${chosen}${option.description ? ` (${option.description})` : ""}`);
		dropdown.onChange((value) => set(option.id, value));
	}
}
