// "Check this model": runs the core's probes on the profile in use, with a
// progress line and a Stop, keeps the result with the checked profile, draws
// the table and the advice, and applies a fix the core names (one click).
// The settings tab, the palette's modal and the CLI command share it.

import { ButtonComponent, Modal, type App } from "obsidian";
import type { CheckFix, CoreHandle, ModelCheckReport, ModelProfile, VaultAgentSettings } from "../core/types";
import { MODEL_CHECK_TAG } from "../generated/constants";

/** What a check needs of the plugin. */
export interface ModelCheckHost {
	readonly core: CoreHandle | null;
	updateSettings(patch: Partial<VaultAgentSettings>): Promise<VaultAgentSettings>;
	/** Ends the requests in flight tagged `tag`. */
	abortRequests(tag?: string): void;
}

/** Runs the check; its record is kept with the profile it checked (a stopped check keeps none). */
export async function runModelCheck(host: ModelCheckHost, onProgress: (line: string) => void): Promise<ModelCheckReport | null> {
	const core = host.core;
	if (!core) return null;
	const report = await core.checkModel(onProgress);
	if (report.record) await patchProfile(host, report.profile, { lastCheck: report.record });
	return report;
}

/** Stop: the core ends the check at its next step; its request in flight is aborted now. */
export function stopModelCheck(host: ModelCheckHost): void {
	host.core?.checkModelStop();
	host.abortRequests(MODEL_CHECK_TAG);
}

/** Applies the setting change the core named to the profile that was checked. */
export async function applyCheckFix(host: ModelCheckHost, report: ModelCheckReport, fix: CheckFix): Promise<void> {
	await patchProfile(host, report.profile, fix.patch);
}

async function patchProfile(host: ModelCheckHost, id: string, patch: Partial<ModelProfile>): Promise<void> {
	const core = host.core;
	if (!core) return;
	const chat = core.settings().chat;
	if (!chat.profiles.some((p) => p.id === id)) return;
	await host.updateSettings({ chat: { ...chat, profiles: chat.profiles.map((p) => (p.id === id ? { ...p, ...patch } : p)) } });
}

const STATUS_WORDS = { passed: "Passed", failed: "Failed", notApplicable: "Not applicable" } as const;

/** The table, the advice and a button per fix; `onFix` runs after a fix was applied. */
export function drawCheckReport(parent: HTMLElement, host: ModelCheckHost, report: ModelCheckReport, onFix: () => void): void {
	const box = parent.createDiv({ cls: "vault-agent-model-check" });
	const table = box.createEl("table", { cls: "vault-agent-model-check-table" });
	for (const row of report.rows) {
		const tr = table.createEl("tr", { cls: `vault-agent-check-${row.status}` });
		tr.createEl("td", { text: row.name });
		tr.createEl("td", { cls: "vault-agent-check-status", text: STATUS_WORDS[row.status] });
		tr.createEl("td", { text: row.figure });
	}
	for (const line of report.advice) box.createEl("p", { cls: "vault-agent-model-check-advice", text: line });
	const buttons = box.createDiv({ cls: "vault-agent-model-check-fixes" });
	for (const fix of report.fixes) {
		const button = new ButtonComponent(buttons).setButtonText(fix.label).onClick(async () => {
			button.setDisabled(true);
			await applyCheckFix(host, report, fix);
			button.setButtonText(`${fix.label}: done`);
			onFix();
		});
		button.buttonEl.addClass("vault-agent-model-check-fix");
	}
}

/**
 * A check with its progress line, Stop and answer, drawn into `parent`:
 * the button starts it, Stop ends it, and "Check again" runs it anew (after a fix too).
 */
export class ModelCheckPanel {
	private running = false;
	private readonly line: HTMLElement;
	private readonly result: HTMLElement;
	private readonly start: ButtonComponent;
	private readonly stop: ButtonComponent;

	constructor(
		private readonly host: ModelCheckHost,
		buttons: HTMLElement,
		output: HTMLElement,
		/** After a fix was applied (the settings tab redraws); by default the line says to check again. */
		private readonly onFix: (() => void) | null = null,
	) {
		this.start = new ButtonComponent(buttons).setButtonText("Check this model").onClick(() => void this.run());
		this.stop = new ButtonComponent(buttons).setButtonText("Stop").onClick(() => stopModelCheck(this.host));
		this.stop.buttonEl.hide();
		this.line = output.createDiv({ cls: "vault-agent-model-check-progress" });
		this.result = output.createDiv();
	}

	/** What the profile kept of its last check, until a check runs. */
	showLast(profile: ModelProfile | undefined): void {
		const last = profile?.lastCheck;
		if (!profile || !last) {
			this.line.setText("Not checked yet.");
			return;
		}
		const when = new Date(last.atMs).toLocaleDateString();
		const same = last.model === profile.model ? "" : ` (then ${last.model}, another model)`;
		this.line.setText(`Last checked ${when}${same}: ${last.passed.length} passed, ${last.failed.length} failed. ${last.advice}`);
	}

	async run(): Promise<void> {
		if (this.running) return;
		this.running = true;
		this.start.setDisabled(true);
		this.stop.buttonEl.show();
		this.result.empty();
		this.line.setText("Starting the check…");
		let report: ModelCheckReport | null = null;
		try {
			report = await runModelCheck(this.host, (line) => this.line.setText(line));
		} finally {
			this.running = false;
			this.start.setDisabled(false).setButtonText("Check again");
			this.stop.buttonEl.hide();
		}
		this.line.setText(report ? `Checked ${report.model}${report.stopped ? " (stopped)" : ""}.` : "Vault Agent has not started yet.");
		if (report) drawCheckReport(this.result, this.host, report, () => (this.onFix ? this.onFix() : this.line.setText("Fixed: check again to confirm.")));
	}
}

/** The palette's "Check this model": the same panel in a modal, started at once. */
export class ModelCheckModal extends Modal {
	constructor(
		app: App,
		private readonly host: ModelCheckHost,
	) {
		super(app);
	}

	onOpen(): void {
		const profile = this.host.core?.settings().chat;
		const active = profile?.profiles.find((p) => p.id === profile.activeProfile);
		this.setTitle(`Check this model${active ? `: ${active.model}` : ""}`);
		const buttons = this.contentEl.createDiv({ cls: "vault-agent-model-check-buttons" });
		const panel = new ModelCheckPanel(this.host, buttons, this.contentEl);
		void panel.run();
	}

	onClose(): void {
		// A check the user walked away from is stopped.
		stopModelCheck(this.host);
		this.contentEl.empty();
	}
}
