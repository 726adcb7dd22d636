// Doors for agents outside the chat view: the MCP server (its token, its
// listener, its activity log) and the plugin's own Obsidian CLI commands
// (`vault-agent:tools`, `vault-agent:call`, `vault-agent:ask`). Each door
// goes through the core like the chat does; this file only wires effects.

import { Notice, type App, type DataAdapter } from "obsidian";
import type { ConfirmationCoordinator } from "../cards/confirmations";
import type { ChatMessage, CoreHandle, McpActivityEntry, McpClientSetup, TurnResult } from "../core/types";
import { McpListener, randomHex } from "./mcp-listener";
import type { ToolResult } from "../vault-agent-api";

/** The secret in Obsidian's secret storage that holds the bearer token (src/mcp/mod.rs). */
export const MCP_TOKEN_SECRET = "vault-agent-mcp-token";
/** Entries kept in the activity file; the settings show the newest. */
const ACTIVITY_KEPT = 500;
const PERMISSION_MODES = ["readOnly", "askEveryChange", "askBeforeEdits"];

export interface AgentDoorsHost {
	app: App;
	core: CoreHandle;
	confirmations: ConfirmationCoordinator;
	adapter: DataAdapter;
	pluginDir: string;
	/** `Plugin.registerCliHandler` when this Obsidian has it (1.12.2+). */
	registerCliHandler?: (command: string, description: string, flags: Record<string, { value?: string; description: string; required?: boolean }> | null, handler: (params: Record<string, string>) => string | Promise<string>) => void;
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
		this.registerCliCommands();
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

	/** Ready-to-paste client set-ups, with the token in them (made by the core, as in the README). */
	clientConfigs(): McpClientSetup[] {
		const { port } = this.host.core.settings().mcp;
		return this.host.core.mcpClientSetups(port, this.token());
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

	/** `obsidian vault-agent:*`, where this Obsidian has CLI handlers. */
	private registerCliCommands(): void {
		const register = this.host.registerCliHandler;
		if (!register) return;
		register("vault-agent:tools", "List Vault Agent's tools that are switched on, with their commands.", null, () => this.cliTools());
		register(
			"vault-agent:call",
			"Run one Vault Agent tool call through its policy and confirmations.",
			{
				tool: { value: "<id>", description: "The tool, e.g. obsidianNotes (see vault-agent:tools).", required: true },
				args: { value: "<json>", description: 'The arguments as JSON, e.g. {"command":"read","file":"Welcome"}.' },
				mode: { value: "<mode>", description: "readOnly, askEveryChange or askBeforeEdits; never more than the chat allows." },
			},
			(params) => this.cliCall(params),
		);
		register(
			"vault-agent:ask",
			"Ask Vault Agent's chat model one question and print its answer.",
			{
				prompt: { value: "<text>", description: "What to ask.", required: true },
				mode: { value: "<mode>", description: "readOnly, askEveryChange or askBeforeEdits; never more than the chat allows." },
			},
			(params) => this.cliAsk(params),
		);
	}

	private cliTools(): string {
		const tools = this.host.core.listTools().filter((tool) => tool.enabled);
		return tools.map((tool) => `${tool.id}: ${tool.commands.join(", ")}`).join("\n");
	}

	private async cliCall(params: Record<string, string>): Promise<string> {
		const mode = checkedMode(params.mode);
		if (mode instanceof Error) return mode.message;
		let args: unknown = {};
		if (params.args !== undefined && params.args !== "true") {
			try {
				args = JSON.parse(params.args);
			} catch (error) {
				return `Error: invalid_arguments: args is not JSON (${String(error)}); quote it, e.g. args='{"command":"read","file":"Welcome"}'.`;
			}
		}
		let result = await this.host.core.callToolThrough(params.tool ?? "", args, "Obsidian CLI", mode);
		if (result.pending) result = await this.waitForCard(result.pending.id);
		return resultText(result);
	}

	private async cliAsk(params: Record<string, string>): Promise<string> {
		const mode = checkedMode(params.mode);
		if (mode instanceof Error) return mode.message;
		const prompt = params.prompt;
		if (!prompt || prompt === "true") return 'Error: invalid_arguments: prompt is required, e.g. prompt="What did I write today?".';
		const core = this.host.core;
		const conversation = core.newConversation();
		conversation.door = { name: "Obsidian CLI", modeCap: (mode ?? core.settings().permissionMode) as never };
		const errors: string[] = [];
		const onEvent = (event: { type: string; code?: string; message?: string }) => {
			if (event.type === "error") errors.push(`Error: ${event.code}: ${event.message}`);
		};
		let turn: TurnResult = await core.chatSend(conversation, prompt, onEvent);
		while (turn.end === "awaitingConfirmation" && turn.conversation.paused) {
			const id = turn.conversation.paused.confirmationId;
			await this.waitForCard(id);
			turn = await core.chatContinue(turn.conversation, id, onEvent);
		}
		if (turn.end === "failed" && errors.length > 0) return errors.join("\n");
		const answer = [...turn.conversation.messages].reverse().find((m): m is Extract<ChatMessage, { role: "assistant" }> => m.role === "assistant" && m.text.trim() !== "");
		return answer?.text ?? errors.join("\n");
	}

	/** Shows the card in Obsidian and waits for the user's answer (or its expiry). */
	private waitForCard(id: string): Promise<ToolResult> {
		const card = this.host.core.confirmationCard(id);
		if (card) this.host.confirmations.present(card);
		return this.host.confirmations.wait(id);
	}
}

/** A `mode=` flag, checked; `null` when none was given. */
function checkedMode(mode: string | undefined): string | null | Error {
	if (mode === undefined) return null;
	if (PERMISSION_MODES.includes(mode)) return mode;
	return new Error(`Error: invalid_arguments: mode must be one of ${PERMISSION_MODES.join(", ")} (never more than the chat allows).`);
}

/** A result as the CLI prints it: the text, or `Error: <code>: <message>`. */
function resultText(result: ToolResult): string {
	if (result.ok) return result.text;
	return `Error: ${result.error?.code ?? "failed"}: ${result.error?.message ?? result.text}`;
}
