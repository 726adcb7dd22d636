// The settings tab. It shows what the core reports and hands every change to
// the core, which normalises it; the tab itself decides nothing.
//
// One list of pages (Model, Safety, Tools, Search, the two MCP pages, Coding
// agents, Advanced), each of groups of rows, feeds both renderers: Obsidian
// 1.13+ draws `getSettingDefinitions()` itself (each page an entry of its
// own list, the way its core settings nest pages) and indexes every row for
// its settings search; older versions call `display()`, which draws a nav of
// the same pages and one page at a time. Pages rather than collapsible groups:
// at the pane's usual 320-600 px a page fits a screen or two, where eight
// open groups made one page of 8 000 px and folded ones hid what search found.

import { type Plugin, PluginSettingTab, requireApiVersion, Setting, type SettingDefinitionItem, type SettingGroupItem } from "obsidian";
import { AdvancedSection } from "./advanced";
import { agentsSection } from "./agents";
import { codingAgentsSection } from "./coding-agents";
import { describedWithDocs, docsBase } from "./docs-link";
import { embeddingsSection } from "./embeddings";
import { languagesSection } from "./languages";
import type { SettingsContext } from "./settings-context";
import { mcpServersSection } from "./mcp-servers";
import { modelSection } from "./model";
import { safetySection } from "./safety";
import type { Page, Row } from "./section";
import { toolsSection } from "./tools";
import { webSection } from "./web";

export class VaultAgentSettingTab extends PluginSettingTab {
	/** True once Obsidian (before 1.13) drew the tab with display(). */
	private drawnByDisplay = false;
	private readonly advanced: AdvancedSection;
	/** The page display() shows; kept across redraws. */
	private page = "model";
	/** Where the docs' "More" links lead; null: no links. */
	private readonly docs: string | null;

	constructor(
		plugin: Plugin,
		private readonly ctx: SettingsContext,
	) {
		super(ctx.app, plugin);
		this.docs = docsBase(plugin.manifest);
		this.containerEl.addClass("vault-agent-settings");
		this.advanced = new AdvancedSection(ctx);
	}

	/** In this order; a new group is one file and one line here. */
	private pages(): Page[] {
		const redraw = () => this.redraw();
		const one = (id: string, name: string, section: Page["groups"][number]): Page => ({ id, name, groups: [section] });
		return [
			{ id: "model", name: "Model", groups: modelSection(this.ctx, redraw) },
			one("safety", "Safety", safetySection(this.ctx)),
			one("tools", "Tools", toolsSection(this.ctx)),
			{ id: "search", name: "Search", groups: [languagesSection(this.ctx), embeddingsSection(this.ctx, redraw)] },
			one("web", "Web", webSection(this.ctx, redraw)),
			one("mcp-server", "MCP: this vault's server for other apps", agentsSection(this.ctx, redraw)),
			one("mcp-servers", "MCP: your servers in the chat", mcpServersSection(this.ctx, redraw)),
			one("coding-agents", "Coding agents", codingAgentsSection(this.ctx)),
			one("advanced", "Advanced", this.advanced.section()),
		];
	}

	getSettingDefinitions(): SettingDefinitionItem[] {
		if (!this.ctx.core) {
			// Asked before the core has started: draw again once it has.
			void this.ctx.started().then((core) => core && this.containerEl.isConnected && this.redraw());
			return [];
		}
		return this.pages().map((page) => ({
			type: "page",
			name: page.name,
			items: page.groups.map((group) => ({
				type: "group",
				heading: group.heading,
				cls: group.cls,
				items: group.rows.map(
					(row): SettingGroupItem => ({
						name: row.name,
						desc: row.desc === undefined ? undefined : describedWithDocs(row.desc, row.more ? page.name : null, row.name, this.docs),
						aliases: row.aliases,
						render: (setting: Setting) => {
							row.render(setting);
							nameControls(setting, row.name);
						},
					}),
				),
			})),
		}));
	}

	/** Obsidian before 1.13: the nav of pages, then the page chosen, drawn here. */
	display(): void {
		this.drawnByDisplay = true;
		this.draw();
	}

	/** Every page's rows as words, for docs/settings.md (scripts/docs-settings.mjs). */
	docsPages(): { id: string; name: string; groups: { heading: string; cls: string; rows: { name: string; desc: string; more: string }[] }[] }[] {
		if (!this.ctx.core) return [];
		return this.pages().map((page) => ({
			id: page.id,
			name: page.name,
			groups: page.groups.map((group) => ({ heading: group.heading, cls: group.cls, rows: group.rows.map((row) => ({ name: row.name, desc: row.desc ?? "", more: row.more ?? "" })) })),
		}));
	}

	/** Shows one page (by its id in the nav), as a click on its tab does. */
	showPage(id: string): void {
		this.page = id;
		for (const tab of Array.from(this.containerEl.querySelectorAll<HTMLElement>(".vault-agent-settings-nav-item"))) {
			const selected = tab.dataset.page === id;
			tab.toggleClass("is-active", selected);
			tab.setAttribute("aria-selected", String(selected));
			tab.tabIndex = selected ? 0 : -1;
		}
		for (const pageEl of Array.from(this.containerEl.querySelectorAll<HTMLElement>(".vault-agent-settings-page"))) pageEl.hidden = pageEl.dataset.page !== id;
	}

	private draw(): void {
		const { containerEl } = this;
		containerEl.empty();
		if (!this.ctx.core) {
			containerEl.createEl("p", { text: "Vault Agent is starting…" });
			void this.ctx.started().then((core) => core && this.containerEl.isConnected && this.draw());
			return;
		}
		const pages = this.pages();
		if (!pages.some((p) => p.id === this.page)) this.page = pages[0]?.id ?? "";
		const nav = containerEl.createDiv({ cls: "vault-agent-settings-nav", attr: { role: "tablist", "aria-label": "Vault Agent settings" } });
		// Every page is drawn (a field keeps what was typed while another page shows); one shows.
		for (const page of pages) {
			const tab = nav.createEl("button", { cls: "vault-agent-settings-nav-item", text: page.name, attr: { role: "tab", id: `vault-agent-settings-tab-${page.id}`, "aria-controls": `vault-agent-settings-page-${page.id}`, "data-page": page.id } });
			tab.addEventListener("click", () => this.showPage(page.id));
			tab.addEventListener("keydown", (evt) => {
				// Arrow keys move along the tabs, as a tab list's do.
				const step = evt.key === "ArrowRight" ? 1 : evt.key === "ArrowLeft" ? -1 : 0;
				if (step === 0) return;
				evt.preventDefault();
				const next = pages[(pages.indexOf(page) + step + pages.length) % pages.length];
				if (!next) return;
				this.showPage(next.id);
				nav.querySelector<HTMLElement>(`[data-page="${next.id}"]`)?.focus();
			});
			const pageEl = containerEl.createDiv({ cls: "vault-agent-settings-page", attr: { id: `vault-agent-settings-page-${page.id}`, role: "tabpanel", "aria-label": page.name, "data-page": page.id } });
			for (const group of page.groups) {
				// One element per group with its class, as 1.13 gives a group's `cls`.
				const groupEl = pageEl.createDiv({ cls: group.cls });
				new Setting(groupEl).setName(group.heading).setHeading();
				for (const row of group.rows) drawRow(groupEl, row, page.name, this.docs);
			}
		}
		this.showPage(this.page);
	}

	/** Draws the tab again after a change of its shape (another profile, another provider). */
	private redraw(): void {
		if (requireApiVersion("1.13.0") && !this.drawnByDisplay) this.update();
		else this.draw();
	}
}

function drawRow(containerEl: HTMLElement, row: Row, page: string, docs: string | null): void {
	const setting = new Setting(containerEl).setName(row.name);
	if (row.desc !== undefined) setting.setDesc(describedWithDocs(row.desc, row.more ? page : null, row.name, docs));
	row.render(setting);
	nameControls(setting, row.name);
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
