// The settings tab's Advanced section: the command line interface (its
// path, the one found, the vault it works on), then the limits. The CLI's
// status is asked once and kept across redraws of the tab.

import type { Setting } from "obsidian";
import type { CliStatus } from "../core/types";
import type { SettingsContext } from "./settings-context";
import { MAX_PROCESSES_RANGE, READ_CACHE_RANGE_SECONDS, TIMEOUT_RANGE_MS } from "../generated/limits";
import { commitOnChange, numberRow, type Section } from "./section";

export class AdvancedSection {
	private status: CliStatus | null = null;
	/** Counts the checks asked, so only the latest one's answer is shown. */
	private checks = 0;

	constructor(private readonly ctx: SettingsContext) {}

	/** The command line interface, then the limits. */
	section(): Section {
		const settings = this.ctx.core?.settings();
		const cli = ["command line interface", "CLI"];
		let statusSetting: Setting | null = null;
		return {
			heading: "Advanced",
			cls: "vault-agent-advanced-settings",
			rows: [
				{
					name: "Path to the Obsidian CLI",
					desc: "Empty: found by itself. Turn the CLI on in Obsidian's general settings.",
					more: "Leave empty to find it automatically. Obsidian turns its CLI on under general settings, command line interface.",
					aliases: cli,
					render: (setting) => {
						setting.addText((text) => {
							text.setPlaceholder("Found automatically");
							commitOnChange(text, settings?.cliPath ?? "", async (value) => {
								const saved = await this.ctx.updateSettings({ cliPath: value });
								// A new path means a new answer to "which CLI?".
								if (statusSetting) await this.refresh(statusSetting);
								return saved.cliPath;
							});
						});
					},
				},
				{
					name: "CLI in use",
					aliases: cli,
					render: (setting) => {
						statusSetting = setting;
						setting.settingEl.addClass("vault-agent-cli-status");
						setting.addButton((button) =>
							button.setButtonText("Check again").onClick(async () => {
								await this.refresh(setting);
							}),
						);
						this.render(setting);
						if (this.status === null) void this.refresh(setting);
					},
				},
				{
					name: "Vault name",
					desc: "The vault the CLI works on. Leave empty for the vault that is open.",
					aliases: cli,
					render: (setting) => {
						setting.addText((text) =>
							commitOnChange(text, settings?.vaultName ?? "", async (value) => (await this.ctx.updateSettings({ vaultName: value })).vaultName),
						);
					},
				},
				numberRow(this.ctx, "Timeout (seconds)", `How long one CLI call may take before it is stopped (${TIMEOUT_RANGE_MS[0] / 1000} to ${TIMEOUT_RANGE_MS[1] / 1000}).`, "timeoutSeconds", cli),
				numberRow(this.ctx, "Output cap (KiB)", "Longer output is cut, with a note saying how much.", "outputCapKib", cli),
				numberRow(this.ctx, "CLI processes at once", `More calls wait their turn, in order (${MAX_PROCESSES_RANGE[0]} to ${MAX_PROCESSES_RANGE[1]}).`, "maxProcesses", cli),
				numberRow(this.ctx, "Confirmation expiry (minutes)", "A change waiting longer than this for your approval is dropped.", "confirmationExpiryMinutes"),
				numberRow(
					this.ctx,
					"Reuse reads for (seconds)",
					`A repeated read is answered from memory this long (${READ_CACHE_RANGE_SECONDS[0]} to ${READ_CACHE_RANGE_SECONDS[1]}; 0: off).`,
					"readCacheSeconds",
					["cache"],
					`A read the agent repeats while nothing in the vault changed is answered without running the CLI again, for up to this long (${READ_CACHE_RANGE_SECONDS[0]} to ${READ_CACHE_RANGE_SECONDS[1]}; 0 turns it off). Any change Obsidian sees clears it.`,
				),
				numberRow(this.ctx, "Tool rounds per message", "The agent stops after this many rounds of tool calls.", "maxToolRounds"),
				numberRow(this.ctx, "Tool result size (characters)", "Longer tool output is cut before the model reads it.", "toolResultCapChars"),
				numberRow(
					this.ctx,
					"Wait for the first token (seconds)",
					"How long the server may take before its answer starts (5 to 3600).",
					"firstTokenTimeoutSeconds",
					undefined,
					"How long the model server may take before its answer starts (5 to 3600). A model on a CPU reads the whole prompt first, which can take minutes.",
				),
				numberRow(
					this.ctx,
					"Wait between tokens (seconds)",
					"How long a started answer may go silent before it ends (5 to 600).",
					"modelTimeoutSeconds",
				),
			],
		};
	}

	private async refresh(setting: Setting): Promise<void> {
		const core = this.ctx.core;
		if (!core) return;
		setting.setDesc("Looking for the CLI…");
		const check = ++this.checks;
		const status = await core.cliStatus();
		// A path typed after this check began has a check of its own: an
		// older answer that arrives later must not replace it.
		if (check !== this.checks) return;
		this.status = status;
		this.render(setting);
	}

	private render(setting: Setting): void {
		const status = this.status;
		setting.descEl.empty();
		if (!status) {
			setting.setDesc("Looking for the CLI…");
			return;
		}
		const binary = status.discovery.binary;
		// The user's own path first, when it is what went wrong (or was passed over).
		if (status.discovery.settingProblem) setting.descEl.createDiv({ cls: "vault-agent-cli-missing", text: status.discovery.settingProblem });
		setting.descEl.createDiv({
			cls: binary ? "vault-agent-cli-found" : "vault-agent-cli-missing",
			text: binary ? `Found: ${binary}` : "Not found. Turn it on in Obsidian's general settings (command line interface), or set its path above.",
		});
		if (status.version) setting.descEl.createDiv({ text: `Version: ${status.version}` });
		else if (binary && status.versionError) setting.descEl.createDiv({ cls: "vault-agent-cli-missing", text: status.versionError });
	}
}
