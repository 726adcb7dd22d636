// The settings tab's Skills rows: the skills folder, the button that adds the
// built-in skills to it, and each skill the core refused with what to fix.
// What counts as a skill and what is wrong with one is the core's
// (src/doors/chat/skills.rs); this file only shows it.

import { Notice, type Setting } from "obsidian";
import type { VaultAgentSettings } from "../core/types";
import type { SettingsContext } from "./settings-context";
import { commitOnChange, type Row } from "./section";
import { suggestPaths } from "./suggest";

export function skillsRows(ctx: SettingsContext, settings: VaultAgentSettings, redraw: () => void): Row[] {
	return [
		{
			name: "Skills folder",
			desc: "Each folder in it with a SKILL.md note is a skill the model may follow.",
			more: "Agent Skills: each folder in it with a SKILL.md note (front matter with name and description) is a skill. The model is told each skill's name and description and reads the rest with its read tool when a task needs it. A skill gives instructions, never permission; skills outside the folders the agent may read are not offered. Empty: none.",
			aliases: ["agent skills", "SKILL.md"],
			render: (setting) => {
				setting.settingEl.addClass("vault-agent-skills-folder");
				setting.addText((text) => {
					text.setPlaceholder("Skills");
					suggestPaths(ctx.app, text, "folder");
					commitOnChange(text, settings.chat.skillsFolder, async (skillsFolder) => {
						const current = ctx.core?.settings().chat ?? settings.chat;
						return (await ctx.updateSettings({ chat: { ...current, skillsFolder } })).chat.skillsFolder;
					});
				});
				setting.addButton((button) =>
					button.setButtonText("Add built-in skills").onClick(async () => {
						try {
							const done = await ctx.core?.addBuiltinSkills();
							if (done) new Notice(`Skills added: ${done.added.length}; already there and left as they are: ${done.kept.length}.`);
						} catch (error) {
							new Notice(error instanceof Error ? error.message : String(error));
						}
						redraw();
					}),
				);
				void showProblems(ctx, setting);
			},
		},
	];
}

/** Lists under the row each skill that is not offered, with the core's reason. */
async function showProblems(ctx: SettingsContext, setting: Setting): Promise<void> {
	const listed = await ctx.core?.skills();
	if (!listed) return;
	const lines = [listed.notice, ...listed.skills.map((skill) => skill.problem)].filter((line): line is string => !!line);
	if (lines.length === 0) return;
	const list = setting.descEl.createEl("ul", { cls: "vault-agent-skill-problems" });
	for (const line of lines) list.createEl("li", { text: line });
}
