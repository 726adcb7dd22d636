// The chat view's header (panel.ts draws it): the permission mode, the
// Local only and MCP badges, who answers (this view's pick), the icons, and
// a coding agent's own selects behind one button beside who answers (a
// panel that opens over the chat), so the header stays two rows.

import { type App, ButtonComponent, DropdownComponent, ExtraButtonComponent, Modal, setIcon, setTooltip } from "obsidian";
import type { PermissionMode } from "../core/types";
import { asPermissionMode, PERMISSION_MODES, permissionModeText } from "../settings/permission-modes";
import type { ViewContext } from "./view-context";
import { ProfileSwitcher } from "./profile-switcher";

/** What the header's icons and pickers do in the view. */
export interface HeaderActions {
	newChat(): void;
	toggleHistory(): void;
	exportChat(): void;
	/** The picker moved to or from a coding agent. */
	agentChanged(): void;
	/** A mode the running coding agent reports was picked. */
	agentMode(mode: string): void;
	/** Plan mode was turned on or off for this chat. */
	planMode(on: boolean): void;
}

export class ChatHeader {
	/** The modes a coding agent reports (e.g. Ask, Code), while one runs. */
	readonly agentModeDropdown: DropdownComponent;
	/** A coding agent's session settings, one dropdown each. */
	readonly agentConfigEl: HTMLElement;
	private readonly profileSwitcher: ProfileSwitcher;
	private readonly modeEl: HTMLElement;
	private readonly titleEl: HTMLElement;
	/** Shown while Settings → Safety → Local only is on. */
	private readonly localOnlyEl: HTMLElement;
	private readonly outsideEl: HTMLElement;
	private readonly modeIcon: HTMLElement;
	private readonly modeDropdown: DropdownComponent;
	private readonly planButton: HTMLButtonElement;

	constructor(
		root: HTMLElement,
		private readonly ctx: ViewContext,
		actions: HeaderActions,
		app: App,
	) {
		// Two rows, each laid out on purpose (nothing that merely wrapped): the
		// chat's title, the status badges and the icons; then the mode, who
		// answers and, with a coding agent, the button to its own selects.
		const bar = root.createDiv({ cls: "vault-agent-chat-header" });
		const top = bar.createDiv({ cls: "vault-agent-header-top" });
		this.titleEl = top.createDiv({ cls: "vault-agent-chat-title", attr: { role: "heading", "aria-level": "2" } });
		// Local only is a status: its icon and name; a click explains it, with the way to its setting.
		this.localOnlyEl = top.createEl("button", { cls: "vault-agent-local-only-badge", attr: { "aria-label": "Local only: what it means", title: LOCAL_ONLY_TEXT } });
		setIcon(this.localOnlyEl.createSpan({ cls: "vault-agent-local-only-icon" }), "shield");
		this.localOnlyEl.createSpan({ cls: "vault-agent-local-only-label", text: "Local only" });
		this.localOnlyEl.addEventListener("click", () => new LocalOnlyModal(app, ctx).open());
		this.localOnlyEl.hide();
		// The chat's status: the user's own MCP servers that are on (names, or a count) and what is
		// wrong that is about no message; a click opens the panel with each state and its fix.
		this.outsideEl = top.createEl("button", { cls: "vault-agent-outside-badge" });
		this.outsideEl.addEventListener("click", () => new StatusModal(app, ctx).open());
		this.outsideEl.hide();
		const icons = top.createDiv({ cls: "vault-agent-header-icons" });
		const header = bar.createDiv({ cls: "vault-agent-header-main" });
		// The permission mode, where the user sees it while chatting. Only this
		// dropdown (a user's click) and the settings tab change it.
		this.modeEl = header.createDiv({ cls: "vault-agent-mode" });
		this.modeIcon = this.modeEl.createSpan({ cls: "vault-agent-mode-icon" });
		this.modeDropdown = new DropdownComponent(this.modeEl);
		this.modeDropdown.selectEl.addClass("vault-agent-permission-mode");
		// A narrow header shows the mode as its icon and this chevron, the select laid over both (styles.css).
		setIcon(this.modeEl.createSpan({ cls: "vault-agent-mode-chevron" }), "chevrons-up-down");
		for (const m of PERMISSION_MODES) this.modeDropdown.addOption(m.mode, m.label);
		this.modeDropdown.onChange(async (value) => {
			const permissionMode = asPermissionMode(value);
			if (permissionMode) await ctx.updateSettings({ permissionMode });
		});
		// Plan first: beside the mode it works with; the agent reads, then proposes a plan to approve.
		this.planButton = header.createEl("button", { cls: "vault-agent-plan-mode", text: "Plan", attr: { "aria-pressed": "false" } });
		setIcon(this.planButton.createSpan({ cls: "vault-agent-plan-mode-icon" }), "list-checks");
		setTooltip(this.planButton, "Plan mode: the agent reads, then proposes its changes as a plan you approve, edit or reject before anything changes");
		this.planButton.addEventListener("click", () => {
			const on = this.planButton.getAttribute("aria-pressed") !== "true";
			this.showPlanMode(on);
			actions.planMode(on);
		});
		this.profileSwitcher = new ProfileSwitcher(header, ctx, () => {
			actions.agentChanged();
			this.showPlanAvailable();
		});
		const agentButton = new ExtraButtonComponent(header).setIcon("sliders-horizontal").setTooltip("Agent's settings");
		agentButton.extraSettingsEl.addClass("vault-agent-agent-settings-button", "vault-agent-icon-button");
		agentButton.extraSettingsEl.setAttribute("role", "button");
		agentButton.extraSettingsEl.setAttribute("aria-expanded", "false");
		agentButton.extraSettingsEl.hide();
		const icon = (name: string, tooltip: string, cls: string, run: () => void) =>
			// A named icon button is a button to a screen reader too.
			new ExtraButtonComponent(icons).setIcon(name).setTooltip(tooltip).onClick(run).extraSettingsEl.addClass(cls, "vault-agent-icon-button");
		icon("plus", "New chat", "vault-agent-new-chat", () => actions.newChat());
		icon("history", "Chat history", "vault-agent-history-button", () => actions.toggleHistory());
		icon("file-output", "Export to note", "vault-agent-export", () => actions.exportChat());
		for (const el of Array.from(icons.querySelectorAll(".vault-agent-icon-button"))) el.setAttribute("role", "button");
		const agentRow = bar.createDiv({ cls: "vault-agent-agent-row", attr: { role: "group", "aria-label": "Agent's settings" } });
		const agentModeRow = agentRow.createEl("label", { cls: "vault-agent-agent-setting-row" });
		agentModeRow.createSpan({ cls: "vault-agent-agent-setting-name", text: "Agent's mode" });
		this.agentModeDropdown = new DropdownComponent(agentModeRow);
		this.agentModeDropdown.selectEl.addClass("vault-agent-agent-mode");
		setTooltip(this.agentModeDropdown.selectEl, "Agent's mode");
		this.agentModeDropdown.selectEl.hide();
		this.agentModeDropdown.onChange((mode) => actions.agentMode(mode));
		this.agentConfigEl = agentRow.createDiv({ cls: "vault-agent-agent-config" });
		this.agentPanel(agentRow, agentButton.extraSettingsEl);
	}

	/**
	 * The coding agent's selects open under the header from their button,
	 * shown only while the agent reports any; its tooltip says what is chosen.
	 * Focus leaving both (or Escape) closes them.
	 */
	private agentPanel(panel: HTMLElement, button: HTMLElement): void {
		const show = (open: boolean) => {
			panel.toggleClass("is-open", open);
			button.setAttribute("aria-expanded", String(open));
		};
		const selects = () => Array.from(panel.querySelectorAll("select")).filter((s) => s.style.display !== "none");
		const sync = () => {
			const shown = selects();
			button.toggle(shown.length > 0);
			if (shown.length === 0) show(false);
			const chosen = shown.map((s) => s.selectedOptions[0]?.text ?? "").filter(Boolean);
			setTooltip(button, chosen.length > 0 ? `Agent's settings: ${chosen.join(" · ")}` : "Agent's settings");
			button.setAttribute("aria-label", chosen.length > 0 ? `Agent's settings: ${chosen.join(", ")}` : "Agent's settings");
		};
		new MutationObserver(sync).observe(panel, { childList: true, subtree: true, attributes: true, attributeFilter: ["style"] });
		panel.addEventListener("change", sync);
		button.addEventListener("click", () => {
			show(!panel.hasClass("is-open"));
			if (panel.hasClass("is-open")) selects()[0]?.focus();
		});
		const leave = (event: FocusEvent) => {
			const to = event.relatedTarget as Node | null;
			if (to && (panel.contains(to) || button.contains(to))) return;
			show(false);
		};
		panel.addEventListener("focusout", leave);
		panel.addEventListener("keydown", (event: KeyboardEvent) => {
			if (event.key !== "Escape" || !panel.hasClass("is-open")) return;
			event.preventDefault();
			event.stopPropagation();
			show(false);
			button.focus();
		});
	}

	/** The chat's title, cut at its end where the row is short (whole in its tooltip). */
	setTitle(title: string): void {
		this.titleEl.setText(title);
		this.titleEl.setAttribute("title", title);
	}

	/** Whether this chat is in plan mode, as the header shows it. */
	showPlanMode(on: boolean): void {
		this.planButton.setAttribute("aria-pressed", String(on));
		this.planButton.toggleClass("is-active", on);
	}

	/** Plan mode is the model profiles' (the core runs it); a coding agent plans in its own modes, so Plan goes while one is picked. */
	private showPlanAvailable(): void {
		this.planButton.toggle(!this.ctx.codingAgents?.profileFor(this.ctx.selectedAgent()));
	}

	/** Switch profile (an error's way out): the model picker, focused and open. */
	openProfileSwitcher(): void {
		this.profileSwitcher.open();
	}

	/** Shows the permission mode and which model answers, as saved now. */
	refresh(): void {
		const settings = this.ctx.core?.settings();
		if (!settings) return;
		this.showMode(settings.permissionMode);
		this.localOnlyEl.toggle(settings.localOnly);
		this.profileSwitcher.refresh();
		this.showPlanAvailable();
		const outside = this.ctx.core?.outsideSummary();
		const problems = outside?.problems.length ?? 0;
		this.outsideEl.toggle(Boolean(outside?.label) || problems > 0);
		if (!outside || (!outside.label && problems === 0)) return;
		this.outsideEl.empty();
		setIcon(this.outsideEl.createSpan({ cls: "vault-agent-outside-icon" }), problems > 0 ? "alert-triangle" : "plug");
		this.outsideEl.createSpan({ cls: "vault-agent-outside-label", text: outside.label || (problems === 1 ? "1 problem" : `${problems} problems`) });
		this.outsideEl.toggleClass("is-error", outside.unreachable || problems > 0);
		const states = outside.servers.length > 0 ? `MCP servers: ${outside.servers.join("; ")}` : "Status";
		this.outsideEl.setAttribute("aria-label", problems > 0 ? `${states}. ${problems === 1 ? "1 problem" : `${problems} problems`}: open the status` : states);
	}

	private showMode(mode: PermissionMode): void {
		const text = permissionModeText(mode);
		this.modeDropdown.setValue(text.mode);
		this.modeEl.dataset.mode = text.mode;
		// Its name and the mode chosen, as its tooltip and to a screen reader
		// (a narrow header shows only its icon); what the mode does, described.
		const select = this.modeDropdown.selectEl;
		setTooltip(select, `Vault changes: ${text.label}`);
		select.setAttribute("aria-label", `Vault changes: ${text.label}`);
		select.setAttribute("aria-description", text.description);
		setIcon(this.modeIcon, text.mode === "readOnly" ? "lock" : text.mode === "askEveryChange" ? "shield-check" : "pencil");
	}
}

const LOCAL_ONLY_TEXT = "Vault Agent connects only to this computer and your private network (Settings → Safety).";

/** What Local only means, opened from its badge, with the way to its setting. */
class LocalOnlyModal extends Modal {
	constructor(
		app: App,
		private readonly ctx: ViewContext,
	) {
		super(app);
	}

	onOpen(): void {
		this.setTitle("Local only is on");
		this.contentEl.createEl("p", { text: "Vault Agent connects only to this computer and your private network: model servers, MCP servers and downloads elsewhere are refused before anything is sent." });
		this.contentEl.createEl("p", { text: "A profile that points at a server on the internet fails and says why: point it at a local server, or turn the setting off." });
		const buttons = this.contentEl.createDiv({ cls: "modal-button-container" });
		new ButtonComponent(buttons)
			.setButtonText("Open safety settings")
			.setCta()
			.onClick(() => {
				this.close();
				this.ctx.openSettings("safety");
			});
		new ButtonComponent(buttons).setButtonText("Close").onClick(() => this.close());
	}

	onClose(): void {
		this.contentEl.empty();
	}
}

/** The chat's status: each MCP server's state, and what is wrong that is about no message, with its fix. */
class StatusModal extends Modal {
	constructor(
		app: App,
		private readonly ctx: ViewContext,
	) {
		super(app);
	}

	onOpen(): void {
		const summary = this.ctx.core?.outsideSummary();
		this.setTitle("Chat status");
		this.contentEl.addClass("vault-agent-status");
		if (summary && summary.servers.length > 0) {
			this.contentEl.createDiv({ cls: "vault-agent-status-heading", text: "Your MCP servers" });
			const list = this.contentEl.createEl("ul");
			for (const server of summary.servers) list.createEl("li", { text: server });
		}
		for (const problem of summary?.problems ?? []) {
			const row = this.contentEl.createDiv({ cls: "vault-agent-status-problem" });
			setIcon(row.createSpan({ cls: "vault-agent-status-icon" }), "alert-triangle");
			// Backticks mark names in the core's words; shown as plain text, not Markdown punctuation.
			row.createSpan({ text: problem.replace(/`/g, "") });
		}
		if ((summary?.problems.length ?? 0) === 0) this.contentEl.createEl("p", { text: "Nothing is wrong." });
		const buttons = this.contentEl.createDiv({ cls: "modal-button-container" });
		const servers = (summary?.servers.length ?? 0) > 0;
		new ButtonComponent(buttons).setButtonText(servers ? "Open MCP settings" : "Open model settings").onClick(() => {
			this.close();
			this.ctx.openSettings(servers ? "mcp" : "model");
		});
		new ButtonComponent(buttons).setButtonText("Close").onClick(() => this.close());
	}

	onClose(): void {
		this.contentEl.empty();
	}
}
