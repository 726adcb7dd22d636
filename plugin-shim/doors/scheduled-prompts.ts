// Scheduled saved prompts: at the core's start and once a minute after, the
// core says which prompts have a slot due (src/doors/chat/schedule.rs,
// from this clock and the last slots the plugin's data keeps). Each runs
// headless, as `vault-agent:ask` does, in a new chat that goes into the
// history; a card it raises is shown in Obsidian's modal. Times come from
// `Date` and the time zone's offset, as everywhere in the shim.

import { Notice } from "obsidian";
import type { ConfirmationCoordinator } from "../cards/confirmations";
import type { CoreHandle, DuePrompts, ScheduledRun } from "../core/types";
import type { ConversationStore } from "../host/conversation-store";

/** How often due slots are looked for; a slot runs within this of its time. */
export const SCHEDULE_CHECK_MS = 60_000;

export interface SchedulerDeps {
	core: CoreHandle;
	confirmations: ConfirmationCoordinator;
	conversations: ConversationStore;
	/** The last slot run per prompt, as the plugin's data holds it. */
	lastSlots(): unknown;
	saveLastSlots(slots: DuePrompts["lastSlots"]): Promise<void>;
}

export class PromptScheduler {
	/** The look in progress: a long turn is never started twice over. */
	private running: Promise<void> | null = null;

	constructor(private readonly deps: SchedulerDeps) {}

	/** Runs what is due now, after any look still in progress. */
	check(): Promise<void> {
		this.running ??= this.runDue()
			.catch((error: unknown) => console.warn("Vault Agent: the scheduled prompts could not run", error))
			.finally(() => (this.running = null));
		return this.running;
	}

	private async runDue(): Promise<void> {
		const now = new Date();
		const due = await this.deps.core.scheduledPrompts(now.getTime(), -now.getTimezoneOffset(), this.deps.lastSlots());
		// Kept before any turn starts: a reload or a crash during the turn
		// never runs the same slot again.
		if (due.changed) await this.deps.saveLastSlots(due.lastSlots);
		for (const run of due.runs) await this.run(run);
	}

	private async run(run: ScheduledRun): Promise<void> {
		const { core, confirmations, conversations } = this.deps;
		const errors: string[] = [];
		const onEvent = (event: { type: string; message?: string }) => {
			if (event.type === "error" && event.message) errors.push(event.message);
		};
		const start = { prompt: run.path, values: { date: "" }, scheduled: run.slot, late: run.late };
		let turn = await core.chatSend(core.newConversation(), "", onEvent, undefined, start);
		while (turn.end === "awaitingConfirmation" && turn.conversation.paused) {
			const id = turn.conversation.paused.confirmationId;
			const card = core.confirmationCard(id);
			if (card) confirmations.present(card);
			await confirmations.wait(id);
			turn = await core.chatContinue(turn.conversation, id, onEvent);
		}
		// A prompt that could not be filled in leaves no chat, only the notice.
		if (turn.conversation.messages.length > 0) await conversations.save(turn.conversation);
		const said = errors[0];
		new Notice(said ? `Vault Agent: the scheduled prompt “${run.name}” did not finish: ${said}` : `Vault Agent ran the scheduled prompt “${run.name}”; its chat is in the history.`);
	}
}
