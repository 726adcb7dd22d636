// What the user has to act on (a failed turn, a missing CLI, a crashed
// agent), drawn at the end of the messages, beside what failed, with at
// most one button. (It was a banner pinned above the messages, far from its
// cause; the class names stay.)

import { setIcon } from "obsidian";

export class Banner {
	/** The error shown now, while its button still applies. */
	private el: HTMLElement | null = null;

	constructor(private readonly parent: HTMLElement) {}

	/** Shows `message` after the last message; `action` adds its button (Retry, Restart). */
	show(message: string, action?: { text: string; run: () => void }): void {
		this.hide();
		const el = (this.el = this.parent.createDiv({ cls: "vault-agent-banner", attr: { role: "alert" } }));
		setIcon(el.createSpan({ cls: "vault-agent-banner-icon" }), "alert-triangle");
		el.createSpan({ cls: "vault-agent-banner-text", text: message });
		if (action) {
			const button = el.createEl("button", { cls: "vault-agent-banner-retry", text: action.text });
			button.addEventListener("click", action.run);
		}
	}

	/** A coding agent stopped unexpectedly: said so in its crash look. */
	crash(message: string, restart: () => void): void {
		this.show(message, { text: "Restart", run: restart });
		this.el?.addClass("is-crash");
	}

	/**
	 * The chat goes on. An error with nothing after it goes (Retry answers in
	 * its place); one the chat has moved past stays where it was, as what
	 * happened, without its button.
	 */
	hide(): void {
		const el = this.el;
		this.el = null;
		if (!el) return;
		if (el === this.parent.lastElementChild) {
			el.remove();
			const users = this.parent.querySelectorAll(".vault-agent-msg.is-user");
			users[users.length - 1]?.removeClass("is-failed");
		} else el.querySelector("button")?.remove();
	}
}
