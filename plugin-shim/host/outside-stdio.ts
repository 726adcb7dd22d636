// A stdio MCP server as a Transport for the official SDK's Client: the
// server is spawned without a shell in a process group of its own (so
// stopping it ends everything it started), messages are framed with the
// SDK's own line framing, and the last lines of its stderr are kept for
// the messages that say why it failed.

import { spawn, type ChildProcess } from "child_process";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { OutsideConnect } from "../core/types";
import { signalTree } from "./processes";

/** Characters of stderr kept. */
const STDERR_TAIL_CHARS = 2_000;
/** Between SIGTERM and SIGKILL when the server is stopped. */
const KILL_GRACE_MS = 2_000;

export class GroupStdioTransport implements Transport {
	onclose?: () => void;
	onerror?: (error: Error) => void;
	onmessage?: (message: JSONRPCMessage) => void;
	private child: ChildProcess | null = null;
	private readonly buffer = new ReadBuffer();
	private tail = "";
	/** How the process ended, once it has. */
	ended: string | null = null;

	private readonly tree: "processGroup" | "taskkill";

	constructor(private readonly spec: OutsideConnect) {
		this.tree = spec.processGroup ? "processGroup" : "taskkill";
	}

	get stderrTail(): string {
		return this.tail;
	}

	get pid(): number | undefined {
		return this.child?.pid;
	}

	start(): Promise<void> {
		const spec = this.spec;
		return new Promise((resolve, reject) => {
			const child = spawn(spec.command, spec.args, {
				cwd: spec.cwd || undefined,
				env: { ...process.env, ...Object.fromEntries(spec.env) },
				shell: false,
				windowsHide: true,
				detached: spec.processGroup,
				stdio: ["pipe", "pipe", "pipe"],
			});
			this.child = child;
			child.once("spawn", () => resolve());
			child.once("error", (error) => {
				this.ended = error.message;
				reject(error);
				this.onerror?.(error);
			});
			child.stdout?.on("data", (chunk: Buffer) => {
				this.buffer.append(chunk);
				for (;;) {
					let message: JSONRPCMessage | null;
					try {
						message = this.buffer.readMessage();
					} catch (error) {
						this.onerror?.(error instanceof Error ? error : new Error(String(error)));
						continue;
					}
					if (message === null) break;
					this.onmessage?.(message);
				}
			});
			child.stderr?.on("data", (chunk: Buffer) => {
				this.tail = (this.tail + chunk.toString("utf8")).slice(-STDERR_TAIL_CHARS);
			});
			child.once("exit", (code, signal) => {
				this.ended = signal ? `ended by ${signal}` : `exited with code ${code ?? "?"}`;
				// The whole group goes, so nothing it started outlives it.
				signalTree(child, this.tree, "SIGKILL");
				this.onclose?.();
			});
			// A server that ends while we write gets EPIPE: the exit says why.
			child.stdin?.on("error", () => undefined);
		});
	}

	send(message: JSONRPCMessage): Promise<void> {
		return new Promise((resolve, reject) => {
			const stdin = this.child?.stdin;
			if (!stdin || this.ended) {
				reject(new Error(`the server is not running (${this.ended ?? "not started"})`));
				return;
			}
			stdin.write(serializeMessage(message), (error) => (error ? reject(error) : resolve()));
		});
	}

	/** Ends the server and its process group: SIGTERM, then SIGKILL. */
	close(): Promise<void> {
		const child = this.child;
		if (!child || child.pid === undefined) return Promise.resolve();
		const tree = this.tree;
		child.stdin?.end();
		signalTree(child, tree, "SIGTERM");
		const timer = window.setTimeout(() => signalTree(child, tree, "SIGKILL"), KILL_GRACE_MS);
		return new Promise((resolve) => {
			if (child.exitCode !== null || child.signalCode !== null) {
				window.clearTimeout(timer);
				signalTree(child, tree, "SIGKILL");
				resolve();
				return;
			}
			child.once("exit", () => {
				window.clearTimeout(timer);
				resolve();
			});
		});
	}
}
