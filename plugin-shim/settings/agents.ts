// The settings tab's "MCP: this vault's server for other apps" page: the MCP
// server's switch, port, mode, token, ready-to-paste client set-ups (folded
// while the server is off) and the newest activity. Rows of the tab
// (tab.ts), so Obsidian 1.13's settings search finds them.

import { Notice } from "obsidian";
import type { McpSettings } from "../core/types";
import { DEFAULT_MCP_PORT } from "../generated/limits";
import type { SettingsContext } from "./settings-context";
import { asPermissionMode, PERMISSION_MODES } from "./permission-modes";
import type { Row, Section } from "./section";

/** Calls of the activity log shown, newest first. */
const ACTIVITY_SHOWN = 50;

function copy(text: string, what: string): void {
	void navigator.clipboard.writeText(text).then(
		() => new Notice(`${what} copied.`),
		() => new Notice(`${what} could not be copied; select it and copy it by hand.`),
	);
}

/** The section's rows; `redraw` draws the tab again when the server or the log changes. */
export function agentsSection(ctx: SettingsContext, redraw: () => void): Section {
	const section: Section = { heading: "MCP server for other apps", cls: "vault-agent-agents", rows: [] };
	const core = ctx.core;
	const agents = ctx.agents;
	if (!core || !agents) return section;
	const mcp = core.settings().mcp;
	const save = async (patch: Partial<McpSettings>) => {
		const current = ctx.core?.settings().mcp ?? mcp;
		await ctx.updateSettings({ mcp: { ...current, ...patch } });
		redraw();
	};
	const aliases = ["MCP", "agents", "Claude Code", "Claude Desktop", "Cursor", "Codex", "VS Code"];
	const token = agents.token();
	const rows: Row[] = [
		{
			name: "MCP server",
			desc: "Lets apps outside Obsidian (Claude Code, Cursor…) use this vault's tools.",
			more: "Lets agents outside Obsidian (Claude Code, Cursor, Codex, VS Code) use these tools on this computer only, with the token below. Every change they ask for follows the mode below and waits for your click where the mode says so.",
			aliases,
			render: (setting) => {
				setting.addToggle((toggle) => toggle.setValue(mcp.enabled).onChange((enabled) => void save({ enabled })));
				setting.descEl.createDiv({ cls: "vault-agent-mcp-status", text: agents.status });
			},
		},
		{
			name: "Port",
			desc: `The server listens on 127.0.0.1 at this port (default ${DEFAULT_MCP_PORT}).`,
			aliases,
			render: (setting) => {
				setting.addText((text) => {
					text.setValue(String(mcp.port));
					text.inputEl.addEventListener("change", () => void save({ port: Number(text.getValue()) }));
				});
			},
		},
		{
			name: "What MCP clients may change",
			desc: "Separate from the chat's mode. Read only refuses every change.",
			aliases: [...aliases, "permission mode"],
			render: (setting) => {
				setting.addDropdown((dropdown) => {
					for (const mode of PERMISSION_MODES) dropdown.addOption(mode.mode, mode.label);
					dropdown.setValue(mcp.permissionMode).onChange((value) => void save({ permissionMode: asPermissionMode(value) ?? "readOnly" }));
				});
			},
		},
		{
			name: "Token",
			desc: token ? `Clients send it as a bearer token. It ends in ${token.slice(-4)}.` : "Made when the server is first turned on.",
			aliases,
			render: (setting) => {
				setting
					.addButton((button) =>
						button
							.setButtonText("Copy")
							.setDisabled(!token)
							.onClick(() => token && copy(token, "The token")),
					)
					.addButton((button) =>
						button.setButtonText("Regenerate").onClick(() => {
							agents.regenerateToken();
							new Notice("A new token was made; clients with the old one are refused until you update them.");
							redraw();
						}),
					);
			},
		},
	];
	// The screen shows `<token>`; only what Copy copies holds the token.
	const copies = agents.clientConfigs();
	agents.shownClientConfigs().forEach((shown, i) => {
		const copied = copies[i] ?? shown;
		rows.push({
			name: shown.name,
			more: shown.note || undefined,
			aliases,
			render: (setting) => {
				setting.addButton((button) => button.setButtonText("Copy").onClick(() => copy(copied.text, shown.name)));
				setting.settingEl.addClass("vault-agent-client-config");
				// Folded while the server is off: a snippet for a server that is not there only gets in the way.
				const fold = setting.descEl.createEl("details", { cls: "vault-agent-client-config-fold" });
				fold.open = mcp.enabled;
				fold.createEl("summary", { text: mcp.enabled ? "The set-up" : "The set-up (turn the server on to use it)" });
				// The client's own note (where the token goes) belongs with its snippet.
				if (shown.note) fold.createEl("p", { cls: "vault-agent-client-config-note", text: shown.note });
				fold.createEl("pre", { cls: "vault-agent-client-config-text", text: shown.text });
			},
		});
	});
	rows.push({
		name: "Recent MCP activity",
		desc: `The newest ${ACTIVITY_SHOWN} calls; changes are in the undo journal like the chat's.`,
		aliases,
		render: (setting) => {
			setting.addButton((button) => button.setButtonText("Refresh").onClick(redraw));
			const list = setting.descEl.createDiv({ cls: "vault-agent-mcp-activity" });
			const recent = agents.activity.slice(-ACTIVITY_SHOWN).reverse();
			if (recent.length === 0) list.createDiv({ cls: "vault-agent-mcp-activity-empty", text: "No calls yet." });
			for (const entry of recent) {
				const time = new Date(entry.timeMs).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
				const who = entry.clientVersion ? `${entry.client} ${entry.clientVersion}` : entry.client;
				const row = list.createDiv({ cls: `vault-agent-mcp-activity-row ${entry.code === "ok" ? "is-ok" : "is-error"}` });
				row.createSpan({ text: `${time} · ${who} · ${entry.tool} ${entry.argv.join(" ")}` });
				row.createSpan({ cls: "vault-agent-mcp-activity-code", text: ` → ${entry.code} (${Math.round(entry.durationMs)} ms)` });
			}
		},
	});
	section.rows = rows;
	return section;
}
