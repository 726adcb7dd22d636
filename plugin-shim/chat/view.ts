// The chat's view, as Obsidian registers it at onload: in either sidebar or
// a main-area tab, as many as the user opens (each its own chat). It is small
// on purpose: the chat itself (panel.ts, with the transcript, both turns and
// what they draw) is loaded with a lazy import() when the view first opens,
// so evaluating main.js and onload do not pay for it.

import { ItemView, type WorkspaceLeaf } from "obsidian";
import type { PromptValues, SelectionRequest } from "../core/types";
import type { ToolResult } from "../vault-agent-api";
import type { ChatContext } from "./chat-context";
import type { ChatPanel } from "./panel";
import type { RewriteHow } from "./editor-actions";

export const CHAT_VIEW_TYPE = "vault-agent-chat";

/** Numbers the chat views of this session (the core's name for each). */
let views = 0;

export class ChatView extends ItemView {
	/** The chat, once the view has opened. */
	private panel: ChatPanel | null = null;
	/** This view's id: which chat it shows and what it picked are the core's (doors/chat/views.rs). */
	readonly viewId = `view-${++views}`;

	constructor(
		leaf: WorkspaceLeaf,
		private readonly ctx: ChatContext,
	) {
		super(leaf);
	}

	getViewType(): string {
		return CHAT_VIEW_TYPE;
	}

	/** The chat's own title, so two chats side by side can be told apart. */
	getDisplayText(): string {
		return this.panel?.title ?? "Vault Agent";
	}

	getIcon(): string {
		return "bot";
	}

	async onOpen(): Promise<void> {
		const { ChatPanel } = await import("./panel");
		this.panel = new ChatPanel(this, this.ctx, this.viewId);
		await this.panel.build();
	}

	async onClose(): Promise<void> {
		this.panel?.close();
	}

	/** The message box (the tests type into it). */
	get inputEl(): HTMLTextAreaElement | undefined {
		return this.panel?.input;
	}

	newChat(): void {
		this.panel?.newChat();
	}

	/** The chat on screen (null before the view opened). */
	get conversationId(): string | null {
		return this.panel?.conversation?.id ?? null;
	}

	/** Shows the saved conversation `id` (or brings forward the view that shows it). */
	async open(id: string): Promise<void> {
		await this.panel?.open(id);
	}

	async send(): Promise<void> {
		await this.panel?.send();
	}

	/** A hygiene report from the command palette, as an open tool block. */
	async showReport(toolId: string, args: Record<string, unknown>): Promise<ToolResult | null> {
		return (await this.panel?.showReport(toolId, args)) ?? null;
	}

	/** The editor's actions (editor-actions.ts), answered in this chat. */
	askAbout(): void {
		this.panel?.askAbout();
	}

	async rewrite(request: SelectionRequest, how: RewriteHow): Promise<void> {
		await this.panel?.rewrite(request, how);
	}

	async runPrompt(path: string, values: PromptValues): Promise<void> {
		await this.panel?.runPrompt(path, values);
	}

	refreshHeader(): void {
		this.panel?.refreshHeader();
	}

	refreshUndo(): void {
		this.panel?.refreshUndo();
	}
}
