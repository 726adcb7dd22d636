// One coding agent (Claude Code, Codex, Gemini CLI…) run over the Agent
// Client Protocol: its process, the connection, one session. This folder's
// files are the only ones that import the ACP SDK (session.ts, requests.ts,
// wire.ts). What the agent reports becomes the
// chat's events on one channel (`onEvent`); what it asks of the vault goes
// through the core like any other door: reads and writes as our tools (read
// scope, cards, stale check, journal, undo), its tools over our MCP server
// with a token for this session only, under the chat's permission mode.
// Over 400 lines, on purpose: the process, the connection and the session
// are one state (a crash or an unload ends all three at once), so their code
// stays together; the agent's requests (requests.ts) and the glue between the
// SDK and Node (wire.ts) are apart.

import * as acp from "@agentclientprotocol/sdk";
import { spawn, type ChildProcess } from "child_process";
import type { ConfirmationCoordinator } from "../../cards/confirmations";
import type { Conversation, CoreHandle, ProcessTree } from "../../core/types";
import { signalTree } from "../../host/processes";
import type { ToolResult } from "../../vault-agent-api";
import type { AgentConfigOption, AgentEvent, AgentFacts, AgentImage, PermissionAsk } from "./events";
import type { AgentProfile } from "./profiles";
import { AgentRequests } from "./requests";
import { STDIO_BRIDGE_SCRIPT } from "./stdio-bridge";
import { AgentStartError } from "./start-error";
import { boundedPlan, toolText, TurnStream } from "./turn-stream";
import { configOptions, stdinStream, stdoutStream } from "./wire";

export interface AgentSessionHost {
	core: CoreHandle;
	confirmations: ConfirmationCoordinator;
	/** The vault folder: the agent's working directory; paths outside it are refused. */
	vaultPath: string;
	/** The MCP listener for agents, started on first use: its URL. */
	mcpUrl(): Promise<string | null>;
	/** A fresh secret, hex. */
	freshToken(): string;
	/** The chat's permission mode now (`readOnly`, `askEveryChange`, `askBeforeEdits`). */
	permissionMode(): string;
	/** Secret storage, for the profile's API keys. */
	secret(name: string): string | null;
	pluginVersion: string;
}

/** The last part of the agent's stderr kept for a crash report. */
const STDERR_KEPT = 4000;
/** How long an agent has to end its turn after `session/cancel` before it is ended. */
const CANCEL_GRACE_MS = 2000;

export class AgentSession {
	facts: AgentFacts | null = null;
	/** `initialize`'s sign-in methods, and which of the agent's key variables hold a value: for an `auth_required` answer. */
	private authMethods: unknown[] = [];
	private keysSet: string[] = [];
	sessionId: string | null = null;
	/** The agent's reported modes and slash commands, newest. */
	modes: { current: string; available: Array<{ id: string; name: string }> } | null = null;
	commands: Array<{ name: string; description: string }> = [];
	/** The agent's session settings (model, reasoning level…), newest. */
	config: AgentConfigOption[] = [];
	private child: ChildProcess | null = null;
	private childPid: number | null = null;
	/** How the agent is ended with what it started (its process group on POSIX). */
	private tree: ProcessTree = "processGroup";
	private connection: acp.ClientConnection | null = null;
	private token: string | null = null;
	private stderr = "";
	private onEvent: (event: AgentEvent) => void = () => {};
	/** Notices from before the first turn, said when it starts. */
	private pendingNotices: string[] = [];
	/** A turn is running (its events go to its `onEvent`). */
	private inTurn = false;
	/**
	 * Told when the agent reports new slash commands, settings or modes
	 * between turns (agents often send their commands right after
	 * `session/new`, before any prompt).
	 */
	onStateChanged: () => void = () => {};
	/**
	 * Told what the chat should say between turns (a request that came
	 * after the answer ended and was refused); without a listener it is
	 * said at the next Send.
	 */
	onNotice: ((text: string) => void) | null = null;
	/** What the turn running now streams, bounded (turn-stream.ts). */
	private stream: TurnStream | null = null;
	private ended = false;
	private exitListeners: Array<() => void> = [];
	/** Told once per session: the agent has no terminal here. */
	private toldNoTerminal = false;
	/** The vault's skills went with this session's first message (the core words them). */
	private skillsHanded = false;

	/** The agent's questions and file requests (requests.ts). */
	private readonly requests: AgentRequests;

	constructor(
		readonly profile: AgentProfile,
		private readonly host: AgentSessionHost,
	) {
		this.requests = new AgentRequests({
			core: host.core,
			confirmations: host.confirmations,
			name: profile.name,
			token: () => this.token,
			mode: () => host.permissionMode(),
			emit: (event) => this.emit(event),
			outsideTurn: (method, subject) => this.outsideTurn(method, subject),
		});
	}

	/** Questions the agent is waiting on. */
	get asks(): ReadonlyMap<number, PermissionAsk> {
		return this.requests.asks;
	}

	get running(): boolean {
		return this.child !== null && !this.ended;
	}

	/** The process id, for tests and the status line (kept after the session ends). */
	get pid(): number | null {
		return this.childPid;
	}

	get stderrTail(): string {
		return this.stderr;
	}

	/** Starts the process and `initialize`s it; rejects with what to do when it cannot start. */
	async initialize(): Promise<AgentFacts> {
		const profile = this.profile;
		if (!profile.command) throw new AgentStartError(`${profile.name}: set its command in Settings → Vault Agent → Coding agents.`, `${profile.name}: set its command.`);
		const env: Record<string, string> = {};
		for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
		for (const [name, secret] of Object.entries(profile.envSecrets)) {
			const value = secret ? this.host.secret(secret) : null;
			if (value) env[name] = value;
		}
		this.keysSet = Object.keys(profile.envSecrets).filter((name) => Boolean(env[name]));
		// Without a shell, the command and its arguments go to the OS as they are.
		// On POSIX the agent leads a process group of its own (as the CLI
		// does), so what it starts (a language server, a shell) ends with it.
		this.tree = this.host.core.agentProcessTree();
		const child = spawn(profile.command, profile.args, { cwd: this.host.vaultPath, env, stdio: ["pipe", "pipe", "pipe"], shell: false, windowsHide: true, detached: this.tree === "processGroup" });
		this.child = child;
		this.childPid = child.pid ?? null;
		const started = new Promise<void>((resolve, reject) => {
			child.once("spawn", () => resolve());
			child.once("error", (error: NodeJS.ErrnoException) => {
				this.ended = true;
				const hint = profile.install ? ` Install it with: ${profile.install}.` : "";
				const missing = `${profile.name}: "${profile.command}" was not found on PATH.${hint}`;
				reject(
					error.code === "ENOENT"
						? new AgentStartError(`${missing} Or set its full path in Settings → Vault Agent → Coding agents.`, `${missing} Or give its full path as the command.`)
						: new AgentStartError(`${profile.name} could not start: ${error.message}`),
				);
			});
		});
		// A write after the agent died is an error event, not a crash of the plugin.
		child.stdin?.on("error", () => {});
		child.stderr?.setEncoding("utf8");
		child.stderr?.on("data", (chunk: string) => {
			this.stderr = (this.stderr + chunk).slice(-STDERR_KEPT);
		});
		child.once("exit", () => {
			this.ended = true;
			for (const listener of this.exitListeners.splice(0)) listener();
		});
		await started;
		const stream = acp.ndJsonStream(stdinStream(child), stdoutStream(child));
		const app = acp
			.client({ name: "Vault Agent" })
			.onNotification("session/update", ({ params }) => this.update(params))
			.onRequest("session/request_permission", ({ params }) => this.requests.askPermission(params))
			.onRequest("fs/read_text_file", ({ params }) => this.requests.readFile(params))
			.onRequest("fs/write_text_file", ({ params }) => this.requests.writeFile(params));
		this.connection = app.connect(stream);
		// A connection that ends with an error (the agent died) is reported through the turn, not as an unhandled rejection.
		this.connection.closed.catch(() => {});
		const init = await this.untilExit(
			this.connection.agent.request("initialize", {
				protocolVersion: acp.PROTOCOL_VERSION,
				clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
				clientInfo: { name: "vault-agent", title: "Vault Agent", version: this.host.pluginVersion },
			}),
		);
		this.authMethods = init.authMethods ?? [];
		const caps = init.agentCapabilities;
		this.facts = {
			name: init.agentInfo?.title ?? init.agentInfo?.name ?? profile.name,
			version: init.agentInfo?.version ?? "",
			protocolVersion: init.protocolVersion,
			loadSession: caps?.loadSession ?? false,
			mcpHttp: caps?.mcpCapabilities?.http ?? false,
			promptImage: caps?.promptCapabilities?.image ?? false,
		};
		return this.facts;
	}

	/** `session/new` with our MCP server (HTTP, a token for this session) and the user's that never ask, or `session/load` of `resume`. */
	async open(resume: string | null = null): Promise<void> {
		const agent = this.connection?.agent;
		if (!agent || !this.facts) throw new Error("The agent is not initialized.");
		const mcpServers: acp.McpServer[] = [];
		const url = await this.host.mcpUrl();
		// The session's door: its MCP token, and where its "always" answers are kept.
		this.token = this.host.freshToken();
		this.host.core.openAgentDoor(this.token, this.profile.name, this.host.permissionMode());
		if (url) {
			const auth = `Bearer ${this.token}`;
			mcpServers.push(
				this.facts.mcpHttp
					? { type: "http", name: "vault-agent", url, headers: [{ name: "Authorization", value: auth }] }
					: {
							// Every ACP agent takes stdio servers: our small bridge to the same listener.
							name: "vault-agent",
							command: process.execPath,
							args: ["-e", STDIO_BRIDGE_SCRIPT],
							env: [
								{ name: "ELECTRON_RUN_AS_NODE", value: "1" },
								{ name: "VAULT_AGENT_MCP_URL", value: url },
								{ name: "VAULT_AGENT_MCP_AUTH", value: auth },
							],
						},
			);
		} else {
			// Said at the first Send: no turn is listening yet.
			this.pendingNotices.push(`${this.facts.name} cannot reach Vault Agent's tools (the MCP listener did not start); it works with the files it reads and writes through the chat.`);
		}
		// The user's own servers that never ask (the core decides which, and keeps them to take back); the others stay behind our cards.
		const outside = this.host.core.agentOutsideServers(this.token, this.host.permissionMode(), this.facts.mcpHttp);
		mcpServers.push(...(outside.servers as acp.McpServer[]));
		if (outside.heldBack.length > 0) this.pendingNotices.push(`Not given to ${this.facts.name}: ${outside.heldBack.join(" ")}`);
		let opened: acp.NewSessionResponse | acp.LoadSessionResponse;
		if (resume && this.facts.loadSession) {
			opened = await this.untilExit(agent.request("session/load", { sessionId: resume, cwd: this.host.vaultPath, mcpServers }));
			this.sessionId = resume;
		} else {
			const created = await this.newSession(agent, { cwd: this.host.vaultPath, mcpServers });
			this.sessionId = created.sessionId;
			opened = created;
		}
		if (opened.modes) this.modes = { current: opened.modes.currentModeId, available: opened.modes.availableModes.map((m) => ({ id: m.id, name: m.name })) };
		if (opened.configOptions) this.config = configOptions(opened.configOptions);
	}

	/**
	 * `session/new`. An `auth_required` answer (Gemini CLI's, without a chosen
	 * sign-in) gets one `authenticate` with the API key the agent was given,
	 * as the core decides, and one more `session/new`; else what to do.
	 */
	private async newSession(agent: acp.ClientConnection["agent"], params: acp.NewSessionRequest): Promise<acp.NewSessionResponse> {
		try {
			return await this.untilExit(agent.request("session/new", params));
		} catch (error) {
			if (!authRequired(error)) throw error;
		}
		const step = this.host.core.agentSignIn(this.profile.id, this.authMethods, this.keysSet, null);
		if (step.step === "refuse") throw new AgentStartError(step.message);
		let failure: string;
		try {
			await this.untilExit(agent.request("authenticate", { methodId: step.methodId }));
			return await this.untilExit(agent.request("session/new", params));
		} catch (error) {
			if (this.ended) throw error;
			failure = error instanceof Error ? error.message : String(error);
		}
		const after = this.host.core.agentSignIn(this.profile.id, this.authMethods, this.keysSet, failure);
		throw new AgentStartError(after.step === "refuse" ? after.message : failure);
	}

	/**
	 * One turn: resolves with the stop reason; the events arrive on `onEvent`
	 * meanwhile. Its changes are journalled as the answer to the message
	 * `conversation` keeps next (its "Undo this answer's changes").
	 */
	async prompt(text: string, onEvent: (event: AgentEvent) => void, images: AgentImage[] = [], conversation: Conversation | null = null): Promise<string> {
		const agent = this.connection?.agent;
		if (!agent || !this.sessionId) throw new Error("The agent has no session.");
		this.onEvent = onEvent;
		this.inTurn = true;
		const stream = new TurnStream(onEvent);
		this.stream = stream;
		// The door's mode follows the chat's, as it is at each Send; its file requests and questions are served until the turn ends.
		if (this.token) {
			this.host.core.openAgentDoor(this.token, this.profile.name, this.host.permissionMode());
			this.host.core.agentTurn(this.token, true, conversation);
		}
		onEvent({ type: "modelRound", round: 1 });
		for (const text of this.pendingNotices.splice(0)) onEvent({ type: "notice", text });
		if (!this.toldNoTerminal) {
			this.toldNoTerminal = true;
			onEvent({ type: "notice", text: `${this.profile.name} runs without a terminal in Vault Agent: it reads and changes notes through the chat's tools and cards.` });
		}
		try {
			// The chat's images are ACP image blocks as they stand.
			const prompt: acp.ContentBlock[] = [...images, { type: "text", text }];
			if (!this.skillsHanded) {
				const skills = await this.host.core.agentSkills();
				if (skills) prompt.unshift({ type: "text", text: skills });
				this.skillsHanded = true;
			}
			const response = await this.untilExit(agent.request("session/prompt", { sessionId: this.sessionId, prompt }));
			this.endStream(stream);
			onEvent({ type: "assistantMessage", text: stream.text });
			onEvent({ type: "turnEnded", end: response.stopReason === "cancelled" ? "stopped" : "done" });
			return response.stopReason;
		} catch (error) {
			this.endStream(stream);
			onEvent({ type: "assistantMessage", text: stream.text });
			// The connection may close a moment before the process reports its exit.
			if (!this.ended) await this.exitWithin(500);
			if (this.ended) {
				onEvent({ type: "crashed", stderr: this.stderr.trim() });
				onEvent({ type: "turnEnded", end: "failed" });
				return "crashed";
			}
			onEvent({ type: "error", code: "agent_error", retryable: true, wayOut: ["retry"], message: `${this.profile.name}: ${error instanceof Error ? error.message : String(error)}` });
			onEvent({ type: "turnEnded", end: "failed" });
			return "failed";
		} finally {
			this.inTurn = false;
			stream.dispose();
			if (this.stream === stream) this.stream = null;
			if (this.token) this.host.core.agentTurn(this.token, false, null);
			this.requests.cancelAsks();
		}
	}

	/** What streamed last is handed on; tool calls past the cap are counted. */
	private endStream(stream: TurnStream): void {
		stream.flush();
		const hidden = stream.toolsNotShown;
		if (hidden > 0) this.onEvent({ type: "notice", text: `${this.profile.name} made ${hidden} more tool calls in this answer; they are not shown.` });
	}

	/** Stop: `session/cancel`; an agent that does not end its turn soon is ended. */
	cancel(): void {
		const agent = this.connection?.agent;
		if (!agent || !this.sessionId || this.ended) return;
		this.requests.cancelAsks();
		void agent.notify("session/cancel", { sessionId: this.sessionId }).catch(() => {});
		const child = this.child;
		const timer = window.setTimeout(() => {
			if (child && !this.ended) this.dispose();
		}, CANCEL_GRACE_MS);
		this.exitListeners.push(() => window.clearTimeout(timer));
		this.idle().then(() => window.clearTimeout(timer), () => window.clearTimeout(timer));
	}

	/** Picks one of the modes the agent reported. */
	async setMode(modeId: string): Promise<void> {
		const agent = this.connection?.agent;
		if (!agent || !this.sessionId) return;
		await agent.request("session/set_mode", { sessionId: this.sessionId, modeId });
		if (this.modes) this.modes = { ...this.modes, current: modeId };
	}

	/** Sets one of the agent's session settings (its model, say); the agent answers with all of them. */
	async setConfigOption(id: string, value: string): Promise<void> {
		const agent = this.connection?.agent;
		const option = this.config.find((o) => o.id === id);
		if (!agent || !this.sessionId || !option) return;
		const answer = await this.untilExit(
			agent.request(
				"session/set_config_option",
				option.boolean ? { sessionId: this.sessionId, configId: id, type: "boolean", value: value === "true" } : { sessionId: this.sessionId, configId: id, value },
			),
		);
		this.config = configOptions(answer.configOptions);
	}

	/**
	 * The mode or the servers' settings changed. The agent calls the servers
	 * it was handed itself, so when the core says one would not be handed
	 * now, the agent is ended with what it started and the chat told why;
	 * otherwise our own tools follow the mode at once. True when ended.
	 */
	settingsChanged(): boolean {
		const token = this.token;
		if (!token || this.ended) return false;
		const mode = this.host.permissionMode();
		const withdrawn = this.host.core.agentServersWithdrawn(token, mode);
		if (withdrawn === undefined) {
			this.host.core.openAgentDoor(token, this.profile.name, mode);
			return false;
		}
		if (this.inTurn) this.emit({ type: "notice", text: withdrawn });
		else this.onNotice?.(withdrawn);
		this.dispose();
		return true;
	}

	/** Ends everything: the MCP token, the connection, the process (and nothing is left running). */
	dispose(): void {
		// First: a turn the closing connection rejects reads as ended, not failed.
		this.ended = true;
		if (this.token) this.host.core.closeAgentDoor(this.token);
		this.token = null;
		this.requests.cancelAsks();
		this.stream?.dispose();
		this.connection?.close();
		this.connection = null;
		const child = this.child;
		this.child = null;
		if (child) {
			// The whole group, even when the agent itself has exited (a crash
			// leaves what it started running); what ignores SIGTERM gets SIGKILL.
			const tree = this.tree;
			signalTree(child, tree, "SIGTERM");
			window.setTimeout(() => signalTree(child, tree, "SIGKILL"), 1000);
		}
		this.ended = true;
	}

	private exitWithin(ms: number): Promise<void> {
		return new Promise((resolve) => {
			const timer = window.setTimeout(resolve, ms);
			this.exitListeners.push(() => {
				window.clearTimeout(timer);
				resolve();
			});
		});
	}

	private idleWaiters: Array<() => void> = [];
	private idle(): Promise<void> {
		return new Promise((resolve) => this.idleWaiters.push(resolve));
	}

	/** A request that also fails when the process dies before it is answered. */
	private untilExit<T>(request: Promise<T>): Promise<T> {
		return new Promise<T>((resolve, reject) => {
			const onExit = () => reject(new Error(`the agent exited${this.stderr.trim() ? `: ${this.stderr.trim().split("\n").at(-1)}` : ""}`));
			if (this.ended) onExit();
			this.exitListeners.push(onExit);
			request.then(resolve, reject).finally(() => {
				this.exitListeners = this.exitListeners.filter((l) => l !== onExit);
				for (const waiter of this.idleWaiters.splice(0)) waiter();
			});
		});
	}

	private emit(event: AgentEvent): void {
		// Streamed text waiting for its frame comes first, so the order holds.
		this.stream?.flush();
		if (this.inTurn) this.onEvent(event);
		else if (event.type === "commands" || event.type === "config" || event.type === "modes") this.onStateChanged();
	}

	/**
	 * Refuses a request outside a turn (the core decides): the agent gets
	 * its error, the user a notice in the chat. Null when it may be served.
	 */
	private outsideTurn(method: string, subject: string): acp.RequestError | null {
		const refusal = this.host.core.agentRequest(this.token ?? "", method, subject);
		if (!refusal) return null;
		if (this.onNotice) this.onNotice(refusal.notice);
		else this.pendingNotices.push(refusal.notice);
		return acp.RequestError.invalidRequest({ code: refusal.code }, refusal.message);
	}

	private update(params: acp.SessionNotification): void {
		if (params.sessionId !== this.sessionId) return;
		const update = params.update;
		switch (update.sessionUpdate) {
			case "agent_message_chunk":
				// Between turns nobody reads it: dropped, not kept.
				if (update.content.type === "text") this.stream?.answerPiece(update.content.text);
				break;
			case "agent_thought_chunk":
				if (update.content.type === "text") this.stream?.thoughtPiece(update.content.text);
				break;
			case "tool_call":
				if (!this.stream?.showsTool(update.toolCallId, true)) break;
				this.emit({ type: "toolStarted", callId: update.toolCallId, tool: update.kind ?? "other", displayName: toolText(update.title), arguments: toolText(JSON.stringify(update.rawInput ?? {})) });
				if (update.status === "completed" || update.status === "failed") this.finishTool(update.toolCallId, update.status, update.content ?? [], update.title);
				break;
			case "tool_call_update":
				if (!this.stream?.showsTool(update.toolCallId, false)) break;
				if (update.status === "completed" || update.status === "failed") this.finishTool(update.toolCallId, update.status, update.content ?? [], update.title ?? "");
				break;
			case "plan":
				this.emit({ type: "plan", entries: boundedPlan(update.entries.map((e) => ({ content: e.content, status: e.status }))) });
				break;
			case "available_commands_update":
				this.commands = update.availableCommands.map((c) => ({ name: c.name, description: c.description }));
				this.emit({ type: "commands", commands: this.commands });
				break;
			case "usage_update":
				this.emit({ type: "agentUsage", used: update.used, size: update.size });
				break;
			case "config_option_update":
				this.config = configOptions(update.configOptions);
				this.emit({ type: "config", options: this.config });
				break;
			case "current_mode_update":
				if (this.modes) this.modes = { ...this.modes, current: update.currentModeId };
				if (this.modes) this.emit({ type: "modes", ...this.modes });
				break;
			default:
				break;
		}
	}

	private finishTool(callId: string, status: string, content: acp.ToolCallContent[], title: string): void {
		const text = content
			.map((c) => (c.type === "content" && c.content.type === "text" ? c.content.text : c.type === "diff" ? `Changed ${c.path}` : ""))
			.filter(Boolean)
			.join("\n");
		const ok = status === "completed";
		const shown = toolText(text);
		const result: ToolResult = { ok, text: shown, durationMs: 0, ...(ok ? {} : { error: { code: "agent_tool_failed", message: shown || toolText(title) } }) };
		this.emit({ type: "toolFinished", callId, tool: "agent", displayName: toolText(title), result, table: null });
	}
}

/** ACP's `auth_required` (-32000). */
function authRequired(error: unknown): boolean {
	return error instanceof Error && (error as Error & { code?: unknown }).code === -32000;
}
