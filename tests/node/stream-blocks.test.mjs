// Where the chat cuts a streaming answer into blocks that are rendered once
// and kept (plugin-shim/chat/stream-blocks.ts, bundled here on its own): after
// a blank line outside a code fence, or, in a block longer than LONG_BLOCK,
// after its last whole line outside a fence and a table. A wrong cut draws
// half a code block as text or a table as two, until the answer's end.
import assert from "node:assert/strict";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import esbuild from "esbuild";
import { root } from "../support/harness.mjs";

let finishedBlocksEnd;
let LONG_BLOCK;
before(async () => {
	const built = await esbuild.build({ entryPoints: [join(root, "plugin-shim/chat/stream-blocks.ts")], bundle: true, write: false, format: "esm", platform: "neutral", logLevel: "silent" });
	({ finishedBlocksEnd, LONG_BLOCK } = await import(`data:text/javascript;base64,${Buffer.from(built.outputFiles[0].text).toString("base64")}`));
});

/** The kept part and the open part of `text`, cut from `from`. */
function cut(text, from = 0) {
	const { end, soft } = finishedBlocksEnd(text, from);
	return { kept: text.slice(from, end), open: text.slice(end), soft };
}

/** `n` lines of a paragraph, each `width` characters with its newline. */
const lines = (n, width = 80) => Array.from({ length: n }, (_, i) => `${`line ${i} `.padEnd(width - 1, "x")}\n`).join("");

describe("the streaming answer's block cuts", () => {
	it("keeps what comes before the last blank line, never the line still arriving", () => {
		assert.deepEqual(cut("First paragraph.\n\nSecond one\nstill open"), { kept: "First paragraph.\n\n", open: "Second one\nstill open", soft: false });
		assert.deepEqual(cut("One.\n\nTwo.\n\nThree"), { kept: "One.\n\nTwo.\n\n", open: "Three", soft: false });
		// A blank line not ended yet (no newline) is not a blank line yet.
		assert.deepEqual(cut("One.\n   "), { kept: "", open: "One.\n   ", soft: false });
		assert.deepEqual(cut(""), { kept: "", open: "", soft: false });
	});

	it("starts from what is kept already", () => {
		const text = "Kept.\n\nNew.\n\nOpen";
		const from = "Kept.\n\n".length;
		assert.deepEqual(cut(text, from), { kept: "New.\n\n", open: "Open", soft: false });
		assert.deepEqual(cut("Kept.\n\nOpen", "Kept.\n\n".length), { kept: "", open: "Open", soft: false });
	});

	it("never cuts inside a code fence, of backticks or tildes, until it closes", () => {
		const open = "Intro.\n\n```js\nconst a = 1;\n\nconst b = 2;\n";
		assert.deepEqual(cut(open), { kept: "Intro.\n\n", open: "```js\nconst a = 1;\n\nconst b = 2;\n", soft: false });
		const closed = `${open}\`\`\`\n\nAfter`;
		assert.equal(cut(closed).kept, `${open}\`\`\`\n\n`);
		// ~~~ does not close a ``` fence, nor a shorter fence a longer one.
		assert.equal(cut("````\na\n~~~\n\n```\n\nb\n").kept, "");
		assert.equal(cut("~~~\na\n\n~~~\n\nb").kept, "~~~\na\n\n~~~\n\n");
		// An indented (up to 3 spaces) marker opens one too.
		assert.equal(cut("   ```\na\n\nb\n").kept, "");
	});

	it("cuts a block longer than LONG_BLOCK after its last whole line, softly", () => {
		const long = lines(Math.ceil(LONG_BLOCK / 80) + 2);
		assert.ok(long.length > LONG_BLOCK);
		assert.deepEqual(cut(`${long}half a li`), { kept: long, open: "half a li", soft: true });
		// Short blocks are not cut at lines.
		const short = lines(3);
		assert.deepEqual(cut(`${short}half`), { kept: "", open: `${short}half`, soft: false });
		// After a blank line, the length counts from it.
		assert.deepEqual(cut(`Intro.\n\n${short}half`), { kept: "Intro.\n\n", open: `${short}half`, soft: false });
	});

	it("does not cut a long table or a long fence at its lines", () => {
		const rows = Array.from({ length: 60 }, (_, i) => `| row ${i} | ${"v".repeat(40)} |\n`).join("");
		const table = `| a | b |\n|---|---|\n${rows}`;
		assert.ok(table.length > LONG_BLOCK);
		assert.deepEqual(cut(`${table}| last`), { kept: "", open: `${table}| last`, soft: false });
		const fenced = `\`\`\`\n${lines(40)}`;
		assert.deepEqual(cut(fenced), { kept: "", open: fenced, soft: false });
		// A long paragraph before a fence that is still open: cut before the fence, not in it.
		const para = lines(30);
		assert.deepEqual(cut(`${para}\`\`\`\ncode\n`), { kept: para, open: "```\ncode\n", soft: true });
	});
});
