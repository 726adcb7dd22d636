// "Regenerate" after the last answer, when there is one to redo: in the
// answer's row when the chat ends with it, else in a row of its own.

import type { Conversation } from "../core/types";
import { iconButton } from "./transcript";

export function drawRegenerate(el: HTMLElement, conversation: Conversation | null, running: boolean, regenerate: () => void): void {
	el.querySelectorAll(".vault-agent-regenerate").forEach((button) => button.remove());
	el.querySelectorAll(".vault-agent-answer-actions:empty").forEach((row) => row.remove());
	const messages = conversation?.messages ?? [];
	const last = messages.at(-1);
	if (running || conversation?.paused || conversation?.agent || !messages.some((m) => m.role === "user") || last?.role === "user") return;
	const rows = el.querySelectorAll<HTMLElement>(".vault-agent-answer-actions");
	const answered = last?.role === "assistant" && last.text.trim() !== "";
	const row = (answered ? rows[rows.length - 1] : null) ?? el.createDiv({ cls: "vault-agent-answer-actions" });
	const button = iconButton(row, "vault-agent-regenerate", "refresh-cw", "Regenerate the answer");
	row.querySelector(".vault-agent-copy")?.after(button);
	button.addEventListener("click", regenerate);
}
