// A web page's HTML as readable text for the core's `obsidianWeb read`:
// parsed into an inert document (DOMParser runs no script and loads no
// image or style), its main part kept without the page's furniture, and
// turned into Markdown by Obsidian's own `htmlToMarkdown`, so no converter
// is bundled. Links are made absolute so the model can cite them.

import { htmlToMarkdown } from "obsidian";

/** What is never the page's text, wherever it is. */
const NEVER_TEXT = "script, style, noscript, template, iframe, object, embed, svg, canvas, img, picture, video, audio, form, button, select, dialog, [hidden], [aria-hidden='true']";
/** Around the main part: menus, banners, sidebars. */
const FURNITURE = "nav, header, footer, aside, [role='navigation'], [role='banner'], [role='contentinfo'], [role='complementary']";

export function pageText(html: string, url: string): string {
	const doc = new DOMParser().parseFromString(html, "text/html");
	const title = doc.title.replace(/\s+/g, " ").trim();
	const main = doc.querySelector("main, [role='main']") ?? doc.querySelector("article") ?? doc.body;
	if (!main) return title;
	for (const element of Array.from(main.querySelectorAll(NEVER_TEXT))) element.remove();
	if (main === doc.body) for (const element of Array.from(main.querySelectorAll(FURNITURE))) element.remove();
	for (const link of Array.from(main.querySelectorAll("a[href]"))) {
		const href = link.getAttribute("href") ?? "";
		try {
			const absolute = new URL(href, url);
			// Only links a reader can follow; `javascript:` and the like become text.
			if (absolute.protocol === "http:" || absolute.protocol === "https:") link.setAttribute("href", absolute.href);
			else link.removeAttribute("href");
		} catch {
			link.removeAttribute("href");
		}
	}
	const text = htmlToMarkdown(main as HTMLElement).replace(/\n{3,}/g, "\n\n").trim();
	return title && !text.startsWith(`# ${title}`) ? `# ${title}\n\n${text}` : text;
}
