// The settings tab's Memory rows: memory on or off (its one switch: the Tools
// page only mentions it), the folder of the memory notes, and what keeps that
// folder from working, with the fix. What is remembered, read and sent, and
// what is wrong with a folder, is the core's (src/doors/chat/memory.rs,
// src/tools/memory.rs); this file only sets and shows it.

import type { VaultAgentSettings } from "../core/types";
import type { SettingsContext } from "./settings-context";
import { commitOnChange, type Row } from "./section";
import { suggestPaths } from "./suggest";

export function memoryRows(ctx: SettingsContext, settings: VaultAgentSettings): Row[] {
	return [
		{
			name: "Memory",
			desc: "The agent keeps what it learns about you as notes, read in every chat.",
			more: "The agent keeps what it learns about you and the vault (preferences, names, where things live) as notes in the memory folder, one fact a line with its date and chat, and is given them in every chat. Each change is a vault change like any other: your mode, the folders it may change and undo apply. Edit or delete lines by hand; the agent follows. Off: nothing is read or kept, and the Memory tool is not offered. This is its only switch; the Tools page lists the tool and points here.",
			aliases: ["remember", "memories", "obsidianMemory"],
			render: (setting) => {
				setting.settingEl.addClass("vault-agent-memory");
				setting.addToggle((toggle) =>
					toggle.setValue(settings.chat.memory).onChange(async (memory) => {
						const current = ctx.core?.settings().chat ?? settings.chat;
						toggle.setValue((await ctx.updateSettings({ chat: { ...current, memory } })).chat.memory);
						refreshMemoryWarnings();
					}),
				);
			},
		},
		{
			name: "Memory folder",
			desc: "Where the memory notes are kept; a folder the agent may read and change.",
			more: "Where the memory notes are kept. It must be inside the folders the agent may read and change (Settings → Safety); while memory is on and it is not, a warning here and on the Safety page says which and how to fix it.",
			aliases: ["agent memory"],
			render: (setting) => {
				setting.settingEl.addClass("vault-agent-memory-folder");
				setting.addText((text) => {
					text.setPlaceholder("Agent memory");
					suggestPaths(ctx.app, text, "folder");
					commitOnChange(text, settings.chat.memoryFolder, async (memoryFolder) => {
						const current = ctx.core?.settings().chat ?? settings.chat;
						const saved = (await ctx.updateSettings({ chat: { ...current, memoryFolder } })).chat.memoryFolder;
						refreshMemoryWarnings();
						return saved;
					});
				});
				memoryFolderWarning(ctx, setting.descEl);
			},
		},
	];
}

/** The warnings drawn, each with what shows it again (pages drawn at once all hold one). */
const warnings = new Map<HTMLElement, () => void>();

/**
 * Shows under `parent` what keeps the memory folder from working while
 * memory is on (the core's words, with the fix), or nothing. The Safety
 * page's folder lists show it too: narrowing them is how the folder usually
 * falls outside.
 */
export function memoryFolderWarning(ctx: SettingsContext, parent: HTMLElement): void {
	const line = parent.createDiv({ cls: "vault-agent-memory-folder-problem" });
	const refresh = () => {
		const problem = ctx.core?.memoryFolderProblem();
		line.setText(problem ?? "");
		line.toggleClass("is-hidden", !problem);
	};
	refresh();
	warnings.set(line, refresh);
}

/** After a change of memory, its folder or the folder scopes: every warning drawn says what holds now. */
export function refreshMemoryWarnings(): void {
	for (const [line, refresh] of warnings) {
		// A redrawn tab's old lines are gone from the page.
		if (line.isConnected) refresh();
		else warnings.delete(line);
	}
}
