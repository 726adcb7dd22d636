// The public API object other plugins reach at `plugin.api`. It has no way to
// approve a change: a write that needs approval opens the plugin's own card.

import type { App } from "obsidian";
import { ConfirmationModal, type ConfirmationCoordinator } from "./confirmations";
import type { CoreHandle } from "./core-types";
import type { ToolArguments, VaultAgentApi } from "./vault-agent-api";

export function createPublicApi(app: App, core: CoreHandle, confirmations: ConfirmationCoordinator): VaultAgentApi {
	return Object.freeze({
		version: 1 as const,
		listTools: () => core.listTools(),
		callTool: async (id: string, args?: ToolArguments) => {
			// Only plain data crosses into the core; `undefined` fields are dropped
			// exactly as JSON would drop them.
			const plain: unknown = args === undefined ? null : JSON.parse(JSON.stringify(args)) as unknown;
			const result = await core.callTool(String(id), plain);
			const card = result.pending ? core.confirmationCard(result.pending.id) : null;
			if (card) new ConfirmationModal(app, confirmations, core, card).open();
			return result;
		},
		waitForConfirmation: (id: string) => confirmations.wait(String(id)),
	});
}
