// The settings tab. It shows what the core reports and hands every change to
// the core, which normalises it; the tab itself decides nothing.

import { type App, PluginSettingTab, Setting } from "obsidian";
import type { CliStatus, VaultAgentSettings } from "./core-types";
import type VaultAgentPlugin from "./main";

export class VaultAgentSettingTab extends PluginSettingTab {
	private cliStatus: CliStatus | null = null;

	constructor(app: App, private readonly plugin: VaultAgentPlugin) {
		super(app, plugin);
	}

	display(): void {
		const { containerEl } = this;
		containerEl.empty();
		const core = this.plugin.core;
		if (!core) return;
		const settings = core.settings();

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
		const statusSetting = new Setting(containerEl)
			.setName("CLI in use")
			.addButton((button) =>
				button.setButtonText("Check again").onClick(async () => {
					await this.refreshCliStatus(statusSetting);
				}),
			);
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
		this.numberSetting(containerEl, settings, "Timeout (milliseconds)", "How long one CLI call may take before it is stopped.", "timeoutMs");
		this.numberSetting(containerEl, settings, "Output cap (bytes)", "Longer output is cut, with a note saying how much was left out.", "outputCapBytes");
	}

	private numberSetting(
		containerEl: HTMLElement,
		settings: VaultAgentSettings,
		name: string,
		desc: string,
		key: "timeoutMs" | "outputCapBytes",
	): void {
		new Setting(containerEl)
			.setName(name)
			.setDesc(desc)
			.addText((text) => {
				text.inputEl.type = "number";
				text.setValue(String(settings[key])).onChange(async (value) => {
					await this.plugin.updateSettings({ [key]: Number(value) });
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
