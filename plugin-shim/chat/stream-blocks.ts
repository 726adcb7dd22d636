// Where a streaming answer's Markdown can be cut, so that what is finished
// is rendered once and kept (stream-render.ts). On its own, without Obsidian,
// so tests/node/stream-blocks.test.mjs can run it as it is. The cut only
// decides which part is drawn anew while the answer streams: the whole
// answer is rendered once more at its end.

/** An open block longer than this (characters) is cut at a line, so its render stays short. */
export const LONG_BLOCK = 2000;

/**
 * Where the finished blocks of `text` end, from `from` on: after its last
 * blank line outside a code fence. A block longer than LONG_BLOCK (one long
 * paragraph or list) is cut after its last whole line too, outside a fence
 * and a table, so the part rendered anew stays short; `soft` says the cut
 * is inside a block, whose two parts are then drawn without a gap.
 */
export function finishedBlocksEnd(text: string, from: number): { end: number; soft: boolean } {
	let end = from;
	let lineEnd = from;
	let fence: string | null = null;
	let at = from;
	while (at < text.length) {
		const next = text.indexOf("\n", at);
		if (next < 0) break; // the last line is still arriving
		const line = text.slice(at, next);
		const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
		if (marker && (fence === null || (marker[0] === fence[0] && marker.length >= fence.length))) fence = fence === null ? marker : null;
		else if (fence === null && line.trim() === "") end = next + 1;
		else if (fence === null && !line.trimStart().startsWith("|")) lineEnd = next + 1;
		at = next + 1;
	}
	return lineEnd > end && lineEnd - end > LONG_BLOCK ? { end: lineEnd, soft: true } : { end, soft: false };
}
