// The sidebar geometry harness of the chat's Chromium tests (issue 40): the
// widths people give a sidebar, Obsidian's two themes, axe-core, and what
// sticks out of the chat.
import { createRequire } from "node:module";

export const WIDTHS = [280, 320, 420, 600];
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** axe-core's serious and critical violations under `selector`: rule, impact and the first nodes. */
export async function axeViolations(page, selector) {
	if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ path: AXE });
	return page.evaluate(async (sel) => {
		// Obsidian's own accent button (.mod-cta) takes the theme's colours, which are not ours to change.
		const result = await window.axe.run({ include: [sel], exclude: [".mod-cta"] }, { resultTypes: ["violations"] });
		return result.violations
			.filter((v) => v.impact === "serious" || v.impact === "critical")
			.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => `${n.target.join(" ")}: ${n.failureSummary?.split("\n")[1] ?? ""}`) }));
	}, selector);
}
export const THEMES = ["dark", "light"];

/** The right sidebar's width (the double's split), as a user drags it. */
export async function sidebar(page, px) {
	await page.evaluate((width) => {
		document.querySelector(".workspace-split.mod-right-split").style.width = `${width}px`;
	}, px);
	await settled(page);
}

/** Obsidian's two themes: the body's class and the page's colour scheme. */
export async function theme(page, name) {
	await page.emulateMedia({ colorScheme: name });
	await page.evaluate((t) => {
		document.body.classList.remove("theme-dark", "theme-light");
		document.body.classList.add(`theme-${t}`);
	}, name);
	await settled(page);
}

/** Two frames later: what a render, a resize or an observer does has been done. */
export function settled(page) {
	return page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** Elements under `selector` that stick out of `container` (or of the chat), by their class. */
export function overflowing(page, selector, container = ".vault-agent-chat") {
	return page.evaluate(
		([sel, box]) => {
			const outer = document.querySelector(box).getBoundingClientRect();
			return [...document.querySelectorAll(sel)]
				.filter((el) => el.getClientRects().length > 0)
				.filter((el) => {
					const r = el.getBoundingClientRect();
					return r.left < outer.left - 1 || r.right > outer.right + 1 || el.scrollWidth > el.clientWidth + 1;
				})
				.map((el) => `${el.tagName}.${el.className}`);
		},
		[selector, container],
	);
}
