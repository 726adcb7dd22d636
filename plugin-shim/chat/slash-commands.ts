// What `/` at the start of a message offers: a coding agent's own slash
// commands (ACP `available_commands_update`) and the user's saved prompts
// (src/doors/chat/saved_prompts.rs), then "New prompt…". An agent's command
// shows as `/name`, a prompt by its name: no badge on every row. Picking an
// agent's command puts `/name ` in the input; picking a saved prompt runs it.
// "Compact" (our model's chats only) summarises the earlier turns.

import { type App, setIcon } from "obsidian";
import type { SavedPrompt } from "../core/types";
import { TextareaSuggest } from "./textarea-suggest";

export interface SlashCommand {
	name: string;
	description: string;
}

type Offer = { kind: "command"; command: SlashCommand } | { kind: "prompt"; prompt: SavedPrompt } | { kind: "compact" } | { kind: "new" };

/** "Compact" in the menu: offered while `available`. */
export interface CompactOffer {
	available(): boolean;
	run(): void;
}

/** The `/query` being typed at the start of the message, or null. */
export function slashQuery(text: string, caret: number): string | null {
	const match = /^\/(\S*)$/.exec(text.slice(0, caret));
	return match?.[1] ?? null;
}

export class SlashCommandSuggest extends TextareaSuggest<Offer> {
	/** What the running agent offers; empty when none runs. */
	commands: SlashCommand[] = [];
	/** The saved prompts, as last listed. */
	prompts: SavedPrompt[] = [];

	constructor(
		app: App,
		textarea: HTMLTextAreaElement,
		private readonly listPrompts: () => Promise<SavedPrompt[]> | undefined,
		private readonly runPrompt: (prompt: SavedPrompt) => void,
		/** "New prompt…": the form to write one. */
		private readonly newPrompt: () => void,
		private readonly compact: CompactOffer | null = null,
	) {
		super(app, textarea, 30);
	}

	/** Lists the saved prompts again (the folder's notes may have changed). */
	async refresh(): Promise<void> {
		this.prompts = (await this.listPrompts()) ?? this.prompts;
	}

	protected getSuggestions(): Offer[] {
		const query = slashQuery(this.textarea.value, this.textarea.selectionStart);
		if (query === null) return [];
		const wanted = query.toLowerCase();
		const offers: [string, Offer][] = [
			...this.commands.map((command): [string, Offer] => [command.name.toLowerCase(), { kind: "command", command }]),
			...this.prompts.map((prompt): [string, Offer] => [prompt.name.toLowerCase(), { kind: "prompt", prompt }]),
		];
		if (this.compact?.available()) offers.push(["compact", { kind: "compact" }]);
		// Names that start with the query first, then those that contain it.
		const starts = offers.filter(([name]) => name.startsWith(wanted));
		const contains = offers.filter(([name]) => !name.startsWith(wanted) && name.includes(wanted));
		// Writing a prompt is always offered, last, whatever was typed.
		return [...starts, ...contains].map(([, offer]) => offer).concat({ kind: "new" });
	}

	renderSuggestion(offer: Offer, el: HTMLElement): void {
		if (offer.kind === "new") {
			el.addClass("vault-agent-suggestion", "vault-agent-new-prompt");
			setIcon(el.createSpan({ cls: "vault-agent-new-prompt-icon" }), "plus");
			el.createSpan({ cls: "suggestion-title", text: "New prompt…" });
			return;
		}
		if (offer.kind === "compact") {
			el.addClass("vault-agent-suggestion", "vault-agent-compact-command");
			el.createDiv({ cls: "suggestion-title", text: "Compact" });
			el.createDiv({ cls: "suggestion-note", text: "Summarise the earlier turns with your model, to free its context" });
			return;
		}
		const prompt = offer.kind === "prompt" ? offer.prompt : null;
		el.addClass("vault-agent-suggestion", prompt ? "vault-agent-saved-prompt" : "vault-agent-slash-command");
		el.createDiv({ cls: "suggestion-title", text: offer.kind === "prompt" ? offer.prompt.name : `/${offer.command.name}` });
		const note = offer.kind === "prompt" ? (offer.prompt.problem ?? offer.prompt.description) : offer.command.description;
		if (note) el.createDiv({ cls: `suggestion-note${prompt?.problem ? " vault-agent-prompt-problem" : ""}`, text: note });
	}

	selectSuggestion(offer: Offer): void {
		this.close();
		if (offer.kind === "new") {
			// The typed `/` was only the way into the menu.
			if (slashQuery(this.textarea.value, this.textarea.selectionStart) !== null) this.textarea.value = "";
			this.newPrompt();
			return;
		}
		if (offer.kind === "prompt") {
			this.runPrompt(offer.prompt);
			return;
		}
		if (offer.kind === "compact") {
			// The typed `/compact` was only the way into the menu.
			if (slashQuery(this.textarea.value, this.textarea.selectionStart) !== null) this.textarea.value = "";
			this.compact?.run();
			return;
		}
		const rest = this.textarea.value.slice(this.textarea.selectionStart).replace(/^\S*/, "").trimStart();
		const head = `/${offer.command.name} `;
		this.textarea.value = `${head}${rest}`;
		this.textarea.setSelectionRange(head.length, head.length);
		this.textarea.focus();
	}
}
