// The chat view's header (panel.ts draws it): the permission mode, the
// Local only and MCP badges, who answers (this view's pick), the icons, and
// a coding agent's own selects in a second row.

import { DropdownComponent, ExtraButtonComponent, setIcon, setTooltip } from "obsidian";
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
}

export class ChatHeader {
	/** The modes a coding agent reports (e.g. Ask, Code), while one runs. */
	readonly agentModeDropdown: DropdownComponent;
	/** A coding agent's session settings, one dropdown each. */
	readonly agentConfigEl: HTMLElement;
	private readonly profileSwitcher: ProfileSwitcher;
	private readonly modeEl: HTMLElement;
	/** Shown while Settings → Safety → Local only is on. */
	private readonly localOnlyEl: HTMLElement;
	private readonly outsideEl: HTMLElement;
	private readonly modeIcon: HTMLElement;
	private readonly modeDropdown: DropdownComponent;

	constructor(
		root: HTMLElement,
		private readonly ctx: ViewContext,
		actions: HeaderActions,
	) {
		// Two rows at most: the mode, who answers and the icons; then a coding
		// agent's own selects, in one compact row (hidden while empty).
		const bar = root.createDiv({ cls: "vault-agent-chat-header" });
		const header = bar.createDiv({ cls: "vault-agent-header-main" });
		this.localOnlyEl = header.createDiv({ cls: "vault-agent-local-only-badge", text: "Local only", attr: { title: "Vault Agent connects only to this computer and your private network (Settings → Safety)" } });
		this.localOnlyEl.hide();
		// The user's own MCP servers that are on: names, or a count, with each one's state as the tooltip.
		this.outsideEl = header.createDiv({ cls: "vault-agent-outside-badge" });
		this.outsideEl.hide();
		// The permission mode, where the user sees it while chatting. Only this
		// dropdown (a user's click) and the settings tab change it.
		this.modeEl = header.createDiv({ cls: "vault-agent-mode" });
		this.modeIcon = this.modeEl.createSpan({ cls: "vault-agent-mode-icon" });
		this.modeDropdown = new DropdownComponent(this.modeEl);
		this.modeDropdown.selectEl.addClass("vault-agent-permission-mode");
		this.modeDropdown.selectEl.setAttribute("aria-label", "Vault changes");
		for (const m of PERMISSION_MODES) this.modeDropdown.addOption(m.mode, m.label);
		this.modeDropdown.onChange(async (value) => {
			const permissionMode = asPermissionMode(value);
			if (permissionMode) await ctx.updateSettings({ permissionMode });
		});
		this.profileSwitcher = new ProfileSwitcher(header, ctx, () => actions.agentChanged());
		const icons = header.createDiv({ cls: "vault-agent-header-icons" });
		const icon = (name: string, tooltip: string, cls: string, run: () => void) =>
			new ExtraButtonComponent(icons).setIcon(name).setTooltip(tooltip).onClick(run).extraSettingsEl.addClass(cls);
		icon("plus", "New chat", "vault-agent-new-chat", () => actions.newChat());
		icon("history", "Chat history", "vault-agent-history-button", () => actions.toggleHistory());
		icon("file-output", "Export to note", "vault-agent-export", () => actions.exportChat());
		const agentRow = bar.createDiv({ cls: "vault-agent-agent-row" });
		this.agentModeDropdown = new DropdownComponent(agentRow);
		this.agentModeDropdown.selectEl.addClass("vault-agent-agent-mode");
		setTooltip(this.agentModeDropdown.selectEl, "Agent's mode");
		this.agentModeDropdown.selectEl.hide();
		this.agentModeDropdown.onChange((mode) => actions.agentMode(mode));
		this.agentConfigEl = agentRow.createDiv({ cls: "vault-agent-agent-config" });
	}

	/** Shows the permission mode and which model answers, as saved now. */
	refresh(): void {
		const settings = this.ctx.core?.settings();
		if (!settings) return;
		this.showMode(settings.permissionMode);
		this.localOnlyEl.toggle(settings.localOnly);
		this.profileSwitcher.refresh();
		const outside = this.ctx.core?.outsideSummary();
		this.outsideEl.toggle(Boolean(outside?.label));
		if (!outside?.label) return;
		this.outsideEl.empty();
		setIcon(this.outsideEl.createSpan({ cls: "vault-agent-outside-icon" }), "plug");
		this.outsideEl.createSpan({ cls: "vault-agent-outside-label", text: outside.label });
		this.outsideEl.toggleClass("is-error", outside.unreachable);
		this.outsideEl.setAttribute("aria-label", `MCP servers: ${outside.servers.join("; ")}`);
	}

	private showMode(mode: PermissionMode): void {
		const text = permissionModeText(mode);
		this.modeDropdown.setValue(text.mode);
		this.modeEl.dataset.mode = text.mode;
		// The label too: a narrow header cuts it.
		this.modeEl.setAttribute("title", `${text.label}: ${text.description}`);
		setIcon(this.modeIcon, text.mode === "readOnly" ? "lock" : text.mode === "askEveryChange" ? "shield-check" : "pencil");
	}
}
