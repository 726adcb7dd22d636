// The Obsidian plugin: wires the Rust core to Obsidian and Node. It registers
// nothing on mobile, where the CLI cannot run.

import { FileSystemAdapter, Platform, Plugin } from "obsidian";
import { createPublicApi } from "./api";
import { ConfirmationCoordinator } from "./confirmations";
import type { CoreHandle, VaultAgentSettings } from "./core-types";
import { VaultAgentSettingTab } from "./settings-tab";
import type { VaultAgentApi } from "./vault-agent-api";

export default class VaultAgentPlugin extends Plugin {
	/** Public API for other plugins (desktop only). */
	api: VaultAgentApi | null = null;
	core: CoreHandle | null = null;
	confirmations: ConfirmationCoordinator | null = null;
	/** Parts of data.json that are not tool settings (kept as they are). */
	private storedExtras: Record<string, unknown> = {};

	async onload(): Promise<void> {
		if (!Platform.isDesktopApp) {
			console.debug("Vault Agent: the Obsidian CLI needs the desktop app; nothing was registered.");
			return;
		}
		const { createNodeHost, nodePlatformFacts, stopAllProcesses } = await import("./node-host");
		const { loadCore } = await import("./core");
		const stored: unknown = await this.loadData();
		if (stored && typeof stored === "object") this.storedExtras = { ...(stored as Record<string, unknown>) };
		const adapter = this.app.vault.adapter;
		const vaultPath = adapter instanceof FileSystemAdapter ? adapter.getBasePath() : null;
		const os = Platform.isMacOS ? "macos" : Platform.isWin ? "windows" : Platform.isLinux ? "linux" : "other";
		const core = await loadCore(createNodeHost(), nodePlatformFacts(os, Platform.isDesktopApp, vaultPath), stored);
		for (const repair of core.startupRepairs()) console.warn(`Vault Agent settings: ${repair}`);
		this.register(stopAllProcesses);
		this.core = core;
		this.confirmations = new ConfirmationCoordinator(core);
		this.api = createPublicApi(this.app, core, this.confirmations);
		this.addSettingTab(new VaultAgentSettingTab(this.app, this));
	}

	onunload(): void {
		this.api = null;
		this.core = null;
		this.confirmations = null;
	}

	/** Applies a change from the settings tab and saves what the core accepted. */
	async updateSettings(patch: Partial<VaultAgentSettings>): Promise<VaultAgentSettings> {
		const core = this.core;
		if (!core) throw new Error("Vault Agent is not loaded.");
		const { settings, repairs } = core.setSettings({ ...core.settings(), ...patch });
		for (const repair of repairs) console.warn(`Vault Agent settings: ${repair}`);
		this.storedExtras = { ...this.storedExtras, ...settings };
		await this.saveData(this.storedExtras);
		return settings;
	}
}
