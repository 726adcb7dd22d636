// What the chat view may reach of the plugin: the core once started, the
// stores and doors it draws, and the user's own actions (settings, the
// picker, export). main.ts hands the view this, not the plugin object.

import type { ConfirmationCoordinator } from "../cards/confirmations";
import type { InPlaceReviews } from "../cards/in-place";
import type { UndoController } from "../cards/undo";
import type { Conversation, CoreHandle, ProfileEdit, VaultAgentSettings } from "../core/types";
import type { AgentRunner } from "../doors/acp/runner";
import type { ConversationStore } from "../host/conversation-store";
import type { ToolResult } from "../vault-agent-api";

/** A group of Settings → Vault Agent that the chat opens at. */
export type SettingsGroup = "model" | "safety" | "mcp";

export interface ChatContext {
	/** The core, once it has started; null before and after. */
	readonly core: CoreHandle | null;
	readonly conversations: ConversationStore | null;
	readonly confirmations: ConfirmationCoordinator | null;
	readonly undo: UndoController | null;
	/** The editor's reviews of note edits ("Review in editor" on a card). */
	readonly inPlace: InPlaceReviews | null;
	readonly codingAgents: AgentRunner | null;
	/** The one start of the core (a view restored with the workspace opens before it). */
	started(): Promise<CoreHandle | null>;
	/** A change from the chat header (the user's hand), saved as the core kept it. */
	updateSettings(patch: Partial<VaultAgentSettings>): Promise<VaultAgentSettings>;
	editModelProfiles(edit: ProfileEdit): Promise<VaultAgentSettings>;
	/** The coding agent the picker has chosen (`agent:<id>`), or null for the model profiles. */
	selectedAgent(): string | null;
	selectAgent(value: string | null): Promise<void>;
	exportConversation(conversation: Conversation): Promise<ToolResult>;
	lastConversationId(): string | null;
	rememberConversation(id: string): Promise<void>;
	/** Stop: the model requests and outside calls tagged with `conversation` end (every request, outside call and CLI process without one). */
	abortRequests(conversation?: string): void;
	/** Opens Settings → Vault Agent at a group (the Model group: the profile in use). */
	openSettings(group: SettingsGroup): void;
	/** Brings chat view `viewId` forward (another view asked for the chat it shows); false when it is gone. */
	revealChat(viewId: string): boolean;
}
