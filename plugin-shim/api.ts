// The public API object other plugins reach at `plugin.api`. It has no way to
// approve a change: a write that needs approval joins the plugin's own queue
// of cards. No call throws: whatever a caller passes, the answer is a
// `ToolResult` (the core refuses values that are not bounded plain data).

import type { ConfirmationCoordinator } from "./confirmations";
import type { CoreHandle } from "./core-types";
import type { ToolArguments, ToolResult, VaultAgentApi } from "./vault-agent-api";

function failure(code: string, message: string): ToolResult {
	return { ok: false, text: message, error: { code, message }, durationMs: 0 };
}

export function createPublicApi(core: CoreHandle, confirmations: ConfirmationCoordinator): VaultAgentApi {
	return Object.freeze({
		version: 1 as const,
		listTools: () => core.listTools(),
		callTool: async (id: string, args?: ToolArguments): Promise<ToolResult> => {
			try {
				const result = await core.callTool(id, args ?? null);
				const card = result.pending ? core.confirmationCard(result.pending.id) : null;
				if (card) confirmations.present(card);
				return result;
			} catch (error) {
				// Only a broken core gets here; say so instead of throwing at the caller.
				return failure("internal_error", `Vault Agent could not run the call: ${String(error)}. Reload the plugin and try again.`);
			}
		},
		waitForConfirmation: (id: string): Promise<ToolResult> => {
			if (typeof id !== "string") return Promise.resolve(failure("confirmation_not_found", "The confirmation id must be the text from `pending.id`."));
			return confirmations.wait(id);
		},
	});
}
