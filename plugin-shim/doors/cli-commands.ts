// The plugin's own Obsidian CLI commands (`obsidian vault-agent:tools`,
// `vault-agent:call`, `vault-agent:ask`, `vault-agent:check`, Obsidian 1.12.2+): a door like the
// others, through the core's gate, its cards shown in Obsidian's modal.

import type { ConfirmationCoordinator } from "../cards/confirmations";
import type { ChatMessage, CoreHandle, TurnResult } from "../core/types";
import type { ToolResult } from "../vault-agent-api";
import { PERMISSION_MODE_KEYS_LISTED, PERMISSION_MODES } from "../generated/constants";
import { applyCheckFix, runModelCheck, type ModelCheckHost } from "../settings/model-check";

/** `Plugin.registerCliHandler`, as this Obsidian has it. */
export type RegisterCliHandler = (
	command: string,
	description: string,
	flags: Record<string, { value?: string; description: string; required?: boolean }> | null,
	handler: (params: Record<string, string>) => string | Promise<string>,
) => void;

const MODE_KEYS: readonly string[] = PERMISSION_MODES.map((m) => m.mode);
const MODE_FLAG = `${PERMISSION_MODE_KEYS_LISTED}; never more than the chat allows.`;

/** Registers the four commands with `register`. */
export function registerCliCommands(core: CoreHandle, confirmations: ConfirmationCoordinator, modelCheck: ModelCheckHost, register: RegisterCliHandler): void {
	new CliCommands(core, confirmations, modelCheck).register(register);
}

class CliCommands {
	constructor(
		private readonly core: CoreHandle,
		private readonly confirmations: ConfirmationCoordinator,
		private readonly modelCheck: ModelCheckHost,
	) {}

	register(register: RegisterCliHandler): void {
		register("vault-agent:tools", "List Vault Agent's tools that are switched on, with their commands.", null, () => this.cliTools());
		register(
			"vault-agent:call",
			"Run one Vault Agent tool call through its policy and confirmations.",
			{
				tool: { value: "<id>", description: "The tool, e.g. obsidianNotes (see vault-agent:tools).", required: true },
				args: { value: "<json>", description: 'The arguments as JSON, e.g. {"command":"read","file":"Welcome"}.' },
				mode: { value: "<mode>", description: MODE_FLAG },
			},
			(params) => this.cliCall(params),
		);
		register(
			"vault-agent:ask",
			"Ask Vault Agent's chat model one question and print its answer.",
			{
				prompt: { value: "<text>", description: "What to ask.", required: true },
				mode: { value: "<mode>", description: MODE_FLAG },
			},
			(params) => this.cliAsk(params),
		);
		register(
			"vault-agent:check",
			"Check the chat's model: whether it answers, how fast, its context window, tool calls, and what to change. Sends nothing from the vault.",
			{ fix: { description: "Apply the settings the check names as fixes (then run it again)." } },
			(params) => this.cliCheck(params),
		);
	}

	private async cliCheck(params: Record<string, string>): Promise<string> {
		const report = await runModelCheck(this.modelCheck, () => {});
		if (!report) return "Error: not_started: Vault Agent has not started yet.";
		if (params.fix === undefined || report.fixes.length === 0) return report.text;
		for (const fix of report.fixes) await applyCheckFix(this.modelCheck, report, fix);
		return `${report.text}\nApplied: ${report.fixes.map((fix) => fix.label).join("; ")}. Run vault-agent:check again to confirm.`;
	}

	private cliTools(): string {
		const tools = this.core.listTools().filter((tool) => tool.enabled);
		return tools.map((tool) => `${tool.id}: ${tool.commands.join(", ")}`).join("\n");
	}

	private async cliCall(params: Record<string, string>): Promise<string> {
		const mode = checkedMode(params.mode);
		if (mode instanceof Error) return mode.message;
		let args: unknown = {};
		if (params.args !== undefined && params.args !== "true") {
			try {
				args = JSON.parse(params.args);
			} catch (error) {
				return `Error: invalid_arguments: args is not JSON (${String(error)}); quote it, e.g. args='{"command":"read","file":"Welcome"}'.`;
			}
		}
		let result = await this.core.callToolThrough(params.tool ?? "", args, "Obsidian CLI", mode);
		if (result.pending) result = await this.waitForCard(result.pending.id);
		return resultText(result);
	}

	private async cliAsk(params: Record<string, string>): Promise<string> {
		const mode = checkedMode(params.mode);
		if (mode instanceof Error) return mode.message;
		const prompt = params.prompt;
		if (!prompt || prompt === "true") return 'Error: invalid_arguments: prompt is required, e.g. prompt="What did I write today?".';
		const core = this.core;
		const conversation = core.newConversation();
		conversation.door = { name: "Obsidian CLI", modeCap: (mode ?? core.settings().permissionMode) as never };
		const errors: string[] = [];
		const onEvent = (event: { type: string; code?: string; message?: string }) => {
			if (event.type === "error") errors.push(`Error: ${event.code}: ${event.message}`);
		};
		let turn: TurnResult = await core.chatSend(conversation, prompt, onEvent, undefined, undefined);
		while (turn.end === "awaitingConfirmation" && turn.conversation.paused) {
			const id = turn.conversation.paused.confirmationId;
			await this.waitForCard(id);
			turn = await core.chatContinue(turn.conversation, id, onEvent);
		}
		if (turn.end === "failed" && errors.length > 0) return errors.join("\n");
		const answer = [...turn.conversation.messages].reverse().find((m): m is Extract<ChatMessage, { role: "assistant" }> => m.role === "assistant" && m.text.trim() !== "");
		return answer?.text ?? errors.join("\n");
	}

	/** Shows the card in Obsidian and waits for the user's answer (or its expiry). */
	private waitForCard(id: string): Promise<ToolResult> {
		const card = this.core.confirmationCard(id);
		if (card) this.confirmations.present(card);
		return this.confirmations.wait(id);
	}
}

/** A `mode=` flag, checked; `null` when none was given. */
function checkedMode(mode: string | undefined): string | null | Error {
	if (mode === undefined) return null;
	if (MODE_KEYS.includes(mode)) return mode;
	return new Error(`Error: invalid_arguments: mode must be one of ${MODE_KEYS.join(", ")} (never more than the chat allows).`);
}

/** A result as the CLI prints it: the text, or `Error: <code>: <message>`. */
function resultText(result: ToolResult): string {
	if (result.ok) return result.text;
	return `Error: ${result.error?.code ?? "failed"}: ${result.error?.message ?? result.text}`;
}
