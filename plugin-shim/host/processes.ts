// The CLI's processes, run with Node's child_process in Obsidian's desktop
// renderer: no shell, a process group of their own, output kept up to the
// cap, and every way a call ends (timeout, Stop, an MCP cancel, unload).
// Nothing here decides anything: the core says what to run, with which limits.

import { execFile, spawn, type ChildProcess } from "child_process";
import type { ProcessOutcome, ProcessRequest } from "../core/types";

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

/** Unload: every CLI process group still running ends at once (SIGKILL). */
export function killProcesses(): void {
	for (const stop of [...running]) stop("SIGKILL");
}
