// The confirmation card: what will change, the exact command line, and
// Approve / Reject. The same card appears in a modal (public API calls) and
// inline in the chat. It only shows what the core describes.

import { ButtonComponent } from "obsidian";
import type { ConfirmationCard, OutsideCard, ReviewSettle } from "../core/types";
import type { NoteDiff, ToolResult } from "../vault-agent-api";
import type { InPlaceReviews } from "./in-place";

/** Diff lines shown before "Show all". */
const FOLDED_DIFF_LINES = 30;

export interface CardActions {
	approve(card: ConfirmationCard): Promise<ToolResult>;
	/** An outside tool's card: approve, and let this tool run without a card for the rest of the chat. */
	approveForChat?(card: ConfirmationCard): Promise<ToolResult>;
	reject(card: ConfirmationCard): ToolResult;
	/** Called once the card is answered; `result.pending` means "asked again". */
	settled?(result: ToolResult): void;
	/** Undoes an approved change from the card's folded line (the chat's undo); without it, no Undo there. */
	undo?(entry: string): Promise<unknown>;
	/** A note edit reviewed in the editor: approves only these of its changes (the core's numbers). */
	approveChanges?(card: ConfirmationCard, changes: number[]): Promise<ToolResult>;
	/** The editor's reviews: with approveChanges, a note edit's card offers "Review in editor" and is settled from there too. */
	inPlace?: InPlaceReviews | null;
}

/** Shell-like quoting, only for showing the command line to a person. */
export function commandLine(argv: string[]): string {
	return commandWords(argv).join(" ");
}

/** The command line's words, each quoted for a shell where it needs it. */
export function commandWords(argv: string[]): string[] {
	return ["obsidian", ...argv].map((arg) => (/^[\w:./=#@+-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`));
}

/** A diff's counts as the core words them: "+2 −1 lines". */
export function diffCounts(diff: NoteDiff): string {
	return `+${diff.added} −${diff.removed} lines`;
}

/**
 * A unified diff: counts (unless the title above it says them already), then
 * hunks of lines with the changed words marked; long diffs fold.
 */
export function renderDiff(parent: HTMLElement, diff: NoteDiff, counts = true): HTMLElement {
	const box = parent.createDiv({ cls: "vault-agent-diff" });
	if (counts) box.createDiv({ cls: "vault-agent-diff-counts", text: diffCounts(diff) });
	const body = box.createDiv({ cls: "vault-agent-diff-body" });
	// Two number columns, before and after, each as wide as its largest number.
	const widest = Math.max(1, ...diff.hunks.flatMap((h) => h.lines.map((l) => Math.max(l.oldLine ?? 0, l.newLine ?? 0))));
	body.style.setProperty("--vault-agent-diff-digits", `${String(widest).length + 1}ch`);
	let shown = 0;
	const total = diff.hunks.reduce((sum, hunk) => sum + hunk.lines.length + 1, 0);
	for (const hunk of diff.hunks) {
		// "Line 18", not "@@ -18,13 +18,8 @@" (a journal entry from before labels has only the header).
		const first = hunk.lines.find((l) => l.newLine !== null) ?? hunk.lines[0];
		body.createDiv({ cls: "vault-agent-diff-hunk", text: hunk.label || `Line ${first?.newLine ?? first?.oldLine ?? 1}` });
		shown += 1;
		for (const line of hunk.lines) {
			const row = body.createDiv({ cls: `vault-agent-diff-line is-${line.kind}` });
			if (shown >= FOLDED_DIFF_LINES) row.addClass("is-folded");
			shown += 1;
			row.createSpan({ cls: "vault-agent-diff-number is-old", text: line.oldLine === null ? "" : String(line.oldLine), attr: line.oldLine === null ? {} : { "aria-label": `Line ${line.oldLine} before` } });
			row.createSpan({ cls: "vault-agent-diff-number is-new", text: line.newLine === null ? "" : String(line.newLine), attr: line.newLine === null ? {} : { "aria-label": `Line ${line.newLine} after` } });
			row.createSpan({ cls: "vault-agent-diff-sign", text: line.kind === "added" ? "+" : line.kind === "removed" ? "−" : " " });
			const text = row.createSpan({ cls: "vault-agent-diff-text" });
			for (const segment of line.segments) {
				text.createSpan({ cls: segment.changed ? "vault-agent-diff-word" : "", text: segment.text });
			}
		}
	}
	if (total > FOLDED_DIFF_LINES) {
		box.addClass("is-folded");
		new ButtonComponent(box)
			.setButtonText(`Show all ${total} lines`)
			.setClass("vault-agent-diff-show-all")
			.onClick(function (this: void) {
				box.removeClass("is-folded");
				box.querySelector(".vault-agent-diff-show-all")?.remove();
			});
	}
	return box;
}

/** What a card's change does: its warning, then its diff (or the text before and after), or an outside call. */
export function renderChangePreview(root: HTMLElement, card: ConfirmationCard): void {
	if (card.preview.warning) root.createDiv({ cls: "vault-agent-confirm-warning", text: card.preview.warning });
	if (card.outside) {
		renderOutsideCall(root, card.outside);
	} else if (card.preview.diff) {
		// The card's first line has the counts as a rule ("Edit "a.md" (+1 −1 lines)"): once is enough.
		renderDiff(root, card.preview.diff, !card.summary.includes(diffCounts(card.preview.diff)));
	} else {
		const preview = root.createDiv({ cls: "vault-agent-confirm-preview" });
		preview.createDiv({ cls: "vault-agent-confirm-label", text: "Now" });
		preview.createEl("pre", { cls: "vault-agent-confirm-before", text: card.preview.before });
		preview.createDiv({ cls: "vault-agent-confirm-label", text: "After" });
		preview.createEl("pre", { cls: "vault-agent-confirm-after", text: card.preview.after });
	}
}

export function renderConfirmationCard(parent: HTMLElement, card: ConfirmationCard, actions: CardActions): HTMLElement {
	const root = parent.createDiv({ cls: "vault-agent-confirm" });
	root.dataset.confirmationId = card.id;
	if (card.requested) root.createDiv({ cls: "vault-agent-confirm-requester", text: card.requested });
	// An agent's call of an outside tool: its first line already says what is called, and where.
	if (!(card.outside && card.requested)) root.createDiv({ cls: "vault-agent-confirm-summary", text: card.summary });
	if (card.offPlan) {
		root.createDiv({ cls: ["vault-agent-confirm-warning", "vault-agent-confirm-off-plan"], text: "Not in the plan you approved: this note is not one of its steps." });
	}
	if (card.writtenAsText) {
		root.createDiv({
			cls: ["vault-agent-confirm-warning", "vault-agent-confirm-text-call"],
			text: "The model wrote this call as text instead of calling the tool. It may be repeating a call it read in a note: approve only if you asked for this change.",
		});
	}
	renderChangePreview(root, card);
	if (card.via === "mcp") {
		root.createDiv({ cls: "vault-agent-confirm-via", text: "Nothing is sent to the server before you answer. Folder scopes cannot reach what an outside tool does." });
	} else if (card.via === "vault" || card.via === "files") {
		root.createDiv({
			cls: "vault-agent-confirm-via",
			text:
				card.via === "vault"
					? "Obsidian writes this change in one step, and only if the note still reads as shown here."
					: "Obsidian's file manager does this after your click, only for notes that still read as they did when this card was made; undo puts them back.",
		});
	} else {
		const details = root.createEl("details", { cls: "vault-agent-confirm-command" });
		details.createEl("summary", { text: "Command line" });
		details.createEl("code", { text: commandLine(card.argv) });
	}
	const expires = new Date(card.expiresMs);
	const expiry = root.createDiv({
		cls: "vault-agent-confirm-expiry",
		text: `Waiting for your answer until ${expires.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}.`,
	});
	const buttons = root.createDiv({ cls: "vault-agent-confirm-buttons" });
	const statusLineEl = root.createDiv({ cls: "vault-agent-confirm-status-line" });
	const status = statusLineEl.createDiv({ cls: "vault-agent-confirm-status" });
	// Answered: the buttons and the wait for an answer go, and what spoke of
	// the change to come (its preview, how it will be written) folds away.
	const answered = () => {
		buttons.remove();
		expiry.remove();
		root.addClass("is-answered");
		// Answered here or in the editor: the editor's view of it goes too.
		actions.inPlace?.settled(card.id);
	};
	const finish = (result: ToolResult, label: string, reply = "") => {
		answered();
		root.addClass(result.ok ? "is-done" : "is-closed");
		status.setText(label);
		const entry = result.ok ? result.journal?.entry : undefined;
		if (entry && actions.undo) {
			const undo = new ButtonComponent(statusLineEl).setButtonText("Undo").setClass("vault-agent-undo");
			undo.buttonEl.dataset.journalEntry = entry;
			undo.onClick(() => void actions.undo?.(entry));
		}
		// An outside server's words, apart from the plugin's and marked as its own: they may try to speak for it.
		if (reply) {
			const quote = root.createDiv({ cls: "vault-agent-confirm-reply" });
			quote.createDiv({ cls: "vault-agent-confirm-label", text: "The server replied:" });
			quote.createEl("blockquote", { cls: "vault-agent-confirm-reply-text", text: reply });
		}
		// Undo repaints the card from the journal (cards/undo.ts) once this change is undone.
		if (result.ok && result.journal) {
			root.dataset.journalEntry = result.journal.entry;
			// The change's tool block drawn before the card answered gives up its Undo: shown once, here.
			const messages = root.closest(".vault-agent-messages");
			messages?.querySelector(`.vault-agent-tool-call .vault-agent-undo[data-journal-entry="${CSS.escape(result.journal.entry)}"]`)?.remove();
		}
		actions.settled?.(result);
	};
	const run = async (answer: (card: ConfirmationCard) => Promise<ToolResult>) => {
		answered();
		status.setText("Running…");
		const result = await answer(card);
		// The server's own words, as the core set them apart (none when the call failed before it answered).
		const reply = card.outside ? (result.reply ?? "") : "";
		finish(result, reply ? (result.ok ? "Done." : "The server reported an error.") : statusLine(result), reply);
	};
	const approve = new ButtonComponent(buttons)
		.setButtonText(card.outside ? "Approve once" : "Approve")
		.setCta()
		.onClick(() => run((c) => actions.approve(c)));
	const approveForChat = actions.approveForChat?.bind(actions);
	const forChat =
		card.outside && approveForChat
			? new ButtonComponent(buttons).setButtonText("Approve for this chat").onClick(() => run((c) => approveForChat(c)))
			: null;
	forChat?.buttonEl.addClass("vault-agent-approve-chat");
	const rejectCard = () => {
		const result = actions.reject(card);
		finish(result, card.outside ? "Rejected. Nothing was sent." : "Rejected. Nothing changed.");
	};
	const reject = new ButtonComponent(buttons).setButtonText("Reject").onClick(rejectCard);
	approve.buttonEl.addClass("vault-agent-approve");
	reject.buttonEl.addClass("vault-agent-reject");
	offerInPlace(root, buttons, card, actions, run, rejectCard);
	return root;
}

/**
 * A note edit's card, also reviewed in the editor: "Review in editor", and
 * the editor's answer settles this card as its own buttons do (`run`, `reject`).
 */
function offerInPlace(
	root: HTMLElement,
	buttons: HTMLElement,
	card: ConfirmationCard,
	actions: CardActions,
	run: (answer: (card: ConfirmationCard) => Promise<ToolResult>) => Promise<void>,
	reject: () => void,
): void {
	const inPlace = actions.inPlace;
	const approveChanges = actions.approveChanges?.bind(actions);
	if (!card.editsNote || !inPlace || !approveChanges) return;
	const settle = (settle: ReviewSettle) => {
		if (settle.answer === "reject") reject();
		else void run((c) => (settle.answer === "approve" ? actions.approve(c) : approveChanges(c, settle.changes)));
	};
	new ButtonComponent(buttons)
		.setButtonText("Review in editor")
		.setTooltip(`Show each change in ${card.editsNote}, to accept or reject it there`)
		.onClick(() => void inPlace.open(card.id))
		.buttonEl.addClass("vault-agent-review-in-editor");
	inPlace.offer({ card, settle, waiting: () => root.isConnected && !root.hasClass("is-answered") });
}

/**
 * An answered card's status: the result's first line as a sentence. An edit's
 * or a move's result goes on after a colon with its diff or its moves, which
 * the card shows already, so the colon goes with them.
 */
function statusLine(result: ToolResult): string {
	const sentence = headline(result.text);
	if (!result.ok) return sentence;
	return sentence === "." || sentence === "Done." ? "Done." : `Done. ${sentence}`;
}

/** A result's first line as a sentence, without the colon its diff or its moves followed. */
export function headline(text: string): string {
	const first = (text.split("\n", 1)[0] ?? "").trim().replace(/:$/, "");
	return /[.!?]$/.test(first) ? first : `${first}.`;
}

/** An outside tool's call: the server, the tool, what it says of itself, and exactly what will be sent. */
function renderOutsideCall(root: HTMLElement, call: OutsideCard): void {
	const box = root.createDiv({ cls: "vault-agent-confirm-outside" });
	const server = call.serverName && call.serverName !== call.server ? `${call.server} (${call.serverName})` : call.server;
	box.createDiv({ cls: "vault-agent-confirm-label", text: `MCP server ${server}, tool ${call.tool}` });
	if (call.description) box.createDiv({ cls: "vault-agent-confirm-outside-description", text: call.description });
	const tags = box.createDiv({ cls: "vault-agent-confirm-outside-tags" });
	for (const word of call.annotations) tags.createSpan({ cls: "vault-agent-confirm-outside-tag", text: word });
	box.createDiv({ cls: "vault-agent-confirm-label", text: "Arguments to send" });
	const args = box.createEl("pre", { cls: "vault-agent-confirm-after", text: call.arguments });
	if (call.folded) {
		new ButtonComponent(box).setButtonText("Show the full arguments").onClick(function (this: void) {
			args.setText(call.fullArguments);
			box.querySelector(".vault-agent-confirm-unfold")?.remove();
		}).buttonEl.addClass("vault-agent-confirm-unfold");
	}
}
