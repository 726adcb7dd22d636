// The core's compressed wasm comes inlined in main.js as base-122 text
// (scripts/base122.mjs encodes it at build time and says how): 8 bytes of
// main.js per 7 of wasm, where Z85 took 10 per 8 and base64 12 per 9.
// Decoded once, at the core's start.

/** The 7-bit values a two-byte character stands for, by its upper bits (scripts/base122.mjs's ILLEGAL). */
const ILLEGAL = [0x00, 0x0a, 0x0d, 0x22, 0x5c];

const DAMAGED = "The inlined core is damaged";

/** The `length` bytes that `text` encodes. */
export function base122Decode(text: string, length: number): Uint8Array<ArrayBuffer> {
	// One pass with the bit buffer in locals: the start decodes 450 000
	// characters on the main thread.
	const out = new Uint8Array(length);
	let bits = 0;
	let count = 0;
	let values = 0;
	let o = 0;
	let paddedPair = false;
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (code < 0x80) {
			if (code === 0x00 || code === 0x0a || code === 0x0d || code === 0x22 || code === 0x5c) throw new Error(`${DAMAGED} (a character base-122 never writes); reinstall the plugin.`);
			bits = ((bits << 7) | code) & 0x7fff;
			count += 7;
			values += 1;
			paddedPair = false;
		} else {
			const illegal = ILLEGAL[(code >> 7) - 1];
			if (illegal === undefined) throw new Error(`${DAMAGED} (a character outside base-122); reinstall the plugin.`);
			bits = ((bits << 14) | (illegal << 7) | (code & 0x7f)) & 0x1fffff;
			count += 14;
			values += 2;
			paddedPair = (code & 0x7f) === 0;
		}
		while (count >= 8) {
			count -= 8;
			if (o < length) out[o] = (bits >> count) & 0xff;
			o++;
		}
	}
	// Exactly the values `length` bytes make, or one more where the last is
	// an illegal value paired with zero padding.
	const expected = Math.ceil((length * 8) / 7);
	if (values !== expected && !(values === expected + 1 && paddedPair)) throw new Error(`${DAMAGED} (its base-122 text has the wrong length); reinstall the plugin.`);
	return out;
}
