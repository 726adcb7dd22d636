// The Node side of the page's http.createServer (tests/support/browser-http-server.mjs):
// a real HTTP server on 127.0.0.1 per server the page starts, so a process
// outside the page (a coding agent over ACP, an MCP client) reaches the
// plugin's listener as it would in Electron. Each connection, request (its
// body read whole) and close is queued for the page, which reads the queue
// with next(); what the page answers is written back as it comes, so an event
// stream (a call waiting for a card) streams. Helpers only.
import { createServer } from "node:http";

export function createListenBridge() {
	const servers = new Map(); // the page's id → { server, queue, wake, closed, sockets, responses }
	let nextConnection = 1;
	let nextRequest = 1;
	const push = (entry, event) => {
		entry.queue.push(event);
		const wake = entry.wake;
		entry.wake = null;
		wake?.();
	};
	return {
		/** Listens on `host`:`port` (0: a free one); resolves with the port, or the error as plain data. */
		listen(id, port, host) {
			return new Promise((resolve) => {
				const entry = { server: null, queue: [], wake: null, closed: false, sockets: new Map(), responses: new Map() };
				const server = createServer((request, response) => {
					const rid = nextRequest++;
					const chunks = [];
					request.on("data", (chunk) => chunks.push(chunk));
					request.on("end", () => {
						entry.responses.set(rid, response);
						response.on("close", () => {
							entry.responses.delete(rid);
							push(entry, { type: "responseClose", rid });
						});
						const { method, url, headers } = request;
						push(entry, { type: "request", rid, cid: request.socket.bridgeId, method, url, headers, body: Buffer.concat(chunks).toString("base64") });
					});
				});
				server.on("connection", (socket) => {
					const cid = nextConnection++;
					socket.bridgeId = cid;
					entry.sockets.set(cid, socket);
					push(entry, { type: "connection", cid });
					socket.on("close", () => {
						entry.sockets.delete(cid);
						push(entry, { type: "socketClose", cid });
					});
				});
				server.once("error", (error) => resolve({ error: { message: error.message, code: error.code } }));
				server.listen(port, host, () => {
					entry.server = server;
					servers.set(id, entry);
					resolve({ port: server.address().port });
				});
			});
		},
		/** What happened since the last call (waits for something); `closed` once the page closed the server. */
		async next(id) {
			const entry = servers.get(id);
			if (!entry) return { events: [], closed: true };
			while (entry.queue.length === 0 && !entry.closed) await new Promise((resolve) => (entry.wake = resolve));
			return { events: entry.queue.splice(0), closed: entry.closed };
		},
		/** The page's answer to request `rid`: its head, a piece of its body, or its end. */
		respond(id, rid, what, data) {
			const response = servers.get(id)?.responses.get(rid);
			if (!response) return false;
			if (what === "head") response.writeHead(data.status, data.headers);
			else if (what === "write") response.write(Buffer.from(data, "base64"));
			else response.end(data ? Buffer.from(data, "base64") : undefined);
			return true;
		},
		/** socket.destroy() or socket.end(data) on connection `cid`. */
		socket(id, cid, what, data) {
			const socket = servers.get(id)?.sockets.get(cid);
			if (!socket) return;
			if (what === "destroy") socket.destroy();
			else socket.end(data ? Buffer.from(data, "base64") : undefined);
		},
		close(id) {
			const entry = servers.get(id);
			if (!entry) return Promise.resolve();
			entry.closed = true;
			push(entry, { type: "closed" });
			return new Promise((resolve) => {
				entry.server.close(() => {
					servers.delete(id);
					resolve();
				});
				entry.server.closeAllConnections();
			});
		},
		closeConnections(id) {
			servers.get(id)?.server.closeAllConnections();
		},
		closeAll() {
			for (const id of [...servers.keys()]) void this.close(id);
		},
	};
}
