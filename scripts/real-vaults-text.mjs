// A deliberately plain third reading of a note for scripts/real-vaults.mjs:
// which lines are code (fenced blocks, also inside callouts and quotes), math
// blocks or HTML comments, and whether some text occurs outside them. It only
// flags results to look at by hand; the emulator and the plugin each have
// their own parser, and this one settles nothing.

/** Per line (0-based): true when it is inside frontmatter, fenced code, a `$$` block or an HTML comment. */
export function codeMask(text) {
	const lines = text.split(/\r?\n/);
	const mask = new Array(lines.length).fill(false);
	let start = 0;
	if (lines[0] === "---") {
		const end = lines.findIndex((l, i) => i > 0 && (l === "---" || l === "..."));
		if (end > 0) {
			for (let i = 0; i <= end; i++) mask[i] = true;
			start = end + 1;
		}
	}
	let fence = null;
	let math = false;
	let comment = false;
	for (let i = start; i < lines.length; i++) {
		// Callouts and quotes: the same block rules after the `>` markers.
		const line = lines[i].replace(/^(\s{0,3}>\s?)+/, "");
		const t = line.trimStart();
		if (fence) {
			mask[i] = true;
			const run = /^(`{3,}|~{3,})\s*$/.exec(t);
			if (run && run[1][0] === fence[0] && run[1].length >= fence.length) fence = null;
			continue;
		}
		if (comment) {
			mask[i] = true;
			if (line.includes("-->")) comment = false;
			continue;
		}
		if (math) {
			mask[i] = true;
			if (t.includes("$$")) math = false;
			continue;
		}
		const open = /^(`{3,}|~{3,})/.exec(t);
		if (open && !(open[1][0] === "`" && t.slice(open[1].length).includes("`"))) {
			fence = open[1];
			mask[i] = true;
		} else if (t.startsWith("$$") && !t.slice(2).includes("$$")) {
			math = true;
			mask[i] = true;
		} else if (t.startsWith("<!--") && !t.includes("-->")) {
			comment = true;
			mask[i] = true;
		}
	}
	return mask;
}

/** The line without inline code spans, inline math and HTML comments. */
function prose(line) {
	return line
		.replace(/(`+)[\s\S]*?\1/g, " ")
		.replace(/<!--.*?-->/g, " ")
		.replace(/\$[^$\s][^$]*\$/g, " ");
}

/** True when `needle` occurs outside code: a `#tag` (whole tag, any case) or a link target (any case, %-decoded). */
export function mentionsOutsideCode(text, needle, kind) {
	const mask = codeMask(text);
	const lines = text.split(/\r?\n/);
	const wanted = needle.toLowerCase();
	return lines.some((raw, i) => {
		if (mask[i]) return false;
		let line = prose(raw).toLowerCase();
		if (kind === "link") {
			try {
				line = decodeURIComponent(line);
			} catch {
				// Not %-encoded text; compare as written.
			}
			return line.includes(wanted);
		}
		let at = line.indexOf(wanted);
		while (at !== -1) {
			const before = at === 0 ? " " : line[at - 1];
			const after = line[at + wanted.length] ?? " ";
			if (/\s/.test(before) && !/[\p{L}\p{N}_\-/]/u.test(after)) return true;
			at = line.indexOf(wanted, at + 1);
		}
		return false;
	});
}
