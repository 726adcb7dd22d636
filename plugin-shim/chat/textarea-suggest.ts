// Obsidian's suggest popover on the chat's textarea, with whether it is open
// (Enter picks from an open list instead of sending). The `[[`/`@` note
// suggest and the agent's slash commands both build on it.

import { AbstractInputSuggest, type App } from "obsidian";

export abstract class TextareaSuggest<T> extends AbstractInputSuggest<T> {
	/** The list is on screen (Enter picks from it then). */
	isOpen = false;

	constructor(
		app: App,
		protected readonly textarea: HTMLTextAreaElement,
		limit: number,
	) {
		// A textarea has the value and events of an <input> text box.
		super(app, textarea as unknown as HTMLInputElement);
		this.limit = limit;
	}

	open(): void {
		super.open();
		this.isOpen = true;
	}

	close(): void {
		super.close();
		this.isOpen = false;
	}
}
