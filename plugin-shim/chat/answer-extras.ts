// Small pieces of the chat view: the model's reasoning, folded above its
// answer; the notes an answer was drawn from and the tokens it took, under
// it. The core decides what they say (which notes are sources; it never
// guesses usage a server did not report); this only draws.

import type { AnswerUsage, Source, Usage } from "../core/types";

/** A folded block for the model's reasoning, placed before `before` (the answer). Text goes in with `appendText`. */
export function reasoningBlock(parent: HTMLElement, before: HTMLElement | null, text = ""): HTMLElement {
	const block = parent.createEl("details", { cls: "vault-agent-reasoning" });
	block.createEl("summary", { text: "Reasoning" });
	const body = block.createDiv({ cls: "vault-agent-reasoning-text", text });
	if (before && before.parentElement === parent) parent.insertBefore(block, before);
	return body;
}

/** 2600 as "2,600", without Intl (its first use in a page loads locale data: a long frame at the end of the first answer). */
export const count = (n: number) => String(Math.round(n)).replace(/\B(?=(\d{3})+$)/g, ",");

/**
 * The usage, in the answer's row: "2,600 in · 42 out · 18%" (of the
 * context); the whole of it, with the chat's totals, in its tooltip.
 */
export function usageLine(parent: HTMLElement, usage: AnswerUsage, chat: Usage | null): HTMLElement {
	const parts = [`${count(usage.inputTokens)} in`, `${count(usage.outputTokens)} out`];
	const long = [...parts];
	if (usage.contextWindow > 0) {
		const share = Math.round((usage.contextTokens / usage.contextWindow) * 100);
		parts.push(`${share}%`);
		long.push(`${share}% of the ${count(usage.contextWindow)}-token context`);
	}
	if (chat) long.push(`this chat ${count(chat.inputTokens)} in, ${count(chat.outputTokens)} out`);
	const line = parent.createDiv({ cls: "vault-agent-usage", text: parts.join(" · ") });
	line.setAttribute("aria-label", `Tokens: ${long.join(" · ")}, as the model server reported them`);
	return line;
}

/**
 * The notes the answer was drawn from, as links (the view's click and hover
 * handlers open them and show Obsidian's preview), placed before `before`
 * (the answer's row) when it is there.
 */
export function sourcesList(parent: HTMLElement, sources: Source[], before: HTMLElement | null): HTMLElement {
	const list = parent.createDiv({ cls: "vault-agent-sources" });
	list.createSpan({ cls: "vault-agent-sources-label", text: "Sources" });
	for (const source of sources) {
		const name = source.path.replace(/\.md$/, "").split("/").pop() ?? source.path;
		// A note's title heading adds nothing to its name.
		const text = source.heading && source.heading.toLowerCase() !== name.toLowerCase() ? `${name} › ${source.heading}` : name;
		const link = list.createEl("a", { cls: "internal-link vault-agent-source", text, attr: { "data-href": source.link, href: source.link } });
		link.setAttribute("aria-label", source.link);
	}
	if (before && before.parentElement === parent) parent.insertBefore(list, before);
	return list;
}
