// The settings tab's shared pieces: a section and its rows (every section
// file returns one), the number fields and the text fields saved when left.

import type { Setting, TextAreaComponent, TextComponent } from "obsidian";
import type { VaultAgentSettings } from "../core/types";
import { activeProfile, withActiveProfile } from "./active-profile";
import type { SettingsContext } from "./settings-context";

/**
 * One row. Every row draws its own control, in both Obsidian versions, so a
 * field behaves the same everywhere (saved when left, showing what the core kept).
 */
export interface Row {
	name: string;
	/** At most two lines at the pane's usual widths; the rest is in `more`. */
	desc?: string;
	/** The rest, written into docs/settings.md under the row's page, which `desc` links to. */
	more?: string;
	aliases?: string[];
	render: (setting: Setting) => void;
}

/** One group of rows under its heading; `cls` marks its rows in the fallback. */
export interface Section {
	heading: string;
	cls: string;
	rows: Row[];
}

/** One entry of the tab's nav: a page of groups, shown one page at a time. */
export interface Page {
	name: string;
	/** The page's id in the nav (and its element's data-page). */
	id: string;
	groups: Section[];
}

/** A number setting as shown (seconds, KiB…) and as stored (the core clamps it). */
interface NumberSetting {
	shown: (settings: VaultAgentSettings) => number;
	stored: (value: number, settings: VaultAgentSettings) => Partial<VaultAgentSettings>;
}

const NUMBERS = {
	contextWindow: {
		shown: (s) => activeProfile(s.chat)?.contextWindow ?? 0,
		stored: (v, s) => withActiveProfile(s, { contextWindow: Math.round(v) }),
	},
	timeoutSeconds: { shown: (s) => s.timeoutMs / 1000, stored: (v) => ({ timeoutMs: Math.round(v * 1000) }) },
	outputCapKib: { shown: (s) => s.outputCapBytes / 1024, stored: (v) => ({ outputCapBytes: Math.round(v * 1024) }) },
	maxProcesses: { shown: (s) => s.maxProcesses, stored: (v) => ({ maxProcesses: Math.round(v) }) },
	confirmationExpiryMinutes: {
		shown: (s) => s.confirmationExpiryMs / 60000,
		stored: (v) => ({ confirmationExpiryMs: Math.round(v * 60000) }),
	},
	maxToolRounds: { shown: (s) => s.chat.maxToolRounds, stored: (v, s) => ({ chat: { ...s.chat, maxToolRounds: Math.round(v) } }) },
	toolResultCapChars: {
		shown: (s) => s.chat.toolResultCapChars,
		stored: (v, s) => ({ chat: { ...s.chat, toolResultCapChars: Math.round(v) } }),
	},
	modelTimeoutSeconds: {
		shown: (s) => s.chat.modelTimeoutMs / 1000,
		stored: (v, s) => ({ chat: { ...s.chat, modelTimeoutMs: Math.round(v * 1000) } }),
	},
	firstTokenTimeoutSeconds: {
		shown: (s) => s.chat.firstTokenTimeoutMs / 1000,
		stored: (v, s) => ({ chat: { ...s.chat, firstTokenTimeoutMs: Math.round(v * 1000) } }),
	},
	anthropicThinkingBudget: {
		shown: (s) => s.chat.anthropicThinkingBudget,
		stored: (v, s) => ({ chat: { ...s.chat, anthropicThinkingBudget: Math.round(v) } }),
	},
	readCacheSeconds: { shown: (s) => s.readCacheSeconds, stored: (v) => ({ readCacheSeconds: Math.round(v) }) },
} satisfies Record<string, NumberSetting>;

/**
 * Saves a text field when the user leaves it or presses Enter (the DOM
 * "change" event), not on every keystroke, then shows what the core kept
 * (it normalises and clamps values).
 */
export function commitOnChange(text: TextComponent | TextAreaComponent, initial: string, commit: (value: string) => Promise<string>): void {
	text.setValue(initial);
	text.inputEl.addEventListener("change", () => {
		// Braces matter: components have a chaining then(), so returning one
		// from a promise callback would make the promise chase it forever.
		void commit(text.getValue()).then((kept) => {
			text.setValue(kept);
		});
	});
}

/** A number field: saved when left, showing what the core kept (it clamps). */
export function numberRow(ctx: SettingsContext, name: string, desc: string, key: keyof typeof NUMBERS, aliases?: string[], more?: string): Row {
	const entry = NUMBERS[key];
	const shown = () => {
		const settings = ctx.core?.settings();
		return settings ? String(entry.shown(settings)) : "";
	};
	return {
		name,
		desc,
		more,
		aliases,
		render: (setting) => {
			setting.settingEl.addClass("vault-agent-number");
			setting.addText((text) => {
				text.inputEl.type = "number";
				commitOnChange(text, shown(), async (raw) => {
					const value = Number(raw);
					const settings = ctx.core?.settings();
					if (settings && raw.trim() !== "" && Number.isFinite(value)) await ctx.updateSettings(entry.stored(value, settings));
					return shown();
				});
			});
		},
	};
}
