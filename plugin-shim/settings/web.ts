// The settings tab's "Web" section: whether the agent may search the web
// and read pages, through which provider, at which address or with which
// key. The core decides what is sent where (src/engine/web.rs, Local only,
// the connection log); this shows the settings and passes changes on.

import { SecretComponent } from "obsidian";
import type { WebProvider, WebSettings } from "../core/types";
import type { SettingsContext } from "./settings-context";
import { commitOnChange, type Section } from "./section";

/** SearXNG's usual local address, as an example (an address, not words to case). */
const SEARXNG_EXAMPLE = "http://localhost:8888";

const PROVIDERS: Record<WebProvider, string> = {
	searxng: "SearXNG (your own address)",
	brave: "Brave Search API (by key)",
};

export function webSection(ctx: SettingsContext, redraw: () => void): Section {
	const web = ctx.core?.settings().web;
	const save = async (change: Partial<WebSettings>): Promise<WebSettings> => {
		const current = ctx.core?.settings().web;
		if (!current) throw new Error("Vault Agent has not started yet.");
		return (await ctx.updateSettings({ web: { ...current, ...change } })).web;
	};
	return {
		heading: "Web",
		cls: "vault-agent-web-settings",
		rows: [
			{
				name: "Web search and pages",
				desc: "Lets the agent search the web and read pages, citing its links. Off: nothing is sent.",
				more: "Lets the agent search the web and read pages through the provider below; it cites the links it uses. While off, the tool is not offered and nothing is sent; this is its only switch (the Tools page lists the tool and points here). With Local only on, only a provider on this computer or your network is reached.",
				aliases: ["web", "internet", "search", "searxng", "brave"],
				render: (setting) => {
					setting.addToggle((toggle) =>
						toggle.setValue(web?.enabled ?? false).onChange(async (enabled) => {
							toggle.setValue((await save({ enabled })).enabled);
							redraw();
						}),
					);
				},
			},
			{
				name: "Search provider",
				desc: "Your own SearXNG, or Brave Search with your key.",
				more: "Your own SearXNG sends the query to your server only; Brave Search sends it to Brave with your key. Pages are read from their own servers either way.",
				aliases: ["web", "searxng", "brave"],
				render: (setting) => {
					setting.addDropdown((dropdown) => {
						for (const [key, label] of Object.entries(PROVIDERS)) dropdown.addOption(key, label);
						dropdown.setValue(web?.provider ?? "searxng").onChange(async (value) => {
							await save({ provider: value as WebProvider });
							redraw();
						});
					});
				},
			},
			{
				name: "SearXNG address",
				desc: "Its base address, such as http://localhost:8888.",
				more: "Its base address, such as http://localhost:8888. SearXNG answers searches as JSON only when json is listed under search.formats in its settings.yml.",
				aliases: ["web", "searxng", "url"],
				render: (setting) => {
					setting.addText((field) => {
						field.setPlaceholder(SEARXNG_EXAMPLE);
						commitOnChange(field, web?.searxngUrl ?? "", async (value) => (await save({ searxngUrl: value.trim() })).searxngUrl);
					});
				},
			},
			{
				name: "Brave Search API key",
				desc: "Kept in Obsidian's secret storage under the name you pick. Only for Brave Search.",
				aliases: ["web", "brave", "secret", "token"],
				render: (setting) => {
					setting.addComponent((el) =>
						new SecretComponent(ctx.app, el).setValue(web?.apiKeySecret ?? "").onChange(async (apiKeySecret) => {
							await save({ apiKeySecret });
						}),
					);
				},
			},
		],
	};
}
