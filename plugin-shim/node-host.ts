// Effects the core asks for, done with Node's APIs in Obsidian's desktop
// renderer. Imported lazily from main.ts, so mobile never loads Node builtins.
// Nothing here decides anything: the core says what to run, with which limits.

import { execFile, type ChildProcess, type ExecFileException } from "child_process";
import { constants as fsConstants, promises as fs } from "fs";
import { homedir } from "os";
import type { FileStatus, HostFunctions, PlatformFacts, ProcessOutcome, ProcessRequest } from "./core-types";

/** Output is counted up to this many times the cap; beyond it Node stops the
 * process (a memory guard) and the core reports the size as a lower bound. */
const OVERFLOW_FACTOR = 16;

/** Children still running, so unload can stop them. */
const running = new Set<ChildProcess>();

/**
 * Stops a child. Only the CLI process itself: when Obsidian is not running the
 * CLI may launch the app, and that app must survive a timed-out call.
 */
function stop(child: ChildProcess, signal: NodeJS.Signals): void {
	if (child.exitCode !== null || child.signalCode !== null) return;
	child.kill(signal);
}

export function runProcess(request: ProcessRequest): Promise<ProcessOutcome> {
	return new Promise((resolve) => {
		let timedOut = false;
		let termTimer: number | undefined;
		let killTimer: number | undefined;
		let child: ChildProcess;
		try {
			child = execFile(
				request.program,
				request.args,
				{
					cwd: request.cwd ?? undefined,
					encoding: "buffer",
					shell: false,
					windowsHide: true,
					maxBuffer: request.maxOutputBytes * OVERFLOW_FACTOR,
				},
				// execFile keeps at most maxBuffer bytes; the core gets the first
				// maxOutputBytes and the count, and cuts on a character boundary.
				(error: ExecFileException | null, stdout: Buffer, stderr: Buffer) => {
					window.clearTimeout(termTimer);
					window.clearTimeout(killTimer);
					running.delete(child);
					const code = error?.code;
					if (typeof code === "string" && code !== "ERR_CHILD_PROCESS_STDIO_MAXBUFFER" && child.pid === undefined) {
						resolve({ spawnFailure: { code, message: error?.message ?? code } });
						return;
					}
					resolve({
						outputOverflow: code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER",
						exitCode: child.exitCode,
						signal: child.signalCode ?? error?.signal ?? null,
						timedOut,
						stdout: stdout.subarray(0, request.maxOutputBytes),
						stderr: stderr.subarray(0, request.maxOutputBytes),
						stdoutTotalBytes: stdout.length,
						stderrTotalBytes: stderr.length,
					});
				},
			);
		} catch (error) {
			const failure = error as NodeJS.ErrnoException;
			resolve({ spawnFailure: { code: failure.code ?? "EINVAL", message: failure.message } });
			return;
		}
		running.add(child);
		termTimer = window.setTimeout(() => {
			timedOut = true;
			stop(child, "SIGTERM");
			killTimer = window.setTimeout(() => stop(child, "SIGKILL"), request.killGraceMs);
		}, request.timeoutMs);
	});
}

/** Stops every CLI process still running (plugin unload). */
export function stopAllProcesses(): void {
	for (const child of running) stop(child, "SIGKILL");
	running.clear();
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

export function createNodeHost(): HostFunctions {
	return {
		runProcess,
		fileStatus,
		env: (name) => process.env[name],
		now: () => performance.timeOrigin + performance.now(),
	};
}

/** The facts only Node and Electron know; the OS comes from Obsidian's Platform. */
export function nodePlatformFacts(
	os: PlatformFacts["os"],
	isDesktopApp: boolean,
	vaultPath: string | null,
): PlatformFacts {
	const electron = process as NodeJS.Process & { resourcesPath?: string };
	return {
		os,
		isDesktopApp,
		resourcesPath: electron.resourcesPath ?? null,
		execPath: process.execPath ?? null,
		vaultPath,
		homeDir: homedir(),
	};
}
