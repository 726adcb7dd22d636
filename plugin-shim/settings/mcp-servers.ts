// The settings tab's "MCP: your servers in the chat" page: the user's own
// servers, whose tools the chat offers beside ours. First each configured
// server with its live state (running, failed and why, off), then the forms
// that add one: by command or URL, or paste
// Claude Desktop's, Cursor's or VS Code's JSON (the core reads it; values
// it holds in the clear go to secret storage); per server: on/off, the
// trust level, Test (what the server says of itself and its tools, with a
// switch per tool), Restart and Remove.

import { type Setting, ToggleComponent } from "obsidian";
import type { OutsideListing, OutsideServer, Trust } from "../core/types";
import type { Row, Section } from "./section";
import type { SettingsContext } from "./settings-context";

const TRUST: Record<Trust, string> = {
	askEveryCall: "Ask before every call",
	askUnlessReadOnly: "Ask unless the tool is marked read-only",
	neverAsk: "Never ask",
};

const DISCLOSURE =
	"Each call sends the tool's arguments, which the model chose from your chat and notes, to that server (a program on this computer, or the address you gave). Folder scopes and undo cannot reach what it does. How far you trust it is your choice.";

/** What the last listing of a server said, this session (Test, or the state check on opening the page). */
const lastListing = new Map<string, OutsideListing>();

/** Random bits for an added server's own id (its approvals are for it alone). */
function freshId(): string {
	return window.crypto.randomUUID();
}

export function mcpServersSection(ctx: SettingsContext, redraw: () => void): Section {
	const section: Section = { heading: "MCP servers", cls: "vault-agent-mcp-servers", rows: [] };
	const core = ctx.core;
	if (!core) return section;
	const aliases = ["MCP", "model context protocol", "tools", "servers"];
	const servers = () => ctx.core?.settings().mcpServers ?? [];
	const save = async (list: OutsideServer[]) => {
		await ctx.updateSettings({ mcpServers: list });
		redraw();
	};
	const change = (id: string, patch: Partial<OutsideServer>) => save(servers().map((s) => (s.id === id ? { ...s, ...patch } : s)));
	// The servers first, each with its state; then the forms that add one.
	for (const server of servers()) section.rows.push(serverRow(ctx, server, change, save, servers));
	section.rows.push({
		name: "Add a server",
		desc: "A command that starts a stdio server, or a Streamable HTTP address.",
		more: `A command that starts a stdio server (for example npx -y @modelcontextprotocol/server-everything), or the address of a Streamable HTTP server. Below it: environment variables (stdio) or headers (HTTP), one NAME=value a line, and an HTTP server's bearer token; a value that is the name of a secret in Obsidian's secret storage is read from it, any other value is put there. ${DISCLOSURE}`,
		aliases: [...aliases, "environment", "headers", "bearer token", "working folder"],
		render: (setting) => {
			setting.settingEl.addClass("vault-agent-mcp-add");
			setting.descEl.createDiv({ cls: "vault-agent-mcp-disclosure", text: DISCLOSURE });
			const form = { name: "", target: "", values: "", bearer: "", cwd: "" };
			const field = (key: keyof typeof form, placeholder: string, label: string) =>
				setting.addText((text) => {
					text.setPlaceholder(placeholder).onChange((v) => (form[key] = v));
					text.inputEl.setAttribute("aria-label", label);
					text.inputEl.addClass(`vault-agent-mcp-add-${key}`);
				});
			field("name", "Name", "Name");
			field("target", "Command or URL", "Command or URL");
			setting.addTextArea((area) => {
				area.setPlaceholder("Environment or headers: NAME=value a line").onChange((v) => (form.values = v));
				area.inputEl.setAttribute("aria-label", "Environment variables or headers");
				area.inputEl.addClass("vault-agent-mcp-add-values");
			});
			field("bearer", "Bearer token or its secret (HTTP)", "Bearer token or the name of its secret");
			field("cwd", "Working folder (stdio)", "Working folder");
			const report = setting.descEl.createDiv({ cls: "vault-agent-mcp-report" });
			setting.addButton((button) =>
				button.setButtonText("Add").onClick(async () => {
					let added;
					try {
						added = core.outsideAdd(form.name, form.target, form.values, form.bearer, form.cwd, freshId());
					} catch (error) {
						report.setText(error instanceof Error ? error.message : String(error));
						report.addClass("is-error");
						return;
					}
					for (const [secret, value] of added.secrets) ctx.app.secretStorage.setSecret(secret, value);
					await save([...servers(), ...added.servers]);
				}),
			);
		},
	});
	section.rows.push({
		name: "Paste a configuration",
		desc: "Claude Desktop's, Cursor's or VS Code's JSON: every server in it is added.",
		more: `The JSON of Claude Desktop or Cursor (mcpServers) or of VS Code (servers): every server in it is added, switched on and asking before every call. Keys and tokens in it go to Obsidian's secret storage. ${DISCLOSURE}`,
		aliases,
		render: (setting) => {
			setting.settingEl.addClass("vault-agent-mcp-paste-config");
			setting.descEl.createDiv({ cls: "vault-agent-mcp-disclosure", text: DISCLOSURE });
			let pasted = "";
			const report = setting.descEl.createDiv({ cls: "vault-agent-mcp-report" });
			setting.addTextArea((area) => {
				area.setPlaceholder('{ "mcpServers": { … } }').onChange((v) => (pasted = v));
				area.inputEl.addClass("vault-agent-mcp-paste");
			});
			setting.addButton((button) =>
				button.setButtonText("Add servers").onClick(async () => {
					let found;
					try {
						found = core.outsideImport(pasted, freshId());
					} catch (error) {
						report.setText(error instanceof Error ? error.message : String(error));
						report.addClass("is-error");
						return;
					}
					for (const [secret, value] of found.secrets) ctx.app.secretStorage.setSecret(secret, value);
					await save([...servers(), ...found.servers]);
					report.removeClass("is-error");
					report.setText([`Added ${found.servers.map((s) => s.id).join(", ")}.`, ...found.notes].join(" "));
				}),
			);
		},
	});
	return section;
}

function serverRow(
	ctx: SettingsContext,
	server: OutsideServer,
	change: (id: string, patch: Partial<OutsideServer>) => Promise<void>,
	save: (list: OutsideServer[]) => Promise<void>,
	servers: () => OutsideServer[],
): Row {
	const where = server.kind === "http" ? server.url : [server.command, ...server.args].join(" ");
	const secrets = [...server.env, ...server.headers].map((v) => `${v.name} from the secret ${v.secret}`);
	if (server.bearerSecret) secrets.push(`a bearer token from the secret ${server.bearerSecret}`);
	return {
		name: server.id,
		desc: `${server.kind === "http" ? "Streamable HTTP" : "Command"}: ${where}`,
		more: `${server.kind === "http" ? "Streamable HTTP" : "Command"}: ${where}${secrets.length ? `; ${secrets.join(", ")}` : ""}.`,
		render: (setting: Setting) => {
			setting.settingEl.addClass("vault-agent-mcp-server");
			setting.settingEl.dataset.serverId = server.id;
			if (server.trust === "neverAsk") setting.descEl.createDiv({ cls: "vault-agent-mcp-warning", text: "Every call of its tools runs without asking you." });
			const state = setting.descEl.createDiv({ cls: "vault-agent-mcp-state" });
			showState(ctx, server, state);
			// Under the name and the controls, the row's whole width: a tool list needs the room.
			const report = setting.settingEl.createDiv({ cls: "vault-agent-mcp-report" });
			setting.addToggle((toggle) =>
				toggle.setValue(server.enabled).onChange(async (on) => {
					lastListing.delete(server.id);
					if (!on) await ctx.stopOutsideServer(server.id);
					await change(server.id, { enabled: on });
				}),
			);
			setting.addDropdown((dropdown) => {
				for (const [key, label] of Object.entries(TRUST)) dropdown.addOption(key, label);
				dropdown.setValue(server.trust).onChange((value) => void change(server.id, { trust: value as Trust }));
			});
			setting.addButton((button) =>
				button.setButtonText("Test").onClick(async () => {
					report.setText("Connecting…");
					const core = ctx.core;
					if (!core) return;
					const listing = await core.outsideTest(server.id);
					lastListing.set(server.id, listing);
					drawState(state, server, listing);
					drawListing(report, listing, server, change);
				}),
			);
			setting.addButton((button) =>
				button.setButtonText("Restart").onClick(() =>
					void ctx.stopOutsideServer(server.id).then(() => {
						lastListing.delete(server.id);
						report.setText("Stopped; it starts again at its next use.");
						showState(ctx, server, state);
					}),
				),
			);
			setting.addExtraButton((button) =>
				button
					.setIcon("trash")
					.setTooltip("Remove")
					.onClick(async () => {
						await ctx.stopOutsideServer(server.id);
						await save(servers().filter((s) => s.id !== server.id));
					}),
			);
		},
	};
}

/**
 * The server's state in one line: off, running with its tools, or failed
 * with the reason. A server on that nothing has listed yet is listed now
 * (a stdio one starts), so a failing server shows it without a click on Test.
 */
function showState(ctx: SettingsContext, server: OutsideServer, el: HTMLElement): void {
	if (!server.enabled) return drawState(el, server, null);
	const known = lastListing.get(server.id) ?? ctx.core?.outsideStatus().find(([id]) => id === server.id)?.[1];
	if (known) return drawState(el, server, known);
	el.setText("Starting…");
	el.className = "vault-agent-mcp-state is-starting";
	void ctx.core?.outsideTest(server.id).then((listing) => {
		lastListing.set(server.id, listing);
		drawState(el, server, listing);
	});
}

function drawState(el: HTMLElement, server: OutsideServer, listing: OutsideListing | null): void {
	const [cls, text] = !server.enabled
		? ["is-off", "Off"]
		: !listing
			? ["is-starting", "Starting…"]
			: listing.ok
				? ["is-running", `Running: ${listing.tools.length} ${listing.tools.length === 1 ? "tool" : "tools"}`]
				: ["is-failed", `Failed: ${listing.error ?? "it did not answer."}`];
	el.className = `vault-agent-mcp-state ${cls}`;
	el.setText(text);
}

/** What Test found: the server's name and version, each tool with its annotations and switch, or the error. */
function drawListing(report: HTMLElement, listing: OutsideListing, server: OutsideServer, change: (id: string, patch: Partial<OutsideServer>) => Promise<void>): void {
	report.empty();
	// A failure is the row's state line (drawState): said once, not again here.
	if (!listing.ok) return;
	const count = listing.tools.length;
	const who = [listing.name || server.id, listing.version].filter(Boolean).join(" ");
	report.createDiv({ cls: "vault-agent-mcp-answered", text: `${who} answered with ${count} ${count === 1 ? "tool" : "tools"}.` });
	const list = report.createEl("ul", { cls: "vault-agent-mcp-tools" });
	for (const tool of listing.tools) {
		// The tool, then Obsidian's switch at the right, as every other on/off in the tab.
		const item = list.createEl("li", { cls: "vault-agent-mcp-tool" });
		const text = item.createDiv({ cls: "vault-agent-mcp-tool-text" });
		new ToggleComponent(item)
			.setValue(!server.toolsOff.includes(tool.name))
			.setTooltip(`Offer ${tool.name}`)
			.onChange((on) => {
				const off = server.toolsOff.filter((name) => name !== tool.name);
				void change(server.id, { toolsOff: on ? off : [...off, tool.name] });
			});
		text.createSpan({ cls: "vault-agent-mcp-tool-name", text: tool.name });
		const hints = text.createSpan({ cls: "vault-agent-mcp-tool-hints" });
		for (const hint of tool.hints) hints.createSpan({ cls: "vault-agent-mcp-tool-hint", text: hint });
		const description = tool.description.split("\n", 1)[0] ?? "";
		if (description) text.createDiv({ cls: "vault-agent-mcp-tool-desc", text: description });
	}
}
