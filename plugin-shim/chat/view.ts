// The chat sidebar. It renders what the core's agent loop reports (streamed
// text, tool blocks, confirmation cards, errors) and sends the user's words
// and clicks back; the loop and every decision live in the core.

import { ButtonComponent, DropdownComponent, ItemView, Keymap, MarkdownRenderer, setIcon, type WorkspaceLeaf } from "obsidian";
import type { AgentEvent, AgentSession } from "../doors/acp/session";
import { AttachmentBar, NoteSuggest } from "./attachments";
import { renderAgentConfig, renderPermission, renderPlan } from "./agent-blocks";
import { SlashCommandSuggest } from "./slash-commands";
import { HistoryPanel } from "./history";
import { StreamRenderer } from "./stream-render";
import { renderUserMessage } from "./user-message";
import { renderTable, renderToolText } from "./big-output";
import { reasoningBlock, usageLine } from "./answer-extras";
import { commandLine, renderConfirmationCard } from "../cards/confirmation-card";
import type { Attachment, ChatEvent, ChatMessage, ConfirmationCard, Conversation, PermissionMode, Table, TurnResult, Usage } from "../core/types";
import type VaultAgentPlugin from "../main";
import { asPermissionMode, PERMISSION_MODES, permissionModeText } from "../settings/permission-modes";
import { activeProfile, ProfileSwitcher } from "./profile-switcher";
import type { ToolResult } from "../vault-agent-api";

export const CHAT_VIEW_TYPE = "vault-agent-chat";

/** Tool errors the user (not the model) has to act on: shown as a banner too. */
const USER_FIXES = new Set(["writes_disabled", "cli_not_found", "app_not_running", "vault_not_found", "tool_disabled"]);

export class ChatView extends ItemView {
	private conversation: Conversation | null = null;
	private messagesEl!: HTMLElement;
	private bannerEl!: HTMLElement;
	private inputEl!: HTMLTextAreaElement;
	private sendButton!: ButtonComponent;
	private stopButton!: ButtonComponent;
	private profileSwitcher!: ProfileSwitcher;
	private modeEl!: HTMLElement;
	private modeIcon!: HTMLElement;
	private modeDropdown!: DropdownComponent;
	private history!: HistoryPanel;
	private attachments!: AttachmentBar;
	private suggest!: NoteSuggest;
	private running = false;
	private opened = false;
	/** The assistant message being streamed, and its Markdown renders. */
	private streamEl: HTMLElement | null = null;
	private stream: StreamRenderer | null = null;
	/** The folded reasoning of the model round being streamed. */
	private reasoningEl: HTMLElement | null = null;
	private toolBlocks = new Map<string, HTMLElement>();
	/** Answers that changed the vault since their "Undo this answer's changes" was drawn. */
	private changedTurns = new Set<string>();
	private reports = 0;
	/** The coding agent (ACP) this chat runs, when the picker chose one. */
	private agentSession: AgentSession | null = null;
	/** Restart's start, which a Send right after it waits for. */
	private agentStarting: Promise<void> | null = null;
	private agentModeDropdown!: DropdownComponent;
	/** The agent's session settings (its model…), one dropdown each. */
	private agentConfigEl!: HTMLElement;
	private slashSuggest!: SlashCommandSuggest;

	constructor(
		leaf: WorkspaceLeaf,
		private readonly plugin: VaultAgentPlugin,
	) {
		super(leaf);
	}

	getViewType(): string {
		return CHAT_VIEW_TYPE;
	}

	getDisplayText(): string {
		return "Vault Agent";
	}

	getIcon(): string {
		return "bot";
	}

	async onOpen(): Promise<void> {
		const root = this.contentEl;
		root.empty();
		root.addClass("vault-agent-chat");
		const header = root.createDiv({ cls: "vault-agent-chat-header" });
		// The permission mode, where the user sees it while chatting. Only this
		// dropdown (a user's click) and the settings tab change it.
		this.modeEl = header.createDiv({ cls: "vault-agent-mode" });
		this.modeIcon = this.modeEl.createSpan({ cls: "vault-agent-mode-icon" });
		this.modeDropdown = new DropdownComponent(this.modeEl);
		this.modeDropdown.selectEl.addClass("vault-agent-permission-mode");
		this.modeDropdown.selectEl.setAttribute("aria-label", "Vault changes");
		for (const m of PERMISSION_MODES) this.modeDropdown.addOption(m.mode, m.label);
		this.modeDropdown.onChange(async (value) => {
			const permissionMode = asPermissionMode(value);
			if (permissionMode) await this.plugin.updateSettings({ permissionMode });
		});
		this.profileSwitcher = new ProfileSwitcher(header, this.plugin, () => this.agentChanged());
		// The modes a coding agent reports (e.g. Ask, Code), while one runs.
		this.agentModeDropdown = new DropdownComponent(header);
		this.agentModeDropdown.selectEl.addClass("vault-agent-agent-mode");
		this.agentModeDropdown.selectEl.setAttribute("aria-label", "Agent mode");
		this.agentModeDropdown.selectEl.hide();
		this.agentModeDropdown.onChange((mode) => void this.agentSession?.setMode(mode));
		this.agentConfigEl = header.createDiv({ cls: "vault-agent-agent-config" });
		new ButtonComponent(header)
			.setIcon("file-output")
			.setTooltip("Export to note")
			.onClick(() => {
				if (this.conversation && this.conversation.messages.length > 0) void this.plugin.exportConversation(this.conversation);
			})
			.buttonEl.addClass("vault-agent-export");
		new ButtonComponent(header)
			.setIcon("history")
			.setTooltip("Chat history")
			.onClick(() => this.history.toggle())
			.buttonEl.addClass("vault-agent-history-button");
		new ButtonComponent(header)
			.setIcon("plus")
			.setTooltip("New chat")
			.onClick(() => this.newChat());
		this.history = new HistoryPanel(root, {
			app: this.app,
			store: () => this.plugin.conversations,
			core: () => this.plugin.core,
			current: () => ({ id: this.conversation?.id ?? null, running: this.running }),
			open: (id) => this.open(id),
			renamed: (c) => {
				if (this.conversation?.id === c.id) this.conversation = { ...this.conversation, title: c.title, renamed: c.renamed };
			},
			deleted: (id) => {
				if (this.conversation?.id === id) this.newChat();
			},
		});
		this.bannerEl = root.createDiv({ cls: "vault-agent-banner" });
		this.bannerEl.hide();
		this.messagesEl = root.createDiv({ cls: "vault-agent-messages" });
		const composer = root.createDiv({ cls: "vault-agent-composer" });
		this.attachments = new AttachmentBar(composer, this.app);
		this.inputEl = composer.createEl("textarea", {
			cls: "vault-agent-input",
			attr: { rows: "3", placeholder: "Ask about your vault… ([[ or @ attaches a note)" },
		});
		this.suggest = new NoteSuggest(this.app, this.inputEl, (file) => this.attachments.attach(file));
		this.slashSuggest = new SlashCommandSuggest(this.app, this.inputEl);
		// The open note's chip follows the active note (and its selection).
		this.registerEvent(this.app.workspace.on("active-leaf-change", () => this.attachments.followActiveNote()));
		this.registerEvent(this.app.workspace.on("file-open", () => this.attachments.followActiveNote()));
		this.registerDomEvent(this.inputEl, "focus", () => this.attachments.followActiveNote());
		this.registerDomEvent(this.inputEl, "keydown", (event: KeyboardEvent) => {
			// Enter in an open suggest list picks from it; it does not send.
			if (event.key === "Enter" && !event.shiftKey && !event.isComposing && !event.defaultPrevented && !this.suggest.isOpen && !this.slashSuggest.isOpen) {
				event.preventDefault();
				void this.send();
			}
		});
		const buttons = composer.createDiv({ cls: "vault-agent-composer-buttons" });
		this.sendButton = new ButtonComponent(buttons)
			.setButtonText("Send")
			.setCta()
			.onClick(() => this.send());
		this.sendButton.buttonEl.addClass("vault-agent-send");
		this.stopButton = new ButtonComponent(buttons).setButtonText("Stop").onClick(() => this.stop());
		this.stopButton.buttonEl.addClass("vault-agent-stop");
		this.stopButton.buttonEl.hide();
		// [[Links]] in answers and tool blocks open the note (Ctrl/Cmd: a new
		// tab) and show Obsidian's hover preview, as in a note.
		// Caught before the link itself sees it, so a note opens exactly once.
		this.registerDomEvent(
			this.messagesEl,
			"click",
			(event: MouseEvent) => {
				const link = (event.target as HTMLElement | null)?.closest("a.internal-link");
				const target = link?.getAttribute("data-href") ?? link?.getAttribute("href");
				if (!link || !target) return;
				event.preventDefault();
				event.stopPropagation();
				void this.app.workspace.openLinkText(target, "", Keymap.isModEvent(event));
			},
			{ capture: true },
		);
		this.registerDomEvent(this.messagesEl, "mouseover", (event: MouseEvent) => {
			const link = (event.target as HTMLElement | null)?.closest("a.internal-link");
			const target = link?.getAttribute("data-href") ?? link?.getAttribute("href");
			if (!link || !target) return;
			this.app.workspace.trigger("hover-link", { event, source: CHAT_VIEW_TYPE, hoverParent: this, targetEl: link, linktext: target });
		});
		// Esc stops a running answer, wherever the focus is in the view.
		this.registerDomEvent(this.contentEl, "keydown", (event: KeyboardEvent) => {
			if (event.key === "Escape" && this.running && !event.defaultPrevented) {
				event.preventDefault();
				this.stop();
			}
		});
		// A view restored with the workspace opens before the core has started.
		await this.plugin.started();
		this.opened = true;
		this.refreshHeader();
		this.attachments.followActiveNote();
		const last = this.plugin.lastConversationId();
		if (last) await this.open(last);
		if (!this.conversation) this.newChat();
		await this.refreshHistory();
	}

	async onClose(): Promise<void> {
		this.opened = false;
		if (this.running) this.stop();
		this.endAgent();
		this.stream?.dispose();
		this.suggest.close();
		this.slashSuggest.close();
	}

	/** Shows the permission mode and which model answers, as saved now. */
	refreshHeader(): void {
		const settings = this.plugin.core?.settings();
		if (!settings || !this.opened) return;
		this.showMode(settings.permissionMode);
		this.profileSwitcher.refresh();
	}

	private showMode(mode: PermissionMode): void {
		const text = permissionModeText(mode);
		this.modeDropdown.setValue(text.mode);
		this.modeEl.dataset.mode = text.mode;
		this.modeEl.setAttribute("title", text.description);
		setIcon(this.modeIcon, text.mode === "readOnly" ? "lock" : text.mode === "askEveryChange" ? "shield-check" : "pencil");
	}

	private async refreshHistory(): Promise<void> {
		await this.history.refresh();
	}

	newChat(): void {
		const core = this.plugin.core;
		if (!core || this.running) return;
		this.endAgent();
		this.conversation = core.newConversation();
		this.messagesEl.empty();
		this.toolBlocks.clear();
		this.hideBanner();
		this.attachments.reset();
		this.renderEmptyState();
		this.inputEl.focus();
	}

	/** What a new chat shows: what the agent can do, how it is set up, and prompts to try. */
	private renderEmptyState(): void {
		const core = this.plugin.core;
		if (!core) return;
		const settings = core.settings();
		const empty = this.messagesEl.createDiv({ cls: "vault-agent-empty-state" });
		empty.createDiv({ cls: "vault-agent-empty-title", text: "Ask about your vault" });
		empty.createDiv({
			text: "The agent reads, searches and organises your notes through the Obsidian command line interface: notes, tasks, daily notes, properties, links, tags and more.",
		});
		const facts = empty.createEl("ul", { cls: "vault-agent-empty-facts" });
		facts.createEl("li", { text: `Model: ${activeProfile(settings.chat)?.model || "none set"}` });
		facts.createEl("li", { text: `Vault changes: ${permissionModeText(settings.permissionMode).label}` });
		const cli = facts.createEl("li", { text: "Command line interface: looking for it…" });
		void core.cliStatus().then((status) => {
			cli.setText(status.discovery.binary ? `Command line interface: found (${status.discovery.binary})` : "Command line interface: not found. Turn it on in Obsidian's general settings.");
		});
		const examples = empty.createDiv({ cls: "vault-agent-empty-examples" });
		for (const prompt of ["What are my open tasks?", "Summarise today's daily note", "Which notes link to nothing?"]) {
			const button = examples.createEl("button", { cls: "vault-agent-example", text: prompt });
			button.addEventListener("click", () => {
				this.inputEl.value = prompt;
				this.inputEl.focus();
			});
		}
	}

	/** The copy button under an answer: its Markdown, as written. */
	private addCopyButton(el: HTMLElement, markdown: string): void {
		const button = el.createEl("button", { cls: "vault-agent-copy clickable-icon", attr: { "aria-label": "Copy the answer" } });
		setIcon(button, "copy");
		button.addEventListener("click", () => {
			void navigator.clipboard.writeText(markdown).then(() => setIcon(button, "check"));
		});
	}

	async open(id: string): Promise<void> {
		if (this.running) return;
		const conversation = await this.plugin.conversations?.load(id);
		// A damaged file is said once, where the user opened it.
		const damage = this.plugin.conversations?.takeDamage(id) ?? null;
		if (!conversation) {
			if (damage) this.showBanner(damage);
			return;
		}
		await this.plugin.rememberConversation(id);
		await this.redraw(conversation);
		if (damage) {
			this.renderNotice(damage);
			this.scrollToEnd();
		}
	}

	/** Shows `conversation` from its first message. */
	private async redraw(conversation: Conversation): Promise<void> {
		this.conversation = conversation;
		this.messagesEl.empty();
		this.toolBlocks.clear();
		this.hideBanner();
		this.changedTurns.clear();
		// The chat's totals go under the last answer that has usage, as they did when it was given.
		let lastWithUsage = -1;
		conversation.messages.forEach((m, i) => {
			if (m.role === "assistant" && m.usage) lastWithUsage = i;
		});
		for (const [index, message] of conversation.messages.entries()) {
			if (message.role === "user") this.drawTurnUndo();
			await this.renderMessage(message, index === lastWithUsage ? (conversation.usage ?? null) : null);
		}
		this.drawTurnUndo();
		if (conversation.messages.length === 0) this.renderEmptyState();
		const paused = conversation.paused;
		if (paused) {
			const card = this.plugin.core?.confirmationCard(paused.confirmationId);
			if (card && card.state === "proposed") this.renderCard(paused.call.id, card);
			else this.renderNotice("A change was waiting for approval when the chat was closed; it was not made. Ask again if you still want it.");
		}
		this.drawRegenerate();
		this.scrollToEnd();
	}

	private async renderMessage(message: ChatMessage, chatUsage: Usage | null = null): Promise<void> {
		switch (message.role) {
			case "user":
				this.renderUser(message.text, message.attachments);
				break;
			case "assistant":
				if (message.reasoning) reasoningBlock(this.messagesEl, null, message.reasoning);
				if (message.text.trim()) {
					const el = this.messagesEl.createDiv({ cls: "vault-agent-msg is-assistant" });
					await this.renderMarkdown(el, message.text);
					this.addCopyButton(el, message.text);
				}
				if (message.usage) usageLine(this.messagesEl, message.usage, chatUsage);
				for (const call of message.toolCalls) this.toolBlock(call.id, this.displayName(call.name), call.arguments);
				break;
			case "tool":
				this.finishToolBlock(message.callId, message.result, message.table);
				break;
			case "notice":
				this.renderNotice(message.text);
				break;
		}
	}

	private displayName(toolId: string): string {
		return this.plugin.core?.listTools().find((t) => t.id === toolId)?.displayName ?? toolId;
	}

	async send(): Promise<void> {
		const core = this.plugin.core;
		const text = this.inputEl.value.trim();
		if (!core || !text || this.running || !this.conversation) return;
		this.inputEl.value = "";
		this.suggest.close();
		this.messagesEl.querySelector(".vault-agent-empty-state")?.remove();
		const agent = this.plugin.codingAgents?.profileFor(this.plugin.selectedAgent());
		const attachments = agent ? undefined : this.attachments.take();
		this.renderUser(text, attachments);
		this.scrollToEnd();
		if (agent) {
			await this.agentTurn(text);
			return;
		}
		await this.runTurn((onEvent) => core.chatSend(this.conversation!, text, onEvent, attachments));
	}

	/** The picker moved to or from a coding agent: the running one ends. */
	private agentChanged(): void {
		if (this.running) return;
		this.endAgent();
	}

	private endAgent(): void {
		const session = this.agentSession;
		this.agentSession = null;
		if (session) this.plugin.codingAgents?.end(session);
		if (this.slashSuggest) this.showSlashCommands([]);
		this.agentModeDropdown?.selectEl.hide();
		this.agentConfigEl?.empty();
	}

	/** The agent's slash commands, offered when a message starts with `/`. */
	private showSlashCommands(commands: Array<{ name: string; description: string }>): void {
		this.slashSuggest.commands = commands;
		const name = this.agentSession?.facts?.name ?? "the agent";
		this.inputEl.setAttribute("placeholder", commands.length > 0 ? `Message ${name}… (/ for its commands)` : "Ask about your vault… ([[ or @ attaches a note)");
	}

	/** One turn of the coding agent: started (or resumed) on first use, events on the one channel. */
	private async agentTurn(text: string): Promise<void> {
		const runner = this.plugin.codingAgents;
		const profile = runner?.profileFor(this.plugin.selectedAgent());
		const conversation = this.conversation;
		if (!runner || !profile || !conversation) return;
		this.setRunning(true);
		this.hideBanner();
		this.drawRegenerate();
		const messages = [...conversation.messages, { role: "user" as const, text }];
		let reasoning = "";
		try {
			await this.agentStarting;
			if (!this.agentSession?.running || this.agentSession.profile.id !== profile.id) {
				this.endAgent();
				const resume = conversation.agent?.profile === profile.id ? conversation.agent.sessionId : null;
				this.agentSession = await runner.start(profile, resume);
				this.showAgentState();
			}
			const session = this.agentSession;
			await session.prompt(text, (event) => {
				if (event.type === "reasoningDelta") reasoning += event.text;
				if (event.type === "assistantMessage") messages.push({ role: "assistant", text: event.text, toolCalls: [], ...(reasoning ? { reasoning } : {}) });
				this.onAgentEvent(event);
			});
			this.conversation = {
				...conversation,
				title: conversation.renamed || conversation.title ? conversation.title : text.slice(0, 60),
				updatedMs: Date.now(),
				messages,
				agent: { profile: profile.id, name: session.facts?.name ?? profile.name, sessionId: session.sessionId },
			};
			await this.plugin.conversations?.save(this.conversation);
			await this.plugin.rememberConversation(this.conversation.id);
			void this.refreshHistory();
		} catch (error) {
			this.showBanner(error instanceof Error ? error.message : String(error));
		} finally {
			this.flushText();
			this.setRunning(false);
		}
	}

	/** What the running agent reported, also before its first turn: settings, modes, slash commands. */
	private showAgentState(): void {
		const session = this.agentSession;
		if (session) session.onStateChanged = () => this.showAgentState();
		// A request refused between turns is said at once, not at the next Send.
		if (session) session.onNotice = (text) => (this.renderNotice(text), this.scrollToEnd());
		this.showSlashCommands(session?.commands ?? []);
		renderAgentConfig(this.agentConfigEl, session?.config ?? [], (id, value) => {
			void session?.setConfigOption(id, value).then(
				() => this.showAgentState(),
				(error: unknown) => {
					// The dropdown goes back to what the agent still has.
					this.showAgentState();
					this.showBanner(`${session.facts?.name ?? "The agent"} did not take the setting: ${error instanceof Error ? error.message : String(error)}`);
				},
			);
		});
		const modes = session?.modes;
		const select = this.agentModeDropdown.selectEl;
		select.empty();
		// An agent that reports its modes as a session setting too is shown that way only (as ACP asks of clients).
		if (!modes || modes.available.length === 0 || session?.config.some((o) => o.category === "mode")) {
			select.hide();
			return;
		}
		for (const mode of modes.available) this.agentModeDropdown.addOption(mode.id, mode.name);
		this.agentModeDropdown.setValue(modes.current);
		select.show();
	}

	private onAgentEvent(event: AgentEvent): void {
		const name = this.agentSession?.facts?.name ?? "The agent";
		switch (event.type) {
			case "plan":
				renderPlan(this.messagesEl, event.entries);
				break;
			case "permission":
				this.setAsideWaitingBubble();
				renderPermission(this.messagesEl, name, event.ask);
				break;
			case "commands":
				this.showSlashCommands(event.commands);
				break;
			case "config":
			case "modes":
				this.showAgentState();
				break;
			case "crashed":
				this.showCrash(name, event.stderr);
				break;
			case "agentUsage":
				this.messagesEl.querySelectorAll(".vault-agent-usage.is-agent").forEach((el) => el.remove());
				this.messagesEl.createDiv({ cls: "vault-agent-usage is-agent", text: `Context: ${event.used.toLocaleString("en-US")} of ${event.size.toLocaleString("en-US")} tokens` });
				break;
			case "confirmationNeeded":
				// A write the agent asked for: our card, answered through the coordinator it waits on.
				this.setAsideWaitingBubble();
				this.renderCard(event.callId, event.card, true);
				break;
			default:
				this.onEvent(event);
				return;
		}
		this.scrollToEnd();
	}

	/** A card or question before any text: the empty bubble goes, so the answer comes after it. */
	private setAsideWaitingBubble(): void {
		if (!this.streamEl || this.stream?.written.trim()) return;
		this.streamEl.remove();
		this.streamEl = null;
	}

	/** The agent's process ended mid-turn: its last words on stderr, and Restart. */
	private showCrash(name: string, stderr: string): void {
		this.showBanner(`${name} stopped unexpectedly.${stderr ? `\n${stderr.split("\n").slice(-8).join("\n")}` : ""}`);
		this.bannerEl.addClass("is-crash");
		const restart = this.bannerEl.createEl("button", { cls: "vault-agent-banner-retry", text: "Restart" });
		restart.addEventListener("click", () => {
			this.endAgent();
			this.hideBanner();
			const profile = this.plugin.codingAgents?.profileFor(this.plugin.selectedAgent());
			if (!profile || !this.plugin.codingAgents) return;
			const runner = this.plugin.codingAgents;
			this.agentStarting = runner.start(profile).then(
				(session) => {
					this.agentStarting = null;
					// The chat moved on meanwhile (closed, another agent): this one is not needed.
					if (this.agentSession || !this.opened) runner.end(session);
					else this.agentSession = session;
					this.showAgentState();
				},
				(error: unknown) => {
					this.agentStarting = null;
					this.showBanner(error instanceof Error ? error.message : String(error));
				},
			);
		});
	}

	/** A user's message, numbered in order so its edit button knows which one it is. */
	private renderUser(text: string, attachments: Attachment[] | undefined): void {
		const index = this.messagesEl.querySelectorAll(".vault-agent-msg.is-user").length;
		// A coding agent keeps its own history, which ACP cannot rewind: no edit there.
		const agentChat = Boolean(this.conversation?.agent) || Boolean(this.plugin.codingAgents?.profileFor(this.plugin.selectedAgent()));
		renderUserMessage(this.messagesEl, text, attachments, agentChat ? null : (edited) => void this.editAndResend(index, edited));
	}

	/** Edit and resend: the message and everything after it go; the edited text is sent in its place. */
	private async editAndResend(index: number, text: string): Promise<void> {
		const core = this.plugin.core;
		if (!core || this.running || !this.conversation) return;
		if (this.conversation.agent || this.plugin.codingAgents?.profileFor(this.plugin.selectedAgent())) {
			// The picker moved to a coding agent since the button was drawn.
			this.inputEl.value = text;
			this.inputEl.focus();
			this.showBanner("A coding agent keeps its own history, which cannot be rewound: the edited message is in the input, to send as a new one.");
			return;
		}
		let rewound: { conversation: Conversation; dropped: ChatMessage | null };
		try {
			rewound = core.rewindConversation(this.conversation, index);
		} catch (error) {
			this.showBanner(String(error instanceof Error ? error.message : error));
			return;
		}
		await this.redraw(rewound.conversation);
		this.messagesEl.querySelector(".vault-agent-empty-state")?.remove();
		const attachments = rewound.dropped?.role === "user" ? rewound.dropped.attachments : undefined;
		this.renderUser(text, attachments);
		this.scrollToEnd();
		await this.runTurn((onEvent) => core.chatSend(rewound.conversation, text, onEvent, attachments));
	}

	/** Regenerate: the last answer goes and the last message is answered again. */
	private async regenerate(): Promise<void> {
		const core = this.plugin.core;
		if (!core || this.running || !this.conversation) return;
		let conversation: Conversation;
		try {
			conversation = core.rewindConversation(this.conversation, null).conversation;
		} catch (error) {
			this.showBanner(String(error instanceof Error ? error.message : error));
			return;
		}
		await this.redraw(conversation);
		await this.runTurn((onEvent) => core.chatRetry(conversation, onEvent));
	}

	/** "Regenerate" after the last answer, when there is one to redo. */
	private drawRegenerate(): void {
		this.messagesEl.querySelectorAll(".vault-agent-turn-actions").forEach((el) => el.remove());
		const messages = this.conversation?.messages ?? [];
		if (this.running || this.conversation?.paused || this.conversation?.agent || !messages.some((m) => m.role === "user") || messages.at(-1)?.role === "user") return;
		const bar = this.messagesEl.createDiv({ cls: "vault-agent-turn-actions" });
		const button = bar.createEl("button", { cls: "vault-agent-regenerate", attr: { "aria-label": "Regenerate the answer" } });
		setIcon(button.createSpan(), "refresh-cw");
		button.createSpan({ text: "Regenerate" });
		button.addEventListener("click", () => void this.regenerate());
	}

	/** The user answered an inline card; returns the tool's result for the card. */
	private async answer(card: ConfirmationCard, callId: string, approve: boolean): Promise<ToolResult> {
		const core = this.plugin.core;
		const conversation = this.conversation;
		if (!core || !conversation || this.running) return notAnswered();
		let answered: ToolResult | null = null;
		await this.runTurn(
			(onEvent) => core.chatResolve(conversation, card.id, approve, card.argvHash, onEvent),
			(event) => {
				if (event.type === "toolFinished" && event.callId === callId && !answered) answered = event.result;
			},
		);
		// Anyone waiting on this card through the public API hears the answer too.
		this.plugin.confirmations?.settleFromCore(card.id);
		return answered ?? notAnswered();
	}

	private async runTurn(
		start: (onEvent: (event: ChatEvent) => void) => Promise<TurnResult>,
		also?: (event: ChatEvent) => void,
	): Promise<void> {
		this.setRunning(true);
		this.hideBanner();
		this.drawRegenerate();
		try {
			const result = await start((event) => {
				also?.(event);
				this.onEvent(event);
			});
			this.conversation = result.conversation;
			await this.plugin.conversations?.save(result.conversation);
			await this.plugin.rememberConversation(result.conversation.id);
			void this.refreshHistory();
		} catch (error) {
			this.showBanner(`Something went wrong: ${String(error)}`);
		} finally {
			this.flushText();
			this.drawTurnUndo();
			this.setRunning(false);
			this.drawRegenerate();
		}
	}

	stop(): void {
		if (this.agentSession?.running) {
			this.agentSession.cancel();
			return;
		}
		this.plugin.core?.chatStop();
		this.plugin.abortRequests();
	}

	private setRunning(running: boolean): void {
		this.running = running;
		this.sendButton.setDisabled(running);
		if (running) this.stopButton.buttonEl.show();
		else this.stopButton.buttonEl.hide();
		this.contentEl.toggleClass("is-running", running);
	}

	private onEvent(event: ChatEvent): void {
		switch (event.type) {
			case "modelRound":
				this.messagesEl.querySelector(".vault-agent-empty-state")?.remove();
				// A spinner until the first token arrives.
				this.streamEl = this.messagesEl.createDiv({ cls: "vault-agent-msg is-assistant is-streaming is-waiting" });
				this.reasoningEl = null;
				break;
			case "reasoningDelta":
				this.reasoningEl ??= reasoningBlock(this.messagesEl, this.streamEl);
				this.reasoningEl.appendText(event.text);
				break;
			case "usage":
				usageLine(this.messagesEl, event.usage, event.chat);
				break;
			case "textDelta":
				// After a notice mid-round (a retry, a shortened context) the bubble is drawn anew.
				this.streamEl ??= this.messagesEl.createDiv({ cls: "vault-agent-msg is-assistant is-streaming" });
				this.streamEl.removeClass("is-waiting");
				// Markdown while it streams, rendered at most every 120 ms (stream-render.ts).
				(this.stream ??= new StreamRenderer(this.app, this, this.streamEl, () => this.scrollToEnd())).push(event.text);
				break;
			case "assistantMessage":
				this.stream?.dispose();
				this.stream = null;
				if (this.streamEl) {
					const el = this.streamEl;
					this.streamEl = null;
					el.removeClass("is-streaming", "is-waiting");
					if (event.text.trim()) {
						const text = event.text;
						// The final render replaces the streamed one in one step.
						const fresh = createDiv();
						void this.renderMarkdown(fresh, text).then(() => {
							el.replaceChildren(...Array.from(fresh.childNodes));
							this.addCopyButton(el, text);
						});
					} else el.remove();
				}
				break;
			case "toolStarted":
				this.toolBlock(event.callId, event.displayName, event.arguments);
				break;
			case "toolFinished":
				this.finishToolBlock(event.callId, event.result, event.table);
				if (event.result.error && USER_FIXES.has(event.result.error.code)) this.showBanner(event.result.error.message);
				break;
			case "confirmationNeeded":
				this.renderCard(event.callId, event.card);
				break;
			case "notice":
				this.streamEl?.removeClass("is-streaming", "is-waiting");
				// Stopped before the first word: no empty bubble stays.
				if (this.streamEl && !this.stream?.written.trim()) this.streamEl.remove();
				this.flushText();
				this.streamEl = null;
				this.renderNotice(event.text);
				break;
			case "error":
				this.stream?.dispose();
				this.stream = null;
				this.streamEl?.remove();
				this.streamEl = null;
				this.showBanner(event.message, event.code !== "nothing_to_retry" && event.code !== "confirmation_not_found");
				break;
			case "turnEnded":
				break;
		}
		this.scrollToEnd();
	}

	/** What has streamed is drawn now (Stop, the end of a turn); no render follows it. */
	private flushText(): void {
		const stream = this.stream;
		this.stream = null;
		void stream?.flush();
	}

	private toolBlock(callId: string, displayName: string, args: string): HTMLElement {
		const block = this.messagesEl.createEl("details", { cls: "vault-agent-tool-call is-running" });
		block.dataset.callId = callId;
		const summary = block.createEl("summary");
		const icon = summary.createSpan({ cls: "vault-agent-tool-icon" });
		setIcon(icon, "terminal-square");
		summary.createSpan({ cls: "vault-agent-tool-name", text: displayName });
		summary.createSpan({ cls: "vault-agent-tool-status", text: "Running" });
		summary.createSpan({ cls: "vault-agent-tool-duration" });
		block.createEl("code", { cls: "vault-agent-tool-command", text: describeArguments(args) });
		block.createDiv({ cls: "vault-agent-tool-result" });
		this.toolBlocks.set(callId, block);
		return block;
	}

	private finishToolBlock(callId: string, result: ToolResult, table: Table | null): void {
		const block = this.toolBlocks.get(callId) ?? this.toolBlock(callId, "Tool", "");
		const status = result.pending ? "Waiting for approval" : result.ok ? "Done" : `Error: ${result.error?.code ?? "failed"}`;
		block.removeClass("is-running");
		block.toggleClass("is-error", !result.ok && !result.pending);
		block.toggleClass("is-pending", Boolean(result.pending));
		block.querySelector(".vault-agent-tool-status")?.setText(status);
		block.querySelector(".vault-agent-tool-duration")?.setText(`${Math.round(result.durationMs)} ms`);
		if (result.argv) block.querySelector(".vault-agent-tool-command")?.setText(commandLine(result.argv));
		const body = block.querySelector(".vault-agent-tool-result");
		if (!(body instanceof HTMLElement)) return;
		body.empty();
		// Links in the output open the note, as in answers: a path must name a note there is.
		const exists = (linktext: string) => this.app.metadataCache.getFirstLinkpathDest(linktext, "") !== null;
		// A table shows the output; the text it came from stays one click away.
		const textHolder = table ? body.createEl("details", { cls: "vault-agent-tool-raw" }) : body;
		if (table) {
			renderTable(body, table, exists);
			body.appendChild(textHolder);
			textHolder.createEl("summary", { text: "Text as the CLI printed it" });
		}
		renderToolText(textHolder, result.text, exists);
		// A change that ran: its diff folded, and Undo (cards/undo.ts).
		this.plugin.undo?.decorateToolBlock(block, result);
		if (result.journal?.turn) this.changedTurns.add(result.journal.turn);
	}

	/**
	 * A report the user asked for from the command palette (the hygiene
	 * checks): the call goes through the same gate as the model's (tool
	 * switches, folders), and its result shows as an open tool block in the
	 * chat. It is not part of the conversation the model reads.
	 */
	async showReport(toolId: string, args: Record<string, unknown>): Promise<ToolResult | null> {
		const core = this.plugin.core;
		if (!core || !this.opened) return null;
		const id = `report-${++this.reports}`;
		const block = this.toolBlock(id, this.displayName(toolId), JSON.stringify(args));
		block.addClass("is-report");
		this.scrollToEnd();
		const result = await core.callTool(toolId, args);
		this.finishToolBlock(id, result, null);
		block.setAttr("open", "");
		if (result.error && USER_FIXES.has(result.error.code)) this.showBanner(result.error.message);
		this.scrollToEnd();
		return result;
	}

	/** "Undo this answer's changes" after each answer that changed the vault. */
	private drawTurnUndo(): void {
		for (const turn of this.changedTurns) this.plugin.undo?.renderTurnBar(this.messagesEl, turn);
		this.changedTurns.clear();
	}

	refreshUndo(): void {
		if (this.opened) this.plugin.undo?.refresh(this.messagesEl);
	}

	private renderCard(callId: string, card: ConfirmationCard, fromAgent = false): void {
		const holder = this.messagesEl.createDiv({ cls: "vault-agent-inline-card" });
		const confirmations = this.plugin.confirmations;
		if (fromAgent && confirmations) {
			renderConfirmationCard(holder, card, { approve: () => confirmations.approve(card), reject: () => confirmations.reject(card) });
			return;
		}
		renderConfirmationCard(holder, card, {
			approve: () => this.answer(card, callId, true),
			reject: () => {
				void this.answer(card, callId, false);
				return { ok: false, text: "Rejected.", durationMs: 0 };
			},
		});
	}

	private renderNotice(text: string): void {
		this.messagesEl.createDiv({ cls: "vault-agent-notice", text });
	}

	private async renderMarkdown(el: HTMLElement, markdown: string): Promise<void> {
		await MarkdownRenderer.render(this.app, markdown, el, "", this);
	}

	private showBanner(message: string, retry = false): void {
		this.bannerEl.empty();
		const icon = this.bannerEl.createSpan({ cls: "vault-agent-banner-icon" });
		setIcon(icon, "alert-triangle");
		this.bannerEl.createSpan({ cls: "vault-agent-banner-text", text: message });
		if (retry) {
			const button = this.bannerEl.createEl("button", { cls: "vault-agent-banner-retry", text: "Retry" });
			button.addEventListener("click", () => void this.retry());
		}
		this.bannerEl.show();
	}

	/** The banner's Retry: the failed turn again, without a new message. */
	private async retry(): Promise<void> {
		const core = this.plugin.core;
		if (!core || this.running || !this.conversation) return;
		await this.runTurn((onEvent) => core.chatRetry(this.conversation!, onEvent));
	}

	private hideBanner(): void {
		this.bannerEl.removeClass("is-crash");
		this.bannerEl.empty();
		this.bannerEl.hide();
	}

	private scrollToEnd(): void {
		this.messagesEl.scrollTop = this.messagesEl.scrollHeight;
	}
}

function notAnswered(): ToolResult {
	return { ok: false, text: "The chat is busy; try again when the answer has finished.", durationMs: 0 };
}

/** The model's arguments, short: `command key=value …`. */
function describeArguments(raw: string): string {
	try {
		const args = JSON.parse(raw) as Record<string, unknown>;
		return Object.entries(args)
			.map(([key, value]) => (key === "command" ? String(value) : value === true ? key : `${key}=${JSON.stringify(value)}`))
			.join(" ");
	} catch {
		return raw;
	}
}

