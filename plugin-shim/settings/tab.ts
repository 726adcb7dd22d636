// The settings tab. It shows what the core reports and hands every change to
// the core, which normalises it; the tab itself decides nothing.
//
// One list of sections (Model, Safety, Tools, then Advanced; a new section is
// one method and one line in `sections()`) feeds both renderers: Obsidian
// 1.13+ draws `getSettingDefinitions()` itself and indexes it for its settings
// search; older versions call `display()`, which draws the same rows.

import {
	type App,
	type DropdownComponent,
	Notice,
	PluginSettingTab,
	SecretComponent,
	Setting,
	requireApiVersion,
	type SettingDefinitionItem,
	type SettingGroupItem,
	type TextAreaComponent,
	type TextComponent,
	type ToggleComponent,
} from "obsidian";
import { codingAgentsSection } from "./coding-agents";
import { agentsSection } from "./agents";
import type { CliStatus, ModelProfile, ProfileEdit, VaultAgentSettings } from "../core/types";
import type VaultAgentPlugin from "../main";
import { asPermissionMode, PERMISSION_MODES } from "./permission-modes";
import { activeProfile } from "./active-profile";

/**
 * One row. Every row draws its own control, in both Obsidian versions, so a
 * field behaves the same everywhere (saved when left, showing what the core kept).
 */
export interface Row {
	name: string;
	desc?: string;
	aliases?: string[];
	render: (setting: Setting) => void;
}

/** One section under its heading; `cls` marks its rows in the fallback. */
export interface Section {
	heading: string;
	cls: string;
	rows: Row[];
}

/** A number setting as shown (seconds, KiB…) and as stored (the core clamps it). */
interface NumberSetting {
	shown: (settings: VaultAgentSettings) => number;
	stored: (value: number, settings: VaultAgentSettings) => Partial<VaultAgentSettings>;
}

/** The chat settings with the profile in use changed by `patch`. */
function withActiveProfile(settings: VaultAgentSettings, patch: Partial<ModelProfile>): Partial<VaultAgentSettings> {
	const chat = settings.chat;
	const id = activeProfile(chat)?.id;
	return { chat: { ...chat, profiles: chat.profiles.map((p) => (p.id === id ? { ...p, ...patch } : p)) } };
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
	/** True once Obsidian (before 1.13) drew the tab with display(). */
	private drawnByDisplay = false;

	constructor(
		app: App,
		private readonly plugin: VaultAgentPlugin,
	) {
		super(app, plugin);
		this.containerEl.addClass("vault-agent-settings");
	}

	/** In this order. */
	private sections(): Section[] {
		return [this.modelSection(), this.safetySection(), this.toolsSection(), agentsSection(this.plugin, () => this.redraw()), codingAgentsSection(this.plugin, () => this.redraw()), this.advancedSection()];
	}

	getSettingDefinitions(): SettingDefinitionItem[] {
		if (!this.plugin.core) {
			// Asked before the core has started: draw again once it has.
			void this.plugin.started().then((core) => core && this.containerEl.isConnected && this.redraw());
			return [];
		}
		return this.sections().map((section) => ({
			type: "group",
			heading: section.heading,
			cls: section.cls,
			items: section.rows.map(({ name, desc, aliases, render }): SettingGroupItem => ({ name, desc, aliases, render: (setting: Setting) => render(setting) })),
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
		if (!this.plugin.core) {
			containerEl.createEl("p", { text: "Vault Agent is starting…" });
			void this.plugin.started().then((core) => core && this.containerEl.isConnected && this.draw());
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
			}
		}
	}

	/** Draws the tab again after a change of its shape (another profile, another provider). */
	private redraw(): void {
		if (requireApiVersion("1.13.0") && !this.drawnByDisplay) this.update();
		else this.draw();
	}

	/** A number field: saved when left, showing what the core kept (it clamps). */
	private number(name: string, desc: string, key: keyof typeof NUMBERS, aliases?: string[]): Row {
		const entry = NUMBERS[key];
		const shown = () => {
			const settings = this.plugin.core?.settings();
			return settings ? String(entry.shown(settings)) : "";
		};
		return {
			name,
			desc,
			aliases,
			render: (setting) => {
				setting.settingEl.addClass("vault-agent-number");
				setting.addText((text) => {
					text.inputEl.type = "number";
					commitOnChange(text, shown(), async (raw) => {
						const value = Number(raw);
						const settings = this.plugin.core?.settings();
						if (settings && raw.trim() !== "" && Number.isFinite(value)) await this.plugin.updateSettings(entry.stored(value, settings));
						return shown();
					});
				});
			},
		};
	}

	private async editProfiles(edit: ProfileEdit): Promise<void> {
		try {
			await this.plugin.editModelProfiles(edit);
		} catch (error) {
			new Notice(error instanceof Error ? error.message : String(error));
		}
		this.redraw();
	}

	/** Saves a change to the profile in use; returns it as the core kept it. */
	private async saveProfile(patch: Partial<ModelProfile>): Promise<ModelProfile | undefined> {
		const core = this.plugin.core;
		if (!core) return undefined;
		const saved = await this.plugin.updateSettings(withActiveProfile(core.settings(), patch));
		return activeProfile(saved.chat);
	}

	private modelSection(): Section {
		const core = this.plugin.core;
		const settings = core?.settings();
		const profile = settings ? activeProfile(settings.chat) : undefined;
		if (!core || !settings || !profile) return { heading: "Model", cls: "vault-agent-model-settings", rows: [] };
		const summaries = core.modelProfiles();
		const presets = core.providerPresets();
		const inUse = summaries.find((s) => s.active)?.preset ?? "";
		const rows: Row[] = [
			{
				name: "Model profile",
				desc: "The model the chat uses; switch it here or in the chat header. Each profile keeps its own server, model and key.",
				aliases: ["profiles", "switch model"],
				render: (setting) => {
					setting.settingEl.addClass("vault-agent-profile");
					setting.addDropdown((dropdown) => {
						for (const s of summaries) dropdown.addOption(s.id, s.name);
						dropdown.setValue(profile.id).onChange((id) => this.editProfiles({ action: "select", id }));
					});
					setting.addExtraButton((button) =>
						button
							.setIcon("plus")
							.setTooltip("Add a profile")
							.onClick(() => this.editProfiles({ action: "add", preset: presets[0]?.id ?? "" })),
					);
					setting.addExtraButton((button) =>
						button
							.setIcon("copy")
							.setTooltip("Duplicate this profile")
							.onClick(() => this.editProfiles({ action: "duplicate", id: profile.id })),
					);
					setting.addExtraButton((button) =>
						button
							.setIcon("trash-2")
							.setTooltip("Delete this profile")
							.setDisabled(summaries.length < 2)
							.onClick(() => this.editProfiles({ action: "delete", id: profile.id })),
					);
				},
			},
			{
				name: "Profile name",
				desc: "How this profile is listed here and in the chat header.",
				aliases: ["rename profile"],
				render: (setting) => {
					setting.settingEl.addClass("vault-agent-profile-name");
					setting.addText((text) =>
						commitOnChange(text, profile.name, async (name) => {
							try {
								await this.plugin.editModelProfiles({ action: "rename", id: profile.id, name });
							} catch (error) {
								new Notice(error instanceof Error ? error.message : String(error));
							}
							const kept = activeProfile(this.plugin.core?.settings().chat ?? settings.chat);
							this.redraw();
							return kept?.name ?? profile.name;
						}),
					);
				},
			},
			{
				name: "Provider",
				desc: "The server this profile talks to. Picking another adds a new profile for it; your other profiles stay as they are. Local servers (Ollama, LM Studio) keep your notes on this computer; hosted ones send the conversation to that service.",
				aliases: presets.map((p) => p.label),
				render: (setting) => {
					setting.settingEl.addClass("vault-agent-provider");
					setting.addDropdown((dropdown) => {
						for (const preset of presets) dropdown.addOption(preset.id, preset.label);
						if (!inUse) dropdown.addOption("", profile.provider === "anthropic" ? "Other Anthropic address" : "Other OpenAI-compatible server");
						dropdown.setValue(inUse).onChange(async (preset) => {
							if (preset) await this.editProfiles({ action: "add", preset });
						});
					});
				},
			},
		];
		if (profile.provider === "openAi") {
			rows.push({
				name: "Server address",
				desc: "The OpenAI-compatible base address, ending in /v1.",
				aliases: ["base URL"],
				render: (setting) => {
					setting.addText((text) =>
						commitOnChange(text, profile.baseUrl, async (baseUrl) => {
							const kept = (await this.saveProfile({ baseUrl }))?.baseUrl ?? baseUrl;
							// The provider shown follows the address.
							this.redraw();
							return kept;
						}),
					);
				},
			});
		}
		rows.push(
			{
				name: "Model name",
				desc: "Exactly as the server names it; use a model that can call tools.",
				render: (setting) => {
					setting.settingEl.addClass("vault-agent-model-name");
					setting.addText((text) => commitOnChange(text, profile.model, async (model) => (await this.saveProfile({ model }))?.model ?? model));
				},
			},
			{
				name: "API key",
				desc: "Kept in Obsidian's secret storage under the name you pick, not in this plugin's data. Local servers usually need none.",
				aliases: ["secret", "token"],
				render: (setting) => {
					setting.addComponent((el) =>
						new SecretComponent(this.app, el).setValue(profile.apiKeySecret).onChange(async (apiKeySecret) => {
							await this.saveProfile({ apiKeySecret });
						}),
					);
				},
			},
			{
				name: "Test connection",
				desc: "Lists the models the server of this profile offers.",
				render: (setting) => this.testConnection(setting),
			},
			this.number(
				"Context window (tokens)",
				"How much the model reads at once. 0 asks the server (Ollama, LM Studio, OpenRouter) or uses the model's known size, else 4096 for Ollama and 8192 for other local servers. Set it if you started Ollama with a larger OLLAMA_CONTEXT_LENGTH. Older messages are shortened or left out to fit.",
				"contextWindow",
			),
			{
				name: "Tool calls written as text",
				desc: "Only for a model or server that cannot call tools: a reply that is nothing but a tool call, written as JSON (bare, in a code block or in <tool_call> tags), then runs as one. Leave it off for servers that call tools themselves, as every provider listed above does. A call a tool's answer also held (text in a note) never runs, and a change asked for this way always waits for your approval.",
				aliases: ["text-form tool calls", "tool_call", "JSON tool calls"],
				render: (setting) => {
					setting.settingEl.addClass("vault-agent-text-tool-calls");
					setting.addToggle((toggle) =>
						toggle.setValue(profile.textToolCalls).onChange(async (textToolCalls) => {
							await this.saveProfile({ textToolCalls });
						}),
					);
				},
			},
		);
		if (profile.provider === "anthropic") {
			rows.push(
				{
					name: "Extended thinking",
					desc: "Claude thinks before it answers; you can unfold what it thought above the answer. Thinking tokens are billed as output.",
					aliases: ["reasoning", "thinking"],
					render: (setting) => {
						setting.settingEl.addClass("vault-agent-thinking");
						setting.addToggle((toggle) =>
							toggle.setValue(settings.chat.anthropicThinking).onChange(async (anthropicThinking) => {
								const current = this.plugin.core?.settings().chat ?? settings.chat;
								await this.plugin.updateSettings({ chat: { ...current, anthropicThinking } });
							}),
						);
					},
				},
				this.number("Thinking budget (tokens)", "The most tokens Claude may think with per reply (1024 to 64000).", "anthropicThinkingBudget", ["reasoning", "thinking"]),
			);
		}
		return { heading: "Model", cls: "vault-agent-model-settings", rows };
	}

	/** Each test replaces the last one's answer and model list; another profile starts afresh. */
	private testConnection(setting: Setting): void {
		let models: DropdownComponent | null = null;
		// A click while an earlier test still waits: only the newest test's answer is drawn.
		let newest = 0;
		setting.addButton((button) =>
			button.setButtonText("Test connection").onClick(async () => {
				const core = this.plugin.core;
				if (!core) return;
				const run = ++newest;
				const clearModels = () => {
					models?.selectEl.remove();
					models = null;
				};
				setting.setDesc("Connecting…");
				clearModels();
				const report = await core.testConnection();
				if (run !== newest) return;
				clearModels();
				setting.descEl.empty();
				setting.descEl.createDiv({ cls: report.ok ? "vault-agent-cli-found" : "vault-agent-cli-missing", text: report.message });
				if (report.models.length === 0) return;
				setting.addDropdown((dropdown) => {
					models = dropdown;
					dropdown.addOption("", "Choose a model");
					for (const model of report.models) dropdown.addOption(model, model);
					dropdown.onChange(async (model) => {
						if (!model) return;
						await this.saveProfile({ model });
						this.redraw();
					});
				});
			}),
		);
	}

	private safetySection(): Section {
		const settings = this.plugin.core?.settings();
		const folderList = (name: string, desc: string, key: "readFolders" | "writeFolders"): Row => ({
			name,
			desc,
			aliases: ["folders", "scope"],
			render: (setting) => {
				setting.settingEl.addClass("vault-agent-folder-setting");
				setting.addTextArea((area) => {
					area.setPlaceholder("Whole vault");
					area.inputEl.rows = 3;
					commitOnChange(area, (settings?.[key] ?? []).join("\n"), async (value) => {
						const folders = value
							.split("\n")
							.map((line) => line.trim())
							.filter((line) => line !== "");
						const saved = await this.plugin.updateSettings({ [key]: folders });
						return saved[key].join("\n");
					});
				});
			},
		});
		return {
			heading: "Safety",
			cls: "vault-agent-safety-settings",
			rows: [
				{
					name: "Vault changes",
					desc: "What the agent may change in your vault. You can also switch it in the chat header; the agent itself never can.",
					aliases: ["permission mode", "read only", ...PERMISSION_MODES.map((m) => m.label)],
					render: (setting) => {
						setting.settingEl.addClass("vault-agent-permission-mode-setting");
						setting.addDropdown((dropdown) => {
							for (const m of PERMISSION_MODES) dropdown.addOption(m.mode, m.label);
							dropdown.setValue(settings?.permissionMode ?? "readOnly").onChange(async (value) => {
								const permissionMode = asPermissionMode(value);
								if (!permissionMode) return;
								const saved = await this.plugin.updateSettings({ permissionMode });
								dropdown.setValue(saved.permissionMode);
							});
						});
						const list = setting.descEl.createEl("ul", { cls: "vault-agent-permission-modes" });
						for (const m of PERMISSION_MODES) {
							const item = list.createEl("li");
							item.dataset.mode = m.mode;
							item.createEl("strong", { text: m.label });
							item.appendText(`: ${m.description}`);
						}
					},
				},
				folderList(
					"Folders the agent may read",
					"One folder per line, from the vault root (like Projects or Areas/Work). Leave empty for the whole vault. Results from searches and lists leave out the rest and say how many were left out.",
					"readFolders",
				),
				folderList(
					"Folders the agent may change",
					"One folder per line. Leave empty for every folder it may read. Changes still follow the vault changes mode above, and never reach Obsidian's configuration folder.",
					"writeFolders",
				),
			],
		};
	}

	private toolsSection(): Section {
		const tools = this.plugin.core?.listTools() ?? [];
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
		const rows: Row[] = [
			{
				name: "All tools",
				desc: "Turn every tool on or off at once.",
				render: (setting) => {
					setting.settingEl.addClass("vault-agent-all-tools");
					setting.addToggle((toggle) => {
						master = toggle;
						toggle.setValue(tools.every((t) => t.enabled)).onChange(async (value) => {
							if (syncing) return;
							moveSwitches(() => {
								for (const t of toggles.values()) t.setValue(value);
							});
							await this.plugin.updateSettings({ tools: Object.fromEntries(tools.map((t) => [t.id, value])) });
						});
					});
				},
			},
		];
		for (const tool of tools) {
			const reads = tool.commandDetails.filter((c) => c.access === "read").map((c) => c.name);
			const writes = tool.commandDetails.filter((c) => c.access !== "read");
			rows.push({
				name: tool.displayName,
				desc: tool.description,
				aliases: [tool.id, ...tool.commandDetails.map((c) => c.name)],
				render: (setting) => {
					setting.settingEl.addClass("vault-agent-tool");
					setting.settingEl.dataset.toolId = tool.id;
					setting.addToggle((toggle) => {
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
					const commands = setting.descEl.createDiv({ cls: "vault-agent-tool-commands" });
					if (reads.length > 0) commands.createSpan({ cls: "vault-agent-reads", text: `Reads: ${reads.join(", ")}` });
					if (writes.length > 0) {
						// Declared kinds; "Ask before every change" asks for the others too.
						const list = writes.map((c) => (c.access === "confirmedWrite" ? `${c.name} (always asks you first)` : c.name));
						commands.createSpan({ cls: "vault-agent-writes", text: `Changes: ${list.join(", ")}` });
					}
				},
			});
		}
		return { heading: "Tools", cls: "vault-agent-tools-settings", rows };
	}

	/** The command line interface, then the limits. */
	private advancedSection(): Section {
		const settings = this.plugin.core?.settings();
		const cli = ["command line interface", "CLI"];
		let statusSetting: Setting | null = null;
		return {
			heading: "Advanced",
			cls: "vault-agent-advanced-settings",
			rows: [
				{
					name: "Path to the Obsidian CLI",
					desc: "Leave empty to find it automatically. Obsidian turns its CLI on under general settings, command line interface.",
					aliases: cli,
					render: (setting) => {
						setting.addText((text) => {
							text.setPlaceholder("Found automatically");
							commitOnChange(text, settings?.cliPath ?? "", async (value) => {
								const saved = await this.plugin.updateSettings({ cliPath: value });
								// A new path means a new answer to "which CLI?".
								if (statusSetting) await this.refreshCliStatus(statusSetting);
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
								await this.refreshCliStatus(setting);
							}),
						);
						this.renderCliStatus(setting);
						if (this.cliStatus === null) void this.refreshCliStatus(setting);
					},
				},
				{
					name: "Vault name",
					desc: "The vault the CLI works on. Leave empty for the vault that is open.",
					aliases: cli,
					render: (setting) => {
						setting.addText((text) =>
							commitOnChange(text, settings?.vaultName ?? "", async (value) => (await this.plugin.updateSettings({ vaultName: value })).vaultName),
						);
					},
				},
				this.number("Timeout (seconds)", "How long one CLI call may take before it is stopped (1 to 120).", "timeoutSeconds", cli),
				this.number("Output cap (KiB)", "Longer output is cut, with a note saying how much was left out.", "outputCapKib", cli),
				this.number("CLI processes at once", "More calls wait their turn, in order (1 to 16).", "maxProcesses", cli),
				this.number("Confirmation expiry (minutes)", "A change that waits longer than this for your approval is dropped.", "confirmationExpiryMinutes"),
				this.number(
					"Reuse reads for (seconds)",
					"A read the agent repeats while nothing in the vault changed is answered without running the CLI again, for up to this long (0 to 3600; 0 turns it off). Any change Obsidian sees clears it.",
					"readCacheSeconds",
					["cache"],
				),
				this.number("Tool rounds per message", "The agent stops after this many rounds of tool calls for one message.", "maxToolRounds"),
				this.number("Tool result size (characters)", "Longer tool output is cut before it goes to the model, with a note saying so.", "toolResultCapChars"),
				this.number("Model timeout (seconds)", "How long to wait for the server to start answering.", "modelTimeoutSeconds"),
			],
		};
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
