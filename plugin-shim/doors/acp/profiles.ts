// The coding agents the chat can run over the Agent Client Protocol: what to
// start for each, and what to tell the user when it is not installed. The
// user may change the command of any of them; the custom one starts empty.

export interface AgentProfile {
	/** `agent:<id>` in the chat's model picker. */
	id: string;
	name: string;
	command: string;
	args: string[];
	/** Environment names → secret names in Obsidian's secret storage (API keys). */
	envSecrets: Record<string, string>;
	/** What to run to install it, shown when the command is not found. */
	install: string;
}

export const BUILT_IN_AGENTS: readonly AgentProfile[] = [
	{
		id: "claude-code",
		name: "Claude Code",
		command: "claude-agent-acp",
		args: [],
		envSecrets: { ANTHROPIC_API_KEY: "" },
		install: "npm install -g @zed-industries/claude-agent-acp",
	},
	{
		id: "codex",
		name: "Codex",
		command: "codex-acp",
		args: [],
		envSecrets: { OPENAI_API_KEY: "" },
		install: "npm install -g @zed-industries/codex-acp",
	},
	{
		id: "gemini",
		name: "Gemini CLI",
		command: "gemini",
		args: ["--experimental-acp"],
		envSecrets: { GEMINI_API_KEY: "" },
		install: "npm install -g @google/gemini-cli",
	},
	{ id: "custom", name: "Custom agent", command: "", args: [], envSecrets: {}, install: "" },
];

/** The picker's value for an agent profile. */
export const AGENT_PREFIX = "agent:";

/**
 * The profiles with the user's changes (kept in data.json under `acpAgents`):
 * only known ids, and only the fields a user sets.
 */
export function agentProfiles(stored: unknown): AgentProfile[] {
	const changes = stored && typeof stored === "object" ? (stored as Record<string, unknown>) : {};
	return BUILT_IN_AGENTS.map((profile) => {
		const change = changes[profile.id];
		if (!change || typeof change !== "object") return { ...profile };
		const c = change as Partial<AgentProfile>;
		return {
			...profile,
			command: typeof c.command === "string" ? c.command.trim() : profile.command,
			args: Array.isArray(c.args) ? c.args.filter((a): a is string => typeof a === "string") : profile.args,
			envSecrets: c.envSecrets && typeof c.envSecrets === "object" ? { ...(c.envSecrets) } : profile.envSecrets,
		};
	});
}
