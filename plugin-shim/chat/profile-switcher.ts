// The chat header's model switcher: one option per saved model profile, the
// one in use selected. Picking another is the user's hand, like the settings
// tab: it answers in this view from now on (other open chats keep theirs)
// and becomes the saved default for new chats.

import { DropdownComponent, Notice } from "obsidian";
import { AGENT_PREFIX } from "../doors/acp/profiles";
import type { ViewContext } from "./view-context";

export class ProfileSwitcher {
	private readonly dropdown: DropdownComponent;

	constructor(
		parent: HTMLElement,
		private readonly ctx: ViewContext,
		private readonly onAgent: () => void = () => {},
	) {
		this.dropdown = new DropdownComponent(parent);
		this.dropdown.selectEl.addClass("vault-agent-model");
		this.dropdown.selectEl.setAttribute("aria-label", "Model profile");
		this.dropdown.onChange(async (id) => {
			try {
				// Coding agents (ACP) follow the model profiles in the same list.
				if (id.startsWith(AGENT_PREFIX)) {
					this.ctx.pick(id);
					await this.ctx.selectAgent(id);
					this.onAgent();
					return;
				}
				// The saved default, which views without a pick of their own follow.
				if (this.ctx.core?.settings().acpAgents.selected) await this.ctx.selectAgent(null);
				this.ctx.pick(id);
				this.onAgent();
				await this.ctx.editModelProfiles({ action: "select", id });
			} catch (error) {
				new Notice(error instanceof Error ? error.message : String(error));
				this.refresh();
			}
		});
	}

	/** Focused, and its list open where the browser allows it (a click is a user's gesture). */
	open(): void {
		const select = this.dropdown.selectEl;
		select.focus();
		try {
			select.showPicker();
		} catch {
			// Not allowed here (no gesture, or an older Electron): focus is enough.
		}
	}

	/** Shows the profiles as saved now. */
	refresh(): void {
		const profiles = this.ctx.core?.modelProfiles();
		if (!profiles) return;
		const select = this.dropdown.selectEl;
		select.empty();
		for (const profile of profiles) {
			this.dropdown.addOption(profile.id, profile.name);
			select.options[select.options.length - 1]?.setAttribute("title", profile.detail);
		}
		// Coding agents (ACP) in a group of their own under the model profiles.
		const agents = this.ctx.codingAgents?.profiles() ?? [];
		const group = agents.length > 0 ? select.createEl("optgroup", { attr: { label: "Coding agents" } }) : null;
		for (const agent of agents) {
			group?.createEl("option", {
				value: `${AGENT_PREFIX}${agent.id}`,
				text: agent.name,
				attr: { title: agent.command ? `${agent.command} ${agent.args.join(" ")}`.trim() : "Set its command in Settings → Vault Agent → Coding agents" },
			});
		}
		const agent = this.ctx.selectedAgent();
		const picked = this.ctx.pickedProfile();
		const active = profiles.find((p) => p.id === picked) ?? profiles.find((p) => p.active);
		if (agent && this.ctx.codingAgents?.profileFor(agent)) {
			this.dropdown.setValue(agent);
			select.setAttribute("title", `${select.selectedOptions[0]?.text ?? ""}: a coding agent, with Vault Agent's tools`);
		} else if (active) {
			this.dropdown.setValue(active.id);
			// The full name, which a narrow sidebar cuts, then its model and server.
			select.setAttribute("title", `${active.name} (${active.detail})`);
		}
	}
}
