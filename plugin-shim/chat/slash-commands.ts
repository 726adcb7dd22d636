// A coding agent's slash commands, offered in the chat's input: typing `/` at
// the start of a message opens Obsidian's suggest popover with the commands
// the agent reported (ACP `available_commands_update`), filtered by what
// follows the slash; picking one puts `/name ` in the input.

import type { App } from "obsidian";
import { TextareaSuggest } from "./textarea-suggest";

export interface SlashCommand {
	name: string;
	description: string;
}

/** The `/query` being typed at the start of the message, or null. */
export function slashQuery(text: string, caret: number): string | null {
	const match = /^\/(\S*)$/.exec(text.slice(0, caret));
	return match?.[1] ?? null;
}

export class SlashCommandSuggest extends TextareaSuggest<SlashCommand> {
	/** What the running agent offers; empty when none runs. */
	commands: SlashCommand[] = [];

	constructor(app: App, textarea: HTMLTextAreaElement) {
		super(app, textarea, 30);
	}

	protected getSuggestions(): SlashCommand[] {
		const query = slashQuery(this.textarea.value, this.textarea.selectionStart);
		if (query === null) return [];
		const wanted = query.toLowerCase();
		// Names that start with the query first, then those that contain it.
		const starts = this.commands.filter((c) => c.name.toLowerCase().startsWith(wanted));
		const contains = this.commands.filter((c) => !c.name.toLowerCase().startsWith(wanted) && c.name.toLowerCase().includes(wanted));
		return [...starts, ...contains];
	}

	renderSuggestion(command: SlashCommand, el: HTMLElement): void {
		el.addClass("vault-agent-suggestion", "vault-agent-slash-command");
		el.createDiv({ cls: "suggestion-title", text: `/${command.name}` });
		if (command.description) el.createDiv({ cls: "suggestion-note", text: command.description });
	}

	selectSuggestion(command: SlashCommand): void {
		const rest = this.textarea.value.slice(this.textarea.selectionStart).replace(/^\S*/, "").trimStart();
		const head = `/${command.name} `;
		this.textarea.value = `${head}${rest}`;
		this.textarea.setSelectionRange(head.length, head.length);
		this.textarea.focus();
		this.close();
	}
}
