// The model servers' HTTP, with Node's http/https from the renderer (no
// CORS, a real stream): the core opens a request and reads its body chunk by
// chunk; Stop and unload end every request in flight.

import { lookup as dnsLookup } from "dns";
import { request as httpRequest, type ClientRequest, type IncomingMessage } from "http";
import type { LookupFunction } from "net";
import { request as httpsRequest } from "https";
import type { HttpChunk, HttpFailure, HttpOpened, HttpRequestSpec } from "../core/types";

/** A response body being read by the core, chunk by chunk. */
interface OpenResponse {
	request: ClientRequest;
	/** The chat conversation it answers (Stop in that chat's view). */
	tag: string | undefined;
	response: IncomingMessage;
	chunks: Buffer[];
	done: boolean;
	error: HttpFailure | null;
	wake: (() => void) | null;
	/** Ends a body that goes silent for longer than the request allows. */
	idle: number | null;
}

const responses = new Map<number, OpenResponse>();
/** Requests whose answer has not started, with their tag. */
const requests = new Map<ClientRequest, string | undefined>();
let nextResponseId = 1;

function failureOf(error: unknown): HttpFailure {
	const e = error as NodeJS.ErrnoException;
	const code = e.name === "AbortError" || e.code === "ABORT_ERR" ? "ABORTED" : (e.code ?? "HTTP_ERROR");
	return { code, message: e.message ?? String(error) };
}

/**
 * Connects to the address the core checked (Local only) instead of asking
 * the resolver again, which could answer otherwise the second time.
 */
export function pinnedLookup(address: string): LookupFunction {
	const family = address.includes(":") ? 6 : 4;
	return (_hostname, options, callback) => {
		if (options.all) callback(null, [{ address, family }]);
		else callback(null, address, family);
	};
}

/** Every address `host` has, as the core's Local only check needs them. */
export function resolveHost(host: string): Promise<{ addresses: string[] } | { error: HttpFailure }> {
	return new Promise((resolve) => {
		dnsLookup(host, { all: true }, (error, found) => {
			if (error) resolve({ error: failureOf(error) });
			else resolve({ addresses: found.map((entry) => entry.address) });
		});
	});
}

/**
 * The address as Node reads it, when that is the host the core read and
 * checked (Local only); otherwise why not. Two readings that differ would
 * let the check pass one host and the socket reach another.
 */
export function sameHost(address: string, expectedHost: string): URL | HttpFailure {
	let url: URL;
	try {
		url = new URL(address);
	} catch {
		return { code: "ERR_INVALID_URL", message: `Not a valid address: ${address}` };
	}
	if (url.hostname !== expectedHost || expectedHost === "") {
		return { code: "HOST_MISMATCH", message: `Refused: the address names ${url.hostname || "no host"} here but ${expectedHost || "no host"} where it was checked; nothing was sent.` };
	}
	return url;
}

/** Node's http/https from the renderer: no CORS, and a real stream. */
export function httpOpen(spec: HttpRequestSpec): Promise<HttpOpened | { error: HttpFailure }> {
	return new Promise((resolve) => {
		const url = sameHost(spec.url, spec.expectedHost);
		if (!(url instanceof URL)) {
			resolve({ error: url });
			return;
		}
		const send = url.protocol === "https:" ? httpsRequest : httpRequest;
		const options = { method: spec.method, headers: Object.fromEntries(spec.headers), ...(spec.connectAddress ? { lookup: pinnedLookup(spec.connectAddress) } : {}) };
		const request = send(url, options, (response) => {
			window.clearTimeout(timer);
			const id = nextResponseId++;
			const open: OpenResponse = { request, tag: spec.tag, response, chunks: [], done: false, error: null, wake: null, idle: null };
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
			// Until the first piece the wait is the first token's (a model on
			// a CPU reads the prompt after sending its headers).
			let started = false;
			const armIdle = () => {
				stopIdle();
				const wait = !started && spec.firstByteTimeoutMs ? spec.firstByteTimeoutMs : spec.idleTimeoutMs;
				if (!wait) return;
				open.idle = window.setTimeout(() => {
					open.error ??= { code: "STALLED", message: `Nothing arrived for ${Math.round(wait / 1000)} s.` };
					request.destroy();
					wake();
				}, wait);
			};
			responses.set(id, open);
			armIdle();
			response.on("data", (chunk: Buffer) => {
				started = true;
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
			resolve({ id, status: response.statusCode ?? 0, contentType: header("content-type"), retryAfter: header("retry-after"), remoteAddress: response.socket?.remoteAddress, location: header("location") });
		});
		requests.set(request, spec.tag);
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

/** Stop: the model requests tagged `tag` (all of them without one) end with code ABORTED. */
export function abortHttp(tag?: string): void {
	const hit = (t: string | undefined) => tag === undefined || t === tag;
	for (const open of responses.values()) {
		if (!open.done && hit(open.tag)) {
			open.error = { code: "ABORTED", message: "Stopped by the user." };
			open.request.destroy();
			open.wake?.();
		}
	}
	for (const [request, t] of requests) if (hit(t)) request.destroy(Object.assign(new Error("Stopped by the user."), { code: "ABORTED" }));
}
