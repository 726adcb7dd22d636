// What one chat view may reach: the plugin's ChatContext, plus what is this
// view's own when several chats are open (its id, the profile or coding
// agent picked in its header). The core keeps which view shows which chat
// and each view's pick (src/doors/chat/views.rs); this only names the view.

import { AGENT_PREFIX } from "../generated/constants";
import type { ChatContext } from "./chat-context";

export interface ViewContext extends ChatContext {
	/** This view's id, as the core knows it. */
	readonly viewId: string;
	/** The user picked `profile` (a model profile's id, or `agent:<id>`) in this view's header. */
	pick(profile: string): void;
	/** The model profile picked in this view, or null (the saved default answers). */
	pickedProfile(): string | null;
}

/** `ctx` as view `viewId` sees it: the coding agent is the one its header picked. */
export function viewContext(ctx: ChatContext, viewId: string): ViewContext {
	const picked = () => ctx.core?.chatPicked(viewId) ?? null;
	const view = Object.create(ctx) as ViewContext;
	return Object.assign(view, {
		viewId,
		pick: (profile: string) => ctx.core?.chatPick(viewId, profile),
		pickedProfile: () => {
			const p = picked();
			return p && !p.startsWith(AGENT_PREFIX) ? p : null;
		},
		selectedAgent: () => {
			const p = picked();
			if (p === null) return ctx.selectedAgent();
			return p.startsWith(AGENT_PREFIX) ? p : null;
		},
	});
}
