// Effects the core asks for, done with Node's APIs in Obsidian's desktop
// renderer. Imported lazily from main.ts, so mobile never loads Node builtins.
// Nothing here decides anything: the core says what to run, with which limits.

import { execFile, type ChildProcess, type ExecFileException } from "child_process";
import { constants as fsConstants, promises as fs } from "fs";
import { request as httpRequest, type ClientRequest, type IncomingMessage } from "http";
import { request as httpsRequest } from "https";
import { homedir } from "os";
import type {
	FileStatus,
	HostFunctions,
	HttpChunk,
	HttpFailure,
	HttpOpened,
	HttpRequestSpec,
	PlatformFacts,
	ProcessOutcome,
	ProcessRequest,
} from "./core-types";

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

/** Stops every CLI process and model request still running (plugin unload). */
export function stopAllProcesses(): void {
	for (const child of running) stop(child, "SIGKILL");
	running.clear();
	abortHttp();
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

/** A response body being read by the core, chunk by chunk. */
interface OpenResponse {
	request: ClientRequest;
	response: IncomingMessage;
	chunks: Buffer[];
	done: boolean;
	error: HttpFailure | null;
	wake: (() => void) | null;
}

const responses = new Map<number, OpenResponse>();
const requests = new Set<ClientRequest>();
let nextResponseId = 1;

function failureOf(error: unknown): HttpFailure {
	const e = error as NodeJS.ErrnoException;
	const code = e.name === "AbortError" || e.code === "ABORT_ERR" ? "ABORTED" : (e.code ?? "HTTP_ERROR");
	return { code, message: e.message ?? String(error) };
}

/** Node's http/https from the renderer: no CORS, and a real stream. */
export function httpOpen(spec: HttpRequestSpec): Promise<HttpOpened | { error: HttpFailure }> {
	return new Promise((resolve) => {
		let url: URL;
		try {
			url = new URL(spec.url);
		} catch {
			resolve({ error: { code: "ERR_INVALID_URL", message: `Not a valid address: ${spec.url}` } });
			return;
		}
		const send = url.protocol === "https:" ? httpsRequest : httpRequest;
		const request = send(url, { method: spec.method, headers: Object.fromEntries(spec.headers) }, (response) => {
			window.clearTimeout(timer);
			const id = nextResponseId++;
			const open: OpenResponse = { request, response, chunks: [], done: false, error: null, wake: null };
			const wake = () => {
				const w = open.wake;
				open.wake = null;
				w?.();
			};
			responses.set(id, open);
			response.on("data", (chunk: Buffer) => {
				open.chunks.push(chunk);
				wake();
			});
			response.on("end", () => {
				open.done = true;
				wake();
			});
			response.on("error", (error) => {
				open.error ??= failureOf(error);
				wake();
			});
			response.on("close", () => {
				if (!open.done) open.error ??= { code: "ECONNRESET", message: "The connection closed before the answer ended." };
				wake();
			});
			resolve({ id, status: response.statusCode ?? 0 });
		});
		requests.add(request);
		request.on("close", () => requests.delete(request));
		const timer = window.setTimeout(() => {
			request.destroy(Object.assign(new Error(`No answer within ${spec.timeoutMs} ms`), { code: "ETIMEDOUT" }));
		}, spec.timeoutMs);
		request.on("error", (error) => {
			window.clearTimeout(timer);
			resolve({ error: failureOf(error) });
		});
		if (spec.body !== null && spec.body !== undefined) request.write(spec.body);
		request.end();
	});
}

export async function httpRead(id: number): Promise<HttpChunk> {
	const open = responses.get(id);
	if (!open) return { done: true };
	for (;;) {
		const chunk = open.chunks.shift();
		if (chunk) return { chunk: new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength) };
		if (open.error) return { error: open.error };
		if (open.done) return { done: true };
		await new Promise<void>((resolve) => (open.wake = resolve));
	}
}

export function httpClose(id: number): void {
	const open = responses.get(id);
	responses.delete(id);
	if (open && !open.done) open.request.destroy();
}

/** Stop: every model request in flight ends with code ABORTED. */
export function abortHttp(): void {
	for (const open of responses.values()) {
		if (!open.done) {
			open.error = { code: "ABORTED", message: "Stopped by the user." };
			open.request.destroy();
			open.wake?.();
		}
	}
	for (const request of requests) request.destroy(Object.assign(new Error("Stopped by the user."), { code: "ABORTED" }));
}

export function createNodeHost(secret: (name: string) => string | null): HostFunctions {
	return {
		runProcess,
		fileStatus,
		env: (name) => process.env[name],
		now: () => performance.timeOrigin + performance.now(),
		httpOpen,
		httpRead,
		httpClose,
		secret: (name) => secret(name) ?? undefined,
	};
}

/** The facts only Node and Electron know; the OS comes from Obsidian's Platform. */
export function nodePlatformFacts(
	os: PlatformFacts["os"],
	isDesktopApp: boolean,
	vaultPath: string | null,
	configDir: string,
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
	};
}
