// A coding agent's turn (Claude Code, Codex, Gemini CLI… over ACP): its
// session is started (or resumed) on first use and kept while the picker
// stays on it; what it reports goes to the transcript on the same events as
// our model's, plus its own (plan, questions, settings, modes, slash
// commands, a crash). ACP cannot rewind an agent's history.

import { setTooltip, type DropdownComponent } from "obsidian";
import type { AgentAnswerText, Attachment } from "../core/types";
import type { AgentProfile } from "../doors/acp/profiles";
import type { AgentEvent, AgentImage } from "../doors/acp/events";
import type { AgentSession } from "../doors/acp/session";
import { count } from "./answer-extras";
import { renderAgentConfig, renderPermission, renderPlan } from "./agent-blocks";
import type { SlashCommandSuggest } from "./slash-commands";
import type { ChatSurface, ChatTurn } from "./turn";

/** The header's controls for a running agent, made by the view where they sit. */
export interface AgentControls {
	/** The modes the agent reports (e.g. Ask, Code). */
	modeDropdown: DropdownComponent;
	/** The agent's session settings (its model…), one dropdown each. */
	configEl: HTMLElement;
	slashSuggest: SlashCommandSuggest;
}

export class AgentTurn implements ChatTurn {
	readonly rewinds = false;
	readonly takesNotes = false;
	/** The coding agent (ACP) this chat runs, once started. */
	private session: AgentSession | null = null;
	/** Restart's start, which a Send right after it waits for. */
	private starting: Promise<void> | null = null;

	constructor(
		private readonly chat: ChatSurface,
		private readonly controls: AgentControls,
	) {}

	/** The agent the picker has chosen, or null when a model profile answers. */
	profile(): AgentProfile | null {
		return this.chat.ctx.codingAgents?.profileFor(this.chat.ctx.selectedAgent()) ?? null;
	}

	/** One turn of the coding agent: started (or resumed) on first use, events on the one channel; images as ACP image content where it takes them. */
	async send(text: string, attachments: Attachment[] | undefined): Promise<void> {
		const chat = this.chat;
		const runner = chat.ctx.codingAgents;
		const profile = runner?.profileFor(chat.ctx.selectedAgent());
		const conversation = chat.conversation;
		const core = chat.ctx.core;
		if (!runner || !profile || !conversation || !core) return;
		chat.setRunning(true);
		chat.banner.hide();
		chat.drawRegenerate();
		const answers: AgentAnswerText[] = [];
		let reasoning = "";
		try {
			await this.starting;
			if (!this.session?.running || this.session.profile.id !== profile.id) {
				this.end();
				const resume = conversation.agent?.profile === profile.id ? conversation.agent.sessionId : null;
				this.session = await runner.start(profile, resume);
				this.showState();
			}
			const session = this.session;
			const images = await agentImages(chat, session.facts?.name ?? profile.name, session.facts?.promptImage ?? false, attachments ?? []);
			if (typeof images === "string") return chat.showBanner(images);
			await session.prompt(
				text,
				(event) => {
					if (event.type === "reasoningDelta") reasoning += event.text;
					if (event.type === "assistantMessage") answers.push({ text: event.text, reasoning });
					this.event(event);
				},
				images,
				conversation,
			);
			const agent = { profile: profile.id, name: session.facts?.name ?? profile.name, sessionId: session.sessionId };
			// The images go into the stored message by reference (a pasted one's file stays with the chat).
			await chat.keep(core.keepAgentTurn(conversation, text, images.length ? (attachments ?? []) : [], answers, agent));
		} catch (error) {
			chat.showBanner(error instanceof Error ? error.message : String(error));
		} finally {
			chat.transcript.flushText();
			chat.setRunning(false);
		}
	}

	/** Stop: `session/cancel` to an agent whose process runs. */
	stop(): boolean {
		if (!this.session?.running) return false;
		this.session.cancel();
		return true;
	}

	end(): void {
		const session = this.session;
		this.session = null;
		if (session) this.chat.ctx.codingAgents?.end(session);
		this.showSlashCommands([]);
		this.controls.modeDropdown.selectEl.hide();
		this.controls.configEl.empty();
	}

	/** The header's mode dropdown picked one of the modes the agent reported. */
	setMode(mode: string): void {
		void this.session?.setMode(mode);
	}

	/** What the running agent reported, also before its first turn: settings, modes, slash commands. */
	private showState(): void {
		const session = this.session;
		const chat = this.chat;
		if (session) session.onStateChanged = () => this.showState();
		// A request refused between turns is said at once, not at the next Send.
		if (session) session.onNotice = (text) => (chat.transcript.notice(text), chat.transcript.scrollToEnd());
		this.showSlashCommands(session?.commands ?? []);
		renderAgentConfig(this.controls.configEl, session?.config ?? [], (id, value) => {
			void session?.setConfigOption(id, value).then(
				() => this.showState(),
				(error: unknown) => {
					// The dropdown goes back to what the agent still has.
					this.showState();
					chat.showBanner(`${session.facts?.name ?? "The agent"} did not take the setting: ${error instanceof Error ? error.message : String(error)}`);
				},
			);
		});
		const modes = session?.modes;
		const dropdown = this.controls.modeDropdown;
		const select = dropdown.selectEl;
		select.empty();
		// An agent that reports its modes as a session setting too is shown that way only (as ACP asks of clients).
		if (!modes || modes.available.length === 0 || session?.config.some((o) => o.category === "mode")) {
			select.hide();
			return;
		}
		for (const mode of modes.available) dropdown.addOption(mode.id, mode.name);
		dropdown.setValue(modes.current);
		// Its name, and the mode a narrow header cuts: Obsidian shows it as a tooltip.
		setTooltip(select, `Agent's mode: ${select.selectedOptions[0]?.text ?? modes.current}`);
		select.show();
	}

	/** The agent's slash commands, offered when a message starts with `/`. */
	private showSlashCommands(commands: Array<{ name: string; description: string }>): void {
		this.controls.slashSuggest.commands = commands;
		const name = this.session?.facts?.name ?? "the agent";
		this.chat.input.setAttribute("placeholder", commands.length > 0 ? `Message ${name}… (/ for its commands)` : "Ask about your vault…");
	}

	private event(event: AgentEvent): void {
		const transcript = this.chat.transcript;
		const name = this.session?.facts?.name ?? "The agent";
		switch (event.type) {
			case "plan":
				renderPlan(transcript.el, event.entries);
				break;
			case "permission":
				transcript.setAsideWaitingBubble();
				renderPermission(transcript.el, name, event.ask);
				break;
			case "commands":
				this.showSlashCommands(event.commands);
				break;
			case "config":
			case "modes":
				this.showState();
				break;
			case "crashed":
				this.showCrash(name, event.stderr);
				break;
			case "agentUsage":
				transcript.agentUsage(`Context: ${count(event.used)} of ${count(event.size)} tokens`);
				break;
			case "confirmationNeeded": {
				// A write the agent asked for: our card, answered through the coordinator it waits on.
				transcript.setAsideWaitingBubble();
				const confirmations = this.chat.ctx.confirmations;
				const card = event.card;
				transcript.card(
					event.callId,
					card,
					confirmations ? { approve: () => confirmations.approve(card), approveChanges: (_c, changes) => confirmations.approveChanges(card, changes), reject: () => confirmations.reject(card) } : undefined,
				);
				break;
			}
			default:
				transcript.event(event);
				return;
		}
		transcript.scrollToEnd();
	}

	/** The agent's process ended mid-turn: its last words on stderr, and Restart. */
	private showCrash(name: string, stderr: string): void {
		this.chat.banner.crash(`${name} stopped unexpectedly.${stderr ? `\n${stderr.split("\n").slice(-8).join("\n")}` : ""}`, () => this.restart());
	}

	private restart(): void {
		const chat = this.chat;
		this.end();
		chat.banner.hide();
		const profile = chat.ctx.codingAgents?.profileFor(chat.ctx.selectedAgent());
		const runner = chat.ctx.codingAgents;
		if (!profile || !runner) return;
		this.starting = runner.start(profile).then(
			(session) => {
				this.starting = null;
				// The chat moved on meanwhile (closed, another agent): this one is not needed.
				if (this.session || !chat.opened) runner.end(session);
				else this.session = session;
				this.showState();
			},
			(error: unknown) => {
				this.starting = null;
				chat.showBanner(error instanceof Error ? error.message : String(error));
			},
		);
	}
}

/** The images of a message as ACP image blocks, scaled to the core's limits, or why the agent gets none. */
async function agentImages(chat: ChatSurface, agent: string, advertised: boolean, attachments: Attachment[]): Promise<AgentImage[] | string> {
	const core = chat.ctx.core;
	const store = chat.ctx.conversations?.images;
	if (attachments.length === 0 || !core || !store) return [];
	const limits = core.agentImages(agent, advertised);
	if ("refusal" in limits) return limits.refusal;
	const blocks: AgentImage[] = [];
	for (const a of attachments) {
		const image = await store.imageData(a.path, a.pasted ?? false, limits.maxSide, limits.maxBytes);
		if ("error" in image) return `${a.pasted ? "A pasted image" : a.path} could not be sent: ${image.error.message}. Nothing was sent.`;
		blocks.push({ type: "image", mimeType: image.mime, data: image.base64 });
	}
	return blocks;
}
