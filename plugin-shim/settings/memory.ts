// The settings tab's Memory rows: memory on or off, and the folder of the
// memory notes. What is remembered, read and sent is the core's
// (src/doors/chat/memory.rs, src/tools/memory.rs); this file only sets it.

import type { VaultAgentSettings } from "../core/types";
import type { SettingsContext } from "./settings-context";
import { commitOnChange, type Row } from "./section";
import { suggestPaths } from "./suggest";

export function memoryRows(ctx: SettingsContext, settings: VaultAgentSettings): Row[] {
	return [
		{
			name: "Memory",
			desc: "The agent keeps what it learns about you as notes, read in every chat.",
			more: "The agent keeps what it learns about you and the vault (preferences, names, where things live) as notes in the memory folder, one fact a line with its date and chat, and is given them in every chat. Each change is a vault change like any other: your mode, the folders it may change and undo apply. Edit or delete lines by hand; the agent follows. Off: nothing is read or kept.",
			aliases: ["remember", "memories"],
			render: (setting) => {
				setting.addToggle((toggle) =>
					toggle.setValue(settings.chat.memory).onChange(async (memory) => {
						const current = ctx.core?.settings().chat ?? settings.chat;
						await ctx.updateSettings({ chat: { ...current, memory } });
					}),
				);
			},
		},
		{
			name: "Memory folder",
			desc: "Where the memory notes are kept; a folder the agent may read and change.",
			more: "Where the memory notes are kept. It must be inside the folders the agent may read and change (Settings → Safety).",
			aliases: ["agent memory"],
			render: (setting) => {
				setting.addText((text) => {
					text.setPlaceholder("Agent memory");
					suggestPaths(ctx.app, text, "folder");
					commitOnChange(text, settings.chat.memoryFolder, async (memoryFolder) => {
						const current = ctx.core?.settings().chat ?? settings.chat;
						return (await ctx.updateSettings({ chat: { ...current, memoryFolder } })).chat.memoryFolder;
					});
				});
			},
		},
	];
}
