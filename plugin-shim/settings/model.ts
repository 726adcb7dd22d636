// The settings tab's Model page: first the profile in use (pick, add with
// the button, copy, rename, delete; its provider, server, model and key,
// Test connection, Check this model, and what only some providers have),
// then what every profile shares (instructions note, prompts, skills,
// Claude's thinking). Picking a provider changes the profile in use; only
// the Add profile button adds one.

import { type DropdownComponent, Notice, SecretComponent, type Setting } from "obsidian";
import type { ModelProfile, ProfileEdit } from "../core/types";
import { activeProfile, withActiveProfile } from "./active-profile";
import { ModelCheckPanel } from "./model-check";
import type { SettingsContext } from "./settings-context";
import { THINKING_BUDGET_RANGE } from "../generated/limits";
import { commitOnChange, numberRow, type Row, type Section } from "./section";
import { memoryRows } from "./memory";
import { skillsRows } from "./skills";
import { pathList, suggestPaths } from "./suggest";

export function modelSection(ctx: SettingsContext, redraw: () => void): Section[] {
	const core = ctx.core;
	const settings = core?.settings();
	const profile = settings ? activeProfile(settings.chat) : undefined;
	if (!core || !settings || !profile) return [{ heading: "Profile in use", cls: "vault-agent-model-settings", rows: [] }];
	const summaries = core.modelProfiles();
	const presets = core.providerPresets();
	const inUse = summaries.find((s) => s.active)?.preset ?? "";
	const rows: Row[] = [
		{
			name: "Model profile",
			desc: "The chat's model; also switched in the chat header. The rows below are this profile's.",
			more: "The model the chat uses; switch it here or in the chat header. Each profile keeps its own server, model and key. Add profile makes a new one (from the provider in use); the copy button duplicates this one; the bin deletes it (the last profile stays).",
			aliases: ["profiles", "switch model", "add profile", "new profile"],
			render: (setting) => {
				setting.settingEl.addClass("vault-agent-profile");
				setting.addDropdown((dropdown) => {
					for (const s of summaries) dropdown.addOption(s.id, s.name);
					dropdown.setValue(profile.id).onChange((id) => editProfiles(ctx, redraw, { action: "select", id }));
				});
				// Adding is its own, named action: nothing else adds a profile.
				setting.addButton((button) =>
					button
						.setButtonText("Add profile")
						.setClass("vault-agent-add-profile")
						.onClick(() => editProfiles(ctx, redraw, { action: "add", preset: inUse || (presets[0]?.id ?? "") })),
				);
				setting.addExtraButton((button) =>
					button
						.setIcon("copy")
						.setTooltip("Duplicate this profile")
						.onClick(() => editProfiles(ctx, redraw, { action: "duplicate", id: profile.id })),
				);
				setting.addExtraButton((button) =>
					button
						.setIcon("trash-2")
						.setTooltip("Delete this profile")
						.setDisabled(summaries.length < 2)
						.onClick(() => editProfiles(ctx, redraw, { action: "delete", id: profile.id })),
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
							await ctx.editModelProfiles({ action: "rename", id: profile.id, name });
						} catch (error) {
							new Notice(error instanceof Error ? error.message : String(error));
						}
						const kept = activeProfile(ctx.core?.settings().chat ?? settings.chat);
						redraw();
						return kept?.name ?? profile.name;
					}),
				);
			},
		},
		{
			name: "Provider",
			desc: "The server this profile talks to. Local ones keep your notes on this computer.",
			more: "The server this profile talks to. Picking another changes this profile (its address and model; its key is cleared); it adds no profile, and your other profiles stay as they are. Local servers (Ollama, LM Studio) keep your notes on this computer; hosted ones send the conversation to that service.",
			aliases: presets.map((p) => p.label),
			render: (setting) => {
				setting.settingEl.addClass("vault-agent-provider");
				setting.addDropdown((dropdown) => {
					for (const preset of presets) dropdown.addOption(preset.id, preset.label);
					if (!inUse) dropdown.addOption("", profile.provider === "anthropic" ? "Other Anthropic address" : "Other OpenAI-compatible server");
					dropdown.setValue(inUse).onChange(async (preset) => {
						if (preset) await editProfiles(ctx, redraw, { action: "provider", id: profile.id, preset });
					});
				});
			},
		},
	];
	rows.push({
		name: "Server address",
		desc: profile.provider === "anthropic" ? "Anthropic's address, without /v1; change it only for a gateway." : "The OpenAI-compatible base address, ending in /v1.",
		more: profile.provider === "anthropic" ? "Anthropic's address, without /v1 (https://api.anthropic.com). Change it only for a gateway or proxy that speaks Anthropic's Messages API." : undefined,
		aliases: ["base URL"],
		render: (setting) => {
			// Where the address really goes, as every connection reads it: a
			// typo such as a stray backslash shows here, not in a failed chat.
			const reading = ctx.core?.destinationOf(profile.baseUrl);
			if (reading) setting.descEl.createDiv({ cls: "vault-agent-destination", text: "error" in reading ? reading.error : `Connects to ${reading.hostname}, port ${reading.port}.` });
			setting.addText((text) =>
				commitOnChange(text, profile.baseUrl, async (baseUrl) => {
					const kept = (await saveProfile(ctx, { baseUrl }))?.baseUrl ?? baseUrl;
					// The provider shown follows the address.
					redraw();
					return kept;
				}),
			);
		},
	});
	rows.push(
		{
			name: "Model name",
			desc: "Exactly as the server names it; use a model that can call tools.",
			render: (setting) => {
				setting.settingEl.addClass("vault-agent-model-name");
				setting.addText((text) => commitOnChange(text, profile.model, async (model) => (await saveProfile(ctx, { model }))?.model ?? model));
			},
		},
		{
			name: "API key",
			desc: "The name of a secret in Obsidian's secret storage. Local servers need none.",
			more: "Kept in Obsidian's secret storage under the name you pick, not in this plugin's data. Local servers usually need none.",
			aliases: ["secret", "token"],
			render: (setting) => {
				setting.addComponent((el) =>
					new SecretComponent(ctx.app, el).setValue(profile.apiKeySecret).onChange(async (apiKeySecret) => {
						await saveProfile(ctx, { apiKeySecret });
					}),
				);
			},
		},
		{
			name: "Test connection",
			desc: "Lists the models the server of this profile offers.",
			more: "Lists the models the server of this profile offers. At an Anthropic address that lists none, sends a one-token message instead.",
			render: (setting) => testConnection(ctx, redraw, setting),
		},
		{
			name: "Check this model",
			desc: "About a minute of made-up questions: does this model call tools well? Sends no notes.",
			more: "Asks this profile's model a few made-up questions with one made-up tool, within about a minute: whether the server answers, how fast, its context window, whether the model calls tools, uses their answers and stops, and reads images. Nothing from your vault is sent. Says what to change, with a button where a setting fixes it. See also [Check this model](models.md#check-this-model).",
			aliases: ["model check", "diagnose", "tool calling", "does my model work"],
			render: (setting) => {
				setting.settingEl.addClass("vault-agent-check-model");
				const panel = new ModelCheckPanel(ctx, setting.controlEl, setting.descEl.createDiv(), redraw);
				panel.showLast(profile);
			},
		},
		numberRow(
			ctx,
			"Context window (tokens)",
			"How much the model reads at once; 0 asks the server.",
			"contextWindow",
			undefined,
			"How much the model reads at once. 0 asks the server (Ollama, LM Studio, OpenRouter) or uses the model's known size, else 4096 for Ollama and 8192 for other local servers. Set it if you started Ollama with a larger OLLAMA_CONTEXT_LENGTH. Older messages are shortened or left out to fit.",
		),
		{
			name: "Instructions for this profile",
			desc: "Given to this profile's model in every chat, after the instructions note.",
			more: "Given to the model of this profile in every chat, after the instructions note's (a small model may need plainer words than a large one). At most 2000 characters.",
			aliases: ["system prompt", "custom instructions"],
			render: (setting) => {
				setting.settingEl.addClass("vault-agent-profile-instructions");
				setting.addTextArea((area) => {
					area.setPlaceholder("Answer in short sentences.");
					commitOnChange(area, profile.instructions, async (instructions) => (await saveProfile(ctx, { instructions }))?.instructions ?? instructions);
				});
			},
		},
		{
			name: "Model accepts images",
			desc: "Whether images you attach are sent to this profile's model.",
			more: "Whether pasted, dropped and attached images are sent to this profile's model (Ask the server: when Ollama reports vision, or for Claude). They are scaled to 1568 px and 3.75 MB for Anthropic, 2048 px and 20 MB otherwise, and count 1600 tokens each.",
			aliases: ["vision", "pictures", "screenshots"],
			render: (setting) => {
				setting.settingEl.addClass("vault-agent-model-images");
				setting.addDropdown((dropdown) =>
					dropdown
						.addOptions({ auto: "Ask the server", yes: "Yes", no: "No" })
						.setValue(profile.images === null ? "auto" : profile.images ? "yes" : "no")
						.onChange(async (value) => {
							await saveProfile(ctx, { images: value === "auto" ? null : value === "yes" });
						}),
				);
			},
		},
		{
			name: "Tool calls written as text",
			desc: "Only for a model that cannot call tools: it writes the call as text instead.",
			more: "Only for a model or server that cannot call tools: a reply that is nothing but a tool call, written as JSON (bare, in a code block or in <tool_call> tags), then runs as one. Leave it off for servers that call tools themselves, as every provider listed above does. A call a tool's answer also held (text in a note) never runs, and a change asked for this way always waits for your approval.",
			aliases: ["text-form tool calls", "tool_call", "JSON tool calls"],
			render: (setting) => {
				setting.settingEl.addClass("vault-agent-text-tool-calls");
				setting.addToggle((toggle) =>
					toggle.setValue(profile.textToolCalls).onChange(async (textToolCalls) => {
						await saveProfile(ctx, { textToolCalls });
					}),
				);
			},
		},
	);
	// What every profile shares, apart from the profile's own rows above.
	const shared: Row[] = [];
	shared.push({
		name: "Instructions note",
		desc: "A note with your standing instructions, given to the model in every chat.",
		more: "A note whose text the model is given in every chat as your standing instructions (which folders hold what, how to write), read again when it changes. It must be in a folder the agent may read; the first 4000 characters are used. Empty: none.",
		aliases: ["standing instructions", "custom instructions", "AGENTS.md", "system prompt"],
		render: (setting) => {
			setting.settingEl.addClass("vault-agent-instructions-note");
			setting.addText((text) => {
				text.setPlaceholder("Vault Agent/Instructions.md");
				suggestPaths(ctx.app, text, "note");
				commitOnChange(text, settings.chat.instructionsNote, async (instructionsNote) => {
					const current = ctx.core?.settings().chat ?? settings.chat;
					return (await ctx.updateSettings({ chat: { ...current, instructionsNote } })).chat.instructionsNote;
				});
			});
		},
	});
	shared.push(
		{
			name: "Prompts folder",
			desc: "Each note in it is a saved prompt, offered when you type / in the chat.",
			more: "Each note in this folder is a saved prompt, offered when you type / at the start of a message. The note's text is the prompt; {{selection}}, {{note}} and {{date}} are filled in when it is sent. Optional properties: description, profile (a profile's name) and mode (a mode it narrows the chat's to). Empty: none.",
			aliases: ["prompt library", "saved prompts", "templates"],
			render: (setting) => {
				setting.settingEl.addClass("vault-agent-prompts-folder");
				setting.addText((text) => {
					text.setPlaceholder("Prompts");
					suggestPaths(ctx.app, text, "folder");
					commitOnChange(text, settings.chat.promptsFolder, async (promptsFolder) => {
						const current = ctx.core?.settings().chat ?? settings.chat;
						return (await ctx.updateSettings({ chat: { ...current, promptsFolder } })).chat.promptsFolder;
					});
				});
			},
		},
		{
			name: "Saved prompts in the palette",
			desc: "Saved prompts that get a palette command of their own, for a hotkey.",
			more: "Saved prompts that get a command of their own (their paths, e.g. Vault Agent/Prompts/Summarise.md); give them hotkeys in Settings → Hotkeys.",
			aliases: ["prompt commands", "command palette"],
			render: (setting) => {
				setting.settingEl.addClass("vault-agent-prompt-commands");
				pathList(ctx.app, setting.controlEl, {
					kind: "note",
					label: "Add a saved prompt",
					placeholder: "Add a prompt note",
					paths: settings.chat.promptCommands,
					save: async (promptCommands) => {
						const current = ctx.core?.settings().chat ?? settings.chat;
						return (await ctx.updateSettings({ chat: { ...current, promptCommands } })).chat.promptCommands;
					},
				});
			},
		},
	);
	shared.push(...skillsRows(ctx, settings, redraw));
	shared.push(...memoryRows(ctx, settings));
	if (profile.provider === "anthropic") {
		shared.push(
			{
				name: "Extended thinking",
				desc: "Claude thinks before it answers; billed as output tokens.",
				more: "Claude thinks before it answers; you can unfold what it thought above the answer. Thinking tokens are billed as output. For every Anthropic profile.",
				aliases: ["reasoning", "thinking"],
				render: (setting) => {
					setting.settingEl.addClass("vault-agent-thinking");
					setting.addToggle((toggle) =>
						toggle.setValue(settings.chat.anthropicThinking).onChange(async (anthropicThinking) => {
							const current = ctx.core?.settings().chat ?? settings.chat;
							await ctx.updateSettings({ chat: { ...current, anthropicThinking } });
						}),
					);
				},
			},
			numberRow(ctx, "Thinking budget (tokens)", `The most tokens Claude may think with per reply (${THINKING_BUDGET_RANGE[0]} to ${THINKING_BUDGET_RANGE[1]}).`, "anthropicThinkingBudget", ["reasoning", "thinking"]),
		);
		rows.push({
				name: "Send PDFs as documents",
				desc: "Claude reads an attached PDF's pages as images too (scans, charts).",
				more: "An attached PDF goes to Claude as the file itself, which Claude reads page by page as text and image (scans and charts included; up to 100 pages and 24 MB, about 3000 tokens a page). Off: the PDF's text is sent, as many pages as fit, and Claude reads the rest by page range.",
				aliases: ["pdf", "document block"],
				render: (setting) => {
					setting.settingEl.addClass("vault-agent-pdf-documents");
					setting.addToggle((toggle) =>
						toggle.setValue(profile.pdfDocuments).onChange(async (pdfDocuments) => {
							await saveProfile(ctx, { pdfDocuments });
						}),
					);
				},
			});
	}
	return [
		{ heading: "Profile in use", cls: "vault-agent-model-settings", rows },
		{ heading: "Every profile", cls: "vault-agent-shared-model-settings", rows: shared },
	];
}

/** Each test replaces the last one's answer and model list; another profile starts afresh. */
function testConnection(ctx: SettingsContext, redraw: () => void, setting: Setting): void {
	let models: DropdownComponent | null = null;
	// A click while an earlier test still waits: only the newest test's answer is drawn.
	let newest = 0;
	setting.addButton((button) =>
		button.setButtonText("Test connection").onClick(async () => {
			const core = ctx.core;
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
					await saveProfile(ctx, { model });
					redraw();
				});
			});
		}),
	);
}

async function editProfiles(ctx: SettingsContext, redraw: () => void, edit: ProfileEdit): Promise<void> {
	try {
		await ctx.editModelProfiles(edit);
	} catch (error) {
		new Notice(error instanceof Error ? error.message : String(error));
	}
	redraw();
}

/** Saves a change to the profile in use; returns it as the core kept it. */
async function saveProfile(ctx: SettingsContext, patch: Partial<ModelProfile>): Promise<ModelProfile | undefined> {
	const core = ctx.core;
	if (!core) return undefined;
	const saved = await ctx.updateSettings(withActiveProfile(core.settings(), patch));
	return activeProfile(saved.chat);
}
