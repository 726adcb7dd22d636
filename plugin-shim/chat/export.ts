// "Export to note": a conversation as Markdown with frontmatter (the plugin
// writes it through our own create, so a card and the journal apply).

import type { Conversation } from "../core/types";

/** The conversation as Markdown with frontmatter, for "Export to note". */
export function conversationMarkdown(conversation: Conversation, agent: string | null): string {
	const created = new Date(conversation.createdMs || Date.now()).toISOString();
	const lines = ["---", `title: ${JSON.stringify(conversation.title || "Chat")}`, `created: ${created}`, `source: Vault Agent chat`];
	if (agent) lines.push(`agent: ${JSON.stringify(agent)}`);
	lines.push("---", "");
	for (const message of conversation.messages) {
		if (message.role === "user") lines.push(`## You`, "", message.text, "");
		else if (message.role === "assistant" && message.text.trim()) lines.push(`## ${agent ?? "Vault Agent"}`, "", message.text, "");
		else if (message.role === "notice") lines.push(`> ${message.text}`, "");
	}
	return lines.join("\n");
}
