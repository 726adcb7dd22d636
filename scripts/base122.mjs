// The encoder the build uses to inline the core's compressed wasm in main.js:
// a variant of base-122 (Kevin Albertson, 2016). The bytes are read as 7-bit
// values; each becomes one ASCII character, except the five a JS string
// literal cannot hold as they are or that tools mistake for binary (NUL, LF,
// CR, the double quote, the backslash): such a value and the one after it
// share one two-byte UTF-8 character (code point `(k + 1) << 7 | next`, k its
// place in ILLEGAL). So 8 bytes of main.js per 7 bytes of wasm (Z85 took 10
// per 8, base64 12 per 9). plugin-shim/core/base122.ts decodes it; the decoder
// is told the real length, so the zero bits that pad the last value are cut.

/** The 7-bit values that never stand as themselves; their place is the code point's upper bits. */
export const ILLEGAL = [0x00, 0x0a, 0x0d, 0x22, 0x5c];

export function base122Encode(bytes) {
	const values = [];
	let bits = 0;
	let count = 0;
	for (const byte of bytes) {
		bits = ((bits << 8) | byte) & 0x7fff;
		count += 8;
		while (count >= 7) {
			count -= 7;
			values.push((bits >> count) & 0x7f);
		}
	}
	if (count > 0) values.push((bits << (7 - count)) & 0x7f);
	const codes = [];
	for (let i = 0; i < values.length; i++) {
		const k = ILLEGAL.indexOf(values[i]);
		if (k < 0) codes.push(values[i]);
		else codes.push(((k + 1) << 7) | (i + 1 < values.length ? values[++i] : 0));
	}
	let text = "";
	for (let i = 0; i < codes.length; i += 8192) text += String.fromCharCode(...codes.slice(i, i + 8192));
	return text;
}
