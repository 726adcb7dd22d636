// The settings tab's Tools section: every tool's switch (and one for all),
// with the commands it reads with and the changes it can make.

import type { ToggleComponent } from "obsidian";
import type { SettingsContext } from "./settings-context";
import type { Row, Section } from "./section";

export function toolsSection(ctx: SettingsContext): Section {
	const tools = ctx.core?.listTools() ?? [];
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
						await ctx.updateSettings({ tools: Object.fromEntries(tools.map((t) => [t.id, value])) });
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
						const current = ctx.core?.settings().tools ?? {};
						await ctx.updateSettings({ tools: { ...current, [tool.id]: value } });
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
