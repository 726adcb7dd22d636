// http.createServer in the page, as far as the plugin's MCP listener
// (plugin-shim/doors/mcp-listener.ts) uses Node's: listen, address, close,
// closeAllConnections, 'connection' sockets that can be ended or destroyed,
// requests with their headers and body ('data', 'end'), and responses written
// as they come (writeHead, write, end, 'close'). The server itself runs on the
// Node side (tests/support/browser-listen.mjs), reached through functions the
// harness exposes; this file only plays its events back. Offered to the page
// only when a test asks (startBrowserPlugin({ listen: true })), with the
// little of Node's Buffer the listener uses (Electron's renderer has Buffer).

/** `tools`: the page's Emitter, rebuildError, bufferFromBase64 and bytesToBase64. */
export function makeCreateServer({ Emitter, rebuildError, bufferFromBase64, bytesToBase64 }) {
	let nextServer = 1;
	const bytes = (chunk) => (typeof chunk === "string" ? new TextEncoder().encode(chunk) : new Uint8Array(chunk));

	class Socket extends Emitter {
		destroyed = false;
		#server;
		#cid;

		constructor(server, cid) {
			super();
			this.#server = server;
			this.#cid = cid;
		}

		destroy() {
			if (!this.destroyed) void window.__vaultAgentListenSocket(this.#server, this.#cid, "destroy", "");
			this.destroyed = true;
			return this;
		}

		end(data) {
			void window.__vaultAgentListenSocket(this.#server, this.#cid, "end", data ? bytesToBase64(bytes(data)) : "");
			return this;
		}
	}

	class IncomingRequest extends Emitter {
		complete = false;

		constructor(event, socket) {
			super();
			this.method = event.method;
			this.url = event.url;
			this.headers = event.headers;
			this.socket = socket;
		}

		resume() {
			return this;
		}

		pause() {
			return this;
		}

		setEncoding() {
			return this;
		}
	}

	class Response extends Emitter {
		headersSent = false;
		writableEnded = false;
		destroyed = false;
		#server;
		#rid;

		constructor(server, rid) {
			super();
			this.#server = server;
			this.#rid = rid;
		}

		writeHead(status, headers = {}) {
			if (this.headersSent) return this;
			this.headersSent = true;
			void window.__vaultAgentListenRespond(this.#server, this.#rid, "head", { status, headers: { ...headers } });
			return this;
		}

		write(chunk) {
			if (!this.headersSent) this.writeHead(200);
			void window.__vaultAgentListenRespond(this.#server, this.#rid, "write", bytesToBase64(bytes(chunk)));
			return true;
		}

		end(chunk) {
			if (this.writableEnded) return this;
			if (!this.headersSent) this.writeHead(200);
			this.writableEnded = true;
			void window.__vaultAgentListenRespond(this.#server, this.#rid, "end", chunk === undefined || chunk === null ? "" : bytesToBase64(bytes(chunk)));
			return this;
		}
	}

	class Server extends Emitter {
		listening = false;
		#id = nextServer++;
		#port = null;
		#handler;
		#sockets = new Map();
		#exchanges = new Map();

		constructor(handler) {
			super();
			this.#handler = handler;
		}

		prependListener(name, listener) {
			return this.on(name, listener);
		}

		listen(port, host, callback) {
			window.__vaultAgentListen(this.#id, port, host).then((answer) => {
				if (answer.error) {
					this.emit("error", rebuildError(answer.error));
					return;
				}
				this.#port = answer.port;
				this.listening = true;
				callback?.();
				this.emit("listening");
				void this.#pump();
			});
			return this;
		}

		address() {
			return this.listening ? { address: "127.0.0.1", family: "IPv4", port: this.#port } : null;
		}

		close(callback) {
			this.listening = false;
			window.__vaultAgentListenClose(this.#id).then(() => {
				callback?.();
				this.emit("close");
			});
			return this;
		}

		closeAllConnections() {
			void window.__vaultAgentListenCloseConnections(this.#id);
		}

		async #pump() {
			for (;;) {
				const next = await window.__vaultAgentListenNext(this.#id);
				for (const event of next.events) this.#play(event);
				if (next.closed) return;
			}
		}

		#play(event) {
			if (event.type === "connection") {
				const socket = new Socket(this.#id, event.cid);
				this.#sockets.set(event.cid, socket);
				this.emit("connection", socket);
			} else if (event.type === "socketClose") {
				const socket = this.#sockets.get(event.cid);
				this.#sockets.delete(event.cid);
				if (socket) {
					socket.destroyed = true;
					socket.emit("close");
				}
			} else if (event.type === "request") {
				const request = new IncomingRequest(event, this.#sockets.get(event.cid) ?? new Socket(this.#id, event.cid));
				const response = new Response(this.#id, event.rid);
				this.#exchanges.set(event.rid, { request, response });
				this.#handler(request, response);
				// The body (read whole on the Node side) once the handler listens for it.
				window.setTimeout(() => {
					const body = bufferFromBase64(event.body);
					if (body.length > 0) request.emit("data", body);
					request.complete = true;
					request.emit("end");
				}, 0);
			} else if (event.type === "responseClose") {
				const exchange = this.#exchanges.get(event.rid);
				this.#exchanges.delete(event.rid);
				if (!exchange) return;
				exchange.response.destroyed = true;
				exchange.request.emit("close");
				exchange.response.emit("close");
			}
		}
	}

	/** http.createServer([options][, handler]). */
	return (options, handler) => new Server(typeof options === "function" ? options : handler);
}

/** Buffer.from(text | bytes) and Buffer.concat(list), made of the page's BrowserBuffer. */
export function makeBuffer(BrowserBuffer) {
	const wrap = (bytes) => {
		const buffer = new BrowserBuffer(bytes.length);
		buffer.set(bytes);
		return buffer;
	};
	return {
		from(value, encoding = "utf8") {
			if (typeof value !== "string") return wrap(new Uint8Array(value));
			if (encoding !== "utf8" && encoding !== "utf-8") throw new Error(`Buffer.from: only utf8 text, not ${encoding}`);
			return wrap(new TextEncoder().encode(value));
		},
		concat(list) {
			const buffer = new BrowserBuffer(list.reduce((size, part) => size + part.length, 0));
			let at = 0;
			for (const part of list) {
				buffer.set(part, at);
				at += part.length;
			}
			return buffer;
		},
		isBuffer: (value) => value instanceof BrowserBuffer,
	};
}
