// Scripted model servers on localhost: real HTTP with SSE, each reply cut
// into small chunks at awkward places (inside lines, inside \r\n pairs and
// inside multi-byte characters), for the OpenAI Chat Completions and the
// Anthropic Messages APIs.
import { createServer } from "node:http";

/** An OpenAI-compatible stream: text pieces, then tool calls in fragments. */
export function openaiStream({ text = "", toolCalls = [] } = {}) {
	const events = [];
	for (const piece of splitText(text)) events.push({ choices: [{ index: 0, delta: { content: piece } }] });
	toolCalls.forEach(([name, args], index) => {
		const json = typeof args === "string" ? args : JSON.stringify(args);
		const cut = Math.floor(json.length / 2);
		events.push({ choices: [{ index: 0, delta: { tool_calls: [{ index, id: `call_${index}`, type: "function", function: { name, arguments: json.slice(0, cut) } }] } }] });
		events.push({ choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: json.slice(cut) } }] } }] });
	});
	events.push({ choices: [{ index: 0, delta: {}, finish_reason: toolCalls.length ? "tool_calls" : "stop" }] });
	return `${events.map((e) => `data: ${JSON.stringify(e)}\r\n\r\n`).join(": keep-alive\r\n\r\n")}data: [DONE]\r\n\r\n`;
}

/** An Anthropic Messages stream with a text block and tool_use blocks. */
export function anthropicStream({ text = "", toolCalls = [] } = {}) {
	const out = [["message_start", { type: "message_start", message: { id: "msg_1", role: "assistant", content: [] } }]];
	let index = 0;
	if (text) {
		out.push(["content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } }]);
		for (const piece of splitText(text)) out.push(["content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: piece } }]);
		out.push(["content_block_stop", { type: "content_block_stop", index }]);
		index += 1;
	}
	toolCalls.forEach(([name, args], i) => {
		const json = typeof args === "string" ? args : JSON.stringify(args);
		out.push(["content_block_start", { type: "content_block_start", index, content_block: { type: "tool_use", id: `toolu_${i}`, name, input: {} } }]);
		for (let at = 0; at < json.length; at += 5) {
			out.push(["content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: json.slice(at, at + 5) } }]);
		}
		out.push(["content_block_stop", { type: "content_block_stop", index }]);
		index += 1;
	});
	out.push(["ping", { type: "ping" }]);
	out.push(["message_delta", { type: "message_delta", delta: { stop_reason: toolCalls.length ? "tool_use" : "end_turn" } }]);
	out.push(["message_stop", { type: "message_stop" }]);
	return out.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join("");
}

function splitText(text) {
	return text.match(/\S+\s*|\s+/g) ?? [];
}

/**
 * Starts a server. `script(reply)` queues replies in order; a reply is
 * `{ stream }` (SSE text), `{ status, json, headers }` (an error answer,
 * e.g. with `Retry-After`), `{ whole }` (one application/json body, as a
 * server that ignores `stream: true` sends), `{ raw, status }` (a text
 * body), `{ stream, hangAfter: n }` (send n chunks, then go silent until the
 * client gives up) or `{ stream, cutAfter: n }` (send n chunks, then drop the
 * connection); a stream may set its own `chunkSize` and `delayMs` (a slow
 * answer). Every request is kept in `requests` with its parsed JSON
 * body; `openSockets()` counts connections still open.
 */
export async function startModelServer({ chunkSize = 7, delayMs = 0 } = {}) {
	const queue = [];
	const requests = [];
	const hanging = new Set();
	const server = createServer((req, res) => {
		let body = "";
		req.setEncoding("utf8");
		req.on("data", (part) => (body += part));
		req.on("end", async () => {
			let json = null;
			try {
				json = body ? JSON.parse(body) : null;
			} catch {
				json = { unparsable: body };
			}
			requests.push({ method: req.method, url: req.url, headers: req.headers, body: json });
			if (req.method === "GET" && req.url.endsWith("/models")) {
				res.writeHead(200, { "content-type": "application/json" });
				res.end(JSON.stringify({ data: [{ id: "test-model" }, { id: "other-model" }] }));
				return;
			}
			const reply = queue.shift();
			if (!reply) {
				res.writeHead(500, { "content-type": "application/json" });
				res.end(JSON.stringify({ error: { message: "the test server has no reply scripted" } }));
				return;
			}
			if (reply.whole) {
				res.writeHead(200, { "content-type": "application/json" });
				res.end(JSON.stringify(reply.whole));
				return;
			}
			if (reply.raw !== undefined) {
				res.writeHead(reply.status ?? 200, { "content-type": "text/plain" });
				res.end(reply.raw);
				return;
			}
			if (reply.status) {
				res.writeHead(reply.status, { "content-type": "application/json", ...(reply.headers ?? {}) });
				res.end(JSON.stringify(reply.json ?? {}));
				return;
			}
			res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
			const bytes = Buffer.from(reply.stream, "utf8");
			const size = reply.chunkSize ?? chunkSize;
			const pause = reply.delayMs ?? delayMs;
			let sent = 0;
			for (let at = 0; at < bytes.length; at += size) {
				if (reply.cutAfter !== undefined && sent >= reply.cutAfter) {
					res.socket.destroy();
					return;
				}
				if (reply.hangAfter !== undefined && sent >= reply.hangAfter) {
					hanging.add(res);
					res.on("close", () => hanging.delete(res));
					return; // never ends: only the client's Stop ends it
				}
				res.write(bytes.subarray(at, at + size));
				sent += 1;
				// A real model paces its tokens; delayMs imitates that.
				await new Promise((resolve) => (pause > 0 ? setTimeout(resolve, pause) : setImmediate(resolve)));
			}
			res.end();
		});
	});
	const sockets = new Set();
	server.on("connection", (socket) => {
		sockets.add(socket);
		socket.on("close", () => sockets.delete(socket));
	});
	await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address();
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		script: (...replies) => queue.push(...replies),
		pending: () => queue.length,
		openSockets: () => sockets.size,
		clear: () => queue.splice(0),
		close: () =>
			new Promise((resolve) => {
				for (const res of hanging) res.destroy();
				server.closeAllConnections?.();
				server.close(resolve);
			}),
	};
}
