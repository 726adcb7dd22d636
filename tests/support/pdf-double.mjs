// Obsidian's PDF.js, as the test doubles' `loadPdfJs` gives it: the real
// pdfjs-dist (the library Obsidian ships; a devDependency, nothing of it is in
// main.js). Each harness says where it comes from with `usePdfJs`: in
// Chromium the browser build, whose parsing runs in its Web Worker as in
// Obsidian (tests/support/browser-entry.mjs); in Node the legacy build, which
// parses on Node's one thread (tests/support/harness.mjs). `pdfjsDouble`
// hands the plugin that library with two counters for tests of how much of a
// PDF is read. `simplePdf(pages)` writes a small PDF (with a correct xref
// table) for a test.

/** How the library is loaded, set by the harness; loaded once, on first use. */
let load = () => Promise.reject(new Error("pdf-double: no PDF.js given (usePdfJs)"));
let library = null;

/** Where the doubles' PDF.js comes from: a function that imports it. */
export function usePdfJs(loader) {
	load = loader;
	library = null;
}

/** The stand-in for `pdfjsLib`: PDF.js's own `getDocument`, counted. */
export const pdfjsDouble = {
	/** How many documents were opened, for tests of how often a PDF is read. */
	opened: 0,
	/** How many pages were asked for, for tests of how much of a PDF is read. */
	pagesRead: 0,
	/**
	 * How many loading tasks are not destroyed yet: each holds a worker (in
	 * Chromium a thread and its heap) until `destroy()`, on the task or on
	 * its document; a PDF.js refusal does not end it.
	 */
	live: 0,
	getDocument(source) {
		pdfjsDouble.opened += 1;
		pdfjsDouble.live += 1;
		const task = (library ??= load()).then((pdfjs) => {
			const loading = pdfjs.getDocument(source);
			const destroy = loading.destroy.bind(loading);
			let ended = false;
			// The document's destroy() calls its task's: counted here either way.
			loading.destroy = () => {
				if (!ended) pdfjsDouble.live -= 1;
				ended = true;
				return destroy();
			};
			return loading;
		});
		return {
			promise: task.then((loading) => loading.promise).then((document) => {
				const getPage = document.getPage.bind(document);
				document.getPage = (number) => {
					pdfjsDouble.pagesRead += 1;
					return getPage(number);
				};
				return document;
			}),
			destroy: () => task.then((loading) => loading.destroy()),
		};
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
