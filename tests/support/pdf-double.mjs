// Obsidian's PDF.js, as the test double's `loadPdfJs` gives it. pdfjs-dist is
// not installed here (obsidian-test-mocks' loadPdfJs resolves to `{}`), so
// this is a small stand-in that reads what the real one reads from simple
// PDFs: the page tree in order, each page's uncompressed content stream, one
// text item per string shown (`Tj`, and each string of a `TJ` array), with
// `hasEOL` where the text moves to a new line (`T*`, `Td`, `TD`, `'`). It
// answers through the same calls the plugin makes (`getDocument({ data })
// .promise`, `numPages`, `getPage(n)`, `getTextContent()`, `destroy()`) and
// refuses anything that is not a PDF as PDF.js does (InvalidPDFException),
// and a PDF whose trailer names an /Encrypt dictionary as PDF.js does one
// it has no password for (PasswordException).
// `simplePdf(pages)` writes such a PDF (with a correct xref table) for a test.

/** What PDF.js throws for bytes that are not a PDF. */
class InvalidPDFException extends Error {
	constructor(message) {
		super(message);
		this.name = "InvalidPDFException";
	}
}

/** What PDF.js throws for a PDF that needs a password it was not given. */
class PasswordException extends Error {
	constructor(message) {
		super(message);
		this.name = "PasswordException";
		this.code = 1;
	}
}

function latin1(bytes) {
	let out = "";
	for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode(...bytes.subarray(i, i + 8192));
	return out;
}

/** A PDF literal string's text, its escapes undone. */
function unescape(literal) {
	return literal.replace(/\\([nrtbf()\\]|[0-7]{1,3})/g, (_, c) => ({ n: "\n", r: "\r", t: "\t", b: "\b", f: "\f" })[c] ?? (/[0-7]/.test(c) ? String.fromCharCode(parseInt(c, 8)) : c));
}

/** The text items of one content stream, in the order they are shown. */
function textItems(stream) {
	const items = [];
	const token = /\((?:\\.|[^\\)])*\)|\[(?:\\.|[^\]])*\]|T\*|\bT[dD]\b|'|\bTj\b|\bTJ\b/g;
	let pending = [];
	for (const match of stream.matchAll(token)) {
		const t = match[0];
		if (t.startsWith("(")) pending = [unescape(t.slice(1, -1))];
		else if (t.startsWith("[")) pending = [...t.matchAll(/\((?:\\.|[^\\)])*\)/g)].map((m) => unescape(m[0].slice(1, -1)));
		else if (t === "Tj" || t === "TJ" || t === "'") {
			if (t === "'" && items.length) items[items.length - 1].hasEOL = true;
			for (const str of pending) items.push({ str, hasEOL: false });
			pending = [];
		} else if (items.length) items[items.length - 1].hasEOL = true;
	}
	return items;
}

function openDocument(data) {
	const text = latin1(data instanceof Uint8Array ? data : new Uint8Array(data));
	if (!text.startsWith("%PDF-")) throw new InvalidPDFException("Invalid PDF structure.");
	if (/trailer\s*<<[\s\S]*\/Encrypt\s+\d+ 0 R/.test(text)) throw new PasswordException("No password given");
	const objects = new Map();
	for (const m of text.matchAll(/(\d+) 0 obj\b([\s\S]*?)\bendobj/g)) objects.set(Number(m[1]), m[2]);
	const ref = (body, key) => Number(new RegExp(`/${key}\\s+(\\d+) 0 R`).exec(body ?? "")?.[1]);
	const catalog = [...objects.values()].find((body) => /\/Type\s*\/Catalog/.test(body));
	if (!catalog) throw new InvalidPDFException("Invalid PDF structure: no catalog.");
	const pages = [];
	const walk = (number) => {
		const body = objects.get(number) ?? "";
		if (/\/Type\s*\/Pages/.test(body)) {
			for (const kid of (/\/Kids\s*\[([^\]]*)\]/.exec(body)?.[1] ?? "").matchAll(/(\d+) 0 R/g)) walk(Number(kid[1]));
		} else if (/\/Type\s*\/Page\b/.test(body)) pages.push(body);
	};
	walk(ref(catalog, "Pages"));
	const streamOf = (page) => /stream\r?\n([\s\S]*?)\r?\nendstream/.exec(objects.get(ref(page, "Contents")) ?? "")?.[1] ?? "";
	return {
		numPages: pages.length,
		async getPage(number) {
			const page = pages[number - 1];
			if (!page) throw new Error("Invalid page request.");
			pdfjsDouble.pagesRead += 1;
			return { async getTextContent() { return { items: textItems(streamOf(page)) }; } };
		},
		async destroy() {},
	};
}

/** The stand-in for `pdfjsLib`. */
export const pdfjsDouble = {
	/** How many documents were opened, for tests of how often a PDF is read. */
	opened: 0,
	/** How many pages were asked for, for tests of how much of a PDF is read. */
	pagesRead: 0,
	getDocument(source) {
		pdfjsDouble.opened += 1;
		return { promise: Promise.resolve().then(() => openDocument(source.data)) };
	},
};

/**
 * A PDF with one page per entry, each a list of lines of text (an empty list
 * draws only a filled rectangle, as a scan's page has no text), as bytes.
 */
export function simplePdf(pages) {
	const escape = (s) => s.replace(/[\\()]/g, (c) => `\\${c}`);
	const bodies = [];
	const add = (body) => bodies.push(body) + 2; // object numbers from 3 (1: catalog, 2: pages)
	const kids = pages.map((lines) => {
		const content = lines.length ? `BT /F1 12 Tf 72 720 Td 14 TL\n${lines.map((l, i) => `${i ? "T* " : ""}(${escape(l)}) Tj`).join("\n")}\nET` : "0.5 g 72 72 450 650 re f";
		const stream = add(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
		return add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> /Contents ${stream} 0 R >>`);
	});
	const all = ["<< /Type /Catalog /Pages 2 0 R >>", `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(" ")}] /Count ${kids.length} >>`, ...bodies];
	let out = "%PDF-1.4\n";
	const offsets = [];
	all.forEach((body, i) => {
		offsets.push(out.length);
		out += `${i + 1} 0 obj\n${body}\nendobj\n`;
	});
	const xref = out.length;
	out += `xref\n0 ${all.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
	out += `trailer\n<< /Size ${all.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
	return Uint8Array.from(out, (c) => c.charCodeAt(0));
}
