// The core's compressed wasm travels in main.js as Z85 text: the build's
// encoder (scripts/z85.mjs) and the shim's decoder (plugin-shim/core/z85.ts,
// bundled here on its own) must agree with the spec and with each other.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import esbuild from "esbuild";
import { z85Encode } from "../../scripts/z85.mjs";
import { root } from "../support/harness.mjs";

let z85Decode;
before(async () => {
	const built = await esbuild.build({ entryPoints: [join(root, "plugin-shim/core/z85.ts")], bundle: true, write: false, format: "esm", platform: "neutral", logLevel: "silent" });
	({ z85Decode } = await import(`data:text/javascript;base64,${Buffer.from(built.outputFiles[0].text).toString("base64")}`));
});

describe("Z85, the inlined core's text", () => {
	it("encodes the spec's example (ZeroMQ RFC 32) and decodes it back", () => {
		const bytes = Uint8Array.from([0x86, 0x4f, 0xd2, 0x6f, 0xb5, 0x59, 0xf7, 0x5b]);
		assert.equal(z85Encode(bytes), "HelloWorld");
		assert.deepEqual(z85Decode("HelloWorld", 8), bytes);
	});

	it("gives back exactly the bytes for every length, the padding cut off", () => {
		for (const length of [0, 1, 2, 3, 4, 5, 7, 8, 9, 1023, 65_537]) {
			const bytes = new Uint8Array(randomBytes(length));
			const text = z85Encode(bytes);
			assert.equal(text.length, Math.ceil(length / 4) * 5);
			assert.doesNotMatch(text, /["'\\`]/, "nothing a JS string would need escaped");
			assert.deepEqual(z85Decode(text, length), bytes, `length ${length}`);
		}
		assert.deepEqual(z85Decode(z85Encode(Uint8Array.from([255, 255, 255, 255])), 4), Uint8Array.from([255, 255, 255, 255]));
	});

	it("refuses damaged text with what to do", () => {
		assert.throws(() => z85Decode("Hello", 8), /wrong length\); reinstall the plugin/);
		assert.throws(() => z85Decode("Hell\"World", 8), /outside Z85\); reinstall the plugin/);
		assert.throws(() => z85Decode("Hell", 4), /wrong length/);
	});
});
