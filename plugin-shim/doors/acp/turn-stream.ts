// What one turn of a coding agent streams into the chat, bounded by the
// core's limits (src/policy/agent_session.rs, as generated constants): the
// answer's text and the thoughts are kept up to a cap and then cut with a
// line saying so, the plan and the tool blocks are shortened, and streamed
// pieces are handed on at most once per frame, merged, so a flood of small
// chunks is not one DOM change each. An agent that streamed 100 MB made the
// plugin keep it twice before.

import type { ChatEvent } from "../../core/types";
import {
	AGENT_ANSWER_CUT_NOTE,
	AGENT_DRAW_INTERVAL_MS,
	AGENT_PLAN_ENTRY_MAX_CHARS,
	AGENT_PLAN_MAX_ENTRIES,
	AGENT_PLAN_MORE_NOTE,
	AGENT_TEXT_MAX_CHARS,
	AGENT_THOUGHTS_CUT_NOTE,
	AGENT_TOOL_CALLS_MAX,
	AGENT_TOOL_TEXT_MAX_CHARS,
} from "../../generated/limits";

type Piece = { type: "textDelta" | "reasoningDelta"; text: string };

/** One stream of text (the answer, or the thoughts) kept up to the cap. */
class Capped {
	length = 0;
	cut = false;

	constructor(private readonly note: string) {}

	/** What of `piece` is kept: all of it, its start and the cut note, or nothing. */
	take(piece: string): string {
		if (this.cut) return "";
		const room = AGENT_TEXT_MAX_CHARS - this.length;
		if (piece.length <= room) {
			this.length += piece.length;
			return piece;
		}
		this.cut = true;
		let kept = piece.slice(0, room);
		// Never half a surrogate pair at the cut.
		const last = kept.charCodeAt(kept.length - 1);
		if (last >= 0xd800 && last <= 0xdbff) kept = kept.slice(0, -1);
		this.length += kept.length + this.note.length;
		return kept + this.note;
	}
}

export class TurnStream {
	private readonly answer = new Capped(AGENT_ANSWER_CUT_NOTE);
	private readonly thoughts = new Capped(AGENT_THOUGHTS_CUT_NOTE);
	private readonly said: string[] = [];
	private pending: Piece | null = null;
	private timer: number | null = null;
	private readonly shownTools = new Set<string>();
	private hiddenTools = 0;

	constructor(private readonly emit: (event: ChatEvent) => void) {}

	/** The answer as the chat keeps it (cut at the cap, with the note). */
	get text(): string {
		return this.said.join("");
	}

	/** Tool calls not shown (past `AGENT_TOOL_CALLS_MAX`). */
	get toolsNotShown(): number {
		return this.hiddenTools;
	}

	answerPiece(text: string): void {
		const kept = this.answer.take(text);
		if (!kept) return;
		this.said.push(kept);
		this.queue({ type: "textDelta", text: kept });
	}

	thoughtPiece(text: string): void {
		const kept = this.thoughts.take(text);
		if (kept) this.queue({ type: "reasoningDelta", text: kept });
	}

	/** Hands on what is waiting: before any other event, and at the end of the turn. */
	flush(): void {
		if (this.timer !== null) window.clearTimeout(this.timer);
		this.timer = null;
		const pending = this.pending;
		this.pending = null;
		if (pending) this.emit(pending);
	}

	/** The turn is over: nothing more is handed on. */
	dispose(): void {
		if (this.timer !== null) window.clearTimeout(this.timer);
		this.timer = null;
		this.pending = null;
	}

	/** Whether the block of tool call `id` is shown: the first `AGENT_TOOL_CALLS_MAX` of the turn are. */
	showsTool(id: string, starting: boolean): boolean {
		if (this.shownTools.has(id)) return true;
		if (!starting) return false;
		if (this.shownTools.size >= AGENT_TOOL_CALLS_MAX) {
			this.hiddenTools += 1;
			return false;
		}
		this.shownTools.add(id);
		return true;
	}

	private queue(piece: Piece): void {
		if (this.pending && this.pending.type !== piece.type) this.flush();
		if (this.pending) this.pending.text += piece.text;
		else this.pending = piece;
		this.timer ??= window.setTimeout(() => {
			this.timer = null;
			this.flush();
		}, AGENT_DRAW_INTERVAL_MS);
	}
}

/** The plan as the chat shows it: its first entries, each short, and a count of the rest. */
export function boundedPlan(entries: Array<{ content: string; status: string }>): Array<{ content: string; status: string }> {
	const shown = entries.length > AGENT_PLAN_MAX_ENTRIES ? entries.slice(0, AGENT_PLAN_MAX_ENTRIES - 1) : entries;
	const plan = shown.map((e) => ({ content: shortened(e.content, AGENT_PLAN_ENTRY_MAX_CHARS), status: e.status }));
	if (entries.length > shown.length) plan.push({ content: AGENT_PLAN_MORE_NOTE.replace("{count}", String(entries.length - shown.length)), status: "pending" });
	return plan;
}

/** A tool call's title, arguments or output as its block shows them. */
export function toolText(text: string): string {
	return shortened(text, AGENT_TOOL_TEXT_MAX_CHARS);
}

function shortened(text: string, max: number): string {
	if (text.length <= max) return text;
	let kept = text.slice(0, max - 1);
	const last = kept.charCodeAt(kept.length - 1);
	if (last >= 0xd800 && last <= 0xdbff) kept = kept.slice(0, -1);
	return `${kept}…`;
}
