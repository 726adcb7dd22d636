// The chat's context kept small, as the view shows it (issue 41.6): the
// divider where earlier turns were summarised, with the summary the model
// reads behind it, and "Fork from here" on a message. The core decides what
// is summarised and what a fork holds (src/doors/chat/compact.rs, fork.rs);
// this draws it and hands the user's clicks over.

import { setIcon } from "obsidian";
import type { Compaction, Conversation } from "../core/types";
import { count } from "./answer-extras";
import type { ChatContext } from "./chat-context";

/** What a message is for a fork: the user's, or the model's with text (numbered as the core numbers them). */
export type ForkRole = "user" | "assistant";

/** The divider: "Earlier turns summarised (N turns, saved X tokens)", the summary folded under it. */
function divider(compaction: Compaction): HTMLElement {
	const el = createEl("details", { cls: "vault-agent-compaction", attr: { "data-upto": String(compaction.upto) } });
	const turns = compaction.turns === 1 ? "1 turn" : `${count(compaction.turns)} turns`;
	const summary = el.createEl("summary");
	setIcon(summary.createSpan({ cls: "vault-agent-compaction-icon" }), "fold-vertical");
	// A summary no shorter than what it replaced (a few short turns) saves nothing worth a number.
	const saved = compaction.savedTokens > 0 ? `, saved ${count(compaction.savedTokens)} tokens` : "";
	summary.createSpan({ cls: "vault-agent-compaction-label", text: `Earlier turns summarised (${turns}${saved})` });
	el.createDiv({ cls: "vault-agent-compaction-note", text: "The model reads this summary, with the record of every change, in place of the turns above; they stay here as they were." });
	el.createDiv({ cls: "vault-agent-compaction-summary", text: compaction.summary });
	return el;
}

/** A summary that came while the chat is shown: its divider goes before the first user message it leaves whole. */
export function placeDivider(el: HTMLElement, compaction: Compaction): void {
	el.querySelector(`.vault-agent-compaction[data-upto="${compaction.upto}"]`)?.remove();
	const users = el.querySelectorAll(".vault-agent-msg.is-user");
	el.insertBefore(divider(compaction), users[compaction.turns] ?? null);
}

/** A chat drawn from its start: the dividers that go before its message `index` (after the last one: its length). */
export function drawDividers(el: HTMLElement, conversation: Conversation, index: number): void {
	for (const compaction of conversation.compactions ?? []) {
		if (compaction.upto === index) el.appendChild(divider(compaction));
	}
}

/** The fork button beside a message. */
export function forkButton(parent: HTMLElement, fork: () => void): HTMLButtonElement {
	const button = parent.createEl("button", { cls: "vault-agent-fork clickable-icon", attr: { "aria-label": "Fork from here" } });
	setIcon(button, "git-fork");
	button.addEventListener("click", fork);
	return button;
}

/** Which answer an answer's row is under: the model's messages with text, counted from the start. */
export function answerIndex(el: HTMLElement, row: HTMLElement): number {
	let answer = row.previousElementSibling;
	while (answer && !answer.matches(".vault-agent-msg.is-assistant")) answer = answer.previousElementSibling;
	return answer ? Array.from(el.querySelectorAll(".vault-agent-msg.is-assistant")).indexOf(answer) : -1;
}

/** What forking needs of the chat view. */
export interface ForkSurface {
	readonly ctx: Pick<ChatContext, "core" | "conversations">;
	readonly conversation: Conversation | null;
	readonly running: boolean;
	showBanner(message: string): void;
	/** Shows the saved chat `id` in this view. */
	open(id: string): Promise<void>;
}

/** "Fork from here": the core makes the new chat; it is saved, then opened in this view. The original stays as it was. */
export async function forkChat(chat: ForkSurface, role: ForkRole, index: number): Promise<void> {
	const core = chat.ctx.core;
	if (!core || chat.running || !chat.conversation || index < 0) return;
	let forked: Conversation;
	try {
		forked = core.forkConversation(chat.conversation, role, index);
	} catch (error) {
		chat.showBanner(error instanceof Error ? error.message : String(error));
		return;
	}
	await chat.ctx.conversations?.save(forked);
	await chat.open(forked.id);
}
