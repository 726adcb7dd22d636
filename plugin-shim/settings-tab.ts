// The settings tab. It shows what the core reports and hands every change to
// the core, which normalises it; the tab itself decides nothing.

import { type App, type DropdownComponent, PluginSettingTab, SecretComponent, Setting, type TextAreaComponent, type TextComponent, type ToggleComponent } from "obsidian";
import type { ChatSettings, CliStatus, ProviderSettings, VaultAgentSettings } from "./core-types";
import type VaultAgentPlugin from "./main";
import { asPermissionMode, PERMISSION_MODES } from "./permission-modes";
import type { ToolDescriptor } from "./vault-agent-api";

/**
 * Saves a text field when the user leaves it or presses Enter (the DOM
 * "change" event), not on every keystroke, then shows what the core kept
 * (it normalises and clamps values).
 */
function commitOnChange(text: TextComponent | TextAreaComponent, initial: string, commit: (value: string) => Promise<string>): void {
	text.setValue(initial);
	text.inputEl.addEventListener("change", () => {
		// Braces matter: components have a chaining then(), so returning one
		// from a promise callback would make the promise chase it forever.
		void commit(text.getValue()).then((kept) => {
			text.setValue(kept);
		});
	});
}

export class VaultAgentSettingTab extends PluginSettingTab {
	private cliStatus: CliStatus | null = null;
	private modelEl: HTMLElement | null = null;

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
		this.foldersSection(containerEl, settings);
		this.modelEl = containerEl.createDiv({ cls: "vault-agent-model-settings" });
		this.modelSection(settings.chat);
		this.toolsSection(containerEl, core.listTools());
	}

	/** Redraws only the model section (its fields depend on the provider). */
	private modelSection(chat: ChatSettings): void {
		const core = this.plugin.core;
		const containerEl = this.modelEl;
		if (!core || !containerEl) return;
		containerEl.empty();
		const redraw = () => this.modelSection(this.plugin.core?.settings().chat ?? chat);
		new Setting(containerEl).setName("Model").setHeading();
		const kind = chat.provider;
		const active: ProviderSettings = kind === "anthropic" ? chat.anthropic : chat.openai;
		const save = async (patch: Partial<ProviderSettings>, provider = kind) => {
			const current = this.plugin.core?.settings().chat ?? chat;
			const key = provider === "anthropic" ? "anthropic" : "openai";
			await this.plugin.updateSettings({ chat: { ...current, provider, [key]: { ...current[key], ...patch } } });
		};
		const presets = core.providerPresets();
		new Setting(containerEl)
			.setName("Provider")
			.setDesc("Local servers (Ollama, LM Studio) keep your notes on this computer; hosted ones send the conversation to that service.")
			.addDropdown((dropdown) => {
				dropdown.addOption("", kind === "anthropic" ? "Anthropic" : "OpenAI-compatible server");
				for (const preset of presets) dropdown.addOption(preset.id, `Use ${preset.label}`);
				dropdown.setValue("").onChange(async (id) => {
					const preset = presets.find((p) => p.id === id);
					if (!preset) return;
					await save({ baseUrl: preset.baseUrl, model: preset.model }, preset.kind);
					redraw();
				});
			})
			.settingEl.addClass("vault-agent-provider");
		if (kind === "openAi") {
			new Setting(containerEl)
				.setName("Server address")
				.setDesc("The OpenAI-compatible base address, ending in /v1.")
				.addText((text) =>
					commitOnChange(text, active.baseUrl, async (value) => {
						await save({ baseUrl: value });
						return this.plugin.core?.settings().chat.openai.baseUrl ?? value;
					}),
				);
		}
		new Setting(containerEl)
			.setName("Model name")
			.setDesc("Exactly as the server names it; use a model that can call tools.")
			.addText((text) =>
				commitOnChange(text, active.model, async (value) => {
					await save({ model: value });
					return value.trim();
				}),
			)
			.settingEl.addClass("vault-agent-model-name");
		new Setting(containerEl)
			.setName("API key")
			.setDesc("Kept in Obsidian's secret storage under the name you pick, not in this plugin's data. Local servers usually need none.")
			.addComponent((el) =>
				new SecretComponent(this.app, el).setValue(active.apiKeySecret).onChange(async (name) => {
					await save({ apiKeySecret: name });
				}),
			);
		const test = new Setting(containerEl).setName("Test connection").setDesc("Lists the models the server offers.");
		// Each test replaces the last one's answer and model list.
		let models: DropdownComponent | null = null;
		test.addButton((button) =>
			button.setButtonText("Test connection").onClick(async () => {
				test.setDesc("Connecting…");
				models?.selectEl.remove();
				models = null;
				const report = await core.testConnection();
				test.descEl.empty();
				test.descEl.createDiv({ cls: report.ok ? "vault-agent-cli-found" : "vault-agent-cli-missing", text: report.message });
				if (report.models.length > 0) {
					test.addDropdown((dropdown) => {
						models = dropdown;
						dropdown.addOption("", "Choose a model");
						for (const model of report.models) dropdown.addOption(model, model);
						dropdown.onChange(async (model) => {
							if (!model) return;
							await save({ model });
							redraw();
						});
					});
				}
			}),
		);
		if (kind === "anthropic") this.thinkingSettings(containerEl, chat);
		this.numberSetting(
			containerEl,
			"Context window (tokens)",
			"How much the model reads at once. 0 asks the server (Ollama, LM Studio, OpenRouter) or uses the model's known size, else 4096 for Ollama and 8192 for other local servers. Set it if you started Ollama with a larger OLLAMA_CONTEXT_LENGTH. Older messages are shortened or left out to fit.",
			active.contextWindow,
			(value) => {
				const current = this.plugin.core?.settings().chat ?? chat;
				const key = current.provider === "anthropic" ? "anthropic" : "openai";
				return { chat: { ...current, [key]: { ...current[key], contextWindow: Math.round(value) } } };
			},
			(saved) => (saved.chat.provider === "anthropic" ? saved.chat.anthropic : saved.chat.openai).contextWindow,
		);
		this.numberSetting(
			containerEl,
			"Tool rounds per message",
			"The agent stops after this many rounds of tool calls for one message.",
			chat.maxToolRounds,
			(value) => ({ chat: { ...(this.plugin.core?.settings().chat ?? chat), maxToolRounds: Math.round(value) } }),
			(saved) => saved.chat.maxToolRounds,
		);
		this.numberSetting(
			containerEl,
			"Tool result size (characters)",
			"Longer tool output is cut before it goes to the model, with a note saying so.",
			chat.toolResultCapChars,
			(value) => ({ chat: { ...(this.plugin.core?.settings().chat ?? chat), toolResultCapChars: Math.round(value) } }),
			(saved) => saved.chat.toolResultCapChars,
		);
		this.numberSetting(
			containerEl,
			"Model timeout (seconds)",
			"How long to wait for the server to start answering.",
			chat.modelTimeoutMs / 1000,
			(value) => ({ chat: { ...(this.plugin.core?.settings().chat ?? chat), modelTimeoutMs: Math.round(value * 1000) } }),
			(saved) => saved.chat.modelTimeoutMs / 1000,
		);
	}

	private cliSection(containerEl: HTMLElement, settings: VaultAgentSettings): void {
		new Setting(containerEl).setName("Command line interface").setHeading();
		let statusSetting: Setting | null = null;
		new Setting(containerEl)
			.setName("Path to the Obsidian CLI")
			.setDesc("Leave empty to find it automatically. Obsidian turns its CLI on under general settings, command line interface.")
			.addText((text) => {
				text.setPlaceholder("Found automatically");
				commitOnChange(text, settings.cliPath, async (value) => {
					const saved = await this.plugin.updateSettings({ cliPath: value });
					// A new path means a new answer to "which CLI?".
					if (statusSetting) await this.refreshCliStatus(statusSetting);
					return saved.cliPath;
				});
			});
		statusSetting = new Setting(containerEl).setName("CLI in use").addButton((button) =>
			button.setButtonText("Check again").onClick(async () => {
				if (statusSetting) await this.refreshCliStatus(statusSetting);
			}),
		);
		statusSetting.settingEl.addClass("vault-agent-cli-status");
		this.renderCliStatus(statusSetting);
		if (this.cliStatus === null) void this.refreshCliStatus(statusSetting);

		new Setting(containerEl)
			.setName("Vault name")
			.setDesc("The vault the CLI works on. Leave empty for the vault that is open.")
			.addText((text) =>
				commitOnChange(text, settings.vaultName, async (value) => (await this.plugin.updateSettings({ vaultName: value })).vaultName),
			);
		this.numberSetting(
			containerEl,
			"Timeout (seconds)",
			"How long one CLI call may take before it is stopped (1 to 120).",
			settings.timeoutMs / 1000,
			(seconds) => ({ timeoutMs: Math.round(seconds * 1000) }),
			(saved) => saved.timeoutMs / 1000,
		);
		this.numberSetting(
			containerEl,
			"Output cap (KiB)",
			"Longer output is cut, with a note saying how much was left out.",
			settings.outputCapBytes / 1024,
			(kib) => ({ outputCapBytes: Math.round(kib * 1024) }),
			(saved) => saved.outputCapBytes / 1024,
		);
		this.numberSetting(
			containerEl,
			"CLI processes at once",
			"More calls wait their turn, in order (1 to 16).",
			settings.maxProcesses,
			(count) => ({ maxProcesses: Math.round(count) }),
			(saved) => saved.maxProcesses,
		);
	}

	private safetySection(containerEl: HTMLElement, settings: VaultAgentSettings): void {
		new Setting(containerEl).setName("Safety").setHeading();
		const mode = new Setting(containerEl)
			.setName("Vault changes")
			.setDesc("What the agent may change in your vault. You can also switch it in the chat header; the agent itself never can.")
			.addDropdown((dropdown) => {
				for (const m of PERMISSION_MODES) dropdown.addOption(m.mode, m.label);
				dropdown.setValue(settings.permissionMode).onChange(async (value) => {
					const permissionMode = asPermissionMode(value);
					if (!permissionMode) return;
					const saved = await this.plugin.updateSettings({ permissionMode });
					dropdown.setValue(saved.permissionMode);
				});
			});
		mode.settingEl.addClass("vault-agent-permission-mode-setting");
		const list = mode.descEl.createEl("ul", { cls: "vault-agent-permission-modes" });
		for (const m of PERMISSION_MODES) {
			const item = list.createEl("li");
			item.dataset.mode = m.mode;
			item.createEl("strong", { text: m.label });
			item.appendText(`: ${m.description}`);
		}
		this.numberSetting(
			containerEl,
			"Confirmation expiry (minutes)",
			"A change that waits longer than this for your approval is dropped.",
			settings.confirmationExpiryMs / 60000,
			(minutes) => ({ confirmationExpiryMs: Math.round(minutes * 60000) }),
			(saved) => saved.confirmationExpiryMs / 60000,
		);
	}

	/** One folder per line; the core normalises them and says nothing is the whole vault. */
	private foldersSection(containerEl: HTMLElement, settings: VaultAgentSettings): void {
		new Setting(containerEl).setName("Folders").setHeading();
		const folderList = (name: string, desc: string, key: "readFolders" | "writeFolders") => {
			const setting = new Setting(containerEl).setName(name).setDesc(desc).addTextArea((area) => {
				area.setPlaceholder("Whole vault");
				area.inputEl.rows = 3;
				commitOnChange(area, settings[key].join("\n"), async (value) => {
					const folders = value
						.split("\n")
						.map((line) => line.trim())
						.filter((line) => line !== "");
					const saved = await this.plugin.updateSettings({ [key]: folders });
					return saved[key].join("\n");
				});
			});
			setting.settingEl.addClass("vault-agent-folder-setting");
		};
		folderList(
			"Folders the agent may read",
			"One folder per line, from the vault root (like Projects or Areas/Work). Leave empty for the whole vault. Results from searches and lists leave out the rest and say how many were left out.",
			"readFolders",
		);
		folderList(
			"Folders the agent may change",
			"One folder per line. Leave empty for every folder it may read. Changes still follow the vault changes mode above, and never reach Obsidian's configuration folder.",
			"writeFolders",
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
				// Declared kinds; "Ask before every change" asks for the others too.
				const list = writes.map((c) => (c.access === "confirmedWrite" ? `${c.name} (always asks you first)` : c.name));
				commands.createSpan({ cls: "vault-agent-writes", text: `Changes: ${list.join(", ")}` });
			}
		}
	}

	/** Anthropic's extended thinking: a switch and its budget. */
	private thinkingSettings(containerEl: HTMLElement, chat: ChatSettings): void {
		const current = () => this.plugin.core?.settings().chat ?? chat;
		new Setting(containerEl)
			.setName("Extended thinking")
			.setDesc("Claude thinks before it answers; you can unfold what it thought above the answer. Thinking tokens are billed as output.")
			.addToggle((toggle) =>
				toggle.setValue(chat.anthropicThinking).onChange(async (anthropicThinking) => {
					await this.plugin.updateSettings({ chat: { ...current(), anthropicThinking } });
				}),
			)
			.settingEl.addClass("vault-agent-thinking");
		this.numberSetting(
			containerEl,
			"Thinking budget (tokens)",
			"The most tokens Claude may think with per reply (1024 to 64000).",
			chat.anthropicThinkingBudget,
			(value) => ({ chat: { ...current(), anthropicThinkingBudget: Math.round(value) } }),
			(saved) => saved.chat.anthropicThinkingBudget,
		);
	}

	private numberSetting(
		containerEl: HTMLElement,
		name: string,
		desc: string,
		value: number,
		toSettings: (value: number) => Partial<VaultAgentSettings>,
		shown: (saved: VaultAgentSettings) => number,
	): void {
		new Setting(containerEl)
			.setName(name)
			.setDesc(desc)
			.addText((text) => {
				text.inputEl.type = "number";
				commitOnChange(text, String(value), async (raw) => {
					const parsed = Number(raw);
					const current = this.plugin.core?.settings();
					if (raw.trim() === "" || !Number.isFinite(parsed)) return current ? String(shown(current)) : String(value);
					// The core clamps out-of-range numbers; the field shows what was kept.
					return String(shown(await this.plugin.updateSettings(toSettings(parsed))));
				});
			})
			.settingEl.addClass("vault-agent-number");
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
