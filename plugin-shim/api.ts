// The public API object other plugins reach at `plugin.api`.

import type { CoreHandle } from "./core-types";
import type { ToolArguments, VaultAgentApi } from "./vault-agent-api";

export function createPublicApi(core: CoreHandle): VaultAgentApi {
	return Object.freeze({
		version: 1 as const,
		listTools: () => core.listTools(),
		callTool: async (id: string, args?: ToolArguments) => {
			// Only plain data crosses into the core; `undefined` fields are dropped
			// exactly as JSON would drop them.
			const plain: unknown = args === undefined ? null : JSON.parse(JSON.stringify(args)) as unknown;
			return core.callTool(String(id), plain);
		},
	});
}
