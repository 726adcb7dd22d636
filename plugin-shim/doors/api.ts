// The public API object other plugins reach at `plugin.api`. It is there
// from our `onload` on, before the core has started (which happens when the
// layout is ready, or at first use): each method waits for that start
// itself, and starts it if it has not begun. It has no way to approve a
// change: a write that needs approval joins the plugin's own queue of cards.
// `callTool` and `waitForConfirmation` never throw: whatever a caller
// passes, the answer is a `ToolResult` (the core refuses values that are not
// bounded plain data).

import type { ConfirmationCoordinator } from "../cards/confirmations";
import type { CoreHandle } from "../core/types";
import type { ToolArguments, ToolDescriptor, ToolResult, VaultAgentApi } from "../vault-agent-api";

/** What the API needs of the plugin: its one start, and the card queue once started. */
export interface ApiHost {
	/** The core once it has started; null after unload or a failed start. */
	started(): Promise<CoreHandle | null>;
	confirmations(): ConfirmationCoordinator | null;
}

const NOT_RUNNING = "Vault Agent is not running: it was unloaded, or it could not start (its notice says why). Enable or reload it, then try again.";

function failure(code: string, message: string): ToolResult {
	return { ok: false, text: message, error: { code, message }, durationMs: 0 };
}

export function createPublicApi(host: ApiHost): VaultAgentApi {
	return Object.freeze({
		version: 2 as const,
		listTools: async (): Promise<ToolDescriptor[]> => {
			const core = await host.started();
			if (!core) throw new Error(NOT_RUNNING);
			return core.listTools();
		},
		callTool: async (id: string, args?: ToolArguments): Promise<ToolResult> => {
			try {
				const core = await host.started();
				const confirmations = host.confirmations();
				if (!core || !confirmations) return failure("internal_error", NOT_RUNNING);
				const result = await core.callTool(id, args ?? null);
				const card = result.pending ? core.confirmationCard(result.pending.id) : null;
				if (card) confirmations.present(card);
				return result;
			} catch (error) {
				// Only a broken (or freed) core gets here; say so instead of throwing at the caller.
				return failure("internal_error", `Vault Agent could not run the call: ${String(error)}. Reload the plugin and try again.`);
			}
		},
		waitForConfirmation: async (id: string): Promise<ToolResult> => {
			if (typeof id !== "string") return failure("confirmation_not_found", "The confirmation id must be the text from `pending.id`.");
			await host.started();
			const confirmations = host.confirmations();
			if (!confirmations) return failure("internal_error", NOT_RUNNING);
			return confirmations.wait(id);
		},
	});
}
