// The plan's changes on one card (a plan approved "all together"): every
// change the model asked for while carrying it out, each with its own diff,
// held unwritten until Approve all (each then written, journalled and
// undoable on its own tool block) or Reject all. What is held, the stale
// checks and what the model is told are the core's
// (src/doors/chat/plan_changes.rs); this only draws and answers.

import { ButtonComponent } from "obsidian";
import { renderChangePreview } from "../cards/confirmation-card";
import type { PlanChangesCard } from "../core/types";

export interface PlanChangesActions {
	/** Approve or reject every change on the card; resolves once the core has answered. */
	answer(card: PlanChangesCard, approve: boolean): Promise<void>;
}

export function renderPlanChangesCard(el: HTMLElement, card: PlanChangesCard, actions: PlanChangesActions): void {
	const root = el.createDiv({ cls: ["vault-agent-confirm", "vault-agent-plan-changes"] });
	root.dataset.confirmationId = card.id;
	const count = card.changes.length;
	const title = `The plan's ${count === 1 ? "change" : `${count} changes`}${card.summary ? `: ${card.summary}` : ""}`;
	root.createDiv({ cls: "vault-agent-confirm-summary", text: title });
	root.createDiv({ cls: "vault-agent-plan-hint", text: "Nothing is written yet. Approve all writes every change below, each with its own undo; Reject all writes none." });
	const list = root.createEl("ol", { cls: "vault-agent-plan-changes-list" });
	for (const change of card.changes) {
		const item = list.createEl("li", { cls: "vault-agent-plan-change" });
		item.dataset.confirmationId = change.card.id;
		item.createDiv({ cls: "vault-agent-plan-change-summary", text: change.card.summary });
		renderChangePreview(item, change.card);
	}
	const buttons = root.createDiv({ cls: "vault-agent-confirm-buttons" });
	const status = root.createDiv({ cls: "vault-agent-confirm-status" });
	const answer = (approve: boolean) => {
		buttons.remove();
		root.addClass("is-answered");
		status.setText(approve ? "Writing…" : "Rejected. Nothing changed.");
		void actions.answer(card, approve).then(() => {
			// Each change's outcome (and its Undo) is on its own tool block above.
			if (approve) status.setText("Answered: each change's block above says what was written.");
		});
	};
	const approve = new ButtonComponent(buttons).setButtonText(count === 1 ? "Approve" : `Approve all ${count}`).setCta().onClick(() => answer(true));
	approve.buttonEl.addClass("vault-agent-approve");
	const reject = new ButtonComponent(buttons).setButtonText(count === 1 ? "Reject" : "Reject all").onClick(() => answer(false));
	reject.buttonEl.addClass("vault-agent-reject");
}
