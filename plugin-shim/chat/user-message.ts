// A user's message in the chat: its words, the notes attached to it, and an
// edit button that turns it into a text box; "Send" there resends from this
// message (the view drops it and everything after it first).

import { ButtonComponent, setIcon } from "obsidian";
import type { Attachment } from "../core/types";
import { imageMime } from "../host/images";
import { isPdf } from "./attachments";
import { forkButton } from "./compaction";

export function renderUserMessage(
	parent: HTMLElement,
	text: string,
	attachments: Attachment[] | undefined,
	edit: ((text: string) => void) | null,
	imageSrc: (attachment: Attachment) => string | null = () => null,
	fork: (() => void) | null = null,
): HTMLElement {
	const el = parent.createDiv({ cls: "vault-agent-msg is-user" });
	const body = el.createDiv({ cls: "vault-agent-msg-text", text });
	if (attachments?.length) {
		const list = el.createDiv({ cls: "vault-agent-msg-attachments" });
		for (const a of attachments) {
			// An image shows as its thumbnail (a file gone since shows its name).
			// Only an image: a note's or a PDF's resource path would be a broken picture.
			const src = a.pasted || imageMime(a.path) ? imageSrc(a) : null;
			if (src) list.createEl("img", { cls: "vault-agent-msg-image", attr: { src, alt: a.pasted ? "Pasted image" : a.path, title: a.pasted ? "Pasted image" : a.path } });
			else {
				const chip = list.createSpan({ cls: `vault-agent-msg-attachment${isPdf(a.path) ? " is-pdf" : ""}`, attr: { title: a.selection ? `${a.path} (with a selection)` : a.path } });
				if (isPdf(a.path)) setIcon(chip.createSpan({ cls: "vault-agent-msg-attachment-icon" }), "book-open");
				chip.createSpan({ text: a.path.replace(/\.md$/, "") });
			}
		}
	}
	// "Fork from here" under the pencil (compaction.ts).
	if (fork) forkButton(el, fork);
	if (!edit) return el;
	const button = el.createEl("button", { cls: "vault-agent-edit clickable-icon", attr: { "aria-label": "Edit and resend" } });
	setIcon(button, "pencil");
	button.addEventListener("click", () => {
		el.addClass("is-editing");
		body.hide();
		button.hide();
		const form = el.createDiv({ cls: "vault-agent-edit-form" });
		const input = form.createEl("textarea", { cls: "vault-agent-edit-input", attr: { rows: "3" } });
		input.value = text;
		const cancel = () => {
			form.remove();
			body.show();
			button.show();
			el.removeClass("is-editing");
		};
		const send = () => {
			const edited = input.value.trim();
			if (!edited) return;
			cancel();
			edit(edited);
		};
		input.addEventListener("keydown", (event: KeyboardEvent) => {
			if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
				event.preventDefault();
				send();
			} else if (event.key === "Escape") {
				event.preventDefault();
				event.stopPropagation();
				cancel();
			}
		});
		const buttons = form.createDiv({ cls: "vault-agent-edit-buttons" });
		new ButtonComponent(buttons).setButtonText("Send").setCta().onClick(send).buttonEl.addClass("vault-agent-edit-send");
		new ButtonComponent(buttons).setButtonText("Cancel").onClick(cancel);
		input.focus();
	});
	return el;
}
