// The settings tab's Safety section: the vault changes mode (what each
// allows, in words), the folders the agent may read and change (with the
// memory folder's warning when they leave it out), Local only and the
// connections the plugin made since it started.

import { memoryFolderWarning, refreshMemoryWarnings } from "./memory";
import type { SettingsContext } from "./settings-context";
import { asPermissionMode, PERMISSION_MODES } from "./permission-modes";
import type { Row, Section } from "./section";
import { pathList } from "./suggest";

export function safetySection(ctx: SettingsContext): Section {
	const settings = ctx.core?.settings();
	const folderList = (name: string, desc: string, more: string, key: "readFolders" | "writeFolders"): Row => ({
		name,
		desc,
		more,
		aliases: ["folders", "scope"],
		render: (setting) => {
			setting.settingEl.addClass("vault-agent-folder-setting");
			setting.settingEl.dataset.key = key;
			pathList(ctx.app, setting.controlEl, {
				kind: "folder",
				label: `Add a folder: ${name.toLowerCase()}`,
				placeholder: key === "readFolders" ? "Whole vault; add a folder" : "All it may read; add a folder",
				paths: settings?.[key] ?? [],
				save: async (folders) => {
					const saved = (await ctx.updateSettings({ [key]: folders }))[key];
					refreshMemoryWarnings();
					return saved;
				},
			});
			// Narrowing either list is how the memory folder usually falls outside.
			if (key === "writeFolders") memoryFolderWarning(ctx, setting.descEl);
		},
	});
	return {
		heading: "Safety",
		cls: "vault-agent-safety-settings",
		rows: [
			{
				name: "Vault changes",
				desc: "What the agent may change in your vault. Also in the chat header; never the agent's.",
				more: "What the agent may change in your vault. You can also switch it in the chat header; the agent itself never can.",
				aliases: ["permission mode", "read only", ...PERMISSION_MODES.map((m) => m.label)],
				render: (setting) => {
					setting.settingEl.addClass("vault-agent-permission-mode-setting");
					setting.addDropdown((dropdown) => {
						for (const m of PERMISSION_MODES) dropdown.addOption(m.mode, m.label);
						dropdown.setValue(settings?.permissionMode ?? "readOnly").onChange(async (value) => {
							const permissionMode = asPermissionMode(value);
							if (!permissionMode) return;
							const saved = await ctx.updateSettings({ permissionMode });
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
				"None listed: the whole vault. Results leave out the rest and say how many.",
				"Folders from the vault root (like Projects or Areas/Work). Leave empty for the whole vault. Results from searches and lists leave out the rest and say how many were left out.",
				"readFolders",
			),
			folderList(
				"Folders the agent may change",
				"None listed: every folder it may read. Changes still follow the mode above.",
				"Leave empty for every folder it may read. Changes still follow the vault changes mode above, and never reach Obsidian's configuration folder.",
				"writeFolders",
			),
			{
				name: "Local only",
				desc: "Connect only to this computer and your private network; refuse the rest.",
				more: "While on, Vault Agent connects only to this computer (127.0.0.0/8, ::1) and your private network (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 169.254.0.0/16, fc00::/7, fe80::/10), never to a cloud's metadata service (169.254.169.254), and refuses any other address before a connection is opened. Coding agents run as programs of their own: this switch cannot hold them to it.",
				aliases: ["offline", "privacy", "no cloud", "private"],
				render: (setting) => {
					setting.settingEl.addClass("vault-agent-local-only");
					setting.addToggle((toggle) =>
						toggle.setValue(settings?.localOnly ?? false).onChange(async (localOnly) => {
							toggle.setValue((await ctx.updateSettings({ localOnly })).localOnly);
						}),
					);
				},
			},
			{
				name: "Connections since start",
				desc: "Every connection made or refused since Vault Agent started.",
				more: "Every connection Vault Agent made or refused since it started: where to, what for, when.",
				aliases: ["network", "connection log", "local only"],
				render: (setting) => {
					setting.settingEl.addClass("vault-agent-connection-log");
					const list = setting.descEl.createEl("ul", { cls: "vault-agent-connections" });
					const show = () => {
						list.empty();
						const entries = ctx.core?.connectionLog() ?? [];
						if (entries.length === 0) list.createEl("li", { text: "None yet." });
						for (const entry of [...entries].reverse()) {
							const item = list.createEl("li", { cls: entry.refused ? "is-refused" : "" });
							const when = new Date(entry.atMs).toLocaleTimeString();
							const outcome = entry.refused ? "refused" : entry.detail ? `failed (${entry.detail})` : "connected";
							item.setText(`${when} ${entry.destination}${entry.address ? ` (${entry.address})` : ""}, ${entry.purpose}: ${outcome}`);
						}
					};
					show();
					setting.addExtraButton((button) => button.setIcon("refresh-cw").setTooltip("Show the newest").onClick(show));
				},
			},
		],
	};
}
