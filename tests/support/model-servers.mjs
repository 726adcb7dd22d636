// Scripted model servers on localhost: real HTTP with SSE, each reply cut
// into small chunks at awkward places (inside lines, inside \r\n pairs and
// inside multi-byte characters), for the OpenAI Chat Completions and the
// Anthropic Messages APIs.
import { createServer } from "node:http";

/**
 * An OpenAI-compatible stream: reasoning pieces (in `reasoningField`:
 * `reasoning_content` as DeepSeek and LM Studio name it, or `reasoning` as
 * OpenRouter and Ollama do), text pieces, then tool calls in fragments, and
 * with `usage` the last chunk that `stream_options.include_usage` asks for.
 */
export function openaiStream({ text = "", toolCalls = [], reasoning = "", reasoningField = "reasoning_content", usage = null } = {}) {
	const events = [];
	for (const piece of splitText(reasoning)) events.push({ choices: [{ index: 0, delta: { [reasoningField]: piece } }] });
	for (const piece of splitText(text)) events.push({ choices: [{ index: 0, delta: { content: piece } }] });
	toolCalls.forEach(([name, args], index) => {
		const json = typeof args === "string" ? args : JSON.stringify(args);
		const cut = Math.floor(json.length / 2);
		events.push({ choices: [{ index: 0, delta: { tool_calls: [{ index, id: `call_${index}`, type: "function", function: { name, arguments: json.slice(0, cut) } }] } }] });
		events.push({ choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: json.slice(cut) } }] } }] });
	});
	events.push({ choices: [{ index: 0, delta: {}, finish_reason: toolCalls.length ? "tool_calls" : "stop" }] });
	if (usage) events.push({ choices: [], usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output } });
	return `${events.map((e) => `data: ${JSON.stringify(e)}\r\n\r\n`).join(": keep-alive\r\n\r\n")}data: [DONE]\r\n\r\n`;
}

/**
 * An Anthropic Messages stream: a signed thinking block (with `thinking`), a
 * text block and tool_use blocks; with `usage`, the input tokens in
 * `message_start` and the output in `message_delta`, as Anthropic reports them.
 */
export function anthropicStream({ text = "", toolCalls = [], thinking = "", signature = "sig-0", usage = null } = {}) {
	const message = { id: "msg_1", role: "assistant", content: [] };
	if (usage) message.usage = { input_tokens: usage.input, output_tokens: 1 };
	const out = [["message_start", { type: "message_start", message }]];
	let index = 0;
	if (thinking) {
		out.push(["content_block_start", { type: "content_block_start", index, content_block: { type: "thinking", thinking: "" } }]);
		for (const piece of splitText(thinking)) out.push(["content_block_delta", { type: "content_block_delta", index, delta: { type: "thinking_delta", thinking: piece } }]);
		out.push(["content_block_delta", { type: "content_block_delta", index, delta: { type: "signature_delta", signature } }]);
		out.push(["content_block_stop", { type: "content_block_stop", index }]);
		index += 1;
	}
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
	const delta = { type: "message_delta", delta: { stop_reason: toolCalls.length ? "tool_use" : "end_turn" } };
	if (usage) delta.usage = { output_tokens: usage.output };
	out.push(["message_delta", delta]);
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
 * client gives up), `{ stream, cutAfter: n }` (send n chunks, then drop the
 * connection) or `{ stream, pauseAfter: n, resume }` (send n chunks, wait
 * for the promise `resume`, then send the rest: an answer still streaming
 * for as long as a test needs); a stream may set its own `chunkSize` and `delayMs` (a slow
 * answer), and `firstDelayMs`: the headers at once, then silence that long
 * before the first chunk (llama.cpp on a CPU reading the prompt). Every request is kept in `requests` with its parsed JSON
 * body; `openSockets()` counts connections still open.
 *
 * The side endpoints the agent asks for the context window answer 404
 * unless given: `show` for Ollama's `POST …/api/show`, `lmStudioModels` for
 * LM Studio's `GET …/api/v0/models`, `models` for the `GET …/models`
 * listing (OpenRouter's carries `context_length`; `modelsDelayMs` makes it slow). `rejectStreamOptions`
 * answers a request with `stream_options` 400, as some servers do.
 * `requireKey` guards the `…/models` listing: 401 unless the request
 * carries `Authorization: Bearer <requireKey>`. `modelsAnswer` (`{ status,
 * json }`) replaces the listing, as a gateway that passes only messages
 * answers it. A summary request (the chat compacting earlier turns) is
 * answered with `summary` at once, outside the queue; `summary: null` queues it.
 */
/** A summary the chat asks for when it compacts earlier turns (src/doors/chat/compact.rs), told by its instructions. */
export function isSummaryRequest(body) {
	// Anthropic's instructions are its `system`; OpenAI's the first message.
	const first = body?.system ?? body?.messages?.[0]?.content;
	const text = Array.isArray(first) ? first.map((b) => b.text ?? "").join("") : String(first ?? "");
	return text.startsWith("You summarise the earlier part of a chat");
}

export async function startModelServer({ chunkSize = 7, delayMs = 0, show = null, lmStudioModels = null, models = null, modelsDelayMs = 0, rejectStreamOptions = false, requireKey = null, modelsAnswer = null, summary = "Earlier, the user asked about notes in the vault and got answers." } = {}) {
	const queue = [];
	const requests = [];
	const hanging = new Set();
	const server = createServer((req, res) => {
		// When the request arrived (benchmarks split the time to first token).
		const arrived = performance.now();
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
			requests.push({ method: req.method, url: req.url, headers: req.headers, body: json, arrived });
			const answer = (status, value) => {
				res.writeHead(status, { "content-type": "application/json" });
				res.end(JSON.stringify(value));
			};
			if (req.url.endsWith("/api/show")) return answer(show ? 200 : 404, show ?? { error: "404 page not found" });
			if (req.url.endsWith("/api/v0/models")) return answer(lmStudioModels ? 200 : 404, lmStudioModels ?? { error: "not found" });
			if (req.method === "GET" && req.url.endsWith("/models")) {
				if (modelsAnswer) return answer(modelsAnswer.status, modelsAnswer.json);
				if (requireKey && req.headers.authorization !== `Bearer ${requireKey}`) return answer(401, { error: { message: "Invalid API key" } });
				const list = models ?? { data: [{ id: "test-model" }, { id: "other-model" }] };
				if (modelsDelayMs > 0) return void setTimeout(() => answer(200, list), modelsDelayMs);
				return answer(200, list);
			}
			// A chat compacting its earlier turns is answered by itself (not from the
			// queue), unless `summary` is null: a model that summarises when asked.
			if (summary !== null && isSummaryRequest(json)) {
				res.writeHead(200, { "content-type": "text/event-stream" });
				res.end(req.url.includes("/messages") ? anthropicStream({ text: summary }) : openaiStream({ text: summary }));
				return;
			}
			if (rejectStreamOptions && json?.stream_options) {
				return answer(400, { error: { message: "Unrecognized request argument supplied: stream_options" } });
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
			if (reply.firstDelayMs) {
				res.flushHeaders();
				await new Promise((resolve) => setTimeout(resolve, reply.firstDelayMs));
				if (res.destroyed) return;
			}
			let sent = 0;
			for (let at = 0; at < bytes.length; at += size) {
				if (reply.cutAfter !== undefined && sent >= reply.cutAfter) {
					res.socket.destroy();
					return;
				}
				if (reply.pauseAfter !== undefined && sent === reply.pauseAfter) {
					res.flushHeaders();
					await reply.resume;
					if (res.destroyed) return;
				}
				if (reply.hangAfter !== undefined && sent >= reply.hangAfter) {
					// Headers go out even when nothing else does (hangAfter: 0).
					res.flushHeaders();
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
