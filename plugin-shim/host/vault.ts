// Notes read and written through Obsidian's own vault, for the edits the CLI
// cannot make (it has no edit command, and a large note cannot travel in one
// argument) and for undo. The core computes the new text; this only reads,
// writes in one `app.vault.process` step that first checks the note is
// unchanged, and moves a note the agent created to the user's trash.

import { type App, TFile } from "obsidian";
import type { HostFunctions } from "../core/types";

type VaultFunctions = Pick<HostFunctions, "vaultRead" | "vaultReadMany" | "vaultNotes" | "vaultReadBytes" | "vaultProcess" | "vaultTrash" | "vaultMove" | "vaultCreate" | "linksUpdateOnMove" | "openNote" | "localContext">;

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** "Wednesday, 2 December 2026 at 09:05": the local time as the model reads it. */
function dateTime(date: Date): string {
	const two = (n: number) => String(n).padStart(2, "0");
	return `${WEEKDAYS[date.getDay()]}, ${date.getDate()} ${MONTHS[date.getMonth()]} ${date.getFullYear()} at ${two(date.getHours())}:${two(date.getMinutes())}`;
}

/** "2026-12-02": the local day, as a saved prompt's `{{date}}` is filled in. */
export function isoDate(date: Date): string {
	const two = (n: number) => String(n).padStart(2, "0");
	return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
}

/** "UTC+01:00" for a Date's zone. */
function utcOffset(date: Date): string {
	const minutes = -date.getTimezoneOffset();
	const sign = minutes < 0 ? "-" : "+";
	const abs = Math.abs(minutes);
	return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

/** The folder part of a vault path ("" at the root). */
function folderOf(path: string): string {
	const slash = path.lastIndexOf("/");
	return slash < 0 ? "" : path.slice(0, slash);
}

/** Makes the folder (and its parents) if it is missing. */
async function ensureFolder(app: App, folder: string): Promise<void> {
	if (folder === "" || app.vault.getAbstractFileByPath(folder)) return;
	await ensureFolder(app, folderOf(folder));
	await app.vault.createFolder(folder);
}

/** Obsidian's "Automatically update internal links" (not in the API's typings). */
interface VaultConfig {
	getConfig?: (key: string) => unknown;
}

function noteAt(app: App, path: string): TFile | { error: { code: string; message: string } } {
	const file = app.vault.getAbstractFileByPath(path);
	if (file instanceof TFile) return file;
	if (file) return { error: { code: "not_a_file", message: `${path} is a folder, not a note.` } };
	return { error: { code: "not_found", message: `There is no note at ${path}.` } };
}

export function vaultFunctions(app: App): VaultFunctions {
	return {
		vaultRead: async (path) => {
			const file = noteAt(app, path);
			if (!(file instanceof TFile)) return file;
			try {
				return { content: await app.vault.read(file) };
			} catch (error) {
				return { error: { code: "read_failed", message: String(error) } };
			}
		},
		// The hygiene checks read the whole vault: Obsidian's cached text, a
		// batch at a time (the core sizes the batches), never a CLI process per note.
		vaultReadMany: (paths, maxBytes) =>
			Promise.all(
				paths.map(async (path) => {
					const file = noteAt(app, path);
					if (!(file instanceof TFile)) return null;
					// Too long to be worth reading (and certainly not empty).
					if ((file.stat?.size ?? 0) > maxBytes) return null;
					try {
						const text = await app.vault.cachedRead(file);
						return text.length > maxBytes ? null : text;
					} catch {
						return null;
					}
				}),
			),
		// The ranked search's index: every note, and the user's "Excluded files"
		// (the core decides what they leave out).
		vaultNotes: () => {
			const filters = (app.vault as unknown as VaultConfig).getConfig?.("userIgnoreFilters");
			const excluded = Array.isArray(filters) ? filters.filter((f): f is string => typeof f === "string") : [];
			return { paths: app.vault.getMarkdownFiles().map((file) => file.path), excluded };
		},
		vaultReadBytes: async (path, maxBytes) => {
			const file = noteAt(app, path);
			if (!(file instanceof TFile)) return file;
			if ((file.stat?.size ?? 0) > maxBytes) return { error: { code: "too_large", message: `${path} is larger than ${maxBytes} bytes.` } };
			try {
				const bytes = new Uint8Array(await app.vault.readBinary(file));
				if (bytes.length > maxBytes) return { error: { code: "too_large", message: `${path} is larger than ${maxBytes} bytes.` } };
				return { bytes };
			} catch (error) {
				return { error: { code: "read_failed", message: String(error) } };
			}
		},
		vaultProcess: async (path, expected, replacement) => {
			const file = noteAt(app, path);
			if (!(file instanceof TFile)) return file;
			let now: string | null = null;
			try {
				await app.vault.process(file, (data) => {
					// The stale check inside the write: if anything changed the
					// note since the preview, write back what is there.
					if (data !== expected) {
						now = data;
						return data;
					}
					return replacement;
				});
			} catch (error) {
				return { error: { code: "write_failed", message: String(error) } };
			}
			return now === null ? { status: "written" } : { status: "changed", now };
		},
		vaultTrash: async (path) => {
			const file = noteAt(app, path);
			if (!(file instanceof TFile)) return file;
			try {
				// Follows Settings → Files and links → Deleted files.
				await app.fileManager.trashFile(file);
			} catch (error) {
				return { error: { code: "trash_failed", message: String(error) } };
			}
			return { status: "trashed" };
		},
		vaultMove: async (from, to) => {
			const file = noteAt(app, from);
			if (!(file instanceof TFile)) return file;
			if (app.vault.getAbstractFileByPath(to)) return { error: { code: "exists", message: `${to} already exists.` } };
			try {
				await ensureFolder(app, folderOf(to));
				await app.fileManager.renameFile(file, to);
			} catch (error) {
				return { error: { code: "move_failed", message: String(error) } };
			}
			return { status: "moved" };
		},
		vaultCreate: async (path, bytes) => {
			if (app.vault.getAbstractFileByPath(path)) return { error: { code: "exists", message: `${path} already exists.` } };
			try {
				await ensureFolder(app, folderOf(path));
				// The exact bytes (an image, a note that is not UTF-8), not decoded text.
				await app.vault.createBinary(path, bytes.slice().buffer);
			} catch (error) {
				return { error: { code: "create_failed", message: String(error) } };
			}
			return { status: "created" };
		},
		linksUpdateOnMove: () => {
			const value = (app.vault as unknown as VaultConfig).getConfig?.("alwaysUpdateLinks");
			return typeof value === "boolean" ? value : undefined;
		},
		localContext: () => {
			const now = new Date();
			// Date's own text names the zone ("... GMT+0100 (Central European
			// Standard Time)"): no Intl, whose first use in a page (loading its
			// locale data) took 80-120 ms in Chromium, in the middle of the
			// first message's first frame.
			const zone = /\(([^)]+)\)$/.exec(now.toString())?.[1];
			return {
				dateTime: dateTime(now),
				date: isoDate(now),
				timeZone: zone ? `${zone} (${utcOffset(now)})` : utcOffset(now),
				openNote: app.workspace.getActiveFile()?.path,
			};
		},
		openNote: async (path, heading) => {
			const file = noteAt(app, path);
			if (!(file instanceof TFile)) return file;
			try {
				// The current tab, never a new one: one request opens at most one note.
				await app.workspace.openLinkText(heading ? `${file.path}#${heading}` : file.path, "", false);
			} catch (error) {
				return { error: { code: "open_failed", message: String(error) } };
			}
			return { status: "opened" };
		},
	};
}
