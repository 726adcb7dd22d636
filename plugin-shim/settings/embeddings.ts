// The settings tab's "Search by meaning" section: the embedding model of the
// user's own server, what has been embedded, Embed now and Stop, and, for a
// server off this computer, how much of the vault a run would send before
// anything is sent. The core decides what needs a yes and what is sent
// (src/engine/embeddings.rs); this shows its status and passes the clicks on.

import { SecretComponent, type Setting } from "obsidian";
import type { EmbeddingSettings, EmbeddingStatus } from "../core/types";
import type { SettingsContext } from "./settings-context";
import { commitOnChange, type Section } from "./section";

export function embeddingsSection(ctx: SettingsContext, redraw: () => void): Section {
	const config = ctx.core?.settings().embeddings;
	const save = async (change: Partial<EmbeddingSettings>): Promise<EmbeddingSettings> => {
		const current = ctx.core?.settings().embeddings;
		if (!current) throw new Error("Vault Agent has not started yet.");
		return (await ctx.updateSettings({ embeddings: { ...current, ...change } })).embeddings;
	};
	const text = (key: "baseUrl" | "model", placeholder: string) => (setting: Setting) => {
		setting.addText((field) => {
			field.setPlaceholder(placeholder);
			commitOnChange(field, config?.[key] ?? "", async (value) => {
				const kept = (await save({ [key]: value.trim() }))[key];
				redraw();
				return kept;
			});
		});
	};
	return {
		heading: "Search by meaning",
		cls: "vault-agent-embeddings-settings",
		rows: [
			{
				name: "Search by meaning",
				desc: "Ranks passages by meaning too, with an embedding model on your server.",
				more: "Also ranks passages by what they mean, not only by the words they share with the question, using an embedding model on your own server. While off, search works by words alone and nothing is sent anywhere.",
				aliases: ["embeddings", "semantic search", "vector"],
				render: (setting) => {
					setting.addToggle((toggle) =>
						toggle.setValue(config?.enabled ?? false).onChange(async (enabled) => {
							toggle.setValue((await save({ enabled })).enabled);
							redraw();
							if (enabled) void ctx.search?.embed();
						}),
					);
				},
			},
			{
				name: "Embedding server",
				desc: "An OpenAI-compatible address ending in /v1, such as Ollama's.",
				more: "An OpenAI-compatible address ending in /v1: Ollama (http://localhost:11434/v1), LM Studio (http://localhost:1234/v1), OpenAI or OpenRouter.",
				aliases: ["embeddings", "base url"],
				render: text("baseUrl", "http://localhost:11434/v1"),
			},
			{
				name: "Embedding model",
				desc: "Such as nomic-embed-text. Changing it embeds every section again.",
				aliases: ["embeddings"],
				render: text("model", "nomic-embed-text"),
			},
			{
				name: "Embedding API key",
				desc: "The name of a secret in Obsidian's secret storage. Local servers need none.",
				aliases: ["embeddings", "secret", "token"],
				render: (setting) => {
					setting.addComponent((el) =>
						new SecretComponent(ctx.app, el).setValue(config?.apiKeySecret ?? "").onChange(async (apiKeySecret) => {
							await save({ apiKeySecret });
						}),
					);
				},
			},
			{
				name: "Embedded sections",
				desc: "Only notes in the folders the agent may read are embedded.",
				more: "Only notes in the folders the agent may read are embedded. The vectors are kept in this plugin's folder; changed sections are embedded again a few seconds after an edit.",
				aliases: ["embeddings", "embed now", "stop"],
				render: (setting) => statusRow(ctx, setting, save),
			},
		],
	};
}

/** The status line and its buttons, kept current while the row is shown. */
function statusRow(ctx: SettingsContext, setting: Setting, save: (change: Partial<EmbeddingSettings>) => Promise<EmbeddingSettings>): void {
	setting.settingEl.addClass("vault-agent-embeddings-status");
	const line = setting.descEl.createDiv({ cls: "vault-agent-embeddings-line" });
	const consent = setting.descEl.createDiv({ cls: "vault-agent-embeddings-consent" });
	let embedButton: HTMLButtonElement | null = null;
	let stopButton: HTMLButtonElement | null = null;
	const show = (status: EmbeddingStatus) => {
		line.setText(describe(status));
		consent.setText(status.needsConsent ? consentText(status) : "");
		consent.toggleClass("is-hidden", !status.needsConsent);
		if (embedButton) {
			embedButton.setText(status.needsConsent ? "Send and embed" : "Embed now");
			embedButton.disabled = status.phase === "off" || status.phase === "embedding";
		}
		if (stopButton) stopButton.disabled = status.phase !== "embedding";
	};
	setting.addButton((button) => {
		embedButton = button.buttonEl;
		button.setCta().onClick(async () => {
			const status = ctx.core?.embeddingsStatus();
			// The yes names this server and model; another asks again.
			if (status?.needsConsent) await save({ consented: status.server });
			const search = ctx.search;
			if (search) show(await search.embed());
		});
	});
	setting.addButton((button) => {
		stopButton = button.buttonEl;
		button.setButtonText("Stop").onClick(() => ctx.search?.stopEmbedding());
	});
	const stopHearing = ctx.search?.onEmbeddingStatus((status) => {
		if (!setting.settingEl.isConnected) stopHearing?.();
		else show(status);
	});
	const status = ctx.core?.embeddingsStatus();
	if (status) show(status);
}

function describe(status: EmbeddingStatus): string {
	const n = (value: number) => value.toLocaleString();
	switch (status.phase) {
		case "off":
			return "Off: search works by words alone.";
		case "embedding":
			return `Embedding sections: ${n(status.done)} of ${n(status.total)}.`;
		case "failed":
			return `The last run failed: ${status.error} Search still works by words.`;
		default: {
			if (!status.counted) return "The sections are counted when the search index is built.";
			const done = `${n(status.embedded)} of ${n(status.sections)} sections embedded with ${status.model || "no model set"} at ${status.host}.`;
			const stopped = status.phase === "stopped" ? " Stopped; what was embedded is kept." : "";
			const waiting = status.pendingSections > 0 ? ` ${n(status.pendingSections)} sections of ${n(status.pendingNotes)} notes wait.` : "";
			return done + stopped + waiting;
		}
	}
}

function consentText(status: EmbeddingStatus): string {
	const n = (value: number) => value.toLocaleString();
	return `${status.host} is not on this computer or your network. Embedding sends the text of ${n(status.pendingSections)} sections from ${n(status.pendingNotes)} notes (${n(status.pendingChars)} characters) to it, and later every section you change. Nothing is sent until you click Send and embed.`;
}
