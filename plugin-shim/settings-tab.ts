// The settings tab. It shows what the core reports and hands every change to
// the core, which normalises it; the tab itself decides nothing.

import { type App, PluginSettingTab, Setting, type ToggleComponent } from "obsidian";
import type { CliStatus, VaultAgentSettings } from "./core-types";
import type VaultAgentPlugin from "./main";
import type { ToolDescriptor } from "./vault-agent-api";

export class VaultAgentSettingTab extends PluginSettingTab {
	private cliStatus: CliStatus | null = null;

	constructor(app: App, private readonly plugin: VaultAgentPlugin) {
		super(app, plugin);
	}

	display(): void {
		const { containerEl } = this;
		containerEl.empty();
		containerEl.addClass("vault-agent-settings");
		const core = this.plugin.core;
		if (!core) return;
		const settings = core.settings();
		this.cliSection(containerEl, settings);
		this.safetySection(containerEl, settings);
		this.toolsSection(containerEl, core.listTools());
	}

	private cliSection(containerEl: HTMLElement, settings: VaultAgentSettings): void {
		new Setting(containerEl).setName("Command line interface").setHeading();
		new Setting(containerEl)
			.setName("Path to the Obsidian CLI")
			.setDesc("Leave empty to find it automatically. Obsidian turns its CLI on under general settings, command line interface.")
			.addText((text) =>
				text
					.setPlaceholder("Found automatically")
					.setValue(settings.cliPath)
					.onChange(async (value) => {
						await this.plugin.updateSettings({ cliPath: value });
					}),
			);
		const statusSetting = new Setting(containerEl).setName("CLI in use").addButton((button) =>
			button.setButtonText("Check again").onClick(async () => {
				await this.refreshCliStatus(statusSetting);
			}),
		);
		statusSetting.settingEl.addClass("vault-agent-cli-status");
		this.renderCliStatus(statusSetting);
		if (this.cliStatus === null) void this.refreshCliStatus(statusSetting);

		new Setting(containerEl)
			.setName("Vault name")
			.setDesc("The vault the CLI works on. Leave empty for the vault that is open.")
			.addText((text) =>
				text.setValue(settings.vaultName).onChange(async (value) => {
					await this.plugin.updateSettings({ vaultName: value });
				}),
			);
		this.numberSetting(containerEl, "Timeout (seconds)", "How long one CLI call may take before it is stopped.", settings.timeoutMs / 1000, (seconds) => ({
			timeoutMs: Math.round(seconds * 1000),
		}));
		this.numberSetting(
			containerEl,
			"Output cap (KiB)",
			"Longer output is cut, with a note saying how much was left out.",
			settings.outputCapBytes / 1024,
			(kib) => ({ outputCapBytes: Math.round(kib * 1024) }),
		);
	}

	private safetySection(containerEl: HTMLElement, settings: VaultAgentSettings): void {
		new Setting(containerEl).setName("Safety").setHeading();
		new Setting(containerEl)
			.setName("Allow vault changes")
			.setDesc(
				"Off: every change is refused and nothing in the vault is touched. On: additions (daily note text, base items, bookmarks) run at once, and property or task changes wait for your approval on a card that shows the change.",
			)
			.addToggle((toggle) =>
				toggle.setValue(settings.allowVaultChanges).onChange(async (value) => {
					await this.plugin.updateSettings({ allowVaultChanges: value });
				}),
			)
			.settingEl.addClass("vault-agent-allow-changes");
		this.numberSetting(
			containerEl,
			"Confirmation expiry (minutes)",
			"A change that waits longer than this for your approval is dropped.",
			settings.confirmationExpiryMs / 60000,
			(minutes) => ({ confirmationExpiryMs: Math.round(minutes * 60000) }),
		);
	}

	private toolsSection(containerEl: HTMLElement, tools: ToolDescriptor[]): void {
		new Setting(containerEl).setName("Tools").setHeading();
		const toggles = new Map<string, ToggleComponent>();
		let master: ToggleComponent | null = null;
		// setValue() fires onChange; while one switch moves the others, they
		// must not save again.
		let syncing = false;
		const moveSwitches = (move: () => void) => {
			syncing = true;
			try {
				move();
			} finally {
				syncing = false;
			}
		};
		new Setting(containerEl)
			.setName("All tools")
			.setDesc("Turn every tool on or off at once.")
			.addToggle((toggle) => {
				master = toggle;
				toggle.setValue(tools.every((t) => t.enabled)).onChange(async (value) => {
					if (syncing) return;
					moveSwitches(() => {
						for (const t of toggles.values()) t.setValue(value);
					});
					await this.plugin.updateSettings({ tools: Object.fromEntries(tools.map((t) => [t.id, value])) });
				});
			})
			.settingEl.addClass("vault-agent-all-tools");
		for (const tool of tools) {
			const setting = new Setting(containerEl).setName(tool.displayName).addToggle((toggle) => {
				toggles.set(tool.id, toggle);
				toggle.setValue(tool.enabled).onChange(async (value) => {
					if (syncing) return;
					const current = this.plugin.core?.settings().tools ?? {};
					await this.plugin.updateSettings({ tools: { ...current, [tool.id]: value } });
					moveSwitches(() => {
						master?.setValue([...toggles.values()].every((t) => t.getValue()));
					});
				});
			});
			setting.settingEl.addClass("vault-agent-tool");
			setting.settingEl.dataset.toolId = tool.id;
			const desc = setting.descEl;
			desc.createDiv({ text: tool.description });
			const reads = tool.commandDetails.filter((c) => c.access === "read").map((c) => c.name);
			const writes = tool.commandDetails.filter((c) => c.access !== "read");
			const commands = desc.createDiv({ cls: "vault-agent-tool-commands" });
			if (reads.length > 0) commands.createSpan({ cls: "vault-agent-reads", text: `Reads: ${reads.join(", ")}` });
			if (writes.length > 0) {
				const list = writes.map((c) => (c.access === "confirmedWrite" ? `${c.name} (asks you first)` : c.name));
				commands.createSpan({ cls: "vault-agent-writes", text: `Changes: ${list.join(", ")}` });
			}
		}
	}

	private numberSetting(
		containerEl: HTMLElement,
		name: string,
		desc: string,
		value: number,
		toSettings: (value: number) => Partial<VaultAgentSettings>,
	): void {
		new Setting(containerEl)
			.setName(name)
			.setDesc(desc)
			.addText((text) => {
				text.inputEl.type = "number";
				text.setValue(String(value)).onChange(async (raw) => {
					const parsed = Number(raw);
					if (raw.trim() === "" || !Number.isFinite(parsed)) return;
					await this.plugin.updateSettings(toSettings(parsed));
				});
			});
	}

	private async refreshCliStatus(setting: Setting): Promise<void> {
		const core = this.plugin.core;
		if (!core) return;
		setting.setDesc("Looking for the CLI…");
		this.cliStatus = await core.cliStatus();
		this.renderCliStatus(setting);
	}

	private renderCliStatus(setting: Setting): void {
		const status = this.cliStatus;
		setting.descEl.empty();
		if (!status) {
			setting.setDesc("Looking for the CLI…");
			return;
		}
		const binary = status.discovery.binary;
		setting.descEl.createDiv({
			cls: binary ? "vault-agent-cli-found" : "vault-agent-cli-missing",
			text: binary ? `Found: ${binary}` : "Not found. Turn it on in Obsidian's general settings (command line interface), or set its path above.",
		});
		if (status.version) setting.descEl.createDiv({ text: `Version: ${status.version}` });
		else if (binary && status.versionError) setting.descEl.createDiv({ cls: "vault-agent-cli-missing", text: status.versionError });
	}
}
