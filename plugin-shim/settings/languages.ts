// The settings tab's "Languages of your notes" row on the Search page: empty
// is automatic (the core reads Obsidian's language, and each note's own);
// chosen languages are chips, the main one first, with a dropdown to add one.
// The core keeps only what it can stem (src/settings/search.rs); a change
// rebuilds the word index in the background, as at start.

import { DropdownComponent, setIcon } from "obsidian";
import { LANGUAGE_CHOICES, MAX_LANGUAGES } from "../generated/constants";
import type { Section } from "./section";
import type { SettingsContext } from "./settings-context";

const nameOf = (code: string) => LANGUAGE_CHOICES.find((c) => c.code === code)?.name ?? code;

export function languagesSection(ctx: SettingsContext): Section {
	return {
		heading: "Search by words",
		cls: "vault-agent-languages-settings",
		rows: [
			{
				name: "Languages of your notes",
				desc: "Empty: Obsidian's language, and each note's own. Pick yours if search misses inflected words.",
				more: "The search stems words (\"gardens\" finds \"garden\") in the language a note is written in. Left empty, that is Obsidian's own language, or the note's where its text plainly shows another, or its `lang` property. Pick one or more languages to read every note in one of them, the first as the main one; a query is then read in each. Chinese, Japanese, Korean and Thai are found by pairs of characters whatever is set. A change rebuilds the index in the background.",
				aliases: ["language", "stemming", "multilingual"],
				render: (setting) => {
					const control = setting.controlEl.createDiv({ cls: "vault-agent-settings-languages" });
					const listEl = control.createDiv({ cls: "vault-agent-settings-paths" });
					let chosen = ctx.core?.settings().search.languages ?? [];
					const save = async (next: string[]) => {
						const kept = (await ctx.updateSettings({ search: { languages: next } })).search.languages;
						const changed = kept.join() !== chosen.join();
						chosen = kept;
						draw();
						if (changed) await ctx.search?.rebuild();
					};
					const add = new DropdownComponent(control);
					add.selectEl.setAttribute("aria-label", "Add a language");
					add.onChange((code) => {
						if (code) void save([...chosen, code]);
					});
					const draw = () => {
						listEl.empty();
						if (chosen.length === 0) listEl.createSpan({ cls: "vault-agent-settings-languages-auto", text: "Automatic" });
						chosen.forEach((code, index) => {
							const chip = listEl.createDiv({ cls: "vault-agent-settings-path" });
							chip.createSpan({ text: index === 0 && chosen.length > 1 ? `${nameOf(code)} (main)` : nameOf(code) });
							const remove = chip.createEl("button", { cls: "clickable-icon", attr: { "aria-label": `Remove ${nameOf(code)}` } });
							setIcon(remove, "x");
							remove.addEventListener("click", () => void save(chosen.filter((c) => c !== code)));
						});
						add.selectEl.empty();
						add.addOption("", chosen.length >= MAX_LANGUAGES ? `At most ${MAX_LANGUAGES} languages` : "Add a language…");
						for (const choice of LANGUAGE_CHOICES) if (!chosen.includes(choice.code)) add.addOption(choice.code, choice.name);
						add.setValue("");
						add.setDisabled(chosen.length >= MAX_LANGUAGES);
					};
					draw();
				},
			},
		],
	};
}
