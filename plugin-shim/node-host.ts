// Effects the core asks for, done with Node's APIs in Obsidian's desktop
// renderer. Imported lazily from main.ts, so mobile never loads Node builtins.
// Nothing here decides anything: the core says what to run, with which limits.

import { execFile, spawn, type ChildProcess } from "child_process";
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

/** Output is counted exactly up to this many times the cap (only the cap is
 * kept); past it the host stops the process and the totals are lower bounds. */
const OVERFLOW_FACTOR = 16;

/** How long to keep reading after the CLI exited. A process it started (the
 * Obsidian app, when it was not running) may hold the pipes open for good. */
const EXIT_DRAIN_MS = 200;

/** After the last kill signal, the call settles this much later whatever is
 * left (a process stuck in the kernel, pipes held by an escaped descendant). */
const SETTLE_SLACK_MS = 300;

type StopSignal = "SIGTERM" | "SIGKILL";
type ProcessTree = NonNullable<ProcessRequest["tree"]>;

/** Calls still running, so Stop and unload can end them. */
const running = new Set<(signal: StopSignal) => void>();
/** The stops of processes started for one MCP call, by the call's tag. */
const tagged = new Map<string, Set<(signal: StopSignal) => void>>();
/** Tags of cancelled calls (unique per call), so they start nothing more. */
const cancelledTags = new Set<string>();

/** One stream's output: the first `keep` bytes, and how many arrived in all. */
class Capture {
	private readonly chunks: Uint8Array[] = [];
	private kept = 0;
	total = 0;

	constructor(private readonly keep: number) {}

	add(chunk: Uint8Array): void {
		this.total += chunk.length;
		const room = this.keep - this.kept;
		if (room <= 0) return;
		// A partial chunk is copied, so the rest of it is not kept alive.
		const part = chunk.length <= room ? chunk : new Uint8Array(chunk.subarray(0, room));
		this.chunks.push(part);
		this.kept += part.length;
	}

	bytes(): Uint8Array {
		if (this.chunks.length === 1 && this.chunks[0]) return this.chunks[0];
		const out = new Uint8Array(this.kept);
		let offset = 0;
		for (const chunk of this.chunks) {
			out.set(chunk, offset);
			offset += chunk.length;
		}
		return out;
	}
}

/**
 * Signals the CLI and everything it started. On POSIX the CLI leads its own
 * process group (spawned detached), so one kill reaches the group; on Windows
 * taskkill ends the tree (taskkill /F cannot be gentle, so both steps force).
 */
export function signalTree(child: ChildProcess, tree: ProcessTree, signal: StopSignal): void {
	const pid = child.pid;
	if (pid === undefined) return;
	const alive = child.exitCode === null && child.signalCode === null;
	if (tree === "taskkill") {
		if (!alive) return;
		const taskkill = `${process.env.SystemRoot ?? "C:\\Windows"}\\System32\\taskkill.exe`;
		execFile(taskkill, ["/T", "/F", "/PID", String(pid)], { windowsHide: true }, (error) => {
			if (error && child.exitCode === null && child.signalCode === null) child.kill(signal);
		});
		return;
	}
	try {
		process.kill(-pid, signal);
		return;
	} catch {
		// No such group: everything in it is gone, or the child is not a group
		// leader (a host whose spawn ignores `detached`). Signal the child alone.
	}
	if (alive) child.kill(signal);
}

/**
 * Runs one program without a shell and settles by timeoutMs + killGraceMs +
 * SETTLE_SLACK_MS at the latest, whatever the program leaves behind.
 *
 * `spawn` with `shell: false` is what execFile does inside; execFile itself
 * passes no `detached` to spawn (so the CLI could not lead a process group)
 * and buffers up to maxBuffer per stream, which is why it is not used here.
 */
export function runProcess(request: ProcessRequest): Promise<ProcessOutcome> {
	const tree: ProcessTree = request.tree ?? "processGroup";
	if (request.tag !== undefined && cancelledTags.has(request.tag)) {
		return Promise.resolve({ spawnFailure: { code: "ABORTED", message: "The MCP client cancelled the call." } });
	}
	return new Promise((resolve) => {
		let child: ChildProcess;
		try {
			child = spawn(request.program, request.args, {
				cwd: request.cwd ?? undefined,
				shell: false,
				windowsHide: true,
				// A new process group on POSIX; on Windows it would open a console.
				detached: tree === "processGroup",
			});
		} catch (error) {
			const failure = error as NodeJS.ErrnoException;
			resolve({ spawnFailure: { code: failure.code ?? "EINVAL", message: failure.message } });
			return;
		}
		const stdout = new Capture(request.maxOutputBytes);
		const stderr = new Capture(request.maxOutputBytes);
		const floodBytes = request.maxOutputBytes * OVERFLOW_FACTOR;
		let timedOut = false;
		let outputOverflow = false;
		let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
		let settled = false;
		let termTimer: number | undefined;
		let killTimer: number | undefined;
		let drainTimer: number | undefined;
		// Timers that end with the call (the SIGKILL timer outlives it: a
		// descendant that ignored SIGTERM must still go).
		const timers: number[] = [];

		const closePipes = () => {
			child.stdin?.destroy();
			child.stdout?.destroy();
			child.stderr?.destroy();
		};
		const finish = (outcome?: ProcessOutcome) => {
			if (settled) return;
			settled = true;
			for (const timer of timers) window.clearTimeout(timer);
			window.clearTimeout(drainTimer);
			running.delete(stop);
			if (request.tag !== undefined) {
				// Every MCP call has its own tag: an emptied set goes, or the map grows per call.
				const stops = tagged.get(request.tag);
				stops?.delete(stop);
				if (stops?.size === 0) tagged.delete(request.tag);
			}
			closePipes();
			resolve(
				outcome ?? {
					outputOverflow,
					exitCode: exit?.code ?? child.exitCode,
					signal: exit?.signal ?? child.signalCode,
					timedOut,
					stdout: stdout.bytes(),
					stderr: stderr.bytes(),
					stdoutTotalBytes: stdout.total,
					stderrTotalBytes: stderr.total,
				},
			);
		};
		const settleWithin = (ms: number) => timers.push(window.setTimeout(() => finish(), ms));
		/** Ends the call: the whole group gets `signal` (SIGTERM, then SIGKILL after the grace). */
		function stop(signal: StopSignal): void {
			if (settled) return;
			// Once the CLI itself has exited, what is left is not ours to kill
			// (it may be the Obsidian app the CLI launched): just stop reading.
			if (exit) {
				finish();
				return;
			}
			signalTree(child, tree, signal);
			if (signal === "SIGKILL") {
				window.clearTimeout(killTimer);
				settleWithin(SETTLE_SLACK_MS);
			} else if (killTimer === undefined) {
				killTimer = window.setTimeout(() => signalTree(child, tree, "SIGKILL"), request.killGraceMs);
				settleWithin(request.killGraceMs + SETTLE_SLACK_MS);
			}
		}
		const onData = (capture: Capture) => (chunk: Uint8Array) => {
			capture.add(chunk);
			if (!outputOverflow && capture.total > floodBytes) {
				// A memory and CPU guard: stop reading, and stop the writer.
				outputOverflow = true;
				closePipes();
				stop("SIGTERM");
			}
		};

		child.stdout?.on("data", onData(stdout));
		child.stderr?.on("data", onData(stderr));
		child.on("error", (error: NodeJS.ErrnoException) => {
			// Could not start (ENOENT, EACCES, a missing cwd); later errors
			// (a failed kill) change nothing: exit, close or a timer settles.
			if (child.pid === undefined) finish({ spawnFailure: { code: error.code ?? "EINVAL", message: error.message } });
		});
		child.on("exit", (code, signal) => {
			exit = { code, signal };
			window.clearTimeout(termTimer);
			// The pipes normally close at once; if a descendant holds them, the
			// output the CLI wrote before exiting has been read by now.
			drainTimer ??= window.setTimeout(() => finish(), EXIT_DRAIN_MS);
		});
		child.on("close", () => finish());
		running.add(stop);
		if (request.tag !== undefined) {
			const stops = tagged.get(request.tag) ?? new Set();
			stops.add(stop);
			tagged.set(request.tag, stops);
		}
		termTimer = window.setTimeout(() => {
			timedOut = true;
			stop("SIGTERM");
		}, request.timeoutMs);
		timers.push(termTimer);
		settleWithin(request.timeoutMs + request.killGraceMs + SETTLE_SLACK_MS);
	});
}

/** A cancelled MCP call: its CLI processes end (SIGTERM, then SIGKILL). */
export function cancelProcesses(tag: string): void {
	cancelledTags.add(tag);
	if (cancelledTags.size > 1000) cancelledTags.delete(cancelledTags.values().next().value as string);
	for (const stop of [...(tagged.get(tag) ?? [])]) stop("SIGTERM");
	tagged.delete(tag);
}

/** Stop in the chat: every CLI call still running ends (SIGTERM, then SIGKILL). */
export function abortProcesses(): void {
	for (const stop of [...running]) stop("SIGTERM");
}

/** Stops every CLI process group and model request still running (plugin unload). */
export function stopAllProcesses(): void {
	for (const stop of [...running]) stop("SIGKILL");
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

/** The real path (links followed, by the OS): the core checks it before a write. */
export async function realPath(path: string): Promise<{ path: string } | { error: { code: string; message: string } }> {
	try {
		return { path: await fs.realpath(path) };
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		return { error: { code: code === "ENOENT" || code === "ENOTDIR" ? "not_found" : (code ?? "realpath_failed"), message: String(error) } };
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
	/** Ends a body that goes silent for longer than the request allows. */
	idle: number | null;
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
			const open: OpenResponse = { request, response, chunks: [], done: false, error: null, wake: null, idle: null };
			const wake = () => {
				const w = open.wake;
				open.wake = null;
				w?.();
			};
			const stopIdle = () => {
				if (open.idle !== null) window.clearTimeout(open.idle);
				open.idle = null;
			};
			// A stream that stops sending is ended, and its socket with it.
			const armIdle = () => {
				stopIdle();
				if (!spec.idleTimeoutMs) return;
				open.idle = window.setTimeout(() => {
					open.error ??= { code: "STALLED", message: `Nothing arrived for ${Math.round(spec.idleTimeoutMs / 1000)} s.` };
					request.destroy();
					wake();
				}, spec.idleTimeoutMs);
			};
			responses.set(id, open);
			armIdle();
			response.on("data", (chunk: Buffer) => {
				open.chunks.push(chunk);
				armIdle();
				wake();
			});
			response.on("end", () => {
				open.done = true;
				stopIdle();
				wake();
			});
			response.on("error", (error) => {
				open.error ??= failureOf(error);
				wake();
			});
			response.on("close", () => {
				stopIdle();
				if (!open.done) open.error ??= { code: "ECONNRESET", message: "The connection closed before the answer ended." };
				wake();
			});
			const header = (name: string) => {
				const value = response.headers[name];
				return Array.isArray(value) ? value[0] : value;
			};
			resolve({ id, status: response.statusCode ?? 0, contentType: header("content-type"), retryAfter: header("retry-after") });
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
	if (open?.idle !== null && open?.idle !== undefined) window.clearTimeout(open.idle);
	if (open && !open.done) open.request.destroy();
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => window.setTimeout(resolve, ms));
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

export function createNodeHost(secret: (name: string) => string | null): Omit<HostFunctions, "vaultRead" | "vaultReadMany" | "vaultReadBytes" | "vaultProcess" | "vaultTrash" | "vaultMove" | "vaultCreate" | "linksUpdateOnMove" | "openNote" | "localContext" | "saveJournal"> {
	return {
		runProcess,
		cancelProcesses,
		fileStatus,
		realPath,
		env: (name) => process.env[name],
		now: () => performance.timeOrigin + performance.now(),
		httpOpen,
		httpRead,
		sleep,
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
