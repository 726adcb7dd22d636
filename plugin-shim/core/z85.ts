// The core's compressed wasm comes inlined in main.js as Z85 text (ZeroMQ
// RFC 32; scripts/z85.mjs encodes it at build time): 25 % more characters
// than bytes, where base64, esbuild's binary loader, takes 33 %. Decoded once,
// at the core's start.

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";

/** The first `length` bytes that `text` encodes (the encoder padded them to a multiple of 4). */
export function z85Decode(text: string, length: number): Uint8Array<ArrayBuffer> {
	if (text.length % 5 !== 0 || length > (text.length / 5) * 4) throw new Error("The inlined core is damaged (its Z85 text has the wrong length); reinstall the plugin.");
	const digits = new Uint8Array(128).fill(255);
	for (let i = 0; i < ALPHABET.length; i++) digits[ALPHABET.charCodeAt(i)] = i;
	const out = new Uint8Array((text.length / 5) * 4);
	for (let i = 0, o = 0; i < text.length; i += 5, o += 4) {
		let value = 0;
		for (let k = 0; k < 5; k++) {
			const digit = digits[text.charCodeAt(i + k)] ?? 255;
			if (digit === 255) throw new Error("The inlined core is damaged (a character outside Z85); reinstall the plugin.");
			value = value * 85 + digit;
		}
		out[o] = value >>> 24;
		out[o + 1] = (value >>> 16) & 255;
		out[o + 2] = (value >>> 8) & 255;
		out[o + 3] = value & 255;
	}
	return out.length === length ? out : out.slice(0, length);
}
