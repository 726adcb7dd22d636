// The Obsidian plugin: wires the Rust core to Obsidian and Node. It registers
// nothing on mobile, where the CLI cannot run.
//
// Obsidian evaluates main.js and runs every plugin's onload before it shows
// the vault, so this file imports (as values) only what onload registers:
// the public API, the settings tab and the chat view's small shell. The rest
// is behind import()s, which esbuild turns into modules evaluated on first
// use inside the one main.js: the core and its host at the core's start
// (layout ready), the chat when its view opens, the ACP SDK with its schema
// library at a coding agent's first session.
// Over 400 lines, on purpose: Obsidian's one Plugin subclass, whose methods
// are the plugin's lifecycle (onload, the core's start, onunload) over the
// fields they all share (the core, the doors, the abort hooks); what each
// part does lives in its own module behind an import(), and splitting the
// class would scatter that shared state across files.

import { FileSystemAdapter, getLanguage, Notice, Platform, Plugin, type WorkspaceLeaf } from "obsidian";
import type { ConfirmationCoordinator } from "./cards/confirmations";
import { InPlaceReviews } from "./cards/in-place";
import type { UndoController } from "./cards/undo";
import type { ChatContext, SettingsGroup } from "./chat/chat-context";
import { type PromptCommands, registerEditorActions } from "./chat/editor-actions";
import { CHAT_VIEW_TYPE, ChatView } from "./chat/view";
import type { CodingAgentEdit, Conversation, CoreHandle, ProfileEdit, VaultAgentSettings } from "./core/types";
import type { AgentRunner } from "./doors/acp/runner";
import { PaletteSearchModal } from "./doors/palette-search";
import { createPublicApi } from "./doors/api";
import type { AgentDoors } from "./doors/mcp";
import type { PromptScheduler } from "./doors/scheduled-prompts";
import type { ConversationStore } from "./host/conversation-store";
import type { SearchIndexHandle } from "./host/search-index";
import type { SettingsContext } from "./settings/settings-context";
import { ModelCheckModal } from "./settings/model-check";
import { VaultAgentSettingTab } from "./settings/tab";
import type { ToolResult, VaultAgentApi } from "./vault-agent-api";

export default class VaultAgentPlugin extends Plugin {
	/** Public API for other plugins: from onload on (desktop only); its methods wait for the core's start. */
	api: VaultAgentApi | null = null;
	core: CoreHandle | null = null;
	confirmations: ConfirmationCoordinator | null = null;
	conversations: ConversationStore | null = null;
	/** The user's undo (buttons and commands); not part of `api`. */
	undo: UndoController | null = null;
	/** Note edits' cards reviewed in the editor ("Review in editor"). */
	inPlace: InPlaceReviews | null = null;
	/** The chat view the user was in last ("Open chat" shows it). */
	private lastChatLeaf: WorkspaceLeaf | null = null;
	/** The MCP server and the plugin's CLI commands. */
	agents: AgentDoors | null = null;
	/** Coding agents (Claude Code, Codex, Gemini CLI…) run in the chat over ACP. */
	codingAgents: AgentRunner | null = null;
	/** Parts of data.json that are not tool settings (kept as they are). */
	private storedExtras: Record<string, unknown> = {};
	private abortHttp: ((tag?: string) => void) | null = null;
	private abortProcesses: (() => void) | null = null;
	private abortOutsideCalls: ((tag?: string) => void) | null = null;
	/** Ends one of the user's MCP servers (switched off, Restart); the next use starts it again. */
	stopOutsideServer: ((id: string) => Promise<void>) | null = null;
	private runningOutsideServers: (() => string[]) | null = null;

	/** The start of the core (once): at layout ready, or at first use if that comes first. */
	private starting: Promise<CoreHandle | null> | null = null;
	/** data.json as onload read it, for the core's start. */
	private stored: unknown = null;
	private unloaded = false;
	/** The palette commands of the saved prompts the settings chose. */
	private promptCommands: PromptCommands | null = null;
	/** Runs the saved prompts that have a `schedule`, while Obsidian runs. */
	scheduler: PromptScheduler | null = null;
	/** The ranked search's index (built in the core after the start). */
	searchIndex: SearchIndexHandle | null = null;

	/**
	 * Only registers and reads the settings: every plugin's onload delays
	 * Obsidian's start, and compiling the wasm core takes milliseconds. The
	 * core starts when the layout is ready, or earlier when something needs it.
	 */
	async onload(): Promise<void> {
		if (!Platform.isDesktopApp) {
			console.debug("Vault Agent: the Obsidian CLI needs the desktop app; nothing was registered.");
			return;
		}
		// Before anything awaits: another plugin may look for it in its own onload or onLayoutReady.
		this.api = createPublicApi({ started: () => this.started(), confirmations: () => this.confirmations });
		const stored: unknown = await this.loadData();
		this.stored = stored;
		if (stored && typeof stored === "object") this.storedExtras = { ...(stored as Record<string, unknown>) };
		// Any change Obsidian sees (the agent's, the user's, a sync) makes kept read answers stale.
		const forgetReads = () => this.core?.forgetReads();
		this.registerEvent(this.app.vault.on("create", forgetReads));
		this.registerEvent(this.app.vault.on("modify", forgetReads));
		this.registerEvent(this.app.vault.on("delete", forgetReads));
		this.registerEvent(this.app.vault.on("rename", forgetReads));
		this.registerEvent(this.app.metadataCache.on("changed", forgetReads));
		this.registerEvent(this.app.metadataCache.on("resolved", forgetReads));
		this.addSettingTab(new VaultAgentSettingTab(this, this.settingsContext()));
		const chat = this.chatContext();
		this.registerView(CHAT_VIEW_TYPE, (leaf) => new ChatView(leaf, chat));
		// Page previews of [[links]] in the chat, like those in a note.
		this.registerHoverLinkSource(CHAT_VIEW_TYPE, { display: "Vault Agent chat", defaultMod: true });
		this.addRibbonIcon("bot", "Open Vault Agent chat", () => this.openChat());
		this.addCommand({ id: "open-chat", name: "Open chat", callback: () => this.openChat() });
		this.addCommand({
			id: "new-chat",
			name: "New chat",
			callback: async () => {
				const view = await this.openChat();
				view?.newChat();
			},
		});
		// Another chat beside the open ones (each view keeps its own chat, model and Stop).
		this.addCommand({ id: "new-chat-tab", name: "New chat in a new tab", callback: () => this.openChatTab() });
		// "Open chat" and the editor's actions go to the chat view used last.
		this.registerEvent(
			this.app.workspace.on("active-leaf-change", (leaf) => {
				if (leaf?.view instanceof ChatView) this.lastChatLeaf = leaf;
			}),
		);
		// No default hotkey: a check takes a minute and asks the model server.
		this.addCommand({
			id: "check-model",
			name: "Check this model",
			callback: async () => {
				await this.started();
				new ModelCheckModal(this.app, this).open();
			},
		});
		this.addCommand({ id: "search-vault", name: "Search the vault", callback: () => new PaletteSearchModal(this.app, () => this.started()).open() });
		// Vault hygiene, shown in the chat (computed in the core, like the model's calls).
		this.addCommand({ id: "find-duplicate-titles", name: "Find duplicate note titles", callback: () => this.report({ command: "duplicates" }) });
		this.addCommand({ id: "find-empty-notes", name: "Find empty notes", callback: () => this.report({ command: "empty" }) });
		this.addCommand({ id: "find-missing-links", name: "Find links to missing notes", callback: () => this.report({ command: "missing" }) });
		this.addCommand({
			id: "suggest-backlinks",
			name: "Suggest backlinks for the current note",
			callback: async () => {
				const file = this.app.workspace.getActiveFile();
				if (!file || file.extension !== "md") {
					new Notice("Open a note first: backlinks are suggested for the note you are looking at.");
					return;
				}
				await this.report({ command: "suggest", path: file.path });
			},
		});
		this.addCommand({
			id: "undo-last-change",
			name: "Undo the agent's last change",
			callback: async () => {
				await this.started();
				await this.undo?.undoLast();
			},
		});
		this.addCommand({
			id: "undo-last-answer",
			name: "Undo this answer's changes",
			callback: async () => {
				await this.started();
				await this.undo?.undoLastTurn();
			},
		});
		this.promptCommands = registerEditorActions(this, {
			openChat: () => this.openChat(),
			savedPrompts: async () => (await (await this.started())?.savedPrompts())?.prompts ?? [],
		});
		// A note edit's card is reviewed in the editor too: a second view of the same card.
		const inPlace = (this.inPlace = new InPlaceReviews(this.app, () => this.core));
		this.registerEditorExtension(inPlace.extension());
		this.register(() => inPlace.dispose());
		this.app.workspace.onLayoutReady(() => void this.started());
	}

	/** The saved prompts' palette commands, as the settings and the prompts folder hold them now. */
	private async syncPromptCommands(): Promise<void> {
		const core = this.core;
		if (core) this.promptCommands?.sync((await core.savedPrompts()).prompts, core.settings().chat.promptCommands);
	}

	/**
	 * The core, once it has started: the one promise everything that needs
	 * the core waits on. `null` on mobile, after unload, or when it failed to
	 * start (the console and a notice say why).
	 */
	started(): Promise<CoreHandle | null> {
		if (!Platform.isDesktopApp || this.unloaded) return Promise.resolve(this.core);
		this.starting ??= this.start().catch((error: unknown) => {
			console.error("Vault Agent could not start", error);
			new Notice(`Vault Agent could not start: ${String(error)}. Reload the plugin; if it stays, report this message.`);
			return null;
		});
		return this.starting;
	}

	private async start(): Promise<CoreHandle | null> {
		const [
			{ createNodeHost, nodePlatformFacts, stopAllProcesses, abortHttp, abortProcesses, abortOutsideCalls, runningServers, stopServer },
			{ loadCore },
			{ JournalStore },
			{ VectorStore },
			{ vaultFunctions },
			{ ConfirmationCoordinator },
			{ ConversationStore },
			{ UndoController },
			{ AgentDoors },
			{ AgentRunner },
			{ startSearchIndex },
			{ ChatImages },
			{ pdfText },
			{ pageText },
			{ PromptScheduler: Scheduler, SCHEDULE_CHECK_MS },
		] = await Promise.all([
			import("./host/node-host"),
			import("./core/load"),
			import("./host/journal-store"),
			import("./host/vector-store"),
			import("./host/vault"),
			import("./cards/confirmations"),
			import("./host/conversation-store"),
			import("./cards/undo"),
			import("./doors/mcp"),
			import("./doors/acp/runner"),
			import("./host/search-index"),
			import("./host/images"),
			import("./host/pdf"),
			import("./host/web-page"),
			import("./doors/scheduled-prompts"),
		]);
		const adapter = this.app.vault.adapter;
		const vaultPath = adapter instanceof FileSystemAdapter ? adapter.getBasePath() : null;
		const os = Platform.isMacOS ? "macos" : Platform.isWin ? "windows" : Platform.isLinux ? "linux" : "other";
		const pluginDir = this.manifest.dir ?? `${this.app.vault.configDir}/plugins/${this.manifest.id}`;
		const journal = new JournalStore(adapter, pluginDir);
		const vectors = new VectorStore(adapter, pluginDir);
		const images = new ChatImages(this.app, pluginDir, () => this.core);
		const host = {
			...createNodeHost((name) => this.app.secretStorage.getSecret(name)),
			...vaultFunctions(this.app),
			saveJournal: (json: string, dropped: number) => journal.save(json, dropped),
			loadVectors: () => vectors.load(),
			saveVectors: (bytes: Uint8Array) => vectors.save(bytes),
			imageData: images.imageData,
			pdfText: pdfText(this.app),
			pageText,
		};
		// The app's language is the search's default language (the core decides what it means).
		const facts = nodePlatformFacts(os, Platform.isDesktopApp, vaultPath, this.app.vault.configDir, getLanguage());
		const core = await loadCore(host, facts, this.stored);
		const journalText = await journal.load();
		// Unloaded while the core compiled: nothing of it may stay.
		if (this.unloaded) {
			core.free();
			return null;
		}
		for (const repair of core.startupRepairs()) console.warn(`Vault Agent settings: ${repair}`);
		for (const repair of core.loadJournal(journalText)) console.warn(`Vault Agent undo journal: ${repair}`);
		this.register(stopAllProcesses);
		this.abortHttp = abortHttp;
		this.abortProcesses = () => {
			abortProcesses();
			abortOutsideCalls();
		};
		this.abortOutsideCalls = abortOutsideCalls;
		this.stopOutsideServer = stopServer;
		this.runningOutsideServers = runningServers;
		this.core = core;
		const confirmations = new ConfirmationCoordinator(this.app, core);
		this.register(() => confirmations.dispose());
		this.confirmations = confirmations;
		this.conversations = new ConversationStore(adapter, pluginDir, core, images);
		this.undo = new UndoController(this.app, core, () => this.refreshUndo());
		// Not awaited: the index builds in the background, a batch at a time.
		this.searchIndex = startSearchIndex(this, core, abortHttp);
		const agents = new AgentDoors({
			app: this.app,
			core,
			confirmations,
			adapter,
			pluginDir,
			registerCliHandler: typeof this.registerCliHandler === "function" ? this.registerCliHandler.bind(this) : undefined,
			modelCheck: this,
		});
		this.agents = agents;
		this.register(() => void agents.dispose());
		await agents.load();
		const codingAgents = new AgentRunner({
			core,
			confirmations,
			vaultPath,
			secret: (name) => this.app.secretStorage.getSecret(name),
			pluginVersion: this.manifest.version,
			onActivity: (entry) => agents.recordActivity(entry),
		});
		this.codingAgents = codingAgents;
		this.register(() => void codingAgents.dispose());
		if (this.unloaded) {
			// Unloaded while the MCP server started: onunload freed the core.
			await Promise.all([agents.dispose(), codingAgents.dispose()]);
			return null;
		}
		void this.syncPromptCommands();
		// Saved prompts with a `schedule` run by themselves while Obsidian runs.
		const scheduler = (this.scheduler = new Scheduler({
			core,
			confirmations,
			conversations: this.conversations,
			lastSlots: () => this.storedExtras.scheduledRuns,
			saveLastSlots: (scheduledRuns) => this.keepExtras({ scheduledRuns }),
		}));
		this.registerInterval(window.setInterval(() => void scheduler.check(), SCHEDULE_CHECK_MS));
		void scheduler.check();
		return core;
	}

	onunload(): void {
		// Processes, requests, the MCP listener, timers and events end through
		// what onload registered; the core's memory goes back here. Work still
		// in flight keeps what it holds until it ends (the core is shared, Rc).
		const core = this.core;
		this.unloaded = true;
		this.agents = null;
		this.codingAgents = null;
		this.api = null;
		this.core = null;
		core?.free();
		this.confirmations = null;
		this.undo = null;
		this.scheduler = null;
	}

	/** What the settings tab may reach: the core, the doors it shows, the user's changes. */
	private settingsContext(): SettingsContext {
		const plugin = () => this;
		return {
			app: this.app,
			get core() {
				return plugin().core;
			},
			get agents() {
				return plugin().agents;
			},
			get codingAgents() {
				return plugin().codingAgents;
			},
			get search() {
				return plugin().searchIndex;
			},
			started: () => this.started(),
			updateSettings: (patch) => this.updateSettings(patch),
			editModelProfiles: (edit) => this.editModelProfiles(edit),
			saveAgentProfile: (id, change) => this.saveAgentProfile(id, change),
			stopOutsideServer: (id) => this.stopOutsideServer?.(id) ?? Promise.resolve(),
			abortRequests: (tag) => this.abortRequests(tag),
		};
	}

	/** What the chat view may reach: the core, its stores and doors, the user's actions. */
	private chatContext(): ChatContext {
		const plugin = () => this;
		return {
			get core() {
				return plugin().core;
			},
			get conversations() {
				return plugin().conversations;
			},
			get confirmations() {
				return plugin().confirmations;
			},
			get undo() {
				return plugin().undo;
			},
			get inPlace() {
				return plugin().inPlace;
			},
			get codingAgents() {
				return plugin().codingAgents;
			},
			started: () => this.started(),
			updateSettings: (patch) => this.updateSettings(patch),
			editModelProfiles: (edit) => this.editModelProfiles(edit),
			selectedAgent: () => this.selectedAgent(),
			selectAgent: (value) => this.selectAgent(value),
			exportConversation: (conversation) => this.exportConversation(conversation),
			lastConversationId: () => this.lastConversationId(),
			rememberConversation: (id) => this.rememberConversation(id),
			abortRequests: (conversation) => this.abortRequests(conversation),
			revealChat: (viewId) => this.revealChat(viewId),
			openSettings: (group) => this.openSettings(group),
		};
	}

	/** Settings → Vault Agent, scrolled to `group` (Obsidian's settings window has no public API). */
	openSettings(group: SettingsGroup): void {
		const setting = (this.app as unknown as { setting?: { open(): void; openTabById(id: string): unknown } }).setting;
		if (!setting) return;
		setting.open();
		setting.openTabById(this.manifest.id);
		window.setTimeout(() => {
			const cls = { model: "vault-agent-model-settings", safety: "vault-agent-safety-settings", mcp: "vault-agent-mcp-servers" }[group];
			const el = activeDocument.querySelector(`.vault-agent-settings .${cls}`);
			el?.scrollIntoView({ block: "start" });
		}, 0);
	}

	/** Runs a hygiene check and shows its report in the chat. */
	async report(args: Record<string, unknown>): Promise<void> {
		await this.started();
		const view = await this.openChat();
		await view?.showReport("obsidianHygiene", args);
	}

	/** Every chat view repaints its undo buttons (after an undo from anywhere). */
	refreshUndo(): void {
		for (const leaf of this.app.workspace.getLeavesOfType(CHAT_VIEW_TYPE)) {
			if (leaf.view instanceof ChatView) leaf.view.refreshUndo();
		}
	}

	/** Opens (or reveals) the chat: the view used last, else the first, else a new one in the right sidebar. */
	async openChat(): Promise<ChatView | null> {
		const { workspace } = this.app;
		const open = workspace.getLeavesOfType(CHAT_VIEW_TYPE);
		let leaf = open.find((l) => l === this.lastChatLeaf) ?? open[0] ?? null;
		if (!leaf) {
			leaf = workspace.getRightLeaf(false);
			if (!leaf) return null;
			await leaf.setViewState({ type: CHAT_VIEW_TYPE, active: true });
		}
		await workspace.revealLeaf(leaf);
		return leaf.view instanceof ChatView ? leaf.view : null;
	}

	/** "New chat in a new tab": another chat view in the main area, with a new chat. */
	async openChatTab(): Promise<ChatView | null> {
		const leaf = this.app.workspace.getLeaf("tab");
		await leaf.setViewState({ type: CHAT_VIEW_TYPE, active: true });
		await this.app.workspace.revealLeaf(leaf);
		if (!(leaf.view instanceof ChatView)) return null;
		this.lastChatLeaf = leaf;
		leaf.view.newChat();
		return leaf.view;
	}

	/** Brings forward the chat view `viewId` (the one that shows a chat another view asked for). */
	revealChat(viewId: string): boolean {
		const leaf = this.app.workspace.getLeavesOfType(CHAT_VIEW_TYPE).find((l) => l.view instanceof ChatView && l.view.viewId === viewId);
		if (!leaf) return false;
		this.lastChatLeaf = leaf;
		void this.app.workspace.revealLeaf(leaf);
		this.app.workspace.setActiveLeaf(leaf, { focus: true });
		return true;
	}

	/**
	 * Applies a change from the settings tab or the chat header (the user's
	 * hand, never the model's or the public API's) and saves what the core accepted.
	 */
	async updateSettings(patch: Partial<VaultAgentSettings>): Promise<VaultAgentSettings> {
		const core = this.core;
		if (!core) throw new Error("Vault Agent is not loaded.");
		const { settings, repairs } = core.setSettings({ ...core.settings(), ...patch });
		for (const repair of repairs) console.warn(`Vault Agent settings: ${repair}`);
		// An older data.json's switch became `permissionMode` in the core; it is
		// not saved again, so it can never be read back next to the mode.
		const { allowVaultChanges: _migrated, ...extras } = this.storedExtras;
		this.storedExtras = { ...extras, ...settings };
		await this.saveData(this.storedExtras);
		if (patch.mcp) await this.agents?.apply();
		// A server these settings switch off or remove stops now, whoever changed them.
		for (const id of core.outsideServersToStop(this.runningOutsideServers?.() ?? [])) await this.stopOutsideServer?.(id);
		// A coding agent that was handed a server the new settings would not hand is ended.
		this.codingAgents?.settingsChanged();
		if (patch.chat) void this.syncPromptCommands();
		for (const leaf of this.app.workspace.getLeavesOfType(CHAT_VIEW_TYPE)) {
			if (leaf.view instanceof ChatView) leaf.view.refreshHeader();
		}
		return settings;
	}

	/** Adds, copies, renames, deletes or picks a model profile, as the core decides. */
	async editModelProfiles(edit: ProfileEdit): Promise<VaultAgentSettings> {
		const core = this.core;
		if (!core) throw new Error("Vault Agent is not loaded.");
		return this.updateSettings({ chat: core.editModelProfiles(edit) });
	}

	/** The user's change to a coding agent's profile (command, arguments, key names). */
	async saveAgentProfile(id: string, change: { command?: string; args?: string[]; envSecrets?: Record<string, string> }): Promise<void> {
		await this.editCodingAgents({ action: "change", id, ...change });
	}

	/** The coding agent the chat's picker has chosen (`agent:<id>`), or null for the model profiles. */
	selectedAgent(): string | null {
		return this.core?.settings().acpAgents.selected ?? null;
	}

	async selectAgent(value: string | null): Promise<void> {
		await this.editCodingAgents({ action: "select", value });
	}

	private async editCodingAgents(edit: CodingAgentEdit): Promise<void> {
		const core = this.core;
		if (!core) throw new Error("Vault Agent is not loaded.");
		await this.updateSettings({ acpAgents: core.editCodingAgents(edit) });
	}

	/**
	 * "Export to note": the conversation as Markdown with frontmatter, through
	 * our own create (a card in the ask modes, then the journal).
	 */
	async exportConversation(conversation: Conversation): Promise<ToolResult> {
		const core = this.core;
		if (!core) throw new Error("Vault Agent is not loaded.");
		const stamp = new Date().toISOString().slice(0, 16).replace("T", " ").replace(":", "-");
		const name = `${(conversation.title || "Chat").replace(/[\\/:*?"<>|#^[\]]/g, " ").trim().slice(0, 60)} ${stamp}`;
		const { conversationMarkdown } = await import("./chat/export");
		let result = await core.callToolThrough("obsidianEdit", { command: "create", name, content: conversationMarkdown(conversation, conversation.agent?.name ?? null) }, "Export to note", null);
		if (result.pending && this.confirmations) {
			const card = core.confirmationCard(result.pending.id);
			if (card) this.confirmations.present(card);
			result = await this.confirmations.wait(result.pending.id);
		}
		if (!result.ok && !result.pending) new Notice(`Vault Agent: the chat was not exported (${result.error?.message ?? result.text}).`);
		return result;
	}

	lastConversationId(): string | null {
		const id = this.storedExtras.lastConversation;
		return typeof id === "string" ? id : null;
	}

	async rememberConversation(id: string): Promise<void> {
		if (this.storedExtras.lastConversation === id) return;
		await this.keepExtras({ lastConversation: id });
	}

	/** Saves parts of data.json that are not settings (the last chat, the scheduled prompts' last slots). */
	private async keepExtras(extras: Record<string, unknown>): Promise<void> {
		this.storedExtras = { ...this.storedExtras, ...extras };
		await this.saveData(this.storedExtras);
	}

	/**
	 * Stop: the model requests of chat `conversation` end (its tool
	 * processes are ended by the core's chatStop); without one, every model
	 * request and every CLI process (with its group) in flight.
	 */
	abortRequests(conversation?: string): void {
		this.abortHttp?.(conversation);
		// Other chats still answer: only this one's outside calls go (its tool processes end with its turn).
		if (conversation === undefined) this.abortProcesses?.();
		else this.abortOutsideCalls?.(conversation);
	}
}
