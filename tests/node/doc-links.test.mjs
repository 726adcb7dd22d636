// Every relative link and #anchor in the docs resolves: README.md,
// CONTRIBUTING.md, ARCHITECTURE.md and docs/*.md link to files that exist
// and to headings (GitHub's anchors) or `<a id>`s that exist in them.
// Links to other sites are not fetched (the tests run offline).
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { it } from "node:test";
import { root } from "../support/harness.mjs";

/** The pages whose links are checked. */
function pages() {
	const top = ["README.md", "CONTRIBUTING.md", "ARCHITECTURE.md"].filter((f) => existsSync(join(root, f)));
	const docs = readdirSync(join(root, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`);
	return [...top, ...docs].map((f) => join(root, f));
}

/** The lines with fenced code blocks blanked (line numbers kept). */
function outsideFences(text) {
	let fence = null;
	return text.split("\n").map((line) => {
		const marker = line.match(/^\s*(`{3,}|~{3,})/);
		if (fence) {
			if (marker && marker[1][0] === fence[0] && marker[1].length >= fence.length) fence = null;
			return "";
		}
		if (marker) {
			fence = marker[1];
			return "";
		}
		return line;
	});
}

/** The lines outside code: fences blanked, inline code removed (a link in code is no link). */
const prose = (text) => outsideFences(text).map((line) => line.replace(/(`+)[\s\S]*?\1/g, ""));

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading) {
	const text = heading
		.replace(/`/g, "")
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
		.replace(/<[^>]+>/g, "")
		.replace(/\*/g, "")
		.trim()
		.toLowerCase();
	return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
}

const anchorCache = new Map();
/** The anchors a Markdown file has: its headings' (with GitHub's -1, -2 for repeats) and its `<a id|name>`s. */
function anchors(file) {
	if (anchorCache.has(file)) return anchorCache.get(file);
	const found = new Set();
	const seen = new Map();
	for (const line of outsideFences(readFileSync(file, "utf8"))) {
		const heading = line.match(/^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/);
		if (heading) {
			const base = slug(heading[1]);
			const n = seen.get(base) ?? 0;
			seen.set(base, n + 1);
			found.add(n === 0 ? base : `${base}-${n}`);
		}
		for (const a of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) found.add(a[1]);
	}
	anchorCache.set(file, found);
	return found;
}

/** Every link target in a page, with its line: inline links, images, reference definitions, HTML href/src. */
function links(file) {
	const out = [];
	prose(readFileSync(file, "utf8")).forEach((line, i) => {
		for (const m of line.matchAll(/\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)) out.push({ line: i + 1, target: m[1] });
		const definition = line.match(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/);
		if (definition) out.push({ line: i + 1, target: definition[1] });
		for (const m of line.matchAll(/\s(?:href|src)="([^"]*)"/g)) out.push({ line: i + 1, target: m[1] });
	});
	return out;
}

/** Why `target` (linked from `file`) does not resolve, or null when it does. */
function problem(file, target) {
	if (target === "") return "an empty link";
	if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null;
	const hash = target.indexOf("#");
	const path = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
	const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
	const linked = path === "" ? file : resolve(dirname(file), path);
	if (!linked.startsWith(root)) return "leads outside the repository";
	if (!existsSync(linked)) return `no such file: ${relative(root, linked)}`;
	if (anchor === null) return null;
	if (statSync(linked).isDirectory() || !linked.endsWith(".md")) return "an anchor into something that is not a Markdown file";
	return anchors(linked).has(anchor) ? null : `${relative(root, linked)} has no heading or <a id> for #${anchor}`;
}

it("every relative link and #anchor in the docs resolves", () => {
	const broken = [];
	let checked = 0;
	for (const file of pages()) {
		for (const { line, target } of links(file)) {
			checked++;
			const why = problem(file, target);
			if (why) broken.push(`${relative(root, file)}:${line}: (${target}) ${why}`);
		}
	}
	assert.ok(checked > 10, `only ${checked} links found: is the link parser broken?`);
	assert.deepEqual(broken, [], `broken links:\n${broken.join("\n")}`);
});

it("GitHub's anchors: punctuation goes, spaces become hyphens, code and links keep their text", () => {
	assert.equal(slug("Agents outside Obsidian (MCP and the CLI)"), "agents-outside-obsidian-mcp-and-the-cli");
	assert.equal(slug("Notes (CLI) — `obsidianNotes`"), "notes-cli--obsidiannotes");
	assert.equal(slug("Moving, renaming, deleting (`obsidianOrganise`)"), "moving-renaming-deleting-obsidianorganise");
	assert.equal(slug("Where the Rust in `main.js` comes from"), "where-the-rust-in-mainjs-comes-from");
	assert.equal(slug("In data.json"), "in-datajson");
	assert.equal(slug("See [the FAQ](#faq) now"), "see-the-faq-now");
});
