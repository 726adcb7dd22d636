// Copies what a community-directory release attaches (main.js, manifest.json,
// styles.css) from a built checkout into a release folder, with a SHA256SUMS
// in `sha256sum` format so `sha256sum -c SHA256SUMS` verifies a download.
// Usage: node scripts/release-files.mjs [<built checkout> [<release folder>]]
// (defaults: the current folder, and release/ inside it). The folder is
// emptied first so no file of an older release is left beside the new ones.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const RELEASE_FILES = ["main.js", "manifest.json", "styles.css"];

/** Writes the release files and SHA256SUMS into `outDir`; returns SHA256SUMS' text. */
export function writeRelease(sourceDir, outDir) {
	rmSync(outDir, { recursive: true, force: true });
	mkdirSync(outDir, { recursive: true });
	let sums = "";
	for (const name of RELEASE_FILES) {
		const bytes = readFileSync(join(sourceDir, name));
		writeFileSync(join(outDir, name), bytes);
		sums += `${createHash("sha256").update(bytes).digest("hex")}  ${name}\n`;
	}
	writeFileSync(join(outDir, "SHA256SUMS"), sums);
	return sums;
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const sourceDir = resolve(process.argv[2] ?? ".");
	const outDir = resolve(process.argv[3] ?? join(sourceDir, "release"));
	process.stdout.write(writeRelease(sourceDir, outDir));
}
