// The chat's coding agents: their profiles (the core's settings), the one
// MCP listener they reach our tools on (loopback, a free port, a token per
// session), the running sessions, and "Test". Nothing here imports the ACP
// SDK: session.ts does, and is loaded (with the SDK and its schema library)
// by an import() at the first session or Test. Everything started here ends
// on unload.

import type { ConfirmationCoordinator } from "../../cards/confirmations";
import type { CoreHandle, McpActivityEntry } from "../../core/types";
import { McpListener, randomHex } from "../mcp-listener";
import type { AgentFacts } from "./events";
import type { AgentSession } from "./session";
import { AgentStartError } from "./start-error";
import { AGENT_PREFIX, type AgentProfile } from "./profiles";

export interface AgentRunnerHost {
	core: CoreHandle;
	confirmations: ConfirmationCoordinator;
	vaultPath: string | null;
	secret(name: string): string | null;
	pluginVersion: string;
	onActivity(entry: McpActivityEntry): void;
}

export type AgentTest = { ok: true; facts: AgentFacts } | { ok: false; message: string };

export class AgentRunner {
	private listener: McpListener | null = null;
	private port: number | null = null;
	private readonly sessions = new Set<AgentSession>();
	private disposed = false;

	constructor(private readonly host: AgentRunnerHost) {}

	profiles(): AgentProfile[] {
		return this.host.core.codingAgents();
	}

	/** The profile a picker value (`agent:<id>`) names, or null for a model profile. */
	profileFor(value: string | null | undefined): AgentProfile | null {
		if (!value?.startsWith(AGENT_PREFIX)) return null;
		return this.profiles().find((p) => p.id === value.slice(AGENT_PREFIX.length)) ?? null;
	}

	/** Starts the agent, opens a session with our MCP server, and hands it over. */
	async start(profile: AgentProfile, resume: string | null = null): Promise<AgentSession> {
		const session = await this.create(profile);
		try {
			await session.initialize();
			await session.open(resume);
			return session;
		} catch (error) {
			this.end(session);
			throw error;
		}
	}

	/** Settings' "Test": `initialize` only, then the process ends. */
	async test(profile: AgentProfile): Promise<AgentTest> {
		const session = await this.create(profile);
		try {
			return { ok: true, facts: await session.initialize() };
		} catch (error) {
			// Said on the Coding agents page: no pointer to that page.
			const message = error instanceof AgentStartError ? error.onSettingsPage : `${profile.name} did not answer initialize: ${error instanceof Error ? error.message : String(error)}${session.stderrTail.trim() ? `\n${session.stderrTail.trim()}` : ""}`;
			return { ok: false, message };
		} finally {
			this.end(session);
		}
	}

	end(session: AgentSession): void {
		session.dispose();
		this.sessions.delete(session);
	}

	/** Unload: every agent process ends, the listener closes. */
	async dispose(): Promise<void> {
		this.disposed = true;
		for (const session of this.sessions) session.dispose();
		this.sessions.clear();
		await this.listener?.stop();
		this.listener = null;
	}

	/** The settings changed (the mode, the user's servers): each session checks what it was handed. */
	settingsChanged(): void {
		for (const session of this.running()) if (session.settingsChanged()) this.sessions.delete(session);
	}

	/** Sessions running now (tests, the status line). */
	running(): AgentSession[] {
		return [...this.sessions].filter((s) => s.running);
	}

	private async create(profile: AgentProfile): Promise<AgentSession> {
		const host = this.host;
		const vaultPath = host.vaultPath;
		if (!vaultPath) throw new AgentStartError("Coding agents need a vault on this computer's disk.");
		const { AgentSession } = await import("./session");
		// Unloaded while the SDK loaded: nothing may start after dispose().
		if (this.disposed) throw new AgentStartError("Vault Agent was unloaded; enable it again to use coding agents.");
		const session = new AgentSession(profile, {
			core: host.core,
			confirmations: host.confirmations,
			vaultPath,
			mcpUrl: () => this.mcpUrl(),
			freshToken: () => randomHex(32),
			permissionMode: () => host.core.settings().permissionMode,
			secret: (name) => host.secret(name),
			pluginVersion: host.pluginVersion,
		});
		this.sessions.add(session);
		return session;
	}

	private async mcpUrl(): Promise<string | null> {
		if (!this.listener) {
			const listener = new McpListener(this.host.core, this.host.confirmations, (entry) => this.host.onActivity(entry));
			const started = await listener.start(0);
			if (!started.ok) return null;
			this.listener = listener;
			this.port = started.port;
		}
		return `http://127.0.0.1:${this.port}/mcp`;
	}
}
