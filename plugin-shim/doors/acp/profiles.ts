// The coding agents the chat can run over the Agent Client Protocol. Which
// agents there are, what each starts and how the user's changes are read and
// saved is the core's (src/settings/agents.rs, data.json `acpAgents`); this
// file names its types for the ACP door.

export type { AgentProfile } from "../../core/types";
export { AGENT_PREFIX } from "../../generated/constants";
