// The plan card (plan mode): the numbered steps the model proposed, each
// with its note and a text the user may edit, a step removed with its ×;
// Approve plan sends the steps kept, Reject sends no. What a plan may hold,
// whether the edits are allowed and what runs after are the core's
// (src/policy/plan.rs, src/doors/chat/plan.rs); this only draws and answers.

import { ButtonComponent, ExtraButtonComponent, TextAreaComponent } from "obsidian";
import type { ChatPlan, KeptStep } from "../core/types";

export interface PlanActions {
	answer(answer: { approve: boolean; steps?: KeptStep[]; together?: boolean }): void;
}

const ACTION_WORDS: Record<string, string> = { create: "Create", edit: "Edit", append: "Add to", prepend: "Add to the top of", move: "Move", rename: "Rename", delete: "Delete" };

export function renderPlanCard(el: HTMLElement, plan: ChatPlan, actions: PlanActions): void {
	const root = el.createDiv({ cls: "vault-agent-plan-card" });
	root.createDiv({ cls: "vault-agent-plan-title", text: plan.summary ? `Plan: ${plan.summary}` : "Plan" });
	root.createDiv({ cls: "vault-agent-plan-hint", text: "Nothing has changed yet. Edit or remove steps, then approve the plan or reject it." });
	const list = root.createEl("ol", { cls: "vault-agent-plan-steps" });
	const kept = plan.steps.map((step, index) => ({ index, what: step.what, removed: false }));
	const controls: { setDisabled(disabled: boolean): unknown }[] = [];
	plan.steps.forEach((step, index) => {
		const mine = { index, what: step.what, removed: false };
		kept[index] = mine;
		const item = list.createEl("li", { cls: "vault-agent-plan-step" });
		const head = item.createDiv({ cls: "vault-agent-plan-step-head" });
		// What the step does wraps inside its own box, so the × stays at the end of the first line at 320 px.
		const label = head.createDiv({ cls: "vault-agent-plan-step-label" });
		label.createSpan({ cls: "vault-agent-plan-action", text: ACTION_WORDS[step.action] ?? step.action });
		label.appendText(" ");
		label.createEl("code", { text: step.note });
		if (step.to) {
			label.createSpan({ text: " → " });
			label.createEl("code", { text: step.to });
		}
		const remove = new ExtraButtonComponent(head).setIcon("x").setTooltip("Remove this step").onClick(() => {
			mine.removed = !mine.removed;
			item.toggleClass("is-removed", mine.removed);
			remove.setIcon(mine.removed ? "undo-2" : "x").setTooltip(mine.removed ? "Keep this step" : "Remove this step");
		});
		// Obsidian draws it as a div: a button to a screen reader too.
		remove.extraSettingsEl.setAttribute("role", "button");
		controls.push(remove);
		const what = new TextAreaComponent(item).setValue(step.what).onChange((value) => (mine.what = value));
		what.inputEl.addClass("vault-agent-plan-what");
		what.inputEl.setAttribute("aria-label", `Step ${index + 1}`);
		what.inputEl.rows = 2;
		controls.push(what);
	});
	// Every change on one card at the end (each with its diff) instead of one card each as the mode says.
	const togetherRow = root.createEl("label", { cls: "vault-agent-plan-together" });
	const together = togetherRow.createEl("input", { type: "checkbox", cls: "vault-agent-plan-together-box" });
	togetherRow.createSpan({ text: "Approve all the changes on one card at the end" });
	controls.push({ setDisabled: (disabled: boolean) => (together.disabled = disabled) });
	const buttons = root.createDiv({ cls: "vault-agent-plan-buttons" });
	const answered = (text: string) => {
		for (const control of controls) control.setDisabled(true);
		buttons.empty();
		buttons.createDiv({ cls: "vault-agent-plan-answered", text });
	};
	const approve = new ButtonComponent(buttons).setButtonText("Approve plan").setCta().onClick(() => {
		const steps = kept.filter((s) => !s.removed).map(({ index, what }) => ({ index, what }));
		answered(together.checked ? "Approved. Its changes will wait for you on one card." : "Approved.");
		actions.answer({ approve: true, steps, together: together.checked });
	});
	approve.buttonEl.addClass("vault-agent-plan-approve");
	const reject = new ButtonComponent(buttons).setButtonText("Reject").onClick(() => {
		answered("Rejected.");
		actions.answer({ approve: false });
	});
	reject.buttonEl.addClass("vault-agent-plan-reject");
	controls.push(approve, reject);
}
