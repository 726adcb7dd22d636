// The MCP server's listener: Streamable HTTP on 127.0.0.1 only. Each request
// is shown to the core twice: its headers first (the token, the Host, the
// declared size), and only if the core admits it is the body read (stopping
// at the limit) and the whole exchange handed over. The listener writes back
// what the core answers: JSON, or an event stream once the core sends a
// notification (progress while a card waits). Who may ask, what runs, what
// to answer and the bounds below (body size, timeouts, connections) are the
// core's decisions (src/doors/mcp/).

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "http";
import type { AddressInfo, Socket } from "net";
import type { ConfirmationCoordinator } from "../cards/confirmations";
import type { CoreHandle, McpActivityEntry, McpExchange, McpListenerLimits, McpReply } from "../core/types";

/** `bytes` random bytes from the platform's CSPRNG, as hex. */
export function randomHex(bytes: number): string {
	const buffer = new Uint8Array(bytes);
	window.crypto.getRandomValues(buffer);
	return Array.from(buffer, (b) => b.toString(16).padStart(2, "0")).join("");
}

export type McpStart = { ok: true; port: number } | { ok: false; message: string };

/** A reply as raw HTTP/1.1, for a connection the server will not parse. */
function rawReply(reply: McpReply): string {
	const body = Buffer.from(reply.body, "utf8");
	const head = [`HTTP/1.1 ${reply.status} ${reply.status === 503 ? "Service Unavailable" : "Error"}`, ...reply.headers.map(([name, value]) => `${name}: ${value}`), `content-length: ${body.length}`, "connection: close"];
	return `${head.join("\r\n")}\r\n\r\n${reply.body}`;
}

export class McpListener {
	private server: Server | null = null;
	private nextExchange = 1;
	private open = 0;
	/** Connections answered busy: whatever they send is never handled. */
	private readonly refused = new WeakSet<Socket>();

	constructor(
		private readonly core: CoreHandle,
		private readonly confirmations: ConfirmationCoordinator,
		private readonly onActivity: (entry: McpActivityEntry) => void,
	) {}

	get listening(): boolean {
		return this.server?.listening ?? false;
	}

	/** Connections open now (for the tests and the benchmark). */
	get connections(): number {
		return this.open;
	}

	/** Listens on 127.0.0.1:`port` (0: a free one); a port in use is an answer, not an exception. */
	start(port: number): Promise<McpStart> {
		return new Promise((resolve) => {
			let server: Server;
			let bound = port;
			const limits = this.core.mcpListenerLimits();
			try {
				// Slow headers and bodies are cut at these times, looked for every check interval
				// (Node's default, 30 s, would let a slow client stay far longer). A call that waits
				// for the user's click is not cut: its request has arrived.
				server = createServer(
					{ connectionsCheckingInterval: limits.checkIntervalMs, headersTimeout: limits.headersTimeoutMs, requestTimeout: limits.requestTimeoutMs },
					(request, response) => void this.exchange(request, response, bound, limits),
				);
			} catch (error) {
				resolve({ ok: false, message: `The MCP server could not start: ${String(error)}` });
				return;
			}
			// Before the HTTP parser sees the connection: one over the cap is told so and closed.
			const busy = rawReply(limits.busy);
			server.prependListener("connection", (socket: Socket) => {
				this.open += 1;
				socket.once("close", () => (this.open -= 1));
				if (this.open > limits.maxConnections) {
					this.refused.add(socket);
					socket.end(busy);
					cutLater(socket, limits.drainMs);
				}
			});
			server.once("error", (error: NodeJS.ErrnoException) => {
				const message =
					error.code === "EADDRINUSE"
						? `Port ${port} is already in use by another program. Pick another port in Settings → Vault Agent → MCP: this vault's server for other apps, then update your MCP clients.`
						: `The MCP server could not start on 127.0.0.1:${port}: ${error.message}`;
				resolve({ ok: false, message });
			});
			server.listen(port, "127.0.0.1", () => {
				this.server = server;
				bound = (server.address() as AddressInfo).port;
				resolve({ ok: true, port: bound });
			});
		});
	}

	stop(): Promise<void> {
		const server = this.server;
		this.server = null;
		if (!server) return Promise.resolve();
		return new Promise((resolve) => {
			server.close(() => resolve());
			server.closeAllConnections();
		});
	}

	private async exchange(request: IncomingMessage, response: ServerResponse, port: number, limits: McpListenerLimits): Promise<void> {
		if (this.refused.has(request.socket)) return;
		const headers: Record<string, string> = {};
		for (const [name, value] of Object.entries(request.headers)) {
			if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
		}
		const head: McpExchange = { exchange: this.nextExchange++, method: request.method ?? "", path: request.url ?? "", headers, body: "", bodyTooLarge: false, port };
		// The token (and the rest of the headers) before any of the body is read.
		let refusal: McpReply | null;
		try {
			refusal = this.core.mcpAdmit(head);
		} catch (error) {
			refusal = { status: 400, headers: [["content-type", "application/json"]], body: JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32600, message: `Bad request: ${String(error)}` } }) };
		}
		if (refusal) {
			refuse(request, response, refusal, limits.drainMs);
			return;
		}
		const { body, tooLarge } = await readBody(request, limits.maxBodyBytes);
		let streaming = false;
		let answered = false;
		response.on("close", () => {
			// After stop() (unload) the core may be gone; nothing waits any more.
			if (!answered && this.server) this.core.mcpAbandon(head.exchange);
		});
		const events = {
			notify: (message: string) => {
				if (response.destroyed) return;
				if (!streaming) {
					streaming = true;
					const streamHead: Record<string, string> = { "content-type": "text/event-stream", "cache-control": "no-cache" };
					if (headers["mcp-session-id"]) streamHead["mcp-session-id"] = headers["mcp-session-id"];
					response.writeHead(200, streamHead);
				}
				response.write(`event: message\ndata: ${message}\n\n`);
			},
			presentCard: (id: string) => {
				const card = this.core.confirmationCard(id);
				if (card) this.confirmations.present(card);
			},
			withdrawCard: (id: string) => this.confirmations.withdraw(id),
			activity: (entry: McpActivityEntry) => this.onActivity(entry),
			freshId: () => randomHex(24),
		};
		try {
			const reply = await this.core.mcpHandle({ ...head, body, bodyTooLarge: tooLarge }, events);
			answered = true;
			if (response.destroyed) return;
			if (streaming) {
				if (reply.body) response.write(`event: message\ndata: ${reply.body}\n\n`);
				response.end();
				return;
			}
			response.writeHead(reply.status, Object.fromEntries(reply.headers));
			response.end(reply.body);
		} catch (error) {
			answered = true;
			if (!response.headersSent) response.writeHead(500, { "content-type": "application/json" });
			response.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32603, message: `Internal error: ${String(error)}` } }));
		}
		// A body we stopped reading: let the rest drain briefly, then cut.
		if (tooLarge) drainThenCut(request, limits.drainMs);
	}
}

/** Answers a request the core refused from its headers; its body is thrown away as it comes. */
function refuse(request: IncomingMessage, response: ServerResponse, reply: McpReply, drainMs: number): void {
	response.writeHead(reply.status, Object.fromEntries(reply.headers));
	response.end(reply.body);
	drainThenCut(request, drainMs);
}

/** Lets the rest of a body arrive and be thrown away for a moment (so the
 * client reads the answer instead of a reset), then cuts the connection;
 * one whose body ended in time is kept alive as usual. */
function drainThenCut(request: IncomingMessage, drainMs: number): void {
	request.resume();
	if (request.complete) return;
	const cut = window.setTimeout(() => request.socket.destroy(), drainMs);
	request.once("end", () => window.clearTimeout(cut));
	request.socket.once("close", () => window.clearTimeout(cut));
}

function cutLater(socket: Socket, ms: number): void {
	const cut = window.setTimeout(() => socket.destroy(), ms);
	socket.once("close", () => window.clearTimeout(cut));
}

/** The body as text, up to the limit; past it, reading stops. */
function readBody(request: IncomingMessage, maxBytes: number): Promise<{ body: string; tooLarge: boolean }> {
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let done = false;
		const finish = (tooLarge: boolean) => {
			if (done) return;
			done = true;
			resolve({ body: tooLarge ? "" : Buffer.concat(chunks).toString("utf8"), tooLarge });
		};
		request.on("data", (chunk: Buffer) => {
			if (done) return;
			size += chunk.length;
			if (size > maxBytes) {
				request.pause();
				chunks.length = 0;
				finish(true);
				return;
			}
			chunks.push(chunk);
		});
		request.on("end", () => finish(false));
		request.on("error", () => finish(false));
		request.on("close", () => finish(false));
	});
}
