// The settings tab's Agents section: the MCP server's switch, port, mode,
// token, ready-to-paste client set-ups and the newest activity.

import { ButtonComponent, Notice, Setting } from "obsidian";
import { ACTIVITY_SHOWN } from "./agents";
import type { McpSettings } from "./core-types";
import type VaultAgentPlugin from "./main";
import { asPermissionMode, PERMISSION_MODES } from "./permission-modes";

function copy(text: string, what: string): void {
	void navigator.clipboard.writeText(text).then(
		() => new Notice(`${what} copied.`),
		() => new Notice(`${what} could not be copied; select it and copy it by hand.`),
	);
}

/** Draws the section into `parent`; redraws itself when the server or the log changes. */
export function renderAgentsSection(parent: HTMLElement, plugin: VaultAgentPlugin): void {
	const section = parent.createDiv({ cls: "vault-agent-agents" });
	const draw = () => {
		const core = plugin.core;
		const agents = plugin.agents;
		section.empty();
		if (!core || !agents) return;
		const mcp = core.settings().mcp;
		const save = async (patch: Partial<McpSettings>) => {
			const current = plugin.core?.settings().mcp ?? mcp;
			await plugin.updateSettings({ mcp: { ...current, ...patch } });
			draw();
		};
		new Setting(section).setName("Agents").setHeading();
		new Setting(section)
			.setName("MCP server")
			.setDesc(
				"Lets agents outside Obsidian (Claude Code, Cursor, Codex, VS Code) use these tools on this computer only, with the token below. Every change they ask for follows the mode below and waits for your click where the mode says so.",
			)
			.addToggle((toggle) => toggle.setValue(mcp.enabled).onChange((enabled) => void save({ enabled })));
		section.createDiv({ cls: "vault-agent-mcp-status", text: agents.status });
		new Setting(section)
			.setName("Port")
			.setDesc("The server listens on 127.0.0.1 at this port (default 27125).")
			.addText((text) => {
				text.setValue(String(mcp.port));
				text.inputEl.addEventListener("change", () => void save({ port: Number(text.getValue()) }));
			});
		new Setting(section)
			.setName("What MCP clients may change")
			.setDesc("Separate from the chat's mode. Read only refuses every change.")
			.addDropdown((dropdown) => {
				for (const mode of PERMISSION_MODES) dropdown.addOption(mode.mode, mode.label);
				dropdown.setValue(mcp.permissionMode).onChange((value) => void save({ permissionMode: asPermissionMode(value) ?? "readOnly" }));
			});
		const token = agents.token();
		new Setting(section)
			.setName("Token")
			.setDesc(token ? `Clients send it as "Authorization: Bearer …". It ends in ${token.slice(-4)}.` : "Made when the server is first turned on.")
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
					draw();
				}),
			);
		for (const config of agents.clientConfigs()) {
			const setting = new Setting(section).setName(config.name).addButton((button) => button.setButtonText("Copy").onClick(() => copy(config.text, config.name)));
			setting.settingEl.addClass("vault-agent-client-config");
			setting.descEl.createEl("pre", { cls: "vault-agent-client-config-text", text: config.text });
		}
		new Setting(section).setName("Recent MCP activity").setDesc(`The newest ${ACTIVITY_SHOWN} calls; changes are in the undo journal like the chat's.`);
		const list = section.createDiv({ cls: "vault-agent-mcp-activity" });
		const recent = agents.activity.slice(-ACTIVITY_SHOWN).reverse();
		if (recent.length === 0) list.createDiv({ cls: "vault-agent-mcp-activity-empty", text: "No calls yet." });
		for (const entry of recent) {
			const time = new Date(entry.timeMs).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
			const who = entry.clientVersion ? `${entry.client} ${entry.clientVersion}` : entry.client;
			const row = list.createDiv({ cls: `vault-agent-mcp-activity-row ${entry.code === "ok" ? "is-ok" : "is-error"}` });
			row.createSpan({ text: `${time} · ${who} · ${entry.tool} ${entry.argv.join(" ")}` });
			row.createSpan({ cls: "vault-agent-mcp-activity-code", text: ` → ${entry.code} (${Math.round(entry.durationMs)} ms)` });
		}
		new ButtonComponent(section).setButtonText("Refresh").onClick(draw);
	};
	draw();
}
