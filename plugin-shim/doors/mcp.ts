// Doors for agents outside the chat view: the MCP server (its token, its
// listener, its activity log) and, once it is up, the plugin's own Obsidian
// CLI commands (cli-commands.ts). Each door goes through the core like the
// chat does; this file only wires effects.

import { Notice, type App, type DataAdapter } from "obsidian";
import type { ConfirmationCoordinator } from "../cards/confirmations";
import type { CoreHandle, McpActivityEntry, McpClientSetup } from "../core/types";
import { registerCliCommands, type RegisterCliHandler } from "./cli-commands";
import type { ModelCheckHost } from "../settings/model-check";
import { MCP_TOKEN_SECRET } from "../generated/constants";
import { MCP_ACTIVITY_KEPT as ACTIVITY_KEPT } from "../generated/limits";
import { McpListener, randomHex } from "./mcp-listener";

export interface AgentDoorsHost {
	app: App;
	core: CoreHandle;
	confirmations: ConfirmationCoordinator;
	adapter: DataAdapter;
	pluginDir: string;
	/** `Plugin.registerCliHandler` when this Obsidian has it (1.12.2+). */
	registerCliHandler?: RegisterCliHandler;
	/** "Check this model" for `vault-agent:check`. */
	modelCheck: ModelCheckHost;
}

export class AgentDoors {
	readonly listener: McpListener;
	/** Newest last. */
	activity: McpActivityEntry[] = [];
	/** What the Agents section says about the server. */
	status = "Off.";
	private saveTimer: number | null = null;
	/** Entries came or were cut since the file was last written. */
	private dirty = false;
	private onChange: (() => void) | null = null;

	constructor(private readonly host: AgentDoorsHost) {
		this.listener = new McpListener(host.core, host.confirmations, (entry) => this.record(entry));
	}

	private get activityPath(): string {
		return `${this.host.pluginDir}/mcp-activity.json`;
	}

	/** Reads the activity log, starts the server if it is on, registers the CLI commands. */
	async load(): Promise<void> {
		try {
			if (await this.host.adapter.exists(this.activityPath)) {
				// Checked and cut by the core: an old file kept whole arguments (25 MB for 500 calls).
				const stored = this.host.core.mcpActivityRead(await this.host.adapter.read(this.activityPath));
				if (stored.problem) console.warn(`Vault Agent: the MCP activity log could not be read and starts empty (${stored.problem}).`);
				this.activity = stored.entries.slice(-ACTIVITY_KEPT);
				if (stored.changed || stored.entries.length > ACTIVITY_KEPT) this.markChanged();
			}
		} catch (error) {
			console.warn(`Vault Agent: the MCP activity log could not be read and starts empty (${String(error)}).`);
		}
		await this.apply();
		const register = this.host.registerCliHandler;
		if (register) registerCliCommands(this.host.core, this.host.confirmations, this.host.modelCheck, register);
	}

	/** The settings tab repaints when the server's state or the log changes. */
	watch(onChange: (() => void) | null): void {
		this.onChange = onChange;
	}

	token(): string | null {
		return this.host.app.secretStorage.getSecret(MCP_TOKEN_SECRET);
	}

	/** 256 random bits, hex; an old token stops working at once. */
	regenerateToken(): string {
		const token = randomHex(32);
		this.host.app.secretStorage.setSecret(MCP_TOKEN_SECRET, token);
		return token;
	}

	/** Starts, stops or moves the server to match the settings. */
	async apply(): Promise<void> {
		const { enabled, port } = this.host.core.settings().mcp;
		const running = this.listener.listening ? this.listeningPort : null;
		if (!enabled) {
			if (running !== null) await this.listener.stop();
			this.setStatus("Off.");
			return;
		}
		if (running === port) return;
		if (running !== null) await this.listener.stop();
		if (!this.token()) this.regenerateToken();
		const started = await this.listener.start(port);
		if (started.ok) {
			this.listeningPort = port;
			this.setStatus(`Listening on http://127.0.0.1:${port}/mcp.`);
		} else {
			this.setStatus(started.message);
			new Notice(`Vault Agent: ${started.message}`);
		}
	}

	private listeningPort: number | null = null;

	async dispose(): Promise<void> {
		if (this.saveTimer !== null) window.clearTimeout(this.saveTimer);
		this.saveTimer = null;
		if (this.dirty) await this.saveActivity();
		await this.listener.stop();
	}

	/** Ready-to-paste client set-ups, with the token in them (made by the core, as in the README): what Copy copies. */
	clientConfigs(): McpClientSetup[] {
		const { port } = this.host.core.settings().mcp;
		return this.host.core.mcpClientSetups(port, this.token());
	}

	/** The same set-ups with `<token>` where the token goes: what the screen shows, so a screenshot of the settings leaks nothing. */
	shownClientConfigs(): McpClientSetup[] {
		const { port } = this.host.core.settings().mcp;
		return this.host.core.mcpClientSetups(port, null);
	}

	private setStatus(status: string): void {
		this.status = status;
		this.onChange?.();
	}

	/** Calls from coding agents in the chat join the same log. */
	recordActivity(entry: McpActivityEntry): void {
		this.record(entry);
	}

	private record(entry: McpActivityEntry): void {
		this.activity.push(entry);
		if (this.activity.length > ACTIVITY_KEPT) this.activity.splice(0, this.activity.length - ACTIVITY_KEPT);
		this.onChange?.();
		this.markChanged();
	}

	/** The file is written a second after a change, once for all that came in that second. */
	private markChanged(): void {
		this.dirty = true;
		this.saveTimer ??= window.setTimeout(() => {
			this.saveTimer = null;
			void this.saveActivity();
		}, 1000);
	}

	private async saveActivity(): Promise<void> {
		this.dirty = false;
		try {
			await this.host.adapter.write(this.activityPath, JSON.stringify(this.activity));
		} catch (error) {
			this.dirty = true;
			console.warn(`Vault Agent: the MCP activity log could not be saved (${String(error)}).`);
		}
	}
}
