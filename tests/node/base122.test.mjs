// The core's compressed wasm travels in main.js as base-122 text: the build's
// encoder (scripts/base122.mjs) and the shim's decoder
// (plugin-shim/core/base122.ts, bundled here on its own) must agree with each
// other for every length and every 7-bit value, and the text must sit in a JS
// string literal as it is.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import vm from "node:vm";
import esbuild from "esbuild";
import { base122Encode, ILLEGAL } from "../../scripts/base122.mjs";
import { root } from "../support/harness.mjs";

let base122Decode;
before(async () => {
	const built = await esbuild.build({ entryPoints: [join(root, "plugin-shim/core/base122.ts")], bundle: true, write: false, format: "esm", platform: "neutral", logLevel: "silent" });
	({ base122Decode } = await import(`data:text/javascript;base64,${Buffer.from(built.outputFiles[0].text).toString("base64")}`));
});

describe("base-122, the inlined core's text", () => {
	it("writes 7 bits per one-byte character and pairs an illegal value with the next in one two-byte character", () => {
		// 0b0000000_1 0000000: the first 7-bit value is 0 (NUL, illegal), the second 64.
		const text = base122Encode(Uint8Array.from([0x01, 0x00]));
		assert.equal(text.length, 2);
		assert.equal(text.charCodeAt(0), (1 << 7) | 0x40, "NUL and the next value share one character");
		assert.equal(text.charCodeAt(1), 1 << 7, "the padded last value, 0 (NUL), paired with padding");
		// A value that is not illegal stands as itself: 'A' (0x41) << 1 = 0x82, 0x00.
		assert.equal(base122Encode(Uint8Array.from([0x82])).charCodeAt(0), 0x41);
	});

	it("gives back exactly the bytes for every length, and nothing a JS string literal would refuse", () => {
		for (const length of [0, 1, 2, 3, 6, 7, 8, 9, 13, 14, 15, 1023, 65_537]) {
			const bytes = new Uint8Array(randomBytes(length));
			const text = base122Encode(bytes);
			assert.ok(text.length <= Math.ceil((length * 8) / 7), `length ${length}: ${text.length} characters`);
			assert.doesNotMatch(text, /["\\\n\r\0\u2028\u2029]/, "nothing a double-quoted JS string would need escaped");
			assert.equal(vm.runInNewContext(`"${text}"`), text, "the engine reads the literal back as the same text");
			assert.deepEqual(base122Decode(text, length), bytes, `length ${length}`);
		}
	});

	it("round-trips every illegal value, also as the very last one", () => {
		for (const value of ILLEGAL) {
			// Seven bytes are eight 7-bit values; all eight equal to `value`.
			let bits = 0n;
			for (let k = 0; k < 8; k++) bits = (bits << 7n) | BigInt(value);
			const bytes = Uint8Array.from({ length: 7 }, (_, i) => Number((bits >> BigInt(8 * (6 - i))) & 0xffn));
			const text = base122Encode(bytes);
			assert.equal(text.length, 4, `four pairs for value ${value}`);
			assert.deepEqual(base122Decode(text, 7), bytes);
			// One byte 0: the value 0 (illegal) is last, paired with padding.
			assert.deepEqual(base122Decode(base122Encode(Uint8Array.from([0])), 1), Uint8Array.from([0]));
		}
	});

	it("refuses damaged text with what to do", () => {
		const text = base122Encode(Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]));
		assert.throws(() => base122Decode(text, 7), /wrong length\); reinstall the plugin/);
		assert.throws(() => base122Decode(text, 12), /wrong length\); reinstall the plugin/);
		assert.throws(() => base122Decode(`${text}AAAA`, 8), /wrong length\); reinstall the plugin/);
		assert.throws(() => base122Decode(`${text.slice(0, 2)}"${text.slice(3)}`, 8), /never writes\); reinstall the plugin/);
		assert.throws(() => base122Decode(`${text.slice(0, 2)}\u0400${text.slice(3)}`, 8), /outside base-122\); reinstall the plugin/);
	});
});
