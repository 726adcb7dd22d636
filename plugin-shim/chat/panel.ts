// The chat in its view (view.ts, which loads this on first open; a view in
// either sidebar or a main-area tab, several at once): its header
// (header.ts), history, the transcript, the composer. It picks the turn that
// answers a message (our model's or a coding agent's, chat/turn.ts) from the
// header's picker and sends the user's words and clicks to it; the loops and
// every decision live in the core (and, for a coding agent, in the agent),
// which also keeps which view shows which chat (one chat in one view).
// Over 400 lines, on purpose: one class holds the view's chat, the turn in
// flight and the controls every click updates together (the header, the
// composer, Stop, the banner); what draws a part on its own (the header,
// history, the transcript, attachments, compaction, prompts) is already apart.

import { ButtonComponent, ExtraButtonComponent, type ItemView } from "obsidian";
import type { Attachment, Conversation, PromptValues, SelectionRequest } from "../core/types";
import type { ToolResult } from "../vault-agent-api";
import { AttachmentBar, NoteSuggest } from "./attachments";
import { Banner, type BannerAction } from "./banner";
import type { ChatContext } from "./chat-context";
import { promptValues, type RewriteHow } from "./editor-actions";
import { type PromptActions, renderEmptyState } from "./empty-state";
import { deletePrompt, editPrompt } from "./prompt-editor";
import { ChatHeader } from "./header";
import { HistoryPanel } from "./history";
import { drawDividers, forkChat } from "./compaction";
import { acceptImages, imageChips } from "./image-input";
import { acceptVaultDrops } from "./vault-drops";
import { drawRegenerate } from "./regenerate";
import { showReport } from "./report";
import { SlashCommandSuggest } from "./slash-commands";
import { Transcript, type TurnError } from "./transcript";
import type { ChatSurface, ChatTurn } from "./turn";
import { AgentTurn } from "./turn-agent";
import { ModelTurn } from "./turn-model";
import { type ViewContext, viewContext } from "./view-context";

/** One line at 320 px; the hint under the input says what / and [[ do. */
const INPUT_PLACEHOLDER = "Ask about your vault…";

export class ChatPanel implements ChatSurface {
	private shown: Conversation | null = null;
	transcript!: Transcript;
	banner!: Banner;
	private inputEl!: HTMLTextAreaElement;
	private sendButton!: ButtonComponent;
	private stopButton!: ButtonComponent;
	private header!: ChatHeader;
	private history!: HistoryPanel;
	private attachments!: AttachmentBar;
	private suggest!: NoteSuggest;
	private slashSuggest!: SlashCommandSuggest;
	private model!: ModelTurn;
	private agent!: AgentTurn;
	running = false;
	opened = false;

	/** The plugin's context as this view sees it (its id, its pick). */
	readonly ctx: ViewContext;

	constructor(
		/** The leaf's view: its element, its app, the owner of every listener and render. */
		private readonly view: ItemView,
		ctx: ChatContext,
		viewId: string,
	) {
		this.ctx = viewContext(ctx, viewId);
	}

	get input(): HTMLTextAreaElement {
		return this.inputEl;
	}

	/** The conversation on screen; its title is the header's and the tab's. */
	get conversation(): Conversation | null {
		return this.shown;
	}

	set conversation(conversation: Conversation | null) {
		const before = this.shown?.title;
		this.shown = conversation;
		if (conversation?.title !== before) this.showTitle();
		this.header?.showPlanMode(conversation?.planMode ?? false);
	}

	/** This chat's title: renamed in history, else its first question (the core's). */
	get title(): string {
		return this.shown?.title ?? "New chat";
	}

	private showTitle(): void {
		this.header?.setTitle(this.title);
		// The tab and the view header read getDisplayText() again (Obsidian's leaf API, not in its typings).
		(this.view.leaf as unknown as { updateHeader?: () => void }).updateHeader?.();
	}

	/** Draws the chat into the view, then shows the last conversation once the core has started. */
	async build(): Promise<void> {
		const app = this.view.app;
		const root = this.view.contentEl;
		root.empty();
		root.addClass("vault-agent-chat");
		this.header = new ChatHeader(root, this.ctx, {
			newChat: () => this.newChat(),
			toggleHistory: () => this.history.toggle(),
			exportChat: () => {
				if (this.conversation && this.conversation.messages.length > 0) void this.ctx.exportConversation(this.conversation);
			},
			agentChanged: () => this.agentChanged(),
			agentMode: (mode) => this.agent.setMode(mode),
			// Plan mode belongs to the chat (kept with it); the core decides what it allows.
			planMode: (on) => {
				if (this.conversation) this.conversation = { ...this.conversation, planMode: on };
			},
		}, app);
		this.header.setTitle(this.title);
		this.history = new HistoryPanel(root, {
			app,
			store: () => this.ctx.conversations,
			core: () => this.ctx.core,
			current: () => ({ id: this.conversation?.id ?? null, running: this.running }),
			elsewhere: () => new Map(this.ctx.core?.chatOpenElsewhere(this.ctx.viewId) ?? []),
			open: (id) => this.open(id),
			renamed: (c) => {
				if (this.conversation?.id === c.id) this.conversation = { ...this.conversation, title: c.title, renamed: c.renamed };
			},
			deleted: (id) => {
				if (this.conversation?.id === id) this.newChat();
			},
		});
		const messagesEl = root.createDiv({ cls: "vault-agent-messages" });
		this.banner = new Banner(messagesEl);
		const images = () => this.ctx.conversations?.images;
		const chips = imageChips(images);
		this.transcript = new Transcript(messagesEl, {
			app,
			owner: this.view,
			hoverSource: this.view.getViewType(),
			displayName: (toolId) => this.displayName(toolId),
			undo: () => this.ctx.undo,
			inPlace: () => this.ctx.inPlace,
			showBanner: (message, retry) => this.showBanner(message, retry),
			showError: (error) => this.showError(error),
			isStatus: (text) => this.ctx.core?.outsideSummary().problems.includes(text) ?? false,
			statusChanged: () => this.refreshHeader(),
			continueTurn: () => void this.model.retry(),
			modelCard: (callId, card) => this.model.cardActions(callId, card),
			planCard: (plan) => this.model.planActions(plan),
			planChangesCard: () => this.model.planChangesActions(),
			imageSrc: (a) => chips.src(a),
			// A fork is a new chat, opened here; the history lists it.
			fork: (role, index) => void forkChat(this, role, index).then(() => this.history.refresh()),
			forks: () => this.rewinds(),
		});
		const composer = root.createDiv({ cls: "vault-agent-composer" });
		this.attachments = new AttachmentBar(composer, app, chips, (message) => this.showBanner(message));
		// The input with Send beside it; under them, what the input can do: attach, / and [[.
		const inputRow = composer.createDiv({ cls: "vault-agent-composer-row" });
		this.inputEl = inputRow.createEl("textarea", {
			cls: "vault-agent-input",
			attr: { rows: "3", placeholder: INPUT_PLACEHOLDER, "aria-label": "Message" },
		});
		acceptImages({ owner: this.view, target: composer, bar: this.attachments, images, chatId: () => this.conversation?.id ?? null, say: (message) => this.showBanner(message) });
		acceptVaultDrops({ app, owner: this.view, target: composer, attach: (file) => this.attachments.attach(file) });
		this.suggest = new NoteSuggest(app, this.inputEl, (file) => this.attachments.attach(file));
		this.slashSuggest = new SlashCommandSuggest(
			app,
			this.inputEl,
			() => this.ctx.core?.savedPrompts().then((listed) => listed.prompts),
			(prompt) => void this.runPrompt(prompt.path, promptValues(app)),
			() => this.promptActions().edit(null),
			// "Compact" is our model's: a coding agent keeps (and compacts) its own context.
			{ available: () => this.rewinds(), run: () => void this.model.compact() },
		);
		this.model = new ModelTurn(this);
		this.agent = new AgentTurn(this, { modeDropdown: this.header.agentModeDropdown, configEl: this.header.agentConfigEl, slashSuggest: this.slashSuggest });
		// The open note's chip follows the active note (and its selection).
		this.view.registerEvent(app.workspace.on("active-leaf-change", () => this.attachments.followActiveNote()));
		this.view.registerEvent(app.workspace.on("file-open", () => this.attachments.followActiveNote()));
		this.view.registerDomEvent(this.inputEl, "focus", () => {
			this.attachments.followActiveNote();
			void this.slashSuggest.refresh();
		});
		this.view.registerDomEvent(this.inputEl, "keydown", (event: KeyboardEvent) => {
			// Enter in an open suggest list picks from it; it does not send.
			if (event.key === "Enter" && !event.shiftKey && !event.isComposing && !event.defaultPrevented && !this.suggest.isOpen && !this.slashSuggest.isOpen) {
				event.preventDefault();
				void this.send();
			}
		});
		const buttons = inputRow.createDiv({ cls: "vault-agent-composer-buttons" });
		const footer = composer.createDiv({ cls: "vault-agent-composer-footer" });
		// Attach: the same picker, and so the same checks, as typing [[ (notes, images, PDFs).
		const attach = new ExtraButtonComponent(footer)
			.setIcon("paperclip")
			.setTooltip("Attach a note, image or document")
			.onClick(() => this.openAttachPicker());
		attach.extraSettingsEl.addClass("vault-agent-attach");
		attach.extraSettingsEl.setAttribute("role", "button");
		const hint = footer.createDiv({ cls: "vault-agent-composer-hint" });
		hint.createEl("kbd", { text: "/" });
		hint.appendText(" prompts · ");
		hint.createEl("kbd", { text: "[[" });
		hint.appendText(" notes, images, PDFs");
		this.sendButton = new ButtonComponent(buttons)
			.setButtonText("Send")
			.setCta()
			.onClick(() => this.send());
		this.sendButton.buttonEl.addClass("vault-agent-send");
		this.stopButton = new ButtonComponent(buttons).setButtonText("Stop").onClick(() => this.stop());
		this.stopButton.buttonEl.addClass("vault-agent-stop");
		this.stopButton.buttonEl.hide();
		// Esc stops a running answer, wherever the focus is in the view.
		this.view.registerDomEvent(this.view.contentEl, "keydown", (event: KeyboardEvent) => {
			if (event.key === "Escape" && this.running && !event.defaultPrevented) {
				event.preventDefault();
				this.stop();
			}
		});
		// A view restored with the workspace opens before the core has started.
		await this.ctx.started();
		this.opened = true;
		await this.slashSuggest.refresh();
		this.refreshHeader();
		this.attachments.followActiveNote();
		// The last chat, unless another view shows it (then this one starts a new chat).
		const last = this.ctx.lastConversationId();
		if (last) await this.open(last, false);
		if (!this.conversation) this.newChat();
		await this.history.refresh();
	}

	close(): void {
		this.opened = false;
		if (this.running) this.stop();
		this.ctx.core?.chatCloseView(this.ctx.viewId);
		for (const turn of this.turns()) turn.end();
		this.transcript.dispose();
		this.suggest.close();
		this.slashSuggest.close();
	}

	/** Shows the permission mode and which model answers, as saved now. */
	refreshHeader(): void {
		if (this.opened) this.header.refresh();
	}

	/** Both engines, our model's first. */
	private turns(): ChatTurn[] {
		return [this.model, this.agent];
	}

	/** The engine that answers the next message: the coding agent the picker chose, else our model. */
	private turn(): ChatTurn {
		return this.agent.profile() ? this.agent : this.model;
	}

	/** Whether the chat on screen can be rewound: not a coding agent's, nor one the picker hands to one. */
	private rewinds(): boolean {
		return !this.conversation?.agent && this.turn().rewinds;
	}

	newChat(): void {
		const core = this.ctx.core;
		if (!core || this.running) return;
		for (const turn of this.turns()) turn.end();
		this.conversation = core.newConversation();
		// A fresh id: no other view shows it.
		core.chatShow(this.ctx.viewId, this.conversation.id);
		this.transcript.clear();
		this.banner.hide();
		this.attachments.reset();
		this.renderEmptyState();
		this.inputEl.focus();
	}

	/** What a new chat shows: what the agent can do, how it is set up, and prompts to try. */
	private renderEmptyState(): void {
		const core = this.ctx.core;
		if (!core) return;
		renderEmptyState(
			this.transcript.el,
			core,
			(prompt) => {
				this.inputEl.value = prompt;
				this.inputEl.focus();
			},
			this.promptActions(),
		);
	}

	/** Saved prompts from the chat: run one, write or edit one in the form, delete one; the lists follow. */
	private promptActions(): PromptActions {
		const app = this.view.app;
		const changed = () => {
			void this.slashSuggest.refresh();
			// The empty state lists them: drawn again while it shows.
			if (this.transcript.el.querySelector(".vault-agent-empty-state")) {
				this.transcript.removeEmptyState();
				this.renderEmptyState();
			}
		};
		return {
			run: (prompt) => void this.runPrompt(prompt.path, promptValues(app)),
			edit: (prompt) => this.ctx.core && editPrompt(app, this.ctx.core, prompt, changed),
			remove: (prompt) => deletePrompt(app, prompt, changed),
		};
	}

	/**
	 * Shows the saved conversation `id`, unless another view shows it: then
	 * that view is brought forward (`reveal`) and this one stays as it is,
	 * so one chat is never driven from two views.
	 */
	async open(id: string, reveal = true): Promise<void> {
		if (this.running) return;
		const core = this.ctx.core;
		const shownIn = core?.chatOpenElsewhere(this.ctx.viewId).find(([chat]) => chat === id)?.[1];
		if (shownIn) {
			if (reveal) this.ctx.revealChat(shownIn);
			return;
		}
		const conversation = await this.ctx.conversations?.load(id);
		// A damaged file is said once, where the user opened it.
		const damage = this.ctx.conversations?.takeDamage(id) ?? null;
		if (!conversation) {
			if (damage) this.showBanner(damage);
			return;
		}
		// Loading took a while: another view may have opened it meanwhile.
		const elsewhere = core?.chatShow(this.ctx.viewId, id);
		if (elsewhere) {
			if (reveal) this.ctx.revealChat(elsewhere);
			return;
		}
		await this.ctx.rememberConversation(id);
		await this.redraw(conversation);
		if (damage) this.transcript.notice(damage);
	}

	/** Shows `conversation` from its first message. */
	async redraw(conversation: Conversation): Promise<void> {
		this.conversation = conversation;
		this.transcript.reset();
		this.banner.hide();
		// The chat's totals go under the last answer that has usage, as they did when it was given.
		let lastWithUsage = -1;
		conversation.messages.forEach((m, i) => {
			if (m.role === "assistant" && m.usage) lastWithUsage = i;
		});
		for (const [index, message] of conversation.messages.entries()) {
			drawDividers(this.transcript.el, conversation, index);
			if (message.role === "user") {
				this.transcript.drawTurnUndo();
				this.renderUser(message.text, message.attachments);
			} else await this.transcript.message(message, index === lastWithUsage ? (conversation.usage ?? null) : null);
		}
		drawDividers(this.transcript.el, conversation, conversation.messages.length);
		this.transcript.drawTurnUndo();
		if (conversation.messages.length === 0) this.renderEmptyState();
		const paused = conversation.paused;
		if (paused) {
			const card = this.ctx.core?.confirmationCard(paused.confirmationId);
			if (card && card.state === "proposed") this.transcript.card(paused.call.id, card);
			else this.transcript.notice("A change was waiting for approval when the chat was closed; it was not made. Ask again if you still want it.");
		}
		this.drawRegenerate();
		// A chat opens at its end (and stays there once the view is shown).
		this.transcript.pinToEnd();
	}

	private displayName(toolId: string): string {
		return this.ctx.core?.listTools().find((t) => t.id === toolId)?.displayName ?? toolId;
	}

	async send(): Promise<void> {
		const core = this.ctx.core;
		const text = this.inputEl.value.trim();
		if (!core || !text || this.running || !this.conversation) return;
		this.inputEl.value = "";
		this.suggest.close();
		this.transcript.removeEmptyState();
		const turn = this.turn();
		const attachments = turn.takesNotes ? this.attachments.take() : this.attachments.takeImages();
		const drawn = this.renderUser(text, attachments);
		this.transcript.pinToEnd();
		const before = this.conversation.messages.length;
		await turn.send(text, attachments);
		// The core took nothing (a model that reads no images): the words and
		// attachments go back to the input, and the banner says why.
		if (attachments?.length && this.conversation?.messages.length === before && !this.inputEl.value) {
			drawn.remove();
			this.inputEl.value = text;
			this.attachments.restore(attachments);
			if (before === 0) this.renderEmptyState();
		}
	}

	/** "Ask about the selection": the message box, with the note's selection as its chip. */
	askAbout(): void {
		this.attachments.followActiveNote();
		this.inputEl.focus();
	}

	/** A saved prompt, filled in by the core from `values`, sent with the chips. */
	async runPrompt(path: string, values: PromptValues): Promise<void> {
		if (!this.modelAnswers()) return;
		this.inputEl.value = "";
		await this.model.runPrompt(path, values, this.attachments.take());
	}

	async rewrite(request: SelectionRequest, how: RewriteHow): Promise<void> {
		if (this.modelAnswers()) await this.model.rewrite(request, how);
	}

	/** Saved prompts and rewrites are our model's (the core fills them in), not a coding agent's. */
	private modelAnswers(): boolean {
		if (!this.ctx.core || this.running || !this.conversation) return false;
		if (!this.agent.profile() && !this.conversation.agent) return true;
		this.showBanner("Saved prompts and rewrites are answered by a model profile, not a coding agent: pick a profile in the header (in a new chat).");
		return false;
	}

	/** The picker moved to or from a coding agent: the running one ends. */
	private agentChanged(): void {
		if (this.running) return;
		this.agent.end();
	}

	/** A user's message, with its edit button where the chat can be rewound. */
	renderUser(text: string, attachments: Attachment[] | undefined): HTMLElement {
		// A coding agent keeps its own history, which ACP cannot rewind: no edit there.
		return this.transcript.user(text, attachments, this.rewinds() ? (index, edited) => void this.edit(index, edited) : null);
	}

	/** Edit and resend, unless the picker moved to a coding agent since the button was drawn. */
	private async edit(index: number, text: string): Promise<void> {
		if (!this.ctx.core || this.running || !this.conversation) return;
		if (!this.rewinds()) {
			this.inputEl.value = text;
			this.inputEl.focus();
			this.showBanner("A coding agent keeps its own history, which cannot be rewound: the edited message is in the input, to send as a new one.");
			return;
		}
		await this.model.editAndResend(index, text);
	}

	/** "Regenerate" after the last answer, when there is one to redo: in the answer's row when the chat ends with it. */
	drawRegenerate(): void {
		drawRegenerate(this.transcript.el, this.conversation, this.running, () => void this.model.regenerate());
	}

	async keep(conversation: Conversation): Promise<void> {
		this.conversation = conversation;
		await this.ctx.conversations?.save(conversation);
		await this.ctx.rememberConversation(conversation.id);
		void this.history.refresh();
	}

	/** Stop: a coding agent whose process runs is asked to cancel; otherwise our model's turn ends. */
	stop(): void {
		if (!this.agent.stop()) this.model.stop();
	}

	setRunning(running: boolean): void {
		this.running = running;
		this.sendButton.setDisabled(running);
		if (running) this.stopButton.buttonEl.show();
		else this.stopButton.buttonEl.hide();
		this.view.contentEl.toggleClass("is-running", running);
		// A turn may have started or failed to reach an MCP server.
		if (!running) this.refreshHeader();
	}

	/** A hygiene report from the command palette, as an open tool block (report.ts). */
	async showReport(toolId: string, args: Record<string, unknown>): Promise<ToolResult | null> {
		const core = this.ctx.core;
		if (!core || !this.opened) return null;
		return showReport(core, this.transcript, { toolId, displayName: this.displayName(toolId), args }, (message) => this.showBanner(message));
	}

	refreshUndo(): void {
		if (this.opened) this.transcript.refreshUndo();
	}

	/** The banner; `retry` offers our model's turn again (the banner's Retry). */
	showBanner(message: string, retry = false): void {
		this.banner.show(message, retry ? [this.retryAction()] : []);
	}

	/** The attach button: "[[" at the caret opens the vault picker, as if typed. */
	private openAttachPicker(): void {
		const input = this.inputEl;
		const at = input.selectionStart ?? input.value.length;
		const before = input.value.slice(0, at);
		const spacer = before.length > 0 && !/\s$/.test(before) ? " " : "";
		input.setRangeText(`${spacer}[[`, at, input.selectionEnd ?? at, "end");
		input.focus();
		input.dispatchEvent(new Event("input", { bubbles: true }));
	}

	/** A turn's error with its ways out, in the order the core gave them. */
	showError(error: TurnError): void {
		const actions = error.wayOut.map((way): BannerAction => {
			switch (way) {
				case "retry":
					return this.retryAction();
				case "profileSettings":
					return { text: "Open this profile's settings", cls: "vault-agent-banner-settings", run: () => void this.openProfileSettings() };
				case "switchProfile":
					return { text: "Switch profile", cls: "vault-agent-banner-switch", run: () => this.header.openProfileSwitcher() };
			}
		});
		this.banner.show(error.message, actions, error.address);
	}

	private retryAction(): BannerAction {
		return { text: "Retry", run: () => void this.model.retry() };
	}

	/** The settings of the profile that answers in this view (the header's pick becomes the one shown there). */
	private async openProfileSettings(): Promise<void> {
		const picked = this.ctx.pickedProfile();
		const active = this.ctx.core?.modelProfiles().find((p) => p.active)?.id;
		if (picked && picked !== active) await this.ctx.editModelProfiles({ action: "select", id: picked });
		this.ctx.openSettings("model");
	}
}
