// The chat's sidebar view, as Obsidian registers it at onload. It is small
// on purpose: the chat itself (panel.ts, with the transcript, both turns and
// what they draw) is loaded with a lazy import() when the view first opens,
// so evaluating main.js and onload do not pay for it.

import { ItemView, type WorkspaceLeaf } from "obsidian";
import type { PromptValues, SelectionRequest } from "../core/types";
import type { ToolResult } from "../vault-agent-api";
import type { ChatContext } from "./chat-context";
import type { ChatPanel } from "./panel";

export const CHAT_VIEW_TYPE = "vault-agent-chat";

export class ChatView extends ItemView {
	/** The chat, once the view has opened. */
	private panel: ChatPanel | null = null;

	constructor(
		leaf: WorkspaceLeaf,
		private readonly ctx: ChatContext,
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
		const { ChatPanel } = await import("./panel");
		this.panel = new ChatPanel(this, this.ctx);
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

	/** Shows the saved conversation `id`. */
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

	async rewrite(request: SelectionRequest, instruction: string): Promise<void> {
		await this.panel?.rewrite(request, instruction);
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
