// The chat header's model switcher: one option per saved model profile, the
// one in use selected. Picking another is the user's hand, like the settings tab.

import { DropdownComponent, Notice } from "obsidian";
import type { ChatSettings, ModelProfile } from "./core-types";
import type VaultAgentPlugin from "./main";

/** The profile the chat uses (the core keeps `activeProfile` naming one). */
export function activeProfile(chat: ChatSettings): ModelProfile | undefined {
	return chat.profiles.find((p) => p.id === chat.activeProfile) ?? chat.profiles[0];
}

export class ProfileSwitcher {
	private readonly dropdown: DropdownComponent;

	constructor(
		parent: HTMLElement,
		private readonly plugin: VaultAgentPlugin,
	) {
		this.dropdown = new DropdownComponent(parent);
		this.dropdown.selectEl.addClass("vault-agent-model");
		this.dropdown.selectEl.setAttribute("aria-label", "Model profile");
		this.dropdown.onChange(async (id) => {
			try {
				await this.plugin.editModelProfiles({ action: "select", id });
			} catch (error) {
				new Notice(error instanceof Error ? error.message : String(error));
				this.refresh();
			}
		});
	}

	/** Shows the profiles as saved now. */
	refresh(): void {
		const profiles = this.plugin.core?.modelProfiles();
		if (!profiles) return;
		const select = this.dropdown.selectEl;
		select.empty();
		for (const profile of profiles) {
			this.dropdown.addOption(profile.id, profile.name);
			select.options[select.options.length - 1]?.setAttribute("title", profile.detail);
		}
		const active = profiles.find((p) => p.active);
		if (active) {
			this.dropdown.setValue(active.id);
			select.setAttribute("title", active.detail);
		}
	}
}
