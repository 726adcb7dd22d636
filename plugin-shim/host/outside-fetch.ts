// `fetch` for the SDK's Streamable HTTP transport, made with Node's
// http/https: the renderer's own fetch would be held to CORS, which an MCP
// server does not expect, and its answer must stream (server-sent events).

import * as http from "http";
import * as https from "https";
import { pinnedLookup } from "./http";

/** Statuses whose Response may carry no body. */
const NO_BODY = [101, 103, 204, 205, 304];

/**
 * `nodeFetch` that connects only to `address` (Local only's checked address,
 * never looked up again), or looks the name up as usual without one.
 */
export function fetchTo(address: string | undefined): typeof fetch {
	return (input, init) => nodeFetch(input, init, address);
}

export function nodeFetch(input: string | URL | Request, init: RequestInit = {}, address?: string): Promise<Response> {
	const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url);
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
