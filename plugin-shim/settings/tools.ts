// The settings tab's Tools page: every tool's switch (and one for all), under
// the one name the chat shows too (the core's registry), with what it does in
// the user's words and the changes it can make; which changes always ask
// first is said once, at the top, and marked on each such change. A tool with
// a switch of its own elsewhere (the core's `ownSwitch`: memory, the web) has
// no switch here, only where its switch is, and "All tools" leaves it alone:
// those are opt-ins with settings of their own (a folder, a provider) that one
// click for every tool should not turn on, and an "All tools" that counted
// them would show off on a fresh install with every switch below on.

import type { ToggleComponent } from "obsidian";
import type { SettingsContext } from "./settings-context";
import type { Row, Section } from "./section";

export function toolsSection(ctx: SettingsContext): Section {
	const tools = ctx.core?.listTools() ?? [];
	const switched = tools.filter((t) => !t.ownSwitch);
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
			desc: "Every switch on this page. Changes marked ✱ always ask you first, whatever the mode.",
			more: "Turns every switch on this page on or off at once. A tool that is off is not offered to the model. Memory and Web are turned on and off where their own settings are (the Model and Web pages), so this switch leaves them as they are. Changes marked ✱ always show you a card to approve, whatever the vault changes mode; the others follow the mode.",
			render: (setting) => {
				setting.settingEl.addClass("vault-agent-all-tools");
				setting.addToggle((toggle) => {
					master = toggle;
					toggle.setValue(switched.every((t) => t.enabled)).onChange(async (value) => {
						if (syncing) return;
						moveSwitches(() => {
							for (const t of toggles.values()) t.setValue(value);
						});
						await ctx.updateSettings({ tools: Object.fromEntries(switched.map((t) => [t.id, value])) });
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
			desc: tool.summary,
			more: `${tool.description}${reads.length > 0 ? ` Reads with: ${reads.join(", ")}.` : ""}`,
			aliases: [tool.id, ...tool.commandDetails.map((c) => c.name)],
			render: (setting) => {
				setting.settingEl.addClass("vault-agent-tool");
				setting.settingEl.dataset.toolId = tool.id;
				if (!tool.ownSwitch) {
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
				}
				if (writes.length > 0) {
					// Declared kinds; "Ask before every change" asks for the others too.
					const commands = setting.descEl.createDiv({ cls: "vault-agent-tool-commands" });
					commands.appendText("Changes: ");
					writes.forEach((c, i) => {
						if (i > 0) commands.appendText(", ");
						commands.appendText(c.name);
						if (c.access === "confirmedWrite") commands.createSpan({ cls: "vault-agent-asks-first", text: "✱", attr: { title: "Always asks you first", "aria-label": "always asks you first" } });
					});
				}
				if (tool.ownSwitch) {
					const { setting: name, page } = tool.ownSwitch;
					setting.descEl.createDiv({ cls: "vault-agent-tool-own-switch", text: `${tool.enabled ? "On" : "Off"}. Its one switch is ${name}, on the ${page} page.` });
				}
			},
		});
	}
	return { heading: "Tools", cls: "vault-agent-tools-settings", rows };
}
