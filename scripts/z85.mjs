// Z85 (ZeroMQ RFC 32), the encoder the build uses to inline the core's
// compressed wasm in main.js: 5 characters per 4 bytes (base64: 5.33), none
// of them a quote or a backslash, so the text sits in a JS string as it is.
// plugin-shim/core/z85.ts decodes it. The input is padded with zeros to a
// multiple of 4 bytes; the decoder is told the real length.

export const Z85_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";

export function z85Encode(bytes) {
	const padded = new Uint8Array(Math.ceil(bytes.length / 4) * 4);
	padded.set(bytes);
	const view = new DataView(padded.buffer);
	let text = "";
	for (let i = 0; i < padded.length; i += 4) {
		let value = view.getUint32(i);
		let group = "";
		for (let k = 0; k < 5; k++) {
			group = Z85_ALPHABET[value % 85] + group;
			value = Math.floor(value / 85);
		}
		text += group;
	}
	return text;
}
