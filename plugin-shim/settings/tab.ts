// The settings tab. It shows what the core reports and hands every change to
// the core, which normalises it; the tab itself decides nothing.
//
// One list of sections (Model, Safety, Tools, Agents, Coding agents, then
// Advanced; a new section is one file and one line in `sections()`) feeds
// both renderers: Obsidian 1.13+ draws `getSettingDefinitions()` itself and
// indexes it for its settings search; older versions call `display()`, which
// draws the same rows.

import { type Plugin, PluginSettingTab, requireApiVersion, Setting, type SettingDefinitionItem, type SettingGroupItem } from "obsidian";
import { AdvancedSection } from "./advanced";
import { agentsSection } from "./agents";
import { codingAgentsSection } from "./coding-agents";
import { embeddingsSection } from "./embeddings";
import type { SettingsContext } from "./settings-context";
import { mcpServersSection } from "./mcp-servers";
import { modelSection } from "./model";
import { safetySection } from "./safety";
import type { Section } from "./section";
import { toolsSection } from "./tools";

export class VaultAgentSettingTab extends PluginSettingTab {
	/** True once Obsidian (before 1.13) drew the tab with display(). */
	private drawnByDisplay = false;
	private readonly advanced: AdvancedSection;

	constructor(
		plugin: Plugin,
		private readonly ctx: SettingsContext,
	) {
		super(ctx.app, plugin);
		this.containerEl.addClass("vault-agent-settings");
		this.advanced = new AdvancedSection(ctx);
	}

	/** In this order. */
	private sections(): Section[] {
		const redraw = () => this.redraw();
		return [modelSection(this.ctx, redraw), safetySection(this.ctx), toolsSection(this.ctx), embeddingsSection(this.ctx, redraw), agentsSection(this.ctx, redraw), codingAgentsSection(this.ctx), mcpServersSection(this.ctx, redraw), this.advanced.section()];
	}

	getSettingDefinitions(): SettingDefinitionItem[] {
		if (!this.ctx.core) {
			// Asked before the core has started: draw again once it has.
			void this.ctx.started().then((core) => core && this.containerEl.isConnected && this.redraw());
			return [];
		}
		return this.sections().map((section) => ({
			type: "group",
			heading: section.heading,
			cls: section.cls,
			items: section.rows.map(({ name, desc, aliases, render }): SettingGroupItem => ({ name, desc, aliases, render: (setting: Setting) => {
					render(setting);
					nameControls(setting, name);
				} })),
		}));
	}

	/** Obsidian before 1.13: the same sections, drawn here. */
	display(): void {
		this.drawnByDisplay = true;
		this.draw();
	}

	private draw(): void {
		const { containerEl } = this;
		containerEl.empty();
		if (!this.ctx.core) {
			containerEl.createEl("p", { text: "Vault Agent is starting…" });
			void this.ctx.started().then((core) => core && this.containerEl.isConnected && this.draw());
			return;
		}
		for (const section of this.sections()) {
			// One element per section with its class, as 1.13 gives a group's `cls`.
			const sectionEl = containerEl.createDiv({ cls: section.cls });
			new Setting(sectionEl).setName(section.heading).setHeading();
			for (const row of section.rows) {
				const setting = new Setting(sectionEl).setName(row.name);
				if (row.desc) setting.setDesc(row.desc);
				row.render(setting);
				nameControls(setting, row.name);
			}
		}
	}

	/** Draws the tab again after a change of its shape (another profile, another provider). */
	private redraw(): void {
		if (requireApiVersion("1.13.0") && !this.drawnByDisplay) this.update();
		else this.draw();
	}
}

/**
 * A screen reader names a row's fields and icon buttons by the row's name
 * where the control has no name of its own (a Setting's field has no <label>).
 */
function nameControls(setting: Setting, name: string): void {
	for (const field of Array.from(setting.controlEl.querySelectorAll("input, select, textarea"))) {
		if (!field.hasAttribute("aria-label")) field.setAttribute("aria-label", name);
	}
	for (const icon of Array.from(setting.settingEl.querySelectorAll(".clickable-icon[aria-label]"))) {
		if (icon.tagName !== "BUTTON" && !icon.hasAttribute("role")) icon.setAttribute("role", "button");
	}
}
