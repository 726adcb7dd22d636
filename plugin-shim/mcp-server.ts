// The MCP server's listener: Streamable HTTP on 127.0.0.1 only. It reads
// each request (stopping at the body limit), hands it to the core, and
// writes back what the core answers: JSON, or an event stream once the core
// sends a notification (progress while a card waits). Who may ask, what
// runs and what to answer are the core's decisions (src/mcp/).

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "http";
import type { AddressInfo } from "net";
import type { ConfirmationCoordinator } from "./confirmations";
import type { CoreHandle, McpActivityEntry } from "./core-types";

/** The core refuses bodies over 4 MiB; the listener stops reading there. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** How long the rest of a refused body may keep arriving before the socket is cut. */
const DRAIN_MS = 2000;

/** `bytes` random bytes from the platform's CSPRNG, as hex. */
export function randomHex(bytes: number): string {
	const buffer = new Uint8Array(bytes);
	window.crypto.getRandomValues(buffer);
	return Array.from(buffer, (b) => b.toString(16).padStart(2, "0")).join("");
}

export type McpStart = { ok: true; port: number } | { ok: false; message: string };

export class McpListener {
	private server: Server | null = null;
	private nextExchange = 1;

	constructor(
		private readonly core: CoreHandle,
		private readonly confirmations: ConfirmationCoordinator,
		private readonly onActivity: (entry: McpActivityEntry) => void,
	) {}

	get listening(): boolean {
		return this.server?.listening ?? false;
	}

	/** Listens on 127.0.0.1:`port` (0: a free one); a port in use is an answer, not an exception. */
	start(port: number): Promise<McpStart> {
		return new Promise((resolve) => {
			let server: Server;
			let bound = port;
			try {
				server = createServer((request, response) => void this.exchange(request, response, bound));
			} catch (error) {
				resolve({ ok: false, message: `The MCP server could not start: ${String(error)}` });
				return;
			}
			// A call may wait for the user's click for as long as a card lives.
			server.requestTimeout = 0;
			server.once("error", (error: NodeJS.ErrnoException) => {
				const message =
					error.code === "EADDRINUSE"
						? `Port ${port} is already in use by another program. Pick another port in Settings → Vault Agent → Agents, then update your MCP clients.`
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

	private async exchange(request: IncomingMessage, response: ServerResponse, port: number): Promise<void> {
		const exchange = this.nextExchange++;
		const { body, tooLarge } = await readBody(request);
		const headers: Record<string, string> = {};
		for (const [name, value] of Object.entries(request.headers)) {
			if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
		}
		let streaming = false;
		let answered = false;
		response.on("close", () => {
			// After stop() (unload) the core may be gone; nothing waits any more.
			if (!answered && this.server) this.core.mcpAbandon(exchange);
		});
		const events = {
			notify: (message: string) => {
				if (response.destroyed) return;
				if (!streaming) {
					streaming = true;
					const head: Record<string, string> = { "content-type": "text/event-stream", "cache-control": "no-cache" };
					if (headers["mcp-session-id"]) head["mcp-session-id"] = headers["mcp-session-id"];
					response.writeHead(200, head);
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
			const reply = await this.core.mcpHandle(
				{
					exchange,
					method: request.method ?? "",
					path: request.url ?? "",
					headers,
					body,
					bodyTooLarge: tooLarge,
					port,
				},
				events,
			);
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
		// A body we stopped reading: let the rest drain briefly (so the client
		// reads the answer instead of a reset), then cut the connection.
		if (tooLarge) {
			request.resume();
			const cut = window.setTimeout(() => request.socket.destroy(), DRAIN_MS);
			request.once("end", () => window.clearTimeout(cut));
		}
	}
}

/** The body as text, up to the limit; past it, reading stops. */
function readBody(request: IncomingMessage): Promise<{ body: string; tooLarge: boolean }> {
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let done = false;
		const finish = (tooLarge: boolean) => {
			if (done) return;
			done = true;
			resolve({ body: tooLarge ? "" : Buffer.concat(chunks).toString("utf8"), tooLarge });
		};
		const declared = Number(request.headers["content-length"] ?? "0");
		if (declared > MAX_BODY_BYTES) {
			request.pause();
			finish(true);
			return;
		}
		request.on("data", (chunk: Buffer) => {
			if (done) return;
			size += chunk.length;
			if (size > MAX_BODY_BYTES) {
				request.pause();
				chunks.length = 0;
				finish(true);
				return;
			}
			chunks.push(chunk);
		});
		request.on("end", () => finish(false));
		request.on("error", () => finish(false));
	});
}
