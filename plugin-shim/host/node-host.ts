// Effects the core asks for, done with Node's APIs in Obsidian's desktop
// renderer (processes.ts, http.ts, and the files here). Imported lazily at
// the core's start, so mobile never loads Node builtins. Nothing here decides
// anything: the core says what to run, with which limits.

import { constants as fsConstants, promises as fs, type Dirent } from "fs";
import { homedir } from "os";
import type { FileStatus, HostFunctions, PlatformFacts } from "../core/types";
import { abortHttp, httpClose, httpOpen, httpRead, resolveHost } from "./http";
import { outsideCall, outsideList, stopAllServers } from "./outside-servers";
import { cancelProcesses, killProcesses, runProcess } from "./processes";

export { abortHttp } from "./http";
export { abortProcesses, runProcess } from "./processes";
export { abortOutsideCalls, runningServers, stopServer } from "./outside-servers";

/** Stops every CLI process group, model request and MCP server still running (plugin unload). */
export function stopAllProcesses(): void {
	killProcesses();
	abortHttp();
	void stopAllServers();
}

export async function fileStatus(path: string): Promise<FileStatus> {
	try {
		const stat = await fs.stat(path);
		let executable = false;
		try {
			await fs.access(path, fsConstants.X_OK);
			executable = true;
		} catch {
			executable = false;
		}
		return { exists: true, isFile: stat.isFile(), executable };
	} catch {
		return { exists: false, isFile: false, executable: false };
	}
}

/** The real path (links followed, by the OS): the core checks it before a write. */
export async function realPath(path: string): Promise<{ path: string } | { error: { code: string; message: string } }> {
	try {
		return { path: await fs.realpath(path) };
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		return { error: { code: code === "ENOENT" || code === "ENOTDIR" ? "not_found" : (code ?? "realpath_failed"), message: String(error) } };
	}
}

/** Folders walked at most by `vaultLinks`: a bound on one listing's cost. */
const MAX_LINK_WALK = 20_000;

/**
 * The symbolic links under `vault` and where each really leads (`real` left
 * out when nothing is there). Reports facts only; the core decides which may
 * be read. One walk of the folders, links not followed; folders whose name
 * starts with a dot hold no notes Obsidian lists and are not walked.
 */
export async function vaultLinks(vault: string): Promise<{ links: { path: string; real?: string }[] }> {
	const links: { path: string; real?: string }[] = [];
	// Joined by hand: Node's fs takes "/" on every system, and the shim uses
	// no other Node module than the ones Obsidian's renderer is known to give.
	const root = vault.replace(/[\\/]+$/, "");
	const under = (path: string) => `${root}/${path}`;
	const folders = [""];
	let walked = 0;
	while (folders.length > 0 && walked < MAX_LINK_WALK) {
		const folder = folders.pop() ?? "";
		walked += 1;
		let entries: Dirent[];
		try {
			entries = await fs.readdir(folder === "" ? vault : under(folder), { withFileTypes: true });
		} catch {
			continue;
		}
		for (const entry of entries) {
			const path = folder === "" ? entry.name : `${folder}/${entry.name}`;
			if (entry.isSymbolicLink()) {
				const real = await fs.realpath(under(path)).catch(() => undefined);
				links.push(real === undefined ? { path } : { path, real });
			} else if (entry.isDirectory() && !entry.name.startsWith(".")) {
				folders.push(path);
			}
		}
	}
	return { links };
}

/**
 * Resolves after `ms` milliseconds; 0 gives the app one turn (a task of its
 * own, so it draws and handles input) and no more. Not setTimeout(0): a
 * chain of those is held to 4 ms a step, which was a third of the search
 * index's build.
 */
export function sleep(ms: number): Promise<void> {
	if (ms > 0) return new Promise((resolve) => window.setTimeout(resolve, ms));
	return new Promise((resolve) => {
		const channel = new MessageChannel();
		channel.port1.onmessage = () => {
			channel.port1.close();
			resolve();
		};
		channel.port2.postMessage(null);
	});
}

/** Each Excluded files pattern compiled once (null: not a valid one); a build tests every note against it. */
const patterns = new Map<string, RegExp | null>();

function patternMatches(pattern: string, text: string): boolean | undefined {
	let compiled = patterns.get(pattern);
	if (compiled === undefined) {
		try {
			compiled = new RegExp(pattern);
		} catch {
			compiled = null;
		}
		patterns.set(pattern, compiled);
	}
	return compiled === null ? undefined : compiled.test(text);
}

export function createNodeHost(secret: (name: string) => string | null): Omit<HostFunctions, "vaultRead" | "vaultReadMany" | "vaultNotes" | "vaultReadBytes" | "vaultProcess" | "vaultTrash" | "vaultMove" | "vaultCreate" | "linksUpdateOnMove" | "openNote" | "localContext" | "saveJournal" | "loadVectors" | "saveVectors" | "imageData" | "pdfText" | "pageText"> {
	return {
		runProcess,
		cancelProcesses,
		fileStatus,
		realPath,
		vaultLinks,
		env: (name) => process.env[name],
		now: () => performance.timeOrigin + performance.now(),
		httpOpen,
		resolveHost,
		httpRead,
		sleep,
		httpClose,
		secret: (name) => secret(name) ?? undefined,
		patternMatches,
		outsideList,
		outsideCall,
	};
}

/** The facts only Node and Electron know; the OS comes from Obsidian's Platform. */
export function nodePlatformFacts(
	os: PlatformFacts["os"],
	isDesktopApp: boolean,
	vaultPath: string | null,
	configDir: string,
	appLanguage: string | null,
): PlatformFacts {
	const electron = process as NodeJS.Process & { resourcesPath?: string };
	return {
		os,
		isDesktopApp,
		resourcesPath: electron.resourcesPath ?? null,
		execPath: process.execPath ?? null,
		vaultPath,
		homeDir: homedir(),
		configDir,
		appLanguage,
	};
}
