// What the editor offers of Vault Agent: with text selected in a note, the
// context menu and the palette ask about it, rewrite it (a short instruction
// in a small modal; the answer comes back as the chat's edit card) or run a
// saved prompt on it; saved prompts chosen in the settings get palette
// commands of their own. The shim only collects the selection and the
// values; the core fills the prompts in, builds the edit of exactly the
// selected range and its stale check (src/doors/chat/selection.rs).

import { type App, type Editor, MarkdownView, Modal, type Plugin, Setting, SuggestModal, type TextComponent } from "obsidian";
import type { PromptValues, SavedPrompt, SelectionRequest } from "../core/types";
import { isoDate } from "../host/vault";

/** How the selection is to be rewritten: the user's words, or a saved prompt filled in by the core. */
export type RewriteHow = { instruction: string } | { prompt: string; values: PromptValues };

/** What a chat view does for the editor (view.ts forwards to the panel). */
export interface SelectionChat {
	askAbout(): void;
	rewrite(request: SelectionRequest, how: RewriteHow): Promise<void>;
	runPrompt(path: string, values: PromptValues): Promise<void>;
}

export interface EditorActionsHost {
	openChat(): Promise<SelectionChat | null>;
	savedPrompts(): Promise<SavedPrompt[]>;
}

/** The editor of the note being worked on, even while the chat has the focus. */
function activeEditor(app: App): Editor | undefined {
	const recent = app.workspace.getMostRecentLeaf()?.view;
	return app.workspace.activeEditor?.editor ?? (recent instanceof MarkdownView ? recent.editor : undefined);
}

/** What a saved prompt's variables are filled with: the selection, the active note, today. */
export function promptValues(app: App): PromptValues {
	const selection = activeEditor(app)?.getSelection();
	return { selection: selection || undefined, note: app.workspace.getActiveFile()?.path, date: isoDate(new Date()) };
}

/** The selection with the note's text as the editor holds it now. */
function selectionRequest(app: App, editor: Editor): SelectionRequest | null {
	const path = app.workspace.getActiveFile()?.path;
	if (!path || !editor.somethingSelected()) return null;
	const [from, to] = [editor.posToOffset(editor.getCursor("from")), editor.posToOffset(editor.getCursor("to"))];
	return { path, text: editor.getValue(), from, to };
}

export function registerEditorActions(plugin: Plugin, host: EditorActionsHost): PromptCommands {
	const { app } = plugin;
	const ask = async () => (await host.openChat())?.askAbout();
	const rewrite = (editor: Editor) => {
		const request = selectionRequest(app, editor);
		if (!request) return;
		const values = promptValues(app);
		void host.savedPrompts().then((prompts) => new RewriteModal(app, prompts, values, async (how) => (await host.openChat())?.rewrite(request, how)).open());
	};
	const runOn = async (prompt: SavedPrompt) => {
		const values = promptValues(app);
		await (await host.openChat())?.runPrompt(prompt.path, values);
	};
	const pick = async () => new PromptPicker(app, await host.savedPrompts(), (prompt) => void runOn(prompt)).open();
	const whenSelected = (run: (editor: Editor) => unknown) => (checking: boolean, editor: Editor) => {
		if (!editor.somethingSelected()) return false;
		if (!checking) void run(editor);
		return true;
	};
	plugin.addCommand({ id: "ask-about-selection", name: "Ask about the selection", editorCheckCallback: whenSelected(ask) });
	plugin.addCommand({ id: "rewrite-selection", name: "Rewrite the selection…", editorCheckCallback: whenSelected(rewrite) });
	plugin.addCommand({ id: "run-prompt-on-selection", name: "Run a saved prompt on the selection…", editorCheckCallback: whenSelected(pick) });
	plugin.registerEvent(
		app.workspace.on("editor-menu", (menu, editor) => {
			if (!editor.somethingSelected()) return;
			menu.addItem((item) => item.setTitle("Ask Vault Agent about the selection").setIcon("message-square").onClick(() => void ask()));
			menu.addItem((item) => item.setTitle("Rewrite the selection with Vault Agent…").setIcon("pencil").onClick(() => rewrite(editor)));
			menu.addItem((item) => item.setTitle("Run a saved prompt on the selection…").setIcon("list").onClick(() => void pick()));
		}),
	);
	return new PromptCommands(plugin, runOn);
}

/** One palette command per saved prompt the settings name (no hotkeys: users assign their own). */
export class PromptCommands {
	private ids: string[] = [];

	constructor(
		private readonly plugin: Plugin,
		private readonly run: (prompt: SavedPrompt) => Promise<void>,
	) {}

	/** The commands for `prompts` (those the settings chose), and no others. */
	sync(prompts: SavedPrompt[], chosen: string[]): void {
		for (const id of this.ids) this.plugin.removeCommand(id);
		this.ids = [];
		for (const prompt of prompts.filter((p) => chosen.includes(p.path))) {
			const id = `saved-prompt-${prompt.path}`;
			this.plugin.addCommand({ id, name: `Run saved prompt: ${prompt.name}`, callback: () => void this.run(prompt) });
			this.ids.push(id);
		}
	}
}

/** A saved prompt to run, by name, its description or what is wrong with it beside it. */
class PromptPicker extends SuggestModal<SavedPrompt> {
	constructor(
		app: App,
		private readonly prompts: SavedPrompt[],
		private readonly picked: (prompt: SavedPrompt) => void,
	) {
		super(app);
		this.setPlaceholder(prompts.length ? "Saved prompt to run on the selection" : "No saved prompts: choose their folder in Settings → Vault Agent → Model");
	}

	getSuggestions(query: string): SavedPrompt[] {
		return this.prompts.filter((p) => p.name.toLowerCase().includes(query.toLowerCase()));
	}

	renderSuggestion(prompt: SavedPrompt, el: HTMLElement): void {
		el.createDiv({ text: prompt.name });
		const note = prompt.problem ?? prompt.description;
		if (note) el.createEl("small", { cls: prompt.problem ? "vault-agent-prompt-problem" : "", text: note });
	}

	onChooseSuggestion(prompt: SavedPrompt): void {
		this.picked(prompt);
	}
}

/** "Rewrite the selection…": a short instruction, or one of the saved prompts; sent with Enter or the button. */
class RewriteModal extends Modal {
	constructor(
		app: App,
		/** Saved prompts that can run (a broken one is not offered). */
		private readonly prompts: SavedPrompt[],
		private readonly values: PromptValues,
		private readonly done: (how: RewriteHow) => unknown,
	) {
		super(app);
	}

	onOpen(): void {
		this.setTitle("Rewrite the selection");
		this.contentEl.addClass("vault-agent-rewrite");
		let instruction = "";
		let prompt = "";
		const send = () => {
			if (!prompt && !instruction.trim()) return;
			this.close();
			void this.done(prompt ? { prompt, values: this.values } : { instruction });
		};
		let how: TextComponent | null = null;
		new Setting(this.contentEl)
			.setName("How")
			.setDesc("The answer is shown as a change to approve, covering only the selected text.")
			.addText((text) => {
				how = text;
				text.setPlaceholder("Shorter, in plain words");
				text.onChange((value) => (instruction = value));
				text.inputEl.addEventListener("keydown", (event) => {
					if (event.key === "Enter" && !event.isComposing) {
						event.preventDefault();
						send();
					}
				});
				window.setTimeout(() => text.inputEl.focus(), 0);
			});
		const usable = this.prompts.filter((p) => !p.problem);
		if (usable.length > 0) {
			new Setting(this.contentEl)
				.setName("Or a saved prompt")
				.setDesc("Its text is the instruction, with {{selection}} the selected text.")
				.addDropdown((dropdown) => {
					dropdown.addOption("", "None");
					for (const p of usable) dropdown.addOption(p.path, p.name);
					dropdown.onChange((value) => {
						prompt = value;
						how?.setDisabled(value !== "");
					});
				});
		}
		new Setting(this.contentEl).addButton((button) => button.setButtonText("Rewrite").setCta().onClick(send));
	}

	onClose(): void {
		this.contentEl.empty();
	}
}
