// `fetch` for the SDK's Streamable HTTP transport, made with Node's
// http/https: the renderer's own fetch would be held to CORS, which an MCP
// server does not expect, and its answer must stream (server-sent events).

import * as http from "http";
import * as https from "https";
import { pinnedLookup, sameHost } from "./http";

/** Statuses whose Response may carry no body. */
const NO_BODY = [101, 103, 204, 205, 304];

/** Where a server's connections may go, as the core checked it. */
export interface CheckedReach {
	/** The host the core read from the server's address. */
	expectedHost: string;
	/** Local only's checked address (never looked up again); none: look the name up. */
	address?: string;
	/** Told the address each response's socket connected to. */
	connected?: (remoteAddress: string) => void;
}

/** `nodeFetch` held to `reach`: only its host, and with Local only only its address. */
export function fetchTo(reach: CheckedReach): typeof fetch {
	return (input, init) => nodeFetch(input, init ?? {}, reach);
}

export function nodeFetch(input: string | URL | Request, init: RequestInit, reach: CheckedReach): Promise<Response> {
	const address = reach.address;
	const raw = typeof input === "string" || input instanceof URL ? input.toString() : input.url;
	const checked = sameHost(raw, reach.expectedHost);
	if (!(checked instanceof URL)) return Promise.reject(new Error(checked.message));
	const url = checked;
	const headers: Record<string, string> = {};
	new Headers(init.headers).forEach((value, key) => {
		headers[key] = value;
	});
	const body = typeof init.body === "string" ? init.body : undefined;
	return new Promise((resolve, reject) => {
		const request = (url.protocol === "https:" ? https : http).request(url, { method: init.method ?? "GET", headers, ...(address ? { lookup: pinnedLookup(address) } : {}) }, (response) => {
			const responseHeaders = new Headers();
			for (const [key, value] of Object.entries(response.headers)) {
				if (value !== undefined) responseHeaders.set(key, Array.isArray(value) ? value.join(", ") : value);
			}
			if (response.socket?.remoteAddress) reach.connected?.(response.socket.remoteAddress);
			const status = response.statusCode ?? 502;
			if (NO_BODY.includes(status)) {
				response.resume();
				resolve(new Response(null, { status, headers: responseHeaders }));
				return;
			}
			const stream = new ReadableStream<Uint8Array>({
				start(controller) {
					response.on("data", (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk)));
					response.on("end", () => controller.close());
					response.on("error", (error) => controller.error(error));
				},
				cancel() {
					response.destroy();
				},
			});
			resolve(new Response(stream, { status, statusText: response.statusMessage, headers: responseHeaders }));
		});
		request.on("error", reject);
		init.signal?.addEventListener("abort", () => request.destroy(new Error("aborted")), { once: true });
		request.end(body);
	});
}
