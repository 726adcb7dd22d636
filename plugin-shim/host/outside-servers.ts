// The user's own MCP servers, reached with the official SDK's Client: one
// client per server, started on first use (a stdio server in its own
// process group, outside-stdio.ts; an HTTP one over Streamable HTTP with
// Node's http, outside-fetch.ts), its tool list kept until the server says
// it changed. Stop cancels calls in flight (the SDK sends
// notifications/cancelled); switching a server off, Restart and unload end
// it (an HTTP session with DELETE). Every decision is the core's.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { ErrorCode, McpError, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import type { OutsideCall, OutsideConnect, OutsideListing, OutsideOutcome, OutsideTool } from "../core/types";
import { fetchTo } from "./outside-fetch";
import { sameHost } from "./http";
import { GroupStdioTransport } from "./outside-stdio";

/** Pages of tools/list read at most. */
const MAX_PAGES = 10;

/**
 * structuredContent is not checked against the tool's outputSchema: the core
 * treats it as data from outside either way, and the SDK's checker (ajv)
 * would add about 210 KB to main.js.
 */
const acceptAll: jsonSchemaValidator = {
	getValidator: () => (input: unknown) => ({ valid: true, data: input as never, errorMessage: undefined }),
};

interface Connection {
	digest: string;
	client: Client;
	stdio: GroupStdioTransport | null;
	http: StreamableHTTPClientTransport | null;
	ready: Promise<void>;
	listing: OutsideListing | null;
	closed: boolean;
	/** The address an HTTP server's socket last connected to. */
	remoteAddress?: string;
}

const connections = new Map<string, Connection>();
const calls = new Map<AbortController, string | undefined>();

function message(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** The client for `spec`, connected (a changed digest starts it anew). */
async function connection(spec: OutsideConnect): Promise<Connection> {
	const existing = connections.get(spec.id);
	if (existing && !existing.closed && existing.digest === spec.digest) {
		await existing.ready;
		return existing;
	}
	if (existing) await stopServer(spec.id);
	const client = new Client({ name: "vault-agent", version: "1" }, { capabilities: {}, jsonSchemaValidator: acceptAll });
	const stdio = spec.kind === "stdio" ? new GroupStdioTransport(spec) : null;
	const checked = stdio ? null : sameHost(spec.url, spec.expectedHost);
	if (checked && !(checked instanceof URL)) throw new Error(checked.message);
	const entry: Connection = { digest: spec.digest, client, stdio, http: null, ready: Promise.resolve(), listing: null, closed: false };
	const http = checked ? new StreamableHTTPClientTransport(checked, { requestInit: { headers: Object.fromEntries(spec.headers) }, fetch: fetchTo({ expectedHost: spec.expectedHost, address: spec.connectAddress, connected: (remote) => (entry.remoteAddress = remote) }) }) : null;
	entry.http = http;
	client.onclose = () => {
		entry.closed = true;
	};
	client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
		entry.listing = null;
	});
	entry.ready = client.connect((stdio ?? http)!, { timeout: spec.timeoutMs });
	connections.set(spec.id, entry);
	try {
		await entry.ready;
	} catch (error) {
		await stopServer(spec.id);
		throw error;
	}
	return entry;
}

/** Connects (first use starts it) and lists the server's tools. */
export async function outsideList(spec: OutsideConnect): Promise<OutsideListing> {
	let entry: Connection | undefined;
	try {
		entry = await connection(spec);
		if (entry.listing) return entry.listing;
		const tools: OutsideTool[] = [];
		let cursor: string | undefined;
		for (let page = 0; page < MAX_PAGES; page++) {
			const answer = await entry.client.listTools(cursor ? { cursor } : undefined, { timeout: spec.timeoutMs });
			for (const tool of answer.tools) {
				tools.push({ name: tool.name, title: tool.title ?? null, description: tool.description ?? "", inputSchema: tool.inputSchema, annotations: tool.annotations ?? {}, hints: [] });
			}
			cursor = answer.nextCursor;
			if (!cursor) break;
		}
		const info = entry.client.getServerVersion();
		entry.listing = { ok: true, name: info?.name ?? "", version: info?.version ?? "", tools, needsSignIn: false, stderrTail: entry.stdio?.stderrTail ?? "", ...(entry.remoteAddress ? { remoteAddress: entry.remoteAddress } : {}) };
		return entry.listing;
	} catch (error) {
		const text = message(error);
		const stderrTail = entry?.stdio?.stderrTail ?? "";
		return { ok: false, name: "", version: "", tools: [], error: text, needsSignIn: answered401(error), stderrTail };
	}
}

/**
 * Whether the server refused with 401 (what an OAuth-protected server answers
 * without a token): with no auth provider the transport throws its HTTP error
 * with the status, whose message does not say it.
 */
function answered401(error: unknown): boolean {
	return error instanceof UnauthorizedError || (error instanceof StreamableHTTPError && error.code === 401);
}

/** One call; Stop (abortOutsideCalls) cancels it. */
export async function outsideCall(call: OutsideCall): Promise<OutsideOutcome> {
	let entry: Connection;
	try {
		entry = await connection(call.server);
	} catch (error) {
		return { status: "unreachable", message: message(error) };
	}
	const controller = new AbortController();
	calls.set(controller, call.tag);
	try {
		const result = await entry.client.callTool({ name: call.tool, arguments: call.arguments }, undefined, { signal: controller.signal, timeout: call.timeoutMs });
		return { status: "answered", result };
	} catch (error) {
		if (controller.signal.aborted) return { status: "cancelled" };
		if (entry.stdio?.ended || (error instanceof McpError && error.code === Number(ErrorCode.ConnectionClosed))) {
			const ended = entry.stdio?.ended ?? message(error);
			await stopServer(call.server.id);
			return { status: "crashed", message: ended, stderrTail: entry.stdio?.stderrTail ?? "" };
		}
		if (error instanceof McpError && error.code === Number(ErrorCode.RequestTimeout)) return { status: "timedOut" };
		if (error instanceof McpError) return { status: "failed", code: error.code, message: error.message };
		return { status: "unreachable", message: message(error) };
	} finally {
		calls.delete(controller);
	}
}

/** Stop in a chat: its outside calls in flight are cancelled (`tag`: the chat), or every one. */
export function abortOutsideCalls(tag?: string): void {
	for (const [controller, of] of calls) if (tag === undefined || of === tag) controller.abort();
}

/** Switched off, Restart or unload: the session ends (DELETE) and a stdio server's process group goes. */
export async function stopServer(id: string): Promise<void> {
	const entry = connections.get(id);
	if (!entry) return;
	connections.delete(id);
	entry.closed = true;
	if (entry.http?.sessionId) await entry.http.terminateSession().catch(() => undefined);
	await entry.client.close().catch(() => undefined);
}

/** The ids of the servers connected now (the core says which to stop after a settings change). */
export function runningServers(): string[] {
	return [...connections.keys()];
}

export async function stopAllServers(): Promise<void> {
	await Promise.all([...connections.keys()].map((id) => stopServer(id)));
}

/** The pids of running stdio servers (tests). */
export function outsidePids(): number[] {
	return [...connections.values()].flatMap((c) => (c.stdio?.pid === undefined ? [] : [c.stdio.pid]));
}
