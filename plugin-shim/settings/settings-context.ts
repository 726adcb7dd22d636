// What the settings tab may reach of the plugin: the core once started, the
// doors whose state it shows, and the user's changes, which the core
// normalises before they are saved. main.ts hands the tab this, not the plugin.

import type { App } from "obsidian";
import type { CoreHandle, ProfileEdit, VaultAgentSettings } from "../core/types";
import type { AgentRunner } from "../doors/acp/runner";
import type { AgentDoors } from "../doors/mcp";
import type { SearchIndexHandle } from "../host/search-index";

export interface SettingsContext {
	readonly app: App;
	/** The core, once it has started; null before and after. */
	readonly core: CoreHandle | null;
	/** The MCP server's door (its state, token and activity). */
	readonly agents: AgentDoors | null;
	readonly codingAgents: AgentRunner | null;
	/** The ranked search's index, for search by meaning's runs; null before the core starts. */
	readonly search: SearchIndexHandle | null;
	started(): Promise<CoreHandle | null>;
	/** Applies a change (the user's hand) and saves what the core accepted. */
	updateSettings(patch: Partial<VaultAgentSettings>): Promise<VaultAgentSettings>;
	editModelProfiles(edit: ProfileEdit): Promise<VaultAgentSettings>;
	/** A coding agent's command, arguments or key names, as the user typed them. */
	saveAgentProfile(id: string, change: { command?: string; args?: string[]; envSecrets?: Record<string, string> }): Promise<void>;
	/** Ends one of the user's MCP servers (switched off, Restart, removed); the next use starts it again. */
	stopOutsideServer(id: string): Promise<void>;
	/** Ends the model requests in flight tagged `tag` ("Check this model"'s Stop). */
	abortRequests(tag?: string): void;
}
