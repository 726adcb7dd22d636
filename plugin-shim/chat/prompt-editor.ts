// Writing, editing and deleting a saved prompt from the chat. The user types
// every word of it in this form, so saving is their own edit of a note in the
// prompts folder (as typing in the editor is), not a change the agent
// proposes: no card and no undo journal; Obsidian's vault writes it and a
// deletion goes to the trash Obsidian's settings name. The core decides the
// note's path and text, and refuses a bad name or folder with the fix
// (src/doors/chat/prompt_notes.rs).

import { type App, ButtonComponent, Modal, normalizePath, TextAreaComponent, TextComponent, TFile } from "obsidian";
import type { CoreHandle, SavedPrompt } from "../core/types";

/** Opens the form for a new prompt (`prompt` absent) or for editing `prompt`; `saved` runs once it is written. */
export function editPrompt(app: App, core: CoreHandle, prompt: SavedPrompt | null, saved: () => void): void {
	new PromptEditorModal(app, core, prompt, saved).open();
}

/** Asks first, then moves the prompt's note to the trash; `deleted` runs once it is gone. */
export function deletePrompt(app: App, prompt: SavedPrompt, deleted: () => void): void {
	new DeletePromptModal(app, prompt, deleted).open();
}

class PromptEditorModal extends Modal {
	constructor(
		app: App,
		private readonly core: CoreHandle,
		private readonly prompt: SavedPrompt | null,
		private readonly saved: () => void,
	) {
		super(app);
	}

	onOpen(): void {
		const { contentEl, prompt } = this;
		this.modalEl.addClass("vault-agent-prompt-editor");
		this.setTitle(prompt ? "Edit saved prompt" : "New saved prompt");
		const folder = this.core.settings().chat.promptsFolder;
		contentEl.createEl("p", {
			cls: "vault-agent-prompt-editor-where",
			text: folder ? `Saved as a note in ${folder}, which you can also edit there.` : "No prompts folder is set: choose one in Settings → Vault Agent → Model first.",
		});
		const field = (label: string) => {
			const row = contentEl.createEl("label", { cls: "vault-agent-prompt-editor-field" });
			row.createDiv({ cls: "vault-agent-prompt-editor-label", text: label });
			return row;
		};
		const name = new TextComponent(field("Name")).setValue(prompt?.name ?? "").setPlaceholder("Summarise the open note");
		name.inputEl.addClass("vault-agent-prompt-name");
		const description = new TextComponent(field("Description (optional)")).setValue(prompt?.description ?? "").setPlaceholder("Shown under its name in the / menu");
		description.inputEl.addClass("vault-agent-prompt-description");
		const text = new TextAreaComponent(field("Prompt")).setValue(prompt?.text ?? "").setPlaceholder("Summarise {{note}} in five bullet points.");
		text.inputEl.addClass("vault-agent-prompt-text");
		text.inputEl.rows = 6;
		contentEl.createDiv({ cls: "vault-agent-prompt-editor-hint", text: "{{selection}}, {{note}} and {{date}} are filled in when the prompt runs." });
		const error = contentEl.createDiv({ cls: "vault-agent-prompt-editor-error", attr: { role: "alert" } });
		error.hide();
		const buttons = contentEl.createDiv({ cls: "modal-button-container" });
		const save = new ButtonComponent(buttons)
			.setButtonText("Save")
			.setCta()
			.onClick(async () => {
				save.setDisabled(true);
				const problem = await this.save({ name: name.getValue(), description: description.getValue(), text: text.getValue() });
				save.setDisabled(false);
				if (problem === null) {
					this.close();
					this.saved();
					return;
				}
				error.setText(problem);
				error.show();
			});
		save.buttonEl.addClass("vault-agent-prompt-save");
		new ButtonComponent(buttons).setButtonText("Cancel").onClick(() => this.close());
		name.inputEl.focus();
	}

	/** Writes the prompt as the core placed it; what went wrong, or null. */
	private async save(draft: { name: string; description: string; text: string }): Promise<string | null> {
		const { vault, fileManager } = this.app;
		const old = this.prompt ? vault.getAbstractFileByPath(this.prompt.path) : null;
		const current = old instanceof TFile ? await vault.read(old) : undefined;
		const note = this.core.savedPromptNote({ ...draft, path: this.prompt?.path, current });
		if (note.type === "refused") return note.message;
		try {
			if (old instanceof TFile) {
				if (note.from) await fileManager.renameFile(old, note.path);
				const moved = vault.getAbstractFileByPath(note.path);
				await vault.process(moved instanceof TFile ? moved : old, () => note.text);
			} else {
				const folder = normalizePath(note.path.split("/").slice(0, -1).join("/"));
				if (folder && !vault.getAbstractFileByPath(folder)) await vault.createFolder(folder);
				await vault.create(note.path, note.text);
			}
		} catch (error) {
			return `Could not save ${note.path}: ${error instanceof Error ? error.message : String(error)}`;
		}
		return null;
	}

	onClose(): void {
		this.contentEl.empty();
	}
}

/** "Delete this saved prompt?" with Delete and Cancel; nothing goes without the click. */
class DeletePromptModal extends Modal {
	constructor(
		app: App,
		private readonly prompt: SavedPrompt,
		private readonly deleted: () => void,
	) {
		super(app);
	}

	onOpen(): void {
		this.setTitle("Delete this saved prompt?");
		this.contentEl.createEl("p", { text: `The note ${this.prompt.path} goes to the trash, as Obsidian's settings say (Files and links → Deleted files).` });
		const buttons = this.contentEl.createDiv({ cls: "modal-button-container" });
		const remove = new ButtonComponent(buttons).setButtonText("Delete").onClick(async () => {
			this.close();
			const file = this.app.vault.getAbstractFileByPath(this.prompt.path);
			if (file instanceof TFile) await this.app.fileManager.trashFile(file);
			this.deleted();
		});
		// Obsidian's warning look (setWarning is deprecated; setDestructive needs 1.13).
		remove.buttonEl.addClass("mod-warning", "vault-agent-prompt-delete-confirm");
		new ButtonComponent(buttons).setButtonText("Cancel").onClick(() => this.close());
	}

	onClose(): void {
		this.contentEl.empty();
	}
}
