// The model profile in use, as the settings tab and the chat header show it.

import type { ChatSettings, ModelProfile, VaultAgentSettings } from "../core/types";

/** The profile the chat uses (the core keeps `activeProfile` naming one). */
export function activeProfile(chat: ChatSettings): ModelProfile | undefined {
	return chat.profiles.find((p) => p.id === chat.activeProfile) ?? chat.profiles[0];
}

/** The chat settings with the profile in use changed by `patch`. */
export function withActiveProfile(settings: VaultAgentSettings, patch: Partial<ModelProfile>): Partial<VaultAgentSettings> {
	const chat = settings.chat;
	const id = activeProfile(chat)?.id;
	return { chat: { ...chat, profiles: chat.profiles.map((p) => (p.id === id ? { ...p, ...patch } : p)) } };
}
