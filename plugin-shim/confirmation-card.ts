// The confirmation card: what will change, the exact command line, and
// Approve / Reject. The same card appears in a modal (public API calls) and
// inline in the chat. It only shows what the core describes.

import { ButtonComponent } from "obsidian";
import type { ConfirmationCard } from "./core-types";
import type { ToolResult } from "./vault-agent-api";

export interface CardActions {
	approve(card: ConfirmationCard): Promise<ToolResult>;
	reject(card: ConfirmationCard): ToolResult;
	/** Called once the card is answered; `result.pending` means "asked again". */
	settled?(result: ToolResult): void;
}

/** Shell-like quoting, only for showing the command line to a person. */
export function commandLine(argv: string[]): string {
	return ["obsidian", ...argv].map((arg) => (/^[\w:./=#@+-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`)).join(" ");
}

export function renderConfirmationCard(parent: HTMLElement, card: ConfirmationCard, actions: CardActions): HTMLElement {
	const root = parent.createDiv({ cls: "vault-agent-confirm" });
	root.dataset.confirmationId = card.id;
	root.createDiv({ cls: "vault-agent-confirm-summary", text: card.summary });
	const preview = root.createDiv({ cls: "vault-agent-confirm-preview" });
	preview.createDiv({ cls: "vault-agent-confirm-label", text: "Now" });
	preview.createEl("pre", { cls: "vault-agent-confirm-before", text: card.preview.before });
	preview.createDiv({ cls: "vault-agent-confirm-label", text: "After" });
	preview.createEl("pre", { cls: "vault-agent-confirm-after", text: card.preview.after });
	const details = root.createEl("details", { cls: "vault-agent-confirm-command" });
	details.createEl("summary", { text: "Command line" });
	details.createEl("code", { text: commandLine(card.argv) });
	const expires = new Date(card.expiresMs);
	root.createDiv({
		cls: "vault-agent-confirm-expiry",
		text: `Waiting for your answer until ${expires.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}.`,
	});
	const buttons = root.createDiv({ cls: "vault-agent-confirm-buttons" });
	const status = root.createDiv({ cls: "vault-agent-confirm-status" });
	const finish = (result: ToolResult, label: string) => {
		approve.setDisabled(true);
		reject.setDisabled(true);
		root.addClass(result.ok ? "is-done" : "is-closed");
		status.setText(label);
		actions.settled?.(result);
	};
	const approve = new ButtonComponent(buttons)
		.setButtonText("Approve")
		.setCta()
		.onClick(async () => {
			approve.setDisabled(true);
			reject.setDisabled(true);
			status.setText("Running…");
			const result = await actions.approve(card);
			finish(result, result.ok ? `Done. ${result.text}` : result.text);
		});
	const reject = new ButtonComponent(buttons)
		.setButtonText("Reject")
		.onClick(() => {
			const result = actions.reject(card);
			finish(result, "Rejected. Nothing changed.");
		});
	approve.buttonEl.addClass("vault-agent-approve");
	reject.buttonEl.addClass("vault-agent-reject");
	return root;
}
