// What the user has to act on (a failed turn, a missing CLI, a crashed
// agent), drawn at the end of the messages, beside what failed, with at
// most one button. (It was a banner pinned above the messages, far from its
// cause; the class names stay.)

import { setIcon } from "obsidian";

export class Banner {
	/** The error shown now, while its button still applies. */
	private el: HTMLElement | null = null;

	constructor(private readonly parent: HTMLElement) {}

	/**
	 * Shows `message` after the last message, with a button per action
	 * (Retry, Restart, the profile's settings...). `address`, where the
	 * message names one, may break only after its slashes.
	 */
	show(message: string, actions: BannerAction[] = [], address?: string): void {
		this.hide();
		const el = (this.el = this.parent.createDiv({ cls: "vault-agent-banner", attr: { role: "alert" } }));
		setIcon(el.createSpan({ cls: "vault-agent-banner-icon" }), "alert-triangle");
		const text = el.createSpan({ cls: "vault-agent-banner-text" });
		const at = address ? message.indexOf(address) : -1;
		if (address && at >= 0) {
			text.appendText(message.slice(0, at));
			addressEl(text, address);
			text.appendText(message.slice(at + address.length));
		} else text.setText(message);
		if (actions.length === 0) return;
		const buttons = el.createDiv({ cls: "vault-agent-banner-actions" });
		for (const action of actions) {
			const button = buttons.createEl("button", { cls: action.cls ?? "vault-agent-banner-retry", text: action.text });
			if (action.cta) button.addClass("mod-cta");
			button.addEventListener("click", action.run);
		}
	}

	/** A coding agent stopped unexpectedly: said so in its crash look. */
	crash(message: string, restart: () => void): void {
		this.show(message, [{ text: "Restart", run: restart }]);
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
		} else el.querySelector(".vault-agent-banner-actions")?.remove();
	}
}

/** A button beside an error. */
export interface BannerAction {
	text: string;
	run: () => void;
	cls?: string;
	/** The likeliest way out, drawn as Obsidian's call to action. */
	cta?: boolean;
}

/** An address that wraps only after a `/` (a <wbr> there), never inside a word. */
function addressEl(parent: HTMLElement, address: string): void {
	const el = parent.createSpan({ cls: "vault-agent-banner-address" });
	const parts = address.split("/");
	parts.forEach((part, i) => {
		el.appendText(i < parts.length - 1 ? `${part}/` : part);
		if (i < parts.length - 1) el.createEl("wbr");
	});
}
