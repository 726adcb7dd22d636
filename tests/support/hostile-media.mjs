// Hostile images and PDFs, written on the fly (no binary blobs in the
// repository): for the Node and browser tests of the chat's images and PDFs,
// and for scripts/bench-hostile-media.mjs. Each is what a user could really
// have: a PNG whose header says 20 000 × 20 000, a download cut short, a
// file named .png that holds text or a PDF, a PDF with a password, a
// damaged PDF, a PDF of 10 000 pages.
import { deflateSync } from "node:zlib";
import { simplePdf } from "./pdf-double.mjs";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
	let c = n;
	for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
	return c >>> 0;
});

function crc32(bytes) {
	let c = 0xffffffff;
	for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
	return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
	const out = Buffer.alloc(12 + data.length);
	out.writeUInt32BE(data.length, 0);
	out.write(type, 4, "latin1");
	data.copy(out, 8);
	out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
	return out;
}

/**
 * An RGBA PNG of `width` × `height` whose rows are all one colour. `rows`
 * (default: all of them) is how many rows the IDAT really holds: the
 * 20 000 × 20 000 one carries a tiny IDAT, so it is a few hundred bytes that
 * a decoder would still give 1.6 GB of pixels.
 */
export function png(width, height, rows = height) {
	const ihdr = Buffer.alloc(13);
	ihdr.writeUInt32BE(width, 0);
	ihdr.writeUInt32BE(height, 4);
	ihdr.set([8, 6, 0, 0, 0], 8);
	const row = Buffer.alloc(1 + width * 4, 0x7f);
	row[0] = 0;
	const raw = Buffer.concat(Array.from({ length: Math.min(rows, height) }, () => row));
	return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}

/** The 20 000 × 20 000 PNG of a few hundred bytes. */
export const HUGE_PNG = png(20_000, 20_000, 1);

/** The first `keep` of the bytes: a download or a copy cut short. */
export function truncated(bytes, keep = 0.6) {
	return Buffer.from(bytes).subarray(0, Math.floor(bytes.length * keep));
}

/**
 * The start of a baseline JPEG of `width` × `height` (SOI, JFIF, a
 * quantisation table, the frame header, the start of a scan) cut short
 * before its end: what a truncated photo's first kilobytes look like.
 */
export function truncatedJpeg(width = 640, height = 480) {
	const segment = (marker, body) => Buffer.concat([Buffer.from([0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff]), body]);
	const frame = Buffer.from([8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0]);
	return Buffer.concat([
		Buffer.from([0xff, 0xd8]),
		segment(0xe0, Buffer.from("JFIF\0\x01\x01\0\0\x01\0\x01\0\0", "latin1")),
		segment(0xdb, Buffer.concat([Buffer.from([0]), Buffer.alloc(64, 1)])),
		segment(0xc0, frame),
		segment(0xda, Buffer.from([1, 1, 0, 0, 63, 0])),
		Buffer.alloc(200, 0x55),
	]);
}

/** A file named .png that is really text. */
export const TEXT_AS_PNG = Buffer.from("These are my notes, saved with the wrong name.\n".repeat(20));

/** A file named .png that is really a PDF. */
export const PDF_AS_PNG = Buffer.from(simplePdf([["A report, not a picture"]]));

/**
 * A PDF protected with a password (the standard security handler, RC4
 * 40-bit, an owner and a user password the reader does not have): its
 * trailer names an /Encrypt dictionary, as every encrypted PDF's does.
 */
export function encryptedPdf() {
	const plain = Buffer.from(simplePdf([["Salaries 2025"]])).toString("latin1");
	const hex32 = "8a".repeat(32);
	const encrypt = `<< /Filter /Standard /V 1 /R 2 /O <${hex32}> /U <${hex32}> /P -44 >>`;
	const at = plain.lastIndexOf("\nxref\n") + 1;
	const count = Number(/\/Size (\d+)/.exec(plain)[1]);
	const body = `${plain.slice(0, at)}${count} 0 obj\n${encrypt}\nendobj\n`;
	const entries = plain.slice(at).split("\n").slice(2, 2 + count).join("\n");
	const id = `<${"01".repeat(16)}>`;
	const tail = `xref\n0 ${count + 1}\n${entries}\n${String(at).padStart(10, "0")} 00000 n \ntrailer\n<< /Size ${count + 1} /Root 1 0 R /Encrypt ${count} 0 R /ID [${id} ${id}] >>\nstartxref\n${body.length}\n%%EOF\n`;
	return Buffer.from(body + tail, "latin1");
}

/** A PDF whose header is right and whose body is noise: no catalog, no xref. */
export function garbagePdf(bytes = 4_000) {
	let seed = 7;
	const noise = Buffer.alloc(bytes);
	for (let i = 0; i < bytes; i++) noise[i] = (seed = (seed * 1_103_515_245 + 12_345) >>> 0) >>> 24;
	return Buffer.concat([Buffer.from("%PDF-1.7\n"), noise]);
}

/** A PDF cut short after its catalog: no page tree, no xref, no trailer. */
export function cutPdf() {
	const whole = Buffer.from(simplePdf([["First page"], ["Second page"]])).toString("latin1");
	return Buffer.from(whole.slice(0, whole.indexOf("2 0 obj")), "latin1");
}

/** A PDF of `count` tiny pages, one short line each. */
export function manyPagesPdf(count = 10_000) {
	return Buffer.from(simplePdf(Array.from({ length: count }, (_, i) => [`Page ${i + 1}`])));
}

/**
 * A PNG whose header and end are right and whose pixel data is noise: it
 * passes every check on its first and last bytes, and only the decoder
 * finds it damaged.
 */
export function undecodablePng(width = 64, height = 64) {
	const whole = png(width, height);
	const at = whole.indexOf("IDAT") + 4;
	const length = whole.readUInt32BE(at - 8);
	const noisy = Buffer.from(whole);
	for (let i = 0; i < length; i++) noisy[at + i] = (i * 73 + 41) & 0xff;
	noisy.writeUInt32BE(crc32(noisy.subarray(at - 4, at + length)), at + length);
	return noisy;
}
