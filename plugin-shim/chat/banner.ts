// The banner above the chat's messages: what the user has to act on (a
// failed turn, a missing CLI, a crashed agent), with at most one button.

import { setIcon } from "obsidian";

export class Banner {
	constructor(readonly el: HTMLElement) {
		el.hide();
	}

	/** Shows `message`; `action` adds its button (Retry, Restart). */
	show(message: string, action?: { text: string; run: () => void }): void {
		this.el.empty();
		const icon = this.el.createSpan({ cls: "vault-agent-banner-icon" });
		setIcon(icon, "alert-triangle");
		this.el.createSpan({ cls: "vault-agent-banner-text", text: message });
		if (action) {
			const button = this.el.createEl("button", { cls: "vault-agent-banner-retry", text: action.text });
			button.addEventListener("click", action.run);
		}
		this.el.show();
	}

	/** A coding agent stopped unexpectedly: the banner says so in its crash look. */
	crash(message: string, restart: () => void): void {
		this.show(message, { text: "Restart", run: restart });
		this.el.addClass("is-crash");
	}

	hide(): void {
		this.el.removeClass("is-crash");
		this.el.empty();
		this.el.hide();
	}
}
