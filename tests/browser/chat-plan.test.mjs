// Plan first in Chromium (issue 41.3), from the built main.js with a scripted
// model server on localhost: the header's Plan toggle, the plan card and the
// card of a plan's changes approved all together fit the sidebar at 280,
// 320, 420 and 600 px with nothing cut and every control named (axe-core);
// approved, each change is written with its own Undo; Plan goes away while
// a coding agent is picked. Screenshots go to test-output/ to look at.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { openChat, outputDir, sendMessage, startBrowserPlugin, turnEnded } from "../support/browser.mjs";
import { emulator, emulatorEnv } from "../support/harness.mjs";
import { openaiStream, startModelServer } from "../support/model-servers.mjs";

const WIDTHS = [280, 320, 420, 600];
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const ROADMAP = "Projects/Roadmap.md";
const LAUNCH = "Projects/Launch plan.md";

async function axeViolations(page, selector) {
	if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ path: AXE });
	return page.evaluate(async (sel) => {
		// Obsidian's own accent button (.mod-cta) takes the theme's colours, which are not ours to change.
		const result = await window.axe.run({ include: [sel], exclude: [".mod-cta"] }, { resultTypes: ["violations"] });
		return result.violations
			.filter((v) => v.impact === "serious" || v.impact === "critical")
			.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => `${n.target.join(" ")}: ${n.failureSummary?.split("\n")[1] ?? ""}`) }));
	}, selector);
}

function settled(page) {
	return page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

async function sidebar(page, px) {
	await page.evaluate((width) => {
		document.querySelector(".workspace-split.mod-right-split").style.width = `${width}px`;
	}, px);
	await settled(page);
}

/** What sticks out of `selector`'s box or of the chat, what is cut, and the controls without a name. */
function cardFacts(page, selector) {
	return page.evaluate((sel) => {
		const card = document.querySelector(sel);
		const chat = document.querySelector(".vault-agent-chat").getBoundingClientRect();
		const box = card.getBoundingClientRect();
		const visible = [...card.querySelectorAll("*")].filter((el) => el.getClientRects().length > 0);
		const outside = visible
			.filter((el) => {
				const r = el.getBoundingClientRect();
				return r.left < Math.max(box.left, chat.left) - 1 || r.right > Math.min(box.right, chat.right) + 1;
			})
			.map((el) => `${el.tagName}.${el.className}`);
		// A diff scrolls sideways on purpose (long lines stay lines); anything else that scrolls is cut.
		const cut = visible
			.filter((el) => el.scrollWidth > el.clientWidth + 1 && !el.closest(".vault-agent-diff-body") && getComputedStyle(el).overflowX !== "auto")
			.map((el) => `${el.tagName}.${el.className}`);
		const controls = [...card.querySelectorAll("button, input, textarea, .clickable-icon")].filter((el) => el.getClientRects().length > 0);
		const name = (el) => (el.getAttribute("aria-label") || el.labels?.[0]?.textContent || el.textContent || "").trim();
		return {
			outside,
			cut,
			unnamed: controls.filter((el) => !name(el)).map((el) => `${el.tagName}.${el.className}`),
			names: controls.map(name),
			width: Math.round(box.width),
		};
	}, selector);
}

describe("plan first in the chat, in Chromium", () => {
	let server;
	let session;
	let page;

	before(async () => {
		server = await startModelServer();
		session = await startBrowserPlugin({
			data: {
				cliPath: emulator,
				permissionMode: "askBeforeEdits",
				acpAgents: { "claude-code": { command: "vault-agent-no-such-agent" } },
				chat: { profiles: [{ id: "up", name: "Desk model", provider: "openAi", baseUrl: `${server.url}/v1`, model: "test-model" }], activeProfile: "up" },
			},
			env: (vault) => emulatorEnv(vault),
			viewport: { width: 1000, height: 900 },
		});
		({ page } = session);
		await openChat(page);
	});

	after(async () => {
		await session?.close();
		await server?.close();
	});

	it("has a named Plan toggle in the header that fits at every width, and turns plan mode on", async () => {
		const plan = page.locator("button.vault-agent-plan-mode");
		for (const width of WIDTHS) {
			await sidebar(page, width);
			assert.equal(await plan.isVisible(), true, `Plan shown at ${width} px`);
			const facts = await page.evaluate(() => {
				const header = document.querySelector(".vault-agent-chat-header").getBoundingClientRect();
				const button = document.querySelector("button.vault-agent-plan-mode");
				const r = button.getBoundingClientRect();
				return { inside: r.left >= header.left - 1 && r.right <= header.right + 1, cut: button.scrollWidth > button.clientWidth + 1, text: button.textContent };
			});
			assert.deepEqual(facts, { inside: true, cut: false, text: "Plan" }, `at ${width} px`);
			assert.deepEqual(await axeViolations(page, ".vault-agent-chat-header"), [], `axe at ${width} px`);
			await page.locator(".vault-agent-chat-header").screenshot({ path: join(outputDir, `chat-plan-header-${width}.png`) });
		}
		await plan.click();
		assert.equal(await plan.getAttribute("aria-pressed"), "true");
	});

	it("shows the plan card whole, every control named, at every width", async () => {
		server.script({ stream: openaiStream({ toolCalls: [["obsidianNotes", { command: "read", path: ROADMAP }]] }) });
		server.script({
			stream: openaiStream({
				toolCalls: [
					[
						"proposePlan",
						{
							summary: "A review line in both project notes",
							steps: [
								{ note: ROADMAP, action: "append", what: "Add the line \"Next review: 2026-03-10\" at the end, under the Q2 list" },
								{ note: LAUNCH, action: "append", what: "Add the same review line at the end" },
							],
						},
					],
				],
			}),
		});
		await sendMessage(page, "add a review line to both project notes");
		await page.locator(".vault-agent-plan-card").waitFor({ state: "visible", timeout: 15_000 });
		await turnEnded(page);
		for (const width of WIDTHS) {
			await sidebar(page, width);
			const facts = await cardFacts(page, ".vault-agent-plan-card");
			assert.deepEqual(facts.outside, [], `nothing past the edge at ${width} px`);
			assert.deepEqual(facts.cut, [], `nothing cut at ${width} px`);
			assert.deepEqual(facts.unnamed, [], `every control named at ${width} px`);
			// Each step's × sits at the end of the step's first line, never wrapped onto a line of its own.
			const removes = await page.evaluate(() =>
				[...document.querySelectorAll(".vault-agent-plan-step-head")].map((head) => {
					const action = head.querySelector(".vault-agent-plan-action").getBoundingClientRect();
					const remove = head.querySelector(".clickable-icon").getBoundingClientRect();
					const box = head.getBoundingClientRect();
					return { firstLine: remove.top < action.bottom && remove.bottom > action.top, atEnd: Math.abs(box.right - remove.right) <= 1 };
				}),
			);
			assert.deepEqual(removes, [1, 2].map(() => ({ firstLine: true, atEnd: true })), `× on the first line at ${width} px`);
			assert.deepEqual(await axeViolations(page, ".vault-agent-plan-card"), [], `axe at ${width} px`);
			await page.locator(".vault-agent-plan-card").screenshot({ path: join(outputDir, `chat-plan-card-${width}.png`) });
		}
		const names = (await cardFacts(page, ".vault-agent-plan-card")).names;
		for (const name of ["Step 1", "Step 2", "Approve all the changes on one card at the end", "Approve plan", "Reject"]) assert.ok(names.includes(name), `${name} in ${JSON.stringify(names)}`);
	});

	it("approved all together: one card lists both diffs, fits, and Approve all writes each with its own Undo", async () => {
		const before = { roadmap: readFileSync(join(session.vault, ROADMAP), "utf8"), launch: readFileSync(join(session.vault, LAUNCH), "utf8") };
		server.script({
			stream: openaiStream({
				toolCalls: [
					["obsidianEdit", { command: "append", path: ROADMAP, content: "Next review: 2026-03-10" }],
					["obsidianEdit", { command: "append", path: LAUNCH, content: "Next review: 2026-03-10" }],
				],
			}),
		});
		server.script({ stream: openaiStream({ text: "Both review lines are ready for your approval." }) });
		await page.getByLabel("Approve all the changes on one card at the end").check();
		await page.locator(".vault-agent-plan-approve").click();
		const card = page.locator(".vault-agent-plan-changes");
		await card.waitFor({ state: "visible", timeout: 15_000 });
		await turnEnded(page);
		assert.equal(readFileSync(join(session.vault, ROADMAP), "utf8"), before.roadmap, "held, not written");
		assert.equal(await card.locator(".vault-agent-plan-change").count(), 2);
		assert.equal(await card.locator(".vault-agent-diff").count(), 2, "each change with its own diff");
		assert.equal(await page.locator(".vault-agent-confirm:not(.vault-agent-plan-changes)").count(), 0, "no card per change");
		for (const width of WIDTHS) {
			await sidebar(page, width);
			const facts = await cardFacts(page, ".vault-agent-plan-changes");
			assert.deepEqual(facts.outside, [], `nothing past the edge at ${width} px`);
			assert.deepEqual(facts.cut, [], `nothing cut at ${width} px`);
			assert.deepEqual(facts.unnamed, [], `every control named at ${width} px`);
			assert.deepEqual(await axeViolations(page, ".vault-agent-plan-changes"), [], `axe at ${width} px`);
			await card.screenshot({ path: join(outputDir, `chat-plan-changes-${width}.png`) });
		}
		await sidebar(page, 320);
		await card.getByRole("button", { name: "Approve all 2" }).click();
		await turnEnded(page);
		await page.locator(".vault-agent-notice", { hasText: "Approved: the plan's 2 changes were written." }).waitFor({ state: "visible", timeout: 10_000 });
		assert.match(readFileSync(join(session.vault, ROADMAP), "utf8"), /Next review: 2026-03-10/);
		assert.match(readFileSync(join(session.vault, LAUNCH), "utf8"), /Next review: 2026-03-10/);
		// Each change's block has its own Undo; the answer has its "Undo this answer's changes".
		assert.equal(await page.locator(".vault-agent-tool-call .vault-agent-undo").count(), 2);
		await page.locator(".vault-agent-messages").screenshot({ path: join(outputDir, "chat-plan-changes-approved-320.png") });
	});

	it("hides Plan while a coding agent is picked, and shows it again for a model profile", async () => {
		const plan = page.locator("button.vault-agent-plan-mode");
		const model = page.locator(".vault-agent-chat-header select.vault-agent-model");
		await model.selectOption({ value: "agent:claude-code" });
		await plan.waitFor({ state: "hidden", timeout: 5_000 });
		await model.selectOption({ value: "up" });
		await plan.waitFor({ state: "visible", timeout: 5_000 });
	});
});
