// A vault PDF's text for the core, page by page, read with Obsidian's own
// PDF.js (`loadPdfJs`): only the pages the core asks for (a 10 000-page PDF
// is not read whole). What is sent, how many pages fit and what the user
// and the model are told are the core's (src/doors/chat/pdf.rs); this file
// only reads, and names PDF.js's failure: a password it was not given
// (`encrypted`) or a file it cannot read (`damaged`).

import { loadPdfJs, TFile, type App } from "obsidian";
import type { HostFunctions } from "../core/host-types";

/** The parts of PDF.js's API read here. */
interface PdfJs {
	getDocument(source: { data: Uint8Array }): { promise: Promise<PdfDocument>; destroy(): Promise<void> };
}
interface PdfDocument {
	numPages: number;
	getPage(number: number): Promise<{ getTextContent(): Promise<{ items: Array<{ str?: string; hasEOL?: boolean }> }> }>;
	destroy(): Promise<void>;
}

type Failure = { error: { code: string; message: string } };

function fail(message: string, code: string): Failure {
	return { error: { code, message } };
}

/** PDF.js's error, as the core reads it: PDF.js names a missing password `PasswordException`. */
function failed(error: unknown): Failure {
	const message = error instanceof Error ? error.message : String(error);
	return fail(message, error instanceof Error && error.name === "PasswordException" ? "encrypted" : "damaged");
}

/** The host function the core asks for a PDF's pages. */
export function pdfText(app: App): HostFunctions["pdfText"] {
	return async (path, maxBytes, first, last) => {
		const file = app.vault.getAbstractFileByPath(path);
		if (!(file instanceof TFile)) return fail("its file is gone", "not_found");
		let bytes: ArrayBuffer;
		try {
			bytes = await app.vault.readBinary(file);
		} catch {
			return fail("its file cannot be read", "not_found");
		}
		if (bytes.byteLength > maxBytes) return fail(`it is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`, "too_large");
		let document: PdfDocument;
		let loading: ReturnType<PdfJs["getDocument"]> | undefined;
		try {
			const pdfjs = (await loadPdfJs()) as PdfJs;
			loading = pdfjs.getDocument({ data: new Uint8Array(bytes) });
			document = await loading.promise;
		} catch (error) {
			// A refused PDF leaves its task, and the worker PDF.js started for it, alive until destroyed.
			void loading?.destroy();
			return failed(error);
		}
		try {
			const pages: string[] = [];
			for (let number = Math.max(1, first); number <= Math.min(last, document.numPages); number++) {
				const content = await (await document.getPage(number)).getTextContent();
				pages.push(content.items.map((item) => `${item.str ?? ""}${item.hasEOL ? "\n" : ""}`).join(""));
			}
			return { total: document.numPages, pages };
		} catch (error) {
			return failed(error);
		} finally {
			void document.destroy();
		}
	};
}
