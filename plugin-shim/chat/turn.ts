// The one interface behind which the chat's two engines answer a message:
// our model's turn (turn-model.ts, the core's agent loop) and a coding
// agent's turn (turn-agent.ts, over ACP). The view picks one from the
// header's picker and draws what either reports on the same surface.

import type { Attachment, Conversation } from "../core/types";
import type { Banner } from "./banner";
import type { ViewContext } from "./view-context";
import type { Transcript } from "./transcript";

export interface ChatTurn {
	/** Whether the engine's history can be rewound (edit and resend, Regenerate). */
	readonly rewinds: boolean;
	/** Whether a message carries the attached notes (a coding agent reads the vault itself, and gets only the images). */
	readonly takesNotes: boolean;
	/** Answers `text` (already drawn) in the conversation on screen. */
	send(text: string, attachments: Attachment[] | undefined): Promise<void>;
	/** Stops what the engine runs now; false when it runs nothing. */
	stop(): boolean;
	/** The chat moved on (a new chat, another pick, the view closed): what the engine started ends. */
	end(): void;
}

/** What a turn may use of the chat view. */
export interface ChatSurface {
	readonly ctx: ViewContext;
	readonly transcript: Transcript;
	readonly banner: Banner;
	readonly input: HTMLTextAreaElement;
	/** The conversation on screen; a turn replaces it with what it returned. */
	conversation: Conversation | null;
	readonly running: boolean;
	/** The view is open (a late start must not attach to a closed one). */
	readonly opened: boolean;
	setRunning(running: boolean): void;
	/** "Regenerate" after the last answer, when there is one to redo. */
	drawRegenerate(): void;
	/** Shows `conversation` from its first message. */
	redraw(conversation: Conversation): Promise<void>;
	/** A user's message, with its edit button where the chat can be rewound. */
	renderUser(text: string, attachments: Attachment[] | undefined): void;
	/** The banner, with Retry (our model's turn again) when `retry`. */
	showBanner(message: string, retry?: boolean): void;
	/** After a turn: the conversation is saved, remembered as the last one, and the history list refreshed. */
	keep(conversation: Conversation): Promise<void>;
}
